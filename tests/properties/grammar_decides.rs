//! The grammar decides. Two checks over generated and mutated text:
//!
//! 1. Every rule of every grammar that compiles to an automaton reads exactly as pest reads it:
//!    texts drawn from the automaton's own regular language are accepted by pest, and on texts
//!    drawn from the language and then edited, pest and the automaton agree (for a rule matched
//!    at the start of a longer text, on the length of the match too). A rule the compiler
//!    refuses is refused for a reason that a text shows.
//! 2. The guard: for SFEN (either dialect, and each alone), FEN, Chess960 and EPD records, a
//!    record in which `check` finds no syntax error is accepted by the grammar's record rule for
//!    its dialect, and a record the grammar rejects gets a syntax error placed where pest stops
//!    reading or before.

use crate::common::shared;

use kifu::fen::{self, parser::FenParser, Kind};
use kifu::notation::grammar::{self, PrefixDfa, RuleDfa, Rules};
use kifu::sfen::{self, parser::SfenParser, DialectChoice};
use pest::Parser;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// The characters edits insert: every character the grammars name, and a few they do not.
const ALPHABET: &[&str] = &[
    "", "", "", " ", " ", "/", "+", "-", "0", "1", "2", "8", "9", "10", "a", "b", "w", "B", "W", "K", "k", "P", "p",
    "Q", "q", "g", "h", "3", "6", "\"", ";", "_", ":", "[", "]", "(", ")", "{", "}", "*", "'", "@", "x", "=", ".", "$",
    "!", "?", "\t", "\u{0}", "ｐ", "½", "\u{3000}", "\u{2013}", "é",
];

/// A runner with a fixed seed, so that a failure repeats; `KIFU_GUARD_SEED=n` draws other cases.
fn runner() -> TestRunner {
    let seed: u8 = std::env::var("KIFU_GUARD_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(7);
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]))
}

/// `text` with one to three random edits (a character deleted, replaced or inserted).
fn mutate(text: &str, rng: &mut TestRng) -> String {
    let mut s = text.to_owned();
    for _ in 0..rng.random_range(1..=3) {
        let mut at = rng.random_range(0..=s.len());
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        let end = s[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        let with = ALPHABET[rng.random_range(0..ALPHABET.len())];
        match rng.random_range(0..3) {
            0 => s.replace_range(at..end, ""),
            1 => s.replace_range(at..end, with),
            _ => s.insert_str(at, with),
        }
    }
    s
}

/// Samples of `rule`'s regular language.
fn samples(grammar: &Rules, rule: &str, runner: &mut TestRunner, n: usize) -> Vec<String> {
    let regex = grammar.to_sample_regex(rule).expect("a compiled rule has a regex");
    let strategy = proptest::string::string_regex(&regex).expect("the regex generates");
    (0..n).map(|_| strategy.new_tree(runner).expect("a sample").current()).collect()
}

/// pest's VM over the grammar, with two rules added for each rule `r`: `kifu_whole_r`, which
/// matches `r` over a whole text, and `kifu_prefix_r`, whose pair spans what `r` matches at the
/// start of a text.
fn vm(sources: &[&str], names: &[&str]) -> pest_vm::Vm {
    let mut text = sources.join("\n");
    for r in names {
        text.push_str(&format!("\nkifu_whole_{r} = {{ SOI ~ {r} ~ EOI }}\nkifu_prefix_{r} = {{ {r} }}"));
    }
    let (_, rules) = pest_meta::parse_and_optimize(&text).expect("the grammar with its wrappers parses");
    pest_vm::Vm::new(rules)
}

fn grammars() -> [(&'static str, Vec<&'static str>); 4] {
    [
        ("sfen.pest", vec![grammar::SFEN, grammar::COMMON]),
        ("fen.pest", vec![grammar::FEN, grammar::COMMON]),
        ("psn.pest", vec![grammar::PSN, grammar::COMMON]),
        ("kif.pest", vec![grammar::KIF]),
    ]
}

#[test]
fn every_compiled_rule_reads_as_pest_reads_it() {
    let mut runner = runner();
    let mut compiled = 0;
    let mut prefix_compiled = 0;
    for (file, sources) in grammars() {
        let grammar = Rules::parse(&sources).expect("the grammar parses");
        let names = grammar.names();
        let vm = vm(&sources, &names);
        for &rule in &names {
            let whole = RuleDfa::compile_in(&grammar, rule);
            let prefix = PrefixDfa::compile_in(&grammar, rule);
            let Ok(dfa) = whole else { continue };
            compiled += 1;
            let pest_whole = |text: &str| vm.parse(&format!("kifu_whole_{rule}"), text).is_ok();
            for sample in samples(&grammar, rule, &mut runner, 48) {
                assert!(dfa.is_match(&sample), "{file} `{rule}`: the automaton rejects its own sample {sample:?}");
                assert!(
                    pest_whole(&sample),
                    "{file} `{rule}`: pest rejects {sample:?}, a text of the rule's regular language"
                );
                for _ in 0..6 {
                    let edited = mutate(&sample, runner.rng());
                    assert_eq!(
                        dfa.is_match(&edited),
                        pest_whole(&edited),
                        "{file} `{rule}`: the automaton and pest disagree on {edited:?}"
                    );
                }
                if let Ok(prefix) = &prefix {
                    let tail = mutate(&format!("{sample}{sample}"), runner.rng());
                    for text in [format!("{sample}{tail}"), tail] {
                        let by_pest = vm
                            .parse(&format!("kifu_prefix_{rule}"), &text)
                            .ok()
                            .and_then(|mut pairs| pairs.next())
                            .map(|pair| pair.as_span().end());
                        assert_eq!(prefix.prefix(&text), by_pest, "{file} `{rule}` at the start of {text:?}");
                    }
                }
            }
            if prefix.is_ok() {
                prefix_compiled += 1;
            }
        }
    }
    // The rules kifu runs as automata are among them (a rewrite that made one unsound would
    // silently send every record through pest).
    assert!(compiled > 40, "only {compiled} rules compiled");
    assert!(prefix_compiled > 10, "only {prefix_compiled} rules compiled for prefixes");
}

#[test]
fn the_rules_kifu_runs_as_automata_compile() {
    for (sources, rules) in [
        (&[grammar::SFEN, grammar::COMMON][..], &["usi_record", "sfen2007_record", "record"][..]),
        (
            &[grammar::FEN, grammar::COMMON][..],
            &["fen_record", "fen960_record", "epd_record", "epd960_record", "epd_operations_field"][..],
        ),
        (&[grammar::PSN, grammar::COMMON][..], &["header", "header_named", "won_line", "variation_line"][..]),
    ] {
        let grammar = Rules::parse(sources).expect("parses");
        for rule in rules {
            if let Err(e) = RuleDfa::compile_in(&grammar, rule) {
                panic!("`{rule}` does not compile: {e}");
            }
        }
    }
    let psn = Rules::parse(&[grammar::PSN, grammar::COMMON]).expect("parses");
    assert!(PrefixDfa::compile_in(&psn, "paren_clock").is_ok());
    assert!(grammar::ChoiceDfa::compile_in(&psn, "word").is_ok());
}

/// A refused rule is refused with a text that shows the conflict, and pest and the regular
/// expression really do disagree on it.
#[test]
fn an_unsound_rule_is_refused_with_a_witness() {
    let text = r#"
        operand = @{ "\"" ~ (!"\"" ~ ANY)* ~ "\"" | (!(" " | ";") ~ ANY)+ }
        operation = ${ SOI ~ "bm" ~ (" " ~ operand)* ~ ";" ~ EOI }
        digits = @{ ASCII_DIGIT* ~ ASCII_DIGIT }
        dots = @{ "." | "..." }
        fine = @{ "..." | "." }
    "#;
    let grammar = Rules::parse(&[text]).expect("parses");
    for (rule, shows) in [("operation", "first alternative"), ("digits", "repeated"), ("dots", "first alternative")] {
        let err = RuleDfa::compile_in(&grammar, rule).err().unwrap_or_else(|| panic!("`{rule}` compiled"));
        let message = err.to_string();
        assert!(matches!(err, grammar::CompileError::Unsound { .. }), "{message}");
        assert!(message.contains(shows), "{message}");
    }
    // Where the conflict is at the top of the rule, the witness is a whole text that the
    // regular expression accepts and pest does not.
    let vm = vm(&[text], &["digits", "dots"]);
    for (rule, witness) in [("digits", "0"), ("dots", "...")] {
        let message = RuleDfa::compile_in(&grammar, rule).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains(&format!("{witness:?}")), "{message}");
        let regex =
            regex::Regex::new(&format!("^(?:{})$", grammar.to_sample_regex(rule).expect("regex"))).expect("valid");
        assert!(regex.is_match(witness));
        assert!(vm.parse(&format!("kifu_whole_{rule}"), witness).is_err());
    }
    assert!(RuleDfa::compile_in(&grammar, "fine").is_ok());
    // The issue's record: the regular expression took `"a` for a bare operand.
    let epd = r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm "a b"x;"#;
    let checked = fen::check(epd, Kind::Epd, fen::Dialect::Standard);
    assert!(!checked.syntax_ok);
    assert!(FenParser::parse(fen::parser::Rule::epd_record, epd).is_err());
}

/// Where pest stops reading `text` with `rule`: the furthest place it looked at.
fn pest_stop<R: pest::RuleType>(error: &pest::error::Error<R>) -> usize {
    let at = match error.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
    };
    error.parse_attempts().map_or(at, |a| a.max_position.max(at))
}

/// One record through the guard: `syntax_ok` is `check`'s verdict, `errors` the starts of its
/// syntax errors, `grammar` pest's.
fn guard<R: pest::RuleType>(
    what: &str,
    text: &str,
    syntax_ok: bool,
    errors: &[usize],
    grammar: Result<(), pest::error::Error<R>>,
) -> Result<(), String> {
    match grammar {
        Ok(()) => Ok(()),
        Err(_) if syntax_ok => {
            Err(format!("{what}: check finds no syntax error in {text:?}, which the grammar rejects"))
        }
        Err(e) => {
            let stop = pest_stop(&e);
            match errors.iter().min() {
                Some(&first) if first <= stop => Ok(()),
                Some(&first) => Err(format!(
                    "{what}: the grammar stops at {stop} in {text:?}, the first syntax error is at {first}"
                )),
                None => Err(format!("{what}: the grammar rejects {text:?} but check reports no syntax error")),
            }
        }
    }
}

fn check_sfen(text: &str) -> Result<(), String> {
    use sfen::parser::Rule;
    for (choice, rule) in [
        (DialectChoice::Auto, Rule::record),
        (DialectChoice::Usi, Rule::usi_record),
        (DialectChoice::Sfen2007, Rule::sfen2007_record),
    ] {
        let checked = sfen::check(text, choice);
        // The syntax errors: those of the builder, which reads every record the fast path declines.
        let errors: Vec<usize> = if checked.syntax_ok {
            Vec::new()
        } else {
            sfen::build::build(text, choice).1.iter().filter(|d| d.is_error()).map(|d| d.span().start).collect()
        };
        let grammar = SfenParser::parse(rule, text).map(|_| ());
        guard(&format!("SFEN {choice:?}"), text, checked.syntax_ok, &errors, grammar)?;
    }
    Ok(())
}

fn check_fen(text: &str, kind: Kind) -> Result<(), String> {
    use fen::parser::Rule;
    let dialects: &[(fen::Dialect, Rule)] = match kind {
        Kind::Fen => &[(fen::Dialect::Standard, Rule::fen_record), (fen::Dialect::Chess960, Rule::fen960_record)],
        Kind::Epd => &[(fen::Dialect::Standard, Rule::epd_record), (fen::Dialect::Chess960, Rule::epd960_record)],
    };
    for &(dialect, rule) in dialects {
        let checked = fen::check(text, kind, dialect);
        let errors: Vec<usize> = if checked.syntax_ok {
            Vec::new()
        } else {
            fen::build::build(text, kind, dialect).1.iter().filter(|d| d.is_error()).map(|d| d.span().start).collect()
        };
        let grammar = FenParser::parse(rule, text).map(|_| ());
        guard(&format!("{kind:?} {dialect:?}"), text, checked.syntax_ok, &errors, grammar)?;
    }
    Ok(())
}

/// Every line of the fixtures under `tests/fixtures/<dir>` with one of `exts`.
fn fixture_lines(dir: &str, exts: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["ok", "err"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir).join(sub);
        let Ok(entries) = std::fs::read_dir(&path) else { continue };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e)) {
                let text = std::fs::read(&p).expect("a fixture reads");
                out.extend(String::from_utf8_lossy(&text).lines().filter(|l| !l.trim().is_empty()).map(str::to_owned));
            }
        }
    }
    assert!(!out.is_empty(), "no fixtures in {dir}");
    out
}

/// Records drawn from a record rule's own language (`record` shapes the grammar allows), from
/// the fixtures, and both edited.
fn records(sources: &[&str], rule: &str, fixtures: Vec<String>, n: usize) -> Vec<String> {
    let grammar = Rules::parse(sources).expect("parses");
    let mut runner = runner();
    let mut base = samples(&grammar, rule, &mut runner, n / 4);
    base.extend(fixtures);
    let mut out = base.clone();
    while out.len() < n {
        let i = runner.rng().random_range(0..base.len());
        let edited = mutate(&base[i], runner.rng());
        out.push(edited);
    }
    out
}

#[test]
fn guard_sfen() {
    pest::set_error_detail(true);
    let mut fixtures = fixture_lines("sfen", &["sfen"]);
    fixtures.push(sfen::build::START.to_owned());
    let mut failures = Vec::new();
    let recs = records(&[grammar::SFEN, grammar::COMMON], "record", fixtures, 2000);
    for text in recs {
        if let Err(e) = check_sfen(&text) {
            failures.push(e);
        }
    }
    assert_agree(&failures);
}

#[test]
fn guard_fen_and_chess960() {
    pest::set_error_detail(true);
    let fixtures = fixture_lines("fen", &["fen"]);
    let mut failures = Vec::new();
    for rule in ["fen_record", "fen960_record"] {
        for text in records(&[grammar::FEN, grammar::COMMON], rule, fixtures.clone(), 1500) {
            if let Err(e) = check_fen(&text, Kind::Fen) {
                failures.push(e);
            }
        }
    }
    assert_agree(&failures);
}

#[test]
fn guard_epd() {
    pest::set_error_detail(true);
    let mut fixtures = fixture_lines("fen", &["epd"]);
    fixtures.extend(fixture_lines("fen", &["fen"]).iter().map(|l| l.split(' ').take(4).collect::<Vec<_>>().join(" ")));
    fixtures.push(r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm "a b"x;"#.to_owned());
    fixtures.push(r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4; id "x y"; c0 a"b;"#.to_owned());
    let mut failures = Vec::new();
    for text in records(&[grammar::FEN, grammar::COMMON], "epd_record", fixtures, 2000) {
        if let Err(e) = check_fen(&text, Kind::Epd) {
            failures.push(e);
        }
    }
    assert_agree(&failures);
}

/// The records of the corpus's position files (their first 2,000 lines each).
const CORPUS_RECORDS: usize = 2_943;

/// The records of the corpus (when `../shared` is present), edited, through the guard.
#[test]
fn guard_on_the_corpus() {
    let Some(dir) = shared::path("corpus/positions") else { return };
    pest::set_error_detail(true);
    let mut rng = runner();
    let mut failures = Vec::new();
    let mut seen = 0;
    for entry in walk(&dir) {
        let ext = entry.extension().and_then(|e| e.to_str()).unwrap_or("").to_owned();
        if !["tsv", "sfen", "fen", "epd"].contains(&ext.as_str()) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&entry) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        // A table's record is its first column; its first line names the columns.
        let skip = usize::from(ext == "tsv");
        for line in text.lines().skip(skip).filter(|l| !l.trim().is_empty()).take(2000) {
            let record = if ext == "tsv" { line.split('\t').next().unwrap_or("") } else { line };
            for edited in [record.to_owned(), mutate(record, rng.rng())] {
                seen += 1;
                // Every record through every guard: the guard is about agreement, not validity.
                for result in [check_sfen(&edited), check_fen(&edited, Kind::Fen), check_fen(&edited, Kind::Epd)] {
                    if let Err(e) = result {
                        failures.push(e);
                    }
                }
            }
        }
    }
    eprintln!("{seen} corpus records and edits through the guard");
    shared::at_least("corpus records and their edits", seen, CORPUS_RECORDS * 2);
    assert_agree(&failures);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The verdict stands behind the builder: given no finding, it reports where the grammar stops,
/// what the grammar reads there, and nothing for a record the grammar accepts.
#[test]
fn the_verdict_places_the_fault_where_the_grammar_stops() {
    use sfen::parser::Rule;
    let automaton = sfen::fast::automaton(DialectChoice::Usi);
    assert!(automaton.is_some());
    let verdict = |text: &str| {
        kifu::notation::fields::grammar_verdict::<SfenParser, Rule>(
            text,
            automaton,
            Rule::usi_record,
            &[],
            kifu::diagnostic::Code::SfenSyntax,
            "SFEN",
            sfen::rule_words,
        )
    };
    assert!(verdict(sfen::build::START).is_none());
    let bad = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1x";
    let d = verdict(bad).expect("a verdict");
    assert_eq!(d.code, kifu::diagnostic::Code::SfenSyntax);
    assert_eq!(d.span().start, bad.len() - 1);
    assert!(d.message.contains("a digit"), "{}", d.message);
    // Without the automaton, pest decides, and places it no later.
    let by_pest = kifu::notation::fields::grammar_verdict::<SfenParser, Rule>(
        bad,
        None,
        Rule::usi_record,
        &[],
        kifu::diagnostic::Code::SfenSyntax,
        "SFEN",
        sfen::rule_words,
    )
    .expect("a verdict");
    assert!(by_pest.span().start <= d.span().start);
    // A finding of the builder's at or before that place stands alone.
    let earlier = kifu::diagnostic::Diagnostic::error(kifu::diagnostic::Code::SfenSide, kifu::Span::new(0, 1), "x");
    assert!(kifu::notation::fields::grammar_verdict::<SfenParser, Rule>(
        bad,
        automaton,
        Rule::usi_record,
        &[earlier],
        kifu::diagnostic::Code::SfenSyntax,
        "SFEN",
        sfen::rule_words
    )
    .is_none());
}

/// Syntax errors of a PSN game: the reader's errors but those about the position a header sets
/// up (they are about the position, which the grammar does not judge).
fn psn_syntax_errors(diagnostics: &[kifu::diagnostic::Diagnostic]) -> Vec<usize> {
    let about_setup = |code: &str| {
        code.starts_with("sfen::")
            || ["psn::fen-", "psn::sfen-", "psn::handicap", "psn::setup", "psn::gsdb-setup"]
                .iter()
                .any(|p| code.starts_with(p))
    };
    diagnostics.iter().filter(|d| d.is_error() && !about_setup(&d.code)).map(|d| d.span().start).collect()
}

/// The games of `text` as the reader cuts them, each with the starts of its syntax errors in
/// the full check (without the replay, whose findings are about the moves, not their writing).
/// The grammar's own verdict, `psn::syntax`, is a backstop: the reader must find every fault
/// itself, so a game where the backstop speaks fails the guard.
fn read_psn(text: &str) -> Result<Vec<(kifu::psn::scan::RawGame, Vec<usize>)>, String> {
    let options = kifu::psn::Options { strict: false, replay: false };
    kifu::psn::scan::scan(text)
        .into_iter()
        .map(|raw| {
            let diagnostics = kifu::psn::check_game(&raw, text, options).diagnostics;
            if let Some(d) = diagnostics.iter().find(|d| d.code == "psn::syntax") {
                let own = &text[raw.start..raw.end];
                return Err(format!(
                    "the grammar stops at {} in {own:?}, where the reader found no fault",
                    d.span().start
                ));
            }
            let errors = psn_syntax_errors(&diagnostics);
            Ok((raw, errors))
        })
        .collect()
}

/// Every game of `text` ([`read_psn`]) through the guard. Gives how many games with a line of
/// prose had no syntax error.
fn check_psn(text: &str, games: &[(kifu::psn::scan::RawGame, Vec<usize>)]) -> Result<usize, String> {
    use kifu::psn::parser::{PsnParser, Rule};
    let mut prose_games = 0;
    for (raw, errors) in games {
        let own = &text[raw.start..raw.end];
        let prose = raw.tokens.iter().any(|t| t.kind == kifu::psn::scan::Kind::Prose);
        prose_games += usize::from(prose && errors.is_empty());
        let grammar = PsnParser::parse(Rule::game, own).map(|_| ());
        // A game with no syntax error is read by the grammar; a game the grammar rejects has a
        // syntax error where the grammar stops or before.
        guard("PSN game", own, errors.is_empty(), errors, grammar)?;
    }
    Ok(prose_games)
}

/// Where the reader cuts `text` into games ([`read_psn`]), and where the grammar's `file` rule
/// does: for a text in which the reader finds no syntax error, the grammar reads it and cuts it
/// at the same places.
fn check_psn_file(text: &str, games: &[(kifu::psn::scan::RawGame, Vec<usize>)]) -> Result<usize, String> {
    use kifu::psn::parser::{PsnParser, Rule};
    if games.iter().any(|(_, errors)| !errors.is_empty()) {
        return Ok(0);
    }
    let by_reader: Vec<usize> = games.iter().map(|(g, _)| g.start).collect();
    let file = PsnParser::parse(Rule::file, text).map_err(|e| format!("the file rule rejects {text:?}:\n{e}"))?;
    let by_grammar: Vec<usize> = file
        .flatten()
        .filter(|p| matches!(p.as_rule(), Rule::opening_game | Rule::file_game))
        .map(|p| p.as_span().start())
        .collect();
    if by_reader != by_grammar {
        return Err(format!("{text:?}: the reader starts games at {by_reader:?}, the grammar at {by_grammar:?}"));
    }
    Ok(by_reader.len())
}

/// A header is one line (§1.1): no rule reads a keyword across a line end, so the grammar, like
/// the reader, rejects a header line that never closes.
#[test]
fn a_header_keyword_never_crosses_a_line_end() {
    use kifu::psn::parser::{PsnParser, Rule};
    for text in ["[Handic\np \"queen\"]\n1. P7f\n", "[Handic\r\np \"queen\"]\n", "[Ev\rent: x]\n1. P7f\n"] {
        assert!(PsnParser::parse(Rule::game, text).is_err(), "the grammar reads {text:?} as a game");
        assert!(PsnParser::parse(Rule::keyword_lenient, "Handic\np").is_ok_and(|p| p.as_str() == "Handic"));
        assert!(read_psn(text).and_then(|games| check_psn(text, &games)).is_ok(), "{text:?}");
        let read = kifu::psn::check_bytes(text.as_bytes(), Default::default());
        assert!(read.games.iter().any(|g| !g.is_valid()), "{text:?} read as valid");
    }
}

fn psn_texts() -> Vec<String> {
    let mut out = Vec::new();
    let fixtures = walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/psn"));
    let psn = fixtures.into_iter().filter(|p| p.extension().and_then(|e| e.to_str()) == Some("psn"));
    let files: Vec<_> = psn.chain(shared::psn_files().unwrap_or_default()).collect();
    for path in files {
        let bytes = std::fs::read(&path).expect("a PSN file reads");
        out.push(kifu::psn::decode::decode(&bytes).text);
    }
    assert!(out.len() > 50, "only {} PSN files", out.len());
    out
}

#[test]
fn guard_psn() {
    pest::set_error_detail(true);
    let mut rng = runner();
    let mut failures = Vec::new();
    let mut games = 0;
    let edits: usize = std::env::var("KIFU_GUARD_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(6);
    for text in psn_texts() {
        games += kifu::psn::scan::scan(&text).len();
        guard_psn_text(&text, &mut failures);
        // Edits: a few per file, each somewhere in the text.
        for _ in 0..edits {
            guard_psn_text(&mutate(&text, rng.rng()), &mut failures);
        }
    }
    eprintln!("{games} games and their edits through the guard");
    assert_agree(&failures);
}

/// A PSN text through both guards, its games and its cuts: how many games with a line of
/// prose had no syntax error, and how many games the cuts were compared on (0 for a text the
/// reader finds a syntax error in).
fn guard_psn_text(text: &str, failures: &mut Vec<String>) -> (usize, usize) {
    let games = match read_psn(text) {
        Ok(games) => games,
        Err(e) => {
            failures.push(e);
            return (0, 0);
        }
    };
    let mut counted = |found: Result<usize, String>| {
        found.unwrap_or_else(|e| {
            failures.push(e);
            0
        })
    };
    (counted(check_psn(text, &games)), counted(check_psn_file(text, &games)))
}

/// The pieces [`generated_games`] makes games of: samples of each word rule's language, header
/// lines, other lines and clocks sampled from their rules or written in the dialects' shapes.
struct Pieces {
    words: Vec<Vec<String>>,
    headers: Vec<String>,
    lines: Vec<String>,
    clocks: Vec<String>,
}

/// Punctuation and other text run together with words.
const BITS: [&str; 16] = ["(", ")", "}", ".", ",", "!", "?", ";", ":", "-", "'", "\"", "1", "42", "é", "歩"];

/// The letters of runs of letters.
const LETTERS: &[u8] = b"abcdefghxyzPLNSGBRK";

impl Pieces {
    fn new(runner: &mut TestRunner) -> Self {
        let grammar = Rules::parse(&[grammar::PSN, grammar::COMMON]).expect("parses");
        let words: Vec<Vec<String>> = grammar
            .alternatives("word")
            .expect("the word rule")
            .iter()
            .map(|rule| samples(&grammar, rule, runner, 16))
            .collect();
        let mut headers = [
            "[Event: 1st Meijin]",
            "[Black_grade \"3dan\"]",
            "[Date \"2002\"] [Site \"x\"]",
            "[Comment \"\"Air fight\" opening\"]",
            "  [Gote  \"Moriuchi\"]  ",
            "[Result \"1-0\"",
            "[\"x\"]",
            "[Event \"a\"] b",
            "[Event x] [Site: y]",
        ]
        .map(str::to_owned)
        .to_vec();
        headers.extend(samples(&grammar, "header", runner, 8));
        headers.extend(samples(&grammar, "header_named", runner, 8));
        let mut lines: Vec<String> =
            ["%escape to another program", "Variation:6", "; a line comment", ")", "}", "", "   ", "\t"]
                .map(str::to_owned)
                .to_vec();
        for rule in ["won_line", "variation_line", "paren_clock"] {
            lines.extend(samples(&grammar, rule, runner, 6));
        }
        let clocks = samples(&grammar, "clock", runner, 8);
        Self { words, headers, lines, clocks }
    }

    /// A sample of a word rule drawn at random.
    fn word(&self, rng: &mut TestRng) -> String {
        let kind = &self.words[rng.random_range(0..self.words.len())];
        kind[rng.random_range(0..kind.len())].clone()
    }

    /// A run of letters, as many as `len` draws.
    fn letters(rng: &mut TestRng, len: std::ops::Range<usize>) -> String {
        (0..rng.random_range(len)).map(|_| LETTERS[rng.random_range(0..LETTERS.len())] as char).collect()
    }

    fn bit(rng: &mut TestRng) -> &'static str {
        BITS[rng.random_range(0..BITS.len())]
    }

    /// A run of text with no white space: a word sample, letters, or a word, a bracket and
    /// letters run together (`P2f(abc)`), or word samples, letters, brackets and punctuation.
    fn run(&self, rng: &mut TestRng) -> String {
        match rng.random_range(0..5) {
            0 => Self::letters(rng, 1..6),
            1 => self.word(rng),
            2 => format!("{}{}{}", self.word(rng), Self::bit(rng), Self::letters(rng, 1..6)),
            3 => format!("{}{}{}", self.word(rng), Self::letters(rng, 1..6), Self::bit(rng)),
            _ => (0..rng.random_range(1..4))
                .map(|_| match rng.random_range(0..3) {
                    0 => self.word(rng),
                    1 => Self::letters(rng, 1..6),
                    _ => Self::bit(rng).to_owned(),
                })
                .collect(),
        }
    }
}

/// PSN games made of the grammar's own pieces: header lines sampled from the header rules and in
/// the dialects' shapes, words drawn from each word rule's language (alone, with a glued number
/// or glyph, or glued to other text), comments (nested, over several lines), `;` comments,
/// clocks, variations, escape, won and `Variation:` lines sampled from their rules, and lines of
/// prose whose words are word samples, letters, brackets and punctuation run together, so that
/// some are prose to the grammar and some are not; then edited.
fn generated_games(n: usize) -> Vec<String> {
    let mut runner = runner();
    let pieces = Pieces::new(&mut runner);
    let (headers, lines, clocks) = (&pieces.headers, &pieces.lines, &pieces.clocks);
    let pick = |from: &[String], rng: &mut TestRng| from[rng.random_range(0..from.len())].clone();
    let word = |rng: &mut TestRng| pieces.word(rng);
    let letters = |rng: &mut TestRng, len: std::ops::Range<usize>| Pieces::letters(rng, len);
    let run = |rng: &mut TestRng| pieces.run(rng);
    let mut out = Vec::new();
    for _ in 0..n {
        let rng = runner.rng();
        let mut text = String::new();
        for _ in 0..rng.random_range(0..3) {
            text.push_str(&pick(headers, rng));
            text.push('\n');
        }
        for _ in 0..rng.random_range(1..6) {
            match rng.random_range(0..17) {
                // The next game's headers.
                0 => text.push_str(&pick(headers, rng)),
                1..=3 => text.push_str(&pick(lines, rng)),
                // A line of prose, or of words run together with other text.
                4..=6 => {
                    let runs: Vec<String> = (0..rng.random_range(1..6)).map(|_| run(rng)).collect();
                    text.push_str(&runs.join(" "));
                }
                // Words with remarks glued to them in brackets (`P2f(abc) P8d`): no word of
                // prose to the grammar, however many letters.
                7 => {
                    let runs: Vec<String> = (0..rng.random_range(1..5))
                        .map(|_| {
                            let (word, remark) = (word(rng), letters(rng, 2..6));
                            match rng.random_range(0..3) {
                                0 => format!("{word}({remark})"),
                                1 => format!("{word}){remark}"),
                                _ => word,
                            }
                        })
                        .collect();
                    text.push_str(&runs.join(" "));
                }
                // A comment, perhaps nested, perhaps over several lines.
                8 => {
                    let inner = [run(rng), "{".to_owned() + &run(rng) + "}", "\n".to_owned() + &run(rng)];
                    text.push('{');
                    for _ in 0..rng.random_range(0..4) {
                        text.push_str(&inner[rng.random_range(0..inner.len())]);
                        text.push(' ');
                    }
                    text.push('}');
                }
                _ => {
                    for _ in 0..rng.random_range(1..8) {
                        let word = word(rng);
                        match rng.random_range(0..10) {
                            0 => text.push_str(&format!("{}.{word}", rng.random_range(1..99))),
                            1 => text.push_str(&format!("{word}!")),
                            2 => text.push_str(&format!("{{{word}}}")),
                            3 => text.push_str(&format!("({word}")),
                            4 => text.push_str(&format!("{word})")),
                            _ => text.push_str(&word),
                        }
                        text.push(if rng.random_range(0..6) == 0 { '\t' } else { ' ' });
                    }
                    // Clock columns, as timed transcripts write them.
                    if rng.random_range(0..4) == 0 {
                        text.push_str(&format!("{} {}", pick(clocks, rng), pick(clocks, rng)));
                    }
                }
            }
            text.push_str(["\n", "\r\n", "\n\n"][rng.random_range(0..3)]);
        }
        out.push(text);
    }
    out
}

#[test]
fn guard_generated_psn() {
    pest::set_error_detail(true);
    let mut rng = runner();
    let mut failures = Vec::new();
    let n = std::env::var("KIFU_GUARD_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(1500);
    let (mut cut, mut prose) = (0, 0);
    for text in generated_games(n) {
        for t in [mutate(&text, rng.rng()), text] {
            let (prose_games, games) = guard_psn_text(&t, &mut failures);
            prose += prose_games;
            cut += usize::from(games > 1);
        }
    }
    assert_agree(&failures);
    // The cuts were compared on files of several games, not only on files the reader rejects,
    // and games with lines of prose were among those compared.
    eprintln!(
        "{cut} clean files of several games and {prose} clean games with prose among {n} generated, and as many edits"
    );
    assert!(cut > n / 30, "only {cut} clean files of several games among {n}");
    assert!(prose > n / 20, "only {prose} clean games with prose among {n}");
}

/// The lists of word rules in `psn.pest` are one list: `move_whole` and `glued_move` are
/// `word`'s moves, `end_whole` its ends of game, in `word`'s order; a rule added to one and not
/// the other fails here.
#[test]
fn the_word_lists_agree() {
    use kifu::psn::scan::WordKind;
    let grammar = Rules::parse(&[grammar::PSN, grammar::COMMON]).expect("parses");
    let word = grammar.alternatives("word").expect("word");
    let kinds: Vec<WordKind> = word.iter().map(|n| WordKind::from_rule_name(n).expect("a word kind")).collect();
    let pick = |keep: fn(WordKind) -> bool| -> Vec<String> {
        word.iter().zip(&kinds).filter(|(_, k)| keep(**k)).map(|(n, _)| n.clone()).collect()
    };
    assert_eq!(grammar.alternatives("move_whole").expect("move_whole"), pick(WordKind::is_move));
    assert_eq!(grammar.alternatives("end_whole").expect("end_whole"), pick(WordKind::is_end));
    assert_eq!(grammar.alternatives("glued_move").expect("glued_move"), pick(WordKind::is_move));
    // Moves come before ends in `word`, as `glued_whole` tries them.
    assert_eq!(grammar.alternatives("glued_whole").expect("glued_whole"), ["move_whole", "end_whole"]);
    let last_move = kinds.iter().rposition(|k| k.is_move()).expect("moves");
    assert!(kinds.iter().position(|k| k.is_end()).is_some_and(|first_end| first_end > last_move));
}

/// Fails with the first disagreements found, if any.
fn assert_agree(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n\n")
    );
}

/// A small xorshift generator: the random grammars below repeat from run to run.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random expression of rule `i` of `rules`, `depth` levels deep at most: literals (also
/// case-insensitive), a range, any character, a character but one, the end of the text, the
/// rules after `i` (no recursion), sequences, ordered choices, options, repetitions and counted
/// repetitions of every form, the shapes whose commitments the compiler must weigh as pest does.
fn random_expr(rng: &mut Xorshift, i: usize, rules: usize, depth: usize) -> String {
    let leaf = |rng: &mut Xorshift| match rng.below(12) {
        0 | 1 => "\"a\"".to_owned(),
        2 => "\"b\"".to_owned(),
        3 => "\"ab\"".to_owned(),
        4 => "'a'..'b'".to_owned(),
        5 => "^\"A\"".to_owned(),
        6 => "ANY".to_owned(),
        7 => "(!\"a\" ~ ANY)".to_owned(),
        8 => "EOI".to_owned(),
        _ if i + 1 < rules => format!("r{}", i + 1 + rng.below(rules - i - 1)),
        _ => "\"a\"".to_owned(),
    };
    if depth == 0 {
        return leaf(rng);
    }
    let sub = |rng: &mut Xorshift| random_expr(rng, i, rules, depth - 1);
    match rng.below(12) {
        0 | 1 => format!("({} ~ {})", sub(rng), sub(rng)),
        2 | 3 => format!("({} | {})", sub(rng), sub(rng)),
        4 => format!("({})?", sub(rng)),
        5 => format!("({})*", sub(rng)),
        6 => format!("({})+", sub(rng)),
        7 => format!("({}){{{}}}", sub(rng), 1 + rng.below(2)),
        8 => format!("({}){{{},}}", sub(rng), rng.below(3)),
        9 => format!("({}){{,{}}}", sub(rng), 1 + rng.below(2)),
        10 => {
            let lo = rng.below(3);
            format!("({}){{{lo},{}}}", sub(rng), lo.max(1) + rng.below(2))
        }
        _ => leaf(rng),
    }
}

/// Every text of up to six `a`s and `b`s, and a few with characters no rule names or in
/// another case.
fn small_texts() -> Vec<String> {
    let mut texts: Vec<String> = ["", "c", "ac", "ca", "A", "Ab", "aAb", "abc"].map(str::to_owned).to_vec();
    for len in 1..=6 {
        for bits in 0..1u32 << len {
            texts.push((0..len).map(|k| if bits >> k & 1 == 1 { 'b' } else { 'a' }).collect());
        }
    }
    texts
}

/// How the automata of `grammar`'s rule `r0` read `texts` against pest: `None` when pest's
/// validator refuses the grammar, else whether each kind compiled. An automaton that compiled
/// must read every text as pest does: the whole automaton accepts exactly the texts `r0`
/// matches whole, and the prefix automaton finds the prefix pest's `r0` matches.
fn against_pest(grammar: &str, texts: &[String]) -> Option<(bool, bool)> {
    let (_, optimized) = pest_meta::parse_and_optimize(grammar).ok()?;
    let vm = pest_vm::Vm::new(optimized);
    let rules = Rules::parse(&[grammar]).expect("pest reads it");
    let whole = RuleDfa::compile_in(&rules, "r0");
    let prefix = PrefixDfa::compile_in(&rules, "r0");
    for text in texts {
        let by_pest = vm.parse("r0", text).ok().and_then(|mut p| p.next()).map(|p| p.as_span().end());
        if let Ok(dfa) = &whole {
            assert_eq!(dfa.is_match(text), by_pest == Some(text.len()), "{grammar}whole, on {text:?}");
        }
        if let Ok(dfa) = &prefix {
            assert_eq!(dfa.prefix(text), by_pest, "{grammar}at the start of {text:?}");
        }
    }
    Some((whole.is_ok(), prefix.is_ok()))
}

/// Small random grammars, each rule the compiler accepts checked against pest's own
/// interpreter on every small text ([`small_texts`]), as a whole and at the start of a text.
/// Such a grammar is `r0 = { ("a")? ~ "a" }`, which pest rejects `a` for: a compiler that did
/// not weigh what follows an option would accept it.
#[test]
fn random_grammars_compile_to_what_pest_reads() {
    let texts = small_texts();
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let (mut grammars, mut compiled, mut refused, mut prefixes) = (0, 0, 0, 0);
    let known = "r0 = { (\"a\")? ~ \"a\" }\n".to_owned();
    let random = (0..6000).map(|_| {
        let rules = 1 + rng.below(3);
        (0..rules).map(|i| format!("r{i} = {{ {} }}\n", random_expr(&mut rng, i, rules, 3))).collect::<String>()
    });
    for grammar in std::iter::once(known).chain(random) {
        // Grammars pest's own validator refuses (a repetition of what may match nothing) are
        // not pest's to read.
        let Some((whole, prefix)) = against_pest(&grammar, &texts) else { continue };
        grammars += 1;
        compiled += usize::from(whole);
        refused += usize::from(!whole);
        prefixes += usize::from(prefix);
    }
    println!(
        "{grammars} grammars: {compiled} compiled and read as pest reads them, {refused} refused; {prefixes} compiled for prefixes"
    );
    assert!(
        compiled >= 1200 && refused >= 1000 && prefixes >= 350,
        "{grammars} grammars: {compiled} compiled, {refused} refused, {prefixes} for prefixes"
    );
}

/// Rules of every shape the compiler weighs that pest reads as their regular expression: each
/// compiles (for whole texts, and those marked for prefixes too) and reads the small texts as
/// pest does. Rules that pest reads otherwise are refused, and a text shows the difference.
#[test]
fn the_compiler_accepts_what_is_sound_and_refuses_what_is_not() {
    let texts = small_texts();
    let sound = [
        // Repetitions and options of what cannot match nothing, before what they do not start.
        ("\"a\"+ ~ \"b\"", true),
        ("(\"a\" ~ \"b\")* ~ \"a\"", false),
        ("(\"a\"+)? ~ \"b\"", true),
        ("(\"a\"{2})* ~ \"b\"", true),
        ("(\"a\"{1,2})? ~ \"b\"", true),
        ("(\"a\"{1,})? ~ \"b\"", true),
        ("(\"a\"? ~ \"b\")* ~ \"c\"", true),
        ("(\"a\" | \"b\")+ ~ \"c\"", true),
        ("\"a\" ~ ANY*", false),
        ("(!\"a\" ~ ANY)* ~ \"a\"", true),
        ("^\"A\"+ ~ \"b\"", true),
        // Counted repetitions, each form.
        ("\"a\"{2} ~ \"b\"", true),
        ("\"a\"{1,3} ~ \"b\"", true),
        ("\"a\"{0,2} ~ \"b\"", true),
        ("\"a\"{2,} ~ \"b\"", true),
        ("\"a\"{,2} ~ \"b\"", true),
        ("(\"ab\"){2,3}", false),
        // Choices whose first alternative, once matched, is never wrong.
        ("\"ab\" | \"a\"", false),
        ("(\"a\" | \"b\") ~ \"a\"", true),
        ("\"a\" ~ EOI", true),
    ];
    for (rule, for_prefix) in sound {
        let grammar = format!("r0 = {{ {rule} }}\n");
        let read = against_pest(&grammar, &texts).unwrap_or_else(|| panic!("pest refuses {grammar}"));
        assert_eq!(read, (true, for_prefix), "{grammar}");
    }
    let unsound = [
        // A first alternative that matches the start of what the second reads.
        "(\"a\" | \"b\"?) ~ \"a\"",
        "ANY | ANY ~ \"b\"",
        "\"a\" | \"ab\"",
        // A repetition or option that takes what follows it.
        "\"a\"? ~ \"a\"",
        "\"a\"* ~ \"a\"",
        "\"a\"{1,3} ~ \"a\"",
        "\"a\"{2,} ~ \"a\"",
        "\"a\"{,2} ~ \"a\"",
        "ANY* ~ \"a\"",
    ];
    for rule in unsound {
        let grammar = format!("r0 = {{ {rule} }}\n");
        let (whole, _) = against_pest(&grammar, &texts).unwrap_or_else(|| panic!("pest refuses {grammar}"));
        assert!(!whole, "{grammar}compiled");
        // The regular expression and pest disagree on one of the texts.
        let rules = Rules::parse(&[&grammar]).expect("parses");
        let regex =
            regex::Regex::new(&format!("^(?:{})$", rules.to_sample_regex("r0").expect("a regex"))).expect("valid");
        let vm = vm(&[&grammar], &["r0"]);
        assert!(
            texts.iter().any(|t| regex.is_match(t) != vm.parse("kifu_whole_r0", t).is_ok()),
            "{grammar}: no text shows why it was refused"
        );
    }
    // An option or a repetition of what can match nothing is refused, whatever follows it:
    // pest's repetition of it would stop on an empty match.
    for rule in ["(\"a\" | \"b\"?)?", "(\"a\"{0,2})?", "(\"a\"{,2})?", "(\"a\"*)?", "(\"a\"? ~ \"b\"?)?"] {
        let grammar = format!("r0 = {{ {rule} }}\n");
        let err = RuleDfa::compile(&[&grammar], "r0").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("can match the empty text"), "{grammar}: {err}");
    }
}
