//! The board of 64 squares, and which pieces attack a square.

use std::fmt;

use super::{Color, Piece, Role, Square};

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

const ROOK_LINES: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const BISHOP_LINES: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_JUMPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

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
        for (lines, sliders) in [(ROOK_LINES, [Role::Rook, Role::Queen]), (BISHOP_LINES, [Role::Bishop, Role::Queen])] {
            for (df, dr) in lines {
                let mut sq = target;
                let mut first = true;
                while let Some(next) = sq.offset(df, dr) {
                    sq = next;
                    if let Some(p) = self.get(sq) {
                        if p.color == by && (sliders.contains(&p.role) || (first && p.role == Role::King)) {
                            found.push(sq);
                        }
                        break;
                    }
                    first = false;
                }
            }
        }
        for (df, dr) in KNIGHT_JUMPS {
            if let Some(sq) = target.offset(df, dr).filter(|sq| mine(*sq, &[Role::Knight])) {
                found.push(sq);
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
}
