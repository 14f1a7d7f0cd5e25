//! Retrograde analysis of a double check: whether some last move of the side that just moved
//! ends in the board as it stands, out of a board where the other side's king was not in check.
//!
//! A move that gives two checks at once must uncover a line, and the vacated square must lie on
//! it; the quick rules of the validator catch the plain cases (two pieces next to the king, two
//! on one line). Here every move that could have ended in the board is taken back, and the check
//! is possible when one of them starts from a board where the king was safe.

use super::{Board, Color, Piece, PieceSets, Role, Square};

/// The steps of a knight, as (files, ranks).
const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// The steps along ranks and files, then along diagonals.
const LINES: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Whether a move onto a square took a piece there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Take {
    /// It may have (any move but a pawn's push).
    May,
    /// It did not: a pawn's push, promoting or not.
    Never,
    /// It did: a pawn's diagonal step.
    Must,
}

/// True when some move of `waiting` (the side that just moved) ends in `board` and starts from
/// a board where the other side's king, on `king`, is not attacked.
///
/// The moves taken back: any piece's move to the square it stands on, from an empty square it
/// reaches from there (with the squares between empty, as the move leaves them), onto an empty
/// square or taking a piece of the side to move (when that side has fewer than 16 pieces); a
/// pawn's push (two squares from its starting rank), its capture, its capture en passant, and
/// its promotion to the piece on the last rank (pushing or capturing); the king's step.
///
/// Castling is not taken back: it never gives two checks. The squares it empties lie on the
/// back rank, so a check it uncovers runs along that rank, as the castled rook's check then
/// does too; the two would come from both sides of the king, which would have to stand on the
/// way the king or the rook crossed.
///
/// The analysis looks at nothing else (castling rights, the moves before): it accepts some
/// boards no game reaches, and refuses none that one does.
pub(crate) fn some_last_move(board: &Board, king: Square, waiting: Color) -> bool {
    let mover = waiting.opponent();
    let theirs = || board.pieces().filter(move |(_, p)| p.color == mover);
    // A capture brings back a piece of the side to move: one it can have lost.
    let can_take = theirs().count() < 16;
    let can_take_pawn = can_take && theirs().filter(|(_, p)| p.role == Role::Pawn).count() < 8;
    // Any piece of the side to move blocks a line as any other does, and none attacks its own
    // king: the piece taken back is a knight.
    let taken = Piece { color: mover, role: Role::Knight };
    let pawn = Piece { color: waiting, role: Role::Pawn };
    let forward: i8 = if waiting == Color::White { 1 } else { -1 };
    let rank_of = |sq: Square| if waiting == Color::White { sq.rank() } else { 9 - sq.rank() };
    let empty = |sq: &Square| board.get(*sq).is_none();
    let safe = |before: &Board| PieceSets::of_board(before).attackers(king, waiting) == 0;
    // The board before `piece` went from `from` to `to`, taking a piece there or not (a piece
    // there only blocks more lines, so when it may have taken one, it did).
    let from_safe = |to: Square, from: Square, piece: Piece, take: Take| {
        let taking = match take {
            Take::Never => false,
            Take::May => can_take,
            Take::Must if can_take => true,
            Take::Must => return false,
        };
        let mut before = board.clone();
        before.set(from, Some(piece));
        before.set(to, taking.then_some(taken));
        safe(&before)
    };
    for (to, piece) in board.pieces().filter(|(_, p)| p.color == waiting) {
        let step = |df: i8, dr: i8| to.offset(df, dr).filter(empty);
        let found = match piece.role {
            Role::Knight | Role::King => {
                let steps = if piece.role == Role::Knight { &KNIGHT } else { &LINES };
                steps.iter().filter_map(|&(df, dr)| step(df, dr)).any(|from| from_safe(to, from, piece, Take::May))
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let lines = match piece.role {
                    Role::Rook => &LINES[..4],
                    Role::Bishop => &LINES[4..],
                    _ => &LINES[..],
                };
                slid_from(to, lines, &empty, &|from| from_safe(to, from, piece, Take::May))
            }
            Role::Pawn => pawn_moves(rank_of(to), forward, &step, |from, take| from_safe(to, from, pawn, take)),
        };
        // A piece on the last rank may be a pawn that has just promoted.
        let promoted = || {
            piece.role != Role::Pawn
                && rank_of(to) == 8
                && [(0, Take::Never), (-1, Take::Must), (1, Take::Must)]
                    .into_iter()
                    .any(|(df, take)| step(df, -forward).is_some_and(|from| from_safe(to, from, pawn, take)))
        };
        // Taking en passant: the pawn went from beside the one it took to the square behind it.
        let en_passant = || {
            piece.role == Role::Pawn
                && can_take_pawn
                && rank_of(to) == 6
                && step(0, -forward).is_some_and(|taken_at| {
                    [-1, 1].into_iter().filter_map(|df| step(df, -forward)).any(|from| {
                        let mut before = board.clone();
                        before.set(from, Some(pawn));
                        before.set(to, None);
                        before.set(taken_at, Some(Piece { color: mover, role: Role::Pawn }));
                        safe(&before)
                    })
                })
        };
        if found || promoted() || en_passant() {
            return true;
        }
    }
    false
}

/// True when a piece on `to` slid there along one of `lines` from a square `empty` says is empty
/// (the squares between too), for which `safe_from(from)` holds.
fn slid_from(
    to: Square,
    lines: &[(i8, i8)],
    empty: &dyn Fn(&Square) -> bool,
    safe_from: &dyn Fn(Square) -> bool,
) -> bool {
    lines.iter().any(|&(df, dr)| {
        let mut from = to;
        std::iter::from_fn(|| {
            from = from.offset(df, dr).filter(empty)?;
            Some(from)
        })
        .any(safe_from)
    })
}

/// True when a pawn on `rank` (counted from its side) came by a push or a capture from a square
/// `step` finds empty (a step back from where it stands), for which `safe_from(from, take)` holds.
fn pawn_moves(
    rank: u8,
    forward: i8,
    step: &dyn Fn(i8, i8) -> Option<Square>,
    safe_from: impl Fn(Square, Take) -> bool,
) -> bool {
    // A pawn on its starting rank has not moved.
    if !(3..=7).contains(&rank) {
        return false;
    }
    let push = step(0, -forward).is_some_and(|from| {
        safe_from(from, Take::Never)
            || (rank == 4 && step(0, -2 * forward).is_some_and(|far| safe_from(far, Take::Never)))
    });
    push || [-1, 1].into_iter().filter_map(|df| step(df, -forward)).any(|from| safe_from(from, Take::Must))
}
