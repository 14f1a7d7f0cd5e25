//! The pest parser generated from `grammar/psn.pest` and `grammar/common.pest`.

#![allow(missing_docs)]

/// The PSN grammar. `Rule` has one variant per grammar rule; the rules' doc comments cite the
/// spec section each transcribes, or the dialects that write it.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/psn.pest"]
#[grammar = "grammar/common.pest"]
pub struct PsnParser;
