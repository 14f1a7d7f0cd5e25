//! The findings a line gets from its bytes, before any grammar: a byte-order mark, bytes that
//! are not UTF-8, a line far too long.

use crate::diagnostic::codes;
use std::borrow::Cow;

use super::lines::MAX_LINE;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The UTF-8 byte-order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Each run of bytes that is not UTF-8, as the span its replacement character takes in the
/// lossy decoding, and the bytes themselves.
fn invalid_sequences(mut bytes: &[u8]) -> Vec<(Span, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0; // offset in the lossy text
    while let Err(e) = std::str::from_utf8(bytes) {
        let valid = e.valid_up_to();
        let n = e.error_len().unwrap_or(bytes.len() - valid);
        at += valid;
        let width = '\u{FFFD}'.len_utf8();
        out.push((Span::new(at, at + width), bytes[valid..valid + n].to_vec()));
        at += width;
        bytes = &bytes[valid + n..];
    }
    out
}

/// The finding on a line of `len` bytes, longer than [`MAX_LINE`], whose text starts with
/// `start`: its label covers the first 60 characters.
pub fn line_too_long(len: usize, start: &str) -> Diagnostic {
    let shown = start.char_indices().nth(60).map_or(start.len(), |(at, _)| at);
    Diagnostic::error(
        codes::input::LINE_TOO_LONG,
        Span::new(0, shown),
        format!("this line is {len} bytes long, far longer than any record"),
    )
    .label("the line starts here")
    .help(format!(
        "kifu reads one record per line and parses lines of up to {MAX_LINE} bytes: is this the right file, with its line ends intact?"
    ))
}

/// The finding on a file that starts with a byte-order mark.
fn bom_finding() -> Diagnostic {
    Diagnostic::warning(codes::input::BOM, Span::point(0), "the file starts with a byte-order mark")
        .label("an invisible U+FEFF before the record")
        .help("save the file as UTF-8 without a byte-order mark")
}

/// The finding on the runs of bytes that are not UTF-8 (at least one).
fn not_utf8_finding(bad: &[(Span, Vec<u8>)]) -> Diagnostic {
    let mut shown: Vec<String> = bad.iter().flat_map(|(_, b)| b.iter().map(|b| format!("0x{b:02X}"))).take(8).collect();
    if bad.iter().map(|(_, b)| b.len()).sum::<usize>() > 8 {
        shown.push("…".to_owned());
    }
    let first = bad.first().map_or(Span::point(0), |(span, _)| *span);
    let mut diag = Diagnostic::error(
        codes::input::NOT_UTF8,
        first,
        format!("the line has bytes that are not UTF-8 ({})", shown.join(" ")),
    )
    .label("not UTF-8")
    .help("kifu reads UTF-8 text (the notations themselves are ASCII): convert the file to UTF-8");
    for (span, _) in bad.iter().skip(1) {
        diag = diag.with(*span, "not UTF-8");
    }
    diag
}

/// A line's bytes read as text, before any grammar.
#[derive(Clone, Debug)]
pub enum LineBytes<'a> {
    /// The line is longer than [`MAX_LINE`]: not parsed. `text` is the start its finding shows.
    TooLong {
        /// The start of the line, as text.
        text: String,
        /// The finding (`input::line-too-long`).
        finding: Diagnostic,
    },
    /// The line as text (without a byte-order mark; bytes that are not UTF-8 replaced by
    /// U+FFFD), and the findings on its bytes.
    Text {
        /// The text.
        text: Cow<'a, str>,
        /// `input::bom`, `input::not-utf8`.
        findings: Vec<Diagnostic>,
        /// Some bytes were not UTF-8 (and are U+FFFD in `text`).
        not_utf8: bool,
    },
}

/// Reads line `number` (1-based): `bytes` as the reader kept them, `len` its full length.
pub fn line_bytes(number: usize, bytes: &[u8], len: usize) -> LineBytes<'_> {
    if len > MAX_LINE {
        let text = String::from_utf8_lossy(bytes);
        let finding = line_too_long(len, &text);
        let text = finding.span().slice(&text).to_owned();
        return LineBytes::TooLong { text, finding };
    }
    let mut findings = Vec::new();
    let mut bytes = bytes;
    if number == 1 && bytes.starts_with(BOM) {
        bytes = &bytes[BOM.len()..];
        findings.push(bom_finding());
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => LineBytes::Text { text: Cow::Borrowed(s), findings, not_utf8: false },
        Err(_) => {
            findings.push(not_utf8_finding(&invalid_sequences(bytes)));
            LineBytes::Text { text: String::from_utf8_lossy(bytes), findings, not_utf8: true }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_bom_only_on_the_first_line() {
        let LineBytes::Text { text, findings, .. } = line_bytes(1, b"\xEF\xBB\xBFab", 5) else { panic!() };
        assert_eq!((text.as_ref(), findings[0].code), ("ab", crate::diagnostic::codes::input::BOM));
        let LineBytes::Text { findings, .. } = line_bytes(2, b"\xEF\xBB\xBFab", 5) else { panic!() };
        assert!(findings.is_empty());
    }

    #[test]
    fn finds_bytes_that_are_not_utf8() {
        let LineBytes::Text { text, findings, not_utf8 } = line_bytes(1, b"a\xFFb\xFE", 4) else { panic!() };
        assert!(not_utf8);
        assert_eq!(text, "a\u{FFFD}b\u{FFFD}");
        assert_eq!(findings[0].code, crate::diagnostic::codes::input::NOT_UTF8);
        assert_eq!(findings[0].message, "the line has bytes that are not UTF-8 (0xFF 0xFE)");
    }

    #[test]
    fn a_long_line_is_not_read() {
        let LineBytes::TooLong { finding, .. } = line_bytes(1, b"xyz", MAX_LINE + 1) else { panic!() };
        assert_eq!(finding.code, crate::diagnostic::codes::input::LINE_TOO_LONG);
    }
}
