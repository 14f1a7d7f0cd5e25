//! Canonical SFEN text for a position, in either dialect.
//!
//! The canonical form: ranks with maximal empty runs (one digit each), the hand in USI order
//! (Black's pieces before White's, each R B G S N L P, a count only above 1, `-` when empty),
//! and the move number when the position has one.

use std::fmt::{self, Write as _};

use super::ast::Dialect;
use super::model::Position;
use super::validate::canonical_hand;
use crate::shogi::Color;

/// Why a position cannot be written in a dialect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DisplayError {
    /// SFEN 2007 move numbers have at most two digits.
    #[error("move number {0} has more than two digits, which SFEN 2007 cannot write")]
    MoveNumberTooLarge(u64),
}

impl Position {
    /// The board field: nine ranks, top first, with maximal empty runs.
    pub fn board_sfen(&self) -> String {
        let mut s = String::with_capacity(80);
        crate::notation::grid::write_board(&self.board.0, 9, &mut s);
        s
    }

    /// The record in `dialect`'s canonical form.
    pub fn to_sfen(&self, dialect: Dialect) -> Result<String, DisplayError> {
        let side = match (dialect, self.side) {
            (Dialect::Usi, Color::Black) => 'b',
            (Dialect::Usi, Color::White) => 'w',
            (Dialect::Sfen2007, Color::Black) => 'B',
            (Dialect::Sfen2007, Color::White) => 'W',
        };
        let mut s = format!("{} {side} {}", self.board_sfen(), canonical_hand(&self.hands));
        if let Some(n) = self.move_number {
            if dialect == Dialect::Sfen2007 && n > 99 {
                return Err(DisplayError::MoveNumberTooLarge(n));
            }
            let _ = write!(s, " {n}");
        }
        Ok(s)
    }
}

/// Writes the canonical USI form.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_sfen(Dialect::Usi) {
            Ok(s) => f.write_str(&s),
            Err(_) => Err(fmt::Error),
        }
    }
}
