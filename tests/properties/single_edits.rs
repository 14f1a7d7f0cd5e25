//! One slip, one report, with the fix: of the valid records that one character deleted,
//! inserted or replaced makes invalid, nearly all get exactly one error, and the fix of that
//! error makes nearly all of them valid again. (`cargo bench --bench single_edits` prints the
//! same shares over more records.)

use crate::common::generate;
use crate::common::single_edits;

use generate::{fen_records, sfen_records, FEN_ALPHABET, SFEN_ALPHABET};
use kifu::format::Format;
use single_edits::{Shares, HEAD};

/// Slips a format's records this many times.
const SLIPS: usize = 5000;

/// The shares asked for: at least 99.5% of the records made invalid get exactly one error, at
/// least 99.5% of those a fix that makes them valid, and a first fix that gives back the record
/// as it was before the slip in at least `restored` percent of them (the repair the author
/// most likely meant first).
fn assert_shares(name: &str, shares: &Shares, restored: f64) {
    println!("{HEAD}\n| {name} {shares}");
    assert!(shares.invalid > SLIPS / 2, "{name}: most slips break a record: {}", shares.invalid);
    assert!(shares.one_error() >= 99.5, "{name}: {shares}\n{:#?}", shares.cascades);
    assert!(shares.fixed_share() >= 99.5, "{name}: {shares}\n{:#?}", shares.unfixed);
    assert!(shares.restored_share() >= restored, "{name}: {shares}");
}

fn format(name: &str) -> Format {
    name.parse().expect("a format")
}

#[test]
fn one_slip_of_an_sfen_record_is_one_error_with_its_fix() {
    let records = sfen_records(11, 500);
    assert_shares("SFEN", &Shares::measure(format("sfen"), &records, SFEN_ALPHABET, 1, SLIPS), 85.0);
}

#[test]
fn one_slip_of_a_fen_record_is_one_error_with_its_fix() {
    let records = fen_records(12, 500);
    // A chess position of a game has lost pieces to captures: the set a game starts with says
    // less of which repair was meant than in shogi, where no piece leaves the game.
    assert_shares("FEN", &Shares::measure(format("fen"), &records, FEN_ALPHABET, 2, SLIPS), 82.0);
}

#[test]
fn one_slip_of_an_epd_record_is_one_error_with_its_fix() {
    // EPD: FEN's first four fields.
    let records: Vec<String> =
        fen_records(13, 500).iter().map(|r| r.split(' ').take(4).collect::<Vec<_>>().join(" ")).collect();
    assert_shares("EPD", &Shares::measure(format("epd"), &records, FEN_ALPHABET, 3, SLIPS), 77.0);
}

/// The errors of `text` read as `format`.
fn errors(format: Format, text: &str) -> Vec<kifu::Diagnostic> {
    format.check_text(text).0.into_iter().filter(kifu::Diagnostic::is_error).collect()
}

/// The one error of `text`, whose first fix (of `applicability`) gives `fixed`.
fn one_report(format: Format, text: &str, fixed: &str, applicability: Applicability) -> kifu::Diagnostic {
    let found = errors(format, text);
    assert_eq!(found.len(), 1, "{text}: {found:#?}");
    let fix = found[0].fixes.first().unwrap_or_else(|| panic!("{text}: no fix"));
    assert_eq!(fix.apply(text).as_deref(), Some(fixed), "{text}");
    assert_eq!(fix.applicability, applicability, "{text}: {:#?}", found[0].fixes);
    assert!(errors(format, fixed).is_empty(), "{fixed}");
    found.into_iter().next().expect("one")
}

use kifu::diagnostic::Applicability;

#[test]
fn the_cascades_of_the_issue_are_one_report_each() {
    let fen = format("fen");
    // A lost space: castling, en passant and a missing field were three errors.
    let d = one_report(
        fen,
        "4k3/8/8/8/5Q2/5p1R/4PK2/4N2B w -- 0 1",
        "4k3/8/8/8/5Q2/5p1R/4PK2/4N2B w - - 0 1",
        Applicability::Safe,
    );
    assert!(d.help.as_deref().is_some_and(|h| h.starts_with("did you mean `…w - - 0 1`?")), "{:?}", d.help);
    assert!(d.labels.iter().any(|l| l.message == "insert ` `" && l.span.is_empty()), "{:#?}", d.labels);
    // A `-` for a space: seven errors were reported.
    one_report(fen, "8/8/8/r2Pp2K/8/8/4k3/8-w - e6 0 1", "8/8/8/r2Pp2K/8/8/4k3/8 w - e6 0 1", Applicability::Safe);
    // A digit for a space: three. The digit could be a count: the repair is offered, not applied
    // unasked.
    one_report(fen, "k1K1B1B1/8/8/8/8/8/8/8 w8- - 7 32", "k1K1B1B1/8/8/8/8/8/8/8 w - - 7 32", Applicability::Unsafe);
    // `,` for every `/`: ten.
    let d = one_report(
        fen,
        "rnbqkbnr,pppppppp,8,8,8,8,PPPPPPPP,RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Applicability::Safe,
    );
    assert_eq!(d.fixes[0].edits.len(), 7);
}

#[test]
fn several_repairs_are_named_and_unsafe() {
    // A rank one square short: a piece or a digit could be the one lost.
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";
    let found = errors(format("sfen"), text);
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(d.fixes.len(), 3, "{:#?}", d.fixes);
    assert!(d.fixes.iter().all(|f| f.applicability == Applicability::Unsafe));
    for fix in &d.fixes {
        let fixed = fix.apply(text).expect("applies");
        assert!(errors(format("sfen"), &fixed).is_empty(), "{fixed}");
    }
    assert!(d.help.as_deref().is_some_and(|h| h.starts_with("did you mean `…") && h.contains(" or `")), "{:?}", d.help);
}

#[test]
fn two_faults_far_apart_stay_two_reports() {
    // A rank too long at the top and a side letter at the end: no one slip explains both.
    let text = "lnsgkgsnlp/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1";
    assert_eq!(errors(format("sfen"), text).len(), 2, "{:#?}", errors(format("sfen"), text));
}

#[test]
fn the_search_is_bounded_on_long_and_hostile_lines() {
    // Lines of up to the longest that is parsed, of characters the grammar holds: each gets its
    // findings (the search ends within its budget; a timed test would be flaky, so this one
    // only says that it ends and reports).
    for junk in ["p".repeat(4000), "1/".repeat(2000), format!("{} b - 1", "P".repeat(4000)), "+".repeat(4090)] {
        assert!(!errors(format("sfen"), &junk).is_empty());
        assert!(!errors(format("fen"), &junk).is_empty());
    }
}

/// The characters of slips that make a record something else, if anything does: the format's
/// own and others (a letter of the other game, punctuation, a kanji, a full-width letter).
const OTHER: &[char] = &['x', 'Q', 'q', 'e', 'g', '.', ',', '{', '"', ':', '\t', '_', '先', 'Ｐ', '/', ' '];

/// The records `format` reads of `records`, each with one and with two slips anywhere, of its
/// own characters and of [`OTHER`]: no such line is taken for something else than a record
/// (`Format::not_a_record`), whatever its faults.
fn assert_slips_are_records(format: Format, records: &[String], alphabet: &[char]) {
    let chars: Vec<char> = alphabet.iter().chain(OTHER).copied().collect();
    let mut rng = generate::Rng::new(7);
    let mut lines = 0;
    for record in records {
        let once = generate::slip(record, &chars, &mut rng);
        let twice = generate::slip(&once, &chars, &mut rng);
        for line in [once, twice] {
            lines += 1;
            assert_eq!(format.not_a_record(&line), None, "{line:?} read as {format}");
        }
    }
    assert!(lines >= 2 * records.len());
}

#[test]
fn no_slip_makes_a_record_something_else() {
    let sfen = sfen_records(21, 3000);
    let fen = fen_records(22, 3000);
    let epd: Vec<String> = fen.iter().map(|r| r.split(' ').take(4).collect::<Vec<_>>().join(" ")).collect();
    assert_slips_are_records(format("sfen"), &sfen, SFEN_ALPHABET);
    assert_slips_are_records(format("fen"), &fen, FEN_ALPHABET);
    assert_slips_are_records(format("epd"), &epd, FEN_ALPHABET);
}

/// The share of `lines` that get one report, that they are not records, and a few that do not.
fn one_report_share(format: Format, lines: &[String]) -> (f64, Vec<&String>) {
    let code = match format {
        Format::Sfen(_) => kifu::diagnostic::Code::SfenNotARecord,
        _ => kifu::diagnostic::Code::FenNotARecord,
    };
    let (one, other): (Vec<&String>, Vec<&String>) =
        lines.iter().partition(|l| matches!(errors(format, l).as_slice(), [d] if d.code == code));
    (100.0 * one.len() as f64 / lines.len() as f64, other.into_iter().take(5).collect())
}

/// A chess position read as SFEN, a shogi one read as FEN or EPD, and lines of random
/// characters, with a slip or without: each gets one report that says it is not a record.
#[test]
fn a_line_that_is_not_a_record_gets_one_report() {
    let sfen = sfen_records(31, 400);
    let fen = fen_records(32, 400);
    let mut rng = generate::Rng::new(33);
    let slipped = |records: &[String], alphabet: &[char], rng: &mut generate::Rng| -> Vec<String> {
        records.iter().map(|r| generate::slip(r, alphabet, rng)).collect()
    };
    let printable: Vec<char> = (' '..='~').collect();
    let random: Vec<String> = (0..400)
        .map(|_| {
            let len = 8 + rng.below(70);
            (0..len).map(|_| printable[rng.below(printable.len())]).collect::<String>().trim().to_owned()
        })
        .filter(|l: &String| !l.is_empty())
        .collect();
    let fen_slipped = slipped(&fen, FEN_ALPHABET, &mut rng);
    let sfen_slipped = slipped(&sfen, SFEN_ALPHABET, &mut rng);
    for (name, read_as, lines, floor) in [
        ("chess FENs read as SFEN", "sfen", &fen, 100.0),
        ("shogi records read as FEN", "fen", &sfen, 100.0),
        ("shogi records read as EPD", "epd", &sfen, 100.0),
        ("slipped chess FENs read as SFEN", "sfen", &fen_slipped, 97.0),
        ("slipped shogi records read as FEN", "fen", &sfen_slipped, 97.0),
        ("random characters read as SFEN", "sfen", &random, 99.0),
        ("random characters read as FEN", "fen", &random, 99.0),
    ] {
        let (share, others) = one_report_share(format(read_as), lines);
        println!("{name}: {share:.1}% one report");
        assert!(share >= floor, "{name}: {share:.1}% < {floor}%: {others:#?}");
    }
}

#[test]
fn the_repair_ranked_first_is_the_one_the_author_likely_meant() {
    let fen = format("fen");
    // A castling right a slip turned into a digit: its king and rook stand at home, so the
    // list named it (`KQk` leaves it out).
    one_report(
        fen,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQk2 - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        Applicability::Unsafe,
    );
    // A digit too many: deleted, rather than a third black bishop written for the `2` (a piece
    // beyond the set needs a promotion).
    one_report(
        fen,
        "3rkbnr/1bpqpp2/2np2pp/pB6/3PP2P/4KP1R/PPP3P1/RNBQ21N1 w k - 0 11",
        "3rkbnr/1bpqpp2/2np2pp/pB6/3PP2P/4KP1R/PPP3P1/RNBQ2N1 w k - 0 11",
        Applicability::Unsafe,
    );
    // A second pawn on a file: a lost `+` given back.
    one_report(
        format("sfen"),
        "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1",
        "4k4/9/9/9/4+P4/9/4P4/9/4K4 b - 1",
        Applicability::Unsafe,
    );
}
