//! The shogi test vectors gathered from other libraries (`../shared/corpus/positions/vectors/`,
//! described in its `README.md` and in `../ANCHORS.md`), run through `kifu::sfen::check`.
//!
//! Every record must get the verdict its file expects, or be listed, with the reason, in
//! `tests/fixtures/sfen/vector-disagreements.tsv`. A listed row that no longer disagrees, or
//! whose kifu verdict has changed, fails the test too, so the table stays honest.
//!
//! The vectors are third-party test data and are not copied into this repository (only the
//! few records of the disagreement table are). Where `../shared` is absent the test prints a
//! note and passes.
//!
//! Run with `cargo test --test sfen_vectors -- --nocapture` to see the per-file counts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use kifu::sfen::{self, build::START, Checked, DialectChoice};

/// The vector folder, next to this repository.
fn vector_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/positions/vectors")
}

/// The table of deliberate disagreements, checked in.
fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sfen/vector-disagreements.tsv")
}

/// How the records of one file are handed to kifu. A record is fed exactly as written unless
/// the anchor's own API takes a wrapper around the SFEN as its input convention; only then is
/// the wrapper removed. kifu reports every such wrapper (`sfen::usi-command`,
/// `sfen::startpos`, `sfen::extra-field`) as an error, so nothing is stripped on a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feed {
    /// The record as written.
    AsIs,
    /// A leading `sfen ` is removed: the anchor's parser is called as `from_usi("sfen " + …)`.
    SfenPrefix,
    /// A trailing ` moves …` list is removed: the anchor's parser reads `<sfen> moves <usi>…`
    /// and plays the moves; kifu checks the position before them.
    MovesTail,
    /// A USI command wrapper is removed (`position `, then `sfen `), and `startpos` becomes the
    /// start position written out: the suites' positions are what engines receive through
    /// `position sfen <sfen>` / `position startpos`.
    UsiPosition,
}

impl Feed {
    fn apply(self, record: &str) -> String {
        match self {
            Self::AsIs => record.to_owned(),
            Self::SfenPrefix => record.strip_prefix("sfen ").unwrap_or(record).to_owned(),
            Self::MovesTail => match record.find(" moves") {
                Some(i) if record[i + 6..].is_empty() || record[i + 6..].starts_with(' ') => record[..i].to_owned(),
                _ => record.to_owned(),
            },
            Self::UsiPosition => {
                let rest = record.strip_prefix("position ").unwrap_or(record);
                if rest == "startpos" {
                    START.to_owned()
                } else {
                    rest.strip_prefix("sfen ").unwrap_or(rest).to_owned()
                }
            }
        }
    }
}

/// The per-source verdict files: `record`, `verdict`, `error_kind_or_note`, `source_path`.
///
/// None of these records carries `sfen `, `position` or `startpos` in the current files (the
/// gatherer already took the `sfen ` prefix and `moves` tail off shogi_usi_parser's doc-tests);
/// one shogi-rs record ends in ` moves 7g7f`.
const VERDICT_FILES: [(&str, Feed); 10] = [
    // parseSfen(board [side [hand [move]]]): no prefix; `startpos` is an alias there, but no
    // record uses it, and a bare `startpos` should show up here if one ever does.
    ("shogiops.tsv", Feed::AsIs),
    // Position.newBySFEN tolerates an optional leading `sfen`, but does not need it; no record has one.
    ("tsshogi.tsv", Feed::AsIs),
    // Board(sfen): the bare record.
    ("python-shogi.tsv", Feed::AsIs),
    // Position::set_sfen reads `<sfen> [moves <usi>…]`: the moves list is part of its input.
    ("shogi-rs.tsv", Feed::MovesTail),
    // PartialPosition::from_usi needs `sfen <record>`: the prefix is its input convention.
    ("shogi_usi_parser.tsv", Feed::SfenPrefix),
    // Board::from_sfen / Board::tsume: the bare record.
    ("haitaka.tsv", Feed::AsIs),
    // Position::set(sfen): the bare record (`position sfen` is the USI layer above it).
    ("yaneuraou.tsv", Feed::AsIs),
    // Sfen(…).toSituation: the bare record (it turns `_` into spaces itself; no record has one).
    ("scalashogi.tsv", Feed::AsIs),
    // The specs' own examples, as printed.
    ("sfen-spec-2007.tsv", Feed::AsIs),
    ("usi-spec.tsv", Feed::AsIs),
];

/// The header every verdict file starts with.
const VERDICT_HEADER: &str = "record\tverdict\terror_kind_or_note\tsource_path";

/// Position suites (perft and mate data): every position is expected to be valid. Each file has
/// a header naming its columns; the position is the `sfen` column, whatever the others are
/// (`depth nodes source_path`, `depth nodes note source_path`, `note source_path`,
/// `source_path`). The current files hold bare records (YaneuraOu's `BenchSfen[]`, for one, is
/// a list of bare SFEN strings that the engine wraps in a `position` command), so
/// [`Feed::UsiPosition`] changes nothing today; the summary counts the rows it rewrites.
const SUITE_FILES: [&str; 2] = ["suites/shogiops-perft-standard.tsv", "suites/python-shogi-perft.tsv"];

/// Suites found by name: `suites/yaneuraou-*.tsv`.
const SUITE_PREFIX: &str = "yaneuraou-";

/// One record of a vector file, as written there.
struct Row {
    file: String,
    line: usize,
    record: String,
    expected: Verdict,
    feed: Feed,
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
/// inside a record would be written as `\t` or `\n`").
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

fn load_verdict_file(dir: &Path, name: &str, feed: Feed, rows: &mut Vec<Row>, problems: &mut Vec<String>) {
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
        rows.push(Row { file: name.to_owned(), line, record: unescape(cols[0]), expected, feed });
    }
}

fn load_suite(dir: &Path, name: &str, rows: &mut Vec<Row>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    let mut it = lines(&text);
    let Some(column) = it.next().and_then(|(_, header)| header.split('\t').position(|c| c == "sfen")) else {
        problems.push(format!("{name}: no `sfen` column in the header"));
        return;
    };
    for (line, l) in it {
        match l.split('\t').nth(column) {
            Some(record) => rows.push(Row {
                file: name.to_owned(),
                line,
                record: unescape(record),
                expected: Verdict::Valid,
                feed: Feed::UsiPosition,
            }),
            None => problems.push(format!("{name}:{line}: no `sfen` column in {l:?}")),
        }
    }
}

/// Every shogi vector row, in file order.
fn load_vectors(dir: &Path, problems: &mut Vec<String>) -> Vec<Row> {
    let mut rows = Vec::new();
    for (name, feed) in VERDICT_FILES {
        load_verdict_file(dir, name, feed, &mut rows, problems);
    }
    let mut suites: Vec<String> = SUITE_FILES.iter().map(|s| (*s).to_owned()).collect();
    let mut yaneuraou: Vec<String> = fs::read_dir(dir.join("suites"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with(SUITE_PREFIX) && n.ends_with(".tsv"))
                .map(|n| format!("suites/{n}"))
                .collect()
        })
        .unwrap_or_default();
    if yaneuraou.is_empty() {
        problems.push(format!("no suites/{SUITE_PREFIX}*.tsv in {}", dir.display()));
    }
    yaneuraou.sort();
    suites.extend(yaneuraou);
    for name in &suites {
        load_suite(dir, name, &mut rows, problems);
    }
    rows
}

/// kifu's verdict in the table's words: `valid` or `invalid`, then the distinct codes that
/// decide it (the errors of an invalid record, the warnings of a valid one), sorted:
/// `invalid: sfen::nifu`, `valid: sfen::missing-king`.
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

fn run(text: &str) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(|| sfen::check(text, DialectChoice::Auto))) {
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
/// (`piece supply: …`), which the summary counts by.
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
    fed_changed: usize,
    agree: usize,
    listed: usize,
    failed: usize,
}

fn describe(row: &Row, fed: &str, outcome: &Outcome) -> String {
    let mut s = format!("{}:{}\n    record:   {:?}\n", row.file, row.line, row.record);
    if fed != row.record {
        let _ = writeln!(s, "    fed as:   {fed:?} ({:?})", row.feed);
    }
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
fn shogi_vectors_agree_or_are_listed() {
    let mut problems = Vec::new();
    let mut table = load_table(&mut problems);

    let dir = vector_dir();
    if !dir.is_dir() {
        println!("note: {} does not exist; the shogi vector check is skipped", dir.display());
        assert!(problems.is_empty(), "the disagreement table is malformed:\n{}", problems.join("\n"));
        return;
    }

    let rows = load_vectors(&dir, &mut problems);
    let mut counts: BTreeMap<String, Counts> = BTreeMap::new();
    let mut per_group: BTreeMap<String, usize> = BTreeMap::new();
    let mut used: BTreeSet<Key> = BTreeSet::new();
    let mut unlisted = Vec::new();
    let mut stale = Vec::new();

    for row in &rows {
        let fed = row.feed.apply(&row.record);
        let outcome = run(&fed);
        let c = counts.entry(row.file.clone()).or_default();
        c.rows += 1;
        c.fed_changed += usize::from(fed != row.record);
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
                unlisted.push(describe(row, &fed, &outcome));
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
                    describe(row, &fed, &outcome)
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
                    describe(row, &fed, &outcome)
                ));
            }
            (false, None) => {
                c.failed += 1;
                unlisted.push(format!(
                    "{}    table row: {}\t{}\t{}\t{text}\t<reason>\n",
                    describe(row, &fed, &outcome),
                    row.file,
                    row.record.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n"),
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

    println!("shogi vectors in {}:", dir.display());
    println!("  {:<48} {:>5} {:>6} {:>7} {:>6} {:>9}", "file", "rows", "agree", "listed", "failed", "rewritten");
    for (file, c) in &counts {
        println!("  {file:<48} {:>5} {:>6} {:>7} {:>6} {:>9}", c.rows, c.agree, c.listed, c.failed, c.fed_changed);
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
            "== {} record(s) where kifu disagrees with the vector and the disagreement table does not \
             list it (fix kifu, or add the row with a verified reason):\n\n{}",
            unlisted.len(),
            unlisted.join("\n")
        );
    }
    if !stale.is_empty() {
        let _ = writeln!(report, "== {} stale row(s) in the disagreement table:\n\n{}", stale.len(), stale.join("\n"));
    }
    assert!(report.is_empty(), "{report}");
}
