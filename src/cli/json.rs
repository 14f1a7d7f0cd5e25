//! `kifu json`: each record's model, one JSON object per line on standard output; findings on
//! standard error.

use std::io::Write;
use std::process::ExitCode;

use crate::cli::games::{default_workers, each_game};
use crate::cli::report::exit_code;
use crate::cli::{output, positions};

#[derive(clap::Args, Debug)]
pub(crate) struct JsonArgs {
    /// Files to read: PSN games, or positions (`.sfen`, `.fen`, `.epd`, `.json`); `-` or nothing
    /// reads standard input (PSN, unless `--format` says otherwise).
    paths: Vec<String>,
    #[command(flatten)]
    positions: positions::JsonViewArgs,
}

/// A game's line of `kifu json`.
#[derive(serde::Serialize)]
pub(crate) struct JsonGame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    valid: bool,
    encoding: crate::psn::Encoding,
    game: &'a crate::psn::Game,
}

/// `kifu json`: each game's model, one JSON object per line.
pub(crate) fn run(args: &JsonArgs) -> ExitCode {
    if positions::reads_positions(&args.paths, &args.positions.input) {
        return positions::run_json(&args.paths, &args.positions);
    }
    let mut out = output::Stdout;
    let mut invalid = false;
    let (failed, write_error) = each_game(
        &args.paths,
        &args.positions.input,
        default_workers(),
        |name, g| {
            let mut game = g.checked.game;
            // The game's place in the whole input's text.
            game.span = crate::span::Span::new(g.offset + game.span.start, g.offset + game.span.end);
            let valid = g.checked.diagnostics.iter().all(|d| !d.is_error());
            let object = JsonGame { kind: "game", file: name, valid, encoding: g.encoding, game: &game };
            (serde_json::to_string(&object).unwrap_or_default(), valid)
        },
        |_, (line, valid): (String, bool)| {
            invalid |= !valid;
            writeln!(out, "{line}")
        },
    );
    if write_error.is_some() || out.flush().is_err() {
        return ExitCode::from(2);
    }
    exit_code(failed, invalid)
}
