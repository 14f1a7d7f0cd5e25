//! Every command the README and `docs/` show runs here, and the output they show is its output.
//!
//! A page shows a command in a `console` block: a line `$ …` is the command, the lines up to
//! the next `$` are what it prints (standard output and standard error, as a terminal shows
//! them), where a line `...` stands for any lines and `[..]` for any characters in a line, as in
//! `trycmd`. Each page's commands run in turn in a folder of their own that holds a copy of
//! `examples/` and `grammar/` (so a `--fix` changes the copy), through `sh`, with the `kifu`
//! just built first on the `PATH` and a `HOME` of its own; each must exit with status 0 or 1.
//! A shell block (`sh`) may show how to build or install, never a `kifu` command: that would
//! go unchecked. The README's
//! table of commands runs too: each example there must exit with status 0 or 1 (but `kifu lsp`,
//! which an editor starts and talks with: the `lsp` tests run it so).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use insta_cmd::get_cargo_bin;

/// The pages whose examples run.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry of docs/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    [root.join("README.md"), root.join("python/README.md")].into_iter().chain(docs).collect()
}

/// A fenced code block: its info string, the line its first line of content is on, its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

/// The fenced code blocks of a Markdown page (fences of backquotes or tildes, indented or not,
/// as in a list item; the content loses the fence's indentation).
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, usize, Block)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let fence: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        match open.take() {
            None if fence.len() >= 3 => {
                let info = trimmed[fence.len()..].trim().to_owned();
                open = Some((fence, indent, Block { info, line: n + 2, lines: Vec::new() }));
            }
            None => {}
            Some((f, _, block)) if trimmed.starts_with(&f) && trimmed.trim_end() == f => blocks.push(block),
            Some((f, i, mut block)) => {
                let cut = line.char_indices().take_while(|&(k, c)| k < i && c == ' ').count();
                block.lines.push(line[cut..].to_owned());
                open = Some((f, i, block));
            }
        }
    }
    blocks
}

/// A command shown on a page and the output shown under it.
struct Step {
    command: String,
    line: usize,
    expected: String,
}

/// The commands of a `console` block.
fn steps(block: &Block) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (k, line) in block.lines.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step { command: command.to_owned(), line: block.line + k, expected: String::new() });
        } else if let Some(step) = steps.last_mut() {
            step.expected.push_str(line);
            step.expected.push('\n');
        } else {
            panic!("line {}: a console block starts with a `$ ` command", block.line + k);
        }
    }
    steps
}

/// Copies the files of `from` into `to`, folders included.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder for the copy");
    for entry in std::fs::read_dir(from).expect("a folder to copy") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a file copied");
        }
    }
}

/// A folder with a copy of the examples and grammars, where a page's commands run.
fn sandbox() -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy_tree(&root.join("examples"), &dir.path().join("examples"));
    copy_tree(&root.join("grammar"), &dir.path().join("grammar"));
    std::fs::create_dir(dir.path().join("home")).expect("a home folder");
    dir
}

/// Runs a shell command line in `dir`, as a reader would with kifu installed: its exit status
/// and what it printed, standard error merged into standard output. `timeout` ends it, with
/// every process it started, after two minutes (status 124).
fn run(command: &str, dir: &Path) -> (Option<i32>, String) {
    let bin = get_cargo_bin("kifu");
    let path = std::env::join_paths(
        std::iter::once(bin.parent().expect("the binary's folder").to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("a PATH");
    let out = Command::new("timeout")
        .args(["120", "sh", "-c"])
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .stdin(Stdio::null())
        .output()
        .expect("timeout and sh run");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The examples of the README's table of commands: its last column's code.
fn table_examples(readme: &str) -> Vec<(usize, String)> {
    let table = readme.split("## Commands").nth(1).expect("a `## Commands` section");
    let start = readme.len() - table.len();
    let first_line = readme[..start].lines().count();
    table
        .lines()
        .enumerate()
        .take_while(|(_, l)| !l.starts_with("## "))
        .filter(|(_, l)| l.starts_with("| `"))
        .filter_map(|(k, l)| {
            let last = l.trim_end().trim_end_matches('|').rsplit('|').next()?.trim();
            Some((first_line + k, last.strip_prefix('`')?.strip_suffix('`')?.to_owned()))
        })
        .collect()
}

#[test]
fn every_command_shown_runs_and_prints_what_is_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let assert = snapbox::Assert::new().normalize_paths(false).palette(snapbox::report::Palette::plain());
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let name = page.strip_prefix(root).expect("in the repository").display().to_string();
        let dir = sandbox();
        let mut checks: Vec<Step> = Vec::new();
        for block in blocks(&text) {
            let language = block.info.split([' ', ',']).next().unwrap_or("");
            match language {
                "console" => checks.extend(steps(&block)),
                "sh" | "bash" | "shell" => {
                    for (k, line) in block.lines.iter().enumerate() {
                        if line.trim_start().starts_with("kifu ") {
                            failures.push(format!(
                                "{name}:{}: `{}` is a kifu command in a shell block: show it in a \
                                 console block, with its output, so that it runs here",
                                block.line + k,
                                line.trim()
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        if name == "README.md" {
            for (line, command) in table_examples(&text) {
                if command == "kifu lsp" {
                    // What an editor starts, to talk with it on standard input: `lsp::` runs it so.
                    continue;
                }
                assert!(command.starts_with("kifu "), "README.md:{line}: `{command}` is a kifu command");
                // What the table's examples print is not shown: only that each runs.
                checks.push(Step { command, line, expected: "...\n".into() });
            }
        }
        for step in checks {
            ran += 1;
            let (status, output) = run(&step.command, dir.path());
            let place = format!("{name}:{}: `{}`", step.line, step.command);
            if !matches!(status, Some(0 | 1)) {
                failures.push(format!("{place} exited with {status:?}:\n{output}"));
            } else if let Err(err) = assert.try_eq(Some(&place), output.into(), step.expected.into()) {
                failures.push(format!("{place} printed something else than the page shows:\n{err}"));
            }
        }
    }
    assert!(ran >= 20, "only {ran} commands found in the pages");
    assert!(failures.is_empty(), "{} of {ran} commands:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn a_console_block_is_read_as_commands_and_outputs() {
    let page = "text\n\n- item\n\n  ```console\n  $ kifu a\n  out\n  ...\n  $ kifu b\n  ```\n\n```sh\nx\n```\n";
    let blocks = blocks(page);
    assert_eq!(blocks.len(), 2);
    assert_eq!((blocks[0].info.as_str(), blocks[0].line), ("console", 6));
    let steps = steps(&blocks[0]);
    let shown: Vec<(&str, usize, &str)> =
        steps.iter().map(|s| (s.command.as_str(), s.line, s.expected.as_str())).collect();
    assert_eq!(shown, [("kifu a", 6, "out\n...\n"), ("kifu b", 9, "")]);
    assert_eq!(blocks[1].lines, ["x"]);
}
