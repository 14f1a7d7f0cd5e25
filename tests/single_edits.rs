//! One slip, one report, with the fix: of the valid records that one character deleted,
//! inserted or replaced makes invalid, nearly all get exactly one error, and the fix of that
//! error makes nearly all of them valid again. (`cargo bench --bench single_edits` prints the
//! same shares over more records.)

#[path = "common/generate.rs"]
mod generate;
#[path = "common/single_edits.rs"]
mod single_edits;

use generate::{fen_records, sfen_records, FEN_ALPHABET, SFEN_ALPHABET};
use kifu::format::Format;
use single_edits::{Shares, HEAD};

/// Slips a format's records this many times.
const SLIPS: usize = 1000;

/// The shares the issue asks for: at least 97% of the records made invalid get exactly one
/// error, and at least 90% of those a fix that makes them valid.
fn assert_shares(name: &str, shares: &Shares) {
    println!("{HEAD}\n| {name} {shares}");
    assert!(shares.invalid > SLIPS / 2, "{name}: most slips break a record: {}", shares.invalid);
    assert!(shares.one_error() >= 97.0, "{name}: {shares}\n{:#?}", shares.cascades);
    assert!(shares.fixed_share() >= 90.0, "{name}: {shares}\n{:#?}", shares.unfixed);
}

fn format(name: &str) -> Format {
    name.parse().expect("a format")
}

#[test]
fn one_slip_of_an_sfen_record_is_one_error_with_its_fix() {
    let records = sfen_records(11, 500);
    assert_shares("SFEN", &Shares::measure(format("sfen"), &records, SFEN_ALPHABET, 1, SLIPS));
}

#[test]
fn one_slip_of_a_fen_record_is_one_error_with_its_fix() {
    let records = fen_records(12, 500);
    assert_shares("FEN", &Shares::measure(format("fen"), &records, FEN_ALPHABET, 2, SLIPS));
}

#[test]
fn one_slip_of_an_epd_record_is_one_error_with_its_fix() {
    // EPD: FEN's first four fields.
    let records: Vec<String> =
        fen_records(13, 500).iter().map(|r| r.split(' ').take(4).collect::<Vec<_>>().join(" ")).collect();
    assert_shares("EPD", &Shares::measure(format("epd"), &records, FEN_ALPHABET, 3, SLIPS));
}

#[test]
#[ignore]
fn census() {
    let sfen = sfen_records(11, 500);
    let fen = fen_records(12, 500);
    for (name, f, r, a) in [("sfen", "sfen", &sfen, SFEN_ALPHABET), ("fen", "fen", &fen, FEN_ALPHABET)] {
        println!("{name}: {:?}", single_edits::unfixed_codes(format(f), r, a, 1, SLIPS));
    }
}
