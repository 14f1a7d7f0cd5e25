//! Reading game records (KIF, KI2, CSA, JKF): kifu beside tsshogi (npm), rsshogi and cshogi
//! (PyPI), on the same records in one run.
//!
//! ```sh
//! cargo bench --bench games
//! ```
//!
//! It makes its own records, with nothing from outside the repository: seeded random legal
//! games (`PSN` written by the test generator), read by kifu and written in each format by its
//! writers (CSA as V3.0), each record a file of its own in Cargo's temporary folder. Then it
//! times, for each format, each `GAMES_RUNS` times (3), the median kept, one thread each, the
//! records already in memory:
//!
//! * kifu's library: `check_text` (JKF: `check_bytes`), every line read by the grammar (JKF:
//!   by the JSON reader and the schema's types) and every move played with the full rules of
//!   shogi, findings and all;
//! * tsshogi's `importKIF`, `importKI2`, `importCSA` or `importJKFString` (node), when node and
//!   npm are there: tsshogi is installed into the temporary folder, and its loop is timed inside
//!   node, its start left out. tsshogi does not check that a move is legal as it reads it.
//! * rsshogi's `Record.from_kif_str`, `from_ki2_str`, `from_csa_str` or `from_jkf_str`, and
//!   cshogi's `KIF.Parser.parse_str` or `CSA.Parser.parse_str` (Python, their readers written in
//!   Rust and C++), when `python3` is there: both are installed from PyPI into a virtual
//!   environment in the temporary folder, and their loops are timed inside Python. cshogi reads
//!   no KI2 and no JKF.
//!
//! It prints MB/s for each and kifu's speed over each peer's. `GAMES_MB` sets the size of the
//! records of each format together (8); `GAMES_FORMATS` the formats timed (`kif,ki2,csa,jkf`).

mod common;
#[path = "../tests/common/generate.rs"]
mod generate;

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use common::{median, setting};

/// A format timed: its name, its writer, kifu's reader (true when a record reads with no
/// finding), the extension of its files, and the peers' readers (tsshogi's, rsshogi's, cshogi's).
struct Format {
    name: &'static str,
    write: fn(&kifu::shogi::Game) -> String,
    check: fn(&str) -> bool,
    reader: &'static str,
    extension: &'static str,
    import: &'static str,
    rsshogi: &'static str,
    cshogi: Option<&'static str>,
}

const FORMATS: [Format; 4] = [
    Format {
        name: "KIF",
        write: |g| kifu::kif::write(g, "UTF-8").text,
        check: |t| matches!(kifu::kif::check_text(t), (Some(_), d) if d.is_empty()),
        reader: "kif::check_text",
        extension: "kifu",
        import: "importKIF",
        rsshogi: "from_kif_str",
        cshogi: Some("KIF"),
    },
    Format {
        name: "KI2",
        write: |g| kifu::kif::write_ki2(g).text,
        check: |t| matches!(kifu::kif::check_text(t), (Some(_), d) if d.is_empty()),
        reader: "kif::check_text",
        extension: "ki2u",
        import: "importKI2",
        rsshogi: "from_ki2_str",
        cshogi: None,
    },
    Format {
        name: "CSA",
        write: |g| kifu::csa::write(g, kifu::csa::Version::V30).text,
        check: |t| matches!(kifu::csa::check_text(t), (g, d) if g.len() == 1 && d.is_empty()),
        reader: "csa::check_text",
        extension: "csa",
        import: "importCSA",
        rsshogi: "from_csa_str",
        cshogi: Some("CSA"),
    },
    Format {
        name: "JKF",
        write: |g| kifu::jkf::write(g).text,
        check: |t| {
            let read = kifu::jkf::check_bytes(t.as_bytes());
            read.game.is_some() && read.diagnostics.is_empty()
        },
        reader: "jkf::check_bytes",
        extension: "jkf",
        import: "importJKFString",
        rsshogi: "from_jkf_str",
        cshogi: None,
    },
];

/// The records of seeded random games in `format`, about `bytes` of them together.
fn records(format: &Format, bytes: usize) -> Vec<String> {
    // Games enough for `bytes` of any format (KIF and JKF are longer than PSN, KI2 and CSA about
    // as long).
    let psn = generate::psn_games(1, bytes);
    let file = kifu::psn::check_bytes(psn.as_bytes(), kifu::psn::Options::default());
    let mut out = Vec::new();
    let mut size = 0;
    for g in &file.games {
        let Some(game) = g.to_game() else { continue };
        let text = (format.write)(&game);
        size += text.len();
        out.push(text);
        if size >= bytes {
            break;
        }
    }
    out
}

/// tsshogi's loop over the records of `format` in `dir`, timed inside node: its MB/s and the
/// records it read with an error, or why not.
fn tsshogi(format: &Format, dir: &std::path::Path, runs: usize) -> Result<(f64, usize), String> {
    let npm = Command::new("npm")
        .args(["install", "--silent", "--prefix"])
        .arg(dir)
        .arg("tsshogi")
        .status()
        .map_err(|e| format!("npm: {e}"))?;
    if !npm.success() {
        return Err("npm could not install tsshogi".to_owned());
    }
    let script = dir.join("read.mjs");
    fs::write(
        &script,
        format!(
            r#"import {{ {import} }} from "tsshogi";
import fs from "fs";
const dir = process.argv[2];
const texts = fs.readdirSync(dir).filter((f) => f.endsWith(".{extension}")).map((f) => fs.readFileSync(dir + "/" + f, "utf8"));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const times = [];
let failed = 0;
for (let run = 0; run < {runs}; run++) {{
  const start = process.hrtime.bigint();
  failed = 0;
  for (const t of texts) {{
    if ({import}(t) instanceof Error) failed++;
  }}
  times.push(Number(process.hrtime.bigint() - start) / 1e9);
}}
times.sort((a, b) => a - b);
console.log(bytes / 1e6 / times[Math.floor(times.length / 2)], failed);
"#,
            import = format.import,
            extension = format.extension,
        ),
    )
    .map_err(|e| e.to_string())?;
    let out = Command::new("node").arg(&script).arg(dir.join("records")).output().map_err(|e| format!("node: {e}"))?;
    measured("tsshogi", &out)
}

/// The Python in a virtual environment of `dir` with rsshogi and cshogi, or why not.
fn python(dir: &std::path::Path) -> Result<PathBuf, String> {
    let venv = dir.join("venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        let made =
            Command::new("python3").arg("-m").arg("venv").arg(&venv).status().map_err(|e| format!("python3: {e}"))?;
        if !made.success() {
            return Err("python3 could not make a virtual environment".to_owned());
        }
        let pip = Command::new(&python)
            .args(["-m", "pip", "install", "-q", "rsshogi", "cshogi"])
            .status()
            .map_err(|e| e.to_string())?;
        if !pip.success() {
            let _ = fs::remove_dir_all(&venv);
            return Err("pip could not install rsshogi and cshogi".to_owned());
        }
    }
    Ok(python)
}

/// A Python loop calling `call` (after `import`) on each record of `format` in `dir`, timed
/// inside Python: its MB/s and the records it read with an error, or why not.
fn in_python(
    format: &Format,
    dir: &std::path::Path,
    runs: usize,
    import: &str,
    call: &str,
) -> Result<(f64, usize), String> {
    let python = python(dir)?;
    let script = dir.join("read.py");
    fs::write(
        &script,
        format!(
            r#"import os, sys, time
{import}
folder = sys.argv[1]
texts = [open(os.path.join(folder, f), encoding="utf-8").read() for f in sorted(os.listdir(folder)) if f.endswith(".{extension}")]
size = sum(len(t.encode("utf-8")) for t in texts)
times = []
for run in range({runs}):
    failed = 0
    start = time.perf_counter()
    for t in texts:
        try:
            {call}(t)
        except Exception:
            failed += 1
    times.append(time.perf_counter() - start)
times.sort()
print(size / 1e6 / times[len(times) // 2], failed)
"#,
            extension = format.extension,
        ),
    )
    .map_err(|e| e.to_string())?;
    let out = Command::new(&python).arg(&script).arg(dir.join("records")).output().map_err(|e| e.to_string())?;
    measured(call, &out)
}

/// What a peer's timing script printed: its MB/s and the records it read with an error, or
/// why not.
fn measured(peer: &str, out: &std::process::Output) -> Result<(f64, usize), String> {
    let printed = String::from_utf8_lossy(&out.stdout);
    let mut fields = printed.split_whitespace().map(str::parse::<f64>);
    match (fields.next(), fields.next()) {
        (Some(Ok(mbs)), Some(Ok(failed))) => Ok((mbs, failed as usize)),
        _ => Err(format!("{peer} failed: {}", String::from_utf8_lossy(&out.stderr))),
    }
}

/// A peer's row of the table (`reader` names what was timed), and how many of the `records`
/// it read with an error.
fn row(peer: &str, reader: &str, timed: Result<(f64, usize), String>, kifu_mbs: f64, records: usize) {
    match timed {
        Ok((theirs, failed)) => {
            println!("| {peer} {reader} | {theirs:.1} | {:.2}× |", kifu_mbs / theirs);
            if failed > 0 {
                println!("{peer} read {failed} of the {records} records with an error");
            }
        }
        Err(why) => println!("| {peer} | not run: {why} | |"),
    }
}

fn main() {
    let mb = setting("GAMES_MB", 8);
    let runs = setting("GAMES_RUNS", 3);
    let chosen = std::env::var("GAMES_FORMATS").unwrap_or_else(|_| "kif,ki2,csa,jkf".to_owned()).to_lowercase();
    let chosen: Vec<&str> = chosen.split(',').map(str::trim).collect();
    for format in FORMATS.iter().filter(|f| chosen.contains(&f.name.to_lowercase().as_str())) {
        bench(format, mb, runs);
    }
}

/// Times kifu, tsshogi, rsshogi and cshogi reading `mb` MB of `format`'s records, `runs` times
/// each.
fn bench(format: &Format, mb: usize, runs: usize) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("games-bench");
    let records_dir = dir.join("records");
    let _ = fs::remove_dir_all(&records_dir);
    fs::create_dir_all(&records_dir).expect("a folder for the records");
    let texts = records(format, mb << 20);
    let bytes: usize = texts.iter().map(String::len).sum();
    for (i, text) in texts.iter().enumerate() {
        fs::write(records_dir.join(format!("{i:05}.{}", format.extension)), text).expect("a record written");
    }
    let kifu = median(runs, || {
        for text in &texts {
            assert!((format.check)(text), "a record kifu wrote reads with a finding: {text}");
        }
    });
    let kifu_mbs = bytes as f64 / 1e6 / kifu;
    let name = format.name;
    println!("\n{} {name} records, {:.1} MB, each figure the median of {runs} runs", texts.len(), bytes as f64 / 1e6);
    println!("| reader | MB/s | kifu / reader |\n|---|---|---|");
    println!("| kifu's library (`{}`) | {kifu_mbs:.1} | 1.00× |", format.reader);
    let records = texts.len();
    row("tsshogi", &format!("`{}` (node)", format.import), tsshogi(format, &dir, runs), kifu_mbs, records);
    let call = format!("Record.{}", format.rsshogi);
    let timed = in_python(format, &dir, runs, "from rsshogi.record import Record", &call);
    row("rsshogi", &format!("`{call}` (Python)"), timed, kifu_mbs, records);
    if let Some(module) = format.cshogi {
        let call = format!("{module}.Parser.parse_str");
        let timed = in_python(format, &dir, runs, &format!("from cshogi import {module}"), &call);
        row("cshogi", &format!("`{call}` (Python)"), timed, kifu_mbs, records);
    }
}
