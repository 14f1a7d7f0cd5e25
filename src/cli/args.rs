//! The arguments every command shares: one `--format`, one `--dialect`.

use std::io::Read as _;

use kifu::format::{Format, UnknownFormat};

/// `--dialect`: the dialects of [`Format`], by name.
pub use kifu::format::Dialect as DialectArg;

/// `--format`: the formats kifu reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// SFEN (the 2007 spec and the USI dialect).
    Sfen,
    /// FEN (chess, six fields).
    Fen,
    /// EPD (chess, four fields and operations).
    Epd,
    /// JSON positions: the JSON position model, or its chess analogue.
    Json,
    /// PSN (shogi game records).
    Psn,
}

impl FormatArg {
    /// The format, in its default dialect.
    pub fn format(self) -> Format {
        match self {
            Self::Sfen => Format::Sfen(kifu::sfen::DialectChoice::Auto),
            Self::Fen => Format::Fen(kifu::fen::Dialect::Standard),
            Self::Epd => Format::Epd(kifu::fen::Dialect::Standard),
            Self::Json => Format::Json,
            Self::Psn => Format::Psn,
        }
    }
}

impl FormatArg {
    /// The format a file's extension names, if any.
    pub fn from_path(path: &str) -> Option<Self> {
        Some(match Format::from_path(path)? {
            Format::Sfen(_) => Self::Sfen,
            Format::Fen(_) => Self::Fen,
            Format::Epd(_) => Self::Epd,
            Format::Json => Self::Json,
            Format::Psn => Self::Psn,
        })
    }
}

/// The format of `path`: `--format` when given, else the one its extension names, else why
/// there is none (a format kifu does not read is named by its extension or its first lines).
pub fn format_of(format: Option<FormatArg>, path: &str) -> Result<Format, UnknownFormat> {
    if let Some(format) = format.map(FormatArg::format).or_else(|| Format::from_path(path)) {
        return Ok(format);
    }
    let mut head = Vec::new();
    if path != "-" {
        if let Ok(file) = std::fs::File::open(path) {
            // What cannot be read here is reported when the file is read.
            let _ = std::io::Read::take(file, 4096).read_to_end(&mut head);
        }
    }
    Format::for_path(path, Some(&head))
}
