//! The registry of diagnostic codes drives the docs: the table of `docs/codes.md` and the
//! conformance suite's `codes.tsv` are what `kifu::diagnostic::codes` makes them.
//! `KIFU_UPDATE_CODES=1 cargo test --test formats codes::` writes them again.

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
        "{} is stale: run `KIFU_UPDATE_CODES=1 cargo test --test formats codes::` to write it from src/diagnostic/codes.rs",
        path.display()
    );
}

/// The section of `docs/codes.md` between the two markers holds the registry's table.
#[test]
fn codes_table_is_fresh() {
    let path = root().join("docs/codes.md");
    let readme = std::fs::read_to_string(&path).expect("docs/codes.md");
    let start = readme.find(START).expect("docs/codes.md has the codes:start marker") + START.len();
    let end = start + readme[start..].find(END).expect("docs/codes.md has the codes:end marker");
    let fresh = format!("{}{}\n{}", &readme[..start], codes::markdown(), &readme[end..]);
    check(&path, &fresh);
}

/// `conformance/codes.tsv` lists the registry.
#[test]
fn conformance_list_is_fresh() {
    check(&root().join("conformance/codes.tsv"), &codes::tsv());
}

/// Placeholder codes of unit tests, which name no finding of kifu.
const PLACEHOLDERS: &[&str] = &["psn::x"];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder").filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `line` that read as a code of one of the registry's groups,
/// `"group::name"`.
fn code_literals<'a>(line: &'a str, groups: &[&str]) -> Vec<&'a str> {
    line.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            s.split_once("::").is_some_and(|(group, name)| {
                groups.contains(&group)
                    && !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
        })
        .collect()
}

/// Code names its codes from the registry: no code is written as a string in `src/` outside
/// `src/diagnostic/codes.rs`, so that every code is registered and documented, and no logic
/// compares code strings. Comments are not logic: a documented example names a code by its
/// text, as a user of the library does.
#[test]
fn no_code_is_written_as_a_string_outside_the_registry() {
    let groups: Vec<&str> = codes::GROUPS.iter().map(|g| g.name).collect();
    let registry = root().join("src/diagnostic/codes.rs");
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    let mut found = Vec::new();
    for path in files.iter().filter(|p| **p != registry) {
        let text = std::fs::read_to_string(path).expect("a source file");
        for (i, line) in text.lines().enumerate().filter(|(_, line)| !line.trim_start().starts_with("//")) {
            for code in code_literals(line, &groups).into_iter().filter(|c| !PLACEHOLDERS.contains(c)) {
                found.push(format!("{}:{}: \"{code}\"", path.strip_prefix(root()).unwrap_or(path).display(), i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "codes written as strings (name them by their constant in src/diagnostic/codes.rs, adding any new one there):\n{}",
        found.join("\n")
    );
}
