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

use crate::chess::CastleRight;
