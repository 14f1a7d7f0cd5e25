//! The positions of PSN headers (`[FEN "…"]`, `[SFEN "…"]`) are checked by the code that checks
//! SFEN records: a board fault in a header gets the report the same board gets as an SFEN record,
//! the same code, message and labels, on the same characters, which `kifu check` shows at the
//! header's own line and columns of the file.

use crate::common::shared;

use std::path::Path;
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use kifu::diagnostic::Diagnostic;
use kifu::psn;
use kifu::sfen::{self, DialectChoice};
use kifu::Span;

const FAULTS: [&str; 2] =
    ["tests/fixtures/psn/err/fen_board_faults.psn", "tests/fixtures/psn/err/sfen_board_faults.psn"];

fn kifu() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kifu"));
    cmd.env("NO_COLOR", "1").env_remove("COLUMNS").current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// A board header of the fixtures: its value and where its board ends. The fixtures write
/// empty hands and Black to move after every board.
fn board_of(key: &str, value: &str) -> Option<usize> {
    let rest = if key == "FEN" { " 0000000/0000000 s 1" } else { " b - 1" };
    value.strip_suffix(rest).map(str::len)
}

/// A diagnostic as the comparison sees it: code, severity, message, help and each label, with
/// its span taken from `origin` when it lies on the board (`board` bytes long), else `None`.
type Seen = (&'static str, bool, String, Option<String>, Vec<(Option<Span>, String)>);

fn seen(d: &Diagnostic, origin: usize, board: usize) -> Seen {
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let s = (l.span.start >= origin && l.span.end <= origin + board)
                .then(|| Span::new(l.span.start - origin, l.span.end - origin));
            (s, l.message.clone())
        })
        .collect();
    (d.code.as_str(), d.is_error(), d.message.clone(), d.help.clone(), labels)
}

#[test]
fn header_boards_report_as_sfen_records() {
    let mut compared = 0;
    for path in FAULTS {
        let bytes = std::fs::read(path).expect("fixture");
        let read = psn::check_bytes(&bytes, Default::default());
        assert_eq!(read.games.len(), 13, "{path}: one game per fault");
        for g in &read.games {
            let h = g.game.headers.iter().find(|h| h.key == "FEN" || h.key == "SFEN").expect("a board header");
            let board_len = board_of(&h.key, &h.value).unwrap_or_else(|| panic!("{path}: {:?}", h.value));
            let board = &h.value[..board_len];
            // The same board as an SFEN record: rows separated by `/`, Black to move, no hands.
            let record = format!("{} b - 1", board.replace(' ', "/"));
            // An `SFEN` header is an SFEN record as its author typed it, repaired as one; a
            // `FEN` header's board is written in its own way, and reported fault by fault.
            let alone = if h.key == "SFEN" {
                sfen::check(&record, DialectChoice::Auto)
            } else {
                sfen::check_without_repair(&record, DialectChoice::Auto)
            };
            assert!(!alone.is_valid(), "{path}: `{record}` has a fault");
            let mut expected: Vec<Seen> = alone.diagnostics.iter().map(|d| seen(d, 0, board_len)).collect();
            let mut found: Vec<Seen> = g
                .diagnostics
                .iter()
                .filter(|d| d.code.starts_with("sfen::"))
                .map(|d| seen(d, h.value_span.start, board_len))
                .collect();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{path} line {}: `{board}`", g.game.line);
            // Every error of the game is one of them: the header adds no report of its own.
            let errors = g.diagnostics.iter().filter(|d| d.is_error()).count();
            assert_eq!(
                errors,
                alone.diagnostics.iter().filter(|d| d.is_error()).count(),
                "{path} line {}",
                g.game.line
            );
            assert!(g.game.setup.is_none(), "{path} line {}: no position to replay from", g.game.line);
            compared += 1;
        }
    }
    assert_eq!(compared, 26);
}

/// The columns `column..end_column` (1-based, in characters) of `line`.
fn columns(line: &str, column: u64, end: u64) -> String {
    let (a, b) = (usize::try_from(column).expect("column") - 1, usize::try_from(end).expect("column") - 1);
    line.chars().skip(a).take(b.saturating_sub(a)).collect()
}

#[test]
fn kifu_check_places_header_faults_at_the_file_s_lines_and_columns() {
    for path in FAULTS {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("fixture");
        let lines: Vec<&str> = text.lines().collect();
        let out = kifu().args(["check", "--message-format", "json", path]).output().expect("kifu runs");
        assert_eq!(out.status.code(), Some(1), "{path}: invalid games");
        let mut placed = 0;
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            let Some(code) = v["code"].as_str().filter(|c| c.starts_with("sfen::")) else { continue };
            let n = usize::try_from(v["line"].as_u64().expect("line")).expect("line");
            let line = lines[n - 1];
            let (column, end) = (v["column"].as_u64().expect("column"), v["end_column"].as_u64().expect("end"));
            // The header holds the characters at fault, inside its quotes.
            let open = line.find('"').expect("a header line") as u64 + 1;
            assert!(line.starts_with("[FEN \"") || line.starts_with("[SFEN \""), "{path}:{n}: {code} on `{line}`");
            assert!(open < column && end < line.len() as u64, "{path}:{n}: {code} at {column}..{end}");
            // The same characters as in the SFEN record made of that board.
            let value = &line[usize::try_from(open).expect("open")..line.len() - 2];
            let key = if line.starts_with("[FEN") { "FEN" } else { "SFEN" };
            let board = &value[..board_of(key, value).expect("fixture board")];
            let record = format!("{} b - 1", board.replace(' ', "/"));
            let alone = sfen::check_without_repair(&record, DialectChoice::Auto);
            let same = alone.diagnostics.iter().find(|d| d.code == code).expect("the same code in the record");
            let at = same.span();
            assert_eq!(
                (column - open - 1, end - open - 1),
                (at.start as u64, at.end as u64),
                "{path}:{n}: {code} columns against the record `{record}`"
            );
            assert_eq!(
                columns(line, column, end).replace(' ', "/"),
                at.slice(&record),
                "{path}:{n}: {code} covers the same characters"
            );
            placed += 1;
        }
        assert!(placed >= 13, "{path}: {placed} board findings");
    }
}

#[test]
fn human_reports_show_the_header_lines() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/psn-headers"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        assert_cmd_snapshot!("fen_board_faults", kifu().args(["check", "tests/fixtures/psn/err/fen_board_faults.psn"]));
        assert_cmd_snapshot!("fen_arguments", kifu().args(["check", "tests/fixtures/psn/err/fen_arguments.psn"]));
    });
}

/// What the spec's own FEN parts get, each in a game of `err/fen_arguments.psn`: the code and
/// the characters of the primary label.
#[test]
fn the_fen_header_s_own_parts_get_pointed_reports() {
    let bytes = std::fs::read("tests/fixtures/psn/err/fen_arguments.psn").expect("fixture");
    let read = psn::check_bytes(&bytes, Default::default());
    let got: Vec<Vec<(&str, &str)>> = read
        .games
        .iter()
        .map(|g| {
            let text = g.text(&read.text);
            g.diagnostics.iter().filter(|d| d.is_error()).map(|d| (d.code.as_str(), d.span().slice(text))).collect()
        })
        .collect();
    let want: Vec<Vec<(&str, &str)>> = vec![
        vec![("psn::fen-hand", "000000")],
        vec![("psn::fen-hand", "-")],
        vec![("psn::fen-hand", "t")],
        vec![("sfen::too-many-pieces", "1")],
        vec![("psn::fen-side", "w")],
        vec![("psn::fen-number", "0")],
        vec![("psn::fen-number", "1.")],
        vec![("psn::fen-shape", "")],
        vec![("psn::fen-shape", "")],
        vec![("psn::fen-shape", "0")],
        vec![("psn::fen-shape", "  ")],
        vec![("sfen::rank-width", "LNSGKGSN"), ("psn::fen-hand", "00000000")],
    ];
    assert_eq!(got, want);
    // A missing part is pointed at where it goes: White's hand before the side.
    let g = &read.games[7];
    let d = g.diagnostics.iter().find(|d| d.code == "psn::fen-shape").expect("missing");
    let text = g.text(&read.text);
    assert!(text[d.span().start..].starts_with("s 1\"]"), "{:?}", &text[d.span().start..]);
    assert!(d.message.contains("White's hand"));
}

/// The corpus's games with a FEN or SFEN header read their position, with no error from it.
#[test]
fn corpus_headers_still_read() {
    let Some(files) = shared::psn_files() else { return };
    let mut headers = 0;
    for file in files {
        let read = psn::check_bytes(&std::fs::read(&file).expect("corpus file"), Default::default());
        for g in &read.games {
            for h in g
                .game
                .headers
                .iter()
                .filter(|h| h.key.eq_ignore_ascii_case("FEN") || h.key.eq_ignore_ascii_case("SFEN"))
            {
                headers += 1;
                assert!(
                    !g.diagnostics.iter().any(|d| d.is_error() && h.span.contains(d.span())),
                    "{}: {:?}",
                    file.display(),
                    h.value
                );
                assert!(g.game.setup.is_some(), "{}: {:?} gives a position", file.display(), h.value);
            }
        }
    }
    assert!(headers >= 4, "{headers} headers");
}

proptest::proptest! {
    /// Any value of a FEN or SFEN header is read without a panic, and every label lies inside
    /// the game, on character boundaries.
    #[test]
    fn any_header_value_is_read(value in "([/ 0-9a-zA-Z+\\[\\]\\-.]|ｐ|９|\u{3000}|／)*", key in "(FEN|SFEN)") {
        let text = format!("[{key} \"{value}\"]\n1. P7f\n");
        let read = psn::check_bytes(text.as_bytes(), Default::default());
        for g in &read.games {
            let own = g.text(&read.text);
            for d in &g.diagnostics {
                for l in &d.labels {
                    proptest::prop_assert!(l.span.end <= own.len() && own.is_char_boundary(l.span.start) && own.is_char_boundary(l.span.end), "{} at {:?} in {:?}", d.code, l.span, own);
                }
            }
        }
    }
}
