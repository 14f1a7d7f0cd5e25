//! The README keeps what a newcomer needs: the two commands to start (which must name a bundled
//! example that exists), and a library example that rustdoc runs as a doctest.

use std::path::Path;

#[test]
fn readme_gives_the_two_commands_and_a_tested_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let start = readme.split("## Start here").nth(1).expect("a `## Start here` section");
    let commands: Vec<&str> = start
        .lines()
        .skip_while(|l| !l.starts_with("```sh"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .collect();
    assert_eq!(commands.len(), 2, "two commands: {commands:?}");
    assert_eq!(commands[1], "cargo test");
    let example = commands[0].strip_prefix("cargo run --release -- check ").expect("the main job on a bundled example");
    assert!(root.join(example).is_file(), "{example} is bundled");
    assert!(readme.contains("```rust\n"), "a library example, run as a doctest through src/lib.rs");
}
