//! `kifu convert`: records written again in another form on standard output; findings on
//! standard error.

use std::io::Write;
use std::process::ExitCode;

use clap::ValueEnum;

use crate::cli::games::{default_workers, each_game, ReadGame};
use crate::cli::report::exit_code;
use crate::cli::{output, positions};
use crate::shogi::Game;

#[derive(clap::Args, Debug)]
pub(crate) struct ConvertArgs {
    /// Files to read: PSN games, KIF and KI2 records (`.kif`, `.kifu`, `.ki2`, `.ki2u`), CSA
    /// records (`.csa`), or
    /// positions (`.sfen`, `.fen`, `.epd`, `.json`); `-` or nothing reads standard input (PSN,
    /// unless `--format` says otherwise).
    paths: Vec<String>,
    /// The form to write: `psn`, the 1998 spec's PSN; `usi`; `sfen`; `kif` (Shift_JIS) or `kifu`
    /// (UTF-8); `ki2` (Shift_JIS) or `ki2u` (UTF-8); `csa` (version 3.0, UTF-8) or `csa-2.2`
    /// (Shift_JIS).
    #[arg(long, value_enum)]
    to: ConvertTo,
    #[command(flatten)]
    input: positions::ConvertInput,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ConvertTo {
    /// PSN as the 1998 spec writes it; variations and comments are kept, though the spec has
    /// no variations (`kifu check` warns of them), and a KIF or KI2 game's times and ending go
    /// in comments kifu reads back.
    Psn,
    /// PSN games as the arguments of USI's `position` command: `sfen … moves …`, one line a game.
    Usi,
    /// SFEN as USI writes it (positions: JSON or SFEN in).
    Sfen,
    /// KIF as Kifu for Windows writes it, in Shift_JIS, the encoding its readers expect of a
    /// `.kif` file: a game with a character Shift_JIS lacks is not converted (write `kifu`).
    Kif,
    /// KIF in UTF-8, as a `.kifu` file holds it.
    Kifu,
    /// KI2 as Kifu for Windows writes it (the moves as people write them, several a line, no
    /// times), in Shift_JIS, as a `.ki2` file holds it.
    Ki2,
    /// KI2 in UTF-8, as a `.ki2u` file holds it.
    Ki2u,
    /// CSA version 3.0 in UTF-8 (no variations), the games of a file separated by `/` lines.
    Csa,
    /// CSA version 2.2 in Shift_JIS (no variations, times in whole seconds).
    #[value(name = "csa-2.2")]
    Csa22,
}

/// `kifu convert`: each game written again in the form asked for.
pub(crate) fn run(args: &ConvertArgs) -> ExitCode {
    if positions::reads_positions(&args.paths, &args.input) {
        return match args.to {
            ConvertTo::Sfen => positions::run_convert_sfen(&args.paths, &args.input),
            ConvertTo::Psn => positions::convert_unsupported("psn"),
            ConvertTo::Usi => positions::convert_unsupported("usi"),
            ConvertTo::Kif => positions::convert_unsupported("kif"),
            ConvertTo::Kifu => positions::convert_unsupported("kifu"),
            ConvertTo::Ki2 => positions::convert_unsupported("ki2"),
            ConvertTo::Ki2u => positions::convert_unsupported("ki2u"),
            ConvertTo::Csa => positions::convert_unsupported("csa"),
            ConvertTo::Csa22 => positions::convert_unsupported("csa-2.2"),
        };
    }
    let mut out = output::Stdout;
    let (mut invalid, mut written) = (false, 0usize);
    let to = args.to;
    let mut emit = |converted: Converted| -> std::io::Result<()> {
        match converted {
            Ok((bytes, lost)) => {
                // One game a line for USI; a `/` line between CSA records (the first names the
                // file's encoding); an empty line between games otherwise.
                match to {
                    ConvertTo::Usi => {}
                    ConvertTo::Csa if written == 0 => out.write_all(b"'CSA encoding=UTF-8\n")?,
                    ConvertTo::Csa | ConvertTo::Csa22 if written > 0 => out.write_all(b"/\n")?,
                    _ if written > 0 => out.write_all(b"\n")?,
                    _ => {}
                }
                out.write_all(&bytes)?;
                written += 1;
                if let Some(lost) = lost {
                    output::err(format_args!("{}\n", crate::diagnostic::escape_unsafe(&lost)));
                }
            }
            Err(message) => {
                invalid = true;
                crate::cli::output::note_invalid();
                // The message names the file and quotes the game: escaped as any message is.
                output::err(format_args!("{}\n", crate::diagnostic::escape_unsafe(&message)));
            }
        }
        Ok(())
    };
    let (failed, write_error) =
        each_game(&args.paths, &args.input, default_workers(), |name, read| converted(name, read, to), |_, c| emit(c));
    if write_error.is_some() || out.flush().is_err() {
        return ExitCode::from(2);
    }
    exit_code(failed, invalid)
}

/// What a game becomes: its bytes and the warning of what the form leaves out, or why it is
/// not converted.
type Converted = Result<(Vec<u8>, Option<String>), String>;

/// A game read from `name` written in the form `to` asks for, or why not.
fn converted(name: &str, read: ReadGame, to: ConvertTo) -> Converted {
    match read {
        ReadGame::Psn(g) => {
            let g = g.checked;
            if !g.is_valid() {
                let first = g.diagnostics.iter().find(|d| d.is_error()).map(ToString::to_string).unwrap_or_default();
                return Err(format!(
                    "kifu: {name}:{}: game not converted: {first} (run `kifu check` for every finding)",
                    g.game.line
                ));
            }
            match to {
                ConvertTo::Psn => Ok((g.to_psn().into_bytes(), None)),
                _ => convert(to, name, g.game.line, g.to_game().as_ref()),
            }
        }
        ReadGame::Kif(read) => match read.diagnostics.iter().find(|d| d.is_error()) {
            Some(first) => {
                Err(format!("kifu: {name}: game not converted: {first} (run `kifu check` for every finding)"))
            }
            None => convert(to, name, 1, read.game.as_ref()),
        },
        ReadGame::Csa(read) => match &read.error {
            Some(first) => Err(format!(
                "kifu: {name}:{}: game not converted: {first} (run `kifu check` for every finding)",
                read.line
            )),
            None => convert(to, name, read.line, read.game.as_ref()),
        },
    }
}

/// A valid game written in the form `to` asks for (PSN games write PSN from their own syntax),
/// or why not: the bytes, and the warning of what the form leaves out.
fn convert(to: ConvertTo, name: &str, line: usize, game: Option<&Game>) -> Converted {
    let Some(game) = game else {
        return Err(format!("kifu: {name}:{line}: game not converted: its starting position could not be read"));
    };
    match to {
        ConvertTo::Usi => Ok((format!("{}\n", game.to_usi()).into_bytes(), None)),
        ConvertTo::Sfen => {
            Ok((game.positions().iter().map(|p| format!("{p}\n")).collect::<String>().into_bytes(), None))
        }
        _ => {
            let (written, format, utf8) = match to {
                // The encoding line is the file's, written once before its first record.
                ConvertTo::Csa => (crate::csa::write::record(game, crate::csa::Version::V30, false), "CSA", ""),
                ConvertTo::Csa22 => {
                    (crate::csa::write::record(game, crate::csa::Version::V22, false), "CSA 2.2", "csa")
                }
                ConvertTo::Psn => (crate::psn::write(game), "PSN", ""),
                ConvertTo::Kif => (crate::kif::write(game, "Shift_JIS"), "KIF", "kifu"),
                ConvertTo::Kifu => (crate::kif::write(game, "UTF-8"), "KIF", ""),
                ConvertTo::Ki2 => (crate::kif::write_ki2(game), "KI2", "ki2u"),
                _ => (crate::kif::write_ki2(game), "KI2", ""),
            };
            let lost = (!written.lost.is_empty()).then(|| {
                format!("kifu: {name}:{line}: warning: {format} cannot hold {}: left out", written.lost.join(", "))
            });
            if to == ConvertTo::Psn && written.text.len() > crate::psn::MAX_GAME_BYTES {
                return Err(format!(
                    "kifu: {name}:{line}: game not converted: as PSN it would take {} KiB, more than the {} KiB a PSN game may take",
                    written.text.len().div_ceil(1024),
                    crate::psn::MAX_GAME_BYTES / 1024
                ));
            }
            if utf8.is_empty() {
                return Ok((written.text.into_bytes(), lost));
            }
            crate::kif::shift_jis(&written.text).map(|bytes| (bytes, lost)).map_err(|missing| {
                format!(
                    "kifu: {name}:{line}: game not converted: Shift_JIS has no {missing}; write the game in UTF-8 with `--to {utf8}`"
                )
            })
        }
    }
}
