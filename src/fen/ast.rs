//! The FEN (and EPD) syntax tree: what a record says, with the span of every part, faults
//! included, so that later layers can count and point.

use std::fmt;
use std::ops::Range;

use crate::chess::{Color, Piece, Square};
use crate::span::{Span, Spanned};

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
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// The piece placement field.
#[derive(Clone, PartialEq, Eq)]
pub struct Placement {
    /// The whole field.
    pub span: Span,
    /// The ranks as written, rank 8 first; a valid placement has eight.
    pub ranks: Vec<Rank>,
    /// Every rank's cells, end to end.
    pub cells: Vec<Spanned<Cell>>,
}

impl Placement {
    /// The cells of `rank`, from file a to file h.
    pub fn cells_of(&self, rank: &Rank) -> &[Spanned<Cell>] {
        self.cells.get(rank.cells.clone()).unwrap_or(&[])
    }

    /// How many squares `rank` covers.
    pub fn width(&self, rank: &Rank) -> u32 {
        self.cells_of(rank).iter().map(|c| c.node.width()).sum()
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Placement @ {:?} [", self.span)?;
        for rank in &self.ranks {
            write!(f, "    Rank @ {:?} [", rank.span)?;
            for (i, cell) in self.cells_of(rank).iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{cell:?}")?;
            }
            writeln!(f, "]")?;
        }
        f.write_str("]")
    }
}

/// One rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rank {
    /// The rank's text.
    pub span: Span,
    /// Where its cells are in [`Placement::cells`].
    pub cells: Range<usize>,
}

/// One token of a rank.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A run of blank squares.
    Empty(u8),
    /// A piece.
    Piece(Piece),
    /// Something not valid here, standing for `width` squares.
    Fault {
        /// Squares it is taken to cover.
        width: u8,
    },
}

impl Cell {
    /// Squares covered.
    pub const fn width(self) -> u32 {
        match self {
            Self::Empty(n) => n as u32,
            Self::Piece(_) => 1,
            Self::Fault { width } => width as u32,
        }
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty(n) => write!(f, "Empty({n})"),
            Self::Piece(p) => write!(f, "Piece({})", p.letter()),
            Self::Fault { width } => write!(f, "Fault(width {width})"),
        }
    }
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
