//! A format as one unit: what a format provides, one implementation in each format's folder
//! ([`crate::sfen`], [`crate::fen`] for FEN and EPD, [`crate::psn`], [`crate::json`]), listed
//! once in [`crate::format::Format::parts`]: its names, dialects and titles, how a text is cut into what is
//! checked, its grammar and the rule its records are read with, the check of a text, and for
//! the formats of one record a line, the record read into its position.

use std::fmt;
use std::str::FromStr;

use crate::diagnostic::Diagnostic;
use crate::input::decode::{Decoded, Encoding};
use crate::notation::foreign::Shape;

/// A dialect as a command line names it (`--dialect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Dialect {
    /// SFEN: either dialect, by the side letter.
    Auto,
    /// SFEN spec 0.0.1 (2007): `B`/`W`, move numbers 1-99.
    Sfen2007,
    /// SFEN as USI writes it: `b`/`w`, any move number.
    Usi,
    /// FEN with `KQkq` castling.
    Standard,
    /// FEN with Chess960 castling (Shredder-FEN and X-FEN letters).
    Chess960,
}

impl Dialect {
    /// The dialect's name on a command line: `auto`, `sfen2007`, `usi`, `standard`, `chess960`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Sfen2007 => "sfen2007",
            Self::Usi => "usi",
            Self::Standard => "standard",
            Self::Chess960 => "chess960",
        }
    }
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Self::Auto, Self::Sfen2007, Self::Usi, Self::Standard, Self::Chess960]
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| format!("unknown dialect `{s}`: expected auto, sfen2007, usi, standard or chess960"))
    }
}

/// How a text of a format is cut into what is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cut {
    /// One record a line (SFEN, FEN, EPD).
    Lines,
    /// Game records of several lines each, found where each starts (PSN).
    Games,
    /// JSON values, each a position or an array of them.
    Values,
    /// One game record a file (KIF).
    Record,
}

/// A position of either game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A shogi position.
    Shogi(crate::shogi::Position),
    /// A chess position.
    Chess(crate::chess::Position),
}

/// One record of a format of one record a line, read and checked.
#[derive(Debug)]
pub struct Record {
    /// Its findings, with spans into its text.
    pub diagnostics: Vec<Diagnostic>,
    /// The dialect it was read in, when known.
    pub read_as: Option<Dialect>,
    /// Its position, when its syntax reads (it may still break the rules: see `valid`).
    pub position: Option<Position>,
    /// True when no finding is an error.
    pub valid: bool,
    /// An EPD record's operations as written (`None` for a format without them).
    pub operations: Option<String>,
    /// Its syntax tree, for `{:?}` and `{:#?}`.
    pub syntax: Box<dyn fmt::Debug + Send>,
}

/// A grammar kifu ships: its file in the repository and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrammarFile {
    /// Its path in the repository (`grammar/sfen.pest`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

/// What a format is, said once: its name, how its texts are cut, its dialects and its grammar.
#[derive(Clone, Copy, Debug)]
pub struct About {
    /// The format's name, as a file's extension and `--format` write it.
    pub name: &'static str,
    /// The other extensions of its files (`kifu` for KIF in UTF-8).
    pub extensions: &'static [&'static str],
    /// The format in a few words, as `--format`'s help lists it.
    pub description: &'static str,
    /// How a text in the format is cut into what is checked.
    pub cut: Cut,
    /// The dialects `--dialect` may name for it, its default first.
    pub dialects: &'static [Dialect],
    /// The format and its dialects in words, for a `--dialect` that is not one of them: "SFEN
    /// (auto, sfen2007, usi)".
    pub dialects_in_words: &'static str,
    /// kifu's grammar of the format; `None` for JSON positions, which have none.
    pub grammar: Option<GrammarFile>,
}

/// What a format provides. Each format's folder implements it; [`crate::format::Format::parts`]
/// lists them.
pub trait Notation: Sync {
    /// What the format is ([`About`]).
    fn about(&self) -> &'static About;

    /// The format's name, as a file's extension and `--format` write it.
    fn name(&self) -> &'static str {
        self.about().name
    }

    /// The format in a few words, as `--format`'s help lists it.
    fn description(&self) -> &'static str {
        self.about().description
    }

    /// How a text in the format is cut into what is checked.
    fn cut(&self) -> Cut {
        self.about().cut
    }

    /// The dialects `--dialect` may name for it, its default first.
    fn dialects(&self) -> &'static [Dialect] {
        self.about().dialects
    }

    /// The format and its dialects in words, for a `--dialect` that is not one of them: "SFEN
    /// (auto, sfen2007, usi)".
    fn dialects_in_words(&self) -> &'static str {
        self.about().dialects_in_words
    }

    /// Why `--dialect` cannot name `dialect` for this format, a dialect it does not have.
    fn no_such_dialect(&self, dialect: Dialect) -> String {
        format!("`--dialect {}` is not a dialect of {}", dialect.name(), self.dialects_in_words())
    }

    /// The title reports give records read in `dialect`: "USI", "SFEN 2007", "Chess960 FEN", …
    fn title(&self, dialect: Dialect) -> &'static str;

    /// What a record read in `dialect` is counted as: `usi`, `sfen2007`, `fen`, `chess960`,
    /// `epd`, `json` (`sfen` and `psn` when the dialect is not known).
    fn read_as(&self, dialect: Dialect) -> &'static str {
        let _ = dialect;
        self.name()
    }

    /// kifu's grammar of the format; `None` for JSON positions, which have none.
    fn grammar(&self) -> Option<GrammarFile> {
        self.about().grammar
    }

    /// The rule of [`Notation::grammar`] its records are read with in `dialect`.
    fn rule(&self, dialect: Dialect) -> &'static str;

    /// What a line of the format looks like when it is a record, to tell a line that is not
    /// one (`crate::notation::foreign`); `None` for the formats not cut into lines.
    fn shape(&self, dialect: Dialect) -> Option<&'static Shape> {
        let _ = dialect;
        None
    }

    /// Checks a text in `dialect`, with spans into `text`: one record of a line format (a line
    /// without its end), every position of a JSON text, or every game of a PSN text. Also the
    /// dialect it was read in, when known.
    fn check_text(&self, dialect: Dialect, text: &str) -> (Vec<Diagnostic>, Option<Dialect>);

    /// One record of a line format, read and checked in `dialect`; `None` for the formats not
    /// cut into lines.
    fn record(&self, dialect: Dialect, text: &str) -> Option<Record> {
        let _ = (dialect, text);
        None
    }

    /// The text of a file's bytes, in the encoding the format's files are read in.
    fn decode(&self, bytes: &[u8]) -> Decoded {
        crate::input::decode::decode_records(bytes)
    }

    /// The warning of a file whose `text`, read in `encoding`, names another encoding on the
    /// line that says which it is in (`#KIF … encoding=`, `'CSA encoding=`), with its fix;
    /// `None` for the formats that name none.
    fn encoding_finding(&self, text: &str, encoding: Encoding) -> Option<Diagnostic> {
        let _ = (text, encoding);
        None
    }
}
