//! Chess's vocabulary: colours, roles, pieces, squares and boards, and how pieces attack; the
//! position a record writes ([`Position`]), the rules it may break ([`Violation`]) and one the
//! rules allow ([`Legal`]).

mod board;
mod legal;
mod piece;
mod position;
pub(crate) mod retro;
mod sets;
mod square;
pub(crate) mod violation;

pub use board::Board;
pub use legal::Legal;
pub use piece::{Color, Piece, Role};
pub use position::{CastleRight, CastleSide, Position};
pub use sets::{PieceSets, SquareSet, BACK_RANKS, LIGHT_SQUARES};
pub use square::Square;
pub use violation::{Beyond, CastlingMode, ImpossibleCheck, RightProblem, Violation};
