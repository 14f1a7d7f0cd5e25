//! The FEN (and EPD) syntax tree: what a record says, with the span of every part, faults
//! included, so that later layers can count and point.

use crate::chess::{Color, Piece, Square};
pub use crate::notation::grid::Row as Rank;
use crate::span::{Span, Spanned};

/// The piece placement field: eight ranks ([`Rank`]) of chess pieces ([`Cell`]) when valid.
pub type Placement = crate::notation::grid::Grid<Piece>;
/// One token of a rank.
pub type Cell = crate::notation::grid::Cell<Piece>;

/// Which castling letters a record may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Standard chess: `KQkq`.
    #[default]
    Standard,
    /// Chess960: `KQkq` (X-FEN) and rook files (Shredder-FEN, `HAha`).
    Chess960,
}

/// A whole record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The record's text span.
    pub span: Span,
    /// The piece placement.
    pub placement: Option<Placement>,
    /// The active colour.
    pub side: Option<Spanned<Color>>,
    /// The castling availability.
    pub castling: Option<Castling>,
    /// The en passant target square (`None` inside for `-`).
    pub en_passant: Option<Spanned<Option<Square>>>,
    /// The halfmove clock.
    pub halfmove: Option<Spanned<u64>>,
    /// The fullmove number.
    pub fullmove: Option<Spanned<u64>>,
    /// EPD operations, as written.
    pub operations: Option<Span>,
}

/// The castling field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    /// The whole field.
    pub span: Span,
    /// The rights as written; empty for `-`.
    pub rights: Vec<Spanned<CastleRight>>,
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
