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
//! proptest shrinks it to a small case (`tests/properties/hostile.rs`). The fuzz targets include this file
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
use kifu::psn;
use kifu::sfen::{self, DialectChoice};
use kifu::Span;
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
        let noted = report.diagnostics.iter().any(|d| d.code == kifu::diagnostic::Code::InputEncoding);
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
        let first = g.to_psn();
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
        let second = g2.to_psn();
        assert_eq!(first, second, "written twice, the game differs; from {original:?}");
        if let Some(game) = g.to_game() {
            // The shared game model plays the moves the replay played, to the same position.
            let r = g.replay.as_ref().expect("a game model comes from a replay");
            assert_eq!(game.main_line().collect::<Vec<_>>(), r.moves, "the model's main line; from {original:?}");
            assert_eq!(game.final_position(), r.end.to_position(), "the model's final position; from {original:?}");
            for position in game.positions() {
                let line = position.to_string();
                let checked = sfen::check(&line, DialectChoice::Usi);
                assert!(
                    checked.is_valid(),
                    "`--to sfen` wrote {line:?}, which is not valid: {:?}",
                    checked.diagnostics
                );
            }
            let usi = game.to_usi();
            let start = usi.strip_prefix("sfen ").and_then(|s| s.split(" moves").next()).unwrap_or_default();
            assert!(sfen::check(start, DialectChoice::Usi).is_valid(), "`--to usi` starts from {start:?}");
            kif_lines(&game, original);
        }
    }
}

/// `kifu convert --to kif` of a game: a line for every move of every line, numbered as the
/// move it is, and each `変化：N手` heading followed by move N.
fn kif_lines(game: &kifu::shogi::Game, original: &str) {
    let text = kifu::kif::write(game, "UTF-8").text;
    let numbered = |line: &str| line.trim_start().split(' ').next().and_then(|n| n.parse::<usize>().ok());
    let moves = text.lines().filter(|l| numbered(l).is_some() && (l.contains('(') || l.contains('打'))).count();
    let nodes: usize = game.lines().iter().map(|(_, line)| line.len()).sum();
    assert_eq!(moves, nodes, "the KIF {text:?} writes {moves} moves of {nodes}; from {original:?}");
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(n) = line.strip_prefix("変化：").and_then(|h| h.strip_suffix("手")) {
            let next = lines.get(i + 1).and_then(|l| numbered(l));
            assert_eq!(
                next,
                n.parse().ok(),
                "the KIF {text:?}: `{line}` is not followed by its move; from {original:?}"
            );
        }
    }
    // KIF written by kifu reads back, without an error, as the same moves and variations.
    let back = kifu::kif::check_bytes(text.as_bytes(), Some("kifu"));
    let errors: Vec<String> = back.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert!(errors.is_empty(), "the KIF {text:?} reads with errors {errors:?}; from {original:?}");
    let back = back.game.expect("a game");
    assert_eq!(tree(&back.moves), tree(&game.moves), "the KIF {text:?} reads as other moves; from {original:?}");
    assert_eq!(back.start.board, game.start.board, "the KIF {text:?} starts elsewhere; from {original:?}");
}

/// A line's moves and variations, as USI moves, without recursion: (depth, move) in the order
/// of the text. A variation of a variation's first move is one more variation of the move that
/// variation replaces (as KIF reads it): it has that variation's depth.
fn tree(line: &[kifu::shogi::Node]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut todo: Vec<(usize, &[kifu::shogi::Node])> = vec![(0, line)];
    while let Some((depth, line)) = todo.pop() {
        for (i, node) in line.iter().enumerate() {
            out.push((depth, node.mv.to_string()));
            let inner = if i == 0 && depth > 0 { depth } else { depth + 1 };
            todo.extend(node.variations.iter().rev().map(|v| (inner, v.moves.as_slice())));
        }
    }
    out
}

// ───────────────────────────── CSA ─────────────────────────────

/// A CSA file, as `kifu check` reads a `.csa` file: every finding within its text, and a game
/// for each record whose start could be set up, each no longer than the moves the text holds.
/// When the file reads without an error, each game written as CSA reads back without a finding
/// as the same game, and is written again to the same text.
pub fn csa_check(bytes: &[u8]) {
    let bytes = &bytes[..bytes.len().min(MAX_INPUT)];
    let read = kifu::csa::check_bytes(bytes);
    assert_sound("CSA file", &read.text, &read.diagnostics);
    let moves = read.games.iter().map(|g| g.moves.len()).sum::<usize>();
    assert!(moves <= read.text.len() / 7, "{moves} moves from {} bytes", read.text.len());
    assert!(read.diagnostics.len() <= kifu::csa::MAX_FINDINGS + 1, "{} findings", read.diagnostics.len());
    if !read.is_valid() {
        return;
    }
    for game in &read.games {
        let first = kifu::csa::write(game, kifu::csa::Version::V30);
        let again = kifu::csa::check_bytes(first.text.as_bytes());
        assert!(
            again.diagnostics.is_empty(),
            "written as {:?}, the game reads with {:?}",
            first.text,
            again.diagnostics
        );
        let [back] = &again.games[..] else { panic!("written as {:?}, {} games", first.text, again.games.len()) };
        assert_eq!(tree(&back.moves), tree(&game.moves), "written as {:?}, the game reads as other moves", first.text);
        assert_eq!(back.start, game.start, "written as {:?}, the game starts elsewhere", first.text);
        assert_eq!(kifu::csa::write(back, kifu::csa::Version::V30).text, first.text, "written twice, two texts");
    }
}

// ───────────────────────────── JKF ─────────────────────────────

/// A JKF record: every finding within its text, at most the findings a record reports; a record
/// read without an error, written again as JKF, reads back with no finding as the same game,
/// and is written again to the same text.
pub fn jkf_check(bytes: &[u8]) {
    let bytes = &bytes[..bytes.len().min(MAX_INPUT)];
    let read = kifu::jkf::check_bytes(bytes);
    assert_sound("JKF record", &read.text, &read.diagnostics);
    assert!(read.diagnostics.len() <= kifu::jkf::MAX_FINDINGS + 1, "{} findings", read.diagnostics.len());
    let Some(game) = read.game.as_ref().filter(|_| read.is_valid()) else { return };
    let first = kifu::jkf::write(game);
    let again = kifu::jkf::check_bytes(first.text.as_bytes());
    assert!(again.diagnostics.is_empty(), "written as {:?}, the game reads with {:?}", first.text, again.diagnostics);
    let back = again.game.expect("a game");
    // Forks deeper than JKF is read are left out, and named so.
    if first.lost.is_empty() {
        assert_eq!(tree(&back.moves), tree(&game.moves), "written as {:?}, the game reads as other moves", first.text);
    }
    assert_eq!(back.start, game.start, "written as {:?}, the game starts elsewhere", first.text);
    assert_eq!(kifu::jkf::write(&back).text, first.text, "written twice, two texts");
}

// ───────────────────────────── KIF ─────────────────────────────

/// A KIF or KI2 record, as `kifu check` reads a `.kif` file: every finding within its text; a
/// record read without an error, written again as KIF or as KI2, reads back without an error as
/// the same game, and is written again to the same text.
pub fn kif_check(bytes: &[u8]) {
    let bytes = &bytes[..bytes.len().min(MAX_INPUT)];
    let read = kifu::kif::check_bytes(bytes, Some("kif"));
    assert_sound("KIF record", &read.text, &read.diagnostics);
    let Some(game) = read.game.filter(|_| read.diagnostics.iter().all(|d| !d.is_error())) else { return };
    let first = kifu::kif::write(&game, "UTF-8");
    let again = kifu::kif::check_bytes(first.text.as_bytes(), Some("kifu"));
    let errors: Vec<String> = again.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert!(errors.is_empty(), "written as {:?}, the record reads with errors {errors:?}", first.text);
    let game2 = again.game.expect("a game");
    assert_eq!(tree(&game2.moves), tree(&game.moves), "written as {:?}, the record reads as other moves", first.text);
    assert_eq!(game2.start, game.start, "written as {:?}, the record starts elsewhere", first.text);
    let second = kifu::kif::write(&game2, "UTF-8");
    assert_eq!(first.text, second.text, "written twice, the record differs");
    // Written as KI2 too: the same moves and ending, and the same text written again.
    let ki2 = kifu::kif::write_ki2(&game);
    let again = kifu::kif::check_bytes(ki2.text.as_bytes(), Some("ki2u"));
    let errors: Vec<String> = again.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert!(errors.is_empty(), "written as KI2 {:?}, the record reads with errors {errors:?}", ki2.text);
    let game3 = again.game.expect("a game");
    assert_eq!(tree(&game3.moves), tree(&game.moves), "written as KI2 {:?}, the record reads as other moves", ki2.text);
    assert_eq!(game3.ending, game2.ending, "written as KI2 {:?}, the record ends otherwise than as KIF", ki2.text);
    assert_eq!(kifu::kif::write_ki2(&game3).text, ki2.text, "written twice as KI2, the record differs");
    // Written as PSN: the same start, moves and ending, and the same text written again.
    let psn = kifu::psn::write(&game).text;
    if psn.len() > kifu::psn::MAX_GAME_BYTES {
        // Too long for a PSN game: `kifu convert --to psn` says so and writes nothing.
        return;
    }
    let file = kifu::psn::check_bytes(psn.as_bytes(), kifu::psn::Options::default());
    let [read] = &file.games[..] else {
        panic!("written as PSN {psn:?}, the text reads as {} games", file.games.len())
    };
    let errors: Vec<String> = read.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert!(errors.is_empty(), "written as PSN {psn:?}, the game reads with errors {errors:?}");
    let game4 = read.to_game().expect("a game played out");
    assert_eq!(tree(&game4.moves), tree(&game.moves), "written as PSN {psn:?}, the game reads as other moves");
    assert_eq!(game4.start, game.start, "written as PSN {psn:?}, the game starts elsewhere");
    // An ending that says neither why nor who won is one PSN cannot hold (it says so).
    let held = game.ending.filter(|e| e.reason.is_some() || e.outcome.is_some());
    assert_eq!(game4.ending, held, "written as PSN {psn:?}, the game ends otherwise");
    assert_eq!(read.to_psn(), psn, "written twice as PSN, the game differs");
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

// ───────────────────────────── what reaches a terminal, a log, a diff, a URI ─────────────────────────────

/// A file's name, a NUL, then a record (one line; without a NUL, the bytes are the name and the
/// record is an SFEN record with a fixable fault). The record's findings, read as SFEN and as
/// FEN, are written for that name in every output format, and its fixes as a unified diff:
///
/// - human reports (plain, miette's drawing, and in colour) hold no character that a terminal
///   acts on or that reorders the text: no control but LF and tab, no bidirectional control;
///   in colour, an ESC only starts a colour (`ESC [ … m`);
/// - a JSON message is one line that reads back with the name as it is;
/// - a GitHub annotation is one line, safe for a terminal, whose properties and message hold no
///   unescaped `,`, `:`, CR, LF or `%`, and whose `file` reads back as the name shows;
/// - a SARIF location is an RFC 3986 URI (unreserved characters, `/` and `%XX` only, under
///   `file://` when absolute) that decodes to the name;
/// - a diff's headers read back (as git unquotes them) as the name, no name starts a line of
///   the diff, and the diff applied to the old text gives the fixed text.
pub fn file_names(bytes: &[u8]) {
    const FIXABLE: &[u8] = b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 01";
    let (name, record) = match bytes.iter().position(|&b| b == 0) {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, FIXABLE),
    };
    let name = String::from_utf8_lossy(name);
    let record = record.split(|&b| b == b'\n').next().unwrap_or_default();
    let drawing = [
        (false, kifu::diagnostic::graphical_handler(false, 100)),
        (true, kifu::diagnostic::graphical_handler(true, 100)),
    ];
    for format in [Format::Sfen(DialectChoice::Auto), Format::Fen(fen::Dialect::Standard)] {
        let report = check_line(format, 1, record, record.len());
        let text = &report.text;
        let place = |at: usize| (1, Span::point(at).columns(text).0);
        let shown = kifu::diagnostic::RecordSource::display_text(text);
        let source = kifu::diagnostic::RecordSource { name: &name, text: &shown, line: 1, columns: &[] };
        for d in &report.diagnostics {
            // Without colour, `kifu check` draws a report of one line itself, else as miette does.
            let mut plain = String::new();
            if kifu::diagnostic::draw_plain(d, &source, 100, &mut plain) {
                assert_terminal_safe("a plain report", &plain, false);
            }
            for (colored, handler) in &drawing {
                let mut drawn = String::new();
                let _ = handler.render_report(&mut drawn, &d.report(&source));
                assert_terminal_safe("a report", &drawn, *colored);
            }

            let json = serde_json::to_string(&d.to_json_with(&name, place)).expect("a JSON message");
            assert!(!json.contains('\n'), "a JSON message on more than one line: {json:?}");
            let value: serde_json::Value = serde_json::from_str(&json).expect("a JSON message reads back");
            assert_eq!(value["file"].as_str(), Some(&*name), "the name in a JSON message");

            let sarif: serde_json::Value =
                serde_json::from_str(&kifu::diagnostic::sarif::result(&name, d, place)).expect("a SARIF result");
            let uri = sarif["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("a SARIF location has a URI");
            assert_eq!(uri_decoded(uri), name.as_bytes(), "the SARIF URI {uri:?}");

            let annotation = kifu::diagnostic::sarif::github_annotation(&name, d, place);
            assert_terminal_safe("a GitHub annotation", &annotation, false);
            assert!(!annotation.contains('\n'), "a GitHub annotation on more than one line: {annotation:?}");
            let file = annotation_file(&annotation);
            assert_eq!(file, kifu::diagnostic::escape_unsafe(&name), "the file of {annotation:?}");
        }
        if std::str::from_utf8(record).is_ok() {
            let selection = kifu::diagnostic::select::Selection::default();
            let fixed = kifu::document::fix::fix_file(format, record, true, &selection, &mut Default::default());
            let fixed = fixed.expect("a UTF-8 file is fixed");
            if fixed.new != fixed.old {
                assert_diff_applies(&name, &fixed.old, &fixed.new);
            }
        }
    }
}

/// True for a character that a terminal acts on or that reorders the text around it: a control
/// but LF and tab, or a bidirectional control.
fn acts_on_a_terminal(c: char) -> bool {
    c != '\n' && kifu::diagnostic::is_unsafe(c)
}

/// `text` holds no character that acts on a terminal; with `colored`, an ESC that starts a
/// colour (`ESC [ digits and ; m`) is allowed.
fn assert_terminal_safe(what: &str, text: &str, colored: bool) {
    let mut rest = text;
    while let Some(at) = rest.find(acts_on_a_terminal) {
        let tail = &rest[at..];
        let sgr = tail.strip_prefix("\u{1b}[").and_then(|t| {
            let end = t.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            t[end..].starts_with('m').then_some(2 + end + 1)
        });
        match sgr {
            Some(len) if colored => rest = &tail[len..],
            _ => panic!("{what} holds {:?}: {text:?}", tail.chars().next()),
        }
    }
}

/// The bytes a SARIF URI names: `%XX` decoded, after `file://` for an absolute path; every other
/// character unreserved or `/` (RFC 3986).
fn uri_decoded(uri: &str) -> Vec<u8> {
    let path = uri.strip_prefix("file://").unwrap_or(uri);
    let mut out = Vec::new();
    let mut bytes = path.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex: String = bytes.by_ref().take(2).map(char::from).collect();
            out.push(u8::from_str_radix(&hex, 16).unwrap_or_else(|_| panic!("a bad escape in the URI {uri:?}")));
        } else {
            assert!(
                b.is_ascii_alphanumeric() || b"-._~/".contains(&b),
                "{:?} unescaped in the URI {uri:?}",
                char::from(b)
            );
            out.push(b);
        }
    }
    out
}

/// A workflow command's escaped text read back (`%25`, `%0D`, `%0A`, `%3A`, `%2C`); it holds no
/// unescaped character that would end it (`,` and `:` in a property).
fn annotation_unescaped(text: &str, property: bool) -> String {
    assert!(!text.contains(['\r', '\n']), "a raw line end in a workflow command: {text:?}");
    assert!(!property || !text.contains([',', ':']), "a raw `,` or `:` in a workflow command's property: {text:?}");
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let code = rest.get(at + 1..at + 3).unwrap_or_default();
        out.push(match code {
            "25" => '%',
            "0D" => '\r',
            "0A" => '\n',
            "3A" if property => ':',
            "2C" if property => ',',
            _ => panic!("a `%` that escapes nothing in a workflow command: {text:?}"),
        });
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

/// The `file` property of a GitHub annotation, read back; its other properties and its message
/// must read back too.
fn annotation_file(annotation: &str) -> String {
    let rest = annotation
        .strip_prefix("::error ")
        .or_else(|| annotation.strip_prefix("::warning "))
        .unwrap_or_else(|| panic!("not an annotation: {annotation:?}"));
    let (properties, message) = rest.split_once("::").expect("an annotation has a message");
    annotation_unescaped(message, false);
    let mut file = None;
    for property in properties.split(',') {
        let (key, value) = property.split_once('=').expect("a property is key=value");
        let value = annotation_unescaped(value, true);
        if key == "file" {
            file = Some(value);
        }
    }
    file.expect("an annotation names its file")
}

/// A name in a diff header read back as git reads it: plain, or in double quotes with C
/// escapes and octal bytes.
fn diff_header_name(header: &str) -> Vec<u8> {
    let Some(quoted) = header.strip_prefix('"') else { return header.as_bytes().to_vec() };
    let quoted = quoted.strip_suffix('"').expect("a quoted name ends with its quote");
    let mut out = Vec::new();
    let mut bytes = quoted.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            assert_ne!(b, b'"', "an unescaped quote in {header:?}");
            out.push(b);
            continue;
        }
        let e = bytes.next().expect("an escape has a character");
        out.push(match e {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 11,
            b'f' => 12,
            b'r' => b'\r',
            b'"' | b'\\' => e,
            b'0'..=b'3' => {
                let digits = [e, bytes.next().expect("octal"), bytes.next().expect("octal")];
                u8::from_str_radix(std::str::from_utf8(&digits).expect("ASCII"), 8).expect("an octal byte")
            }
            _ => panic!("an unknown escape in {header:?}"),
        });
    }
    out
}

/// The lines of `text` as a diff sees them: each ends at LF, which it keeps.
fn lf_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The unified diff of `old` and `new` under `name` names the file in headers that read back as
/// it, and applied to `old` gives `new`, line ends and a missing last newline included.
pub fn assert_diff_applies(name: &str, old: &str, new: &str) {
    let diff = kifu::document::fix::unified_diff(name, old, new);
    let mut lines = diff.split_inclusive('\n').peekable();
    for mark in ["--- ", "+++ "] {
        let header = lines.next().and_then(|l| l.strip_prefix(mark)).expect("a diff header");
        let header = header.strip_suffix('\n').expect("a header ends its line");
        assert_eq!(diff_header_name(header), name.as_bytes(), "the diff header {header:?}");
    }
    let old_lines = lf_lines(old);
    let mut out = String::new();
    let mut at = 0;
    while let Some(hunk) = lines.next() {
        let counts = hunk.strip_prefix("@@ -").and_then(|h| h.strip_suffix(" @@\n")).expect("a hunk header");
        let (from, to) = counts.split_once(" +").expect("two ranges");
        let range = |r: &str| -> (usize, usize) {
            let (start, count) = r.split_once(',').expect("start,count");
            (start.parse().expect("a start"), count.parse().expect("a count"))
        };
        let ((start, mut old_count), (_, mut new_count)) = (range(from), range(to));
        while at + 1 < start {
            out.push_str(old_lines[at]);
            at += 1;
        }
        while old_count + new_count > 0 {
            let line = lines.next().expect("a hunk has the lines it counts");
            let (mark, body) = line.split_at(1);
            let mut body = body.to_owned();
            if lines.peek() == Some(&"\\ No newline at end of file\n") {
                lines.next();
                body.pop();
            }
            match mark {
                " " | "-" => {
                    assert_eq!(old_lines.get(at).copied(), Some(body.as_str()), "the diff's old line {at}");
                    at += 1;
                    old_count -= 1;
                    if mark == " " {
                        out.push_str(&body);
                        new_count -= 1;
                    }
                }
                "+" => {
                    out.push_str(&body);
                    new_count -= 1;
                }
                _ => panic!("a line of a hunk that is no change: {line:?}"),
            }
        }
    }
    for line in &old_lines[at..] {
        out.push_str(line);
    }
    assert_eq!(out, new, "the diff applied to the old text: {diff:?}");
}

/// A format and a text, as `kifu check --fix` or `--diff` reads a file: the first byte names
/// the format (`s` SFEN, `f` FEN, `e` EPD, `p` PSN, `j` JSON; in capitals, with
/// `--unsafe-fixes`; another byte picks one by its value). The fixed text keeps its byte-order
/// mark and, in a line format, every line end and every blank line; a record without errors
/// stays one (safe fixes only), and one of SFEN or FEN reads as the same position; the text's
/// unified diff applied to it gives the fixed text.
pub fn fix(bytes: &[u8]) {
    let Some((&first, rest)) = bytes.split_first() else { return };
    let formats = [
        Format::Sfen(DialectChoice::Auto),
        Format::Fen(fen::Dialect::Standard),
        Format::Epd(fen::Dialect::Standard),
        Format::Psn,
        Format::Json,
    ];
    let format = match first.to_ascii_lowercase() {
        b's' => formats[0],
        b'f' => formats[1],
        b'e' => formats[2],
        b'p' => formats[3],
        b'j' => formats[4],
        _ => formats[usize::from(first) % formats.len()],
    };
    let unsafe_fixes = first.is_ascii_uppercase() || first >= 0x80;
    // A file in any encoding, as `--fix` reads it: one it cannot write back is left as it is.
    let mut fixed = kifu::document::fix::Fixed::default();
    let selection = kifu::diagnostic::select::Selection::default();
    let Ok(file) = kifu::document::fix::fix_file(format, rest, unsafe_fixes, &selection, &mut fixed) else { return };
    assert_eq!(file.encoding.encode(&file.new).as_ref(), Some(&file.bytes), "the fixed file is its text");
    if file.new == file.old {
        assert_eq!(file.bytes, rest, "a file with nothing to fix is written back as it was");
    }
    let (old, new) = (file.old.as_str(), file.new);
    assert!(new == old || fixed.applied > 0, "the text changed with no fix applied");
    assert_eq!(new.starts_with('\u{feff}'), old.starts_with('\u{feff}'), "the byte-order mark");
    if format.is_lines() {
        let ends = |t: &str| t.match_indices(['\n', '\r']).map(|(_, e)| e).collect::<String>();
        assert_eq!(ends(&new), ends(old), "the line ends");
        let body = |t: &'_ str| t.strip_prefix('\u{feff}').unwrap_or(t).to_owned();
        let (old_body, new_body) = (body(old), body(&new));
        for (before, after) in old_body.split(['\n', '\r']).zip(new_body.split(['\n', '\r'])) {
            assert_eq!(before.trim().is_empty(), after.trim().is_empty(), "a blank line: {before:?} and {after:?}");
            if unsafe_fixes || before.trim().is_empty() || !format.check_text(before).0.iter().all(|d| !d.is_error()) {
                continue;
            }
            assert!(
                format.check_text(after).0.iter().all(|d| !d.is_error()),
                "a safe fix made a record without errors wrong: {before:?} to {after:?}"
            );
            if matches!(format, Format::Sfen(_) | Format::Fen(_)) {
                assert_eq!(canonical(format, after), canonical(format, before), "a safe fix changed the position");
            }
        }
    }
    if new != old {
        assert_diff_applies("f", old, &new);
    }
}

/// A record of one line written in its canonical form.
fn canonical(format: Format, record: &str) -> String {
    let mut out = record.to_owned();
    for (span, written) in kifu::document::canonical(format, record).into_iter().rev() {
        out.replace_range(span.start..span.end, &written);
    }
    out
}

// ───────────────────────────── the language server ─────────────────────────────

/// The first id of the requests a session sends (a message made of fuzzed bytes can hardly
/// take it).
const FIRST_ID: u64 = 1_000_000;

/// A session with `kifu lsp`, built from `bytes`, served to its end:
///
/// - bytes that start with `Content-Length` are the whole stream the editor writes;
/// - else `ext[,utf8]`, NUL, a document, NUL, a script: the document is opened as `doc.ext`,
///   and each byte of the script does one thing (a hover, code actions over a range,
///   formatting, the outline, an edit of a range or of the whole text, a message that is not
///   JSON-RPC, a request to shut down); the session ends with `exit`. Without a NUL, the bytes
///   are an SFEN document, and the script does each thing once.
///
/// The script's messages are handed over as an editor sends them, waiting after each request
/// for its answer ([`Paced`]). The server ends (with the status the protocol gives when every
/// message was framed), and writes only framed JSON-RPC messages no larger than the input
/// allows: one answer to each request, at most 1,001 diagnostics a document, an outline of at
/// most 2,000 games, every range in order, and, once it is idle after a request, the findings
/// of the document's version.
pub fn lsp_session(bytes: &[u8]) {
    let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (stream, script) = if bytes.starts_with(b"Content-Length") {
        (vec![Framed { bytes: bytes.to_vec(), answer: None, published: None }], None)
    } else {
        let script = lsp_script(bytes);
        (script.stream, Some((script.methods, script.awaited, script.shut_down)))
    };
    let length = stream.iter().map(|f| f.bytes.len()).sum::<usize>();
    let input = Paced {
        parts: stream.into(),
        current: std::io::Cursor::new(Vec::new()),
        out: out.clone(),
        pending: Vec::new(),
        seen: 0,
    };
    let result = kifu::lsp::serve(input, SharedOutput(out.clone()), |_| {});
    let written = std::mem::take(&mut *out.lock().expect("the output"));
    // What one message may hold: an answer the size of the document (its canonical form), or
    // a bounded number of findings and fixes.
    let largest = (2 << 20) + 8 * length;
    let messages = framed_messages(&written, largest);
    if let Some((methods, awaited, shut_down)) = script {
        assert_eq!(result, Ok(shut_down), "how the session ended");
        for version in awaited {
            let published = messages
                .iter()
                .any(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version);
            let methods: Vec<String> =
                messages.iter().map(|m| format!("{} {}", m["method"], m["params"]["version"])).collect();
            assert!(
                published,
                "the findings of version {version} were not published once the server was idle: {methods:?}"
            );
        }
        let answers: Vec<&serde_json::Value> = messages
            .iter()
            .filter(|m| m.get("method").is_none() && m["id"].as_u64().is_some_and(|id| id >= FIRST_ID))
            .collect();
        let ids: Vec<u64> = answers.iter().filter_map(|m| m["id"].as_u64()).collect();
        let sent: Vec<u64> = (FIRST_ID..).take(methods.len()).collect();
        assert_eq!(ids, sent, "one answer to each request, in order");
        for (answer, method) in answers.iter().zip(&methods) {
            if method == "textDocument/documentSymbol" {
                let games = answer["result"].as_array().map_or(0, Vec::len);
                assert!(games <= 2000, "an outline of {games} games");
            }
        }
    }
    for m in &messages {
        if m["method"] == "textDocument/publishDiagnostics" {
            let diagnostics = m["params"]["diagnostics"].as_array().expect("diagnostics");
            assert!(diagnostics.len() <= 1001, "{} diagnostics in one message", diagnostics.len());
        }
        assert_ranges_in_order(m);
    }
}

/// The writer a session's output goes to, read when it ends.
struct SharedOutput(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("the output").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A message as the editor frames it, and the id of the answer to wait for before the next
/// (a request's), so that the server, finding no message waiting, checks what changed.
struct Framed {
    bytes: Vec<u8>,
    answer: Option<u64>,
    /// The document's version whose findings are published before the next message: a
    /// request's answer is followed by them, when the text changed since they were last sent.
    published: Option<i32>,
}

/// A session's input, handed over a message at a time: after a request, the next message waits
/// (5 seconds at most) until the answer is written, and the findings of the document's version
/// that it names, as an editor's does when it waits. Nothing waits in the server's inbox then,
/// so it checks what changed.
struct Paced {
    parts: std::collections::VecDeque<Framed>,
    current: std::io::Cursor<Vec<u8>>,
    out: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    /// What the next part waits for: texts of the output.
    pending: Vec<String>,
    /// How much of the output was searched for answers.
    seen: usize,
}

impl Paced {
    /// Waits until the output, from where the last waits left it, holds each of `needles`, in
    /// any order.
    fn wait_for(&mut self, needles: &[String]) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut ends = Vec::new();
        for needle in needles {
            let mut from = self.seen;
            while std::time::Instant::now() < deadline {
                let out = self.out.lock().expect("the output");
                if let Some(at) = out[from..].windows(needle.len()).position(|w| w == needle.as_bytes()) {
                    ends.push(from + at + needle.len());
                    break;
                }
                from = out.len().saturating_sub(needle.len()).max(from);
                drop(out);
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
        }
        self.seen = ends.into_iter().max().unwrap_or(self.seen);
    }
}

impl std::io::Read for Paced {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.current.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let pending = std::mem::take(&mut self.pending);
            self.wait_for(&pending);
            let Some(next) = self.parts.pop_front() else { return Ok(0) };
            self.pending.extend(next.answer.map(|id| format!("\"id\":{id},")));
            self.pending.extend(next.published.map(|v| format!("\"version\":{v}}}")));
            self.current = std::io::Cursor::new(next.bytes);
        }
    }
}

/// A scripted session being written: its messages, the methods of its requests, the
/// document's version, and the versions whose findings were awaited.
#[derive(Default)]
struct Script {
    stream: Vec<Framed>,
    methods: Vec<String>,
    version: i32,
    awaited: Vec<i32>,
    shut_down: bool,
}

impl Script {
    fn frame(&mut self, body: &[u8], answer: Option<u64>, published: Option<i32>) {
        let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        bytes.extend_from_slice(body);
        self.stream.push(Framed { bytes, answer, published });
    }

    /// A request; its answer is awaited, and then, unless the editor asks to shut down, the
    /// findings of the document's version when they were not yet.
    fn request(&mut self, method: &str, params: serde_json::Value) {
        let id = FIRST_ID + self.methods.len() as u64;
        let message = serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.methods.push(method.to_owned());
        self.shut_down |= method == "shutdown";
        let published =
            (!self.shut_down && self.version > 0 && self.awaited.last() != Some(&self.version)).then_some(self.version);
        self.awaited.extend(published);
        self.frame(message.to_string().as_bytes(), Some(id), published);
    }

    fn note(&mut self, method: &str, params: serde_json::Value) {
        let message = serde_json::json!({ "jsonrpc": "2.0", "method": method, "params": params });
        self.frame(message.to_string().as_bytes(), None, None);
    }
}

/// The scripted session of `bytes` (see [`lsp_session`]).
fn lsp_script(bytes: &[u8]) -> Script {
    let mut parts = bytes.splitn(3, |&b| b == 0);
    let (head, document, script) = match (parts.next(), parts.next(), parts.next()) {
        (Some(head), Some(document), script) => (head, document, script.unwrap_or_default()),
        _ => (&b"sfen"[..], bytes, &[0u8, 1, 2, 3, 4, 0, 5, 6, 1, 7][..]),
    };
    let head = String::from_utf8_lossy(head);
    let (ext, utf8) = match head.split_once(',') {
        Some((ext, options)) => (ext.to_owned(), options == "utf8"),
        None => (head.into_owned(), false),
    };
    let uri = format!("file:///doc.{}", ext.replace(|c: char| !c.is_ascii_alphanumeric(), ""));
    let document = String::from_utf8_lossy(document).into_owned();
    let mut s = Script::default();
    let encodings = if utf8 { serde_json::json!(["utf-8"]) } else { serde_json::json!(["utf-16"]) };
    s.request("initialize", serde_json::json!({ "capabilities": { "general": { "positionEncodings": encodings } } }));
    s.note("initialized", serde_json::json!({}));
    s.version = 1;
    let open = serde_json::json!({ "textDocument": { "uri": uri, "languageId": ext, "version": 1, "text": document } });
    s.note("textDocument/didOpen", open);
    let doc = serde_json::json!({ "uri": uri });
    let mut script = script.iter().copied();
    let mut next = move || script.next();
    // A line below 128, or with the high bit set, a line far down (its multiple of 64).
    let position = |line: Option<u8>, character: Option<u8>| {
        let line = line.map_or(0, |b| if b < 0x80 { u32::from(b) } else { u32::from(b & 0x7f) * 64 });
        serde_json::json!({ "line": line, "character": character.unwrap_or(0) })
    };
    while let Some(op) = next() {
        match op % 8 {
            0 => {
                let at = position(next(), next());
                s.request("textDocument/hover", serde_json::json!({ "textDocument": doc, "position": at }));
            }
            1 => {
                let range = serde_json::json!({ "start": position(next(), next()), "end": position(next(), next()) });
                let params =
                    serde_json::json!({ "textDocument": doc, "range": range, "context": { "diagnostics": [] } });
                s.request("textDocument/codeAction", params);
            }
            2 => {
                let options = serde_json::json!({ "tabSize": 4, "insertSpaces": true });
                s.request("textDocument/formatting", serde_json::json!({ "textDocument": doc, "options": options }));
            }
            3 => s.request("textDocument/documentSymbol", serde_json::json!({ "textDocument": doc })),
            4 | 5 => {
                s.version += 1;
                let change = if op % 8 == 4 {
                    let range =
                        serde_json::json!({ "start": position(next(), next()), "end": position(next(), next()) });
                    let n = usize::from(next().unwrap_or(0) % 16);
                    let inserted: Vec<u8> = (0..n).filter_map(|_| next()).collect();
                    serde_json::json!({ "range": range, "text": String::from_utf8_lossy(&inserted) })
                } else {
                    serde_json::json!({ "text": document })
                };
                let document = serde_json::json!({ "uri": uri, "version": s.version });
                s.note(
                    "textDocument/didChange",
                    serde_json::json!({ "textDocument": document, "contentChanges": [change] }),
                );
            }
            6 => {
                let n = usize::from(next().unwrap_or(0) % 32);
                let junk: Vec<u8> = (0..n).filter_map(|_| next()).collect();
                s.frame(&[b"not JSON-RPC: ".as_slice(), &junk].concat(), None, None);
            }
            _ => s.request("shutdown", serde_json::Value::Null),
        }
    }
    s.note("exit", serde_json::Value::Null);
    s
}

/// The messages of a server's output: each framed by its `Content-Length`, at most `largest`
/// bytes, and JSON-RPC.
fn framed_messages(mut written: &[u8], largest: usize) -> Vec<serde_json::Value> {
    let mut messages = Vec::new();
    while !written.is_empty() {
        let end = written.windows(4).position(|w| w == b"\r\n\r\n").expect("a header ends with a blank line");
        let header = std::str::from_utf8(&written[..end]).expect("an ASCII header");
        let length: usize = header
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("a Content-Length");
        assert!(length <= largest, "a message of {length} bytes");
        let body = &written[end + 4..end + 4 + length];
        let message: serde_json::Value = serde_json::from_slice(body).expect("a message is JSON");
        assert_eq!(message["jsonrpc"], "2.0", "a JSON-RPC message");
        messages.push(message);
        written = &written[end + 4 + length..];
    }
    messages
}

/// Every LSP range in `value` (an object with `start` and `end` positions) starts before it ends.
fn assert_ranges_in_order(value: &serde_json::Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Object(map) => {
                if let (Some(start), Some(end)) = (map.get("start"), map.get("end")) {
                    let at = |p: &serde_json::Value| (p["line"].as_u64(), p["character"].as_u64());
                    if at(start).0.is_some() {
                        assert!(at(start) <= at(end), "a range that ends before it starts: {v}");
                    }
                }
                stack.extend(map.values());
            }
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}
