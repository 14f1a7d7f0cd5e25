//! What makes a shogi position one no game reaches, typed: each [`Violation`] names the rule
//! and the squares at fault, and every notation says it in its own words and points at its own
//! characters.
//!
//! The checks start from a [`Tally`] of the board (counted in one pass, nothing allocated) and
//! look further only where the counts show a fault, so a legal position costs one pass and the
//! attack lookups of the two kings.

use super::{retro, Board, Color, Hand, Piece, PieceKind, Square};

/// A rule of shogi a position breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// A side has more than one king: its kings, in SFEN order (from the top rank, file 9
    /// first).
    TwoKings {
        /// The side.
        color: Color,
        /// Every king of that side.
        kings: Vec<Square>,
    },
    /// A piece can never move: an unpromoted pawn or lance on its owner's last rank, or an
    /// unpromoted knight on either of its last two.
    DeadPiece {
        /// Where it stands.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// A side has more than one unpromoted pawn on a file (nifu).
    Nifu {
        /// The side.
        color: Color,
        /// The file, 1 to 9.
        file: u8,
        /// The pawns, in SFEN order.
        pawns: Vec<Square>,
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
    /// More pieces of a kind (promoted ones counted as their kind) than a set holds.
    TooManyPieces {
        /// The kind (never the king: [`Violation::TwoKings`] counts kings).
        kind: PieceKind,
        /// How many there are, on the board and in both hands.
        total: u32,
        /// How many of them are in hand.
        in_hand: u32,
        /// Where those on the board stand, in SFEN order.
        on_board: Vec<Square>,
    },
}

/// Why no move gives the checks of a [`Violation::ImpossibleCheck`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImpossibleCheck {
    /// Two pieces check, both next to the king or a knight's jump away: a move that gives two
    /// checks uncovers a line, and neither checks along one.
    TwoClose,
    /// Two pieces check, but every move of the other side that could end here starts with the
    /// king already in check.
    NoLastMove,
    /// More than two pieces check: a move gives at most two.
    MoreThanTwo,
}

/// The pieces of a board, counted for every check (nothing allocated): the checks look
/// further only where the counts show a fault. Counted in one pass over the board
/// ([`Tally::of`]), or piece by piece as a reader places them ([`Tally::add`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    /// Pieces per kind (promoted ones as their base kind), both colours together.
    counts: [u32; 8],
    /// How many kings each colour has, and where its first one stands.
    kings: [(u32, Option<Square>); 2],
    /// Some piece can never move ([`Piece::is_dead_on`]).
    dead: bool,
    /// Per colour, a bit for each file (1 << file) that holds an unpromoted pawn.
    seen: [u16; 2],
    /// Per colour, a bit for each file that holds more than one.
    twice: [u16; 2],
}

impl Violation {
    /// The rule broken, in a few words, each square written by `s` (a KIF record's `２九`, a
    /// CSA record's `29`).
    pub fn breaks(&self, s: &dyn Fn(Square) -> String) -> String {
        match self {
            Self::TwoKings { color, .. } => format!("{} has more than one king", color.name()),
            Self::DeadPiece { square, piece } => format!("the {} on {} can never move", piece.describe(), s(*square)),
            Self::Nifu { color, file, .. } => format!("{} has two pawns on file {file}", color.name()),
            Self::OppositeCheck { .. } => "the side not to move is in check".to_owned(),
            Self::ImpossibleCheck { .. } => "the side to move is in a check no move gives".to_owned(),
            Self::TooManyPieces { kind, total, .. } => format!("{total} {} are more than a set holds", kind.plural()),
        }
    }
}

impl Tally {
    /// Counts `piece` on `square`; pieces are added in SFEN order (the first king found is the
    /// one named).
    #[inline]
    pub(crate) fn add(&mut self, square: Square, piece: Piece) {
        self.counts[piece.kind.index()] += 1;
        match piece.kind {
            PieceKind::King => {
                let k = &mut self.kings[piece.color.index()];
                k.0 += 1;
                k.1 = k.1.or(Some(square));
            }
            PieceKind::Pawn if !piece.promoted => {
                let (bit, c) = (1 << square.file(), piece.color.index());
                self.twice[c] |= self.seen[c] & bit;
                self.seen[c] |= bit;
            }
            _ => {}
        }
        self.dead |= piece.is_dead_on(square);
    }

    /// The tally of `board`.
    pub(crate) fn of(board: &Board) -> Self {
        let mut tally = Self::default();
        for (i, p) in board.0.iter().enumerate() {
            if let (Some(p), Some(sq)) = (p, Square::from_index(i)) {
                tally.add(sq, *p);
            }
        }
        tally
    }

    /// How many kings `color` has.
    pub(crate) const fn kings(&self, color: Color) -> u32 {
        self.kings[color.index()].0
    }

    /// The king of `color`, when it has exactly one.
    fn king(&self, color: Color) -> Option<Square> {
        match self.kings[color.index()] {
            (1, sq) => sq,
            _ => None,
        }
    }

    /// The pieces of each kind (by [`PieceKind::index`]) on the board and in `hands` together.
    pub(crate) fn totals(&self, hands: &[Hand; 2]) -> [u32; 8] {
        let mut totals = self.counts;
        for kind in PieceKind::ALL {
            totals[kind.index()] += hands[0].count(kind) + hands[1].count(kind);
        }
        totals
    }

    /// True when the counts alone show that the position breaks a rule: a side has two kings,
    /// a piece can never move, a side has two unpromoted pawns on a file, or there are more
    /// pieces of a kind than a set holds (with `hands`). [`violations`] then finds one.
    pub(crate) fn breaks_counts(&self, hands: &[Hand; 2]) -> bool {
        self.dead || self.twice != [0, 0] || breaks_supply(&self.totals(hands), &[self.kings[0].0, self.kings[1].0])
    }
}

/// True when `total` pieces of `kind` (on the board and in hand, promoted ones counted) are more
/// than a set holds. Kings are counted apart ([`too_many_kings`]).
fn exceeds_supply(kind: PieceKind, total: u32) -> bool {
    kind != PieceKind::King && total > kind.supply()
}

/// True when a side has more kings than one.
const fn too_many_kings(kings: u32) -> bool {
    kings > 1
}

/// True when the pieces of some kind, `totals` (by [`PieceKind::index`], on the board and in
/// hand), are more than a set holds, or a side has more kings than one (each colour's `kings`).
pub(crate) fn breaks_supply(totals: &[u32; 8], kings: &[u32; 2]) -> bool {
    PieceKind::ALL.iter().any(|&kind| exceeds_supply(kind, totals[kind.index()]))
        || kings.iter().any(|&k| too_many_kings(k))
}

/// For pieces within the supply (`totals` and `kings` as [`breaks_supply`] takes them): true
/// when one more piece of `kind`, of the colour of index `color`, keeps them within it.
pub(crate) fn supply_takes_one(totals: &[u32; 8], kings: &[u32; 2], kind: PieceKind, color: usize) -> bool {
    !exceeds_supply(kind, totals[kind.index()] + 1)
        && (kind != PieceKind::King || kings.get(color).is_some_and(|&k| !too_many_kings(k + 1)))
}

/// Every rule of shogi `board` (counted in `tally`) breaks, with the side to move and the
/// hands when they are known (a part that could not be read is not judged; without hands, what
/// the board alone holds can still be too much). In a fixed order: kings, dead pieces, nifu,
/// checks, supply; each in SFEN order.
pub(crate) fn violations(
    board: &Board,
    tally: &Tally,
    side: Option<Color>,
    hands: Option<&[Hand; 2]>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    two_kings(board, tally, &mut out);
    if tally.dead {
        out.extend(
            pieces(board)
                .filter(|(sq, p)| p.is_dead_on(*sq))
                .map(|(square, piece)| Violation::DeadPiece { square, piece }),
        );
    }
    nifu(board, tally, &mut out);
    if let Some(side) = side {
        checks(board, tally, side, hands, &mut out);
    }
    supply(board, tally, hands.unwrap_or(&[Hand::EMPTY; 2]), &mut out);
    out
}

/// Every piece of `board` and its square, in SFEN order.
fn pieces(board: &Board) -> impl Iterator<Item = (Square, Piece)> + '_ {
    board.0.iter().enumerate().filter_map(|(i, p)| Some((Square::from_index(i)?, (*p)?)))
}

fn two_kings(board: &Board, tally: &Tally, out: &mut Vec<Violation>) {
    for color in [Color::Black, Color::White] {
        if too_many_kings(tally.kings(color)) {
            let kings =
                pieces(board).filter(|(_, p)| p.color == color && p.kind == PieceKind::King).map(|(s, _)| s).collect();
            out.push(Violation::TwoKings { color, kings });
        }
    }
}

fn nifu(board: &Board, tally: &Tally, out: &mut Vec<Violation>) {
    for color in [Color::Black, Color::White] {
        for file in (1..=9u8).rev().filter(|f| tally.twice[color.index()] & (1 << f) != 0) {
            let pawns = pieces(board)
                .filter(|(sq, p)| p.kind == PieceKind::Pawn && !p.promoted && p.color == color && sq.file() == file)
                .map(|(sq, _)| sq)
                .collect();
            out.push(Violation::Nifu { color, file, pawns });
        }
    }
}

/// True when the piece on `from` gives check from a distance along a line, which a move of
/// another piece can uncover (a discovered check).
fn distant_slider(board: &Board, from: Square, king: Square) -> bool {
    let Some(piece) = board.get(from) else {
        return false;
    };
    let line = matches!(piece.kind, PieceKind::Rook | PieceKind::Bishop)
        || (piece.kind == PieceKind::Lance && !piece.promoted);
    let dist = (i16::from(from.file()) - i16::from(king.file()))
        .abs()
        .max((i16::from(from.rank()) - i16::from(king.rank())).abs());
    line && dist >= 2
}

/// The checks no game reaches: the side not to move in check, or the mover checked by more
/// pieces (or in other ways) than one move brings about; `hands`, when known, tell whether the
/// last move can have taken a piece.
fn checks(board: &Board, tally: &Tally, mover: Color, hands: Option<&[Hand; 2]>, out: &mut Vec<Violation>) {
    let waiting = mover.opponent();
    if let Some(king) = tally.king(waiting) {
        let checkers = board.attackers(king, mover);
        if !checkers.is_empty() {
            out.push(Violation::OppositeCheck { king, checkers });
        }
    }
    let Some(king) = tally.king(mover) else { return };
    let checkers = board.attackers(king, waiting);
    // A piece taken goes to the taker's hand.
    let can_take = hands.is_none_or(|h| !h[waiting.index()].is_empty());
    // A king next to the other is the finding of the side not to move in check.
    let is_king = |a: Square| board.get(a).is_some_and(|p| p.kind == PieceKind::King);
    // The side to move can be in check by at most two pieces, and by two only when one of
    // them checks along a line another piece's move uncovered: when some last move of the
    // other side gives both.
    let cause = match *checkers {
        [] | [_] => None,
        [a, b] if !distant_slider(board, a, king) && !distant_slider(board, b, king) => Some(ImpossibleCheck::TwoClose),
        [a, b] if !is_king(a) && !is_king(b) && !retro::some_last_move(board, king, waiting, can_take) => {
            Some(ImpossibleCheck::NoLastMove)
        }
        [_, _] => None,
        _ => Some(ImpossibleCheck::MoreThanTwo),
    };
    if let Some(cause) = cause {
        out.push(Violation::ImpossibleCheck { king, checkers, cause });
    }
}

fn supply(board: &Board, tally: &Tally, hands: &[Hand; 2], out: &mut Vec<Violation>) {
    for kind in PieceKind::ALL {
        let in_hand = hands[0].count(kind) + hands[1].count(kind);
        let total = tally.counts[kind.index()] + in_hand;
        if exceeds_supply(kind, total) {
            let on_board = pieces(board).filter(|(_, p)| p.kind == kind).map(|(s, _)| s).collect();
            out.push(Violation::TooManyPieces { kind, total, in_hand, on_board });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    fn violations(sfen: &str) -> Vec<Violation> {
        sfen.parse::<Position>().expect("an SFEN record").violations()
    }

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).expect("a square")
    }

    #[test]
    fn each_rule_names_its_squares() {
        assert_eq!(
            violations("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
            [Violation::TwoKings { color: Color::Black, kings: vec![sq(6, 9), sq(5, 9)] }]
        );
        let pawn = Piece { color: Color::Black, kind: PieceKind::Pawn, promoted: false };
        assert_eq!(
            violations("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
            [Violation::DeadPiece { square: sq(9, 1), piece: pawn }]
        );
        assert_eq!(
            violations("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
            [Violation::OppositeCheck { king: sq(5, 1), checkers: vec![sq(5, 2)] }]
        );
        assert_eq!(
            violations("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"),
            [Violation::TooManyPieces { kind: PieceKind::Pawn, total: 19, in_hand: 19, on_board: Vec::new() }]
        );
        assert!(violations("9/9/9/9/4k4/9/9/9/9 b - 1").is_empty(), "a side may lack its king");
    }

    #[test]
    fn a_check_no_move_gives_says_why() {
        let cause = |sfen: &str| match violations(sfen).as_slice() {
            [Violation::ImpossibleCheck { cause, .. }] => Some(*cause),
            _ => None,
        };
        // Two golds next to the king: no move uncovers a line.
        assert_eq!(cause("4k4/9/9/9/9/9/9/3gg4/4K4 b - 1"), Some(ImpossibleCheck::TwoClose));
        // Three golds: a move gives at most two checks.
        assert_eq!(cause("4k4/9/9/9/9/9/9/3ggg3/4K4 b - 1"), Some(ImpossibleCheck::MoreThanTwo));
        // A rook from afar and a gold beside the king, which no move brought there uncovering
        // the rook: the gold could only have come from 5h, where it already gave check.
        assert_eq!(cause("k8/9/9/9/4r4/9/9/9/3gK4 b - 1"), Some(ImpossibleCheck::NoLastMove));
        // A rook from afar and a gold that just stepped off its file from 5g: a double check.
        assert!(violations("4k4/4r4/9/9/9/9/9/5g3/4K4 b P 1").is_empty());
    }
}
