//! PSN games that go too far, through the built binary: variations nested tens of thousands
//! deep, and a game with more faults than anyone reads, each kept just under the longest game
//! read (256 KiB) so that its own limit is the one reached. Every command ends with a report and an
//! exit status, never a crash.

use std::path::Path;
use std::process::{Command, Output};

use insta_cmd::get_cargo_bin;

fn kifu(args: &[&str]) -> Output {
    Command::new(get_cargo_bin("kifu"))
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .expect("kifu runs")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.to_string_lossy().into_owned()
}

/// Runs every command that reads games on `path`: each ends with `status`, without a panic.
fn every_command(path: &str, status: i32) -> Vec<(String, Output)> {
    let commands: [&[&str]; 8] = [
        &["check"],
        &["check", "--no-replay"],
        &["check", "--message-format", "json"],
        &["json"],
        &["convert", "--to", "psn"],
        &["convert", "--to", "usi"],
        &["convert", "--to", "sfen"],
        &["board"],
    ];
    commands
        .iter()
        .map(|args| {
            let mut all = args.to_vec();
            all.push(path);
            let out = kifu(&all);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("panicked") && !stderr.contains("overflow"), "{args:?}: {stderr}");
            assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
            (args.join(" "), out)
        })
        .collect()
}

#[test]
fn variations_tens_of_thousands_deep() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The reproducer: a thousand `(` never closed overflowed the stack in the replay.
    let open = write(dir.path(), "open.psn", &format!("P7f {}\n", "(P3d ".repeat(1000)));
    every_command(&open, 1);
    let open = write(dir.path(), "open.psn", &format!("P7f {}\n", "(P3d ".repeat(50_000)));
    for (command, out) in every_command(&open, 1) {
        if command == "check" {
            let text = String::from_utf8_lossy(&out.stdout);
            // Each level is a finding of its own (the pawn cannot go to 3d); one says how many
            // more there are, and names the depth among them.
            assert!(text.contains("100 variations never end"), "{text}");
            assert!(text.contains("psn::too-deep"), "{text}");
        }
    }
    // Closed and legal at every level: one error, the depth.
    let closed = write(
        dir.path(),
        "closed.psn",
        &format!("1. P7f {}{} 1... P3d 1-0\n", "(1. P2f ".repeat(28_000), ")".repeat(28_000)),
    );
    for (command, out) in every_command(&closed, 1) {
        let text = String::from_utf8_lossy(&out.stdout);
        if command == "check" {
            assert!(text.contains("psn::too-deep"), "{text}");
            assert!(text.contains("variations are nested more than 100 deep"), "{text}");
            assert_eq!(text.matches("× ").count(), 1, "{text}");
        }
        if command == "check --message-format json" {
            assert_eq!(text.matches("\"severity\":\"error\"").count(), 1, "{text}");
        }
    }
}

#[test]
fn variations_as_deep_as_allowed_are_read_and_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = format!("1. P7f {}{} 1... P3d 1-0\n", "(1. P2f ".repeat(100), ")".repeat(100));
    let path = write(dir.path(), "deep.psn", &text);
    let outputs = every_command(&path, 0);
    let written = &outputs.iter().find(|(c, _)| c == "convert --to psn").expect("convert").1.stdout;
    let written = String::from_utf8_lossy(written);
    assert_eq!(written.matches('(').count(), 100);
    let again = write(dir.path(), "again.psn", &written);
    let out = kifu(&["convert", "--to", "psn", &again]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), written);
}

#[test]
fn a_game_with_eighty_thousand_faults_reports_the_first_hundred() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "faults.psn", &format!("1. P7f {}\n", "Zq ".repeat(80_000)));
    let out = kifu(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().filter(|l| *l == "psn::unknown-word").count(), 100, "{text}");
    assert!(text.contains("79900 more errors in this game not shown: 79900 psn::unknown-word"), "{text}");
    assert!(text.len() < 100_000, "{} bytes", text.len());
    let out = kifu(&["check", "--message-format", "json", &path]);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 102, "100 findings, the one on those left out, the summary");
    assert_eq!(lines[100]["code"], "psn::more-findings");
    assert_eq!(lines[100]["severity"], "error");
}
