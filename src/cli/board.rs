//! `kifu board`: each valid record's board on standard output, findings on standard error.

use std::process::ExitCode;

use crate::cli::args::DialectArg;
use crate::cli::positions;

#[derive(clap::Args, Debug)]
pub(crate) struct BoardArgs {
    /// Files to read: positions (`.fen`, `.epd`, `.sfen`, `.json`), PSN games, KIF and KI2
    /// records; `-` or nothing reads standard input (as FEN, unless `--format` says otherwise).
    paths: Vec<String>,
    /// The records' dialect: FEN `standard` or `chess960` castling; SFEN `auto`, `sfen2007` or `usi`.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    #[command(flatten)]
    views: positions::ViewArgs,
}

/// `kifu board`: each valid record's board on standard output, findings on standard error.
pub(crate) fn run(args: &BoardArgs) -> ExitCode {
    positions::run_board(&args.paths, args.dialect, &args.views)
}
