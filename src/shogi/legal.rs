//! [`Legal`]: a position the rules of shogi allow, reached through [`Position::legal`].

use super::rules::{self, Illegal, State};
use super::violation::{self, Tally, Violation};
use super::{Move, Position};

/// A position the rules of shogi allow: no side with two kings, no piece that could never
/// move, no two unpromoted pawns of a side on a file, no more pieces than a set holds, the
/// side not to move not in check, and no check no move could give. A side may lack its king
/// (as in tsume problems).
///
/// A record says what it says: [`Position`] is that. `Legal` is what the rules can play
/// from; the only ways to one are [`Position::legal`] and
/// [`sfen::Checked::into_legal`](crate::sfen::Checked::into_legal), which check every rule
/// and give the errors otherwise, and its `play`, which plays only legal moves.
///
/// ```
/// use kifu::shogi::{Legal, Position};
///
/// let mut legal: Legal = Position::STARTPOS.legal().expect("the start is legal");
/// legal.play("7g7f".parse().unwrap()).expect("a legal move");
/// assert!(legal.play("7g7f".parse().unwrap()).is_err(), "no piece is on 7g any more");
/// assert_eq!(legal.legal_moves().len(), 30);
///
/// let two_kings: Position = "4k4/9/9/9/9/9/9/9/3KK4 b - 1".parse().unwrap();
/// let errors = two_kings.legal().unwrap_err();
/// assert_eq!(errors.len(), 1);
/// ```
pub type Legal = crate::checked::Legal<Position>;

impl Position {
    /// Every rule of shogi the position breaks, in a fixed order (kings, pieces that can never
    /// move, nifu, checks, too many pieces), each with the squares at fault: none for a legal
    /// position. A missing king breaks no rule (tsume problems leave one out).
    ///
    /// ```
    /// use kifu::shogi::{Color, Position, Square, Violation};
    ///
    /// let nifu: Position = "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1".parse().unwrap();
    /// let pawns = vec![Square::new(5, 7).unwrap(), Square::new(5, 8).unwrap()];
    /// assert_eq!(nifu.violations(), [Violation::Nifu { color: Color::Black, file: 5, pawns }]);
    /// ```
    pub fn violations(&self) -> Vec<Violation> {
        violation::violations(&self.board, &Tally::of(&self.board), Some(self.side), Some(&self.hands))
    }

    /// The position as a [`Legal`] one when it keeps every rule of shogi, or the rules it
    /// breaks ([`Position::violations`]).
    ///
    /// ```
    /// use kifu::shogi::Position;
    ///
    /// assert!(Position::STARTPOS.legal().is_ok());
    /// let nifu: Position = "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1".parse().unwrap();
    /// assert!(nifu.legal().is_err());
    /// ```
    pub fn legal(self) -> Result<Legal, Vec<Violation>> {
        let violations = self.violations();
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

/// What the rules can do from a legal shogi position.
impl Legal {
    /// The position prepared for play (for playing many moves, or searching).
    pub fn state(&self) -> State {
        State::new(self.position())
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        rules::legal_moves(self.position())
    }

    /// True when the side to move is in check.
    pub fn is_check(&self) -> bool {
        rules::is_check(self.position())
    }

    /// True when the side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        rules::is_checkmate(self.position())
    }

    /// Plays `mv` if it is legal (the position stays legal); otherwise says why and leaves the
    /// position as it was.
    pub fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        rules::play(self.position_mut(), mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        sfen.parse().expect("an SFEN record")
    }

    #[test]
    fn the_rules_decide() {
        assert!(Position::STARTPOS.legal().is_ok());
        assert!(
            Position { move_number: None, ..Position::STARTPOS }.legal().is_ok(),
            "the move number may be left out"
        );
        assert!(position("9/9/9/9/4k4/9/9/9/9 b - 1").legal().is_ok(), "a side may lack its king");
        for broken in [
            "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
            "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1",
            "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
            "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
        ] {
            assert!(position(broken).legal().is_err(), "{broken}");
        }
    }

    #[test]
    fn legal_moves_keep_a_position_legal() {
        let mut legal = Position::STARTPOS.legal().expect("legal");
        let mut seed = 7u64;
        for _ in 0..60 {
            let moves = legal.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            assert_eq!(legal.play(mv), Ok(()));
            assert!(legal.position().clone().legal().is_ok(), "{legal}");
        }
        let before = legal.clone();
        assert!(legal.play("5e5e".parse().expect("a USI move")).is_err());
        assert_eq!(legal, before, "an illegal move changes nothing");
    }
}
