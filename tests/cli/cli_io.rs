//! `kifu`'s input and output under stress: closed pipes, full disks, `-o` files, huge or broken
//! JSON input, control characters from the input, and reports in input order from many workers.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::Path;
use std::process::Stdio;

use crate::common::bin;

use bin::{kifu, run, text, write, START};

/// Two thousand invalid SFEN records: about a megabyte of reports.
fn bad_sfen(dir: &Path) -> String {
    write(dir, "bad.sfen", format!("{}\n", START.replace(" b ", " x ")).repeat(2000).as_bytes())
}

/// Runs `args`, reads one line of standard error (or output), closes it, and gives the exit
/// status: what `kifu … 2>&1 | head -1` does to kifu.
fn close_after_one_line(args: &[&str], stderr: bool) -> Option<i32> {
    let mut cmd = kifu();
    cmd.args(args).stdin(Stdio::null());
    if stderr {
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    } else {
        cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    }
    let mut child = cmd.spawn().expect("spawn kifu");
    let mut line = String::new();
    if stderr {
        let pipe = child.stderr.take().expect("stderr");
        BufReader::new(pipe).read_line(&mut line).expect("a line");
    } else {
        let pipe = child.stdout.take().expect("stdout");
        BufReader::new(pipe).read_line(&mut line).expect("a line");
    }
    assert!(!line.is_empty(), "{args:?} wrote something");
    child.wait().expect("kifu ends").code()
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_status_of_what_was_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = bad_sfen(dir.path());
    // Findings on standard error, the reader gone after one line: no panic (101), and status 1
    // for the invalid records read (a pipeline under `set -o pipefail` fails).
    for args in [
        vec!["board", bad.as_str()],
        vec!["json", bad.as_str()],
        vec!["convert", "--to", "sfen", bad.as_str()],
        vec!["board", "--html", bad.as_str()],
        vec!["tree", bad.as_str()],
    ] {
        assert_eq!(close_after_one_line(&args, true), Some(1), "{args:?}");
    }
    // Reports on standard output.
    assert_eq!(close_after_one_line(&["check", &bad], false), Some(1));
    assert_eq!(close_after_one_line(&["check", "-j", "1", &bad], false), Some(1));
    // Valid records, the reader gone after one line: status 0.
    let many = write(dir.path(), "many.sfen", format!("{START}\n").repeat(20_000).as_bytes());
    assert_eq!(close_after_one_line(&["json", &many], false), Some(0));
    assert_eq!(close_after_one_line(&["board", &many], false), Some(0));
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_with_status_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sfen = write(dir.path(), "ok.sfen", format!("{START}\n").as_bytes());
    let psn = write(dir.path(), "g.psn", b"[Sente \"a\"]\n1. P7g-7f\n");
    let fen = write(dir.path(), "ok.fen", b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
    for args in [
        vec!["convert", "--to", "psn", psn.as_str()],
        vec!["json", psn.as_str()],
        vec!["check", sfen.as_str()],
        vec!["json", sfen.as_str()],
        vec!["convert", "--to", "sfen", sfen.as_str()],
        vec!["board", sfen.as_str()],
        vec!["board", fen.as_str()],
        vec!["board", "--html", sfen.as_str()],
        vec!["tree", sfen.as_str()],
        vec!["--help"],
        vec!["--version"],
        vec!["check", "--help"],
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let out = kifu().args(&args).stdout(full).output().expect("kifu runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("kifu: cannot write"), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn the_worker_count_has_a_range() {
    let out = run(&["check", "-j", "9223372036854775807", "examples/tour.sfen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("1..=64"), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("panicked"));
    assert_eq!(run(&["check", "-j", "0", "x.sfen"]).status.code(), Some(2));
}

#[test]
fn many_workers_write_every_report_in_input_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Invalid and valid lines mixed: many megabytes of reports, more than the workers hold.
    let mut input = String::new();
    for i in 0..30_000 {
        input.push_str(if i % 3 == 0 { START } else { "x" });
        input.push('\n');
    }
    let path = write(dir.path(), "mixed.sfen", input.as_bytes());
    for jobs in ["1", "4"] {
        let out = run(&["check", "-j", jobs, "--message-format", "json", &path]);
        assert_eq!(out.status.code(), Some(1));
        let lines: Vec<serde_json::Value> =
            text(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
        let numbers: Vec<u64> = lines.iter().filter_map(|l| l["line"].as_u64()).collect();
        assert!(numbers.windows(2).all(|w| w[0] <= w[1]), "in input order");
        let mut seen: Vec<u64> = numbers.clone();
        seen.dedup();
        assert_eq!(seen.len(), 20_000, "one report set per invalid line");
        let summary = lines.last().expect("summary");
        assert_eq!((summary["records"].as_u64(), summary["invalid"].as_u64()), (Some(30_000), Some(20_000)));
    }
}

fn shogi_json() -> String {
    let out = kifu().args(["json", "--format", "sfen"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let mut child = out.expect("spawn");
    child.stdin.take().expect("stdin").write_all(format!("{START}\n").as_bytes()).expect("write");
    let out = child.wait_with_output().expect("runs");
    text(&out.stdout).trim().to_owned()
}

#[test]
fn a_broken_json_line_hides_nothing_after_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = shogi_json();
    // A record cut short on line 1 (after a `:`, where line 2's object would be a value).
    let cut = &record[..record.find("\"whiteHand\":").expect("key") + "\"whiteHand\":".len()];
    let path = write(dir.path(), "cut.json", format!("{cut}\n{record}\n{record}\n").as_bytes());
    let out = run(&["json", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).lines().count(), 2, "lines 2 and 3 read: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains(":1:"), "the fault is on line 1: {}", text(&out.stderr));
    let out = run(&["check", &path]);
    assert!(text(&out.stdout).contains("3 records: 2 valid, 1 invalid"), "{}", text(&out.stdout));
    // A line longer than any record is reported, and the next line read.
    let long = format!("{{\"x\":\"{}\"}}", "y".repeat(100_000));
    let path = write(dir.path(), "long.json", format!("{record}\n{long}\n{record}\n").as_bytes());
    let out = run(&["check", &path]);
    assert!(text(&out.stdout).contains("input::line-too-long"), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("3 records: 2 valid, 1 invalid"), "{}", text(&out.stdout));
    // A pretty-printed document is read whole.
    let pretty = record.replace(",\"", ",\n  \"");
    let path = write(dir.path(), "pretty.json", format!("[\n{pretty},\n{pretty}\n]\n").as_bytes());
    let out = run(&["json", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

#[test]
fn a_huge_json_document_is_reported_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let zeros = write(dir.path(), "zeros.json", &vec![0u8; 3 << 20]);
    let out = run(&["check", &zeros]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("json::too-large"), "{}", text(&out.stdout));
    let open = write(dir.path(), "open.json", format!("[{}", "1,".repeat(1 << 20)).as_bytes());
    let out = run(&["json", &open]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("json::too-large"), "{}", text(&out.stderr));
    // An endless input stops at the limit.
    let zero = std::fs::File::open("/dev/zero");
    if let Ok(zero) = zero {
        let out = kifu().args(["json", "--format", "json"]).stdin(zero).output().expect("runs");
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stderr).contains("json::too-large"));
    }
}

#[test]
fn an_html_page_holds_a_bounded_number_of_records_and_boards_and_says_what_it_leaves_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 1,003 positions: the page shows 1,000 and says that 3 are left out, from the 1,001st on.
    let sfen = write(dir.path(), "many.sfen", format!("{START}\n").repeat(1003).as_bytes());
    let out = run(&["board", "--html", &sfen]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert_eq!(page.matches("<section class=\"record\"").count(), 1000);
    assert!(
        page.contains("3 more records, from ") && page.contains("many.sfen:1001 on, are not on this page"),
        "{page}"
    );
    assert!(text(&out.stderr).contains("3 more records"), "{}", text(&out.stderr));
    assert!(page.ends_with("</html>\n"));
    // Games of 1,000 positions each: two fill the page's boards, the third is left out.
    let game = format!("[Sente \"A\"]\n{}\n\n", ["R2h-3h R8b-7b R3h-2h R7b-8b"; 250].join(" "));
    let psn = write(dir.path(), "long.psn", game.repeat(3).as_bytes());
    let out = run(&["board", "--html", &psn]);
    let page = text(&out.stdout);
    assert_eq!(page.matches("<section class=\"record\"").count(), 2);
    assert_eq!(page.matches("<div class=\"frame\"").count(), 2000);
    assert!(page.contains("1 more record, from ") && page.contains("shows 2 records and 2000 boards"));
}

#[test]
fn output_files_are_replaced_whole_and_only_after_a_full_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sfen = write(dir.path(), "ok.sfen", format!("{START}\n{START}\n").as_bytes());
    let page = dir.path().join("page.html");
    let page_s = page.to_string_lossy().into_owned();
    std::fs::write(&page, "kept").expect("write");
    // A missing input: the page keeps what it held.
    let missing = dir.path().join("missing.sfen").to_string_lossy().into_owned();
    let out = run(&["board", "--html", "-o", &page_s, &sfen, &missing]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not written"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&page).expect("read"), "kept");
    // Every input read: the page is replaced, and no temporary file is left.
    let out = run(&["board", "--html", "-o", &page_s, &sfen]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&page).expect("read");
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert_eq!(html.matches("<section class=\"record\"").count(), 2);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with(".kifu-")), "{names:?}");
    // Text boards to a file.
    let boards = dir.path().join("boards.txt");
    let out = run(&["board", "-o", &boards.to_string_lossy(), &sfen]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&boards).expect("read"), text(&run(&["board", &sfen]).stdout));
    // SVG: one diagram to PATH, several numbered.
    let one = write(dir.path(), "one.sfen", format!("{START}\n").as_bytes());
    let svg = dir.path().join("b.svg");
    assert_eq!(run(&["board", "--svg", "-o", &svg.to_string_lossy(), &one]).status.code(), Some(0));
    assert!(std::fs::read_to_string(&svg).expect("one SVG").starts_with("<svg"));
    assert_eq!(run(&["board", "--svg", "-o", &svg.to_string_lossy(), &sfen]).status.code(), Some(0));
    assert!(dir.path().join("b-1.svg").is_file() && dir.path().join("b-2.svg").is_file());
}

#[cfg(unix)]
#[test]
fn output_files_are_never_written_through_a_symlink() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sfen = write(dir.path(), "ok.sfen", format!("{START}\n").as_bytes());
    let victim = write(dir.path(), "victim.txt", b"precious");
    let link = dir.path().join("page.html");
    std::os::unix::fs::symlink(&victim, &link).expect("symlink");
    for args in [vec!["board", "--html"], vec!["board"], vec!["board", "--svg"]] {
        let mut args = args.clone();
        let link_s = link.to_string_lossy().into_owned();
        args.extend(["-o", link_s.as_str(), sfen.as_str()]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("symbolic link"), "{}", text(&out.stderr));
        assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
        assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    }
}

#[test]
fn control_characters_from_the_input_are_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let psn = write(dir.path(), "e.psn", b"[Event \"a\x1b[2Jb\x07\"]\n1. P7g-7f\x1b]0;x\x07 2. Q\x1b[31m\n");
    let sfen = write(dir.path(), "e.sfen", b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS\x1b[2JNL b - 1\n");
    let json = write(dir.path(), "e.json", b"{\"side\x1b[2J\":1}\n");
    for args in [
        vec!["check", psn.as_str()],
        vec!["check", sfen.as_str()],
        vec!["check", json.as_str()],
        vec!["json", psn.as_str()],
        vec!["convert", "--to", "psn", psn.as_str()],
        vec!["board", sfen.as_str()],
        vec!["json", json.as_str()],
        vec!["board", "--html", sfen.as_str()],
        vec!["board", "--html", psn.as_str()],
    ] {
        let out = run(&args);
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            assert!(!bytes.iter().any(|b| matches!(b, 0x1b | 0x07)), "{args:?} {stream}: {}", text(bytes));
        }
    }
    let out = run(&["check", &psn]);
    assert!(text(&out.stdout).contains(r"\u{1b}"), "shown as an escape: {}", text(&out.stdout));
}

/// A file name is input: one that holds line ends, workflow commands, `%`, `#`, `?`, ESC, BEL,
/// a C1 control or a bidirectional control reaches no terminal, annotation, diff or URI as it
/// is.
#[test]
fn file_names_are_escaped_for_where_they_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let hostile = "a\n::error file=README.md,line=1::INJECTED\n::stop-commands::x\n%41#b?c\u{1b}[2J\u{7}\u{85}\u{202e}";
    // A record with a fault (two spaces), a file kifu does not read, and a file of a format it
    // does not know.
    let bad = write(dir.path(), &format!("{hostile}.sfen"), format!("{}\n", START.replace(" b ", "  b ")).as_bytes());
    write(dir.path(), &format!("{hostile}.pgn"), b"[Event \"x\"]\n1. e4 e5\n");
    write(dir.path(), &format!("{hostile}.txt"), b"x\n");
    let folder = dir.path().to_string_lossy().into_owned();
    let raw = |bytes: &[u8]| {
        bytes.iter().any(|b| matches!(b, 0x1b | 0x07))
            || text(bytes).contains('\u{85}')
            || text(bytes).contains('\u{202e}')
    };
    for format in ["human", "json", "github", "sarif"] {
        let out = run(&["check", "-v", "--output-format", format, &folder]);
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let shown = text(bytes);
            // JSON keeps the name as it is, for programs: its escapes cover the controls below
            // U+0020, and no other character of it can start a line.
            let raw = if format == "json" && stream == "stdout" {
                bytes.iter().any(|b| matches!(b, 0x1b | 0x07)) || !shown.lines().all(|l| l.starts_with('{'))
            } else {
                raw(bytes)
            };
            assert!(!raw, "{format} {stream}: {shown}");
            // No line of either stream is a workflow command but kifu's own annotations.
            for line in shown.lines().filter(|l| l.starts_with("::")) {
                assert!(
                    format == "github"
                        && stream == "stdout"
                        && (line.starts_with("::error file=") || line.starts_with("::warning file=")),
                    "{format} {stream}: {line}"
                );
                // The name cannot end the properties: the command's second `::` is kifu's. A
                // finding's message holds no name; a notice on a file names it in its message,
                // where `::` starts nothing.
                let properties = line[2..].split("::").next().unwrap_or("");
                assert!(properties.contains("%3A%3Aerror file=README.md%2Cline=1"), "{line}");
                assert!(line.starts_with("::warning") || line.matches("::").count() == 2, "{line}");
            }
        }
        if format == "sarif" {
            let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a SARIF log");
            let uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("a URI")
                .to_owned();
            assert!(uri.ends_with("a%0A%3A%3Aerror%20file%3DREADME.md%2Cline%3D1%3A%3AINJECTED%0A%3A%3Astop-commands%3A%3Ax%0A%2541%23b%3Fc%1B%5B2J%07%C2%85%E2%80%AE.sfen"), "{uri}");
        }
    }
    // The diff names the file quoted as git quotes it: no line of it comes from the name.
    let out = run(&["check", "--diff", &bad]);
    let diff = text(&out.stdout);
    assert!(diff.starts_with("--- \""), "{diff}");
    assert_eq!(diff.lines().filter(|l| l.starts_with("+++") || l.starts_with("@@")).count(), 2, "{diff}");
    assert!(!raw(&out.stdout), "{diff}");
}

#[test]
fn bidi_controls_are_shown_in_pages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sfen = write(dir.path(), "b.sfen", format!("{START}\u{202E} x\n").as_bytes());
    let out = run(&["board", "--html", &sfen]);
    let page = text(&out.stdout);
    assert!(!page.contains('\u{202E}'), "no raw override in the page");
    assert!(page.contains(r"\u{202e}"), "shown instead");
    let out = run(&["check", &sfen]);
    assert!(!text(&out.stdout).contains('\u{202E}'), "nor in the terminal report");
}

#[test]
fn epd_records_round_trip_through_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let epd = write(
        dir.path(),
        "x.epd",
        b"4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"a\";\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
    );
    let out = run(&["json", &epd]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = text(&out.stdout);
    let objects: Vec<serde_json::Value> = first.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(objects[0]["operations"], "bm Kd2; id \"a\";");
    assert_eq!(objects[1]["operations"], "");
    for o in &objects {
        assert!(o.get("halfmoveClock").is_none() && o.get("fullmoveNumber").is_none(), "no invented clocks: {o}");
    }
    let json = write(dir.path(), "x.json", first.as_bytes());
    let again = run(&["json", &json]);
    assert_eq!(text(&again.stdout), first, "round trip");
    assert_eq!(run(&["check", &json]).status.code(), Some(0));
}

#[test]
fn a_missing_input_is_named_and_reading_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sfen = write(dir.path(), "ok.sfen", format!("{START}\n").as_bytes());
    let mut child = kifu()
        .args(["json", "missing.json", &sfen])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = String::new();
    child.stdout.take().expect("stdout").read_to_string(&mut out).expect("read");
    let done = child.wait_with_output().expect("runs");
    assert_eq!(done.status.code(), Some(2));
    assert_eq!(out.lines().count(), 1);
    assert!(text(&done.stderr).contains("missing.json"));
}

/// `board -o F` with no record that gives a board leaves `F` as it was, and says so.
#[test]
fn an_output_file_is_not_emptied_when_no_board_is_drawn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = write(dir.path(), "bad.sfen", b"x/x b - 1\n");
    let target = write(dir.path(), "boards.txt", b"old boards\n");
    let out = run(&["board", "-o", &target, &bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("is not written: no record gave a board"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "old boards\n");
}

/// A JSON position of 20,000 unknown keys: read in linear time, its first findings shown and
/// the rest counted in one more, every one counted by `--statistics`.
#[test]
fn a_json_object_of_many_keys_is_reported_in_bounds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys: Vec<String> = (0..20_000).map(|i| format!("\"k{i}\": {i}")).collect();
    let json = write(dir.path(), "keys.json", format!("{{{}}}\n", keys.join(", ")).as_bytes());
    let out = run(&["check", "--output-format", "json", &json]);
    let findings = text(&out.stdout).lines().filter(|l| l.contains("\"type\":\"diagnostic\"")).count();
    assert_eq!(findings, 65, "64 findings and the note of the others");
    assert!(text(&out.stdout).contains("19940 more findings in this record are not shown"));
    let out = run(&["check", "--statistics", &json]);
    assert!(text(&out.stdout).contains("20000  json::unknown-key"), "{}", text(&out.stdout));
}

/// Two inputs of one name in different folders (`a/x.sfen`, `b/x.sfen`): each of their
/// diagrams gets a file of its own in `-o DIR`, none written over another, and kifu says how
/// the second input's are named.
#[test]
fn svg_files_of_inputs_of_one_name_never_take_one_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let other = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    std::fs::create_dir_all(dir.path().join("a")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("b")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("out")).expect("mkdir");
    let a = write(dir.path(), "a/x.sfen", format!("{START}\n").repeat(5).as_bytes());
    let b = write(dir.path(), "b/x.sfen", format!("{other}\n").repeat(5).as_bytes());
    let out_dir = dir.path().join("out");
    let out = run(&["board", "--svg", "-o", &out_dir.to_string_lossy(), &a, &b]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let expected: Vec<String> =
        (1..=5).map(|n| format!("x-{n}.svg")).chain((1..=5).map(|n| format!("x.2-{n}.svg"))).collect();
    assert_eq!(files, expected);
    // Each file holds its own input's board (the two inputs' positions differ).
    let svg = |name: &str| std::fs::read_to_string(out_dir.join(name)).expect("read");
    assert_ne!(svg("x-1.svg"), svg("x.2-1.svg"));
    assert_eq!(svg("x-1.svg"), svg("x-5.svg"));
    assert_eq!(svg("x.2-1.svg"), svg("x.2-5.svg"));
    assert!(text(&out.stderr).contains("are named `x.2-…`"), "{}", text(&out.stderr));
}
