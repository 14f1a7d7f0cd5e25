//! The pest parser generated from `grammar/csa.pest`.

#![allow(missing_docs)]

/// The CSA grammar. `Rule` has one variant per grammar rule; the rules' doc comments name the
/// part of the CSA standard each transcribes.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/csa.pest"]
pub struct CsaParser;
