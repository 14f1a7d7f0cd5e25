//! JSON positions as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::unit::{Cut, Dialect, GrammarFile, Notation};

/// JSON positions: the JSON position model, or its chess analogue. Each record's model says
/// its game: there is no dialect to choose.
pub struct Json;

impl Notation for Json {
    fn name(&self) -> &'static str {
        "json"
    }

    fn description(&self) -> &'static str {
        "JSON positions: the JSON position model, or its chess analogue"
    }

    fn cut(&self) -> Cut {
        Cut::Values
    }

    fn dialects(&self) -> &'static [Dialect] {
        &[]
    }

    fn dialects_in_words(&self) -> &'static str {
        "JSON positions (each record's model says its game)"
    }

    fn title(&self, _: Dialect) -> &'static str {
        "JSON"
    }

    fn grammar(&self) -> Option<GrammarFile> {
        None
    }

    fn rule(&self, _: Dialect) -> &'static str {
        "value"
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        (super::check(text), Some(dialect))
    }
}
