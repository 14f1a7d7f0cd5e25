//! KIF and KI2 as a format kifu reads ([`crate::format::Notation`]).

use crate::diagnostic::Diagnostic;
use crate::input::decode::{Decoded, Encoding};
use crate::unit::{About, Cut, Dialect, GrammarFile, Notation};

/// KIF and KI2 game records: one game a file.
pub struct Kif;

/// What KIF is.
static ABOUT: About = About {
    name: "kif",
    extensions: &["kifu", "ki2", "ki2u"],
    description: "KIF and KI2 (Japanese shogi game records: .kif, .kifu, .ki2, .ki2u)",
    cut: Cut::Record,
    dialects: &[Dialect::Auto],
    dialects_in_words: "KIF and KI2 (read as Kifu for Windows writes them)",
    grammar: Some(GrammarFile { path: "grammar/kif.pest", text: crate::notation::grammar::KIF }),
};

impl Notation for Kif {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn no_such_dialect(&self, dialect: Dialect) -> String {
        format!("`--dialect {}` does not apply to KIF", dialect.name())
    }

    fn title(&self, _: Dialect) -> &'static str {
        "KIF"
    }

    fn rule(&self, _: Dialect) -> &'static str {
        "line"
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        (super::check_text(text).1, Some(dialect))
    }

    fn decode(&self, bytes: &[u8]) -> Decoded {
        let (text, encoding, _) = super::decode(bytes);
        Decoded { text, encoding }
    }

    fn encoding_finding(&self, text: &str, encoding: Encoding) -> Option<Diagnostic> {
        super::encoding_note(text, encoding, None)
    }
}
