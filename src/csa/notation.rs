//! CSA as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::input::decode::{Decoded, Encoding};
use crate::unit::{About, Cut, Dialect, GrammarFile, Notation};

/// CSA game records: one or more a file, separated by `/` lines.
pub struct Csa;

/// What CSA is.
static ABOUT: About = About {
    name: "csa",
    extensions: &[],
    description: "CSA (the Computer Shogi Association's game records: .csa, V2.2 and V3.0)",
    cut: Cut::Record,
    dialects: &[Dialect::Auto],
    dialects_in_words: "CSA (versions 2.2 and 3.0, and the 1997 format, each told by its version line)",
    grammar: Some(GrammarFile { path: "grammar/csa.pest", text: crate::notation::grammar::CSA }),
};

impl Notation for Csa {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn no_such_dialect(&self, dialect: Dialect) -> String {
        format!("`--dialect {}` does not apply to CSA", dialect.name())
    }

    fn title(&self, _: Dialect) -> &'static str {
        "CSA"
    }

    fn rule(&self, _: Dialect) -> &'static str {
        "line"
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        (super::check_text(text).1, Some(dialect))
    }

    fn decode(&self, bytes: &[u8]) -> Decoded {
        let (text, encoding, _) = crate::input::decode::decode_japanese(bytes);
        Decoded { text, encoding }
    }

    fn encoding_finding(&self, text: &str, encoding: Encoding) -> Option<Diagnostic> {
        super::encoding_note(text, encoding)
    }
}
