#!/usr/bin/env bash
# Measures `kifu check` over generated SFEN files: wall time, records/s and peak RSS.
#
#   scripts/bench-check.sh
#
# 1. builds the generator from ../shared/tools/gen-positions (beside the repository) into a
#    temporary target directory; it is run, never copied into kifu;
# 2. generates 1,000,000 USI SFEN records and 1,000,000 FEN records (seed 1), and the same
#    with 5% of the records corrupted, unless the files are already there with the right number
#    of lines;
# 3. builds kifu in release (honouring CARGO_TARGET_DIR);
# 4. runs `kifu check` on each file RUNS times with the default thread count and RUNS times
#    with `-j1`, each under /usr/bin/time -v, and prints every run and the median.
#
# Output: lines starting with `#` are comments; every other line is one measurement as
# space-separated key=value pairs (`run=median` for the medians), e.g.
#
#   file=sfen-1m.sfen jobs=default run=2 exit=0 records=1000000 wall_s=1.153 records_per_s=867303 peak_rss_mib=8.2 user_s=2.23 sys_s=0.05
#
# (a run measured on the 2-core development machine)
#
# so `grep -v '^#'` and a split on spaces and `=` read it.
#
# `kifu check` exits 1 when some records are invalid: expected for the corrupted file, and not
# a failure here. Any other non-zero status (2: usage or I/O error, 101: a panic, 128+N: a
# signal) stops the script.
#
# Environment (all optional):
#   DATA_DIR          where the .sfen files are kept (default: /tmp)
#   RECORDS           records per file (default: 1000000)
#   SEED              generator seed (default: 1)
#   BAD_RATE          share of corrupted records in the bad file (default: 0.05)
#   RUNS              runs per file and thread setting (default: 3)
#   GENPOS_TARGET_DIR target directory for the generator (default: $TMPDIR/genpos-target)
#   CARGO_TARGET_DIR  target directory for kifu (cargo's own default otherwise)

set -euo pipefail

die() {
    echo "bench-check: $*" >&2
    exit 2
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED="$(dirname "$ROOT")/shared"
GEN_SRC="$SHARED/tools/gen-positions"
DATA_DIR=${DATA_DIR:-/tmp}
RECORDS=${RECORDS:-1000000}
SEED=${SEED:-1}
BAD_RATE=${BAD_RATE:-0.05}
RUNS=${RUNS:-3}
GENPOS_TARGET_DIR=${GENPOS_TARGET_DIR:-${TMPDIR:-/tmp}/genpos-target}
TIME=/usr/bin/time

[[ -d $SHARED ]] || die "$SHARED is absent: this script needs the shared tools checked out beside the repository (../shared/tools/gen-positions)"
[[ -f $GEN_SRC/Cargo.toml ]] || die "$GEN_SRC/Cargo.toml is absent: the generator is missing from ../shared"
[[ -x $TIME ]] || die "$TIME is missing: install GNU time (apt-get install time)"
$TIME -v true >/dev/null 2>&1 || die "$TIME does not take -v: install GNU time (apt-get install time)"
command -v cargo >/dev/null || die "cargo is not on PATH"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number, not \`$RUNS'"
mkdir -p "$DATA_DIR"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The path of the executable `name` from the JSON messages of `cargo build`.
executable_of() {
    local name=$1
    sed -n "s|.*\"executable\":\"\\([^\"]*/$name\\)\".*|\\1|p" | tail -n 1
}

# ───── 1. the generator ─────
echo "# building gen-positions into $GENPOS_TARGET_DIR"
GEN=$(CARGO_TARGET_DIR=$GENPOS_TARGET_DIR cargo build --release --locked --quiet \
    --manifest-path "$GEN_SRC/Cargo.toml" --message-format=json-render-diagnostics | executable_of gen-positions)
[[ -n $GEN && -x $GEN ]] || die "building gen-positions did not produce an executable"

# ───── 2. the data ─────
GOOD="$DATA_DIR/sfen-1m.sfen"
BAD="$DATA_DIR/sfen-bad.sfen"
FEN_GOOD="$DATA_DIR/fen-1m.fen"
FEN_BAD="$DATA_DIR/fen-bad.fen"
if [[ $RECORDS != 1000000 || $SEED != 1 || $BAD_RATE != 0.05 ]]; then
    GOOD="$DATA_DIR/sfen-$RECORDS-s$SEED.sfen"
    BAD="$DATA_DIR/sfen-bad-$RECORDS-s$SEED-r$BAD_RATE.sfen"
    FEN_GOOD="$DATA_DIR/fen-$RECORDS-s$SEED.fen"
    FEN_BAD="$DATA_DIR/fen-bad-$RECORDS-s$SEED-r$BAD_RATE.fen"
fi

# Generates `$1` with the generator arguments that follow, unless it already holds RECORDS lines.
generate() {
    local file=$1
    shift
    if [[ -s $file ]] && [[ $(wc -l <"$file") -eq $RECORDS ]]; then
        echo "# using existing $file"
        return
    fi
    echo "# generating $file (gen-positions $*)"
    "$GEN" "$@" >"$file.tmp"
    mv "$file.tmp" "$file"
}
generate "$GOOD" sfen "$RECORDS" "$SEED"
generate "$BAD" sfen-bad "$RECORDS" "$SEED" "$BAD_RATE"
generate "$FEN_GOOD" fen "$RECORDS" "$SEED"
generate "$FEN_BAD" fen-bad "$RECORDS" "$SEED" "$BAD_RATE"

# ───── 3. kifu ─────
echo "# building kifu (release)${CARGO_TARGET_DIR:+ into $CARGO_TARGET_DIR}"
KIFU=$(cd "$ROOT" && cargo build --release --locked --quiet --bin kifu \
    --message-format=json-render-diagnostics | executable_of kifu)
[[ -n $KIFU && -x $KIFU ]] || die "building kifu did not produce an executable"

# ───── 4. the runs ─────
# The median of the numbers on standard input, one per line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Runs `kifu check` on file $1 with extra arguments $2 (may be empty), labelled $3, RUNS times.
measure() {
    local file=$1 extra=$2 jobs=$3 name run rc start end wall records rss user sys
    name=$(basename "$file")
    local walls=() rsss=() summary=""
    for ((run = 1; run <= RUNS; run++)); do
        start=$EPOCHREALTIME
        # shellcheck disable=SC2086 # $extra is empty or one option
        if $TIME -v -o "$WORK/time" "$KIFU" check --color never $extra "$file" >"$WORK/out" 2>"$WORK/err"; then
            rc=0
        else
            rc=$?
        fi
        end=$EPOCHREALTIME
        if ((rc != 0 && rc != 1)); then
            echo "bench-check: \`kifu check $extra $file' exited with status $rc" >&2
            tail -n 20 "$WORK/err" >&2
            exit 1
        fi
        if [[ -n $summary && $(tail -n 1 "$WORK/out") != "$summary" ]]; then
            echo "# warning: run $run printed a different summary: $(tail -n 1 "$WORK/out")"
        fi
        summary=$(tail -n 1 "$WORK/out")
        records=${summary%% records:*}
        [[ $records =~ ^[0-9]+$ ]] || die "unexpected summary line from kifu: $summary"
        wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
        rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$WORK/time")
        user=$(awk -F': ' '/User time \(seconds\)/ { print $2 }' "$WORK/time")
        sys=$(awk -F': ' '/System time \(seconds\)/ { print $2 }' "$WORK/time")
        walls+=("$wall")
        rsss+=("$rss")
        echo "file=$name jobs=$jobs run=$run exit=$rc records=$records wall_s=$wall" \
            "records_per_s=$(awk -v n="$records" -v w="$wall" 'BEGIN { printf "%.0f", n / w }')" \
            "peak_rss_mib=$rss user_s=$user sys_s=$sys"
    done
    wall=$(printf '%s\n' "${walls[@]}" | median)
    rss=$(printf '%s\n' "${rsss[@]}" | median)
    echo "file=$name jobs=$jobs run=median records=$records wall_s=$(awk -v w="$wall" 'BEGIN { printf "%.3f", w }')" \
        "records_per_s=$(awk -v n="$records" -v w="$wall" 'BEGIN { printf "%.0f", n / w }')" \
        "peak_rss_mib=$(awk -v r="$rss" 'BEGIN { printf "%.1f", r }')"
    echo "# kifu: $summary"
}

echo "# kifu $("$KIFU" --version | awk '{ print $2 }') ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ', modified'))," \
    "$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo 'unknown CPU')"
echo "# $RUNS runs each; wall time from the shell, peak RSS (Maximum resident set size), user and sys from $TIME -v"
for file in "$GOOD" "$BAD" "$FEN_GOOD" "$FEN_BAD"; do
    measure "$file" "" default
    measure "$file" "-j1" 1
done
