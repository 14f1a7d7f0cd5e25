#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod check;
pub mod checked;
pub mod chess;
pub mod diagnostic;
pub mod excerpt;
pub mod fen;
pub mod json;
pub mod notation;
pub mod notation_error;
pub mod playground;
pub mod psn;
pub mod sfen;
pub mod shogi;
pub mod span;
pub mod views;

// moved to `notation`
pub use notation::{fields, findings, grammar, grid, lookalike, tree};

pub use diagnostic::{Diagnostic, Label, Severity};
pub use notation_error::NotationError;
pub use span::{Span, Spanned};
