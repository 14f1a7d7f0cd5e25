//! kifu beside the fastest libraries, on the same records in one run.
//!
//! ```sh
//! cargo bench --bench peers
//! ```
//!
//! It makes its own inputs, with nothing from outside the repository: USI SFEN records (the
//! positions of seeded random games, by kifu's rules), FEN records (the same with shakmaty's),
//! each also with 5% of the records slipped by one character, and PSN games written by kifu's
//! writer. Then it times, each `PEERS_RUNS` times (3), the median kept:
//!
//! * kifu's library in a plain line loop (`Format::check_text`, the call `kifu check` makes for
//!   each record: a record without findings read straight into its position, any other in
//!   full), on one thread;
//! * the peers' parse-and-validate calls in the same loop: haitaka's `Board::from_sfen` and
//!   shakmaty's `Fen::from_ascii` then `into_position::<Chess>`;
//! * `kifu check` end to end (the release binary): with `-j 1` pinned to one CPU (`taskset`), so
//!   that its reader thread shares that CPU with its worker, and on every core;
//! * `kifu check` on the PSN games in its three modes, in MB/s.
//!
//! It prints a Markdown table: records/s, kifu's library against the peer's (like for like: a
//! loop over the same lines in one thread each) and the whole `kifu check -j 1` process, reading
//! and reporting included, against the peer's loop. Environment:
//! `PEERS_RECORDS` (records a file, 1,000,000: on fewer, the start of the process and the noise of
//! a shared machine weigh in the ratios), `PEERS_PSN_MB` (size of the PSN file, 50),
//! `PEERS_RUNS` (3). The files are kept in Cargo's temporary folder between runs.
//!
//! On a shared machine timings move with the load; instruction counts do not. With
//! `PEERS_LOOP` set to `kifu-sfen`, `haitaka`, `kifu-fen` or `shakmaty`, the bench runs only that
//! line loop, once, over the valid records, so that a tool such as Valgrind can count it:
//!
//! ```sh
//! cargo bench --bench peers --no-run            # prints the bench's path, target/release/deps/peers-…
//! PEERS_RECORDS=30000 PEERS_LOOP=shakmaty valgrind --tool=callgrind target/release/deps/peers-…
//! callgrind_annotate --inclusive=yes callgrind.out.* | grep line_loop
//! ```
//!
//! kifu reads its automata in at its first record, inside the loop: take the count of a run with
//! `PEERS_RECORDS=1` from that of the run over 30,000, and divide by 29,999.

mod common;
#[path = "../tests/common/generate.rs"]
mod generate;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{median, setting};
use generate::{fen_records, psn_games, sfen_records, with_slips, FEN_ALPHABET, SFEN_ALPHABET};
use kifu::format::Format;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Writes `lines` to `dir/name` unless a file of that size is there already.
fn file(dir: &Path, name: &str, make: impl FnOnce() -> String) -> PathBuf {
    let path = dir.join(name);
    if !path.exists() {
        let text = make();
        let tmp = dir.join(format!("{name}.part"));
        fs::write(&tmp, text).and_then(|()| fs::rename(&tmp, &path)).expect("write the bench input");
    }
    path
}

/// `kifu check ARGS PATH`, its reports dropped, on the CPUs `cpus` names (`taskset -c`) or on
/// any; exit 0 or 1 (some records invalid).
fn kifu_check(cpus: Option<&str>, args: &[&str], path: &Path) {
    let mut command = match cpus {
        Some(cpus) => {
            let mut c = Command::new("taskset");
            c.args(["-c", cpus, env!("CARGO_BIN_EXE_kifu")]);
            c
        }
        None => Command::new(env!("CARGO_BIN_EXE_kifu")),
    };
    let status = command
        .arg("check")
        .args(args)
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("kifu runs");
    assert!(matches!(status.code(), Some(0 | 1)), "kifu check {args:?} {}: {status}", path.display());
}

/// Each line of the file at `path` through `f`, in a plain loop: how many `f` accepts.
#[inline(never)]
fn line_loop(path: &Path, mut f: impl FnMut(&str) -> bool) -> usize {
    let text = fs::read_to_string(path).expect("read the bench input");
    text.lines().filter(|l| f(l)).count()
}

/// A parse-and-validate call on one record: true when the record is accepted.
type Check<'a> = &'a dyn Fn(&str) -> bool;

struct Row {
    input: String,
    records: usize,
    cli_one: f64,
    cli_all: f64,
    lib: f64,
    peer_name: &'static str,
    peer: f64,
}

fn main() {
    let n = setting("PEERS_RECORDS", 1_000_000);
    let psn_mb = setting("PEERS_PSN_MB", 50);
    let runs = setting("PEERS_RUNS", 3);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("peers-{n}"));
    fs::create_dir_all(&dir).expect("a folder for the inputs");
    eprintln!("inputs in {} (made once)", dir.display());

    let sfen_valid = file(&dir, "valid.sfen", || sfen_records(1, n).join("\n") + "\n");
    let sfen_slips = file(&dir, "slips.sfen", || with_slips(&sfen_records(1, n), SFEN_ALPHABET, 2).join("\n") + "\n");
    let fen_valid = file(&dir, "valid.fen", || fen_records(1, n).join("\n") + "\n");
    let fen_slips = file(&dir, "slips.fen", || with_slips(&fen_records(1, n), FEN_ALPHABET, 2).join("\n") + "\n");
    let psn = file(&dir, &format!("games-{psn_mb}mb.psn"), || psn_games(1, psn_mb << 20));

    let valid = |format: Format, l: &str| !format.check_text(l).0.iter().any(kifu::diagnostic::Diagnostic::is_error);
    let sfen_lib = |l: &str| valid(Format::Sfen(kifu::sfen::DialectChoice::Auto), l);
    let fen_lib = |l: &str| valid(Format::Fen(kifu::fen::Dialect::Standard), l);
    // haitaka panics on some slipped records: such a record counts as refused (and the panic's
    // cost as part of its time), and the count is printed below the table.
    std::panic::set_hook(Box::new(|_| {}));
    let panics = std::cell::Cell::new(0usize);
    let haitaka = |l: &str| match std::panic::catch_unwind(|| haitaka::Board::from_sfen(l).is_ok()) {
        Ok(ok) => ok,
        Err(_) => {
            panics.set(panics.get() + 1);
            false
        }
    };
    let shakmaty = |l: &str| {
        Fen::from_ascii(l.as_bytes()).ok().and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok()).is_some()
    };
    if let Ok(which) = std::env::var("PEERS_LOOP") {
        let (path, check): (&Path, Check<'_>) = match which.as_str() {
            "kifu-sfen" => (&sfen_valid, &sfen_lib),
            "haitaka" => (&sfen_valid, &haitaka),
            "kifu-fen" => (&fen_valid, &fen_lib),
            "shakmaty" => (&fen_valid, &shakmaty),
            other => panic!("PEERS_LOOP={other}: expected kifu-sfen, haitaka, kifu-fen or shakmaty"),
        };
        let accepted = std::hint::black_box(line_loop(path, check));
        println!("{which}: {accepted} of {n} records accepted");
        return;
    }
    // `kifu check -j 1` on one CPU: the last one, away from what the system runs on CPU 0.
    let pinned = pinned_cpu();
    match &pinned {
        Some(cpu) => eprintln!("`kifu check -j 1` pinned to CPU {cpu}"),
        None => eprintln!("taskset does not run here: `kifu check -j 1` runs unpinned, its reader on another core"),
    }
    let mut rows = Vec::new();
    let inputs: [(&str, &Path, Check<'_>, &'static str, Check<'_>); 4] = [
        ("USI SFEN, all valid", &sfen_valid, &sfen_lib, "haitaka", &haitaka),
        ("USI SFEN, 5% slipped", &sfen_slips, &sfen_lib, "haitaka", &haitaka),
        ("FEN, all valid", &fen_valid, &fen_lib, "shakmaty", &shakmaty),
        ("FEN, 5% slipped", &fen_slips, &fen_lib, "shakmaty", &shakmaty),
    ];
    for (input, path, lib, peer_name, peer) in inputs {
        eprintln!("{input}…");
        rows.push(Row {
            input: input.to_owned(),
            records: n,
            cli_one: median(runs, || kifu_check(pinned.as_deref(), &["-j", "1"], path)),
            cli_all: median(runs, || kifu_check(None, &[], path)),
            lib: median(runs, || {
                std::hint::black_box(line_loop(path, lib));
            }),
            peer_name,
            peer: median(runs, || {
                std::hint::black_box(line_loop(path, peer));
            }),
        });
    }
    let mut out = std::io::stdout().lock();
    write_rows(&mut out, &rows, (n, runs), pinned.is_some());
    if panics.get() > 0 {
        let records = if panics.get() == 1 { "record" } else { "records" };
        let _ =
            writeln!(out, "\nhaitaka panicked on {} {records} (over all its runs), counted as refused", panics.get());
    }
    write_psn(&mut out, &psn, runs);
}

/// The table of `rows`, over `n` records a file, each figure the median of `runs`; `pinned` when
/// `kifu check -j 1` ran on one CPU. Then the share of the valid speed each slipped file keeps.
fn write_rows(out: &mut impl std::io::Write, rows: &[Row], (n, runs): (usize, usize), pinned: bool) {
    let rate = |t: f64, n: usize| format!("{:.0} k/s", n as f64 / t / 1000.0);
    let _ = writeln!(out, "\n{n} records a file, median of {runs} runs\n");
    let one = if pinned { "`kifu check -j 1`, 1 CPU" } else { "`kifu check -j 1` (not pinned)" };
    let _ = writeln!(
        out,
        "| input | kifu's library | peer's library | library / peer | {one} | {one} / peer's library | `kifu check`, all cores |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} {} | {:.2}× | {} | {:.2}× | {} |",
            r.input,
            rate(r.lib, r.records),
            r.peer_name,
            rate(r.peer, r.records),
            r.peer / r.lib,
            rate(r.cli_one, r.records),
            r.peer / r.cli_one,
            rate(r.cli_all, r.records),
        );
    }
    // A file with 5% of its records slipped, against the same records all valid: the share of
    // the valid speed `kifu check -j 1` keeps (rows come in pairs, valid then slipped).
    let _ = writeln!(out);
    for pair in rows.chunks(2) {
        if let [valid, slipped] = pair {
            let _ =
                writeln!(out, "{}: {one} at {:.2} of the valid speed", slipped.input, valid.cli_one / slipped.cli_one);
        }
    }
}

/// The table of `kifu check` on the PSN games at `psn`, each figure the median of `runs`.
fn write_psn(out: &mut impl std::io::Write, psn: &Path, runs: usize) {
    let size = fs::metadata(psn).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    let _ = writeln!(out, "\nPSN, {size:.1} MB of generated games\n");
    let _ = writeln!(out, "| `kifu check` | MB/s |");
    let _ = writeln!(out, "|---|---|");
    for (what, args) in [
        ("human reports", &[][..]),
        ("`--message-format json`", &["--message-format", "json"][..]),
        ("`--message-format json --no-replay`", &["--message-format", "json", "--no-replay"][..]),
    ] {
        let t = median(runs, || kifu_check(None, args, psn));
        let _ = writeln!(out, "| {what} | {:.0} |", size / t);
    }
}

/// The last CPU this process may run on, when `taskset` runs here: where `kifu check -j 1` is
/// pinned.
fn pinned_cpu() -> Option<String> {
    let cpu = (std::thread::available_parallelism().map_or(1, usize::from) - 1).to_string();
    let works = Command::new("taskset").args(["-c", &cpu, "true"]).status().is_ok_and(|s| s.success());
    works.then_some(cpu)
}
