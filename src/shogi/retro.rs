//! Retrograde analysis of a double check: whether some last move of the side that just moved
//! ends in the board as it stands, out of a board where the other side's king was not in check.
//!
//! A move that gives two checks at once must uncover a line (a drop uncovers none); the quick
//! rules of the validator catch the plain case (two pieces next to the king or a knight's jump
//! away). Here every move that could have ended in the board is taken back, and the check is
//! possible when one of them starts from a board where the king was safe.

use super::{Board, Color, Piece, PieceKind, Square};

/// True when some move of `waiting` (the side that just moved) ends in `board` and starts from
/// a board where the other side's king, on `king`, is not attacked; `can_take` says whether the
/// move may have taken a piece (the piece taken is in `waiting`'s hand, so it must not be
/// empty).
///
/// The moves taken back: a drop of an unpromoted piece other than the king, on a square where
/// it can move on; a move of any piece from an empty square from which it reaches the square it
/// stands on, as the piece it is or, when it is promoted and either square lies in `waiting`'s
/// promotion zone (its three far ranks), as the piece it was before promoting; onto an empty
/// square or taking a piece of the side to move.
///
/// The analysis looks at nothing else (the hand's pieces, the drops the rules forbid, the
/// moves before): it accepts some boards no game reaches, and refuses none that one does.
pub(crate) fn some_last_move(board: &Board, king: Square, waiting: Color, can_take: bool) -> bool {
    // Any piece of the side to move blocks a line as any other does, and none attacks its own
    // king: the piece taken back is a gold.
    let taken = Piece { color: waiting.opponent(), kind: PieceKind::Gold, promoted: false };
    let safe = |before: &Board| before.attackers(king, waiting).is_empty();
    let in_zone = |sq: Square| sq.rank_from(waiting) <= 3;
    for (to, piece) in board.pieces().filter(|(_, p)| p.color == waiting) {
        let mut before = board.clone();
        before.set(to, None);
        let dropped = !piece.promoted && piece.kind != PieceKind::King && !piece.is_dead_on(to);
        if dropped && safe(&before) {
            return true;
        }
        // A piece there only blocks more lines: when the move may have taken one, it did.
        if can_take {
            before.set(to, Some(taken));
        }
        let unpromoted = Piece { promoted: false, ..piece };
        for from in Square::all().filter(|sq| board.get(*sq).is_none()) {
            let promoting = piece.promoted && (in_zone(from) || in_zone(to));
            for was in [Some(piece), promoting.then_some(unpromoted)].into_iter().flatten() {
                before.set(from, Some(was));
                if before.attacks(from, to) && safe(&before) {
                    return true;
                }
            }
            before.set(from, None);
        }
    }
    false
}
