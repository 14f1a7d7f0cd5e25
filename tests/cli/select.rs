//! `--select`, `--ignore`, `--extend-select`, `--warnings-as-errors`, and the same in a
//! `kifu.toml` or a `pyproject.toml`'s `[tool.kifu]` above the input (`--config`, `--isolated`).

use std::path::Path;

use kifu::diagnostic::Code;

use crate::common::bin::{json_lines, run, text, write};

/// The codes `kifu check` reports on `path` with `flags`, in order, and its exit status.
fn codes(path: &str, flags: &[&str]) -> (Vec<String>, Option<i32>) {
    let mut args = vec!["--output-format", "json", "check", path];
    args.extend_from_slice(flags);
    let out = run(&args);
    let found = json_lines(&out).iter().filter_map(|v| v["code"].as_str().map(str::to_owned)).collect();
    (found, out.status.code())
}

const TOUR: &str = "examples/tour.sfen";

#[test]
fn ignore_and_select_change_exactly_what_they_name() {
    let (all, status) = codes(TOUR, &[]);
    assert_eq!(status, Some(1));
    let missing_king = Code::SfenMissingKing.as_str();
    assert!(all.iter().any(|c| c == missing_king), "{all:?}");
    let without: Vec<String> = all.iter().filter(|c| *c != missing_king).cloned().collect();
    assert_eq!(codes(TOUR, &["--ignore", missing_king]).0, without);
    let only: Vec<String> = all.iter().filter(|c| *c == missing_king).cloned().collect();
    let (selected, status) = codes(TOUR, &["--select", missing_king]);
    assert_eq!((selected, status), (only, Some(0)), "warnings alone: every record valid");
    // A group, and the most precise pattern deciding.
    let nifu = Code::SfenNifu.as_str();
    assert_eq!(codes(TOUR, &["--ignore", "sfen", "--select", nifu]).0, [nifu]);
    assert_eq!(codes(TOUR, &["--select", "sfen::", "--ignore", "sfen"]).0, Vec::<String>::new());
    let (extended, _) = codes(TOUR, &["--select", nifu, "--extend-select", missing_king]);
    assert!(extended.iter().all(|c| c == nifu || c == missing_king) && extended.len() == 3, "{extended:?}");
}

#[test]
fn warnings_as_errors_make_records_with_warnings_invalid() {
    let (found, status) = codes(TOUR, &["--select", Code::SfenHandOrder.as_str(), "--warnings-as-errors"]);
    assert_eq!(status, Some(1));
    let out = run(&["--output-format", "json", "check", TOUR, "--select", "sfen::hand-order", "--warnings-as-errors"]);
    let lines = json_lines(&out);
    assert!(lines.iter().filter(|v| v["code"].is_string()).all(|v| v["severity"] == "error"), "{found:?}");
    assert!(lines.iter().any(|v| v["type"] == "summary" && v["invalid"] == 2), "{lines:?}");
}

#[test]
fn unknown_codes_are_usage_errors_that_name_them() {
    let out = run(&["check", TOUR, "--ignore", "sfen::nifu,sfen::no-such-code"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`sfen::no-such-code` is no code of kifu"), "{}", text(&out.stderr));
}

/// A folder with a configuration, and a record of the tour below it.
fn project(config_name: &str, config: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("records")).expect("a folder");
    write(dir.path(), config_name, config.as_bytes());
    let tour = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(TOUR)).expect("the tour");
    let path = write(&dir.path().join("records"), "tour.sfen", &tour);
    (dir, path)
}

#[test]
fn a_configuration_above_the_input_selects_and_the_flags_change_it() {
    let missing_king = Code::SfenMissingKing.as_str();
    let (all, _) = codes(TOUR, &[]);
    let without: Vec<String> = all.iter().filter(|c| *c != missing_king).cloned().collect();
    let (_dir, path) = project("kifu.toml", &format!("ignore = [\"{missing_king}\"]\n"));
    assert_eq!(codes(&path, &[]).0, without, "kifu.toml in the folder above");
    assert_eq!(codes(&path, &["--isolated"]).0, all, "--isolated reads no configuration");
    assert_eq!(codes(&path, &["--select", missing_king]).0, Vec::<String>::new(), "the file's ignore stays");
    let (_dir, path) = project("pyproject.toml", "[project]\nname = \"x\"\n\n[tool.kifu]\nselect = [\"sfen::nifu\"]\n");
    assert_eq!(codes(&path, &[]).0, [Code::SfenNifu.as_str()], "pyproject.toml's [tool.kifu]");
    let (dir, path) = project("other.toml", "warnings-as-errors = true\nselect = [\"sfen::hand-order\"]\n");
    let config = dir.path().join("other.toml");
    let (found, status) = codes(&path, &["--config", &config.to_string_lossy()]);
    assert_eq!((found.len(), status), (2, Some(1)), "{found:?}");
    let (_dir, path) = project("kifu.toml", "ignore = [\"sfen::nope\"]\nextra = 1\n");
    let out = run(&["check", &path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown field `extra`"), "{}", text(&out.stderr));
}

#[test]
fn fix_applies_only_the_fixes_of_selected_codes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = b" lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 \n";
    let path = write(dir.path(), "spaces.sfen", record);
    let out = run(&["check", "--diff", &path, "--ignore", Code::SfenTrailingWhitespace.as_str()]);
    let diff = text(&out.stdout);
    assert!(diff.contains("+lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 \n"), "{diff}");
}
