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
    /// JKF, the JSON Kifu Format, in UTF-8: a game a file (several games are written one after
    /// another, each a JSON object).
    Jkf,
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
            ConvertTo::Jkf => positions::convert_unsupported("jkf"),
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
