//! The formats kifu reads, each with its dialect: one [`Format`], named on a command line
//! ([`std::str::FromStr`], [`Format::with_dialect`]) or by a file's extension
//! ([`Format::from_path`]), and the check of a text in it ([`Format::check_text`]).
//!
//! What a format provides is a [`Notation`], implemented in the format's own folder;
//! [`Format::parts`] is the registry that lists them, and the only place that tells the formats
//! apart. Everything else asks the format's notation, or how its texts are cut ([`Cut`]).

use std::fmt;
use std::str::FromStr;

use crate::diagnostic::Diagnostic;
use crate::fen;
pub use crate::notation::foreign::{Looks, Unread};
use crate::sfen::{self, DialectChoice};

pub use crate::unit::{About, Cut, Dialect, GrammarFile, Notation, Position, Record};

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
    /// KIF game records, one a file (`.kif` in Shift_JIS, `.kifu` in UTF-8).
    #[cfg(feature = "psn")]
    Kif,
    /// CSA game records, one or more a file (`.csa`).
    #[cfg(feature = "psn")]
    Csa,
    /// JKF game records, one a file (`.jkf`).
    #[cfg(feature = "psn")]
    Jkf,
}

impl Format {
    /// Every format, in its default dialect.
    pub const ALL: &[Self] = &[
        Self::Sfen(DialectChoice::Auto),
        Self::Fen(fen::Dialect::Standard),
        Self::Epd(fen::Dialect::Standard),
        Self::Json,
        #[cfg(feature = "psn")]
        Self::Psn,
        #[cfg(feature = "psn")]
        Self::Kif,
        #[cfg(feature = "psn")]
        Self::Csa,
        #[cfg(feature = "psn")]
        Self::Jkf,
    ];

    /// The registry: what the format provides, and its dialect as a command line names it (PSN
    /// and JSON have only `auto` and `standard`). A format is a folder and a row here.
    pub fn parts(self) -> (&'static dyn Notation, Dialect) {
        match self {
            Self::Sfen(choice) => (&sfen::notation::Sfen, choice.into()),
            Self::Fen(dialect) => (&fen::notation::FEN, dialect.into()),
            Self::Epd(dialect) => (&fen::notation::EPD, dialect.into()),
            #[cfg(feature = "psn")]
            Self::Psn => (&crate::psn::notation::Psn, Dialect::Auto),
            Self::Json => (&crate::json::notation::Json, Dialect::Standard),
            #[cfg(feature = "psn")]
            Self::Kif => (&crate::kif::notation::Kif, Dialect::Auto),
            #[cfg(feature = "psn")]
            Self::Csa => (&crate::csa::notation::Csa, Dialect::Auto),
            #[cfg(feature = "psn")]
            Self::Jkf => (&crate::jkf::notation::Jkf, Dialect::Auto),
        }
    }

    /// What the format provides.
    pub fn notation(self) -> &'static dyn Notation {
        self.parts().0
    }

    /// The dialect as a command line names it; PSN and JSON have only `auto` and `standard`.
    pub fn dialect(self) -> Dialect {
        self.parts().1
    }

    /// The format a file name's extension names (`.sfen`, `.fen`, `.epd`, `.psn`, `.json`,
    /// `.kif`, `.kifu`), in its default dialect.
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        Self::ALL.iter().copied().find(|f| f.name() == ext || f.notation().about().extensions.contains(&ext.as_str()))
    }

    /// The format's name, as a file's extension and `--format` write it.
    pub fn name(self) -> &'static str {
        self.notation().name()
    }

    /// How a text in this format is cut into what is checked.
    pub fn cut(self) -> Cut {
        self.notation().cut()
    }

    /// What a line of this line format looks like instead of a record, when no slip of one
    /// explains it (`crate::notation::foreign`); `None` for a record with faults, and for PSN
    /// and JSON.
    pub fn not_a_record(self, text: &str) -> Option<Looks> {
        crate::notation::foreign::line(text, self.shape()?)
    }

    /// The report of a line of this line format that `looks` like something else; with `lines`,
    /// the report for a file whose first `lines` lines are all such, which stands for all of
    /// them.
    pub fn not_a_record_report(self, text: &str, looks: Looks, lines: Option<usize>) -> Option<Diagnostic> {
        Some(crate::notation::foreign::report(text, self.shape()?, looks, lines))
    }

    fn shape(self) -> Option<&'static crate::notation::foreign::Shape> {
        let (notation, dialect) = self.parts();
        notation.shape(dialect)
    }

    /// True for the formats of one record per line (SFEN, FEN, EPD).
    pub fn is_lines(self) -> bool {
        self.cut() == Cut::Lines
    }

    /// This format in `dialect`, or why they do not go together (`auto` names each format's
    /// default).
    pub fn with_dialect(self, dialect: Dialect) -> Result<Self, String> {
        let notation = self.notation();
        let named = dialect == Dialect::Auto || notation.dialects().contains(&dialect);
        named.then(|| self.in_dialect(dialect)).flatten().ok_or_else(|| notation.no_such_dialect(dialect))
    }

    /// The registry's other direction: this format in `dialect`, when it has it (`auto` is the
    /// default of FEN and EPD; JSON positions are read as `standard`).
    fn in_dialect(self, dialect: Dialect) -> Option<Self> {
        match (self, dialect) {
            (Self::Sfen(_), Dialect::Auto) => Some(Self::Sfen(DialectChoice::Auto)),
            (Self::Sfen(_), Dialect::Sfen2007) => Some(Self::Sfen(DialectChoice::Sfen2007)),
            (Self::Sfen(_), Dialect::Usi) => Some(Self::Sfen(DialectChoice::Usi)),
            (Self::Fen(_), Dialect::Standard | Dialect::Auto) => Some(Self::Fen(fen::Dialect::Standard)),
            (Self::Fen(_), Dialect::Chess960) => Some(Self::Fen(fen::Dialect::Chess960)),
            (Self::Epd(_), Dialect::Standard | Dialect::Auto) => Some(Self::Epd(fen::Dialect::Standard)),
            (Self::Epd(_), Dialect::Chess960) => Some(Self::Epd(fen::Dialect::Chess960)),
            #[cfg(feature = "psn")]
            (Self::Psn, Dialect::Auto) => Some(Self::Psn),
            #[cfg(feature = "psn")]
            (Self::Kif, Dialect::Auto) => Some(Self::Kif),
            #[cfg(feature = "psn")]
            (Self::Csa, Dialect::Auto) => Some(Self::Csa),
            #[cfg(feature = "psn")]
            (Self::Jkf, Dialect::Auto) => Some(Self::Jkf),
            (Self::Json, Dialect::Standard) => Some(Self::Json),
            _ => None,
        }
    }

    /// What a record read in this format and dialect is counted as: `usi`, `sfen2007`, `fen`,
    /// `chess960`, `epd`, `json` (`sfen` and `psn` when the dialect is not known).
    pub fn read_as(self) -> &'static str {
        let (notation, dialect) = self.parts();
        notation.read_as(dialect)
    }

    /// The title reports give records read as this: "USI", "SFEN 2007", "Chess960 FEN", …
    pub fn title(self) -> &'static str {
        let (notation, dialect) = self.parts();
        notation.title(dialect)
    }

    /// kifu's grammar of this format; `None` for JSON positions, which have none.
    pub fn grammar(self) -> Option<GrammarFile> {
        self.notation().grammar()
    }

    /// The rule of the format's grammar its records are read with, in its dialect.
    pub fn rule(self) -> &'static str {
        let (notation, dialect) = self.parts();
        notation.rule(dialect)
    }

    /// Checks a text in this format, with spans into `text`: one record of a line format (a line
    /// without its end), every position of a JSON text, or every game of a PSN text (checked as
    /// [`crate::psn::Options::default`] says). Also the format and dialect it was read as, when
    /// known.
    pub fn check_text(self, text: &str) -> (Vec<Diagnostic>, Option<Self>) {
        let (notation, dialect) = self.parts();
        let (diagnostics, read_as) = notation.check_text(dialect, text);
        (diagnostics, self.read_in(read_as))
    }

    /// One record of a line format, read and checked in this format's dialect; `None` for the
    /// formats not cut into lines.
    pub fn record(self, text: &str) -> Option<Record> {
        let (notation, dialect) = self.parts();
        notation.record(dialect, text)
    }

    /// This format in the dialect a record of it was read in ([`Record::read_as`]).
    pub fn read_in(self, dialect: Option<Dialect>) -> Option<Self> {
        self.in_dialect(dialect?)
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
        // A KIF record under another name is read as KIF.
        #[cfg(feature = "psn")]
        if head.is_some_and(|h| crate::notation::foreign::is_kif(&crate::kif::decode_head(h))) {
            return Ok(Self::Kif);
        }
        // A CSA record under another name is read as CSA.
        #[cfg(feature = "psn")]
        if head.is_some_and(|h| crate::notation::foreign::is_csa(&crate::kif::decode_head(h))) {
            return Ok(Self::Csa);
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
            .ok_or_else(|| format!("unknown format `{s}`: expected sfen, fen, epd, psn, json, kif, csa or jkf"))
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
        assert_eq!(Unread::from_path("game.KI2"), None, "KI2 is read");
        assert_eq!(Unread::from_path("game.csa"), None, "CSA is read");
        assert_eq!(Unread::from_path("game.psn"), None);
        assert_eq!(Unread::from_text("# KIF\n開始日時：2020/01/01\n手数----指手---------消費時間--\n"), None);
        assert_eq!(Unread::from_text("先手：A\n後手：B\n▲７六歩 △３四歩\n"), None, "KI2 is read");
        assert_eq!(Unread::from_text("'comment\nV2.2\nN+A\nPI\n+\n+7776FU\n"), None, "CSA is read");
        assert_eq!(Unread::from_text("[Event \"x\"]\n1. e4 e5\n"), Some(Unread::Pgn));
        assert_eq!(Unread::from_text("[Sente \"A\"]\n1. P7f\n"), None, "PSN is not PGN");
        assert_eq!(Format::for_path("a.sfen", None), Ok(Format::Sfen(DialectChoice::Auto)));
        let pgn = Format::for_path("game.pgn", None).unwrap_err();
        assert!(pgn.to_string().contains("kifu does not read PGN yet"), "{pgn}");
        #[cfg(feature = "psn")]
        {
            assert_eq!(Format::for_path("game.csa", None), Ok(Format::Csa));
            assert_eq!(Format::for_path("game.jkf", None), Ok(Format::Jkf));
            assert_eq!(
                Format::for_path("game.txt", Some("V2.2\nPI\n".as_bytes())),
                Ok(Format::Csa),
                "told by its content"
            );
            assert_eq!(Format::for_path("game.kif", None), Ok(Format::Kif));
            assert_eq!(Format::for_path("game.kifu", None), Ok(Format::Kif));
            assert_eq!(Format::for_path("game.KI2", None), Ok(Format::Kif));
            assert_eq!(Format::for_path("game.ki2u", None), Ok(Format::Kif));
            assert_eq!(Format::for_path("game.txt", Some("先手：A\n▲７六歩 △３四歩\n".as_bytes())), Ok(Format::Kif));
            let sjis = encoding_rs::SHIFT_JIS.encode("手合割：平手\n   1 ７六歩(77)\n").0.into_owned();
            assert_eq!(Format::for_path("game.txt", Some(&sjis)), Ok(Format::Kif), "told by its content");
        }
        let sniffed = Format::for_path("game.txt", Some("[Event \"x\"]\n1. e4 e5\n".as_bytes())).unwrap_err();
        assert_eq!(sniffed, UnknownFormat::Unread("game.txt".into(), Unread::Pgn));
        let unknown = Format::for_path("game.txt", Some(b"hello")).unwrap_err();
        assert!(unknown.to_string().starts_with("cannot tell the format of `game.txt`"));
    }

    const SFEN: Format = Format::Sfen(DialectChoice::Auto);
    const FEN: Format = Format::Fen(fen::Dialect::Standard);
    const EPD: Format = Format::Epd(fen::Dialect::Standard);

    #[test]
    fn lines_that_are_not_records_are_named() {
        let cases: &[(Format, &str, Option<Looks>)] = &[
            (SFEN, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", Some(Looks::Fen)),
            (SFEN, "8/8/4k3/8/8/4K3/8/8 w - - 0 1", Some(Looks::Fen)),
            (SFEN, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", Some(Looks::Fen)),
            (SFEN, "8/8/4k3/8/8/4K3/8/8 w - -", Some(Looks::Epd)),
            (SFEN, "8/8/4k3/8/8/4K3/8/8 w - - bm Kd2;", Some(Looks::Epd)),
            (FEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Some(Looks::Sfen)),
            (EPD, "9/9/9/9/4k4/9/9/9/4K4 b - 1", Some(Looks::Sfen)),
            (SFEN, "hello world, this is not a record at all", Some(Looks::Text)),
            (SFEN, "go btime 1000 wtime 1000", Some(Looks::Usi)),
            (SFEN, "position startpos moves 7g7f 3c3d", Some(Looks::Usi)),
            (SFEN, "+7776FU", Some(Looks::Csa)),
            (SFEN, "PI", Some(Looks::Csa)),
            (SFEN, "%TORYO", Some(Looks::Csa)),
            (SFEN, "１ ７六歩(77)   ( 0:00/00:00:00)", Some(Looks::Kif)),
            (SFEN, "手合割：平手", Some(Looks::Kif)),
            (SFEN, "▲７六歩 △３四歩", Some(Looks::Kif)),
            (SFEN, r#"{"color":0,"pieces":{}}"#, Some(Looks::Json)),
            (SFEN, "1. P7g-7f P3c-3d", Some(Looks::Psn)),
            (SFEN, "[Sente \"Habu\"]", Some(Looks::Psn)),
            (FEN, "1. e4 e5 2. Nf3 Nc6", Some(Looks::Unread(Unread::Pgn))),
            (FEN, "[Event \"x\"]", Some(Looks::Unread(Unread::Pgn))),
            (FEN, "rnbqkbnr,pppppppp,8,8,8,8,PPPPPPPP,RNBQKBNR w KQkq - 0 1", None),
            (SFEN, "12345", None),
            (SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", None),
            (SFEN, "lnsgkgsnl/1r5b1/ppp", None),
            (SFEN, "lnsgkgsnl 1r5b1 ppppppppp 9 9 9 PPPPPPPPP 1B5R1 LNSGKGSNL b - 1", None),
            (SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 and a comment after", None),
            (SFEN, "1. lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", None),
            (SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL 先手 - 1", None),
            (SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL white - 1", None),
            (SFEN, "ｌｎｓｇｋｇｓｎｌ/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", None),
            (SFEN, "b - 1", None),
            (SFEN, "startpos", None),
            (SFEN, "position startpos", None),
            (SFEN, "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f", None),
            (SFEN, "", None),
            (FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; a comment", None),
            (EPD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";", None),
            (Format::Json, "hello", None),
        ];
        for &(format, text, want) in cases {
            assert_eq!(format.not_a_record(text), want, "{text:?} read as {format}");
        }
    }

    #[test]
    fn the_report_of_a_line_that_is_not_a_record_names_what_it_is_and_the_flag() {
        let text = "  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ";
        let (d, _) = SFEN.check_text(text);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].code, crate::diagnostic::codes::sfen::NOT_A_RECORD);
        assert_eq!(d[0].message, "this line is not an SFEN record: it looks like a chess FEN");
        assert_eq!(d[0].span(), crate::span::Span::new(2, 61));
        assert!(d[0].help.as_deref().is_some_and(|h| h.contains("`--format fen`")), "{:?}", d[0].help);
        let (d, _) = EPD.check_text("hello world, this is not a record at all");
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].code, crate::diagnostic::codes::fen::NOT_A_RECORD);
        assert_eq!(d[0].message, "this line is not an EPD record");
        let (d, _) = Format::Sfen(DialectChoice::Usi).check_text("go ponder");
        assert_eq!(d[0].message, "this line is not a USI record: it looks like a USI command");
    }
}
