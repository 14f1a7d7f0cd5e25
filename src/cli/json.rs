//! `kifu json`: each record's model, one JSON object per line on standard output; findings on
//! standard error.

use std::io::Write;
use std::process::ExitCode;

use crate::cli::games::{default_workers, each_game, ReadGame};
use crate::cli::report::exit_code;
use crate::cli::{output, positions};

#[derive(clap::Args, Debug)]
pub(crate) struct JsonArgs {
    /// Files to read: PSN games, KIF and KI2 records (`.kif`, `.kifu`, `.ki2`, `.ki2u`), CSA
    /// records (`.csa`), or
    /// positions (`.sfen`, `.fen`, `.epd`, `.json`); `-` or nothing reads standard input (PSN,
    /// unless `--format` says otherwise).
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
    /// `psn`, `kif` for KIF and KI2, or `csa`.
    format: &'static str,
    valid: bool,
    encoding: crate::input::Encoding,
    game: Model<'a>,
}

/// A game's model: a PSN game as written, or a KIF, KI2 or CSA game as played (`null` when its
/// start could not be set up).
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Model<'a> {
    Psn(&'a crate::psn::Game),
    Kif(Option<&'a crate::shogi::Game>),
    /// A CSA record's game as played.
    Csa(Option<&'a crate::shogi::Game>),
    /// A JKF record's game as played.
    Jkf(Option<&'a crate::shogi::Game>),
}

/// A game's line of `kifu json`, and whether the game is valid.
fn json_line(file: &str, valid: bool, encoding: crate::input::Encoding, game: Model<'_>) -> (String, bool) {
    let format = match game {
        Model::Psn(_) => "psn",
        Model::Kif(_) => "kif",
        Model::Csa(_) => "csa",
        Model::Jkf(_) => "jkf",
    };
    let object = JsonGame { kind: "game", file, format, valid, encoding, game };
    (serde_json::to_string(&object).unwrap_or_default(), valid)
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
        |name, read| match read {
            ReadGame::Psn(g) => {
                let valid = g.checked.is_valid();
                let mut game = g.checked.game;
                // The game's place in the whole input's text.
                game.span = crate::span::Span::new(g.offset + game.span.start, g.offset + game.span.end);
                json_line(name, valid, g.encoding, Model::Psn(&game))
            }
            ReadGame::Kif(read) => json_line(name, read.is_valid(), read.encoding, Model::Kif(read.game.as_ref())),
            ReadGame::Csa(read) => json_line(name, read.error.is_none(), read.encoding, Model::Csa(read.game.as_ref())),
            ReadGame::Jkf(read) => {
                json_line(name, read.is_valid(), crate::input::Encoding::Utf8, Model::Jkf(read.game.as_ref()))
            }
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
