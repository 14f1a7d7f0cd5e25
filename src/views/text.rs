//! Text diagrams of shogi positions: a 9×9 board with files 9…1 above and ranks a…i on the
//! right (一…九 in kanji), White's hand above it, Black's below, and the side to move.
//!
//! ```text
//! White in hand: none
//!   9  8  7  6  5  4  3  2  1
//! ┌───────────────────────────┐
//! │ l  n  s  g  k  g  s  n  l │ a
//! │ ·  r  ·  ·  ·  ·  ·  b  · │ b
//! …
//! ```
//!
//! Letters are SFEN's (uppercase Black, lowercase White) with `+` before a promoted piece;
//! [`Style::Ascii`] keeps to ASCII; [`Style::Kanji`] writes kanji, White's marked `v` and
//! promoted ones with their own kanji (と 杏 圭 全 馬 龍), as BOD diagrams do.

use std::fmt::Write as _;

use super::{hand_entries, kanji};
use crate::shogi::Position;
use crate::shogi::{rank_letter, Color, PieceKind, Square};

/// How a text diagram is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// Letters, box-drawing lines, `·` for an empty square, `×` before a count.
    #[default]
    Unicode,
    /// Letters and ASCII only: `+-|`, `.` for an empty square, `x` before a count.
    Ascii,
    /// Kanji pieces, counts and labels.
    Kanji,
}

/// The diagram of `position`, ending with a line break.
pub fn shogi(position: &Position, style: Style) -> String {
    let mut s = String::with_capacity(1024);
    let _ = writeln!(s, "{}", hand_line(position, Color::White, style));
    s.push(' ');
    for file in (1..=9u8).rev() {
        match style {
            Style::Kanji => {
                let _ = write!(s, " {}", char::from_u32(0xFF10 + u32::from(file)).unwrap_or('?'));
            }
            _ => {
                let _ = write!(s, " {file} ");
            }
        }
    }
    let header_end = s.trim_end_matches(' ').len();
    s.truncate(header_end);
    s.push('\n');
    let (top, bottom, side) = match style {
        Style::Unicode => ("┌", "└", '│'),
        _ => ("+", "+", '|'),
    };
    let (corner_r, corner_br, dash) = match style {
        Style::Unicode => ("┐", "┘", "─"),
        _ => ("+", "+", "-"),
    };
    let _ = writeln!(s, "{top}{}{corner_r}", dash.repeat(27));
    for rank in 1..=9u8 {
        s.push(side);
        for file in (1..=9u8).rev() {
            let piece = Square::new(file, rank).and_then(|sq| position.board.get(sq));
            match (piece, style) {
                (None, Style::Unicode) => s.push_str(" · "),
                (None, Style::Ascii) => s.push_str(" . "),
                (None, Style::Kanji) => s.push_str(" ・"),
                (Some(p), Style::Kanji) => {
                    s.push(if p.color == Color::White { 'v' } else { ' ' });
                    s.push(kanji(p.kind, p.promoted));
                }
                (Some(p), _) => {
                    s.push(if p.promoted { '+' } else { ' ' });
                    s.push(p.letter());
                    s.push(' ');
                }
            }
        }
        // Japanese diagrams number the ranks in kanji, right after the board's edge (一…九).
        let _ = match style {
            Style::Kanji => writeln!(s, "{side}{}", crate::shogi::kanji::number(u32::from(rank))),
            _ => writeln!(s, "{side} {}", rank_letter(rank)),
        };
    }
    let _ = writeln!(s, "{bottom}{}{corner_br}", dash.repeat(27));
    let _ = writeln!(s, "{}", hand_line(position, Color::Black, style));
    let _ = writeln!(s, "{}", side_line(position, style));
    s
}

/// "White in hand: G, P×2", "後手の持駒：金 歩二".
fn hand_line(position: &Position, color: Color, style: Style) -> String {
    let entries = hand_entries(position, color);
    match style {
        Style::Kanji => {
            let who = if color == Color::Black { "先手" } else { "後手" };
            let held: Vec<String> = entries
                .iter()
                .map(|(k, n)| {
                    let count = if *n > 1 { crate::shogi::kanji::number(*n) } else { String::new() };
                    format!("{}{count}", kanji(*k, false))
                })
                .collect();
            let held = if held.is_empty() { "なし".to_owned() } else { held.join(" ") };
            format!("{who}の持駒：{held}")
        }
        _ => {
            let times = if style == Style::Ascii { "x" } else { "×" };
            let held: Vec<String> = entries
                .iter()
                .map(|(k, n)| {
                    let letter = letter_of(*k, color);
                    if *n > 1 {
                        format!("{letter}{times}{n}")
                    } else {
                        letter.to_string()
                    }
                })
                .collect();
            let held = if held.is_empty() { "none".to_owned() } else { held.join(", ") };
            format!("{} in hand: {held}", color.name())
        }
    }
}

fn letter_of(kind: PieceKind, color: Color) -> char {
    match color {
        Color::Black => kind.letter(),
        Color::White => kind.letter().to_ascii_lowercase(),
    }
}

/// "Black to move, move 1", "先手番 1手目".
fn side_line(position: &Position, style: Style) -> String {
    match style {
        Style::Kanji => {
            let who = if position.side == Color::Black { "先手番" } else { "後手番" };
            match position.move_number {
                Some(n) => format!("{who}　{n}手目"),
                None => who.to_owned(),
            }
        }
        _ => match position.move_number {
            Some(n) => format!("{} to move, move {n}", position.side.name()),
            None => format!("{} to move", position.side.name()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_diagrams_number_the_ranks_in_kanji() {
        let p: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".parse().expect("sfen");
        let diagram = shogi(&p, Style::Kanji);
        let ranks: String = diagram.lines().filter(|l| l.starts_with('|')).filter_map(|l| l.chars().last()).collect();
        assert_eq!(ranks, "一二三四五六七八九");
        assert!(diagram.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一\n"), "{diagram}");
        let letters = shogi(&p, Style::Unicode);
        assert!(letters.lines().any(|l| l.ends_with("│ a")), "{letters}");
    }

    #[test]
    fn every_rank_line_is_as_wide_as_the_border() {
        let p: Position =
            "lnsgk2nl/1r4gs1/p1pppp1p1/6p2/1p7/2P6/PPBPPPP+pP/2G4+R1/LN2KGSNL b Bp 31".parse().expect("sfen");
        for style in [Style::Unicode, Style::Ascii] {
            let text = shogi(&p, style);
            let widths: Vec<usize> = text.lines().skip(2).take(11).map(|l| l.chars().count()).collect();
            assert!(widths.iter().all(|w| *w >= 29), "{widths:?}\n{text}");
            if style == Style::Ascii {
                assert!(text.is_ascii());
            }
        }
    }
}
