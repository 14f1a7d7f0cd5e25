//! The pest parser generated from `grammar/kif.pest`.

#![allow(missing_docs)]

/// The KIF grammar. `Rule` has one variant per grammar rule; the rules' doc comments quote the
/// words of the KIF page each transcribes, or name the programs that write it.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/kif.pest"]
pub struct KifParser;
