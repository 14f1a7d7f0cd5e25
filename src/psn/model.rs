//! The model of a PSN game: headers, the starting position, and the movetext as a tree of
//! moves with their numbers, annotations, clocks, comments and variations. Every part keeps
//! its span (byte offsets into the game's text). Replaying the moves on a board resolves what
//! the text leaves open (the origin of `P7f`, the piece of `7g7f`); the model keeps exactly what
//! was written.

use compact_str::CompactString;
#[cfg(feature = "serde")]
use serde::Serialize;

use crate::notation::lookalike::ascii_for;
use crate::shogi::{Color, EndReason, Ending, Outcome, PieceKind, Square};
use crate::span::Span;

/// The deepest variations a game may nest: a variation inside a variation is 2 deep. A `(`
/// that would open one deeper is reported (`psn::too-deep`) and what it encloses is not read.
/// Real records nest a few levels at most; the limit keeps a hostile file from making every
/// walk over the game as deep as the file is long.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// One game of a PSN file.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Game {
    /// 1-based line of the file where the game starts.
    pub line: usize,
    /// Where the game's text is in the file (byte offsets of the decoded text).
    pub span: Span,
    /// The dialect the game was read as (see [`Dialect`](super::Dialect)).
    pub dialect: super::dialect::Dialect,
    /// The header lines, in order.
    pub headers: Vec<Header>,
    /// The position the game starts from, as a USI SFEN, when a header or a setup gives one.
    pub setup: Option<Setup>,
    /// Comments before the first move (and, in dialects that attach comments forward, their
    /// texts too are kept here when no move follows).
    pub comments: Vec<Comment>,
    /// The main line.
    pub moves: Vec<MoveNode>,
    /// How the movetext ends: a result or an end word.
    pub end: Option<End>,
}

impl Game {
    /// The value of the first header named `key` (compared without regard to case).
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|h| h.key.eq_ignore_ascii_case(key)).map(|h| h.value.as_str())
    }

    /// Every move of the game, variations included, in text order.
    pub fn all_moves(&self) -> Vec<&MoveNode> {
        // The lines being walked, innermost last: no recursion, however deep the variations.
        let mut lines = vec![self.moves.iter()];
        let mut out = Vec::new();
        while let Some(line) = lines.last_mut() {
            let Some(m) = line.next() else {
                lines.pop();
                continue;
            };
            out.push(m);
            // The first variation is walked first: it goes on top.
            lines.extend(m.variations().iter().rev().map(|v| v.moves.iter()));
        }
        out
    }
}

/// Calls `visit` on every line of `main` (the line itself, then every variation at any depth),
/// each before the variations that branch from it, with no recursion.
pub(crate) fn for_each_line_mut(main: &mut [MoveNode], mut visit: impl FnMut(&mut [MoveNode])) {
    let mut lines: Vec<&mut [MoveNode]> = vec![main];
    while let Some(line) = lines.pop() {
        visit(&mut *line);
        for m in line.iter_mut() {
            if let Some(variations) = m.variations_mut() {
                lines.extend(variations.iter_mut().map(|v| v.moves.as_mut_slice()));
            }
        }
    }
}

/// A header line `[Key "value"]`.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Header {
    /// The keyword.
    pub key: CompactString,
    /// The value, without its quotes.
    pub value: CompactString,
    /// The whole header.
    pub span: Span,
    /// The keyword's characters.
    pub key_span: Span,
    /// The value's characters.
    pub value_span: Span,
}

/// Where a game's starting position comes from.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Setup {
    /// What gave it.
    pub source: SetupSource,
    /// The starting position as a USI SFEN (side, hands and move number included).
    pub sfen: String,
    /// The text that gave it.
    pub span: Span,
}

/// What gives a game its starting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupSource {
    /// A handicap header (`[Handicap "Lance"]`).
    Handicap,
    /// A FEN header, or a SFEN in one.
    Fen,
    /// A SFEN header.
    Sfen,
    /// GSDB's board lines.
    Gsdb,
}

impl SetupSource {
    /// Its name in JSON and reports: `handicap`, `fen`, `sfen` or `gsdb`.
    pub const fn name(self) -> &'static str {
        match self {
            SetupSource::Handicap => "handicap",
            SetupSource::Fen => "fen",
            SetupSource::Sfen => "sfen",
            SetupSource::Gsdb => "gsdb",
        }
    }
}

super::by_name!(SetupSource);

/// A move with what surrounds it.
///
/// What most moves lack (annotations, clocks, comments, variations) is kept apart, in
/// [`MoveNode::extras`], allocated for the few moves that have any: a game's moves are read,
/// moved and dropped by the hundred thousand, and a move without extras takes 112 bytes rather
/// than 256 on 64-bit targets (the two suffixes only chess-style moves write, in
/// [`WrittenMove`], are boxed too). The accessors ([`MoveNode::annotations`] and the others)
/// read them either way; serialized, a move has all five lists, empty or not.
#[derive(Clone)]
pub struct MoveNode {
    /// The sequence number written before it, if any.
    pub number: Option<MoveNumber>,
    /// The move.
    pub mv: WrittenMove,
    /// What is written around it, if anything.
    pub extras: Option<Box<MoveExtras>>,
}

/// What is written around a move besides its number: see [`MoveNode`].
#[derive(Clone, Debug, Default)]
pub struct MoveExtras {
    /// Glyphs and numeric annotations: `!`, `?!`, `$2`.
    pub annotations: Vec<Annotation>,
    /// Clock columns written after it.
    pub clocks: Vec<Clock>,
    /// Comments placed before it that belong to it (GSDB attaches comments forward).
    pub comments_before: Vec<Comment>,
    /// Comments after it that refer to it (the spec: "The comment usually refer to the last
    /// move made").
    pub comments_after: Vec<Comment>,
    /// Lines that could have been played instead of this move.
    pub variations: Vec<Variation>,
}

impl MoveNode {
    /// The move `mv`, written after `number`, with nothing around it.
    pub fn new(number: Option<MoveNumber>, mv: WrittenMove) -> Self {
        Self { number, mv, extras: None }
    }

    /// What is written around the move, made empty if there was nothing, to add to.
    pub fn extras_mut(&mut self) -> &mut MoveExtras {
        self.extras.get_or_insert_with(Box::default)
    }

    /// Glyphs and numeric annotations: `!`, `?!`, `$2`.
    pub fn annotations(&self) -> &[Annotation] {
        self.extras.as_ref().map_or(&[], |e| &e.annotations)
    }

    /// Clock columns written after it.
    pub fn clocks(&self) -> &[Clock] {
        self.extras.as_ref().map_or(&[], |e| &e.clocks)
    }

    /// Comments placed before it that belong to it (GSDB attaches comments forward).
    pub fn comments_before(&self) -> &[Comment] {
        self.extras.as_ref().map_or(&[], |e| &e.comments_before)
    }

    /// Comments after it that refer to it.
    pub fn comments_after(&self) -> &[Comment] {
        self.extras.as_ref().map_or(&[], |e| &e.comments_after)
    }

    /// Lines that could have been played instead of this move.
    pub fn variations(&self) -> &[Variation] {
        self.extras.as_ref().map_or(&[], |e| &e.variations)
    }

    /// The variations, to take or change (none are made for a move without extras).
    fn variations_mut(&mut self) -> Option<&mut Vec<Variation>> {
        self.extras.as_mut().map(|e| &mut e.variations)
    }
}

/// A move as it is read: its number, the move, and the five lists of its extras, each empty
/// when it has none (as serde writes it).
impl std::fmt::Debug for MoveNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveNode")
            .field("number", &self.number)
            .field("mv", &self.mv)
            .field("annotations", &self.annotations())
            .field("clocks", &self.clocks())
            .field("comments_before", &self.comments_before())
            .field("comments_after", &self.comments_after())
            .field("variations", &self.variations())
            .finish()
    }
}

/// Variations hold moves that hold variations: dropping a deep tree the derived way would
/// recurse once per level. The moves of the variations are taken apart on a heap stack instead,
/// so that each node dropped has no variations left.
impl Drop for MoveNode {
    #[inline(always)]
    fn drop(&mut self) {
        // Most moves have nothing around them: they are dropped without a call.
        if self.variations().is_empty() {
            return;
        }
        drop_variations(self);
    }
}

/// The variations of `node`, taken apart on a heap stack (see [`MoveNode`]'s `Drop`).
#[cold]
#[inline(never)]
fn drop_variations(node: &mut MoveNode) {
    let Some(variations) = node.variations_mut() else { return };
    let mut pending = std::mem::take(variations);
    while let Some(mut v) = pending.pop() {
        for m in &mut v.moves {
            if let Some(more) = m.variations_mut() {
                pending.append(more);
            }
        }
    }
}

/// A move as serde writes it: its number, the move, and the five lists of its extras, each
/// empty when it has none.
#[cfg(feature = "serde")]
impl Serialize for MoveNode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        /// The variations, through [`nested`].
        struct Nested<'a>(&'a [Variation]);
        impl Serialize for Nested<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                nested(self.0, serializer)
            }
        }
        let mut s = serializer.serialize_struct("MoveNode", 7)?;
        s.serialize_field("number", &self.number)?;
        s.serialize_field("move", &self.mv)?;
        s.serialize_field("annotations", self.annotations())?;
        s.serialize_field("clocks", self.clocks())?;
        s.serialize_field("comments_before", self.comments_before())?;
        s.serialize_field("comments_after", self.comments_after())?;
        s.serialize_field("variations", &Nested(self.variations()))?;
        s.end()
    }
}

thread_local! {
    /// How deep the variations being serialized on this thread are.
    static SERIALIZING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Serializes a move's variations, refusing to go deeper than [`MAX_VARIATION_DEPTH`] (serde
/// writes nested values by recursion: a game read from text never goes deeper, and one built by
/// hand gets an error rather than a stack overflow).
#[cfg(feature = "serde")]
fn nested<S: serde::Serializer>(variations: &[Variation], serializer: S) -> Result<S::Ok, S::Error> {
    /// Leaves the level on every way out.
    struct Level;
    impl Drop for Level {
        fn drop(&mut self) {
            SERIALIZING.with(|d| d.set(d.get().saturating_sub(1)));
        }
    }
    let depth = SERIALIZING.with(|d| {
        d.set(d.get() + 1);
        d.get()
    });
    let _level = Level;
    if depth > MAX_VARIATION_DEPTH && !variations.is_empty() {
        return Err(serde::ser::Error::custom(format!(
            "variations nested more than {MAX_VARIATION_DEPTH} deep are not serialized"
        )));
    }
    variations.serialize(serializer)
}

/// A sequence number: `12.` or `12...`.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct MoveNumber {
    /// The number.
    pub value: u64,
    /// True for `...` (the second half of a pair).
    pub ellipsis: bool,
    /// Its characters.
    pub span: Span,
}

/// How a move was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum MoveForm {
    /// The spec's `['+'] PIECE [FROMCELL] DESTINATION [PROMOTION]` or drop.
    Spec,
    /// `P7g-7f`, `P2cx2d`.
    Separated,
    /// `P-7f`, `Px8f`, `G45b`, `Sc4d`.
    Short,
    /// `7g7f` (no piece letter).
    Usi,
    /// `P@5e`.
    AtDrop,
    /// `9a-9a` (GSDB writer bug).
    Pieceless,
    /// `Gf1e2`, `Pxe6`, `P@g4` (chess coordinates).
    Chess,
    /// A word in a move's place that no move rule reads (`Q7f`, `P0d`): it is reported, and
    /// counted as a ply so that the sides of the moves after it do not shift. Only its `span`
    /// and `text` mean anything.
    Unreadable,
}

// What a move's origin and promotion say: the resolver's, which every game format shares.
pub use crate::shogi::written::{Origin, Promotion};

/// A move or drop, as written.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct WrittenMove {
    /// The characters of the move (without a glued number or glyph).
    pub span: Span,
    /// The text as written.
    pub text: CompactString,
    /// The form it was written in.
    pub form: MoveForm,
    /// A leading `+`: the piece that moves is promoted.
    pub promoted: bool,
    /// The piece, when written.
    pub piece: Option<PieceKind>,
    /// The origin, or as much of it as was written.
    pub from: Origin,
    /// True for a drop.
    pub drop: bool,
    /// True when written as a capture (`x`).
    pub capture: bool,
    /// The destination.
    pub to: Square,
    /// The promotion suffix.
    pub promotion: Option<Promotion>,
    /// The letter after `=` in Fairy-Stockfish SAN (`Pxg3=G`, `Bxe3=H`): the piece the move
    /// promotes to, with its characters (`=` included). Boxed, as [`WrittenMove::mark`] is:
    /// few moves have either, and a move small enough is copied without a call to `memcpy`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub promotes_to: Option<Box<(char, Span)>>,
    /// Fairy-Stockfish SAN (pychess) writes a gold and every piece promoted to move like one
    /// (pawn, lance, knight, silver) with the same `G`: the letter names any of them.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub gold_mover: bool,
    /// A check or mate mark after the move (`Hxg7+`, `Rb1#`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub mark: Option<Box<Mark>>,
}

/// A check or mate mark, as chess SAN writes them after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Mark {
    /// `#`: the move mates. `+`: it gives check, and the other side can still move.
    pub mate: bool,
    /// Its character.
    pub span: Span,
}

/// A glyph or a numeric annotation.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Annotation {
    /// As written: `!?`, `$2`.
    pub text: CompactString,
    /// Its characters.
    pub span: Span,
}

/// A clock column (`07:55:00`) or a parenthesised clock (`(00:01 / 00:00:09)`).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Clock {
    /// As written.
    pub text: CompactString,
    /// Its characters.
    pub span: Span,
}

/// What kind of comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum CommentKind {
    /// `{…}` (the spec).
    Brace,
    /// `;…` to the end of the line.
    Line,
    /// A `%` line.
    Escape,
    /// A paragraph of prose with no delimiters (transcripts that give each move's clock time).
    Prose,
}

/// A comment.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Comment {
    /// Its kind.
    pub kind: CommentKind,
    /// The text inside the delimiters, as written (GSDB's `~` kept).
    pub text: String,
    /// The whole comment, delimiters included.
    pub span: Span,
}

/// A variation: moves that replace the move it is attached to.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Variation {
    /// The opening `(`, or the `Variation:N` line.
    pub span: Span,
    /// Comments before its first move.
    pub comments: Vec<Comment>,
    /// Its moves.
    pub moves: Vec<MoveNode>,
}

/// How a game ends in its movetext.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct End {
    /// As written: `1-0`, `Resigns`, `--Black Won--`.
    pub text: CompactString,
    /// A result, an end word or a won line.
    pub kind: EndKind,
    /// Its characters.
    pub span: Span,
    /// Clock columns written after it (`Resigns  07:55:00  07:59:00`).
    pub clocks: Vec<Clock>,
}

/// How a game's end is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// `1-0`, `0-1`, `1/2-1/2` and the dialects' forms.
    Result,
    /// A word that ends the game: `Resigns`, `Sennichite`…
    EndWord,
    /// `--Black Won--` on a line of its own.
    WonLine,
}

impl EndKind {
    /// Its name in JSON and reports: `result`, `end-word` or `won-line`.
    pub const fn name(self) -> &'static str {
        match self {
            EndKind::Result => "result",
            EndKind::EndWord => "end-word",
            EndKind::WonLine => "won-line",
        }
    }
}

super::by_name!(EndKind);

impl End {
    /// How the game ended by these words, `to_move` being the side to move after the last move
    /// (the one that resigned or was mated). A word names the winner only when it says who
    /// lost: `Resigns`, `Mate`, `TimeUp`; the draws say so; for other words the outcome is
    /// left unsaid.
    pub fn ending(&self, to_move: Color) -> Ending {
        let draw = Some(Outcome::Draw);
        match self.kind {
            EndKind::Result => {
                // The dialects' dashes (U+2010, U+2011, U+2013) and fraction slash, read as ASCII.
                let text: String = self.text.chars().map(|c| ascii_for(c).unwrap_or(c)).collect();
                let half = |s: &str| matches!(s, "1/2" | "\u{BD}");
                let outcome = match text.split_once('-') {
                    Some(("1", "0")) => Some(Outcome::Win(Color::Black)),
                    Some(("0", "1")) => Some(Outcome::Win(Color::White)),
                    Some((a, b)) if half(a) && half(b) => draw,
                    _ => None,
                };
                Ending { reason: None, outcome }
            }
            EndKind::WonLine => {
                let black = self.text.contains("Black") || self.text.contains("Sente");
                Ending { reason: None, outcome: Some(Outcome::Win(if black { Color::Black } else { Color::White })) }
            }
            EndKind::EndWord => match end_word(&self.text) {
                Some((reason, says)) => Ending { reason: Some(reason), outcome: says.outcome(to_move) },
                None => Ending { reason: None, outcome: None },
            },
        }
    }
}

/// What an end word says of who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Says {
    /// The side to move after the last move lost (it resigned, was mated, ran out of time).
    Loss,
    /// The game was drawn.
    Draw,
    /// Nothing.
    Nothing,
}

impl Says {
    /// Who won, `to_move` being the side to move after the last move.
    pub(crate) const fn outcome(self, to_move: Color) -> Option<Outcome> {
        match self {
            Says::Loss => Some(Outcome::Win(to_move.opponent())),
            Says::Draw => Some(Outcome::Draw),
            Says::Nothing => None,
        }
    }
}

/// The end words the dialects write, each with the reason it gives and what it says of who
/// won; the first of a reason is the one kifu writes.
const END_WORDS: &[(&str, EndReason, Says)] = &[
    ("Resigns", EndReason::Resignation, Says::Loss),
    ("Resign", EndReason::Resignation, Says::Loss),
    ("Mate", EndReason::Checkmate, Says::Loss),
    ("TimeUp", EndReason::TimeUp, Says::Loss),
    ("Sennichite", EndReason::Repetition, Says::Draw),
    ("RepetitionDraw", EndReason::Repetition, Says::Draw),
    ("RepetitionWin", EndReason::Repetition, Says::Nothing),
    ("RepetitionLose", EndReason::Repetition, Says::Nothing),
    ("Hikiwake", EndReason::Draw, Says::Draw),
    ("MaxMovesDraw", EndReason::MaxMoves, Says::Draw),
    ("Interrupt", EndReason::Interrupted, Says::Nothing),
    ("Jishogi", EndReason::Impasse, Says::Nothing),
    ("Kachi", EndReason::Impasse, Says::Nothing),
    ("DeclarationWin", EndReason::Impasse, Says::Nothing),
    ("TryRuleWin", EndReason::Impasse, Says::Nothing),
    ("IllegalMove", EndReason::IllegalMove, Says::Nothing),
    ("IllegalAction", EndReason::IllegalMove, Says::Nothing),
];

/// The reason the end word `text` gives (in any case), and what it says of who won.
pub(crate) fn end_word(text: &str) -> Option<(EndReason, Says)> {
    END_WORDS.iter().find(|(word, _, _)| word.eq_ignore_ascii_case(text)).map(|&(_, reason, says)| (reason, says))
}

/// The end word kifu writes for `reason`.
pub(crate) fn word_for(reason: EndReason) -> Option<&'static str> {
    END_WORDS.iter().find(|(_, r, _)| *r == reason).map(|(word, _, _)| *word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::psn::{display, findings::Findings, replay};

    /// The end words given a meaning are those of the grammar's rule `end_word`, every one.
    #[test]
    fn the_end_words_are_the_grammars() {
        let grammar = include_str!("../../grammar/psn.pest");
        let rule = &grammar[grammar.find("\nend_word = @{").expect("the rule")..];
        let rule = &rule[..rule.find('}').expect("its end")];
        let mut words: Vec<String> =
            rule.split("^\"").skip(1).map(|w| w[..w.find('"').unwrap_or(0)].to_owned()).collect();
        let mut known: Vec<String> = END_WORDS.iter().map(|(w, _, _)| w.to_ascii_lowercase()).collect();
        words.sort();
        known.sort();
        assert_eq!(words, known);
    }

    /// `P7f`, replaced by `P7f`, replaced by `P7f`… `depth` variations deep, built by hand (the
    /// reader would stop at [`MAX_VARIATION_DEPTH`]).
    fn deep_game(depth: usize) -> Game {
        let node = |i: usize, variations: Vec<Variation>| MoveNode {
            number: None,
            extras: Some(Box::new(MoveExtras { variations, ..MoveExtras::default() })),
            mv: WrittenMove {
                span: Span::new(4 * i, 4 * i + 3),
                text: "P7f".into(),
                form: MoveForm::Spec,
                promoted: false,
                piece: Some(PieceKind::Pawn),
                from: Origin::None,
                drop: false,
                capture: false,
                to: Square::new(7, 6).expect("7f"),
                promotion: None,
                promotes_to: None,
                gold_mover: false,
                mark: None,
            },
        };
        let mut inner = node(depth, Vec::new());
        for i in (0..depth).rev() {
            let v = Variation { span: Span::new(4 * i + 3, 4 * i + 4), comments: Vec::new(), moves: vec![inner] };
            inner = node(i, vec![v]);
        }
        Game {
            line: 1,
            span: Span::new(0, 4 * depth + 3),
            dialect: crate::psn::dialect::Dialect::PsnVariant,
            headers: Vec::new(),
            setup: None,
            comments: Vec::new(),
            moves: vec![inner],
            end: None,
        }
    }

    /// Far deeper than any stack would take by recursion: every walk over the game iterates.
    #[test]
    fn a_game_of_any_depth_is_walked_written_played_and_dropped_without_recursion() {
        const DEPTH: usize = 200_000;
        let game = deep_game(DEPTH);
        assert_eq!(game.all_moves().len(), DEPTH + 1);
        let written = display::to_psn(&game, None);
        assert_eq!(written.matches('(').count(), DEPTH);
        let mut found = Findings::new();
        let r = replay::replay(&game, false, &mut found);
        assert_eq!(r.played.len(), DEPTH + 1);
        // serde recurses: past the depth the reader allows, serializing is refused, not overflowed.
        let json = serde_json::to_string(&game);
        assert!(json.is_err_and(|e| e.to_string().contains("nested more than")));
        // And a game as deep as the reader allows is serialized.
        assert!(serde_json::to_string(&deep_game(MAX_VARIATION_DEPTH)).is_ok());
        drop(game);
    }
}
