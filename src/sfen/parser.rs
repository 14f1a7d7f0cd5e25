//! The pest parser generated from `grammar/common.pest` and `grammar/sfen.pest`.

#![allow(missing_docs)]

/// The SFEN grammar. `Rule` has one variant per grammar rule; the rules' doc comments quote the
/// spec production each transcribes.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/sfen.pest"]
#[grammar = "grammar/common.pest"]
pub struct SfenParser;
