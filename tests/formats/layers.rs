//! The library's layers: data flows one way, from bytes to syntax to model to findings to
//! pictures, and no module reaches up. This test reads `src/` and fails on any `crate::…` path
//! (outside comments) that names a module of a higher layer, or a module beside it on its own
//! layer.

use std::fs;
use std::path::Path;

/// The library's top-level modules, bottom layer first. A module may use those of the layers
/// below its own, and nothing else.
const LAYERS: &[&[&str]] = &[
    // Seeded random numbers and the corpus beside the repository, for tests only.
    &["rng", "corpus"],
    &["span"],
    &["diagnostic"],
    &["checked", "input", "notation"],
    &["shogi", "chess"],
    // What every format provides: the formats below `format` implement it.
    &["unit"],
    &["sfen", "fen"],
    &["json", "psn", "kif", "csa"],
    // JKF is JSON: it reads with the JSON reader.
    &["jkf"],
    &["format"],
    &["check", "explain"],
    &["views", "playground"],
    &["document"],
    &["lsp"],
    // The command-line tool, above everything it drives.
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level module a file of `src/` belongs to: `src/psn/scan.rs` → `psn`.
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_owned())
}

/// Every `crate::name` on a line that is not a comment.
fn crate_paths(line: &str) -> impl Iterator<Item = &str> + '_ {
    let code = line.trim_start();
    let code = if code.starts_with("//") { "" } else { code };
    code.match_indices("crate::").map(move |(at, _)| {
        let rest = &code[at + "crate::".len()..];
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        &rest[..end]
    })
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> =
        fs::read_dir(dir).expect("src/ is readable").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_uses_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut wrong = Vec::new();
    let mut seen = 0;
    for path in &paths {
        let relative = path.strip_prefix(&src).expect("a file of src/");
        let Some(own) = module_of(relative) else { continue };
        // The crate root and the binary stand above every layer.
        let Some(own_layer) = layer_of(&own) else {
            assert!(
                ["lib", "main"].contains(&own.as_str()),
                "{}: a top-level module missing from LAYERS",
                relative.display()
            );
            continue;
        };
        let text = fs::read_to_string(path).expect("a source file is UTF-8");
        for (number, line) in text.lines().enumerate() {
            for used in crate_paths(line) {
                seen += 1;
                let Some(used_layer) = layer_of(used) else { continue };
                if used != own && used_layer >= own_layer {
                    wrong.push(format!("{}:{}: {own} uses {used}", relative.display(), number + 1));
                }
            }
        }
    }
    assert!(seen > 100, "the scan found only {seen} crate paths: is it reading src/?");
    assert!(wrong.is_empty(), "imports that run up or sideways:\n{}", wrong.join("\n"));
}

#[test]
fn every_layer_names_a_module_of_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for module in LAYERS.iter().flat_map(|layer| layer.iter()) {
        let exists = src.join(format!("{module}.rs")).exists() || src.join(module).join("mod.rs").exists();
        assert!(exists, "LAYERS names `{module}`, which is not a module of src/");
    }
}
