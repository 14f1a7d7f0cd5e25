//! The position a FEN record describes. Not necessarily legal: [`super::check`] says what is
//! wrong with it.

use super::ast;
use crate::chess::{Board, CastleRight, CastleSide, Legal, Square};
use crate::diagnostic::Diagnostic;

// The position a FEN record describes: `fen::Position` is the name FEN users reach it by,
// `chess::Position` its home.
pub use crate::chess::Position;

impl Position {
    /// This position as a [`Legal`] one, or every rule it breaks. Its castling rights are
    /// read as they are written: rook files (`HAha`) as Chess960's, `KQkq` as standard chess's
    /// (for a Chess960 position written with `KQkq`, check its record with
    /// [`Dialect::Chess960`](super::Dialect::Chess960) and use
    /// [`Checked::into_legal`](super::Checked::into_legal)).
    pub fn legal(self) -> Result<Legal, Vec<Diagnostic>> {
        let chess960 = self.castling.iter().any(|r| matches!(r.side, CastleSide::File(_)));
        let dialect = if chess960 { super::Dialect::Chess960 } else { super::Dialect::Standard };
        super::check(&self.to_string(), super::Kind::Fen, dialect).into_legal()
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        fen.parse().expect("a FEN record")
    }

    #[test]
    fn a_legal_position_is_reached_only_through_the_rules() {
        let start = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start.clone().legal().map(Legal::into_position), Ok(start));
        let errors = position("4k3/8/8/8/8/8/8/4K2k w - - 0 1").legal().unwrap_err();
        assert!(!errors.is_empty() && errors.iter().all(Diagnostic::is_error));
    }

    #[test]
    fn castling_rights_are_judged_in_the_dialect_they_are_written_in() {
        // Shredder-FEN letters: Chess960, where the king may start on b1 to g1.
        let chess960 = position("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
        assert!(chess960.legal().is_ok());
        // `K` with the king on g1 is not standard chess.
        let standard = position("1r4kr/8/8/8/8/8/8/1R4KR w Kk - 0 1");
        assert!(standard.clone().legal().is_err());
        let checked = crate::fen::check(&standard.to_string(), crate::fen::Kind::Fen, crate::fen::Dialect::Chess960);
        assert!(checked.into_legal().is_ok(), "X-FEN: `K` is the outermost rook");
    }
}
