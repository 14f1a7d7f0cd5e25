//! Shogi's rules: the legal moves of a position, playing them, check, and perft.
//!
//! [`State`] is a position prepared for play: a mailbox of 10 × 13 cells (nine files and a
//! wall column, nine ranks and two wall ranks above and below, so that no step or knight's
//! jump leaves the array), the hands, and the kings and pawn files kept up to date as moves
//! are played. It is small and [`Copy`]: search copies it and plays on the copy.
//!
//! Legal moves are generated directly, not by trying pseudo-legal moves: the lines through the
//! king give the checkers and the pinned pieces (with the squares each may still move to),
//! the king steps only to squares no enemy piece attacks, and when in check the other pieces
//! and the drops only capture the checker or block its line. A side with no king, or with
//! two, is handled by the slow way: every pseudo-legal move, kept when none of its kings is
//! attacked after it (with no king, every pseudo-legal move is legal).
//!
//! The functions on [`Position`] ([`legal_moves`], [`play`], [`play_unchecked`], [`is_check`],
//! [`perft`], [`why_illegal`]) convert to a [`State`] and back; code that plays many moves
//! keeps a [`State`]. [`play`] checks the move and says why it is illegal; [`play_unchecked`]
//! is the fast path for moves known to be legal.
//!
//! ```
//! use kifu::shogi::rules;
//! use kifu::shogi::{Move, Position};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(rules::legal_moves(&pos).len(), 30);
//! let mv = Move::from_usi("7g7f").expect("a USI move");
//! assert!(rules::why_illegal(&pos, mv).is_none());
//! rules::play(&mut pos, mv).expect("a legal move");
//! assert_eq!(pos.to_string(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! assert_eq!(rules::perft(&Position::startpos(), 3), 25_470);
//! ```

mod illegal;
mod mailbox;
mod movegen;
mod perft;
mod state;
#[cfg(test)]
mod tests;

use super::Move;
use super::Position;
pub use illegal::{Illegal, Legality};
pub use state::State;

/// The legal moves of the side to move.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    State::new(pos).legal_moves(&mut moves);
    moves
}

/// Plays `mv` if it is legal; otherwise says why and leaves `pos` as it was.
///
/// ```
/// use kifu::shogi::rules::{self, Illegal};
/// use kifu::shogi::Position;
///
/// let mut pos = Position::STARTPOS;
/// let err = rules::play(&mut pos, "8h2b".parse().unwrap()).unwrap_err();
/// assert!(matches!(err, Illegal::Blocked { .. }));
/// assert_eq!(err.to_string(), "the bishop on 8h cannot reach 2b: the way is blocked on 7g");
/// assert_eq!(pos, Position::STARTPOS);
/// ```
pub fn play(pos: &mut Position, mv: Move) -> Result<(), Illegal> {
    let mut state = State::new(pos);
    state.play(mv)?;
    *pos = state.to_position();
    Ok(())
}

/// Plays `mv` without checking it (see [`State::play_unchecked`]): the fast path for moves
/// known to be legal. An illegal move gives some position, never a panic.
pub fn play_unchecked(pos: &mut Position, mv: Move) {
    let mut state = State::new(pos);
    state.play_unchecked(mv);
    *pos = state.to_position();
}

/// True when the side to move's king is attacked.
pub fn is_check(pos: &Position) -> bool {
    State::new(pos).is_check()
}

/// True when the side to move is in check and has no legal move.
pub fn is_checkmate(pos: &Position) -> bool {
    State::new(pos).is_checkmate()
}

/// Why `mv` is not legal in `pos`, or `None` when it is.
pub fn why_illegal(pos: &Position, mv: Move) -> Option<Illegal> {
    State::new(pos).why_illegal(mv)
}

/// The number of move sequences of `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    State::new(pos).perft(depth)
}
