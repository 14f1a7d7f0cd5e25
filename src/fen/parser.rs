//! The pest parser generated from `grammar/fen.pest` and `grammar/common.pest`.

#![allow(missing_docs)]

/// The FEN grammar. `Rule` has one variant per grammar rule; the rules' doc comments quote the
/// definition each transcribes.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/fen.pest"]
#[grammar = "grammar/common.pest"]
pub struct FenParser;
