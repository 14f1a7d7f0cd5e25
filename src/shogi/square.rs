//! The 81 squares and their names (`7f`).

use std::fmt;

use super::Color;
use crate::notation::from_str_by;

/// A square, by file 1-9 (right to left from Black's side) and rank a-i (top to bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(super) u8);

impl Square {
    /// 9a, the square of index 0.
    pub const NINE_A: Self = Self(0);

    /// The square on `file` (1-9) and `rank` (1-9, for a-i); `None` off the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Self> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Self((rank - 1) * 9 + (9 - file)))
        } else {
            None
        }
    }

    /// The square written with the ASCII characters `file` (`1`-`9`) and `rank` (`a`-`i`), as
    /// in `7f`; `None` for any other pair of bytes.
    pub const fn from_ascii(file: u8, rank: u8) -> Option<Self> {
        match (file, rank) {
            (b'1'..=b'9', b'a'..=b'i') => Self::new(file - b'0', rank - b'a' + 1),
            _ => None,
        }
    }

    /// Reads a square's name, `7f`: a file digit `1`-`9` and a rank letter `a`-`i`, nothing else.
    pub fn parse(s: &str) -> Option<Self> {
        match *s.as_bytes() {
            [file, rank] => Self::from_ascii(file, rank),
            _ => None,
        }
    }

    /// The square at `index`, counted the way SFEN writes the board: 9a, 8a, … 1a, 9b, … 1i.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Self> {
        if index < 81 {
            Some(Self(index as u8))
        } else {
            None
        }
    }

    /// Index in SFEN order (0 for 9a, 80 for 1i).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 1-9.
    #[inline]
    pub const fn file(self) -> u8 {
        9 - self.0 % 9
    }

    /// Rank, 1-9 (a-i).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank counted from `color`'s far side: 1 is its last rank (where a pawn cannot go
    /// on), 1 to 3 its promotion zone. Picked from the two counts with no branch on the colour
    /// (in a game it alternates move by move).
    #[inline]
    pub const fn rank_from(self, color: Color) -> u8 {
        [self.rank(), 10 - self.rank()][color.index()]
    }

    /// The square `df` files and `dr` ranks away (file numbers grow to the left, ranks
    /// downwards), if on the board.
    #[inline]
    pub fn offset(self, df: i8, dr: i8) -> Option<Self> {
        // Plain signed arithmetic: on the hot path of the check finders, it is faster than
        // `checked_add_signed` (measured).
        let (file, rank) = (self.file() as i8 + df, self.rank() as i8 + dr);
        if (1..=9).contains(&file) && (1..=9).contains(&rank) {
            Self::new(file as u8, rank as u8)
        } else {
            None
        }
    }

    /// Every square in SFEN order.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..81).map(|i| Self(i as u8))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    /// A square is written as its name: `"7f"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The letter of rank `rank` (1-9): `a`-`i`.
pub const fn rank_letter(rank: u8) -> char {
    (b'a' + rank - 1) as char
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), rank_letter(self.rank()))
    }
}

from_str_by! {
    /// Reads a square's name, as [`Square::parse`] does.
    ///
    /// ```
    /// use kifu::shogi::Square;
    ///
    /// let square: Square = "7f".parse().unwrap();
    /// assert_eq!((square.file(), square.rank()), (7, 6));
    /// assert_eq!(square.to_string(), "7f");
    /// ```
    Square,
    Square::parse,
    "shogi square (a file 1-9 and a rank a-i, as in 7f)"
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The square named `s` (a test's shorthand).
    pub(in crate::shogi) fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    #[test]
    fn square_names_read_back() {
        for square in Square::all() {
            assert_eq!(Square::parse(&square.to_string()), Some(square));
        }
        for bad in ["", "7", "7f+", "0a", "9j", "a7", "7F", "７f", "+"] {
            assert_eq!(Square::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Square::from_ascii(b'0', b'a'), None);
        assert_eq!(Square::from_ascii(b'/', b'a'), None);
    }

    #[test]
    fn squares_name_and_index_like_sfen() {
        assert_eq!(Square::from_index(0).map(|s| s.to_string()), Some("9a".into()));
        assert_eq!(Square::from_index(80).map(|s| s.to_string()), Some("1i".into()));
        assert_eq!(sq("5e").index(), 40);
    }

    #[test]
    fn from_str_reads_what_display_writes() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert!("7j".parse::<Square>().is_err());
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let s = sq("1a");
        assert_eq!(s.offset(1, 1), Square::new(2, 2));
        assert_eq!(s.offset(-1, 0), None);
        assert_eq!(s.offset(0, -1), None);
        assert_eq!(sq("9i").offset(1, 0), None);
        assert_eq!(sq("9i").offset(0, 1), None);
        assert_eq!(sq("9i").offset(-8, -8), Square::new(1, 1));
    }
}
