//! The squares of each piece as sets of bits, counted as a reader places the pieces, and the
//! pieces that attack a square, found from them.

use super::board::{KNIGHT_JUMPS, LINES};
use super::{Color, Piece, Role, Square};
use crate::notation::grid::Ray;

/// A set of squares: bit `i` for the square of index `i` ([`Square::index`], a8 first).
pub type SquareSet = u64;

/// The squares holding a piece of each kind, filled piece by piece as a reader places them
/// ([`PieceSets::add`]) without a branch on what the piece is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSets {
    /// The squares of each piece, by [`PieceSets::slot`]; slot 12 takes what is added for no
    /// piece. Sixteen slots, of which [`PieceSets::slot`] numbers 13, so that a slot masked to
    /// four bits indexes one without a check.
    squares: [SquareSet; 16],
}

impl PieceSets {
    /// The slot of no piece.
    const NONE: usize = 12;

    /// Where `piece` is kept: by colour, then [`Role::index`]; 12 for no piece.
    #[inline]
    pub fn slot(piece: Option<Piece>) -> u8 {
        piece.map_or(Self::NONE as u8, |p| (p.color.index() * 6 + p.role.index()) as u8)
    }

    /// The sets of the pieces on `board`.
    pub fn of_board(board: &super::Board) -> Self {
        let mut sets = Self::default();
        for square in Square::all() {
            sets.add(square, board.get(square));
        }
        sets
    }

    /// Adds `piece` on `square`; `None` adds nothing. (The squares are a set: a piece added twice
    /// on one square is there once.)
    #[inline]
    pub fn add(&mut self, square: Square, piece: Option<Piece>) {
        self.add_to_slot(square, Self::slot(piece));
    }

    /// Adds the piece of `slot` ([`PieceSets::slot`]) on `square`, as [`PieceSets::add`] does: a
    /// reader that looked the slot up with the piece does not work it out again.
    #[inline]
    pub fn add_to_slot(&mut self, square: Square, slot: u8) {
        self.squares[usize::from(slot & 15)] |= 1 << square.index();
    }

    /// Keeps only the pieces on the squares of `squares`.
    #[inline]
    pub fn keep(&mut self, squares: SquareSet) {
        for set in &mut self.squares {
            *set &= squares;
        }
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn of(&self, color: Color, role: Role) -> SquareSet {
        self.squares[usize::from(Self::slot(Some(Piece { color, role })))]
    }

    /// How many pieces of `role` `color` has.
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> usize {
        self.of(color, role).count_ones() as usize
    }

    /// The squares of every piece.
    #[inline]
    pub fn occupied(&self) -> SquareSet {
        self.squares[..Self::NONE].iter().fold(0, |all, set| all | set)
    }

    /// The squares of `by`'s pieces that attack `target`, as [`crate::chess::Board::attackers`]
    /// finds them on the board these sets are of: the first piece along each line, the knights
    /// a jump away, and pawns and kings next to it. Without a branch on the pieces.
    pub fn attackers(&self, target: Square, by: Color) -> SquareSet {
        let occupied = self.occupied();
        let of = |role| self.of(by, role);
        let queens = of(Role::Queen);
        let sliders = [of(Role::Rook) | queens, of(Role::Bishop) | queens];
        let lines = &LINE_SETS[target.index()];
        let mut found = 0;
        for (d, line) in lines.iter().enumerate() {
            let blockers = line & occupied;
            // The nearest piece on the line: the lowest square on a line that goes down the
            // board or right (an odd one), the highest on one that goes up or left.
            let first = if d % 2 == 1 {
                blockers & blockers.wrapping_neg()
            } else {
                (1u64 << 63).checked_shr(blockers.leading_zeros()).unwrap_or(0)
            };
            found |= first & sliders[d / 4];
        }
        found
            | (KNIGHT_SETS[target.index()] & of(Role::Knight))
            | (NEIGHBOURS[target.index()] & of(Role::King))
            | (PAWN_SOURCES[by.index()][target.index()] & of(Role::Pawn))
    }

    /// The squares of a set, in index order.
    pub fn squares(mut set: SquareSet) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            let i = set.trailing_zeros();
            set &= set.wrapping_sub(1);
            Square::from_index(i as usize)
        })
    }
}

/// The squares of a ray.
const fn ray_set(ray: &Ray) -> SquareSet {
    let squares = ray.squares();
    let mut set = 0;
    let mut n = 0;
    while n < squares.len() {
        set |= 1 << squares[n];
        n += 1;
    }
    set
}

/// The nearest square of a ray, as a set (empty at the board's edge).
const fn nearest(ray: &Ray) -> SquareSet {
    match ray.squares().first() {
        Some(&sq) => 1 << sq,
        None => 0,
    }
}

/// For each square, the squares of each of its lines ([`LINES`], in that order).
static LINE_SETS: [[SquareSet; 8]; 64] = {
    let mut sets = [[0; 8]; 64];
    let mut i = 0;
    while i < 64 {
        let mut d = 0;
        while d < 8 {
            sets[i][d] = ray_set(&LINES[i][d]);
            d += 1;
        }
        i += 1;
    }
    sets
};

/// For each square, the squares a knight's jump away ([`KNIGHT_JUMPS`]).
static KNIGHT_SETS: [SquareSet; 64] = {
    let mut sets = [0; 64];
    let mut i = 0;
    while i < 64 {
        sets[i] = ray_set(&KNIGHT_JUMPS[i]);
        i += 1;
    }
    sets
};

/// For each square, the squares next to it: the nearest of each line.
static NEIGHBOURS: [SquareSet; 64] = {
    let mut sets = [0; 64];
    let mut i = 0;
    while i < 64 {
        let mut d = 0;
        while d < 8 {
            sets[i] |= nearest(&LINES[i][d]);
            d += 1;
        }
        i += 1;
    }
    sets
};

/// For each colour and square, where a pawn of that colour attacking the square stands: one
/// rank behind it as the pawn goes, a file to either side. White's pawns attack up the board,
/// so they stand on the nearest squares of the lines down-left and down-right (lines 5 and 7);
/// Black's on those up-left and up-right (4 and 6).
static PAWN_SOURCES: [[SquareSet; 64]; 2] = {
    let mut sets = [[0; 64]; 2];
    let mut i = 0;
    while i < 64 {
        sets[0][i] = nearest(&LINES[i][5]) | nearest(&LINES[i][7]);
        sets[1][i] = nearest(&LINES[i][4]) | nearest(&LINES[i][6]);
        i += 1;
    }
    sets
};

/// The light squares ([`Square::is_light`]).
pub const LIGHT_SQUARES: SquareSet = {
    let mut set = 0;
    let mut i = 0;
    while i < 64 {
        if Square(i).is_light() {
            set |= 1 << i;
        }
        i += 1;
    }
    set
};

/// The squares of ranks 1 and 8.
pub const BACK_RANKS: SquareSet = {
    let mut set = 0;
    let mut i = 0;
    while i < 64 {
        let rank = Square(i).rank();
        if rank == 1 || rank == 8 {
            set |= 1 << i;
        }
        i += 1;
    }
    set
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;

    /// Whether the piece on `from` reaches `to` by its moves, its lines walked square by square.
    fn reaches(b: &Board, from: Square, to: Square) -> bool {
        let Some(p) = b.get(from) else { return false };
        let (df, dr) = (to.file() as i8 - from.file() as i8, to.rank() as i8 - from.rank() as i8);
        let clear = || {
            let (sf, sr) = (df.signum(), dr.signum());
            let mut sq = from.offset(sf, sr);
            while let Some(s) = sq.filter(|s| *s != to) {
                if b.get(s).is_some() {
                    return false;
                }
                sq = s.offset(sf, sr);
            }
            true
        };
        let (straight, diagonal) = ((df == 0) != (dr == 0), df != 0 && df.abs() == dr.abs());
        let forward = if p.color == Color::White { 1 } else { -1 };
        match p.role {
            Role::Pawn => dr == forward && df.abs() == 1,
            Role::Knight => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
            Role::Bishop => diagonal && clear(),
            Role::Rook => straight && clear(),
            Role::Queen => (straight || diagonal) && clear(),
            Role::King => df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0),
        }
    }

    /// The attackers found from the sets are the pieces whose own moves reach the target, on
    /// many boards, crowded and sparse, for every square and both colours.
    #[test]
    fn attackers_are_the_pieces_whose_moves_reach_the_square() {
        let mut rng = crate::rng::XorShift(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move || rng.next_u64();
        for round in 0..400 {
            let mut board = Board::default();
            for square in Square::all() {
                let r = next();
                board.0[square.index()] = (r % 64 < 8 + round % 48).then(|| Piece {
                    color: if (r >> 8) % 2 == 0 { Color::White } else { Color::Black },
                    role: Role::ALL[((r >> 16) % 6) as usize],
                });
            }
            let sets = PieceSets::of_board(&board);
            for target in Square::all() {
                for by in [Color::White, Color::Black] {
                    let found: Vec<Square> = PieceSets::squares(sets.attackers(target, by)).collect();
                    let brute: Vec<Square> = board
                        .pieces()
                        .filter(|(sq, p)| p.color == by && reaches(&board, *sq, target))
                        .map(|(sq, _)| sq)
                        .collect();
                    assert_eq!(found, brute, "{target} by {by:?} on {board:?}");
                    assert_eq!(board.attackers(target, by), brute);
                }
            }
        }
    }

    #[test]
    fn a_set_lists_its_squares_in_order() {
        for (set, keep) in
            [(LIGHT_SQUARES, Square::is_light as fn(Square) -> bool), (BACK_RANKS, |s: Square| s.rank() % 7 == 1)]
        {
            let listed: Vec<Square> = PieceSets::squares(set).collect();
            let all: Vec<Square> = Square::all().filter(|s| keep(*s)).collect();
            assert_eq!(listed, all);
        }
        assert_eq!(PieceSets::squares(0).count(), 0);
    }
}
