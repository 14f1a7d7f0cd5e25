//! Board diagrams: text ([`text`]), SVG ([`svg`]) and a self-contained HTML page (`kifu board --html`),
//! for shogi positions (SFEN, a PSN game's positions) and chess positions (FEN).
//!
//! A diagram is drawn from a position alone. A game is a sequence of [`Frame`]s — each a
//! position, the move that led to it and the squares to highlight — and the HTML page shows
//! it with a move list that steps through the frames.

machinery! { mod html; }
pub mod svg;
pub mod text;

pub use crate::shogi::kanji::piece as kanji;
use crate::shogi::Move;
use crate::shogi::{Color, Piece, PieceKind, Position, Square};

/// How shogi pieces are named in a diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Names {
    /// SFEN's letters: uppercase for Black, lowercase for White, `+` before a promoted piece.
    #[default]
    Letters,
    /// Kanji, as on real pieces: 歩 香 桂 銀 金 角 飛 玉, promoted と 杏 圭 全 馬 龍.
    Kanji,
}

/// One position of a sequence: a game's position after a move, or a lone record's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The move that led to this position ("7g7f", "P-7f"), or `None` for a start position.
    pub label: Option<String>,
    /// The position.
    pub position: Position,
    /// Squares to highlight: the last move's origin and destination (just the destination for a
    /// drop).
    pub last_move: Vec<Square>,
}

impl Frame {
    /// A position without a move.
    pub fn position(position: Position) -> Self {
        Self { label: None, position, last_move: Vec::new() }
    }
}

/// The frames of a sequence of positions, each with the label of the move that led to it.
/// The squares to highlight are found by comparing each position with the one before: the
/// squares whose piece changed (a move's origin and destination, a drop's square).
pub fn frames(sequence: &[(Option<String>, Position)]) -> Vec<Frame> {
    let mut out: Vec<Frame> = Vec::with_capacity(sequence.len());
    for (i, (label, position)) in sequence.iter().enumerate() {
        let last_move = match i.checked_sub(1).and_then(|j| sequence.get(j)) {
            Some((_, before)) => {
                Square::all().filter(|sq| before.board.get(*sq) != position.board.get(*sq)).take(2).collect()
            }
            None => Vec::new(),
        };
        out.push(Frame { label: label.clone(), position: position.clone(), last_move });
    }
    out
}

/// What a diagram shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diagram {
    /// A shogi position, or a game's positions in order (at least one).
    Shogi(Vec<Frame>),
    /// A chess position, with squares to highlight.
    Chess(crate::chess::Position, Vec<crate::chess::Square>),
}

impl Diagram {
    /// The last position as text: the 9×9 diagram for shogi, the FEN description's board for
    /// chess.
    pub fn text(&self, style: text::Style) -> Option<String> {
        match self {
            Self::Shogi(frames) => frames.last().map(|f| text::shogi(&f.position, style)),
            Self::Chess(p, _) => Some(p.diagram()),
        }
    }

    /// The last position as an SVG image, its last move (or the squares to highlight) shaded.
    pub fn svg(&self, names: Names) -> Option<String> {
        match self {
            Self::Shogi(frames) => frames.last().map(|f| svg::shogi(&f.position, names, &f.last_move)),
            Self::Chess(p, last) => Some(svg::chess(p, last)),
        }
    }
}

/// A piece's name in `names`: `+P`, `p`, `と`.
pub(crate) fn piece_name(piece: Piece, names: Names) -> String {
    match names {
        Names::Letters => piece.to_string(),
        Names::Kanji => kanji(piece.kind, piece.promoted).to_string(),
    }
}

/// The kinds a hand holds and how many, in USI order (R B G S N L P).
pub fn hand_entries(position: &Position, color: Color) -> Vec<(PieceKind, u32)> {
    let hand = position.hand(color);
    PieceKind::USI_HAND_ORDER.iter().map(|k| (*k, hand.count(*k))).filter(|(_, n)| *n > 0).collect()
}

/// Reads a USI move (`7g7f`, `7g7f+`, `P*5e`) with [`Move::from_usi`], the crate's one USI
/// reader, and gives its squares for highlighting: origin and destination, or a drop's square.
pub fn shogi_move_squares(text: &str) -> Option<Vec<Square>> {
    Some(move_squares(Move::from_usi(text)?))
}

/// A shogi move's squares for highlighting: origin and destination, or a drop's square.
pub fn move_squares(mv: Move) -> Vec<Square> {
    match mv {
        Move::Board { from, to, .. } => vec![from, to],
        Move::Drop { to, .. } => vec![to],
    }
}

/// Reads a chess move's squares for highlighting: UCI (`e2e4`, `e7e8q`).
pub fn chess_move_squares(text: &str) -> Option<Vec<crate::chess::Square>> {
    let from = crate::chess::Square::parse(text.get(..2)?)?;
    let to = crate::chess::Square::parse(text.get(2..4)?)?;
    matches!(text.len(), 4 | 5).then(|| vec![from, to])
}

/// `s` for XML text and attributes: `&`, `<`, `>`, `"` and `'` escaped, and the characters
/// that must not be shown as they are (control characters, bidirectional controls) written
/// visibly as their escapes (`\u{202e}`), as reports write them
/// ([`crate::diagnostic::escape_unsafe`]).
pub fn escape(s: &str) -> String {
    let shown = crate::diagnostic::escape_unsafe(s);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
