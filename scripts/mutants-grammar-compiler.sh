#!/usr/bin/env bash
# Mutation testing of the check that a grammar rule compiles to an automaton that reads as pest
# reads it (src/notation/regular.rs: `check_sound` and what it calls, the first-character sets
# and the witnesses). Each mutant (one deliberate bug) is built and the tests that guard the
# compiler are run against it; every mutant must be caught (or fail to build).
#
#   scripts/mutants-grammar-compiler.sh
#
# Needs cargo-mutants (`cargo install cargo-mutants --locked`). It copies the repository to a
# temporary folder and builds it there, so the first build is a full one; then each mutant
# costs a build of the library and of the `properties` test binary. Results are in
# mutants.out/ (caught.txt, missed.txt, unviable.txt, timeout.txt); the exit status is 0 only
# when no mutant was missed.
#
# Run it after changing the compiler or its tests; it is too long for every CI run.
set -euo pipefail
cd "$(dirname "$0")/.."
functions='Rules::sound|Rules::commits_wrongly|Rules::concat|Rules::first|witness|\bthen\b|ByteSet|lead_byte'
exec cargo mutants --file src/notation/regular.rs --re "$functions" --timeout 300 --build-timeout 300 \
    --cargo-arg=--test=properties -- -- \
    grammar_decides::random_grammars grammar_decides::every_compiled grammar_decides::the_compiler \
    grammar_decides::an_unsound grammar_decides::the_rules_kifu_runs
