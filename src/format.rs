//! The formats kifu reads, each with its dialect: one [`Format`], named on a command line
//! ([`std::str::FromStr`], [`Format::with_dialect`]) or by a file's extension
//! ([`Format::from_path`]), and the check of one line record in it ([`Format::check_text`]).

use std::fmt;
use std::str::FromStr;

use crate::diagnostic::Diagnostic;
use crate::fen;
use crate::sfen::{self, DialectChoice};

/// A format kifu reads, with its dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// SFEN records, one per line, in the given dialect(s).
    Sfen(DialectChoice),
    /// FEN records (six fields), with standard or Chess960 castling.
    Fen(fen::Dialect),
    /// EPD records (four fields and operations).
    Epd,
    /// PSN game records (each game's dialect is found from its text: see [`crate::psn`]).
    Psn,
    /// JSON positions: the JSON position model, or its chess analogue.
    Json,
}

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

impl Format {
    /// Every format, in its default dialect.
    pub const ALL: [Self; 5] =
        [Self::Sfen(DialectChoice::Auto), Self::Fen(fen::Dialect::Standard), Self::Epd, Self::Psn, Self::Json];

    /// The format a file name's extension names (`.sfen`, `.fen`, `.epd`, `.psn`, `.json`), in
    /// its default dialect.
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        Self::ALL.into_iter().find(|f| f.name() == ext)
    }

    /// The format's name, as a file's extension and `--format` write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sfen(_) => "sfen",
            Self::Fen(_) => "fen",
            Self::Epd => "epd",
            Self::Psn => "psn",
            Self::Json => "json",
        }
    }

    /// True for the formats of one record per line (SFEN, FEN, EPD).
    pub fn is_lines(self) -> bool {
        matches!(self, Self::Sfen(_) | Self::Fen(_) | Self::Epd)
    }

    /// The dialect as a command line names it; PSN and JSON have only `auto` and `standard`.
    pub fn dialect(self) -> Dialect {
        match self {
            Self::Sfen(DialectChoice::Auto) | Self::Psn => Dialect::Auto,
            Self::Sfen(DialectChoice::Sfen2007) => Dialect::Sfen2007,
            Self::Sfen(DialectChoice::Usi) => Dialect::Usi,
            Self::Fen(fen::Dialect::Chess960) => Dialect::Chess960,
            Self::Fen(fen::Dialect::Standard) | Self::Epd | Self::Json => Dialect::Standard,
        }
    }

    /// This format in `dialect`, or why they do not go together.
    pub fn with_dialect(self, dialect: Dialect) -> Result<Self, String> {
        match (self, dialect) {
            (Self::Sfen(_), Dialect::Auto) => Ok(Self::Sfen(DialectChoice::Auto)),
            (Self::Sfen(_), Dialect::Sfen2007) => Ok(Self::Sfen(DialectChoice::Sfen2007)),
            (Self::Sfen(_), Dialect::Usi) => Ok(Self::Sfen(DialectChoice::Usi)),
            (Self::Fen(_), Dialect::Standard | Dialect::Auto) => Ok(Self::Fen(fen::Dialect::Standard)),
            (Self::Fen(_), Dialect::Chess960) => Ok(Self::Fen(fen::Dialect::Chess960)),
            (Self::Epd, Dialect::Standard | Dialect::Auto) => Ok(Self::Epd),
            (Self::Psn, _) => Err(format!(
                "`--dialect {}` does not apply to PSN: each game's dialect is found from its text",
                dialect.name()
            )),
            (format, _) => Err(format!(
                "`--dialect {}` is not a dialect of {}",
                dialect.name(),
                match format {
                    Self::Sfen(_) => "SFEN (auto, sfen2007, usi)",
                    Self::Fen(_) => "FEN (standard, chess960)",
                    Self::Epd => "EPD (standard)",
                    Self::Psn | Self::Json => "JSON positions (each record's model says its game)",
                }
            )),
        }
    }

    /// What a record read in this format and dialect is counted as: `usi`, `sfen2007`, `fen`,
    /// `chess960`, `epd`, `json` (`sfen` and `psn` when the dialect is not known).
    pub fn read_as(self) -> &'static str {
        match self {
            Self::Sfen(DialectChoice::Usi) => "usi",
            Self::Sfen(DialectChoice::Sfen2007) => "sfen2007",
            Self::Fen(fen::Dialect::Chess960) => "chess960",
            other => other.name(),
        }
    }

    /// The title reports give records read as this: "USI", "SFEN 2007", "Chess960 FEN", …
    pub fn title(self) -> &'static str {
        match self {
            Self::Sfen(DialectChoice::Usi) => "USI",
            Self::Sfen(DialectChoice::Sfen2007) => "SFEN 2007",
            Self::Sfen(DialectChoice::Auto) => "SFEN",
            Self::Fen(fen::Dialect::Standard) => "FEN",
            Self::Fen(fen::Dialect::Chess960) => "Chess960 FEN",
            Self::Epd => "EPD",
            Self::Psn => "PSN",
            Self::Json => "JSON",
        }
    }

    /// Checks one record of a line format (`text`, a line without its end): its findings, and
    /// the format and dialect it was read as, when known. PSN games and JSON positions are not
    /// line records: they give nothing here (see [`crate::psn`] and [`crate::json`]).
    pub fn check_text(self, text: &str) -> (Vec<Diagnostic>, Option<Self>) {
        match self {
            Self::Sfen(choice) => {
                let checked = sfen::check(text, choice);
                let read_as = checked.record.dialect.map(|d| match d {
                    sfen::Dialect::Usi => Self::Sfen(DialectChoice::Usi),
                    sfen::Dialect::Sfen2007 => Self::Sfen(DialectChoice::Sfen2007),
                });
                (checked.diagnostics, read_as)
            }
            Self::Fen(dialect) => (fen::check(text, fen::Kind::Fen, dialect).diagnostics, Some(self)),
            Self::Epd => (fen::check(text, fen::Kind::Epd, fen::Dialect::Standard).diagnostics, Some(self)),
            Self::Psn | Self::Json => (Vec::new(), None),
        }
    }
}

impl FromStr for Format {
    type Err = String;

    /// A format by name, in its default dialect: `sfen`, `fen`, `epd`, `psn`, `json`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown format `{s}`: expected sfen, fen, epd, psn or json"))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_is_named_by_its_extension_and_its_name() {
        assert_eq!(Format::from_path("a/b.SFEN"), Some(Format::Sfen(DialectChoice::Auto)));
        assert_eq!(Format::from_path("x.json"), Some(Format::Json));
        assert_eq!(Format::from_path("x.txt"), None);
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
    }

    #[test]
    fn dialects_go_with_their_formats_only() {
        let sfen = Format::Sfen(DialectChoice::Auto);
        assert_eq!(sfen.with_dialect(Dialect::Usi), Ok(Format::Sfen(DialectChoice::Usi)));
        assert_eq!(Format::Epd.with_dialect(Dialect::Auto), Ok(Format::Epd));
        assert!(sfen.with_dialect(Dialect::Chess960).is_err());
        assert!(Format::Psn.with_dialect(Dialect::Auto).is_err());
        assert_eq!("chess960".parse::<Dialect>(), Ok(Dialect::Chess960));
    }
}
