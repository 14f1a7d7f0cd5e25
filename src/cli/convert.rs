//! `kifu convert`: records written again in another form on standard output; findings on
//! standard error.

use std::io::Write;
use std::process::ExitCode;

use clap::ValueEnum;

use crate::cli::games::{default_workers, each_game};
use crate::cli::report::exit_code;
use crate::cli::{output, positions};

#[derive(clap::Args, Debug)]
pub(crate) struct ConvertArgs {
    /// Files to read: PSN games, or positions (`.sfen`, `.fen`, `.epd`, `.json`); `-` or nothing
    /// reads standard input (PSN, unless `--format` says otherwise).
    paths: Vec<String>,
    /// The form to write: `psn`, the 1998 spec's PSN; `usi`; `sfen`; `kif` (Shift_JIS) or `kifu`
    /// (UTF-8).
    #[arg(long, value_enum)]
    to: ConvertTo,
    #[command(flatten)]
    input: positions::ConvertInput,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ConvertTo {
    /// PSN as the 1998 spec writes it; variations and comments are kept as written, though
    /// the spec has no variations (`kifu check` warns of them).
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
        };
    }
    let mut out = output::Stdout;
    let (mut invalid, mut written) = (false, 0usize);
    let to = args.to;
    let (failed, write_error) = each_game(
        &args.paths,
        &args.input,
        default_workers(),
        |name, g| {
            let g = g.checked;
            if !g.is_valid() {
                let first = g.diagnostics.iter().find(|d| d.is_error()).map(ToString::to_string).unwrap_or_default();
                return Err(format!(
                    "kifu: {name}:{}: game not converted: {first} (run `kifu check` for every finding)",
                    g.game.line
                ));
            }
            let line = g.game.line;
            match (to, g.to_game()) {
                (ConvertTo::Psn, _) => Ok((g.to_psn().into_bytes(), None)),
                (ConvertTo::Usi, Some(game)) => Ok((format!("{}\n", game.to_usi()).into_bytes(), None)),
                (ConvertTo::Sfen, Some(game)) => {
                    Ok((game.positions().iter().map(|p| format!("{p}\n")).collect::<String>().into_bytes(), None))
                }
                (ConvertTo::Kif | ConvertTo::Kifu, Some(game)) => {
                    let encoding = if to == ConvertTo::Kif { "Shift_JIS" } else { "UTF-8" };
                    let kif = crate::kif::write(&game, encoding);
                    let lost = (!kif.lost.is_empty()).then(|| {
                        format!("kifu: {name}:{line}: warning: KIF cannot hold {}: left out", kif.lost.join(", "))
                    });
                    match to {
                        ConvertTo::Kif => crate::kif::shift_jis(&kif.text).map(|bytes| (bytes, lost)).map_err(|missing| {
                            format!(
                                "kifu: {name}:{line}: game not converted: Shift_JIS has no {missing}; write the game in UTF-8 with `--to kifu`"
                            )
                        }),
                        _ => Ok((kif.text.into_bytes(), lost)),
                    }
                }
                (_, None) => {
                    Err(format!("kifu: {name}:{line}: game not converted: its starting position could not be read"))
                }
            }
        },
        |_, converted: Result<(Vec<u8>, Option<String>), String>| {
            match converted {
                Ok((bytes, lost)) => {
                    // One game a line for USI; an empty line between games otherwise.
                    if written > 0 && to != ConvertTo::Usi {
                        out.write_all(b"\n")?;
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
        },
    );
    if write_error.is_some() || out.flush().is_err() {
        return ExitCode::from(2);
    }
    exit_code(failed, invalid)
}
