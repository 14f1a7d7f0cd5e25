//! The position an SFEN record describes: a board, two hands, the side to move and the move
//! number. Not necessarily legal: [`super::check`] says what is wrong with it.

use super::ast::{self, Record};
use crate::shogi::{Board, Hand, Square};
use crate::span::Span;

// The position an SFEN record describes: `sfen::Position` is the name SFEN users reach it by,
// `shogi::Position` its home.
pub use crate::shogi::Position;

impl Position {
    /// The position a syntax tree describes, if every part of it is present and well formed.
    pub fn from_record(record: &Record) -> Option<Self> {
        Some(Self {
            board: board_of(record.board.as_ref()?)?,
            hands: hands_of(record.hand.as_ref()?),
            side: record.side?.node.color,
            move_number: record.move_number.map(|m| m.node),
        })
    }
}

/// The board a board field describes; `None` unless it has nine ranks of nine squares and no
/// faults.
pub fn board_of(field: &ast::BoardField) -> Option<Board> {
    let mut board = Board::default();
    field.fill(9, &mut board.0).then_some(board)
}

/// The span of the cell that writes `square` (for an empty square, its run's span).
pub fn square_span(field: &ast::BoardField, square: Square) -> Span {
    field.span_at(usize::from(square.rank()) - 1, 9 - usize::from(square.file()))
}

/// The hands a hand field lists (entries naming a piece twice add up).
pub fn hands_of(field: &ast::Hand) -> [Hand; 2] {
    let mut hands = [Hand::default(); 2];
    for entry in &field.entries {
        let (color, kind) = entry.piece.node;
        hands[color.index()].add(kind, entry.amount());
    }
    hands
}
