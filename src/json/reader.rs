//! A JSON reader that keeps the span of every value and key, so that findings about a JSON
//! input point at the exact characters. It knows nothing of positions.
//!
//! It reads a stream of JSON values separated by whitespace (JSON Lines, or one pretty-printed
//! object, or several). A syntax error is reported (`json::syntax`) and reading resumes at the
//! next line that starts with `{` or `[`, so one broken line of a JSON Lines file hides nothing
//! after it. Nesting deeper than [`MAX_DEPTH`] is an error, never a stack overflow.

use std::collections::VecDeque;

use crate::diagnostic::codes;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::span::Span;

/// The deepest nesting read.
pub const MAX_DEPTH: usize = 64;
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

/// What the help of a syntax error says: how the input is written, and how deep it nests.
/// The reader knows nothing of what the values mean; its caller does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    /// The help of a syntax error.
    pub syntax: &'static str,
    /// The help of values nested too deep.
    pub too_deep: &'static str,
}

impl Hints {
    /// Hints that say nothing of what the values mean.
    pub const PLAIN: Self = Self { syntax: "write the text as JSON", too_deep: "remove the extra brackets" };
}

/// The top-level values of `text` one at a time, or the syntax error that stopped one (reading
/// resumes at the next line that opens a value), so that a large file is never held as a tree.
pub fn values(text: &str) -> Values<'_> {
    // A byte-order mark is read as whitespace.
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    Values { reader: Reader { text, bytes: text.as_bytes(), pos: start, hints: Hints::PLAIN }, held: VecDeque::new() }
}

impl Values<'_> {
    /// The same values, their syntax errors' help from `hints`.
    #[must_use]
    pub const fn hints(mut self, hints: Hints) -> Self {
        self.reader.hints = hints;
        self
    }

    /// Every value read, and a diagnostic per syntax error.
    pub fn split(self) -> (Vec<Node>, Vec<Diagnostic>) {
        let mut nodes = Vec::new();
        let mut diagnostics = Vec::new();
        for value in self {
            match value {
                Ok(node) => nodes.push(node),
                Err(d) => diagnostics.push(*d),
            }
        }
        (nodes, diagnostics)
    }
}

/// The iterator of `values`.
pub struct Values<'a> {
    reader: Reader<'a>,
    /// What was read after a value on its line, before that value was given out.
    held: VecDeque<std::result::Result<Node, Box<Diagnostic>>>,
}

impl Iterator for Values<'_> {
    type Item = std::result::Result<Node, Box<Diagnostic>>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(item) = self.held.pop_front() {
            return Some(item);
        }
        self.reader.skip_ws();
        if self.reader.pos >= self.reader.bytes.len() {
            return None;
        }
        let first = match self.reader.value() {
            Ok(node) => node,
            Err(e) => {
                self.reader.resync();
                return Some(Err(e));
            }
        };
        if self.reader.line_ends() {
            return Some(Ok(first));
        }
        Some(self.rest_of_line(first))
    }
}

impl Values<'_> {
    /// A value (`first`) after which its line goes on: the rest of the line is read before
    /// `first` is given out. When a syntax error follows that comes only from the line going on
    /// (a bracket closed early, a bracket lost before a key: the next thing is no value or a
    /// bare string or number), the values of the line are not judged and the line is one
    /// syntax error, at the place it goes on.
    fn rest_of_line(&mut self, first: Node) -> std::result::Result<Node, Box<Diagnostic>> {
        let goes_on = self.reader.pos;
        let scalar = |n: &Node| !matches!(n.value, Value::Object(_) | Value::Array(_));
        let mut cascade = scalar(&first);
        let mut held = Vec::new();
        while !self.reader.line_ends() {
            match self.reader.value() {
                Ok(node) => {
                    cascade |= scalar(&node);
                    held.push(Ok(node));
                }
                Err(e) => {
                    self.reader.resync();
                    if cascade || e.span().start == goes_on {
                        return Err(self.reader.goes_on(goes_on, &e));
                    }
                    held.push(Err(e));
                    break;
                }
            }
        }
        self.held.extend(held);
        Ok(first)
    }
}

type Result<T> = std::result::Result<T, Box<Diagnostic>>;

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    hints: Hints,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// True when nothing but spaces and tabs is left on the line: skips them.
    fn line_ends(&mut self) -> bool {
        while let Some(b' ' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
        matches!(self.bytes.get(self.pos), None | Some(b'\n' | b'\r'))
    }

    /// The one syntax error of a line that goes on at `at` after a whole value, where reading
    /// on found `error`.
    fn goes_on(&self, at: usize, error: &Diagnostic) -> Box<Diagnostic> {
        let here = self.char_span(at);
        let found = here.slice(self.text).escape_debug().to_string();
        let diag = Diagnostic::error(
            codes::json::SYNTAX,
            here,
            format!("a value ended before `{found}`, but its line goes on"),
        )
        .label("the line goes on after a whole value")
        .help(self.hints.syntax);
        Box::new(match error.labels.first().filter(|l| l.span != here) {
            Some(l) => diag.with(l.span, l.message.clone()),
            None => diag,
        })
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
        let next = self.text.get(self.pos..).and_then(|s| s.chars().next());
        let found = match next {
            Some(c) => format!("`{}`", c.escape_debug()),
            None => "the end of the text".to_owned(),
        };
        // A comma before the close of an object or an array: JSON has no trailing comma.
        let before = self.text.get(..self.pos).map_or("", str::trim_end);
        if let (Some(close @ ('}' | ']')), Some(rest)) = (next, before.strip_suffix(',')) {
            let comma = Span::new(rest.len(), rest.len() + 1);
            return Box::new(
                Diagnostic::error(
                    codes::json::SYNTAX,
                    comma,
                    format!("a comma before `{close}`: JSON has no trailing comma"),
                )
                .label("remove this comma")
                .with(span, format!("expected {expected} after the comma"))
                .help(format!("remove the `,` before `{close}`"))
                .fix(Fix::replace(comma, "", Applicability::Safe)),
            );
        }
        Box::new(
            Diagnostic::error(codes::json::SYNTAX, span, format!("expected {expected}, found {found}"))
                .label(format!("expected {expected}"))
                .help(self.hints.syntax),
        )
    }

    /// Reads one value, its arrays and objects with a stack of the values still open (never
    /// by recursion): nesting deeper than [`MAX_DEPTH`] is an error.
    fn value(&mut self) -> Result<Node> {
        let mut open: Vec<Open> = Vec::new();
        loop {
            self.skip_ws();
            if open.len() > MAX_DEPTH {
                let span = self.char_span(self.pos);
                return Err(Box::new(
                    Diagnostic::error(codes::json::TOO_DEEP, span, format!("values nest more than {MAX_DEPTH} deep"))
                        .label("too deep")
                        .help(self.hints.too_deep),
                ));
            }
            let start = self.pos;
            let value = match self.bytes.get(self.pos) {
                Some(&b @ (b'{' | b'[')) => match self.open(b, start)? {
                    Some(opened) => {
                        open.push(opened);
                        continue;
                    }
                    None if b == b'{' => Value::Object(Vec::new()),
                    None => Value::Array(Vec::new()),
                },
                Some(b'"') => Value::String(self.string()?),
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.word("true", Value::Bool(true))?,
                Some(b'f') => self.word("false", Value::Bool(false))?,
                Some(b'n') => self.word("null", Value::Null)?,
                _ => return Err(self.unexpected("a JSON value")),
            };
            if let Some(node) = self.close(&mut open, Node { value, span: Span::new(start, self.pos) })? {
                return Ok(node);
            }
        }
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
                    Diagnostic::error(codes::json::SYNTAX, Span::new(open, open + 1), "this string is never closed")
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
                            codes::json::SYNTAX,
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
            Diagnostic::error(codes::json::SYNTAX, Span::new(at, end), "not a JSON escape")
                .label("unknown escape")
                .help("JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"),
        )
    }

    /// Opens the array or object (`open` is its bracket) at `start`: `None` when it is empty
    /// (and read), else the open value, its first key read for an object.
    fn open(&mut self, open: u8, start: usize) -> Result<Option<Open>> {
        let close = if open == b'{' { b'}' } else { b']' };
        self.pos += 1;
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&close) {
            self.pos += 1;
            return Ok(None);
        }
        Ok(Some(match open {
            b'{' => Open::Object { start, members: Vec::new(), key: self.key()? },
            _ => Open::Array { start, items: Vec::new() },
        }))
    }

    /// An object's key and its `:`.
    fn key(&mut self) -> Result<(String, Span)> {
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
        Ok((key, key_span))
    }

    /// Adds `node` to the innermost open value, and closes each value it completes: the whole
    /// value when `node` completes it, `None` when a `,` asks for the next item.
    fn close(&mut self, open: &mut Vec<Open>, mut node: Node) -> Result<Option<Node>> {
        loop {
            let Some(innermost) = open.last_mut() else { return Ok(Some(node)) };
            self.skip_ws();
            let (close, expected) = match innermost {
                Open::Array { items, .. } => {
                    items.push(node);
                    (b']', "`,` or `]`")
                }
                Open::Object { members, key, .. } => {
                    let (key, key_span) = (std::mem::take(&mut key.0), key.1);
                    members.push(Member { key, key_span, value: node });
                    (b'}', "`,` or `}`")
                }
            };
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    self.pos += 1;
                    if let Open::Object { key, .. } = innermost {
                        *key = self.key()?;
                    }
                    return Ok(None);
                }
                Some(&b) if b == close => self.pos += 1,
                _ => return Err(self.unexpected(expected)),
            }
            let span = |start| Span::new(start, self.pos);
            node = match open.pop() {
                Some(Open::Array { start, items }) => Node { value: Value::Array(items), span: span(start) },
                Some(Open::Object { start, members, .. }) => Node { value: Value::Object(members), span: span(start) },
                None => return Ok(None),
            };
        }
    }
}

/// An array or object being read: where it starts and what it holds so far.
enum Open {
    Array {
        start: usize,
        items: Vec<Node>,
    },
    /// An object, with the key of the value being read.
    Object {
        start: usize,
        members: Vec<Member>,
        key: (String, Span),
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_spans() {
        let text = "{\"a\": [1, \"x\\n\"], \"b\": null}\n{\"c\":true}";
        let (nodes, diagnostics) = values(text).split();
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
        let (nodes, diagnostics) = values(text).split();
        assert_eq!(nodes.len(), 1);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(diagnostics[0].span().slice(text), ",");
        assert_eq!(diagnostics[1].message, "this string is never closed");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        let (_, diagnostics) = values(&text).split();
        assert_eq!(diagnostics[0].code, crate::diagnostic::codes::json::TOO_DEEP);
    }
}
