//! One diagnostic type for every format kifu reads, its miette view and its JSON form.

use std::fmt;

#[cfg(feature = "serde")]
use serde::Serialize;

use crate::span::Span;
pub use codes::Code;

pub mod codes;
#[cfg(feature = "config")]
pub mod config;
mod draw;
machinery! { mod excerpt; }
mod render;
machinery! { mod sarif; }
pub mod select;
mod vet;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
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

/// How sure a fix is to be what the author meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Applicability {
    /// The one repair there is: `kifu check --fix` applies it.
    Safe,
    /// One of several repairs, or one that may change the meaning: applied only on request.
    Unsafe,
}

/// One replacement in a record's text: the bytes of `span` become `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    /// The bytes replaced (empty for an insertion).
    pub span: Span,
    /// What they become (empty for a deletion).
    pub replacement: String,
}

/// A repair of a finding: edits applied together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// The edits, in the order of the text, none overlapping.
    pub edits: Vec<Edit>,
    /// Whether it may be applied without asking.
    pub applicability: Applicability,
}

impl Fix {
    /// One edit: `span` becomes `replacement`.
    pub fn replace(span: Span, replacement: impl Into<String>, applicability: Applicability) -> Self {
        Self { edits: vec![Edit { span, replacement: replacement.into() }], applicability }
    }

    /// `text` with this fix applied, or `None` when an edit falls outside `text` or between
    /// the bytes of a character, or edits overlap.
    pub fn apply(&self, text: &str) -> Option<String> {
        apply_edits(text, &self.edits)
    }
}

/// `text` with `edits` (in the order of the text, none overlapping) applied together, or
/// `None` when an edit falls outside `text` or between the bytes of a character, or edits
/// overlap.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 8);
    let mut at = 0;
    for edit in edits {
        let (start, end) = (edit.span.start, edit.span.end);
        if start < at || end < start || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return None;
        }
        out.push_str(text.get(at..start)?);
        out.push_str(&edit.replacement);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// A finding about one record: what is wrong, where, and how to fix it.
///
/// Spans are byte offsets into the record's text. Every diagnostic kifu makes has a stable
/// `code` (`sfen::rank-width`), exactly one primary label, and help that says how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, `format::name`.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in plain words.
    pub message: String,
    /// The primary label first, then secondary ones.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// Repairs a program can apply, the likeliest first; several only when no one is sure.
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// An error with `code` and `message`, pointing at `span`.
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, span, message)
    }

    /// A warning with `code` and `message`, pointing at `span`.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, span, message)
    }

    fn new(severity: Severity, code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            severity,
            message: message.into(),
            labels: vec![Label { span, message: String::new(), primary: true }],
            help: None,
            fixes: Vec::new(),
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

    /// Adds a repair (the likeliest first).
    #[must_use]
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }

    /// The fix `kifu check --fix` may apply unasked: the only one, and safe.
    pub fn safe_fix(&self) -> Option<&Fix> {
        match self.fixes.as_slice() {
            [fix] if fix.applicability == Applicability::Safe => Some(fix),
            _ => None,
        }
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
        for edit in self.fixes.iter_mut().flat_map(|f| &mut f.edits) {
            edit.span = edit.span.shift(by);
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
    /// offset (for texts of several lines, see [`excerpt::LineIndex`]).
    pub fn to_json_with(&self, file: &str, place: impl Fn(usize) -> (usize, usize)) -> JsonDiagnostic {
        let (line, column) = place(self.span().start);
        let (end_line, end_column) = place(self.span().end);
        let edits = |fix: &Fix| -> Vec<JsonEdit> {
            fix.edits
                .iter()
                .map(|e| {
                    let (line, column) = place(e.span.start);
                    let (end_line, end_column) = place(e.span.end);
                    JsonEdit { line, column, end_line, end_column, replacement: e.replacement.clone() }
                })
                .collect()
        };
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
            fixes: self.fixes.first().map(edits).unwrap_or_default(),
            applicability: self.fixes.first().map(|f| f.applicability),
            alternatives: self.fixes.iter().skip(1).map(edits).collect(),
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

pub use draw::draw_plain;
#[cfg(all(test, feature = "cli"))]
pub(crate) use draw::draws_as_miette;
#[cfg(feature = "cli")]
pub use draw::graphical_handler;
pub use excerpt::LineIndex;
pub use render::{escape_unsafe, is_unsafe, push_shown, JsonDiagnostic, JsonEdit, JsonLabel, RecordSource, Report};
pub use sarif::SarifWriter;
pub use vet::{vet_fixes, MAX_VETTED};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fix_applies_its_edits_in_order_and_refuses_overlaps() {
        let fix = Fix {
            edits: vec![
                Edit { span: Span::new(1, 2), replacement: "b".into() },
                Edit { span: Span::new(3, 3), replacement: " 0 1".into() },
            ],
            applicability: Applicability::Safe,
        };
        assert_eq!(fix.apply("axc").as_deref(), Some("abc 0 1"));
        assert_eq!(fix.apply("ax").as_deref(), None, "an edit past the end");
        let overlapping = Fix {
            edits: vec![
                Edit { span: Span::new(0, 2), replacement: String::new() },
                Edit { span: Span::new(1, 2), replacement: "z".into() },
            ],
            applicability: Applicability::Unsafe,
        };
        assert_eq!(overlapping.apply("abc"), None);
        assert_eq!(Fix::replace(Span::new(0, 3), "é", Applicability::Safe).apply("abc").as_deref(), Some("é"));
        assert_eq!(Fix::replace(Span::new(0, 1), "x", Applicability::Safe).apply("éa"), None, "inside a character");
    }

    #[test]
    fn only_a_lone_safe_fix_is_applied_unasked() {
        let one = Fix::replace(Span::new(0, 1), "x", Applicability::Safe);
        let d = Diagnostic::error(codes::sfen::SYNTAX, Span::new(0, 1), "m");
        assert!(d.safe_fix().is_none());
        let d = d.fix(one.clone());
        assert_eq!(d.safe_fix(), Some(&one));
        let d = d.fix(one).shifted(2);
        assert!(d.safe_fix().is_none(), "two repairs: no one is sure");
        assert_eq!(d.fixes[0].edits[0].span, Span::new(2, 3));
    }

    #[test]
    fn unsafe_characters_are_the_controls_but_tab_and_the_bidirectional_ones() {
        // The ASCII test that comes first says what the general one says.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let bidi =
                matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}');
            assert_eq!(is_unsafe(c), (c.is_control() && c != '\t') || bidi, "{c:?}");
        }
        for text in ["plain text\twith a tab", "…", "a\u{1b}[31m", "\u{202E}x", "\u{85}", "~\u{7f}"] {
            let escaped = escape_unsafe(text);
            assert!(!escaped.chars().any(is_unsafe), "{text:?}");
            assert_eq!(matches!(escaped, std::borrow::Cow::Borrowed(_)), !text.chars().any(is_unsafe), "{text:?}");
        }
    }
}
