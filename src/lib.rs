#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod check;
pub mod chess;
pub mod diagnostic;
pub use diagnostic::excerpt; // moved to diagnostic::excerpt
pub mod fen;
pub mod fields;
pub mod findings;
pub mod grammar;
pub mod grid;
pub mod json;
pub mod lookalike;
#[cfg(feature = "playground")]
pub mod playground;
#[cfg(feature = "psn")]
pub mod psn;
pub mod sfen;
pub mod shogi;
pub mod span;
pub mod tree;
#[cfg(feature = "views")]
pub mod views;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use span::{Span, Spanned};
