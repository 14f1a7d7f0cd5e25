//! [`Legal`]: a chess position the rules allow, reached through [`Position::legal`].

use super::violation::{self, CastlingMode, Facts, Tally, Violation};
use super::{CastleSide, Position};

/// A chess position the rules allow: one king a side, no pawn on the first or last rank, no
/// more pieces than promotions can give, the side not to move not in check, no check no move
/// could give, castling rights that name a king and rook on their squares, an en passant
/// square a pawn just passed, and a move number from 1.
///
/// A record says what it says: [`Position`] is that. The only ways to a `Legal` are
/// [`Position::legal`] and [`fen::Checked::into_legal`](crate::fen::Checked::into_legal), which
/// check every rule and give the faults otherwise.
///
/// ```
/// use kifu::chess::{Legal, Position};
///
/// let start: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse().unwrap();
/// let legal: Legal = start.legal().expect("the start is legal");
/// assert_eq!(legal.position().fullmove, 1);
///
/// let no_white_king: Position = "4k3/8/8/8/8/8/8/8 w - - 0 1".parse().unwrap();
/// assert!(no_white_king.legal().is_err());
/// ```
pub type Legal = crate::checked::Legal<Position>;

impl Position {
    /// Every rule of chess the position breaks, its castling rights read in `mode`, in a fixed
    /// order (kings, pawns on the back ranks, material, checks, castling rights, the en passant
    /// square, the move number), each with the squares at fault: none for a legal position.
    ///
    /// ```
    /// use kifu::chess::{CastlingMode, Color, Position, Violation};
    ///
    /// let two_kings: Position = "4k3/8/8/8/8/8/8/4K2k w - - 0 1".parse().unwrap();
    /// let violations = two_kings.violations(CastlingMode::Standard);
    /// assert!(matches!(violations.as_slice(), [Violation::TooManyKings { color: Color::Black, .. }]));
    /// ```
    pub fn violations(&self, mode: CastlingMode) -> Vec<Violation> {
        let facts = Facts {
            board: &self.board,
            side: Some(self.side),
            castling: Some(&self.castling),
            en_passant: Some(self.en_passant),
            halfmove: Some(self.halfmove),
            fullmove: Some(self.fullmove),
        };
        violation::violations(&facts, &Tally::of(&self.board), mode)
    }

    /// This position as a [`Legal`] one, or every rule it breaks ([`Position::violations`]). Its
    /// castling rights are read as they are written: rook files (`HAha`) as Chess960's, `KQkq`
    /// as standard chess's (for a Chess960 position written with `KQkq`, use
    /// [`Position::legal_in`]).
    pub fn legal(self) -> Result<Legal, Vec<Violation>> {
        let chess960 = self.castling.iter().any(|r| matches!(r.side, CastleSide::File(_)));
        self.legal_in(if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard })
    }

    /// This position as a [`Legal`] one, its castling rights read in `mode`, or every rule it
    /// breaks.
    pub fn legal_in(self, mode: CastlingMode) -> Result<Legal, Vec<Violation>> {
        let violations = self.violations(mode);
        if violations.is_empty() {
            Ok(Legal::new_unchecked(self))
        } else {
            Err(violations)
        }
    }
}

impl From<Legal> for Position {
    fn from(legal: Legal) -> Self {
        legal.into_position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Beyond, Color, ImpossibleCheck, Piece, RightProblem, Role, Square};

    fn position(fen: &str) -> Position {
        fen.parse().expect("a FEN record")
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square")
    }

    #[test]
    fn a_legal_position_is_reached_only_through_the_rules() {
        let start = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start.clone().legal().map(Legal::into_position), Ok(start));
        let violations = position("4k3/8/8/8/8/8/8/4K2k w - - 0 1").legal().unwrap_err();
        assert_eq!(violations, [Violation::TooManyKings { color: Color::Black, kings: vec![sq("e8"), sq("h1")] }]);
    }

    #[test]
    fn castling_rights_are_judged_in_the_mode_they_are_written_in() {
        // Shredder-FEN letters: Chess960, where the king may start on b1 to g1.
        let chess960 = position("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
        assert!(chess960.legal().is_ok());
        // `K` with the king on g1 is not standard chess; in Chess960 it is the outermost rook.
        let standard = position("1r4kr/8/8/8/8/8/8/1R4KR w Kk - 0 1");
        assert!(standard.clone().legal().is_err());
        assert!(standard.legal_in(CastlingMode::Chess960).is_ok());
    }

    #[test]
    fn each_rule_names_its_squares() {
        let violations = |fen: &str| position(fen).violations(CastlingMode::Standard);
        let white_pawn = Piece { color: Color::White, role: Role::Pawn };
        assert_eq!(
            violations("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
            [Violation::PawnOnBackRank { square: sq("h8"), piece: white_pawn }]
        );
        assert_eq!(
            violations("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
            [Violation::OppositeCheck { king: sq("e8"), checkers: vec![sq("h8")] }]
        );
        assert_eq!(violations("8/8/8/8/8/8/8/4K3 w - - 0 1"), [Violation::MissingKing { color: Color::Black }]);
        assert_eq!(
            violations("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            [Violation::CastlingRight { right: 0, problems: vec![RightProblem::NoRook(sq("h1"))] }]
        );
        assert_eq!(violations("4k3/8/8/8/8/8/8/4K3 w - e3 3 1"), [Violation::EnPassantRank { square: sq("e3") }]);
        assert_eq!(violations("4k3/8/8/8/4P3/8/8/4K3 b - e3 3 1"), [Violation::EnPassantHalfmove { halfmove: 3 }]);
        assert_eq!(
            violations("4k3/8/8/8/8/8/PPPPPPP1/QQQ1K3 w - - 0 1"),
            [Violation::ImpossibleMaterial {
                color: Color::White,
                beyond: vec![(Beyond::Queens, vec![sq("a1"), sq("b1"), sq("c1")])],
                extra: 2,
                missing: 1
            }]
        );
        let mut zero = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        zero.fullmove = 0;
        assert_eq!(zero.violations(CastlingMode::Standard), [Violation::FullmoveZero]);
    }

    #[test]
    fn a_check_no_move_gives_says_why() {
        let cause = |fen: &str| match position(fen).violations(CastlingMode::Standard).as_slice() {
            [Violation::ImpossibleCheck { cause, .. }] => Some(*cause),
            _ => None,
        };
        // A pawn and a bishop, a pawn and a queen, a rook beside the king and one from afar: no
        // last move of Black gives both checks.
        assert_eq!(cause("4k3/8/8/8/7b/8/3p4/4K3 w - - 0 1"), Some(ImpossibleCheck::NoLastMove));
        assert_eq!(cause("4k3/8/8/4q3/7q/8/8/4K3 w - - 0 1"), Some(ImpossibleCheck::NoLastMove));
        assert_eq!(cause("4k3/8/8/8/8/8/4r3/r3K3 w - - 0 1"), Some(ImpossibleCheck::NoLastMove));
        // Two knights: neither checks from afar.
        assert_eq!(cause("4k3/8/8/8/8/3n4/2n5/4K3 w - - 0 1"), Some(ImpossibleCheck::TwoClose));
        // Rooks on both sides of the king on one rank.
        assert_eq!(cause("4k3/8/8/8/8/8/8/r3K2r w - - 0 1"), Some(ImpossibleCheck::Aligned));
        // A knight that just jumped, uncovering the rook behind it: a discovered double check.
        assert!(position("4k3/4r3/8/8/8/5n2/8/4K3 w - - 0 1").violations(CastlingMode::Standard).is_empty());
    }
}
