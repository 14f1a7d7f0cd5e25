//! The chess test vectors gathered from other libraries (`../shared/corpus/positions/vectors/`,
//! described in its `README.md` and in `../ANCHORS.md`), run through `kifu::fen::check`.
//!
//! Every record must get the verdict its file expects, or be listed, with the reason, in
//! `tests/fixtures/fen/vector-disagreements.tsv`. A listed row that no longer disagrees, or
//! whose kifu verdict has changed, fails the test too, so the table stays honest. A panic fails
//! whatever the table says.
//!
//! The vectors are third-party test data and are not copied into this repository (only the
//! few records of the disagreement table are). Where `../shared` is absent the test prints a
//! note and passes.
//!
//! Run with `cargo test --test formats fen_vectors:: -- --nocapture` to see the per-file counts.

use crate::common;

use std::path::{Path, PathBuf};

use common::vectors::{self, lines, read, unescape, Row, Spec, Tried, Verdict};
use kifu::fen::{self, Dialect, Kind};

/// The table of deliberate disagreements, checked in.
fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fen/vector-disagreements.tsv")
}

/// How one record is handed to kifu: always exactly as written (nothing is stripped or padded),
/// read by the record rule and with the castling letters the source says it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reading {
    kind: Kind,
    dialect: Dialect,
}

impl Reading {
    const FEN: Self = Self { kind: Kind::Fen, dialect: Dialect::Standard };
}

/// The per-source verdict files: `record`, `verdict`, `error_kind_or_note`, `source_path`.
///
/// Each record is read as FEN in the standard dialect unless its note says otherwise. The note
/// is a `; `-separated list of parts (README: "error_kind_or_note: built from these parts"); a
/// part that is exactly one of [`CHESS960_MARKS`] makes the record Chess960, and a part that is
/// exactly [`EPD_MARK`] makes it EPD. Only whole parts count, so `ok in Chess960` (shakmaty's
/// verdict in the other mode, for a record whose verdict was computed in standard mode) and
/// `as EPD via set_epd(): …` (python-chess, about another reading of a record run as FEN) do
/// not.
const VERDICT_FILES: [&str; 6] =
    ["python-chess.tsv", "shakmaty.tsv", "chess.js.tsv", "chessops.tsv", "stockfish.tsv", "scalachess.tsv"];

/// The note parts that say the anchor read the record with Chess960 castling: python-chess
/// `Board(fen, chess960=True)`, shakmaty `CastlingMode::Chess960`, Stockfish `setoption name
/// UCI_Chess960 value true`.
const CHESS960_MARKS: [&str; 3] = ["chess960=True", "CastlingMode::Chess960", "UCI_Chess960=true"];

/// The note part that says the anchor's test read the record as EPD (shakmaty's `Epd`, in
/// `test_from_setup`): four fields, no clocks.
const EPD_MARK: &str = "EPD";

/// Note parts that mention Chess960 without making the record Chess960; any other part that
/// mentions it, in a record without a mark, is reported so that a new wording is not misread.
const CHESS960_MENTIONS: [&str; 1] = ["ok in Chess960"];

/// Perft suites: `id`, `epd <record>` and `perft <depth> <nodes>` lines, `#` comments. The
/// files come from shakmaty, whose harness (`shakmaty/tests/perft.rs`) parses every `epd`
/// line with its FEN reader (which takes the clocks as optional) and builds the position with
/// `CastlingMode::Chess960`, for all three files alike; so every record here is read with the
/// Chess960 dialect (tricky.perft holds X-FEN and Shredder-FEN positions among standard ones,
/// and Chess960 castling letters read standard positions as standard chess does).
///
/// The keyword names the record EPD, and a record of four fields is exactly that (an EPD with
/// no operations), so kifu reads it as EPD; a record with more fields carries FEN's clocks
/// (chess960.perft writes all six), which EPD would take for operations, so kifu reads it as
/// FEN. `random.perft` is named in the README but optional: it is skipped, with a note, when
/// absent.
const PERFT_FILES: [(&str, bool); 3] =
    [("suites/tricky.perft", true), ("suites/chess960.perft", true), ("suites/random.perft", false)];

/// Tab-separated suites with a header: the position is the `fen` column, read as FEN; a
/// `chess960` column (`true`/`false`: Stockfish's `UCI_Chess960`) picks the dialect, which is
/// standard otherwise. Columns checked: stockfish-perft.tsv has `fen depth nodes chess960
/// source_path`, chessjs-perft.tsv `fen depth nodes source_path`.
const TSV_SUITES: [&str; 2] = ["suites/stockfish-perft.tsv", "suites/chessjs-perft.tsv"];

/// EPD suites: one whole EPD line per record, operations included, read as EPD.
const EPD_SUITES: [&str; 1] = ["suites/bratko-kopec.epd"];

/// The reading a verdict file's note asks for (see [`VERDICT_FILES`]), or why it cannot tell.
fn reading_of_note(note: &str) -> Result<Reading, String> {
    let parts: Vec<&str> = note.split("; ").map(str::trim).collect();
    let chess960 = parts.iter().any(|p| CHESS960_MARKS.contains(p));
    let epd = parts.contains(&EPD_MARK);
    if !chess960 {
        if let Some(p) = parts.iter().find(|p| p.contains("960") && !CHESS960_MENTIONS.contains(p)) {
            return Err(format!("the note part {p:?} mentions Chess960 but is not a known mark"));
        }
    }
    Ok(Reading {
        kind: if epd { Kind::Epd } else { Kind::Fen },
        dialect: if chess960 { Dialect::Chess960 } else { Dialect::Standard },
    })
}

/// The reading of a perft `epd` record (see [`PERFT_FILES`]).
fn perft_reading(record: &str) -> Reading {
    let fields = record.split(' ').filter(|f| !f.is_empty()).count();
    Reading { kind: if fields == 4 { Kind::Epd } else { Kind::Fen }, dialect: Dialect::Chess960 }
}

fn load_perft(dir: &Path, name: &str, rows: &mut Vec<Row<Reading>>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    for (line, l) in lines(&text) {
        let (keyword, rest) = l.split_once(' ').unwrap_or((l, ""));
        match keyword {
            "epd" => rows.push(Row {
                file: name.to_owned(),
                line,
                record: rest.to_owned(),
                expected: Verdict::Valid,
                how: perft_reading(rest),
            }),
            "id" | "perft" => {}
            _ if l.starts_with('#') => {}
            _ => problems.push(format!("{name}:{line}: not an `id`, `epd` or `perft` line: {l:?}")),
        }
    }
}

fn load_tsv_suite(dir: &Path, name: &str, rows: &mut Vec<Row<Reading>>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    let mut it = lines(&text);
    let header: Vec<&str> = it.next().map(|(_, h)| h.split('\t').collect()).unwrap_or_default();
    let Some(fen_column) = header.iter().position(|c| *c == "fen") else {
        problems.push(format!("{name}: no `fen` column in the header {header:?}"));
        return;
    };
    let chess960_column = header.iter().position(|c| *c == "chess960");
    for (line, l) in it {
        let cols: Vec<&str> = l.split('\t').collect();
        if cols.len() != header.len() {
            problems.push(format!("{name}:{line}: {} columns, the header has {}", cols.len(), header.len()));
            continue;
        }
        let dialect = match chess960_column.map(|c| cols[c]) {
            None | Some("false") => Dialect::Standard,
            Some("true") => Dialect::Chess960,
            Some(other) => {
                problems.push(format!("{name}:{line}: chess960 is {other:?}, not true/false"));
                continue;
            }
        };
        rows.push(Row {
            file: name.to_owned(),
            line,
            record: unescape(cols[fen_column]),
            expected: Verdict::Valid,
            how: Reading { kind: Kind::Fen, dialect },
        });
    }
}

fn load_epd_suite(dir: &Path, name: &str, rows: &mut Vec<Row<Reading>>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    for (line, l) in lines(&text) {
        rows.push(Row {
            file: name.to_owned(),
            line,
            record: l.to_owned(),
            expected: Verdict::Valid,
            how: Reading { kind: Kind::Epd, dialect: Dialect::Standard },
        });
    }
}

/// Every chess vector row, in file order, and notes about optional files that are absent.
fn load_vectors(dir: &Path, problems: &mut Vec<String>) -> (Vec<Row<Reading>>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for name in VERDICT_FILES {
        let reading = |cols: &[&str]| reading_of_note(cols.get(2).copied().unwrap_or(""));
        vectors::load_verdict_file(dir, name, reading, &mut rows, problems);
    }
    for (name, required) in PERFT_FILES {
        if required || dir.join(name).exists() {
            load_perft(dir, name, &mut rows, problems);
        } else {
            notes.push(format!("note: {name} is absent; skipped"));
        }
    }
    for name in TSV_SUITES {
        load_tsv_suite(dir, name, &mut rows, problems);
    }
    for name in EPD_SUITES {
        load_epd_suite(dir, name, &mut rows, problems);
    }
    (rows, notes)
}

/// Hands a record to kifu as written, with its [`Reading`]; the summary counts the records
/// read as Chess960 and as EPD.
fn try_row(row: &Row<Reading>) -> Tried<fen::Checked, 2> {
    let Reading { kind, dialect } = row.how;
    Tried {
        outcome: vectors::run(|| fen::check(&row.record, kind, dialect)),
        how: Some(format!("    read as:  {kind:?}, {dialect:?}")),
        counted: [dialect == Dialect::Chess960, kind == Kind::Epd],
    }
}

#[test]
fn note_parts_pick_the_reading() {
    let read = |note| reading_of_note(note).expect("a known note");
    assert_eq!(read("asserted valid in test; chess.js 1.4.0 validateFen reports: ok"), Reading::FEN);
    assert_eq!(
        read("verdict computed by running python-chess 1.11.2 (HEAD 9c24454) with chess960=True: VALID; chess960=True"),
        Reading { kind: Kind::Fen, dialect: Dialect::Chess960 }
    );
    assert_eq!(
        read("asserted valid in test; shakmaty 0.30.1 reports: ok (Standard); EPD; CastlingMode::Chess960"),
        Reading { kind: Kind::Epd, dialect: Dialect::Chess960 }
    );
    assert_eq!(read("verdict computed by running shakmaty 0.30.1: X in Standard; ok in Chess960; used"), Reading::FEN);
    assert_eq!(read("verdict computed: VALID; as EPD via set_epd(): ValueError"), Reading::FEN);
    assert!(reading_of_note("something; Chess960 castling").is_err());
    assert_eq!(perft_reading("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3").kind, Kind::Epd);
    assert_eq!(perft_reading("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").kind, Kind::Fen);
}

#[test]
fn chess_vectors_agree_or_are_listed() {
    let spec = Spec {
        game: "chess",
        table: table_path(),
        reason_needs_group: true,
        disagrees: "disagrees with the vector (or panics)",
        file_width: 32,
        columns: [("chess960", 9), ("epd", 5)],
        rows: 1_696,
    };
    vectors::check_vectors(&spec, load_vectors, try_row);
}
