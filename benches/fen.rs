//! Criterion benchmarks of the FEN layers: the whole checker, the DFA fast path and the pest
//! recovery path on valid records, and the checker on invalid ones, in records per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::fen::{self, build, fast, Dialect, Kind};

/// Valid records: the start position, seed 001's sample, middlegames and endgames.
const VALID: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
];

/// Invalid records: each breaks a different rule.
const INVALID: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq – 0 1",
    "4k3/8/8/8/8/8/PPPPPPPP/3QKQ2 w - - 0 1",
    "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
];

fn valid(c: &mut Criterion) {
    for &text in VALID {
        let checked = fen::check(text, Kind::Fen, Dialect::Standard);
        assert!(checked.is_valid(), "not valid: {text}: {:?}", checked.diagnostics);
        assert!(fast::parse(text, Kind::Fen, Dialect::Standard).is_some(), "not on the fast path: {text}");
    }
    let mut group = c.benchmark_group("fen-valid");
    group.throughput(Throughput::Elements(VALID.len() as u64));
    group.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    group.bench_function("fen::check", |b| {
        b.iter(|| VALID.iter().for_each(|t| drop(black_box(fen::check(black_box(t), Kind::Fen, Dialect::Standard)))))
    });
    group.bench_function("fast::parse", |b| {
        b.iter(|| VALID.iter().for_each(|t| drop(black_box(fast::parse(black_box(t), Kind::Fen, Dialect::Standard)))))
    });
    group.bench_function("build::build", |b| {
        b.iter(|| VALID.iter().for_each(|t| drop(black_box(build::build(black_box(t), Kind::Fen, Dialect::Standard)))))
    });
    group.finish();
}

fn invalid(c: &mut Criterion) {
    for &text in INVALID {
        assert!(!fen::check(text, Kind::Fen, Dialect::Standard).is_valid(), "not invalid: {text}");
    }
    let mut group = c.benchmark_group("fen-invalid");
    group.throughput(Throughput::Elements(INVALID.len() as u64));
    group.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    group.bench_function("fen::check", |b| {
        b.iter(|| INVALID.iter().for_each(|t| drop(black_box(fen::check(black_box(t), Kind::Fen, Dialect::Standard)))))
    });
    group.finish();
}

criterion_group!(benches, valid, invalid);
criterion_main!(benches);
