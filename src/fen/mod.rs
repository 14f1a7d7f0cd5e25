//! FEN: Forsyth-Edwards Notation for chess positions (seed 001), its Chess960 castling
//! letters, and EPD.
//!
//! The same layers as [`crate::sfen`]: the grammar (`grammar/fen.pest`, run by [`parser`]) →
//! the syntax tree ([`ast`], built by [`build`], or by [`fast`] for well-formed records) → the
//! position ([`model`]) → findings ([`validate`]) → text ([`display`]).
//!
//! ```
//! use kifu::fen::{self, Dialect, Kind};
//!
//! let checked = fen::check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Kind::Fen, Dialect::Standard);
//! assert!(checked.diagnostics.is_empty());
//! let checked = fen::check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", Kind::Fen, Dialect::Standard);
//! assert_eq!(checked.diagnostics[0].code, "fen::missing-field");
//! ```

pub mod ast;
pub mod build;
pub mod display;
pub mod fast;
pub mod json;
pub mod model;
pub mod parser;
mod token;
pub mod validate;

use std::str::FromStr;

pub use ast::{Dialect, Record};
pub use model::Position;

use crate::diagnostic::Diagnostic;

/// Which record rule to read: FEN's six fields, or EPD's four and operations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Six fields.
    #[default]
    Fen,
    /// Four fields, then operations.
    Epd,
}

/// A record read and checked.
pub type Checked = crate::diagnostic::Checked<Record, Position>;

/// Reads and checks one record (a line without its end of line).
pub fn check(text: &str, kind: Kind, dialect: Dialect) -> Checked {
    let (record, mut diagnostics) = match fast::parse(text, kind, dialect) {
        Some(record) => (record, Vec::new()),
        None => build::build(text, kind, dialect),
    };
    let syntax_ok = !diagnostics.iter().any(Diagnostic::is_error);
    let faulty = |span: Option<crate::span::Span>| span.is_none_or(|s| !crate::diagnostic::is_sound(s, &diagnostics));
    let sound = validate::Sound {
        side: !faulty(record.side.map(|s| s.span)),
        castling: !faulty(record.castling.as_ref().map(|c| c.span)),
        en_passant: !faulty(record.en_passant.map(|e| e.span)),
        halfmove: !faulty(record.halfmove.map(|h| h.span)),
        fullmove: !faulty(record.fullmove.map(|f| f.span)),
    };
    let board = record.placement.as_ref().filter(|p| !faulty(Some(p.span))).and_then(model::board_of);
    validate::check(&record, board.as_ref(), sound, dialect, &mut diagnostics);
    let position = board.filter(|_| syntax_ok).and_then(|b| Position::with_board(&record, b));
    Checked { record, position, diagnostics }
}

/// Reads a six-field FEN (standard or Chess960 castling) into a position, which may still break
/// the rules of chess (see [`check`] for those).
impl FromStr for Position {
    type Err = crate::diagnostic::ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (record, diagnostics) = match fast::parse(s, Kind::Fen, Dialect::Chess960) {
            Some(record) => (record, Vec::new()),
            None => build::build(s, Kind::Fen, Dialect::Chess960),
        };
        let errors: Vec<Diagnostic> = diagnostics.into_iter().filter(Diagnostic::is_error).collect();
        match Position::from_record(&record) {
            Some(p) if errors.is_empty() => Ok(p),
            _ => Err(crate::diagnostic::ParseError { format: "FEN", diagnostics: errors }),
        }
    }
}
