//! Shogi's vocabulary: colours, pieces, squares, boards and hands, and how pieces attack; the
//! position a record writes ([`Position`]), what makes one illegal ([`Violation`]), moves in USI
//! notation ([`Move`]), the rules ([`rules`]) and the move a record writes, found in a position.

mod board;
pub(crate) mod game;
mod hand;
// The handicaps are named by the game formats, which come with the `psn` feature.
#[cfg(feature = "psn")]
pub(crate) mod handicap;
// Kanji are written by the diagrams and read and written by KIF.
#[cfg(any(feature = "views", feature = "psn"))]
pub(crate) mod kanji;
mod legal;
mod piece;
mod position;
// Written moves are read by the game formats, which come with the `psn` feature.
#[cfg(feature = "psn")]
pub(crate) mod relative;
pub(crate) mod retro;
pub mod rules;
mod square;
pub(crate) mod usi;
pub(crate) mod violation;
// Written moves are read by the game formats, which come with the `psn` feature.
#[cfg(feature = "psn")]
pub(crate) mod written;

pub use board::Board;
pub use game::{parse_clock, EndReason, Ending, Game, MoveTime, Node, Outcome, Record, Variation};
pub use hand::Hand;
pub use legal::Legal;
pub use piece::{Color, Piece, PieceKind};
pub use position::Position;
pub use square::{rank_letter, Square};
pub use usi::Move;
pub use violation::{ImpossibleCheck, Violation};
#[cfg(feature = "psn")]
pub use written::{Origin, Promotion};
