//! From a game's tokens to its model: headers, setup, moves with what belongs to them, and
//! every fault of the text.

use crate::diagnostic::codes;
use std::collections::BTreeMap;

use pest::Parser;

use super::findings::Findings;
use super::header;
use super::model::{
    Annotation, Clock, Comment, CommentKind, End, EndKind, Game, Header, Mark, MoveForm, MoveNode, MoveNumber, Origin,
    Promotion, Setup, SetupSource, Variation, WrittenMove, MAX_VARIATION_DEPTH,
};
use super::parser::{PsnParser, Rule};
use super::scan::{Kind, RawGame, Token, WordKind};
use super::setup;
use crate::diagnostic::Diagnostic;
use crate::shogi::{Color, Piece, PieceKind, Square};
use crate::span::Span;

/// What a game's text shows about the program that wrote it.
#[derive(Clone, Debug, Default)]
pub struct Features {
    /// How many words of each kind.
    pub words: BTreeMap<WordKind, usize>,
    /// The headers' keywords.
    pub keys: Vec<compact_str::CompactString>,
    /// Moves numbered per ply.
    pub ply_numbers: bool,
    /// Clocks in parentheses.
    pub paren_clocks: bool,
    /// Bare clock columns.
    pub timed: bool,
    /// Prose lines.
    pub prose: bool,
    /// `--Black Won--`.
    pub won_line: bool,
    /// `;` comments or `%` lines.
    pub line_comments: bool,
    /// `( … )` variations.
    pub variations: bool,
    /// The setup's source, if any.
    pub setup: Option<SetupSource>,
    /// An SFEN header with only a board.
    pub board_only_sfen: bool,
    /// A FEN header in pychess's form.
    pub pychess_fen: bool,
    /// A header written with a colon.
    pub colon_headers: bool,
    /// `'` drops.
    pub quote_drops: bool,
}

/// One kind of departure from the spec seen in a game: how often, and where first.
struct Departure {
    count: usize,
    first: Span,
}

/// The departures of a game, one warning per kind (a handful per game: a list is quickest).
#[derive(Default)]
struct Departures(Vec<(crate::diagnostic::Code, Departure)>);

impl Departures {
    fn note(&mut self, code: crate::diagnostic::Code, span: Span) {
        match self.0.iter_mut().find(|(c, _)| *c == code) {
            Some((_, d)) => d.count += 1,
            None => self.0.push((code, Departure { count: 1, first: span })),
        }
    }

    fn into_diagnostics(mut self, out: &mut Findings) {
        self.0.sort_by_key(|(c, _)| *c);
        for (code, d) in self.0 {
            let (what, label, help) = describe(code);
            let message =
                if d.count > 1 { format!("{what} ({} times in this game)", d.count) } else { what.to_owned() };
            out.push(Diagnostic::warning(code, d.first, message).label(label).help(help));
        }
    }
}

/// The message, label and help of each departure that is reported once per game.
const DESCRIPTIONS: &[(crate::diagnostic::Code, (&str, &str, &str))] = &[
    (
        codes::psn::MOVE_SEPARATOR,
        (
            "moves are written with `-` or `x` between their squares",
            "first one here",
            "the spec writes the squares with nothing between them: `P7g7f`, or `P7f` when only one pawn can go there",
        ),
    ),
    (
        codes::psn::SHORT_MOVE,
        (
            "moves are written in a short form",
            "first one here",
            "the spec writes the piece, the origin square when it is needed, then the destination: `P7f`, `G4a5b`",
        ),
    ),
    (
        codes::psn::USI_MOVE,
        (
            "moves are written in USI coordinates, with no piece letter",
            "first one here",
            "the spec names the piece that moves: `P7g7f` rather than `7g7f`",
        ),
    ),
    (
        codes::psn::AT_DROP,
        ("drops are written with `@`", "first one here", "the spec writes a drop as `P*5e` or `P'5e`"),
    ),
    (
        codes::psn::PIECELESS_MOVE,
        (
            "moves are written with no piece letter",
            "first one here",
            "name the piece that moves, as in `P9a9b` (GSDB's writer left it out by mistake)",
        ),
    ),
    (
        codes::psn::CHESS_SQUARES,
        (
            "moves are written in chess coordinates",
            "first one here",
            "shogi squares are a file digit 1-9 and a rank letter a-i: `Gf1e2` is `G4i5h`",
        ),
    ),
    (
        codes::psn::PLY_NUMBERS,
        (
            "moves are numbered one per ply",
            "first one here",
            "the spec numbers pairs of moves: `1. P7f` for Black's move, `1... P3d` for White's",
        ),
    ),
    (
        codes::psn::UNNUMBERED,
        (
            "the moves have no sequence numbers",
            "the first move",
            "the spec numbers pairs of moves: `1. P7f P3d 2. P2f`",
        ),
    ),
    (
        codes::psn::GLYPH,
        (
            "moves carry annotation glyphs",
            "first one here",
            "the spec has no glyphs: say it in a `{comment}` after the move",
        ),
    ),
    (
        codes::psn::NAG,
        (
            "moves carry numeric annotations",
            "first one here",
            "the spec has no `$n` annotations: say it in a `{comment}` after the move",
        ),
    ),
    (
        codes::psn::CLOCK,
        (
            "moves carry clock times",
            "first one here",
            "the spec has no clock: write times in a `{comment}` after the move",
        ),
    ),
    (
        codes::psn::END_WORD,
        (
            "the game ends with a word, not a result",
            "here",
            "the spec ends a game with a result, `1-0`, `0-1` or `1/2-1/2`; say how it ended in a `{comment}`",
        ),
    ),
    (
        codes::psn::WON_LINE,
        (
            "the game ends with a `--… Won--` line",
            "here",
            "the spec ends a game with a result: `1-0` when Black won, `0-1` when White won",
        ),
    ),
    (
        codes::psn::RESULT_FORM,
        (
            "the result is not written as the spec writes it",
            "here",
            "write `1-0`, `0-1` or `1/2-1/2` with an ASCII hyphen",
        ),
    ),
    (
        codes::psn::TILDE_NEWLINE,
        ("comments use `~` for a line break", "first one here", "the spec's comments may hold line breaks as they are"),
    ),
    (
        codes::psn::NESTED_BRACES,
        (
            "comments hold braces of their own",
            "first one here",
            "the spec's comment ends at the first `}`: use `( … )` or `[ … ]` inside a comment",
        ),
    ),
    (
        codes::psn::VARIATION,
        (
            "the game has variations in parentheses",
            "first one here",
            "the spec has no variations: give them in a `{comment}`",
        ),
    ),
    (
        codes::psn::VARIATION_LINE,
        ("the game has `Variation:` lines", "first one here", "the spec has no variations: give them in a `{comment}`"),
    ),
    (codes::psn::LINE_COMMENT, ("the game has `;` comments", "first one here", "the spec's comments are `{…}`")),
    (
        codes::psn::ESCAPE_LINE,
        ("the game has `%` lines", "first one here", "the spec has no escape lines: use a `{comment}`"),
    ),
    (
        codes::psn::PROSE,
        (
            "the game has commentary with no braces",
            "first paragraph here",
            "the spec's comments are `{…}`: put the commentary in braces",
        ),
    ),
    (
        codes::psn::NUL_BYTE,
        ("the text holds NUL bytes", "first one here (shown as `?`)", "remove the NUL bytes: they are not text"),
    ),
];

/// The message, label and help of the departure `code` ([`DESCRIPTIONS`]).
fn describe(code: crate::diagnostic::Code) -> (&'static str, &'static str, &'static str) {
    DESCRIPTIONS
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(("a departure from the 1998 spec", "here", "see docs/spec-notes.md"), |(_, d)| *d)
}

/// A line of moves being built: the main line or a variation.
struct Frame {
    moves: Vec<MoveNode>,
    /// Comments before the line's first move.
    comments: Vec<Comment>,
    /// The `(` or `Variation:N` that opened it.
    open: Span,
    /// For a `Variation:N` line, the main-line ply it replaces.
    ply: Option<u64>,
}

/// Builds the model of `raw`, whose text is `text` (the game's own text): the game, its findings
/// in text order (at most [`MAX_FINDINGS_PER_GAME`](super::findings::MAX_FINDINGS_PER_GAME) and
/// one saying how many more there were), and what the text shows of its dialect.
#[cfg(feature = "internals")]
pub fn build(raw: &RawGame, text: &str) -> (Game, Vec<Diagnostic>, Features) {
    let (game, diagnostics, features) = build_bounded(raw, text);
    (game, diagnostics.into_vec(), features)
}

/// [`build`], with the findings still open to more.
pub(crate) fn build_bounded(raw: &RawGame, text: &str) -> (Game, Findings, Features) {
    let mut b = Builder::new(raw, text);
    // The main line's moves at once, rather than growing them move by move.
    let moves = raw.tokens.iter().filter(|t| matches!(t.kind, Kind::Word(k) if k.is_move())).count();
    if let Some(main) = b.frames.first_mut() {
        main.moves.reserve(moves);
    }
    for (index, t) in raw.tokens.iter().enumerate() {
        b.token(index, t);
    }
    let mut main = b.close_all();
    skip_unnumbered_words(&mut main.moves);
    // NUL bytes.
    if let Some(i) = memchr::memchr(0, text.as_bytes()) {
        b.departures.note(codes::psn::NUL_BYTE, Span::new(i, i + 1));
    }
    // Numbering.
    check_numbers(&main.moves, &mut b.departures, &mut b.diagnostics, &mut b.features);
    let setup = b.read_setup();
    let Builder { mut diagnostics, mut features, departures, headers, end, word_counts, .. } = b;
    features.words = WordKind::ALL.into_iter().zip(word_counts).filter(|&(_, n)| n > 0).collect();
    features.setup = setup.as_ref().map(|s| s.source);
    features.colon_headers |= diagnostics.iter().any(|d| d.code == codes::psn::HEADER_COLON);
    departures.into_diagnostics(&mut diagnostics);
    diagnostics.sort();
    let game = Game {
        line: raw.line,
        span: Span::new(raw.start, raw.end),
        // Found once the game is read ([`super::dialect::guess`]).
        dialect: super::dialect::SPEC,
        headers,
        setup,
        comments: main.comments,
        moves: main.moves,
        end,
    };
    (game, diagnostics, features)
}

/// A game's model as its tokens are read, one by one.
struct Builder<'a> {
    raw: &'a RawGame,
    text: &'a str,
    diagnostics: Findings,
    features: Features,
    departures: Departures,
    headers: Vec<Header>,
    setup_words: Vec<Span>,
    /// The main line and the variations open in it, innermost last.
    frames: Vec<Frame>,
    number: Option<MoveNumber>,
    end: Option<End>,
    unclosed_comments: Vec<Span>,
    /// Inside a variation too deep to read: how many `(` are open in it.
    skipped: usize,
    /// The first such variation (its token, and the outermost variation around it), and how many.
    too_deep_first: Option<(usize, Span)>,
    too_deep_count: usize,
    /// How many words of each kind (by [`WordKind`] index), for [`Features::words`].
    word_counts: [usize; WordKind::ALL.len()],
}

/// The number the ASCII digits `digits` write, or `u64::MAX` when they write none (none, or a
/// character that is no digit) or one too large to count: as `str::parse` reads them, without
/// its sign and in one pass.
fn number(digits: &str) -> u64 {
    if digits.is_empty() {
        return u64::MAX;
    }
    let mut n: u64 = 0;
    for b in digits.bytes() {
        let d = b.wrapping_sub(b'0');
        match n.checked_mul(10).and_then(|n| n.checked_add(u64::from(d))) {
            Some(next) if d <= 9 => n = next,
            _ => return u64::MAX,
        }
    }
    n
}

/// The move number the `seqnum` word `word` at `span` writes: `12.` numbers Black's move of
/// pair 12, `12...` White's.
pub(super) fn move_number(word: &str, span: Span) -> MoveNumber {
    let dots = word.bytes().rev().take_while(|&b| b == b'.').count();
    MoveNumber { value: number(&word[..word.len() - dots]), ellipsis: dots >= 3, span }
}

fn new_frame(open: Span, ply: Option<u64>) -> Frame {
    Frame { moves: Vec::new(), comments: Vec::new(), open, ply }
}

impl<'a> Builder<'a> {
    fn new(raw: &'a RawGame, text: &'a str) -> Self {
        Self {
            raw,
            text,
            diagnostics: Findings::new(),
            features: Features { timed: raw.timed, ..Features::default() },
            departures: Departures::default(),
            headers: Vec::new(),
            setup_words: Vec::new(),
            frames: vec![new_frame(Span::default(), None)],
            number: None,
            end: None,
            unclosed_comments: Vec::new(),
            skipped: 0,
            too_deep_first: None,
            too_deep_count: 0,
            word_counts: [0; WordKind::ALL.len()],
        }
    }

    /// Reads token `index`, `t`.
    #[inline(always)]
    fn token(&mut self, index: usize, t: &Token) {
        let s = t.span;
        let word = s.slice(self.text);
        if self.skipped > 0 {
            match t.kind {
                Kind::Open => self.skipped += 1,
                Kind::Close => self.skipped -= 1,
                _ => {}
            }
            return;
        }
        match t.kind {
            Kind::HeaderLine => header::read(word, s.start, &mut self.headers, &mut self.diagnostics),
            Kind::Word(k) => self.word(k, word, s),
            Kind::Comment { closed } => self.comment(closed, word, s),
            Kind::LineComment | Kind::Escape | Kind::Prose => self.line_comment(t.kind, word, s),
            Kind::Open => self.open(index, s),
            Kind::Close => self.close(s),
            Kind::ParenClock => {
                self.features.paren_clocks = true;
                self.departures.note(codes::psn::CLOCK, s);
                attach_clock(&mut self.frames, &mut self.end, Clock { text: word.into(), span: s });
            }
            Kind::WonLine => {
                self.features.won_line = true;
                self.departures.note(codes::psn::WON_LINE, s);
                if self.frames.len() == 1 {
                    self.end = Some(End { text: word.into(), kind: EndKind::WonLine, span: s, clocks: Vec::new() });
                }
            }
            Kind::StrayBrace => self.diagnostics.push(
                Diagnostic::error(codes::psn::COMMENT_UNOPENED, s, "a `}` with no `{` before it")
                    .label("closes no comment")
                    .help("remove it, or open the comment with `{`"),
            ),
            Kind::Unknown => self.unreadable(word, s),
        }
    }

    /// Reports a word that no rule reads; one that stands in a move's place also counts as a
    /// ply ([`MoveForm::Unreadable`]), so that the sides of the moves after it do not shift.
    fn unreadable(&mut self, word: &str, s: Span) {
        self.diagnostics.push(unknown_word(word, s));
        if !in_place_of_a_move(word) {
            return;
        }
        let mut mv = unread(word, s);
        mv.form = MoveForm::Unreadable;
        self.push_move(mv);
    }

    /// Adds a move to the line being built, with the number read before it.
    #[inline]
    fn push_move(&mut self, mv: WrittenMove) {
        if let Some(frame) = self.frames.last_mut() {
            frame.moves.push(MoveNode::new(self.number.take(), mv));
        }
    }

    /// Reads a word of kind `k`.
    fn word(&mut self, k: WordKind, word: &str, s: Span) {
        self.word_counts[k as usize] += 1;
        match k {
            WordKind::Seqnum => self.number = Some(move_number(word, s)),
            k if k.is_move() => self.move_word(k, word, s),
            WordKind::Glyph | WordKind::Nag => {
                self.departures.note(if k == WordKind::Glyph { codes::psn::GLYPH } else { codes::psn::NAG }, s);
                match self.frames.last_mut().and_then(|f| f.moves.last_mut()) {
                    Some(m) => m.extras_mut().annotations.push(Annotation { text: word.into(), span: s }),
                    None => self.diagnostics.push(
                        Diagnostic::error(codes::psn::ANNOTATION_ALONE, s, "an annotation with no move before it")
                            .label("annotates nothing")
                            .help("write a glyph or `$n` right after the move it judges"),
                    ),
                }
            }
            WordKind::Clock => {
                self.departures.note(codes::psn::CLOCK, s);
                attach_clock(&mut self.frames, &mut self.end, Clock { text: word.into(), span: s });
            }
            WordKind::Result | WordKind::ResultDialect | WordKind::EndWord => {
                if k == WordKind::ResultDialect {
                    self.departures.note(codes::psn::RESULT_FORM, s);
                }
                if k == WordKind::EndWord {
                    self.departures.note(codes::psn::END_WORD, s);
                }
                self.number = None;
                if self.frames.len() == 1 {
                    set_end(&mut self.end, word, k, s, &mut self.diagnostics);
                }
            }
            WordKind::VariationLine => {
                self.departures.note(codes::psn::VARIATION_LINE, s);
                close_variation_line(&mut self.frames);
                // A number too large to count is past the end of the game, like any
                // ply the game does not reach; the frame stays a branch, never a `(`.
                let digits = word.rsplit(|c: char| !c.is_ascii_digit()).next().unwrap_or("");
                self.frames.push(new_frame(s, Some(number(digits))));
            }
            WordKind::SetupPiece | WordKind::SetupHand | WordKind::SetupEnd => self.setup_words.push(s),
            _ => {}
        }
    }

    /// Reads a move word of kind `k`.
    fn move_word(&mut self, k: WordKind, word: &str, s: Span) {
        // The move is read where it is kept, not read and then moved there: a move is copied
        // by the hundred thousand. It is made there as a copy of a blank one in memory, not
        // made aside and copied: a copy of a move just made reads its small fields, written one
        // by one, back as a whole, and waits for them.
        let Some(frame) = self.frames.last_mut() else { return };
        frame.moves.extend_from_slice(std::slice::from_ref(&UNREAD_NODE));
        let Some(node) = frame.moves.last_mut() else { return };
        (node.number, node.mv.span, node.mv.text) = (self.number.take(), s, word.into());
        if decode_into(k, word, &mut node.mv).is_none() {
            if let Some(node) = frame.moves.pop() {
                self.number = node.number;
            }
            self.unreadable(word, s);
            return;
        }
        let mv = &node.mv;
        match mv.form {
            MoveForm::Spec => {}
            MoveForm::Separated => self.departures.note(codes::psn::MOVE_SEPARATOR, s),
            MoveForm::Short => self.departures.note(codes::psn::SHORT_MOVE, s),
            MoveForm::Usi => self.departures.note(codes::psn::USI_MOVE, s),
            MoveForm::AtDrop => self.departures.note(codes::psn::AT_DROP, s),
            MoveForm::Pieceless => self.departures.note(codes::psn::PIECELESS_MOVE, s),
            MoveForm::Chess => self.departures.note(codes::psn::CHESS_SQUARES, s),
            MoveForm::Unreadable => {}
        }
        // Of the move rules only `spec_drop` writes a `'` (its `drop_mark`).
        if mv.drop && word.contains('\'') {
            self.features.quote_drops = true;
        }
    }

    /// Reads a `{comment}`.
    fn comment(&mut self, closed: bool, word: &str, s: Span) {
        let inner = word.get(1..if closed { word.len().saturating_sub(1) } else { word.len() }).unwrap_or("");
        if inner.contains('~') {
            self.departures.note(codes::psn::TILDE_NEWLINE, s);
        }
        if let Some(i) = inner.find('{') {
            self.departures.note(codes::psn::NESTED_BRACES, Span::new(s.start + 1 + i, s.start + 2 + i));
        }
        if !closed {
            self.unclosed_comments.push(s);
        }
        attach(&mut self.frames, Comment { kind: CommentKind::Brace, text: inner.to_owned(), span: s });
    }

    /// Reads a `;` comment, a `%` line or a line of prose.
    fn line_comment(&mut self, kind: Kind, word: &str, s: Span) {
        let (kind, code, inner) = match kind {
            Kind::LineComment => (CommentKind::Line, codes::psn::LINE_COMMENT, word.get(1..).unwrap_or("")),
            Kind::Escape => (CommentKind::Escape, codes::psn::ESCAPE_LINE, word.get(1..).unwrap_or("")),
            _ => (CommentKind::Prose, codes::psn::PROSE, word),
        };
        self.departures.note(code, s);
        if kind == CommentKind::Prose {
            self.features.prose = true;
        } else {
            self.features.line_comments = true;
        }
        attach(&mut self.frames, Comment { kind, text: inner.trim().to_owned(), span: s });
    }

    /// Reads a `(`, token `index`.
    fn open(&mut self, index: usize, s: Span) {
        self.departures.note(codes::psn::VARIATION, s);
        self.features.variations = true;
        if self.frames.last().is_some_and(|f| f.moves.is_empty()) {
            self.diagnostics.push(
                Diagnostic::error(codes::psn::VARIATION_FIRST, s, "a variation before any move")
                    .label("there is no move for it to replace")
                    .help("a variation follows the move it is an alternative to: `P7f ( P2f P3d )`"),
            );
        }
        if self.frames.len() > MAX_VARIATION_DEPTH {
            let outer = self.frames.get(1).map_or(s, |f| f.open);
            self.too_deep_first = self.too_deep_first.or(Some((index, outer)));
            self.too_deep_count += 1;
            self.skipped = 1;
        } else {
            self.frames.push(new_frame(s, None));
        }
        self.number = None;
    }

    /// Reads a `)`.
    fn close(&mut self, s: Span) {
        if self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.ply.is_none()) {
            close_frame(&mut self.frames);
        } else {
            self.diagnostics.push(
                Diagnostic::error(codes::psn::VARIATION_UNOPENED, s, "a `)` with no `(` before it")
                    .label("closes nothing")
                    .help("remove it, or open the variation with `(` after the move it replaces"),
            );
        }
        self.number = None;
    }

    /// At the end of the tokens: reports what is still open, closes it, and gives the main line.
    fn close_all(&mut self) -> Frame {
        let text = self.text;
        let game_end = Span::point(text.trim_end().len());
        if let Some((index, outer)) = self.too_deep_first {
            let tokens = self.raw.tokens.get(index..).unwrap_or(&[]);
            self.diagnostics.push(too_deep(tokens, outer, self.too_deep_count, text));
        }
        for s in std::mem::take(&mut self.unclosed_comments) {
            self.diagnostics.push(
                Diagnostic::error(
                    codes::psn::COMMENT_UNCLOSED,
                    Span::new(s.start, s.start + 1),
                    "this comment never ends",
                )
                .label("the comment opens here")
                .with(game_end, "the game ends here, still inside it")
                .help("close the comment with `}`"),
            );
        }
        // Variations still open at the end: one finding for them all.
        close_variation_line(&mut self.frames);
        let frames = &self.frames;
        if let [_, outer, .., inner] = frames.as_slice() {
            let n = frames.len() - 1;
            self.diagnostics.push(
                Diagnostic::error(codes::psn::VARIATION_UNCLOSED, outer.open, format!("{n} variations never end"))
                    .label("the outermost opens here")
                    .with(inner.open, "the innermost opens here")
                    .with(game_end, "the game ends here, still inside them")
                    .help(format!("close each variation with `)`: {n} are missing")),
            );
        } else if let [_, open] = frames.as_slice() {
            self.diagnostics.push(
                Diagnostic::error(codes::psn::VARIATION_UNCLOSED, open.open, "this variation never ends")
                    .label("the variation opens here")
                    .with(game_end, "the game ends here, still inside it")
                    .help("close the variation with `)`"),
            );
        }
        while self.frames.len() > 1 {
            close_frame(&mut self.frames);
        }
        self.frames.pop().unwrap_or_else(|| new_frame(Span::default(), None))
    }

    /// The starting position the headers or a GSDB setup give.
    fn read_setup(&mut self) -> Option<Setup> {
        self.features.keys = self.headers.iter().map(|h| h.key.clone()).collect();
        let diagnostics = &mut self.diagnostics;
        let mut setup: Option<Setup> = None;
        for h in &self.headers {
            let found = if h.key.eq_ignore_ascii_case("Handicap") {
                setup::read_handicap(&h.value, h.value_span, diagnostics)
            } else if h.key.eq_ignore_ascii_case("FEN") {
                self.features.pychess_fen |= h.value.contains('[');
                setup::read_fen(&h.value, h.value_span, diagnostics)
            } else if h.key.eq_ignore_ascii_case("SFEN") {
                self.features.board_only_sfen |= !h.value.trim().contains(' ');
                setup::read_sfen(&h.value, h.value_span, diagnostics)
            } else {
                continue;
            };
            let Some(found) = found else { continue };
            match &setup {
                Some(first) => diagnostics.push(
                    Diagnostic::warning(codes::psn::SETUP_TWICE, h.span, "a second starting position")
                        .label("ignored")
                        .with(first.span, "the game starts from this one")
                        .help("give the starting position once"),
                ),
                None => setup = Some(found),
            }
        }
        if !self.setup_words.is_empty() {
            let gsdb = setup::read_gsdb(self.text, &self.setup_words, diagnostics);
            setup = setup.or(gsdb);
        }
        setup
    }
}

/// The variation that `tokens` start with is nested deeper than [`MAX_VARIATION_DEPTH`] inside
/// the variation that opens at `outer`; `count` variations of the game are (this one first).
fn too_deep(tokens: &[Token], outer: Span, count: usize, text: &str) -> Diagnostic {
    let open = tokens.first().map_or(outer, |t| t.span);
    // Where it ends: the `)` that closes it, or the end of the game.
    let mut depth = 0usize;
    let close = tokens.iter().find(|t| match t.kind {
        Kind::Open => {
            depth += 1;
            false
        }
        Kind::Close => {
            depth = depth.saturating_sub(1);
            depth == 0
        }
        _ => false,
    });
    let more = match count {
        0 | 1 => String::new(),
        2 => " (nor those of one more variation as deep)".to_owned(),
        n => format!(" (nor those of {} more variations as deep)", n - 1),
    };
    let mut d = Diagnostic::error(
        codes::psn::TOO_DEEP,
        open,
        format!(
            "variations are nested more than {MAX_VARIATION_DEPTH} deep: the moves inside this one are not read{more}"
        ),
    )
    .label(format!("a variation {} deep", MAX_VARIATION_DEPTH + 1))
    .with(outer, "the outermost variation around it opens here");
    d = match close {
        Some(t) => d.with(t.span, "the unread variation ends here"),
        None => d.with(Span::point(text.trim_end().len()), "the game ends here, still inside it"),
    };
    d.help(format!(
        "variations may nest {MAX_VARIATION_DEPTH} deep at most: close some sooner with `)`, or give the deepest \
         lines as games of their own"
    ))
}

pub(super) fn set_end(end: &mut Option<End>, word: &str, k: WordKind, s: Span, diagnostics: &mut Findings) {
    let kind = if k == WordKind::EndWord { EndKind::EndWord } else { EndKind::Result };
    match end {
        Some(first) if first.kind == kind || kind == EndKind::Result && first.kind != EndKind::Result => {
            // `Sennichite` then `1/2-1/2` both say how the game ended: keep the result.
            if kind == EndKind::Result && first.kind != EndKind::Result {
                *first = End { text: word.into(), kind, span: s, clocks: Vec::new() };
            } else {
                diagnostics.push(
                    Diagnostic::warning(codes::psn::END_TWICE, s, "the game ends a second time")
                        .label("a second end")
                        .with(first.span, "the game ended here")
                        .help("write one result at the end of the moves"),
                );
            }
        }
        Some(_) => {}
        None => *end = Some(End { text: word.into(), kind, span: s, clocks: Vec::new() }),
    }
}

/// A clock belongs to the main line's end when it follows it, else to the last move.
fn attach_clock(frames: &mut [Frame], end: &mut Option<End>, clock: Clock) {
    match (end, frames.len()) {
        (Some(e), 1) => e.clocks.push(clock),
        _ => {
            if let Some(m) = frames.last_mut().and_then(|f| f.moves.last_mut()) {
                m.extras_mut().clocks.push(clock);
            }
        }
    }
}

/// Attaches a comment after the last move of the line being built, or before its first move.
fn attach(frames: &mut [Frame], comment: Comment) {
    if let Some(f) = frames.last_mut() {
        match f.moves.last_mut() {
            Some(m) => m.extras_mut().comments_after.push(comment),
            None => f.comments.push(comment),
        }
    }
}

/// Ends the variation on top of the stack and attaches it to the move it replaces: the last
/// move of the line below.
fn close_frame(frames: &mut Vec<Frame>) {
    let Some(done) = frames.pop() else { return };
    let variation = Variation { span: done.open, comments: done.comments, moves: done.moves };
    if let Some(parent) = frames.last_mut() {
        let target = match done.ply {
            Some(ply) => usize::try_from(ply).ok().and_then(|p| p.checked_sub(1)),
            None => parent.moves.len().checked_sub(1),
        };
        match target.and_then(|i| parent.moves.get_mut(i)) {
            Some(m) => m.extras_mut().variations.push(variation),
            // A variation before any move, or past the end: keep its moves with the line's own.
            None => parent.moves.extend(variation.moves),
        }
    }
}

/// A `Variation:N` branch runs until the next one or the end; it hangs off the main line.
fn close_variation_line(frames: &mut Vec<Frame>) {
    if frames.len() > 1 && frames.last().is_some_and(|f| f.ply.is_some()) {
        close_frame(frames);
    }
}

/// In a game whose every move has a number of its own (one per ply, as GSDB numbers them), a
/// few words that are no move and have no number are not plies but stray fragments (a corrupted
/// copy's `2f`): each stays reported, and is taken out of the main line, what was attached to it
/// going to the move before it.
fn skip_unnumbered_words(moves: &mut Vec<MoveNode>) {
    let stray = |m: &MoveNode| m.mv.form == MoveForm::Unreadable && m.number.is_none() && m.variations().is_empty();
    let strays = moves.iter().filter(|m| stray(m)).count();
    let plies = moves.len() - strays;
    // Strays are few: in `1. Q7f p3d 2. P7f` the numbers count pairs.
    let per_ply = strays > 0
        && strays * 4 < plies
        && moves.iter().filter(|m| !stray(m)).all(|m| m.number.is_some_and(|n| !n.ellipsis));
    if !per_ply {
        return;
    }
    for mut m in std::mem::take(moves) {
        match moves.last_mut() {
            Some(before) if stray(&m) => {
                if let Some(mut e) = m.extras.take() {
                    let before = before.extras_mut();
                    before.comments_after.append(&mut e.comments_before);
                    before.annotations.append(&mut e.annotations);
                    before.clocks.append(&mut e.clocks);
                    before.comments_after.append(&mut e.comments_after);
                }
            }
            _ => moves.push(m),
        }
    }
}

/// Checks the sequence numbers of the main line, and notes how the game numbers its moves.
fn check_numbers(moves: &[MoveNode], departures: &mut Departures, diagnostics: &mut Findings, features: &mut Features) {
    // Room for all at once: collecting a filter grows the list step by step.
    let mut numbered: Vec<(usize, MoveNumber)> = Vec::with_capacity(moves.len());
    numbered.extend(moves.iter().enumerate().filter_map(|(i, m)| m.number.map(|n| (i, n))));
    let Some(&(k0, n0)) = numbered.first() else {
        if let Some(m) = moves.first() {
            departures.note(codes::psn::UNNUMBERED, m.mv.span);
        }
        return;
    };
    let per_ply = moves.len() >= 2 && numbered.len() == moves.len() && numbered.iter().all(|(_, n)| !n.ellipsis);
    if per_ply {
        features.ply_numbers = true;
        departures.note(codes::psn::PLY_NUMBERS, numbered.get(1).map_or(n0.span, |n| n.1.span));
    }
    // The expected number of each numbered move, re-anchored after a surprise unless the next
    // number follows the old count again (a single miscopied number).
    let expect = |anchor: (usize, u64, u64), k: usize| -> (u64, bool) {
        let steps = (k - anchor.0) as u64;
        if per_ply {
            (anchor.1.saturating_add(steps), false)
        } else {
            let half = anchor.2 + steps;
            (anchor.1.saturating_add(half / 2), half % 2 == 1)
        }
    };
    let mut anchor = (k0, n0.value, u64::from(n0.ellipsis));
    for (idx, &(k, n)) in numbered.iter().enumerate().skip(1) {
        let (expected, ellipsis) = expect(anchor, k);
        if n.value != expected {
            diagnostics.push(
                Diagnostic::warning(
                    codes::psn::NUMBER_ORDER,
                    n.span,
                    format!("move number {} where {expected} was expected", n.value),
                )
                .label(format!("expected {expected}"))
                .help("number the moves in order; a copying error often repeats or skips a stretch of moves"),
            );
            let typo = numbered.get(idx + 1).is_some_and(|&(k2, n2)| expect(anchor, k2).0 == n2.value);
            if !typo {
                anchor = (k, n.value, u64::from(n.ellipsis));
            }
        } else if !per_ply && n.ellipsis != ellipsis {
            let (written, right) = if n.ellipsis { ("...", ".") } else { (".", "...") };
            diagnostics.push(
                Diagnostic::warning(
                    codes::psn::NUMBER_SIDE,
                    n.span,
                    format!(
                        "`{}{written}` where the pair's {} move is due",
                        n.value,
                        if ellipsis { "second" } else { "first" }
                    ),
                )
                .label(format!("expected `{}{right}`", n.value))
                .help("`N.` numbers the first move of pair N and `N...` the second"),
            );
            anchor = (k, n.value, u64::from(n.ellipsis));
        }
    }
}

/// The parts of a move word, by the rule that named it; `None` when `kind` is not a move rule or
/// `word` is not in that rule's shape (which a word the scanner classified always is).
///
/// Total: any word and any kind give an answer, never a panic.
#[inline]
pub fn decode(kind: WordKind, word: &str, span: Span) -> Option<WrittenMove> {
    let mut m = unread(word, span);
    decode_into(kind, word, &mut m)?;
    Some(m)
}

/// The move word `word` at `span`, its parts not read yet: a move in the spec's form with
/// nothing but its text (and a destination to be read).
fn unread(word: &str, span: Span) -> WrittenMove {
    WrittenMove { span, text: word.into(), ..UNREAD_NODE.mv.clone() }
}

/// A move word's node before it is read: [`unread`] without its text and characters.
pub(super) static UNREAD_NODE: MoveNode = MoveNode {
    number: None,
    mv: WrittenMove {
        span: Span::new(0, 0),
        text: compact_str::CompactString::const_new(""),
        form: MoveForm::Spec,
        promoted: false,
        piece: None,
        from: Origin::None,
        drop: false,
        capture: false,
        // Every move rule ends with its destination, read by [`decode_into`].
        to: Square::NINE_A,
        promotion: None,
        promotes_to: None,
        gold_mover: false,
        mark: None,
    },
    extras: None,
};

/// [`decode`] of `word` into `m`, the move [`unread`] made of it.
pub(super) fn decode_into(kind: WordKind, word: &str, m: &mut WrittenMove) -> Option<()> {
    let b = word.as_bytes();
    match kind {
        WordKind::SpecMove | WordKind::SpecDrop | WordKind::SeparatedMove | WordKind::ShortMove | WordKind::AtDrop => {
            let rest = piece_letter(m, kind, b)?;
            decode_shogi(m, kind, rest)
        }
        // The forms without a piece letter start at a square.
        WordKind::PiecelessMove => decode_shogi(m, kind, b),
        WordKind::ChessMove | WordKind::ChessDrop => {
            let rest = piece_letter(m, kind, b)?;
            // Offsets in the word: `rest` starts after the piece letter, and only its end is cut.
            decode_chess(m, rest, b.len() - rest.len())
        }
        // A USI move is read by the crate's one USI reader (a drop is a `spec_drop` word).
        WordKind::UsiMove => {
            m.form = MoveForm::Usi;
            let crate::shogi::Move::Board { from, to, promote } = crate::shogi::Move::from_usi(word)? else {
                return None;
            };
            m.from = Origin::Square(from);
            m.to = to;
            m.promotion = promote.then_some(Promotion::Promote);
            Some(())
        }
        _ => None,
    }
}

/// The piece letter of the move word `b` of `kind`, after the `+` of a promoted piece (which no
/// drop has), read into `m`; the rest of the word.
#[inline]
fn piece_letter<'w>(m: &mut WrittenMove, kind: WordKind, b: &'w [u8]) -> Option<&'w [u8]> {
    let rest = match b {
        [b'+', rest @ ..] if !matches!(kind, WordKind::SpecDrop | WordKind::AtDrop | WordKind::ChessDrop) => {
            m.promoted = true;
            rest
        }
        _ => b,
    };
    let (&letter, rest) = rest.split_first()?;
    m.piece = Some(match (kind, letter) {
        // `chess_piece`: `H` is a horse and `D` a dragon, the promoted bishop and rook.
        (WordKind::ChessMove, b'H') => {
            m.promoted = true;
            PieceKind::Bishop
        }
        (WordKind::ChessMove, b'D') => {
            m.promoted = true;
            PieceKind::Rook
        }
        // An uppercase letter: Black's piece.
        _ => Piece::from_ascii(letter, false).filter(|p| p.color == Color::Black)?.kind,
    });
    Some(rest)
}

/// The rest of a chess-style move `m` after its piece letter (`rest`, at `off` in the word).
fn decode_chess(m: &mut WrittenMove, rest: &[u8], off: usize) -> Option<()> {
    let span = m.span;
    m.form = MoveForm::Chess;
    // `chess_mark`, last: `Bxe3=H+`.
    let rest = match rest.split_last() {
        Some((&c @ (b'+' | b'#'), init)) => {
            let at = span.start.saturating_add(off + init.len());
            m.mark = Some(Box::new(Mark { mate: c == b'#', span: Span::new(at, at.saturating_add(1)) }));
            init
        }
        _ => rest,
    };
    // `chess_promotion`: `=` and the letter of the piece it promotes to.
    let rest = match rest {
        [init @ .., b'=', letter] => {
            let at = span.start.saturating_add(off + init.len());
            m.promotion = Some(Promotion::Promote);
            m.promotes_to = Some(Box::new((char::from(*letter), Span::new(at, at.saturating_add(2)))));
            init
        }
        _ => rest,
    };
    let [mid @ .., file, rank] = rest else { return None };
    m.to = chess_square(*file, *rank)?;
    let mid = match mid.split_first() {
        Some((b'@', mid)) => {
            m.drop = true;
            mid
        }
        _ => mid,
    };
    let mid = match mid.split_last() {
        Some((b'x', mid)) => {
            m.capture = true;
            mid
        }
        _ => mid,
    };
    m.from = match *mid {
        [] => Origin::None,
        [file, rank] => Origin::Square(chess_square(file, rank)?),
        [file @ b'a'..=b'i'] => Origin::File(9 - (file - b'a')),
        [rank @ b'1'..=b'9'] => Origin::Rank(10 - (rank - b'0')),
        _ => return None,
    };
    Some(())
}

/// The rest of a shogi-style move `m` of `kind` after its piece letter (`rest`).
fn decode_shogi(m: &mut WrittenMove, kind: WordKind, rest: &[u8]) -> Option<()> {
    m.form = match kind {
        WordKind::PiecelessMove => MoveForm::Pieceless,
        WordKind::SeparatedMove => MoveForm::Separated,
        WordKind::ShortMove => MoveForm::Short,
        WordKind::AtDrop => MoveForm::AtDrop,
        _ => MoveForm::Spec,
    };
    let rest = match rest.split_last() {
        Some((&c @ (b'+' | b'='), rest)) => {
            m.promotion = Some(if c == b'+' { Promotion::Promote } else { Promotion::Decline });
            rest
        }
        _ => rest,
    };
    let [mid @ .., file, rank] = rest else { return None };
    m.to = Square::from_ascii(*file, *rank)?;
    let mid = match mid.split_last() {
        Some((b'*' | b'\'' | b'@', mid)) => {
            m.drop = true;
            mid
        }
        Some((&c @ (b'-' | b'x'), mid)) => {
            m.capture = c == b'x';
            mid
        }
        _ => mid,
    };
    m.from = match *mid {
        [] => Origin::None,
        [file, rank] => Origin::Square(Square::from_ascii(file, rank)?),
        [file @ b'1'..=b'9'] => Origin::File(file - b'0'),
        [rank @ b'a'..=b'i'] => Origin::Rank(rank - b'a' + 1),
        _ => return None,
    };
    Some(())
}

/// The square of chess coordinates: files `a`-`i` are shogi files 9 to 1, ranks `1`-`9` count
/// from Black's side (shogi ranks i to a).
fn chess_square(file: u8, rank: u8) -> Option<Square> {
    match (file, rank) {
        (b'a'..=b'i', b'1'..=b'9') => Square::new(9 - (file - b'a'), 10 - (rank - b'0')),
        _ => None,
    }
}

/// The longest word that may stand for a move (`+B1e4b+`, `Bxe3=H+` and a slip of one).
const MAX_MOVE_WORD: usize = 12;

/// True when a word that no rule reads stands in a move's place: a short word of the
/// characters moves are written with that holds a square's digit (`Q7b`, `P0d`, `R7f--4b`), or
/// that starts with a piece's letter and has at most three characters, or four with a mark
/// (`Pf`, `NPg`, `P*Pb`, `Pxc+`); never a number or a result (`12`, `1-1`) or a word of prose.
fn in_place_of_a_move(word: &str) -> bool {
    let b = word.as_bytes();
    let piece_first = b.iter().find(|&&c| c != b'+').is_some_and(|c| b"PLNSGBRK".contains(c));
    (2..=MAX_MOVE_WORD).contains(&b.len())
        && b.iter().all(|c| c.is_ascii_alphanumeric() || b"+*'@=-#".contains(c))
        && !b.iter().all(u8::is_ascii_digit)
        && !(matches!(b[0], b'0' | b'1') && b.contains(&b'-'))
        && (b.iter().any(|c| (b'1'..=b'9').contains(c))
            || piece_first && (b.len() <= 3 || b.len() == 4 && b.iter().any(|c| b"+*'@=-".contains(c))))
}

/// The diagnostic for a word that no rule matches, as pointed as its shape allows.
fn unknown_word(word: &str, s: Span) -> Diagnostic {
    const FORMS: &str = "a move is a piece letter (P L N S G B R K), the origin square when needed and the \
                         destination: `P7f`, `G4a5b`, `+P3b`, `P7g+`; a drop is `P*5e`";
    if let Ok(mut pairs) = PsnParser::parse(Rule::move_lenient, word) {
        if pairs.peek().is_some_and(|p| p.as_span().end() == word.len()) {
            for p in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
                let at = Span::new(s.start + p.as_span().start(), s.start + p.as_span().end());
                let t = p.as_str();
                match p.as_rule() {
                    Rule::lenient_piece if !"PLNSGBRK".contains(t) => {
                        let upper = t.to_ascii_uppercase();
                        let help = if "PLNSGBRK".contains(upper.as_str()) {
                            format!("pieces are written in capitals: `{upper}`")
                        } else {
                            "the pieces are P (pawn), L (lance), N (knight), S (silver), G (gold), B (bishop), \
                             R (rook) and K (king)"
                                .to_owned()
                        };
                        return Diagnostic::error(codes::psn::UNKNOWN_PIECE, at, format!("`{t}` is not a shogi piece"))
                            .label("not a piece letter")
                            .with(s, "in this move")
                            .help(help);
                    }
                    Rule::lenient_cell => {
                        let (f, r) = (t.as_bytes()[0], t.as_bytes()[1]);
                        if f == b'0' || !(b'a'..=b'i').contains(&r) {
                            return Diagnostic::error(codes::psn::BAD_SQUARE, at, format!("`{t}` is not a square"))
                                .label("off the board")
                                .with(s, "in this move")
                                .help("a square is a file 1-9 and a rank a-i, such as `7f`");
                        }
                    }
                    _ => {}
                }
            }
            let seps = word.matches(['-', 'x']).count();
            if seps > 1 {
                return Diagnostic::error(
                    codes::psn::BAD_MOVE,
                    s,
                    format!("`{word}` has {seps} separators between its squares"),
                )
                .label("shaped like a move, but not one")
                .help("write the origin and the destination with at most one `-` or `x` between them: `R7f-4b`");
            }
        }
    }
    let (message, help) = if word.chars().all(|c| c.is_ascii_digit()) {
        (
            format!("`{word}` is a number without its dot"),
            "a move number ends with `.` (Black) or `...` (White): `12.`".to_owned(),
        )
    } else if word.starts_with(['1', '0']) && word.contains('-') {
        (format!("`{word}` is not a result"), "a result is `1-0`, `0-1` or `1/2-1/2`".to_owned())
    } else {
        (format!("`{word}` is not a move, a move number, a comment or a result"), FORMS.to_owned())
    };
    Diagnostic::error(codes::psn::UNKNOWN_WORD, s, message).label("not PSN").help(help)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::psn::scan::classify;

    fn parts(word: &str) -> (bool, Option<char>, Origin, bool, bool, String, Option<Promotion>) {
        let kind = classify(word).expect("a word");
        let m = decode(kind, word, Span::new(0, word.len())).expect("a move");
        (m.promoted, m.piece.map(PieceKind::letter), m.from, m.drop, m.capture, m.to.to_string(), m.promotion)
    }

    #[test]
    fn variations_too_deep_are_reported_once_and_not_read() {
        let deep = MAX_VARIATION_DEPTH;
        let text = format!(
            "1. P7f {}(1. P2f) (1. P2f (1. P2f)) (1. P2f){} 1... P3d 1-0",
            "(1. P2f ".repeat(deep),
            ")".repeat(deep)
        );
        let file = crate::psn::check_bytes(text.as_bytes(), Default::default());
        let [game] = file.games.as_slice() else { panic!("one game") };
        let errors: Vec<_> = game.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].code, crate::diagnostic::codes::psn::TOO_DEEP);
        assert!(errors[0].message.ends_with("(nor those of 2 more variations as deep)"), "{}", errors[0].message);
        // The deepest variations are left out; the moves around them are read.
        let moves = game.game.all_moves();
        assert_eq!(moves.len(), deep + 2);
        assert_eq!(moves.last().map(|m| m.mv.text.as_str()), Some("P3d"));
    }

    #[test]
    fn numbers_read_as_parse_reads_digits() {
        let mut texts: Vec<String> = ["", "0", "7", "12", "007", "1a", "a1", "1.", " 1", "+1", "-1", "１"]
            .into_iter()
            .map(String::from)
            .collect();
        texts.extend(["18446744073709551615", "18446744073709551616", "99999999999999999999"].map(String::from));
        texts.extend((0..2000u64).map(|n| n.to_string()));
        for t in &texts {
            let by_parse = if t.starts_with('+') { u64::MAX } else { t.parse().unwrap_or(u64::MAX) };
            assert_eq!(number(t), by_parse, "{t:?}");
        }
    }

    #[test]
    fn every_word_of_the_specs_move_rules_decodes_in_the_specs_form() {
        // The fast path reads no move of a game it checks without the replay: it relies on this.
        let words = crate::psn::scan::spec_words();
        assert_eq!(words.len(), 8 * 81 * (2 * 82 * 3 + 2));
        for (w, kind) in &words {
            let mut m = UNREAD_NODE.mv.clone();
            assert!(decode_into(*kind, w, &mut m).is_some(), "{w}");
            assert_eq!(m.form, MoveForm::Spec, "{w}");
            let to = w.trim_end_matches(['+', '=']);
            assert!(m.drop == (*kind == WordKind::SpecDrop) && m.to.to_string() == to[to.len() - 2..], "{w}");
        }
    }

    #[test]
    fn decode_is_total() {
        let odd = [
            "", "7", "+", "P", "9a-", "7g", "7g7", "+P", "P*", "P@", "=", "x", "@g", "P=", "7g7f++", "++P7f", "P7g*",
            "é", "7é", "P7é", "éP7f", "7gé7f", "+é", "Pé=", "Gf1é2", "P@é", "7g7ｆ", "０a", "Pj1", "P0a", "+Pxé=",
        ];
        for word in odd {
            for kind in WordKind::ALL {
                let m = decode(kind, word, Span::new(0, word.len()));
                assert!(m.is_none() || kind.is_move(), "{kind:?} {word:?}");
            }
        }
        for (kind, word) in [
            (WordKind::UsiMove, "7"),
            (WordKind::UsiMove, ""),
            (WordKind::UsiMove, "7g7"),
            (WordKind::SpecMove, "+"),
            (WordKind::SpecMove, "P"),
            (WordKind::PiecelessMove, "9a-"),
            (WordKind::ChessMove, "é"),
            (WordKind::ChessMove, "P="),
            (WordKind::SpecDrop, "P*0a"),
            (WordKind::ShortMove, "pxé"),
        ] {
            assert!(decode(kind, word, Span::default()).is_none(), "{kind:?} {word:?}");
        }
        // Only move rules decode to a move.
        assert!(decode(WordKind::Seqnum, "12.", Span::default()).is_none());
        assert!(decode(WordKind::UsiMove, "7g7f", Span::default()).is_some());
    }

    #[test]
    fn decodes_every_form() {
        let sq = |s: &str| Origin::Square(Square::new(s.as_bytes()[0] - b'0', s.as_bytes()[1] - b'a' + 1).expect("sq"));
        assert_eq!(parts("P7f"), (false, Some('P'), Origin::None, false, false, "7f".into(), None));
        assert_eq!(parts("G4a5b"), (false, Some('G'), sq("4a"), false, false, "5b".into(), None));
        assert_eq!(parts("+B9ix7g"), (true, Some('B'), sq("9i"), false, true, "7g".into(), None));
        assert_eq!(
            parts("N7g="),
            (false, Some('N'), Origin::None, false, false, "7g".into(), Some(Promotion::Decline))
        );
        assert_eq!(parts("P'5e"), (false, Some('P'), Origin::None, true, false, "5e".into(), None));
        assert_eq!(parts("P@8c"), (false, Some('P'), Origin::None, true, false, "8c".into(), None));
        assert_eq!(parts("G45b"), (false, Some('G'), Origin::File(4), false, false, "5b".into(), None));
        assert_eq!(parts("Sc4d"), (false, Some('S'), Origin::Rank(3), false, false, "4d".into(), None));
        assert_eq!(parts("8h2b+"), (false, None, sq("8h"), false, false, "2b".into(), Some(Promotion::Promote)));
        assert_eq!(parts("Gf1e2"), (false, Some('G'), sq("4i"), false, false, "5h".into(), None));
        assert_eq!(
            parts("Pxg3=G"),
            (false, Some('P'), Origin::None, false, true, "3g".into(), Some(Promotion::Promote))
        );
        assert_eq!(parts("P@g4"), (false, Some('P'), Origin::None, true, false, "3f".into(), None));
        assert_eq!(parts("Sde3"), (false, Some('S'), Origin::File(6), false, false, "5g".into(), None));
    }
}
