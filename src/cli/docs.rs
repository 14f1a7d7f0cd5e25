//! `kifu completions SHELL` and `kifu man [COMMAND]`: shell completions and the manual pages,
//! written from the same argument definitions as `--help`, so they never fall behind it.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::cli::output;

/// `kifu completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    shell: clap_complete::Shell,
}

/// Writes the completion script of `args.shell` on standard output.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut crate::cli::Cli::command(), "kifu", &mut script);
    write(&script)
}

/// `kifu man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print (`kifu man check > kifu-check.1`); without it, kifu's
    /// own page, which lists the commands.
    command: Option<String>,
}

/// Writes a manual page (roff, section 1) on standard output: kifu's, or a command's.
pub fn man(args: &ManArgs) -> ExitCode {
    let mut cli = crate::cli::Cli::command().disable_help_subcommand(true);
    cli.build();
    let command = match &args.command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(command) => command.clone(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).collect();
                output::err(format_args!("kifu: no command `{name}`: kifu has {}\n", names.join(", ")));
                return ExitCode::from(2);
            }
        },
    };
    let mut page = Vec::new();
    let source = format!("kifu {}", env!("CARGO_PKG_VERSION"));
    match clap_mangen::Man::new(command).source(source).render(&mut page) {
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
