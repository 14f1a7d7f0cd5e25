//! SVG 1.1 diagrams, hand-written: no external files, no fonts beyond the viewer's own
//! (generic families only).
//!
//! A shogi diagram has the board (a grid with its four star points), file numbers 9…1 above
//! and rank letters a…i on the right, one `<g class="piece …">` per piece — a five-sided piece
//! shape and its name, White's turned 180° as on a real board, promoted names in red — White's
//! hand above the board and Black's below, each with its side's mark (▲ Black, △ White) and
//! the side to move's name in bold, and the last move's squares shaded when given. A chess diagram has a checkered board, coordinates,
//! one `<text class="piece …">` per piece with the Unicode chess glyphs, and the side to move.

use std::fmt::Write as _;

use super::{escape, hand_entries, kanji, piece_name, Names};
use crate::chess;
use crate::shogi::Position;
use crate::shogi::{rank_letter, Color, Piece, Square};

/// The side of a shogi square, in SVG units.
pub const SQUARE: u32 = 44;
const BOARD_X: u32 = 14;
const HAND_H: u32 = 34;
const BOARD_Y: u32 = HAND_H + 22;
const BOARD: u32 = 9 * SQUARE;
/// The width of a shogi diagram.
pub(crate) const WIDTH: u32 = BOARD_X + BOARD + 30;
/// The height of a shogi diagram.
pub(crate) const HEIGHT: u32 = BOARD_Y + BOARD + 8 + HAND_H + 24;

const FONT: &str = "font-family=\"'DejaVu Sans', 'Noto Sans CJK JP', sans-serif\"";
const PROMOTED: &str = "#c00000";

/// The SVG of a shogi position, with `last_move`'s squares shaded.
pub fn shogi(position: &Position, names: Names, last_move: &[Square]) -> String {
    let mut s = String::with_capacity(8192);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" class=\"kifu-board shogi\" {FONT}>"
    );
    let _ = write!(s, "<title>{}</title>", escape(&position.to_string()));
    let _ = write!(
        s,
        "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>"
    );
    shogi_board(&mut s, last_move);
    shogi_coordinates(&mut s, names);
    for (sq, piece) in position.board.pieces() {
        shogi_piece(&mut s, sq, piece, names);
    }
    // Hands and the side to move.
    for color in [Color::White, Color::Black] {
        shogi_hand(&mut s, position, color, names);
    }
    let side = match position.move_number {
        Some(n) => format!("{} to move, move {n}", position.side.name()),
        None => format!("{} to move", position.side.name()),
    };
    let _ = write!(
        s,
        "<text class=\"side\" x=\"{BOARD_X}\" y=\"{}\" font-size=\"14\" fill=\"#000\">{side}</text>",
        HEIGHT - 8
    );
    s.push_str("</svg>");
    s
}

/// The board, the last move's squares, the grid and the star points.
fn shogi_board(s: &mut String, last_move: &[Square]) {
    let _ = write!(
        s,
        "<rect class=\"board\" x=\"{BOARD_X}\" y=\"{BOARD_Y}\" width=\"{BOARD}\" height=\"{BOARD}\" fill=\"#e8c47c\" stroke=\"#3a2a10\" stroke-width=\"2\"/>"
    );
    // In board order, however the squares were found (a move's origin and destination, or the
    // squares that changed), so that one picture is one text.
    for sq in Square::all().filter(|sq| last_move.contains(sq)) {
        let (x, y) = corner(sq);
        let _ = write!(
            s,
            "<rect class=\"last-move\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"#f6e05e\" fill-opacity=\"0.8\"/>"
        );
    }
    let mut grid = String::new();
    for i in 1..9 {
        let at = i * SQUARE;
        let _ = write!(grid, "M{} {}h{BOARD}M{} {}v{BOARD}", BOARD_X, BOARD_Y + at, BOARD_X + at, BOARD_Y);
    }
    let _ = write!(s, "<path class=\"grid\" d=\"{grid}\" stroke=\"#3a2a10\" stroke-width=\"1\" fill=\"none\"/>");
    for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        let _ = write!(
            s,
            "<circle class=\"star\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#3a2a10\"/>",
            BOARD_X + i * SQUARE,
            BOARD_Y + j * SQUARE
        );
    }
}

/// The file numbers above the board and the ranks on its right: letters, or kanji numerals
/// (一…九) with kanji names, as Japanese diagrams write them.
fn shogi_coordinates(s: &mut String, names: Names) {
    for file in 1..=9u32 {
        let x = BOARD_X + (9 - file) * SQUARE + SQUARE / 2;
        let _ = write!(s, "<text class=\"coord\" x=\"{x}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#333\">{file}</text>", BOARD_Y - 7);
    }
    for rank in 1..=9u8 {
        let y = BOARD_Y + u32::from(rank - 1) * SQUARE + SQUARE / 2 + 5;
        let _ = write!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{y}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
            BOARD_X + BOARD + 14,
            rank_label(rank, names)
        );
    }
}

/// Rank `rank` (1-9) as a diagram with `names` labels it.
fn rank_label(rank: u8, names: Names) -> String {
    match names {
        Names::Kanji => crate::shogi::kanji::number(u32::from(rank)),
        _ => rank_letter(rank).to_string(),
    }
}

/// A piece on its square: the piece's shape and name, White's turned.
fn shogi_piece(s: &mut String, sq: Square, piece: Piece, names: Names) {
    let (x, y) = corner(sq);
    let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
    let (class, turn) = match piece.color {
        Color::Black => ("black", String::new()),
        Color::White => ("white", " rotate(180)".to_owned()),
    };
    let promoted = if piece.promoted { " promoted" } else { "" };
    let fill = if piece.promoted { PROMOTED } else { "#000000" };
    let name = match names {
        Names::Letters => piece.to_string().to_ascii_uppercase(),
        Names::Kanji => piece_name(piece, names),
    };
    let size = if name.chars().count() > 1 { 17 } else { 21 };
    let _ = write!(
        s,
        "<g class=\"piece {class}{promoted}\" transform=\"translate({cx} {cy}){turn}\"><title>{} on {sq}</title>\
         <path d=\"M0 -19L13 -13L16 18L-16 18L-13 -13Z\" fill=\"#fbe6b4\" stroke=\"#5a4320\" stroke-width=\"1.2\"/>\
         <text x=\"0\" y=\"9\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"{fill}\">{}</text></g>",
        escape(&piece.describe()),
        escape(&name)
    );
}

/// `color`'s hand: the side's mark (▲ Black, △ White, as every Japanese diagram writes them,
/// whoever is to move), its name, bold for the side to move, and its pieces.
fn shogi_hand(s: &mut String, position: &Position, color: Color, names: Names) {
    let y = match color {
        Color::White => HAND_H / 2 + 6,
        Color::Black => BOARD_Y + BOARD + 8 + HAND_H / 2 + 6,
    };
    let mark = if color == Color::Black { "▲" } else { "△" };
    let to_move = position.side == color;
    let _ = write!(s, "<g class=\"hand {}\">", if color == Color::Black { "black" } else { "white" });
    let _ = write!(
        s,
        "<text class=\"mark {}\" x=\"{BOARD_X}\" y=\"{y}\" font-size=\"15\" fill=\"#000\">{mark}</text>",
        if to_move { "to-move" } else { "waiting" }
    );
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{y}\" font-size=\"15\"{} fill=\"#000\">{}</text>",
        BOARD_X + 20,
        if to_move { " font-weight=\"bold\"" } else { "" },
        color.name()
    );
    let mut x = BOARD_X + 80;
    let entries = hand_entries(position, color);
    if entries.is_empty() {
        let _ = write!(s, "<text x=\"{x}\" y=\"{y}\" font-size=\"14\" fill=\"#666\">no pieces in hand</text>");
    }
    for (kind, n) in entries {
        let name = match names {
            Names::Letters => kind.letter().to_string(),
            Names::Kanji => kanji(kind, false).to_string(),
        };
        let count = if n > 1 { format!("<tspan font-size=\"12\">×{n}</tspan>") } else { String::new() };
        let _ = write!(
            s,
            "<text class=\"hand-piece\" x=\"{x}\" y=\"{y}\" font-size=\"18\" fill=\"#000\"><title>{n} {}</title>{name}{count}</text>",
            if n > 1 { kind.plural() } else { kind.name() }
        );
        x += if n > 1 { 44 } else { 28 };
    }
    s.push_str("</g>");
}

/// The top left corner of a square.
fn corner(sq: Square) -> (u32, u32) {
    (BOARD_X + u32::from(9 - sq.file()) * SQUARE, BOARD_Y + u32::from(sq.rank() - 1) * SQUARE)
}

/// The side of a chess square.
pub(crate) const CHESS_SQUARE: u32 = 48;
const CHESS_X: u32 = 24;
const CHESS_Y: u32 = 10;
/// The width of a chess diagram.
pub(crate) const CHESS_WIDTH: u32 = CHESS_X + 8 * CHESS_SQUARE + 10;
/// The height of a chess diagram.
pub(crate) const CHESS_HEIGHT: u32 = CHESS_Y + 8 * CHESS_SQUARE + 48;

/// The glyph of a chess piece (the solid glyphs for both sides, filled white or black), with
/// U+FE0E so that the pawn is never drawn as an emoji.
pub(crate) fn chess_glyph(role: chess::Role) -> &'static str {
    match role {
        chess::Role::King => "\u{265A}\u{FE0E}",
        chess::Role::Queen => "\u{265B}\u{FE0E}",
        chess::Role::Rook => "\u{265C}\u{FE0E}",
        chess::Role::Bishop => "\u{265D}\u{FE0E}",
        chess::Role::Knight => "\u{265E}\u{FE0E}",
        chess::Role::Pawn => "\u{265F}\u{FE0E}",
    }
}

/// The SVG of a chess position, with `highlight`'s squares shaded.
pub fn chess(position: &chess::Position, highlight: &[chess::Square]) -> String {
    let (w, h, q) = (CHESS_WIDTH, CHESS_HEIGHT, CHESS_SQUARE);
    let mut s = String::with_capacity(8192);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" class=\"kifu-board chess\" {FONT}>"
    );
    let _ = write!(s, "<title>{}</title>", escape(&position.to_string()));
    let _ = write!(s, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
    for sq in chess::Square::all() {
        let x = CHESS_X + u32::from(sq.file()) * q;
        let y = CHESS_Y + u32::from(8 - sq.rank()) * q;
        let fill = match (sq.is_light(), highlight.contains(&sq)) {
            (true, false) => "#f0d9b5",
            (false, false) => "#b58863",
            (true, true) => "#f6e05e",
            (false, true) => "#d4b531",
        };
        let class = if highlight.contains(&sq) { "square last-move" } else { "square" };
        let _ = write!(s, "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{q}\" height=\"{q}\" fill=\"{fill}\"/>");
    }
    let _ = write!(
        s,
        "<rect class=\"board\" x=\"{CHESS_X}\" y=\"{CHESS_Y}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>",
        8 * q,
        8 * q
    );
    for file in 0..8u32 {
        let _ = write!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
            CHESS_X + file * q + q / 2,
            CHESS_Y + 8 * q + 16,
            char::from(b'a' + file as u8)
        );
    }
    for rank in 1..=8u32 {
        let _ = write!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#333\">{rank}</text>",
            CHESS_X / 2,
            CHESS_Y + (8 - rank) * q + q / 2 + 5
        );
    }
    for (sq, piece) in position.board.pieces() {
        let x = CHESS_X + u32::from(sq.file()) * q + q / 2;
        let y = CHESS_Y + u32::from(8 - sq.rank()) * q + q / 2 + 13;
        let (class, fill) = match piece.color {
            chess::Color::White => ("white", "#ffffff"),
            chess::Color::Black => ("black", "#000000"),
        };
        let _ = write!(
            s,
            "<text class=\"piece {class}\" x=\"{x}\" y=\"{y}\" font-size=\"38\" text-anchor=\"middle\" fill=\"{fill}\" stroke=\"#000000\" stroke-width=\"1.2\"><title>{} on {sq}</title>{}</text>",
            escape(&piece.describe()),
            chess_glyph(piece.role)
        );
    }
    let _ = write!(
        s,
        "<text class=\"side\" x=\"{CHESS_X}\" y=\"{}\" font-size=\"14\" fill=\"#000\">{} to move, move {}</text>",
        h - 8,
        position.side.name(),
        position.fullmove
    );
    s.push_str("</svg>");
    s
}
