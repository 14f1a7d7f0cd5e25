//! [`Legal`]: a chess position the rules allow, reached through
//! [`Position::legal`](crate::fen::Position::legal).

use super::Position;

/// A chess position the rules allow: one king a side, no pawn on the first or last rank, no
/// more pieces than promotions can give, the side not to move not in check, no check no move
/// could give, castling rights that name a king and rook on their squares, and an en passant
/// square a pawn just passed.
///
/// A record says what it says: [`Position`] is that. The only ways to a `Legal` are
/// [`Position::legal`](crate::fen::Position::legal) and
/// [`fen::Checked::into_legal`](crate::fen::Checked::into_legal), which check every rule and
/// give the errors otherwise.
///
/// ```
/// use kifu::chess::{Legal, Position};
///
/// let start: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse().unwrap();
/// let legal: Legal = start.legal().expect("the start is legal");
/// assert_eq!(legal.position().fullmove, 1);
///
/// let no_white_king: Position = "4k3/8/8/8/8/8/8/8 w - - 0 1".parse().unwrap();
/// assert!(no_white_king.legal().is_err());
/// ```
pub type Legal = crate::checked::Legal<Position>;

impl From<Legal> for Position {
    fn from(legal: Legal) -> Self {
        legal.into_position()
    }
}
