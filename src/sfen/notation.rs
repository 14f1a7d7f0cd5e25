//! SFEN as a format kifu reads ([`crate::format::Notation`]).

use super::DialectChoice;
use crate::diagnostic::Diagnostic;
use crate::notation::foreign::Shape;
use crate::unit::{self, About, Cut, Dialect, GrammarFile, Notation, Record};

/// SFEN records, one a line, in either dialect or one of them.
pub struct Sfen;

impl From<DialectChoice> for Dialect {
    fn from(choice: DialectChoice) -> Self {
        match choice {
            DialectChoice::Auto => Self::Auto,
            DialectChoice::Sfen2007 => Self::Sfen2007,
            DialectChoice::Usi => Self::Usi,
        }
    }
}

impl From<super::Dialect> for Dialect {
    fn from(dialect: super::Dialect) -> Self {
        match dialect {
            super::Dialect::Usi => Self::Usi,
            super::Dialect::Sfen2007 => Self::Sfen2007,
        }
    }
}

impl TryFrom<Dialect> for super::Dialect {
    type Error = Dialect;

    /// The SFEN dialect `dialect` names, if it names one (not `auto`).
    fn try_from(dialect: Dialect) -> Result<Self, Dialect> {
        match dialect {
            Dialect::Usi => Ok(Self::Usi),
            Dialect::Sfen2007 => Ok(Self::Sfen2007),
            other => Err(other),
        }
    }
}

/// The dialect to read records in: `auto` for a dialect that is not SFEN's.
fn choice(dialect: Dialect) -> DialectChoice {
    match dialect {
        Dialect::Sfen2007 => DialectChoice::Sfen2007,
        Dialect::Usi => DialectChoice::Usi,
        Dialect::Auto | Dialect::Standard | Dialect::Chess960 => DialectChoice::Auto,
    }
}

/// What SFEN is.
static ABOUT: About = About {
    name: "sfen",
    extensions: &[],
    description: "SFEN (the 2007 spec and the USI dialect)",
    cut: Cut::Lines,
    dialects: &[Dialect::Auto, Dialect::Sfen2007, Dialect::Usi],
    dialects_in_words: "SFEN (auto, sfen2007, usi)",
    grammar: Some(GrammarFile { path: "grammar/sfen.pest", text: crate::notation::grammar::SFEN }),
};

impl Notation for Sfen {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn title(&self, dialect: Dialect) -> &'static str {
        super::title(choice(dialect))
    }

    fn read_as(&self, dialect: Dialect) -> &'static str {
        match choice(dialect) {
            DialectChoice::Usi => "usi",
            DialectChoice::Sfen2007 => "sfen2007",
            DialectChoice::Auto => self.name(),
        }
    }

    fn rule(&self, dialect: Dialect) -> &'static str {
        match choice(dialect) {
            DialectChoice::Sfen2007 => "sfen2007_record",
            DialectChoice::Usi => "usi_record",
            DialectChoice::Auto => "record",
        }
    }

    fn shape(&self, dialect: Dialect) -> Option<&'static Shape> {
        Some(super::shape(choice(dialect)))
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        // A record without findings is read straight into its position; the others in full.
        match super::fast::clean_dialect(text, choice(dialect)) {
            Some(read_as) => (Vec::new(), Some(read_as.into())),
            None => {
                let checked = super::check(text, choice(dialect));
                (checked.diagnostics, checked.record.dialect.map(Dialect::from))
            }
        }
    }

    fn record(&self, dialect: Dialect, text: &str) -> Option<Record> {
        let checked = super::check(text, choice(dialect));
        let valid = checked.is_valid();
        Some(Record {
            read_as: checked.record.dialect.map(Dialect::from),
            position: checked.position.map(unit::Position::Shogi),
            diagnostics: checked.diagnostics,
            valid,
            operations: None,
            syntax: Box::new(checked.record),
        })
    }
}
