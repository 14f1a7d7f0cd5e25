//! The 64 squares and their names (`e4`).

use std::fmt;

use crate::notation::from_str_by;

/// A square, file a-h and rank 1-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(super) u8);

impl Square {
    /// The square on `file` (0-7 for a-h) and `rank` (1-8).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Self> {
        if file < 8 && rank >= 1 && rank <= 8 {
            Some(Self((8 - rank) * 8 + file))
        } else {
            None
        }
    }

    /// The square at `index`, counted the way FEN writes the board: a8, b8, … h8, a7, … h1.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Self> {
        if index < 64 {
            Some(Self(index as u8))
        } else {
            None
        }
    }

    /// Reads `e3`.
    pub fn parse(s: &str) -> Option<Self> {
        let b = s.as_bytes();
        match b {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Self::new(f - b'a', r - b'0'),
            _ => None,
        }
    }

    /// Index in FEN order (0 for a8, 63 for h1).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0-7 for a-h.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank, 1-8.
    #[inline]
    pub const fn rank(self) -> u8 {
        8 - self.0 / 8
    }

    /// True for a light square (h1 is light).
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    #[inline]
    pub fn offset(self, df: i8, dr: i8) -> Option<Self> {
        // Plain signed arithmetic: on the hot path of the check finders, it is faster than
        // `checked_add_signed` (measured).
        let (f, r) = (self.file() as i8 + df, self.rank() as i8 + dr);
        if (0..8).contains(&f) && (1..=8).contains(&r) {
            Some(Self(((8 - r) * 8 + f) as u8))
        } else {
            None
        }
    }

    /// Every square in FEN order.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..64).map(|i| Self(i as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

from_str_by! {
    /// Reads a square's name, as [`Square::parse`] does.
    ///
    /// ```
    /// use kifu::chess::Square;
    ///
    /// let e4: Square = "e4".parse().unwrap();
    /// assert_eq!((e4.file(), e4.rank()), (4, 4));
    /// assert_eq!(e4.to_string(), "e4");
    /// assert!("e9".parse::<Square>().is_err());
    /// ```
    Square,
    Square::parse,
    "chess square (a file a-h and a rank 1-8, as in e4)"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        assert_eq!(Square::from_index(0).map(|s| s.to_string()), Some("a8".into()));
        assert_eq!(Square::parse("h1").map(Square::index), Some(63));
        assert!(Square::parse("h1").is_some_and(Square::is_light));
        assert!(!Square::parse("a1").is_some_and(Square::is_light));
    }

    #[test]
    fn names_read_back_and_offsets_stay_on_the_board() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        let a1 = Square::parse("a1").expect("a1");
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(0, -1), None);
        assert_eq!(a1.offset(7, 7), Square::parse("h8"));
        assert_eq!(a1.offset(8, 0), None);
    }
}
