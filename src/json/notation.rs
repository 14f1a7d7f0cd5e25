//! JSON positions as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::unit::{About, Cut, Dialect, Notation};

/// JSON positions: the JSON position model, or its chess analogue. Each record's model says
/// its game: there is no dialect to choose.
pub struct Json;

/// What JSON positions are.
static ABOUT: About = About {
    name: "json",
    extensions: &[],
    description: "JSON positions: the JSON position model, or its chess analogue",
    cut: Cut::Values,
    dialects: &[],
    dialects_in_words: "JSON positions (each record's model says its game)",
    grammar: None,
};

impl Notation for Json {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn title(&self, _: Dialect) -> &'static str {
        "JSON"
    }

    fn rule(&self, _: Dialect) -> &'static str {
        "value"
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        (super::check(text), Some(dialect))
    }
}
