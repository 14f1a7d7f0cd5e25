//! Criterion benchmarks of the SFEN layers.
//!
//! Each benchmark runs over a fixed set of hand-written records, and reports throughput in
//! records (elements) per second:
//!
//! * `valid/sfen::check`: the whole checker (fast path, then validation) on valid records;
//! * `valid/fast::parse`: the DFA fast path alone on the same records;
//! * `valid/build::build`: the pest recovery path alone on the same records;
//! * `valid/check::check_line`: what `kifu check` does per line (UTF-8, then `sfen::check`);
//! * `invalid/sfen::check`: the whole checker on invalid records (these all fall back to pest);
//! * `not-a-record/sfen::check`: the whole checker on lines that are no record, nor a slip of
//!   one (chess FENs, USI commands, lines of other game records, JSON, words): one report each,
//!   for about what a valid record costs (compare with `valid/sfen::check`).
//!
//! `cargo bench --bench sfen` finishes in well under two minutes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use kifu::check::check_line;
use kifu::format::Format;
use kifu::sfen::{self, build, fast, DialectChoice};

/// Valid records: opening, handicap, midgame and tsume positions, in both dialects. Every one
/// is checked to be valid (the tsume problems carry a `missing-king` warning) before measuring.
const VALID: &[&str] = &[
    // The start position, USI and SFEN 2007, and without its move number.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    // After 1. P-7f, and (SFEN 2007) after 1. P-2f.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL W - 2",
    // Handicaps (White gives them and moves first): lance, bishop, rook, two, four, six, ten.
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    // Bishop exchange: 1. P-7f P-3d 2. Bx2b+ Sx2b.
    "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
    // Midgames with a dragon and both hands full, in both dialects and with a long game's count.
    "ln1g3+Rl/1ks1g4/1ppp1p2p/p3p1p2/7N1/P1P1P1P2/1PSP1P2P/1KG1G4/LN6L b BSNPrbsp 61",
    "ln1g3+Rl/1ks1g4/1ppp1p2p/p3p1p2/7N1/P1P1P1P2/1PSP1P2P/1KG1G4/LN6L B BSNPrbsp 61",
    "ln1g3+Rl/1ks1g4/1ppp1p2p/p3p1p2/7N1/P1P1P1P2/1PSP1P2P/1KG1G4/LN6L b BSNPrbsp 151",
    // Tsume problems: no Black king, White holds the rest of the set.
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "7nl/7k1/6ppp/9/9/9/9/9/9 b 2S2r2b4g2s3n3l15p 1",
    // Bare kings, Black holding every other piece.
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
    // A late middlegame: dragon, horse and tokin on the board, White to move.
    "8l/1+R5p1/3pk1n1p/p1p1pp3/1n1P2P2/P1S1PK2P/1PG2S1+p1/2+b6/L7L w BGNPr2g2sn3p 100",
];

/// Invalid records: one or more faults each, of syntax and of the rules of shogi.
const INVALID: &[&str] = &[
    // A rank one square short.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
    // Nifu (and a nineteenth pawn).
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/4P4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // Two Black kings.
    "lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // A pawn that can never move.
    "4k3P/9/9/9/9/9/9/9/4K4 b - 1",
    // The side not to move is in check.
    "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
    // Not a side to move.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
    // A king and a promoted piece in hand.
    "4k4/9/9/9/9/9/9/9/4K4 b K+P 1",
    // A full-width `ｐ` and a tab between fields.
    "lnsgkgsnl/1r5b1/ｐpppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\tb - 1",
    // The side and hand missing.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    // The USI command in front, and move 0.
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
    // Ten ranks and a count of 0 in hand.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS+L b 0P 1",
    // A stray byte inserted in a rank.
    "lnsgkgsnl/1r5b1/pppp-ppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
];

/// Lines that are not records, and no slip of one: each gets one report, which says what it
/// looks like. `kifu check` should spend on them about what it spends on a valid record.
const NOT_RECORDS: &[&str] = &[
    // Chess FENs and an EPD record.
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    "2r3k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - bm Rxc8#;",
    // USI commands, and lines of KIF, KI2 and CSA games.
    "position startpos moves 7g7f 3c3d 8h2b+",
    "bestmove 7g7f ponder 3c3d",
    "   1 ７六歩(77)        ( 0:00/00:00:00)",
    "▲７六歩 △３四歩 ▲２六歩",
    "+7776FU,T12",
    // JSON, a PSN header and moves, and words.
    r#"{"color":0,"pieces":{"5a":"k","5i":"K"}}"#,
    "[Sente \"Habu Yoshiharu\"]",
    "1. P7g-7f P3c-3d 2. P2g-2f",
    "These positions come from the 2019 Ryuo match; the last one is a tsume.",
    "q8w/;.d,a] f@ 7(}{ xyzzy",
];

const CHOICE: DialectChoice = DialectChoice::Auto;

/// Short measurements: the whole run stays well under two minutes.
fn configure(group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>, records: &[&str]) {
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(records.len() as u64));
}

/// Fails the benchmark run if a record is not what its list says: a benchmark of the wrong
/// path measures nothing useful.
fn sanity() {
    for &text in VALID {
        let checked = sfen::check(text, CHOICE);
        assert!(checked.is_valid(), "not valid: {text}: {:?}", checked.diagnostics);
        assert!(fast::parse(text, CHOICE).is_some(), "not on the fast path: {text}");
    }
    for &text in INVALID {
        assert!(!sfen::check(text, CHOICE).is_valid(), "not invalid: {text}");
    }
    for &text in NOT_RECORDS {
        let found = sfen::check(text, CHOICE).diagnostics;
        let one = matches!(found.as_slice(), [d] if d.code == kifu::diagnostic::Code::SfenNotARecord);
        assert!(one, "not one report that it is not a record: {text}: {found:?}");
    }
}

fn valid(c: &mut Criterion) {
    sanity();
    let mut group = c.benchmark_group("valid");
    configure(&mut group, VALID);
    group.bench_function("sfen::check", |b| {
        b.iter(|| {
            for &text in VALID {
                black_box(sfen::check(black_box(text), CHOICE));
            }
        });
    });
    group.bench_function("fast::parse", |b| {
        b.iter(|| {
            for &text in VALID {
                black_box(fast::parse(black_box(text), CHOICE));
            }
        });
    });
    group.bench_function("build::build", |b| {
        b.iter(|| {
            for &text in VALID {
                black_box(build::build(black_box(text), CHOICE));
            }
        });
    });
    group.bench_function("check::check_line", |b| {
        b.iter(|| {
            for (i, &text) in VALID.iter().enumerate() {
                let bytes = black_box(text.as_bytes());
                black_box(check_line(Format::Sfen(CHOICE), i + 1, bytes, bytes.len()));
            }
        });
    });
    group.finish();
}

/// `sfen::check` over `records`, as the group `name`.
fn check_group(c: &mut Criterion, name: &str, records: &[&str]) {
    let mut group = c.benchmark_group(name);
    configure(&mut group, records);
    group.bench_function("sfen::check", |b| {
        b.iter(|| {
            for &text in records {
                black_box(sfen::check(black_box(text), CHOICE));
            }
        });
    });
    group.finish();
}

fn invalid(c: &mut Criterion) {
    check_group(c, "invalid", INVALID);
}

fn not_a_record(c: &mut Criterion) {
    check_group(c, "not-a-record", NOT_RECORDS);
}

criterion_group!(benches, valid, invalid, not_a_record);
criterion_main!(benches);
