//! A JSON input read in pieces, in bounded memory: JSON Lines one record at a time (lines
//! longer than [`MAX_LINE`] are reported, not read), any other JSON as one document of at
//! most [`MAX_DOCUMENT`] bytes.

use crate::diagnostic::codes;
use std::io::{self, BufReader, Read};

use super::reader::values;
use super::reader::Node;
use crate::diagnostic::excerpt::LineIndex;
use crate::diagnostic::Diagnostic;
use crate::input::decode::{encoding_note, one_record, LineDecoder, LineLegacy};
use crate::input::{Utf8Stream, MAX_KEPT, MAX_LINE};
use crate::span::Span;

/// The largest JSON document read whole, in bytes: a file that is not JSON Lines (one value a
/// line) is read as one document, and a longer one is reported (`json::too-large`) without
/// being read. JSON Lines files have no such limit.
///
/// The tree of a document takes up to some sixty times its text: 512 KiB keeps it well
/// within the 64 MiB kifu promises.
pub const MAX_DOCUMENT: usize = 512 * 1024;

/// A part of a JSON input, as [`Pieces`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text to read: one line of a JSON Lines file (without its end of line), or a whole
    /// document, starting on 1-based line `line` of the file.
    Text {
        /// The text, decoded: UTF-8, or the legacy encoding the file was read in (see
        /// [`Pieces`]).
        text: String,
        /// Its first line's number.
        line: usize,
        /// The findings on its bytes (spans in `text`): the file's byte-order mark, and the
        /// encoding it was read in (on the first piece that told).
        notes: Vec<Diagnostic>,
    },
    /// A line of a JSON Lines file longer than [`MAX_LINE`] bytes: its start and its length.
    LongLine {
        /// The line's first [`MAX_KEPT`] bytes, decoded.
        start: String,
        /// Its number.
        line: usize,
        /// Its length in bytes.
        len: usize,
    },
    /// A document longer than [`MAX_DOCUMENT`] bytes: its start (nothing of it is read).
    TooLarge {
        /// The document's first [`MAX_KEPT`] bytes, decoded.
        start: String,
    },
}

impl Piece {
    /// The text a report on this piece shows, its first line's number, and the diagnostic of
    /// a piece that is not read (a line or a document too long).
    pub fn text(&self) -> (&str, usize, Option<Diagnostic>) {
        match self {
            Self::Text { text, line, .. } => (text, *line, None),
            Self::LongLine { start, line, len } => (start, *line, Some(crate::input::line_too_long(*len, start))),
            Self::TooLarge { start } => {
                let first = start.chars().next().map_or(0, char::len_utf8);
                let d = Diagnostic::error(
                    codes::json::TOO_LARGE,
                    Span::new(0, first),
                    format!("this JSON document is longer than {} KiB, the most kifu reads whole", MAX_DOCUMENT >> 10),
                )
                .label("the document starts here")
                .help("write one position per line (JSON Lines), which kifu reads however long the file is");
                (start, 1, Some(d))
            }
        }
    }
}

/// The pieces of a JSON input: its lines when it is JSON Lines, else the whole document.
///
/// The bytes are decoded as the line formats' are: a file that starts with a UTF-16
/// byte-order mark is UTF-16; else a line that is UTF-8 is read as UTF-8, and one that is not in
/// the legacy encoding that fits the file's first such line (Shift_JIS, CP437, ISO-8859-1). The
/// first piece so read carries the one finding that names the encoding (`input::encoding`); a
/// UTF-8 byte-order mark is dropped, with its own finding (`input::bom`).
///
/// A file is JSON Lines when its first non-blank line holds whole values, or when it opens an
/// object (a record cut short?) and one of the next few lines is a whole object, unindented:
/// then each record is read on its own — a line that opens a value at its start, and the lines
/// that follow up to the next such line (a record written over a few lines), at most
/// [`MAX_LINE`] bytes in all — and a broken record hides nothing after it. Any other file is
/// one document (pretty-printed, or an array of records).
#[derive(Debug)]
pub struct Pieces<R> {
    reader: BufReader<Utf8Stream<R>>,
    /// Reads the lines that are not UTF-8, each in the file's legacy encoding.
    decoder: LineDecoder,
    /// Pieces handed out.
    handed: usize,
    /// The file's encoding has been named in a finding.
    named: bool,
    /// Lines read to decide the mode, not yet handed out: number, kept bytes, length.
    ahead: std::collections::VecDeque<(usize, Vec<u8>, usize)>,
    /// 1-based number of the last line read.
    line: usize,
    /// `None` before the first piece; `Some(true)` for JSON Lines.
    lines: Option<bool>,
    done: bool,
}

impl<R: Read> Pieces<R> {
    /// Reads `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            reader: BufReader::with_capacity(64 * 1024, Utf8Stream::new(reader)),
            decoder: LineDecoder::records(one_record),
            handed: 0,
            named: false,
            ahead: std::collections::VecDeque::new(),
            line: 0,
            lines: None,
            done: false,
        }
    }

    /// The next line: its first `keep` bytes (without the LF) and its full length; `None` at
    /// the end of the input. With `to_end` false, a line longer than `keep` is left unread
    /// past its first `keep` bytes, and its length given as `keep + 1`.
    fn read_line(&mut self, keep: usize, to_end: bool) -> io::Result<Option<(usize, Vec<u8>, usize)>> {
        let Some((kept, len)) = crate::input::lines::read_lf_line(&mut self.reader, keep, to_end)? else {
            return Ok(None);
        };
        self.line += 1;
        Ok(Some((self.line, kept, len)))
    }

    /// The piece of text of `bytes`, starting on line `line`: decoded, its end trimmed, with the
    /// findings on its bytes.
    fn decoded(&mut self, bytes: &[u8], line: usize) -> Piece {
        let first = self.handed == 0;
        self.handed += 1;
        let mut notes = Vec::new();
        let mut bytes = bytes;
        if first {
            if let Some(rest) = bytes.strip_prefix(crate::input::bytes::BOM) {
                bytes = rest;
                notes.push(crate::input::bytes::bom_finding());
            }
        }
        let stream = self.reader.get_ref().encoding();
        let (text, legacy) = match std::str::from_utf8(bytes) {
            Ok(text) => {
                let legacy = stream.map(|encoding| LineLegacy { at: 0, encoding, unlike: None });
                (text.trim_end().to_owned(), legacy.into_iter().collect())
            }
            Err(_) => self.legacy(bytes),
        };
        for legacy in legacy {
            if self.named && legacy.unlike.is_none() {
                continue;
            }
            self.named = true;
            notes.extend(encoding_note(crate::diagnostic::codes::input::ENCODING, "file", &text, &legacy));
        }
        Piece::Text { text, line, notes }
    }

    /// `bytes`, not UTF-8, decoded line by line in the file's legacy encoding, and where the
    /// first line so read (and each not valid in that encoding) was read, by offsets in the text.
    fn legacy(&mut self, bytes: &[u8]) -> (String, Vec<LineLegacy>) {
        let mut text = String::with_capacity(bytes.len());
        let mut found = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let len = crate::input::lines::line_len(rest);
            let (line, legacy) = self.decoder.decode(&rest[..len]);
            if let Some(l) = legacy.filter(|l| found.is_empty() || l.unlike.is_some()) {
                found.push(LineLegacy { at: text.len() + l.at, ..l });
            }
            text.push_str(&line);
            rest = &rest[len..];
        }
        text.truncate(text.trim_end().len());
        (text, found)
    }

    /// Decides the mode from the first non-blank lines ([`LOOK_AHEAD`] at most).
    fn decide(&mut self) -> io::Result<bool> {
        let (mut found, mut bytes, mut record_start) = (0, 0, false);
        while found < LOOK_AHEAD && bytes <= MAX_DOCUMENT {
            let Some(line) = self.read_line(MAX_DOCUMENT, false)? else { break };
            bytes += line.1.len() + 1;
            if line.2 > MAX_DOCUMENT {
                self.ahead.push_back(line);
                return Ok(false);
            }
            let blank = line.1.iter().all(u8::is_ascii_whitespace);
            let whole = !blank && line.2 <= MAX_LINE && holds_values(&line.1);
            let opens_record = line.1.first() == Some(&b'{');
            self.ahead.push_back(line);
            if blank {
                continue;
            }
            // The first line a whole value: JSON Lines. Else, when the first line opens an
            // object (a record cut short?), a later line that is a whole object, unindented.
            if whole && (found == 0 || (record_start && opens_record)) {
                return Ok(true);
            }
            if found == 0 {
                record_start = opens_record;
                if !record_start {
                    break;
                }
            }
            found += 1;
        }
        Ok(false)
    }

    /// The whole document: the lines read ahead and the rest, up to [`MAX_DOCUMENT`] bytes.
    fn document(&mut self) -> io::Result<Option<Piece>> {
        let mut bytes = Vec::new();
        let mut cut = false;
        for (i, (_, kept, len)) in self.ahead.drain(..).enumerate() {
            if i > 0 {
                bytes.push(b'\n');
            }
            bytes.extend_from_slice(&kept);
            cut |= len > kept.len();
        }
        if !cut && bytes.len() <= MAX_DOCUMENT {
            // The lines read ahead ended with a line end when more follows.
            let mut rest = Vec::new();
            let room = (MAX_DOCUMENT - bytes.len()) as u64;
            (&mut self.reader).take(room + 1).read_to_end(&mut rest)?;
            if !rest.is_empty() {
                bytes.push(b'\n');
                bytes.append(&mut rest);
            }
        }
        if cut || bytes.len() > MAX_DOCUMENT {
            bytes.truncate(MAX_KEPT);
            return Ok(Some(Piece::TooLarge { start: String::from_utf8_lossy(&bytes).into_owned() }));
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        Ok(Some(self.decoded(&bytes, 1)))
    }
}

/// How many non-blank lines [`Pieces`] reads to tell JSON Lines from a document.
const LOOK_AHEAD: usize = 8;

/// True when `line` holds whole JSON values and nothing else.
fn holds_values(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let mut any = false;
    for value in values(&text) {
        if value.is_err() {
            return false;
        }
        any = true;
    }
    any
}

impl<R: Read> Pieces<R> {
    /// The next line of a JSON Lines file: one read ahead, else one read now.
    fn next_line(&mut self) -> io::Result<Option<(usize, Vec<u8>, usize)>> {
        match self.ahead.pop_front() {
            Some(line) => Ok(Some(line)),
            None => self.read_line(MAX_LINE, true),
        }
    }

    /// The next record of a JSON Lines file: a line that is not blank, and the lines that
    /// follow up to the next that opens a value at its start (an object written over a few
    /// lines).
    fn record(&mut self) -> io::Result<Option<Piece>> {
        let (number, mut kept, mut len) = loop {
            let Some((number, kept, len)) = self.next_line()? else { return Ok(None) };
            if !kept.iter().all(u8::is_ascii_whitespace) || len > MAX_LINE {
                break (number, kept, len);
            }
        };
        while let Some(next) = self.next_line()? {
            // A record ends before a line that would make it too long: that line is read on
            // its own.
            if matches!(next.1.first(), Some(b'{' | b'[')) || len > MAX_LINE || len + 1 + next.2 > MAX_LINE {
                self.ahead.push_front(next);
                break;
            }
            len += 1 + next.2;
            kept.push(b'\n');
            kept.extend_from_slice(&next.1);
        }
        if len > MAX_LINE {
            kept.truncate(MAX_KEPT);
            let start = String::from_utf8_lossy(&kept).into_owned();
            return Ok(Some(Piece::LongLine { start, line: number, len }));
        }
        Ok(Some(self.decoded(&kept, number)))
    }

    /// The next piece: a record of a JSON Lines file, else the whole document.
    fn piece(&mut self) -> io::Result<Option<Piece>> {
        let lines = match self.lines {
            Some(lines) => lines,
            None => {
                let lines = self.decide()?;
                self.lines = Some(lines);
                lines
            }
        };
        if lines {
            self.record()
        } else {
            self.done = true;
            self.document()
        }
    }
}

impl<R: Read> Iterator for Pieces<R> {
    type Item = io::Result<Piece>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let piece = self.piece();
        self.done |= !matches!(piece, Ok(Some(_)));
        piece.transpose()
    }
}

/// A piece of JSON text being read: a line of JSON Lines or a whole document.
#[derive(Clone, Copy, Debug)]
pub struct JsonText<'a> {
    /// The text.
    pub text: &'a str,
    /// 1-based line of the file where `text` starts.
    pub line: usize,
    /// The lines of `text`.
    pub index: &'a LineIndex,
}

impl JsonText<'_> {
    /// The 1-based line and character column of byte `at` of the text, in the file.
    pub fn place(&self, at: usize) -> (usize, usize) {
        let (line, column) = self.index.place(self.text, at);
        (self.line + line, column)
    }
}

/// A record of JSON text, or the findings that kept a value from being read.
pub type JsonRecord<'a> = Result<&'a Node, &'a [Diagnostic]>;

/// What [`each_record`] hands each record to: the text it is in, the record, and the findings
/// on the bytes of that text (given with its first record).
pub type OnJson<'f> = dyn FnMut(&JsonText<'_>, JsonRecord<'_>, &[Diagnostic]) -> io::Result<()> + 'f;

/// Hands `f` each record of a JSON input ([`Pieces`]: line by line for JSON Lines, else one
/// document of bounded size), or the findings that kept a value from being read, with the
/// findings on the bytes of its piece of text (its encoding), given with its first value. Stops
/// at the first error of reading or of `f`.
pub fn each_record(input: impl Read, f: &mut OnJson<'_>) -> io::Result<()> {
    for piece in Pieces::new(input) {
        let piece = piece?;
        let (text, line, unread) = piece.text();
        let index = LineIndex::new(text);
        let at = JsonText { text, line, index: &index };
        if let Some(d) = unread {
            f(&at, Err(std::slice::from_ref(&d)), &[])?;
            continue;
        }
        let mut notes = match &piece {
            Piece::Text { notes, .. } => notes.as_slice(),
            _ => &[],
        };
        for value in super::values(text) {
            match value {
                Ok(node) => {
                    for node in super::records(&node) {
                        f(&at, Ok(node), std::mem::take(&mut notes))?;
                    }
                }
                Err(d) => f(&at, Err(std::slice::from_ref(&*d)), std::mem::take(&mut notes))?,
            }
        }
    }
    Ok(())
}

/// Every finding of a record of [`each_record`], as `kifu check` reports them: those on the
/// bytes of its text (`notes`), then those that kept it from being read, or the position's.
pub fn findings_of(record: JsonRecord<'_>, notes: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut out = notes.to_vec();
    match record {
        Err(found) => out.extend_from_slice(found),
        Ok(node) => out.extend_from_slice(super::read(node).diagnostics()),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    fn pieces(input: &str) -> Vec<Piece> {
        Pieces::new(input.as_bytes()).map(|p| p.expect("read")).collect()
    }

    fn text(text: &str, line: usize) -> Piece {
        Piece::Text { text: text.to_owned(), line, notes: Vec::new() }
    }

    #[test]
    fn json_lines_are_read_one_line_at_a_time() {
        assert_eq!(pieces("{\"a\":1}\r\n\n{\"b\":2}\n"), vec![text("{\"a\":1}", 1), text("{\"b\":2}", 3)]);
        // A record cut short on line 1 does not swallow line 2.
        let cut = "{\"a\":\n{\"b\":2}\n{\"c\":3}\n";
        assert_eq!(pieces(cut), vec![text("{\"a\":", 1), text("{\"b\":2}", 2), text("{\"c\":3}", 3)]);
        // A record over two lines, the second indented.
        let two = "{\"a\":1,\n \"b\":2}\n{\"c\":3}\n";
        assert_eq!(pieces(two), vec![text("{\"a\":1,\n \"b\":2}", 1), text("{\"c\":3}", 3)]);
        let long = format!("{{\"a\":1}}\n{}\n{{\"b\":2}}", "x".repeat(MAX_LINE + 1));
        let got = pieces(&long);
        assert_eq!(got.len(), 3);
        assert!(matches!(&got[1], Piece::LongLine { line: 2, len, .. } if *len == MAX_LINE + 1));
    }

    #[test]
    fn other_json_is_one_document() {
        for doc in ["[\n{\"a\":1}\n]\n", "[\n{\"a\":1},\n{\"b\":2}\n]", "{\n  \"a\": {\"b\": 1}\n}\n"] {
            let got = pieces(doc);
            assert!(
                matches!(got.as_slice(), [Piece::Text { text, line: 1, .. }] if text.trim_end() == doc.trim_end()),
                "{got:?}"
            );
        }
        let huge = format!("[\n{}1]", "1,\n".repeat(MAX_DOCUMENT));
        assert!(matches!(pieces(&huge).as_slice(), [Piece::TooLarge { .. }]));
        let zeros = vec![0u8; MAX_DOCUMENT * 2];
        let got: Vec<Piece> = Pieces::new(zeros.as_slice()).map(|p| p.expect("read")).collect();
        assert!(matches!(got.as_slice(), [Piece::TooLarge { .. }]));
        assert_eq!(got[0].text().2.map(|d| d.code), Some(crate::diagnostic::codes::json::TOO_LARGE));
    }
}
