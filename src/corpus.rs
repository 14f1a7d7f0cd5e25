// The corpus in `../shared`, beside the repository, for tests' extra checks (never a condition
// to pass): included by the integration tests' `common/shared.rs` too, so it has no inner
// attributes or documentation.

use std::io::Write as _;
use std::path::{Path, PathBuf};

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
