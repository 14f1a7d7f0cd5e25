//! Chess's vocabulary: colours, roles, pieces, squares and boards, and how pieces attack; the
//! position a record writes ([`Position`]) and one the rules allow ([`Legal`]).

mod board;
mod legal;
mod piece;
mod position;
pub(crate) mod retro;
mod sets;
mod square;

pub use board::Board;
pub use legal::Legal;
pub use piece::{Color, Piece, Role};
pub use position::{CastleRight, CastleSide, Position};
pub use sets::{PieceSets, SquareSet, BACK_RANKS, LIGHT_SQUARES};
pub use square::Square;
