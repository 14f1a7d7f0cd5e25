//! Moves and their USI notation (`7g7f`, `8h2b+`, `P*5e`): the crate's one reader of USI moves,
//! [`Move::from_usi`], and its writer, [`Display`](fmt::Display).

use std::fmt;

use super::{PieceKind, Square};
use crate::notation::from_str_by;

/// A move: a piece moved on the board (promoting or not), or a piece dropped from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The piece on `from` moves to `to`, capturing what stands there, and promotes if
    /// `promote`.
    Board {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
        /// True when it promotes on the way.
        promote: bool,
    },
    /// A piece of `kind` from the hand is put on the empty square `to`.
    Drop {
        /// The kind dropped (never a king).
        kind: PieceKind,
        /// Where it is put.
        to: Square,
    },
}

impl Move {
    /// The square the move goes to.
    pub const fn to(self) -> Square {
        match self {
            Self::Board { to, .. } | Self::Drop { to, .. } => to,
        }
    }

    /// Reads a move in USI notation: `7g7f`, `8h2b+`, `P*5e` (the drop letter in uppercase).
    /// `None` for anything else.
    ///
    /// This is the crate's one reader of USI moves: everything that takes a USI move from the
    /// user or a record goes through it (or through [`FromStr`](std::str::FromStr), which calls it).
    pub fn from_usi(text: &str) -> Option<Self> {
        let square = Square::from_ascii;
        match *text.as_bytes() {
            [letter, b'*', file, rank] => {
                let kind = PieceKind::from_letter(char::from(letter))
                    .filter(|k| letter.is_ascii_uppercase() && *k != PieceKind::King)?;
                Some(Self::Drop { kind, to: square(file, rank)? })
            }
            [f1, r1, f2, r2] => Some(Self::Board { from: square(f1, r1)?, to: square(f2, r2)?, promote: false }),
            [f1, r1, f2, r2, b'+'] => Some(Self::Board { from: square(f1, r1)?, to: square(f2, r2)?, promote: true }),
            _ => None,
        }
    }
}

/// Writes the move in USI notation: `7g7f`, `8h2b+`, `P*5e`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Board { from, to, promote } => write!(f, "{from}{to}{}", if promote { "+" } else { "" }),
            Self::Drop { kind, to } => write!(f, "{}*{to}", kind.letter()),
        }
    }
}

from_str_by! {
    /// Reads a move in USI notation, as [`Move::from_usi`] does.
    ///
    /// ```
    /// use kifu::shogi::{Move, PieceKind, Square};
    ///
    /// let drop: Move = "P*5e".parse().unwrap();
    /// assert_eq!(drop, Move::Drop { kind: PieceKind::Pawn, to: "5e".parse::<Square>().unwrap() });
    /// assert_eq!(drop.to_string(), "P*5e");
    /// assert!("7g7f=".parse::<Move>().is_err());
    /// ```
    Move,
    Move::from_usi,
    "USI move (as in 7g7f, 8h2b+ or P*5e)"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_back() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "1i9a"] {
            let mv: Move = text.parse().expect(text);
            assert_eq!(mv.to_string(), text);
        }
        for bad in ["", "7g7", "7g7f++", "K*5e", "p*5e", "P*5j", "7g7f ", "0a1a", "P+5e"] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
    }
}
