//! Helpers for the tests that run the built `kifu` binary.

#![allow(dead_code)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use insta_cmd::get_cargo_bin;

/// The USI start position.
pub const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// `kifu`, without colours or a terminal width, run from the crate's folder.
pub fn kifu() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kifu"));
    cmd.env("NO_COLOR", "1").env_remove("COLUMNS").current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Snapshot settings for the snapshots in `snapshots/{dir}`, temporary paths hidden.
pub fn settings(dir: &str) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(format!("{}/snapshots/{dir}", env!("CARGO_MANIFEST_DIR")));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s.add_filter(r"/tmp/\.tmp[A-Za-z0-9]+", "[TMP]");
    s.add_filter(r"kifu(\.exe)?\b", "kifu");
    s
}

/// `kifu` with `args`, run to its end.
pub fn run(args: &[&str]) -> Output {
    kifu().args(args).output().expect("kifu runs")
}

/// `cmd` run with `input` on standard input.
pub fn run_with_stdin(mut cmd: Command, input: &[u8]) -> Output {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn kifu");
    // kifu may exit before reading (a usage error): a broken pipe here is not a failure.
    let _ = child.stdin.take().expect("stdin").write_all(input);
    child.wait_with_output().expect("kifu runs")
}

/// Bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a run wrote on standard output.
pub fn stdout(out: &Output) -> String {
    text(&out.stdout)
}

/// Each line of standard output, read as JSON.
pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    stdout(out).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

/// The JSON findings of `kifu check --message-format json path`, which finds `path` invalid.
pub fn invalid_json_findings(path: &str) -> Vec<serde_json::Value> {
    let out = run(&["check", "--message-format", "json", path]);
    assert_eq!(out.status.code(), Some(1));
    json_lines(&out)
}

/// Writes `bytes` to `dir/name`; its path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write temp file");
    path.to_string_lossy().into_owned()
}
