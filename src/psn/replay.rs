//! Playing a game's moves on a board: each written move found by the resolver every game format
//! shares (`shogi::written`: the origin of `P7f`, or the written one checked,
//! ambiguity, promotion and drop rules), the side that moves, and how the game ends.
//!
//! The rules are [`crate::shogi::rules`]. A move that no rule allows is an error that says why
//! in the game's terms, labelled on the move and, where the text shows them, on the moves that
//! brought the pieces involved to their squares. The main line stops being replayed at its first
//! illegal move; each variation is replayed from the position before the move it replaces, and
//! stops at its own first illegal move.

use crate::diagnostic::codes;
use std::collections::HashMap;

use super::dialect::Dialect;
use super::findings::Findings;
use super::model::{End, Game, Mark, MoveForm, MoveNode, MoveNumber, WrittenMove};
use super::nearest::Forms;
use super::repair::{one_edit_repair, Repair, Repairer};
use super::setup::HANDICAPS;
use crate::diagnostic::Diagnostic;
use crate::shogi::rules::{Illegal, Legality, State};
use crate::shogi::written::{self, promoted_letter, Unresolved, Written};
use crate::shogi::Move;
use crate::shogi::Position;
use crate::shogi::{Color, Piece, PieceKind, Square};
use crate::span::Span;

// A move of the text, as played: the resolver's, which every game format shares.
pub use crate::shogi::written::Resolved;

/// A game played out.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The position the game starts from.
    pub start: Position,
    /// For a game with no header whose first move is White's: the handicap it was read as.
    pub guessed_handicap: Option<&'static str>,
    /// The main line's moves, up to its first illegal move (or word that is no move).
    pub moves: Vec<Move>,
    /// The index in the main line of its first illegal move (or word that is no move).
    pub illegal_at: Option<usize>,
    /// The position after the last of `moves`.
    pub end: State,
    /// Every move played, main line and variations, with the byte where its text starts (in
    /// the main line, up to its first illegal move), in the order of those bytes: see
    /// [`Replay::resolved`].
    pub played: Vec<(usize, Resolved)>,
    /// The words in a move's place that are no move, each with its repair (their findings are
    /// the reader's, which `Repair::amend` completes).
    pub(crate) unreadable: Vec<(Span, Repair)>,
}

impl Replay {
    /// How the move whose text starts at byte `start` was played, if it was.
    pub fn resolved(&self, start: usize) -> Option<&Resolved> {
        let after = self.played.partition_point(|&(s, _)| s <= start);
        after.checked_sub(1).and_then(|i| self.played.get(i)).filter(|(s, _)| *s == start).map(|(_, r)| r)
    }

    /// The positions after each move of the main line, in order.
    pub fn positions(&self) -> Vec<Position> {
        crate::shogi::game::positions_after(&self.start, self.moves.iter().copied())
    }
}

/// A hasher for keys that are already hashes (repetition keys) or small numbers (offsets):
/// one multiplication spreads them.
#[derive(Default, Clone, Copy)]
pub struct QuickHash(u64);

impl std::hash::Hasher for QuickHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// Maps keyed by offsets or hashes.
pub type QuickMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<QuickHash>>;

/// The positions of the main line, for repetition (sennichite): the key of each
/// ([`State::repetition_key`]) in order, the start's first, and how many keys fell in each
/// bucket of their low bits. A position that occurs four times fills its bucket to four, so
/// while no bucket holds four, no position occurred four times, and the keys need not be
/// looked at again.
pub(super) struct Repetitions {
    keys: Vec<u64>,
    buckets: [u8; Self::BUCKETS],
    /// A bucket holds four keys or more.
    full: bool,
}

impl Repetitions {
    /// Enough buckets that a game of some hundred moves seldom fills one by chance.
    const BUCKETS: usize = 1024;

    pub(super) fn new(capacity: usize) -> Self {
        Self { keys: Vec::with_capacity(capacity), buckets: [0; Self::BUCKETS], full: false }
    }

    /// The key of the next position.
    #[inline]
    pub(super) fn push(&mut self, key: u64) {
        self.keys.push(key);
        let bucket = &mut self.buckets[key as usize % Self::BUCKETS];
        *bucket = bucket.saturating_add(1);
        self.full |= *bucket >= 4;
    }

    /// The first ply after which a position had occurred four times (the start is ply 0).
    pub(super) fn fourfold(&self) -> Option<usize> {
        if !self.full {
            return None;
        }
        let mut seen: QuickMap<u64, u32> = QuickMap::with_capacity_and_hasher(self.keys.len(), Default::default());
        self.keys.iter().position(|&key| {
            let count = seen.entry(key).or_insert(0);
            *count = count.saturating_add(1);
            *count == 4
        })
    }
}

/// Where each piece came to its square in the text: the span of the move that put it there.
type Arrivals = [Option<Span>; 81];

/// Plays `game`. `per_ply` says the game numbers its moves one per ply (so numbers say nothing
/// of the side to move). Findings go to `diagnostics`.
pub fn replay(game: &Game, per_ply: bool, diagnostics: &mut Findings) -> Replay {
    let (start, guessed_handicap) = starting_position(game, per_ply, diagnostics);
    // pychess numbers the moves in pairs from the game's first move, whoever makes it: in a
    // game Gote starts (a handicap game), `1.` numbers Gote's move (PSN note 3).
    let per_ply = per_ply || game.dialect == Dialect::Pychess && start.side == Color::White;
    // A game with no setup and no handicap read into it starts from the start position, move 1.
    let mut state = if game.setup.is_none() && guessed_handicap.is_none() {
        debug_assert_eq!(start, Position::STARTPOS);
        State::startpos()
    } else {
        State::new(&start)
    };
    let mut r = Replay {
        start,
        guessed_handicap,
        moves: Vec::with_capacity(game.moves.len()),
        illegal_at: None,
        end: state,
        played: Vec::with_capacity(game.moves.len()),
        unreadable: Vec::new(),
    };
    let mut repairer = Repairer::new(game);
    let mut arrivals: Arrivals = [None; 81];
    let mut repetitions = Repetitions::new(game.moves.len() + 1);
    repetitions.push(state.repetition_key());
    let mut end = None;
    // Whether the side to move is in check, when known without looking at the whole board:
    // after a legal move, if the side that moves next was not in check before it.
    let mut check = Check::of(&state);
    for (i, node) in game.moves.iter().enumerate() {
        // Variations replace this move: they start from the position before it.
        if !node.variations().is_empty() {
            play_variations(node, (&state, &arrivals), per_ply, &mut r, &mut repairer, diagnostics);
        }
        if !per_ply {
            check_side(node, &state, diagnostics);
        }
        let legality = check.legality(&state);
        let mut legal = true;
        let played = match resolve_with(&legality, &state, &node.mv) {
            Ok(res) if r.illegal_at.is_none() => {
                r.played.push((node.mv.span.start, res));
                r.moves.push(res.mv);
                res.mv
            }
            Ok(res) => res.mv,
            Err(why) => {
                // The moves as the text gives them end here; the replay goes on from a repair.
                if r.illegal_at.is_none() {
                    r.illegal_at = Some(i);
                    end = Some(state);
                }
                let repair = repairer.repair(&state, &node.mv, &game.moves[i + 1..]);
                let Some(mv) = report(why, &node.mv, (&state, &arrivals), repair, &mut r.unreadable, diagnostics)
                else {
                    break;
                };
                legal = false;
                mv
            }
        };
        play(&mut state, &mut arrivals, played, node.mv.span);
        check = if legal { check.after_legal(&state, played) } else { Check::of(&state) };
        if r.illegal_at.is_none() {
            repetitions.push(state.repetition_key());
        }
    }
    r.end = end.unwrap_or(state);
    // Variations are played before the move they replace, and written after it. The sort is
    // stable: of two moves at one byte (none in a game read from text), the last played is found.
    r.played.sort_by_key(|&(start, _)| start);
    if r.illegal_at.is_none() {
        check_played_out(game, (&state, &arrivals), &repetitions, diagnostics);
    }
    r
}

/// The checks of a game played to its last move without an illegal one, `state` after it: its
/// end (`repetitions` of its positions tell a fourth repetition) and the illegal move it names.
fn check_played_out(
    game: &Game,
    (state, arrivals): (&State, &Arrivals),
    repetitions: &Repetitions,
    diagnostics: &mut Findings,
) {
    // The ply after which a position occurred for the fourth time, and that move.
    let fourfold = repetitions
        .fourfold()
        .and_then(|ply| ply.checked_sub(1).and_then(|i| game.moves.get(i)).map(|node| (ply, node.mv.span)));
    let header_result = game.headers.iter().find(|h| h.key.eq_ignore_ascii_case("Result")).map(|h| h.value.as_str());
    check_end((game.end.as_ref(), header_result, game.dialect, game.moves.len()), state, fourfold, diagnostics);
    check_named_illegal_move(game, state, arrivals, diagnostics);
}

/// Reports the move `m`, which cannot be played in `state` for `why`, with its `repair`: a word
/// that is no move was reported when it was read, and its repair is kept in `unreadable` for
/// that finding. The move to go on from, if the repair gives one.
fn report(
    why: Unplayable,
    m: &WrittenMove,
    (state, arrivals): (&State, &Arrivals),
    repair: Repair,
    unreadable: &mut Vec<(Span, Repair)>,
    diagnostics: &mut Findings,
) -> Option<Move> {
    let go_on = repair.go_on;
    if matches!(why, Unplayable::Unreadable) {
        unreadable.push((m.span, repair));
    } else {
        let mut d = why.into_diagnostic(m, state, arrivals);
        repair.amend(&mut d, m.span);
        diagnostics.push(d);
    }
    go_on
}

/// The position `game` starts from, and the handicap it was read as when it has no header and
/// its first move is White's.
fn starting_position(game: &Game, per_ply: bool, diagnostics: &mut Findings) -> (Position, Option<&'static str>) {
    let start: Position = game
        .setup
        .as_ref()
        .and_then(|s| s.sfen.parse().ok())
        .unwrap_or_else(|| Position { move_number: Some(1), ..Position::startpos() });
    if game.setup.is_some() {
        return (start, None);
    }
    // A first move numbered `1.` in a game numbered by pairs is Black's by its number.
    let Some(first) = game.moves.first().filter(|m| per_ply || m.number.is_none_or(|n| n.ellipsis)) else {
        return (start, None);
    };
    if first.mv.form == MoveForm::Unreadable || resolve(&State::new(&start), &first.mv).is_ok() {
        return (start, None);
    }
    let Some((name, position)) = guess_handicap(game) else { return (start, None) };
    diagnostics.push(
        Diagnostic::warning(
            codes::psn::HANDICAP_MISSING,
            first.mv.span,
            format!("the first move is White's, but the game has no Handicap header: read as a {name} handicap"),
        )
        .label("White's move")
        .help(format!("say so in a header: `[Handicap \"{name}\"]`; White moves first in a handicap game")),
    );
    (position, Some(name))
}

/// GSDB writes a game lost by an illegal move as `[Result "1-0 Illegal move B4b+"]`, with the
/// move itself left out of the moves: it is played after the last one, and reported.
fn check_named_illegal_move(game: &Game, state: &State, arrivals: &Arrivals, diagnostics: &mut Findings) {
    let Some(h) = game.headers.iter().find(|h| h.key.eq_ignore_ascii_case("Result")) else { return };
    let Some(at) = illegal_move_at(&h.value) else { return };
    let rest = &h.value[at + "illegal move".len()..];
    let word = rest.trim_start();
    let word = &word[..word.find(char::is_whitespace).unwrap_or(word.len())];
    let start = h.value_span.start + at + "illegal move".len() + (rest.len() - rest.trim_start().len());
    let span = Span::new(start, start + word.len());
    let Some(kind) = super::scan::classify(word).filter(|k| k.is_move()) else { return };
    let Some(written) = super::build::decode(kind, word, span) else { return };
    match resolve(state, &written) {
        Err(why) => {
            let mut d = why.into_diagnostic(&written, state, arrivals);
            d.help = Some(format!(
                "the Result header says the game was lost by this move; the record keeps an illegal move{}",
                d.help.as_deref().map_or(String::new(), |h| format!(" ({h})"))
            ));
            diagnostics.push(d);
        }
        Ok(_) => diagnostics.push(
            Diagnostic::warning(
                codes::psn::RESULT_CLAIM,
                span,
                format!("the result calls `{word}` illegal, but {} may play it here", state.side().name()),
            )
            .label("a legal move after the last one")
            .help("check the result against the original record"),
        ),
    }
}

/// Where a Result header's value `value` says the game was lost by an illegal move (see
/// [`check_named_illegal_move`]): the start of those words, in any case.
pub(super) fn illegal_move_at(value: &str) -> Option<usize> {
    value.to_ascii_lowercase().find("illegal move")
}

/// Plays the variations of `node` from `state`, the position before it, and their own
/// variations from their branch points. The lines being played are kept on a stack, one entry
/// per level of nesting: no recursion, however deep the variations go.
fn play_variations(
    node: &MoveNode,
    (state, arrivals): (&State, &Arrivals),
    per_ply: bool,
    r: &mut Replay,
    repairer: &mut Repairer<'_>,
    diagnostics: &mut Findings,
) {
    /// A line being played: its moves, the next one to play, which of that move's variations
    /// comes next, the position before it, and whether a move of the line was repaired.
    struct Line<'a> {
        moves: &'a [MoveNode],
        next: usize,
        branch: usize,
        state: State,
        arrivals: Arrivals,
        repaired: bool,
    }
    let mut lines: Vec<Line> = Vec::new();
    for v in node.variations() {
        let (state, arrivals) = (*state, *arrivals);
        lines.push(Line { moves: &v.moves, next: 0, branch: 0, state, arrivals, repaired: false });
        while let Some(line) = lines.last_mut() {
            let Some(node) = line.moves.get(line.next) else {
                lines.pop();
                continue;
            };
            // The move's variations first, each from the position before the move.
            if let Some(v) = node.variations().get(line.branch) {
                line.branch += 1;
                let (state, arrivals) = (line.state, line.arrivals);
                lines.push(Line { moves: &v.moves, next: 0, branch: 0, state, arrivals, repaired: false });
                continue;
            }
            if !per_ply {
                check_side(node, &line.state, diagnostics);
            }
            let played = match resolve(&line.state, &node.mv) {
                Ok(res) => {
                    if !line.repaired {
                        r.played.push((node.mv.span.start, res));
                    }
                    Some(res.mv)
                }
                // A line goes on from a repair, and else stops at its first illegal move.
                Err(why) => {
                    line.repaired = true;
                    let repair = repairer.repair(&line.state, &node.mv, &line.moves[line.next + 1..]);
                    let at = (&line.state, &line.arrivals);
                    report(why, &node.mv, at, repair, &mut r.unreadable, diagnostics)
                }
            };
            match played {
                Some(mv) => {
                    play(&mut line.state, &mut line.arrivals, mv, node.mv.span);
                    line.next += 1;
                    line.branch = 0;
                }
                None => {
                    lines.pop();
                }
            }
        }
    }
}

fn play(state: &mut State, arrivals: &mut Arrivals, mv: Move, span: Span) {
    match mv {
        Move::Board { from, to, .. } => {
            arrivals[to.index()] = Some(span);
            arrivals[from.index()] = None;
        }
        Move::Drop { to, .. } => arrivals[to.index()] = Some(span),
    }
    state.play_unchecked(mv);
}

/// `12.` numbers Black's move, `12...` White's (§1.2.1).
#[inline]
fn check_side(node: &MoveNode, state: &State, diagnostics: &mut Findings) {
    if let Some(n) = node.number.filter(|n| n.ellipsis != (state.side() == Color::White)) {
        wrong_side(n, node, state, diagnostics);
    }
}

/// [`check_side`]'s report: `n`, the number of `node`, says the other side moves.
#[cold]
fn wrong_side(n: MoveNumber, node: &MoveNode, state: &State, diagnostics: &mut Findings) {
    let (written, right) = if n.ellipsis { ("...", ".") } else { (".", "...") };
    diagnostics.push(
        Diagnostic::error(
            codes::psn::WRONG_SIDE,
            n.span,
            format!(
                "`{}{written}` numbers a move of {}, but {} is to move",
                n.value,
                side_of(n.ellipsis),
                state.side().name()
            ),
        )
        .label(format!("{} is to move", state.side().name()))
        .with(node.mv.span, format!("{}'s move", state.side().name()))
        .help(format!("write `{}{right}`: `N.` numbers Black's move of pair N, `N...` White's", n.value)),
    );
}

fn side_of(ellipsis: bool) -> &'static str {
    if ellipsis {
        "White"
    } else {
        "Black"
    }
}

/// The handicap whose position lets the game's main line be played furthest, White first,
/// when one lets it start at all.
fn guess_handicap(game: &Game) -> Option<(&'static str, Position)> {
    let mut best: Option<(usize, &'static str, Position)> = None;
    let forms = Forms::of(game.moves.iter().map(|m| m.mv.form));
    for (name, _, sfen, _) in HANDICAPS.iter().filter(|h| h.0 != "even") {
        let Ok(position) = sfen.parse::<Position>() else { continue };
        let mut state = State::new(&position);
        let mut played = 0;
        for node in &game.moves {
            let mv = match resolve(&state, &node.mv) {
                Ok(res) => res.mv,
                // A word that is no move, read as its one repair one edit away.
                Err(Unplayable::Unreadable) => match one_edit_repair(&state, &node.mv.text, forms) {
                    Some(mv) => mv,
                    None => break,
                },
                _ => break,
            };
            state.play_unchecked(mv);
            played += 1;
        }
        if best.as_ref().is_none_or(|b| played > b.0) {
            best = Some((played, name, position));
        }
    }
    best.filter(|b| b.0 > 0).map(|(_, name, position)| (name, position))
}

/// What the text says of a capture: `Some(true)` for `x`, `Some(false)` for `-`, `None` when
/// the form says nothing.
fn capture_mark(m: &WrittenMove) -> Option<bool> {
    match m.form {
        MoveForm::Separated | MoveForm::Pieceless => Some(m.capture),
        // Byte by byte: both marks are ASCII, which no byte of another character is.
        MoveForm::Short => m.text.bytes().any(|b| b == b'-' || b == b'x').then_some(m.capture),
        MoveForm::Chess => Some(m.capture),
        _ => None,
    }
}

/// Why a written move cannot be played: its text is no move, or it means none here.
#[derive(Clone, Debug)]
pub enum Unplayable {
    /// The text is no move (its finding is the reader's).
    Unreadable,
    /// The rules find no move it means.
    Unresolved(Unresolved),
}

impl WrittenMove {
    /// What the resolver needs of the move ([`crate::shogi::written`]).
    pub(crate) fn written(&self) -> Written {
        Written {
            piece: self.piece,
            promoted: self.promoted,
            gold_mover: self.gold_mover,
            from: self.from,
            to: self.to,
            drop: self.drop,
            promotion: self.promotion,
            capture: capture_mark(self),
            promotes_to: self.promotes_to.as_deref().map(|w| w.0),
            mark: self.mark.as_deref().map(|m| m.mate),
        }
    }
}

/// What is known of check in a position of the main line.
#[derive(Clone, Copy)]
pub(super) struct Check {
    /// The side to move is in check, if known.
    known: Option<bool>,
    /// The side not to move is not in check.
    other_safe: bool,
}

impl Check {
    /// Nothing known of `state` but whether the side not to move is in check.
    pub(super) fn of(state: &State) -> Self {
        let mut other = *state;
        other.flip_side();
        Self { known: None, other_safe: !other.is_check() }
    }

    /// After the legal move `mv`, which led to `state`: the side that moved is not in check,
    /// and the side to move is in check only where the move changed the board, if it was not
    /// before.
    pub(super) fn after_legal(self, state: &State, mv: Move) -> Self {
        Self { known: self.other_safe.then(|| state.is_check_after(mv)), other_safe: true }
    }

    /// The judge of the moves of `state`, the position this knows of.
    pub(super) fn legality(self, state: &State) -> Legality<'_> {
        self.known.map_or_else(|| state.legality(), |c| state.legality_knowing(c))
    }
}

/// The move the text means in `state`, or why there is none.
pub(crate) fn resolve(state: &State, m: &WrittenMove) -> Result<Resolved, Unplayable> {
    if m.form == MoveForm::Unreadable {
        return Err(Unplayable::Unreadable);
    }
    written::resolve(state, &m.written()).map_err(Unplayable::Unresolved)
}

/// [`resolve`], with `legality` judging the moves of `state`.
pub(super) fn resolve_with(legality: &Legality<'_>, state: &State, m: &WrittenMove) -> Result<Resolved, Unplayable> {
    if m.form == MoveForm::Unreadable {
        return Err(Unplayable::Unreadable);
    }
    written::resolve_with(legality, state, &m.written()).map_err(Unplayable::Unresolved)
}

/// How a piece moves, for help texts.
fn moves_of(piece: Piece) -> &'static str {
    match (piece.kind, piece.promoted) {
        (PieceKind::Pawn, false) => "a pawn moves one square straight ahead",
        (PieceKind::Lance, false) => "a lance moves any number of squares straight ahead",
        (PieceKind::Knight, false) => "a knight jumps two squares ahead and one to the side",
        (PieceKind::Silver, false) => "a silver moves one square ahead or diagonally",
        (PieceKind::Gold, _) | (PieceKind::Pawn | PieceKind::Lance | PieceKind::Knight | PieceKind::Silver, true) => {
            "a gold (and a promoted pawn, lance, knight or silver) moves one square in any direction but diagonally back"
        }
        (PieceKind::Bishop, false) => "a bishop moves any number of squares diagonally",
        (PieceKind::Rook, false) => "a rook moves any number of squares straight",
        (PieceKind::Bishop, true) => "a horse moves as a bishop, or one square straight",
        (PieceKind::Rook, true) => "a dragon moves as a rook, or one square diagonally",
        (PieceKind::King, _) => "a king moves one square in any direction",
    }
}

fn name(piece: Piece) -> String {
    if piece.promoted {
        format!("promoted {}", piece.kind.name())
    } else {
        piece.kind.name().to_owned()
    }
}

impl Unplayable {
    /// The diagnostic for the move `m`, played in `state`.
    fn into_diagnostic(self, m: &WrittenMove, state: &State, arrivals: &Arrivals) -> Diagnostic {
        let side = state.side().name();
        let mut extra = Extra { arrivals, spans: Vec::new() };
        let mut at = m.span;
        let why = match self {
            Unplayable::Unreadable => {
                return Diagnostic::error(codes::psn::UNKNOWN_WORD, m.span, format!("`{}` is not a move", m.text))
                    .label("not PSN")
                    .help("write the move as the game's other moves are written");
            }
            Unplayable::Unresolved(why) => why,
        };
        let (code, message, label, help): Parts = match why {
            Unresolved::Illegal(why) => illegal(why, m, &mut extra),
            Unresolved::WrongPiece { from, found } => (
                codes::psn::WRONG_PIECE,
                format!("`{}` names {}, but the piece on {from} is a {}", m.text, written_piece(m), name(found)),
                format!("a {} stands on {from}", name(found)),
                format!(
                    "write the piece that stands there: `{}{}`",
                    if found.promoted { "+" } else { "" },
                    found.kind.letter()
                ),
            ),
            Unresolved::NoCandidate { kind, promoted, nearest, other_state } => {
                let own = state.piece_at(m.to).filter(|p| p.color == state.side());
                no_candidate(Piece { color: state.side(), kind, promoted }, nearest, other_state, own, m, &mut extra)
            }
            Unresolved::Ambiguous(squares) => ambiguous(&squares, side, m, &mut extra),
            Unresolved::DeclineImpossible => (
                codes::psn::PROMOTION_IMPOSSIBLE,
                format!("`{}` declines a promotion that the move could not make", m.text),
                "no promotion was possible".to_owned(),
                "remove the `=`: it marks a move that could promote and does not".to_owned(),
            ),
            Unresolved::CaptureMark { written } => (
                codes::psn::CAPTURE_MARK,
                if written {
                    format!("`{}` is written as a capture, but {} is empty", m.text, m.to)
                } else {
                    format!("`{}` is written with `-`, but it captures on {}", m.text, m.to)
                },
                if written { "nothing to capture".to_owned() } else { "a capture".to_owned() },
                if written { "write `-` for a move that captures nothing" } else { "write `x` for a capture" }
                    .to_owned(),
            ),
            Unresolved::PromotionLetter { written: letter, piece } => {
                at = m.promotes_to.as_deref().map_or(m.span, |w| w.1);
                extra.spans.push((m.span, "this move".to_owned()));
                let right = promoted_letter(piece).unwrap_or('G');
                (
                    codes::psn::PROMOTION_LETTER,
                    format!(
                        "`{}` promotes a {} to `{letter}`, but a {} promotes to `{right}`",
                        m.text,
                        piece.name(),
                        piece.name()
                    ),
                    format!("a {} does not become `{letter}`", piece.name()),
                    format!(
                        "write `={right}`: a pawn, lance, knight or silver promotes to `G` (it moves like a gold), \
                         a bishop to `H` (horse), a rook to `D` (dragon)"
                    ),
                )
            }
            Unresolved::CheckMark { claimed_mate, check, mate } => {
                let mark = m.mark.as_deref().copied().unwrap_or(Mark { mate: claimed_mate, span: m.span });
                at = mark.span;
                extra.spans.push((m.span, "this move".to_owned()));
                wrong_check_mark(mark, check, mate, state.side().opponent().name(), m)
            }
        };
        let mut d = Diagnostic::error(code, at, message).label(label).help(help);
        for (span, what) in extra.spans {
            if span != at {
                d = d.with(span, what);
            }
        }
        d
    }
}

/// A finding's code, message, label and help.
type Parts = (crate::diagnostic::Code, String, String, String);

/// The other places a finding on a move points at: where pieces came from.
struct Extra<'a> {
    arrivals: &'a Arrivals,
    spans: Vec<(Span, String)>,
}

impl Extra<'_> {
    /// Points at the move that brought the piece on `sq`, if one did, saying `what`.
    fn came(&mut self, sq: Square, what: String) {
        if let Some(s) = self.arrivals[sq.index()] {
            self.spans.push((s, what));
        }
    }
}

/// The finding on `m`, illegal for `why`.
fn illegal(why: Illegal, m: &WrittenMove, extra: &mut Extra<'_>) -> Parts {
    let help = match why {
        Illegal::CannotReach { piece, .. } => {
            format!("{}: check the origin and the destination", moves_of(piece))
        }
        Illegal::Blocked { by, .. } => {
            extra.came(by, format!("the piece on {by} came here"));
            format!("the piece on {by} stands in the way: check the moves before this one")
        }
        Illegal::MustPromote { piece, .. } if m.form == MoveForm::Chess => {
            format!("write the promotion: `={}` at the end of the move", promoted_letter(piece.kind).unwrap_or('G'))
        }
        Illegal::MustPromote { .. } => "write the promotion: a `+` at the end of the move".to_owned(),
        Illegal::CannotPromote { .. } | Illegal::OutsideZone { .. } => format!(
            "remove the `{}`: a piece promotes only on a move into, within or out of the far three ranks",
            m.promotes_to.as_deref().map_or_else(|| "+".to_owned(), |(c, _)| format!("={c}"))
        ),
        Illegal::NotInHand { .. } => "check the captures before this move".to_owned(),
        Illegal::Nifu { pawn, .. } => {
            extra.came(pawn, format!("the pawn came to {pawn} here"));
            "two unpromoted pawns of one side may not stand on one file (nifu)".to_owned()
        }
        Illegal::PawnDropMate { .. } => "a pawn drop may give check, but not checkmate".to_owned(),
        Illegal::KingInCheck { attacker, piece, .. } => {
            extra.came(attacker, format!("the {} came to {attacker} here", name(piece)));
            "no move may leave one's own king in check".to_owned()
        }
        Illegal::NoPiece { .. } | Illegal::NotYours { .. } => {
            "check the origin square against the moves before this one".to_owned()
        }
        Illegal::OwnPiece { .. } | Illegal::Occupied { .. } | Illegal::DeadSquare { .. } => {
            "check the destination square".to_owned()
        }
    };
    if let Illegal::CannotReach { from, .. } | Illegal::Blocked { from, .. } = why {
        extra.came(from, format!("the piece came to {from} here"));
    }
    let code = match why {
        Illegal::MustPromote { .. } => codes::psn::PROMOTION_MISSING,
        Illegal::CannotPromote { .. } | Illegal::OutsideZone { .. } => codes::psn::PROMOTION_IMPOSSIBLE,
        Illegal::Nifu { .. }
        | Illegal::PawnDropMate { .. }
        | Illegal::DeadSquare { .. }
        | Illegal::NotInHand { .. }
        | Illegal::Occupied { .. } => codes::psn::ILLEGAL_DROP,
        _ => codes::psn::ILLEGAL_MOVE,
    };
    (code, format!("`{}` is not a legal move: {why}", m.text), "not legal here".to_owned(), help)
}

/// The finding on `m`, which no `piece` can play (`nearest`: why not for the nearest;
/// `other_state`: where the same piece, promoted or not, could; `own`: the mover's own piece
/// on the destination, which says why best).
fn no_candidate(
    piece: Piece,
    nearest: Option<Illegal>,
    other_state: Option<Square>,
    own: Option<Piece>,
    m: &WrittenMove,
    extra: &mut Extra<'_>,
) -> Parts {
    let side = piece.color.name();
    if let Some(sq) = other_state {
        let other = Piece { promoted: !piece.promoted, ..piece };
        extra.came(sq, format!("the {} came to {sq} here", name(other)));
        (
            codes::psn::PROMOTED_MARK,
            format!("`{}` moves a {}, but the piece that can go to {} is a {}", m.text, name(piece), m.to, name(other)),
            format!("the {} on {sq}", name(other)),
            if other.promoted {
                "a promoted piece is written with a `+` before its letter (§1.2.3)".to_owned()
            } else {
                "remove the leading `+`: the piece is not promoted".to_owned()
            },
        )
    } else {
        let why = match own {
            Some(occupant) => {
                extra.came(m.to, format!("the {} came to {} here", name(occupant), m.to));
                format!("{side}'s own {} stands there", name(occupant))
            }
            None => nearest.map_or_else(|| format!("{side} has no {} on the board", name(piece)), |w| w.to_string()),
        };
        (
            codes::psn::ILLEGAL_MOVE,
            format!("`{}` is not a legal move: no {} of {side} can go to {} ({why})", m.text, name(piece), m.to),
            "not legal here".to_owned(),
            if own.is_some() {
                "check the destination square against the moves before this one".to_owned()
            } else {
                format!("{}: check the move against the original record", moves_of(piece))
            },
        )
    }
}

/// The finding on `m`, which pieces of `side` on `squares` can all play.
fn ambiguous(squares: &[Square], side: &str, m: &WrittenMove, extra: &mut Extra<'_>) -> Parts {
    let list: Vec<String> = squares.iter().map(ToString::to_string).collect();
    for sq in squares {
        extra.came(*sq, format!("a candidate came to {sq} here"));
    }
    (
        codes::psn::AMBIGUOUS_MOVE,
        format!(
            "`{}` is ambiguous: {} pieces of {side} can go to {}, from {}",
            m.text,
            squares.len(),
            m.to,
            list.join(" and ")
        ),
        format!("from {}?", list.join(" or ")),
        format!(
            "write the origin square (§1.2.3), for example `{}{}{}`",
            m.piece.map_or('?', PieceKind::letter),
            list[0],
            m.to
        ),
    )
}

/// The finding on `m`'s check or mate `mark`, when the move gives `check` or `mate` to `other`.
fn wrong_check_mark(mark: Mark, check: bool, mate: bool, other: &str, m: &WrittenMove) -> Parts {
    let (what, help) = match (mark.mate, check, mate) {
        (false, _, true) => {
            (format!("it checkmates {other}"), "write `#`: a move that mates is marked `#`, not `+`".to_owned())
        }
        (true, true, _) => (
            format!("{other} can still answer the check"),
            "write `+`: `#` marks only a move that leaves no legal answer".to_owned(),
        ),
        _ => (
            format!("it does not give check to {other}"),
            format!("remove the `{}`: only a move that gives check is marked", if mark.mate { '#' } else { '+' }),
        ),
    };
    (
        codes::psn::CHECK_MARK,
        format!("`{}` is marked as {}, but {what}", m.text, if mark.mate { "mate (`#`)" } else { "check (`+`)" }),
        if mate {
            "checkmate".to_owned()
        } else if check {
            "check, not mate".to_owned()
        } else {
            "no check".to_owned()
        },
        help,
    )
}

fn written_piece(m: &WrittenMove) -> String {
    match m.piece {
        Some(k) if m.promoted => format!("a promoted {}", k.name()),
        Some(k) => format!("a {}", k.name()),
        None => "a piece".to_owned(),
    }
}

/// How the game ends — its `end`, read in `dialect`, after `plies` moves, and the value of its
/// `Result` header — against the final position `state`; `fourfold` is the first ply after
/// which a position occurred four times, and its move.
pub(super) fn check_end(
    (end, header_result, dialect, plies): (Option<&End>, Option<&str>, Dialect, usize),
    state: &State,
    fourfold: Option<(usize, Span)>,
    diagnostics: &mut Findings,
) {
    if let Some(end) = end {
        check_end_word(end, dialect, state, diagnostics);
    }
    check_repetition((end, header_result, plies), fourfold, diagnostics);
}

/// The game's `end`, read in `dialect`, against the final position `state`: a mate that is not
/// one, a winner who is checkmated.
fn check_end_word(end: &End, dialect: Dialect, state: &State, diagnostics: &mut Findings) {
    let mate = state.is_checkmate();
    if end.text.eq_ignore_ascii_case("mate") && !mate {
        diagnostics.push(
            Diagnostic::warning(
                codes::psn::MATE_CLAIM,
                end.span,
                format!("the game ends with `{}`, but {} is not checkmated", end.text, state.side().name()),
            )
            .label(format!("{} to move has legal moves", state.side().name()))
            .help("check the last moves, or the end word"),
        );
    }
    // PSN counts the points of Black (Sente) first; pychess keeps PGN's order, where White
    // (its name for Sente in 2023, for Gote in 2019) comes first: its results are not read.
    let winner = match (end.text.as_str(), dialect) {
        (_, Dialect::Pychess) => None,
        ("1-0", _) => Some(Color::Black),
        ("0-1", _) => Some(Color::White),
        _ => None,
    };
    if let Some(w) = winner {
        if mate && state.side() == w {
            diagnostics.push(
                Diagnostic::warning(
                    codes::psn::RESULT_CONTRADICTION,
                    end.span,
                    format!("the result says {} won, but {} is checkmated", w.name(), w.name()),
                )
                .label("this result")
                .help(format!("write `{}`", if w == Color::Black { "0-1" } else { "1-0" })),
            );
        }
    }
}

/// The fourth repetition of a position (`fourfold`: the first ply after which one occurred four
/// times, and its move) against the game's `end`, its `Result` header and its `plies` moves.
fn check_repetition(
    (end, header_result, plies): (Option<&End>, Option<&str>, usize),
    fourfold: Option<(usize, Span)>,
    diagnostics: &mut Findings,
) {
    let end_text = end.map(|e| e.text.to_ascii_lowercase());
    let claims_repetition =
        matches!(end_text.as_deref(), Some("sennichite" | "repetitiondraw" | "repetitionwin" | "repetitionlose"));
    // A game that ends at its fourth repetition says so with a repetition end word or a draw,
    // in its moves or, when they end with nothing, in its `Result` header (PSN note 15).
    let says_repetition = |text: &str| {
        let text = text.trim().to_ascii_lowercase();
        matches!(text.as_str(), "sennichite" | "repetitiondraw" | "repetitionwin" | "repetitionlose" | "1/2-1/2")
    };
    let agrees = match end {
        Some(e) => says_repetition(&e.text),
        None => header_result.is_some_and(says_repetition),
    };
    match fourfold {
        Some((ply, span)) if ply < plies || !agrees => {
            let help = if ply < plies {
                "a game ends at the fourth repetition of a position: end it here (perpetual check aside)"
            } else if end.is_none() && header_result.is_none() {
                "the game ends here by repetition: write its result, `1/2-1/2` (perpetual check aside)"
            } else {
                "the game ends here by repetition, a draw: check the result (perpetual check aside)"
            };
            diagnostics.push(
                Diagnostic::warning(
                    codes::psn::SENNICHITE,
                    span,
                    "after this move the same position has occurred four times (sennichite): the game ends here",
                )
                .label("the fourth time")
                .help(help),
            );
        }
        None if claims_repetition => {
            if let Some(end) = end {
                diagnostics.push(
                    Diagnostic::warning(
                        codes::psn::SENNICHITE_CLAIM,
                        end.span,
                        format!("the game ends with `{}`, but no position occurred four times", end.text),
                    )
                    .label("no fourfold repetition in the moves")
                    .help("check the last moves, or the end word"),
                );
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::Repetitions;

    /// The first ply after which a key had occurred four times, counted the slow way.
    fn fourfold_counted(keys: &[u64]) -> Option<usize> {
        (0..keys.len()).find(|&ply| keys[..=ply].iter().filter(|&&k| k == keys[ply]).count() == 4)
    }

    #[test]
    fn repetitions_find_the_first_fourfold_position_as_counting_does() {
        // Sequences of keys drawn from few values (so that some occur four times, early or
        // late) and from many (so that buckets fill by chance, or not at all).
        let mut rng = crate::rng::XorShift(0x2545_F491_4F6C_DD1D_u64);
        let mut next = move || rng.next_u64();
        let mut fourfolds = 0;
        for round in 0..3000 {
            let len = round % 200;
            let values = [2, 5, 20, 2000, u64::MAX][round % 5];
            let spread = [1, 1024, 7][round % 3];
            let keys: Vec<u64> = (0..len).map(|_| (next() % values).wrapping_mul(spread)).collect();
            let mut repetitions = Repetitions::new(keys.len());
            for &key in &keys {
                repetitions.push(key);
            }
            let expected = fourfold_counted(&keys);
            assert_eq!(repetitions.fourfold(), expected, "{keys:?}");
            fourfolds += usize::from(expected.is_some());
        }
        assert!(fourfolds > 500, "{fourfolds}");
    }
}
