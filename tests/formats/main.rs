//! Each format on its own records: one snapshot per fixture, the test vectors of other libraries
//! and the real PSN files of `../shared` (when that folder is beside the repository), PSN headers,
//! streams and fast paths, double checks, the JSON model and diagrams, and the documents kept in
//! step with the code (the codes' table, the README, the library's layers).
//!
//! One of the three test binaries (`cli`, `formats`, `properties`): each links kifu once, and a
//! module here is what a test file of its own would be. `cargo test --test formats MODULE::` runs
//! one.

#[path = "../common/mod.rs"]
mod common;

mod codes;
mod double_checks;
mod fen_fixtures;
mod fen_vectors;
mod kif_psn;
mod layers;
mod psn_corpus;
mod psn_fast_path;
mod psn_fixtures;
mod psn_headers;
mod psn_stream;
mod psn_stretches;
mod readme;
mod rules;
mod serde;
mod sfen_fixtures;
mod sfen_vectors;
mod views;
