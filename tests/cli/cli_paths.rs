//! `kifu check` (and the other commands that read records) on folders and quoted globs, and the
//! volume of its output: `-q`, `--statistics`, a repeated warning shown once a file.

use std::path::Path;
use std::process::Output;

use crate::common::bin;

use bin::{json_lines, kifu, stdout, text, write, START};

/// A valid FEN record.
const FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// A valid EPD record.
const EPD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;";
/// A shogi position in the JSON position model (`kifu json` of the start position).
const JSON: &str = r#"{"sideOnMove":"black","blackHand":[0,0,0,0,0,0,0],"whiteHand":[0,0,0,0,0,0,0],"pieces":{"5a":"wK","5i":"bK"},"moveNumber":1}"#;
/// A valid record with one warning (`sfen::hand-order`).
const HAND_ORDER: &str = "lnsgkgsnl/7b1/ppppppp2/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2PR 1";
/// A record with one error (`sfen::rank-width`).
const BAD_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";
/// A valid PSN game with six warnings of six codes.
const GAME: &str = include_str!("../fixtures/psn/ok/dialect_gsdb.psn");

/// `kifu` with `args`, run in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    kifu().current_dir(dir).args(args).output().expect("kifu runs")
}

/// The JSON summary, the last line of `kifu check --output-format json`.
fn summary(out: &Output) -> serde_json::Value {
    json_lines(out).pop().expect("a summary")
}

fn mkdir(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir.join(name)).expect("mkdir");
}

/// A tree of every format kifu reads, each file with one record (or game) that is valid and
/// one that is not, and a file kifu does not read.
fn mixed_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    mkdir(d, "chess");
    write(d, "a.sfen", format!("{START}\n{BAD_SFEN}\n").as_bytes());
    write(d, "chess/b.fen", format!("{FEN}\n8/8 w - - 0 1\n").as_bytes());
    write(d, "chess/c.epd", format!("{EPD}\n8/8 w - -\n").as_bytes());
    write(d, "d.psn", format!("{GAME}\n[Sente \"x\"]\nP7g7f P3c3d P9z9y\n").as_bytes());
    write(d, "e.json", format!("{JSON}\n{{\"sideOnMove\":\"up\"}}\n").as_bytes());
    write(d, "README.md", b"# records\n");
    dir
}

#[test]
fn a_folder_tree_is_read_each_file_in_its_format_in_order() {
    let dir = mixed_tree();
    let out = run_in(dir.path(), &["check", "--output-format", "json", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    // Files in the order of their names, folder by folder; each file's findings in its format.
    let mut files: Vec<(String, String)> = Vec::new();
    for d in lines.iter().filter(|l| l["type"] == "diagnostic" && l["severity"] == "error") {
        let file = d["file"].as_str().unwrap_or_default().trim_start_matches("./").to_owned();
        let group = d["code"].as_str().unwrap_or_default().split("::").next().unwrap_or_default().to_owned();
        if files.last().is_none_or(|(f, _)| *f != file) {
            files.push((file, group));
        }
    }
    let expected =
        [("a.sfen", "sfen"), ("chess/b.fen", "fen"), ("chess/c.epd", "fen"), ("d.psn", "psn"), ("e.json", "json")];
    let expected: Vec<(String, String)> = expected.iter().map(|(f, g)| ((*f).to_owned(), (*g).to_owned())).collect();
    assert_eq!(files, expected);
    let s = summary(&out);
    assert_eq!((s["files"].as_u64(), s["records"].as_u64(), s["valid"].as_u64()), (Some(5), Some(10), Some(5)));
    for dialect in ["usi", "fen", "epd", "gsdb", "json"] {
        assert!(s["dialects"][dialect].as_u64().is_some_and(|n| n >= 1), "{dialect} in {s}");
    }
    // The README, of no format kifu reads, is left out quietly.
    assert_eq!(text(&out.stderr), "");
    // In words, the summary names the files.
    let human = run_in(dir.path(), &["check", "."]);
    assert!(stdout(&human)
        .trim_end()
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("10 records in 5 files: 5 valid, 5 invalid")));
}

#[test]
fn format_forces_one_format_on_every_file_of_a_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "one.txt", format!("{START}\n").as_bytes());
    write(dir.path(), "two.sfen", format!("{START}\n").as_bytes());
    let out = run_in(dir.path(), &["check", "--output-format", "json", "--format", "sfen", "."]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(summary(&out)["files"].as_u64(), Some(2));
    let out = run_in(dir.path(), &["check", "--output-format", "json", "."]);
    assert_eq!(summary(&out)["files"].as_u64(), Some(1), "without --format, `one.txt` is skipped");
}

#[test]
fn gitignore_is_respected_hidden_files_skipped_unless_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    mkdir(d, "old");
    mkdir(d, ".cache");
    write(d, ".gitignore", b"old/\n");
    write(d, "kept.sfen", format!("{START}\n").as_bytes());
    write(d, "old/broken.sfen", format!("{BAD_SFEN}\n").as_bytes());
    let hidden = write(d, ".cache/broken.sfen", format!("{BAD_SFEN}\n").as_bytes());
    let out = run_in(d, &["check", "--output-format", "json", "."]);
    assert_eq!((out.status.code(), summary(&out)["files"].as_u64()), (Some(0), Some(1)));
    let out = run_in(d, &["check", "--output-format", "json", "--no-ignore", "."]);
    assert_eq!((out.status.code(), summary(&out)["files"].as_u64()), (Some(1), Some(2)));
    let bad: Vec<_> = json_lines(&out).into_iter().filter(|l| l["type"] == "diagnostic").collect();
    assert!(bad.iter().all(|l| l["file"] == "./old/broken.sfen"), "{bad:?}");
    // A hidden file named on the command line is read.
    let out = run_in(d, &["check", "--output-format", "json", &hidden]);
    assert_eq!((out.status.code(), summary(&out)["files"].as_u64()), (Some(1), Some(1)));
}

/// A folder named on the command line is read whatever the ignore files of the folders above it
/// say (here that everything in it is left out); its own ignore files apply. A folder whose every
/// file an ignore file leaves out says so in the summary, not a bare "0 records".
#[test]
fn ignore_files_above_a_named_folder_never_hide_it_silently() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    mkdir(d, "x/sub");
    write(d, "x/.gitignore", b"sub/*\n");
    write(d, "x/sub/a.sfen", format!("{BAD_SFEN}\n").as_bytes());
    write(d, "x/sub/.ignore", b"b.sfen\n");
    write(d, "x/sub/b.sfen", format!("{BAD_SFEN}\n").as_bytes());
    // Named, `x/sub` keeps the ignore files above it, as git and ripgrep do: the files they
    // leave out are counted and the folder named.
    for named in ["x/sub", &d.join("x/sub").to_string_lossy()] {
        let out = run_in(d, &["check", "--output-format", "json", named]);
        let counts = (out.status.code(), summary(&out)["files"].as_u64(), summary(&out)["ignored"].as_u64());
        assert_eq!(counts, (Some(0), Some(0), Some(2)), "{named}");
        assert!(text(&out.stderr).contains("its 2 files of a format kifu reads are left out by ignore files"));
    }
    // Without the parent's rule, `a.sfen` is read and `sub/.ignore` still leaves `b.sfen` out.
    write(d, "x/.gitignore", b"");
    let out = run_in(d, &["check", "--output-format", "json", "x/sub"]);
    assert_eq!((out.status.code(), summary(&out)["files"].as_u64()), (Some(1), Some(1)));
    write(d, "x/.gitignore", b"sub/*\n");
    // Walked from above, `x/.gitignore` leaves out both files: the summary counts them.
    let out = run_in(d, &["check", "--output-format", "json", "x"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!((summary(&out)["records"].as_u64(), summary(&out)["ignored"].as_u64()), (Some(0), Some(2)));
    let out = run_in(d, &["check", "x"]);
    let last = stdout(&out).lines().last().map(str::to_owned).unwrap_or_default();
    assert_eq!(
        last,
        "0 records: 0 valid, 0 invalid, 0 warnings; 2 files left out by ignore files (`--no-ignore` reads them)"
    );
    assert!(
        text(&out.stderr).contains("`x`: its 2 files of a format kifu reads are left out by ignore files"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(d, &["check", "--output-format", "json", "--no-ignore", "x"]);
    assert_eq!((out.status.code(), summary(&out)["files"].as_u64()), (Some(1), Some(2)));
    assert_eq!(summary(&out).get("ignored"), None);
}

#[test]
fn verbose_names_the_files_skipped_and_a_named_file_keeps_its_report() {
    let dir = mixed_tree();
    write(dir.path(), "notes.txt", b"hello\n");
    let out = run_in(dir.path(), &["check", "-v", "."]);
    let err = text(&out.stderr);
    assert!(err.contains("skipped `./README.md`: no format kifu reads has its extension"), "{err}");
    assert!(err.contains("skipped `./notes.txt`"), "{err}");
    assert_eq!(out.status.code(), Some(1), "skipped files are no error");
    let out = run_in(dir.path(), &["check", "notes.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot tell the format of `notes.txt` from its name"));
    // A folder with nothing to read says so, and is no error.
    mkdir(dir.path(), "empty");
    write(dir.path(), "empty/notes.txt", b"hello\n");
    let out = run_in(dir.path(), &["check", "empty"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        "kifu: `empty` holds no file of a format kifu reads (`-v` names the files skipped)\n"
    );
}

/// A file found in a folder, of a format kifu knows of but does not read, is a warning that
/// names it, in every output format, and counted in the summary: the run's status is its
/// records' (a file named on the command line that kifu does not read is an error: see
/// `formats_kifu_does_not_read_get_one_report`).
#[test]
fn a_format_kifu_does_not_read_is_a_warning_in_a_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "game.pgn", b"[Event \"x\"]\n1. e4 e5\n");
    write(dir.path(), "a.sfen", format!("{START}\n").as_bytes());
    let out = run_in(dir.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("kifu: warning: `./game.pgn` is a PGN game record"), "{err}");
    assert_eq!(
        stdout(&out),
        "1 record: 1 valid, 0 invalid, 0 warnings (read as 1 USI); 1 file not read: `./game.pgn`\n"
    );
    // `-q` leaves the warning out, and the summary still counts it.
    let quiet = run_in(dir.path(), &["check", "-q", "."]);
    assert_eq!((quiet.status.code(), text(&quiet.stderr)), (Some(0), String::new()));
    assert!(stdout(&quiet).ends_with("; 1 file not read: `./game.pgn`\n"), "{}", stdout(&quiet));

    let json = run_in(dir.path(), &["check", "--output-format", "json", "."]);
    assert_eq!(json.status.code(), Some(0));
    let lines = json_lines(&json);
    assert_eq!(lines[0]["type"], "warning");
    assert_eq!(lines[0]["file"], "./game.pgn");
    assert_eq!(summary(&json)["unread"], 1);

    let github = run_in(dir.path(), &["check", "--output-format", "github", "."]);
    assert_eq!(github.status.code(), Some(0));
    assert!(stdout(&github).starts_with("::warning file=./game.pgn::`./game.pgn` is a PGN game record"));

    let sarif = run_in(dir.path(), &["check", "--output-format", "sarif", "."]);
    assert_eq!(sarif.status.code(), Some(0));
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("JSON");
    let typed: serde_sarif::sarif::Sarif = serde_json::from_slice(&sarif.stdout).expect("a SARIF 2.1.0 log");
    assert_eq!(typed.runs[0].invocations.as_ref().map(Vec::len), Some(1));
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    let notice = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notice["level"], "warning");
    assert_eq!(notice["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "./game.pgn");
    assert!(notice["message"]["text"].as_str().is_some_and(|t| t.contains("PGN game record")), "{notice}");
}

/// A file named that cannot be read fails the run: a SARIF log says so, with the file.
#[test]
fn a_sarif_log_carries_the_files_that_could_not_be_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "a.sfen", format!("{START}\n").as_bytes());
    let out = run_in(dir.path(), &["check", "--output-format", "sarif", "a.sfen", "missing.sfen"]);
    assert_eq!(out.status.code(), Some(2));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notice = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notice["level"], "error");
    assert_eq!(notice["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "missing.sfen");
    assert!(notice["message"]["text"].as_str().is_some_and(|t| t.contains("cannot open `missing.sfen`")), "{notice}");
}

#[test]
fn quoted_globs_are_expanded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    mkdir(d, "deep/er");
    for name in ["a.sfen", "b.sfen", "deep/c.sfen", "deep/er/d.sfen"] {
        write(d, name, format!("{START}\n").as_bytes());
    }
    write(d, "e.fen", format!("{FEN}\n").as_bytes());
    let files = |pattern: &str| {
        let out = run_in(d, &["check", "--output-format", "json", pattern]);
        assert_eq!(out.status.code(), Some(0), "{pattern}: {}", text(&out.stderr));
        summary(&out)["files"].as_u64()
    };
    assert_eq!(files("*.sfen"), Some(2), "`*` stays in its folder");
    assert_eq!(files("**/*.sfen"), Some(4));
    assert_eq!(files("deep/*/*.sfen"), Some(1));
    assert_eq!(files("*.{fen,sfen}"), Some(3));
    // Names as the pattern writes them.
    let out = run_in(d, &["check", "--output-format", "json", "--format", "fen", "*.sfen"]);
    let named: Vec<_> = json_lines(&out).into_iter().filter_map(|l| l["file"].as_str().map(str::to_owned)).collect();
    assert_eq!(named.first().map(String::as_str), Some("a.sfen"));
    // A glob that matches nothing is an error naming it; the other paths are still read.
    let out = run_in(d, &["check", "*.psn", "a.sfen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no file matches `*.psn`"), "{}", text(&out.stderr));
    assert!(stdout(&out).contains("1 record: 1 valid"));
}

#[test]
fn other_commands_read_folders_too() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "a.sfen", format!("{START}\n").as_bytes());
    write(dir.path(), "b.fen", format!("{FEN}\n").as_bytes());
    write(dir.path(), "c.txt", b"not read\n");
    let out = run_in(dir.path(), &["json", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(json_lines(&out).len(), 2);
    let out = run_in(dir.path(), &["board", "-v", "*"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("skipped `c.txt`"));
    assert!(stdout(&out).contains("rnbqkbnr"));
    // A folder of games: the files of other formats are left out (named with -v).
    write(dir.path(), "d.psn", GAME.as_bytes());
    let out = run_in(dir.path(), &["convert", "--to", "usi", "-v", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(stdout(&out).lines().count(), 1);
    assert!(text(&out.stderr).contains("skipped `./a.sfen`: not a file of games"));
}

/// A file of `n` valid records, each with the same warning, and one invalid record.
fn repeated(dir: &Path, name: &str, n: usize) -> String {
    let mut body = String::new();
    for _ in 0..n {
        body.push_str(HAND_ORDER);
        body.push('\n');
    }
    body.push_str(BAD_SFEN);
    body.push('\n');
    write(dir, name, body.as_bytes())
}

#[test]
fn quiet_shows_errors_and_the_summary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = repeated(dir.path(), "a.sfen", 3);
    let out = run_in(dir.path(), &["check", "-q", &path]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text.contains("hand-order"), "{text}");
    assert_eq!(text.matches("sfen::rank-width").count(), 1, "{text}");
    assert!(text.trim_end().ends_with("4 records: 3 valid, 1 invalid, 3 warnings (read as 4 USI)"), "{text}");
    let out = run_in(dir.path(), &["check", "-q", "--output-format", "json", &path]);
    let lines = json_lines(&out);
    assert!(lines.iter().filter(|l| l["type"] == "diagnostic").all(|l| l["severity"] == "error"));
    assert_eq!(summary(&out)["warnings"].as_u64(), Some(3));
}

#[test]
fn statistics_count_findings_by_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = repeated(dir.path(), "a.sfen", 3);
    let b = repeated(dir.path(), "b.sfen", 2);
    let out = run_in(dir.path(), &["check", "--statistics", &a, &b]);
    assert_eq!(out.status.code(), Some(1));
    let expected = "\
5  sfen::hand-order  warning  The hands are not in USI's order (rook, bishop, gold, silver, knight, lance, pawn; Black first).
2  sfen::rank-width  error    A rank covers more or fewer than nine squares.
7 records in 2 files: 5 valid, 2 invalid, 5 warnings (read as 7 USI)
";
    assert_eq!(stdout(&out), expected);
    let out = run_in(dir.path(), &["check", "--statistics", "--output-format", "json", &a, &b]);
    let lines = json_lines(&out);
    let rows: Vec<_> = lines
        .iter()
        .map(|l| (l["type"].as_str(), l["code"].as_str(), l["severity"].as_str(), l["count"].as_u64()))
        .collect();
    assert_eq!(
        rows[..2],
        [
            (Some("statistic"), Some("sfen::hand-order"), Some("warning"), Some(5)),
            (Some("statistic"), Some("sfen::rank-width"), Some("error"), Some(2)),
        ]
    );
    assert_eq!(lines.len(), 3, "the statistics and the summary, no finding");
    // PSN games and JSON positions are counted as well.
    let game = write(dir.path(), "g.psn", format!("{GAME}\n{GAME}").as_bytes());
    let out = run_in(dir.path(), &["check", "--statistics", "--output-format", "json", &game]);
    let lines = json_lines(&out);
    assert_eq!(lines.iter().filter(|l| l["type"] == "statistic" && l["count"] == 2).count(), 6, "{lines:?}");
    let out = run_in(dir.path(), &["check", "--statistics", "--output-format", "sarif", &a]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_repeated_warning_is_shown_once_a_file_then_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = repeated(dir.path(), "a.sfen", 3);
    let b = repeated(dir.path(), "b.sfen", 2);
    let out = run_in(dir.path(), &["check", &a, &b]);
    let text = stdout(&out);
    assert_eq!(text.matches("the hand is not in USI order").count(), 2, "once a file: {text}");
    assert!(text.contains(&format!("sfen::hand-order: and 2 more like this in `{a}`, not shown")), "{text}");
    assert!(text.contains(&format!("sfen::hand-order: and 1 more like this in `{b}`, not shown")), "{text}");
    // The first one is shown: line 1 of each file.
    assert!(text.contains(&format!("{a}:1:")) && !text.contains(&format!("{a}:2:")), "{text}");
    // Errors are never folded.
    assert_eq!(text.matches("sfen::rank-width\n").count(), 2);
    // Every finding in the outputs for programs.
    let json = run_in(dir.path(), &["check", "--output-format", "json", &a, &b]);
    assert_eq!(json_lines(&json).iter().filter(|l| l["code"] == "sfen::hand-order").count(), 5);
    let github = run_in(dir.path(), &["check", "--output-format", "github", &a, &b]);
    assert_eq!(stdout(&github).matches("::warning ").count(), 5, "{}", stdout(&github));
}

#[test]
fn the_fold_is_the_same_on_any_number_of_workers() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Many batches of lines, checked on several threads.
    let a = repeated(dir.path(), "a.sfen", 20_000);
    let game = write(dir.path(), "g.psn", GAME.repeat(300).as_bytes());
    let one = run_in(dir.path(), &["check", "-j", "1", &a, &game]);
    let four = run_in(dir.path(), &["check", "-j", "4", &a, &game]);
    let text = stdout(&four);
    assert_eq!(stdout(&one), text);
    assert_eq!(text.matches("the hand is not in USI order").count(), 1);
    assert!(text.contains("sfen::hand-order: and 19999 more like this"), "{text}");
    assert!(text.contains("psn::move-separator: and 299 more like this"), "{text}");
}

/// A FIFO in a walked folder is said and left (reading it would wait for ever); a glob that
/// nests `{…}` past the limit is a clear error, not a crash.
#[test]
fn special_files_and_deep_globs_are_refused_with_a_word() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "b.sfen", format!("{START}\n").as_bytes());
    let fifo = dir.path().join("a.sfen");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let out = run_in(dir.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("skipped `./a.sfen`: not a regular file"), "{}", text(&out.stderr));
    assert!(stdout(&out).starts_with("1 record: 1 valid"), "{}", stdout(&out));
    let deep = format!("{}a{}", "{".repeat(130), "}".repeat(130));
    let out = run_in(dir.path(), &["check", &deep]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("nests `{…}` groups 130 deep"), "{}", text(&out.stderr));
}
