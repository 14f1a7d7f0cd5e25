//! Chess's vocabulary: colours, roles, pieces, squares and boards, and how pieces attack.

use std::fmt;

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

/// A square, file a-h and rank 1-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0-7 for a-h) and `rank` (1-8).
    pub const fn new(file: u8, rank: u8) -> Option<Self> {
        if file < 8 && rank >= 1 && rank <= 8 {
            Some(Self((8 - rank) * 8 + file))
        } else {
            None
        }
    }

    /// The square at `index`, counted the way FEN writes the board: a8, b8, … h8, a7, … h1.
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
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0-7 for a-h.
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank, 1-8.
    pub const fn rank(self) -> u8 {
        8 - self.0 / 8
    }

    /// True for a light square (h1 is light).
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Self> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if (0..8).contains(&f) && (1..=8).contains(&r) {
            Self::new(f as u8, r as u8)
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

/// The 64 squares.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board(pub [Option<Piece>; 64]);

impl Default for Board {
    fn default() -> Self {
        Self([None; 64])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.pieces().map(|(sq, p)| (sq.to_string(), p.letter()))).finish()
    }
}

const ROOK_LINES: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const BISHOP_LINES: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_JUMPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

impl Board {
    /// The piece on `square`.
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.0[square.index()]
    }

    /// Every occupied square and its piece, in FEN order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The squares of `by`'s pieces that attack `target`: the first piece along each line, the
    /// knights a jump away, and pawns and kings next to it.
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        let mut found = Vec::new();
        let mine = |sq: Square, roles: &[Role]| self.get(sq).is_some_and(|p| p.color == by && roles.contains(&p.role));
        for (lines, sliders) in [(ROOK_LINES, [Role::Rook, Role::Queen]), (BISHOP_LINES, [Role::Bishop, Role::Queen])] {
            for (df, dr) in lines {
                let mut sq = target;
                let mut first = true;
                while let Some(next) = sq.offset(df, dr) {
                    sq = next;
                    if let Some(p) = self.get(sq) {
                        if p.color == by && (sliders.contains(&p.role) || (first && p.role == Role::King)) {
                            found.push(sq);
                        }
                        break;
                    }
                    first = false;
                }
            }
        }
        for (df, dr) in KNIGHT_JUMPS {
            if let Some(sq) = target.offset(df, dr).filter(|sq| mine(*sq, &[Role::Knight])) {
                found.push(sq);
            }
        }
        // A pawn of `by` attacks diagonally forward: it stands one rank behind, as `by` sees it.
        let back: i8 = if by == Color::White { -1 } else { 1 };
        for df in [-1, 1] {
            if let Some(sq) = target.offset(df, back).filter(|sq| mine(*sq, &[Role::Pawn])) {
                found.push(sq);
            }
        }
        found.sort_unstable();
        found
    }

    /// True when the piece on `from` checks along a line from afar (a rook, bishop or queen at
    /// a distance), the only kind of check a move can uncover.
    pub fn checks_from_afar(&self, from: Square, king: Square) -> bool {
        let far = from.file().abs_diff(king.file()).max(from.rank().abs_diff(king.rank())) > 1;
        far && self.get(from).is_some_and(|p| matches!(p.role, Role::Rook | Role::Bishop | Role::Queen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(placement: &str) -> Board {
        let mut b = Board::default();
        for (r, row) in placement.split('/').enumerate() {
            let mut f = 0;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(n) => f += n as usize,
                    None => {
                        b.0[r * 8 + f] = Piece::from_letter(c);
                        f += 1;
                    }
                }
            }
        }
        b
    }

    #[test]
    fn the_letter_table_reads_like_from_letter() {
        for b in 0..=255u8 {
            let by_char = if b.is_ascii() { Piece::from_letter(b as char) } else { None };
            assert_eq!(Piece::from_ascii(b), by_char, "{b}");
        }
    }

    #[test]
    fn squares() {
        assert_eq!(Square::from_index(0).map(|s| s.to_string()), Some("a8".into()));
        assert_eq!(Square::parse("h1").map(Square::index), Some(63));
        assert!(Square::parse("h1").is_some_and(Square::is_light));
        assert!(!Square::parse("a1").is_some_and(Square::is_light));
    }

    #[test]
    fn attackers_match_the_moves_of_each_piece() {
        let b = board("4k3/8/8/3q4/8/2N5/1P6/R3K3");
        let e1 = Square::parse("e1").expect("e1");
        assert_eq!(b.attackers(Square::parse("d5").expect("d5"), Color::White), vec![Square::parse("c3").expect("c3")]);
        assert!(b.attackers(e1, Color::Black).is_empty(), "the queen on d5 does not reach e1");
        assert_eq!(b.attackers(Square::parse("c3").expect("c3"), Color::White), vec![Square::parse("b2").expect("b2")]);
        assert_eq!(b.attackers(Square::parse("a5").expect("a5"), Color::Black), vec![Square::parse("d5").expect("d5")]);
        assert_eq!(b.attackers(Square::parse("a8").expect("a8"), Color::White), vec![Square::parse("a1").expect("a1")]);
        assert_eq!(b.attackers(Square::parse("d7").expect("d7"), Color::Black).len(), 2, "king and queen");
    }
}
