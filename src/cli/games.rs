//! PSN games read as streams, checked on worker threads, handed on in input order (the
//! library's ordered pool, [`crate::input::pool`], through [`crate::psn::stream::check_parallel`]).

use std::fs::File;
use std::io;

use crate::format::Format;

use crate::cli::positions::ConvertInput;
use crate::cli::{input, output};

/// An input as a stream: a file, or standard input for `-`.
pub(crate) fn open_input(path: &str) -> io::Result<Box<dyn io::BufRead + Send>> {
    if path == "-" {
        Ok(Box::new(io::BufReader::with_capacity(1 << 16, io::stdin())))
    } else {
        Ok(Box::new(io::BufReader::with_capacity(1 << 16, File::open(path)?)))
    }
}

/// Bytes of games' text per unit of work when PSN games are checked in parallel.
pub(crate) const PSN_PIECE_BYTES: usize = 128 * 1024;

/// A game read from an input: one of a PSN stream's, or a KIF or KI2 record (a file holds one,
/// read whole).
pub(crate) enum ReadGame {
    /// A game of a PSN stream, checked.
    Psn(Box<crate::psn::stream::StreamGame>),
    /// A KIF or KI2 record, checked.
    Kif(Box<crate::kif::CheckedKif>),
    /// A record of a CSA file, checked.
    Csa(Box<CsaGame>),
    /// A JKF record, checked.
    Jkf(Box<crate::jkf::CheckedJkf>),
}

/// A record of a CSA file: its game (when its start could be set up), its first error, the
/// line it starts on and the file's encoding.
pub(crate) struct CsaGame {
    pub game: Option<crate::shogi::Game>,
    pub error: Option<crate::diagnostic::Diagnostic>,
    pub line: usize,
    pub encoding: crate::input::Encoding,
}

/// Reads and checks the KIF or KI2 record at `path` (`-`: standard input), in the encoding its
/// content tells; its extension says the encoding it should be in.
pub(crate) fn read_kif(path: &str) -> io::Result<crate::kif::CheckedKif> {
    let bytes = crate::cli::check::read_record(path, Format::Kif)?;
    let extension = std::path::Path::new(path).extension().and_then(|e| e.to_str());
    Ok(crate::kif::check_bytes(&bytes, extension))
}

/// The games of the KIF, KI2 or CSA file at `path` (`-`: standard input), read whole and
/// checked: a KIF or KI2 record is one game, each record of a CSA file one.
fn read_whole(path: &str, format: Format) -> io::Result<Vec<ReadGame>> {
    if format == Format::Kif {
        return Ok(vec![ReadGame::Kif(Box::new(read_kif(path)?))]);
    }
    if format == Format::Jkf {
        let bytes = crate::cli::check::read_record(path, Format::Jkf)?;
        return Ok(vec![ReadGame::Jkf(Box::new(crate::jkf::check_bytes(&bytes)))]);
    }
    let file = crate::csa::read_file(&crate::cli::check::read_record(path, Format::Csa)?, |_| {});
    let encoding = file.encoding;
    Ok(file
        .records
        .into_iter()
        .map(|r| ReadGame::Csa(Box::new(CsaGame { game: r.game, error: r.error, line: r.line, encoding })))
        .collect())
}

/// Runs `each` on the checked games of every file `paths` name (folders walked, globs expanded,
/// as `reading` says), in order: PSN files read as streams, their games checked by `work` on
/// `workers` threads; a KIF or KI2 file read whole, its record handed to `work` on this thread.
/// A file found in a folder whose extension names another format is skipped unless `--format`
/// is given; a path that cannot be read is reported on standard error. Returns true when a
/// path could not be read, and the write error that stopped it, if any.
pub(crate) fn each_game<T: crate::psn::stream::Weigh + Send>(
    paths: &[String],
    reading: &ConvertInput,
    workers: usize,
    work: impl Fn(&str, ReadGame) -> T + Sync,
    mut each: impl FnMut(&str, T) -> io::Result<()>,
) -> (bool, Option<io::Error>) {
    let mut failed = false;
    for found in input::expand(paths, reading.walk, reading.format.is_some()) {
        let found = match found {
            Ok(found) => found,
            Err(e) => {
                output::message(e.message);
                failed = true;
                crate::cli::output::note_unread();
                continue;
            }
        };
        let path = found.path.as_str();
        let format = reading.format.map(|f| f.format()).or_else(|| Format::from_path(path));
        if found.found
            && reading.format.is_none()
            && !matches!(format, Some(Format::Psn | Format::Kif | Format::Csa | Format::Jkf))
        {
            input::skipped(reading.walk, path, "not a file of games");
            continue;
        }
        let name = input::name(path);
        // A KIF or KI2 file holds one game, a CSA file a game a record: each is read whole.
        if let Some(format @ (Format::Kif | Format::Csa | Format::Jkf)) = format {
            match read_whole(path, format) {
                Ok(games) => {
                    for game in games {
                        if let Err(e) = each(name, work(name, game)) {
                            return (failed, Some(e));
                        }
                    }
                }
                Err(e) => {
                    output::message(format_args!("cannot read `{name}`: {e}"));
                    failed = true;
                    crate::cli::output::note_unread();
                }
            }
            continue;
        }
        let input = match open_input(path) {
            Ok(input) => input,
            Err(e) => {
                output::message(format_args!("cannot read `{name}`: {e}"));
                failed = true;
                crate::cli::output::note_unread();
                continue;
            }
        };
        let result =
            match stream_games(input, workers, |game| work(name, ReadGame::Psn(Box::new(game))), |t| each(name, t)) {
                Err(Stopped::Write(e)) => return (failed, Some(e)),
                Err(Stopped::Read(e)) => Err(e),
                Ok(()) => Ok(()),
            };
        if let Err(e) = result {
            output::message(format_args!("cannot read `{name}`: {e}"));
            failed = true;
            crate::cli::output::note_unread();
        }
    }
    (failed, None)
}

/// Why a stream of games stopped: its input failed, or `each` did (a write error).
pub(crate) use crate::input::pool::Stopped;

/// The games of `input`, each made ready by `work` on `workers` threads and handed to `each` in
/// order ([`crate::psn::stream::check_parallel`]); stops at the first error of either.
pub(crate) fn stream_games<T: crate::psn::stream::Weigh + Send>(
    input: Box<dyn io::BufRead + Send>,
    workers: usize,
    work: impl Fn(crate::psn::stream::StreamGame) -> T + Sync,
    mut each: impl FnMut(T) -> io::Result<()>,
) -> Result<(), Stopped> {
    let mut write_error = None;
    let result = crate::psn::stream::check_parallel(
        input,
        crate::psn::Options::default(),
        PSN_PIECE_BYTES,
        workers,
        work,
        |t| each(t).inspect_err(|e| write_error = Some(io::Error::new(e.kind(), e.to_string()))),
    );
    match (write_error, result) {
        (Some(e), _) => Err(Stopped::Write(e)),
        (None, Err(e)) => Err(Stopped::Read(e)),
        (None, Ok(())) => Ok(()),
    }
}

/// The worker threads for `json`, `convert` and `board`: one per core.
pub(crate) fn default_workers() -> usize {
    crate::cli::pool::workers(None)
}
