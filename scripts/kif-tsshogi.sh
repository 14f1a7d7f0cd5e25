#!/usr/bin/env bash
# KIF that kifu writes, read back by another program: every PSN file of tests/fixtures/psn/ok,
# examples/ and ../shared/corpus/psn (when it is there) converted with `kifu convert --to kifu`,
# read with tsshogi (npm), and each game's start and main line compared with what
# `kifu convert --to usi` says of the same file. Prints the files that differ (a start with a
# move number other than 1 differs: KIF cannot hold it, and kifu warns so), then the counts.
#
# Needs node and npm; tsshogi is installed into a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent tsshogi >/dev/null)
cat >"$work/read.mjs" <<'JS'
import { importKIF } from "tsshogi";
import fs from "fs";
// Games are separated by the `#KIF` line each starts with.
for (const game of fs.readFileSync(process.argv[2], "utf8").split(/\n(?=#KIF )/)) {
  const record = importKIF(game);
  if (record instanceof Error) { console.log(`error: ${record.message}`); continue; }
  const moves = record.moves.slice(1).map((n) => n.move.usi).filter((m) => typeof m === "string");
  console.log(`sfen ${record.initialPosition.sfen}${moves.length ? " moves " + moves.join(" ") : ""}`);
}
JS
cargo build -q
kifu=target/debug/kifu
same=0 differ=0 games=0
for file in tests/fixtures/psn/ok/*.psn examples/*.psn ../shared/corpus/psn/*.psn; do
  [ -f "$file" ] || continue
  "$kifu" convert --to kifu "$file" >"$work/out.kifu" 2>/dev/null || true
  "$kifu" convert --to usi "$file" >"$work/ours.txt" 2>/dev/null || true
  [ -s "$work/out.kifu" ] || continue
  node "$work/read.mjs" "$work/out.kifu" >"$work/theirs.txt"
  games=$((games + $(wc -l <"$work/ours.txt")))
  if cmp -s "$work/ours.txt" "$work/theirs.txt"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "differs: $file"
    diff "$work/ours.txt" "$work/theirs.txt" | head -4 | cut -c1-160 || true
  fi
done
echo "files read back alike: $same; differing: $differ; games: $games"
