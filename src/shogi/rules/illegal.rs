//! Why a move is illegal: the first rule it breaks, in the game's words.

use std::fmt;

use super::mailbox::*;
use super::{Move, State};
use crate::shogi::{Color, Piece, PieceKind, Square};

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

/// Says why, in the game's terms: "the silver on 4b cannot reach 4d" (squares as USI writes
/// them; [`Illegal::describe`] writes them as a notation does).
impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|sq| sq.to_string()))
    }
}

impl Illegal {
    /// Why the move is illegal, in words, each square written by `s` (a KIF record's `７六`,
    /// USI's `7f`).
    pub fn describe(&self, s: &dyn Fn(Square) -> String) -> String {
        match *self {
            Self::NoPiece { from } => format!("there is no piece on {}", s(from)),
            Self::NotYours { from, piece } => {
                format!("the {} on {} is {}'s", piece_name(piece), s(from), piece.color.name())
            }
            Self::OwnPiece { piece, from, to, occupant } => format!(
                "the {} on {} cannot move to {}: {}'s own {} stands there",
                piece_name(piece),
                s(from),
                s(to),
                piece.color.name(),
                piece_name(occupant)
            ),
            Self::CannotReach { piece, from, to } => {
                format!("the {} on {} cannot reach {}", piece_name(piece), s(from), s(to))
            }
            Self::Blocked { piece, from, to, by } => format!(
                "the {} on {} cannot reach {}: the way is blocked on {}",
                piece_name(piece),
                s(from),
                s(to),
                s(by)
            ),
            Self::CannotPromote { piece, from } if piece.promoted => {
                format!("the {} on {} is already promoted", piece_name(piece), s(from))
            }
            Self::CannotPromote { piece, from } => format!(
                "the {} on {} cannot promote: {} never promote",
                piece_name(piece),
                s(from),
                piece.kind.plural()
            ),
            Self::OutsideZone { piece, from, to } => format!(
                "the {} cannot promote moving from {} to {}: neither square is in {}'s promotion zone",
                piece_name(piece),
                s(from),
                s(to),
                piece.color.name()
            ),
            Self::MustPromote { piece, from, to } => {
                format!("the {} on {} must promote on {}: it could never move again", piece_name(piece), s(from), s(to))
            }
            Self::NotInHand { color, kind } => format!("{} has no {} in hand", color.name(), kind.name()),
            Self::Occupied { kind, to, occupant } => format!(
                "a {} cannot be dropped on {}: a {} {} stands there",
                kind.name(),
                s(to),
                occupant.color.name(),
                piece_name(occupant)
            ),
            Self::DeadSquare { kind, to } => format!("a {} dropped on {} could never move", kind.name(), s(to)),
            Self::Nifu { to, pawn } => {
                format!("a pawn cannot be dropped on {}: a pawn is already on file {} at {}", s(to), to.file(), s(pawn))
            }
            Self::PawnDropMate { to, king } => {
                format!("a pawn dropped on {} would checkmate the king on {} (uchifuzume)", s(to), s(king))
            }
            Self::KingInCheck { king, attacker, piece } => {
                format!("the king on {} would be in check from the {} on {}", s(king), piece_name(piece), s(attacker))
            }
        }
    }
}

impl State {
    // --- legality of one move ---

    /// True when the piece on `from` moves to `to` by its moves, with nothing in the way (not
    /// minding what stands on `to`, promotion or its own king): a quick filter before
    /// [`State::why_illegal`].
    pub fn can_reach(&self, from: Square, to: Square) -> bool {
        let (f, t) = (cell_of(from), cell_of(to));
        let code = self.cells[f];
        code != 0 && code != WALL && f != t && self.reaches(f, t, code).is_ok()
    }

    /// Calls `each` with the square and piece of every piece that reaches `to` as
    /// [`State::can_reach`] says, each once and in no set order: only the first piece along
    /// each of the eight lines through `to` and the knights a jump away can, so no other
    /// square is looked at.
    pub fn reaching(&self, to: Square, each: impl FnMut(Square, Piece)) {
        self.reaching_lines(to, (0xFF, 0xFF), [true; 2], each);
    }

    /// [`State::reaching`], for a caller that wants only some of the pieces that reach `to`:
    /// every piece that moves as one of `like` moves is given (and perhaps others), and only
    /// the lines such a piece could come along are looked at.
    pub fn reaching_like(&self, to: Square, like: impl IntoIterator<Item = Piece>, each: impl FnMut(Square, Piece)) {
        let (mut towards, mut sliding, mut knights) = (0u8, 0u8, [false; 2]);
        for piece in like {
            let code = encode(piece);
            towards |= STEPS[usize::from(code)] | SLIDES[usize::from(code)];
            sliding |= SLIDES[usize::from(code)];
            if code & (KIND | PROMOTED) == KNIGHT {
                knights[piece.color.index()] = true;
            }
        }
        self.reaching_lines(to, (towards, sliding), knights, each);
    }

    /// The squares of every `piece` that reaches `to` as [`State::can_reach`] says, each once and
    /// in no set order: [`State::reaching`] narrowed to one piece, looking only along the lines
    /// that piece moves by (and at its two knight squares).
    pub fn reaching_piece(&self, to: Square, piece: Piece, mut each: impl FnMut(Square)) {
        let code = encode(piece);
        let t = cell_of(to);
        // A step in direction `d` comes from the cell next to `to` the other way. All eight
        // are looked at, and the pieces found gathered as bits, with no branch on what stands
        // there: which cells hold the piece is what a branch would mispredict.
        let steps = STEPS[usize::from(code)];
        let mut found = 0u8;
        for (d, &off) in DIRS.iter().enumerate() {
            let here = self.cells.get(go(t, -off)) == Some(&code);
            found |= (u8::from(here) & (steps >> d)) << d;
        }
        while found != 0 {
            let d = found.trailing_zeros() as usize;
            found &= found - 1;
            each(square_of(go(t, -DIRS[d])));
        }
        // A slide in direction `d` comes from the other way, `d + 4`.
        let mut slides = SLIDES[usize::from(code)];
        while slides != 0 {
            let d = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            let s = first_from(self.occupied, t, (d + 4) & 7);
            if self.cells[s] == code {
                each(square_of(s));
            }
        }
        if code & (KIND | PROMOTED) == KNIGHT {
            for &off in &KNIGHT_JUMPS[piece.color.index()] {
                let s = go(t, -off);
                if self.cells[s] == code {
                    each(square_of(s));
                }
            }
        }
    }

    /// The pieces that reach `to` moving in a direction of `towards` (a set of [`DIRS`]), and
    /// the knights of the colours `knights` says; along a direction not in `sliding`, only the
    /// piece next to `to` (a piece further away reaches it only by sliding that way).
    fn reaching_lines(
        &self,
        to: Square,
        (towards, sliding): (u8, u8),
        knights: [bool; 2],
        mut each: impl FnMut(Square, Piece),
    ) {
        let t = cell_of(to);
        // The directions from `to` to look along: those opposite a direction of `towards`.
        let mut dirs = towards.rotate_left(4);
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            // The piece moves the other way along the line, towards `to`.
            let back = 1u8 << ((d + 4) & 7);
            let mut s = go(t, DIRS[d]);
            let mut reach = STEPS[usize::from(self.cells[s])] | SLIDES[usize::from(self.cells[s])];
            if sliding & back == 0 && self.cells[s] == 0 {
                continue;
            }
            while self.cells[s] == 0 {
                s = go(s, DIRS[d]);
                reach = SLIDES[usize::from(self.cells[s])];
            }
            if reach & back != 0 {
                if let Some(piece) = decode(self.cells[s]) {
                    each(square_of(s), piece);
                }
            }
        }
        for (color, jumps) in KNIGHT_JUMPS.iter().enumerate() {
            if !knights[color] {
                continue;
            }
            let knight = if color == 0 { BLACK | KNIGHT } else { WHITE | KNIGHT };
            for &off in jumps {
                let s = go(t, -off);
                if self.cells[s] == knight {
                    if let Some(piece) = decode(knight) {
                        each(square_of(s), piece);
                    }
                }
            }
        }
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
        if let Some(why) = self.piece_rules(mv) {
            return Some(why);
        }
        let side = self.side.index();
        if let Move::Board { from, to, .. } = mv {
            // The quick way for a side with one king: is it attacked on the board after the
            // move, looked at without playing it? If not, the move is legal; if so, the move
            // is played below to say by what.
            if self.king_count[side] == 1 {
                let (from, to) = (cell_of(from), cell_of(to));
                let king = usize::from(self.kings[side]);
                let them = color_bit(self.side) ^ WALL;
                let attacked = if from == king {
                    self.attacker(to, them, from).is_some()
                } else {
                    self.attacker_after(king, them, from, to).is_some()
                };
                if !attacked {
                    return None;
                }
            }
        }
        let mut next = *self;
        next.play_unchecked(mv);
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

    /// The judge of the legality of moves in this position, for a caller that asks about
    /// several ([`Legality`]).
    pub fn legality(&self) -> Legality<'_> {
        Legality { state: self, in_check: std::cell::Cell::new(None) }
    }

    /// [`State::legality`], for a caller that knows whether the side to move is in check
    /// (`in_check`, as [`State::is_check`] says).
    pub fn legality_knowing(&self, in_check: bool) -> Legality<'_> {
        Legality { state: self, in_check: std::cell::Cell::new(Some(in_check)) }
    }

    /// [`State::is_check`], for the position just after `mv` was played, when the side to
    /// move now was not in check before it: its king is attacked only by the piece that moved
    /// (where it went) or by a piece sliding along the line from the king through the square
    /// the piece left. The other pieces are looked at only there.
    pub fn is_check_after(&self, mv: Move) -> bool {
        let side = self.side.index();
        if self.king_count[side] != 1 {
            return self.is_check();
        }
        let king = usize::from(self.kings[side]);
        let them = color_bit(self.side) ^ WALL;
        let (from, to) = match mv {
            Move::Board { from, to, .. } => (Some(cell_of(from)), cell_of(to)),
            Move::Drop { to, .. } => (None, cell_of(to)),
        };
        let code = self.cells[to];
        if code & WALL == them {
            if code & (KIND | PROMOTED) == KNIGHT
                && KNIGHT_JUMPS[usize::from(them == WHITE)].iter().any(|&off| go(to, off) == king)
            {
                return true;
            }
            if let Some(d) = line_between(to, king) {
                if STEPS[usize::from(code)] & (1 << d) != 0 && go(to, DIRS[d]) == king {
                    return true;
                }
                // Nothing stands between them when the first piece that way is the king.
                if SLIDES[usize::from(code)] & (1 << d) != 0 && first_from(self.occupied, to, d) == king {
                    return true;
                }
            }
        }
        let Some(d) = from.and_then(|from| line_between(king, from)) else { return false };
        let towards = 1u8 << ((d + 4) & 7);
        let s = first_from(self.occupied, king, d);
        let c = self.cells[s];
        s != to && c & WALL == them && SLIDES[usize::from(c)] & towards != 0
    }

    /// The first rule `mv` breaks before its king's safety: the piece, its path and
    /// promotion, or the drop's own rules.
    fn piece_rules(&self, mv: Move) -> Option<Illegal> {
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
                // Reach first: a piece that could never go there is told so, not that the square
                // is taken.
                if let Err(blocker) = self.reaches(from, to, code) {
                    return Some(match blocker {
                        Some(by) => Illegal::Blocked { piece: moving, from: from_sq, to: to_sq, by: square_of(by) },
                        None => Illegal::CannotReach { piece: moving, from: from_sq, to: to_sq },
                    });
                }
                return self.arrival_rules(moving, from_sq, to_sq, promote);
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
        None
    }

    /// The first rule a board move of the side to move's `moving` piece, standing on `from`,
    /// breaks once the piece reaches `to`: the destination holds none of its own pieces, and it
    /// promotes only when it can and where it may, and does when it must ([`State::piece_rules`]
    /// after the piece and its path).
    #[inline(always)]
    fn arrival_rules(&self, moving: Piece, from_sq: Square, to_sq: Square, promote: bool) -> Option<Illegal> {
        let us = color_bit(self.side);
        let rel = &REL_RANK[self.side.index()];
        let (from, to) = (cell_of(from_sq), cell_of(to_sq));
        let code = self.cells[from];
        if let Some(occupant) = decode(self.cells[to]).filter(|_| self.cells[to] & us != 0) {
            return Some(Illegal::OwnPiece { piece: moving, from: from_sq, to: to_sq, occupant });
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
        None
    }

    /// True when the piece of colour `by`'s opponent on `from`, moving to `to`, leaves `king`
    /// open to a piece of `by` sliding along the line from `king` through `from` (a king not
    /// attacked before the move is attacked after it only so).
    fn uncovers(&self, king: usize, from: usize, to: usize, by: u8) -> bool {
        let Some(d) = line_between(king, from) else { return false };
        let towards = 1u8 << ((d + 4) & 7);
        // The board after the move: `from` empty, `to` taken.
        let occupied = (self.occupied & !bit(from)) | bit(to);
        let s = first_from(occupied, king, d);
        if s == to {
            return false;
        }
        let c = self.cells.get(s).copied().unwrap_or(WALL);
        c & WALL == by && SLIDES[usize::from(c)] & towards != 0
    }
}

/// Judges the legality of several moves of one position ([`State::legality`]): whether the side
/// to move's king is in check is looked at once, at the first move that needs it; out of check,
/// a piece that moves exposes its king only along the one line from the king through its
/// square, and a drop never does. It says what [`State::is_legal`] says of every move (a test
/// compares them on every move that can be written, in many positions).
pub struct Legality<'a> {
    state: &'a State,
    in_check: std::cell::Cell<Option<bool>>,
}

impl Legality<'_> {
    /// True when the side to move's king is attacked.
    fn in_check(&self) -> bool {
        if let Some(known) = self.in_check.get() {
            return known;
        }
        let known = self.state.is_check();
        self.in_check.set(Some(known));
        known
    }

    /// True when `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        let s = self.state;
        if s.king_count[s.side.index()] != 1 {
            return s.is_legal(mv);
        }
        s.piece_rules(mv).is_none() && self.king_safe_after(mv)
    }

    /// [`Legality::is_legal`] of the board move from `from` to `to`, for a piece of the side to
    /// move that reaches `to` ([`State::can_reach`]; [`State::reaching_piece`] gives such
    /// pieces): what stands on `to` and promotion are looked at, and the king's safety, but not
    /// the piece and its path again. For a move of another piece the answer means nothing
    /// (though it is never a panic).
    pub fn is_legal_reaching(&self, from: Square, to: Square, promote: bool) -> bool {
        let s = self.state;
        let mv = Move::Board { from, to, promote };
        if s.king_count[s.side.index()] != 1 {
            return s.is_legal(mv);
        }
        let Some(moving) = s.piece_at(from) else { return false };
        s.arrival_rules(moving, from, to, promote).is_none() && self.king_safe_after(mv)
    }

    /// True when the side to move's one king is safe after `mv`, a move that keeps
    /// [`State::piece_rules`].
    #[inline(always)]
    fn king_safe_after(&self, mv: Move) -> bool {
        let s = self.state;
        let side = s.side.index();
        if self.in_check() {
            return s.is_legal(mv);
        }
        let them = color_bit(s.side) ^ WALL;
        let king = usize::from(s.kings[side]);
        match mv {
            Move::Board { from, to, .. } => {
                let (from, to) = (cell_of(from), cell_of(to));
                if from == king {
                    s.attacker(to, them, from).is_none()
                } else {
                    !s.uncovers(king, from, to, them)
                }
            }
            Move::Drop { kind, to } => !(kind == PieceKind::Pawn && s.pawn_drop_mates(cell_of(to))),
        }
    }

    /// Why `mv` is not legal for the side to move, or `None` when it is ([`State::why_illegal`]).
    pub fn why_illegal(&self, mv: Move) -> Option<Illegal> {
        if self.is_legal(mv) {
            None
        } else {
            self.state.why_illegal(mv)
        }
    }
}

impl State {
    /// Whether the piece `code` on `from` moves to `to` on this board: `Err(Some(cell))` when a
    /// piece on `cell` is in the way, `Err(None)` when it never moves so.
    pub(super) fn reaches(&self, from: usize, to: usize, code: u8) -> Result<(), Option<usize>> {
        // The one line from `from` through `to`, if any (rays in different directions never meet).
        let line = line_between(from, to);
        if let Some(d) = line {
            if STEPS[usize::from(code)] & (1 << d) != 0 && go(from, DIRS[d]) == to {
                return Ok(());
            }
        }
        if code & (KIND | PROMOTED) == KNIGHT
            && KNIGHT_JUMPS[usize::from(code & WALL == WHITE)].iter().any(|&off| go(from, off) == to)
        {
            return Ok(());
        }
        let Some(d) = line.filter(|&d| SLIDES[usize::from(code)] & (1 << d) != 0) else { return Err(None) };
        let mut s = go(from, DIRS[d]);
        while s != to {
            if self.cells[s] != 0 {
                return Err(Some(s));
            }
            s = go(s, DIRS[d]);
        }
        Ok(())
    }
}
