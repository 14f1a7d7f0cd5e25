//! What each token of a record means: one decoder per token of `grammar/fen.pest`, called by
//! both the fast path ([`super::fast`]) and the builder that walks pest pairs ([`super::build`]).
//!
//! Each decoder takes the token's text and returns `Some` exactly for the strings its grammar
//! rules match whole (the tests below check this against pest), so it never relies on a caller
//! having checked the shape first.

use std::cmp::Reverse;

use super::ast::Cell;
use crate::chess::{CastleRight, CastleSide};
use crate::chess::{Color, Piece, Square};

/// A square token of a rank: `blank_run` (`1`-`8`) or `fen_piece` (`K`, `p`, …).
pub fn cell(text: &str) -> Option<Cell> {
    cell_bytes(text.as_bytes())
}

/// [`cell`] on the token's bytes, for the fast path.
pub fn cell_bytes(bytes: &[u8]) -> Option<Cell> {
    match *bytes {
        [d @ b'1'..=b'8'] => Some(Cell::Empty(d - b'0')),
        [letter] => Piece::from_ascii(letter).map(Cell::Piece),
        _ => None,
    }
}

/// The active colour, `active_color`: `w` or `b`.
pub fn side(text: &str) -> Option<Color> {
    match text {
        "w" => Some(Color::White),
        "b" => Some(Color::Black),
        _ => None,
    }
}

/// A castling right, `castling960_right`: `K`, `Q`, `k`, `q` or a rook's file `A`-`H`, `a`-`h`
/// (uppercase is White's). `castling_right` is its `KQkq` part.
pub fn castle_right(text: &str) -> Option<CastleRight> {
    let [c] = *text.as_bytes() else { return None };
    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
    let side = match c.to_ascii_uppercase() {
        b'K' => CastleSide::King,
        b'Q' => CastleSide::Queen,
        f @ b'A'..=b'H' => CastleSide::File(Reverse(f - b'A')),
        _ => return None,
    };
    Some(CastleRight { color, side })
}

/// The en passant field, `en_passant`: `Some(None)` for `-`, `Some(Some(square))` for a square
/// on rank 3 or 6 (`ep_square`).
pub fn en_passant(text: &str) -> Option<Option<Square>> {
    match *text.as_bytes() {
        [b'-'] => Some(None),
        [_, b'3' | b'6'] => Square::parse(text).map(Some),
        _ => None,
    }
}

/// A counter: `halfmove_clock` (`0` or a number without a leading zero), up to [`u64::MAX`].
/// `fullmove_number` is the same without `0`.
pub fn counter(text: &str) -> Option<u64> {
    match text.as_bytes() {
        [b'0'] => Some(0),
        [b'1'..=b'9', rest @ ..] if rest.iter().all(u8::is_ascii_digit) => text.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parser::{FenParser, Rule};
    use crate::notation::grammar::testing::decoders_agree;

    #[test]
    fn each_decoder_accepts_what_its_rules_match() {
        const ALPHABET: &str = "PNBRQKpnbrqkAHIahiwx-/0123689 é８";
        decoders_agree::<FenParser, Rule>(
            ALPHABET,
            &[
                ("cell", |t| cell(t).is_some(), &[Rule::blank_run, Rule::fen_piece]),
                ("side", |t| side(t).is_some(), &[Rule::active_color]),
                ("castling", |t| castle_right(t).is_some(), &[Rule::castling960_right]),
                ("en passant", |t| en_passant(t).is_some(), &[Rule::en_passant]),
                ("counter", |t| counter(t).is_some(), &[Rule::halfmove_clock]),
            ],
        );
    }

    #[test]
    fn decoders_read_the_values() {
        assert_eq!(cell("8"), Some(Cell::Empty(8)));
        assert_eq!(cell("q"), Piece::from_letter('q').map(Cell::Piece));
        assert_eq!(side("b"), Some(Color::Black));
        assert_eq!(castle_right("k"), Some(CastleRight { color: Color::Black, side: CastleSide::King }));
        assert_eq!(castle_right("C"), Some(CastleRight { color: Color::White, side: CastleSide::File(Reverse(2)) }));
        assert_eq!(castle_right("C").map(CastleRight::letter), Some('C'));
        assert_eq!(en_passant("-"), Some(None));
        assert_eq!(en_passant("e3"), Some(Square::parse("e3")));
        assert_eq!(en_passant("e4"), None);
        assert_eq!(counter("0"), Some(0));
        assert_eq!(counter("00"), None);
        assert_eq!(counter("18446744073709551615"), Some(u64::MAX));
        assert_eq!(counter("18446744073709551616"), None);
    }
}
