//! Cutting a PSN text into games, and each game into tokens.
//!
//! The scanner walks the text once. Header lines, comments, variations and parenthesised clocks
//! are found by their first character; everything else is cut into words at white space, and
//! each word is named by the grammar's `word` rule, compiled to one automaton
//! ([`crate::grammar::ChoiceDfa`]). A word no alternative matches is tried as a sequence number
//! glued to a move (`12.P8gx8f`) and as a move with a glyph glued to it (`N*8f!`), then
//! reported.
//!
//! Games end where the spec says (§1: "If parsing a game, and a header line is encountered
//! this is taken to be the intro of a new game"), and also where a move follows the end of a
//! game (a result or an end word), which is how headerless files hold several games (PSN note 9).
//! A line of timed-transcript prose is one token (PSN note 8).

use std::sync::LazyLock;

use super::parser::Rule;
use crate::grammar::{ChoiceDfa, Grammar, PrefixDfa, RuleDfa, COMMON, PSN};
use crate::span::Span;

/// The word rules of `grammar/psn.pest`, in the order of the `word` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
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
    let grammar = Grammar::parse(&[PSN, COMMON]).expect("psn.pest parses");
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
pub fn classify(word: &str) -> Option<WordKind> {
    let a = &*AUTOMATA;
    a.words.classify(word.as_bytes()).map(|i| a.kinds[i])
}

/// True when `line` is a header as the spec writes it: `[Keyword "text"]`.
pub fn is_spec_header(line: &str) -> bool {
    AUTOMATA.header.is_match(line)
}

/// True when `line` is a header in the spec's shape with a keyword of other characters
/// (`[Black_grade "3dan"]`).
pub fn is_named_header(line: &str) -> bool {
    AUTOMATA.header_named.is_match(line)
}

/// The names of the word rules the automaton was compiled from (for tests).
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
    /// True when its move lines carry clock columns (a timed transcript).
    pub timed: bool,
}

/// Cuts `text` into games. Every character of the text belongs to exactly one game, except
/// blank lines before the first; a text with nothing but blanks has no game.
pub fn scan(text: &str) -> Vec<RawGame> {
    scan_piece(text, 0, text.len(), 1)
}

/// Cuts the piece `start..end` of `text` (from [`pieces`]), whose first line is `line`, into
/// games. Offsets and lines are those of the whole text.
pub fn scan_piece(text: &str, start: usize, end: usize, line: usize) -> Vec<RawGame> {
    let text = text.get(..end).unwrap_or(text);
    let mut s =
        Scanner { text, pos: start, line, games: Vec::new(), game: RawGame::default(), state: State::default() };
    s.run();
    s.games
}

/// Cuts `text` into pieces of whole games, of about `target` bytes each, so that games can be
/// read in parallel: `(start, end, first line)`. A piece starts at a header line whose last
/// non-blank line before it is not a header, where [`scan`] always starts a new game.
pub fn pieces(text: &str, target: usize) -> Vec<(usize, usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut piece_start, mut piece_line) = (0, 1);
    let (mut pos, mut line) = (0, 1);
    let mut after_header = false;
    while pos < bytes.len() {
        let end = memchr::memchr2(b'\n', b'\r', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
        let content = text[pos..end].trim_start();
        if !content.trim_end().is_empty() {
            let header = content.starts_with('[');
            if header && !after_header && pos - piece_start >= target {
                out.push((piece_start, pos, piece_line));
                (piece_start, piece_line) = (pos, line);
            }
            after_header = header;
        }
        pos = end;
        if pos < bytes.len() {
            pos += if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') { 2 } else { 1 };
            line += 1;
        }
    }
    if piece_start < bytes.len() || out.is_empty() {
        out.push((piece_start, bytes.len(), piece_line));
    }
    out
}

#[derive(Default)]
struct State {
    started: bool,
    movetext: bool,
    ended: bool,
    /// Variation depth, to tell the end of the main line.
    depth: usize,
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    games: Vec<RawGame>,
    game: RawGame,
    state: State,
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

impl Scanner<'_> {
    fn run(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let line_start = self.pos;
            let line_end = memchr::memchr2(b'\n', b'\r', &bytes[self.pos..]).map_or(bytes.len(), |i| self.pos + i);
            let line = &self.text[line_start..line_end];
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            if !trimmed.trim_end().is_empty() {
                if !self.state.started {
                    self.begin(line_start);
                }
                if trimmed.starts_with('[') {
                    if self.state.movetext {
                        self.finish(line_start);
                        self.begin(line_start);
                    }
                    let t = trimmed.trim_end();
                    self.push(Kind::HeaderLine, line_start + indent, line_start + indent + t.len());
                    self.pos = line_end;
                } else if line.starts_with('%') {
                    self.mark_movetext();
                    self.push(Kind::Escape, line_start, line_start + line.trim_end().len());
                    self.pos = line_end;
                } else if trimmed.starts_with("--") && AUTOMATA.won_line.is_match(trimmed.trim_end()) {
                    self.mark_movetext();
                    self.push(Kind::WonLine, line_start + indent, line_start + indent + trimmed.trim_end().len());
                    if self.state.depth == 0 {
                        self.state.ended = true;
                    }
                    self.pos = line_end;
                } else if trimmed.starts_with(['V', 'v']) && AUTOMATA.variation_line.is_match(trimmed.trim_end()) {
                    // A branch after the end of the main line continues the game (D3).
                    self.mark_movetext();
                    self.state.ended = false;
                    let end = line_start + indent + trimmed.trim_end().len();
                    self.push(Kind::Word(WordKind::VariationLine), line_start + indent, end);
                    self.pos = line_end;
                } else {
                    self.movetext_line(line_start);
                }
            } else {
                self.pos = line_end;
            }
            // The end of the line: CRLF, LF or CR.
            if self.pos < bytes.len() {
                if bytes[self.pos] == b'\r' && bytes.get(self.pos + 1) == Some(&b'\n') {
                    self.pos += 1;
                }
                self.pos += 1;
                self.line += 1;
            }
        }
        if self.state.started {
            self.finish(self.text.len());
        }
    }

    fn begin(&mut self, at: usize) {
        let line = self.line;
        self.game = RawGame { start: at, end: at, line, tokens: Vec::new(), timed: false };
        self.state = State { started: true, ..State::default() };
    }

    fn finish(&mut self, at: usize) {
        let mut game = std::mem::take(&mut self.game);
        // Trailing blank lines belong to the game, but not to its text as shown.
        let last = game.tokens.iter().map(|t| t.span.end).max().unwrap_or(0);
        game.end = game.start + self.text[game.start..at].trim_end().len().max(last);
        self.games.push(game);
        self.state = State::default();
    }

    fn mark_movetext(&mut self) {
        self.state.movetext = true;
    }

    fn push(&mut self, kind: Kind, start: usize, end: usize) {
        let base = self.game.start;
        self.game.tokens.push(Token { kind, span: Span::new(start - base, end - base) });
    }

    /// A line of movetext, from `self.pos`; comments may run on to later lines.
    fn movetext_line(&mut self, line_start: usize) {
        let first = self.game.tokens.len();
        let depth = self.state.depth;
        let mut saw_comment = false;
        let bytes = self.text.as_bytes();
        loop {
            // Skip white space within the line.
            while self.pos < bytes.len() {
                let c = self.text[self.pos..].chars().next().unwrap_or('\n');
                if c == '\n' || c == '\r' || !c.is_whitespace() {
                    break;
                }
                self.pos += c.len_utf8();
            }
            if self.pos >= bytes.len() || bytes[self.pos] == b'\n' || bytes[self.pos] == b'\r' {
                break;
            }
            self.mark_movetext();
            let start = self.pos;
            match bytes[start] {
                b'{' => {
                    saw_comment = true;
                    self.comment();
                }
                b'}' => {
                    self.push(Kind::StrayBrace, start, start + 1);
                    self.pos += 1;
                }
                b';' => {
                    let end = memchr::memchr2(b'\n', b'\r', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                    self.push(Kind::LineComment, start, start + self.text[start..end].trim_end().len());
                    self.pos = end;
                }
                b'(' => {
                    if let Some(len) = AUTOMATA.paren_clock.prefix(&self.text[start..]) {
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
                    let end = self.text[start..]
                        .char_indices()
                        .find(|&(_, c)| c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')'))
                        .map_or(self.text.len(), |(i, _)| start + i);
                    self.word(start, end);
                    self.pos = end;
                }
            }
        }
        if !saw_comment {
            self.prose_or_split(line_start, first, depth);
        } else {
            self.split_after_end(first);
        }
    }

    /// Pushes the tokens of the word `start..end`.
    fn word(&mut self, start: usize, end: usize) {
        let word = &self.text[start..end];
        if let Some(kind) = classify(word) {
            self.push(Kind::Word(kind), start, end);
            return;
        }
        // A sequence number glued to what follows it: `12.P8gx8f`, `16.Sennichite`.
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        if digits > 0 && dots > 0 && digits + dots < word.len() {
            let cut = start + digits + dots;
            if classify(&self.text[start..cut]) == Some(WordKind::Seqnum) {
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
        let word = &self.text[start..end];
        if classify(word).is_some_and(|k| k.is_move() || k.is_end()) {
            return true;
        }
        let stem = word.trim_end_matches(['!', '?']);
        stem.len() < word.len()
            && classify(stem).is_some_and(WordKind::is_move)
            && classify(&word[stem.len()..]) == Some(WordKind::Glyph)
    }

    fn push_glyphed(&mut self, start: usize, end: usize) {
        let word = &self.text[start..end];
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

    /// `{…}`, nested braces counted. A comment still open at a line that starts with `[` (the
    /// next game's headers) or at the end of the text is unclosed, and ends before that line.
    fn comment(&mut self) {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut depth = 0usize;
        let mut i = start;
        let mut last_content = start + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.count_lines(start, i + 1);
                        self.push(Kind::Comment { closed: true }, start, i + 1);
                        self.pos = i + 1;
                        return;
                    }
                }
                b'\n' | b'\r' if self.text[i + 1..].trim_start_matches([' ', '\t']).starts_with('[') => break,
                _ => {}
            }
            if !matches!(bytes[i], b'\n' | b'\r' | b' ' | b'\t') {
                last_content = i + 1;
            }
            i += 1;
        }
        // Unclosed: the comment runs to its last character before the next header or the end.
        let end = last_content.max(start + 1);
        self.count_lines(start, end);
        self.push(Kind::Comment { closed: false }, start, end);
        self.pos = end;
    }

    /// Advances the line count over the line ends inside `start..end`.
    fn count_lines(&mut self, start: usize, end: usize) {
        let b = &self.text.as_bytes()[start..end];
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                self.line += 1;
            }
            i += 1;
        }
    }

    /// At the end of a movetext line without comments, which started at variation depth
    /// `depth`: the line is prose, or a move on it after the end of the game starts the next
    /// game, or it is plain movetext.
    fn prose_or_split(&mut self, line_start: usize, first: usize, depth: usize) {
        let base = self.game.start;
        let tokens = &self.game.tokens[first..];
        let word = |t: &Token| &self.text[base + t.span.start..base + t.span.end];
        let unknown = tokens.iter().filter(|t| t.kind == Kind::Unknown).count();
        let wordy_unknown = tokens.iter().filter(|t| t.kind == Kind::Unknown && wordy(word(t))).count();
        let known = tokens.iter().filter(|t| matches!(t.kind, Kind::Word(_))).count();
        let kinds: Vec<WordKind> =
            tokens.iter().filter_map(|t| if let Kind::Word(k) = t.kind { Some(k) } else { None }).collect();
        let clocked = kinds.len() >= 3 && kinds[kinds.len() - 2..] == [WordKind::Clock, WordKind::Clock];
        if unknown == 0 && clocked && kinds.iter().any(|k| k.is_move() || k.is_end()) {
            self.game.timed = true;
        }
        let prose = if self.game.timed {
            wordy_unknown >= 1 && !clocked
        } else {
            (wordy_unknown >= 2 && wordy_unknown >= known) || (wordy_unknown >= 1 && known == 0)
        };
        if prose {
            let end = tokens.last().map_or(line_start, |t| t.span.end + base);
            let start = tokens.first().map_or(line_start, |t| t.span.start + base);
            self.game.tokens.truncate(first);
            self.push(Kind::Prose, start, end);
            // The parentheses of prose open and close no variation.
            self.state.depth = depth;
            return;
        }
        self.split_after_end(first);
    }

    /// A move after the end of the game, on the line whose tokens start at `first`, starts a
    /// new game at that line.
    fn split_after_end(&mut self, first: usize) {
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
        let old_base = self.game.start;
        let moved: Vec<Token> = self.game.tokens.drain(at..).collect();
        let new_start = old_base + moved[0].span.start;
        let line = self.line;
        self.finish(new_start);
        self.begin(new_start);
        self.game.line = line;
        self.state.movetext = true;
        for t in moved {
            self.push(t.kind, old_base + t.span.start, old_base + t.span.end);
        }
        // What follows in the new game is checked again.
        let first = 0;
        let tokens = &self.game.tokens[first..];
        self.state.ended =
            tokens.iter().any(|t| matches!(t.kind, Kind::Word(k) if k.is_end())) && self.state.depth == 0;
    }
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
        let names = crate::grammar::alternatives(&[PSN, COMMON], "word").expect("the `word` rule");
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
        assert_eq!(classify("P7f"), Some(WordKind::SpecMove));
        assert_eq!(classify("G4a5b"), Some(WordKind::SpecMove));
        assert_eq!(classify("P7g-7f"), Some(WordKind::SeparatedMove));
        assert_eq!(classify("P-7f"), Some(WordKind::ShortMove));
        assert_eq!(classify("G45b"), Some(WordKind::ShortMove));
        assert_eq!(classify("7g7f"), Some(WordKind::UsiMove));
        assert_eq!(classify("Gf1e2"), Some(WordKind::ChessMove));
        assert_eq!(classify("Pxg3=G"), Some(WordKind::ChessMove));
        assert_eq!(classify("12..."), Some(WordKind::Seqnum));
        assert_eq!(classify("1/2-1/2"), Some(WordKind::Result));
        assert_eq!(classify("Resigns"), Some(WordKind::EndWord));
        assert_eq!(classify("07:55:00"), Some(WordKind::Clock));
        assert_eq!(classify("bRH1"), Some(WordKind::SetupHand));
        assert_eq!(classify("R7f--4b"), None);
        assert_eq!(classify("2f"), None);
    }

    fn kinds(text: &str) -> Vec<Vec<Kind>> {
        scan(text).iter().map(|g| g.tokens.iter().map(|t| t.kind).collect()).collect()
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

    #[test]
    fn pieces_give_the_same_games() {
        let text = "[A \"1\"]\r\nP7f {c\n[x} P3d\n\n[A \"2\"]\n[B \"2\"]\nP7f\r[A \"3\"]\rP7f 1-0\n1. P2f\n";
        let whole: Vec<(usize, usize, usize, usize)> =
            scan(text).iter().map(|g| (g.start, g.end, g.line, g.tokens.len())).collect();
        for target in [0, 1, 10, 1000] {
            let mut parts = Vec::new();
            for (a, b, line) in pieces(text, target) {
                parts.extend(scan_piece(text, a, b, line).iter().map(|g| (g.start, g.end, g.line, g.tokens.len())));
            }
            assert_eq!(parts, whole, "target {target}");
        }
        assert_eq!(whole.len(), 4);
    }

    #[test]
    fn an_unclosed_comment_stops_at_the_next_game() {
        let games = scan("[A \"1\"]\nP7f {oops\nP3d\n[A \"2\"]\nP7f\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tokens[2].kind, Kind::Comment { closed: false });
    }
}
