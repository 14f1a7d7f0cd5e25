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
    /// EPD records (four fields and operations), with standard or Chess960 castling.
    Epd(fen::Dialect),
    /// PSN game records (each game's dialect is found from its text: see [`crate::psn`]).
    #[cfg(feature = "psn")]
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
    pub const ALL: &[Self] = &[
        Self::Sfen(DialectChoice::Auto),
        Self::Fen(fen::Dialect::Standard),
        Self::Epd(fen::Dialect::Standard),
        #[cfg(feature = "psn")]
        Self::Psn,
        Self::Json,
    ];

    /// The format a file name's extension names (`.sfen`, `.fen`, `.epd`, `.psn`, `.json`), in
    /// its default dialect.
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        Self::ALL.iter().copied().find(|f| f.name() == ext)
    }

    /// The format's name, as a file's extension and `--format` write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sfen(_) => "sfen",
            Self::Fen(_) => "fen",
            Self::Epd(_) => "epd",
            #[cfg(feature = "psn")]
            Self::Psn => "psn",
            Self::Json => "json",
        }
    }

    /// True for the formats of one record per line (SFEN, FEN, EPD).
    pub fn is_lines(self) -> bool {
        matches!(self, Self::Sfen(_) | Self::Fen(_) | Self::Epd(_))
    }

    /// The dialect as a command line names it; PSN and JSON have only `auto` and `standard`.
    pub fn dialect(self) -> Dialect {
        match self {
            Self::Sfen(DialectChoice::Auto) => Dialect::Auto,
            #[cfg(feature = "psn")]
            Self::Psn => Dialect::Auto,
            Self::Sfen(DialectChoice::Sfen2007) => Dialect::Sfen2007,
            Self::Sfen(DialectChoice::Usi) => Dialect::Usi,
            Self::Fen(fen::Dialect::Chess960) | Self::Epd(fen::Dialect::Chess960) => Dialect::Chess960,
            Self::Fen(fen::Dialect::Standard) | Self::Epd(fen::Dialect::Standard) | Self::Json => Dialect::Standard,
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
            (Self::Epd(_), Dialect::Standard | Dialect::Auto) => Ok(Self::Epd(fen::Dialect::Standard)),
            (Self::Epd(_), Dialect::Chess960) => Ok(Self::Epd(fen::Dialect::Chess960)),
            // `auto`: each game's dialect is found from its text, as it always is.
            #[cfg(feature = "psn")]
            (Self::Psn, Dialect::Auto) => Ok(Self::Psn),
            #[cfg(feature = "psn")]
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
                    Self::Epd(_) => "EPD (standard, chess960)",
                    Self::Json => "JSON positions (each record's model says its game)",
                    #[cfg(feature = "psn")]
                    Self::Psn => "PSN (each game's dialect is found from its text)",
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
            Self::Fen(fen::Dialect::Chess960) | Self::Epd(fen::Dialect::Chess960) => "chess960",
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
            Self::Epd(fen::Dialect::Standard) => "EPD",
            Self::Epd(fen::Dialect::Chess960) => "Chess960 EPD",
            #[cfg(feature = "psn")]
            Self::Psn => "PSN",
            Self::Json => "JSON",
        }
    }

    /// Checks a text in this format, with spans into `text`: one record of a line format (a line
    /// without its end), every position of a JSON text, or every game of a PSN text (checked as
    /// [`crate::psn::Options::default`] says). Also the format and dialect it was read as, when
    /// known.
    pub fn check_text(self, text: &str) -> (Vec<Diagnostic>, Option<Self>) {
        match self {
            // A record without findings is read straight into its position; the others in full.
            Self::Sfen(choice) => match sfen::fast::clean_dialect(text, choice) {
                Some(dialect) => (Vec::new(), Some(Self::from(dialect))),
                None => {
                    let checked = sfen::check(text, choice);
                    (checked.diagnostics, checked.record.dialect.map(Self::from))
                }
            },
            Self::Fen(dialect) if fen::fast::is_clean(text, dialect) => (Vec::new(), Some(self)),
            Self::Fen(dialect) => (fen::check(text, fen::Kind::Fen, dialect).diagnostics, Some(self)),
            Self::Epd(dialect) => (fen::check(text, fen::Kind::Epd, dialect).diagnostics, Some(self)),
            Self::Json => (crate::json::check(text), Some(self)),
            #[cfg(feature = "psn")]
            Self::Psn => (crate::psn::check_text(text, crate::psn::Options::default()), Some(self)),
        }
    }
}

/// A record format kifu recognises but does not read (yet): named so that such a file gets one
/// clear report instead of a wall of syntax errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unread {
    /// KIF, the text game record most shogi programs write (`.kif`, `.kifu`).
    Kif,
    /// KI2, KIF's shorter form without move times (`.ki2`, `.ki2u`).
    Ki2,
    /// CSA, the Computer Shogi Association's game record (`.csa`).
    Csa,
    /// JKF, JSON Kifu Format (`.jkf`).
    Jkf,
    /// PGN, chess games (`.pgn`).
    Pgn,
}

impl Unread {
    /// The format a file name's extension names, if it is one of these.
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "kif" | "kifu" => Self::Kif,
            "ki2" | "ki2u" => Self::Ki2,
            "csa" => Self::Csa,
            "jkf" => Self::Jkf,
            "pgn" => Self::Pgn,
            _ => return None,
        })
    }

    /// The format the start of a text is evidently written in, if it is one of these: KIF's
    /// and KI2's Japanese header words, CSA's version line and moves, PGN's seven tags.
    pub fn from_text(text: &str) -> Option<Self> {
        let lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).take(40);
        for line in lines {
            if ["手合割：", "先手：", "後手：", "開始日時：", "棋戦："].iter().any(|w| line.starts_with(w))
            {
                return Some(if text.contains("手数----") { Self::Kif } else { Self::Ki2 });
            }
            if line.starts_with("手数----") {
                return Some(Self::Kif);
            }
            if matches!(line, "V1" | "V2" | "V2.1" | "V2.2" | "V3.0" | "PI") || line.starts_with("P1-KY") {
                return Some(Self::Csa);
            }
            if ["[Event \"", "[Site \"", "[White \"", "[Black \""].iter().any(|t| line.starts_with(t)) {
                return Some(Self::Pgn);
            }
        }
        None
    }

    /// The format's name: `KIF`, `KI2`, `CSA`, `JKF`, `PGN`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Kif => "KIF",
            Self::Ki2 => "KI2",
            Self::Csa => "CSA",
            Self::Jkf => "JKF",
            Self::Pgn => "PGN",
        }
    }

    /// What a user should know of `file` in this format: that kifu does not read it, and what to
    /// do instead.
    pub fn message(self, file: &str) -> String {
        let instead = match self {
            Self::Pgn => "kifu reads chess positions as FEN, EPD or JSON, not chess games",
            _ => "convert it to PSN (or its positions to SFEN) with a shogi program, then check that",
        };
        format!("`{file}` is a {} game record: kifu does not read {} yet; {instead}", self.name(), self.name())
    }
}

/// Why a file's format is not known: an extension kifu does not know, or a format it does not
/// read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownFormat {
    /// No extension kifu knows, and nothing in the text that says.
    Unknown(String),
    /// A format kifu recognises but does not read.
    Unread(String, Unread),
}

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown(path) if path == "-" => f.write_str(
                "standard input has no file name to tell its format: add `--format sfen` (or fen, epd, psn, json)",
            ),
            Self::Unknown(path) => write!(
                f,
                "cannot tell the format of `{path}` from its name: add `--format sfen` (or fen, epd, psn, json)"
            ),
            Self::Unread(path, unread) => f.write_str(&unread.message(path)),
        }
    }
}

impl std::error::Error for UnknownFormat {}

impl Format {
    /// The format of the file at `path` by its extension ([`Format::from_path`]), or why there is
    /// none: a format kifu does not read, named by the extension or by the start of the text
    /// (`head`, the first bytes of the file, when at hand).
    pub fn for_path(path: &str, head: Option<&[u8]>) -> Result<Self, UnknownFormat> {
        if let Some(format) = Self::from_path(path) {
            return Ok(format);
        }
        let unread = Unread::from_path(path).or_else(|| Unread::from_text(&String::from_utf8_lossy(head?)));
        Err(match unread {
            Some(u) => UnknownFormat::Unread(path.to_owned(), u),
            None => UnknownFormat::Unknown(path.to_owned()),
        })
    }
}

/// SFEN in the dialect a record was read in.
impl From<sfen::Dialect> for Format {
    fn from(dialect: sfen::Dialect) -> Self {
        match dialect {
            sfen::Dialect::Usi => Self::Sfen(DialectChoice::Usi),
            sfen::Dialect::Sfen2007 => Self::Sfen(DialectChoice::Sfen2007),
        }
    }
}

impl FromStr for Format {
    type Err = String;

    /// A format by name, in its default dialect: `sfen`, `fen`, `epd`, `psn`, `json`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
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
    fn the_formats_compile_no_automaton_of_their_own_grammars_at_run_time() {
        use crate::{fen, sfen};
        for choice in [sfen::DialectChoice::Auto, sfen::DialectChoice::Usi, sfen::DialectChoice::Sfen2007] {
            assert!(sfen::fast::automaton(choice).is_some());
        }
        for kind in [fen::Kind::Fen, fen::Kind::Epd] {
            for dialect in [fen::Dialect::Standard, fen::Dialect::Chess960] {
                assert!(fen::fast::automaton(kind, dialect).is_some());
            }
        }
        assert!(fen::fast::operations().is_some());
        assert!(sfen::build::squares().is_some() && fen::build::squares().is_some());
        assert!(crate::notation::fields::Tokens::shipped().is_some());
        #[cfg(feature = "psn")]
        assert!(!crate::psn::scan::word_rule_names().is_empty());
        let now = crate::notation::grammar::compiled_now::all();
        assert!(now.is_empty(), "compiled at run time, not when kifu was built (add them to SHIPPED): {now:?}");
    }

    #[test]
    fn a_format_is_named_by_its_extension_and_its_name() {
        assert_eq!(Format::from_path("a/b.SFEN"), Some(Format::Sfen(DialectChoice::Auto)));
        assert_eq!(Format::from_path("x.json"), Some(Format::Json));
        assert_eq!(Format::from_path("x.txt"), None);
        for &f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
    }

    #[test]
    fn dialects_go_with_their_formats_only() {
        let sfen = Format::Sfen(DialectChoice::Auto);
        assert_eq!(sfen.with_dialect(Dialect::Usi), Ok(Format::Sfen(DialectChoice::Usi)));
        let epd = Format::Epd(fen::Dialect::Standard);
        assert_eq!(epd.with_dialect(Dialect::Auto), Ok(epd));
        assert_eq!(epd.with_dialect(Dialect::Chess960), Ok(Format::Epd(fen::Dialect::Chess960)));
        assert!(epd.with_dialect(Dialect::Usi).is_err());
        assert!(sfen.with_dialect(Dialect::Chess960).is_err());
        #[cfg(feature = "psn")]
        {
            assert_eq!(Format::Psn.with_dialect(Dialect::Auto), Ok(Format::Psn));
            assert!(Format::Psn.with_dialect(Dialect::Usi).is_err());
        }
        assert_eq!("chess960".parse::<Dialect>(), Ok(Dialect::Chess960));
    }

    #[test]
    fn every_format_checks_a_text() {
        let (d, read_as) = Format::Sfen(DialectChoice::Auto)
            .check_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        assert!(d.is_empty());
        assert_eq!(read_as, Some(Format::Sfen(DialectChoice::Usi)));
        let json = r#"{"pieces":{"5a":"k"},"turn":"white","hand":{}} [{"pieces":{"e1":"K","e8":"k"},"turn":"w"}, 7]"#;
        let (d, read_as) = Format::Json.check_text(json);
        assert_eq!(read_as, Some(Format::Json));
        assert!(!d.is_empty(), "the number 7 is not a position");
        assert!(d.iter().all(|d| d.span().end <= json.len()));
        assert!(d.iter().any(|d| d.span().slice(json) == "7"), "{d:?}");
    }

    #[cfg(feature = "psn")]
    #[test]
    fn a_psn_text_is_checked_game_by_game_with_spans_into_the_text() {
        let text = "[Sente \"A\"]\n1. P7f P3d 1-0\n\n[Sente \"B\"]\n1. P7f P7f 1-0\n";
        let (d, read_as) = Format::Psn.check_text(text);
        assert_eq!(read_as, Some(Format::Psn));
        let errors: Vec<_> = d.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{d:?}");
        let at = errors[0].span().start;
        assert!(at > text.find("\"B\"").unwrap(), "the second game's fault, in the whole text: {errors:?}");
        assert_eq!(errors[0].span().slice(text), "P7f");
    }

    #[test]
    fn formats_kifu_does_not_read_are_named() {
        assert_eq!(Unread::from_path("game.KIF"), Some(Unread::Kif));
        assert_eq!(Unread::from_path("game.csa"), Some(Unread::Csa));
        assert_eq!(Unread::from_path("game.psn"), None);
        assert_eq!(
            Unread::from_text("# KIF\n開始日時：2020/01/01\n手数----指手---------消費時間--\n"),
            Some(Unread::Kif)
        );
        assert_eq!(Unread::from_text("先手：A\n後手：B\n▲７六歩 △３四歩\n"), Some(Unread::Ki2));
        assert_eq!(Unread::from_text("'comment\nV2.2\nN+A\nPI\n+\n+7776FU\n"), Some(Unread::Csa));
        assert_eq!(Unread::from_text("[Event \"x\"]\n1. e4 e5\n"), Some(Unread::Pgn));
        assert_eq!(Unread::from_text("[Sente \"A\"]\n1. P7f\n"), None, "PSN is not PGN");
        assert_eq!(Format::for_path("a.sfen", None), Ok(Format::Sfen(DialectChoice::Auto)));
        let kif = Format::for_path("game.kif", None).unwrap_err();
        assert!(kif.to_string().contains("kifu does not read KIF yet"), "{kif}");
        let sniffed = Format::for_path("game.txt", Some("V2.2\nPI\n".as_bytes())).unwrap_err();
        assert_eq!(sniffed, UnknownFormat::Unread("game.txt".into(), Unread::Csa));
        let unknown = Format::for_path("game.txt", Some(b"hello")).unwrap_err();
        assert!(unknown.to_string().starts_with("cannot tell the format of `game.txt`"));
    }
}
