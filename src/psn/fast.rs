//! The fast path: a game with nothing to report, told as such without building its model.
//!
//! Most games in a file are written as the 1998 spec writes them and are legal, and checking
//! one says nothing but that. [`clean`] reads such a game from the scanner's tokens (the words
//! the grammar's automata named) straight to the board: each move is decoded and played as it
//! is read, by the same functions [`super::check_game`] uses, with no game model, no list of
//! moves and no record of the moves played. It answers only for games in a narrow form
//! (headers, moves numbered by pairs from 1 in the spec's own form, one result) that it sees
//! through to the end with nothing to report; any other game gets `None` and is checked in
//! full. An answer is a promise that [`super::check_game`] finds nothing: the tests hold it to
//! that, over generated games and the same games with characters slipped.

use super::build::{decode_into, move_number, set_end, UNREAD_NODE};
use super::findings::Findings;
use super::model::{End, Header, MoveForm, MoveNumber};
use super::replay::{check_end, illegal_move_at, resolve_with, Check, Repetitions};
use super::scan::{Kind, RawGame, WordKind};
use super::{clamped, header, setup, Options};
use crate::shogi::rules::State;

/// The dialect of the game `raw` of `text` ([`super::dialect::SPEC`]) when [`super::check_game`]
/// finds nothing in it with `options`, told without building the game's model. `None` for a
/// game it finds something in, and for a game outside the narrow form this path reads (which
/// may be clean): such a game is checked in full.
pub fn clean(raw: &RawGame, text: &str, options: Options) -> Option<super::dialect::Dialect> {
    let own = clamped(text, raw.start, raw.end);
    // A line read in a legacy encoding is reported; so is a NUL byte.
    if !raw.legacy.is_empty() || memchr::memchr(0, own.as_bytes()).is_some() {
        return None;
    }
    let mut found = Findings::new();
    let mut headers = Vec::new();
    let mut state = State::startpos();
    let mut check = Check::of(&state);
    let mut repetitions = Repetitions::new(raw.tokens.len());
    repetitions.push(state.repetition_key());
    // How many moves were read, a number read and not yet followed by its move, and the result.
    let mut plies: usize = 0;
    let mut number: Option<MoveNumber> = None;
    let mut end: Option<End> = None;
    for t in &raw.tokens {
        let word = t.span.slice(own);
        match t.kind {
            // Headers come first: one after the moves is read by the full check.
            Kind::HeaderLine if plies == 0 && number.is_none() && end.is_none() => {
                header::read(word, t.span.start, &mut headers, &mut found);
            }
            Kind::Word(WordKind::Seqnum) if number.is_none() && end.is_none() => {
                number = Some(move_number(word, t.span));
            }
            Kind::Word(kind @ (WordKind::SpecMove | WordKind::SpecDrop)) if end.is_none() => {
                // Numbered by pairs from 1 (a game with no starting position starts at move 1):
                // `N.` before each of Black's moves, `N...` (if anything) before White's.
                let white = plies % 2 == 1;
                match number.take() {
                    Some(n) if n.value == 1 + plies as u64 / 2 && n.ellipsis == white => {}
                    None if white => {}
                    _ => return None,
                }
                // Without the replay nothing else is read of the move: every word of the
                // spec's move and drop rules decodes, in the spec's form (a test of the decoder
                // holds it to that, over every such word).
                if options.replay {
                    let mut mv = UNREAD_NODE.mv.clone();
                    mv.span = t.span;
                    if decode_into(kind, word, &mut mv).is_none() || mv.form != MoveForm::Spec {
                        return None;
                    }
                    let Ok(res) = resolve_with(&check.legality(&state), &state, &mv) else { return None };
                    state.play_unchecked(res.mv);
                    check = check.after_legal(&state, res.mv);
                    repetitions.push(state.repetition_key());
                }
                plies += 1;
            }
            Kind::Word(WordKind::Result) if number.is_none() && end.is_none() => {
                set_end(&mut end, word, WordKind::Result, t.span, &mut found);
            }
            _ => return None,
        }
    }
    if plies == 0 || number.is_some() || !found.is_empty() {
        return None;
    }
    // A starting position is read, and a result that names an illegal move is played, by the
    // full check.
    let acted_on = |h: &Header| {
        setup::is_setup_key(&h.key) || h.key.eq_ignore_ascii_case("Result") && illegal_move_at(&h.value).is_some()
    };
    if headers.iter().any(acted_on) {
        return None;
    }
    if options.replay {
        if repetitions.fourfold().is_some() {
            return None;
        }
        check_end((end.as_ref(), None, super::dialect::SPEC, plies), &state, None, &mut found);
        if !found.is_empty() {
            return None;
        }
    }
    Some(super::dialect::SPEC)
}
