//! `kifu` through the built binary: every command's output and exit status, `--fix` and its
//! diff, input and output under stress, folders and globs, other encodings, the language server,
//! SARIF, the spec playground and the conformance suite, and games that go too far.
//!
//! One of the three test binaries (`cli`, `formats`, `properties`): each links kifu once, and a
//! module here is what a test file of its own would be. `cargo test --test cli commands::MODULE::` runs one.

#[path = "../common/mod.rs"]
mod common;

mod cli_fix;
mod cli_io;
mod cli_paths;
mod commands;
mod docs;
mod encodings;
mod explain;
mod lsp;
mod playground;
mod psn_limits;
mod sarif;
mod select;
