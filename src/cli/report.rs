//! How findings are shown: the colour theme and width, built in one place, and the exit status
//! of every command that reads records.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use miette::{GraphicalReportHandler, GraphicalTheme};

/// Where reports are written, which decides whether colour is used under `--color auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output (`kifu check`).
    Stdout,
    /// Standard error (the commands whose standard output is data).
    Stderr,
}

impl Stream {
    fn is_terminal(self) -> bool {
        match self {
            Self::Stdout => io::stdout().is_terminal(),
            Self::Stderr => io::stderr().is_terminal(),
        }
    }
}

/// The renderer of human reports on `stream`: coloured when `color` says so (`None`: when the
/// stream is a terminal and NO_COLOR is unset), `width` columns wide.
pub fn handler(stream: Stream, color: Option<bool>, width: usize) -> GraphicalReportHandler {
    let color =
        color.unwrap_or_else(|| std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal());
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    GraphicalReportHandler::new_themed(theme).with_width(width)
}

/// The exit status of the commands that read records: 2 for a usage or I/O error, 1 when a
/// record is invalid (or, for the playground, when a verdict or tree changed), 0 otherwise.
pub fn exit_code(failed: bool, invalid: bool) -> ExitCode {
    if failed {
        ExitCode::from(2)
    } else if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
