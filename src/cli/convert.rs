//! `kifu convert`: records written again in another form on standard output; findings on
//! standard error.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;

use crate::cli::games::{default_workers, each_game, ReadGame};
use crate::cli::output::AtomicFile;
use crate::cli::report::exit_code;
use crate::cli::{input, output, positions};
use crate::shogi::Game;

#[derive(clap::Args, Debug)]
pub(crate) struct ConvertArgs {
    /// Files or folders to read: PSN games, KIF and KI2 records (`.kif`, `.kifu`, `.ki2`,
    /// `.ki2u`), CSA records (`.csa`), JKF records (`.jkf`), or positions (`.sfen`, `.fen`,
    /// `.epd`, `.json`); `-` or nothing reads standard input (PSN, unless `--format` says
    /// otherwise).
    paths: Vec<String>,
    /// The form to write: `psn`, the 1998 spec's PSN; `usi`; `sfen`; `kif` (Shift_JIS) or `kifu`
    /// (UTF-8); `ki2` (Shift_JIS) or `ki2u` (UTF-8); `csa` (version 3.0, UTF-8) or `csa-2.2`
    /// (Shift_JIS).
    #[arg(long, value_enum)]
    to: ConvertTo,
    /// Write the games to files in this folder (made when missing), not to standard output:
    /// `a.psn` becomes `DIR/a.csa`; in a form that holds one game a file (KIF, KI2, JKF),
    /// each game its own file, `DIR/a.kif`, or `DIR/a-1.kif`, `DIR/a-2.kif`, … for an input of
    /// several. No file is written over.
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,
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
    /// JKF, the JSON Kifu Format, in UTF-8: a game a file.
    Jkf,
}

/// `kifu convert`: each game written again in the form asked for.
pub(crate) fn run(args: &ConvertArgs) -> ExitCode {
    if positions::reads_positions(&args.paths, &args.input) {
        if args.output_dir.is_some() {
            output::message("`--output-dir` writes games; positions are written on standard output");
            return ExitCode::from(2);
        }
        return match args.to {
            ConvertTo::Sfen => positions::run_convert_sfen(&args.paths, &args.input),
            to => positions::convert_unsupported(to.name()),
        };
    }
    if let Some(dir) = &args.output_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            output::message(format_args!("cannot make the folder `{}`: {e}", dir.display()));
            return ExitCode::from(2);
        }
    }
    let mut sink = Sink::new(args.to, args.output_dir.as_deref());
    let (failed, write_error) = each_game(
        &args.paths,
        &args.input,
        default_workers(),
        |name, read| converted(name, read, args.to),
        |name, c| sink.game(name, c),
    );
    let finished = sink.finish();
    if sink.refused {
        return ExitCode::from(2);
    }
    if write_error.is_some() || finished.is_err() {
        return ExitCode::from(2);
    }
    exit_code(failed || sink.unwritten, sink.invalid)
}

impl ConvertTo {
    /// The name `--to` gives it.
    fn name(self) -> &'static str {
        match self {
            Self::Psn => "psn",
            Self::Usi => "usi",
            Self::Sfen => "sfen",
            Self::Kif => "kif",
            Self::Kifu => "kifu",
            Self::Ki2 => "ki2",
            Self::Ki2u => "ki2u",
            Self::Csa | Self::Csa22 => "csa",
            Self::Jkf => "jkf",
        }
    }

    /// The extension of a file in this form.
    fn extension(self) -> &'static str {
        match self {
            Self::Csa22 => "csa",
            _ => self.name(),
        }
    }

    /// The format's name in words, for a file of this form that holds one game.
    fn holds_one(self) -> Option<&'static str> {
        match self {
            Self::Kif | Self::Kifu => Some("KIF"),
            Self::Ki2 | Self::Ki2u => Some("KI2"),
            Self::Jkf => Some("JKF"),
            _ => None,
        }
    }

    /// What goes before a game that follows `before` others in one output: a line per game for
    /// USI; the file's encoding line before the first CSA V3.0 record, a `/` line between
    /// records; an empty line between games otherwise.
    fn separator(self, before: usize) -> &'static [u8] {
        match self {
            Self::Usi => b"",
            Self::Csa if before == 0 => b"'CSA encoding=UTF-8\n",
            Self::Csa | Self::Csa22 if before > 0 => b"/\n",
            _ if before > 0 => b"\n",
            _ => b"",
        }
    }
}

/// Where converted games go: standard output, or, with `--output-dir`, a file for each input
/// (`a.psn` → `DIR/a.csa`), and for a form that holds one game a file for each game
/// (`DIR/a.kif`, or `DIR/a-1.kif`, `DIR/a-2.kif`, … for an input of several, numbered by their
/// place in it). A file that exists is never written over.
struct Sink<'a> {
    to: ConvertTo,
    dir: Option<&'a Path>,
    out: output::Stdout,
    /// Games written on standard output.
    written: usize,
    /// On standard output, the one game of a form that holds one, kept until the input ends.
    held: Option<Vec<u8>>,
    /// The input whose games come now.
    source: Option<Source>,
    /// The files written, with the input each holds games of.
    made: HashMap<PathBuf, String>,
    /// A game was not converted.
    invalid: bool,
    /// A file could not be written.
    unwritten: bool,
    /// Several games for standard output, in a form that holds one: nothing is written.
    refused: bool,
}

/// An input's games as `--output-dir` writes them.
struct Source {
    name: String,
    /// Its games so far, converted or not.
    games: usize,
    /// Its first game, converted, until a second game or the input's end names its file.
    first: Option<Vec<u8>>,
    /// The one file of its games, for a form that holds several, and how many it has.
    file: Option<(AtomicFile, usize)>,
    /// That file could not be written: its other games are not tried.
    blocked: bool,
}

impl<'a> Sink<'a> {
    fn new(to: ConvertTo, dir: Option<&'a Path>) -> Self {
        Self {
            to,
            dir,
            out: output::Stdout,
            written: 0,
            held: None,
            source: None,
            made: HashMap::new(),
            invalid: false,
            unwritten: false,
            refused: false,
        }
    }

    /// A game of input `name`, converted or not.
    fn game(&mut self, name: &str, converted: Converted) -> std::io::Result<()> {
        let bytes = match converted {
            Ok((bytes, lost)) => {
                if let Some(lost) = lost {
                    output::err(format_args!("{}\n", crate::diagnostic::escape_unsafe(&lost)));
                }
                Some(bytes)
            }
            Err(message) => {
                self.invalid = true;
                output::note_invalid();
                // The message names the file and quotes the game: escaped as any message is.
                output::err(format_args!("{}\n", crate::diagnostic::escape_unsafe(&message)));
                None
            }
        };
        match self.dir {
            Some(dir) => self.in_files(dir, name, bytes),
            None => self.onto_stdout(bytes),
        }
    }

    fn onto_stdout(&mut self, bytes: Option<Vec<u8>>) -> std::io::Result<()> {
        let Some(bytes) = bytes else { return Ok(()) };
        if let Some(format) = self.to.holds_one() {
            if self.held.is_some() {
                output::message(format_args!(
                    "the input has more than one game, and a {format} file holds one: write each game to a file of its own with `--output-dir DIR`, or all of them in a form that holds several (`--to psn`, `--to csa`); nothing was written"
                ));
                self.refused = true;
                return Err(std::io::Error::other("refused"));
            }
            self.held = Some(bytes);
            return Ok(());
        }
        self.out.write_all(self.to.separator(self.written))?;
        self.out.write_all(&bytes)?;
        self.written += 1;
        Ok(())
    }

    fn in_files(&mut self, dir: &Path, name: &str, bytes: Option<Vec<u8>>) -> std::io::Result<()> {
        if self.source.as_ref().is_none_or(|s| s.name != name) {
            self.close();
            self.source = Some(Source { name: name.to_owned(), games: 0, first: None, file: None, blocked: false });
        }
        let Some(source) = self.source.as_mut() else { return Ok(()) };
        source.games += 1;
        let stem = stem(name);
        let extension = self.to.extension();
        if self.to.holds_one().is_none() {
            let Some(bytes) = bytes else { return Ok(()) };
            if source.blocked {
                return Ok(());
            }
            if source.file.is_none() {
                let path = dir.join(format!("{stem}.{extension}"));
                match new_file(&self.made, &path) {
                    Ok(file) => source.file = Some((file, 0)),
                    Err(why) => {
                        source.blocked = true;
                        return self.not_written(name, &path, &why);
                    }
                }
                self.made.insert(path, name.to_owned());
            }
            let Some((file, count)) = source.file.as_mut() else { return Ok(()) };
            let written = file.write_all(self.to.separator(*count)).and_then(|()| file.write_all(&bytes));
            *count += 1;
            if let Err(e) = written {
                let path = file.path().to_owned();
                source.file = None;
                source.blocked = true;
                return self.not_written(name, &path, &e.to_string());
            }
            return Ok(());
        }
        // The first game waits for the second, or the input's end, to be named.
        match source.games {
            1 => {
                source.first = bytes;
                Ok(())
            }
            n => {
                if let Some(first) = source.first.take() {
                    let path = dir.join(format!("{stem}-1.{extension}"));
                    self.write_one(name, &path, &first);
                }
                if let Some(bytes) = bytes {
                    self.write_one(name, &dir.join(format!("{stem}-{n}.{extension}")), &bytes);
                }
                Ok(())
            }
        }
    }

    /// Writes a file of one game of `name` at `path`, or says why not.
    fn write_one(&mut self, name: &str, path: &Path, bytes: &[u8]) {
        let written = new_file(&self.made, path)
            .and_then(|mut file| file.write_all(bytes).and_then(|()| file.commit_new()).map_err(|e| e.to_string()));
        match written {
            Ok(()) => {
                self.made.insert(path.to_owned(), name.to_owned());
            }
            Err(why) => {
                let _ = self.not_written(name, path, &why);
            }
        }
    }

    /// Says that a game of `name` could not be written to `path`, and goes on with the next.
    fn not_written(&mut self, name: &str, path: &Path, why: &str) -> std::io::Result<()> {
        output::message(format_args!("`{name}`: not written to `{}`: {why}", path.display()));
        self.unwritten = true;
        Ok(())
    }

    /// Ends the input whose games came last: its file of several games, or its one game, is
    /// written.
    fn close(&mut self) {
        let Some(source) = self.source.take() else { return };
        if let (Some(first), Some(dir)) = (&source.first, self.dir) {
            let stem = stem(&source.name);
            self.write_one(&source.name, &dir.join(format!("{stem}.{}", self.to.extension())), first);
        }
        if let Some((file, _)) = source.file {
            let path = file.path().to_owned();
            if let Err(e) = file.commit_new() {
                let _ = self.not_written(&source.name, &path, &e.to_string());
            }
        }
    }

    /// Ends the output: the last input's file, or the game held for standard output.
    fn finish(&mut self) -> std::io::Result<()> {
        self.close();
        if self.refused {
            return Ok(());
        }
        if let Some(held) = self.held.take() {
            self.out.write_all(&held)?;
        }
        self.out.flush()
    }
}

/// The name of the files written for the input `name`: its file's, without the extension.
fn stem(name: &str) -> &str {
    let stem = Path::new(name).file_stem().and_then(|s| s.to_str()).filter(|_| name != input::STDIN);
    stem.unwrap_or("stdin")
}

/// A new file at `path`, or why not: it exists, or was written by this run.
fn new_file(made: &HashMap<PathBuf, String>, path: &Path) -> Result<AtomicFile, String> {
    if let Some(by) = made.get(path) {
        return Err(format!("it holds a game of `{by}` (convert the two inputs to different folders)"));
    }
    if std::fs::symlink_metadata(path).is_ok() {
        return Err("it exists, and kifu writes no file over another (remove it, or name another folder)".to_owned());
    }
    AtomicFile::create(path).map_err(|e| e.to_string())
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
        ReadGame::Jkf(read) => match read.diagnostics.iter().find(|d| d.is_error()) {
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
                ConvertTo::Jkf => (crate::jkf::write(game), "JKF", ""),
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

/// The games of the corpus beside the repository, from their truth: written as CSA (V3.0 and
/// V2.2) and read back, each is the same game, but for what CSA cannot hold and says so.
#[cfg(test)]
mod corpus {
    use std::fs;

    use serde_json::Value;

    use crate::csa::{write, Version};
    use crate::shogi::Game;

    /// `game` as a CSA record of `version` holds it: no variation, the headers CSA has, whole
    /// seconds in V2.2.
    fn held(game: &Game, version: Version) -> Game {
        let mut game = game.clone();
        game.headers.retain(|(key, _)| ["先手", "後手", "下手", "上手", "棋戦", "開始日時"].contains(&key.as_str()));
        // A handicap game's players are 下手 and 上手.
        if game.start.board != crate::shogi::Position::STARTPOS.board {
            for (key, _) in &mut game.headers {
                *key = key.replace("先手", "下手").replace("後手", "上手");
            }
        }
        let mut totals = [std::time::Duration::ZERO; 2];
        for (i, node) in game.moves.iter_mut().enumerate() {
            node.variations.clear();
            if let Some(time) = &mut node.time {
                let spent = time.spent.expect("a time");
                let spent =
                    if version == Version::V22 { std::time::Duration::from_secs(spent.as_secs()) } else { spent };
                totals[i % 2] += spent;
                *time = crate::shogi::MoveTime { spent: Some(spent), total: Some(totals[i % 2]) };
            }
        }
        game
    }

    #[test]
    fn every_generated_game_reads_back_as_written() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated/truth") else { return };
        let mut files: Vec<_> = fs::read_dir(&dir).expect("truth").map(|e| e.expect("entry").path()).collect();
        files.sort();
        let mut checked = 0;
        for file in files {
            let truth: Value = serde_json::from_str(&fs::read_to_string(&file).expect("truth")).expect("JSON");
            let game = crate::kif::write::corpus::game_of(&truth);
            for version in [Version::V30, Version::V22] {
                let record = write(&game, version);
                let (games, found) = crate::csa::check_text(&record.text);
                assert!(found.is_empty(), "{}: {found:#?}", file.display());
                let [back] = &games[..] else { panic!("{}: {} games", file.display(), games.len()) };
                let mut want = held(&game, version);
                // CSA's ends say who won.
                want.ending = back.ending.filter(|e| want.ending.is_some_and(|w| w.reason == e.reason));
                let at = format!("{}, {version:?}", file.display());
                assert_eq!(back.headers, want.headers, "{at}");
                assert_eq!(back.start, want.start, "{at}");
                assert_eq!(back.comments, want.comments, "{at}");
                assert_eq!(back.moves.len(), want.moves.len(), "{at}");
                for (i, (b, w)) in back.moves.iter().zip(&want.moves).enumerate() {
                    assert_eq!(b, w, "{at}: move {}", i + 1);
                }
                assert_eq!(back.ending, want.ending, "{at}");
                let variations = game.moves.iter().any(|n| !n.variations.is_empty());
                let fraction = version == Version::V22
                    && game.moves.iter().any(|n| n.time.and_then(|t| t.spent).is_some_and(|s| s.subsec_millis() != 0));
                assert_eq!(record.lost.contains(&"variations"), variations, "{}: {:?}", file.display(), record.lost);
                assert_eq!(
                    record.lost.len(),
                    usize::from(variations) + usize::from(fraction),
                    "{}: {:?}",
                    file.display(),
                    record.lost
                );
                // Written again, the game read back is written the same.
                assert_eq!(write(back, version).text, record.text, "{}", file.display());
            }
            checked += 1;
        }
        crate::corpus::at_least("games written as CSA", checked, 200);
    }

    /// A move in USI, with its comments.
    type Played = (String, Vec<String>);

    /// What a game is, in what every game format holds: its start, its main line with each
    /// move's comments, and how it ended.
    fn played(game: &Game) -> (String, Vec<Played>, Option<crate::shogi::Ending>) {
        let moves = game.moves.iter().map(|n| (n.mv.to_string(), n.comments.clone())).collect();
        (game.start.to_string(), moves, game.ending)
    }

    /// Each move's time and total, in whole seconds.
    fn seconds(game: &Game) -> Vec<Option<(u64, u64)>> {
        let secs = |d: Option<std::time::Duration>| d.map(|d| d.as_secs());
        game.moves.iter().map(|n| n.time.and_then(|t| secs(t.spent).zip(secs(t.total)))).collect()
    }

    /// Every generated CSA file of the corpus, written as CSA, KIF, KI2 and PSN and read back,
    /// is the same game in all that the form holds: CSA all of it, KIF and PSN the times in
    /// whole seconds, KI2 no times. And each KIF file of the same games (written by another
    /// program), written as CSA and read back, has the CSA file's start and main line, and its
    /// own end and times.
    #[test]
    fn every_generated_csa_file_converts_to_every_game_format_and_back() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated") else { return };
        let manifest = fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
        let rows: Vec<Vec<&str>> = manifest.lines().skip(1).map(|row| row.split('\t').collect()).collect();
        let (mut checked, mut kif_checked) = (0, 0);
        for fields in &rows {
            let [id, "csa", file, ..] = fields[..] else { continue };
            let read = crate::csa::check_bytes(&fs::read(dir.join(file)).expect(file));
            let [game] = &read.games[..] else { panic!("{file}: {} games", read.games.len()) };
            // CSA: the same game, and the same text once more.
            let csa = write(game, Version::V30);
            let back = crate::csa::check_bytes(csa.text.as_bytes());
            assert!(back.diagnostics.is_empty(), "{file}: {:#?}", back.diagnostics);
            assert_eq!(back.games.first(), Some(game), "{file} as CSA");
            // KIF and KI2.
            for (kif, extension) in [(crate::kif::write(game, "UTF-8"), "kifu"), (crate::kif::write_ki2(game), "ki2u")]
            {
                let back = crate::kif::check_bytes(kif.text.as_bytes(), Some(extension));
                assert!(back.is_valid(), "{file} as {extension}: {:#?}", back.diagnostics);
                let back = back.game.expect("a game");
                assert_eq!(played(&back), played(game), "{file} as {extension}");
                if extension == "kifu" {
                    assert_eq!(seconds(&back), seconds(game), "{file} as KIF: the times");
                }
            }
            // PSN.
            let psn = crate::psn::write(game);
            let back = crate::psn::check_bytes(psn.text.as_bytes(), crate::psn::Options::default());
            let back = back.games.first().and_then(crate::psn::CheckedGame::to_game).expect("a PSN game");
            assert_eq!(played(&back), played(game), "{file} as PSN:\n{}", psn.text);
            assert_eq!(seconds(&back), seconds(game), "{file} as PSN: the times");
            // The KIF file of the same game, written as CSA.
            let kif = rows.iter().find_map(|f| match f[..] {
                [i, "kif", kif, ..] if i == id => Some(kif),
                _ => None,
            });
            if let Some(kif) = kif {
                let extension = kif.rsplit('.').next();
                let bytes = fs::read(dir.join(kif)).expect(kif);
                let from_kif = crate::kif::check_bytes(&bytes, extension).game.expect("a KIF game");
                let csa = write(&from_kif, Version::V30);
                let back = crate::csa::check_bytes(csa.text.as_bytes());
                assert!(back.diagnostics.is_empty(), "{kif} as CSA: {:#?}", back.diagnostics);
                let back = &back.games[0];
                assert_eq!(
                    (back.start.to_string(), back.main_line().collect::<Vec<_>>()),
                    (game.start.to_string(), game.main_line().collect()),
                    "{kif} as CSA"
                );
                assert_eq!(back.ending.map(|e| e.reason), from_kif.ending.map(|e| e.reason), "{kif} as CSA: the end");
                assert_eq!(seconds(back), seconds(&from_kif), "{kif} as CSA: the times");
                kif_checked += 1;
            }
            checked += 1;
        }
        crate::corpus::at_least("CSA files converted to every format", checked, 200);
        crate::corpus::at_least("KIF files converted to CSA", kif_checked, 200);
    }

    use crate::shogi::game::compare::tree;

    /// Every generated file of the corpus, in each of the four formats, written as JKF and read
    /// back with no finding, is the same game in all JKF holds (start, moves, variations,
    /// comments, times in whole seconds, end), and written again gives the same text. A JKF
    /// file, written as KIF and read back, writes the same JKF but for the players' keys.
    #[test]
    fn every_generated_file_converts_to_jkf_and_back() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated") else { return };
        let manifest = fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
        let mut checked = 0;
        for row in manifest.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let [_, format, file, ..] = fields[..] else { continue };
            let bytes = fs::read(dir.join(file)).expect(file);
            let game = match format {
                "kif" | "ki2" => crate::kif::check_bytes(&bytes, file.rsplit('.').next()).game,
                "csa" => crate::csa::check_bytes(&bytes).games.into_iter().next(),
                _ => crate::jkf::check_bytes(&bytes).game,
            };
            let game = game.expect("a game");
            let jkf = crate::jkf::write(&game);
            let back = crate::jkf::check_bytes(jkf.text.as_bytes());
            assert!(back.diagnostics.is_empty(), "{file} as JKF: {:#?}", back.diagnostics);
            let back = back.game.expect("a game");
            assert_eq!(back.start, game.start, "{file} as JKF: the start");
            assert_eq!(back.comments, game.comments, "{file} as JKF: the start's comments");
            assert_eq!(tree(&back.moves), tree(&game.moves), "{file} as JKF: the moves");
            assert_eq!(seconds(&back), seconds(&game), "{file} as JKF: the times");
            assert_eq!(back.ending.map(|e| e.reason), game.ending.map(|e| e.reason), "{file} as JKF: the end");
            let fraction =
                game.moves.iter().any(|n| n.time.and_then(|t| t.spent).is_some_and(|s| s.subsec_nanos() != 0));
            let lost: &[&str] = if fraction { &["the fractions of a second of a move's time"] } else { &[] };
            assert_eq!(jkf.lost, lost, "{file} as JKF");
            assert_eq!(crate::jkf::write(&back).text, jkf.text, "{file}: JKF written twice");
            if format == "jkf" {
                let kif = crate::kif::write(&game, "UTF-8");
                let again = crate::kif::check_bytes(kif.text.as_bytes(), Some("kifu")).game.expect("a game");
                // KIF names a handicap game's players 下手 and 上手: the rest is the same.
                let body = |text: &str| text[text.find("  \"initial\"").unwrap_or(0)..].to_owned();
                assert!(body(&crate::jkf::write(&again).text) == body(&jkf.text), "{file} through KIF");
            }
            checked += 1;
        }
        crate::corpus::at_least("files converted to JKF", checked, 800);
    }
}
