//! A move as a record writes it ([`Written`]: a piece, an origin or as much of one as is
//! written, a destination, promotion, a drop), and the move it means in a position, or why it
//! means none ([`Unresolved`]): the resolver every game notation shares. Each notation reads
//! its own text into a [`Written`] and says an [`Unresolved`] in its own words.

#[cfg(feature = "serde")]
use serde::Serialize;

use super::rules::{Illegal, Legality, State};
use super::{Color, Move, Piece, PieceKind, Square};

/// What a move's origin says, when written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case", tag = "kind", content = "value"))]
pub enum Origin {
    /// No origin written.
    None,
    /// A whole square.
    Square(Square),
    /// Only the file (`G45b`).
    File(u8),
    /// Only the rank (`Sc4d`), 1-9 for a-i.
    Rank(u8),
}

/// A promotion written: the move promotes, or it could and does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Promotion {
    /// It promotes (`+`).
    Promote,
    /// It could promote and does not (`=`).
    Decline,
}

/// A move as a record writes it: what the resolver needs to find the move it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The piece, when written (none: a pawn).
    pub piece: Option<PieceKind>,
    /// The piece that moves is written as promoted.
    pub promoted: bool,
    /// The letter names a gold and every piece promoted to move like one (pawn, lance,
    /// knight, silver), as Fairy-Stockfish SAN's `G` does.
    pub gold_mover: bool,
    /// The origin, or as much of it as is written.
    pub from: Origin,
    /// The destination.
    pub to: Square,
    /// A drop.
    pub drop: bool,
    /// The promotion written, if any.
    pub promotion: Option<Promotion>,
    /// What the text says of a capture: `Some(true)` for one, `Some(false)` for none, `None`
    /// when it says nothing.
    pub capture: Option<bool>,
    /// The letter of the piece the move promotes to, when written (Fairy-Stockfish SAN's
    /// `=G`).
    pub promotes_to: Option<char>,
    /// A check claimed after the move: `Some(true)` for mate, `Some(false)` for check.
    pub mark: Option<bool>,
}

/// A written move, as played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// The piece that moved (before promotion), or the piece dropped.
    pub piece: Piece,
    /// Another piece of the same kind could have gone to the same square: the origin must be
    /// written.
    pub needs_origin: bool,
    /// The move could have promoted.
    pub could_promote: bool,
}

/// Why a written move means no move in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unresolved {
    /// The rules forbid it.
    Illegal(Illegal),
    /// The written piece is not the one on the origin.
    WrongPiece {
        /// The origin.
        from: Square,
        /// The piece there.
        found: Piece,
    },
    /// No piece of the side to move of the written kind can make the move.
    NoCandidate {
        /// The kind written.
        kind: PieceKind,
        /// Written as promoted.
        promoted: bool,
        /// Why the nearest such piece cannot, if there is one.
        nearest: Option<Illegal>,
        /// A piece of the other promotion state that can.
        other_state: Option<Square>,
    },
    /// Several pieces can make the move and the text does not say which.
    Ambiguous(Vec<Square>),
    /// A promotion declined on a move that could not promote.
    DeclineImpossible,
    /// The capture written disagrees with the board.
    CaptureMark {
        /// What the text says: a capture, or none.
        written: bool,
    },
    /// The letter of the piece promoted to is not what the piece promotes to.
    PromotionLetter {
        /// The letter written.
        written: char,
        /// The piece that promotes.
        piece: PieceKind,
    },
    /// The check or mate claimed disagrees with the position after the move.
    CheckMark {
        /// The claim: mate, or check.
        claimed_mate: bool,
        /// The move gives check.
        check: bool,
        /// The move mates.
        mate: bool,
    },
}

/// The letter Fairy-Stockfish gives the promoted form of `kind` (its `promotedPieceType`): `G`
/// for the pawn, lance, knight and silver, `H` (horse) for the bishop, `D` (dragon) for the rook.
pub const fn promoted_letter(kind: PieceKind) -> Option<char> {
    match kind {
        PieceKind::Pawn | PieceKind::Lance | PieceKind::Knight | PieceKind::Silver => Some('G'),
        PieceKind::Bishop => Some('H'),
        PieceKind::Rook => Some('D'),
        PieceKind::Gold | PieceKind::King => None,
    }
}

/// True when the letter of `m` names `p`: its kind and promotion as written, or, for a `G` of
/// Fairy-Stockfish SAN, a gold or a piece promoted to move like one.
fn names(m: &Written, kind: PieceKind, p: Piece) -> bool {
    if m.gold_mover {
        p.kind == PieceKind::Gold || p.promoted && promoted_letter(p.kind) == Some('G')
    } else {
        p.kind == kind && p.promoted == m.promoted
    }
}

/// The squares of the pieces that reach a square: at most one along each of the eight lines
/// through it, and four knights.
struct Reachers {
    found: [Square; 12],
    len: usize,
}

impl Reachers {
    /// None yet (`blank` fills the places not taken).
    fn new(blank: Square) -> Self {
        Self { found: [blank; 12], len: 0 }
    }

    fn push(&mut self, sq: Square) {
        if let Some(slot) = self.found.get_mut(self.len) {
            *slot = sq;
            self.len += 1;
        }
    }

    fn all(&self) -> &[Square] {
        &self.found[..self.len]
    }
}

/// The `i`th of the pieces of `side` that the letter of `m` names (see [`is_named`]).
fn named_piece(m: &Written, kind: PieceKind, side: Color, i: usize) -> Option<Piece> {
    let piece = |kind, promoted| Some(Piece { color: side, kind, promoted });
    match (m.gold_mover, i) {
        (true, 0) => piece(PieceKind::Gold, false),
        (true, 1..=4) => piece([PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight, PieceKind::Silver][i - 1], true),
        (false, 0) => piece(kind, m.promoted),
        _ => None,
    }
}

/// True when `p` is one of the pieces of `side` that the letter of `m` names: a gold or a
/// promoted pawn, lance, knight or silver for a `G` of Fairy-Stockfish SAN, else the kind and
/// promotion written.
fn is_named(m: &Written, kind: PieceKind, side: Color, p: Piece) -> bool {
    p.color == side
        && if m.gold_mover {
            match p.kind {
                PieceKind::Gold => !p.promoted,
                PieceKind::Pawn | PieceKind::Lance | PieceKind::Knight | PieceKind::Silver => p.promoted,
                _ => false,
            }
        } else {
            p.kind == kind && p.promoted == m.promoted
        }
}

/// Checks the check or mate claimed after `mv` against the position it leads to.
#[inline]
fn check_mark(state: &State, m: &Written, mv: Move) -> Result<(), Unresolved> {
    match m.mark {
        None => Ok(()),
        Some(claimed_mate) => check_written_mark(state, claimed_mate, mv),
    }
}

/// [`check_mark`] of a move written with a mark.
#[cold]
fn check_written_mark(state: &State, claimed_mate: bool, mv: Move) -> Result<(), Unresolved> {
    let mut after = *state;
    after.play_unchecked(mv);
    let check = after.is_check();
    let mate = check && after.count_legal_moves() == 0;
    if check && mate == claimed_mate {
        Ok(())
    } else {
        Err(Unresolved::CheckMark { claimed_mate, check, mate })
    }
}

/// The move `m` means in `state`, or why there is none.
pub fn resolve(state: &State, m: &Written) -> Result<Resolved, Unresolved> {
    resolve_with(&state.legality(), state, m)
}

/// [`resolve`], with `legality` judging the moves of `state`.
pub fn resolve_with(legality: &Legality<'_>, state: &State, m: &Written) -> Result<Resolved, Unresolved> {
    let side = state.side();
    let promote = m.promotion == Some(Promotion::Promote);
    if m.drop {
        return resolve_drop(legality, state, m);
    }
    let to = m.to;
    let (reachers, named) = reachers_of(state, m);
    let from = match m.from {
        Origin::Square(from) => {
            let found = state.piece_at(from);
            if let (Some(found), Some(kind)) = (found, m.piece) {
                if found.color == side && !names(m, kind, found) {
                    return Err(Unresolved::WrongPiece { from, found });
                }
            }
            if let Some(why) = legality.why_illegal(Move::Board { from, to, promote }) {
                return Err(Unresolved::Illegal(why));
            }
            from
        }
        // The origin found is that of a legal move.
        origin => find_origin(legality, state, m, origin, promote, reachers.all())?,
    };
    let mv = Move::Board { from, to, promote };
    // A piece found where the text wrote no square is the one the letter names.
    let piece =
        named.or_else(|| state.piece_at(from)).unwrap_or(Piece { color: side, kind: PieceKind::Pawn, promoted: false });
    // The move is legal without promotion, and promoting changes nothing of the king's safety:
    // it could promote when the piece can and one of its squares is in the zone.
    let zone = |sq: Square| sq.rank_from(side) <= 3;
    let could_promote = piece.kind.can_promote() && !piece.promoted && (zone(from) || zone(to));
    if m.promotion == Some(Promotion::Decline) && !could_promote {
        return Err(Unresolved::DeclineImpossible);
    }
    if let Some(written) = m.capture {
        if written != state.piece_at(to).is_some() {
            return Err(Unresolved::CaptureMark { written });
        }
    }
    if let Some(written) = m.promotes_to.filter(|&w| promoted_letter(piece.kind) != Some(w)) {
        return Err(Unresolved::PromotionLetter { written, piece: piece.kind });
    }
    check_mark(state, m, mv)?;
    // Would another piece of the same kind and state reach `to`? Then the origin must be
    // written. The pieces found reach it: the rest of the rules is looked at.
    let mut needs_origin = false;
    for &sq in reachers.all() {
        if sq != from
            && state.piece_at(sq) == Some(piece)
            && (legality.is_legal_reaching(sq, to, false) || legality.is_legal_reaching(sq, to, true))
        {
            needs_origin = true;
            break;
        }
    }
    Ok(Resolved { mv, piece, needs_origin, could_promote })
}

/// The legal move `mv` of `state` as played: the piece that moves, whether another piece of its
/// kind could go to the same square, whether it could promote. `None` when `mv` is not legal.
pub fn as_played(state: &State, mv: Move) -> Option<Resolved> {
    let (piece, from, to, drop, promote) = match mv {
        Move::Drop { kind, to } => {
            (Piece { color: state.side(), kind, promoted: false }, Origin::None, to, true, false)
        }
        Move::Board { from, to, promote } => (state.piece_at(from)?, Origin::Square(from), to, false, promote),
    };
    let written = Written {
        piece: Some(piece.kind),
        promoted: piece.promoted,
        gold_mover: false,
        from,
        to,
        drop,
        promotion: promote.then_some(Promotion::Promote),
        capture: None,
        promotes_to: None,
        mark: None,
    };
    resolve(state, &written).ok().filter(|r| r.mv == mv)
}

/// [`resolve_with`] for a drop.
fn resolve_drop(legality: &Legality<'_>, state: &State, m: &Written) -> Result<Resolved, Unresolved> {
    let kind = m.piece.unwrap_or(PieceKind::Pawn);
    let mv = Move::Drop { kind, to: m.to };
    if let Some(why) = legality.why_illegal(mv) {
        return Err(Unresolved::Illegal(why));
    }
    check_mark(state, m, mv)?;
    let piece = Piece { color: state.side(), kind, promoted: false };
    Ok(Resolved { mv, piece, needs_origin: false, could_promote: false })
}

/// The pieces that reach the destination of the board move `m`, looked for once: those of the
/// side to move that the letter names (see [`is_named`]), or the one on the square written.
/// Also the piece that moves, when the letter names one piece and the text writes no square.
fn reachers_of(state: &State, m: &Written) -> (Reachers, Option<Piece>) {
    let (to, side) = (m.to, state.side());
    let mut reachers = Reachers::new(to);
    let mut named = None;
    match (m.from, m.piece) {
        (Origin::Square(from), _) => {
            if let Some(p) = state.piece_at(from) {
                state.reaching_piece(to, p, |sq| reachers.push(sq));
            }
        }
        (_, kind) if !m.gold_mover => {
            let p = Piece { color: side, kind: kind.unwrap_or(PieceKind::Pawn), promoted: m.promoted };
            named = Some(p);
            state.reaching_piece(to, p, |sq| reachers.push(sq));
        }
        (_, kind) => {
            let kind = kind.unwrap_or(PieceKind::Pawn);
            let like = (0..5).filter_map(|i| named_piece(m, kind, side, i));
            state.reaching_like(to, like, |sq, p| {
                if is_named(m, kind, side, p) {
                    reachers.push(sq);
                }
            });
        }
    }
    (reachers, named)
}

/// The square the piece `m` moves comes from, when the text gives at most its file or rank
/// (`origin`), or why there is none; `reachers` holds every piece of the side to move that the
/// letter of `m` names ([`is_named`]) and that reaches the destination, and no other (so
/// [`Legality::is_legal_reaching`] judges their moves). The move from the square found is legal
/// (`legality` judges `state`'s moves).
fn find_origin(
    legality: &Legality<'_>,
    state: &State,
    m: &Written,
    origin: Origin,
    promote: bool,
    reachers: &[Square],
) -> Result<Square, Unresolved> {
    let fits = |sq: Square| match origin {
        Origin::File(f) => sq.file() == f,
        Origin::Rank(r) => sq.rank() == r,
        _ => true,
    };
    // The quick way: the one piece of the kind that reaches the square and may move there.
    let mut only = None;
    let mut count = 0;
    for &sq in reachers {
        if fits(sq) && legality.is_legal_reaching(sq, m.to, promote) {
            only = Some(sq);
            count += 1;
        }
    }
    if let Some(from) = only.filter(|_| count == 1) {
        return Ok(from);
    }
    // None, or several: look at every piece again, to explain.
    explain_origin(state, m, fits, promote)
}

/// [`find_origin`] when no single piece that `fits` the origin written makes the move: the one
/// piece that does after all, or why none or several do.
fn explain_origin(
    state: &State,
    m: &Written,
    fits: impl Fn(Square) -> bool,
    promote: bool,
) -> Result<Square, Unresolved> {
    let side = state.side();
    let kind = m.piece.unwrap_or(PieceKind::Pawn);
    let mut legal: Vec<Square> = Vec::new();
    let mut nearest: Option<(u8, Illegal)> = None;
    let mut other_state = None;
    for sq in Square::all() {
        let Some(p) = state.piece_at(sq) else { continue };
        let named = names(m, kind, p);
        if p.color != side || !fits(sq) || !named && (p.kind != kind || m.gold_mover) {
            continue;
        }
        let why = state.why_illegal(Move::Board { from: sq, to: m.to, promote });
        if !named {
            if why.is_none() {
                other_state = Some(sq);
            }
            continue;
        }
        match why {
            None => legal.push(sq),
            Some(why) => {
                let distance = sq.file().abs_diff(m.to.file()) + sq.rank().abs_diff(m.to.rank());
                // A piece that reaches the square but breaks another rule explains best.
                let rank = if matches!(why, Illegal::CannotReach { .. }) { distance + 20 } else { distance };
                if nearest.as_ref().is_none_or(|n| rank < n.0) {
                    nearest = Some((rank, why));
                }
            }
        }
    }
    match legal.as_slice() {
        &[from] => Ok(from),
        [] => Err(match nearest {
            Some((rank, why)) if rank < 20 => Unresolved::Illegal(why),
            nearest => {
                Unresolved::NoCandidate { kind, promoted: m.promoted, nearest: nearest.map(|n| n.1), other_state }
            }
        }),
        many => Err(Unresolved::Ambiguous(many.to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square")
    }

    fn state(sfen: &str) -> State {
        State::new(&sfen.parse::<Position>().expect("an SFEN record"))
    }

    /// A move of `piece` to `to`, nothing else written.
    fn to(piece: PieceKind, to: &str) -> Written {
        Written {
            piece: Some(piece),
            promoted: false,
            gold_mover: false,
            from: Origin::None,
            to: sq(to),
            drop: false,
            promotion: None,
            capture: None,
            promotes_to: None,
            mark: None,
        }
    }

    #[test]
    fn a_piece_and_a_destination_find_the_move() {
        let start = State::new(&Position::STARTPOS);
        let played = resolve(&start, &to(PieceKind::Pawn, "7f")).expect("P-7f");
        assert_eq!(played.mv, "7g7f".parse().expect("a USI move"));
        assert!(!played.needs_origin && !played.could_promote);
        // Both golds reach 5h: the origin must be written, and with it the move is found.
        assert_eq!(resolve(&start, &to(PieceKind::Gold, "5h")), Err(Unresolved::Ambiguous(vec![sq("6i"), sq("4i")])));
        let from_6i = Written { from: Origin::Square(sq("6i")), ..to(PieceKind::Gold, "5h") };
        let played = resolve(&start, &from_6i).expect("G6i-5h");
        assert!(played.needs_origin);
        let by_file = Written { from: Origin::File(4), ..to(PieceKind::Gold, "5h") };
        assert_eq!(resolve(&start, &by_file).map(|r| r.mv), Ok("4i5h".parse().expect("a USI move")));
    }

    #[test]
    fn each_fault_says_why() {
        let start = State::new(&Position::STARTPOS);
        let wrong = Written { from: Origin::Square(sq("7g")), ..to(PieceKind::Silver, "7f") };
        assert!(matches!(resolve(&start, &wrong), Err(Unresolved::WrongPiece { .. })));
        let decline = Written { promotion: Some(Promotion::Decline), ..to(PieceKind::Pawn, "7f") };
        assert_eq!(resolve(&start, &decline), Err(Unresolved::DeclineImpossible));
        let capture = Written { capture: Some(true), ..to(PieceKind::Pawn, "7f") };
        assert_eq!(resolve(&start, &capture), Err(Unresolved::CaptureMark { written: true }));
        let check = Written { mark: Some(false), ..to(PieceKind::Pawn, "7f") };
        assert_eq!(
            resolve(&start, &check),
            Err(Unresolved::CheckMark { claimed_mate: false, check: false, mate: false })
        );
        let drop = Written { drop: true, ..to(PieceKind::Pawn, "5e") };
        assert!(matches!(resolve(&start, &drop), Err(Unresolved::Illegal(_))), "no pawn in hand");
        // No dragon on the board; the rook's own pawn blocks it.
        let dragon = Written { promoted: true, ..to(PieceKind::Rook, "2a") };
        assert!(matches!(resolve(&start, &dragon), Err(Unresolved::NoCandidate { .. })));
        assert!(matches!(resolve(&start, &to(PieceKind::Rook, "2a")), Err(Unresolved::Illegal(_))));
    }

    #[test]
    fn a_drop_and_a_gold_mover() {
        let with_pawn = state("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        let played = resolve(&with_pawn, &Written { drop: true, ..to(PieceKind::Pawn, "5e") }).expect("P*5e");
        assert_eq!(played.mv, Move::Drop { kind: PieceKind::Pawn, to: sq("5e") });
        // Fairy-Stockfish's `G` names a promoted pawn as well as a gold.
        let tokin = state("4k4/9/9/9/4+P4/9/9/9/4K4 b - 1");
        let gold_mover = Written { gold_mover: true, ..to(PieceKind::Gold, "5d") };
        let played = resolve(&tokin, &gold_mover).expect("G-5d");
        assert_eq!(played.piece, Piece { color: Color::Black, kind: PieceKind::Pawn, promoted: true });
        let to_horse = Written { promotes_to: Some('G'), ..to(PieceKind::Bishop, "2b") };
        let bishop = state("4k4/9/9/9/9/9/9/1B7/4K4 b - 1");
        assert_eq!(
            resolve(&bishop, &Written { promotion: Some(Promotion::Promote), ..to_horse }),
            Err(Unresolved::PromotionLetter { written: 'G', piece: PieceKind::Bishop })
        );
    }
}
