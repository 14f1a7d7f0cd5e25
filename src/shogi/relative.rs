//! Which of several pieces of a kind moves, as people write it (KI2, newspapers, the JSA's
//! rules for written moves, 「棋譜の表記方法」): where the piece stands among those that could
//! make the move ([`Place`]: 左 直 右) and how it moves ([`Motion`]: 上 寄 引).
//!
//! [`jsa`] gives the words the rules ask for a move, and [`matches`] the pieces that words
//! written name; a test holds the two to each other: the JSA's words for a legal move name
//! that move's piece and no other. The pieces looked at are those that can make the move
//! legally (a pinned piece is not one).

use super::rules::State;
use super::{Color, Move, Piece, PieceKind, Square};

/// Where the piece stands, as the mover sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// 左: on the mover's left.
    Left,
    /// 直: straight behind the square, moving up (for a dragon or a horse: never written).
    Straight,
    /// 右: on the mover's right.
    Right,
}

/// How the piece moves, as the mover sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// 上: towards the other side.
    Up,
    /// 寄: sideways.
    Sideways,
    /// 引: back.
    Down,
}

/// The words that tell a piece from the others of its kind that could make its move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relative {
    /// 左, 直 or 右.
    pub place: Option<Place>,
    /// 上, 寄 or 引.
    pub motion: Option<Motion>,
}

impl Place {
    /// The kanji: 左, 直, 右.
    pub const fn kanji(self) -> &'static str {
        match self {
            Self::Left => "左",
            Self::Straight => "直",
            Self::Right => "右",
        }
    }

    /// The place a kanji names.
    pub fn of_kanji(s: &str) -> Option<Self> {
        [Self::Left, Self::Straight, Self::Right].into_iter().find(|p| p.kanji() == s)
    }

    fn opposite(self) -> Self {
        match self {
            Self::Left => Self::Right,
            Self::Straight => Self::Straight,
            Self::Right => Self::Left,
        }
    }
}

impl Motion {
    /// The kanji: 上, 寄, 引.
    pub const fn kanji(self) -> &'static str {
        match self {
            Self::Up => "上",
            Self::Sideways => "寄",
            Self::Down => "引",
        }
    }

    /// The motion a kanji names.
    pub fn of_kanji(s: &str) -> Option<Self> {
        [Self::Up, Self::Sideways, Self::Down].into_iter().find(|m| m.kanji() == s)
    }
}

impl Relative {
    /// The words as written: `左上`, `直`, `` (none).
    pub fn kanji(self) -> String {
        let mut s = String::new();
        if let Some(p) = self.place {
            s.push_str(p.kanji());
        }
        if let Some(m) = self.motion {
            s.push_str(m.kanji());
        }
        s
    }
}

/// Where a piece on `from` stands relative to `to`, and how it moves there, as `side` sees the
/// board (its left is file 9 for Black, file 1 for White).
fn heading(side: Color, from: Square, to: Square) -> (Place, Motion) {
    let (file, rank) = match side {
        Color::Black => (from.file().cmp(&to.file()), to.rank().cmp(&from.rank())),
        Color::White => (to.file().cmp(&from.file()), from.rank().cmp(&to.rank())),
    };
    let place = match file {
        std::cmp::Ordering::Greater => Place::Left,
        std::cmp::Ordering::Equal => Place::Straight,
        std::cmp::Ordering::Less => Place::Right,
    };
    let motion = match rank {
        std::cmp::Ordering::Less => Motion::Up,
        std::cmp::Ordering::Equal => Motion::Sideways,
        std::cmp::Ordering::Greater => Motion::Down,
    };
    (place, motion)
}

/// A dragon or a horse: two at most, told apart by 左 and 右 alone.
fn is_major(piece: Piece) -> bool {
    piece.promoted && matches!(piece.kind, PieceKind::Rook | PieceKind::Bishop)
}

/// The squares of the pieces like `piece` (its kind, promoted or not, of the side to move) that
/// can move to `to` legally, promoting or not, in the order the board lists them.
pub fn candidates(state: &State, piece: Piece, to: Square) -> Vec<Square> {
    let legality = state.legality();
    let mut found = reachers(state, piece, to);
    found.retain(|&sq| legality.is_legal_reaching(sq, to, false) || legality.is_legal_reaching(sq, to, true));
    found
}

/// The squares of the pieces like `piece` that reach `to`, whether or not the rules let them
/// move there (a pinned piece is one), in the order the board lists them.
pub fn reachers(state: &State, piece: Piece, to: Square) -> Vec<Square> {
    let mut found = Vec::new();
    state.reaching_piece(to, piece, |sq| found.push(sq));
    found.sort_by_key(|sq| sq.index());
    found
}

/// The place of the piece on `from` among `candidates` (which hold it) moving to `to`: its side
/// of the square, or for a dragon or a horse moving straight, the side the other is not on.
fn place_among(side: Color, piece: Piece, from: Square, to: Square, candidates: &[Square]) -> Place {
    let (place, motion) = heading(side, from, to);
    if place != Place::Straight || !is_major(piece) {
        return place;
    }
    candidates
        .iter()
        .filter(|&&c| c != from)
        .map(|&c| heading(side, c, to))
        .find(|&(p, m)| m == motion && p != Place::Straight)
        .map_or(place, |(p, _)| p.opposite())
}

/// The words the JSA's rules write for the move of the piece on `from` to `to`, given the
/// `candidates` (with [`candidates`]) that could make it.
pub fn jsa(side: Color, piece: Piece, from: Square, to: Square, candidates: &[Square]) -> Relative {
    let others: Vec<(Place, Motion)> =
        candidates.iter().filter(|&&c| c != from).map(|&c| heading(side, c, to)).collect();
    if others.is_empty() {
        return Relative::default();
    }
    let (place, motion) = heading(side, from, to);
    // The others that move as this one does are told apart by where they stand; those that
    // stand where it does, by how they move.
    let same_motion = others.iter().any(|&(_, m)| m == motion);
    let same_place = others.iter().any(|&(p, _)| p == place);
    let mut words = Relative::default();
    if same_motion {
        let place = place_among(side, piece, from, to, candidates);
        words.place = Some(place);
        // A piece moving straight up is the only one that does: 直 says all.
        if place == Place::Straight {
            return words;
        }
    }
    if same_place || !same_motion {
        words.motion = Some(motion);
    }
    words
}

/// The pieces among `candidates` (with [`candidates`]) that the words `written` name moving to
/// `to`.
pub fn matches(side: Color, piece: Piece, to: Square, written: Relative, candidates: &[Square]) -> Vec<Square> {
    candidates
        .iter()
        .copied()
        .filter(|&c| {
            let (_, motion) = heading(side, c, to);
            written.motion.is_none_or(|m| m == motion)
                && written.place.is_none_or(|p| {
                    let place = place_among(side, piece, c, to, candidates);
                    // 直 is a piece moving straight up.
                    p == place && (p != Place::Straight || motion == Motion::Up)
                })
        })
        .collect()
}

/// The JSA's words for a legal board move `mv` of `piece` in `state`.
pub fn jsa_of(state: &State, piece: Piece, mv: Move) -> Relative {
    match mv {
        Move::Board { from, to, .. } => jsa(state.side(), piece, from, to, &candidates(state, piece, to)),
        Move::Drop { .. } => Relative::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    fn state(sfen: &str) -> State {
        State::new(&sfen.parse::<Position>().expect("an SFEN record"))
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square")
    }

    /// The JSA's words for the move `usi` of `state`.
    fn words(state: &State, usi: &str) -> String {
        let mv: Move = usi.parse().expect("a USI move");
        let Move::Board { from, .. } = mv else { return String::new() };
        let piece = state.piece_at(from).expect("a piece");
        jsa_of(state, piece, mv).kanji()
    }

    #[test]
    fn the_jsa_examples() {
        // Three golds behind 5h: 左, 直, 右.
        let golds = state("4k4/9/9/9/9/9/9/9/3GGG3 b - 1");
        assert_eq!(words(&golds, "6i5h"), "左");
        assert_eq!(words(&golds, "5i5h"), "直");
        assert_eq!(words(&golds, "4i5h"), "右");
        // One gold moves up, the other sideways: 上 and 寄.
        let two = state("4k4/9/9/9/9/9/9/5G3/3G5 b - 1");
        assert_eq!(words(&two, "6i5h"), "上");
        assert_eq!(words(&two, "4h5h"), "寄");
        // Two on the left, one moving up and one sideways, and one on the right: 左上, 寄, 右.
        let three = state("4k4/9/9/9/9/9/9/3G5/3G1G3 b - 1");
        assert_eq!(words(&three, "6i5h"), "左上");
        assert_eq!(words(&three, "6h5h"), "寄");
        assert_eq!(words(&three, "4i5h"), "右");
        // White sees the board the other way round.
        let white = state("3ggg3/9/9/9/9/9/9/9/4K4 w - 1");
        assert_eq!(words(&white, "6a5b"), "右");
        assert_eq!(words(&white, "4a5b"), "左");
        // Two dragons on one rank: 左 and 右, never 直; one moving straight, by the other.
        let dragons = state("4k4/9/9/9/+R3+R4/9/9/9/4K4 b - 1");
        assert_eq!(words(&dragons, "9e7e"), "左");
        assert_eq!(words(&dragons, "5e7e"), "右");
        let straight = state("4k4/9/9/9/9/2+R6/9/1+R7/4K4 b - 1");
        assert_eq!(words(&straight, "8h8e"), "左");
        assert_eq!(words(&straight, "7f8e"), "右");
        // A lone piece needs no word; a pinned one is not among those that could move.
        assert_eq!(words(&golds, "6i7h"), "");
        assert_eq!(words(&golds, "6i6h"), "直");
        let pinned = state("4r4/9/9/9/9/9/9/4GG3/4K4 b - 1");
        assert_eq!(
            candidates(&pinned, Piece { color: Color::Black, kind: PieceKind::Gold, promoted: false }, sq("4g")),
            vec![sq("4h")]
        );
    }

    /// Every legal board move of many positions: the JSA's words for it name its piece and no
    /// other.
    #[test]
    fn the_words_name_the_piece_that_moves() {
        let positions = [
            "4k4/9/9/9/9/9/9/9/3GGG3 b - 1",
            "4k4/9/9/9/9/9/9/3G5/3G1G3 b - 1",
            "4k4/9/9/9/9/2+R6/9/1+R7/4K4 b - 1",
            "3ggg3/9/9/3s1s3/9/9/9/9/4K4 w - 1",
            "4k4/9/9/9/+R3+R4/9/9/9/4K4 b - 1",
            "4k4/9/2+B3+B2/9/9/9/9/9/4K4 b - 1",
            "k8/9/9/9/4+B4/9/4+B4/9/K8 b - 1",
            "4k4/9/9/2S1S4/9/2S1S4/9/9/4K4 b - 1",
            "4k4/9/9/9/9/2N1N4/9/9/4K4 b - 1",
            "4k4/9/9/9/2+P+P+P4/3+P1+P3/9/9/4K4 b - 1",
            "8k/9/9/9/9/1+r3+r3/9/9/K8 w - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ];
        let mut checked = 0;
        for sfen in positions {
            let state = state(sfen);
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            for mv in moves {
                let Move::Board { from, to, .. } = mv else { continue };
                let piece = state.piece_at(from).expect("a piece");
                let all = candidates(&state, piece, to);
                let words = jsa(state.side(), piece, from, to, &all);
                assert_eq!(
                    matches(state.side(), piece, to, words, &all),
                    vec![from],
                    "{sfen}: {mv} as {}",
                    words.kanji()
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} moves");
    }
}
