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
//! Run with `cargo test --test fen_vectors -- --nocapture` to see the per-file counts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use kifu::fen::{self, Checked, Dialect, Kind};

/// The vector folder, next to this repository.
fn vector_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/positions/vectors")
}

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

/// The header every verdict file starts with.
const VERDICT_HEADER: &str = "record\tverdict\terror_kind_or_note\tsource_path";

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

/// One record of a vector file, as written there.
struct Row {
    file: String,
    line: usize,
    record: String,
    expected: Verdict,
    reading: Reading,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Valid,
    Invalid,
}

impl Verdict {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "valid" => Some(Self::Valid),
            "invalid" => Some(Self::Invalid),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Invalid => "invalid",
        }
    }
}

/// Undoes the vector files' escapes: `\t`, `\n` and `\\` (README: "A literal tab or newline
/// inside a record would be written as `\t` or `\n`"). Any other backslash is the record's own:
/// python-chess.tsv keeps the `\"` of test.py's EPD strings, and the note's ValueError shows
/// python-chess was run on them with the backslash in place.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The inverse of [`unescape`], for the table rows the test suggests.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

/// Lines of a file with their 1-based numbers, without line ends (a record's own trailing
/// spaces are kept).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l))).filter(|(_, l)| !l.is_empty())
}

fn read(path: &Path, problems: &mut Vec<String>) -> Option<String> {
    match fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) => {
            problems.push(format!("cannot read {}: {e}", path.display()));
            None
        }
    }
}

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

fn load_verdict_file(dir: &Path, name: &str, rows: &mut Vec<Row>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    let mut it = lines(&text);
    match it.next() {
        Some((_, VERDICT_HEADER)) => {}
        other => {
            problems.push(format!("{name}: the header is {other:?}, expected {VERDICT_HEADER:?}"));
            return;
        }
    }
    for (line, l) in it {
        let cols: Vec<&str> = l.split('\t').collect();
        let Some(expected) = cols.get(1).and_then(|v| Verdict::parse(v)) else {
            problems.push(format!("{name}:{line}: no `valid`/`invalid` verdict in {l:?}"));
            continue;
        };
        let reading = match reading_of_note(cols.get(2).copied().unwrap_or("")) {
            Ok(reading) => reading,
            Err(why) => {
                problems.push(format!("{name}:{line}: {why}"));
                continue;
            }
        };
        rows.push(Row { file: name.to_owned(), line, record: unescape(cols[0]), expected, reading });
    }
}

/// The reading of a perft `epd` record (see [`PERFT_FILES`]).
fn perft_reading(record: &str) -> Reading {
    let fields = record.split(' ').filter(|f| !f.is_empty()).count();
    Reading { kind: if fields == 4 { Kind::Epd } else { Kind::Fen }, dialect: Dialect::Chess960 }
}

fn load_perft(dir: &Path, name: &str, rows: &mut Vec<Row>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    for (line, l) in lines(&text) {
        let (keyword, rest) = l.split_once(' ').unwrap_or((l, ""));
        match keyword {
            "epd" => rows.push(Row {
                file: name.to_owned(),
                line,
                record: rest.to_owned(),
                expected: Verdict::Valid,
                reading: perft_reading(rest),
            }),
            "id" | "perft" => {}
            _ if l.starts_with('#') => {}
            _ => problems.push(format!("{name}:{line}: not an `id`, `epd` or `perft` line: {l:?}")),
        }
    }
}

fn load_tsv_suite(dir: &Path, name: &str, rows: &mut Vec<Row>, problems: &mut Vec<String>) {
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
            reading: Reading { kind: Kind::Fen, dialect },
        });
    }
}

fn load_epd_suite(dir: &Path, name: &str, rows: &mut Vec<Row>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    for (line, l) in lines(&text) {
        rows.push(Row {
            file: name.to_owned(),
            line,
            record: l.to_owned(),
            expected: Verdict::Valid,
            reading: Reading { kind: Kind::Epd, dialect: Dialect::Standard },
        });
    }
}

/// Every chess vector row, in file order, and notes about optional files that are absent.
fn load_vectors(dir: &Path, problems: &mut Vec<String>) -> (Vec<Row>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for name in VERDICT_FILES {
        load_verdict_file(dir, name, &mut rows, problems);
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

/// kifu's verdict in the table's words: `valid` or `invalid`, then the distinct codes that
/// decide it (the errors of an invalid record, the warnings of a valid one), sorted:
/// `invalid: fen::missing-field`, `valid: fen::castling-order`.
fn kifu_verdict(checked: &Checked) -> (Verdict, String) {
    let verdict = if checked.is_valid() { Verdict::Valid } else { Verdict::Invalid };
    let codes: BTreeSet<&str> =
        checked.diagnostics.iter().filter(|d| d.is_error() == (verdict == Verdict::Invalid)).map(|d| d.code).collect();
    let mut text = verdict.as_str().to_owned();
    if !codes.is_empty() {
        text.push_str(": ");
        text.push_str(&codes.into_iter().collect::<Vec<_>>().join(", "));
    }
    (verdict, text)
}

/// What kifu made of one record: its verdict, or the panic it raised.
enum Outcome {
    Checked(Box<Checked>),
    Panicked(String),
}

fn run(text: &str, reading: Reading) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(|| fen::check(text, reading.kind, reading.dialect))) {
        Ok(checked) => Outcome::Checked(Box::new(checked)),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            Outcome::Panicked(message)
        }
    }
}

/// Which vector rows a table row stands for: the file, the record as written there, and the
/// verdict the file expects.
type Key = (String, String, Verdict);

struct TableRow {
    line: usize,
    kifu: String,
    reason: String,
}

/// The table: a header, then `file record expected kifu reason`, tab-separated; `#` starts a
/// comment line. Records use the vector files' escapes. A reason starts with its group
/// (`omitted clocks: …`), which the summary counts by.
fn load_table(problems: &mut Vec<String>) -> BTreeMap<Key, TableRow> {
    const HEADER: &str = "file\trecord\texpected\tkifu\treason";
    let mut table = BTreeMap::new();
    let path = table_path();
    let Some(text) = read(&path, problems) else { return table };
    let mut header_seen = false;
    for (line, l) in lines(&text) {
        if l.starts_with('#') {
            continue;
        }
        if !header_seen {
            header_seen = true;
            if l != HEADER {
                problems.push(format!("vector-disagreements.tsv:{line}: the header is {l:?}, expected {HEADER:?}"));
            }
            continue;
        }
        let cols: Vec<&str> = l.split('\t').collect();
        let [file, record, expected, kifu, reason] = cols.as_slice() else {
            problems.push(format!("vector-disagreements.tsv:{line}: {} columns, expected 5", cols.len()));
            continue;
        };
        let Some(expected) = Verdict::parse(expected) else {
            problems.push(format!("vector-disagreements.tsv:{line}: expected is {expected:?}, not valid/invalid"));
            continue;
        };
        if reason.trim().is_empty() {
            problems.push(format!("vector-disagreements.tsv:{line}: no reason given"));
        } else if !reason.contains(": ") {
            problems.push(format!("vector-disagreements.tsv:{line}: the reason does not start with its group"));
        }
        let key = ((*file).to_owned(), unescape(record), expected);
        let row = TableRow { line, kifu: (*kifu).to_owned(), reason: (*reason).to_owned() };
        if let Some(first) = table.insert(key, row) {
            problems.push(format!("vector-disagreements.tsv:{line}: the same row as line {}", first.line));
        }
    }
    table
}

/// One file's counts, for the summary.
#[derive(Default)]
struct Counts {
    rows: usize,
    chess960: usize,
    epd: usize,
    agree: usize,
    listed: usize,
    failed: usize,
}

fn describe(row: &Row, outcome: &Outcome) -> String {
    let mut s = format!("{}:{}\n    record:   {:?}\n", row.file, row.line, row.record);
    let _ = writeln!(s, "    read as:  {:?}, {:?}", row.reading.kind, row.reading.dialect);
    let _ = writeln!(s, "    expected: {}", row.expected.as_str());
    match outcome {
        Outcome::Panicked(message) => {
            let _ = writeln!(s, "    kifu:     PANIC: {message}");
        }
        Outcome::Checked(checked) => {
            let (_, text) = kifu_verdict(checked);
            let _ = writeln!(s, "    kifu:     {text}");
            for d in &checked.diagnostics {
                let _ = writeln!(s, "      {} {}: {}", d.severity.as_str(), d.code, d.message);
            }
        }
    }
    s
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
    let mut problems = Vec::new();
    let mut table = load_table(&mut problems);

    let dir = vector_dir();
    if !dir.is_dir() {
        println!("note: {} does not exist; the chess vector check is skipped", dir.display());
        assert!(problems.is_empty(), "the disagreement table is malformed:\n{}", problems.join("\n"));
        return;
    }

    let (rows, notes) = load_vectors(&dir, &mut problems);
    let mut counts: BTreeMap<String, Counts> = BTreeMap::new();
    let mut per_group: BTreeMap<String, usize> = BTreeMap::new();
    let mut used: BTreeSet<Key> = BTreeSet::new();
    let mut unlisted = Vec::new();
    let mut stale = Vec::new();

    for row in &rows {
        let outcome = run(&row.record, row.reading);
        let c = counts.entry(row.file.clone()).or_default();
        c.rows += 1;
        c.chess960 += usize::from(row.reading.dialect == Dialect::Chess960);
        c.epd += usize::from(row.reading.kind == Kind::Epd);
        let key: Key = (row.file.clone(), row.record.clone(), row.expected);
        let listed = table.get(&key);
        if listed.is_some() {
            used.insert(key);
        }
        let (verdict, text) = match &outcome {
            Outcome::Checked(checked) => kifu_verdict(checked),
            Outcome::Panicked(_) => {
                // A crash is a bug whatever the table says.
                c.failed += 1;
                unlisted.push(describe(row, &outcome));
                continue;
            }
        };
        match (verdict == row.expected, listed) {
            (true, None) => c.agree += 1,
            (true, Some(t)) => {
                c.agree += 1;
                stale.push(format!(
                    "vector-disagreements.tsv:{}: kifu now agrees ({text}); remove the row\n{}",
                    t.line,
                    describe(row, &outcome)
                ));
            }
            (false, Some(t)) if t.kifu == text => {
                c.listed += 1;
                let group = t.reason.split_once(": ").map_or(t.reason.as_str(), |(group, _)| group);
                *per_group.entry(group.to_owned()).or_default() += 1;
            }
            (false, Some(t)) => {
                c.failed += 1;
                stale.push(format!(
                    "vector-disagreements.tsv:{}: the table says kifu gives `{}`, kifu now gives `{text}`\n{}",
                    t.line,
                    t.kifu,
                    describe(row, &outcome)
                ));
            }
            (false, None) => {
                c.failed += 1;
                unlisted.push(format!(
                    "{}    table row: {}\t{}\t{}\t{text}\t<reason>\n",
                    describe(row, &outcome),
                    row.file,
                    escape(&row.record),
                    row.expected.as_str()
                ));
            }
        }
    }
    table.retain(|key, _| !used.contains(key));
    for ((file, record, expected), t) in &table {
        stale.push(format!(
            "vector-disagreements.tsv:{}: no {} record {record:?} in {file}; remove the row",
            t.line,
            expected.as_str()
        ));
    }

    println!("chess vectors in {}:", dir.display());
    for note in &notes {
        println!("  {note}");
    }
    println!(
        "  {:<32} {:>5} {:>6} {:>7} {:>6} {:>9} {:>5}",
        "file", "rows", "agree", "listed", "failed", "chess960", "epd"
    );
    for (file, c) in &counts {
        println!(
            "  {file:<32} {:>5} {:>6} {:>7} {:>6} {:>9} {:>5}",
            c.rows, c.agree, c.listed, c.failed, c.chess960, c.epd
        );
    }
    println!("listed disagreements by reason group:");
    for (group, n) in &per_group {
        println!("  {n:>3}  {group}");
    }

    let mut report = String::new();
    if !problems.is_empty() {
        let _ = writeln!(
            report,
            "== the vector files or the table could not be read as expected:\n{}\n",
            problems.join("\n")
        );
    }
    if !unlisted.is_empty() {
        let _ = writeln!(
            report,
            "== {} record(s) where kifu disagrees with the vector (or panics) and the disagreement table \
             does not list it (fix kifu, or add the row with a verified reason):\n\n{}",
            unlisted.len(),
            unlisted.join("\n")
        );
    }
    if !stale.is_empty() {
        let _ = writeln!(report, "== {} stale row(s) in the disagreement table:\n\n{}", stale.len(), stale.join("\n"));
    }
    assert!(report.is_empty(), "{report}");
}
