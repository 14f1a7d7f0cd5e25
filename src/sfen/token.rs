//! What each token of a record means: one decoder per token of `grammar/sfen.pest`, called by
//! both the fast path ([`super::fast`]) and the builder that walks pest pairs ([`super::build`]).
//!
//! Each decoder takes the token's text and returns `Some` exactly for the strings its grammar
//! rules match whole (the tests below check this against pest), so it never relies on a caller
//! having checked the shape first.

use super::ast::{Cell, Side};
use super::Dialect;
use crate::shogi::{Color, Piece, PieceKind};

/// A square token of a rank: `empty_run` (`1`-`9`), `piece` (`K`, `p`, …) or `promoted_piece`
/// (`+R`, `+p`, …).
pub fn cell(text: &str) -> Option<Cell> {
    cell_bytes(text.as_bytes())
}

/// [`cell`] on the token's bytes, for the fast path.
pub fn cell_bytes(bytes: &[u8]) -> Option<Cell> {
    match *bytes {
        [d @ b'1'..=b'9'] => Some(Cell::Empty(d - b'0')),
        [letter] => Piece::from_ascii(letter, false).map(Cell::Piece),
        [b'+', letter] => Piece::from_ascii(letter, true).filter(|p| p.kind.can_promote()).map(Cell::Piece),
        _ => None,
    }
}

/// The side to move: `sfen2007_side` (`B`, `W`) or `usi_side` (`b`, `w`).
pub fn side(text: &str) -> Option<Side> {
    let (color, dialect) = match text {
        "B" => (Color::Black, Dialect::Sfen2007),
        "W" => (Color::White, Dialect::Sfen2007),
        "b" => (Color::Black, Dialect::Usi),
        "w" => (Color::White, Dialect::Usi),
        _ => return None,
    };
    Some(Side { color, dialect })
}

/// A hand count, `hand_count`: 1 to 99, one or two digits, no leading zero.
pub fn hand_count(text: &str) -> Option<u32> {
    match *text.as_bytes() {
        [d @ b'1'..=b'9'] => Some(u32::from(d - b'0')),
        [d @ b'1'..=b'9', e @ b'0'..=b'9'] => Some(u32::from(d - b'0') * 10 + u32::from(e - b'0')),
        _ => None,
    }
}

/// A piece in hand, `hand_piece`: whose (uppercase is Black's) and its kind; never a king.
pub fn hand_piece(text: &str) -> Option<(Color, PieceKind)> {
    match *text.as_bytes() {
        [letter] => Piece::from_ascii(letter, false).filter(|p| p.kind != PieceKind::King).map(|p| (p.color, p.kind)),
        _ => None,
    }
}

/// The move number, `usi_move_number`: a positive number without a leading zero, up to
/// [`u64::MAX`] (`sfen2007_move_number` is its one- and two-digit part).
pub fn move_number(text: &str) -> Option<u64> {
    match text.as_bytes() {
        [b'1'..=b'9', rest @ ..] if rest.iter().all(u8::is_ascii_digit) => text.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::grammar::testing::{decoders_agree, Decoder};
    use crate::sfen::parser::{Rule, SfenParser};

    const ALPHABET: &str = "KRBGSNLPkrbgsnlpWwQx+-/0123456789 é９";

    #[test]
    fn each_decoder_accepts_what_its_rules_match() {
        let decoders: [Decoder<'_, Rule>; 5] = [
            ("cell", |t| cell(t).is_some(), &[Rule::empty_run, Rule::piece, Rule::promoted_piece]),
            ("side", |t| side(t).is_some(), &[Rule::sfen2007_side, Rule::usi_side]),
            ("hand count", |t| hand_count(t).is_some(), &[Rule::hand_count]),
            ("hand piece", |t| hand_piece(t).is_some(), &[Rule::hand_piece]),
            ("move number", |t| move_number(t).is_some(), &[Rule::usi_move_number]),
        ];
        decoders_agree::<SfenParser, Rule>(ALPHABET, &decoders);
    }

    #[test]
    fn decoders_read_the_values() {
        assert_eq!(cell("7"), Some(Cell::Empty(7)));
        assert_eq!(cell("+p"), Piece::from_letter('p', true).map(Cell::Piece));
        assert_eq!(cell("K"), Piece::from_letter('K', false).map(Cell::Piece));
        assert_eq!(cell("+K"), None);
        assert_eq!(side("w"), Some(Side { color: Color::White, dialect: Dialect::Usi }));
        assert_eq!(side("B"), Some(Side { color: Color::Black, dialect: Dialect::Sfen2007 }));
        assert_eq!(hand_count("18"), Some(18));
        assert_eq!(hand_count("100"), None);
        assert_eq!(hand_piece("s"), Some((Color::White, PieceKind::Silver)));
        assert_eq!(move_number("18446744073709551615"), Some(u64::MAX));
        assert_eq!(move_number("18446744073709551616"), None);
        assert_eq!(move_number("0"), None);
        assert_eq!(move_number("01"), None);
    }
}
