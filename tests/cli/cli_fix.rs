//! `kifu check --fix`, `--diff` and `--unsafe-fixes` through the built binary: the safe fixes
//! applied in place, line ends, byte-order marks and blank lines kept, valid files untouched,
//! a second run with nothing left to do.

use crate::common::bin;

use bin::{kifu, stdout, write};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A file of SFEN records: one valid, one with trailing spaces, one with its hand out of order,
/// a blank line, CRLF line ends, and a byte-order mark.
fn faulty() -> String {
    format!("\u{FEFF}{START}\r\n{START}  \r\n\r\n4k4/9/9/9/9/9/9/9/4K4 b 2SB 1\r\n")
}

#[test]
fn fix_applies_the_safe_fixes_and_keeps_the_rest_of_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "a.sfen", faulty().as_bytes());
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // The byte-order mark is part of how the file is written: kept, and still a warning.
    let summary = "3 records: 3 valid, 0 invalid, 1 warning (read as 3 USI); 2 fixed";
    assert!(stdout(&out).trim_end().ends_with(summary), "{}", stdout(&out));
    let fixed = std::fs::read_to_string(&path).expect("read");
    assert_eq!(fixed, format!("\u{FEFF}{START}\r\n{START}\r\n\r\n4k4/9/9/9/9/9/9/9/4K4 b B2S 1\r\n"));
    // A second run has nothing left to do, and changes nothing.
    let again = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert!(stdout(&again).trim_end().ends_with("; 0 fixed"), "{}", stdout(&again));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), fixed);
}

#[test]
fn fix_never_changes_a_valid_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = format!("{START}\n\n{START}\r\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let sfen = write(dir.path(), "ok.sfen", format!("{START}\n\n{START}\r").as_bytes());
    let fen = write(dir.path(), "ok.fen", text.lines().last().unwrap_or_default().as_bytes());
    for path in [&sfen, &fen] {
        let before = std::fs::read(path).expect("read");
        let out = kifu().args(["check", "--fix", "--unsafe-fixes", path]).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{path}: {}", stdout(&out));
        assert_eq!(std::fs::read(path).expect("read"), before, "{path} is untouched");
    }
}

#[test]
fn diff_prints_the_fixes_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "a.sfen", faulty().as_bytes());
    let out = kifu().args(["check", "--diff", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1), "fixes to apply");
    // Each line with its own end (the file's are CRLF).
    let expected = format!(
        "--- {path}\n+++ {path}\n@@ -1,4 +1,4 @@\n \u{FEFF}{START}\r\n-{START}  \r\n+{START}\r\n \r\n-4k4/9/9/9/9/9/9/9/4K4 b 2SB 1\r\n+4k4/9/9/9/9/9/9/9/4K4 b B2S 1\r\n2 fixes to apply (`--fix` applies them)\n"
    );
    assert_eq!(stdout(&out), expected);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), faulty());
    let json = kifu().args(["check", "--diff", "--message-format", "json", &path]).output().expect("runs");
    let last = stdout(&json).lines().last().map(str::to_owned).unwrap_or_default();
    let summary: serde_json::Value = serde_json::from_str(&last).expect("a JSON summary");
    assert_eq!((summary["type"].as_str(), summary["fixable"].as_u64()), (Some("summary"), Some(2)));
}

#[test]
fn fixes_json_positions_and_fen_records() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fen = write(dir.path(), "a.fen", b"4k3/8/8/8/8/8/8/4K3 w - -\n");
    let out = kifu().args(["check", "--fix", "--message-format", "json", &fen]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(std::fs::read_to_string(&fen).expect("read"), "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
    let last = stdout(&out).lines().last().map(str::to_owned).unwrap_or_default();
    let summary: serde_json::Value = serde_json::from_str(&last).expect("a JSON summary");
    assert_eq!((summary["fixed"].as_u64(), summary["valid"].as_u64()), (Some(1), Some(1)));
}

/// A file whose text does not give its bytes back in the encoding it was read in (here, a
/// Latin-1 `é` in a line after a UTF-8 `é`) is left as it was, with a warning that says why, and
/// its findings are reported; standard input cannot be fixed.
#[test]
fn what_cannot_be_fixed_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bytes = format!("# caf\u{e9}\n{START} ").into_bytes();
    bytes.extend_from_slice(b"\xE9\n");
    let mixed = write(dir.path(), "a.sfen", &bytes);
    let out = kifu().args(["check", "--fix", &mixed]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("kifu leaves") && err.contains("unchanged"), "{err}");
    assert!(stdout(&out).contains("1 file not fixed"), "{}", stdout(&out));
    assert_eq!(std::fs::read(&mixed).expect("read"), bytes);
    let stdin = kifu().args(["check", "--fix", "--format", "sfen", "-"]).output().expect("runs");
    assert_eq!(stdin.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&stdin.stderr).contains("not on standard input"));
}

/// A misspelt PSN move (`Q8d` for `P8d`) has one repair, which plays the move the author most
/// likely meant; it is still another move than the one written, so `--fix` leaves it (its fix
/// is never safe) and `--unsafe-fixes` applies it. A move that names several repairs (`Q7h`,
/// in a second game) gets its likeliest.
#[test]
fn fix_repairs_a_misspelt_psn_move_only_when_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "[Event \"a\"]\n1. P7f P3d 2. P2f Q8d 3. P2e P8e\n\n[Event \"b\"]\n1. P7f P3d 2. Q7h P8d\n";
    let path = write(dir.path(), "a.psn", text.as_bytes());
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).trim_end().ends_with("; 0 fixed"), "{}", stdout(&out));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), text, "--fix changes no move");
    let out = kifu().args(["check", "--fix", "--unsafe-fixes", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let again = std::fs::read_to_string(&path).expect("read");
    let fixed = text.replace("Q8d", "P8d");
    assert!(["R7h", "S7h", "G7h"].iter().any(|m| again == fixed.replace("Q7h", m)), "{again}");
}

/// The diff of a file with CRLF, CR-only or LF line ends, with or without a last line end,
/// applies with `git apply` and gives what `--fix` writes, byte for byte.
#[test]
fn a_diff_applies_as_git_applies_it_whatever_the_line_ends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let faulty = |end: &str, last: &str| format!("{START}{end}{START}  {end}4k4/9/9/9/9/9/9/9/4K4 b 2SB 1{last}");
    for (name, text) in [
        ("crlf.sfen", faulty("\r\n", "\r\n")),
        ("cr.sfen", faulty("\r", "")),
        ("lf.sfen", faulty("\n", "")),
        ("mixed.sfen", faulty("\r\n", "\n")),
    ] {
        for copy in ["diffed", "fixed"] {
            std::fs::create_dir_all(dir.path().join(copy)).expect("a folder");
            write(&dir.path().join(copy), name, text.as_bytes());
        }
        let diffed = dir.path().join("diffed");
        let diff = kifu().current_dir(&diffed).args(["check", "--diff", name]).output().expect("runs");
        let patch = diffed.join(format!("{name}.patch"));
        std::fs::write(&patch, &diff.stdout).expect("write the diff");
        let applied = std::process::Command::new("git")
            .current_dir(&diffed)
            .args(["apply", "-p0"])
            .arg(&patch)
            .output()
            .expect("git runs");
        assert!(applied.status.success(), "{name}: {}\n{}", String::from_utf8_lossy(&applied.stderr), stdout(&diff));
        let fixed = dir.path().join("fixed");
        kifu().current_dir(&fixed).args(["check", "--fix", name]).output().expect("runs");
        let read = |d: &std::path::Path| std::fs::read(d.join(name)).expect("read");
        assert_eq!(read(&diffed), read(&fixed), "{name}");
        assert_ne!(read(&fixed), text.as_bytes(), "{name}: fixed");
    }
}

/// `--fix` writes a new file in the old one's place: it keeps the old one's owner and group
/// (running as root, a file of another user stays theirs), and refuses a file with other names
/// (hard links), which the new file would part from it.
#[test]
fn fix_keeps_the_owner_and_refuses_to_part_hard_links() {
    use std::os::unix::fs::MetadataExt as _;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "a.sfen", faulty().as_bytes());
    let linked = dir.path().join("b.sfen");
    std::fs::hard_link(&path, &linked).expect("a hard link");
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let said = String::from_utf8_lossy(&out.stderr).into_owned() + &stdout(&out);
    assert!(said.contains("has 2 names (hard links)"), "{said}");
    assert_eq!(std::fs::read_to_string(&linked).expect("read"), faulty(), "both names keep the text");
    std::fs::remove_file(&linked).expect("remove the link");
    // Only root can give a file to another user; then `--fix` keeps it theirs.
    let given = std::os::unix::fs::chown(&path, Some(4321), Some(4321)).is_ok();
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_ne!(std::fs::read_to_string(&path).expect("read"), faulty(), "fixed: {}", stdout(&out));
    let meta = std::fs::metadata(&path).expect("metadata");
    if given {
        assert_eq!((meta.uid(), meta.gid()), (4321, 4321));
    }
}

/// `--fix` gives the file it writes anew the old one's extended attributes. On a file system
/// without them there is nothing to keep: the test says so and checks that the file is fixed.
/// (When the new file cannot take one, the file is left as it was and the attribute named: the
/// unit test `an_attribute_the_new_file_cannot_take_is_named` in `src/cli/output.rs`.)
#[test]
fn fix_keeps_extended_attributes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "a.sfen", faulty().as_bytes());
    let set = xattr::set(&path, "user.comment", b"kept by --fix");
    if let Err(e) = &set {
        eprintln!("skipped the extended attribute: the temporary folder's file system takes none ({e}); checking the fix alone");
    }
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_ne!(std::fs::read_to_string(&path).expect("read"), faulty(), "fixed");
    if set.is_ok() {
        let kept = xattr::get(&path, "user.comment").expect("attributes read");
        assert_eq!(kept.as_deref(), Some(&b"kept by --fix"[..]));
    }
}
