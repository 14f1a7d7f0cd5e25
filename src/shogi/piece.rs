//! Sides, kinds of pieces and pieces, with their letters.

use std::fmt;

use super::Square;
use crate::notation::from_str_by;

/// A side. Black (sente) moves first and writes its pieces in uppercase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Sente, uppercase letters, moves up the board (towards rank a).
    Black,
    /// Gote, lowercase letters, moves down the board (towards rank i).
    White,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Self::Black => Self::White,
            Self::White => Self::Black,
        }
    }

    /// 0 for Black, 1 for White.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"Black"` or `"White"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Black => "Black",
            Self::White => "White",
        }
    }
}

/// The kinds of shogi pieces, in the hand order of the board viewer's model (P L N S G B R), then the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn, `P`.
    Pawn,
    /// Lance, `L`.
    Lance,
    /// Knight, `N`.
    Knight,
    /// Silver general, `S`.
    Silver,
    /// Gold general, `G`.
    Gold,
    /// Bishop, `B`.
    Bishop,
    /// Rook, `R`.
    Rook,
    /// King, `K`.
    King,
}

impl PieceKind {
    /// Every kind, in the order P L N S G B R K.
    pub const ALL: [Self; 8] =
        [Self::Pawn, Self::Lance, Self::Knight, Self::Silver, Self::Gold, Self::Bishop, Self::Rook, Self::King];

    /// The kinds a hand can hold, in USI order: R B G S N L P.
    pub const USI_HAND_ORDER: [Self; 7] =
        [Self::Rook, Self::Bishop, Self::Gold, Self::Silver, Self::Knight, Self::Lance, Self::Pawn];

    /// The kind written with this letter (either case).
    pub const fn from_letter(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            'P' => Self::Pawn,
            'L' => Self::Lance,
            'N' => Self::Knight,
            'S' => Self::Silver,
            'G' => Self::Gold,
            'B' => Self::Bishop,
            'R' => Self::Rook,
            'K' => Self::King,
            _ => return None,
        })
    }

    /// The uppercase letter.
    pub const fn letter(self) -> char {
        match self {
            Self::Pawn => 'P',
            Self::Lance => 'L',
            Self::Knight => 'N',
            Self::Silver => 'S',
            Self::Gold => 'G',
            Self::Bishop => 'B',
            Self::Rook => 'R',
            Self::King => 'K',
        }
    }

    /// The English name, lowercase.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Pawn => "pawn",
            Self::Lance => "lance",
            Self::Knight => "knight",
            Self::Silver => "silver",
            Self::Gold => "gold",
            Self::Bishop => "bishop",
            Self::Rook => "rook",
            Self::King => "king",
        }
    }

    /// The plural name.
    pub const fn plural(self) -> &'static str {
        match self {
            Self::Pawn => "pawns",
            Self::Lance => "lances",
            Self::Knight => "knights",
            Self::Silver => "silvers",
            Self::Gold => "golds",
            Self::Bishop => "bishops",
            Self::Rook => "rooks",
            Self::King => "kings",
        }
    }

    /// True for the kinds that promote (all but gold and king).
    pub const fn can_promote(self) -> bool {
        !matches!(self, Self::Gold | Self::King)
    }

    /// How many of its owner's last ranks an unpromoted piece of this kind may not stand on,
    /// nor be dropped on, for it could never move from them: one for the pawn and the lance,
    /// two for the knight, none for the others.
    pub const fn dead_ranks(self) -> u8 {
        match self {
            Self::Pawn | Self::Lance => 1,
            Self::Knight => 2,
            _ => 0,
        }
    }

    /// How many pieces of this kind one set holds: K 2, R 2, B 2, G 4, S 4, N 4, L 4, P 18.
    pub const fn supply(self) -> u32 {
        match self {
            Self::Pawn => 18,
            Self::Lance | Self::Knight | Self::Silver | Self::Gold => 4,
            Self::Bishop | Self::Rook | Self::King => 2,
        }
    }

    /// Index in [`PieceKind::ALL`] (and in a [`Hand`](super::Hand) for all but the king).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A piece as CSA and JKF name it (`FU` … `RY`): its kind and whether it is promoted, or
    /// `None` for a name that is none.
    pub fn from_csa(name: &str) -> Option<(Self, bool)> {
        use PieceKind::{Bishop, Gold, King, Knight, Lance, Pawn, Rook, Silver};
        Some(match name {
            "FU" => (Pawn, false),
            "KY" => (Lance, false),
            "KE" => (Knight, false),
            "GI" => (Silver, false),
            "KI" => (Gold, false),
            "KA" => (Bishop, false),
            "HI" => (Rook, false),
            "OU" => (King, false),
            "TO" => (Pawn, true),
            "NY" => (Lance, true),
            "NK" => (Knight, true),
            "NG" => (Silver, true),
            "UM" => (Bishop, true),
            "RY" => (Rook, true),
            _ => return None,
        })
    }

    /// The name CSA and JKF give this kind, promoted or not (`FU` … `RY`; a gold or a king is
    /// never promoted).
    pub const fn csa_name(self, promoted: bool) -> &'static str {
        use PieceKind::{Bishop, Gold, King, Knight, Lance, Pawn, Rook, Silver};
        match (self, promoted) {
            (Pawn, false) => "FU",
            (Lance, false) => "KY",
            (Knight, false) => "KE",
            (Silver, false) => "GI",
            (Gold, _) => "KI",
            (Bishop, false) => "KA",
            (Rook, false) => "HI",
            (King, _) => "OU",
            (Pawn, true) => "TO",
            (Lance, true) => "NY",
            (Knight, true) => "NK",
            (Silver, true) => "NG",
            (Bishop, true) => "UM",
            (Rook, true) => "RY",
        }
    }
}

/// A piece on the board: colour, kind and whether it is promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Its kind (a promoted piece keeps its base kind).
    pub kind: PieceKind,
    /// True when promoted (`+P`, the tokin, …).
    pub promoted: bool,
}

impl Piece {
    /// The SFEN letter: uppercase for Black, lowercase for White.
    pub const fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        }
    }

    /// Reads a piece letter; uppercase is Black.
    pub const fn from_letter(c: char, promoted: bool) -> Option<Self> {
        match PieceKind::from_letter(c) {
            Some(kind) => {
                Some(Self { color: if c.is_ascii_uppercase() { Color::Black } else { Color::White }, kind, promoted })
            }
            None => None,
        }
    }

    /// Reads an ASCII piece letter, as [`Piece::from_letter`] does, by table.
    pub fn from_ascii(b: u8, promoted: bool) -> Option<Self> {
        const TABLE: [Option<(Color, PieceKind)>; 128] = {
            let mut t = [None; 128];
            let mut i = 0;
            while i < PieceKind::ALL.len() {
                let kind = PieceKind::ALL[i];
                let upper = kind.letter() as u8;
                t[upper as usize] = Some((Color::Black, kind));
                t[upper.to_ascii_lowercase() as usize] = Some((Color::White, kind));
                i += 1;
            }
            t
        };
        match TABLE.get(usize::from(b)) {
            Some(Some((color, kind))) => Some(Self { color: *color, kind: *kind, promoted }),
            _ => None,
        }
    }

    /// Reads a piece as SFEN writes it: a letter (uppercase for Black), after `+` when
    /// promoted (for the kinds that promote); `None` for anything else.
    pub fn parse(s: &str) -> Option<Self> {
        match *s.as_bytes() {
            [b'+', letter] => Self::from_ascii(letter, true).filter(|p| p.kind.can_promote()),
            [letter] => Self::from_ascii(letter, false),
            _ => None,
        }
    }

    /// "Black pawn", "White promoted rook", …
    pub fn describe(self) -> String {
        let promoted = if self.promoted { "promoted " } else { "" };
        format!("{} {promoted}{}", self.color.name(), self.kind.name())
    }

    /// True when this piece can never move from `square` again: an unpromoted pawn or lance on
    /// its owner's last rank, an unpromoted knight on its last two ([`PieceKind::dead_ranks`];
    /// matched here by kind, which times faster on the quick reading of a valid record).
    #[inline]
    pub fn is_dead_on(self, square: Square) -> bool {
        // The squares counted from the owner's far side, nine a rank: its last rank holds the
        // first nine, its last two the first eighteen.
        let from_far = match self.color {
            Color::Black => square.index(),
            Color::White => 80 - square.index(),
        };
        match (self.promoted, self.kind) {
            (false, PieceKind::Pawn | PieceKind::Lance) => from_far < 9,
            (false, PieceKind::Knight) => from_far < 18,
            _ => false,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.promoted {
            f.write_str("+")?;
        }
        write!(f, "{}", self.letter())
    }
}

from_str_by! {
    /// Reads a piece as SFEN writes it: a letter, uppercase for Black, after `+` when promoted.
    ///
    /// ```
    /// use kifu::shogi::{Color, Piece, PieceKind};
    ///
    /// let tokin: Piece = "+p".parse().unwrap();
    /// assert_eq!(tokin, Piece { color: Color::White, kind: PieceKind::Pawn, promoted: true });
    /// assert_eq!(tokin.to_string(), "+p");
    /// assert!("+G".parse::<Piece>().is_err(), "a gold never promotes");
    /// ```
    Piece,
    Piece::parse,
    "shogi piece (a letter of PLNSGBRK, lowercase for White, after + when promoted)"
}

#[cfg(feature = "serde")]
impl serde::Serialize for PieceKind {
    /// A kind is written as its letter: `"P"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_char(self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::square::tests::sq;

    #[test]
    fn the_letter_table_reads_like_from_letter() {
        for b in 0..=255u8 {
            for promoted in [false, true] {
                let by_char = if b.is_ascii() { Piece::from_letter(b as char, promoted) } else { None };
                assert_eq!(Piece::from_ascii(b, promoted), by_char, "{b}");
            }
        }
    }

    #[test]
    fn dead_pieces() {
        assert!(Piece::from_letter('P', false).is_some_and(|p| p.is_dead_on(sq("3a"))));
        assert!(Piece::from_letter('n', false).is_some_and(|p| p.is_dead_on(sq("3h"))));
        assert!(!Piece::from_letter('N', false).is_some_and(|p| p.is_dead_on(sq("3c"))));
        assert!(!Piece::from_letter('P', true).is_some_and(|p| p.is_dead_on(sq("3a"))));
        // On every square, for every piece: the ranks counted from the owner's far side.
        for index in 0..81 {
            let square = Square::from_index(index).expect("a square");
            for (kind, color, promoted) in PieceKind::ALL
                .into_iter()
                .flat_map(|k| [Color::Black, Color::White].map(|c| (k, c)))
                .flat_map(|(k, c)| [(k, c, false), (k, c, true)])
            {
                let far = square.rank_from(color);
                let dead = !promoted
                    && match kind {
                        PieceKind::Pawn | PieceKind::Lance => far == 1,
                        PieceKind::Knight => far <= 2,
                        _ => false,
                    };
                assert_eq!(
                    Piece { color, kind, promoted }.is_dead_on(square),
                    dead,
                    "{kind:?} {color:?} {promoted} {square}"
                );
                // The count of last ranks the rules' tables are made from says the same.
                assert_eq!(!promoted && far <= kind.dead_ranks(), dead, "{kind:?} {color:?} {promoted} {square}");
            }
        }
    }

    #[test]
    fn pieces_read_back() {
        for kind in PieceKind::ALL {
            for color in [Color::Black, Color::White] {
                for promoted in [false, true].into_iter().filter(|p| !p || kind.can_promote()) {
                    let piece = Piece { color, kind, promoted };
                    assert_eq!(piece.to_string().parse::<Piece>(), Ok(piece));
                }
            }
        }
        for bad in ["", "+", "++P", "x", "+k", "PP", "P+"] {
            assert!(bad.parse::<Piece>().is_err(), "{bad:?}");
        }
    }
}
