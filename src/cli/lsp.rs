//! `kifu lsp`: the language server of [`crate::lsp`] on standard input and output.

use std::io;
use std::process::ExitCode;

use crate::cli::output;

#[derive(clap::Args, Debug)]
pub(crate) struct LspArgs {
    /// Read and write the protocol on standard input and output (the only way, and the default:
    /// editors pass it).
    #[arg(long)]
    stdio: bool,
}

/// `kifu lsp`: serves until the editor says to exit. The status is 0 when the editor asked it
/// to shut down first, and 1 when it did not (as the protocol says of the `exit` notification).
pub(crate) fn run(_: &LspArgs) -> ExitCode {
    match crate::lsp::serve(io::stdin(), io::stdout(), |m| output::message(m)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            output::message(format_args!("kifu lsp: {e}"));
            ExitCode::from(2)
        }
    }
}
