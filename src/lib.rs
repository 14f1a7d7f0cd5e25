#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod check;
mod checked;
pub mod chess;
#[cfg(feature = "cli")]
mod cli;
pub mod diagnostic;
#[cfg(feature = "psn")]
pub mod document;
pub mod explain;
pub mod fen;
pub mod format;
pub mod input;
pub mod json;
#[cfg(feature = "lsp")]
pub mod lsp;
#[doc(hidden)]
pub mod notation;
#[cfg(feature = "playground")]
pub mod playground;
#[cfg(feature = "psn")]
pub mod psn;
#[cfg(test)]
pub(crate) mod rng;
pub mod sfen;
pub mod shogi;
mod span;
mod unit;
#[cfg(feature = "views")]
pub mod views;

pub use checked::{Checked, Legal};
pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use notation::NotationError;
pub use span::{Span, Spanned};

/// Runs the `kifu` command-line tool on the process's arguments, as the `kifu` binary does, and
/// returns its exit status.
#[cfg(feature = "cli")]
pub fn run_cli() -> std::process::ExitCode {
    cli::main()
}

/// The examples of `docs/library.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryGuide;
