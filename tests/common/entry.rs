//! The entry points hostile input goes through, each asserting what kifu promises for any bytes:
//!
//! - nothing panics (the entry point returns);
//! - every diagnostic has exactly one primary label, and every label lies within the text it
//!   points into (`start <= end <= len`, a point just past the end allowed), on character
//!   boundaries;
//! - bytes that are not UTF-8 never check as valid (SFEN, FEN, EPD, JSON), or, in PSN, which
//!   reads legacy encodings, never pass unsaid: a game whose text is not its bytes as they are
//!   carries a finding about its encoding;
//! - round trips are stable: a game `kifu convert --to psn` writes reads back valid and is
//!   written again to the same text; a position written and read back is the same position.
//!
//! A broken promise is a panic: libFuzzer records it as a crash (the targets in `fuzz/`), and
//! proptest shrinks it to a small case (`tests/hostile.rs`). The fuzz targets include this file
//! by its path, so both run the same checks.

#![allow(dead_code)]

use kifu::check::{check_line, LineReport, MAX_FINDINGS};
use kifu::diagnostic::Diagnostic;
use kifu::format::Format;
use kifu::input::MAX_LINE;
use kifu::json::{self as kjson, Node, Value};
use kifu::playground::grammar::{Grammar, Source};
use kifu::playground::limits::RunBudget;
use kifu::playground::records::{self, Layout};
use kifu::psn::{self, display};
use kifu::sfen::{self, DialectChoice};
use kifu::span::Span;
use kifu::{fen, Label};

const SFEN_CHOICES: [DialectChoice; 3] = [DialectChoice::Auto, DialectChoice::Sfen2007, DialectChoice::Usi];

/// The longest input a fuzz target or test hands over whole (longer inputs are cut): enough
/// for every limit kifu states to be crossed, small enough to keep each run quick.
pub const MAX_INPUT: usize = 1 << 20;

/// The stack of a spawned thread, as `kifu check`'s workers have (Rust's default): the
/// smallest stack kifu's library runs on.
pub const WORKER_STACK: usize = 2 << 20;

/// Runs `entry` on `bytes` on a thread with [`WORKER_STACK`], so that recursion deep enough to
/// overflow a worker of `kifu check` overflows here too; a panic is passed on.
pub fn on_worker_stack(bytes: &[u8], entry: fn(&[u8])) {
    let result = std::thread::scope(|s| {
        let worker = std::thread::Builder::new().stack_size(WORKER_STACK).spawn_scoped(s, || entry(bytes));
        worker.expect("a thread").join()
    });
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

// ───────────────────────────── the invariants ─────────────────────────────

/// Where a label fails to lie within `text` on character boundaries, in words.
fn label_fault(text: &str, l: &Label) -> Option<String> {
    let s = l.span;
    if s.start > s.end {
        Some(format!("reversed span {s:?}"))
    } else if s.end > text.len() {
        Some(format!("span {s:?} ends past the text ({} bytes)", text.len()))
    } else if !text.is_char_boundary(s.start) || !text.is_char_boundary(s.end) {
        Some(format!("span {s:?} splits a character"))
    } else {
        None
    }
}

/// Every diagnostic of `diagnostics` has exactly one primary label, and every label lies within
/// `text` on character boundaries; what `what` names is shown when one does not.
pub fn assert_sound(what: &str, text: &str, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let primaries = d.labels.iter().filter(|l| l.primary).count();
        assert_eq!(primaries, 1, "{what}: {} has {primaries} primary labels, on {text:?}", d.code);
        for l in &d.labels {
            if let Some(fault) = label_fault(text, l) {
                panic!("{what}: {}: {fault}, on {text:?}", d.code);
            }
        }
        // The JSON message (`--message-format json`) places every label too.
        let _ = d.to_json("fuzz", 1, text);
    }
}

/// [`assert_sound`] on a line's report, which holds at most [`MAX_FINDINGS`] findings and a
/// note of how many more there were.
pub fn assert_line_report(what: &str, report: &LineReport) {
    assert_sound(what, &report.text, &report.diagnostics);
    assert!(report.diagnostics.len() <= MAX_FINDINGS + 1, "{what}: {} findings", report.diagnostics.len());
}

/// `bytes` as line 1 (where a byte-order mark is allowed) and as line 2 of a file in `format`,
/// as `kifu check` reads it; bytes that are not UTF-8 never pass unremarked: the record is
/// invalid, or says the encoding it was read in (an EPD operation may hold any text).
fn line_format(format: Format, bytes: &[u8]) {
    let utf8 = std::str::from_utf8(bytes).is_ok();
    for line in [1, 2] {
        let report = check_line(format, line, bytes, bytes.len());
        assert_eq!(report.line, line);
        assert_line_report(&format!("{format:?} line {line}"), &report);
        let noted = report.diagnostics.iter().any(|d| d.code == kifu::diagnostic::codes::input::ENCODING);
        assert!(utf8 || !report.is_valid() || noted, "{format:?}: bytes that are not UTF-8 passed: {bytes:?}");
    }
}

/// Text as `check_line` decodes it, if a line this long is parsed at all.
fn parsed_text(bytes: &[u8]) -> Option<String> {
    (bytes.len() <= MAX_LINE).then(|| String::from_utf8_lossy(bytes).into_owned())
}

// ───────────────────────────── line formats ─────────────────────────────

/// One line of an SFEN file, in every dialect, and `sfen::check` on its text.
pub fn sfen_check(bytes: &[u8]) {
    for choice in SFEN_CHOICES {
        line_format(Format::Sfen(choice), bytes);
    }
    if let Some(text) = parsed_text(bytes) {
        for choice in SFEN_CHOICES {
            let checked = sfen::check(&text, choice);
            assert_sound("sfen::check", &text, &checked.diagnostics);
            assert!(!checked.is_valid() || checked.position.is_some(), "a valid SFEN without a position: {text:?}");
        }
    }
}

/// One line of a FEN file, standard and Chess960, and `fen::check` on its text.
pub fn fen_check(bytes: &[u8]) {
    for dialect in [fen::Dialect::Standard, fen::Dialect::Chess960] {
        line_format(Format::Fen(dialect), bytes);
        if let Some(text) = parsed_text(bytes) {
            let checked = fen::check(&text, fen::Kind::Fen, dialect);
            assert_sound("fen::check", &text, &checked.diagnostics);
            assert!(!checked.is_valid() || checked.position.is_some(), "a valid FEN without a position: {text:?}");
        }
    }
}

/// One line of an EPD file, and `fen::check` on its text as EPD.
pub fn epd_check(bytes: &[u8]) {
    line_format(Format::Epd(kifu::fen::Dialect::Standard), bytes);
    if let Some(text) = parsed_text(bytes) {
        let checked = fen::check(&text, fen::Kind::Epd, fen::Dialect::Standard);
        assert_sound("fen::check (EPD)", &text, &checked.diagnostics);
    }
}

// ───────────────────────────── PSN ─────────────────────────────

/// A whole PSN file, as `kifu check` reads it: every game's span within the file's text, in
/// order, every finding within its game's text; a game whose text is not its bytes as they are
/// (decoded from a legacy encoding, or with bytes that are not UTF-8 replaced) says so.
pub fn psn_check(bytes: &[u8]) {
    psn_file(bytes);
}

/// [`psn_check`], and the file it read.
fn psn_file(bytes: &[u8]) -> psn::CheckedFile {
    let bytes = &bytes[..bytes.len().min(MAX_INPUT)];
    let file = psn::check_bytes(bytes, psn::Options::default());
    let mut end = 0;
    for g in &file.games {
        let span = g.game.span;
        let in_file = Label { span, message: String::new(), primary: true };
        if let Some(fault) = label_fault(&file.text, &in_file) {
            panic!("the game of line {}: {fault} in the file's text", g.game.line);
        }
        assert!(span.start >= end, "the game of line {} overlaps the game before it", g.game.line);
        end = span.end;
        let text = g.text(&file.text);
        assert_sound(&format!("PSN game of line {}", g.game.line), text, &g.diagnostics);
        if memchr::memmem::find(bytes, text.as_bytes()).is_none() {
            assert!(
                g.diagnostics.iter().any(|d| d.code.contains("encoding") || d.code.contains("utf8")),
                "a game read as {} without a word about it: {text:?}",
                file.encoding.name()
            );
        }
    }
    file
}

/// `kifu convert`: each valid game written as PSN reads back as one valid game, which is
/// written again to the same text; its SFENs (`--to sfen`) and USI start (`--to usi`) check
/// as valid SFEN.
pub fn psn_convert(bytes: &[u8]) {
    let file = psn_file(bytes);
    for g in file.games.iter().filter(|g| g.is_valid()) {
        let first = display::to_psn(&g.game, g.replay.as_ref());
        let again = psn::check_bytes(first.as_bytes(), psn::Options::default());
        let original = g.text(&file.text);
        assert_eq!(
            again.games.len(),
            1,
            "the game written as {first:?} reads as {} games; from {original:?}",
            again.games.len()
        );
        let g2 = &again.games[0];
        let errors: Vec<String> = g2.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
        assert!(errors.is_empty(), "the game written as {first:?} is no longer valid: {errors:?}; from {original:?}");
        let second = display::to_psn(&g2.game, g2.replay.as_ref());
        assert_eq!(first, second, "written twice, the game differs; from {original:?}");
        if let Some(r) = &g.replay {
            for line in display::to_sfens(r).lines() {
                let checked = sfen::check(line, DialectChoice::Usi);
                assert!(
                    checked.is_valid(),
                    "`--to sfen` wrote {line:?}, which is not valid: {:?}",
                    checked.diagnostics
                );
            }
            let usi = display::to_usi(r);
            let start = usi.strip_prefix("sfen ").and_then(|s| s.split(" moves").next()).unwrap_or_default();
            assert!(sfen::check(start, DialectChoice::Usi).is_valid(), "`--to usi` starts from {start:?}");
        }
    }
}

// ───────────────────────────── JSON positions ─────────────────────────────

/// The spans of the replacement characters that stand for bytes that are not UTF-8 in the
/// lossy decoding of `bytes`.
fn replaced(bytes: &[u8]) -> Vec<Span> {
    let mut out = Vec::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            out.push(Span::new(at, at + '\u{FFFD}'.len_utf8()));
            at += '\u{FFFD}'.len_utf8();
        }
    }
    out
}

/// The records of a JSON stream, as `kifu check` takes them: each top-level value, or the
/// elements of a top-level array.
fn json_records(node: &Node) -> Vec<&Node> {
    match &node.value {
        Value::Array(items) => items.iter().collect(),
        _ => vec![node],
    }
}

/// A JSON file of positions, as `kifu check` reads it: every finding within the text, a record
/// with bytes that are not UTF-8 valid neither as shogi nor as chess, and a valid record's
/// SFEN or FEN valid, and read as the same position.
pub fn json_check(bytes: &[u8]) {
    let bytes = &bytes[..bytes.len().min(MAX_INPUT)];
    let text = String::from_utf8_lossy(bytes);
    let bad = replaced(bytes);
    for value in kjson::values(&text) {
        let node = match value {
            Ok(node) => node,
            Err(d) => {
                assert_sound("JSON syntax", &text, std::slice::from_ref(&*d));
                continue;
            }
        };
        for record in json_records(&node) {
            let span = record.span;
            let has_bad = bad.iter().any(|b| b.start < span.end && span.start < b.end);
            let shogi = kifu::json::shogi::read(record);
            assert_sound("shogi JSON", &text, &shogi.diagnostics);
            let chess = kifu::json::chess::read(record);
            assert_sound("chess JSON", &text, &chess.diagnostics);
            if has_bad {
                assert!(
                    !shogi.is_valid() && !chess.is_valid(),
                    "a record with bytes that are not UTF-8 passed: {:?}",
                    span.slice(&text)
                );
            }
            if let (true, Some(p), Some(s)) = (shogi.is_valid(), &shogi.position, &shogi.record) {
                let checked = sfen::check(s, DialectChoice::Auto);
                assert!(
                    checked.is_valid(),
                    "shogi JSON written as {s:?}, which is not valid: {:?}",
                    checked.diagnostics
                );
                assert_eq!(checked.position.as_ref(), Some(p), "shogi JSON and its SFEN {s:?} differ");
            }
            if let (true, Some(p), Some(f)) = (chess.is_valid(), &chess.position, chess.record.as_ref().map(|w| &w.fen))
            {
                let checked = fen::check(f, fen::Kind::Fen, fen::Dialect::Chess960);
                assert!(
                    checked.is_valid(),
                    "chess JSON written as {f:?}, which is not valid: {:?}",
                    checked.diagnostics
                );
                assert_eq!(checked.position.as_ref(), Some(p), "chess JSON and its FEN {f:?} differ");
            }
        }
    }
}

// ───────────────────────────── position round trips ─────────────────────────────

/// Reads the only top-level JSON value of `text`.
fn one_json(text: &str) -> Node {
    let mut values = kjson::values(text);
    let node = values.next().and_then(Result::ok);
    assert!(values.next().is_none(), "more than one JSON value in {text:?}");
    node.unwrap_or_else(|| panic!("kifu wrote JSON it cannot read: {text:?}"))
}

/// One line read as an SFEN and as a FEN position: each position written (SFEN in both
/// dialects, FEN, JSON) and read back is the same position, and a valid record's canonical
/// form is valid too.
pub fn position_convert(bytes: &[u8]) {
    let Some(text) = parsed_text(bytes) else { return };
    if let Ok(p) = text.parse::<sfen::Position>() {
        let usi = p.to_string();
        assert_eq!(usi.parse::<sfen::Position>().ok().as_ref(), Some(&p), "{text:?} written as {usi:?}");
        if let Ok(old) = p.to_sfen(sfen::Dialect::Sfen2007) {
            assert_eq!(old.parse::<sfen::Position>().ok().as_ref(), Some(&p), "{text:?} written as {old:?}");
        }
        for style in [kjson::Style::Counts, kjson::Style::Keyed] {
            let json = kifu::json::shogi::write(&p, style);
            let read = kifu::json::shogi::read(&one_json(&json));
            assert_eq!(read.position.as_ref(), Some(&p), "{text:?} written as {json}: {:?}", read.diagnostics);
        }
        if sfen::check(&text, DialectChoice::Auto).is_valid() {
            let checked = sfen::check(&usi, DialectChoice::Usi);
            assert!(checked.is_valid(), "valid {text:?} written as {usi:?}, which is not: {:?}", checked.diagnostics);
        }
    }
    if let Ok(p) = text.parse::<fen::Position>() {
        let written = p.to_string();
        assert_eq!(written.parse::<fen::Position>().ok().as_ref(), Some(&p), "{text:?} written as {written:?}");
        let json = kifu::json::chess::write(&p);
        let read = kifu::json::chess::read(&one_json(&json));
        assert_eq!(read.position.as_ref(), Some(&p), "{text:?} written as {json}: {:?}", read.diagnostics);
        for dialect in [fen::Dialect::Standard, fen::Dialect::Chess960] {
            if fen::check(&text, fen::Kind::Fen, dialect).is_valid() {
                let checked = fen::check(&written, fen::Kind::Fen, dialect);
                assert!(
                    checked.is_valid(),
                    "valid {text:?} written as {written:?}, which is not: {:?}",
                    checked.diagnostics
                );
            }
        }
    }
}

// ───────────────────────────── grammars ─────────────────────────────

/// How many of a loaded grammar's rules each record is parsed with.
const RULES_TRIED: usize = 4;

/// An edited grammar and records, as `kifu tree --grammar g.pest --rule r records` takes them:
/// the bytes up to the first NUL are the grammar, the rest the records, one a line. Loading it
/// (joined with `grammar/common.pest`, described by the shipped SFEN grammar) gives a grammar
/// or pointed findings; each record parsed with its first rules gives a tree or a pointed
/// rejection, and `kifu grammar diff` of the shipped grammar and this one over the records
/// counts each record once, its examples pointing into their records.
pub fn grammar_load(bytes: &[u8]) {
    static SHIPPED: std::sync::OnceLock<Grammar> = std::sync::OnceLock::new();
    let shipped = SHIPPED.get_or_init(|| {
        Grammar::shipped("grammar/sfen.pest", kifu::notation::grammar::SFEN).expect("the shipped grammar loads")
    });
    // As `kifu tree` does: an edited grammar can loop for a long time on some input.
    pest::set_call_limit(std::num::NonZeroUsize::new(100_000_000));
    let (grammar, input) = match bytes.iter().position(|&b| b == 0) {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, &[][..]),
    };
    let (source, fault) = Source::from_bytes("edited.pest", grammar);
    if let Some(d) = fault {
        assert!(std::str::from_utf8(grammar).is_err(), "{}: on UTF-8 text", d.code);
        assert_sound("grammar bytes", &source.text, std::slice::from_ref(&d));
        return;
    }
    assert!(std::str::from_utf8(grammar).is_ok(), "bytes that are not UTF-8 loaded as a grammar");
    match Grammar::load(std::slice::from_ref(&source), true, Some(shipped)) {
        Err(findings) => {
            assert!(!findings.is_empty(), "a grammar refused without a finding");
            for f in &findings {
                assert_sound(
                    &format!("grammar finding in {}", f.source.name),
                    &f.source.text,
                    std::slice::from_ref(&f.diagnostic),
                );
            }
        }
        Ok(g) => {
            let rules: Vec<String> = g.names().into_iter().take(RULES_TRIED).map(str::to_owned).collect();
            let lines = records::split(input, Layout::Lines);
            // `kifu grammar diff` of the shipped grammar and the edited one, with the first rule
            // both define: every record counted once, each example pointing into its record.
            if let Some(rule) = g.names().into_iter().find(|r| shipped.rule(r).is_some()) {
                let budget = RunBudget::start(std::time::Duration::from_secs(5));
                let report = kifu::playground::diff::diff(shipped, &g, rule, "input", &lines, 3, &budget);
                let counted = report.accepted_both
                    + report.rejected_both
                    + report.newly_accepted
                    + report.newly_rejected
                    + report.changed_tree
                    + report.stopped
                    + report.not_run;
                assert_eq!((report.records, counted), (lines.len(), lines.len()), "grammar diff counts");
                for e in &report.examples {
                    assert_sound(
                        &format!("grammar diff of `{rule}`"),
                        &e.record,
                        std::slice::from_ref(&e.diagnostic()),
                    );
                }
            }
            for record in lines {
                for rule in &rules {
                    match g.parse(rule, &record.text) {
                        Ok(pairs) => {
                            let _ = kifu::notation::tree::render_with(pairs, record.line, &|r: &str| r.to_owned());
                        }
                        Err(rejection) => {
                            let d = rejection.diagnostic(rule, &record.text);
                            assert_sound(&format!("rule `{rule}`"), &record.text, std::slice::from_ref(&d));
                        }
                    }
                }
            }
        }
    }
}
