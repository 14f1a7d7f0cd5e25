//! The board of 64 squares, and which pieces attack a square.

use std::fmt;

use super::{Color, Piece, PieceSets, Role, Square, SquareSet};
use crate::notation::grid::Ray;
use crate::notation::repair::Likeness;

/// The 64 squares.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board(pub [Option<Piece>; 64]);

impl Default for Board {
    fn default() -> Self {
        Self([None; 64])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.pieces().map(|(sq, p)| (sq.to_string(), p.letter()))).finish()
    }
}

/// The start position's piece letter on each square (by index, a8 first).
const START_BOARD: [Option<char>; 64] = {
    let back = *b"rnbqkbnr";
    let mut board = [None; 64];
    let mut f = 0;
    while f < 8 {
        board[f] = Some(back[f] as char);
        board[8 + f] = Some('p');
        board[48 + f] = Some('P');
        board[56 + f] = Some(back[f].to_ascii_uppercase() as char);
        f += 1;
    }
    board
};

/// The squares of each piece in the start position, by [`PieceSets::slot`].
const START_SETS: [SquareSet; 12] = {
    let mut sets = [0; 12];
    let mut i = 0;
    while i < 64 {
        if let Some(c) = START_BOARD[i] {
            let color = if c.is_ascii_uppercase() { 0 } else { 1 };
            if let Some(role) = Role::from_letter(c) {
                sets[color * 6 + role.index()] |= 1 << i;
            }
        }
        i += 1;
    }
    sets
};

/// For each side and each row of the board as FEN writes it (row 0 is rank 8), the steps a
/// pawn standing there made beyond its first double step: the fewest moves that brought it
/// there.
const PAWN_STEPS: [[u64; 8]; 2] = {
    let mut steps = [[0; 8]; 2];
    let mut row = 0;
    while row < 8 {
        let rank = 8 - row;
        let mut color = 0;
        while color < 2 {
            let advanced = if color == 0 { rank } else { 9 - rank };
            steps[color][row] = if advanced > 3 {
                advanced as u64 - 3
            } else if advanced > 2 {
                1
            } else {
                0
            };
            color += 1;
        }
        row += 1;
    }
    steps
};

/// For each square (by index), the eight lines out of it to the board's edge: up, down, left
/// and right as FEN writes the board, then up-left, down-left, up-right and down-right.
pub(super) const LINES: [[Ray; 8]; 64] = crate::notation::grid::rays::<64>(8);
/// For each square (by index), the squares a knight's jump from it lands on: a file and two
/// ranks away, or two files and a rank (columns to the right, rows down the board as FEN
/// writes it).
pub(super) const KNIGHT_JUMPS: [Ray; 64] =
    crate::notation::grid::jumps::<64>(8, [(1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2)]);

impl Board {
    /// The piece on `square`.
    #[inline]
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.0[square.index()]
    }

    /// Puts `piece` on `square`.
    #[inline]
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        self.0[square.index()] = piece;
    }

    /// Every occupied square and its piece, in FEN order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The squares of `by`'s pieces that attack `target`, in order: the first piece along each
    /// line, the knights a jump away, and pawns and kings next to it ([`PieceSets::attackers`]).
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        PieceSets::squares(PieceSets::of_board(self).attackers(target, by)).collect()
    }

    /// How far the board is from a game's likeliest boards, for ranking the repairs of a
    /// slipped record: the pieces of the starting set (per side: a king, a queen, two rooks,
    /// bishops and knights, eight pawns) that are not on it, and those beyond it (promoted
    /// pawns), how many of its pieces stand where the start position has the same piece, and
    /// the captures its pawns' files call for beyond the pieces the other side has lost; then
    /// how many of the record's other fields (`side` to move, castling `rights`, and its move
    /// numbers `(halfmove, fullmove)` when it has them) disagree with what the board says of
    /// its game: a castling right left out of a list though its king and rook stand at home, a
    /// side that must have made more moves than the move number counts, a halfmove clock
    /// beyond the plies played.
    pub(crate) fn likeness(&self, side: Color, rights: &[super::CastleRight], numbers: Option<(u64, u64)>) -> Likeness {
        self.likeness_with(&PieceSets::of_board(self), side, rights, numbers)
    }

    /// [`Board::likeness`], with the board's pieces as sets (`sets`, [`PieceSets::of_board`])
    /// found already, as a reader finds them in placing the pieces: the counts are taken from
    /// the sets, a few masks each, not square by square.
    pub(crate) fn likeness_with(
        &self,
        sets: &PieceSets,
        side: Color,
        rights: &[super::CastleRight],
        numbers: Option<(u64, u64)>,
    ) -> Likeness {
        let mut counts = [[0usize; 6]; 2];
        let mut at_home = 0;
        // Per side: its pawns on each file, and the fewest moves it made to reach the board.
        let mut pawns = [[0usize; 8]; 2];
        let mut needed = [0u64; 2];
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for role in Role::ALL {
                let set = sets.of(color, role);
                let home = (set & START_SETS[c * 6 + role.index()]).count_ones() as usize;
                let count = set.count_ones() as usize;
                counts[c][role.index()] = count;
                at_home += home;
                needed[c] += if role == Role::Pawn {
                    // Pawn by pawn (a side has few): its file, and its steps beyond its first
                    // double step, by the row it stands on.
                    let (mut rest, mut steps) = (set, 0);
                    while rest != 0 {
                        let i = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        pawns[c][i % 8] += 1;
                        steps += PAWN_STEPS[c][i / 8];
                    }
                    steps
                } else {
                    // A piece off the squares its kind starts on moved at least once.
                    (count - home) as u64
                };
            }
        }
        // Per side, the set a game starts with, by role: eight pawns, two knights, bishops and
        // rooks, a queen, a king.
        const SET: [usize; 6] = [8, 2, 2, 2, 1, 1];
        let (mut missing, mut promoted, mut missing_alike) = (0, 0, 0);
        for (count, set) in counts.iter().flatten().zip(SET.iter().cycle()) {
            let lacked = set.saturating_sub(*count);
            missing += lacked;
            missing_alike += lacked * lacked;
            promoted += count.saturating_sub(*set);
        }
        let pieces = |side: usize| counts[side].iter().sum::<usize>();
        let lost = |side: usize| 16usize.saturating_sub(pieces(side));
        let captures = [pawn_captures(&pawns[0]), pawn_captures(&pawns[1])];
        let unexplained_captures = captures[0].saturating_sub(lost(1)) + captures[1].saturating_sub(lost(0));
        let implausible = self.implausible(side, rights, numbers.map(|n| (n, needed)));
        Likeness {
            missing,
            at_home,
            unexplained_captures,
            captures: captures[0] + captures[1],
            promoted,
            missing_alike,
            implausible,
        }
    }

    /// How many of a record's other fields disagree with what this board says of the game
    /// that led to it, each a sign that a repair did not give back what the author wrote:
    /// a castling right left out of a list of them though its king and rook stand at home,
    /// and, when the record has move numbers (`(halfmove, fullmove)`, with the fewest moves
    /// each side made to reach the board), the moves a side must have made beyond those the
    /// move number counts, and a halfmove clock beyond the plies played.
    fn implausible(
        &self,
        side: Color,
        rights: &[super::CastleRight],
        numbers: Option<((u64, u64), [u64; 2])>,
    ) -> usize {
        use super::{CastleRight, CastleSide};
        let piece_at = |file: u8, rank: u8| Square::new(file, rank).and_then(|sq| self.get(sq));
        // A record that lists castling rights lists every one its board allows; `-` says they
        // were all lost (a king or rook moved and came back), and is no sign of a slip.
        let mut unlisted = 0;
        let mut king_home = [false; 2];
        for color in [Color::White, Color::Black] {
            let rank = if color == Color::White { 1 } else { 8 };
            king_home[color.index()] = piece_at(4, rank) == Some(Piece { color, role: Role::King });
            if !king_home[color.index()] || rights.is_empty() {
                continue;
            }
            for (wing, file) in [(CastleSide::King, 7), (CastleSide::Queen, 0)] {
                let allowed = piece_at(file, rank) == Some(Piece { color, role: Role::Rook });
                unlisted += usize::from(allowed && !rights.contains(&CastleRight { color, side: wing }));
            }
        }
        let Some(((halfmove, fullmove), mut needed)) = numbers else { return unlisted };
        // A king off home may have castled: one move for it and its rook.
        for (needed, home) in needed.iter_mut().zip(king_home) {
            *needed = needed.saturating_sub(u64::from(!home));
        }
        let black_made = fullmove.saturating_sub(1);
        let white_made = black_made.saturating_add(u64::from(side == Color::Black));
        let short = |needed: u64, made: u64| usize::try_from(needed.saturating_sub(made)).unwrap_or(usize::MAX);
        let plies = white_made.saturating_add(black_made);
        unlisted
            .saturating_add(short(needed[Color::White.index()], white_made))
            .saturating_add(short(needed[Color::Black.index()], black_made))
            .saturating_add(usize::from(halfmove > plies))
    }

    /// True when the piece on `from` checks along a line from afar (a rook, bishop or queen at
    /// a distance), the only kind of check a move can uncover.
    pub fn checks_from_afar(&self, from: Square, king: Square) -> bool {
        let far = from.file().abs_diff(king.file()).max(from.rank().abs_diff(king.rank())) > 1;
        far && self.get(from).is_some_and(|p| matches!(p.role, Role::Rook | Role::Bishop | Role::Queen))
    }
}

/// The fewest captures that bring a side's pawns, `per_file` of them on each file, to their
/// files: a pawn leaves its file only by capturing, one file a capture, and each pawn starts on
/// a file of its own. The pawns, by file, are matched to distinct starting files at the least
/// total distance (in order: on a line, a matching that crosses is never shorter).
fn pawn_captures(per_file: &[usize; 8]) -> usize {
    if per_file.iter().all(|&n| n <= 1) || per_file.iter().sum::<usize>() > 8 {
        // A pawn a file: each can stand on its own. More pawns than a side has: no matching,
        // and an error of its own.
        return 0;
    }
    let files = per_file.iter().enumerate().flat_map(|(file, &n)| std::iter::repeat_n(file, n));
    // best[j]: the least distance matching the pawns so far to starting files before j.
    let mut best = [0usize; 9];
    for (i, file) in files.enumerate() {
        let mut next = [usize::MAX; 9];
        for j in i + 1..=8 {
            next[j] = next[j - 1].min(best[j - 1].saturating_add(file.abs_diff(j - 1)));
        }
        best = next;
    }
    best[8]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(placement: &str) -> Board {
        let mut b = Board::default();
        for (r, row) in placement.split('/').enumerate() {
            let mut f = 0;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(n) => f += n as usize,
                    None => {
                        b.0[r * 8 + f] = Piece::from_letter(c);
                        f += 1;
                    }
                }
            }
        }
        b
    }

    #[test]
    fn pawns_off_their_files_call_for_captures() {
        let at = |files: &[usize]| {
            let mut per_file = [0; 8];
            for &f in files {
                per_file[f] += 1;
            }
            pawn_captures(&per_file)
        };
        assert_eq!(at(&[0, 1, 2, 3, 4, 5, 6, 7]), 0);
        assert_eq!(at(&[]), 0);
        // The b- to h-pawns and a second e-pawn: the a-pawn came over four files (or four pawns
        // each one file).
        assert_eq!(at(&[1, 2, 3, 4, 4, 5, 6, 7]), 4);
        // A doubled pawn beside an empty file: one capture.
        assert_eq!(at(&[0, 1, 2, 4, 4, 5, 6, 7]), 1);
        assert_eq!(at(&[7, 7, 7]), 3, "three pawns on h: from f, g and h");
        assert_eq!(at(&[0; 9]), 0, "more pawns than a side has are an error of their own");
    }

    #[test]
    fn fields_that_disagree_with_the_board_are_counted() {
        use crate::chess::{CastleRight, CastleSide};
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        let all: Vec<CastleRight> = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| [CastleSide::King, CastleSide::Queen].map(|side| CastleRight { color, side }))
            .collect();
        let implausible =
            |b: &Board, side, rights: &[CastleRight], numbers| b.likeness(side, rights, numbers).implausible;
        assert_eq!(implausible(&start, Color::White, &all, Some((0, 1))), 0);
        // A right left out of the list while its king and rook stand at home; none listed is
        // no sign of a slip.
        assert_eq!(implausible(&start, Color::White, &all[..3], None), 1);
        assert_eq!(implausible(&start, Color::White, &all[..1], None), 3);
        assert_eq!(implausible(&start, Color::White, &[], None), 0);
        // A halfmove clock of 5 before any move.
        assert_eq!(implausible(&start, Color::White, &all, Some((5, 1))), 1);
        // After 1. e4 e5 2. Nf3: White made two moves, Black one.
        let played = board("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R");
        assert_eq!(implausible(&played, Color::Black, &all, Some((1, 2))), 0);
        // Read as Black to move at move 1, each side is a move short.
        assert_eq!(implausible(&played, Color::Black, &all, Some((1, 1))), 2);
        // A pawn on the sixth rank took three moves, the king and rook one each, less one: they
        // may have castled. Four moves: White has made them at move 5, not at move 4.
        let advanced = board("rnbqkbnr/ppp1pppp/3P4/8/8/8/PPP1PPPP/RNBQ1RK1");
        assert_eq!(implausible(&advanced, Color::White, &all[2..], Some((0, 5))), 0);
        assert_eq!(implausible(&advanced, Color::White, &all[2..], Some((0, 4))), 1);
        // The largest move numbers are read without overflow.
        assert_eq!(implausible(&start, Color::Black, &all, Some((u64::MAX, u64::MAX))), 0);
    }

    #[test]
    fn captures_the_lost_pieces_cannot_account_for_are_counted() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").likeness(Color::White, &[], None);
        assert_eq!(start.missing, 0);
        assert_eq!(start.at_home, 32);
        assert_eq!(start.unexplained_captures, 0);
        // White's a-pawn gone and a second pawn on e4, every black piece on the board.
        let slipped = board("rnbqkbnr/pppppppp/8/8/4P3/8/1PPPPPPP/RNBQKBNR").likeness(Color::White, &[], None);
        assert_eq!(slipped.unexplained_captures, 4);
        // The same with three black pieces lost: one capture is still unexplained.
        let traded = board("r1bqkb1r/pppp1ppp/8/8/4P3/8/1PPPPPPP/RNBQKBNR").likeness(Color::White, &[], None);
        assert_eq!(traded.unexplained_captures, 1);
        // The e-pawn moved to e4: nothing to explain.
        assert_eq!(
            board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
                .likeness(Color::White, &[], None)
                .unexplained_captures,
            0
        );
    }

    #[test]
    fn attackers_match_the_moves_of_each_piece() {
        let b = board("4k3/8/8/3q4/8/2N5/1P6/R3K3");
        let e1 = Square::parse("e1").expect("e1");
        assert_eq!(b.attackers(Square::parse("d5").expect("d5"), Color::White), vec![Square::parse("c3").expect("c3")]);
        assert!(b.attackers(e1, Color::Black).is_empty(), "the queen on d5 does not reach e1");
        assert_eq!(b.attackers(Square::parse("c3").expect("c3"), Color::White), vec![Square::parse("b2").expect("b2")]);
        assert_eq!(b.attackers(Square::parse("a5").expect("a5"), Color::Black), vec![Square::parse("d5").expect("d5")]);
        assert_eq!(b.attackers(Square::parse("a8").expect("a8"), Color::White), vec![Square::parse("a1").expect("a1")]);
        assert_eq!(b.attackers(Square::parse("d7").expect("d7"), Color::Black).len(), 2, "king and queen");
    }
}
