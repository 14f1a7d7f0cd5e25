#!/usr/bin/env bash
# Single move typos of PSN games: how often kifu reports exactly one error, and how often that
# error's first fix makes the game valid again. Prints the shares for the games kifu generates
# and for the valid games of the corpus in ../shared/corpus/psn, when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --test properties psn_typos:: -- --nocapture 2>&1 |
    grep -E '^(generated|corpus) games|^  \[|^note: ' || true
