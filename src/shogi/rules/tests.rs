//! The move generator against brute force, and positions no rule expects.

use super::mailbox::*;
use super::*;
use crate::rng::XorShift;
use crate::shogi::{Color, Piece, PieceKind, Square};

fn state(sfen: &str) -> State {
    State::new(&sfen.parse::<Position>().expect("a valid SFEN"))
}

fn moves(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    state.legal_moves(&mut out);
    let mut strings: Vec<String> = out.iter().map(ToString::to_string).collect();
    strings.sort();
    strings
}

/// Every legal move the slow way: each pseudo-legal move of every piece, kept when no king
/// of the mover is attacked after it.
fn brute_force(state: &State) -> Vec<String> {
    let mut pseudo = Vec::new();
    let us = color_bit(state.side);
    for &cell in &CELL_OF {
        let from = usize::from(cell);
        if state.cells[from] & WALL == us {
            state.piece_moves(from, state.cells[from], ALL_CELLS, &mut pseudo);
        }
    }
    state.drops(ALL_CELLS, &mut pseudo);
    let mut strings: Vec<String> = pseudo
        .into_iter()
        .filter(|&mv| {
            let mut next = *state;
            next.play_unchecked(mv);
            !next.king_attacked(state.side)
        })
        .map(|mv| mv.to_string())
        .collect();
    strings.sort();
    strings
}

#[test]
fn the_fast_generator_agrees_with_brute_force() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0;
    for _ in 0..12 {
        let mut s = State::startpos();
        for _ in 0..120 {
            assert_eq!(moves(&s), brute_force(&s), "{s}");
            compared += 1;
            let mut list = Vec::new();
            s.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            s.play_unchecked(list[rng.below(list.len())]);
        }
    }
    assert!(compared > 500);
}

/// `is_legal` (and so `why_illegal`) accepts exactly the generated moves, of every move
/// that can be written.
fn assert_is_legal_agrees(s: &State) {
    let mut list = Vec::new();
    s.legal_moves(&mut list);
    let legal: std::collections::HashSet<Move> = list.iter().copied().collect();
    let board = Square::all().flat_map(|from| {
        Square::all().flat_map(move |to| [false, true].map(|promote| Move::Board { from, to, promote }))
    });
    let drops = PieceKind::ALL.into_iter().flat_map(|kind| Square::all().map(move |to| Move::Drop { kind, to }));
    for mv in board.chain(drops) {
        assert_eq!(s.is_legal(mv), legal.contains(&mv), "{s} {mv} {:?}", s.why_illegal(mv));
    }
}

#[test]
fn is_legal_agrees_with_generation_on_every_conceivable_move() {
    let mut rng = XorShift(12345);
    for _ in 0..3 {
        let mut s = State::startpos();
        for ply in 0..80 {
            let mut list = Vec::new();
            s.legal_moves(&mut list);
            if ply % 8 == 0 {
                assert_is_legal_agrees(&s);
            }
            if list.is_empty() {
                break;
            }
            s.play_unchecked(list[rng.below(list.len())]);
        }
    }
}

#[test]
fn positions_round_trip() {
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200",
        "4k4/9/9/9/9/9/9/9/9 w 2r2b4g4s4n4l18p",
        "P3k3K/9/9/9/9/9/9/9/K8 b -",
    ] {
        let pos: Position = sfen.parse().expect("SFEN");
        assert_eq!(State::new(&pos).to_position(), pos);
    }
}

#[test]
fn strange_positions_do_not_panic() {
    for sfen in [
        // No kings at all; pieces on dead squares; two kings a side; a king in hand is
        // impossible in SFEN, but a side may be to move with the opponent in check.
        "P7p/N7n/9/9/9/9/9/9/L7l b PLN 1",
        "k7k/9/9/9/4p4/9/9/9/K7K b P 1",
        "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
        "9/9/9/9/4k4/9/9/9/9 b 2r2b4g4s4n4l18p 1",
    ] {
        let s = state(sfen);
        assert_eq!(moves(&s), brute_force(&s), "{sfen}");
        assert_is_legal_agrees(&s);
        let _ = s.perft(2);
        let _ = s.is_checkmate();
    }
    // With no king, the side to move may even take the opponent's king.
    let s = state("4k4/4R4/9/9/9/9/9/9/9 b - 1");
    assert!(moves(&s).contains(&"5b5a".to_string()));
}

/// Random games from the start, and the strange positions: the states met on the way.
fn states_met() -> Vec<State> {
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    let mut out = Vec::new();
    for _ in 0..6 {
        let mut s = State::startpos();
        for _ in 0..150 {
            out.push(s);
            let mut list = Vec::new();
            s.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            s.play_unchecked(list[rng.below(list.len())]);
        }
    }
    for sfen in [
        "P7p/N7n/9/9/9/9/9/9/L7l b PLN 1",
        "k7k/9/9/9/4p4/9/9/9/K7K b P 1",
        "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200",
        "9/9/9/9/4k4/9/9/9/9 w 2r2b4g4s4n4l18p 1",
    ] {
        out.push(state(sfen));
    }
    out
}

#[test]
fn the_pieces_reaching_a_square_are_those_that_can_reach_it() {
    for s in states_met() {
        for to in Square::all() {
            let mut found = Vec::new();
            s.reaching(to, |sq, piece| found.push((sq.index(), piece)));
            found.sort_by_key(|f| f.0);
            let expected: Vec<_> = Square::all()
                .filter(|&from| s.can_reach(from, to))
                .filter_map(|from| s.piece_at(from).map(|p| (from.index(), p)))
                .collect();
            assert_eq!(found, expected, "{s} {to}");
            // Looking for one piece finds at least each such piece among them.
            for color in [Color::Black, Color::White] {
                for kind in PieceKind::ALL {
                    for promoted in [false, true] {
                        let like = Piece { color, kind, promoted };
                        let mut some = Vec::new();
                        s.reaching_like(to, [like], |sq, piece| some.push((sq.index(), piece)));
                        let want: Vec<_> = expected.iter().filter(|f| f.1 == like).collect();
                        let got: Vec<_> = some.iter().filter(|f| f.1 == like).collect();
                        assert_eq!(got.len(), want.len(), "{s} {to} {like:?}");
                        assert!(some.iter().all(|f| expected.contains(f)), "{s} {to} {like:?}");
                        // Looking for that piece alone finds exactly those.
                        let mut exact = Vec::new();
                        s.reaching_piece(to, like, |sq| exact.push(sq.index()));
                        exact.sort_unstable();
                        let want: Vec<_> = want.iter().map(|f| f.0).collect();
                        assert_eq!(exact, want, "{s} {to} {like:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_repetition_key_kept_move_by_move_is_the_positions_own() {
    for s in states_met() {
        // The key played to equals the key of the same position set up afresh.
        assert_eq!(s.repetition_key(), State::new(&s.to_position()).repetition_key(), "{s}");
        let mut flipped = s;
        flipped.flip_side();
        assert_ne!(flipped.repetition_key(), s.repetition_key());
        flipped.flip_side();
        assert_eq!(flipped, s);
        // Drops and captures move pieces in and out of the hands.
        let mut list = Vec::new();
        s.legal_moves(&mut list);
        for mv in list {
            let mut next = s;
            next.play_unchecked(mv);
            assert_eq!(next.repetition_key(), State::new(&next.to_position()).repetition_key(), "{s} {mv}");
        }
    }
    // The move number is no part of it.
    let a = state("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    let b = state("4k4/9/9/9/9/9/9/9/4K4 b - 7");
    assert_eq!(a.repetition_key(), b.repetition_key());
}

#[test]
fn is_legal_agrees_with_generation_along_random_games() {
    // `why_illegal` looks at the king's safety without playing a board move; the generator
    // plays none either, but finds checks and pins its own way.
    for s in states_met().iter().step_by(9) {
        assert_is_legal_agrees(s);
    }
}

/// The states met along random games, and positions in check, with pins, with a king that
/// may capture, and the strange ones.
fn states_to_judge() -> Vec<State> {
    let mut states = states_met();
    for sfen in [
        "4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1",
        "4k4/9/9/9/9/9/4r4/4B4/4K4 b G 1",
        "4k4/9/9/9/b8/9/2G6/9/4K4 b P 1",
        "4k4/9/9/9/9/9/3n5/4L4/4K4 b G 1",
        "4k4/9/9/9/9/9/9/3g5/4K4 b - 1",
        "8k/9/9/9/r3S3K/9/9/9/9 b - 1",
        "4k4/4p4/9/4L4/9/9/9/9/4K4 b P 1",
        "k8/9/9/9/4l4/9/9/4P4/4K4 b - 1",
    ] {
        states.push(state(sfen));
    }
    states
}

#[test]
fn legality_judged_once_per_position_agrees_with_is_legal() {
    let states = states_to_judge();
    let board = Square::all().flat_map(|from| {
        Square::all().flat_map(move |to| [false, true].map(|promote| Move::Board { from, to, promote }))
    });
    let drops = PieceKind::ALL.into_iter().flat_map(|kind| Square::all().map(move |to| Move::Drop { kind, to }));
    let every: Vec<Move> = board.chain(drops).collect();
    for s in &states {
        for flipped in [false, true] {
            let mut s = *s;
            if flipped {
                s.flip_side();
            }
            let judge = s.legality();
            for &mv in &every {
                assert_eq!(judge.is_legal(mv), s.is_legal(mv), "{s} {mv}");
                assert_eq!(judge.why_illegal(mv), s.why_illegal(mv), "{s} {mv}");
            }
        }
    }
}

#[test]
fn check_after_a_move_is_found_where_the_move_changed_the_board() {
    for s in states_met() {
        for flipped in [false, true] {
            let mut s = s;
            if flipped {
                s.flip_side();
            }
            // The side to move after the move must not be in check before it.
            let mut other = s;
            other.flip_side();
            if other.is_check() {
                continue;
            }
            let mut list = Vec::new();
            s.legal_moves(&mut list);
            for mv in list {
                let mut next = s;
                next.play_unchecked(mv);
                assert_eq!(next.is_check_after(mv), next.is_check(), "{s} {mv}");
            }
        }
    }
}

#[test]
fn legality_of_a_piece_known_to_reach_agrees_with_is_legal() {
    // Every move of every piece of the side to move to every square it reaches, with and
    // without promotion: the judgement that takes the reach as known says what `is_legal` says.
    let mut judged = 0;
    for s in states_to_judge() {
        for flipped in [false, true] {
            let mut s = s;
            if flipped {
                s.flip_side();
            }
            let judge = s.legality();
            for from in Square::all().filter(|&sq| s.piece_at(sq).is_some_and(|p| p.color == s.side())) {
                for to in Square::all().filter(|&to| s.can_reach(from, to)) {
                    for promote in [false, true] {
                        let mv = Move::Board { from, to, promote };
                        assert_eq!(judge.is_legal_reaching(from, to, promote), s.is_legal(mv), "{s} {mv}");
                        judged += 1;
                    }
                }
            }
        }
    }
    assert!(judged > 10_000, "{judged}");
}
