//! The SFEN syntax tree: what a record says, with the span of every part.
//!
//! The tree keeps what the record wrote, faults included (a fault square still counts towards
//! its rank's width), so that later layers can count and point. [`super::model`] turns a tree
//! without faults into a [`super::Position`].

use std::fmt;
use std::ops::Range;

use crate::shogi::{Color, Piece, PieceKind};
use crate::span::{Span, Spanned};

/// The two SFEN dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record's text span.
    pub span: Span,
    /// The piece placement; `None` only for an empty record.
    pub board: Option<Board>,
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

/// The piece placement field.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    /// The whole field.
    pub span: Span,
    /// The ranks as written, top (a) first; a valid board has nine.
    pub ranks: Vec<Rank>,
    /// Every rank's cells, end to end (each [`Rank`] says which are its own).
    pub cells: Vec<Spanned<Cell>>,
}

impl Board {
    /// The cells of `rank`, from file 9 to file 1.
    pub fn cells_of(&self, rank: &Rank) -> &[Spanned<Cell>] {
        self.cells.get(rank.cells.clone()).unwrap_or(&[])
    }

    /// How many squares `rank` covers (a valid rank covers nine).
    pub fn width(&self, rank: &Rank) -> u32 {
        self.cells_of(rank).iter().map(|c| c.node.width()).sum()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board @ {:?} [", self.span)?;
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

/// One rank of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rank {
    /// The rank's text.
    pub span: Span,
    /// Where its cells are in [`Board::cells`].
    pub cells: Range<usize>,
}

/// What one token of a rank says.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A run of `n` empty squares (a digit).
    Empty(u8),
    /// A piece.
    Piece(Piece),
    /// Something that is not valid here, standing for `width` squares (0 for a stray `+` or
    /// `0`, the digit's value for a full-width digit, otherwise 1).
    Fault {
        /// Squares it is taken to cover.
        width: u8,
    },
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty(n) => write!(f, "Empty({n})"),
            Self::Piece(p) => write!(f, "Piece({p})"),
            Self::Fault { width } => write!(f, "Fault(width {width})"),
        }
    }
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
