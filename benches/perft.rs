//! Criterion benchmarks of the shogi rules (`kifu::shogi::rules`).
//!
//! * `perft/…`: perft from the start position (depths 3 and 4) and from the "matsuri"
//!   middle-game position, a common perft test with many drops and promotions (depths 2 and
//!   3). Throughput is in nodes (the perft count), so criterion reports nodes per second.
//!   The last ply is counted, not played ("bulk counting"), as perft programs usually do.
//! * `play/…`: fixed random games from the start position, played ply by ply. `checked`
//!   checks each move with `State::why_illegal` and plays it (what a game reader needs per
//!   ply, less finding the move's from-square); `generated` generates every legal move at each
//!   ply and plays the recorded one. Throughput is in plies. The group is not named `replay`:
//!   `benches/psn.rs` has a group of that name with a `generated` of its own, and criterion
//!   keeps one record a name, so a baseline one bench saved would be compared with the other's.
//!
//! `cargo bench --bench perft -- --quick` gives a quick figure.

#[path = "../src/rng.rs"]
#[allow(dead_code)]
mod rng;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::sfen::Position;
use kifu::shogi::rules::State;
use kifu::shogi::Move;

/// The "matsuri" position: White to move, 207 legal moves.
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn matsuri() -> State {
    match MATSURI.parse::<Position>() {
        Ok(pos) => State::new(&pos),
        Err(e) => panic!("{MATSURI}: {e:?}"),
    }
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    let cases = [
        ("startpos", State::startpos(), 3),
        ("startpos", State::startpos(), 4),
        ("matsuri", matsuri(), 2),
        ("matsuri", matsuri(), 3),
    ];
    for (name, state, depth) in cases {
        let nodes = state.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/{depth}"), |b| b.iter(|| black_box(&state).perft(black_box(depth))));
    }
    group.finish();
}

/// Random games from the start position (seeded, so always the same), each up to `plies`
/// plies or until the side to move has no move.
fn random_games(games: usize, plies: usize) -> Vec<Vec<Move>> {
    let mut rng = rng::XorShift(0x2545_F491_4F6C_DD1D);
    let mut below = |n: usize| rng.below(n);
    let mut list = Vec::new();
    (0..games)
        .map(|_| {
            let mut state = State::startpos();
            let mut game = Vec::new();
            for _ in 0..plies {
                state.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let mv = list[below(list.len())];
                state.play_unchecked(mv);
                game.push(mv);
            }
            game
        })
        .collect()
}

fn play(c: &mut Criterion) {
    let games = random_games(50, 200);
    let plies: usize = games.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("play");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(plies as u64));
    group.bench_function("checked", |b| {
        b.iter(|| {
            for game in &games {
                let mut state = State::startpos();
                for &mv in game {
                    assert!(state.why_illegal(black_box(mv)).is_none());
                    state.play_unchecked(mv);
                }
                black_box(&state);
            }
        });
    });
    let mut list = Vec::with_capacity(600);
    group.bench_function("generated", |b| {
        b.iter(|| {
            for game in &games {
                let mut state = State::startpos();
                for &mv in game {
                    state.legal_moves(&mut list);
                    assert!(list.contains(&mv));
                    state.play_unchecked(mv);
                }
                black_box(&state);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, perft, play);
criterion_main!(benches);
