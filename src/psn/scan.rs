//! Cutting a PSN text into games, and each game into tokens.
//!
//! The scanner walks the text once. Header lines, comments, variations and parenthesised clocks
//! are found by their first character; everything else is cut into words at white space, and
//! each word is named by the grammar's `word` rule, compiled to one automaton
//! ([`crate::notation::grammar::ChoiceDfa`]). A word no alternative matches is tried as a sequence number
//! glued to a move (`12.P8gx8f`) and as a move with a glyph glued to it (`N*8f!`), then
//! reported.
//!
//! Games end where the spec says (§1: "If parsing a game, and a header line is encountered
//! this is taken to be the intro of a new game"), and also where a move follows the end of a
//! game (a result or an end word), which is how headerless files hold several games (PSN note 9).
//! In a game whose move lines carry clock columns, a line of prose is one token (PSN note 8).

use std::sync::LazyLock;

use super::parser::Rule;
use crate::input::decode::{Encoding, LineRole};
use crate::notation::grammar::{ChoiceDfa, PrefixDfa, RuleDfa, Rules};
use crate::span::Span;

/// The word rules of `grammar/psn.pest`, in the order of the `word` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum WordKind {
    /// `12.`, `12...`
    Seqnum,
    /// `P7f`, `G4a5b`, `+P3b`, `P7g+`
    SpecMove,
    /// `P*4e`, `P'4e`
    SpecDrop,
    /// `P7g-7f`, `P2cx2d`
    SeparatedMove,
    /// `P-7f`, `Px8f`, `G45b`
    ShortMove,
    /// `7g7f`
    UsiMove,
    /// `P@8c`
    AtDrop,
    /// `9a-9a`
    PiecelessMove,
    /// `Gf1e2`, `Pxe6`
    ChessMove,
    /// `P@g4`
    ChessDrop,
    /// `1-0`, `0-1`, `1/2-1/2`
    Result,
    /// `*`, `1–0`
    ResultDialect,
    /// `Resigns`, `Sennichite`, …
    EndWord,
    /// `!`, `?!`
    Glyph,
    /// `$2`
    Nag,
    /// `07:55:00`
    Clock,
    /// `Variation:6`
    VariationLine,
    /// `wK3a`
    SetupPiece,
    /// `bRH1`
    SetupHand,
    /// `$`
    SetupEnd,
}

impl WordKind {
    /// The word rules, in the order of the grammar's `word` rule.
    pub const ALL: [Self; 20] = [
        Self::Seqnum,
        Self::SpecMove,
        Self::SpecDrop,
        Self::SeparatedMove,
        Self::ShortMove,
        Self::UsiMove,
        Self::AtDrop,
        Self::PiecelessMove,
        Self::ChessMove,
        Self::ChessDrop,
        Self::Result,
        Self::ResultDialect,
        Self::EndWord,
        Self::Glyph,
        Self::Nag,
        Self::Clock,
        Self::VariationLine,
        Self::SetupPiece,
        Self::SetupHand,
        Self::SetupEnd,
    ];

    /// The grammar rule that names this kind of word, from the parser pest generates from
    /// `grammar/psn.pest`: renaming a rule there breaks this match at compile time.
    pub const fn rule(self) -> Rule {
        match self {
            Self::Seqnum => Rule::seqnum,
            Self::SpecMove => Rule::spec_move,
            Self::SpecDrop => Rule::spec_drop,
            Self::SeparatedMove => Rule::separated_move,
            Self::ShortMove => Rule::short_move,
            Self::UsiMove => Rule::usi_move,
            Self::AtDrop => Rule::at_drop,
            Self::PiecelessMove => Rule::pieceless_move,
            Self::ChessMove => Rule::chess_move,
            Self::ChessDrop => Rule::chess_drop,
            Self::Result => Rule::result,
            Self::ResultDialect => Rule::result_dialect,
            Self::EndWord => Rule::end_word,
            Self::Glyph => Rule::glyph,
            Self::Nag => Rule::nag,
            Self::Clock => Rule::clock,
            Self::VariationLine => Rule::variation_word,
            Self::SetupPiece => Rule::setup_piece,
            Self::SetupHand => Rule::setup_hand,
            Self::SetupEnd => Rule::setup_end,
        }
    }

    /// The name of [`WordKind::rule`] in the grammar: `"spec_move"`.
    pub fn rule_name(self) -> String {
        format!("{:?}", self.rule())
    }

    /// The kind whose rule is named `name` in the grammar; an error for a name that is no word
    /// rule.
    pub fn from_rule_name(name: &str) -> Result<Self, UnknownWordRule> {
        Self::ALL.into_iter().find(|k| k.rule_name() == name).ok_or_else(|| UnknownWordRule(name.to_owned()))
    }

    /// True for the forms of a move or drop.
    pub const fn is_move(self) -> bool {
        matches!(
            self,
            Self::SpecMove
                | Self::SpecDrop
                | Self::SeparatedMove
                | Self::ShortMove
                | Self::UsiMove
                | Self::AtDrop
                | Self::PiecelessMove
                | Self::ChessMove
                | Self::ChessDrop
        )
    }

    /// True for what ends a game.
    pub const fn is_end(self) -> bool {
        matches!(self, Self::Result | Self::ResultDialect | Self::EndWord)
    }
}

/// A rule name that names no [`WordKind`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a word rule of psn.pest")]
pub struct UnknownWordRule(pub String);

/// The grammar's automata, compiled once.
struct Automata {
    words: ChoiceDfa,
    kinds: Vec<WordKind>,
    header: RuleDfa,
    header_named: RuleDfa,
    paren_clock: PrefixDfa,
    won_line: RuleDfa,
    variation_line: RuleDfa,
}

static AUTOMATA: LazyLock<Automata> = LazyLock::new(|| {
    // The grammar is part of the program: a rule that does not compile is a bug that every test
    // shows at once.
    #[allow(clippy::expect_used)]
    let grammar = Rules::named("psn").expect("psn.pest was read when kifu was built");
    #[allow(clippy::expect_used)]
    let words = ChoiceDfa::compile_in(&grammar, "word").expect("the `word` rule of psn.pest compiles");
    #[allow(clippy::expect_used)]
    let kinds = words
        .names()
        .iter()
        .map(|n| WordKind::from_rule_name(n))
        .collect::<Result<Vec<_>, _>>()
        .expect("every alternative of the `word` rule of psn.pest is a WordKind");
    #[allow(clippy::expect_used)]
    let rule = |name: &str| RuleDfa::compile_in(&grammar, name).expect("a regular rule of psn.pest");
    Automata {
        header: rule("header"),
        header_named: rule("header_named"),
        #[allow(clippy::expect_used)]
        paren_clock: PrefixDfa::compile_in(&grammar, "paren_clock").expect("`paren_clock` of psn.pest compiles"),
        won_line: rule("won_line"),
        variation_line: rule("variation_line"),
        words,
        kinds,
    }
});

/// The word rule that matches all of `word`, if any.
#[inline]
pub fn classify(word: &str) -> Option<WordKind> {
    classify_bytes(word.as_bytes())
}

/// [`classify`] of the bytes of a word.
#[inline]
fn classify_bytes(word: &[u8]) -> Option<WordKind> {
    let a = &*AUTOMATA;
    a.words.classify(word).map(|i| a.kinds[i])
}

/// True when `line` is a header as the spec writes it: `[Keyword "text"]`.
pub(crate) fn is_spec_header(line: &str) -> bool {
    AUTOMATA.header.is_match(line)
}

/// True when `line` is a header in the spec's shape with a keyword of other characters
/// (`[Black_grade "3dan"]`).
pub(crate) fn is_named_header(line: &str) -> bool {
    AUTOMATA.header_named.is_match(line)
}

/// The names of the word rules the automaton was compiled from (for tests).
#[cfg(feature = "internals")]
pub fn word_rule_names() -> Vec<String> {
    AUTOMATA.words.names().to_vec()
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A line that starts with `[`: one header or more.
    HeaderLine,
    /// A word of movetext.
    Word(WordKind),
    /// `{…}`; `closed` is false when the game ended first.
    Comment {
        /// The closing brace was found.
        closed: bool,
    },
    /// `;` to the end of the line.
    LineComment,
    /// A `%` line.
    Escape,
    /// A line of prose.
    Prose,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `(00:01 / 00:00:09)`
    ParenClock,
    /// `--Black Won--`
    WonLine,
    /// A `}` with no `{`.
    StrayBrace,
    /// A word that no rule matches.
    Unknown,
}

/// A token and its characters (offsets into its game's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Where it is.
    pub span: Span,
}

/// A place where a game's bytes were not read as UTF-8 (see [`super::decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legacy {
    /// Offset, relative to the game's start, of the first character so read.
    pub at: usize,
    /// The encoding those bytes were read in.
    pub encoding: Encoding,
    /// The encoding the game's other legacy lines were read in, when these bytes are not valid
    /// in it (they were then read on their own).
    pub unlike: Option<Encoding>,
}

/// A game's text and tokens.
#[derive(Clone, Debug, Default)]
pub struct RawGame {
    /// Where the game's text starts in the file's text.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// 1-based line of its first character.
    pub line: usize,
    /// Its tokens, offsets relative to `start`.
    pub tokens: Vec<Token>,
    /// True when its move lines carry clock columns (the time each move took).
    pub timed: bool,
    /// The encoding its text was read in: UTF-8 unless a line of it was not.
    pub encoding: Encoding,
    /// Where its bytes were first read in a legacy encoding, and where a line was not valid in
    /// the encoding of the game's other lines (at most one of each).
    pub legacy: Vec<Legacy>,
}

/// Cuts `text` into games. Every character of the text belongs to exactly one game, except
/// blank lines before the first; a text with nothing but blanks has no game.
pub fn scan(text: &str) -> Vec<RawGame> {
    scan_with(text, true)
}

/// [`scan`], with the short loop for the commonest words or without it.
fn scan_with(text: &str, short_loop: bool) -> Vec<RawGame> {
    let mut s = Scanner { short_loop, ..Scanner::new(1) };
    let mut rest = text;
    while !rest.is_empty() {
        let len = line_len(rest.as_bytes());
        s.push_line(&rest[..len], None);
        rest = &rest[len..];
    }
    s.end();
    s.games
}

use crate::input::lines::line_len;

/// What `line` is to the legacy decoder: a header line, a line starting with move number 1,
/// or another.
pub(crate) fn line_role(line: &[u8]) -> LineRole {
    if is_header_line(line) {
        LineRole::Header
    } else if is_first_move_line(line) {
        LineRole::First
    } else {
        LineRole::Other
    }
}

/// True when `line` (its bytes, in any of the encodings PSN files come in) is a header line:
/// its first character after spaces and tabs is `[`.
pub fn is_header_line(line: &[u8]) -> bool {
    line.iter().find(|&&b| b != b' ' && b != b'\t') == Some(&b'[')
}

/// True when `line` starts with the move number 1 (`1.`, `1...`, `1.P7f`), after spaces and
/// tabs: after a blank line, where a game that never closed a comment or a variation stops
/// (PSN note 9).
pub fn is_first_move_line(line: &[u8]) -> bool {
    let at = line.iter().position(|&b| b != b' ' && b != b'\t').unwrap_or(line.len());
    line[at..].starts_with(b"1.")
}

/// True for the ASCII characters that are white space ([`char::is_whitespace`]: the
/// vertical tab and form feed too).
const fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// What a byte is to the movetext reader ([`BYTES`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Byte {
    /// Part of a word: an ASCII character that is neither white space nor a bracket.
    Word,
    /// ASCII white space within a line ([`is_ascii_space`], less the line ends).
    Space,
    /// `\n` or `\r`.
    LineEnd,
    /// `{`, `}`, `(` or `)`: a word stops before it.
    Bracket,
    /// A byte of a character of more than one byte, looked at as a `char`.
    Wide,
}

/// [`Byte`] of every byte, so that the reader looks at each once.
static BYTES: [Byte; 256] = {
    let mut table = [Byte::Wide; 256];
    let mut b = 0;
    while b < 0x80 {
        table[b as usize] = match b {
            b'\n' | b'\r' => Byte::LineEnd,
            b'{' | b'}' | b'(' | b')' => Byte::Bracket,
            _ if is_ascii_space(b) => Byte::Space,
            _ => Byte::Word,
        };
        b += 1;
    }
    table
};

/// Where the word starting at `start` in `text` ends: at the first white space, brace or
/// parenthesis, or at the end of the text.
fn word_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = start;
    while let Some(&b) = bytes.get(i) {
        match BYTES[usize::from(b)] {
            Byte::Word => i += 1,
            Byte::Wide => match text.get(i..).and_then(|rest| rest.chars().next()) {
                Some(c) if c.is_whitespace() => return i,
                Some(c) => i += c.len_utf8(),
                None => return i,
            },
            Byte::Space | Byte::LineEnd | Byte::Bracket => return i,
        }
    }
    bytes.len()
}

fn wordy(word: &str) -> bool {
    let mut run = 0;
    for c in word.chars() {
        run = if c.is_alphabetic() { run + 1 } else { 0 };
        if run >= 3 {
            return true;
        }
    }
    false
}

/// True when the line of `tokens` (`text` gives the characters between two offsets) holds a
/// word of prose as the grammar's `prose_line` reads one (`prose_wordy`): a run of characters
/// between white space with three letters in a row, at whose start no word rule reads a word.
/// A run that starts inside a token (a `;` comment's words) is not counted.
fn has_prose_word<'t>(tokens: &[Token], text: impl Fn(usize, usize) -> &'t str) -> bool {
    let (Some(first), Some(last)) = (tokens.first(), tokens.last()) else { return false };
    let line = text(first.span.start, last.span.end);
    line.split(char::is_whitespace).any(|run| {
        let start = first.span.start + (run.as_ptr() as usize - line.as_ptr() as usize);
        wordy(run)
            && tokens
                .binary_search_by_key(&start, |t| t.span.start)
                .is_ok_and(|i| !matches!(tokens[i].kind, Kind::Word(_)))
    })
}

/// True when one of `tokens` is a word that ends a game.
fn ends_in(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| matches!(t.kind, Kind::Word(k) if k.is_end()))
}

/// True when `line` holds nothing but white space.
fn is_blank(line: &str) -> bool {
    trim_start(line).is_empty()
}

/// [`str::trim_start`], which looks at the bytes one by one while they are ASCII (a line is
/// trimmed several times as it is read).
pub(crate) fn trim_start(s: &str) -> &str {
    let bytes = s.as_bytes();
    let start = bytes.iter().position(|&b| !is_ascii_space(b)).unwrap_or(bytes.len());
    match s.get(start..) {
        Some(rest) if rest.as_bytes().first().is_none_or(u8::is_ascii) => rest,
        _ => s.trim_start(),
    }
}

/// [`str::trim_end`], which looks at the bytes one by one while they are ASCII.
fn trim_end(s: &str) -> &str {
    let bytes = s.as_bytes();
    let end = bytes.iter().rposition(|&b| !is_ascii_space(b)).map_or(0, |i| i + 1);
    match s.get(..end) {
        Some(rest) if rest.as_bytes().last().is_none_or(u8::is_ascii) => rest,
        _ => s.trim_end(),
    }
}

#[derive(Default)]
struct State {
    started: bool,
    movetext: bool,
    ended: bool,
    /// Variation depth, to tell the end of the main line.
    depth: usize,
}

/// A comment that runs on past the end of its line.
#[derive(Clone, Copy)]
struct OpenComment {
    /// Where its `{` is.
    start: usize,
    /// Braces open.
    depth: usize,
    /// One past its last character that is not a space or a line end.
    last_content: usize,
    /// The line of `last_content`.
    last_line: usize,
    /// The first token of the movetext line it started on.
    first: usize,
}

/// Cuts a text into games, line by line, keeping only the text of the game it is in.
///
/// Lines are given one at a time with [`Scanner::push_line`]; finished games wait in
/// [`Scanner::take_games`], whose text [`Scanner::game_text`] gives until the next
/// [`Scanner::compact`]. Cutting a text into lines and pushing them gives the same games,
/// tokens and offsets, whatever the lines were read with: the scanner carries everything a game
/// needs from one line to the next.
pub(crate) struct Scanner {
    /// The text since the start of the game being read (or since the last compaction).
    buf: String,
    /// Offset in the whole text of `buf`'s first byte.
    origin: usize,
    pos: usize,
    /// The line being read, 1-based.
    line: usize,
    games: Vec<RawGame>,
    game: RawGame,
    state: State,
    /// A comment still open at the end of the last line.
    open: Option<OpenComment>,
    /// The last line was blank.
    after_blank: bool,
    /// The lines read in a legacy encoding (their start and end in the whole text, encoding,
    /// unlike), in text order, not yet handed to every game they overlap: a game takes a note
    /// for each such line its text shares when it is taken ([`Scanner::take_games`]), however
    /// its bounds moved while it was read and wherever it cuts a line.
    legacy: std::collections::VecDeque<(usize, usize, Encoding, Option<Encoding>)>,
    /// How many tokens the last game finished had: room for as many is made for the next.
    tokens_hint: usize,
    /// The commonest words are read by a short loop ([`Scanner::plain_words`]); off only in
    /// the test that holds it to the long one.
    short_loop: bool,
}

impl Scanner {
    /// A scanner whose first line is numbered `line`.
    pub fn new(line: usize) -> Self {
        Self {
            buf: String::new(),
            origin: 0,
            pos: 0,
            line,
            games: Vec::new(),
            game: RawGame::default(),
            state: State::default(),
            open: None,
            after_blank: true,
            legacy: std::collections::VecDeque::new(),
            tokens_hint: 0,
            short_loop: true,
        }
    }

    /// A scanner whose first line is numbered `line` and starts at offset `origin` of the whole
    /// text: one that read the text before and finished its last game there is in the same
    /// state.
    pub fn at(line: usize, origin: usize) -> Self {
        Self { origin, ..Self::new(line) }
    }

    /// Makes room for `bytes` more of text, and for the tokens of a game that long (about one
    /// per three bytes of movetext).
    pub fn reserve(&mut self, bytes: usize) {
        self.buf.reserve(bytes);
        self.tokens_hint = self.tokens_hint.max((bytes / 3).min(4096));
    }

    /// The offset in the whole text of the next line.
    pub fn offset(&self) -> usize {
        self.origin + self.buf.len()
    }

    /// Reads one line, with its line end (the last line may have none). `legacy` says where
    /// the line's first character not read as UTF-8 is (an offset in `line`), the encoding it
    /// was read in, and the encoding of the game it broke from, if any.
    pub fn push_line(&mut self, line: &str, legacy: Option<(usize, Encoding, Option<Encoding>)>) {
        let line_start = self.buf.len();
        self.buf.push_str(line);
        self.pos = line_start;
        let ends = line.bytes().rev().take_while(|&b| b == b'\n' || b == b'\r').count();
        let content_end = line_start + line.len() - ends;
        self.read_line(line_start, content_end);
        if let Some((_, encoding, unlike)) = legacy {
            let start = self.origin + line_start;
            self.legacy.push_back((start, start + line.len(), encoding, unlike));
        }
        self.after_blank = is_blank(line);
        self.pos = self.buf.len();
        if self.pos > content_end {
            self.line += 1;
        }
    }

    /// Ends the text: the game being read is finished.
    pub fn end(&mut self) {
        self.close_open_comment();
        if self.state.started {
            self.finish(self.origin + self.buf.len());
        }
    }

    /// The games finished so far (offsets into the text since the last compaction, shifted by
    /// [`Scanner::origin`]).
    pub fn take_games(&mut self) -> Vec<RawGame> {
        let mut games = std::mem::take(&mut self.games);
        for game in &mut games {
            while self.legacy.front().is_some_and(|&(_, end, ..)| end <= game.start) {
                self.legacy.pop_front();
            }
            for &(start, end, encoding, unlike) in &self.legacy {
                if start >= game.end {
                    break;
                }
                // The game's part of the line: read alike in any encoding when it is ASCII.
                let (from, to) = (start.max(game.start), end.min(game.end));
                let part = &self.buf[from - self.origin..to - self.origin];
                let Some(i) = part.find(|c: char| !c.is_ascii()) else { continue };
                if game.legacy.is_empty() {
                    game.encoding = encoding;
                }
                game.legacy.push(Legacy { at: from + i - game.start, encoding, unlike });
            }
        }
        games
    }

    /// The text of `game`, one of [`Scanner::take_games`] since the last compaction.
    pub fn game_text(&self, game: &RawGame) -> &str {
        &self.buf[game.start - self.origin..game.end - self.origin]
    }

    /// Forgets the text before the game being read; offsets go on counting from the whole text.
    pub fn compact(&mut self) {
        let keep = if self.state.started { self.game.start - self.origin } else { self.buf.len() };
        if keep > 0 {
            self.buf.drain(..keep);
            self.origin += keep;
            self.pos -= keep;
            if let Some(open) = &mut self.open {
                open.start -= keep;
                open.last_content -= keep;
            }
            self.forget_legacy();
        }
    }

    /// Forgets the legacy notes before the text kept: they are in no game.
    fn forget_legacy(&mut self) {
        while self.legacy.front().is_some_and(|&(_, end, ..)| end <= self.origin) {
            self.legacy.pop_front();
        }
    }

    /// Bytes of text kept: the game being read, from its first line.
    pub fn held(&self) -> usize {
        self.buf.len()
    }

    /// The first line of the game being read, with its line end.
    pub fn held_head(&self) -> String {
        let rest = &self.buf[(self.game.start - self.origin).min(self.buf.len())..];
        rest[..line_len(rest.as_bytes())].to_owned()
    }

    /// The 1-based line of the first line of the game being read, if one is.
    pub fn game_line(&self) -> Option<usize> {
        self.state.started.then_some(self.game.line)
    }

    /// Drops the game being read (it is too long to keep); the next line is numbered `line`.
    pub fn abandon(&mut self, line: usize) {
        self.origin += self.buf.len();
        self.buf.clear();
        self.forget_legacy();
        self.pos = 0;
        self.game = RawGame::default();
        self.state = State::default();
        self.open = None;
        self.after_blank = true;
        self.line = line;
    }

    /// True when the line `bytes` would start a game: the first line of a text, a header line
    /// after a game's moves, or a line starting with move number 1 after a blank line in a game
    /// that left a comment or a variation open.
    pub fn starts_game(&self, bytes: &[u8]) -> bool {
        if !self.state.started {
            return true;
        }
        let header = is_header_line(bytes);
        (header && (self.state.movetext || self.open.is_some())) || self.recovers(bytes)
    }

    /// True when the line `bytes` ends a game left inside a comment or a variation.
    fn recovers(&self, bytes: &[u8]) -> bool {
        self.after_blank && (self.open.is_some() || self.state.depth > 0) && is_first_move_line(bytes)
    }

    fn read_line(&mut self, line_start: usize, line_end: usize) {
        let starts = self.state.started && self.recovers(&self.buf.as_bytes()[line_start..line_end]);
        if self.open.is_some() {
            if starts || is_header_line(&self.buf.as_bytes()[line_start..line_end]) {
                // The comment never closed: it ends before the next game.
                self.close_open_comment();
            } else {
                self.continue_comment();
                return;
            }
        }
        if starts {
            self.finish(self.origin + line_start);
            self.begin(line_start);
        }
        let line = &self.buf[line_start..line_end];
        let trimmed = trim_start(line);
        let indent = line.len() - trimmed.len();
        let t_start = line_start + indent;
        let t_end = t_start + trim_end(trimmed).len();
        let escape = line.starts_with('%');
        self.pos = line_end;
        let Some(&first) = self.buf.as_bytes().get(t_start).filter(|_| t_end > t_start) else { return };
        if !self.state.started {
            self.begin(line_start);
        }
        if first == b'[' {
            if self.state.movetext {
                self.finish(self.origin + line_start);
                self.begin(line_start);
            }
            self.push(Kind::HeaderLine, t_start, t_end);
        } else if escape {
            self.mark_movetext();
            let end = line_start + trim_end(&self.buf[line_start..line_end]).len();
            self.push(Kind::Escape, line_start, end);
        } else if first == b'-' && AUTOMATA.won_line.is_match(&self.buf[t_start..t_end]) {
            self.mark_movetext();
            self.push(Kind::WonLine, t_start, t_end);
            if self.state.depth == 0 {
                self.state.ended = true;
            }
        } else if matches!(first, b'V' | b'v') && AUTOMATA.variation_line.is_match(&self.buf[t_start..t_end]) {
            // A branch after the end of the main line continues the game (Shogidokoro, MyShogi).
            self.mark_movetext();
            self.state.ended = false;
            self.push(Kind::Word(WordKind::VariationLine), t_start, t_end);
        } else {
            self.pos = line_start;
            let first = self.game.tokens.len();
            let depth = self.state.depth;
            self.movetext(line_start, first, depth, false);
        }
    }

    fn begin(&mut self, at: usize) {
        let line = self.line;
        let tokens = Vec::with_capacity(self.tokens_hint);
        self.game = RawGame { start: self.origin + at, end: self.origin + at, line, tokens, ..RawGame::default() };
        self.state = State { started: true, ..State::default() };
    }

    /// Finishes the game being read at `at`, an offset in the whole text.
    fn finish(&mut self, at: usize) {
        let mut game = std::mem::take(&mut self.game);
        // Trailing blank lines belong to the game, but not to its text as shown.
        let last = game.tokens.iter().map(|t| t.span.end).max().unwrap_or(0);
        let text = &self.buf[game.start - self.origin..at - self.origin];
        game.end = game.start + trim_end(text).len().max(last);
        self.tokens_hint = game.tokens.len().min(4096);
        self.games.push(game);
        self.state = State::default();
    }

    fn mark_movetext(&mut self) {
        self.state.movetext = true;
    }

    /// Pushes a token at `start..end`, offsets in `buf`.
    fn push(&mut self, kind: Kind, start: usize, end: usize) {
        let base = self.game.start - self.origin;
        self.game.tokens.push(Token { kind, span: Span::new(start - base, end - base) });
    }

    /// The movetext of a line from `self.pos`, whose tokens start at `first`; the line started
    /// at variation depth `depth`. A comment that runs on past the line leaves the rest of the
    /// line to [`Scanner::continue_comment`].
    fn movetext(&mut self, line_start: usize, first: usize, depth: usize, mut saw_comment: bool) {
        loop {
            if self.short_loop {
                self.plain_words();
            }
            // Skip white space within the line.
            while let Some(&b) = self.buf.as_bytes().get(self.pos) {
                match BYTES[usize::from(b)] {
                    Byte::Space => self.pos += 1,
                    Byte::Wide => match self.buf[self.pos..].chars().next() {
                        Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                        _ => break,
                    },
                    Byte::Word | Byte::LineEnd | Byte::Bracket => break,
                }
            }
            let start = self.pos;
            let Some(&b) = self.buf.as_bytes().get(start) else { break };
            if b == b'\n' || b == b'\r' {
                break;
            }
            self.mark_movetext();
            match b {
                b'{' => {
                    saw_comment = true;
                    let open = OpenComment { start, depth: 0, last_content: start + 1, last_line: self.line, first };
                    if !self.comment(open) {
                        return;
                    }
                }
                b'}' => {
                    self.push(Kind::StrayBrace, start, start + 1);
                    self.pos += 1;
                }
                b';' => {
                    let rest = &self.buf[start..];
                    let end = start + memchr::memchr2(b'\n', b'\r', rest.as_bytes()).unwrap_or(rest.len());
                    let len = trim_end(&self.buf[start..end]).len();
                    self.push(Kind::LineComment, start, start + len);
                    self.pos = end;
                }
                b'(' => {
                    if let Some(len) = AUTOMATA.paren_clock.prefix(&self.buf[start..]) {
                        self.push(Kind::ParenClock, start, start + len);
                        self.pos = start + len;
                    } else {
                        self.push(Kind::Open, start, start + 1);
                        self.state.depth += 1;
                        self.pos += 1;
                    }
                }
                b')' => {
                    self.push(Kind::Close, start, start + 1);
                    self.state.depth = self.state.depth.saturating_sub(1);
                    self.pos += 1;
                }
                _ => {
                    let end = word_end(&self.buf, start);
                    self.word(start, end);
                    self.pos = end;
                }
            }
        }
        if !saw_comment {
            self.prose_or_split(line_start, first, depth);
        } else {
            self.split_after_end(first, ends_in(&self.game.tokens[first..]));
        }
    }

    /// Reads the words from `self.pos` on that are read alike by the loop of
    /// [`Scanner::movetext`] and by this shorter one, the commonest words of all: white space
    /// within the line, then a word of ASCII characters that ends at white space or at the
    /// line's end and that a word rule names whole. It stops before anything else (a word the
    /// loop reads otherwise: a comment, a bracket, a character of several bytes, a word no rule
    /// names whole) and leaves it to the loop, with `self.pos` after the last word read.
    #[inline]
    fn plain_words(&mut self) {
        let bytes = self.buf.as_bytes();
        let base = self.game.start - self.origin;
        let automata = &*AUTOMATA;
        let mut pos = self.pos;
        let mut read = false;
        loop {
            let mut i = pos;
            while bytes.get(i).is_some_and(|&b| BYTES[usize::from(b)] == Byte::Space) {
                i += 1;
            }
            let start = i;
            // A `;` starts a comment.
            let Some(rest) = bytes.get(start..).filter(|rest| rest.first().is_some_and(|&b| b != b';')) else { break };
            let (len, named) = automata.words.classify_while(rest, |b| BYTES[usize::from(b)] == Byte::Word);
            i += len;
            let ends = bytes.get(i).is_none_or(|&b| matches!(BYTES[usize::from(b)], Byte::Space | Byte::LineEnd));
            let kind = if len > 0 && ends { named.map(|n| automata.kinds[n]) } else { None };
            let Some(kind) = kind else { break };
            self.game.tokens.push(Token { kind: Kind::Word(kind), span: Span::new(start - base, i - base) });
            read = true;
            pos = i;
        }
        self.pos = pos;
        self.state.movetext |= read;
    }

    /// Pushes the tokens of the word `start..end`.
    fn word(&mut self, start: usize, end: usize) {
        // Named from its bytes, without making it text first.
        if let Some(kind) = self.buf.as_bytes().get(start..end).and_then(classify_bytes) {
            self.push(Kind::Word(kind), start, end);
            return;
        }
        let word = &self.buf[start..end];
        // A sequence number glued to what follows it: `12.P8gx8f`, `16.Sennichite`.
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        if digits > 0 && dots > 0 && digits + dots < word.len() {
            let cut = start + digits + dots;
            if classify(&self.buf[start..cut]) == Some(WordKind::Seqnum) {
                self.push(Kind::Word(WordKind::Seqnum), start, cut);
                if self.glyphed(cut, end) {
                    self.push_glyphed(cut, end);
                } else {
                    self.push(Kind::Unknown, cut, end);
                }
                return;
            }
        }
        if self.glyphed(start, end) {
            self.push_glyphed(start, end);
            return;
        }
        self.push(Kind::Unknown, start, end);
    }

    /// True when `start..end` is a move or end word, with or without a glyph glued to it.
    fn glyphed(&self, start: usize, end: usize) -> bool {
        let word = &self.buf[start..end];
        if classify(word).is_some_and(|k| k.is_move() || k.is_end()) {
            return true;
        }
        let stem = word.trim_end_matches(['!', '?']);
        stem.len() < word.len()
            && classify(stem).is_some_and(WordKind::is_move)
            && classify(&word[stem.len()..]) == Some(WordKind::Glyph)
    }

    fn push_glyphed(&mut self, start: usize, end: usize) {
        let word = &self.buf[start..end];
        if let Some(kind) = classify(word) {
            self.push(Kind::Word(kind), start, end);
            return;
        }
        let stem = word.trim_end_matches(['!', '?']);
        let cut = start + stem.len();
        if let Some(kind) = classify(stem) {
            self.push(Kind::Word(kind), start, cut);
        }
        self.push(Kind::Word(WordKind::Glyph), cut, end);
    }

    /// `{…}` from `self.pos`, nested braces counted, up to the end of the text read so far:
    /// true when it closed. Still open, it waits in `self.open` for the next line: a comment
    /// still open at the next game (a header line, or the first move after a blank line of a
    /// game that never closed a comment or variation) or at the end of the text is unclosed,
    /// and ends before that line.
    fn comment(&mut self, mut open: OpenComment) -> bool {
        let bytes = self.buf.as_bytes();
        let mut i = self.pos;
        let mut closed = None;
        let mut content = false;
        while i < bytes.len() {
            match bytes[i] {
                b'{' => open.depth += 1,
                b'}' => {
                    open.depth -= 1;
                    if open.depth == 0 {
                        closed = Some(i + 1);
                        break;
                    }
                }
                _ => {}
            }
            if !matches!(bytes[i], b'\n' | b'\r' | b' ' | b'\t') {
                open.last_content = i + 1;
                content = true;
            }
            i += 1;
        }
        if let Some(end) = closed {
            self.push(Kind::Comment { closed: true }, open.start, end);
            self.pos = end;
            return true;
        }
        if content {
            open.last_line = self.line;
        }
        self.pos = i;
        self.open = Some(open);
        false
    }

    /// A line read inside a comment that runs on from an earlier line.
    fn continue_comment(&mut self) {
        let Some(open) = self.open.take() else { return };
        if self.comment(open) {
            // The rest of the line goes on from where the comment's line began.
            self.movetext(0, open.first, self.state.depth, true);
        }
    }

    /// Closes a comment still open as unclosed, at its last character.
    fn close_open_comment(&mut self) {
        let Some(open) = self.open.take() else { return };
        let end = open.last_content.max(open.start + 1);
        self.push(Kind::Comment { closed: false }, open.start, end);
        // A game cut after the comment starts on the comment's last line.
        let line = std::mem::replace(&mut self.line, open.last_line);
        self.split_after_end(open.first, ends_in(&self.game.tokens[open.first..]));
        self.line = line;
    }

    /// At the end of a movetext line without comments, which started at variation depth
    /// `depth`: the line is prose, or a move on it after the end of the game starts the next
    /// game, or it is plain movetext.
    fn prose_or_split(&mut self, line_start: usize, first: usize, depth: usize) {
        let base = self.game.start - self.origin;
        let tokens = &self.game.tokens[first..];
        let word = |t: &Token| &self.buf[base + t.span.start..base + t.span.end];
        // One pass over the line's tokens: its unknown words (and how many are wordy), its
        // words, whether one is a move or an end, and the kinds of its last two words.
        let (mut unknown, mut wordy_unknown, mut known) = (0, 0, 0);
        let (mut moves_or_ends, mut ends, mut last_two) = (false, false, [None, None]);
        for t in tokens {
            match t.kind {
                Kind::Unknown => {
                    unknown += 1;
                    wordy_unknown += usize::from(wordy(word(t)));
                }
                Kind::Word(k) => {
                    known += 1;
                    moves_or_ends |= k.is_move() || k.is_end();
                    ends |= k.is_end();
                    last_two = [last_two[1], Some(k)];
                }
                _ => {}
            }
        }
        let clocked = known >= 3 && last_two == [Some(WordKind::Clock); 2];
        if unknown == 0 && clocked && moves_or_ends {
            self.game.timed = true;
        }
        let prose = if self.game.timed {
            wordy_unknown >= 1 && !clocked
        } else {
            (wordy_unknown >= 2 && wordy_unknown >= known) || (wordy_unknown >= 1 && known == 0)
        };
        if prose && has_prose_word(tokens, |start, end| &self.buf[base + start..base + end]) {
            let end = tokens.last().map_or(line_start, |t| t.span.end + base);
            let start = tokens.first().map_or(line_start, |t| t.span.start + base);
            self.game.tokens.truncate(first);
            self.push(Kind::Prose, start, end);
            // The parentheses of prose open and close no variation.
            self.state.depth = depth;
            return;
        }
        self.split_after_end(first, ends);
    }

    /// A move after the end of the game, on the line whose tokens start at `first`, starts a
    /// new game at that line; `ends` says whether one of those tokens ends a game
    /// ([`ends_in`]).
    fn split_after_end(&mut self, first: usize, ends: bool) {
        // Most lines: the game has not ended, and no word of the line ends it.
        if !self.state.ended && !ends {
            return;
        }
        let mut depth = self.state.depth;
        let tokens = &self.game.tokens[first..];
        // Rewind the depth over this line's parentheses to walk it in order.
        for t in tokens.iter().rev() {
            match t.kind {
                Kind::Open => depth = depth.saturating_sub(1),
                Kind::Close => depth += 1,
                _ => {}
            }
        }
        let mut ended = self.state.ended;
        let mut split = None;
        for (i, t) in tokens.iter().enumerate() {
            match t.kind {
                Kind::Open => depth += 1,
                Kind::Close => depth = depth.saturating_sub(1),
                Kind::Word(k) if depth == 0 && k.is_end() => ended = true,
                Kind::Word(k) if ended && (k.is_move() || k == WordKind::Seqnum) => {
                    split = Some(first + i);
                    break;
                }
                _ => {}
            }
        }
        self.state.ended = ended;
        let Some(at) = split else { return };
        let old_base = self.game.start - self.origin;
        let moved: Vec<Token> = self.game.tokens.drain(at..).collect();
        let new_start = old_base + moved[0].span.start;
        let line = self.line;
        self.finish(self.origin + new_start);
        self.begin(new_start);
        self.game.line = line;
        self.state.movetext = true;
        for t in moved {
            self.push(t.kind, old_base + t.span.start, old_base + t.span.end);
        }
        // What follows in the new game is checked again.
        let first = 0;
        let tokens = &self.game.tokens[first..];
        self.state.ended = ends_in(tokens) && self.state.depth == 0;
    }
}

/// Every word of the `spec_move` and `spec_drop` rules (finite languages), with its rule: for
/// the tests that hold the automaton and the decoder to them.
#[cfg(test)]
pub(super) fn spec_words() -> Vec<(String, WordKind)> {
    let cells: Vec<String> =
        (b'1'..=b'9').flat_map(|f| (b'a'..=b'i').map(move |r| format!("{}{}", f as char, r as char))).collect();
    let mut out = Vec::new();
    for piece in "PLNSGBRK".chars() {
        for to in &cells {
            for promoted in ["", "+"] {
                for from in std::iter::once("").chain(cells.iter().map(String::as_str)) {
                    for promotion in ["", "+", "="] {
                        out.push((format!("{promoted}{piece}{from}{to}{promotion}"), WordKind::SpecMove));
                    }
                }
            }
            for mark in ['*', '\''] {
                out.push((format!("{piece}{mark}{to}"), WordKind::SpecDrop));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_rule_has_a_kind() {
        let names = word_rule_names();
        let ours: Vec<String> = WordKind::ALL.iter().map(|k| k.rule_name()).collect();
        assert_eq!(names, ours);
    }

    #[test]
    fn word_alternatives_map_to_kinds_and_back() {
        let names = Rules::named("psn").expect("psn.pest").alternatives("word").expect("the `word` rule");
        let kinds: Vec<WordKind> =
            names.iter().map(|n| WordKind::from_rule_name(n).expect("a word rule with a kind")).collect();
        // In the grammar's order, each kind once.
        assert_eq!(kinds, WordKind::ALL);
        for (kind, name) in kinds.iter().zip(&names) {
            assert_eq!(&kind.rule_name(), name);
        }
        for bad in ["", "word", "SetupEnd", "setup-end", "spec_move ", "move_lenient", "header"] {
            assert_eq!(WordKind::from_rule_name(bad), Err(UnknownWordRule(bad.to_owned())), "{bad:?}");
        }
    }

    #[test]
    fn names_words() {
        // Each word and the rule that names it (`-`: none).
        const NAMED: &str = "P7f spec_move, G4a5b spec_move, P7g-7f separated_move, P-7f short_move, \
            G45b short_move, 7g7f usi_move, Gf1e2 chess_move, Pxg3=G chess_move, 12... seqnum, \
            1/2-1/2 result, Resigns end_word, 07:55:00 clock, bRH1 setup_hand, R7f--4b -, 2f -";
        for pair in NAMED.split(", ") {
            let (word, rule) = pair.split_once(' ').expect("a word and a rule");
            let kind = (rule != "-").then(|| WordKind::from_rule_name(rule).expect("a word rule"));
            assert_eq!(classify(word), kind, "{word:?}");
        }
    }

    #[test]
    fn the_automaton_names_every_spec_move_and_drop() {
        let words = spec_words();
        assert_eq!(words.len(), 8 * 81 * (2 * 82 * 3 + 2));
        for (w, kind) in &words {
            assert_eq!(classify_bytes(w.as_bytes()), Some(*kind), "{w:?}");
        }
        // Other marks than a drop's make other words (`P-7f` is a short move), never a drop.
        for piece in "PLNSGBRK".chars() {
            for mark in ['+', '-'] {
                for file in '1'..='9' {
                    for rank in 'a'..='i' {
                        let w = format!("{piece}{mark}{file}{rank}");
                        assert_ne!(classify_bytes(w.as_bytes()), Some(WordKind::SpecDrop), "{w:?}");
                    }
                }
            }
        }
        // And pest's own parser, on every 97th of them.
        use pest::Parser as _;
        for (w, kind) in words.iter().step_by(97) {
            let whole = super::super::parser::PsnParser::parse(kind.rule(), w).is_ok_and(|p| p.as_str() == w);
            assert!(whole, "{w:?}");
        }
    }

    #[test]
    fn the_short_loop_reads_words_as_the_long_one_does() {
        // Lines made of words of every kind, brackets, comments, glued numbers and glyphs,
        // characters of several bytes and white space of every kind: the games and tokens are
        // the same whether the commonest words are read by the short loop or not.
        const PARTS: &[&str] = &[
            "1.",
            "12...",
            "P7f",
            "P*5e",
            "G4a5b",
            "+B3c",
            "P7g+",
            "N2c=",
            "1-0",
            "Resigns",
            "P7g-7f",
            "7g7f",
            "x",
            "P7f!",
            "P7f?!",
            "$3",
            "{c}",
            "{",
            "}",
            "(",
            ")",
            "(1:02)",
            ";c",
            "x;y",
            "12.P7f",
            "歩",
            "\u{3000}",
            "\u{a0}",
            "\t",
            " ",
            "  ",
            "\r\n",
            "%esc",
            "[Event \"x\"]",
            "P7f{c}",
            "P7f(",
            "07:55:00",
            "\n",
            "\n\n",
            "\u{0B}",
            "P",
            "p7f",
            "G*",
            "",
            "1.P7f",
            "...",
            "-",
            "P7f;c",
            "P7f歩",
        ];
        let mut rng = crate::rng::XorShift(0x2545_F491_4F6C_DD1D);
        let mut words = 0;
        for _ in 0..4000 {
            let mut text = String::from("[Event \"e\"]\n");
            for _ in 0..(rng.next_u64() % 12) {
                let seed = rng.next_u64();
                text.push_str(PARTS[(seed % PARTS.len() as u64) as usize]);
                text.push_str([" ", " ", "", "\t", "\n"][((seed >> 32) % 5) as usize]);
            }
            let (short, long) = (scan_with(&text, true), scan_with(&text, false));
            assert_eq!(short.len(), long.len(), "{text:?}");
            for (a, b) in short.iter().zip(&long) {
                assert_eq!((a.start, a.end, a.line, a.timed), (b.start, b.end, b.line, b.timed), "{text:?}");
                assert_eq!(a.tokens, b.tokens, "{text:?}");
                words += a.tokens.iter().filter(|t| matches!(t.kind, Kind::Word(_))).count();
            }
        }
        assert!(words > 5_000, "{words}");
    }

    fn kinds(text: &str) -> Vec<Vec<Kind>> {
        scan(text).iter().map(|g| g.tokens.iter().map(|t| t.kind).collect()).collect()
    }

    #[test]
    fn lines_are_trimmed_as_str_trims_them() {
        // ASCII white space, Unicode white space (no-break space, ideographic space, next
        // line), other characters of several bytes, and nothing.
        let parts =
            ["", " ", "\t", "\r\n", "\u{0B}\u{0C}", "\u{A0}", "\u{3000}", "\u{85}", "x", "P7f", "é", "歩", "\0"];
        for a in parts {
            for b in parts {
                for c in parts {
                    let s = format!("{a}{b}{c}");
                    assert_eq!(trim_start(&s), s.trim_start(), "{s:?}");
                    assert_eq!(trim_end(&s), s.trim_end(), "{s:?}");
                    assert_eq!(is_blank(&s), s.trim().is_empty(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn words_end_where_white_space_or_a_bracket_starts() {
        let slow = |text: &str, start: usize| {
            text[start..]
                .char_indices()
                .find(|&(_, c)| c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')'))
                .map_or(text.len(), |(i, _)| start + i)
        };
        for text in ["P7f P3d", "P7f\u{3000}P3d", "é\u{a0}x", "a\u{b}b\u{c}c", "P7f(", "{x}", "\u{85}", "ab"] {
            for start in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(word_end(text, start), slow(text, start), "{text:?} {start}");
            }
        }
        for b in 0..0x80u8 {
            assert_eq!(is_ascii_space(b), char::from(b).is_whitespace(), "{b}");
        }
    }

    #[test]
    fn cuts_games_at_headers_after_moves() {
        let games = scan("[Sente \"a\"]\nP7f\n\n[Sente \"b\"]\nP7f P3d\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].line, 4);
        assert_eq!(games[1].tokens.len(), 3);
    }

    #[test]
    fn cuts_headerless_games_after_an_end() {
        let text = "1.P7g-7f  00:00:00  00:00:00\nSennichite  00:01:00  00:02:00\n\n1.P2g-2f  00:00:00  00:00:00\n";
        let games = scan(text);
        assert_eq!(games.len(), 2, "{:?}", kinds(text));
        assert_eq!(games[1].line, 4);
    }

    #[test]
    fn glued_numbers_and_glyphs() {
        use WordKind::*;
        let k = kinds("64.N*8f! 75.G*5b?!");
        assert_eq!(
            k[0],
            [Seqnum, SpecDrop, Glyph, Seqnum, SpecDrop, Glyph].iter().map(|w| Kind::Word(*w)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn prose_lines_are_one_token() {
        let k = kinds("1.P7g-7f  00:00:00  00:00:00\n\nThe furigoma resulted in 4 pawns\n77.B5e! which is a threat\n");
        assert_eq!(k[0][4..], [Kind::Prose, Kind::Prose]);
    }

    /// Whether the last line of `game` is read as one line of prose.
    fn last_line_is_prose(game: &str) -> bool {
        let games = scan(game);
        assert_eq!(games.len(), 1, "{game:?}");
        let g = &games[0];
        let last_line = game.trim_end().rfind('\n').map_or(0, |at| at + 1);
        let on_it: Vec<Kind> = g.tokens.iter().filter(|t| t.span.start >= last_line).map(|t| t.kind).collect();
        on_it == [Kind::Prose]
    }

    #[test]
    fn prose_is_told_from_movetext_word_by_word() {
        // A wordy word has three letters in a row; the line's known words are moves, numbers,
        // clocks and the like. The lines before it say whether the game's move lines carry
        // clock columns.
        let plain = "1. P7f P3d\n";
        let clocked = "1.P7g-7f 00:00:01 00:00:02\n";
        let cases: &[(&str, &str, bool)] = &[
            // Without clock columns: two wordy words and at least as many as the known ones,
            // or one wordy word alone.
            (plain, "Good", true),
            (plain, "Nice move", true),
            (plain, "P2f Good", false),
            (plain, "P2f Good play", true),
            (plain, "P2f P8d Good play", true),
            (plain, "P2f P8d G6i-7h Good play", false),
            (plain, "P2f abc1de fgh", true),
            // Fewer than three letters in a row is no word of prose.
            (plain, "P2f ab de", false),
            (plain, "a1b2c3 d4e5f6", false),
            (plain, "歩兵です", true),
            // As the grammar cuts prose, at white space alone: a run that starts with a move
            // is no word of prose, whatever follows it.
            (plain, "P2f(abc) P8d(def)", false),
            (plain, "(abc) (def)", true),
            // With clock columns: one wordy word on a line without its two clocks.
            (clocked, "2.P3c-3d which", true),
            (clocked, "P2f Good", true),
            (clocked, "Good 00:00:03 00:00:04", true),
            (clocked, "2.P3c-3d 00:00:03 00:00:04", false),
            (clocked, "P2f(abc) 00:00:03", false),
            // A line of three known words ending in two clocks, one of them a move, gives the
            // game clock columns.
            ("P7g-7f 00:00:01 00:00:02\n", "P2f Good", true),
            // Not with a word it does not know on the line, nor without a move.
            ("P7f foo 00:00:01 00:00:02\n", "P2f Good", false),
            ("1. 00:00:01 00:00:02\n", "P2f Good", false),
        ];
        for (before, line, prose) in cases {
            let game = format!("{before}{line}\n");
            assert_eq!(last_line_is_prose(&game), *prose, "{game:?}");
        }
    }

    #[test]
    fn lines_pushed_one_by_one_give_the_same_games() {
        let text = "[A \"1\"]\r\nP7f {c\n[x} P3d\n\n[A \"2\"]\n[B \"2\"]\nP7f\r[A \"3\"]\rP7f 1-0\n1. P2f {a\nb} Resigns 2. P7f\n";
        let whole: Vec<(usize, usize, usize, usize)> =
            scan(text).iter().map(|g| (g.start, g.end, g.line, g.tokens.len())).collect();
        // Compacting after every line keeps only the game being read, and changes nothing.
        let mut s = Scanner::new(1);
        let mut parts = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let len = line_len(rest.as_bytes());
            s.push_line(&rest[..len], None);
            rest = &rest[len..];
            for g in s.take_games() {
                assert_eq!(s.game_text(&g), &text[g.start..g.end]);
                parts.push((g.start, g.end, g.line, g.tokens.len()));
            }
            s.compact();
            assert!(s.held() <= 40, "{}", s.held());
        }
        s.end();
        parts.extend(s.take_games().iter().map(|g| (g.start, g.end, g.line, g.tokens.len())));
        assert_eq!(parts, whole);
        assert_eq!(whole.len(), 4);
    }

    #[test]
    fn an_unclosed_variation_or_comment_stops_at_the_next_first_move() {
        for text in ["1. P7f (P3d\n\n1. P2f P8d 1-0\n", "1. P7f {P3d\n\n1. P2f P8d 1-0\n"] {
            let games = scan(text);
            assert_eq!(games.len(), 2, "{text:?}");
            assert_eq!(games[1].line, 3);
        }
        // Outside a comment or a variation, the numbers start again in the same game.
        assert_eq!(scan("1. P7f P3d\n\n1. P2f\n").len(), 1);
    }

    #[test]
    fn an_unclosed_comment_stops_at_the_next_game() {
        let games = scan("[A \"1\"]\nP7f {oops\nP3d\n[A \"2\"]\nP7f\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tokens[2].kind, Kind::Comment { closed: false });
    }
}
