//! What the replay makes of a move it cannot play: a word that is no move, or a move the rules
//! forbid. The legal moves nearest to its text are named ([`super::nearest`]); when one repair
//! stands out, the replay goes on from it, so that a later fault is still found, and the
//! finding carries it as a fix.
//!
//! A repair stands out when it is the only legal move nearest to the text and one edit away
//! from it, or when, of the legal moves nearest to the text, it is the only one after which the
//! rest of the line plays. It is safe when it is the only legal move one edit away and the rest
//! of the line plays after it. Otherwise the replay of the line stops there: the position after
//! it is not known.

use super::model::{Game, MoveForm, MoveNode};
use super::nearest::{nearest, Forms, Near};
use super::replay::resolve;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::shogi::rules::State;
use crate::shogi::Move;
use crate::span::Span;

/// The most faults of one game whose repairs are looked for; at any further one the replay of
/// its line stops. With [`MAX_LOOKAHEAD`], it bounds what a game of many faults costs.
const MAX_REPAIRS: usize = 32;

/// The most moves played ahead, in all, to weigh the repairs of one game.
const MAX_LOOKAHEAD: usize = 20_000;

/// The most moves played ahead after one repair: past them the line is taken to play on.
const MAX_AHEAD: usize = 200;

/// The most repairs a finding names.
const MAX_NAMED: usize = 3;

/// A move the replay could not play, and what it makes of it.
#[derive(Clone, Debug, Default)]
pub struct Repair {
    /// The legal moves nearest to the text (at most three), the one gone on from first.
    pub near: Vec<Near>,
    /// The move the replay goes on from, when one repair stands out.
    pub chosen: Option<Move>,
    /// The repair is the one legal move one edit away, and the rest of the line plays after it.
    pub safe: bool,
    /// The repair was chosen because only after it does the rest of the line play.
    pub by_what_follows: bool,
}

impl Repair {
    /// Adds the repair to `d`, the finding on the move whose text is at `span`: its help names
    /// the nearest legal moves first, and each is a fix (the first safe when the repair is).
    pub fn amend(&self, d: &mut Diagnostic, span: Span) {
        let Some(first) = self.near.first() else { return };
        let named = |near: &[Near]| near.iter().map(|n| format!("`{}`", n.text)).collect::<Vec<_>>().join(", ");
        let lead = match (self.chosen.is_some(), self.by_what_follows) {
            (true, false) => format!("did you mean `{}`? It is the legal move nearest to what is written", first.text),
            (true, true) => format!(
                "did you mean `{}`? Of the legal moves as near ({}), only after it do the next moves play",
                first.text,
                named(&self.near)
            ),
            (false, _) => format!("legal here and nearest to what is written: {}", named(&self.near)),
        };
        d.help = Some(match d.help.take() {
            Some(old) => format!("{lead}; {old}"),
            None => lead,
        });
        d.fixes = self
            .near
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let applicability = if i == 0 && self.safe { Applicability::Safe } else { Applicability::Unsafe };
                Fix::replace(span, n.text.clone(), applicability)
            })
            .collect();
    }
}

/// The one legal move of `state` one edit away from `text`, if there is exactly one.
pub(crate) fn one_edit_repair(state: &State, text: &str, forms: Forms) -> Option<Move> {
    match nearest(state, text, forms).as_slice() {
        [one] | [one, Near { distance: 2.., .. }, ..] if one.distance == 1 => Some(one.mv),
        _ => None,
    }
}

/// Finds the repairs of one game's faults, within a budget.
#[derive(Debug)]
pub(crate) struct Repairer<'a> {
    game: &'a Game,
    /// The forms the game writes its moves in, found at its first fault.
    forms: Option<Forms>,
    repairs: usize,
    lookahead: usize,
}

impl<'a> Repairer<'a> {
    /// The repairer of `game`'s faults.
    pub(crate) fn new(game: &'a Game) -> Self {
        Self { game, forms: None, repairs: MAX_REPAIRS, lookahead: MAX_LOOKAHEAD }
    }

    /// The repair of the move whose text is `text`, which cannot be played in `state` and is
    /// followed in its line by `rest`.
    pub(crate) fn repair(&mut self, state: &State, text: &str, rest: &[MoveNode]) -> Repair {
        if self.repairs == 0 {
            return Repair::default();
        }
        self.repairs -= 1;
        let game = self.game;
        let forms = *self.forms.get_or_insert_with(|| Forms::of(game.all_moves().iter().map(|m| m.mv.form)));
        let mut near = nearest(state, text, forms);
        let Some(best) = near.first().map(|n| n.distance) else { return Repair::default() };
        let tied = near.iter().take_while(|n| n.distance == best).count();
        let plays: Vec<bool> = near[..tied].iter().map(|n| self.plays_on(state, n.mv, rest)).collect();
        let playing: Vec<usize> = (0..tied).filter(|&i| plays[i]).collect();
        let (chosen, by_what_follows) = match (tied, playing.as_slice()) {
            (1, _) if best == 1 || plays[0] => (Some(0), false),
            (2.., &[only]) => (Some(only), true),
            _ => (None, false),
        };
        let safe = chosen == Some(0) && tied == 1 && best == 1 && plays[0];
        if let Some(i) = chosen {
            let one = near.remove(i);
            near.insert(0, one);
        }
        near.truncate(if safe {
            1
        } else if by_what_follows {
            tied.min(MAX_NAMED)
        } else {
            MAX_NAMED
        });
        Repair { chosen: chosen.map(|_| near[0].mv), near, safe, by_what_follows }
    }

    /// True when the moves of `rest` all play after `mv` in `state` (up to the next word that is
    /// no move, a fault of its own, and at most [`MAX_AHEAD`] of them).
    fn plays_on(&mut self, state: &State, mv: Move, rest: &[MoveNode]) -> bool {
        let mut state = *state;
        state.play_unchecked(mv);
        for node in rest.iter().take(MAX_AHEAD) {
            if node.mv.form == MoveForm::Unreadable {
                return true;
            }
            if self.lookahead == 0 {
                return false;
            }
            self.lookahead -= 1;
            match resolve(&state, &node.mv) {
                Ok(r) => state.play_unchecked(r.mv),
                Err(_) => return false,
            }
        }
        true
    }
}
