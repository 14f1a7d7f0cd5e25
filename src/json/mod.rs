//! JSON: a reader that keeps the span of every value (`reader`), a JSON input read in
//! bounded pieces (`lines`), and the JSON position model of a board viewer — the mechanism
//! both games share (`position`) and its two uses, [`shogi`] and [`chess`].
//!
//! `reader` and `lines` know nothing of positions; the position model reads the values
//! `reader` gives it. [`values`] and [`read_stream`] read JSON positions: their syntax
//! errors' help says how a position is written.

use crate::diagnostic::Diagnostic;

pub mod chess;
pub(crate) mod lines;
pub(crate) mod notation;
pub(crate) mod position;
pub(crate) mod reader;
pub mod shogi;

pub use lines::{each_record, findings_of, JsonRecord, JsonText, OnJson, Piece, Pieces, MAX_DOCUMENT};
pub use reader::{Hints, Member, Node, Value, Values, MAX_DEPTH};
pub use shogi::Style;

/// The top-level values of `text` one at a time, or the syntax error that stopped one (reading
/// resumes at the next line that opens a value), so that a large file is never held as a tree;
/// a syntax error's help says how a position is written.
pub fn values(text: &str) -> Values<'_> {
    reader::values(text).hints(position::HINTS)
}

/// A JSON position read and checked, in the model its keys name.
#[derive(Clone, Debug)]
pub enum Model {
    /// The JSON position model of shogi.
    Shogi(shogi::Checked),
    /// Its chess analogue.
    Chess(chess::Checked),
}

impl Model {
    /// Every finding, errors and warnings.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Self::Shogi(c) => &c.diagnostics,
            Self::Chess(c) => &c.diagnostics,
        }
    }

    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        match self {
            Self::Shogi(c) => c.is_valid(),
            Self::Chess(c) => c.is_valid(),
        }
    }
}

/// Reads and checks a JSON position: a chess position when [`is_chess`] says so, else a
/// shogi one.
pub fn read(node: &Node) -> Model {
    if is_chess(node) {
        Model::Chess(chess::read(node))
    } else {
        Model::Shogi(shogi::read(node))
    }
}

/// True when a JSON object is a chess position: it has a key only chess positions have, or
/// none that only shogi positions have and its first square is a chess square.
pub fn is_chess(node: &Node) -> bool {
    let Value::Object(members) = &node.value else { return false };
    if members
        .iter()
        .any(|m| matches!(m.key.as_str(), "castling" | "enPassant" | "halfmoveClock" | "fullmoveNumber" | "operations"))
    {
        return true;
    }
    if members.iter().any(|m| matches!(m.key.as_str(), "blackHand" | "whiteHand" | "moveNumber")) {
        return false;
    }
    match node.get("pieces").map(|m| &m.value.value) {
        Some(Value::Object(pieces)) => {
            pieces.first().is_some_and(|p| p.key.as_bytes().first().is_some_and(|b| (b'a'..=b'h').contains(b)))
        }
        _ => false,
    }
}

/// The positions a top-level value holds: the elements of an array, or the value itself.
pub fn records(node: &Node) -> impl Iterator<Item = &Node> {
    let (items, one): (&[Node], Option<&Node>) = match &node.value {
        Value::Array(items) => (items, None),
        _ => (&[], Some(node)),
    };
    items.iter().chain(one)
}

/// Checks every position of a JSON text (one value, several, or arrays of them): the syntax
/// errors and each position's findings, in the order of the text, with spans into `text`.
pub fn check(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for value in values(text) {
        match value {
            Ok(node) => records(&node).for_each(|record| out.extend_from_slice(read(record).diagnostics())),
            Err(d) => out.push(*d),
        }
    }
    out
}

/// Reads every top-level value of `text`, with a diagnostic per syntax error.
pub fn read_stream(text: &str) -> (Vec<Node>, Vec<Diagnostic>) {
    values(text).split()
}
