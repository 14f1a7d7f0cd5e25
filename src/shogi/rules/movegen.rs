//! Legal move generation: checks and pins from the lines through the king, then the moves of
//! each piece and the drops; the slow way for a side without exactly one king.

use super::mailbox::*;
use super::{Move, State};
use crate::shogi::{Color, PieceKind};

/// Where moves go: a list, or a count (perft's last ply needs only how many).
pub(super) trait Sink {
    fn push(&mut self, mv: Move);
}

impl Sink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

pub(super) struct Count(u64);

impl Sink for Count {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// What the lines through the king say: how many pieces give check, where the other pieces
/// must go to answer it, and which pieces are pinned.
pub(super) struct KingLines {
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
    pub(super) fn pin_line(&self, cell: usize) -> Cells {
        self.pins[..self.pin_count].iter().find(|(c, _)| *c == cell).map_or(ALL_CELLS, |(_, line)| *line)
    }
}

impl State {
    // --- attacks ---

    /// True when a piece of colour `by` (its bit) attacks `target`, with the piece on `ignore`
    /// (if any) taken off the board.
    pub(super) fn attacked(&self, target: usize, by: u8, ignore: usize) -> bool {
        self.attacker(target, by, ignore).is_some()
    }

    /// A cell from which a piece of colour `by` attacks `target`, with the piece on `ignore`
    /// taken off the board.
    pub(super) fn attacker(&self, target: usize, by: u8, ignore: usize) -> Option<usize> {
        // The piece on `ignore` is looked past: out of the occupied cells, no line stops there.
        let occupied = if (FIRST..CELLS).contains(&ignore) { self.occupied & !bit(ignore) } else { self.occupied };
        attacker_on(&self.cells, occupied, target, by, ignore)
    }

    /// [`State::attacker`] on the board after the piece on `from` moved to `to` (taking what
    /// stood there), without playing the move: `from` is empty and `to` holds a piece of the
    /// mover's colour (not `by`'s). `target` is not `to`.
    pub(super) fn attacker_after(&self, target: usize, by: u8, from: usize, to: usize) -> Option<usize> {
        // The board after the move, as far as attacks go: the mover's piece on `to` is any piece
        // of its colour (it attacks nothing of its own side), and `from` is empty.
        let mut cells = self.cells;
        if let Some(c) = cells.get_mut(to) {
            *c = (WALL ^ by) | GOLD;
        }
        if let Some(c) = cells.get_mut(from) {
            *c = 0;
        }
        let occupied = (self.occupied & !bit(from)) | bit(to);
        attacker_on(&cells, occupied, target, by, usize::MAX)
    }

    /// The checkers and pins of the side to move's king on `king`.
    pub(super) fn king_lines(&self, king: usize) -> KingLines {
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
    pub(super) fn king_attacked(&self, color: Color) -> bool {
        self.attacked_king(color).is_some()
    }

    /// A king of `color` that is attacked, and a cell it is attacked from.
    pub(super) fn attacked_king(&self, color: Color) -> Option<(usize, usize)> {
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

    pub(super) fn generate<S: Sink>(&self, out: &mut S, drops: bool) {
        if self.king_count[self.side.index()] == 1 {
            self.generate_with_king(out, drops);
        } else {
            self.generate_slowly(out, drops);
        }
    }

    /// Legal moves for a side with one king.
    pub(super) fn generate_with_king<S: Sink>(&self, out: &mut S, drops: bool) {
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
    pub(super) fn generate_slowly<S: Sink>(&self, out: &mut S, drops: bool) {
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
            next.play_unchecked(mv);
            if !next.king_attacked(self.side) {
                out.push(mv);
            }
        }
    }

    /// The moves of the piece on `from` to the cells of `allowed`.
    #[inline]
    pub(super) fn piece_moves<S: Sink>(&self, from: usize, code: u8, allowed: Cells, out: &mut S) {
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
    pub(super) fn push_board_move<S: Sink>(&self, from: usize, to: usize, code: u8, out: &mut S) {
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
    pub(super) fn drops<S: Sink>(&self, allowed: Cells, out: &mut S) {
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
    pub(super) fn pawn_drop_mates(&self, to: usize) -> bool {
        let them = color_bit(self.side.opponent());
        let front = self.cells[go(to, FORWARD[self.side.index()])];
        if front & (WALL | KIND) != them | KING {
            return false;
        }
        let mut next = *self;
        next.play_unchecked(Move::Drop { kind: PieceKind::Pawn, to: square_of(to) });
        // No drop answers a pawn's check: count only the moves on the board.
        let mut count = Count(0);
        next.generate(&mut count, false);
        count.0 == 0
    }
}

/// A cell from which a piece of colour `by` attacks `target` on the board `cells`, whose
/// occupied cells are `occupied` (the piece on `ignore`, if any, looked past): the first piece
/// along each of the eight lines, and the knight's two squares.
#[inline]
fn attacker_on(cells: &[u8; CELLS], occupied: Cells, target: usize, by: u8, ignore: usize) -> Option<usize> {
    for (d, &off) in DIRS.iter().enumerate() {
        let towards = 1u8 << ((d + 4) & 7);
        let s = first_from(occupied, target, d);
        let c = cells.get(s).copied().unwrap_or(WALL);
        // A piece next to the target reaches it by a step or a slide, one further away by a slide
        // (told with a mask: whether the piece is next to the target follows the board).
        let next_to = u8::from(s == go(target, off)).wrapping_neg();
        let reach = SLIDES[usize::from(c)] | (STEPS[usize::from(c)] & next_to);
        if c & WALL == by && reach & towards != 0 {
            return Some(s);
        }
    }
    // A knight of `by` attacks from two ranks behind the target, as `by` sees it.
    let by_index = usize::from(by == WHITE);
    for off in KNIGHT_JUMPS[by_index] {
        let s = go(target, -off);
        if s != ignore && cells.get(s) == Some(&(by | KNIGHT)) {
            return Some(s);
        }
    }
    None
}
