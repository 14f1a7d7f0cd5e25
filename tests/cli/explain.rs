//! `kifu explain`: a page for every code of the registry, each example getting its code, and the
//! pages of `docs/codes/` written from it (`KIFU_UPDATE_CODES=1 cargo test --test cli explain::`
//! writes them again).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kifu::diagnostic::codes;

use crate::common::bin::{json_lines, kifu, run, run_with_stdin, stdout, text};

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
}

/// Each example, checked as its page says, gets a finding of its code.
#[test]
fn every_example_gets_its_code() {
    let examples = kifu::explain::examples();
    assert!(examples.len() >= 150, "{} examples", examples.len());
    for example in examples {
        let mut cmd = kifu();
        cmd.args(["--output-format", "json", "check"]).args(example.flags());
        let out = run_with_stdin(cmd, example.input);
        let found: Vec<_> = json_lines(&out).iter().filter_map(|v| v["code"].as_str().map(str::to_owned)).collect();
        assert!(found.iter().any(|c| c == example.code.as_str()), "{}: the example gets {found:?}", example.code);
    }
}

/// Every code of the registry has its page, and `docs/codes/` holds no other.
#[test]
fn code_pages_are_fresh() {
    let update = std::env::var_os("KIFU_UPDATE_CODES").is_some();
    let mut pages = BTreeSet::new();
    for entry in codes::all() {
        let out = run(&["explain", entry.code.as_str()]);
        assert!(out.status.success(), "{}: {}", entry.code, text(&out.stderr));
        let page = stdout(&out);
        assert!(page.starts_with(&format!("# {}\n\n{}\n", entry.code, entry.meaning)), "{page}");
        let path = docs().join(codes::page(entry.code));
        if update {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("create docs/codes/…");
            std::fs::write(&path, &page).expect("write a page");
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == page,
            "{} is stale: run `KIFU_UPDATE_CODES=1 cargo test --test cli explain::` to write the pages again",
            path.display()
        );
        pages.insert(path);
    }
    for group in std::fs::read_dir(docs().join("codes")).expect("docs/codes") {
        for page in std::fs::read_dir(group.expect("a folder").path()).expect("a group's pages") {
            let path = page.expect("a page").path();
            assert!(pages.contains(&path), "{} is the page of no code: delete it", path.display());
        }
    }
}

/// A name alone finds its code; a name of two formats and a misspelt one are usage errors that
/// say which codes were meant.
#[test]
fn explain_finds_codes_by_name_and_says_what_was_meant() {
    let nifu = run(&["explain", "NIFU"]);
    assert!(nifu.status.success());
    assert!(stdout(&nifu).starts_with("# sfen::nifu\n"));
    let both = run(&["explain", "rank-width"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(text(&both.stderr).contains("`sfen::rank-width` or `fen::rank-width`"), "{}", text(&both.stderr));
    let typo = run(&["explain", "sfen::nifuu"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(text(&typo.stderr).contains("did you mean `sfen::nifu`?"), "{}", text(&typo.stderr));
    let list = stdout(&run(&["explain"]));
    assert_eq!(list.matches("::").count(), codes::all().count(), "{list}");
}
