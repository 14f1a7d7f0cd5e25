//! Shogi's vocabulary: colours, pieces, squares, boards and hands, and how pieces attack.

use std::fmt;

pub mod rules;

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

    /// How many pieces of this kind one set holds: K 2, R 2, B 2, G 4, S 4, N 4, L 4, P 18.
    pub const fn supply(self) -> u32 {
        match self {
            Self::Pawn => 18,
            Self::Lance | Self::Knight | Self::Silver | Self::Gold => 4,
            Self::Bishop | Self::Rook | Self::King => 2,
        }
    }

    /// Index in [`PieceKind::ALL`] (and in a [`Hand`] for all but the king).
    pub const fn index(self) -> usize {
        self as usize
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

    /// "Black pawn", "White promoted rook", …
    pub fn describe(self) -> String {
        let promoted = if self.promoted { "promoted " } else { "" };
        format!("{} {promoted}{}", self.color.name(), self.kind.name())
    }

    /// True when this piece can never move from `square` again: an unpromoted pawn or lance on
    /// its owner's last rank, an unpromoted knight on its last two.
    pub fn is_dead_on(self, square: Square) -> bool {
        if self.promoted {
            return false;
        }
        // Ranks counted from the owner's far side: 1 is the last rank.
        let from_far = match self.color {
            Color::Black => square.rank(),
            Color::White => 10 - square.rank(),
        };
        match self.kind {
            PieceKind::Pawn | PieceKind::Lance => from_far == 1,
            PieceKind::Knight => from_far <= 2,
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

/// A square, by file 1-9 (right to left from Black's side) and rank a-i (top to bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (1-9) and `rank` (1-9, for a-i); `None` off the board.
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
    pub const fn from_index(index: usize) -> Option<Self> {
        if index < 81 {
            Some(Self(index as u8))
        } else {
            None
        }
    }

    /// Index in SFEN order (0 for 9a, 80 for 1i).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 1-9.
    pub const fn file(self) -> u8 {
        9 - self.0 % 9
    }

    /// Rank, 1-9 (a-i).
    pub const fn rank(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The square `df` files and `dr` ranks away (file numbers grow to the left, ranks
    /// downwards), if on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Self> {
        let file = self.file() as i8 + df;
        let rank = self.rank() as i8 + dr;
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

#[cfg(feature = "serde")]
impl serde::Serialize for PieceKind {
    /// A kind is written as its letter: `"P"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_char(self.letter())
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

/// The 81 squares.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board(pub [Option<Piece>; 81]);

impl Default for Board {
    fn default() -> Self {
        Self([None; 81])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.pieces().map(|(sq, p)| (sq.to_string(), p.to_string()))).finish()
    }
}

impl Board {
    /// The piece on `square`.
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.0[square.index()]
    }

    /// Puts `piece` on `square`.
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        self.0[square.index()] = piece;
    }

    /// Every occupied square and its piece, in SFEN order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// Where `color`'s kings stand.
    pub fn kings(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.pieces().filter(move |(_, p)| p.color == color && p.kind == PieceKind::King).map(|(s, _)| s)
    }

    /// True when the piece on `from` attacks `to`.
    pub fn attacks(&self, from: Square, to: Square) -> bool {
        let Some(piece) = self.get(from) else {
            return false;
        };
        // Most pieces are far from the target and cannot reach it along a line: say so fast.
        let (fd, rd) = (from.file().abs_diff(to.file()), from.rank().abs_diff(to.rank()));
        if fd > 2 || rd > 2 {
            let line = match piece.kind {
                PieceKind::Rook => fd == 0 || rd == 0,
                PieceKind::Bishop => fd == rd,
                PieceKind::Lance => fd == 0 && !piece.promoted,
                _ => false,
            };
            if !line {
                return false;
            }
        }
        // Work in Black's frame: forward is towards rank a (dr = -1).
        let fwd: i8 = if piece.color == Color::Black { 1 } else { -1 };
        let df = to.file() as i8 - from.file() as i8;
        let dr = (to.rank() as i8 - from.rank() as i8) * fwd; // forward is negative
        let (adf, adr) = (df.abs(), dr.abs());
        let step = adf <= 1 && adr <= 1 && (adf, adr) != (0, 0);
        let gold = step && !(dr == 1 && adf == 1);
        let slide = |sdf: i8, sdr: i8| -> bool {
            // Is `to` on the ray from `from` in direction (sdf, sdr) (board frame) with nothing between?
            let mut sq = from;
            while let Some(next) = sq.offset(sdf, sdr) {
                if next == to {
                    return true;
                }
                if self.get(next).is_some() {
                    return false;
                }
                sq = next;
            }
            false
        };
        let dir = |d: i8| d.signum();
        let board_dr = to.rank() as i8 - from.rank() as i8;
        let orth = (df == 0) != (board_dr == 0);
        let diag = adf == adr && adf != 0;
        match (piece.kind, piece.promoted) {
            (PieceKind::King, _) => step,
            (PieceKind::Gold, _)
            | (PieceKind::Silver | PieceKind::Knight | PieceKind::Lance | PieceKind::Pawn, true) => gold,
            (PieceKind::Silver, false) => step && (dr == -1 || (adf == 1 && adr == 1)),
            (PieceKind::Knight, false) => dr == -2 && adf == 1,
            (PieceKind::Pawn, false) => dr == -1 && df == 0,
            (PieceKind::Lance, false) => df == 0 && dr < 0 && slide(0, dir(board_dr)),
            (PieceKind::Rook, promoted) => (orth && slide(dir(df), dir(board_dr))) || (promoted && step),
            (PieceKind::Bishop, promoted) => (diag && slide(dir(df), dir(board_dr))) || (promoted && step),
        }
    }

    /// The squares of `by`'s pieces that attack `target`.
    ///
    /// Looks outwards from `target`: the first piece along each of the eight lines, and the two
    /// squares a knight of `by` could jump from. No other piece can attack it.
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        const LINES: [(i8, i8); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)];
        let mut found = Vec::new();
        for (df, dr) in LINES {
            let mut sq = target;
            while let Some(next) = sq.offset(df, dr) {
                sq = next;
                if let Some(p) = self.get(sq) {
                    if p.color == by && self.attacks(sq, target) {
                        found.push(sq);
                    }
                    break;
                }
            }
        }
        // A knight of `by` jumps forward: from two ranks behind the target, as `by` sees it.
        let back: i8 = if by == Color::Black { 2 } else { -2 };
        for df in [-1, 1] {
            if let Some(sq) = target.offset(df, back) {
                if self.get(sq).is_some_and(|p| p.color == by) && self.attacks(sq, target) {
                    found.push(sq);
                }
            }
        }
        found.sort_unstable();
        found
    }
}

/// The pieces a side holds in hand, counted per kind in the order P L N S G B R.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub [u32; 7]);

impl Hand {
    /// How many of `kind` (0 for the king).
    pub fn count(&self, kind: PieceKind) -> u32 {
        self.0.get(kind.index()).copied().unwrap_or(0)
    }

    /// Adds `n` of `kind` (a king is ignored: it is never in hand).
    pub fn add(&mut self, kind: PieceKind, n: u32) {
        if let Some(c) = self.0.get_mut(kind.index()) {
            *c = c.saturating_add(n);
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(PieceKind::ALL[..7].iter().filter(|k| self.count(**k) > 0).map(|k| (k.letter(), self.count(*k))))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
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
    fn pieces_attack_as_in_shogi() {
        let mut b = Board::default();
        let put = |b: &mut Board, s: &str, c: char, promoted: bool| b.set(sq(s), Piece::from_letter(c, promoted));
        put(&mut b, "5e", 'N', false);
        assert!(b.attacks(sq("5e"), sq("4c")) && b.attacks(sq("5e"), sq("6c")));
        assert!(!b.attacks(sq("5e"), sq("4g")));
        put(&mut b, "5e", 'n', false);
        assert!(b.attacks(sq("5e"), sq("4g")) && !b.attacks(sq("5e"), sq("4c")));
        put(&mut b, "5e", 'S', false);
        assert!(b.attacks(sq("5e"), sq("4f")) && !b.attacks(sq("5e"), sq("5f")) && !b.attacks(sq("5e"), sq("4e")));
        put(&mut b, "5e", 'G', false);
        assert!(b.attacks(sq("5e"), sq("5f")) && !b.attacks(sq("5e"), sq("4f")) && b.attacks(sq("5e"), sq("4d")));
        put(&mut b, "5e", 'L', false);
        assert!(b.attacks(sq("5e"), sq("5a")) && !b.attacks(sq("5e"), sq("5f")));
        put(&mut b, "5c", 'p', false);
        assert!(!b.attacks(sq("5e"), sq("5a")) && b.attacks(sq("5e"), sq("5c")));
        put(&mut b, "5e", 'B', true);
        assert!(b.attacks(sq("5e"), sq("5f")) && b.attacks(sq("5e"), sq("1a")) && !b.attacks(sq("5e"), sq("5g")));
        put(&mut b, "5e", 'r', false);
        assert!(b.attacks(sq("5e"), sq("5i")) && b.attacks(sq("5e"), sq("5c")) && !b.attacks(sq("5e"), sq("5b")));
        assert!(!b.attacks(sq("5e"), sq("4d")));
    }

    #[test]
    fn attackers_agree_with_every_piece_tried() {
        // A crowded board: every attacker found by looking out from the target is one that
        // attacks it by the piece's own moves, and none is missed.
        let rows =
            ["l+n1gk2+R", "1r1s2s1+B", "p1pp1pnp1", "1p2P1p1p", "2P1b4", "P2pSN2P", "1PN1P1P2", "2G1G4", "LN1K3L+s"];
        let mut board = Board::default();
        for (r, row) in rows.iter().enumerate() {
            let mut f = 0;
            let mut promoted = false;
            for c in row.chars() {
                match c {
                    '+' => promoted = true,
                    d if d.is_ascii_digit() => f += d as usize - '0' as usize,
                    c => {
                        board.0[r * 9 + f] = Piece::from_letter(c, promoted);
                        promoted = false;
                        f += 1;
                    }
                }
            }
        }
        for target in Square::all() {
            for by in [Color::Black, Color::White] {
                let brute: Vec<Square> = board
                    .pieces()
                    .filter(|(sq, p)| p.color == by && board.attacks(*sq, target))
                    .map(|(sq, _)| sq)
                    .collect();
                assert_eq!(board.attackers(target, by), brute, "{target} by {by:?}");
            }
        }
    }

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
    }
}
