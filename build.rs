//! Builds the conformance suite (`conformance/`) into the library when the `playground`
//! feature is on, so that `kifu conformance` runs from anywhere: `$OUT_DIR/suite.rs` lists every
//! file of the suite with its bytes (`include_bytes!`), in a stable order.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=conformance");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let suite = root.join("conformance");
    let mut found = Vec::new();
    if std::env::var_os("CARGO_FEATURE_PLAYGROUND").is_some() {
        files(&suite, &mut found);
    }
    found.sort();
    let mut text = String::from("/// Every file of the conformance suite: its path in the suite, and its bytes.\npub static SUITE: &[(&str, &[u8])] = &[\n");
    for path in &found {
        let Ok(relative) = path.strip_prefix(&suite) else { continue };
        let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        // The path from the crate's own folder, so that the list holds for any checkout of it.
        text.push_str(&format!(
            "    ({name:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),\n",
            format!("/conformance/{name}")
        ));
    }
    text.push_str("];\n");
    std::fs::write(out_dir.join("suite.rs"), text).expect("write suite.rs");
}
