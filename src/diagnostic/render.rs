//! How a diagnostic is shown: its JSON message, its miette view over the record's text, and the
//! escaping of the input it quotes.

use std::fmt;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
#[cfg(feature = "serde")]
use serde::Serialize;

use super::{Applicability, Code, Diagnostic, Severity};

/// One line of `--message-format json`.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct JsonDiagnostic {
    /// Always `"diagnostic"`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
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
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Every label, the primary one first.
    pub labels: Vec<JsonLabel>,
    /// The edits of the likeliest repair, applied together (empty when there is none).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub fixes: Vec<JsonEdit>,
    /// `"safe"` when `fixes` is the one repair there is, `"unsafe"` otherwise.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub applicability: Option<Applicability>,
    /// Other repairs, each a list of edits, when no one is sure.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub alternatives: Vec<Vec<JsonEdit>>,
}

/// One edit of a fix in a [`JsonDiagnostic`]: the characters from `line:column` to
/// `end_line:end_column` (exclusive) become `replacement`.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct JsonEdit {
    /// 1-based line.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// Line where it ends.
    pub end_line: usize,
    /// Column where it ends (exclusive).
    pub end_column: usize,
    /// The new text.
    pub replacement: String,
}

/// A label in a [`JsonDiagnostic`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
    /// Where `text` is an excerpt with parts of long lines left out: for each piece kept, its
    /// offset in `text` and the 0-based character column in the file where it starts (see
    /// the excerpt's columns), so that reports give the file's column.
    /// Empty when `text` is whole lines.
    pub columns: &'a [(usize, usize)],
}

impl RecordSource<'_> {
    /// `text` as a report should show it ([`push_shown`]), and a space at the end, where a
    /// label on a missing field points: a report whose labels all fall inside the text shows
    /// it without the space ([`RecordSource::bare`]), so that a record copied from a report
    /// has no trailing space.
    pub fn display_text(text: &str) -> String {
        let mut shown = String::with_capacity(text.len() + 1);
        push_shown(&mut shown, text);
        shown.push(' ');
        shown
    }

    /// The text [`RecordSource::display_text`] made, without its last space when no label of
    /// `d` points past the end of `text` (the record it was made from).
    pub fn bare<'s>(shown: &'s str, text: &str, d: &Diagnostic) -> &'s str {
        if points_past_the_end(d, text.len()) {
            shown
        } else {
            shown.strip_suffix(' ').unwrap_or(shown)
        }
    }
}

/// True when a label of `d` points past the last character of a text of `len` bytes: at the
/// place a missing field would go, which a report shows as a space after the text.
pub fn points_past_the_end(d: &Diagnostic, len: usize) -> bool {
    d.labels.iter().any(|l| l.span.start >= len || l.span.end > len)
}

/// True for a character of the input that must not reach a terminal or a page as it is:
/// control characters but tab (ESC starts terminal commands, BEL rings, CR overwrites the
/// line), and the bidirectional controls, which reorder the text around them (U+202A to
/// U+202E, U+2066 to U+2069, the marks U+200E, U+200F and U+061C).
pub fn is_unsafe(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control() && c != '\t';
    }
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `text` with each unsafe character ([`is_unsafe`]) written as its escape, `\u{1b}`: how
/// messages, help and labels show the input they quote, in reports and in pages.
pub fn escape_unsafe(text: &str) -> std::borrow::Cow<'_, str> {
    // Printable ASCII and tabs are safe, and told so without decoding a character.
    if text.bytes().all(|b| matches!(b, b' '..=b'~' | b'\t')) || !text.chars().any(is_unsafe) {
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
        // The place a report's heading gives (miette reads it with no lines of context): in the
        // file's columns when the excerpt left parts of the line out.
        let at = span.offset();
        let column = match self.columns.iter().rev().find(|(kept, _)| *kept <= at) {
            Some(&(kept, column)) if context_lines_before == 0 && context_lines_after == 0 => {
                column + self.text.get(kept..at).map_or(0, |t| t.chars().count())
            }
            _ => inner.column(),
        };
        Ok(Box::new(MietteSpanContents::new_named(
            escape_unsafe(self.name).into_owned(),
            inner.data(),
            *inner.span(),
            inner.line() + self.line.saturating_sub(1),
            column,
            inner.line_count(),
        )))
    }
}

/// A [`Diagnostic`] joined to its source, as miette wants it.
#[derive(Debug)]
pub struct Report<'a> {
    pub(super) diagnostic: &'a Diagnostic,
    pub(super) source: &'a RecordSource<'a>,
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
