//! Seeded records made with kifu's own rules and writers, for tests and benches that need many
//! valid records without anything outside the repository: shogi positions met in random games
//! (as USI SFEN), PSN games, and single-character slips of a record.

#![allow(dead_code)]

use kifu::shogi::rules::State;
use kifu::shogi::Move;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position as _};

/// A small seeded generator (xorshift64*): the same seed, the same records, on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is moved off the fixed point).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random game from the start, ended after `plies` moves or when the side to move has none:
/// the moves and the position before each.
fn random_game(rng: &mut Rng, plies: usize) -> Vec<(State, Move)> {
    let mut state = State::startpos();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    for _ in 0..plies {
        legal.clear();
        state.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        out.push((state, mv));
        state.play_unchecked(mv);
    }
    out
}

/// `n` shogi positions as USI SFEN records: every position of random games of up to 150 plies,
/// with their move numbers.
pub fn sfen_records(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let plies = 20 + rng.below(130);
        for (ply, (state, _)) in random_game(&mut rng, plies).into_iter().enumerate() {
            if out.len() == n {
                break;
            }
            let mut position = state.to_position();
            position.move_number = Some(ply as u64 + 1);
            out.push(position.to_string());
        }
    }
    out
}

/// The move `mv` of `state` as the 1998 spec writes it: `P7g7f`, `+B2b3c`, `P*5e`, `S4h3g+`.
fn spec_move(mv: Move, state: &State) -> String {
    match mv {
        Move::Drop { .. } => mv.to_string(),
        Move::Board { from, to, promote } => match state.piece_at(from) {
            Some(piece) => format!(
                "{}{}{from}{to}{}",
                if piece.promoted { "+" } else { "" },
                piece.kind.letter(),
                if promote { "+" } else { "" }
            ),
            None => mv.to_string(),
        },
    }
}

/// `n` FEN records: the positions of seeded random chess games, by shakmaty's rules (another
/// library's, so kifu is not checked against itself).
pub fn fen_records(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Chess::default();
        for _ in 0..20 + rng.below(130) {
            if out.len() == n {
                break;
            }
            out.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.play_unchecked(mv);
        }
    }
    out
}

/// PSN games of random legal moves, numbered, with headers, until their text is at least
/// `bytes` long; each written again by kifu's PSN writer, so it is in the 1998 spec's form.
pub fn psn_games(seed: u64, bytes: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(bytes + 4096);
    let mut game = 0;
    while out.len() < bytes {
        game += 1;
        let mut text = format!("[Event \"generated {game}\"]\n[Sente \"Black {game}\"]\n[Gote \"White {game}\"]\n");
        let plies = 40 + rng.below(160);
        let moves = random_game(&mut rng, plies);
        for (ply, (state, mv)) in moves.iter().enumerate() {
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&spec_move(*mv, state));
            text.push(if ply % 10 == 9 { '\n' } else { ' ' });
        }
        text.push_str(["1-0", "0-1", "1/2-1/2"][rng.below(3)]);
        text.push('\n');
        let read = kifu::psn::check_bytes(text.as_bytes(), Default::default());
        for g in &read.games {
            out.push_str(&g.to_psn());
            out.push('\n');
        }
    }
    out
}

/// `record` with one character deleted, inserted or replaced at a random place (an inserted or
/// replacing character is one of `alphabet`).
pub fn slip(record: &str, alphabet: &[char], rng: &mut Rng) -> String {
    let chars: Vec<char> = record.chars().collect();
    let at = rng.below(chars.len() + 1);
    let c = alphabet[rng.below(alphabet.len())];
    let mut out: Vec<char> = chars.clone();
    match rng.below(3) {
        0 if at < chars.len() => {
            out.remove(at);
        }
        1 if at < chars.len() => out[at] = c,
        _ => out.insert(at, c),
    }
    out.into_iter().collect()
}

/// `records` with one in twenty slipped by one character ([`slip`]).
pub fn with_slips(records: &[String], alphabet: &[char], seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    records.iter().map(|r| if rng.below(20) == 0 { slip(r, alphabet, &mut rng) } else { r.clone() }).collect()
}

/// The characters an SFEN record is written with.
pub const SFEN_ALPHABET: &[char] = &[
    'K', 'R', 'B', 'G', 'S', 'N', 'L', 'P', 'k', 'r', 'b', 'g', 's', 'n', 'l', 'p', '+', '/', ' ', '-', '1', '2', '3',
    '4', '5', '6', '7', '8', '9', '0', 'w',
];

/// The characters a FEN record is written with.
pub const FEN_ALPHABET: &[char] = &[
    'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p', '/', ' ', '-', '1', '2', '3', '4', '5', '6', '7', '8',
    '0', 'w', 'a', 'c', 'e', 'h',
];
