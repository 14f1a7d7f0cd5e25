//! Checking files of line records: splitting bytes into lines (LF, CRLF or CR), the faults of
//! the bytes themselves (not UTF-8, a byte-order mark, a line far too long), and dispatch to
//! the format's checker.
//!
//! Memory stays flat whatever the input: [`LineReader`] hands out batches of whole lines, and
//! keeps at most [`MAX_KEPT`] bytes of any one line.

use std::io::{self, Read};

use crate::diagnostic::Diagnostic;
pub use crate::format::Format; // moved to crate::format
use crate::span::Span;

/// The longest line kifu parses; a longer one is reported without being parsed.
pub const MAX_LINE: usize = 4096;

/// How many bytes of an over-long line the reader keeps (enough to show its start).
pub const MAX_KEPT: usize = 256;

/// Most findings reported for one record; the rest are counted.
pub const MAX_FINDINGS: usize = 64;

/// The reader's buffered bytes, refilled when empty, reading again when a read is interrupted:
/// an empty slice at the end of the input.
pub(crate) fn fill(reader: &mut impl io::BufRead) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    reader.fill_buf()
}

/// One line of a batch: where its bytes are and how long it really was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineInfo {
    /// 1-based line number in its file.
    pub number: usize,
    /// Start of the kept bytes in [`Batch::data`].
    pub start: usize,
    /// End of the kept bytes.
    pub end: usize,
    /// The line's full length in bytes (more than `end - start` when it was cut).
    pub len: usize,
}

/// Whole lines read from a file: their bytes end to end, and where each one is.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// The lines' bytes, without their ends of line.
    pub data: Vec<u8>,
    /// The non-blank lines, in order.
    pub lines: Vec<LineInfo>,
    /// Bytes of input this batch consumed (for progress).
    pub consumed: u64,
}

impl Batch {
    /// The memory the batch takes: its bytes, and the places of its lines (short lines cost
    /// more in places than in bytes).
    pub fn cost(&self) -> usize {
        self.data.len() + self.lines.len() * std::mem::size_of::<LineInfo>()
    }

    /// The kept bytes of `line`.
    pub fn bytes(&self, line: &LineInfo) -> &[u8] {
        &self.data[line.start..line.end]
    }
}

/// Splits a byte stream into lines at LF, CRLF or CR, in batches.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    line: usize,
    /// The last byte handed out ended a line with CR: a LF that follows belongs to it.
    after_cr: bool,
    /// An over-long line being skipped: its kept start and its length so far.
    long: Option<(Vec<u8>, usize)>,
}

const READ_SIZE: usize = 64 * 1024;

impl<R: Read> LineReader<R> {
    /// A reader over `reader`.
    pub fn new(reader: R) -> Self {
        Self { reader, buf: Vec::with_capacity(READ_SIZE), pos: 0, eof: false, line: 0, after_cr: false, long: None }
    }

    fn fill(&mut self) -> io::Result<usize> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let old = self.buf.len();
        self.buf.resize(old + READ_SIZE, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n)
    }

    fn emit(&mut self, batch: &mut Batch, end: usize) {
        self.line += 1;
        let (kept, len) = match self.long.take() {
            Some((mut kept, len)) => {
                let extra = &self.buf[self.pos..end];
                let room = MAX_KEPT.saturating_sub(kept.len());
                kept.extend_from_slice(&extra[..extra.len().min(room)]);
                (Some(kept), len + extra.len())
            }
            None => (None, end - self.pos),
        };
        let start = batch.data.len();
        match kept {
            Some(kept) => batch.data.extend_from_slice(&kept),
            None => {
                let take = if len > MAX_LINE { MAX_KEPT } else { len };
                batch.data.extend_from_slice(&self.buf[self.pos..self.pos + take]);
            }
        }
        let end_kept = batch.data.len();
        let blank = batch.data[start..end_kept].iter().all(|b| matches!(b, b' ' | b'\t'));
        if len == 0 || (blank && len <= MAX_LINE) {
            batch.data.truncate(start); // blank lines are skipped
        } else {
            batch.lines.push(LineInfo { number: self.line, start, end: end_kept, len });
        }
        self.pos = end;
    }

    /// The next lines, about `target` bytes of them and their places ([`Batch::cost`]); `None`
    /// at the end of the input.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        let mut batch = Batch::default();
        loop {
            if self.pos >= self.buf.len() {
                if self.eof {
                    break;
                }
                let n = self.fill()?;
                batch.consumed += n as u64;
                continue;
            }
            if self.after_cr {
                self.after_cr = false;
                if self.buf[self.pos] == b'\n' {
                    self.pos += 1;
                    continue;
                }
            }
            match memchr::memchr2(b'\n', b'\r', &self.buf[self.pos..]) {
                Some(i) => {
                    let at = self.pos + i;
                    let cr = self.buf[at] == b'\r';
                    self.emit(&mut batch, at);
                    self.pos = at + 1;
                    self.after_cr = cr;
                    if batch.cost() >= target {
                        break;
                    }
                }
                None if self.eof => {
                    let end = self.buf.len();
                    self.emit(&mut batch, end);
                }
                None => {
                    let rest = self.buf.len() - self.pos;
                    if rest > MAX_LINE || self.long.is_some() {
                        // Keep the start of the line and count the rest without storing it.
                        let chunk = &self.buf[self.pos..];
                        let (mut kept, len) = self.long.take().unwrap_or_default();
                        let room = MAX_KEPT.saturating_sub(kept.len());
                        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
                        self.long = Some((kept, len + rest));
                        self.pos = self.buf.len();
                    }
                    let n = self.fill()?;
                    batch.consumed += n as u64;
                }
            }
        }
        if self.long.is_some() {
            let end = self.buf.len();
            self.emit(&mut batch, end);
        }
        Ok((!batch.lines.is_empty() || batch.consumed > 0).then_some(batch))
    }
}

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

const BOM: &[u8] = b"\xEF\xBB\xBF";

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
        "input::line-too-long",
        Span::new(0, shown),
        format!("this line is {len} bytes long, far longer than any record"),
    )
    .label("the line starts here")
    .help(format!(
        "kifu reads one record per line and parses lines of up to {MAX_LINE} bytes: is this the right file, with its line ends intact?"
    ))
}

/// Checks one line of `format`: `bytes` as kept by the reader, `len` its full length.
pub fn check_line(format: Format, number: usize, bytes: &[u8], len: usize) -> LineReport {
    let mut report = LineReport { line: number, ..LineReport::default() };
    if len > MAX_LINE {
        let text = String::from_utf8_lossy(bytes);
        let d = line_too_long(len, &text);
        report.text = d.span().slice(&text).to_owned();
        report.diagnostics.push(d);
        return report;
    }
    let mut pre = Vec::new();
    let mut bytes = bytes;
    if number == 1 && bytes.starts_with(BOM) {
        bytes = &bytes[BOM.len()..];
        pre.push(
            Diagnostic::warning("input::bom", Span::point(0), "the file starts with a byte-order mark")
                .label("an invisible U+FEFF before the record")
                .help("save the file as UTF-8 without a byte-order mark"),
        );
    }
    let (text, bad_utf8) = match std::str::from_utf8(bytes) {
        Ok(s) => (std::borrow::Cow::Borrowed(s), None),
        Err(_) => (String::from_utf8_lossy(bytes), Some(invalid_sequences(bytes))),
    };
    if let Some(bad) = &bad_utf8 {
        let mut shown: Vec<String> =
            bad.iter().flat_map(|(_, b)| b.iter().map(|b| format!("0x{b:02X}"))).take(8).collect();
        if bad.iter().map(|(_, b)| b.len()).sum::<usize>() > 8 {
            shown.push("…".to_owned());
        }
        let mut diag = Diagnostic::error(
            "input::not-utf8",
            bad[0].0,
            format!("the line has bytes that are not UTF-8 ({})", shown.join(" ")),
        )
        .label("not UTF-8")
        .help("kifu reads UTF-8 text (the notations themselves are ASCII): convert the file to UTF-8");
        for (span, _) in &bad[1..] {
            diag = diag.with(*span, "not UTF-8");
        }
        pre.push(diag);
    }
    let (mut diagnostics, read_as) = format.check_text(&text);
    report.dialect = read_as;
    if bad_utf8.is_some() {
        // The replacement characters are already reported as bad bytes.
        diagnostics.retain(|d| !d.span().slice(&text).chars().all(|c| c == '\u{FFFD}') || d.span().is_empty());
    }
    pre.append(&mut diagnostics);
    if pre.len() > MAX_FINDINGS {
        let rest = pre.len() - MAX_FINDINGS;
        pre.truncate(MAX_FINDINGS);
        let errors = pre.iter().any(Diagnostic::is_error);
        let span = Span::new(0, text.len());
        let note = format!("{rest} more findings in this record are not shown");
        pre.push(
            if errors {
                Diagnostic::error("input::too-many-findings", span, note)
            } else {
                Diagnostic::warning("input::too-many-findings", span, note)
            }
            .label("this record")
            .help("fix the findings above and check again"),
        );
    }
    if !pre.is_empty() {
        report.text = text.into_owned();
    }
    report.diagnostics = pre;
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], target: usize) -> Vec<(usize, String, usize)> {
        let mut reader = LineReader::new(input);
        let mut out = Vec::new();
        while let Some(batch) = reader.next_batch(target).expect("read") {
            for l in &batch.lines {
                out.push((l.number, String::from_utf8_lossy(batch.bytes(l)).into_owned(), l.len));
            }
        }
        out
    }

    #[test]
    fn splits_every_line_ending() {
        let got = lines(b"a\nb\r\nc\rd\n\ne", 1);
        let want: Vec<(usize, String, usize)> =
            vec![(1, "a".into(), 1), (2, "b".into(), 1), (3, "c".into(), 1), (4, "d".into(), 1), (6, "e".into(), 1)];
        assert_eq!(got, want);
        assert_eq!(lines(b"a\r", 1), vec![(1, "a".into(), 1)]);
        assert_eq!(lines(b"a\r\r\nb", 1), vec![(1, "a".into(), 1), (3, "b".into(), 1)]);
    }

    #[test]
    fn a_cr_at_a_read_boundary_still_pairs_with_its_lf() {
        // READ_SIZE bytes, the last a CR, then LF: one line end, not two.
        let mut input = vec![b'x'; READ_SIZE - 1];
        input.push(b'\r');
        input.extend_from_slice(b"\nnext");
        let got = lines(&input, usize::MAX);
        assert_eq!(got.len(), 2);
        assert_eq!((got[1].0, got[1].1.as_str()), (2, "next"));
    }

    #[test]
    fn a_batch_of_short_lines_is_cut_by_their_places_too() {
        // Two bytes a line, 32 bytes of place: a batch of 64 KiB holds about 2,000 lines.
        let input = "x\n".repeat(100_000);
        let mut reader = LineReader::new(input.as_bytes());
        let batch = reader.next_batch(64 * 1024).expect("read").expect("a batch");
        assert!(batch.cost() < 64 * 1024 + 64, "{}", batch.cost());
        assert!(batch.lines.len() < 64 * 1024 / std::mem::size_of::<LineInfo>(), "{}", batch.lines.len());
    }

    #[test]
    fn keeps_only_the_start_of_a_huge_line() {
        let mut input = vec![b'9'; 10 * 1024 * 1024];
        input.extend_from_slice(b"\nok");
        let got = lines(&input, 1 << 20);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1.len(), MAX_KEPT);
        assert_eq!(got[0].2, 10 * 1024 * 1024);
        assert_eq!((got[1].0, got[1].1.as_str()), (2, "ok"));
    }

    #[test]
    fn caps_the_findings_of_one_record() {
        // Seventy ranks of one unknown letter each: two findings a rank.
        let line = vec!["x"; 70].join("/") + " b - 1";
        let r = check_line(Format::Sfen(crate::sfen::DialectChoice::Auto), 7, line.as_bytes(), line.len());
        assert_eq!(r.diagnostics.len(), MAX_FINDINGS + 1);
        let last = r.diagnostics.last().expect("a note");
        assert_eq!(last.code, "input::too-many-findings");
        assert!(last.is_error() && last.message.ends_with("more findings in this record are not shown"));
    }

    #[test]
    fn reports_bytes_that_are_not_utf8() {
        let r = check_line(Format::Sfen(crate::sfen::DialectChoice::Auto), 1, b"9/9/9/9/9/9/9/9/9 b \xFF", 21);
        assert_eq!(r.diagnostics[0].code, "input::not-utf8");
        assert!(!r.is_valid());
    }
}
