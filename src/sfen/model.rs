//! The position an SFEN record describes: a board, two hands, the side to move and the move
//! number. Not necessarily legal: [`super::validate`] says what is wrong with it.

use super::ast::{self, Record};
use crate::shogi::{Board, Color, Hand, Square};
use crate::span::Span;

/// A shogi position as SFEN records it (not necessarily legal).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The 81 squares.
    pub board: Board,
    /// Black's and White's pieces in hand, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// Who is to move.
    pub side: Color,
    /// The move number (ply) of the position, when the record gives one.
    pub move_number: Option<u64>,
}

impl Position {
    /// The start position, Black to move, move 1.
    pub fn startpos() -> Self {
        let record = super::fast::parse(super::build::START, super::DialectChoice::Usi);
        record.as_ref().and_then(Self::from_record).unwrap_or_else(|| Self {
            board: Board::default(),
            hands: [Hand::default(); 2],
            side: Color::Black,
            move_number: Some(1),
        })
    }

    /// The pieces `color` holds.
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

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
pub fn board_of(field: &ast::Board) -> Option<Board> {
    let mut board = Board::default();
    field.fill(9, &mut board.0).then_some(board)
}

/// The span of the cell that writes `square` (for an empty square, its run's span).
pub fn square_span(field: &ast::Board, square: Square) -> Span {
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
