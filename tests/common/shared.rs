//! The corpus in `../shared`, beside the repository: tests use it for extra checks, never as a
//! condition to pass. A test that finds it absent says so on the terminal, past the test
//! harness's capture, so that a fresh clone's `cargo test` shows what it skipped; with
//! `KIFU_SHARED=required` (as `.ci/run` sets it) its absence fails the test instead. A test that
//! reads it asserts a floor on what it checked, so that a corpus cut short fails too.

#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The real PSN files of the corpus (`corpus/psn/*.psn`).
pub const PSN_FILES: usize = 28;

/// `../shared/<relative>` when it is there. When it is not: a note, or a failure under
/// `KIFU_SHARED=required`.
pub fn path(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(relative);
    if path.exists() {
        return Some(path);
    }
    let why = format!("../shared/{relative} is absent");
    assert!(std::env::var_os("KIFU_SHARED").is_none_or(|v| v != "required"), "{why}, and KIFU_SHARED=required");
    skipped(&why);
    None
}

/// The `.psn` files of `../shared/corpus/psn`, sorted, when the folder is there: at least
/// [`PSN_FILES`] of them.
pub fn psn_files() -> Option<Vec<PathBuf>> {
    let dir = path("corpus/psn")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "psn"))
        .collect();
    files.sort();
    at_least("PSN files in ../shared/corpus/psn", files.len(), PSN_FILES);
    Some(files)
}

/// Says, on the terminal and not in the output the harness captures, what the running test
/// could not check, and why.
pub fn skipped(why: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr(), "note: {test}: {why}, so what it holds is not checked");
}

/// Asserts that a loop checked at least `floor` of `what`.
pub fn at_least(what: &str, checked: usize, floor: usize) {
    assert!(checked >= floor, "{checked} {what} checked, fewer than the {floor} expected");
}
