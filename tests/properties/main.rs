//! Properties over generated and hostile input: round trips, the fast paths and the grammar
//! accepting the same records, no panic on any bytes, slips and typos getting one report with its
//! fix, the shogi rules against another library's, and the grammar deciding.
//!
//! One of the three test binaries (`cli`, `formats`, `properties`): each links kifu once, and a
//! module here is what a test file of its own would be. `cargo test --test properties MODULE::`
//! runs one.

#[path = "../common/mod.rs"]
mod common;

mod clean_path;
mod double_checks_in_play;
mod fen_bytes;
mod fen_properties;
mod fixes;
mod generated;
mod grammar_decides;
mod hostile;
mod no_panic;
mod psn_properties;
mod psn_round_trip;
mod psn_typos;
mod sfen_bytes;
mod sfen_properties;
mod shogi_perft;
mod single_edits;
