//! Sides, roles and pieces, with their letters.

use std::fmt;

use crate::notation::from_str_by;

/// A side. White moves first and writes its pieces in uppercase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Uppercase letters, starts on ranks 1 and 2.
    White,
    /// Lowercase letters, starts on ranks 7 and 8.
    Black,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Self::White => Self::Black,
            Self::Black => Self::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"White"` or `"Black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::White => "White",
            Self::Black => "Black",
        }
    }

    /// The rank this colour's pieces start on (1 or 8).
    pub const fn back_rank(self) -> u8 {
        match self {
            Self::White => 1,
            Self::Black => 8,
        }
    }
}

/// The kinds of chess pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// `P`.
    Pawn,
    /// `N`.
    Knight,
    /// `B`.
    Bishop,
    /// `R`.
    Rook,
    /// `Q`.
    Queen,
    /// `K`.
    King,
}

impl Role {
    /// Every role, in the order P N B R Q K.
    pub const ALL: [Self; 6] = [Self::Pawn, Self::Knight, Self::Bishop, Self::Rook, Self::Queen, Self::King];

    /// The role written with this letter (either case).
    pub const fn from_letter(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            'P' => Self::Pawn,
            'N' => Self::Knight,
            'B' => Self::Bishop,
            'R' => Self::Rook,
            'Q' => Self::Queen,
            'K' => Self::King,
            _ => return None,
        })
    }

    /// The uppercase letter.
    pub const fn letter(self) -> char {
        match self {
            Self::Pawn => 'P',
            Self::Knight => 'N',
            Self::Bishop => 'B',
            Self::Rook => 'R',
            Self::Queen => 'Q',
            Self::King => 'K',
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Pawn => "pawn",
            Self::Knight => "knight",
            Self::Bishop => "bishop",
            Self::Rook => "rook",
            Self::Queen => "queen",
            Self::King => "king",
        }
    }

    /// Index in [`Role::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A piece: colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Its role.
    pub role: Role,
}

impl Piece {
    /// Reads a FEN letter; uppercase is White.
    pub const fn from_letter(c: char) -> Option<Self> {
        match Role::from_letter(c) {
            Some(role) => Some(Self { color: if c.is_ascii_uppercase() { Color::White } else { Color::Black }, role }),
            None => None,
        }
    }

    /// Reads an ASCII piece letter, as [`Piece::from_letter`] does, by table.
    pub fn from_ascii(b: u8) -> Option<Self> {
        const TABLE: [Option<Piece>; 128] = {
            let mut t = [None; 128];
            let mut i = 0;
            while i < Role::ALL.len() {
                let role = Role::ALL[i];
                let upper = role.letter() as u8;
                t[upper as usize] = Some(Piece { color: Color::White, role });
                t[upper.to_ascii_lowercase() as usize] = Some(Piece { color: Color::Black, role });
                i += 1;
            }
            t
        };
        TABLE.get(usize::from(b)).copied().flatten()
    }

    /// Reads a piece as FEN writes it: one letter, uppercase for White; `None` for anything
    /// else.
    pub fn parse(s: &str) -> Option<Self> {
        match *s.as_bytes() {
            [letter] => Self::from_ascii(letter),
            _ => None,
        }
    }

    /// The FEN letter.
    pub const fn letter(self) -> char {
        let c = self.role.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// "White knight", …
    pub fn describe(self) -> String {
        format!("{} {}", self.color.name(), self.role.name())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

from_str_by! {
    /// Reads a piece as FEN writes it: a letter, uppercase for White.
    ///
    /// ```
    /// use kifu::chess::{Color, Piece, Role};
    ///
    /// let knight: Piece = "n".parse().unwrap();
    /// assert_eq!(knight, Piece { color: Color::Black, role: Role::Knight });
    /// assert_eq!(knight.to_string(), "n");
    /// ```
    Piece,
    Piece::parse,
    "chess piece (a letter of PNBRQK, lowercase for Black)"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_letter_table_reads_like_from_letter() {
        for b in 0..=255u8 {
            let by_char = if b.is_ascii() { Piece::from_letter(b as char) } else { None };
            assert_eq!(Piece::from_ascii(b), by_char, "{b}");
        }
    }

    #[test]
    fn pieces_read_back() {
        for role in Role::ALL {
            for color in [Color::White, Color::Black] {
                let piece = Piece { color, role };
                assert_eq!(piece.to_string().parse::<Piece>(), Ok(piece));
            }
        }
        for bad in ["", "x", "NN", "+N"] {
            assert!(bad.parse::<Piece>().is_err(), "{bad:?}");
        }
    }
}
