//! Criterion benchmarks of PSN replay: plies per second played with full legality checking
//! (the origin of each move found or checked, promotion, drops, captures, the side to move,
//! repetition), as `kifu check` does for every game.
//!
//! * `replay/corpus`: every game of `../shared/corpus/psn` (when that folder is there), read
//!   once; the benchmark replays them.
//! * `replay/generated`: 200 seeded random games of up to 150 plies from the start position,
//!   written in the spec's form (`P7f`, origins only where needed) and read once.
//!
//! Throughput is in plies: criterion reports plies per second.
//! `cargo bench --bench psn -- --quick` gives a quick figure.

#[path = "../src/rng.rs"]
#[allow(dead_code)]
mod rng;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::psn::{self, replay, Options};
use kifu::shogi::rules::State;
use kifu::shogi::Move;

/// Games to replay: each game's model and whether it numbers its moves per ply.
fn read(text: &[u8]) -> Vec<psn::Game> {
    psn::check_bytes(text, Options { strict: false, replay: false }).games.into_iter().map(|g| g.game).collect()
}

fn corpus() -> Vec<psn::Game> {
    let Ok(dir) = std::fs::read_dir("../shared/corpus/psn") else { return Vec::new() };
    let mut games = Vec::new();
    for entry in dir.flatten() {
        if entry.path().extension().is_some_and(|e| e == "psn") {
            games.extend(read(&std::fs::read(entry.path()).unwrap_or_default()));
        }
    }
    games
}

/// Seeded random games, written as spec PSN.
fn generated() -> Vec<psn::Game> {
    let mut rng = rng::XorShift(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let mut text = String::new();
    let mut moves: Vec<Move> = Vec::new();
    for g in 0..200 {
        text.push_str(&format!("[Event \"generated {g}\"]\n"));
        let mut state = State::startpos();
        for ply in 0..150 {
            moves.clear();
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&mv.to_string());
            text.push(' ');
            state.play_unchecked(mv);
        }
        text.push('\n');
    }
    // USI moves read without their piece letters; write them again in the spec's form.
    let games = psn::check_bytes(text.as_bytes(), Options::default());
    let spec: String = games.games.iter().map(|g| g.to_psn()).collect::<Vec<_>>().join("\n");
    read(spec.as_bytes())
}

fn plies(games: &[psn::Game]) -> u64 {
    games
        .iter()
        .map(|g| {
            let mut d = psn::findings::Findings::new();
            replay::replay(g, false, &mut d).played.len() as u64
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for (name, games) in [("corpus", corpus()), ("generated", generated())] {
        if games.is_empty() {
            continue;
        }
        group.throughput(Throughput::Elements(plies(&games)));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0;
                for g in &games {
                    let mut d = psn::findings::Findings::new();
                    n += replay::replay(black_box(g), false, &mut d).moves.len();
                }
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
