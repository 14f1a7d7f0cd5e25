//! The fast path: the automata compiled from the grammar's `move_line` and `ki2_line` rules
//! accept the well-formed move lines, the commonest lines of a record, in one pass; the line's
//! parts are then read off its characters, which the automaton has already vouched for. Any
//! other line returns `None` and goes through pest and [`super::syntax`]'s builder. A test
//! holds the two to the same [`Line`] on every line the automata accept.

use std::sync::OnceLock;

use super::parser::Rule;
use super::syntax::{self, Body, Ki2Move, Line, MoveLine, Time, Written};
use crate::notation::grammar::{RuleDfa, Shipped};
use crate::shogi::relative::{Motion, Place};
use crate::shogi::{PieceKind, Square};
use crate::span::Span;

/// The grammar, read once: its regular rules compile to automata.
static GRAMMAR: Shipped = Shipped::new("kif");

/// `line` when one of the automata accepts it: a KIF move line or a line of KI2 moves, read
/// as the builder reads it.
pub(super) fn line(text: &str) -> Option<Line> {
    static MOVE_LINE: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static KI2_LINE: OnceLock<Option<RuleDfa>> = OnceLock::new();
    // The `line` rule tries `move_line` first, then `ki2_line`: one starts with a number, the
    // other with a side's mark, so no line is both.
    if GRAMMAR.compile(&MOVE_LINE, Rule::move_line)?.is_match(text) {
        return Some(Line::Move(Box::new(move_line(text))));
    }
    if GRAMMAR.compile(&KI2_LINE, Rule::ki2_line)?.is_match(text) {
        return Some(Line::Ki2(ki2_line(text), None));
    }
    None
}

/// A cursor over a line an automaton accepted.
struct Cursor<'t> {
    text: &'t str,
    at: usize,
}

impl Cursor<'_> {
    // The automaton vouched for the line: every read below finds what the grammar says is
    // there. Each is still a checked one (`get`), so that a line read wrongly reads wrongly
    // rather than stopping the program.
    fn peek(&self) -> Option<char> {
        self.text.get(self.at..)?.chars().next()
    }

    /// Takes `c` when it comes next: its span.
    fn eat(&mut self, c: char) -> Option<Span> {
        (self.peek() == Some(c)).then(|| {
            self.at += c.len_utf8();
            Span::new(self.at - c.len_utf8(), self.at)
        })
    }

    /// Takes `s` when it comes next: its span.
    fn eat_str(&mut self, s: &str) -> Option<Span> {
        self.text.get(self.at..)?.starts_with(s).then(|| {
            self.at += s.len();
            Span::new(self.at - s.len(), self.at)
        })
    }

    /// Takes the characters `keep` accepts: their span.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> Span {
        let start = self.at;
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            self.at += c.len_utf8();
        }
        Span::new(start, self.at)
    }

    /// The grammar's `WS*`.
    fn spaces(&mut self) {
        self.take_while(syntax::is_ws);
    }

    /// The grammar's `side_mark`, when it comes next.
    fn side_mark(&mut self) -> Option<Span> {
        let c = self.peek().filter(|&c| syntax::is_side_mark(c))?;
        self.eat(c)
    }

    /// The grammar's `destination` (a full-width file digit and a kanji rank).
    fn destination(&mut self) -> Option<Square> {
        let start = self.at;
        for _ in 0..2 {
            let c = self.peek()?;
            self.at += c.len_utf8();
        }
        syntax::destination(self.text.get(start..self.at)?)
    }

    /// The grammar's `piece`: a name of one character, or `成` and one more.
    fn piece(&mut self) -> ((PieceKind, bool), Span) {
        let start = self.at;
        let length = if self.peek() == Some('成') { 2 } else { 1 };
        for _ in 0..length {
            if let Some(c) = self.peek() {
                self.at += c.len_utf8();
            }
        }
        let span = Span::new(start, self.at);
        (syntax::piece(span.slice(self.text)), span)
    }
}

/// A KIF move line: its number, the move or the ending, the time and the branch mark.
fn move_line(text: &str) -> MoveLine {
    let mut c = Cursor { text, at: 0 };
    c.spaces();
    let number = c.take_while(|ch| ch.is_ascii_digit());
    c.spaces();
    c.side_mark();
    let body = match c.peek() {
        Some('同' | '１'..='９') => Body::Move(kif_move(&mut c)),
        _ => {
            // An ending's word runs to what may follow it: white space, a time or the branch
            // mark (none of them kana or kanji).
            let word = c.take_while(|ch| !syntax::is_ws(ch) && !matches!(ch, '(' | '+'));
            Body::Ending(word, syntax::is_ending_word(word.slice(text)))
        }
    };
    c.spaces();
    let (mut time, mut bad_time) = (None, None);
    if c.peek() == Some('(') {
        match read_time(&mut c) {
            Ok(t) => time = Some(t),
            Err(span) => bad_time = Some(span),
        }
    }
    c.spaces();
    let branch = c.eat('+');
    MoveLine { number: (number.slice(text).parse().ok(), number), body, time, bad_time, branch }
}

/// One character that `of` reads (a KI2 move's `左`, `上`…), when it comes next.
fn word<T>(c: &mut Cursor<'_>, of: fn(&str) -> Option<T>) -> Option<(T, Span)> {
    let ch = c.peek()?;
    let span = Span::new(c.at, c.at + ch.len_utf8());
    let found = of(span.slice(c.text))?;
    c.at = span.end;
    Some((found, span))
}

/// The grammar's `kif_move`.
fn kif_move(c: &mut Cursor<'_>) -> Written {
    let start = c.at;
    let (mut to, mut same_space) = (None, None);
    if c.eat('同').is_some() {
        same_space = match c.peek() {
            Some('\u{3000}') => {
                c.at += '\u{3000}'.len_utf8();
                None
            }
            Some(' ') => c.eat(' '),
            _ => Some(Span::point(c.at)),
        };
    } else {
        to = c.destination();
    }
    let (piece, piece_span) = c.piece();
    let mut w = Written {
        span: Span::point(start),
        to,
        same_space,
        piece,
        piece_span,
        promote: None,
        decline: None,
        drop: None,
        zero_origin: None,
        from: None,
    };
    if let Some(drop) = c.eat('打') {
        w.drop = Some(drop);
        w.zero_origin = c.eat_str("(00)");
    } else if let Some(zero) = c.eat_str("(00)") {
        w.zero_origin = Some(zero);
    } else {
        w.promote = c.eat('成');
        w.decline = c.eat_str("不成");
        // `(77)`: four ASCII characters.
        let origin = Span::new(c.at, (c.at + 4).min(c.text.len()));
        w.from = syntax::origin(origin.slice(c.text)).map(|sq| (sq, origin));
        c.at = origin.end;
    }
    w.span = Span::new(start, c.at);
    w
}

/// The grammar's `time` at the cursor, or the span of a `time_lenient` (from `(` to the first
/// `)`).
fn read_time(c: &mut Cursor<'_>) -> Result<Time, Span> {
    let start = c.at;
    let close = c.text.get(start..).and_then(|t| t.find(')')).map_or(c.text.len(), |i| start + i + 1);
    let strict = (|| {
        c.eat('(')?;
        c.spaces();
        let spent = clock(c)?;
        c.spaces();
        let mut total = None;
        if c.eat('/').is_some() {
            c.spaces();
            total = clock(c);
            c.spaces();
        }
        c.eat(')')?;
        Some(Time { span: Span::new(start, c.at), spent, total })
    })();
    strict.ok_or_else(|| {
        c.at = close;
        Span::new(start, close)
    })
}

/// The grammar's `clock`: digits, then one or two `:` and digits.
fn clock(c: &mut Cursor<'_>) -> Option<Span> {
    let start = c.at;
    let digits = |c: &mut Cursor<'_>| !c.take_while(|ch| ch.is_ascii_digit()).is_empty();
    if !digits(c) {
        c.at = start;
        return None;
    }
    let mut fields = 0;
    while fields < 2 {
        let before = c.at;
        if c.eat(':').is_none() || !digits(c) {
            c.at = before;
            break;
        }
        fields += 1;
    }
    if fields == 0 {
        c.at = start;
        return None;
    }
    Some(Span::new(start, c.at))
}

/// A line of KI2 moves.
fn ki2_line(text: &str) -> Vec<Ki2Move> {
    let mut c = Cursor { text, at: 0 };
    let mut moves = Vec::new();
    c.spaces();
    while let Some(mark) = c.side_mark() {
        moves.push(ki2_move(&mut c, mark));
        c.spaces();
    }
    moves
}

/// The grammar's `ki2_move`, after its mark.
fn ki2_move(c: &mut Cursor<'_>, mark: Span) -> Ki2Move {
    let to = if c.eat('同').is_some() {
        // `同` and one white space at most.
        if let Some(ws) = c.peek().filter(|&ch| syntax::is_ws(ch)) {
            c.at += ws.len_utf8();
        }
        None
    } else {
        c.destination()
    };
    let piece = c.piece();
    let place = word(c, Place::of_kanji);
    let motion = word(c, Motion::of_kanji);
    let mut m = Ki2Move {
        span: Span::new(mark.start, c.at),
        mark: (syntax::side_named(mark.slice(c.text)), mark),
        to,
        piece,
        place,
        motion,
        promote: None,
        decline: None,
        drop: None,
    };
    if let Some(decline) = c.eat_str("不成") {
        m.decline = Some(decline);
    } else if let Some(promote) = c.eat('成') {
        m.promote = Some(promote);
    } else {
        m.drop = c.eat('打');
    }
    m.span = Span::new(mark.start, c.at);
    m
}

#[cfg(test)]
mod tests {
    use super::super::syntax::{built, Line};

    /// The lines to try: those of kifu's KIF and KI2 fixtures, and of the records of the
    /// corpus beside the repository when it is there.
    fn lines() -> Vec<String> {
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir("tests/fixtures/kif")
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        for folder in ["corpus/kifcsa/generated/kif", "corpus/kifcsa/generated/ki2", "corpus/kifcsa/real"] {
            if let Some(dir) = crate::corpus::path(folder) {
                let found = std::fs::read_dir(dir).map(|d| d.filter_map(Result::ok).map(|e| e.path()));
                files.extend(found.into_iter().flatten().take(20));
            }
        }
        let mut out = Vec::new();
        for file in files {
            let Ok(bytes) = std::fs::read(&file) else { continue };
            let (text, ..) = super::super::decode(&bytes);
            out.extend(text.lines().map(str::to_owned));
        }
        out.sort();
        out.dedup();
        out
    }

    /// Characters a slip may write: those of moves, times, endings and marks, and others.
    const SLIPS: &[char] = &[
        '1', '7', '0', '１', '７', '六', '九', '同', '歩', '銀', '成', '不', '打', '左', '上', '(', ')', ':', '/', ' ',
        '\u{3000}', '\t', '+', '▲', '△', '☗', 'x', 'あ', '投', '了', '*',
    ];

    /// Every line the automata accept is read as pest and the builder read it, and every line
    /// pest reads as a move line or a line of KI2 moves is one the automata accept: on the lines
    /// of the fixtures and the corpus, and on each of them with one character changed, deleted
    /// or added.
    #[test]
    fn the_fast_path_reads_every_line_as_the_builder() {
        let (mut fast, mut all) = (0, 0);
        let mut check = |line: &str| {
            all += 1;
            let slow = built(line);
            match super::line(line) {
                Some(read) => {
                    fast += 1;
                    assert_eq!(read, slow, "{line:?}");
                }
                None => assert!(!matches!(slow, Line::Move(_) | Line::Ki2(_, None)), "{line:?}: {slow:?}"),
            }
        };
        for line in lines() {
            check(&line);
            let chars: Vec<(usize, char)> = line.char_indices().collect();
            for &(at, c) in chars.iter().take(30) {
                let after = &line[at + c.len_utf8()..];
                check(&format!("{}{after}", &line[..at]));
                for &slip in SLIPS {
                    check(&format!("{}{slip}{after}", &line[..at]));
                }
            }
        }
        assert!(fast > 1000, "{fast} of {all} lines read by the fast path");
    }
}
