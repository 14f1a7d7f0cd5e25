//! FEN and EPD as formats kifu reads ([`crate::format::Notation`]).

use super::{Dialect as Castling, Kind};
use crate::diagnostic::Diagnostic;
use crate::notation::foreign::Shape;
use crate::unit::{self, About, Cut, Dialect, GrammarFile, Notation, Record};

/// FEN or EPD records, one a line, with standard or Chess960 castling.
pub struct Records {
    kind: Kind,
    about: &'static About,
}

/// The dialects of FEN and EPD: their castling.
const DIALECTS: &[Dialect] = &[Dialect::Standard, Dialect::Chess960];

/// The grammar of FEN and EPD.
const GRAMMAR: Option<GrammarFile> =
    Some(GrammarFile { path: "grammar/fen.pest", text: crate::notation::grammar::FEN });

/// FEN records (six fields).
pub static FEN: Records = Records {
    kind: Kind::Fen,
    about: &About {
        name: "fen",
        extensions: &[],
        description: "FEN (chess, six fields)",
        cut: Cut::Lines,
        dialects: DIALECTS,
        dialects_in_words: "FEN (standard, chess960)",
        grammar: GRAMMAR,
    },
};

/// EPD records (four fields and operations).
pub static EPD: Records = Records {
    kind: Kind::Epd,
    about: &About {
        name: "epd",
        extensions: &[],
        description: "EPD (chess, four fields and operations)",
        cut: Cut::Lines,
        dialects: DIALECTS,
        dialects_in_words: "EPD (standard, chess960)",
        grammar: GRAMMAR,
    },
};

impl From<Castling> for Dialect {
    fn from(castling: Castling) -> Self {
        match castling {
            Castling::Standard => Self::Standard,
            Castling::Chess960 => Self::Chess960,
        }
    }
}

impl TryFrom<Dialect> for Castling {
    type Error = Dialect;

    /// The castling `dialect` names, if it names one.
    fn try_from(dialect: Dialect) -> Result<Self, Dialect> {
        match dialect {
            Dialect::Standard => Ok(Self::Standard),
            Dialect::Chess960 => Ok(Self::Chess960),
            other => Err(other),
        }
    }
}

/// The castling to read records with: standard for a dialect that is not FEN's.
fn castling(dialect: Dialect) -> Castling {
    match dialect {
        Dialect::Chess960 => Castling::Chess960,
        Dialect::Standard | Dialect::Auto | Dialect::Sfen2007 | Dialect::Usi => Castling::Standard,
    }
}

impl Notation for Records {
    fn about(&self) -> &'static About {
        self.about
    }

    fn title(&self, dialect: Dialect) -> &'static str {
        super::title(self.kind, castling(dialect))
    }

    fn read_as(&self, dialect: Dialect) -> &'static str {
        match castling(dialect) {
            Castling::Chess960 => "chess960",
            Castling::Standard => self.name(),
        }
    }

    fn rule(&self, dialect: Dialect) -> &'static str {
        match (self.kind, castling(dialect)) {
            (Kind::Fen, Castling::Chess960) => "fen960_record",
            (Kind::Fen, Castling::Standard) => "fen_record",
            (Kind::Epd, Castling::Chess960) => "epd960_record",
            (Kind::Epd, Castling::Standard) => "epd_record",
        }
    }

    fn shape(&self, dialect: Dialect) -> Option<&'static Shape> {
        Some(super::shape(self.kind, castling(dialect)))
    }

    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>) {
        let read_as = Some(castling(dialect).into());
        // A FEN record without findings is read straight from its bytes.
        if self.kind == Kind::Fen && super::fast::is_clean(text, castling(dialect)) {
            return (Vec::new(), read_as);
        }
        (super::check(text, self.kind, castling(dialect)).diagnostics, read_as)
    }

    fn record(&self, dialect: Dialect, text: &str) -> Option<Record> {
        let checked = super::check(text, self.kind, castling(dialect));
        let valid = checked.is_valid();
        let operations = match self.kind {
            Kind::Epd => Some(checked.record.operations.map_or("", |s| s.slice(text)).to_owned()),
            Kind::Fen => None,
        };
        Some(Record {
            read_as: Some(castling(dialect).into()),
            position: checked.position.map(unit::Position::Chess),
            diagnostics: checked.diagnostics,
            valid,
            operations,
            syntax: Box::new(checked.record),
        })
    }
}
