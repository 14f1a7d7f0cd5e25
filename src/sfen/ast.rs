//! The SFEN syntax tree: what a record says, with the span of every part.
//!
//! The tree keeps what the record wrote, faults included (a fault square still counts towards
//! its rank's width), so that later layers can count and point. The model layer turns a tree
//! without faults into a [`super::Position`].

pub use crate::notation::grid::Row as Rank;
use crate::shogi::{Color, Piece, PieceKind};
use crate::span::{Span, Spanned};

/// The piece placement field: nine ranks of shogi pieces when valid, each a [`Rank`] of
/// [`Cell`]s.
pub type BoardField = crate::notation::grid::Grid<Piece>;
/// What one token of a rank says.
pub type Cell = crate::notation::grid::Cell<Piece>;

/// The two SFEN dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Dialect {
    /// SFEN spec 0.0.1 (2007): side `B`/`W`, move number 1-99.
    Sfen2007,
    /// USI: side `b`/`w`, a move number of any size.
    Usi,
}

impl Dialect {
    /// `"sfen2007"` or `"usi"`, as `--dialect` spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Sfen2007 => "sfen2007",
            Self::Usi => "usi",
        }
    }

    /// The name people use: "SFEN 2007" or "USI".
    pub const fn title(self) -> &'static str {
        match self {
            Self::Sfen2007 => "SFEN 2007",
            Self::Usi => "USI",
        }
    }
}

/// A whole record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The record's text span.
    pub span: Span,
    /// The piece placement; `None` only for an empty record.
    pub board: Option<BoardField>,
    /// The side to move, as written.
    pub side: Option<Spanned<Side>>,
    /// The pieces in hand.
    pub hand: Option<Hand>,
    /// The move number.
    pub move_number: Option<Spanned<u64>>,
    /// The dialect the record was read in, once the side letter said it.
    pub dialect: Option<Dialect>,
}

/// The side field: a colour and the dialect whose letter wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// Who is to move.
    pub color: Color,
    /// `B`/`W` is SFEN 2007, `b`/`w` is USI.
    pub dialect: Dialect,
}

impl Side {
    /// The letter that writes this side: `B`, `W`, `b` or `w`.
    pub const fn letter(self) -> char {
        match (self.dialect, self.color) {
            (Dialect::Sfen2007, Color::Black) => 'B',
            (Dialect::Sfen2007, Color::White) => 'W',
            (Dialect::Usi, Color::Black) => 'b',
            (Dialect::Usi, Color::White) => 'w',
        }
    }
}

/// The pieces in hand field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The whole field.
    pub span: Span,
    /// The entries in the order written; empty for `-`.
    pub entries: Vec<HandEntry>,
}

/// One hand entry: an optional count and a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandEntry {
    /// The whole entry.
    pub span: Span,
    /// The count, when written.
    pub count: Option<Spanned<u32>>,
    /// Whose piece (uppercase is Black's) and its kind.
    pub piece: Spanned<(Color, PieceKind)>,
}

impl HandEntry {
    /// The count, 1 when none is written.
    pub fn amount(&self) -> u32 {
        self.count.map_or(1, |c| c.node)
    }
}
