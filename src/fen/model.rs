//! The position a FEN record describes. Not necessarily legal: [`super::check`] says what is
//! wrong with it.

use super::ast;
use crate::chess::{Board, CastleRight, Square};

// The position a FEN record describes: `fen::Position` is the name FEN users reach it by,
// `chess::Position` its home.
pub use crate::chess::Position;

impl Position {
    /// The position a syntax tree describes, if every part of it is present and well formed.
    pub fn from_record(record: &ast::Record) -> Option<Self> {
        Self::with_board(record, board_of(record.placement.as_ref()?)?)
    }

    /// The position of `record` on `board` (the board its placement describes).
    pub fn with_board(record: &ast::Record, board: Board) -> Option<Self> {
        let mut castling: Vec<CastleRight> = record.castling.as_ref()?.rights.iter().map(|r| r.node).collect();
        castling.sort_unstable();
        castling.dedup();
        Some(Self {
            board,
            side: record.side?.node,
            castling,
            en_passant: record.en_passant?.node,
            halfmove: record.halfmove.map_or(0, |h| h.node),
            fullmove: record.fullmove.map_or(1, |f| f.node),
        })
    }
}

/// The board a placement describes; `None` unless it has eight ranks of eight squares and no
/// faults.
pub fn board_of(p: &ast::Placement) -> Option<Board> {
    let mut board = Board::default();
    p.fill(8, &mut board.0).then_some(board)
}

/// The span of the cell that writes `square` (for a blank square, its run's span).
pub fn square_span(p: &ast::Placement, square: Square) -> crate::span::Span {
    p.span_at(usize::from(8 - square.rank()), usize::from(square.file()))
}
