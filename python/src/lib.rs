//! `kifu._kifu`: the Python extension module behind the `kifu` package (`python/kifu/`).
//!
//! It only translates: every check, reading and writing is the library's, called as `kifu check`
//! calls it, so a record gets the same findings from Python as from the command line. Byte
//! offsets become Python string indices and 1-based lines and character columns; the work runs
//! with the GIL released.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader};
use std::sync::PoisonError;

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyDict, PyList};

use kifu::check::{check_line, check_line_in};
use kifu::diagnostic::config;
use kifu::diagnostic::select::Selection;
use kifu::diagnostic::LineIndex;
use kifu::format::{Cut, Dialect, Format};
use kifu::input::LineReader;
use kifu::{fen, psn, sfen, Diagnostic};

create_exception!(
    kifu,
    InvalidRecord,
    PyValueError,
    "A record, position or game with errors: its `findings` (a list of `Finding`) say which."
);

/// The format named `format` (`sfen`, `fen`, `epd`, `psn`, `json`) in `dialect` (`auto`,
/// `sfen2007`, `usi`, `standard`, `chess960`; `None` for the format's default).
fn format_of(format: &str, dialect: Option<&str>) -> PyResult<Format> {
    let f: Format = format.parse().map_err(PyValueError::new_err)?;
    match dialect {
        None => Ok(f),
        Some(d) => f.with_dialect(d.parse::<Dialect>().map_err(PyValueError::new_err)?).map_err(PyValueError::new_err),
    }
}

/// Where the byte offsets of a text are: its lines, and the file line it starts on.
struct Place<'a> {
    text: &'a str,
    index: LineIndex,
    first_line: usize,
}

impl<'a> Place<'a> {
    fn new(text: &'a str, first_line: usize) -> Self {
        Self { text, index: LineIndex::new(text), first_line }
    }

    /// The 1-based line (in the file) and character column of byte `at`.
    fn line_column(&self, at: usize) -> (usize, usize) {
        let (line, column) = self.index.place(self.text, at.min(self.text.len()));
        (self.first_line + line, column)
    }

    /// The Python string index of byte `at` (a count of characters), from the index: each
    /// costs a search and one block of the text, not the text before it.
    fn char_index(&self, at: usize) -> usize {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        self.index.chars_before(self.text, at)
    }

    fn range(&self, start: usize, end: usize) -> Range {
        let (line, column) = self.line_column(start);
        let (end_line, end_column) = self.line_column(end);
        Range { start: self.char_index(start), end: self.char_index(end), line, column, end_line, end_column }
    }
}

/// Where something is, in every form a Python program may want.
#[derive(Clone, Copy)]
struct Range {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

/// The `#[pymethods]` of a class that holds a [`Range`] as `at`: its place as read-only
/// attributes, written once for all such classes, then the class's own methods.
macro_rules! placed {
    ($class:ty { $($own:item)* }) => {
        #[pymethods]
        impl $class {
            /// Index of the first character in the record's text (`text[start:end]`).
            #[getter]
            fn start(&self) -> usize {
                self.at.start
            }

            /// Index just past the last character.
            #[getter]
            fn end(&self) -> usize {
                self.at.end
            }

            /// 1-based line of the start (the file's line for a file's records and games).
            #[getter]
            fn line(&self) -> usize {
                self.at.line
            }

            /// 1-based character column of the start.
            #[getter]
            fn column(&self) -> usize {
                self.at.column
            }

            /// 1-based line of the end.
            #[getter]
            fn end_line(&self) -> usize {
                self.at.end_line
            }

            /// 1-based character column of the end.
            #[getter]
            fn end_column(&self) -> usize {
                self.at.end_column
            }

            $($own)*
        }
    };
}

/// A place in the text a finding points at, with what it shows there.
#[pyclass(module = "kifu", frozen)]
#[derive(Clone)]
struct Label {
    /// What is wrong or relevant there, in a few words.
    #[pyo3(get)]
    message: String,
    /// True for the one label on the characters at fault.
    #[pyo3(get)]
    primary: bool,
    at: Range,
}

placed!(Label {
    fn __repr__(&self) -> String {
        let (message, start, end, primary) = (&self.message, self.at.start, self.at.end, py_bool(self.primary));
        format!("Label({message:?}, start={start}, end={end}, primary={primary})")
    }
});

/// One replacement: the characters `text[start:end]` become `replacement`.
#[pyclass(module = "kifu", frozen)]
#[derive(Clone)]
struct Edit {
    /// What they become (empty for a deletion).
    #[pyo3(get)]
    replacement: String,
    at: Range,
}

placed!(Edit {
    fn __repr__(&self) -> String {
        format!("Edit(start={}, end={}, replacement={:?})", self.at.start, self.at.end, self.replacement)
    }
});

/// A repair of a finding: edits applied together.
#[pyclass(module = "kifu", frozen)]
#[derive(Clone)]
struct Fix {
    /// The edits, in the order of the text.
    #[pyo3(get)]
    edits: Vec<Edit>,
    /// True when it is the one repair there is (`kifu check --fix` applies it unasked).
    #[pyo3(get)]
    safe: bool,
    /// The library's fix, in byte offsets of the text.
    fix: kifu::Fix,
}

#[pymethods]
impl Fix {
    /// `text` (the record the finding is about) with the fix applied.
    fn apply(&self, text: &str) -> PyResult<String> {
        self.fix.apply(text).ok_or_else(|| PyValueError::new_err("this fix does not fit the text given"))
    }

    fn __repr__(&self) -> String {
        let edits: Vec<String> = self.edits.iter().map(Edit::__repr__).collect();
        format!("Fix([{}], safe={})", edits.join(", "), py_bool(self.safe))
    }
}

/// A finding about a record: what is wrong, where, and how to fix it.
#[pyclass(module = "kifu", frozen)]
#[derive(Clone)]
struct Finding {
    /// Stable code, such as `sfen::rank-width`.
    #[pyo3(get)]
    code: String,
    /// `"error"` (the record is invalid) or `"warning"`.
    #[pyo3(get)]
    severity: &'static str,
    /// What is wrong, in plain words.
    #[pyo3(get)]
    message: String,
    /// How to fix it.
    #[pyo3(get)]
    help: Option<String>,
    /// Every label, the primary one first.
    #[pyo3(get)]
    labels: Vec<Label>,
    /// Repairs, the likeliest first; several only when no one is sure.
    #[pyo3(get)]
    fixes: Vec<Fix>,
    /// Where the characters at fault are.
    at: Range,
}

placed!(Finding {
    /// True for an error.
    #[getter]
    fn is_error(&self) -> bool {
        self.severity == "error"
    }

    fn __repr__(&self) -> String {
        format!("Finding({:?}, {:?}, line={}, column={})", self.code, self.message, self.at.line, self.at.column)
    }

    fn __str__(&self) -> String {
        format!("{}:{}: {}[{}]: {}", self.at.line, self.at.column, self.severity, self.code, self.message)
    }
});

/// The findings of `diagnostics`, whose spans are in `text`, which starts on line `first_line`.
fn findings_in(diagnostics: &[Diagnostic], text: &str, first_line: usize) -> Vec<Finding> {
    let at = Place::new(text, first_line);
    diagnostics.iter().map(|d| Finding::new(d, &at)).collect()
}

impl Finding {
    fn new(d: &Diagnostic, at: &Place<'_>) -> Self {
        let labels = d
            .labels
            .iter()
            .map(|l| Label { message: l.message.clone(), primary: l.primary, at: at.range(l.span.start, l.span.end) })
            .collect();
        let fixes = d
            .fixes
            .iter()
            .map(|f| Fix {
                edits: f
                    .edits
                    .iter()
                    .map(|e| Edit { replacement: e.replacement.clone(), at: at.range(e.span.start, e.span.end) })
                    .collect(),
                safe: d.safe_fix().is_some(),
                fix: f.clone(),
            })
            .collect();
        Self {
            code: d.code.to_string(),
            severity: d.severity.as_str(),
            message: d.message.clone(),
            help: d.help.clone(),
            labels,
            fixes,
            at: at.range(d.span().start, d.span().end),
        }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// One record checked: a line of a line format, a PSN game, a JSON position; or one entry of a
/// batch.
struct Checked {
    /// The text the findings' offsets are in.
    text: String,
    /// 1-based line of the file where `text` starts.
    line: usize,
    findings: Vec<Diagnostic>,
    /// What the record was read as, when known (`usi`, `sfen2007`, `fen`, a PSN dialect, …): the
    /// names of `kifu check --message-format json`'s summary.
    read_as: Option<&'static str>,
}

impl Checked {
    fn is_valid(&self) -> bool {
        !self.findings.iter().any(Diagnostic::is_error)
    }

    fn findings(&self) -> Vec<Finding> {
        findings_in(&self.findings, &self.text, self.line)
    }

    fn into_record(self, path: Option<&str>) -> Record {
        Record {
            path: path.map(str::to_owned),
            line: self.line,
            valid: self.is_valid(),
            findings: self.findings(),
            read_as: self.read_as,
            text: self.text,
        }
    }
}

/// Checks one text or record of `format`, as `kifu check` checks a line of a file (the bytes'
/// encoding included) or a whole PSN, KIF, KI2, CSA, JKF or JSON text.
fn check_bytes(format: Format, bytes: &[u8]) -> Checked {
    match format.cut() {
        Cut::Games => {
            // Games checked one at a time, only their findings kept.
            let (text, findings) = psn::check_findings(bytes, psn::Options::default());
            Checked { text, line: 1, findings, read_as: Some(format.read_as()) }
        }
        Cut::Record => {
            let (text, findings) = check_record(format, bytes, None);
            Checked { text, line: 1, findings, read_as: Some(format.read_as()) }
        }
        Cut::Values => {
            let text = String::from_utf8_lossy(bytes);
            let (findings, read_as) = format.check_text(&text);
            Checked { text: text.into_owned(), line: 1, findings, read_as: read_as.map(Format::read_as) }
        }
        Cut::Lines => {
            // A line as a file holds it: one line end after it ends it (as Python's lines keep
            // theirs). The text is kept only when there are findings to place in it.
            let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let report = check_line(format, 1, bytes, bytes.len());
            Checked {
                text: report.text,
                line: 1,
                findings: report.diagnostics,
                read_as: report.dialect.map(Format::read_as),
            }
        }
    }
}

/// Checks a whole file of a format read whole: a KIF or KI2 record (in the encoding its
/// content tells, or else its `extension` says), a CSA file (its records) or a JKF record. Its
/// text and findings.
fn check_record(format: Format, bytes: &[u8], extension: Option<&str>) -> (String, Vec<Diagnostic>) {
    match format {
        Format::Csa => {
            let read = kifu::csa::check_bytes(bytes);
            (read.text, read.diagnostics)
        }
        Format::Jkf => {
            let read = kifu::jkf::check_bytes(bytes);
            (read.text, read.diagnostics)
        }
        _ => {
            let read = kifu::kif::check_bytes(bytes, extension);
            (read.text, read.diagnostics)
        }
    }
}

/// The most bytes a file of a format read whole may hold: one byte more is read, which the
/// reader reports as too large. JKF reads as much as CSA.
fn largest_record(format: Format) -> usize {
    match format {
        Format::Csa | Format::Jkf => kifu::csa::MAX_BYTES,
        _ => kifu::kif::MAX_BYTES,
    }
}

/// The text of a `str` (its UTF-8, which Python keeps) or of a bytes-like object, held without
/// copying `str` and `bytes`, and without the GIL.
enum Text {
    Str(PyBackedStr),
    Bytes(PyBackedBytes),
}

impl Text {
    fn of(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(s) = text.extract::<PyBackedStr>() {
            return Ok(Self::Str(s));
        }
        text.extract::<PyBackedBytes>().map(Self::Bytes).map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a str or bytes, not {}",
                text.get_type().name().map_or_else(|_| "this".to_owned(), |n| n.to_string())
            ))
        })
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Self::Str(s) => s.as_bytes(),
            Self::Bytes(b) => b,
        }
    }
}

/// Checks one record (a line of SFEN, FEN or EPD; one line end after it is allowed, as a file's
/// line has) or a whole PSN, KIF, KI2, CSA, JKF or JSON text. `select`, `extend_select`,
/// `ignore` and `warnings_as_errors` choose the findings as `kifu check`'s flags do (a text has
/// no folder: no configuration file is read).
#[pyfunction]
#[pyo3(signature = (text, format = "sfen", dialect = None, *, select = None, extend_select = None, ignore = None, warnings_as_errors = false))]
#[allow(clippy::too_many_arguments)]
fn check(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    format: &str,
    dialect: Option<&str>,
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: bool,
) -> PyResult<Vec<Finding>> {
    let format = format_of(format, dialect)?;
    let selection = selection_of([select, extend_select, ignore], warnings_as_errors)?;
    let text = Text::of(text)?;
    let checked = py.detach(|| check_selected(format, text.bytes(), &selection));
    Ok(checked.findings())
}

/// [`check_bytes`], with the findings `selection` reports.
fn check_selected(format: Format, bytes: &[u8], selection: &Selection) -> Checked {
    let mut checked = check_bytes(format, bytes);
    selection.apply(&mut checked.findings);
    checked
}

/// The verdict on each record, checked in parallel on `threads` threads, with the findings
/// `selection` reports.
fn check_all(
    py: Python<'_>,
    format: Format,
    records: &[&[u8]],
    threads: Option<usize>,
    selection: &Selection,
) -> PyResult<Vec<Py<Verdict>>> {
    // A thread is worth starting for a few hundred records at least.
    let threads = threads.unwrap_or_else(kifu::input::cores).clamp(1, 64).min(records.len().div_ceil(256).max(1));
    let checked: Option<Vec<Checked>> = py.detach(|| {
        if threads == 1 {
            return Some(records.iter().map(|r| check_selected(format, r, selection)).collect());
        }
        let chunk = records.len().div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = records
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || part.iter().map(|r| check_selected(format, r, selection)).collect::<Vec<_>>())
                })
                .collect();
            // A thread that failed would leave its records without results: none is given.
            let mut all = Vec::with_capacity(records.len());
            for h in handles {
                all.extend(h.join().ok()?);
            }
            Some(all)
        })
    });
    let checked = checked.ok_or_else(|| {
        pyo3::exceptions::PyRuntimeError::new_err("kifu failed on a record of this batch: please report it")
    })?;
    // A record without findings gets the one verdict of its kind, shared (verdicts are frozen).
    let mut clean: Vec<(Option<&'static str>, Py<Verdict>)> = Vec::new();
    let mut out = Vec::with_capacity(checked.len());
    for c in &checked {
        if c.findings.is_empty() {
            if let Some((_, v)) = clean.iter().find(|(r, _)| *r == c.read_as) {
                out.push(v.clone_ref(py));
                continue;
            }
            let v = Py::new(py, Verdict { valid: true, read_as: c.read_as, findings: Vec::new() })?;
            clean.push((c.read_as, v.clone_ref(py)));
            out.push(v);
        } else {
            let findings = c.findings().into_iter().map(|f| Py::new(py, f)).collect::<PyResult<_>>()?;
            out.push(Py::new(py, Verdict { valid: c.is_valid(), read_as: c.read_as, findings })?);
        }
    }
    Ok(out)
}

/// What checking one record of a batch found.
#[pyclass(module = "kifu", frozen)]
struct Verdict {
    /// True when no finding is an error.
    #[pyo3(get)]
    valid: bool,
    /// What the record was read as, when known: `usi`, `sfen2007`, `fen`, `chess960`, `epd`,
    /// `json`, `psn` — the names of `kifu check --message-format json`'s summary.
    #[pyo3(get)]
    read_as: Option<&'static str>,
    findings: Vec<Py<Finding>>,
}

#[pymethods]
impl Verdict {
    /// Every finding, errors and warnings (empty for a clean record).
    #[getter]
    fn findings(&self, py: Python<'_>) -> Vec<Py<Finding>> {
        self.findings.iter().map(|f| f.clone_ref(py)).collect()
    }

    fn __repr__(&self) -> String {
        let read_as = self.read_as.map_or_else(|| "None".to_owned(), |r| format!("{r:?}"));
        format!("Verdict(valid={}, read_as={read_as}, findings={})", py_bool(self.valid), self.findings.len())
    }
}

/// Checks every record of `records` (a list of `str` or bytes), in parallel; the findings
/// chosen as by [`check`].
#[pyfunction]
#[pyo3(signature = (records, format = "sfen", dialect = None, threads = None, *, select = None, extend_select = None, ignore = None, warnings_as_errors = false))]
#[allow(clippy::too_many_arguments)]
fn check_batch(
    py: Python<'_>,
    records: &Bound<'_, PyList>,
    format: &str,
    dialect: Option<&str>,
    threads: Option<usize>,
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: bool,
) -> PyResult<Vec<Py<Verdict>>> {
    let format = format_of(format, dialect)?;
    let selection = selection_of([select, extend_select, ignore], warnings_as_errors)?;
    let texts = records.iter().map(|r| Text::of(&r)).collect::<PyResult<Vec<_>>>()?;
    let slices: Vec<&[u8]> = texts.iter().map(Text::bytes).collect();
    check_all(py, format, &slices, threads, &selection)
}

/// Checks the strings of an Arrow string array, given as its buffers: `offsets` (little-endian
/// 32-bit, or 64-bit when `large`), `data`, the validity bitmap (`None`: no nulls), the array's
/// offset and length. A null is `None` in the result.
#[pyfunction]
#[pyo3(signature = (offsets, data, validity, offset, length, large, format = "sfen", dialect = None, threads = None, *, select = None, extend_select = None, ignore = None, warnings_as_errors = false))]
#[allow(clippy::too_many_arguments)]
fn check_arrow(
    py: Python<'_>,
    offsets: &Bound<'_, PyBytes>,
    data: &Bound<'_, PyBytes>,
    validity: Option<&Bound<'_, PyBytes>>,
    offset: usize,
    length: usize,
    large: bool,
    format: &str,
    dialect: Option<&str>,
    threads: Option<usize>,
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: bool,
) -> PyResult<Vec<Option<Py<Verdict>>>> {
    let format = format_of(format, dialect)?;
    let selection = selection_of([select, extend_select, ignore], warnings_as_errors)?;
    let (offsets, data) = (offsets.as_bytes(), data.as_bytes());
    let width = if large { 8 } else { 4 };
    let bound = |i: usize| -> Option<usize> {
        let b = offsets.get(i * width..(i + 1) * width)?;
        let v = if large {
            i64::from_le_bytes(b.try_into().ok()?)
        } else {
            i64::from(i32::from_le_bytes(b.try_into().ok()?))
        };
        usize::try_from(v).ok()
    };
    let mut slices = Vec::with_capacity(length);
    let mut present = Vec::with_capacity(length);
    for i in offset..offset + length {
        let valid = validity.is_none_or(|v| v.as_bytes().get(i / 8).is_some_and(|b| b & (1 << (i % 8)) != 0));
        let (start, end) = bound(i).zip(bound(i + 1)).ok_or_else(|| PyValueError::new_err("the offsets end early"))?;
        let text = data.get(start..end).ok_or_else(|| PyValueError::new_err("an offset falls outside the data"))?;
        if valid {
            slices.push(text);
        }
        present.push(valid);
    }
    let mut found = check_all(py, format, &slices, threads, &selection)?.into_iter();
    Ok(present.into_iter().map(|p| if p { found.next() } else { None }).collect())
}

/// One record of a file, checked.
#[pyclass(module = "kifu", frozen, get_all)]
struct Record {
    /// The file's path.
    path: Option<String>,
    /// 1-based line of the file where the record starts.
    line: usize,
    /// The record's text (a PSN game's whole text; the JSON text a position is in): the
    /// findings' `start` and `end` are indices into it.
    text: String,
    /// What it was read as, when known: `usi`, `sfen2007`, `fen`, `chess960`, `epd`, `json`, or
    /// a PSN game's dialect — the names of `kifu check --message-format json`'s summary.
    read_as: Option<&'static str>,
    /// True when no finding is an error.
    valid: bool,
    /// Every finding, errors and warnings; lines are the file's.
    findings: Vec<Finding>,
}

#[pymethods]
impl Record {
    fn __repr__(&self) -> String {
        format!(
            "Record(line={}, valid={}, findings={}, text={:?})",
            self.line,
            py_bool(self.valid),
            self.findings.len(),
            self.text.chars().take(60).collect::<String>()
        )
    }
}

/// Bytes of input read per step of [`RecordIter`] (a batch of lines).
const BATCH_BYTES: usize = 256 * 1024;

/// What a file's records are read from.
enum Source {
    Lines(Format, Box<LineReader<File>>),
    Games(Box<psn::GameStream<BufReader<File>>>),
    /// JSON positions, read and checked on a thread of their own (JSON Lines one line at a time,
    /// any other JSON as one document of bounded size).
    Json(std::sync::Mutex<std::sync::mpsc::Receiver<io::Result<Checked>>>),
    /// Everything is read.
    Done,
}

/// The records of a file, checked as they are read.
#[pyclass(module = "kifu")]
struct RecordIter {
    path: String,
    /// Which findings are reported.
    selection: Selection,
    source: Source,
    ready: VecDeque<Checked>,
    /// Set when reading failed: raised once the records before it are given.
    failed: Option<io::Error>,
}

impl RecordIter {
    /// Reads and checks the next batch of records into `ready`.
    fn fill(&mut self) {
        match &mut self.source {
            Source::Lines(format, reader) => match reader.next_batch(BATCH_BYTES) {
                Ok(Some(batch)) => {
                    for line in batch.read_lines() {
                        let report = check_line_in(*format, line, &batch.reading);
                        let valid_text = || String::from_utf8_lossy(line.bytes).into_owned();
                        let text = if report.text.is_empty() { valid_text() } else { report.text };
                        self.ready.push_back(Checked {
                            text,
                            line: line.number,
                            findings: report.diagnostics,
                            read_as: report.dialect.map(Format::read_as),
                        });
                    }
                }
                Ok(None) => self.source = Source::Done,
                Err(e) => {
                    self.failed = Some(e);
                    self.source = Source::Done;
                }
            },
            Source::Games(games) => {
                let mut bytes = 0;
                while bytes < BATCH_BYTES {
                    match games.next() {
                        Some(Ok(game)) => {
                            bytes += game.text.len().max(1);
                            self.ready.push_back(Checked {
                                line: game.checked.game.line,
                                read_as: Some(game.checked.game.dialect.name()),
                                findings: game.checked.diagnostics,
                                text: game.text,
                            });
                        }
                        Some(Err(e)) => {
                            self.failed = Some(e);
                            self.source = Source::Done;
                            break;
                        }
                        None => {
                            self.source = Source::Done;
                            break;
                        }
                    }
                }
            }
            Source::Json(records) => match records.get_mut().unwrap_or_else(PoisonError::into_inner).recv() {
                Ok(Ok(checked)) => self.ready.push_back(checked),
                Ok(Err(e)) => {
                    self.failed = Some(e);
                    self.source = Source::Done;
                }
                Err(_) => self.source = Source::Done,
            },
            Source::Done => {}
        }
    }
}

#[pymethods]
impl RecordIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<Record>> {
        loop {
            if let Some(mut checked) = slf.ready.pop_front() {
                slf.selection.apply(&mut checked.findings);
                return Ok(Some(checked.into_record(Some(&slf.path))));
            }
            if let Some(e) = slf.failed.take() {
                return Err(PyOSError::new_err(format!("cannot read `{}`: {e}", slf.path)));
            }
            if matches!(slf.source, Source::Done) {
                return Ok(None);
            }
            let this = &mut *slf;
            py.detach(|| this.fill());
        }
    }
}

/// The format of `path`: `format` when given, else its extension's.
fn file_format(path: &str, format: Option<&str>, dialect: Option<&str>) -> PyResult<Format> {
    match format {
        Some(f) => format_of(f, dialect),
        None => {
            let f = Format::for_path(path, None).map_err(|e| PyValueError::new_err(e.to_string()))?;
            match dialect {
                Some(d) => format_of(f.name(), Some(d)),
                None => Ok(f),
            }
        }
    }
}

/// Opens `path`, and gives the name findings and errors call it by.
fn open(path: &std::path::Path) -> PyResult<(File, String)> {
    let name = path.to_string_lossy().into_owned();
    match File::open(path) {
        Ok(file) => Ok((file, name)),
        Err(e) => Err(PyOSError::new_err(format!("cannot open `{name}`: {e}"))),
    }
}

/// The selection of findings `kifu check` would make for the file at `path` with these flags:
/// theirs over the `kifu.toml` (or `[tool.kifu]`) nearest the file, unless `isolated`.
fn selection_for(path: &str, flags: SelectFlags) -> PyResult<Selection> {
    let flags_selection = selection_of([flags.select, flags.extend_select, flags.ignore], flags.warnings_as_errors)?;
    let source = if flags.isolated { config::Source::Isolated } else { config::Source::Nearest };
    config::Selector::new(flags_selection, source).for_path(path).map_err(PyValueError::new_err)
}

/// The selection of the keyword arguments `select`, `extend_select` and `ignore` (lists of codes,
/// groups or `"ALL"`) and `warnings_as_errors`; an unknown code is a `ValueError` that names it.
fn selection_of(lists: [Option<Vec<String>>; 3], warnings_as_errors: bool) -> PyResult<Selection> {
    let lists = lists.each_ref().map(|l| l.as_deref().unwrap_or_default());
    Selection::of_lists(lists, warnings_as_errors, |key| key.replace('-', "_")).map_err(PyValueError::new_err)
}

/// `check_file`'s selection arguments, as `kifu check`'s flags.
struct SelectFlags {
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: bool,
    isolated: bool,
}

/// The records of the file at `path`, each checked as it is read; the findings reported are
/// those `kifu check` reports: selected by the `kifu.toml` nearest the file (unless `isolated`)
/// and by `select`, `extend_select`, `ignore` and `warnings_as_errors`, as its flags.
#[pyfunction]
#[pyo3(signature = (path, format = None, dialect = None, strict = false, replay = true, *, select = None, extend_select = None, ignore = None, warnings_as_errors = false, isolated = false))]
#[allow(clippy::too_many_arguments)]
fn check_file(
    path: std::path::PathBuf,
    format: Option<&str>,
    dialect: Option<&str>,
    strict: bool,
    replay: bool,
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: bool,
    isolated: bool,
) -> PyResult<RecordIter> {
    let (file, path) = open(&path)?;
    let format = file_format(&path, format, dialect)?;
    let flags = SelectFlags { select, extend_select, ignore, warnings_as_errors, isolated };
    let selection = selection_for(&path, flags)?;
    let mut iter = RecordIter { path, selection, source: Source::Done, ready: VecDeque::new(), failed: None };
    match format.cut() {
        Cut::Games => {
            let games = psn::GameStream::new(BufReader::new(file), psn::Options { strict, replay });
            iter.source = Source::Games(Box::new(games));
        }
        Cut::Values => {
            // The reader hands over records as they are read, a bounded number ahead.
            let (send, receive) = std::sync::mpsc::sync_channel(256);
            std::thread::spawn(move || {
                let read = kifu::json::each_record(file, &mut |at, record, notes| {
                    // A value that could not be read is not counted as read in any format.
                    let read_as = record.is_ok().then(|| Format::Json.read_as());
                    let findings = kifu::json::findings_of(record, notes);
                    let checked = Checked { text: at.text.to_owned(), line: at.line, findings, read_as };
                    send.send(Ok(checked)).map_err(|_| io::Error::other("no longer read"))
                });
                if let Err(e) = read {
                    let _ = send.send(Err(e));
                }
            });
            iter.source = Source::Json(std::sync::Mutex::new(receive));
        }
        Cut::Lines => iter.source = Source::Lines(format, Box::new(LineReader::new(file))),
        Cut::Record => {
            // A file read whole (one byte past the largest, which the reader reports): a KIF
            // record in the encoding its content tells and its extension should, a CSA file or
            // a JKF record.
            use std::io::Read as _;
            let mut bytes = Vec::new();
            file.take(largest_record(format) as u64 + 1).read_to_end(&mut bytes)?;
            let extension = std::path::Path::new(&iter.path).extension().and_then(|e| e.to_str());
            let (text, findings) = check_record(format, &bytes, extension);
            iter.ready.push_back(Checked { text, line: 1, findings, read_as: Some(format.read_as()) });
        }
    }
    Ok(iter)
}

/// A position: shogi (from SFEN or the JSON position model) or chess (from FEN, EPD or JSON).
#[pyclass(module = "kifu", frozen)]
#[derive(Clone)]
struct Position {
    position: Pos,
}

#[derive(Clone)]
enum Pos {
    Shogi(kifu::shogi::Position),
    Chess(kifu::chess::Position),
}

/// The error for `text` with `findings`: said as the library says a record's errors, the
/// findings (warnings too) attached.
fn invalid(py: Python<'_>, what: &'static str, text: &str, findings: &[Diagnostic]) -> PyErr {
    let errors = findings.iter().filter(|d| d.is_error()).cloned().collect();
    let err = InvalidRecord::new_err(kifu::diagnostic::ParseError { format: what, diagnostics: errors }.to_string());
    if let Ok(list) = findings_in(findings, text, 1).into_pyobject(py) {
        let _ = err.value(py).setattr("findings", list);
    }
    err
}

#[pymethods]
impl Position {
    /// Reads an SFEN record (`dialect`: `auto`, `sfen2007` or `usi`); raises `InvalidRecord`
    /// with its findings when it has errors.
    #[staticmethod]
    #[pyo3(signature = (text, dialect = "auto"))]
    fn from_sfen(py: Python<'_>, text: &str, dialect: &str) -> PyResult<Self> {
        let choice: sfen::DialectChoice = dialect.parse().map_err(PyValueError::new_err)?;
        let checked = py.detach(|| sfen::check(text, choice));
        let diagnostics = checked.diagnostics.clone();
        checked
            .into_result()
            .map(|p| Self { position: Pos::Shogi(p) })
            .map_err(|_| invalid(py, "SFEN", text, &diagnostics))
    }

    /// Reads a FEN record (`dialect`: `standard` or `chess960`).
    #[staticmethod]
    #[pyo3(signature = (text, dialect = "standard"))]
    fn from_fen(py: Python<'_>, text: &str, dialect: &str) -> PyResult<Self> {
        Self::chess(py, text, fen::Kind::Fen, dialect)
    }

    /// Reads an EPD record (`dialect`: `standard` or `chess960`); its operations are not kept.
    #[staticmethod]
    #[pyo3(signature = (text, dialect = "standard"))]
    fn from_epd(py: Python<'_>, text: &str, dialect: &str) -> PyResult<Self> {
        Self::chess(py, text, fen::Kind::Epd, dialect)
    }

    /// Reads one position of the JSON position model (or its chess analogue).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Self> {
        let read = py.detach(|| {
            let (findings, _) = Format::Json.check_text(text);
            if findings.iter().any(Diagnostic::is_error) {
                return Err(findings);
            }
            let mut positions = Vec::new();
            for node in kifu::json::values(text).flatten() {
                for record in kifu::json::records(&node) {
                    positions.push(match kifu::json::read(record) {
                        kifu::json::Model::Shogi(c) => c.position.map(Pos::Shogi),
                        kifu::json::Model::Chess(c) => c.position.map(Pos::Chess),
                    });
                }
            }
            Ok(positions)
        });
        match read {
            Err(findings) => Err(invalid(py, "JSON position", text, &findings)),
            Ok(positions) => match <[_; 1]>::try_from(positions) {
                Ok([Some(position)]) => Ok(Self { position }),
                Ok([None]) => Err(PyValueError::new_err("the JSON text holds no position")),
                Err(p) => Err(PyValueError::new_err(format!("the JSON text holds {} positions, not one", p.len()))),
            },
        }
    }

    /// `"shogi"` or `"chess"`.
    #[getter]
    fn game(&self) -> &'static str {
        match self.position {
            Pos::Shogi(_) => "shogi",
            Pos::Chess(_) => "chess",
        }
    }

    /// The side to move: `"black"` or `"white"` (in shogi, Black moves first).
    #[getter]
    fn side_to_move(&self) -> &'static str {
        let white = match &self.position {
            Pos::Shogi(p) => p.side == kifu::shogi::Color::White,
            Pos::Chess(p) => p.side == kifu::chess::Color::White,
        };
        if white {
            "white"
        } else {
            "black"
        }
    }

    /// Shogi: each side's pieces in hand, as `{"black": {"P": 2}, "white": {}}` (USI letters).
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Pos::Shogi(p) = &self.position else { return Ok(None) };
        let hands = PyDict::new(py);
        for (name, color) in [("black", kifu::shogi::Color::Black), ("white", kifu::shogi::Color::White)] {
            let hand = PyDict::new(py);
            for (kind, n) in kifu::views::hand_entries(p, color) {
                hand.set_item(
                    kifu::shogi::Piece { kind, color: kifu::shogi::Color::Black, promoted: false }.to_string(),
                    n,
                )?;
            }
            hands.set_item(name, hand)?;
        }
        Ok(Some(hands))
    }

    /// The position as SFEN: `dialect` `usi` (canonical USI SFEN) or `sfen2007`.
    #[pyo3(signature = (dialect = "usi"))]
    fn to_sfen(&self, dialect: &str) -> PyResult<String> {
        let Pos::Shogi(p) = &self.position else {
            return Err(PyValueError::new_err("a chess position has no SFEN: use to_fen()"));
        };
        let dialect = match dialect {
            "usi" => sfen::Dialect::Usi,
            "sfen2007" => sfen::Dialect::Sfen2007,
            other => {
                return Err(PyValueError::new_err(format!("unknown SFEN dialect `{other}`: expected usi or sfen2007")))
            }
        };
        p.to_sfen(dialect).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The position as the arguments of USI's `position` command: `sfen <USI SFEN>`.
    fn to_usi(&self) -> PyResult<String> {
        Ok(format!("sfen {}", self.to_sfen("usi")?))
    }

    /// The position as FEN (chess only).
    fn to_fen(&self) -> PyResult<String> {
        match &self.position {
            Pos::Chess(p) => Ok(p.to_string()),
            Pos::Shogi(_) => Err(PyValueError::new_err("a shogi position has no FEN: use to_sfen()")),
        }
    }

    /// The position in the JSON position model (or its chess analogue).
    fn to_json(&self) -> String {
        match &self.position {
            Pos::Shogi(p) => kifu::json::shogi::write(p, kifu::json::Style::Counts),
            Pos::Chess(p) => kifu::json::chess::write(p),
        }
    }

    /// The board as an SVG picture (`kanji`: shogi pieces named in kanji).
    #[pyo3(signature = (kanji = false))]
    fn board_svg(&self, kanji: bool) -> String {
        match &self.position {
            Pos::Shogi(p) => {
                let names = if kanji { kifu::views::Names::Kanji } else { kifu::views::Names::Letters };
                kifu::views::svg::shogi(p, names, &[])
            }
            Pos::Chess(p) => kifu::views::svg::chess(p, &[]),
        }
    }

    /// Jupyter draws a position as its SVG board.
    fn _repr_svg_(&self) -> String {
        self.board_svg(false)
    }

    /// The board as a text diagram.
    fn __str__(&self) -> String {
        match &self.position {
            Pos::Shogi(p) => kifu::views::text::shogi(p, kifu::views::text::Style::Unicode),
            Pos::Chess(p) => p.diagram(),
        }
    }

    fn __repr__(&self) -> String {
        match &self.position {
            Pos::Shogi(p) => format!("Position.from_sfen({:?})", p.to_string()),
            Pos::Chess(p) => format!("Position.from_fen({:?})", p.to_string()),
        }
    }

    fn __eq__(&self, other: &Self) -> bool {
        match (&self.position, &other.position) {
            (Pos::Shogi(a), Pos::Shogi(b)) => a == b,
            (Pos::Chess(a), Pos::Chess(b)) => a == b,
            _ => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match &self.position {
            Pos::Shogi(p) => p.hash(&mut h),
            Pos::Chess(p) => p.hash(&mut h),
        }
        h.finish()
    }
}

impl Position {
    fn chess(py: Python<'_>, text: &str, kind: fen::Kind, dialect: &str) -> PyResult<Self> {
        let what = if kind == fen::Kind::Fen { "FEN" } else { "EPD" };
        let named = format_of(&what.to_ascii_lowercase(), Some(dialect))?.dialect();
        let dialect = fen::Dialect::try_from(named)
            .map_err(|_| PyValueError::new_err(format!("`{dialect}` is not a dialect of {what}")))?;
        let checked = py.detach(|| fen::check(text, kind, dialect));
        let diagnostics = checked.diagnostics.clone();
        checked
            .into_result()
            .map(|p| Self { position: Pos::Chess(p) })
            .map_err(|_| invalid(py, what, text, &diagnostics))
    }
}

/// A game, read and checked: a PSN game, or a KIF or KI2 record; played out when its start
/// could be read.
#[pyclass(module = "kifu", frozen)]
struct Game {
    /// A PSN game as read: it writes PSN in its own form.
    psn: Option<psn::CheckedGame>,
    /// The game every format reads into, when its start could be read.
    model: Option<kifu::shogi::Game>,
    diagnostics: Vec<Diagnostic>,
    text: String,
    line: usize,
}

impl Game {
    /// A PSN game checked, with its text.
    fn of_psn(checked: psn::CheckedGame, text: String) -> Self {
        let model = checked.to_game();
        let (diagnostics, line) = (checked.diagnostics.clone(), checked.game.line);
        Self { psn: Some(checked), model, diagnostics, text, line }
    }

    /// The game written as KIF (`ki2`: as KI2), encoded in `encoding`.
    fn kif_bytes(&self, encoding: &str, ki2: bool) -> PyResult<Vec<u8>> {
        let Some(game) = &self.model else {
            return Err(PyValueError::new_err("the game's starting position could not be read"));
        };
        let shift_jis = match kifu::kif::Encoding::named(encoding) {
            Some(kifu::kif::Encoding::Utf8) => false,
            Some(kifu::kif::Encoding::ShiftJis) => true,
            _ => return Err(PyValueError::new_err(format!("no encoding `{encoding}`: `utf-8` or `shift_jis`"))),
        };
        let written = match (ki2, shift_jis) {
            (true, _) => kifu::kif::write_ki2(game),
            (false, true) => kifu::kif::write(game, "Shift_JIS"),
            (false, false) => kifu::kif::write(game, "UTF-8"),
        };
        if !shift_jis {
            return Ok(written.text.into_bytes());
        }
        kifu::kif::shift_jis(&written.text)
            .map_err(|missing| PyValueError::new_err(format!("Shift_JIS has no {missing}: write the game in UTF-8")))
    }
}

#[pymethods]
impl Game {
    /// Reads one game; raises `InvalidRecord` with its findings when it has errors, and
    /// `ValueError` when the text holds no game or several.
    #[staticmethod]
    fn from_psn(py: Python<'_>, text: &str) -> PyResult<Self> {
        let mut file = py.detach(|| psn::check_bytes(text.as_bytes(), psn::Options::default()));
        match file.games.len() {
            1 => {
                let checked = file.games.remove(0);
                let game_text = checked.text(&file.text).to_owned();
                if checked.is_valid() {
                    Ok(Self::of_psn(checked, game_text))
                } else {
                    Err(invalid(py, "PSN game", &game_text, &checked.diagnostics))
                }
            }
            0 => Err(PyValueError::new_err("the text holds no game")),
            n => Err(PyValueError::new_err(format!("the text holds {n} games, not one: use kifu.read_games"))),
        }
    }

    /// Reads a KIF or KI2 record, a `str` or its bytes in any encoding KIF files come in
    /// (UTF-8, Shift_JIS, EUC-JP: the content tells); raises `InvalidRecord` with its findings
    /// when it has errors.
    #[staticmethod]
    fn from_kif(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = Text::of(text)?;
        let read = py.detach(|| kifu::kif::check_bytes(text.bytes(), None));
        if read.diagnostics.iter().any(Diagnostic::is_error) {
            return Err(invalid(py, "KIF record", &read.text, &read.diagnostics));
        }
        Ok(Self { psn: None, model: read.game, diagnostics: read.diagnostics, text: read.text, line: 1 })
    }

    /// 1-based line of the file where the game starts.
    #[getter]
    fn line(&self) -> usize {
        self.line
    }

    /// The game's text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The format it was read as: `psn`, or `kif` for a KIF or KI2 record.
    #[getter]
    fn format(&self) -> &'static str {
        if self.psn.is_some() {
            "psn"
        } else {
            "kif"
        }
    }

    /// The PSN dialect it was read as (`psn1998`, `gsdb`, …); `kif` for a KIF or KI2 record.
    #[getter]
    fn dialect(&self) -> &'static str {
        self.psn.as_ref().map_or("kif", |g| g.game.dialect.name())
    }

    /// True when no finding is an error.
    #[getter]
    fn valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every finding; offsets are indices into `text`, lines are the file's.
    #[getter]
    fn findings(&self) -> Vec<Finding> {
        findings_in(&self.diagnostics, &self.text, self.line)
    }

    /// The header lines as a dict, in order (the first of two headers with one key wins).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let pairs: Vec<(&str, &str)> = match (&self.psn, &self.model) {
            (Some(checked), _) => checked.game.headers.iter().map(|h| (h.key.as_str(), h.value.as_str())).collect(),
            (None, Some(game)) => game.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
            (None, None) => Vec::new(),
        };
        for (key, value) in pairs {
            if !dict.contains(key)? {
                dict.set_item(key, value)?;
            }
        }
        Ok(dict)
    }

    /// The main line's moves in USI (`7g7f`, `P*5e`), up to its first illegal move.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.model.as_ref().map(|g| g.main_line().map(|m| m.to_string()).collect()).unwrap_or_default()
    }

    /// The position the game starts from (`None` when it could not be read).
    #[getter]
    fn start(&self) -> Option<Position> {
        self.model.as_ref().map(|g| Position { position: Pos::Shogi(g.start.clone()) })
    }

    /// The position after each move of `moves`.
    fn positions(&self) -> Vec<Position> {
        self.model
            .as_ref()
            .map(|g| g.positions().into_iter().map(|p| Position { position: Pos::Shogi(p) }).collect())
            .unwrap_or_default()
    }

    /// The game as the 1998 spec writes it (a KIF or KI2 record's times and ending in the
    /// comments kifu reads back).
    fn to_psn(&self) -> PyResult<String> {
        match (&self.psn, &self.model) {
            (Some(checked), _) => Ok(checked.to_psn()),
            (None, Some(game)) => Ok(psn::write(game).text),
            (None, None) => Err(PyValueError::new_err("the game's starting position could not be read")),
        }
    }

    /// The game as the arguments of USI's `position` command: `sfen <start> moves <move>…`.
    fn to_usi(&self) -> PyResult<String> {
        match &self.model {
            Some(game) => Ok(game.to_usi()),
            None => Err(PyValueError::new_err("the game's starting position could not be read")),
        }
    }

    /// The game as KIF, as Kifu for Windows writes it, in `encoding`: `utf-8` (a `.kifu`
    /// file's) or `shift_jis` (a `.kif` file's); raises `ValueError` when Shift_JIS lacks one of
    /// its characters.
    #[pyo3(signature = (encoding = "utf-8"))]
    fn to_kif<'py>(&self, py: Python<'py>, encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
        self.kif_bytes(encoding, false).map(|b| PyBytes::new(py, &b))
    }

    /// The game as KI2 (the moves as people write them, no times), in `encoding`: `utf-8` (a
    /// `.ki2u` file's) or `shift_jis` (a `.ki2` file's).
    #[pyo3(signature = (encoding = "utf-8"))]
    fn to_ki2<'py>(&self, py: Python<'py>, encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
        self.kif_bytes(encoding, true).map(|b| PyBytes::new(py, &b))
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(format={}, line={}, moves={}, valid={})",
            self.format(),
            self.line,
            self.moves().len(),
            py_bool(self.valid())
        )
    }
}

/// The games of a PSN file, read and checked as they stream.
#[pyclass(module = "kifu")]
struct GameIter {
    path: String,
    games: Box<psn::GameStream<BufReader<File>>>,
    done: bool,
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<Game>> {
        if slf.done {
            return Ok(None);
        }
        let this = &mut *slf;
        let games = &mut this.games;
        match py.detach(|| games.next()) {
            Some(Ok(game)) => Ok(Some(Game::of_psn(game.checked, game.text))),
            Some(Err(e)) => {
                slf.done = true;
                Err(PyOSError::new_err(format!("cannot read `{}`: {e}", slf.path)))
            }
            None => {
                slf.done = true;
                Ok(None)
            }
        }
    }
}

/// The games of the PSN file at `path`, each read and checked as it streams.
#[pyfunction]
#[pyo3(signature = (path, strict = false, replay = true))]
fn read_games(path: std::path::PathBuf, strict: bool, replay: bool) -> PyResult<GameIter> {
    let (file, path) = open(&path)?;
    Ok(GameIter {
        path,
        games: Box::new(psn::GameStream::new(BufReader::new(file), psn::Options { strict, replay })),
        done: false,
    })
}

/// What a finding's code means, in a sentence (`None` for a code kifu does not have).
#[pyfunction]
fn meaning(code: &str) -> Option<&'static str> {
    kifu::diagnostic::codes::lookup(code).map(|e| e.meaning)
}

/// The extension module.
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InvalidRecord", m.py().get_type::<InvalidRecord>())?;
    m.add_class::<Finding>()?;
    m.add_class::<Label>()?;
    m.add_class::<Edit>()?;
    m.add_class::<Fix>()?;
    m.add_class::<Record>()?;
    m.add_class::<RecordIter>()?;
    m.add_class::<Position>()?;
    m.add_class::<Game>()?;
    m.add_class::<GameIter>()?;
    m.add_class::<Verdict>()?;
    m.add_function(wrap_pyfunction!(meaning, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(check_batch, m)?)?;
    m.add_function(wrap_pyfunction!(check_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
