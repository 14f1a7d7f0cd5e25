#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

/// Declares modules of kifu's machinery (parsers, fast paths, scanners, the playground's
/// engine): private to the crate, and public only with the `internals` feature, which kifu's own
/// tests, benches, fuzz targets and browser build turn on. They are not part of the API. Built
/// without the command-line tool, which drives most of them, parts of them go unused.
macro_rules! machinery {
    ($($(#[$attr:meta])* mod $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "internals"))]
        #[cfg_attr(not(feature = "cli"), allow(dead_code))]
        pub(crate) mod $name;
    )*};
}

pub mod check;
mod checked;
pub mod chess;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "psn")]
pub mod csa;
pub mod diagnostic;
#[cfg(feature = "psn")]
pub mod document;
pub mod explain;
pub mod fen;
pub mod format;
pub mod input;
#[cfg(feature = "psn")]
pub mod jkf;
pub mod json;
#[cfg(feature = "psn")]
pub mod kif;
#[cfg(feature = "lsp")]
pub mod lsp;
machinery! { mod notation; }
#[cfg(test)]
mod corpus;
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
