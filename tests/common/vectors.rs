//! What the vector tests (`sfen_vectors`, `fen_vectors`) share: the vector files' format, the
//! disagreement table, the run of kifu on every record, and the verdict on the whole.
//!
//! Each test keeps what is its own: which files it reads, how their rows become [`Row`]s, and
//! how a record is handed to kifu ([`Row::how`], turned into a [`Tried`] by its own closure).

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use kifu::Checked;

/// The vector folder, next to this repository, when it is there (see [`super::shared`]).
pub fn vector_dir() -> Option<PathBuf> {
    super::shared::path("corpus/positions/vectors")
}

/// The header every verdict file starts with.
pub const VERDICT_HEADER: &str = "record\tverdict\terror_kind_or_note\tsource_path";

/// One record of a vector file, as written there, and how it is handed to kifu (`H`: the
/// format's own choice).
pub struct Row<H> {
    pub file: String,
    pub line: usize,
    pub record: String,
    pub expected: Verdict,
    pub how: H,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Valid,
    Invalid,
}

impl Verdict {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "valid" => Some(Self::Valid),
            "invalid" => Some(Self::Invalid),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
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
pub fn unescape(s: &str) -> String {
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
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

/// Lines of a file with their 1-based numbers, without line ends (a record's own trailing
/// spaces are kept).
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l))).filter(|(_, l)| !l.is_empty())
}

pub fn read(path: &Path, problems: &mut Vec<String>) -> Option<String> {
    match fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) => {
            problems.push(format!("cannot read {}: {e}", path.display()));
            None
        }
    }
}

/// Reads one per-source verdict file (`record`, `verdict`, `error_kind_or_note`,
/// `source_path`) into `rows`. `how` picks how a row's record is handed to kifu from the row's
/// columns, or says why it cannot.
pub fn load_verdict_file<H>(
    dir: &Path,
    name: &str,
    how: impl Fn(&[&str]) -> Result<H, String>,
    rows: &mut Vec<Row<H>>,
    problems: &mut Vec<String>,
) {
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
        let how = match how(&cols) {
            Ok(how) => how,
            Err(why) => {
                problems.push(format!("{name}:{line}: {why}"));
                continue;
            }
        };
        rows.push(Row { file: name.to_owned(), line, record: unescape(cols[0]), expected, how });
    }
}

/// kifu's verdict in the table's words: `valid` or `invalid`, then the distinct codes that
/// decide it (the errors of an invalid record, the warnings of a valid one), sorted:
/// `invalid: sfen::nifu`, `valid: sfen::missing-king`, `invalid: fen::missing-field`,
/// `valid: fen::castling-order`.
pub fn kifu_verdict<R, P>(checked: &Checked<R, P>) -> (Verdict, String) {
    let verdict = if checked.is_valid() { Verdict::Valid } else { Verdict::Invalid };
    let codes: BTreeSet<&str> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error() == (verdict == Verdict::Invalid))
        .map(|d| d.code.as_str())
        .collect();
    let mut text = verdict.as_str().to_owned();
    if !codes.is_empty() {
        text.push_str(": ");
        text.push_str(&codes.into_iter().collect::<Vec<_>>().join(", "));
    }
    (verdict, text)
}

/// What kifu made of one record: its verdict, or the panic it raised.
pub enum Outcome<C> {
    Checked(Box<C>),
    Panicked(String),
}

/// Runs `check`, catching a panic and keeping its message.
pub fn run<C>(check: impl FnOnce() -> C) -> Outcome<C> {
    match panic::catch_unwind(AssertUnwindSafe(check)) {
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

/// One record handed to kifu, as a format's test reports it.
pub struct Tried<C, const N: usize> {
    pub outcome: Outcome<C>,
    /// How the record was handed to kifu, as a whole line of the failure report (indented,
    /// without its line end), when that is worth saying.
    pub how: Option<String>,
    /// One flag for each of [`Spec::columns`]: whether this row counts there.
    pub counted: [bool; N],
}

/// Which vector rows a table row stands for: the file, the record as written there, and the
/// verdict the file expects.
pub type Key = (String, String, Verdict);

pub struct TableRow {
    pub line: usize,
    pub kifu: String,
    pub reason: String,
}

/// The table: a header, then `file record expected kifu reason`, tab-separated; `#` starts a
/// comment line. Records use the vector files' escapes. A reason starts with its group
/// (`piece supply: …`, `omitted clocks: …`), which the summary counts by; with
/// `reason_needs_group`, a reason without one is a problem.
pub fn load_table(path: &Path, reason_needs_group: bool, problems: &mut Vec<String>) -> BTreeMap<Key, TableRow> {
    const HEADER: &str = "file\trecord\texpected\tkifu\treason";
    let mut table = BTreeMap::new();
    let Some(text) = read(path, problems) else { return table };
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
        } else if reason_needs_group && !reason.contains(": ") {
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
struct Counts<const N: usize> {
    rows: usize,
    agree: usize,
    listed: usize,
    failed: usize,
    /// The rows counted in each of [`Spec::columns`].
    counted: [usize; N],
}

impl<const N: usize> Default for Counts<N> {
    fn default() -> Self {
        Self { rows: 0, agree: 0, listed: 0, failed: 0, counted: [0; N] }
    }
}

fn describe<H, R, P>(row: &Row<H>, how: Option<&str>, outcome: &Outcome<Checked<R, P>>) -> String {
    let mut s = format!("{}:{}\n    record:   {:?}\n", row.file, row.line, row.record);
    if let Some(how) = how {
        let _ = writeln!(s, "{how}");
    }
    let _ = writeln!(s, "    expected: {}", row.expected.as_str());
    match outcome {
        Outcome::Panicked(message) => {
            let _ = writeln!(s, "    kifu:     PANIC: {message}");
        }
        Outcome::Checked(checked) => {
            let (_, text) = kifu_verdict(checked.as_ref());
            let _ = writeln!(s, "    kifu:     {text}");
            for d in &checked.diagnostics {
                let _ = writeln!(s, "      {} {}: {}", d.severity.as_str(), d.code, d.message);
            }
        }
    }
    s
}

/// What sets one format's vector test apart, besides its files and its call into kifu.
pub struct Spec<const N: usize> {
    /// The game, as the notes and the summary name the vectors: `shogi`, `chess`.
    pub game: &'static str,
    /// The disagreement table.
    pub table: PathBuf,
    /// Whether a table reason without its group (`group: …`) is a problem.
    pub reason_needs_group: bool,
    /// What kifu does with the records the failure report lists as missing from the table
    /// (`disagrees with the vector`).
    pub disagrees: &'static str,
    /// The width of the summary's file column.
    pub file_width: usize,
    /// The summary's own columns, after `failed`, with their widths: each counts the rows whose
    /// [`Tried::counted`] flag for it is set.
    pub columns: [(&'static str, usize); N],
    /// The rows the vector files hold: fewer fails the test.
    pub rows: usize,
}

/// The summary of a run over the vectors of `dir`: its `notes`, the `counts` of each file, and
/// the listed disagreements by reason group.
fn print_summary<const N: usize>(
    spec: &Spec<N>,
    dir: &Path,
    notes: &[String],
    (counts, per_group): (&BTreeMap<String, Counts<N>>, &BTreeMap<String, usize>),
) {
    println!("{} vectors in {}:", spec.game, dir.display());
    for note in notes {
        println!("  {note}");
    }
    let w = spec.file_width;
    let mut header = format!("  {:<w$} {:>5} {:>6} {:>7} {:>6}", "file", "rows", "agree", "listed", "failed");
    for (name, width) in spec.columns {
        let _ = write!(header, " {name:>width$}");
    }
    println!("{header}");
    for (file, c) in counts {
        let mut line = format!("  {file:<w$} {:>5} {:>6} {:>7} {:>6}", c.rows, c.agree, c.listed, c.failed);
        for ((_, width), n) in spec.columns.iter().zip(c.counted) {
            let _ = write!(line, " {n:>width$}");
        }
        println!("{line}");
    }
    println!("listed disagreements by reason group:");
    for (group, n) in per_group {
        println!("  {n:>3}  {group}");
    }
}

/// Why the run fails: the `problems` of reading the files and the table, the `unlisted`
/// disagreements and the `stale` rows of the table (empty when it passes).
fn failures<const N: usize>(spec: &Spec<N>, problems: &[String], unlisted: &[String], stale: &[String]) -> String {
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
            "== {} record(s) where kifu {} and the disagreement table does not list it (fix kifu, or \
             add the row with a verified reason):\n\n{}",
            unlisted.len(),
            spec.disagrees,
            unlisted.join("\n")
        );
    }
    if !stale.is_empty() {
        let _ = writeln!(report, "== {} stale row(s) in the disagreement table:\n\n{}", stale.len(), stale.join("\n"));
    }
    report
}

/// The report of a row of the disagreement table that no record of the vectors stands for.
fn unused_row(((file, record, expected), t): (&Key, &TableRow)) -> String {
    format!("vector-disagreements.tsv:{}: no {} record {record:?} in {file}; remove the row", t.line, expected.as_str())
}

/// The test itself: every record loaded by `load` (rows in file order, and notes for the
/// summary) and handed to kifu by `try_row` must get the verdict its file expects, or be listed
/// in the disagreement table with the verdict kifu gives; every table row must still stand for
/// such a record; a panic fails whatever the table says. Where the vector folder is absent only
/// the table is checked.
pub fn check_vectors<H, R, P, const N: usize>(
    spec: &Spec<N>,
    load: impl FnOnce(&Path, &mut Vec<String>) -> (Vec<Row<H>>, Vec<String>),
    try_row: impl Fn(&Row<H>) -> Tried<Checked<R, P>, N>,
) {
    let mut problems = Vec::new();
    let mut table = load_table(&spec.table, spec.reason_needs_group, &mut problems);

    let Some(dir) = vector_dir() else {
        assert!(problems.is_empty(), "the disagreement table is malformed:\n{}", problems.join("\n"));
        return;
    };

    let (rows, notes) = load(&dir, &mut problems);
    super::shared::at_least(&format!("{} vector rows", spec.game), rows.len(), spec.rows);
    let mut counts: BTreeMap<String, Counts<N>> = BTreeMap::new();
    let mut per_group: BTreeMap<String, usize> = BTreeMap::new();
    let mut used: BTreeSet<Key> = BTreeSet::new();
    let mut unlisted = Vec::new();
    let mut stale = Vec::new();

    for row in &rows {
        let Tried { outcome, how, counted } = try_row(row);
        let described = || describe(row, how.as_deref(), &outcome);
        let c = counts.entry(row.file.clone()).or_default();
        c.rows += 1;
        for (n, set) in c.counted.iter_mut().zip(counted) {
            *n += usize::from(set);
        }
        let key: Key = (row.file.clone(), row.record.clone(), row.expected);
        let listed = table.get(&key);
        if listed.is_some() {
            used.insert(key);
        }
        let (verdict, text) = match &outcome {
            Outcome::Checked(checked) => kifu_verdict(checked.as_ref()),
            Outcome::Panicked(_) => {
                // A crash is a bug whatever the table says.
                c.failed += 1;
                unlisted.push(described());
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
                    described()
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
                    described()
                ));
            }
            (false, None) => {
                c.failed += 1;
                unlisted.push(format!(
                    "{}    table row: {}\t{}\t{}\t{text}\t<reason>\n",
                    described(),
                    row.file,
                    escape(&row.record),
                    row.expected.as_str()
                ));
            }
        }
    }
    table.retain(|key, _| !used.contains(key));
    stale.extend(table.iter().map(unused_row));

    print_summary(spec, &dir, &notes, (&counts, &per_group));
    let report = failures(spec, &problems, &unlisted, &stale);
    assert!(report.is_empty(), "{report}");
}
