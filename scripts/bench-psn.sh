#!/usr/bin/env bash
# Measures `kifu check` over the real PSN corpus repeated to at least 50 MB: wall time,
# games/s, MB/s and peak RSS.
#
#   scripts/bench-psn.sh
#
# 1. concatenates every file of ../shared/corpus/psn (each followed by a blank line), over and
#    over, into $DATA_DIR/psn-corpus-50mb.psn until it holds at least $MIN_MB MB; the mixed
#    encodings of the corpus (UTF-8, ISO-8859-1, CP437) make the whole file a legacy-encoded
#    one, as a real archive of mixed origin would be;
# 2. builds kifu in release (honouring CARGO_TARGET_DIR);
# 3. runs `kifu check` on it RUNS times with the default thread count and RUNS times with
#    `-j1`, under /usr/bin/time -v, and prints each run as key=value pairs, e.g.
#
#   file=psn-corpus-50mb.psn jobs=default run=1 exit=1 games=48000 mb=50.2 wall_s=0.9 games_per_s=… mb_per_s=… peak_rss_mib=…
#
# `kifu check` exits 1 because the corpus holds a corrupted game; any other non-zero status
# stops the script.
#
# Environment (all optional): DATA_DIR (default /tmp), MIN_MB (default 50), RUNS (default 3),
# CARGO_TARGET_DIR.

set -euo pipefail

die() {
    echo "bench-psn: $*" >&2
    exit 2
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS="$(dirname "$ROOT")/shared/corpus/psn"
DATA_DIR=${DATA_DIR:-/tmp}
MIN_MB=${MIN_MB:-50}
RUNS=${RUNS:-3}
TIME=/usr/bin/time

[[ -d $CORPUS ]] || die "$CORPUS is absent: this script reads the shared PSN corpus beside the repository"
[[ -x $TIME ]] || die "$TIME is missing: install GNU time (apt-get install time)"

FILE="$DATA_DIR/psn-corpus-${MIN_MB}mb.psn"
if [[ ! -f $FILE ]] || (( $(stat -c %s "$FILE") < MIN_MB * 1000000 )); then
    echo "# writing $FILE"
    : >"$FILE"
    once=$(mktemp)
    for f in "$CORPUS"/*.psn; do
        cat "$f" >>"$once"
        printf '\n\n' >>"$once"
    done
    while (( $(stat -c %s "$FILE") < MIN_MB * 1000000 )); do
        cat "$once" >>"$FILE"
    done
    rm -f "$once"
fi
BYTES=$(stat -c %s "$FILE")

echo "# building kifu (release)"
(cd "$ROOT" && cargo build --release --quiet) || die "the release build failed"
KIFU="${CARGO_TARGET_DIR:-$ROOT/target}/release/kifu"

for jobs in default 1; do
    for run in $(seq 1 "$RUNS"); do
        args=(check "$FILE")
        [[ $jobs == default ]] || args=(check -j "$jobs" "$FILE")
        log=$(mktemp)
        set +e
        $TIME -v "$KIFU" "${args[@]}" >"$log.out" 2>"$log"
        code=$?
        set -e
        (( code == 0 || code == 1 )) || { cat "$log" >&2; die "kifu exited with $code"; }
        summary=$(tail -n 1 "$log.out")
        games=${summary%% *}
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$log")
        rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$log")
        awk -v f="$(basename "$FILE")" -v j="$jobs" -v r="$run" -v c="$code" -v g="$games" -v b="$BYTES" -v w="$wall" -v m="$rss" \
            'BEGIN { printf "file=%s jobs=%s run=%s exit=%s games=%s mb=%.1f wall_s=%.3f games_per_s=%.0f mb_per_s=%.1f peak_rss_mib=%s\n", f, j, r, c, g, b/1e6, w, g/w, b/1e6/w, m }'
        rm -f "$log" "$log.out"
    done
done
