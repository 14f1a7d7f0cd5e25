//! The board of 64 squares, and which pieces attack a square.

use std::fmt;

use super::{Color, Piece, Role, Square};
use crate::notation::grid::Ray;

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

/// For each square (by index), the eight lines out of it to the board's edge: up, down, left
/// and right as FEN writes the board, then up-left, down-left, up-right and down-right.
pub(super) const LINES: [[Ray; 8]; 64] = crate::notation::grid::rays::<64>(8);
static RAYS: [[Ray; 8]; 64] = LINES;
/// For each square (by index), the squares a knight's jump from it lands on: a file and two
/// ranks away, or two files and a rank (columns to the right, rows down the board as FEN
/// writes it).
pub(super) const KNIGHT_JUMPS: [Ray; 64] =
    crate::notation::grid::jumps::<64>(8, [(1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2)]);
static KNIGHT_SQUARES: [Ray; 64] = KNIGHT_JUMPS;

impl Board {
    /// The piece on `square`.
    #[inline]
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.0[square.index()]
    }

    /// Every occupied square and its piece, in FEN order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The squares of `by`'s pieces that attack `target`: the first piece along each line, the
    /// knights a jump away, and pawns and kings next to it.
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        let mut found = Vec::new();
        let mine = |sq: Square, roles: &[Role]| self.get(sq).is_some_and(|p| p.color == by && roles.contains(&p.role));
        // The first piece along each line: the four orthogonal lines, then the four diagonal.
        for (d, ray) in RAYS[target.index()].iter().enumerate() {
            let sliders = if d < 4 { [Role::Rook, Role::Queen] } else { [Role::Bishop, Role::Queen] };
            let first = ray.squares().iter().enumerate().find_map(|(n, &i)| self.0[usize::from(i)].map(|p| (n, i, p)));
            if let Some((n, i, p)) = first {
                if p.color == by && (sliders.contains(&p.role) || (n == 0 && p.role == Role::King)) {
                    found.push(Square(i));
                }
            }
        }
        for &i in KNIGHT_SQUARES[target.index()].squares() {
            if self.0[usize::from(i)].is_some_and(|p| p.color == by && p.role == Role::Knight) {
                found.push(Square(i));
            }
        }
        // A pawn of `by` attacks diagonally forward: it stands one rank behind, as `by` sees it.
        let back: i8 = if by == Color::White { -1 } else { 1 };
        for df in [-1, 1] {
            if let Some(sq) = target.offset(df, back).filter(|sq| mine(*sq, &[Role::Pawn])) {
                found.push(sq);
            }
        }
        found.sort_unstable();
        found
    }

    /// True when the piece on `from` checks along a line from afar (a rook, bishop or queen at
    /// a distance), the only kind of check a move can uncover.
    pub fn checks_from_afar(&self, from: Square, king: Square) -> bool {
        let far = from.file().abs_diff(king.file()).max(from.rank().abs_diff(king.rank())) > 1;
        far && self.get(from).is_some_and(|p| matches!(p.role, Role::Rook | Role::Bishop | Role::Queen))
    }
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

    /// Every attacker found by looking out from the target is one whose own moves reach it,
    /// and none is missed, on crowded boards.
    #[test]
    fn attackers_agree_with_every_piece_tried() {
        // Whether the piece on `from` reaches `to` by its moves, walking its lines square by square.
        let reaches = |b: &Board, from: Square, to: Square| -> bool {
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
        };
        for placement in [
            "r1bqk2r/pp1n1ppp/2pBpn2/3p4/1bPP4/2N1PN2/PPQ2PPP/R3KB1R",
            "1q2k1N1/2P1p3/b1n2R1p/3Qb3/1Nr1P2B/2n1K3/pP3Pp1/R6r",
        ] {
            let b = board(placement);
            for target in Square::all() {
                for by in [Color::White, Color::Black] {
                    let brute: Vec<Square> = b
                        .pieces()
                        .filter(|(sq, p)| p.color == by && reaches(&b, *sq, target))
                        .map(|(sq, _)| sq)
                        .collect();
                    assert_eq!(b.attackers(target, by), brute, "{target} by {by:?} in {placement}");
                }
            }
        }
    }
}
