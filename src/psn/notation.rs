//! PSN as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::input::decode::Decoded;
use crate::unit::{About, Cut, Dialect, GrammarFile, Notation};

/// PSN game records: each game's dialect is found from its text.
pub struct Psn;

/// What PSN is.
static ABOUT: About = About {
    name: "psn",
    extensions: &[],
    description: "PSN (shogi game records)",
    cut: Cut::Games,
    dialects: &[Dialect::Auto],
    dialects_in_words: "PSN (each game's dialect is found from its text)",
    grammar: Some(GrammarFile { path: "grammar/psn.pest", text: crate::notation::grammar::PSN }),
};

impl Notation for Psn {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn no_such_dialect(&self, dialect: Dialect) -> String {
        format!("`--dialect {}` does not apply to PSN: each game's dialect is found from its text", dialect.name())
    }

    fn title(&self, _: Dialect) -> &'static str {
        "PSN"
    }

    fn rule(&self, _: Dialect) -> &'static str {
        "game"
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        (super::check_text(text, super::Options::default()), Some(dialect))
    }

    fn decode(&self, bytes: &[u8]) -> Decoded {
        super::decode::decode(bytes)
    }
}
