//! The `kifu` command-line tool, run by `src/main.rs` through [`crate::run_cli`].

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod args;
mod board;
mod check;
mod conformance;
mod convert;
mod docs;
mod explain;
mod fix;
mod games;
mod grammar;
mod input;
mod json;
mod lsp;
mod output;
mod playground;
mod pool;
mod positions;
mod report;
mod select;
mod tree;
mod watch;

/// kifu: parses, validates and explains board-game notations (SFEN, FEN, EPD, PSN).
#[derive(Parser, Debug)]
#[command(name = "kifu", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    report: args::ReportArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check records and report every fault, with its place and a fix.
    ///
    /// One record per line; LF, CRLF and CR line ends; blank lines are skipped. Exit status: 0
    /// when every record is valid (warnings allowed), 1 when one is invalid, 2 for a usage or
    /// I/O error (a file named that cannot be read; one found in a folder in a format kifu
    /// does not read is a warning).
    Check(check::CheckArgs),
    /// Print each record as JSON, one object per line: PSN games, or positions.
    ///
    /// Positions (`.sfen`, `.fen`, `.epd`, `.json`) print the JSON position model, or its chess analogue;
    /// `--json-style keyed` writes hands as objects.
    Json(json::JsonArgs),
    /// Convert records: games to any game format (`--to psn`, `kif`, `ki2`, `csa`, `jkf`, `usi`),
    /// positions (JSON, SFEN) `--to sfen`.
    ///
    /// Games of PSN, KIF, KI2, CSA and JKF files are written in the form `--to` names, on
    /// standard output or in files of their own (`--output-dir`); what the form cannot hold is
    /// named in a warning. `--to sfen` writes positions as USI SFEN.
    Convert(convert::ConvertArgs),
    /// Print each record's parse tree: rule, place (line:column) and text, indented.
    ///
    /// `--grammar FILE` runs an edited `.pest` grammar instead of kifu's; `--ast` prints kifu's
    /// typed syntax tree, each span as the places it covers (line:column-line:column). Exit status: 0 when every record parsed, 1 when one was rejected, 2 for
    /// a broken grammar or a usage error.
    Tree(tree::TreeArgs),
    /// Work on grammars: `diff` two over a corpus, draw a `railroad` diagram, print `ebnf`.
    Grammar(grammar::GrammarArgs),
    /// Score another validator against the conformance suite (`conformance/`).
    Conformance(conformance::ConformanceArgs),
    /// Print boards: FEN as eight lines of eight squares, SFEN as a 9×9 diagram; `--svg`, `--html`.
    ///
    /// FEN prints eight lines of eight characters, `.` for a blank square; SFEN and JSON
    /// shogi positions print a 9×9 diagram with both hands (`--ascii`, `--kanji`). `--svg` writes
    /// SVG diagrams, `--html` one self-contained page.
    ///
    /// Boards are separated by one empty line. An invalid record prints its findings on standard
    /// error and no board; the others still print. Exit status as for `check`.
    Board(board::BoardArgs),
    /// Serve editors as a language server on standard input and output (findings as you type,
    /// fixes, hovers with the position, formatting, a PSN file's games).
    ///
    /// Editors start it themselves: see docs/editors.md for VS Code, Neovim and Helix.
    Lsp(lsp::LspArgs),
    /// Print a shell's completion script: `kifu completions bash > /etc/bash_completion.d/kifu`.
    ///
    /// Shells: bash, zsh, fish, powershell, elvish.
    Completions(docs::CompletionsArgs),
    /// Explain a diagnostic code: what it means, an example, what `check` reports and the fix.
    ///
    /// `kifu explain sfen::rank-width`, or the name alone when one format has it (`kifu explain
    /// nifu`); `kifu explain` lists every code.
    Explain(explain::ExplainArgs),
    /// Print kifu's manual page (roff), or a command's: `kifu man > kifu.1; man ./kifu.1`.
    ///
    /// `kifu man check > kifu-check.1` writes the page of `kifu check`, with every option and
    /// the exit status.
    Man(docs::ManArgs),
}

/// Runs the tool on the process's arguments and returns its exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help` and `--version` are written to standard output like any output: a write that
        // fails (a full disk) is an error, status 2. On a terminal clap writes them in colour.
        Err(e) if !e.use_stderr() && !std::io::IsTerminal::is_terminal(&std::io::stdout()) => {
            let _ = std::io::Write::write_fmt(&mut output::Stdout, format_args!("{}", e.render()));
            return output::exit(ExitCode::SUCCESS);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    if cli.report.message_format == args::MessageFormat::Sarif && !matches!(cli.command, Command::Check(_)) {
        output::message("`--output-format sarif` writes one log of `kifu check`'s findings: use it with `kifu check`");
        return output::exit(ExitCode::from(2));
    }
    report::init(cli.report);
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Board(args) => board::run(&args),
        Command::Json(args) => json::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Grammar(args) => grammar::run(&args),
        Command::Conformance(args) => conformance::run(&args),
        Command::Lsp(args) => lsp::run(&args),
        Command::Completions(args) => docs::completions(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Man(args) => docs::man(&args),
    };
    output::exit(code)
}
