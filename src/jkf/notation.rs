//! JKF as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::input::decode::Decoded;
use crate::unit::{About, Cut, Dialect, Notation};

/// JKF game records: one a file, a JSON object.
pub struct Jkf;

/// What JKF is.
static ABOUT: About = About {
    name: "jkf",
    extensions: &[],
    description: "JKF (the JSON Kifu Format of web boards and apps: .jkf)",
    cut: Cut::Record,
    dialects: &[Dialect::Auto],
    dialects_in_words: "JKF (as its JSON Schema defines it)",
    grammar: None,
};

impl Notation for Jkf {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn no_such_dialect(&self, dialect: Dialect) -> String {
        format!("`--dialect {}` does not apply to JKF", dialect.name())
    }

    fn title(&self, _: Dialect) -> &'static str {
        "JKF"
    }

    fn rule(&self, _: Dialect) -> &'static str {
        "value"
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        (super::check_text(text).1, Some(dialect))
    }

    fn decode(&self, bytes: &[u8]) -> Decoded {
        Decoded { text: super::decode(bytes).0, encoding: super::ENCODING }
    }
}
