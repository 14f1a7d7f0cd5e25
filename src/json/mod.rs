//! JSON: a reader that keeps the span of every value ([`reader`]), a JSON input read in
//! bounded pieces ([`lines`]), and the JSON position model of a board viewer — the mechanism
//! both games share ([`position`]) and its two uses, [`shogi`] and [`chess`].
//!
//! [`reader`] and [`lines`] know nothing of positions; the position model knows nothing of
//! JSON syntax, only of the values [`reader`] gives it.

pub mod chess;
pub mod lines;
pub mod position;
pub mod reader;
pub mod shogi;

pub use lines::{Piece, Pieces, MAX_DOCUMENT};
pub use reader::{read_stream, values, Member, Node, Value, Values, MAX_DEPTH};
pub use shogi::Style;
