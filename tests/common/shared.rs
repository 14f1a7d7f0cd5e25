//! The corpus in `../shared`, beside the repository: tests use it for extra checks, never as a
//! condition to pass. A test that finds it absent says so on the terminal, past the test
//! harness's capture, so that a fresh clone's `cargo test` shows what it skipped; with
//! `KIFU_SHARED=required` (as `.ci/run` sets it) its absence fails the test instead. A test that
//! reads it asserts a floor on what it checked, so that a corpus cut short fails too.

#![allow(dead_code)]

/// The real PSN files of the corpus (`corpus/psn/*.psn`).
pub const PSN_FILES: usize = 28;

include!("../../src/corpus.rs");

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
