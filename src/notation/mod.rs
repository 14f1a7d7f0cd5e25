//! What the line notations share, whatever the game: the automaton compiled from their
//! grammars ([`grammar`]), the board field as a grid of cells with its rank, width and
//! separator checks ([`grid`]), splitting a record into fields ([`fields`]), look-alike
//! characters (`lookalike`), the findings chess and shogi word alike (`findings`), lines that
//! are not records at all (`foreign`), and parse trees as text ([`tree`]).

mod error;
machinery! { mod fields; }
pub(crate) mod findings;
pub(crate) mod foreign;
machinery! { mod grammar; }
machinery! { mod grid; }
pub(crate) mod lookalike;
mod regular;
pub(crate) mod repair;
machinery! { mod tree; }

pub(crate) use error::from_str_by;
pub use error::NotationError;

use crate::diagnostic::{Diagnostic, ParseError};

/// What `FromStr` gives for a record read: the position `position` makes of it,
/// unless a finding is an error or it makes none; `format` names the notation in the error.
pub fn parsed<R, P>(
    (record, diagnostics): (R, Vec<Diagnostic>),
    position: impl FnOnce(&R) -> Option<P>,
    format: &'static str,
) -> Result<P, ParseError> {
    let errors: Vec<Diagnostic> = diagnostics.into_iter().filter(Diagnostic::is_error).collect();
    match position(&record) {
        Some(p) if errors.is_empty() => Ok(p),
        _ => Err(ParseError { format, diagnostics: errors }),
    }
}
