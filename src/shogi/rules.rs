//! Shogi's rules: the legal moves of a position, playing them, check, and perft.
//!
//! [`State`] is a position prepared for play: a mailbox of 10 × 13 cells (nine files and a
//! wall column, nine ranks and two wall ranks above and below, so that no step or knight's
//! jump leaves the array), the hands, and the kings and pawn files kept up to date as moves
//! are played. It is small and [`Copy`]: search copies it and plays on the copy.
//!
//! Legal moves are generated directly, not by trying pseudo-legal moves: the lines through the
//! king give the checkers and the pinned pieces (with the squares each may still move to),
//! the king steps only to squares no enemy piece attacks, and when in check the other pieces
//! and the drops only capture the checker or block its line. A side with no king, or with
//! two, is handled by the slow way: every pseudo-legal move, kept when none of its kings is
//! attacked after it (with no king, every pseudo-legal move is legal).
//!
//! The functions on [`Position`] ([`legal_moves`], [`play`], [`is_check`], [`perft`],
//! [`why_illegal`]) convert to a [`State`] and back; code that plays many moves keeps a
//! [`State`].
//!
//! ```
//! use kifu::sfen::Position;
//! use kifu::shogi::rules::{self, Move};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(rules::legal_moves(&pos).len(), 30);
//! let mv = Move::from_usi("7g7f").expect("a USI move");
//! assert!(rules::why_illegal(&pos, mv).is_none());
//! rules::play(&mut pos, mv);
//! assert_eq!(pos.to_string(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! assert_eq!(rules::perft(&Position::startpos(), 3), 25_470);
//! ```

use std::fmt;

use super::{Board, Color, Hand, Piece, PieceKind, Position, Square};

pub use super::Move;

// ---------------------------------------------------------------------------------------------
// Why a move is illegal
// ---------------------------------------------------------------------------------------------

/// Why a move is not legal in a position: the first rule it breaks, in the order a reader
/// would check them (the piece, its path, promotion, drops' own rules, then the king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// No piece stands on the square the move starts from.
    NoPiece {
        /// The empty square.
        from: Square,
    },
    /// The piece on the starting square belongs to the side not to move.
    NotYours {
        /// Its square.
        from: Square,
        /// The piece.
        piece: Piece,
    },
    /// The mover's own piece stands on the destination.
    OwnPiece {
        /// The piece that moves.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// The destination.
        to: Square,
        /// The piece already there.
        occupant: Piece,
    },
    /// The piece does not move that way.
    CannotReach {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// Where it was sent.
        to: Square,
    },
    /// The piece moves along that line, but another piece stands in the way.
    Blocked {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// Where it was sent.
        to: Square,
        /// The first square in the way that is occupied.
        by: Square,
    },
    /// A gold, a king or an already promoted piece cannot promote.
    CannotPromote {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
    },
    /// Promotion needs the move to start or end in the mover's promotion zone (the far three
    /// ranks).
    OutsideZone {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// A pawn or lance moving to the last rank, or a knight to the last two, must promote: it
    /// could never move again.
    MustPromote {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// The mover has no piece of that kind in hand (a king is never in hand).
    NotInHand {
        /// The side to move.
        color: Color,
        /// The kind it tried to drop.
        kind: PieceKind,
    },
    /// A piece may only be dropped on an empty square.
    Occupied {
        /// The kind dropped.
        kind: PieceKind,
        /// The square.
        to: Square,
        /// The piece that stands there.
        occupant: Piece,
    },
    /// A pawn or lance may not be dropped on the last rank, nor a knight on the last two: it
    /// could never move.
    DeadSquare {
        /// The kind dropped.
        kind: PieceKind,
        /// The square.
        to: Square,
    },
    /// Nifu: a pawn may not be dropped on a file that already holds an unpromoted pawn of the
    /// same side.
    Nifu {
        /// Where the pawn was to be dropped.
        to: Square,
        /// Where the pawn already on the file stands.
        pawn: Square,
    },
    /// Uchifuzume: a pawn drop may not give immediate checkmate.
    PawnDropMate {
        /// Where the pawn was dropped.
        to: Square,
        /// The king it would mate.
        king: Square,
    },
    /// After the move, the mover's king would be attacked.
    KingInCheck {
        /// Where the king would stand.
        king: Square,
        /// Where a piece attacking it would stand.
        attacker: Square,
        /// That piece.
        piece: Piece,
    },
}

/// "pawn", "promoted silver", …
fn piece_name(piece: Piece) -> String {
    if piece.promoted {
        format!("promoted {}", piece.kind.name())
    } else {
        piece.kind.name().to_owned()
    }
}

/// Says why, in the game's terms: "the silver on 4b cannot reach 4d".
impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NoPiece { from } => write!(f, "there is no piece on {from}"),
            Self::NotYours { from, piece } => {
                write!(f, "the {} on {from} is {}'s", piece_name(piece), piece.color.name())
            }
            Self::OwnPiece { piece, from, to, occupant } => write!(
                f,
                "the {} on {from} cannot move to {to}: {}'s own {} stands there",
                piece_name(piece),
                piece.color.name(),
                piece_name(occupant)
            ),
            Self::CannotReach { piece, from, to } => {
                write!(f, "the {} on {from} cannot reach {to}", piece_name(piece))
            }
            Self::Blocked { piece, from, to, by } => {
                write!(f, "the {} on {from} cannot reach {to}: the way is blocked on {by}", piece_name(piece))
            }
            Self::CannotPromote { piece, from } if piece.promoted => {
                write!(f, "the {} on {from} is already promoted", piece_name(piece))
            }
            Self::CannotPromote { piece, from } => {
                write!(f, "the {} on {from} cannot promote: {} never promote", piece_name(piece), piece.kind.plural())
            }
            Self::OutsideZone { piece, from, to } => write!(
                f,
                "the {} cannot promote moving from {from} to {to}: neither square is in {}'s promotion zone",
                piece_name(piece),
                piece.color.name()
            ),
            Self::MustPromote { piece, from, to } => {
                write!(f, "the {} on {from} must promote on {to}: it could never move again", piece_name(piece))
            }
            Self::NotInHand { color, kind } => write!(f, "{} has no {} in hand", color.name(), kind.name()),
            Self::Occupied { kind, to, occupant } => write!(
                f,
                "a {} cannot be dropped on {to}: a {} {} stands there",
                kind.name(),
                occupant.color.name(),
                piece_name(occupant)
            ),
            Self::DeadSquare { kind, to } => {
                write!(f, "a {} dropped on {to} could never move", kind.name())
            }
            Self::Nifu { to, pawn } => {
                write!(f, "a pawn cannot be dropped on {to}: a pawn is already on file {} at {pawn}", to.file())
            }
            Self::PawnDropMate { to, king } => {
                write!(f, "a pawn dropped on {to} would checkmate the king on {king} (uchifuzume)")
            }
            Self::KingInCheck { king, attacker, piece } => {
                write!(f, "the king on {king} would be in check from the {} on {attacker}", piece_name(piece))
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The mailbox
// ---------------------------------------------------------------------------------------------

/// Row length: nine files and one wall cell (stepping off either edge lands on it).
const WIDTH: usize = 10;
/// Cells: thirteen rows (two wall rows above and below the board, for knights) and one more
/// wall cell at each end, so a knight's jump from a corner stays inside the array.
const CELLS: usize = 13 * WIDTH + 2;
/// The cell of 9a.
const FIRST: usize = 2 * WIDTH + 1;

/// A piece code: `BLACK` or `WHITE`, `PROMOTED`, and the kind's index in the low bits.
/// An empty cell is 0, and a wall has both colour bits, so `code & us == 0` means "empty or
/// the opponent's piece": a square one may move to.
const BLACK: u8 = 0x20;
const WHITE: u8 = 0x40;
const WALL: u8 = BLACK | WHITE;
const PROMOTED: u8 = 0x08;
const KIND: u8 = 0x07;

const PAWN: u8 = PieceKind::Pawn as u8;
const LANCE: u8 = PieceKind::Lance as u8;
const KNIGHT: u8 = PieceKind::Knight as u8;
const GOLD: u8 = PieceKind::Gold as u8;
const KING: u8 = PieceKind::King as u8;

/// The eight directions as Black sees the board, N (towards rank a), NE (towards file 1),
/// E, SE, S, SW, W, NW: each is the opposite of the one four places on.
const DIRS: [isize; 8] = [-10, -9, 1, 11, 10, 9, -1, -11];
const N: u8 = 1;
const NE: u8 = 1 << 1;
const E: u8 = 1 << 2;
const SE: u8 = 1 << 3;
const S: u8 = 1 << 4;
const SW: u8 = 1 << 5;
const W: u8 = 1 << 6;
const NW: u8 = 1 << 7;
const ORTHOGONAL: u8 = N | E | S | W;
const DIAGONAL: u8 = NE | SE | SW | NW;
const GOLD_STEPS: u8 = N | NE | NW | E | W | S;
const SILVER_STEPS: u8 = N | NE | NW | SE | SW;

/// A knight's jumps, by colour: two ranks forward and one file aside.
const KNIGHT_JUMPS: [[isize; 2]; 2] = [[-21, -19], [19, 21]];
/// One rank forward, by colour.
const FORWARD: [isize; 2] = [-10, 10];

/// The cell of each square (in SFEN order).
const CELL_OF: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (FIRST + (i / 9) * WIDTH + i % 9) as u8;
        i += 1;
    }
    t
};

/// The square index of each cell; 0xFF for walls.
const INDEX_OF: [u8; CELLS] = {
    let mut t = [0xFFu8; CELLS];
    let mut i = 0;
    while i < 81 {
        t[CELL_OF[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Rank counted from each colour's far side (1 is the last rank, where a pawn cannot go on);
/// 0 for walls.
const REL_RANK: [[u8; CELLS]; 2] = {
    let mut t = [[0u8; CELLS]; 2];
    let mut i = 0;
    while i < 81 {
        let rank = (i / 9 + 1) as u8;
        t[0][CELL_OF[i] as usize] = rank;
        t[1][CELL_OF[i] as usize] = 10 - rank;
        i += 1;
    }
    t
};

/// The steps (one square) and slides (any distance) of every piece code, as bit sets of
/// [`DIRS`]. A knight's jumps are apart; walls and empty cells have none.
const STEPS: [u8; 128] = masks().0;
const SLIDES: [u8; 128] = masks().1;

const fn masks() -> ([u8; 128], [u8; 128]) {
    let mut steps = [0u8; 128];
    let mut slides = [0u8; 128];
    let mut code = 0;
    while code < 128 {
        let color = code as u8 & WALL;
        if color == BLACK || color == WHITE {
            let promoted = code as u8 & PROMOTED != 0;
            let (step, slide) = match (code as u8 & KIND, promoted) {
                (0, false) => (N, 0),
                (1, false) => (0, N),
                (2, false) => (0, 0),
                (3, false) => (SILVER_STEPS, 0),
                (5, false) => (0, DIAGONAL),
                (5, true) => (ORTHOGONAL, DIAGONAL),
                (6, false) => (0, ORTHOGONAL),
                (6, true) => (DIAGONAL, ORTHOGONAL),
                (7, _) => (0xFF, 0),
                // Gold, and the promoted pawn, lance, knight and silver (and a "promoted gold").
                _ => (GOLD_STEPS, 0),
            };
            // White's pieces move the same way turned around: each direction becomes its
            // opposite, four places on.
            if color == WHITE {
                steps[code] = step.rotate_left(4);
                slides[code] = slide.rotate_left(4);
            } else {
                steps[code] = step;
                slides[code] = slide;
            }
        }
        code += 1;
    }
    (steps, slides)
}

const fn color_bit(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

const fn encode(piece: Piece) -> u8 {
    color_bit(piece.color) | if piece.promoted { PROMOTED } else { 0 } | piece.kind as u8
}

/// The piece a code stands for; `None` for an empty cell or a wall.
fn decode(code: u8) -> Option<Piece> {
    let color = match code & WALL {
        BLACK => Color::Black,
        WHITE => Color::White,
        _ => return None,
    };
    Some(Piece { color, kind: PieceKind::ALL[usize::from(code & KIND)], promoted: code & PROMOTED != 0 })
}

/// True for an unpromoted piece that may promote (all but gold and king).
const fn promotable(code: u8) -> bool {
    let kind = code & KIND;
    code & PROMOTED == 0 && kind != GOLD && kind != KING
}

/// True when a piece of this code may not stay on a square of relative rank `rel`.
const fn must_promote(code: u8, rel: u8) -> bool {
    if code & PROMOTED != 0 {
        return false;
    }
    match code & KIND {
        PAWN | LANCE => rel == 1,
        KNIGHT => rel <= 2,
        _ => false,
    }
}

/// True when `kind` may not be dropped on relative rank `rel`.
const fn dead_drop(kind: u8, rel: u8) -> bool {
    match kind {
        PAWN | LANCE => rel == 1,
        KNIGHT => rel <= 2,
        _ => false,
    }
}

#[inline]
fn go(cell: usize, offset: isize) -> usize {
    cell.wrapping_add_signed(offset)
}

/// The bit of a board cell in a [`Cells`] set.
#[inline]
fn bit(cell: usize) -> Cells {
    1 << (cell - FIRST)
}

/// A set of board cells, one bit each (89 bits cover 9a to 1i with the wall cells between).
type Cells = u128;

const ALL_CELLS: Cells = Cells::MAX;

#[inline]
fn square_of(cell: usize) -> Square {
    Square(INDEX_OF[cell])
}

#[inline]
fn cell_of(square: Square) -> usize {
    usize::from(CELL_OF[square.index()])
}

/// The column of a cell (0 for file 9 … 8 for file 1).
#[inline]
fn column(cell: usize) -> usize {
    (cell - 1) % WIDTH
}

/// Where moves go: a list, or a count (perft's last ply needs only how many).
trait Sink {
    fn push(&mut self, mv: Move);
}

impl Sink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

struct Count(u64);

impl Sink for Count {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// What the lines through the king say: how many pieces give check, where the other pieces
/// must go to answer it, and which pieces are pinned.
struct KingLines {
    checkers: u32,
    /// The checker and the squares between it and the king; every square when not in check.
    evasions: Cells,
    /// The pinned pieces.
    pinned: Cells,
    /// Each pinned piece's cell and the line it may still move along (up to its pinner).
    pins: [(usize, Cells); 8],
    pin_count: usize,
}

impl KingLines {
    fn pin_line(&self, cell: usize) -> Cells {
        self.pins[..self.pin_count].iter().find(|(c, _)| *c == cell).map_or(ALL_CELLS, |(_, line)| *line)
    }
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/// A position prepared for play: legal moves, check, playing moves and perft.
///
/// Converting from and to a [`Position`] is exact: nothing is checked or changed, so a
/// position with no king, two kings or pieces on dead squares is kept as it is (and none of
/// them makes any method panic).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    cells: [u8; CELLS],
    hands: [[u32; 7]; 2],
    /// Unpromoted pawns per column, per colour.
    pawns: [[u8; 9]; 2],
    /// The cell of a king of each colour (meaningful when there is one).
    kings: [u8; 2],
    king_count: [u8; 2],
    side: Color,
    move_number: Option<u64>,
}

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

impl State {
    /// The position's pieces, hands, side to move and move number.
    pub fn new(pos: &Position) -> Self {
        let mut state = Self {
            cells: [WALL; CELLS],
            hands: [pos.hands[0].0, pos.hands[1].0],
            pawns: [[0; 9]; 2],
            kings: [0; 2],
            king_count: [0; 2],
            side: pos.side,
            move_number: pos.move_number,
        };
        for &cell in &CELL_OF {
            state.cells[usize::from(cell)] = 0;
        }
        for (square, piece) in pos.board.pieces() {
            state.put(cell_of(square), encode(piece));
        }
        state
    }

    /// The start position.
    pub fn startpos() -> Self {
        Self::new(&Position::startpos())
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
    /// hands and the side to move, not the move number.
    pub fn repetition_key(&self) -> u64 {
        // FxHash's mixing step over eight bytes at a time.
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let mut h = u64::from(self.side == Color::White);
        for chunk in self.cells.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            h = mix(h, u64::from_le_bytes(w));
        }
        for hand in &self.hands {
            for &n in hand {
                h = mix(h, u64::from(n));
            }
        }
        h
    }

    /// The same position with the other side to move.
    pub fn flip_side(&mut self) {
        self.side = self.side.opponent();
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
    #[inline]
    fn put(&mut self, cell: usize, code: u8) {
        self.cells[cell] = code;
        let color = usize::from(code & WHITE != 0);
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
    #[inline]
    fn take(&mut self, cell: usize) -> u8 {
        let code = self.cells[cell];
        if code == 0 {
            return 0;
        }
        self.cells[cell] = 0;
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

    // --- attacks ---

    /// True when a piece of colour `by` (its bit) attacks `target`, with the piece on `ignore`
    /// (if any) taken off the board.
    fn attacked(&self, target: usize, by: u8, ignore: usize) -> bool {
        self.attacker(target, by, ignore).is_some()
    }

    /// A cell from which a piece of colour `by` attacks `target`, with the piece on `ignore`
    /// taken off the board.
    fn attacker(&self, target: usize, by: u8, ignore: usize) -> Option<usize> {
        for (d, &off) in DIRS.iter().enumerate() {
            let towards = 1u8 << ((d + 4) & 7);
            let mut s = go(target, off);
            let c = self.cells[s];
            if c != 0 && s != ignore {
                if c & WALL == by && (STEPS[usize::from(c)] | SLIDES[usize::from(c)]) & towards != 0 {
                    return Some(s);
                }
                continue;
            }
            loop {
                s = go(s, off);
                let c = self.cells[s];
                if c == 0 || s == ignore {
                    continue;
                }
                if c & WALL == by && SLIDES[usize::from(c)] & towards != 0 {
                    return Some(s);
                }
                break;
            }
        }
        // A knight of `by` attacks from two ranks behind the target, as `by` sees it.
        let by_index = usize::from(by == WHITE);
        for off in KNIGHT_JUMPS[by_index] {
            let s = go(target, -off);
            if self.cells[s] == by | KNIGHT && s != ignore {
                return Some(s);
            }
        }
        None
    }

    /// The checkers and pins of the side to move's king on `king`.
    fn king_lines(&self, king: usize) -> KingLines {
        let us = color_bit(self.side);
        let them = us ^ WALL;
        let mut lines = KingLines { checkers: 0, evasions: ALL_CELLS, pinned: 0, pins: [(0, 0); 8], pin_count: 0 };
        for (d, &off) in DIRS.iter().enumerate() {
            let towards = 1u8 << ((d + 4) & 7);
            let mut s = go(king, off);
            let mut line: Cells = 0;
            let mut c = self.cells[s];
            while c == 0 {
                line |= bit(s);
                s = go(s, off);
                c = self.cells[s];
            }
            if c == WALL {
                continue;
            }
            line |= bit(s);
            if c & WALL == them {
                let reach = if line == bit(s) {
                    STEPS[usize::from(c)] | SLIDES[usize::from(c)]
                } else {
                    SLIDES[usize::from(c)]
                };
                if reach & towards != 0 {
                    lines.checkers += 1;
                    lines.evasions = line;
                }
            } else {
                let pinned = s;
                s = go(s, off);
                c = self.cells[s];
                while c == 0 {
                    line |= bit(s);
                    s = go(s, off);
                    c = self.cells[s];
                }
                if c & WALL == them && SLIDES[usize::from(c)] & towards != 0 {
                    line |= bit(s);
                    lines.pinned |= bit(pinned);
                    lines.pins[lines.pin_count] = (pinned, line);
                    lines.pin_count += 1;
                }
            }
        }
        for off in KNIGHT_JUMPS[self.side.opponent().index()] {
            let s = go(king, -off);
            if self.cells[s] == them | KNIGHT {
                lines.checkers += 1;
                lines.evasions = bit(s);
            }
        }
        lines
    }

    /// True when the side to move's king (any of them) is attacked.
    pub fn is_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// True when a king of `color` is attacked.
    fn king_attacked(&self, color: Color) -> bool {
        self.attacked_king(color).is_some()
    }

    /// A king of `color` that is attacked, and a cell it is attacked from.
    fn attacked_king(&self, color: Color) -> Option<(usize, usize)> {
        let us = color_bit(color);
        let them = us ^ WALL;
        match self.king_count[color.index()] {
            0 => None,
            1 => {
                let king = usize::from(self.kings[color.index()]);
                self.attacker(king, them, usize::MAX).map(|a| (king, a))
            }
            _ => CELL_OF.iter().map(|&c| usize::from(c)).find_map(|c| {
                (self.cells[c] & (WALL | KIND) == us | KING)
                    .then(|| self.attacker(c, them, usize::MAX).map(|a| (c, a)))?
            }),
        }
    }

    /// True when the side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    // --- generation ---

    /// Fills `out` (cleared first) with the legal moves of the side to move.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate(out, true);
    }

    /// How many legal moves the side to move has.
    pub fn count_legal_moves(&self) -> u64 {
        let mut count = Count(0);
        self.generate(&mut count, true);
        count.0
    }

    fn generate<S: Sink>(&self, out: &mut S, drops: bool) {
        if self.king_count[self.side.index()] == 1 {
            self.generate_with_king(out, drops);
        } else {
            self.generate_slowly(out, drops);
        }
    }

    /// Legal moves for a side with one king.
    fn generate_with_king<S: Sink>(&self, out: &mut S, drops: bool) {
        let us = color_bit(self.side);
        let them = us ^ WALL;
        let king = usize::from(self.kings[self.side.index()]);
        let lines = self.king_lines(king);
        for off in DIRS {
            let to = go(king, off);
            if self.cells[to] & us == 0 && !self.attacked(to, them, king) {
                out.push(Move::Board { from: square_of(king), to: square_of(to), promote: false });
            }
        }
        if lines.checkers > 1 {
            return;
        }
        for &cell in &CELL_OF {
            let from = usize::from(cell);
            let code = self.cells[from];
            if code & WALL != us || from == king {
                continue;
            }
            let allowed =
                if lines.pinned & bit(from) != 0 { lines.evasions & lines.pin_line(from) } else { lines.evasions };
            self.piece_moves(from, code, allowed, out);
        }
        if drops {
            self.drops(lines.evasions, out);
        }
    }

    /// Legal moves for a side with no king (every pseudo-legal move) or several (those after
    /// which none of them is attacked).
    fn generate_slowly<S: Sink>(&self, out: &mut S, drops: bool) {
        let us = color_bit(self.side);
        let mut pseudo = Vec::new();
        for &cell in &CELL_OF {
            let from = usize::from(cell);
            let code = self.cells[from];
            if code & WALL == us {
                self.piece_moves(from, code, ALL_CELLS, &mut pseudo);
            }
        }
        if drops {
            self.drops(ALL_CELLS, &mut pseudo);
        }
        for mv in pseudo {
            let mut next = *self;
            next.play(mv);
            if !next.king_attacked(self.side) {
                out.push(mv);
            }
        }
    }

    /// The moves of the piece on `from` to the cells of `allowed`.
    #[inline]
    fn piece_moves<S: Sink>(&self, from: usize, code: u8, allowed: Cells, out: &mut S) {
        let us = code & WALL;
        let mut steps = STEPS[usize::from(code)];
        while steps != 0 {
            let to = go(from, DIRS[steps.trailing_zeros() as usize]);
            steps &= steps - 1;
            if self.cells[to] & us == 0 && allowed & bit(to) != 0 {
                self.push_board_move(from, to, code, out);
            }
        }
        let mut slides = SLIDES[usize::from(code)];
        while slides != 0 {
            let off = DIRS[slides.trailing_zeros() as usize];
            slides &= slides - 1;
            let mut to = from;
            loop {
                to = go(to, off);
                let c = self.cells[to];
                if c & us != 0 {
                    break;
                }
                if allowed & bit(to) != 0 {
                    self.push_board_move(from, to, code, out);
                }
                if c != 0 {
                    break;
                }
            }
        }
        if code & (KIND | PROMOTED) == KNIGHT {
            for off in KNIGHT_JUMPS[usize::from(us == WHITE)] {
                let to = go(from, off);
                if self.cells[to] & us == 0 && allowed & bit(to) != 0 {
                    self.push_board_move(from, to, code, out);
                }
            }
        }
    }

    /// Pushes a move and, where the piece may promote, its promotion; where it must, only that.
    #[inline]
    fn push_board_move<S: Sink>(&self, from: usize, to: usize, code: u8, out: &mut S) {
        let (f, t) = (square_of(from), square_of(to));
        if promotable(code) {
            let rel = &REL_RANK[self.side.index()];
            if rel[from] <= 3 || rel[to] <= 3 {
                out.push(Move::Board { from: f, to: t, promote: true });
                if must_promote(code, rel[to]) {
                    return;
                }
            }
        }
        out.push(Move::Board { from: f, to: t, promote: false });
    }

    /// The drops on the empty cells of `allowed`.
    fn drops<S: Sink>(&self, allowed: Cells, out: &mut S) {
        let side = self.side.index();
        let hand = &self.hands[side];
        let mut kinds = [0u8; 7];
        let mut n = 0;
        for (kind, &count) in hand.iter().enumerate() {
            if count > 0 {
                kinds[n] = kind as u8;
                n += 1;
            }
        }
        if n == 0 {
            return;
        }
        let kinds = &kinds[..n];
        let rel = &REL_RANK[side];
        for &cell in &CELL_OF {
            let to = usize::from(cell);
            if self.cells[to] != 0 || allowed & bit(to) == 0 {
                continue;
            }
            for &kind in kinds {
                if dead_drop(kind, rel[to])
                    || (kind == PAWN && (self.pawns[side][column(to)] > 0 || self.pawn_drop_mates(to)))
                {
                    continue;
                }
                out.push(Move::Drop { kind: PieceKind::ALL[usize::from(kind)], to: square_of(to) });
            }
        }
    }

    /// True when a pawn dropped on `to` by the side to move checks a king and leaves its side
    /// no legal move (uchifuzume).
    fn pawn_drop_mates(&self, to: usize) -> bool {
        let them = color_bit(self.side.opponent());
        let front = self.cells[go(to, FORWARD[self.side.index()])];
        if front & (WALL | KIND) != them | KING {
            return false;
        }
        let mut next = *self;
        next.play(Move::Drop { kind: PieceKind::Pawn, to: square_of(to) });
        // No drop answers a pawn's check: count only the moves on the board.
        let mut count = Count(0);
        next.generate(&mut count, false);
        count.0 == 0
    }

    // --- playing ---

    /// Plays `mv` for the side to move: a capture goes to the mover's hand, demoted; the side
    /// to move changes and the move number, if any, goes up by one.
    ///
    /// The move is not checked (see [`State::why_illegal`]); playing one that is not legal
    /// gives some position but never panics.
    pub fn play(&mut self, mv: Move) {
        let side = self.side.index();
        match mv {
            Move::Board { from, to, promote } => {
                let (from, to) = (cell_of(from), cell_of(to));
                let captured = self.take(to);
                if captured != 0 {
                    if let Some(count) = self.hands[side].get_mut(usize::from(captured & KIND)) {
                        *count = count.saturating_add(1);
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
                    *count = count.saturating_sub(1);
                }
                self.take(to);
                self.put(to, color_bit(self.side) | kind as u8);
            }
        }
        self.side = self.side.opponent();
        self.move_number = self.move_number.map(|n| n.saturating_add(1));
    }

    // --- legality of one move ---

    /// True when the piece on `from` moves to `to` by its moves, with nothing in the way (not
    /// minding what stands on `to`, promotion or its own king): a quick filter before
    /// [`State::why_illegal`].
    pub fn can_reach(&self, from: Square, to: Square) -> bool {
        let (f, t) = (cell_of(from), cell_of(to));
        let code = self.cells[f];
        code != 0 && code != WALL && f != t && self.reaches(f, t, code).is_ok()
    }

    /// The squares where `piece` stands.
    pub fn squares_of(&self, piece: Piece) -> impl Iterator<Item = Square> + '_ {
        let code = encode(piece);
        CELL_OF
            .iter()
            .enumerate()
            .filter(move |(_, &cell)| self.cells[usize::from(cell)] == code)
            .filter_map(|(i, _)| Square::from_index(i))
    }

    /// True when `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.why_illegal(mv).is_none()
    }

    /// Why `mv` is not legal for the side to move, or `None` when it is.
    pub fn why_illegal(&self, mv: Move) -> Option<Illegal> {
        let us = color_bit(self.side);
        let side = self.side.index();
        let rel = &REL_RANK[side];
        let piece = |cell: usize| decode(self.cells[cell]);
        match mv {
            Move::Board { from: from_sq, to: to_sq, promote } => {
                let (from, to) = (cell_of(from_sq), cell_of(to_sq));
                let code = self.cells[from];
                let Some(moving) = piece(from) else {
                    return Some(Illegal::NoPiece { from: from_sq });
                };
                if code & us == 0 {
                    return Some(Illegal::NotYours { from: from_sq, piece: moving });
                }
                if from == to {
                    return Some(Illegal::CannotReach { piece: moving, from: from_sq, to: to_sq });
                }
                if let Some(occupant) = piece(to).filter(|_| self.cells[to] & us != 0) {
                    return Some(Illegal::OwnPiece { piece: moving, from: from_sq, to: to_sq, occupant });
                }
                if let Err(blocker) = self.reaches(from, to, code) {
                    return Some(match blocker {
                        Some(by) => Illegal::Blocked { piece: moving, from: from_sq, to: to_sq, by: square_of(by) },
                        None => Illegal::CannotReach { piece: moving, from: from_sq, to: to_sq },
                    });
                }
                if promote {
                    if !promotable(code) {
                        return Some(Illegal::CannotPromote { piece: moving, from: from_sq });
                    }
                    if rel[from] > 3 && rel[to] > 3 {
                        return Some(Illegal::OutsideZone { piece: moving, from: from_sq, to: to_sq });
                    }
                } else if must_promote(code, rel[to]) {
                    return Some(Illegal::MustPromote { piece: moving, from: from_sq, to: to_sq });
                }
            }
            Move::Drop { kind, to: to_sq } => {
                let to = cell_of(to_sq);
                if self.hands[side].get(kind.index()).copied().unwrap_or(0) == 0 {
                    return Some(Illegal::NotInHand { color: self.side, kind });
                }
                if let Some(occupant) = piece(to) {
                    return Some(Illegal::Occupied { kind, to: to_sq, occupant });
                }
                if dead_drop(kind as u8, rel[to]) {
                    return Some(Illegal::DeadSquare { kind, to: to_sq });
                }
                if kind == PieceKind::Pawn && self.pawns[side][column(to)] > 0 {
                    let pawn = (0..9)
                        .map(|row| FIRST + row * WIDTH + column(to))
                        .find(|&c| self.cells[c] == us | PAWN)
                        .map_or(to_sq, square_of);
                    return Some(Illegal::Nifu { to: to_sq, pawn });
                }
            }
        }
        let mut next = *self;
        next.play(mv);
        if let Some((king, attacker)) = next.attacked_king(self.side) {
            let piece = decode(next.cells[attacker])?;
            return Some(Illegal::KingInCheck { king: square_of(king), attacker: square_of(attacker), piece });
        }
        if let Move::Drop { kind: PieceKind::Pawn, to } = mv {
            if self.pawn_drop_mates(cell_of(to)) {
                let king = go(cell_of(to), FORWARD[side]);
                return Some(Illegal::PawnDropMate { to, king: square_of(king) });
            }
        }
        None
    }

    /// Whether the piece `code` on `from` moves to `to` on this board: `Err(Some(cell))` when a
    /// piece on `cell` is in the way, `Err(None)` when it never moves so.
    fn reaches(&self, from: usize, to: usize, code: u8) -> Result<(), Option<usize>> {
        let steps = STEPS[usize::from(code)];
        if (0..8).any(|d| steps & (1 << d) != 0 && go(from, DIRS[d]) == to) {
            return Ok(());
        }
        if code & (KIND | PROMOTED) == KNIGHT
            && KNIGHT_JUMPS[usize::from(code & WALL == WHITE)].iter().any(|&off| go(from, off) == to)
        {
            return Ok(());
        }
        let slides = SLIDES[usize::from(code)];
        for (d, &off) in DIRS.iter().enumerate() {
            if slides & (1 << d) == 0 {
                continue;
            }
            let mut blocker = None;
            let mut s = go(from, off);
            while self.cells[s] != WALL {
                if s == to {
                    return blocker.map_or(Ok(()), |b| Err(Some(b)));
                }
                if self.cells[s] != 0 && blocker.is_none() {
                    blocker = Some(s);
                }
                s = go(s, off);
            }
        }
        Err(None)
    }

    // --- perft ---

    /// The number of move sequences of `depth` plies from here (1 for depth 0).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal_moves();
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 0;
        };
        self.legal_moves(moves);
        let mut nodes = 0;
        for &mv in moves.iter() {
            let mut next = *self;
            next.play(mv);
            nodes += next.perft_with(depth - 1, rest);
        }
        nodes
    }
}

// ---------------------------------------------------------------------------------------------
// The same on a Position
// ---------------------------------------------------------------------------------------------

/// The legal moves of the side to move.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    State::new(pos).legal_moves(&mut moves);
    moves
}

/// Plays `mv` (see [`State::play`]: the move is not checked).
pub fn play(pos: &mut Position, mv: Move) {
    let mut state = State::new(pos);
    state.play(mv);
    *pos = state.to_position();
}

/// True when the side to move's king is attacked.
pub fn is_check(pos: &Position) -> bool {
    State::new(pos).is_check()
}

/// True when the side to move is in check and has no legal move.
pub fn is_checkmate(pos: &Position) -> bool {
    State::new(pos).is_checkmate()
}

/// Why `mv` is not legal in `pos`, or `None` when it is.
pub fn why_illegal(pos: &Position, mv: Move) -> Option<Illegal> {
    State::new(pos).why_illegal(mv)
}

/// The number of move sequences of `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    State::new(pos).perft(depth)
}

#[cfg(test)]
mod tests {
    use super::*;

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
                next.play(mv);
                !next.king_attacked(state.side)
            })
            .map(|mv| mv.to_string())
            .collect();
        strings.sort();
        strings
    }

    struct XorShift(u64);

    impl XorShift {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
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
                s.play(list[rng.below(list.len())]);
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
                s.play(list[rng.below(list.len())]);
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
}
