//! One diagnostic type for every format kifu reads, its miette view and its JSON form.

use std::fmt;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use serde::Serialize;

use crate::span::Span;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The record is not valid.
    Error,
    /// The record is valid, but written in a way worth fixing.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
        }
    }
}

/// A place in the record, with what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The characters this label points at (bytes of the record).
    pub span: Span,
    /// What is wrong or relevant there, in a few words.
    pub message: String,
    /// The one label on the characters at fault; the others explain.
    pub primary: bool,
}

/// A finding about one record: what is wrong, where, and how to fix it.
///
/// Spans are byte offsets into the record's text. Every diagnostic kifu makes has a stable
/// `code` (`sfen::rank-width`), exactly one primary label, and help that says how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, `format::name`.
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in plain words.
    pub message: String,
    /// The primary label first, then secondary ones.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with `code` and `message`, pointing at `span`.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, span, message)
    }

    /// A warning with `code` and `message`, pointing at `span`.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, span, message)
    }

    fn new(severity: Severity, code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            severity,
            message: message.into(),
            labels: vec![Label { span, message: String::new(), primary: true }],
            help: None,
        }
    }

    /// Sets the primary label's text.
    #[must_use]
    pub fn label(mut self, message: impl Into<String>) -> Self {
        if let Some(primary) = self.labels.iter_mut().find(|l| l.primary) {
            primary.message = message.into();
        }
        self
    }

    /// Adds a secondary label.
    #[must_use]
    pub fn with(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into(), primary: false });
        self
    }

    /// Sets the help.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The primary label's span.
    pub fn span(&self) -> Span {
        self.labels.iter().find(|l| l.primary).map_or_else(Span::default, |l| l.span)
    }

    /// True for an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// This diagnostic with every span moved `by` bytes (for a field parsed on its own).
    #[must_use]
    pub fn shifted(mut self, by: usize) -> Self {
        for label in &mut self.labels {
            label.span = label.span.shift(by);
        }
        self
    }

    /// A miette view of this diagnostic over `source`, for graphical rendering.
    pub fn report<'a>(&'a self, source: &'a RecordSource<'a>) -> Report<'a> {
        Report { diagnostic: self, source }
    }

    /// The JSON message of `--message-format json`, for a record on line `line` (1-based) of
    /// `file` whose text is `text` (one line).
    pub fn to_json(&self, file: &str, line: usize, text: &str) -> JsonDiagnostic {
        self.to_json_with(file, |at| {
            let (column, _) = Span::point(at).columns(text);
            (line, column)
        })
    }

    /// The JSON message, with `place` giving the 1-based line and character column of a byte
    /// offset (for texts of several lines, see [`crate::excerpt::LineIndex`]).
    pub fn to_json_with(&self, file: &str, place: impl Fn(usize) -> (usize, usize)) -> JsonDiagnostic {
        let (line, column) = place(self.span().start);
        let (end_line, end_column) = place(self.span().end);
        JsonDiagnostic {
            kind: "diagnostic",
            file: file.to_owned(),
            line,
            column,
            end_line,
            end_column,
            severity: self.severity,
            code: self.code,
            message: self.message.clone(),
            help: self.help.clone(),
            labels: self
                .labels
                .iter()
                .map(|l| {
                    let (line, column) = place(l.span.start);
                    let (end_line, end_column) = place(l.span.end);
                    JsonLabel { line, column, end_line, end_column, message: l.message.clone(), primary: l.primary }
                })
                .collect(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity.as_str(), self.code, escape_unsafe(&self.message))
    }
}

/// True when no error of `diagnostics` points into `span` (a point at the span's edge, such
/// as where a missing field would start, belongs to no field).
pub fn is_sound(span: Span, diagnostics: &[Diagnostic]) -> bool {
    !diagnostics.iter().filter(|d| d.is_error()).any(|d| {
        let e = d.span();
        if e.is_empty() {
            span.start < e.start && e.start < span.end
        } else {
            e.start < span.end && span.start < e.end
        }
    })
}

// moved to crate::checked
pub use crate::checked::Checked;

/// The syntax errors that kept a record from being read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The format: "SFEN", "FEN".
    pub format: &'static str,
    /// Every syntax error, in the order of the record.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.diagnostics.first() {
            Some(d) => write!(f, "invalid {}: {}", self.format, d.message)?,
            None => write!(f, "invalid {}", self.format)?,
        }
        if self.diagnostics.len() > 1 {
            write!(f, " (and {} more)", self.diagnostics.len() - 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// One line of `--message-format json`.
#[derive(Clone, Debug, Serialize)]
pub struct JsonDiagnostic {
    /// Always `"diagnostic"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The input's path, or `-` for standard input.
    pub file: String,
    /// 1-based line of the primary label.
    pub line: usize,
    /// 1-based character column of the primary label.
    pub column: usize,
    /// Line where the primary label ends.
    pub end_line: usize,
    /// Column where the primary label ends (exclusive).
    pub end_column: usize,
    /// `"error"` or `"warning"`.
    pub severity: Severity,
    /// Stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Every label, the primary one first.
    pub labels: Vec<JsonLabel>,
}

/// A label in a [`JsonDiagnostic`].
#[derive(Clone, Debug, Serialize)]
pub struct JsonLabel {
    /// 1-based line.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// Line where it ends.
    pub end_line: usize,
    /// Column where it ends (exclusive).
    pub end_column: usize,
    /// What it shows.
    pub message: String,
    /// True for the label on the characters at fault.
    pub primary: bool,
}

/// A record's text as miette's source: one line of a named file, at its real line number, so
/// that reports say `file:line:column`.
#[derive(Clone, Copy, Debug)]
pub struct RecordSource<'a> {
    /// The file's name as reports show it.
    pub name: &'a str,
    /// The record's text (one line, without its end of line).
    pub text: &'a str,
    /// 1-based line number of the record in its file.
    pub line: usize,
}

impl RecordSource<'_> {
    /// `text` as a report should show it ([`push_shown`]), and a space at the end, where a
    /// label on a missing field points.
    pub fn display_text(text: &str) -> String {
        let mut shown = String::with_capacity(text.len() + 1);
        push_shown(&mut shown, text);
        shown.push(' ');
        shown
    }
}

/// True for a character of the input that must not reach a terminal or a page as it is:
/// control characters but tab (ESC starts terminal commands, BEL rings, CR overwrites the
/// line), and the bidirectional controls, which reorder the text around them (U+202A to
/// U+202E, U+2066 to U+2069, the marks U+200E, U+200F and U+061C).
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `text` with each unsafe character ([`is_unsafe`]) written as its escape, `\u{1b}`: how
/// messages, help and labels show the input they quote, in reports and in pages.
pub fn escape_unsafe(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Appends the text of a record as a report shows it: each unsafe character ([`is_unsafe`])
/// becomes `?`, one per byte, so that spans into the text still fit.
pub fn push_shown(out: &mut String, text: &str) {
    for c in text.chars() {
        if is_unsafe(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
}

impl SourceCode for RecordSource<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let inner = self.text.read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            escape_unsafe(self.name).into_owned(),
            inner.data(),
            *inner.span(),
            inner.line() + self.line.saturating_sub(1),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// A [`Diagnostic`] joined to its source, as miette wants it.
#[derive(Debug)]
pub struct Report<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a RecordSource<'a>,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape_unsafe(&self.diagnostic.message))
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic.help.as_ref().map(|h| Box::new(escape_unsafe(h)) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.source.text.len();
        Some(Box::new(self.diagnostic.labels.iter().map(move |l| {
            // miette needs spans inside the text; a point just past the end stays a point.
            let start = l.span.start.min(len);
            let end = l.span.end.min(len).max(start);
            let text = (!l.message.is_empty()).then(|| escape_unsafe(&l.message).into_owned());
            let span = (start, end - start);
            if l.primary {
                LabeledSpan::new_primary_with_span(text, span)
            } else {
                LabeledSpan::new_with_span(text, span)
            }
        })))
    }
}
