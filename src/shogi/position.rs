//! A position as a record writes it: a board, two hands, the side to move and the move number.

use super::{Board, Color, Hand, Piece, PieceKind};

/// A shogi position as a record writes it: not necessarily legal.
///
/// This is what an SFEN record, a JSON position or a game's setup says, and nothing more: a
/// position with two black kings or a pawn on the last rank can be written, so it can be a
/// `Position`. [`Position::legal`] checks the rules of the game and gives a [`Legal`]
/// position, the one the rules can play from without surprises (much as shakmaty's `Setup`
/// gives a `Position`).
///
/// ```
/// use kifu::shogi::Position;
///
/// let pos: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".parse().unwrap();
/// assert_eq!(pos, Position::STARTPOS);
/// ```
///
/// [`Legal`]: super::Legal
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The 81 squares.
    pub board: Board,
    /// Black's and White's pieces in hand, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// Who is to move.
    pub side: Color,
    /// The move number (ply) of the position, when the record gives one.
    pub move_number: Option<u64>,
}

/// The back rank of the start position, from file 9 to file 1.
const BACK_RANK: [PieceKind; 9] = {
    use PieceKind::{Gold, King, Knight, Lance, Silver};
    [Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance]
};

/// The start position's board, built square by square (so it cannot fail).
const fn start_board() -> Board {
    const fn put(board: &mut [Option<Piece>; 81], file: u8, rank: u8, color: Color, kind: PieceKind) {
        // Square::new would do, but is not usable here without unwrapping; files count from the right.
        board[(rank as usize - 1) * 9 + (9 - file as usize)] = Some(Piece { color, kind, promoted: false });
    }
    let mut b = [None; 81];
    let mut i = 0;
    while i < 9 {
        let file = 9 - i as u8;
        put(&mut b, file, 1, Color::White, BACK_RANK[i]);
        put(&mut b, file, 3, Color::White, PieceKind::Pawn);
        put(&mut b, file, 7, Color::Black, PieceKind::Pawn);
        put(&mut b, file, 9, Color::Black, BACK_RANK[i]);
        i += 1;
    }
    put(&mut b, 8, 2, Color::White, PieceKind::Rook);
    put(&mut b, 2, 2, Color::White, PieceKind::Bishop);
    put(&mut b, 8, 8, Color::Black, PieceKind::Bishop);
    put(&mut b, 2, 8, Color::Black, PieceKind::Rook);
    Board(b)
}

impl Position {
    /// How many pieces of a full set (40: every piece a game starts with, promoted ones counted
    /// as their kind) are neither on the board nor in hand: none in a position of a game,
    /// where a captured piece goes to hand.
    pub fn missing_pieces(&self) -> usize {
        let on_board = self.board.pieces().count();
        let in_hand: u32 = self.hands.iter().map(|h| PieceKind::ALL.iter().map(|k| h.count(*k)).sum::<u32>()).sum();
        let set: u32 = PieceKind::ALL.iter().map(|k| k.supply()).sum();
        (set as usize).saturating_sub(on_board + in_hand as usize)
    }

    /// How many of the board's pieces stand where the start position has the same piece.
    pub fn pieces_at_home(&self) -> usize {
        self.board.pieces().filter(|(sq, p)| Self::STARTPOS.board.get(*sq) == Some(*p)).count()
    }

    /// The start position, Black to move, move 1.
    pub const STARTPOS: Self =
        Self { board: start_board(), hands: [Hand::EMPTY; 2], side: Color::Black, move_number: Some(1) };

    /// The start position, Black to move, move 1 (the constant [`Position::STARTPOS`]).
    pub const fn startpos() -> Self {
        Self::STARTPOS
    }

    /// The pieces `color` holds.
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_the_usual_one() {
        let pos = Position::STARTPOS;
        assert_eq!(pos.to_string(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        assert_eq!(Position::startpos(), pos);
        assert!(pos.hands.iter().all(Hand::is_empty));
    }
}
