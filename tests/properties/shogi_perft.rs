//! The shogi rules (`kifu::shogi::rules`) checked three ways:
//!
//! * perft: the start position's published counts (30, 900, 25,470, 719,731, 19,861,490), and
//!   every position of the perft suites in `../shared/corpus/positions/vectors/suites/`
//!   (`shogiops-perft-standard.tsv`, `python-shogi-perft.tsv`) at its recorded depth, when
//!   `../shared` is present;
//! * a differential test against `haitaka` (an independent bitboard move generator): the sets
//!   of legal moves agree on every position of seeded random playouts from the start position
//!   and from the suite positions, as do check and the positions the moves lead to;
//! * the rules one by one: promotion (optional and forced), nifu, dead squares, uchifuzume,
//!   pins, the king and check, and the words `why_illegal` uses.
//!
//! Deep counts are in ignored tests, which `.ci/run` runs: `cargo test --test properties shogi_perft:: --
//! --ignored` (some 45 s; `--release` builds longer and runs them in seconds).
//! Run with `-- --nocapture` to see how much the differential test compared.

use crate::common::shared;

use std::collections::BTreeSet;
use std::fs;

use kifu::sfen::Position;
use kifu::shogi::rules::{self, Illegal, State};
use kifu::shogi::Move;
use kifu::shogi::{Color, Piece, PieceKind, Square};

fn position(sfen: &str) -> Position {
    sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e:?}"))
}

fn state(sfen: &str) -> State {
    State::new(&position(sfen))
}

fn usi(text: &str) -> Move {
    Move::from_usi(text).unwrap_or_else(|| panic!("{text} is not a USI move"))
}

/// A square by its USI name, `7g`.
fn sq(text: &str) -> Square {
    let b = text.as_bytes();
    Square::new(b[0] - b'0', b[1] - b'a' + 1).expect("a square")
}

/// The legal moves, in USI, sorted.
fn moves(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    state.legal_moves(&mut out);
    let mut strings: Vec<String> = out.iter().map(ToString::to_string).collect();
    strings.sort();
    strings
}

fn has(state: &State, mv: &str) -> bool {
    moves(state).iter().any(|m| m == mv)
}

fn why(state: &State, mv: &str) -> Option<String> {
    state.why_illegal(usi(mv)).map(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------------
// Perft
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_perft_to_depth_4() {
    let start = State::startpos();
    for (depth, nodes) in [(0, 1), (1, 30), (2, 900), (3, 25_470), (4, 719_731)] {
        assert_eq!(start.perft(depth), nodes, "depth {depth}");
    }
    assert_eq!(rules::perft(&Position::startpos(), 2), 900);
}

/// The "matsuri" position, a common perft test: many drops, promotions and checks.
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

#[test]
fn matsuri_perft_to_depth_2() {
    let matsuri = state(MATSURI);
    assert_eq!(matsuri.perft(1), 207);
    assert_eq!(matsuri.perft(2), 28_684);
}

#[test]
#[ignore = "slow: .ci/run runs it with --ignored"]
fn matsuri_perft_depth_3() {
    assert_eq!(state(MATSURI).perft(3), 4_809_015);
}

#[test]
#[ignore = "slow: .ci/run runs it with --ignored"]
fn start_position_perft_depth_5() {
    assert_eq!(State::startpos().perft(5), 19_861_490);
}

/// One row of a perft suite.
struct PerftRow {
    at: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

const SUITES: [&str; 2] = ["shogiops-perft-standard.tsv", "python-shogi-perft.tsv"];

/// The rows of the perft suites (`None` without `../shared`). A malformed row fails the test.
fn suite_rows() -> Option<Vec<PerftRow>> {
    let dir = shared::path("corpus/positions/vectors/suites")?;
    let mut rows = Vec::new();
    for name in SUITES {
        let text = fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l).unwrap_or_default();
        assert!(header.starts_with("sfen\tdepth\tnodes"), "{name}: unexpected header {header:?}");
        let before = rows.len();
        for (i, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{name}:{}", i + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let [sfen, depth, nodes, ..] = fields[..] else { panic!("{at}: too few fields in {line:?}") };
            rows.push(PerftRow {
                sfen: sfen.to_owned(),
                depth: depth.parse().unwrap_or_else(|_| panic!("{at}: depth {depth:?}")),
                nodes: nodes.parse().unwrap_or_else(|_| panic!("{at}: nodes {nodes:?}")),
                at,
            });
        }
        assert!(rows.len() > before, "{name} holds no rows");
    }
    shared::at_least("perft rows", rows.len(), SUITE_ROWS);
    Some(rows)
}

/// The rows of the two perft suites.
const SUITE_ROWS: usize = 288;

/// Counts at most this large are checked in the default (debug) run; larger ones only with
/// `--ignored`.
const SHALLOW: u64 = 100_000;

fn check_suites(deep: bool) -> usize {
    let mut checked = 0;
    for row in suite_rows().unwrap_or_default().iter().filter(|r| (r.nodes > SHALLOW) == deep) {
        assert_eq!(state(&row.sfen).perft(row.depth), row.nodes, "{}: {} depth {}", row.at, row.sfen, row.depth);
        checked += 1;
    }
    checked
}

#[test]
fn perft_suites_shallow() {
    let checked = check_suites(false);
    eprintln!("{checked} perft rows checked");
}

#[test]
#[ignore = "slow: .ci/run runs it with --ignored"]
fn perft_suites_deep() {
    let checked = check_suites(true);
    eprintln!("{checked} deep perft rows checked");
}

/// haitaka 0.3.2's legal moves, passed to `each`, less the pawn drops that mate.
///
/// haitaka tests uchifuzume on one square only: `add_drops` (src/board/movegen/mod.rs) calls
/// `is_illegal_mate_by_pawn_drop` on `to.next_square()`, the first square of the pawn's drop
/// targets, not on the square in front of the king, so a mating pawn drop elsewhere gets
/// through. Those drops are found here with haitaka's own generator (after the drop the
/// opponent is in check and has no move) and left out. Returns how many were left out.
fn haitaka_legal(board: &haitaka::Board, mut each: impl FnMut(haitaka::Move)) -> usize {
    let mut left_out = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            if let haitaka::Move::Drop { piece: haitaka::Piece::Pawn, .. } = mv {
                let mut next = board.clone();
                next.play_unchecked(mv);
                if !next.checkers().is_empty() && !next.generate_moves(|_| true) {
                    left_out += 1;
                    continue;
                }
            }
            each(mv);
        }
        false
    });
    left_out
}

/// haitaka's perft (corrected as [`haitaka_legal`] says), counting as ours does.
fn haitaka_perft(board: &haitaka::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    haitaka_legal(board, |mv| {
        if depth == 1 {
            nodes += 1;
        } else {
            let mut next = board.clone();
            next.play_unchecked(mv);
            nodes += haitaka_perft(&next, depth - 1);
        }
    });
    nodes
}

/// The start position, the matsuri position and the suite positions, without repeats.
fn seed_positions() -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut seeds = vec![Position::startpos().to_string(), MATSURI.to_owned()];
    seen.extend(seeds.iter().cloned());
    for row in suite_rows().unwrap_or_default() {
        if seen.insert(row.sfen.clone()) {
            seeds.push(row.sfen);
        }
    }
    seeds
}

fn perft_against_haitaka(depth: u32) {
    for sfen in seed_positions() {
        let Ok(board) = haitaka::Board::from_sfen(&sfen) else {
            panic!("haitaka does not read {sfen}");
        };
        assert_eq!(state(&sfen).perft(depth), haitaka_perft(&board, depth), "{sfen} depth {depth}");
    }
}

#[test]
fn suite_positions_perft_2_agrees_with_haitaka() {
    perft_against_haitaka(2);
}

#[test]
#[ignore = "slow: .ci/run runs it with --ignored"]
fn suite_positions_perft_3_agrees_with_haitaka() {
    perft_against_haitaka(3);
}

// ---------------------------------------------------------------------------------------------
// Differential: random playouts, move sets compared with haitaka
// ---------------------------------------------------------------------------------------------

/// xorshift64*: small, seeded, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    moves: usize,
    in_check: usize,
    double_check: usize,
    mates: usize,
    drops: usize,
    promotions: usize,
    pawn_drop_mates: usize,
    /// Pawn drops that mate, which haitaka lets through (see [`haitaka_legal`]).
    haitaka_pawn_drop_mates: usize,
    longest_list: usize,
}

fn haitaka_moves(board: &haitaka::Board, seen: &mut Coverage) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    seen.haitaka_pawn_drop_mates += haitaka_legal(board, |mv| {
        set.insert(mv.to_string());
    });
    set
}

/// Plays `games` random games of at most `plies` plies from `start`, comparing every position
/// with haitaka. One move in three is a check when there is one, to reach the positions where
/// the rules are subtle.
fn playouts(start: &str, games: usize, plies: usize, rng: &mut Rng, seen: &mut Coverage) {
    let mut list = Vec::new();
    for _ in 0..games {
        let mut ours = state(start);
        let mut theirs = haitaka::Board::from_sfen(start).unwrap_or_else(|e| panic!("haitaka: {start}: {e:?}"));
        for _ in 0..plies {
            ours.legal_moves(&mut list);
            let our_set: BTreeSet<String> = list.iter().map(ToString::to_string).collect();
            assert_eq!(our_set.len(), list.len(), "{ours}: a move generated twice");
            let their_set = haitaka_moves(&theirs, seen);
            if our_set != their_set {
                panic!(
                    "{ours}: only kifu: {:?}; only haitaka: {:?}",
                    our_set.difference(&their_set).collect::<Vec<_>>(),
                    their_set.difference(&our_set).collect::<Vec<_>>()
                );
            }
            assert_eq!(ours.is_check(), !theirs.checkers().is_empty(), "{ours}: check");
            seen.positions += 1;
            seen.moves += list.len();
            seen.longest_list = seen.longest_list.max(list.len());
            seen.in_check += usize::from(ours.is_check());
            seen.double_check += usize::from(theirs.checkers().len() > 1);
            seen.drops += list.iter().filter(|m| matches!(m, Move::Drop { .. })).count();
            seen.promotions += list.iter().filter(|m| matches!(m, Move::Board { promote: true, .. })).count();
            let their_king = ours.king(ours.side().opponent());
            if let Some(front) = their_king.and_then(|k| {
                Square::new(k.file(), if ours.side() == Color::Black { k.rank() + 1 } else { k.rank().wrapping_sub(1) })
            }) {
                let drop = Move::Drop { kind: PieceKind::Pawn, to: front };
                seen.pawn_drop_mates +=
                    usize::from(matches!(ours.why_illegal(drop), Some(Illegal::PawnDropMate { .. })));
            }
            if list.is_empty() {
                seen.mates += usize::from(ours.is_checkmate());
                break;
            }
            let checks: Vec<Move> = list
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut next = ours;
                    next.play_unchecked(mv);
                    next.is_check()
                })
                .collect();
            let mv = if !checks.is_empty() && rng.below(3) == 0 {
                checks[rng.below(checks.len())]
            } else {
                list[rng.below(list.len())]
            };
            ours.play_unchecked(mv);
            let their_move: haitaka::Move = mv.to_string().parse().unwrap_or_else(|e| panic!("haitaka: {mv}: {e:?}"));
            assert!(theirs.try_play(their_move).is_ok(), "{ours}: haitaka refuses {mv}");
            let sfen = ours.to_string();
            assert_eq!(theirs.to_string(), sfen, "the positions after {mv} differ");
        }
    }
}

#[test]
fn legal_moves_agree_with_haitaka() {
    let mut rng = Rng(0x5EED_C0FF_EE00_0001);
    let mut seen = Coverage::default();
    let seeds = seed_positions();
    // Without the suites of `../shared` (a fresh clone), more playouts from the start reach the
    // same coverage.
    let from_start = if seeds.len() > 2 { 60 } else { 80 };
    playouts(&Position::startpos().to_string(), from_start, 160, &mut rng, &mut seen);
    for sfen in seeds.iter().skip(1) {
        playouts(sfen, 2, 30, &mut rng, &mut seen);
    }
    eprintln!("{seen:?}");
    // The playouts must reach the positions that test the rules, or they prove little.
    assert!(seen.positions > 10_000, "{seen:?}");
    assert!(seen.in_check > 1_000 && seen.drops > 100_000 && seen.promotions > 10_000, "{seen:?}");
    assert!(seen.double_check > 0 && seen.mates > 0 && seen.pawn_drop_mates > 0, "{seen:?}");
}

#[test]
#[ignore = "slow: .ci/run runs it with --ignored"]
fn legal_moves_agree_with_haitaka_at_length() {
    let mut rng = Rng(0xDEC0DE);
    let mut seen = Coverage::default();
    playouts(&Position::startpos().to_string(), 2_000, 300, &mut rng, &mut seen);
    for sfen in seed_positions().iter().skip(1) {
        playouts(sfen, 20, 60, &mut rng, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.pawn_drop_mates > 0, "{seen:?}");
}

// ---------------------------------------------------------------------------------------------
// The rules one by one
// ---------------------------------------------------------------------------------------------

#[test]
fn usi_moves_read_and_write() {
    for text in ["7g7f", "8h2b+", "P*5e", "N*1c", "1a9i+"] {
        assert_eq!(usi(text).to_string(), text);
    }
    assert_eq!(usi("8h2b+"), Move::Board { from: sq("8h"), to: sq("2b"), promote: true });
    assert_eq!(usi("P*5e"), Move::Drop { kind: PieceKind::Pawn, to: sq("5e") });
    for bad in ["", "7g7", "7g7f=", "K*5e", "p*5e", "P*0e", "7j7f", "0g7f", "P-5e", "7g7f++", "7g7f "] {
        assert_eq!(Move::from_usi(bad), None, "{bad}");
    }
}

#[test]
fn promotion_is_optional_in_the_zone_and_forced_where_a_piece_would_be_dead() {
    let s = state("4k4/9/9/P7L/9/9/4N4/9/4K4 b - 1");
    // The pawn on 9d enters the zone on 9c: either way.
    assert!(has(&s, "9d9c") && has(&s, "9d9c+"));
    // The lance to 1a must promote; to 1b and 1c it may.
    assert!(has(&s, "1d1a+") && !has(&s, "1d1a"));
    assert!(has(&s, "1d1b") && has(&s, "1d1b+") && has(&s, "1d1c") && has(&s, "1d1c+"));
    // The knight on 5g lands on 4e or 6e, outside the zone: no promotion.
    assert!(has(&s, "5g4e") && !has(&s, "5g4e+"));
    assert_eq!(
        why(&s, "5g4e+").as_deref(),
        Some("the knight cannot promote moving from 5g to 4e: neither square is in Black's promotion zone")
    );

    let s = state("4k4/9/1P7/2N6/9/9/9/9/4K4 b - 1");
    assert!(has(&s, "8c8b+") && has(&s, "8c8b"));
    // The knight on 7d to 6b or 8b must promote.
    assert!(has(&s, "7d6b+") && !has(&s, "7d6b") && has(&s, "7d8b+") && !has(&s, "7d8b"));
    assert_eq!(why(&s, "7d6b").as_deref(), Some("the knight on 7d must promote on 6b: it could never move again"));
    // A pawn on the last rank: forced.
    let s = state("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
    assert!(has(&s, "9b9a+") && !has(&s, "9b9a"));

    // Moving out of the zone may promote too.
    let s = state("4k4/9/2S6/9/9/9/9/9/4K4 b - 1");
    assert!(has(&s, "7c6d+") && has(&s, "7c6d"));
    // Kings, golds and promoted pieces never promote.
    let s = state("4k4/9/2+S1G4/9/9/9/9/9/4K4 b - 1");
    assert!(has(&s, "7c7b") && !has(&s, "7c7b+") && has(&s, "5c5b") && !has(&s, "5c5b+"));
    assert_eq!(why(&s, "7c7b+").as_deref(), Some("the promoted silver on 7c is already promoted"));
    assert_eq!(
        s.why_illegal(usi("5i5h+")),
        Some(Illegal::CannotPromote {
            piece: Piece { color: Color::Black, kind: PieceKind::King, promoted: false },
            from: sq("5i")
        })
    );
}

#[test]
fn white_promotes_on_ranks_g_to_i() {
    let s = state("4k4/9/9/9/9/p8/9/9/4K4 w - 1");
    assert!(has(&s, "9f9g") && has(&s, "9f9g+"));
    let s = state("4k4/9/9/9/9/9/9/p8/4K4 w - 1");
    assert!(has(&s, "9h9i+") && !has(&s, "9h9i"));
    let s = state("4k4/9/9/9/9/9/n8/9/4K4 w - 1");
    assert!(has(&s, "9g8i+") && !has(&s, "9g8i"));
}

#[test]
fn nifu() {
    let s = state("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert!(!moves(&s).iter().any(|m| m.starts_with("P*5")));
    assert!(has(&s, "P*4e"));
    assert_eq!(s.why_illegal(usi("P*5c")), Some(Illegal::Nifu { to: sq("5c"), pawn: sq("5g") }));
    assert_eq!(why(&s, "P*5c").as_deref(), Some("a pawn cannot be dropped on 5c: a pawn is already on file 5 at 5g"));
    // A tokin does not count, nor does the opponent's pawn.
    let s = state("4k4/4p4/9/9/9/9/4+P4/9/4K4 b P 1");
    assert!(has(&s, "P*5c"));
    // When the pawn on the file is taken, the file is free again.
    let s = state("4k4/9/9/9/4p4/4P4/9/9/4K4 b P 1");
    assert!(!has(&s, "P*5c"));
    let mut s = state("4k4/9/9/9/4p4/4P4/9/9/4K4 w P 1");
    s.play_unchecked(usi("5e5f"));
    assert!(has(&s, "P*5c"), "Black's pawn on 5f was taken");
    // And when it promotes.
    let mut s = state("4k4/9/9/4P4/9/9/9/9/4K4 b P 1");
    assert!(!has(&s, "P*5g"));
    s.play_unchecked(usi("5d5c+"));
    s.play_unchecked(usi("5a4a"));
    assert!(has(&s, "P*5g"));
}

#[test]
fn dead_square_drops() {
    let s = state("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    for bad in ["P*1a", "L*9a", "N*2a", "N*2b"] {
        assert!(!has(&s, bad), "{bad}");
    }
    for good in ["P*1b", "L*9b", "N*2c"] {
        assert!(has(&s, good), "{good}");
    }
    assert_eq!(s.why_illegal(usi("N*2b")), Some(Illegal::DeadSquare { kind: PieceKind::Knight, to: sq("2b") }));
    assert_eq!(why(&s, "L*9a").as_deref(), Some("a lance dropped on 9a could never move"));
    let s = state("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    assert!(!has(&s, "P*1i") && !has(&s, "L*1i") && !has(&s, "N*1h") && has(&s, "N*1g") && has(&s, "P*1h"));
    // A piece that is on a dead square already (a malformed position) just cannot move.
    let s = state("P3k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(!moves(&s).iter().any(|m| m.starts_with("9a")));
}

#[test]
fn uchifuzume() {
    // A pawn on 1b would mate the king on 1a (the gold on 2c guards it and 2b, the knight on
    // 3c guards 2a): illegal.
    let s = state("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert!(!has(&s, "P*1b"));
    assert_eq!(s.why_illegal(usi("P*1b")), Some(Illegal::PawnDropMate { to: sq("1b"), king: sq("1a") }));
    assert_eq!(why(&s, "P*1b").as_deref(), Some("a pawn dropped on 1b would checkmate the king on 1a (uchifuzume)"));
    // Any other piece may give that mate, and a pawn pushed there may too.
    let s = state("8k/9/6NG1/9/9/9/9/9/4K4 b G 1");
    assert!(has(&s, "G*1b"));
    let s = state("8k/9/6NGP/9/9/9/9/9/4K4 b - 1");
    assert!(has(&s, "1c1b") && has(&s, "1c1b+"));
    // A pawn drop that checks but does not mate is legal: the king takes the pawn...
    let s = state("8k/9/9/9/9/9/9/9/4K4 b P 1");
    assert!(has(&s, "P*1b"));
    // ...or steps aside to 2a or 2b...
    let s = state("8k/9/8L/9/9/9/9/9/4K4 b P 1");
    assert!(has(&s, "P*1b"));
    // ...or another piece takes it.
    let s = state("7sk/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert!(has(&s, "P*1b"), "the silver on 2a can take on 1b");
    let s = state("7nk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert!(!has(&s, "P*1b"), "a knight on 2a only jumps forward, and blocks its king's escape");
    // A piece that could take the pawn but is pinned does not help.
    let s = state("6Rsk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert!(!has(&s, "P*1b"), "the silver on 2a is pinned by the rook on 3a");
    // White's pawn drops mate upwards.
    let s = state("4k4/9/9/9/9/9/1gn6/9/K8 w p 1");
    assert!(!has(&s, "P*9h"));
    let s = state("4k4/9/9/9/9/9/1g7/9/K8 w p 1");
    assert!(has(&s, "P*9h"), "the king escapes to 8i");
}

#[test]
fn pinned_pieces_stay_on_their_line() {
    // The silver on 5h is pinned by the rook on 5a: it may go straight forward, not aside.
    let s = state("4r3k/9/9/9/9/9/9/4S4/4K4 b - 1");
    assert!(has(&s, "5h5g") && !has(&s, "5h4g") && !has(&s, "5h6g"));
    assert_eq!(why(&s, "5h4g").as_deref(), Some("the king on 5i would be in check from the rook on 5a"));
    // A bishop pinned on a diagonal slides along it, up to taking its pinner.
    let s = state("k8/9/9/9/b8/9/2B6/9/4K4 b - 1");
    assert!(has(&s, "7g8f") && has(&s, "7g9e") && has(&s, "7g6h") && !has(&s, "7g6f"));
    // A pinned knight cannot move at all; a lance pins along its file only.
    let s = state("k3l4/9/9/9/9/9/4N4/9/4K4 b - 1");
    assert!(!moves(&s).iter().any(|m| m.starts_with("5g")));
    let s = state("k8/9/9/9/9/9/9/9/4K1G1l b - 1");
    assert!(has(&s, "3i3h"), "a lance does not attack sideways: the gold is not pinned");
    // Two pieces between the king and the rook: neither is pinned.
    let s = state("4r3k/9/9/9/9/4S4/9/4S4/4K4 b - 1");
    assert!(has(&s, "5h4g") && has(&s, "5f4e"));
}

#[test]
fn the_king_does_not_walk_into_check() {
    // The rook on 4a covers file 4.
    let s = state("5r2k/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(!has(&s, "5i4h") && !has(&s, "5i4i") && has(&s, "5i5h") && has(&s, "5i6h"));
    // In check from the rook on 5a, the king may not step back along its line.
    let s = state("4r3k/9/9/9/9/9/9/4K4/9 b - 1");
    assert!(s.is_check());
    assert!(!has(&s, "5h5i") && !has(&s, "5h5g") && has(&s, "5h4i"));
    // Nor may it take a protected piece.
    let s = state("8k/9/9/9/9/9/4g4/4p4/4K4 b - 1");
    assert!(!has(&s, "5i5h"));
    assert_eq!(
        s.why_illegal(usi("5i5h")),
        Some(Illegal::KingInCheck {
            king: sq("5h"),
            attacker: sq("5g"),
            piece: Piece { color: Color::White, kind: PieceKind::Gold, promoted: false }
        })
    );
    // Nor go next to the other king.
    let s = state("9/9/9/9/4k4/9/4K4/9/9 b - 1");
    assert!(!moves(&s).iter().any(|m| m.ends_with('f')));
    // The horse and dragon step one square where they do not slide.
    let s = state("9/9/9/9/4k4/9/3+b5/9/4K4 b - 1");
    assert!(!has(&s, "5i5h") && !has(&s, "5i6h") && !has(&s, "5i4i") && has(&s, "5i6i") && has(&s, "5i4h"));
    let s = state("9/9/9/9/4k4/9/3+r5/9/4K4 b - 1");
    assert!(!has(&s, "5i5h") && !has(&s, "5i6i") && has(&s, "5i4i") && has(&s, "5i4h"));
}

#[test]
fn checks_are_answered_by_capture_block_or_king_move_and_double_check_by_king_only() {
    // The rook on 5a checks: block with a drop or the gold on 4h, or move the king.
    let s = state("4r3k/9/9/9/9/9/9/5G3/4K4 b G 1");
    assert!(has(&s, "G*5e") && has(&s, "4h5h") && has(&s, "5i6h"));
    assert!(!has(&s, "G*4e") && !has(&s, "4h3h"));
    // A knight's check cannot be blocked: take it or move.
    let s = state("4k4/9/9/9/9/9/3n5/9/4K4 b G 1");
    assert!(s.is_check() && !moves(&s).iter().any(|m| m.starts_with("G*")));
    // Double check (rook and bishop): only the king moves.
    let s = state("4r3k/9/9/9/b8/9/9/5G3/4K4 b G 1");
    assert!(moves(&s).iter().all(|m| m.starts_with("5i")));
    // Mate.
    let s = state("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert!(s.is_checkmate() && rules::is_checkmate(&s.to_position()));
    assert!(moves(&s).is_empty());
    // No move but no check: not mate (python-shogi's "stalemate" position).
    let s = state("+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200");
    assert!(moves(&s).is_empty() && !s.is_check() && !s.is_checkmate());
}

#[test]
fn why_illegal_says_why_in_the_games_terms() {
    let s = State::startpos();
    let cases = [
        ("5e5d", "there is no piece on 5e"),
        ("5c5d", "the pawn on 5c is White's"),
        ("6i5i", "the gold on 6i cannot move to 5i: Black's own king stands there"),
        ("3i4f", "the silver on 3i cannot reach 4f"),
        // A piece that could never go there is told so, even where its own piece stands.
        ("6i6g", "the gold on 6i cannot reach 6g"),
        ("2h2g", "the rook on 2h cannot move to 2g: Black's own pawn stands there"),
        ("7i7i", "the silver on 7i cannot reach 7i"),
        ("2h2c", "the rook on 2h cannot reach 2c: the way is blocked on 2g"),
        ("7g7f+", "the pawn cannot promote moving from 7g to 7f: neither square is in Black's promotion zone"),
        ("6i6h+", "the gold on 6i cannot promote: golds never promote"),
        ("P*5e", "Black has no pawn in hand"),
    ];
    for (mv, text) in cases {
        assert_eq!(why(&s, mv).as_deref(), Some(text), "{mv}");
    }
    let s = state("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(why(&s, "G*5a").as_deref(), Some("a gold cannot be dropped on 5a: a White king stands there"));
    for mv in moves(&s) {
        assert_eq!(why(&s, &mv), None, "{mv}");
    }
    assert!(rules::why_illegal(&Position::startpos(), usi("7g7f")).is_none());
}

#[test]
fn playing_moves_on_a_position() {
    let mut pos = position("4k4/9/9/9/9/4p4/9/4R4/4K4 b - 5");
    rules::play_unchecked(&mut pos, usi("5h5f"));
    assert_eq!(pos.to_string(), "4k4/9/9/9/9/4R4/9/9/4K4 w P 6");
    rules::play_unchecked(&mut pos, usi("5a4b"));
    rules::play_unchecked(&mut pos, usi("5f5b+"));
    assert_eq!(pos.to_string(), "9/4+Rk3/9/9/9/9/9/9/4K4 w P 8");
    assert!(rules::is_check(&pos));
    // A promoted piece goes to the hand demoted.
    rules::play_unchecked(&mut pos, usi("4b5b"));
    assert_eq!(pos.to_string(), "9/4k4/9/9/9/9/9/9/4K4 b Pr 9");
    rules::play_unchecked(&mut pos, usi("5i5h"));
    rules::play_unchecked(&mut pos, usi("R*5c"));
    assert_eq!(pos.to_string(), "9/4k4/4r4/9/9/9/9/4K4/9 b P 11");
    assert!(rules::is_check(&pos));
    assert_eq!(rules::legal_moves(&pos).len(), moves(&State::new(&pos)).len());
    // Without a move number, none is made up.
    let mut pos = position("4k4/9/9/9/9/9/9/9/4K4 b -");
    rules::play_unchecked(&mut pos, usi("5i5h"));
    assert_eq!(pos.move_number, None);
}
