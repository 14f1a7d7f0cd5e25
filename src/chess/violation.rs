//! What makes a chess position one no game reaches, typed: each [`Violation`] names the rule and
//! the squares at fault, and every notation says it in its own words and points at its own
//! characters.
//!
//! The checks start from a [`Tally`] of the board (counted in one pass, nothing allocated) and
//! look further only where the counts show a fault, so a legal position costs one pass, the
//! attack lookups of the two kings, and a look at its castling rights and en passant square.

use super::{retro, Board, CastleRight, CastleSide, Color, Piece, PieceSets, Role, Square, BACK_RANKS, LIGHT_SQUARES};

/// A rule of chess a position breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// A side has no king.
    MissingKing {
        /// The side.
        color: Color,
    },
    /// A side has more than one king: its kings, in FEN order (from rank 8, file a first).
    TooManyKings {
        /// The side.
        color: Color,
        /// Every king of that side.
        kings: Vec<Square>,
    },
    /// A pawn stands on rank 1 or 8.
    PawnOnBackRank {
        /// Where it stands.
        square: Square,
        /// The pawn.
        piece: Piece,
    },
    /// A side has more than eight pawns.
    TooManyPawns {
        /// The side.
        color: Color,
        /// Every pawn of that side, in FEN order.
        pawns: Vec<Square>,
    },
    /// A side has more than sixteen pieces.
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many it has.
        count: usize,
    },
    /// A side has more pieces beyond its starting set (one queen, two rooks, two knights, a
    /// bishop on each colour of square) than its missing pawns could have become.
    ImpossibleMaterial {
        /// The side.
        color: Color,
        /// Each kind of piece it has too many of, with every piece of that kind.
        beyond: Vec<(Beyond, Vec<Square>)>,
        /// How many pieces are beyond the starting set.
        extra: usize,
        /// How many of its pawns are missing.
        missing: usize,
    },
    /// The side not to move is in check: the side to move could take its king.
    OppositeCheck {
        /// The king in check.
        king: Square,
        /// The pieces that give check.
        checkers: Vec<Square>,
    },
    /// The side to move is in check by pieces no last move brings about.
    ImpossibleCheck {
        /// The king in check.
        king: Square,
        /// The pieces that give check.
        checkers: Vec<Square>,
        /// Why no move gives these checks.
        cause: ImpossibleCheck,
    },
    /// With an en passant square, the last move was a pawn's double step to `pawn`, yet the
    /// side to move is in check from pieces that move neither gave nor uncovered.
    CheckAfterDoubleStep {
        /// The king in check.
        king: Square,
        /// The pieces whose checks the double step does not explain.
        checkers: Vec<Square>,
        /// Where the pawn stands.
        pawn: Square,
    },
    /// A castling right whose king or rook is not where castling needs it.
    CastlingRight {
        /// The right, as its place in the list of rights judged.
        right: usize,
        /// What stands in its way, in order: the king's problem, then the rook's.
        problems: Vec<RightProblem>,
    },
    /// Two castling rights of a side on one side of its king.
    CastlingRepeat {
        /// The first right, as its place in the list of rights judged.
        first: usize,
        /// The second.
        second: usize,
        /// True when both name the same rook.
        same_rook: bool,
        /// True when they are on the king's side (a higher file than the king's).
        king_side: bool,
    },
    /// The en passant square is not on the rank a double step of the side that just moved
    /// passes over.
    EnPassantRank {
        /// The en passant square.
        square: Square,
    },
    /// No pawn of the side that just moved stands where a double step over the en passant
    /// square ends.
    EnPassantNoPawn {
        /// The en passant square.
        square: Square,
        /// Where the pawn would stand.
        pawn: Square,
    },
    /// A piece stands on a square the double-stepping pawn just crossed or left.
    EnPassantBlocked {
        /// The square.
        square: Square,
        /// The piece on it.
        piece: Piece,
    },
    /// The halfmove clock is not 0, but a pawn has just moved (there is an en passant square).
    EnPassantHalfmove {
        /// The clock.
        halfmove: u64,
    },
    /// The fullmove number is 0: a game starts at move 1.
    FullmoveZero,
}

/// Why no move gives the checks of a [`Violation::ImpossibleCheck`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImpossibleCheck {
    /// Two pieces check, neither of them from afar along a line: a move that gives two checks
    /// uncovers one.
    TwoClose,
    /// Two pieces check along one line from both sides of the king: one move uncovers one line.
    Aligned,
    /// Two pieces check, but every move of the other side that could end here starts with the
    /// king already in check.
    NoLastMove,
    /// More than two pieces check: a move gives at most two.
    MoreThanTwo,
}

/// A kind of piece a side has beyond its starting set ([`Violation::ImpossibleMaterial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beyond {
    /// More than one queen.
    Queens,
    /// More than two rooks.
    Rooks,
    /// More than two knights.
    Knights,
    /// More than one bishop on light squares.
    LightBishops,
    /// More than one bishop on dark squares.
    DarkBishops,
}

impl Beyond {
    /// How many of this kind the starting set holds.
    pub const fn in_set(self) -> usize {
        match self {
            Self::Rooks | Self::Knights => 2,
            Self::Queens | Self::LightBishops | Self::DarkBishops => 1,
        }
    }
}

/// What keeps a castling right from standing ([`Violation::CastlingRight`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RightProblem {
    /// In Chess960, the king on its back rank stands on an edge file, with no rook beyond it.
    KingOnEdge(Square),
    /// The side's king is not on the square castling starts from.
    NoKing(Square),
    /// In Chess960, the side has no king on its back rank.
    NoKingOnRank,
    /// The side's rook is not on the square the right names.
    NoRook(Square),
    /// In Chess960, the side has no rook on that side of its king.
    NoRookOnSide,
}

impl RightProblem {
    /// The square the problem is about, when there is one.
    pub const fn square(self) -> Option<Square> {
        match self {
            Self::KingOnEdge(sq) | Self::NoKing(sq) | Self::NoRook(sq) => Some(sq),
            Self::NoKingOnRank | Self::NoRookOnSide => None,
        }
    }

    /// True when the problem is that the king is away from where castling starts.
    pub const fn king_away(self) -> bool {
        matches!(self, Self::NoKing(_) | Self::NoKingOnRank)
    }
}

/// How castling rights name their rooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: the king on the e-file, the rooks in the corners.
    #[default]
    Standard,
    /// Chess960: the king anywhere between the rooks on its back rank; `K` and `Q` name the
    /// outermost rooks, a file letter names a rook by its file.
    Chess960,
}

/// What is known of a position: its board, and those of its other parts that could be read
/// (a part that could not is not judged).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts<'a> {
    /// The board.
    pub board: &'a Board,
    /// The side to move.
    pub side: Option<Color>,
    /// The castling rights, in the order they are judged (and reported).
    pub castling: Option<&'a [CastleRight]>,
    /// The en passant square (`Some(None)`: known to have none).
    pub en_passant: Option<Option<Square>>,
    /// The halfmove clock.
    pub halfmove: Option<u64>,
    /// The fullmove number (a record's reader that reports a move 0 as it reads it leaves it
    /// out).
    pub fullmove: Option<u64>,
}

/// The pieces of a board, counted for every check (nothing allocated): the checks look
/// further only where the counts show a fault. Counted in one pass over the board
/// ([`Tally::of`]), or square by square as a reader places the pieces ([`Tally::add_to_slot`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    /// The squares of each piece, and how many.
    sets: PieceSets,
}

impl Tally {
    /// Counts the piece of `slot` ([`PieceSets::slot`]) on `square`.
    #[inline]
    pub(crate) fn add_to_slot(&mut self, square: Square, slot: u8) {
        self.sets.add_to_slot(square, slot);
    }

    fn count(&self, color: Color, role: Role) -> usize {
        self.sets.count(color, role)
    }

    /// True when `color`'s material needs no explaining: at most 8 pawns and 16 pieces, and no
    /// more pieces beyond the starting set (bishops by the colour of their squares) than its
    /// missing pawns could have become.
    fn plain_material(&self, color: Color) -> bool {
        let light = (self.sets.of(color, Role::Bishop) & LIGHT_SQUARES).count_ones() as usize;
        let dark = self.count(color, Role::Bishop) - light;
        plain(|role| self.count(color, role), light.saturating_sub(1) + dark.saturating_sub(1))
    }

    /// True when some pawn stands on rank 1 or 8.
    fn back_pawn(&self) -> bool {
        (self.sets.of(Color::White, Role::Pawn) | self.sets.of(Color::Black, Role::Pawn)) & BACK_RANKS != 0
    }

    /// True when the counts alone show that the position breaks a rule: a side without a
    /// king or with two, a pawn on a back rank, or material no game can reach. [`violations`]
    /// then finds one.
    pub(crate) fn breaks_counts(&self) -> bool {
        [Color::White, Color::Black]
            .into_iter()
            .any(|color| self.count(color, Role::King) != 1 || !self.plain_material(color))
            || self.back_pawn()
    }

    /// Keeps only the pieces on the squares of `squares`.
    pub(crate) fn keep(&mut self, squares: super::SquareSet) {
        self.sets.keep(squares);
    }

    /// The squares of each piece.
    pub(crate) fn sets(&self) -> &PieceSets {
        &self.sets
    }

    /// The tally of `board`.
    pub(crate) fn of(board: &Board) -> Self {
        Self { sets: PieceSets::of_board(board) }
    }

    /// The king of `color`, when it has exactly one.
    fn king(&self, color: Color) -> Option<Square> {
        let kings = self.sets.of(color, Role::King);
        PieceSets::squares(kings).next().filter(|_| self.count(color, Role::King) == 1)
    }

    /// The squares of `by`'s pieces that attack `target` ([`PieceSets::attackers`]), in order.
    fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        PieceSets::squares(self.sets.attackers(target, by)).collect()
    }
}

/// True when a side's material needs no explaining (see [`Tally::breaks_counts`]): at most 8
/// pawns and 16 pieces, and no more pieces beyond the starting set than its missing pawns could
/// have become, where `n` counts its pieces of a role and `bishops` are its bishops beyond one on
/// each colour of square.
fn plain(n: impl Fn(Role) -> usize, bishops: usize) -> bool {
    let count: usize = Role::ALL.iter().map(|&role| n(role)).sum();
    let extra = n(Role::Queen).saturating_sub(1)
        + n(Role::Rook).saturating_sub(2)
        + n(Role::Knight).saturating_sub(2)
        + bishops;
    n(Role::Pawn) <= 8 && count <= 16 && extra <= 8 - n(Role::Pawn)
}

/// True when pieces counted by colour and role alone (`counts`, by [`Color::index`] then
/// [`Role::index`]) break a rule wherever they stand: a side without exactly one king, or with
/// material no game reaches even with its bishops split as evenly as they can be between the
/// colours of the squares. [`violations`] then finds one.
pub(crate) fn breaks_material(counts: &[[u32; 6]; 2]) -> bool {
    counts.iter().any(|side| {
        let n = |role: Role| side[role.index()] as usize;
        n(Role::King) != 1 || !plain(n, n(Role::Bishop).saturating_sub(2))
    })
}

/// Every rule of chess `facts` break (the board counted in `tally`), castling rights read in
/// `mode`. In a fixed order: kings, pawns on back ranks, material, checks, castling rights, the
/// en passant square, the move number; each side White first, and squares in FEN order.
pub(crate) fn violations(facts: &Facts<'_>, tally: &Tally, mode: CastlingMode) -> Vec<Violation> {
    let mut out = Vec::new();
    let board = facts.board;
    kings(board, tally, &mut out);
    if tally.back_pawn() {
        out.extend(
            board
                .pieces()
                .filter(|(sq, p)| p.role == Role::Pawn && (sq.rank() == 1 || sq.rank() == 8))
                .map(|(square, piece)| Violation::PawnOnBackRank { square, piece }),
        );
    }
    for color in [Color::White, Color::Black] {
        if !tally.plain_material(color) {
            material(board, tally, color, &mut out);
        }
    }
    if let Some(side) = facts.side {
        let last_move_known = facts.en_passant.is_some_and(|ep| ep.is_some());
        checks(board, tally, side, last_move_known, &mut out);
    }
    if let Some(rights) = facts.castling {
        castling(board, tally, rights, mode, &mut out);
    }
    if let (Some(Some(square)), Some(side)) = (facts.en_passant, facts.side) {
        en_passant(board, tally, square, side, facts.halfmove, &mut out);
    }
    if facts.fullmove == Some(0) {
        out.push(Violation::FullmoveZero);
    }
    out
}

/// The squares of `color`'s pieces of `role`, in FEN order.
fn squares(board: &Board, color: Color, role: Role) -> Vec<Square> {
    board.pieces().filter(|(_, p)| p.color == color && p.role == role).map(|(s, _)| s).collect()
}

fn kings(board: &Board, tally: &Tally, out: &mut Vec<Violation>) {
    for color in [Color::White, Color::Black] {
        match tally.count(color, Role::King) {
            1 => {}
            0 => out.push(Violation::MissingKing { color }),
            _ => out.push(Violation::TooManyKings { color, kings: squares(board, color, Role::King) }),
        }
    }
}

/// The material faults of `color`, whose material is not plain: too many pawns, too many
/// pieces, or else more pieces beyond the starting set than its missing pawns.
fn material(board: &Board, tally: &Tally, color: Color, out: &mut Vec<Violation>) {
    let count: usize = Role::ALL.iter().map(|&role| tally.count(color, role)).sum();
    let pawns = squares(board, color, Role::Pawn);
    let (too_many_pawns, too_many_pieces) = (pawns.len() > 8, count > 16);
    if too_many_pawns {
        out.push(Violation::TooManyPawns { color, pawns: pawns.clone() });
    }
    if too_many_pieces {
        out.push(Violation::TooManyPieces { color, count });
    }
    // More than 16 pieces always means more than the missing pawns could have become: the
    // count is the one fault.
    if too_many_pawns || too_many_pieces {
        return;
    }
    let bishops = squares(board, color, Role::Bishop);
    let (light, dark): (Vec<Square>, Vec<Square>) = bishops.into_iter().partition(|s| s.is_light());
    let groups = [
        (Beyond::Queens, squares(board, color, Role::Queen)),
        (Beyond::Rooks, squares(board, color, Role::Rook)),
        (Beyond::Knights, squares(board, color, Role::Knight)),
        (Beyond::LightBishops, light),
        (Beyond::DarkBishops, dark),
    ];
    let extra: usize = groups.iter().map(|(kind, sqs)| sqs.len().saturating_sub(kind.in_set())).sum();
    let missing = 8 - pawns.len();
    if extra > missing {
        let beyond = groups.into_iter().filter(|(kind, s)| s.len() > kind.in_set()).collect();
        out.push(Violation::ImpossibleMaterial { color, beyond, extra, missing });
    }
}

/// True when `a` and `b` lie on one line through `king`, on opposite sides of it.
fn aligned(a: Square, b: Square, king: Square) -> bool {
    let d = |s: Square| (i16::from(s.file()) - i16::from(king.file()), i16::from(s.rank()) - i16::from(king.rank()));
    let ((af, ar), (bf, br)) = (d(a), d(b));
    af * br == ar * bf && (af * bf + ar * br) < 0
}

/// The checks no game reaches: the side not to move in check, or the mover checked by more
/// pieces (or in other ways) than one move brings about. When the last move is known (an en
/// passant square), [`en_passant`] judges the checks instead of the search for a last move
/// ([`retro`]).
fn checks(board: &Board, tally: &Tally, mover: Color, last_move_known: bool, out: &mut Vec<Violation>) {
    let waiting = mover.opponent();
    if let Some(king) = tally.king(waiting) {
        let checkers = tally.attackers(king, mover);
        if !checkers.is_empty() {
            out.push(Violation::OppositeCheck { king, checkers });
        }
    }
    let Some(king) = tally.king(mover) else { return };
    let checkers = tally.attackers(king, waiting);
    let far = |a: Square| board.checks_from_afar(a, king);
    // A king next to the other is the finding of the side not to move in check.
    let is_king = |a: Square| board.get(a).is_some_and(|p| p.role == Role::King);
    // The side to move can be in check by at most two pieces, and by two only when one of
    // them checks along a line another piece's move uncovered: when some last move of the
    // other side gives both.
    let cause = match *checkers {
        [] | [_] => None,
        [a, b] if !far(a) && !far(b) => Some(ImpossibleCheck::TwoClose),
        [a, b] if aligned(a, b, king) => Some(ImpossibleCheck::Aligned),
        [a, b] if !last_move_known && !is_king(a) && !is_king(b) && !retro::some_last_move(board, king, waiting) => {
            Some(ImpossibleCheck::NoLastMove)
        }
        [_, _] => None,
        _ => Some(ImpossibleCheck::MoreThanTwo),
    };
    if let Some(cause) = cause {
        out.push(Violation::ImpossibleCheck { king, checkers, cause });
    }
}

/// Where the king and the rook must stand for `right` in `mode` (in Chess960, where the king
/// stands on the back rank and the rook that right names).
fn castle_squares(board: &Board, right: CastleRight, mode: CastlingMode) -> (Option<Square>, Option<Square>) {
    let color = right.color;
    let square = |file: u8| Square::new(file, color.back_rank());
    let has = |sq: Option<Square>, role: Role| {
        sq.and_then(|s| board.get(s)).is_some_and(|p| p.color == color && p.role == role)
    };
    match mode {
        CastlingMode::Standard => {
            let rook_file = if right.side == CastleSide::King { 7 } else { 0 };
            (square(4), square(rook_file))
        }
        CastlingMode::Chess960 => {
            let king = (0..8).map(square).find(|s| has(*s, Role::King)).flatten();
            let rook = match (right.side, king.map(Square::file)) {
                (CastleSide::File(std::cmp::Reverse(f)), _) => square(f),
                (CastleSide::King, Some(k)) => ((k + 1)..8).rev().map(square).find(|s| has(*s, Role::Rook)).flatten(),
                (CastleSide::Queen, Some(k)) => (0..k).map(square).find(|s| has(*s, Role::Rook)).flatten(),
                (_, None) => None,
            };
            (king, rook)
        }
    }
}

/// What stands in the way of one castling right: the king's square (when its king is there),
/// the rook's square, and each problem.
fn check_right(
    board: &Board,
    right: CastleRight,
    mode: CastlingMode,
) -> (Option<Square>, Option<Square>, Vec<RightProblem>) {
    let color = right.color;
    let has = |sq: Square, role: Role| board.get(sq).is_some_and(|p| p.color == color && p.role == role);
    let (king_sq, rook_sq) = castle_squares(board, right, mode);
    let mut problems = Vec::new();
    match king_sq {
        Some(k) if has(k, Role::King) && mode == CastlingMode::Chess960 && (k.file() == 0 || k.file() == 7) => {
            problems.push(RightProblem::KingOnEdge(k));
        }
        Some(k) if has(k, Role::King) => {}
        Some(k) => problems.push(RightProblem::NoKing(k)),
        None => problems.push(RightProblem::NoKingOnRank),
    }
    // Without its king, the rook of a Chess960 right cannot be told: the king is the fault.
    let king = king_sq.filter(|k| has(*k, Role::King));
    match rook_sq {
        Some(r) if has(r, Role::Rook) => {}
        Some(r) => problems.push(RightProblem::NoRook(r)),
        None if king.is_some() => problems.push(RightProblem::NoRookOnSide),
        None => {}
    }
    (king, rook_sq, problems)
}

/// A castling right whose king and rook stand where it says: its place in the list, its colour,
/// whether its rook is on the king's side, and the rook's square.
type Named = (usize, Color, bool, Option<Square>);

/// Each castling right whose king or rook is not in place, then each second right on one side
/// of a king. A side without a king is its own violation: its rights fall with it.
fn castling(board: &Board, tally: &Tally, rights: &[CastleRight], mode: CastlingMode, out: &mut Vec<Violation>) {
    // The rights whose king and rook stand where they say.
    let mut named: smallvec::SmallVec<[Named; 4]> = smallvec::SmallVec::new();
    for (i, &right) in rights.iter().enumerate() {
        if tally.count(right.color, Role::King) == 0 {
            continue;
        }
        let (king, rook, problems) = check_right(board, right, mode);
        match (king, rook) {
            // A right already at fault is not counted again as a second right on its side.
            (Some(k), Some(r)) if problems.is_empty() => named.push((i, right.color, r.file() > k.file(), Some(r))),
            _ if problems.is_empty() => {}
            _ => out.push(Violation::CastlingRight { right: i, problems }),
        }
    }
    for (n, &(second, color, king_side, rook)) in named.iter().enumerate() {
        let Some(&(first, _, _, first_rook)) = named[..n].iter().find(|(_, c, k, _)| *c == color && *k == king_side)
        else {
            continue;
        };
        out.push(Violation::CastlingRepeat { first, second, same_rook: first_rook == rook, king_side });
    }
}

/// True when `x` lies strictly between `a` and `b` on a line (a rank, file or diagonal).
fn between(a: Square, b: Square, x: Square) -> bool {
    let d =
        |s: Square, t: Square| (i16::from(t.file()) - i16::from(s.file()), i16::from(t.rank()) - i16::from(s.rank()));
    let ((bf, br), (xf, xr)) = (d(a, b), d(a, x));
    let steps = |f: i16, r: i16| f.abs().max(r.abs());
    bf * xr == br * xf
        && bf.signum() == xf.signum()
        && br.signum() == xr.signum()
        && 0 < steps(xf, xr)
        && steps(xf, xr) < steps(bf, br)
}

/// The faults of the en passant square `square` with `mover` to move: the last move was a
/// pawn's double step over it, which ended one rank further on, left the squares it crossed
/// empty, gave or uncovered any check on the side to move, and reset the halfmove clock.
fn en_passant(
    board: &Board,
    tally: &Tally,
    square: Square,
    mover: Color,
    halfmove: Option<u64>,
    out: &mut Vec<Violation>,
) {
    let pusher = mover.opponent();
    let (expected_rank, forward) = if pusher == Color::White { (3, 1) } else { (6, -1) };
    if square.rank() != expected_rank {
        out.push(Violation::EnPassantRank { square });
        return;
    }
    let pawn_sq = square.offset(0, forward);
    let from_sq = square.offset(0, -forward);
    let has_pawn = pawn_sq.and_then(|s| board.get(s)).is_some_and(|p| p.color == pusher && p.role == Role::Pawn);
    if let (false, Some(pawn)) = (has_pawn, pawn_sq) {
        out.push(Violation::EnPassantNoPawn { square, pawn });
    }
    for s in [Some(square), from_sq].into_iter().flatten() {
        if let Some(piece) = board.get(s) {
            out.push(Violation::EnPassantBlocked { square: s, piece });
        }
    }
    if let (true, Some(pawn), Some(from)) = (has_pawn, pawn_sq, from_sq) {
        // Any check on the side to move came from the pawn or along a line its move opened.
        if let Some(king) = tally.king(mover) {
            let checkers: Vec<Square> = tally
                .attackers(king, pusher)
                .into_iter()
                .filter(|c| *c != pawn && !(board.checks_from_afar(*c, king) && between(*c, king, from)))
                .collect();
            if !checkers.is_empty() {
                out.push(Violation::CheckAfterDoubleStep { king, checkers, pawn });
            }
        }
    }
    if let Some(halfmove) = halfmove.filter(|h| *h != 0) {
        out.push(Violation::EnPassantHalfmove { halfmove });
    }
}
