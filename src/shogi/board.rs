//! The board of 81 squares, and how the pieces on it attack.

use std::fmt;

use super::{Color, Piece, PieceKind, Square};
use crate::notation::grid::Ray;

/// The 81 squares.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board(pub [Option<Piece>; 81]);

impl Default for Board {
    fn default() -> Self {
        Self([None; 81])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.pieces().map(|(sq, p)| (sq.to_string(), p.to_string()))).finish()
    }
}

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

    /// Every occupied square and its piece, in SFEN order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// Where `color`'s kings stand.
    pub fn kings(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.pieces().filter(move |(_, p)| p.color == color && p.kind == PieceKind::King).map(|(s, _)| s)
    }

    /// True when the piece on `from` attacks `to`.
    pub fn attacks(&self, from: Square, to: Square) -> bool {
        let Some(piece) = self.get(from) else {
            return false;
        };
        // Most pieces are far from the target and cannot reach it along a line: say so fast.
        let (fd, rd) = (from.file().abs_diff(to.file()), from.rank().abs_diff(to.rank()));
        if fd > 2 || rd > 2 {
            let line = match piece.kind {
                PieceKind::Rook => fd == 0 || rd == 0,
                PieceKind::Bishop => fd == rd,
                PieceKind::Lance => fd == 0 && !piece.promoted,
                _ => false,
            };
            if !line {
                return false;
            }
        }
        // Work in Black's frame: forward is towards rank a (dr = -1).
        let fwd: i8 = if piece.color == Color::Black { 1 } else { -1 };
        let df = to.file() as i8 - from.file() as i8;
        let dr = (to.rank() as i8 - from.rank() as i8) * fwd; // forward is negative
        let (adf, adr) = (df.abs(), dr.abs());
        let step = adf <= 1 && adr <= 1 && (adf, adr) != (0, 0);
        let gold = step && !(dr == 1 && adf == 1);
        let slide = |sdf: i8, sdr: i8| -> bool {
            // Is `to` on the ray from `from` in direction (sdf, sdr) (board frame) with nothing between?
            let mut sq = from;
            while let Some(next) = sq.offset(sdf, sdr) {
                if next == to {
                    return true;
                }
                if self.get(next).is_some() {
                    return false;
                }
                sq = next;
            }
            false
        };
        let dir = |d: i8| d.signum();
        let board_dr = to.rank() as i8 - from.rank() as i8;
        let orth = (df == 0) != (board_dr == 0);
        let diag = adf == adr && adf != 0;
        match (piece.kind, piece.promoted) {
            (PieceKind::King, _) => step,
            (PieceKind::Gold, _)
            | (PieceKind::Silver | PieceKind::Knight | PieceKind::Lance | PieceKind::Pawn, true) => gold,
            (PieceKind::Silver, false) => step && (dr == -1 || (adf == 1 && adr == 1)),
            (PieceKind::Knight, false) => dr == -2 && adf == 1,
            (PieceKind::Pawn, false) => dr == -1 && df == 0,
            (PieceKind::Lance, false) => df == 0 && dr < 0 && slide(0, dir(board_dr)),
            (PieceKind::Rook, promoted) => (orth && slide(dir(df), dir(board_dr))) || (promoted && step),
            (PieceKind::Bishop, promoted) => (diag && slide(dir(df), dir(board_dr))) || (promoted && step),
        }
    }

    /// The squares of `by`'s pieces that attack `target`.
    ///
    /// Looks outwards from `target`: the first piece along each of the eight lines, and the two
    /// squares a knight of `by` could jump from. No other piece can attack it.
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        let mut found = Vec::new();
        for ray in &RAYS[target.index()] {
            if let Some((i, p)) = ray.squares().iter().find_map(|&i| self.0[usize::from(i)].map(|p| (i, p))) {
                let sq = Square(i);
                if p.color == by && self.attacks(sq, target) {
                    found.push(sq);
                }
            }
        }
        // A knight of `by` jumps forward: from two ranks behind the target, as `by` sees it.
        let back: i8 = if by == Color::Black { 2 } else { -2 };
        for df in [-1, 1] {
            if let Some(sq) = target.offset(df, back) {
                if self.get(sq).is_some_and(|p| p.color == by) && self.attacks(sq, target) {
                    found.push(sq);
                }
            }
        }
        found.sort_unstable();
        found
    }
}

/// For each square (by index), the eight lines out of it to the board's edge.
static RAYS: [[Ray; 8]; 81] = crate::notation::grid::rays::<81>(9);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::square::tests::sq;

    #[test]
    fn pieces_attack_as_in_shogi() {
        let mut b = Board::default();
        let put = |b: &mut Board, s: &str, c: char, promoted: bool| b.set(sq(s), Piece::from_letter(c, promoted));
        put(&mut b, "5e", 'N', false);
        assert!(b.attacks(sq("5e"), sq("4c")) && b.attacks(sq("5e"), sq("6c")));
        assert!(!b.attacks(sq("5e"), sq("4g")));
        put(&mut b, "5e", 'n', false);
        assert!(b.attacks(sq("5e"), sq("4g")) && !b.attacks(sq("5e"), sq("4c")));
        put(&mut b, "5e", 'S', false);
        assert!(b.attacks(sq("5e"), sq("4f")) && !b.attacks(sq("5e"), sq("5f")) && !b.attacks(sq("5e"), sq("4e")));
        put(&mut b, "5e", 'G', false);
        assert!(b.attacks(sq("5e"), sq("5f")) && !b.attacks(sq("5e"), sq("4f")) && b.attacks(sq("5e"), sq("4d")));
        put(&mut b, "5e", 'L', false);
        assert!(b.attacks(sq("5e"), sq("5a")) && !b.attacks(sq("5e"), sq("5f")));
        put(&mut b, "5c", 'p', false);
        assert!(!b.attacks(sq("5e"), sq("5a")) && b.attacks(sq("5e"), sq("5c")));
        put(&mut b, "5e", 'B', true);
        assert!(b.attacks(sq("5e"), sq("5f")) && b.attacks(sq("5e"), sq("1a")) && !b.attacks(sq("5e"), sq("5g")));
        put(&mut b, "5e", 'r', false);
        assert!(b.attacks(sq("5e"), sq("5i")) && b.attacks(sq("5e"), sq("5c")) && !b.attacks(sq("5e"), sq("5b")));
        assert!(!b.attacks(sq("5e"), sq("4d")));
    }

    #[test]
    fn attackers_agree_with_every_piece_tried() {
        // A crowded board: every attacker found by looking out from the target is one that
        // attacks it by the piece's own moves, and none is missed.
        let rows =
            ["l+n1gk2+R", "1r1s2s1+B", "p1pp1pnp1", "1p2P1p1p", "2P1b4", "P2pSN2P", "1PN1P1P2", "2G1G4", "LN1K3L+s"];
        let mut board = Board::default();
        for (r, row) in rows.iter().enumerate() {
            let mut f = 0;
            let mut promoted = false;
            for c in row.chars() {
                match c {
                    '+' => promoted = true,
                    d if d.is_ascii_digit() => f += d as usize - '0' as usize,
                    c => {
                        board.0[r * 9 + f] = Piece::from_letter(c, promoted);
                        promoted = false;
                        f += 1;
                    }
                }
            }
        }
        for target in Square::all() {
            for by in [Color::Black, Color::White] {
                let brute: Vec<Square> = board
                    .pieces()
                    .filter(|(sq, p)| p.color == by && board.attacks(*sq, target))
                    .map(|(sq, _)| sq)
                    .collect();
                assert_eq!(board.attackers(target, by), brute, "{target} by {by:?}");
            }
        }
    }
}
