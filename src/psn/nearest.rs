//! The legal moves nearest to a move's text: when a word of the movetext is no move, or a move
//! is not legal, the legal moves of the position are written in the forms the game writes its
//! moves in, and ranked by edit distance to the text (characters deleted, inserted or replaced).
//! Each writing is read back by the same reader as the game's own words (`classify`,
//! `decode`, `resolve`): a suggestion always reads as the move it names.

use super::build::decode;
use super::model::MoveForm;
use super::replay::resolve;
use super::scan::classify;
use crate::notation::repair::edit_distance as distance;
use crate::shogi::rules::State;
use crate::shogi::{Move, Piece, PieceKind, Square};
use crate::span::Span;

/// The longest text compared with the legal moves: longer words are no slip of a move.
const MAX_TEXT: usize = 16;

/// A legal move near a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Near {
    /// How many characters differ (deleted, inserted or replaced).
    pub distance: usize,
    /// The move as the game would write it, in the writing nearest to the text.
    pub text: String,
    /// The move.
    pub mv: Move,
}

/// The forms a game writes its moves in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forms(u16);

impl Forms {
    /// The forms of `forms`.
    pub fn of(forms: impl IntoIterator<Item = MoveForm>) -> Self {
        Self(forms.into_iter().fold(0, |set, f| set | Self::bit(f)))
    }

    const fn bit(form: MoveForm) -> u16 {
        1 << form as u16
    }

    fn has(self, form: MoveForm) -> bool {
        self.0 & Self::bit(form) != 0
    }
}

/// How far a text of `len` characters may be from a move to be called near it: one edit for a
/// word of three characters or fewer (`Q7b`), two for a longer one.
fn reach(len: usize) -> usize {
    if len <= 3 {
        1
    } else {
        2
    }
}

/// The legal moves of `state` near `text` (not the text itself), nearest first, each in its
/// writing nearest to the text; moves at the same distance in the order the rules list them.
pub fn nearest(state: &State, text: &str, forms: Forms) -> Vec<Near> {
    let len = text.chars().count();
    if len == 0 || len > MAX_TEXT {
        return Vec::new();
    }
    let reach = reach(len);
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    let mut writings = Vec::new();
    let mut found = Vec::new();
    let text_shape = shape(text);
    for mv in legal {
        write_all(state, mv, forms, &mut writings);
        // Of the writings as near, the one of the text's own form first (`K4b-3b` for
        // `K4bx3c`, not `K4b3b`).
        let mut scored: Vec<(usize, usize, usize)> = writings
            .iter()
            .enumerate()
            .map(|(i, w)| (distance(text, w), i))
            .filter(|&(d, _)| d > 0 && d <= reach)
            .map(|(d, i)| (d, distance(&text_shape, &shape(&writings[i])), i))
            .collect();
        scored.sort_unstable();
        if let Some(&(d, _, i)) = scored.iter().find(|&&(_, _, i)| reads_as(state, &writings[i], mv)) {
            found.push(Near { distance: d, text: std::mem::take(&mut writings[i]), mv });
        }
    }
    found.sort_by_key(|n| n.distance);
    found
}

/// The form of a move's text: each character by what it is (a digit, a letter, a separator
/// `-` or `x`, a mark), so that two writings of one form have the same shape.
fn shape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '-' | 'x' => 's',
            c if c.is_ascii_digit() => 'd',
            c if c.is_ascii_lowercase() => 'l',
            c if c.is_ascii_uppercase() => 'L',
            c => c,
        })
        .collect()
}

/// True when `text`, read as the game's words are read and played in `state`, is `mv`.
fn reads_as(state: &State, text: &str, mv: Move) -> bool {
    let Some(kind) = classify(text).filter(|k| k.is_move()) else { return false };
    let Some(written) = decode(kind, text, Span::new(0, text.len())) else { return false };
    resolve(state, &written).is_ok_and(|r| r.mv == mv)
}

/// The ways the game may write `mv` (cleared first): the spec's, with and without the origin
/// and the `=` of a declined promotion, and those of the other forms the game uses. Some may
/// not read back as `mv` (an origin the spec needs left out): [`reads_as`] sorts them out.
fn write_all(state: &State, mv: Move, forms: Forms, out: &mut Vec<String>) {
    out.clear();
    match mv {
        Move::Drop { kind, to } => {
            let l = kind.letter();
            out.push(format!("{l}*{to}"));
            out.push(format!("{l}'{to}"));
            if forms.has(MoveForm::AtDrop) {
                out.push(format!("{l}@{to}"));
            }
            if forms.has(MoveForm::Chess) {
                out.push(format!("{l}@{}", chess(to)));
            }
        }
        Move::Board { from, to, promote } => {
            let Some(piece) = state.piece_at(from) else { return };
            let plus = if piece.promoted { "+" } else { "" };
            let l = piece.kind.letter();
            let x = if state.piece_at(to).is_some() { 'x' } else { '-' };
            let ends: &[&str] = if promote { &["+"] } else { &["", "="] };
            for end in ends {
                out.push(format!("{plus}{l}{to}{end}"));
                out.push(format!("{plus}{l}{from}{to}{end}"));
                if forms.has(MoveForm::Separated) {
                    out.push(format!("{plus}{l}{from}{x}{to}{end}"));
                }
                if forms.has(MoveForm::Short) {
                    out.push(format!("{plus}{l}{x}{to}{end}"));
                    out.push(format!("{plus}{l}{}{to}{end}", from.file()));
                }
            }
            if forms.has(MoveForm::Usi) {
                out.push(format!("{from}{to}{}", if promote { "+" } else { "" }));
            }
            if forms.has(MoveForm::Chess) {
                chess_writings(piece, (from, to), promote, x == 'x', out);
            }
        }
    }
}

/// `mv` in Fairy-Stockfish SAN (PSN note 16): `Pc4`, `Sde3`, `Bxe3=H`, and with the whole
/// origin.
fn chess_writings(piece: Piece, (from, to): (Square, Square), promote: bool, capture: bool, out: &mut Vec<String>) {
    let kind = piece.kind;
    let letter = match (kind, piece.promoted) {
        (PieceKind::Bishop, true) => 'H',
        (PieceKind::Rook, true) => 'D',
        (_, true) => return,
        (k, false) => k.letter(),
    };
    let x = if capture { "x" } else { "" };
    let end = match crate::shogi::written::promoted_letter(kind).filter(|_| promote) {
        Some(c) => format!("={c}"),
        None => String::new(),
    };
    let from = chess(from);
    let to = chess(to);
    let file = &from[..1];
    let rank = &from[1..];
    for origin in ["", file, rank, &from] {
        out.push(format!("{letter}{origin}{x}{to}{end}"));
    }
}

/// A square in chess coordinates: files `a`-`i` are shogi files 9 to 1, ranks `1`-`9` count
/// from Black's side.
fn chess(sq: Square) -> String {
    let file = char::from(b'a' + (9 - sq.file()));
    let rank = char::from(b'0' + (10 - sq.rank()));
    format!("{file}{rank}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_single_edits() {
        assert_eq!(distance("Q7b", "G7b"), 1);
        assert_eq!(distance("P7", "P7f"), 1);
        assert_eq!(distance("P77f", "P7f"), 1);
        assert_eq!(distance("P7f", "P7f"), 0);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("P7g7f", "7g7f"), 1);
    }

    fn near(sfen: &str, text: &str, forms: &[MoveForm]) -> Vec<String> {
        let position: crate::shogi::Position = sfen.parse().expect("a position");
        let state = State::new(&position);
        nearest(&state, text, Forms::of(forms.iter().copied())).into_iter().map(|n| n.text).collect()
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn the_nearest_legal_moves_are_written_as_the_game_writes() {
        // The one pawn move one edit away.
        assert_eq!(near(START, "Q7f", &[MoveForm::Spec]), ["P7f"]);
        // Silver, gold and rook can each go to 7h.
        let mut three = near(START, "Q7h", &[MoveForm::Spec]);
        three.sort();
        assert_eq!(three, ["G7h", "R7h", "S7h"]);
        // A game in USI coordinates gets USI moves.
        assert_eq!(near(START, "7g7", &[MoveForm::Usi]), ["7g7f"]);
        // Chess coordinates: `Pc4` is P7f.
        assert_eq!(near(START, "Qc4", &[MoveForm::Chess]), ["Pc4"]);
        // Of two writings as near, the one in the text's own form: `P7g7f` is as near to
        // `P7gx7e` as `P7g-7f`, which keeps the game's separator.
        assert_eq!(near(START, "P7gx7e", &[MoveForm::Spec, MoveForm::Separated]), ["P7g-7f"]);
        // Nothing is near a long word.
        assert!(near(START, "Prince", &[MoveForm::Spec]).is_empty());
    }
}
