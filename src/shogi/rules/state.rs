//! [`State`]: a position prepared for play, kept up to date as moves are played.

use std::fmt;

use super::mailbox::*;
use super::{Illegal, Move, Position};
use crate::shogi::{Board, Color, Hand, Piece, Square};

/// A position prepared for play: legal moves, check, playing moves and perft.
///
/// Converting from and to a [`Position`] is exact: nothing is checked or changed, so a
/// position with no king, two kings or pieces on dead squares is kept as it is (and none of
/// them makes any method panic).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub(super) cells: [u8; CELLS],
    pub(super) hands: [[u32; 7]; 2],
    /// Unpromoted pawns per column, per colour.
    pub(super) pawns: [[u8; 9]; 2],
    /// The cell of a king of each colour (meaningful when there is one).
    pub(super) kings: [u8; 2],
    pub(super) king_count: [u8; 2],
    pub(super) side: Color,
    pub(super) move_number: Option<u64>,
    /// The repetition key ([`State::repetition_key`]), kept up to date move by move: the XOR of
    /// a random number for each piece on its square, for each count of each kind in each hand,
    /// and for White to move.
    pub(super) key: u64,
    /// The board cells that hold a piece ([`Cells`]), kept with `cells`.
    pub(super) occupied: Cells,
}

/// SplitMix64's finalizer: a random-looking number for each number.
#[inline]
const fn scramble(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key's share of the piece `code` on `cell`.
#[inline]
const fn piece_key(cell: usize, code: u8) -> u64 {
    scramble((cell as u64) << 8 | code as u64)
}

/// The key's share of `color` (its index) holding `count` pieces of `kind` (its index): none
/// for none.
#[inline]
const fn hand_key(color: usize, kind: usize, count: u32) -> u64 {
    if count == 0 {
        0
    } else {
        scramble(0x1_0000_0000 | (count as u64) << 8 | (color as u64) << 4 | kind as u64)
    }
}

/// The key's share of White to move.
const WHITE_KEY: u64 = scramble(0x2_0000);

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&self.to_position().to_string()).finish()
    }
}

/// Writes the position as USI SFEN.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_position())
    }
}

impl From<&Position> for State {
    fn from(pos: &Position) -> Self {
        Self::new(pos)
    }
}

/// The state of the start position (Black to move, no move number), made when kifu is compiled.
const START: State = State::build(&Position { move_number: None, ..Position::STARTPOS });

impl State {
    /// The position's pieces, hands, side to move and move number.
    pub fn new(pos: &Position) -> Self {
        // Most games start from the start position: its state is copied rather than made.
        let start = &Position::STARTPOS;
        if pos.side == start.side && pos.hands == start.hands && pos.board == start.board {
            return Self { move_number: pos.move_number, ..START };
        }
        Self::build(pos)
    }

    /// [`State::new`], made piece by piece (also when kifu is compiled, for [`START`]).
    const fn build(pos: &Position) -> Self {
        let mut state = Self {
            cells: [WALL; CELLS],
            hands: [pos.hands[0].0, pos.hands[1].0],
            pawns: [[0; 9]; 2],
            kings: [0; 2],
            king_count: [0; 2],
            side: pos.side,
            move_number: pos.move_number,
            key: if matches!(pos.side, Color::White) { WHITE_KEY } else { 0 },
            occupied: 0,
        };
        let mut color = 0;
        while color < 2 {
            let mut kind = 0;
            while kind < 7 {
                state.key ^= hand_key(color, kind, state.hands[color][kind]);
                kind += 1;
            }
            color += 1;
        }
        // The squares in SFEN order, each with its cell.
        let mut i = 0;
        while i < 81 {
            let cell = CELL_OF[i] as usize;
            match pos.board.0[i] {
                Some(piece) => state.put(cell, encode(piece)),
                None => state.cells[cell] = 0,
            }
            i += 1;
        }
        state
    }

    /// The start position.
    pub const fn startpos() -> Self {
        Self { move_number: Position::STARTPOS.move_number, ..START }
    }

    /// Back to a [`Position`].
    pub fn to_position(&self) -> Position {
        let mut board = Board::default();
        for (i, &cell) in CELL_OF.iter().enumerate() {
            board.0[i] = decode(self.cells[usize::from(cell)]);
        }
        Position {
            board,
            hands: [Hand(self.hands[0]), Hand(self.hands[1])],
            side: self.side,
            move_number: self.move_number,
        }
    }

    /// A hash of what makes two positions the same for repetition (sennichite): the board, the
    /// hands and the side to move, not the move number. It is kept as moves are played
    /// (Zobrist hashing), so asking costs nothing.
    pub const fn repetition_key(&self) -> u64 {
        self.key
    }

    /// The same position with the other side to move.
    pub fn flip_side(&mut self) {
        self.side = self.side.opponent();
        self.key ^= WHITE_KEY;
    }

    /// The side to move.
    pub const fn side(&self) -> Color {
        self.side
    }

    /// The move number, when the position has one.
    pub const fn move_number(&self) -> Option<u64> {
        self.move_number
    }

    /// The piece on `square`.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        decode(self.cells[cell_of(square)])
    }

    /// The pieces `color` holds.
    pub fn hand(&self, color: Color) -> Hand {
        Hand(self.hands[color.index()])
    }

    /// Where `color`'s king stands, when it has exactly one.
    pub fn king(&self, color: Color) -> Option<Square> {
        (self.king_count[color.index()] == 1).then(|| square_of(usize::from(self.kings[color.index()])))
    }

    // --- keeping the kings and pawn files up to date ---

    /// Puts a piece on an empty cell.
    #[inline(always)]
    const fn put(&mut self, cell: usize, code: u8) {
        self.cells[cell] = code;
        self.occupied |= bit(cell);
        self.key ^= piece_key(cell, code);
        let color = (code & WHITE != 0) as usize;
        match code & (KIND | PROMOTED) {
            PAWN => self.pawns[color][column(cell)] = self.pawns[color][column(cell)].saturating_add(1),
            k if k & KIND == KING => {
                self.king_count[color] = self.king_count[color].saturating_add(1);
                self.kings[color] = cell as u8;
            }
            _ => {}
        }
    }

    /// Empties a cell, and returns what stood there (0 when it was empty).
    #[inline(always)]
    fn take(&mut self, cell: usize) -> u8 {
        let code = self.cells[cell];
        if code == 0 {
            return 0;
        }
        self.cells[cell] = 0;
        self.occupied &= !bit(cell);
        self.key ^= piece_key(cell, code);
        let color = usize::from(code & WHITE != 0);
        match code & (KIND | PROMOTED) {
            PAWN => self.pawns[color][column(cell)] = self.pawns[color][column(cell)].saturating_sub(1),
            k if k & KIND == KING => {
                self.king_count[color] = self.king_count[color].saturating_sub(1);
                if self.king_count[color] == 1 {
                    // Two kings, one gone: find the other.
                    if let Some(&c) =
                        CELL_OF.iter().find(|&&c| self.cells[usize::from(c)] & (WALL | KIND) == code & (WALL | KIND))
                    {
                        self.kings[color] = c;
                    }
                }
            }
            _ => {}
        }
        code
    }

    // --- playing ---

    /// Plays `mv` for the side to move if it is legal, as [`State::play_unchecked`] does;
    /// otherwise says why (see [`State::why_illegal`]) and leaves the state as it was.
    ///
    /// ```
    /// use kifu::shogi::rules::{Illegal, State};
    ///
    /// let mut state = State::startpos();
    /// assert!(state.play("7g7f".parse().unwrap()).is_ok());
    /// assert!(matches!(state.play("7f7e".parse().unwrap()), Err(Illegal::NotYours { .. })));
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        match self.why_illegal(mv) {
            Some(why) => Err(why),
            None => {
                self.play_unchecked(mv);
                Ok(())
            }
        }
    }

    /// Plays `mv` for the side to move: a capture goes to the mover's hand, demoted; the side
    /// to move changes and the move number, if any, goes up by one.
    ///
    /// The move is not checked (see [`State::play`] and [`State::why_illegal`]): this is the
    /// fast path for moves known to be legal, such as those [`State::legal_moves`] gives.
    /// Playing one that is not legal gives some position but never panics.
    pub fn play_unchecked(&mut self, mv: Move) {
        let side = self.side.index();
        match mv {
            Move::Board { from, to, promote } => {
                let (from, to) = (cell_of(from), cell_of(to));
                let captured = self.take(to);
                if captured != 0 {
                    let kind = usize::from(captured & KIND);
                    if let Some(count) = self.hands[side].get_mut(kind) {
                        if let Some(more) = count.checked_add(1) {
                            self.key ^= hand_key(side, kind, *count) ^ hand_key(side, kind, more);
                            *count = more;
                        }
                    }
                }
                let mut code = self.take(from);
                if promote && promotable(code) {
                    code |= PROMOTED;
                }
                if code != 0 {
                    self.put(to, code);
                }
            }
            Move::Drop { kind, to } => {
                let to = cell_of(to);
                if let Some(count) = self.hands[side].get_mut(kind.index()) {
                    if let Some(fewer) = count.checked_sub(1) {
                        self.key ^= hand_key(side, kind.index(), *count) ^ hand_key(side, kind.index(), fewer);
                        *count = fewer;
                    }
                }
                self.take(to);
                self.put(to, color_bit(self.side) | kind as u8);
            }
        }
        self.side = self.side.opponent();
        self.key ^= WHITE_KEY;
        self.move_number = self.move_number.map(|n| n.saturating_add(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position's state, copied from the one made when kifu is compiled, is the
    /// state made piece by piece, whatever the move number.
    #[test]
    fn the_start_states_copy_is_the_state_made_piece_by_piece() {
        for move_number in [None, Some(1), Some(9)] {
            let start = Position { move_number, ..Position::STARTPOS };
            assert_eq!(State::new(&start), State::build(&start));
            assert_eq!(State::new(&start).to_position(), start);
        }
        assert_eq!(State::startpos(), State::build(&Position::STARTPOS));
        // Another position is made piece by piece.
        let mut other = Position::STARTPOS;
        other.side = Color::White;
        assert_eq!(State::new(&other), State::build(&other));
        assert_ne!(State::new(&other).repetition_key(), State::startpos().repetition_key());
    }
}
