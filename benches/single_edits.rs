//! What one slip does to a valid record, over many records: the share of the records a
//! single-character edit makes invalid that get exactly one error, and the share of those
//! whose fix makes them valid again; and the time the checks take.
//!
//! ```sh
//! cargo bench --bench single_edits
//! ```
//!
//! `SLIPS` sets the number of slipped records a format (20,000). The test
//! `tests/properties/single_edits.rs` holds the same shares to their floor on fewer records.

#[path = "../tests/common/generate.rs"]
mod generate;
#[path = "../tests/common/single_edits.rs"]
mod single_edits;

use std::time::Instant;

use generate::{fen_records, sfen_records, FEN_ALPHABET, SFEN_ALPHABET};
use single_edits::{Shares, HEAD};

fn main() {
    let slips = std::env::var("SLIPS").ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(20_000);
    let sfen = sfen_records(11, 2000);
    let fen = fen_records(12, 2000);
    let epd: Vec<String> = fen.iter().map(|r| r.split(' ').take(4).collect::<Vec<_>>().join(" ")).collect();
    let (head, rule) = HEAD.split_once('\n').expect("two lines");
    println!("{head} seconds |\n{rule}---|");
    for (name, records, alphabet) in
        [("SFEN", &sfen, SFEN_ALPHABET), ("FEN", &fen, FEN_ALPHABET), ("EPD", &epd, FEN_ALPHABET)]
    {
        let format = name.to_lowercase().parse().expect("a format");
        let start = Instant::now();
        let shares = Shares::measure(format, records, alphabet, 1, slips);
        println!("| {name} {shares} {:.2} |", start.elapsed().as_secs_f64());
        for example in shares.cascades.iter().chain(&shares.unfixed).take(8) {
            eprintln!("  {example}");
        }
        for example in shares.misranked.iter().take(8) {
            eprintln!("  not given back: {example}");
        }
    }
}
