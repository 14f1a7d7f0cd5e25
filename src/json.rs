//! A JSON reader that keeps the span of every value and key, so that findings about a JSON
//! position ([`crate::sfen::json`], [`crate::fen::json`]) point at the exact characters.
//!
//! It reads a stream of JSON values separated by whitespace (JSON Lines, or one pretty-printed
//! object, or several). A syntax error is reported (`json::syntax`) and reading resumes at the
//! next line that starts with `{` or `[`, so one broken line of a JSON Lines file hides nothing
//! after it. Nesting deeper than [`MAX_DEPTH`] is an error, never a stack overflow.
//!
//! [`Pieces`] reads a file in bounded memory: JSON Lines one line at a time (lines longer than
//! [`crate::check::MAX_LINE`] are reported, not read), any other JSON as one document of at
//! most [`MAX_DOCUMENT`] bytes.

use std::io::{self, BufReader, Read};

use crate::check::{MAX_KEPT, MAX_LINE};
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The deepest nesting read.
pub const MAX_DEPTH: usize = 64;

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
        /// The text, decoded (bytes that are not UTF-8 become U+FFFD).
        text: String,
        /// Its first line's number.
        line: usize,
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
            Self::Text { text, line } => (text, *line, None),
            Self::LongLine { start, line, len } => (start, *line, Some(crate::check::line_too_long(*len, start))),
            Self::TooLarge { start } => {
                let first = start.chars().next().map_or(0, char::len_utf8);
                let d = Diagnostic::error(
                    "json::too-large",
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
/// A file is JSON Lines when its first non-blank line holds whole values, or when it opens an
/// object (a record cut short?) and one of the next few lines is a whole object, unindented:
/// then each record is read on its own — a line that opens a value at its start, and the lines
/// that follow up to the next such line (a record written over a few lines), at most
/// [`MAX_LINE`] bytes in all — and a broken record hides nothing after it. Any other file is
/// one document (pretty-printed, or an array of records).
#[derive(Debug)]
pub struct Pieces<R> {
    reader: BufReader<R>,
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
            reader: BufReader::with_capacity(64 * 1024, reader),
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
        Ok(Some(Piece::Text { text: String::from_utf8_lossy(&bytes).into_owned(), line: 1 }))
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

impl<R: Read> Iterator for Pieces<R> {
    type Item = io::Result<Piece>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let lines = match self.lines {
            Some(lines) => lines,
            None => match self.decide() {
                Ok(lines) => {
                    self.lines = Some(lines);
                    lines
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            },
        };
        if !lines {
            self.done = true;
            return self.document().transpose();
        }
        loop {
            let line = match self.ahead.pop_front() {
                Some(line) => line,
                None => match self.read_line(MAX_LINE, true) {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        self.done = true;
                        return None;
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                },
            };
            let (number, mut kept, mut len) = line;
            if kept.iter().all(u8::is_ascii_whitespace) && len <= MAX_LINE {
                continue;
            }
            // The lines that follow, up to the next that opens a value at its start, belong
            // to this record (an object written over a few lines).
            loop {
                let next = match self.ahead.pop_front() {
                    Some(line) => line,
                    None => match self.read_line(MAX_LINE, true) {
                        Ok(Some(line)) => line,
                        Ok(None) => break,
                        Err(e) => {
                            self.done = true;
                            return Some(Err(e));
                        }
                    },
                };
                // A record ends before a line that would make it too long: that line is read
                // on its own.
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
                return Some(Ok(Piece::LongLine { start, line: number, len }));
            }
            let text = String::from_utf8_lossy(&kept);
            return Some(Ok(Piece::Text { text: text.trim_end().to_owned(), line: number }));
        }
    }
}

/// A JSON value and where it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Its text, from its first character to its last.
    pub span: Span,
}

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written (`-1.5e3`).
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object's members, in the order written (a repeated key is kept twice).
    Object(Vec<Member>),
}

/// One member of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The key, unescaped.
    pub key: String,
    /// The key's text, quotes included.
    pub key_span: Span,
    /// The value.
    pub value: Node,
}

impl Value {
    /// What this value is, in words: "a string", "an array", …
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "a boolean",
            Self::Number(_) => "a number",
            Self::String(_) => "a string",
            Self::Array(_) => "an array",
            Self::Object(_) => "an object",
        }
    }
}

impl Node {
    /// The member `key` of an object (the first, if repeated).
    pub fn get(&self, key: &str) -> Option<&Member> {
        match &self.value {
            Value::Object(members) => members.iter().find(|m| m.key == key),
            _ => None,
        }
    }

    /// The number as a whole number that fits in a `u64`, if it is one (`2`, not `2.0` or `-1`).
    pub fn as_u64(&self) -> Option<u64> {
        match &self.value {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }
}

/// Reads every top-level value of `text`, with a diagnostic per syntax error.
pub fn read_stream(text: &str) -> (Vec<Node>, Vec<Diagnostic>) {
    let mut nodes = Vec::new();
    let mut diagnostics = Vec::new();
    for value in values(text) {
        match value {
            Ok(node) => nodes.push(node),
            Err(d) => diagnostics.push(*d),
        }
    }
    (nodes, diagnostics)
}

/// The top-level values of `text` one at a time, or the syntax error that stopped one (reading
/// resumes at the next line that opens a value), so that a large file is never held as a tree.
pub fn values(text: &str) -> Values<'_> {
    // A byte-order mark is read as whitespace.
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    Values { reader: Reader { text, bytes: text.as_bytes(), pos: start } }
}

/// The iterator of [`values`].
pub struct Values<'a> {
    reader: Reader<'a>,
}

impl Iterator for Values<'_> {
    type Item = std::result::Result<Node, Box<Diagnostic>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.skip_ws();
        if self.reader.pos >= self.reader.bytes.len() {
            return None;
        }
        let value = self.reader.value(0);
        if value.is_err() {
            self.reader.resync();
        }
        Some(value)
    }
}

type Result<T> = std::result::Result<T, Box<Diagnostic>>;

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// After an error: the start of the next line that opens a value.
    fn resync(&mut self) {
        let mut at = self.pos.max(1);
        while at < self.bytes.len() {
            if matches!(self.bytes[at - 1], b'\n' | b'\r') && matches!(self.bytes[at], b'{' | b'[') {
                self.pos = at;
                return;
            }
            at += 1;
        }
        self.pos = self.bytes.len();
    }

    /// The character at `at` as a span (a point at the end of the text).
    fn char_span(&self, at: usize) -> Span {
        match self.text.get(at..).and_then(|s| s.chars().next()) {
            Some(c) => Span::new(at, at + c.len_utf8()),
            None => Span::point(at),
        }
    }

    fn unexpected(&self, expected: &str) -> Box<Diagnostic> {
        let span = self.char_span(self.pos);
        let found = match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            Some(c) => format!("`{}`", c.escape_debug()),
            None => "the end of the text".to_owned(),
        };
        Box::new(
            Diagnostic::error("json::syntax", span, format!("expected {expected}, found {found}"))
                .label(format!("expected {expected}"))
                .help("write the position as JSON: an object such as {\"sideOnMove\":\"black\",…}, one per line"),
        )
    }

    fn value(&mut self, depth: usize) -> Result<Node> {
        self.skip_ws();
        if depth > MAX_DEPTH {
            let span = self.char_span(self.pos);
            return Err(Box::new(
                Diagnostic::error("json::too-deep", span, format!("values nest more than {MAX_DEPTH} deep"))
                    .label("too deep")
                    .help("a position object nests three deep at most: remove the extra brackets"),
            ));
        }
        let start = self.pos;
        let value = match self.bytes.get(self.pos) {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            _ => return Err(self.unexpected("a JSON value")),
        };
        Ok(Node { value, span: Span::new(start, self.pos) })
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value> {
        if self.text.get(self.pos..).is_some_and(|s| s.starts_with(word)) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.unexpected("a JSON value"))
        }
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.pos;
        let digits = |r: &mut Self| {
            let from = r.pos;
            while r.bytes.get(r.pos).is_some_and(u8::is_ascii_digit) {
                r.pos += 1;
            }
            r.pos > from
        };
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        if self.bytes.get(self.pos) == Some(&b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return Err(self.unexpected("a digit"));
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.unexpected("a digit"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.unexpected("a digit"));
            }
        }
        Ok(Value::Number(self.text[start..self.pos].to_owned()))
    }

    fn string(&mut self) -> Result<String> {
        let open = self.pos;
        self.pos += 1;
        let mut s = String::new();
        loop {
            let Some(c) = self.text.get(self.pos..).and_then(|t| t.chars().next()) else {
                return Err(Box::new(
                    Diagnostic::error("json::syntax", Span::new(open, open + 1), "this string is never closed")
                        .label("opened here")
                        .with(Span::point(self.pos), "the text ends")
                        .help("close the string with `\"`"),
                ));
            };
            match c {
                '"' => {
                    self.pos += 1;
                    return Ok(s);
                }
                '\\' => {
                    let at = self.pos;
                    self.pos += 1;
                    let escaped = match self.bytes.get(self.pos) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex =
                                self.text.get(self.pos + 1..self.pos + 5).and_then(|h| u32::from_str_radix(h, 16).ok());
                            match hex {
                                Some(h) => {
                                    self.pos += 4;
                                    char::from_u32(h).unwrap_or('\u{FFFD}')
                                }
                                None => return Err(self.bad_escape(at)),
                            }
                        }
                        _ => return Err(self.bad_escape(at)),
                    };
                    self.pos += 1;
                    s.push(escaped);
                }
                c if (c as u32) < 0x20 => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "json::syntax",
                            self.char_span(self.pos),
                            "a control character inside a string",
                        )
                        .label("not allowed in a JSON string")
                        .help(
                            "close the string before the end of the line, or write the character as an escape (`\\n`)",
                        ),
                    ));
                }
                c => {
                    self.pos += c.len_utf8();
                    s.push(c);
                }
            }
        }
    }

    fn bad_escape(&self, at: usize) -> Box<Diagnostic> {
        let end = self.char_span(at + 1).end;
        Box::new(
            Diagnostic::error("json::syntax", Span::new(at, end), "not a JSON escape")
                .label("unknown escape")
                .help("JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"),
        )
    }

    fn array(&mut self, depth: usize) -> Result<Value> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value> {
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.unexpected("a key in double quotes"));
            }
            let key_start = self.pos;
            let key = self.string()?;
            let key_span = Span::new(key_start, self.pos);
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.unexpected("`:`"));
            }
            self.pos += 1;
            let value = self.value(depth + 1)?;
            members.push(Member { key, key_span, value });
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.unexpected("`,` or `}`")),
            }
        }
    }
}

/// How `kifu json` writes a shogi position's hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// Seed 002's model: each hand an array of seven counts, P L N S G B R.
    #[default]
    Seed,
    /// Each hand an object of the kinds held and their counts: `{"silver":1,"pawn":2}`.
    Keyed,
}

/// A record's text written from a JSON object, with where each part came from, so that the
/// findings of the record's checker can point into the JSON text instead.
#[derive(Clone, Debug, Default)]
pub struct Mapped {
    /// The text written (an SFEN or FEN record).
    pub text: String,
    /// Spans of `text` and the JSON spans they were written from.
    map: Vec<(Span, Span)>,
    /// Spans of `text` (a field) and the JSON span that stands for anything in them.
    regions: Vec<(Span, Span)>,
    /// Where a finding that matches nothing points: the object.
    fallback: Span,
}

impl Mapped {
    /// An empty text whose unmatched findings point at `fallback`.
    pub fn new(fallback: Span) -> Self {
        Self { fallback, ..Self::default() }
    }

    /// Appends `s`, written from the JSON at `from` (if any).
    pub fn push(&mut self, s: &str, from: Option<Span>) {
        let start = self.text.len();
        self.text.push_str(s);
        if let Some(from) = from {
            self.map.push((Span::new(start, self.text.len()), from));
        }
    }

    /// Marks the text from `start` to here as a region written from the JSON at `from`.
    pub fn region(&mut self, start: usize, from: Span) {
        self.regions.push((Span::new(start, self.text.len()), from));
    }

    /// The JSON span for a span of the text.
    pub fn json_span(&self, span: Span) -> Span {
        let touches = |s: Span| {
            if span.is_empty() {
                s.start <= span.start && span.start < s.end
            } else {
                s.start < span.end && span.start < s.end
            }
        };
        let found = self.map.iter().filter(|(s, _)| touches(*s)).map(|(_, j)| *j).reduce(Span::to);
        found
            .or_else(|| self.regions.iter().find(|(s, _)| touches(*s) || s.end == span.start).map(|(_, j)| *j))
            .unwrap_or(self.fallback)
    }

    /// `d` (a finding about the text) pointing into the JSON.
    pub fn map_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        for label in &mut d.labels {
            label.span = self.json_span(label.span);
        }
        d
    }
}

/// The first character of `span` (an object's `{`), as a span.
pub fn first_char(span: Span) -> Span {
    Span::new(span.start, (span.start + 1).min(span.end.max(span.start)))
}

/// A key near `key` among `known` (the same but for case, `_` or `-`), for "did you mean".
pub fn near_key<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
    let k = fold(key);
    known.iter().copied().find(|n| fold(n) == k)
}

/// Checks that `object` has only `known` keys, each once, and the `required` ones.
pub fn check_keys(object: &Node, known: &[&str], required: &[&str], format: &str, out: &mut Vec<Diagnostic>) {
    let Value::Object(members) = &object.value else { return };
    for (i, m) in members.iter().enumerate() {
        if let Some(first) = members[..i].iter().find(|o| o.key == m.key) {
            out.push(
                Diagnostic::error("json::duplicate-key", m.key_span, format!("`{}` is given twice", m.key))
                    .label("given again")
                    .with(first.key_span, "first given here")
                    .help("keep one of the two"),
            );
        } else if !known.contains(&m.key.as_str()) {
            let help = match near_key(&m.key, known) {
                Some(near) => format!("did you mean `{near}`? Keys are case-sensitive"),
                None => format!("a {format} position has the keys {}", quoted(known)),
            };
            out.push(
                Diagnostic::error(
                    "json::unknown-key",
                    m.key_span,
                    format!("`{}` is not a key of a {format} position", m.key.escape_debug()),
                )
                .label("unknown key")
                .help(help),
            );
        }
    }
    for key in required {
        if object.get(key).is_none() && !members.iter().any(|m| near_key(&m.key, &[key]).is_some()) {
            out.push(
                Diagnostic::error("json::missing-key", first_char(object.span), format!("the position has no `{key}`"))
                    .label(format!("this object needs `{key}`"))
                    .help(format!("add `\"{key}\": …`; a {format} position has the keys {}", quoted(known))),
            );
        }
    }
}

fn quoted(keys: &[&str]) -> String {
    keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_spans() {
        let text = "{\"a\": [1, \"x\\n\"], \"b\": null}\n{\"c\":true}";
        let (nodes, diagnostics) = read_stream(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(nodes.len(), 2);
        let a = nodes[0].get("a").expect("a");
        assert_eq!(a.key_span.slice(text), "\"a\"");
        assert_eq!(a.value.span.slice(text), "[1, \"x\\n\"]");
        let Value::Array(items) = &a.value.value else { panic!("array") };
        assert_eq!(items[1].value, Value::String("x\n".into()));
        assert_eq!(nodes[1].span.slice(text), "{\"c\":true}");
    }

    #[test]
    fn a_broken_line_hides_nothing_after_it() {
        let text = "{\"a\": 1,, }\n{\"b\": 2}\n\"open";
        let (nodes, diagnostics) = read_stream(text);
        assert_eq!(nodes.len(), 1);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(diagnostics[0].span().slice(text), ",");
        assert_eq!(diagnostics[1].message, "this string is never closed");
    }

    fn pieces(input: &str) -> Vec<Piece> {
        Pieces::new(input.as_bytes()).map(|p| p.expect("read")).collect()
    }

    fn text(text: &str, line: usize) -> Piece {
        Piece::Text { text: text.to_owned(), line }
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
                matches!(got.as_slice(), [Piece::Text { text, line: 1 }] if text.trim_end() == doc.trim_end()),
                "{got:?}"
            );
        }
        let huge = format!("[\n{}1]", "1,\n".repeat(MAX_DOCUMENT));
        assert!(matches!(pieces(&huge).as_slice(), [Piece::TooLarge { .. }]));
        let zeros = vec![0u8; MAX_DOCUMENT * 2];
        let got: Vec<Piece> = Pieces::new(zeros.as_slice()).map(|p| p.expect("read")).collect();
        assert!(matches!(got.as_slice(), [Piece::TooLarge { .. }]));
        assert_eq!(got[0].text().2.map(|d| d.code), Some("json::too-large"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        let (_, diagnostics) = read_stream(&text);
        assert_eq!(diagnostics[0].code, "json::too-deep");
    }
}
