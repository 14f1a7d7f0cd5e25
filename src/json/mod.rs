//! JSON: a reader that keeps the span of every value ([`reader`]), a JSON input read in
//! bounded pieces ([`lines`]), and the JSON position model of a board viewer — the mechanism
//! both games share ([`position`]) and its two uses, [`shogi`] and [`chess`].
//!
//! [`reader`] and [`lines`] know nothing of positions; the position model reads the values
//! [`reader`] gives it. [`values`] and [`read_stream`] read JSON positions: their syntax
//! errors' help says how a position is written.

use crate::diagnostic::Diagnostic;

pub mod chess;
pub mod lines;
pub mod position;
pub mod reader;
pub mod shogi;

pub use lines::{Piece, Pieces, MAX_DOCUMENT};
pub use reader::{Hints, Member, Node, Value, Values, MAX_DEPTH};
pub use shogi::Style;

/// The top-level values of `text` one at a time, or the syntax error that stopped one (reading
/// resumes at the next line that opens a value), so that a large file is never held as a tree;
/// a syntax error's help says how a position is written.
pub fn values(text: &str) -> Values<'_> {
    reader::values(text).hints(position::HINTS)
}

/// Reads every top-level value of `text`, with a diagnostic per syntax error.
pub fn read_stream(text: &str) -> (Vec<Node>, Vec<Diagnostic>) {
    values(text).split()
}
