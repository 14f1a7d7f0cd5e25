//! The findings a line gets from its bytes, before any grammar: a byte-order mark, the file's
//! encoding when it is not UTF-8, bytes that are not text, a line far too long.

use crate::diagnostic::codes;
use std::borrow::Cow;

use super::decode::{LineText, Reading};
use super::lines::{Line, MAX_LINE};
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The UTF-8 byte-order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Each run of bytes that is not UTF-8, as the span its replacement characters take in the
/// lossy decoding (one run: the faults side by side), and the bytes themselves.
fn invalid_runs(mut bytes: &[u8]) -> Vec<(Span, Vec<u8>)> {
    let mut out: Vec<(Span, Vec<u8>)> = Vec::new();
    let mut at = 0; // offset in the lossy text
    while let Err(e) = std::str::from_utf8(bytes) {
        let valid = e.valid_up_to();
        let n = e.error_len().unwrap_or(bytes.len() - valid);
        at += valid;
        let width = '\u{FFFD}'.len_utf8();
        let bad = &bytes[valid..valid + n];
        match out.last_mut() {
            Some((span, run)) if valid == 0 && span.end == at => {
                span.end += width;
                run.extend_from_slice(bad);
            }
            _ => out.push((Span::new(at, at + width), bad.to_vec())),
        }
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
pub(crate) fn bom_finding() -> Diagnostic {
    Diagnostic::warning(codes::input::BOM, Span::point(0), "the file starts with a byte-order mark")
        .label("an invisible U+FEFF before the record")
        .help("save the file as UTF-8 without a byte-order mark")
}

/// Most runs of faulty bytes labelled on one line; the others are counted in the message.
const MAX_RUNS: usize = 8;

/// The finding on the runs of bytes that are not UTF-8 (at least one), in a file that is
/// UTF-8: one label a run, for the first [`MAX_RUNS`].
fn not_utf8_finding(bad: &[(Span, Vec<u8>)]) -> Diagnostic {
    let all = bad.iter().map(|(_, b)| b.len()).sum::<usize>();
    let mut shown: Vec<String> = bad.iter().flat_map(|(_, b)| b.iter().map(|b| format!("0x{b:02X}"))).take(8).collect();
    if all > 8 {
        shown.push(format!("… {all} in all"));
    }
    let first = bad.first().map_or(Span::point(0), |(span, _)| *span);
    let mut diag = Diagnostic::error(
        codes::input::NOT_UTF8,
        first,
        format!("the line has bytes that are not UTF-8 ({})", shown.join(" ")),
    )
    .label("not UTF-8")
    .help("the file is otherwise UTF-8, so these bytes are damaged: write these characters again in UTF-8");
    for (span, _) in bad.iter().skip(1).take(MAX_RUNS - 1) {
        diag = diag.with(*span, "not UTF-8");
    }
    diag
}

/// The finding on a line where the file turns out not to be text, `text` its start.
fn not_text_finding(text: &str) -> Diagnostic {
    let shown = text.char_indices().nth(60).map_or(text.len(), |(at, _)| at);
    Diagnostic::error(
        codes::input::NOT_TEXT,
        Span::new(0, shown),
        "the file is not text from this line on: kifu reads no further",
    )
    .label("control codes and bytes of no encoding")
    .help("kifu reads text files of records, one per line: is this the right file?")
}

/// A line's bytes read as text, before any grammar.
#[derive(Clone, Debug)]
pub enum LineBytes<'a> {
    /// The line is not read: it is longer than [`MAX_LINE`], or not text. `text` is the start
    /// its finding shows.
    Unread {
        /// The start of the line, as text.
        text: String,
        /// The finding (`input::line-too-long`, `input::not-text`).
        finding: Diagnostic,
    },
    /// The line as text (without a byte-order mark; read in the file's encoding, or with
    /// U+FFFD for bytes that are not UTF-8 in a UTF-8 file), and the findings on its bytes.
    Text {
        /// The text.
        text: Cow<'a, str>,
        /// `input::bom`, `input::encoding`, `input::not-utf8`.
        findings: Vec<Diagnostic>,
        /// Some bytes were not UTF-8 in a UTF-8 file (and are U+FFFD in `text`).
        not_utf8: bool,
    },
}

/// Reads `line` of a file read as `reading` says.
pub fn line_bytes<'a>(line: Line<'a>, reading: &Reading) -> LineBytes<'a> {
    let Line { number, bytes, len, text } = line;
    if len > MAX_LINE {
        let text = String::from_utf8_lossy(bytes);
        let finding = line_too_long(len, &text);
        let text = finding.span().slice(&text).to_owned();
        return LineBytes::Unread { text, finding };
    }
    let mut findings = Vec::new();
    let (mut bytes, mut text) = (bytes, text);
    if number == 1 && bytes.starts_with(BOM) {
        bytes = &bytes[BOM.len()..];
        text = text.and_then(|t| t.get(BOM.len()..));
        findings.push(bom_finding());
    }
    if reading.not_text == Some(number) {
        return not_text(bytes);
    }
    match reading.line(number, bytes, text, codes::input::ENCODING) {
        LineText::NotText => not_text(bytes),
        LineText::Text(text, note) => {
            findings.extend(note);
            LineBytes::Text { text, findings, not_utf8: false }
        }
        LineText::Damaged(text) => {
            findings.push(not_utf8_finding(&invalid_runs(bytes)));
            LineBytes::Text { text: Cow::Owned(text), findings, not_utf8: true }
        }
    }
}

/// A line that is not text: its start, and the finding.
fn not_text(bytes: &[u8]) -> LineBytes<'_> {
    let text = String::from_utf8_lossy(bytes);
    let finding = not_text_finding(&text);
    let text = finding.span().slice(&text).to_owned();
    LineBytes::Unread { text, finding }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_bom_only_on_the_first_line() {
        let LineBytes::Text { text, findings, .. } = line_bytes(Line::of(1, b"\xEF\xBB\xBFab", 5), &Reading::default())
        else {
            panic!()
        };
        assert_eq!((text.as_ref(), findings[0].code), ("ab", crate::diagnostic::codes::input::BOM));
        let LineBytes::Text { findings, .. } = line_bytes(Line::of(2, b"\xEF\xBB\xBFab", 5), &Reading::default())
        else {
            panic!()
        };
        assert!(findings.is_empty());
    }

    #[test]
    fn finds_bytes_that_are_not_utf8() {
        let utf8 = Reading { encoding: Some(crate::input::Encoding::Utf8), ..Reading::default() };
        let LineBytes::Text { text, findings, not_utf8 } = line_bytes(Line::of(1, b"a\xFFb\xFE", 4), &utf8) else {
            panic!()
        };
        assert!(not_utf8);
        assert_eq!(text, "a\u{FFFD}b\u{FFFD}");
        assert_eq!(findings[0].code, crate::diagnostic::codes::input::NOT_UTF8);
        assert_eq!(findings[0].message, "the line has bytes that are not UTF-8 (0xFF 0xFE)");
    }

    #[test]
    fn faults_side_by_side_are_one_label() {
        let utf8 = Reading { encoding: Some(crate::input::Encoding::Utf8), ..Reading::default() };
        let line = [b"ab".as_slice(), &[0x82; 18], b"c\xFF"].concat();
        let LineBytes::Text { text, findings, .. } = line_bytes(Line::of(2, &line, line.len()), &utf8) else {
            panic!()
        };
        let spans: Vec<&str> = findings[0].labels.iter().map(|l| l.span.slice(&text)).collect();
        assert_eq!(spans, ["\u{FFFD}".repeat(18), "\u{FFFD}".to_owned()]);
        assert!(findings[0].message.ends_with("… 19 in all)"), "{}", findings[0].message);
    }

    #[test]
    fn a_line_alone_is_read_in_the_encoding_that_fits_it() {
        // `ｂ` (full-width) in Shift_JIS.
        let LineBytes::Text { text, findings, not_utf8 } =
            line_bytes(Line::of(3, b"9 \x82\x82 -", 6), &Reading::default())
        else {
            panic!()
        };
        assert!(!not_utf8);
        assert_eq!(text, "9 ｂ -");
        assert_eq!(findings.len(), 1);
        assert_eq!((findings[0].code, findings[0].span().slice(&text)), (codes::input::ENCODING, "ｂ"));
        assert_eq!(findings[0].message, "this file is not in UTF-8: it was read as Shift_JIS");
        let noise: Vec<u8> = (0..64u8).map(|b| b.wrapping_mul(37)).chain([0xFF]).collect();
        let LineBytes::Unread { finding, .. } = line_bytes(Line::of(3, &noise, noise.len()), &Reading::default())
        else {
            panic!()
        };
        assert_eq!(finding.code, codes::input::NOT_TEXT);
    }

    #[test]
    fn a_long_line_is_not_read() {
        let LineBytes::Unread { finding, .. } = line_bytes(Line::of(1, b"xyz", MAX_LINE + 1), &Reading::default())
        else {
            panic!()
        };
        assert_eq!(finding.code, crate::diagnostic::codes::input::LINE_TOO_LONG);
    }
}
