#!/usr/bin/env bash
# Writes the seed corpus of every fuzz target, fuzz/corpus/<target>/seed-*, from the
# repository's own examples, test fixtures and grammars only (never from ../shared: its files
# are not ours to copy). Run from anywhere; it replaces the seeds and leaves other files alone.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=fuzz/corpus

# seed TARGET NAME: standard input as the seed `seed-NAME` of TARGET.
seed() {
  cat > "$corpus/$1/seed-$2"
}

# lines TARGET FILE...: each non-empty line of each file as a seed, without its line end.
lines() {
  local target=$1 file stem n line
  shift
  for file in "$@"; do
    stem=$(basename "$file")
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
      n=$((n + 1))
      line=${line%$'\r'}
      [ -n "$line" ] || continue
      printf '%s' "$line" | seed "$target" "$stem-$n"
    done < "$file"
  done
}

# whole TARGET FILE...: each file as one seed.
whole() {
  local target=$1 file
  shift
  for file in "$@"; do
    seed "$target" "$(basename "$file")" < "$file"
  done
}

targets="sfen_check fen_check epd_check psn_check json_check psn_convert position_convert grammar_load lsp_session file_names fix"
for t in $targets; do
  mkdir -p "$corpus/$t"
  rm -f "$corpus/$t"/seed-*
done

sfen=(examples/*.sfen tests/fixtures/sfen/*/*.sfen tests/fixtures/views/*.sfen)
fen=(examples/*.fen tests/fixtures/fen/*/*.fen tests/fixtures/views/*.fen)
epd=(tests/fixtures/fen/*/*.epd)
psn=(examples/*.psn tests/fixtures/psn/*/*.psn)

lines sfen_check "${sfen[@]}"
lines fen_check "${fen[@]}"
lines epd_check "${epd[@]}" examples/*.fen
lines position_convert "${sfen[@]}" "${fen[@]}"
whole psn_check "${psn[@]}"
whole psn_convert "${psn[@]}"

# JSON: the fixture, each of its lines, and each example position as kifu writes it.
whole json_check tests/fixtures/views/*.json
lines json_check tests/fixtures/views/*.json
if command -v cargo >/dev/null 2>&1; then
  for file in examples/tour.sfen examples/boards.fen; do
    cargo run -q --bin kifu -- json "$file" 2>/dev/null | seed json_check "$(basename "$file").json" || true
  done
fi

# Grammars: each grammar alone, and the shipped ones with records after a NUL.
whole grammar_load grammar/*.pest tests/fixtures/playground/*.pest
for pair in sfen:examples/tour.sfen fen:examples/boards.fen; do
  g=${pair%%:*}
  { cat "grammar/$g.pest"; printf '\0'; cat "${pair#*:}"; } | seed grammar_load "$g-records"
done
{ cat tests/fixtures/playground/sfen-side-any-case.pest; printf '\0'; cat examples/tour.sfen; } |
  seed grammar_load "sfen-side-any-case-records"

# The language server: each file opened as a document, with a script that does every thing an
# editor does (hovers, code actions, formatting, the outline, edits, junk, shutdown); one in
# UTF-8 positions.
script='\0\0\0\1\1\0\0\5\2\3\4\0\1\1\2\2x\n\0\2\1\5\6\3{}x\3\7\0'
for pair in sfen:examples/tour.sfen fen:examples/boards.fen epd:tests/fixtures/fen/ok/epd_operations.epd \
  psn:examples/tour.psn json:tests/fixtures/views/faults.json sfen,utf8:examples/tour.sfen; do
  file=${pair#*:}
  [ -f "$file" ] || continue
  { printf '%s\0' "${pair%%:*}"; cat "$file"; printf '\0'; printf "$script"; } | seed lsp_session "$(basename "$file")-${pair%%:*}"
done
for file in "${psn[@]}"; do
  { printf 'psn\0'; cat "$file"; printf '\0'; printf '\3\0\5\3\2\7'; } | seed lsp_session "$(basename "$file")"
done

# File names that would act where they are written, each with records that have a fix.
names=(
  $'a\n::error file=README.md,line=1::INJECTED\n::stop-commands::x\n.sfen'
  $'x\n+++ victim.sfen\n@@ -1 +1 @@\n-a\n+PWNED\n.sfen'
  'a%20b#c?d,e:f.sfen'
  $'\e]0;t\a\e[2J\xc2\x9b31m.sfen'
  $'evil\xe2\x80\xaenfs.exe\xe2\x81\xa6.sfen'
  $'"q\\b\t".sfen'
  '/abs/päth with space.sfen'
)
n=0
for name in "${names[@]}"; do
  for file in examples/tour.sfen examples/boards.fen; do
    n=$((n + 1))
    { printf '%s\0' "$name"; head -n 3 "$file" | tail -n 1; } | seed file_names "$n"
  done
done

# --fix: each file whole, its format named by the first byte (in capitals, unsafe fixes too).
for pair in s:"${sfen[*]}" f:"${fen[*]}" e:"${epd[*]}" p:"${psn[*]}" j:tests/fixtures/views/faults.json; do
  for file in ${pair#*:}; do
    { printf '%s' "${pair%%:*}"; cat "$file"; } | seed fix "${pair%%:*}-$(basename "$file")"
  done
done
for file in examples/tour.sfen examples/tour.psn; do
  { printf '%s' "$(basename "$file" | sed 's/.*\.\(.\).*/\1/' | tr a-z A-Z)"; cat "$file"; } | seed fix "unsafe-$(basename "$file")"
done

# Identical seeds are kept once.
for t in $targets; do
  declare -A seen=()
  for f in "$corpus/$t"/seed-*; do
    sum=$(sha1sum < "$f" | cut -c1-40)
    if [ -n "${seen[$sum]:-}" ]; then rm -f "$f"; else seen[$sum]=1; fi
  done
  unset seen
done
du -sh "$corpus"
for t in $targets; do
  printf '%-18s %s seeds\n' "$t" "$(ls "$corpus/$t" | grep -c '^seed-')"
done
