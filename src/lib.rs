#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod check;
pub mod chess;
pub mod diagnostic;
pub mod excerpt;
pub mod fen;
pub mod fields;
pub mod findings;
pub mod format;
pub mod grammar;
pub mod grid;
pub mod json;
pub mod lookalike;
pub mod playground;
pub mod psn;
pub mod sfen;
pub mod shogi;
pub mod span;
pub mod tree;
pub mod views;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use span::{Span, Spanned};
