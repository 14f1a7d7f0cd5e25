//! No position legal play reaches is refused for its checks, double checks above all: the
//! search for a last move that gives two checks (`chess::retro`, `shogi::retro`) must never
//! miss one. Seeded random games (chess by shakmaty's rules, shogi by kifu's own), half of
//! whose moves give check when one can: every position one move on from each of their
//! positions that is a check is judged, and one in ten of the others. A chess position is
//! written twice, with its en passant square only when a capture is legal and always after a
//! double step.
//!
//! `RETRO_GAMES` sets the number of games of each (default 40; 20,000 of each met 10,977
//! double checks in chess and 16,609 in shogi).

use crate::common::generate;

use generate::Rng;
use kifu::fen::{self, Dialect, Kind};
use kifu::sfen::{self, DialectChoice};
use kifu::shogi::rules::State;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position as _};

fn games() -> usize {
    std::env::var("RETRO_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(40)
}

/// What was seen: positions checked, positions in check, in double check.
#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    checks: usize,
    double: usize,
}

impl Seen {
    /// Whether a position with `checkers` pieces giving check is judged (every check, and every
    /// tenth other position), counted when it is.
    fn judges(&mut self, checkers: usize, rng: &mut Rng) -> bool {
        if checkers == 0 && rng.below(10) != 0 {
            return false;
        }
        self.positions += 1;
        self.checks += usize::from(checkers > 0);
        self.double += usize::from(checkers == 2);
        true
    }
}

/// The next move of a game: half the time a checking move, when there is one (games that hunt
/// the king).
fn next_move<M: Copy>(all: &[M], checking: &[M], rng: &mut Rng) -> M {
    match checking.is_empty() || rng.below(2) == 0 {
        true => all[rng.below(all.len())],
        false => checking[rng.below(checking.len())],
    }
}

#[test]
fn no_chess_position_reached_by_play_is_refused() {
    let mut rng = Rng::new(11);
    let mut seen = Seen::default();
    for _ in 0..games() {
        let mut pos = Chess::default();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut checking = Vec::new();
            for mv in &moves {
                let mut child = pos.clone();
                child.play_unchecked(*mv);
                let checkers = child.checkers().count();
                if checkers > 0 {
                    checking.push(*mv);
                }
                if !seen.judges(checkers, &mut rng) {
                    continue;
                }
                for mode in [EnPassantMode::Legal, EnPassantMode::Always] {
                    let record = Fen::from_position(&child, mode).to_string();
                    let checked = fen::check_without_repair(&record, Kind::Fen, Dialect::Standard);
                    assert!(checked.is_valid(), "{record}: {:?}", checked.diagnostics);
                }
            }
            pos.play_unchecked(next_move(&moves, &checking, &mut rng));
        }
    }
    eprintln!("chess: {seen:?}");
    assert!(seen.double > 0, "no double check met: {seen:?}");
}

#[test]
fn no_shogi_position_reached_by_play_is_refused() {
    let mut rng = Rng::new(12);
    let mut seen = Seen::default();
    let mut legal = Vec::new();
    for _ in 0..games() {
        let mut state = State::startpos();
        for _ in 0..300 {
            legal.clear();
            state.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let mut checking = Vec::new();
            for mv in &legal {
                let mut child = state;
                child.play_unchecked(*mv);
                let position = child.to_position();
                let king = position.board.kings(position.side).next();
                let checkers = king.map_or(0, |k| position.board.attackers(k, position.side.opponent()).len());
                if checkers > 0 {
                    checking.push(*mv);
                }
                if !seen.judges(checkers, &mut rng) {
                    continue;
                }
                let record = position.to_string();
                let checked = sfen::check_without_repair(&record, DialectChoice::Usi);
                assert!(checked.is_valid(), "{record}: {:?}", checked.diagnostics);
            }
            state.play_unchecked(next_move(&legal, &checking, &mut rng));
        }
    }
    eprintln!("shogi: {seen:?}");
    assert!(seen.double > 0, "no double check met: {seen:?}");
}
