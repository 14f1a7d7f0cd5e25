//! How findings are shown: the colour theme and width, built in one place, and the exit status
//! of every command that reads records.

use std::collections::{BTreeMap, HashSet};
use std::io::{self, IsTerminal, Write};
use std::ops::Range;
use std::process::ExitCode;
use std::sync::{Mutex, OnceLock, PoisonError, RwLock};

use miette::GraphicalReportHandler;

use crate::check::LineReport;
use crate::diagnostic::RecordSource;

use crate::diagnostic::codes::{self, Code};
use crate::diagnostic::excerpt::{self, LineIndex};
use crate::diagnostic::Severity;
use crate::Diagnostic;

use crate::cli::args::{MessageFormat, ReportArgs};
use crate::cli::output;

/// `--message-format` and `--color`, set once by `main` for every command.
static SETTINGS: OnceLock<ReportArgs> = OnceLock::new();

/// Sets how findings are reported, for the whole run.
pub(crate) fn init(args: ReportArgs) {
    let _ = SETTINGS.set(args);
}

fn settings() -> ReportArgs {
    SETTINGS.get().copied().unwrap_or_default()
}

/// Where reports are written, which decides whether colour is used under `--color auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output (`kifu check`).
    Stdout,
    /// Standard error (the commands whose standard output is data).
    Stderr,
}

impl Stream {
    fn is_terminal(self) -> bool {
        match self {
            Self::Stdout => io::stdout().is_terminal(),
            Self::Stderr => io::stderr().is_terminal(),
        }
    }
}

/// True when human reports on `stream` are coloured: when `color` says so (`None`: when the
/// stream is a terminal and NO_COLOR is unset).
fn colored(stream: Stream, color: Option<bool>) -> bool {
    color.unwrap_or_else(|| std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal())
}

/// The exit status of the commands that read records: 2 for a usage or I/O error, 1 when a
/// record is invalid (or, for the playground, when a verdict or tree changed), 0 otherwise.
pub fn exit_code(failed: bool, invalid: bool) -> ExitCode {
    if failed {
        ExitCode::from(2)
    } else if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// How many records were read in each dialect: its name, the count and its title, in the
/// order of the names. A file holds a few dialects at most, and most records are read in the
/// one before, so a record is counted without a map's lookup.
#[derive(Debug, Default, Clone)]
pub(crate) struct Dialects(Vec<(&'static str, u64, &'static str)>);

impl Dialects {
    /// Counts `n` more records read in dialect `name`, titled `title`.
    pub(crate) fn add(&mut self, name: &'static str, title: &'static str, n: u64) {
        // The same name is most often the same string: its address is compared first.
        if let Some(entry) = self.0.iter_mut().find(|(known, ..)| std::ptr::eq(*known, name) || *known == name) {
            entry.1 += n;
            return;
        }
        let at = self.0.partition_point(|(known, ..)| *known < name);
        self.0.insert(at, (name, n, title));
    }
}

/// Totals over every record checked.
#[derive(Debug, Default, Clone)]
pub(crate) struct Totals {
    /// Every record was a PSN game: the summary counts games.
    pub(crate) games: bool,
    /// The files read to their end.
    pub(crate) files: u64,
    pub(crate) records: u64,
    pub(crate) valid: u64,
    pub(crate) invalid: u64,
    pub(crate) warnings: u64,
    /// How many records were read in each dialect, by name, with the dialect's title.
    pub(crate) dialects: Dialects,
    /// Lines that are not records, counted and not shown: one report stands for them.
    pub(crate) hidden: u64,
    /// Files of a format kifu reads that ignore files left out of named folders that gave no
    /// other file.
    pub(crate) ignored: u64,
    /// With `--fix`: the fixes applied, and those left out because they overlap another.
    pub(crate) fixed: Option<crate::document::fix::Fixed>,
    /// Files found in folders in a format kifu does not read.
    pub(crate) unread: Named,
    /// Files whose fixes `--fix` did not write (or `--diff` did not show).
    pub(crate) unfixed: Named,
    /// With `--statistics`: the findings by code and severity.
    pub(crate) codes: BTreeMap<(Code, Severity), u64>,
}

impl Totals {
    /// Counts a record read in dialect `name`, titled `title`.
    pub(crate) fn read_as(&mut self, name: &'static str, title: &'static str) {
        self.dialects.add(name, title, 1);
    }

    pub(crate) fn add(&mut self, other: &Self) {
        self.games = if self.records == 0 { other.games } else { self.games && (other.games || other.records == 0) };
        self.files += other.files;
        self.records += other.records;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        self.hidden += other.hidden;
        self.ignored += other.ignored;
        self.unread.add(&other.unread);
        self.unfixed.add(&other.unfixed);
        for &(name, n, title) in &other.dialects.0 {
            self.dialects.add(name, title, n);
        }
        for (key, n) in &other.codes {
            *self.codes.entry(*key).or_default() += n;
        }
    }

    /// Counts `diagnostics` by code, for `--statistics`.
    pub(crate) fn count(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            *self.codes.entry((d.code, d.severity)).or_default() += 1;
        }
    }

    /// The table of `--statistics`: one line a code and severity, the most frequent first, as a
    /// count, the code, the severity and what the code means; or one JSON object each.
    pub(crate) fn statistics(&self, json: bool) -> String {
        let mut rows: Vec<_> = self.codes.iter().map(|(&(code, severity), &n)| (n, code, severity)).collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let meaning = |code: Code| codes::lookup(&code).map_or("", |e| e.meaning);
        let mut out = String::new();
        if json {
            for (count, code, severity) in rows {
                let row =
                    JsonStatistic { kind: "statistic", code: code.as_str(), severity, count, meaning: meaning(code) };
                out.push_str(&serde_json::to_string(&row).unwrap_or_default());
                out.push('\n');
            }
            return out;
        }
        let count_width = rows.iter().map(|r| r.0.to_string().len()).max().unwrap_or(1);
        let code_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(1);
        for (count, code, severity) in rows {
            let (meaning, code, severity) = (meaning(code), code.as_str(), severity.as_str());
            out.push_str(&format!("{count:>count_width$}  {code:<code_width$}  {severity:<7}  {meaning}\n"));
        }
        out
    }
}

/// Files counted, and the first of them named, for the summary.
#[derive(Clone, Debug, Default)]
pub(crate) struct Named {
    pub(crate) count: u64,
    first: Option<String>,
}

impl Named {
    /// Counts `file`.
    pub(crate) fn push(&mut self, file: &str) {
        self.count += 1;
        self.first.get_or_insert_with(|| file.to_owned());
    }

    fn add(&mut self, other: &Self) {
        self.count += other.count;
        if self.first.is_none() {
            self.first.clone_from(&other.first);
        }
    }

    /// `; 1 file not read: `a.pgn``, `; 3 files not read: `a.pgn` and 2 more`, or nothing.
    pub(crate) fn words(&self, what: &str) -> String {
        let first = self.first.as_deref().map(crate::diagnostic::escape_unsafe).unwrap_or_default();
        match self.count {
            0 => String::new(),
            1 => format!("; 1 file {what}: `{first}`"),
            n => format!("; {n} files {what}: `{first}` and {} more", n - 1),
        }
    }
}

/// The last line of `--message-format json`.
#[derive(serde::Serialize)]
pub(crate) struct JsonSummary {
    #[serde(rename = "type")]
    kind: &'static str,
    files: u64,
    records: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    /// How many records were read in each dialect.
    dialects: BTreeMap<&'static str, u64>,
    /// With `--fix`: the fixes applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<u64>,
    /// With `--fix`: the fixes left out because they overlap another.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u64>,
    /// Lines that are not records, counted and not shown: one report stands for them.
    #[serde(skip_serializing_if = "is_zero")]
    hidden: u64,
    /// Files left out by ignore files, in named folders that gave no other file.
    #[serde(skip_serializing_if = "is_zero")]
    ignored: u64,
    /// Files found in folders in a format kifu does not read.
    #[serde(skip_serializing_if = "is_zero")]
    unread: u64,
    /// Files whose fixes were not written.
    #[serde(skip_serializing_if = "is_zero")]
    unfixed: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What of the findings is shown: all of them; errors only (`kifu check -q`); or none, only
/// their counts by code (`kifu check --statistics`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Volume {
    #[default]
    All,
    Errors,
    Statistics,
}

/// Reports rendered by a worker, with the place of each warning in them, so that the writer
/// can show a repeated warning once a file ([`Fold`]).
#[derive(Default)]
pub(crate) struct Rendered {
    pub(crate) text: String,
    /// The warnings of `text` in order: each code and the bytes of its report (empty when the
    /// worker already knew it for a repeat, and did not render it).
    warnings: Vec<(Code, Range<usize>)>,
}

impl Rendered {
    /// The rendered text's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.warnings.clear();
    }
}

/// Human reports of one file: a warning is shown in full the first time its code is met in the
/// file, and the later ones counted, the count written at the file's end. Workers skip the
/// warnings they know for repeats; the writer, which sees the reports in input order, decides.
#[derive(Default)]
pub(crate) struct Fold {
    /// The codes of the warnings shown in full in this file.
    shown: RwLock<HashSet<Code>>,
    /// The warnings left out in this file, by code.
    more: Mutex<BTreeMap<Code, u64>>,
}

impl Fold {
    fn is_shown(&self, code: Code) -> bool {
        self.shown.read().unwrap_or_else(PoisonError::into_inner).contains(&code)
    }
}

/// A line of `--statistics` in JSON: how many findings of one code and severity.
#[derive(serde::Serialize)]
struct JsonStatistic {
    #[serde(rename = "type")]
    kind: &'static str,
    code: &'static str,
    severity: Severity,
    count: u64,
    /// What the code means, from the registry of codes.
    meaning: &'static str,
}

/// Everything a worker needs to render reports.
pub(crate) struct Renderer {
    /// The findings are written for programs (JSON lines or a SARIF log): no words for people
    /// on the same stream.
    pub(crate) json: bool,
    pub(crate) format: MessageFormat,
    pub(crate) handler: GraphicalReportHandler,
    /// The reports' width in columns, when they are drawn without colour: then a report on one
    /// line is drawn by [`crate::diagnostic::draw_plain`], and miette draws the others.
    plain: Option<usize>,
    pub(crate) volume: Volume,
    /// Human reports of `kifu check`: repeated warnings counted, not shown.
    fold: Option<Fold>,
}

impl Renderer {
    /// The renderer of findings written to `stream`, as `--message-format` and `--color` say:
    /// as wide as the terminal (`COLUMNS`) when the stream is one, else 100 columns.
    pub(crate) fn new(stream: Stream) -> Self {
        let settings = settings();
        let width = if stream.is_terminal() { terminal_width().unwrap_or(100) } else { 100 };
        let color = colored(stream, settings.color.chosen());
        let handler = crate::diagnostic::graphical_handler(color, width);
        let format = settings.message_format;
        let json = matches!(format, MessageFormat::Json | MessageFormat::Sarif);
        Self { json, format, handler, plain: (!color).then_some(width), volume: Volume::All, fold: None }
    }

    /// The renderer of `kifu check`'s reports: `volume` of them, and in human reports a repeated
    /// warning shown once a file.
    pub(crate) fn for_check(volume: Volume) -> Self {
        let renderer = Self::new(Stream::Stdout);
        let fold = (renderer.format == MessageFormat::Human && volume == Volume::All).then(Fold::default);
        Self { volume, fold, ..renderer }
    }

    /// A renderer of every finding as a JSON line, whatever `--output-format` says.
    pub(crate) fn json_lines() -> Self {
        Self { json: true, format: MessageFormat::Json, fold: None, ..Self::new(Stream::Stdout) }
    }

    /// True when `d` is shown at all (`-q` leaves warnings out, `--statistics` everything).
    fn shows(&self, d: &Diagnostic) -> bool {
        match self.volume {
            Volume::All => true,
            Volume::Errors => d.is_error(),
            Volume::Statistics => false,
        }
    }

    /// Renders each finding of `diagnostics` that is shown with `one`, keeping the places of
    /// warnings for the fold (a warning already shown in this file is not rendered again).
    fn each(&self, diagnostics: &[Diagnostic], out: &mut Rendered, mut one: impl FnMut(&Diagnostic, &mut String)) {
        for d in diagnostics.iter().filter(|d| self.shows(d)) {
            match &self.fold {
                Some(fold) if !d.is_error() => {
                    let start = out.text.len();
                    if !fold.is_shown(d.code) {
                        one(d, &mut out.text);
                    }
                    out.warnings.push((d.code, start..out.text.len()));
                }
                _ => one(d, &mut out.text),
            }
        }
    }

    /// Writes reports in input order: a warning whose code this file has shown is counted
    /// instead.
    pub(crate) fn write(&self, rendered: &Rendered, out: &mut impl Write) -> io::Result<()> {
        let Some(fold) = self.fold.as_ref().filter(|_| !rendered.warnings.is_empty()) else {
            return out.write_all(rendered.text.as_bytes());
        };
        let mut shown = fold.shown.write().unwrap_or_else(PoisonError::into_inner);
        let mut more = fold.more.lock().unwrap_or_else(PoisonError::into_inner);
        let mut at = 0;
        for (code, range) in &rendered.warnings {
            out.write_all(&rendered.text.as_bytes()[at..range.start])?;
            if shown.insert(*code) {
                out.write_all(&rendered.text.as_bytes()[range.clone()])?;
            } else {
                *more.entry(*code).or_default() += 1;
            }
            at = range.end;
        }
        out.write_all(&rendered.text.as_bytes()[at..])
    }

    /// Ends the reports of the file `name`: how many warnings of each code were left out.
    pub(crate) fn end_file(&self, name: &str, out: &mut impl Write) -> io::Result<()> {
        let Some(fold) = &self.fold else { return Ok(()) };
        fold.shown.write().unwrap_or_else(PoisonError::into_inner).clear();
        let more = std::mem::take(&mut *fold.more.lock().unwrap_or_else(PoisonError::into_inner));
        for (code, n) in more {
            writeln!(
                out,
                "{code}: and {n} more like this in `{}`, not shown (`--output-format json` lists every one)\n",
                crate::diagnostic::escape_unsafe(name)
            )?;
        }
        Ok(())
    }

    /// The findings on a record of one line: `text`, line `line` of `file`.
    pub(crate) fn render_line(
        &self,
        file: &str,
        line: usize,
        text: &str,
        diagnostics: &[Diagnostic],
        out: &mut Rendered,
    ) {
        if self.format != MessageFormat::Human {
            let place = |at: usize| (line, crate::Span::point(at).columns(text).0);
            self.each(diagnostics, out, |d, out| self.push_machine(file, d, place, out));
            return;
        }
        let shown = RecordSource::display_text(text);
        self.each(diagnostics, out, |d, out| {
            let source = RecordSource { name: file, text: RecordSource::bare(&shown, text, d), line, columns: &[] };
            if !self.plain.is_some_and(|width| crate::diagnostic::draw_plain(d, &source, width, out)) {
                let _ = self.handler.render_report(out, &d.report(&source));
            }
            out.push('\n');
        });
    }

    /// The findings on a text of any number of lines (a game, a JSON document) whose first line
    /// is line `first_line` of `file`: each report shows the lines its labels touch. `index` is
    /// the text's [`LineIndex`] (made once for a text that holds many records).
    pub(crate) fn render_text(
        &self,
        file: &str,
        (text, index): (&str, &LineIndex),
        first_line: usize,
        diagnostics: &[Diagnostic],
        out: &mut Rendered,
    ) {
        if self.format != MessageFormat::Human {
            let place = |at: usize| {
                let (line, column) = index.place(text, at);
                (first_line + line, column)
            };
            self.each(diagnostics, out, |d, out| self.push_machine(file, d, place, out));
            return;
        }
        self.each(diagnostics, out, |d, out| {
            let e = excerpt::excerpt(text, index, d);
            let source =
                RecordSource { name: file, text: &e.text, line: first_line + e.first_line, columns: &e.columns };
            let _ = self.handler.render_report(out, &e.diagnostic.report(&source));
            out.push('\n');
        });
    }

    /// One finding for programs, on a line of its own: a JSON message, a SARIF result, or a
    /// GitHub annotation.
    fn push_machine(&self, file: &str, d: &Diagnostic, place: impl Fn(usize) -> (usize, usize), out: &mut String) {
        match self.format {
            MessageFormat::Json => {
                out.push_str(&serde_json::to_string(&d.to_json_with(file, place)).unwrap_or_default())
            }
            MessageFormat::Sarif => out.push_str(&crate::diagnostic::sarif::result(file, d, place)),
            MessageFormat::Github | MessageFormat::Human => {
                out.push_str(&crate::diagnostic::sarif::github_annotation(file, d, place));
            }
        }
        out.push('\n');
    }

    /// The reports of one PSN game, each showing the lines its labels touch, with their real
    /// line numbers.
    pub(crate) fn render_game(
        &self,
        file: &str,
        checked: &crate::psn::CheckedGame,
        file_text: &str,
        out: &mut Rendered,
    ) {
        if checked.diagnostics.is_empty() || self.volume == Volume::Statistics {
            return;
        }
        let text = checked.text(file_text);
        self.render_text(file, (text, &LineIndex::new(text)), checked.game.line, &checked.diagnostics, out);
    }

    pub(crate) fn render(&self, file: &str, report: &LineReport, out: &mut Rendered) {
        self.render_line(file, report.line, &report.text, &report.diagnostics, out);
    }
}

impl Totals {
    /// The last line of the report: counts and dialects, in words or as JSON.
    pub(crate) fn summary(&self, json: bool) -> String {
        if json {
            let summary = JsonSummary {
                kind: "summary",
                files: self.files,
                records: self.records,
                valid: self.valid,
                invalid: self.invalid,
                warnings: self.warnings,
                dialects: self.dialects.0.iter().map(|&(name, n, _)| (name, n)).collect(),
                fixed: self.fixed.map(|f| f.applied),
                skipped: self.fixed.map(|f| f.skipped),
                hidden: self.hidden,
                ignored: self.ignored,
                unread: self.unread.count,
                unfixed: self.unfixed.count,
            };
            return serde_json::to_string(&summary).unwrap_or_default();
        }
        let dialects: Vec<String> = self.dialects.0.iter().map(|(_, n, title)| format!("{n} {title}")).collect();
        let dialects = if dialects.is_empty() { String::new() } else { format!(" (read as {})", dialects.join(", ")) };
        let noun = match (self.games, self.records) {
            (true, 1) => "game",
            (true, _) => "games",
            (false, 1) => "record",
            (false, _) => "records",
        };
        let fixed = match self.fixed {
            Some(f) if f.skipped > 0 => {
                format!("; {} fixed, {} not (each overlaps another fix: run again)", f.applied, f.skipped)
            }
            Some(f) => format!("; {} fixed", f.applied),
            None => String::new(),
        };
        let warnings = if self.warnings == 1 { "warning" } else { "warnings" };
        let files = if self.files > 1 { format!(" in {} files", self.files) } else { String::new() };
        let hidden = match self.hidden {
            0 => String::new(),
            1 => "; 1 line that is not a record not shown".to_owned(),
            n => format!("; {n} lines that are not records not shown"),
        };
        let ignored = match self.ignored {
            0 => String::new(),
            1 => "; 1 file left out by ignore files (`--no-ignore` reads it)".to_owned(),
            n => format!("; {n} files left out by ignore files (`--no-ignore` reads them)"),
        };
        let (unread, unfixed) = (self.unread.words("not read"), self.unfixed.words("not fixed"));
        format!(
            "{} {noun}{files}: {} valid, {} invalid, {} {warnings}{dialects}{fixed}{hidden}{ignored}{unread}{unfixed}",
            self.records, self.valid, self.invalid, self.warnings
        )
    }
}

pub(crate) fn terminal_width() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.parse().ok()
}

/// Where `kifu check` writes: standard output as it is, or, for `--output-format sarif`, as one
/// SARIF log whose results are the lines written to it (one result a line, as the renderer
/// writes them), so that memory stays flat whatever the input; its notices on whole files
/// ([`Out::notice`]) close it.
pub(crate) enum Out {
    Plain(output::Stdout),
    Sarif {
        results: usize,
        partial: Vec<u8>,
        /// The first [`MAX_NOTICES`] notices, as tool execution notifications.
        notices: Vec<serde_json::Value>,
        /// Notices past those, counted.
        more: u64,
        /// A file named could not be read: the run did not succeed.
        failed: bool,
    },
}

/// The most notices on whole files a SARIF log keeps (one a file): past them, one says how
/// many more there were.
const MAX_NOTICES: usize = 1000;

impl Out {
    /// Standard output for findings in `format`; a SARIF log starts with its head.
    pub(crate) fn new(format: MessageFormat) -> Self {
        if format != MessageFormat::Sarif {
            return Self::Plain(output::Stdout);
        }
        // A write error is kept and reported by `output::exit`.
        let _ = output::Stdout.write_all(crate::diagnostic::sarif::head(env!("CARGO_PKG_VERSION")).as_bytes());
        Self::Sarif { results: 0, partial: Vec::new(), notices: Vec::new(), more: 0, failed: false }
    }

    /// True for a SARIF log, which has no summary line.
    pub(crate) fn is_sarif(&self) -> bool {
        matches!(self, Self::Sarif { .. })
    }

    /// Says `message` of `file`, a word on the whole file rather than a finding in it: an error
    /// (a file named that could not be read), or a warning (a file found in a folder that kifu
    /// does not read, or whose fixes it did not write), which `-q` leaves out. In words on
    /// standard error, a JSON object (`"type": "error"` or `"warning"`), a GitHub annotation on
    /// the file, or a SARIF tool execution notification, as `renderer` writes findings.
    pub(crate) fn notice(&mut self, renderer: &Renderer, level: Severity, file: &str, message: &str) {
        if level == Severity::Warning && renderer.volume == Volume::Errors {
            return;
        }
        // Any write error is kept and reported by `output::exit`.
        match self {
            Self::Sarif { notices, more, failed, .. } => {
                *failed |= level == Severity::Error;
                if notices.len() < MAX_NOTICES {
                    notices.push(crate::diagnostic::sarif::notification(level, file, message));
                } else {
                    *more += 1;
                }
            }
            Self::Plain(out) => match renderer.format {
                MessageFormat::Json => {
                    let msg = serde_json::json!({ "type": level.as_str(), "file": file, "message": message });
                    let _ = writeln!(out, "{msg}");
                }
                MessageFormat::Github => {
                    let _ = writeln!(out, "{}", crate::diagnostic::sarif::github_notice(level, file, message));
                }
                _ if level == Severity::Warning => output::message(format_args!("warning: {message}")),
                _ => output::message(message),
            },
        }
    }

    /// Closes a SARIF log.
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        if let Self::Sarif { partial, .. } = self {
            if !partial.is_empty() {
                let rest = std::mem::take(partial);
                self.write_all(&rest)?;
                self.write_all(b"\n")?;
            }
        }
        if let Self::Sarif { notices, more, failed, .. } = self {
            if *more > 0 {
                let message = format!("{more} more notices like these were left out of the log");
                notices.push(serde_json::json!({ "level": "note", "message": { "text": message } }));
            }
            output::Stdout.write_all(crate::diagnostic::sarif::tail(notices, !*failed).as_bytes())?;
        }
        Ok(())
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Plain(out) => out.write(buf),
            Self::Sarif { results, partial, .. } => {
                partial.extend_from_slice(buf);
                let mut start = 0;
                while let Some(end) = partial[start..].iter().position(|&b| b == b'\n').map(|i| start + i) {
                    let line = &partial[start..end];
                    if !line.is_empty() {
                        if *results > 0 {
                            output::Stdout.write_all(b",")?;
                        }
                        output::Stdout.write_all(line)?;
                        *results += 1;
                    }
                    start = end + 1;
                }
                partial.drain(..start);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        output::Stdout.flush()
    }
}
