//! The arguments every command shares: one `--format`, one `--dialect`.

use std::io::Read as _;

use crate::format::{Format, UnknownFormat};

/// `--dialect`: the dialects of [`Format`], by name.
pub use crate::format::Dialect as DialectArg;

/// `--format`: the formats kifu reads, each in its default dialect, named as the registry of
/// formats names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatArg(Format);

impl FormatArg {
    /// The format, in its default dialect.
    pub fn format(self) -> Format {
        self.0
    }

    /// The format a file's extension names, if any.
    pub fn from_path(path: &str) -> Option<Self> {
        Format::from_path(path).map(Self)
    }
}

impl clap::ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::LazyLock<Vec<FormatArg>> =
            std::sync::LazyLock::new(|| Format::ALL.iter().copied().map(FormatArg).collect());
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.notation().description()))
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

/// How every command reports findings: `--output-format` and `--color`, taken before or after
/// the command's name.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ReportArgs {
    /// How to print findings: `human` reports; `json`, one object per line; `sarif`, one SARIF
    /// 2.1.0 log (`kifu check`: code scanning, editors); `github`, GitHub Actions annotations.
    #[arg(long = "output-format", visible_alias = "message-format", value_name = "FORMAT", value_enum, default_value_t = MessageFormat::Human, global = true)]
    pub message_format: MessageFormat,
    /// When to use colours in human reports (NO_COLOR is respected under `auto`).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
}

/// `--message-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    // Reports for people: the record, the characters at fault, help.
    #[default]
    Human,
    // One JSON object per finding, for programs.
    Json,
    // A SARIF 2.1.0 log.
    Sarif,
    // GitHub Actions workflow commands, one per finding.
    Github,
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    // When the reports go to a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// `Some(true)` or `Some(false)` when chosen, `None` for `auto`.
    pub fn chosen(self) -> Option<bool> {
        match self {
            Self::Always => Some(true),
            Self::Never => Some(false),
            Self::Auto => None,
        }
    }
}
