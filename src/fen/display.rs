//! Canonical FEN for a position: maximal blank runs, castling rights in the order `KQkq` (rook
//! files from h to a in Chess960), `-` for none.

use std::fmt::{self, Write as _};

use super::model::Position;
use crate::chess::Color;

impl Position {
    /// The placement field.
    pub fn placement(&self) -> String {
        let mut s = String::with_capacity(72);
        crate::notation::grid::write_board(&self.board.0, 8, &mut s);
        s
    }

    /// The board as the FEN description prints it: eight lines of eight characters, rank 8 first, `.` for
    /// a blank square.
    pub fn diagram(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in 0..8 {
            for file in 0..8 {
                s.push(self.board.0[rank * 8 + file].map_or('.', |p| p.letter()));
            }
            s.push('\n');
        }
        s
    }

    /// The four fields FEN and EPD share: placement, side, castling, en passant.
    pub fn four_fields(&self) -> String {
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let mut castling: String = self.castling.iter().map(|r| r.letter()).collect();
        if castling.is_empty() {
            castling.push('-');
        }
        let mut s = format!("{} {side} {castling} ", self.placement());
        match self.en_passant {
            Some(sq) => {
                let _ = write!(s, "{sq}");
            }
            None => s.push('-'),
        }
        s
    }

    /// The position as an EPD record with `operations` (as written; nothing after the four
    /// fields when empty).
    pub fn to_epd(&self, operations: &str) -> String {
        let operations = operations.trim();
        if operations.is_empty() {
            self.four_fields()
        } else {
            format!("{} {operations}", self.four_fields())
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.four_fields(), self.halfmove, self.fullmove)
    }
}
