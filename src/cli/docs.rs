//! `kifu completions SHELL` and `kifu man`: shell completions and the manual page, written from
//! the same argument definitions as `--help`, so they never fall behind it.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::output;

/// `kifu completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    shell: clap_complete::Shell,
}

/// Writes the completion script of `args.shell` on standard output.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut crate::Cli::command(), "kifu", &mut script);
    write(&script)
}

/// Writes the manual page (roff, section 1) on standard output.
pub fn man() -> ExitCode {
    let mut page = Vec::new();
    match clap_mangen::Man::new(crate::Cli::command()).render(&mut page) {
        Ok(()) => write(&page),
        Err(e) => {
            output::err(format_args!("kifu: cannot write the manual page: {e}\n"));
            ExitCode::from(2)
        }
    }
}

fn write(bytes: &[u8]) -> ExitCode {
    // A write error is kept and reported by `output::exit`.
    let _ = output::Stdout.write_all(bytes);
    ExitCode::SUCCESS
}
