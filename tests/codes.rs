//! The registry of diagnostic codes drives the docs: the README's table of codes and the
//! conformance suite's `codes.tsv` are what `kifu::diagnostic::codes` makes them.
//! `KIFU_UPDATE_CODES=1 cargo test --test codes` writes them again.

use std::path::{Path, PathBuf};

use kifu::diagnostic::codes;

const START: &str = "<!-- codes:start -->\n";
const END: &str = "<!-- codes:end -->";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn update() -> bool {
    std::env::var_os("KIFU_UPDATE_CODES").is_some()
}

/// Writes `fresh` to `path` under `KIFU_UPDATE_CODES`, else fails when the file differs.
fn check(path: &Path, fresh: &str) {
    if update() {
        std::fs::write(path, fresh).expect("write");
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == fresh,
        "{} is stale: run `KIFU_UPDATE_CODES=1 cargo test --test codes` to write it from src/diagnostic/codes.rs",
        path.display()
    );
}

/// The README's section between the two markers holds the registry's table.
#[test]
fn readme_table_is_fresh() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let start = readme.find(START).expect("the README has the codes:start marker") + START.len();
    let end = start + readme[start..].find(END).expect("the README has the codes:end marker");
    let fresh = format!("{}{}\n{}", &readme[..start], codes::markdown(), &readme[end..]);
    check(&path, &fresh);
}

/// `conformance/codes.tsv` lists the registry.
#[test]
fn conformance_list_is_fresh() {
    check(&root().join("conformance/codes.tsv"), &codes::tsv());
}
