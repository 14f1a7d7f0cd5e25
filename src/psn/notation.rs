//! PSN as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::input::decode::Decoded;
use crate::unit::{Cut, Dialect, GrammarFile, Notation};

/// PSN game records: each game's dialect is found from its text.
pub struct Psn;

impl Notation for Psn {
    fn name(&self) -> &'static str {
        "psn"
    }

    fn description(&self) -> &'static str {
        "PSN (shogi game records)"
    }

    fn cut(&self) -> Cut {
        Cut::Games
    }

    fn dialects(&self) -> &'static [Dialect] {
        &[Dialect::Auto]
    }

    fn dialects_in_words(&self) -> &'static str {
        "PSN (each game's dialect is found from its text)"
    }

    fn no_such_dialect(&self, dialect: Dialect) -> String {
        format!("`--dialect {}` does not apply to PSN: each game's dialect is found from its text", dialect.name())
    }

    fn title(&self, _: Dialect) -> &'static str {
        "PSN"
    }

    fn grammar(&self) -> Option<GrammarFile> {
        Some(GrammarFile { path: "grammar/psn.pest", text: crate::notation::grammar::PSN })
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
