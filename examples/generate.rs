//! Writes seeded records made with kifu's own rules on standard output: the inputs of the
//! benches and of the Python examples, with nothing from outside the repository.
//!
//! ```sh
//! cargo run --release --example generate -- sfen 100000 > positions.sfen
//! cargo run --release --example generate -- sfen 100000 --slips > slipped.sfen
//! cargo run --release --example generate -- fen 100000 --seed 7 > positions.fen
//! cargo run --release --example generate -- psn 50 > games.psn   # about 50 MB of games
//! ```
//!
//! SFEN and FEN: positions met in random games, one a line (with `--slips`, one record in
//! twenty has one character deleted, inserted or replaced). PSN: whole games. The same
//! arguments write the same bytes on every machine.

#[path = "../tests/common/generate.rs"]
mod generate;

use std::io::Write as _;
use std::process::ExitCode;

const USAGE: &str = "usage: generate sfen|fen COUNT [--slips] [--seed N]\n       generate psn MEGABYTES [--seed N]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed = 1;
    let mut slips = false;
    let mut plain = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--slips" => slips = true,
            "--seed" => match it.next().and_then(|s| s.parse().ok()) {
                Some(s) => seed = s,
                None => return usage("--seed takes a number"),
            },
            _ => plain.push(a.as_str()),
        }
    }
    let [what, count] = plain.as_slice() else { return usage("expected a format and a count") };
    let Ok(count) = count.replace('_', "").parse::<usize>() else { return usage("the count is not a number") };
    let text = match *what {
        "sfen" | "fen" => {
            let (records, alphabet) = if *what == "sfen" {
                (generate::sfen_records(seed, count), generate::SFEN_ALPHABET)
            } else {
                (generate::fen_records(seed, count), generate::FEN_ALPHABET)
            };
            let records = if slips { generate::with_slips(&records, alphabet, seed + 1) } else { records };
            records.join("\n") + "\n"
        }
        "psn" if !slips => generate::psn_games(seed, count << 20),
        _ => return usage("expected sfen, fen or psn (psn without --slips)"),
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        eprintln!("generate: cannot write: {e}");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

fn usage(why: &str) -> ExitCode {
    eprintln!("generate: {why}\n{USAGE}");
    ExitCode::from(2)
}
