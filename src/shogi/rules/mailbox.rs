//! The mailbox a [`State`](super::State) keeps its board in: a cell per square with wall cells
//! around, piece codes, directions and the tables that go with them.

use super::super::{Color, Piece, PieceKind, Square};

/// Row length: nine files and one wall cell (stepping off either edge lands on it).
pub(super) const WIDTH: usize = 10;
/// Cells: thirteen rows (two wall rows above and below the board, for knights) and one more
/// wall cell at each end, so a knight's jump from a corner stays inside the array.
pub(super) const CELLS: usize = 13 * WIDTH + 2;
/// The cell of 9a.
pub(super) const FIRST: usize = 2 * WIDTH + 1;

/// A piece code: `BLACK` or `WHITE`, `PROMOTED`, and the kind's index in the low bits.
/// An empty cell is 0, and a wall has both colour bits, so `code & us == 0` means "empty or
/// the opponent's piece": a square one may move to.
pub(super) const BLACK: u8 = 0x20;
pub(super) const WHITE: u8 = 0x40;
pub(super) const WALL: u8 = BLACK | WHITE;
pub(super) const PROMOTED: u8 = 0x08;
pub(super) const KIND: u8 = 0x07;

pub(super) const PAWN: u8 = PieceKind::Pawn as u8;
pub(super) const KNIGHT: u8 = PieceKind::Knight as u8;
pub(super) const GOLD: u8 = PieceKind::Gold as u8;
pub(super) const KING: u8 = PieceKind::King as u8;

/// The eight directions as Black sees the board, N (towards rank a), NE (towards file 1),
/// E, SE, S, SW, W, NW: each is the opposite of the one four places on.
pub(super) const DIRS: [isize; 8] = [-10, -9, 1, 11, 10, 9, -1, -11];
pub(super) const N: u8 = 1;
pub(super) const NE: u8 = 1 << 1;
pub(super) const E: u8 = 1 << 2;
pub(super) const SE: u8 = 1 << 3;
pub(super) const S: u8 = 1 << 4;
pub(super) const SW: u8 = 1 << 5;
pub(super) const W: u8 = 1 << 6;
pub(super) const NW: u8 = 1 << 7;
pub(super) const ORTHOGONAL: u8 = N | E | S | W;
pub(super) const DIAGONAL: u8 = NE | SE | SW | NW;
pub(super) const GOLD_STEPS: u8 = N | NE | NW | E | W | S;
pub(super) const SILVER_STEPS: u8 = N | NE | NW | SE | SW;

/// A knight's jumps, by colour: two ranks forward and one file aside.
pub(super) const KNIGHT_JUMPS: [[isize; 2]; 2] = [[-21, -19], [19, 21]];
/// One rank forward, by colour.
pub(super) const FORWARD: [isize; 2] = [-10, 10];

/// The cell of each square (in SFEN order).
pub(super) const CELL_OF: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (FIRST + (i / 9) * WIDTH + i % 9) as u8;
        i += 1;
    }
    t
};

/// [`CELL_OF`] for every byte, so that a square's index needs no bound check (an index past the
/// board gives the wall cell 0, which no square has).
const CELL_OF_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 81 {
        t[i] = CELL_OF[i];
        i += 1;
    }
    t
};

/// The square index of each cell; 0xFF for walls.
pub(super) const INDEX_OF: [u8; CELLS] = {
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
pub(super) const REL_RANK: [[u8; CELLS]; 2] = {
    let mut t = [[0u8; CELLS]; 2];
    let mut i = 0;
    while i < 81 {
        let Some(square) = Square::from_index(i) else { break };
        t[0][CELL_OF[i] as usize] = square.rank_from(Color::Black);
        t[1][CELL_OF[i] as usize] = square.rank_from(Color::White);
        i += 1;
    }
    t
};

/// The steps (one square) and slides (any distance) of every piece code, as bit sets of
/// [`DIRS`]. A knight's jumps are apart; walls and empty cells have none.
pub(super) const STEPS: [u8; 128] = masks().0;
pub(super) const SLIDES: [u8; 128] = masks().1;

pub(super) const fn masks() -> ([u8; 128], [u8; 128]) {
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

pub(super) const fn color_bit(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

pub(super) const fn encode(piece: Piece) -> u8 {
    color_bit(piece.color) | if piece.promoted { PROMOTED } else { 0 } | piece.kind as u8
}

/// The piece a code stands for; `None` for an empty cell or a wall.
#[inline]
pub(super) fn decode(code: u8) -> Option<Piece> {
    // One colour bit of the two: a piece. The colour is read from its bit rather than
    // matched, so that no branch depends on whose piece it is (that alternates move by move).
    let sides = code & WALL;
    if sides == 0 || sides == WALL {
        return None;
    }
    let color = [Color::Black, Color::White][usize::from(code & WHITE != 0)];
    Some(Piece { color, kind: PieceKind::ALL[usize::from(code & KIND)], promoted: code & PROMOTED != 0 })
}

/// True for an unpromoted piece that may promote (all but gold and king).
pub(super) const fn promotable(code: u8) -> bool {
    let kind = code & KIND;
    code & PROMOTED == 0 && kind != GOLD && kind != KING
}

/// For each kind (its index), how many of the last ranks it may not stay on, nor be dropped
/// on ([`PieceKind::dead_ranks`]), as a table.
const LAST_RANKS: [u8; 8] = {
    let mut t = [0u8; 8];
    let mut kind = 0;
    while kind < 8 {
        t[kind] = PieceKind::ALL[kind].dead_ranks();
        kind += 1;
    }
    t
};

/// True when relative rank `rel` (1 the last rank; 0, a wall, is none) is one of the last
/// ranks `kind` (its index) may not stay on. Read from a table, with no branch on the kind.
#[inline]
const fn on_last_ranks(kind: u8, rel: u8) -> bool {
    rel.wrapping_sub(1) < LAST_RANKS[(kind & KIND) as usize]
}

/// True when a piece of this code may not stay on a square of relative rank `rel`.
pub(super) const fn must_promote(code: u8, rel: u8) -> bool {
    code & PROMOTED == 0 && on_last_ranks(code, rel)
}

/// True when `kind` may not be dropped on relative rank `rel`.
pub(super) const fn dead_drop(kind: u8, rel: u8) -> bool {
    on_last_ranks(kind, rel)
}

/// For each pair of board cells, the direction (index in [`DIRS`]) from the first along which
/// the second lies, or 0xFF when they share no line (or are the same cell, or a wall).
static LINES: [[u8; CELLS]; CELLS] = lines().between;

/// For each board cell and direction (index in [`DIRS`]), the board cells along the line from
/// it that way (not the cell itself), up to the edge: a set of [`Cells`]. (None for a wall.)
static RAYS: [[Cells; 8]; CELLS] = lines().rays;

/// For each board cell and direction, the first cell past the board's edge along the line from
/// it that way: a wall (cell 0 when the line leaves the array, and for a wall).
static RAY_ENDS: [[u8; 8]; CELLS] = lines().ends;

/// [`LINES`], [`RAYS`] and [`RAY_ENDS`], made together.
struct Lines {
    between: [[u8; CELLS]; CELLS],
    rays: [[Cells; 8]; CELLS],
    ends: [[u8; 8]; CELLS],
}

/// [`Lines`], from one walk along every line from every board cell.
const fn lines() -> Lines {
    let mut between = [[0xFFu8; CELLS]; CELLS];
    let mut rays = [[0; 8]; CELLS];
    let mut ends = [[0u8; 8]; CELLS];
    let mut i = 0;
    while i < 81 {
        let from = CELL_OF[i] as usize;
        let mut d = 0;
        while d < 8 {
            let mut s = from.wrapping_add_signed(DIRS[d]);
            while s < CELLS && INDEX_OF[s] != 0xFF {
                between[from][s] = d as u8;
                rays[from][d] |= 1 << (s - FIRST);
                s = s.wrapping_add_signed(DIRS[d]);
            }
            ends[from][d] = if s < CELLS { s as u8 } else { 0 };
            d += 1;
        }
        i += 1;
    }
    Lines { between, rays, ends }
}

/// The first cell from `cell` in direction `d` (index in [`DIRS`]) that is not empty, when the
/// board cells in `occupied` are the ones that are not: a piece's cell, or the wall past the
/// edge. Found from the set at once, rather than by stepping cell by cell.
#[inline]
pub(super) fn first_from(occupied: Cells, cell: usize, d: usize) -> usize {
    let (Some(rays), Some(ends)) = (RAYS.get(cell), RAY_ENDS.get(cell)) else { return 0 };
    let (ray, end) = (rays[d & 7], ends[d & 7]);
    let on = occupied & ray;
    if on == 0 {
        usize::from(end)
    } else if DIRS[d & 7] > 0 {
        FIRST + on.trailing_zeros() as usize
    } else {
        FIRST + 127 - on.leading_zeros() as usize
    }
}

/// The direction (index in [`DIRS`]) from the board cell `from` along which the board cell `to`
/// lies, when they share a line.
#[inline]
pub(super) fn line_between(from: usize, to: usize) -> Option<usize> {
    let d = LINES.get(from).and_then(|row| row.get(to)).copied().unwrap_or(0xFF);
    (d != 0xFF).then_some(usize::from(d))
}

#[inline]
pub(super) fn go(cell: usize, offset: isize) -> usize {
    cell.wrapping_add_signed(offset)
}

/// The bit of a board cell in a [`Cells`] set.
#[inline]
pub(super) const fn bit(cell: usize) -> Cells {
    1 << (cell - FIRST)
}

/// A set of board cells, one bit each (89 bits cover 9a to 1i with the wall cells between).
pub(super) type Cells = u128;

pub(super) const ALL_CELLS: Cells = Cells::MAX;

#[inline]
pub(super) fn square_of(cell: usize) -> Square {
    Square(INDEX_OF[cell])
}

#[inline]
pub(super) fn cell_of(square: Square) -> usize {
    usize::from(CELL_OF_BYTE[usize::from(square.0)])
}

/// The column of a cell (0 for file 9 … 8 for file 1).
#[inline]
pub(super) const fn column(cell: usize) -> usize {
    (cell - 1) % WIDTH
}
