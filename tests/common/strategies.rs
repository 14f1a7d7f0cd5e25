//! Generators the property tests share: shogi positions, and valid records with a few
//! characters changed.

use kifu::sfen::Position;
use kifu::shogi::{Board, Color, Hand, Piece, PieceKind};
use proptest::prelude::*;

/// A square of a shogi board: empty, or any piece (promoted only where it can be).
pub fn shogi_piece() -> impl Strategy<Value = Option<Piece>> {
    prop_oneof![
        3 => Just(None),
        1 => (0..8usize, any::<bool>(), any::<bool>()).prop_map(|(k, white, promoted)| {
            let kind = PieceKind::ALL[k];
            Some(Piece {
                color: if white { Color::White } else { Color::Black },
                kind,
                promoted: promoted && kind.can_promote(),
            })
        }),
    ]
}

/// Any shogi position, legal or not: any board, up to 20 of each kind in hand, either side to
/// move, and a move number or none.
pub fn shogi_position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(shogi_piece(), 81),
        prop::array::uniform7(0u32..=20),
        prop::array::uniform7(0u32..=20),
        any::<bool>(),
        prop::option::of(1u64..=u64::MAX),
    )
        .prop_map(|(squares, black, white, white_to_move, move_number)| {
            let mut board = Board::default();
            for (i, p) in squares.into_iter().enumerate() {
                board.0[i] = p;
            }
            Position {
                board,
                hands: [Hand(black), Hand(white)],
                side: if white_to_move { Color::White } else { Color::Black },
                move_number,
            }
        })
}

/// The text of a position from `positions` with one to three characters replaced by one of
/// `with` (or removed, or inserted at the end).
pub fn mutated<P: std::fmt::Display + std::fmt::Debug>(
    positions: impl Strategy<Value = P>,
    with: Vec<&'static str>,
) -> impl Strategy<Value = String> {
    let edits = prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(with)), 1..4);
    (positions, edits).prop_map(|(p, edits)| {
        let mut s = p.to_string();
        for (at, with) in edits {
            let mut i = at.index(s.len() + 1);
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            let end = (i + 1).min(s.len());
            let end = if s.is_char_boundary(end) { end } else { i };
            s.replace_range(i..end, with);
        }
        s
    })
}

/// Prints `p`, reads the text back and fails unless it is `p` again; the text, when it is.
pub fn round_trip<P>(p: &P) -> Result<String, TestCaseError>
where
    P: std::fmt::Display + std::fmt::Debug + std::str::FromStr + PartialEq,
    P::Err: std::fmt::Display,
{
    let text = p.to_string();
    let again: P = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(&again, p);
    Ok(text)
}
