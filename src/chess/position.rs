//! A position as a record writes it, and the castling rights it keeps.

use super::{Board, Color, Square};

/// A chess position as FEN records it: not necessarily legal.
///
/// This is what a FEN or EPD record, or a JSON position, says: a board, the side to move,
/// castling rights, the en passant square and the two counters. Whether the rules allow it is
/// the checker's to say ([`fen::check`](crate::fen::check) reports it, and
/// [`Checked::into_result`](crate::checked::Checked::into_result) keeps only positions with
/// no error).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The 64 squares.
    pub board: Board,
    /// Who is to move.
    pub side: Color,
    /// Castling rights, in canonical order (White's first; king side, queen side, then rook
    /// files from h to a).
    pub castling: Vec<CastleRight>,
    /// The en passant target square.
    pub en_passant: Option<Square>,
    /// Half-moves since the last capture or pawn move (0 for EPD).
    pub halfmove: u64,
    /// The move number (1 for EPD).
    pub fullmove: u64,
}

/// One castling right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CastleRight {
    /// Whose right.
    pub color: Color,
    /// Which rook.
    pub side: CastleSide,
}

/// Which rook a castling right names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastleSide {
    /// `K`/`k`: the king-side rook (the outermost one, in Chess960).
    King,
    /// `Q`/`q`: the queen-side rook.
    Queen,
    /// A rook's file, 0-7 for a-h (Shredder-FEN), kept in the order h to a.
    File(std::cmp::Reverse<u8>),
}

impl CastleRight {
    /// The letter that writes this right.
    pub fn letter(self) -> char {
        let c = match self.side {
            CastleSide::King => 'K',
            CastleSide::Queen => 'Q',
            CastleSide::File(std::cmp::Reverse(f)) => (b'A' + f) as char,
        };
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}
