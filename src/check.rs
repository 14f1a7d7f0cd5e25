//! Checking files of line records: splitting bytes into lines (LF, CRLF or CR), the faults of
//! the bytes themselves (their encoding, a byte-order mark, bytes that are not text, a line far
//! too long), and dispatch to the format's checker.
//!
//! Memory stays flat whatever the input: [`LineReader`](crate::input::LineReader) hands out batches of whole lines, and
//! keeps at most [`MAX_KEPT`](crate::input::MAX_KEPT) bytes of any one line.

use crate::diagnostic::codes;
use crate::diagnostic::Diagnostic;
use crate::format::Format;
use crate::input::{Line, Reading};
use crate::span::Span;

/// Most findings reported for one record; the rest are counted.
pub const MAX_FINDINGS: usize = 64;

/// What checking one line found.
#[derive(Clone, Debug, Default)]
pub struct LineReport {
    /// 1-based line number.
    pub line: usize,
    /// The text the diagnostics' spans refer to (the line, decoded; only kept when there are
    /// findings).
    pub text: String,
    /// Every finding, errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// The format and dialect the record was read in, when known ([`Format::read_as`]).
    pub dialect: Option<Format>,
}

impl LineReport {
    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// How many findings are warnings.
    pub fn warnings(&self) -> usize {
        self.diagnostics.iter().filter(|d| !d.is_error()).count()
    }
}

/// The findings of one record as they are shown: the first [`MAX_FINDINGS`], then one that
/// says how many more there are, on the record (`span`), an error when one of those shown is.
pub fn capped(findings: &[Diagnostic], span: Span) -> std::borrow::Cow<'_, [Diagnostic]> {
    if findings.len() <= MAX_FINDINGS {
        return std::borrow::Cow::Borrowed(findings);
    }
    let mut shown = findings[..MAX_FINDINGS].to_vec();
    let rest = findings.len() - MAX_FINDINGS;
    let note = format!("{rest} more findings in this record are not shown");
    shown.push(
        if shown.iter().any(Diagnostic::is_error) {
            Diagnostic::error(codes::input::TOO_MANY_FINDINGS, span, note)
        } else {
            Diagnostic::warning(codes::input::TOO_MANY_FINDINGS, span, note)
        }
        .label("this record")
        .help("fix the findings above and check again"),
    );
    std::borrow::Cow::Owned(shown)
}

/// Checks one line of `format`, read on its own: `bytes` as kept by the reader, `len` its full
/// length. A line that is not UTF-8 is read in the legacy encoding that fits it.
pub fn check_line(format: Format, number: usize, bytes: &[u8], len: usize) -> LineReport {
    check_line_in(format, Line::of(number, bytes, len), &Reading::default())
}

/// Checks `line` of `format` in a file read as `reading` says ([`crate::input::Batch::reading`]).
pub fn check_line_in(format: Format, line: Line<'_>, reading: &Reading) -> LineReport {
    check_line_with(line, reading, |text| {
        let (diagnostics, read_as) = format.check_text(text);
        (diagnostics, read_as, ())
    })
    .0
}

/// Checks one line as [`check_line_in`] does, with `check` reading its text (without a
/// byte-order mark): `check` gives the findings, the format and dialect it read the record as,
/// and what else its caller wants of the one reading (a position), which comes back beside the
/// report. A line that is not read (too long, not text) is not given to `check`.
pub fn check_line_with<T>(
    line: Line<'_>,
    reading: &Reading,
    check: impl FnOnce(&str) -> (Vec<Diagnostic>, Option<Format>, T),
) -> (LineReport, Option<T>) {
    let mut report = LineReport { line: line.number, ..LineReport::default() };
    let (text, mut pre, not_utf8) = match crate::input::line_bytes(line, reading) {
        crate::input::LineBytes::Unread { text, finding } => {
            report.text = text;
            report.diagnostics.push(finding);
            return (report, None);
        }
        crate::input::LineBytes::Text { text, findings, not_utf8 } => (text, findings, not_utf8),
    };
    let (mut diagnostics, read_as, read) = check(&text);
    report.dialect = read_as;
    if not_utf8 {
        // The replacement characters are already reported as bad bytes.
        diagnostics.retain(|d| !d.span().slice(&text).chars().all(|c| c == '\u{FFFD}') || d.span().is_empty());
    }
    pre.append(&mut diagnostics);
    if pre.len() > MAX_FINDINGS {
        pre = capped(&pre, Span::new(0, text.len())).into_owned();
    }
    if !pre.is_empty() {
        report.text = text.into_owned();
    }
    report.diagnostics = pre;
    (report, Some(read))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_the_findings_of_one_record() {
        // Seventy ranks of one unknown letter each: two findings a rank.
        let line = vec!["x"; 70].join("/") + " b - 1";
        let r = check_line(Format::Sfen(crate::sfen::DialectChoice::Auto), 7, line.as_bytes(), line.len());
        assert_eq!(r.diagnostics.len(), MAX_FINDINGS + 1);
        let last = r.diagnostics.last().expect("a note");
        assert_eq!(last.code, crate::diagnostic::codes::input::TOO_MANY_FINDINGS);
        assert!(last.is_error() && last.message.ends_with("more findings in this record are not shown"));
    }

    #[test]
    fn reports_bytes_that_are_not_utf8_in_a_utf8_file() {
        let utf8 = Reading { encoding: Some(crate::input::Encoding::Utf8), ..Reading::default() };
        let line = b"9/9/9/9/9/9/9/9/9 b \xFF";
        let r = check_line_in(Format::Sfen(crate::sfen::DialectChoice::Auto), Line::of(1, line, 21), &utf8);
        assert_eq!(r.diagnostics[0].code, crate::diagnostic::codes::input::NOT_UTF8);
        assert!(!r.is_valid());
    }

    /// Every report on the records of the fixtures, and on each one-character edit of a few, is
    /// drawn without colour as miette draws it (or left to miette).
    #[test]
    #[cfg(feature = "cli")]
    fn reports_are_drawn_as_miette_draws_them() {
        let mut records: Vec<(Format, String)> = Vec::new();
        for (folder, format) in [
            ("tests/fixtures/sfen/err", Format::Sfen(crate::sfen::DialectChoice::Auto)),
            ("tests/fixtures/fen/err", Format::Fen(crate::fen::Dialect::Standard)),
        ] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
            for entry in std::fs::read_dir(dir).expect("the fixtures") {
                let text = std::fs::read_to_string(entry.expect("an entry").path()).unwrap_or_default();
                records.extend(text.lines().map(|l| (format, l.to_owned())));
            }
        }
        let sfen = Format::Sfen(crate::sfen::DialectChoice::Auto);
        let fen = Format::Fen(crate::fen::Dialect::Standard);
        for (format, record, alphabet) in [
            (sfen, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", &b"1/ +bBkK-"[..]),
            (sfen, "4k4/4R4/9/9/9/9/9/9/4K4 b 2P 1", b"1/ pP9w"),
            (fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", b"1/ -kKqQ8"),
        ] {
            records.extend(crate::notation::grid::one_edit_away(record, alphabet).into_iter().map(|r| (format, r)));
        }
        let (mut reports, mut taken) = (0, 0);
        for (i, (format, record)) in records.iter().enumerate() {
            for d in format.check_text(record).0 {
                reports += 1;
                taken += usize::from(crate::diagnostic::draws_as_miette(&d, record, 1 + i % 1200));
            }
        }
        // The drawing here must take nearly all of them, or it saves nothing.
        assert!(reports > 2000 && taken * 100 > reports * 95, "{taken} of {reports} reports drawn here");
    }
}
