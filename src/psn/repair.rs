//! What the replay makes of a move it cannot play: a word that is no move, or a move the rules
//! forbid. The legal moves nearest to its text are named ([`super::nearest`]), each as a fix,
//! and the replay goes on from the likeliest.
//!
//! The likeliest repair is the candidate after which the rest of the line plays furthest (all
//! of it, or up to the next fault), then the one nearest to the text; the candidates are the
//! legal moves nearest to the text and the legal moves to the written destination by the
//! piece written. It stands out when no other candidate is as likely. The replay goes on from
//! it when the next two moves play after it, so that a later fault is still found; otherwise (or
//! with no candidate) the replay of the line stops there: the position after it is not known,
//! and going on would blame the moves after it for the repair's guess. A repair is
//! sure when it is the only legal move one edit away and the rest of the line plays after it;
//! its fix is still never safe (applied unasked), since it plays another move than the one
//! written.

use super::model::{Game, MoveForm, MoveNode, WrittenMove};
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
    /// The repair that stands out, when one does: the likeliest, and no other as likely.
    pub chosen: Option<Move>,
    /// The move the replay goes on from: the likeliest repair, when the next two moves play
    /// after it.
    pub go_on: Option<Move>,
    /// The repair was chosen because only after it does the rest of the line play.
    pub by_what_follows: bool,
}

impl Repair {
    /// Adds the repair to `d`, the finding on the move whose text is at `span`: its help names
    /// the nearest legal moves first, and each is a fix. None is safe: each changes the move.
    pub fn amend(&self, d: &mut Diagnostic, span: Span) {
        let Some(first) = self.near.first() else { return };
        let named = |near: &[Near]| near.iter().map(|n| format!("`{}`", n.text)).collect::<Vec<_>>().join(", ");
        let lead = match (self.chosen.is_some(), self.by_what_follows) {
            (true, false) => format!("did you mean `{}`? It is the legal move nearest to what is written", first.text),
            (true, true) => format!(
                "did you mean `{}`? Of the legal moves near what is written ({}), only after it do the next moves play",
                first.text,
                named(&self.near)
            ),
            (false, _) => format!("legal here and nearest to what is written: {}", named(&self.near)),
        };
        d.help = Some(match d.help.take() {
            Some(old) => format!("{lead}; {old}"),
            None => lead,
        });
        d.fixes = self.near.iter().map(|n| Fix::replace(span, n.text.clone(), Applicability::Unsafe)).collect();
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

    /// The repair of the move `written`, which cannot be played in `state` and is followed in
    /// its line by `rest`.
    ///
    /// The candidates are the legal moves nearest to its text and, for a move that reads (not a
    /// word that is no move), the legal moves to its written destination by the piece it names.
    /// The likeliest is the one after which the line plays furthest (all of it, or up to the
    /// next fault), then the nearest to the text: a move that continues the game is likelier
    /// than one that does not. The line goes on from it when the next two moves play after it
    /// (or all, when fewer follow), so that a later fault is still found; else the replay of
    /// the line stops.
    pub(crate) fn repair(&mut self, state: &State, written: &WrittenMove, rest: &[MoveNode]) -> Repair {
        if self.repairs == 0 {
            return Repair::default();
        }
        self.repairs -= 1;
        let game = self.game;
        let forms = *self.forms.get_or_insert_with(|| Forms::of(game.all_moves().iter().map(|m| m.mv.form)));
        let near = nearest(state, &written.text, forms);
        let beyond = near.iter().map(|n| n.distance).max().unwrap_or(0) + 1;
        let mut candidates: Vec<(Near, bool)> = near.into_iter().map(|n| (n, true)).collect();
        if written.form != MoveForm::Unreadable {
            for mv in destination_moves(state, written) {
                if !candidates.iter().any(|(n, _)| n.mv == mv) {
                    candidates.push((Near { distance: beyond, text: String::new(), mv }, false));
                }
            }
        }
        if candidates.is_empty() {
            return Repair::default();
        }
        let ahead: Vec<usize> = candidates.iter().map(|(n, _)| self.played_after(state, n.mv, rest)).collect();
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(ahead[i]), candidates[i].0.distance));
        let first = order[0];
        let key = |i: usize| (ahead[i], candidates[i].0.distance);
        let stands_out = order[1..].iter().all(|&i| key(i) != key(first)) && candidates[first].1;
        let nearest_distance = candidates.iter().filter(|(_, named)| *named).map(|(n, _)| n.distance).min();
        // Chosen for what follows: another named candidate is as near to the text, or nearer.
        let by_what_follows = stands_out
            && candidates
                .iter()
                .enumerate()
                .any(|(i, (n, named))| i != first && *named && n.distance <= candidates[first].0.distance);
        let sure = stands_out
            && ahead[first] == usize::MAX
            && candidates[first].0.distance == 1
            && nearest_distance == Some(1)
            && candidates.iter().filter(|(n, named)| *named && n.distance == 1).count() == 1;
        let likeliest = candidates[first].0.mv;
        let mut ranked: Vec<Option<(Near, bool)>> = candidates.into_iter().map(Some).collect();
        let mut near: Vec<Near> =
            order.iter().filter_map(|&i| ranked[i].take()).filter(|(_, named)| *named).map(|(n, _)| n).collect();
        // The named repairs: the likeliest first when it stands out, else the nearest first.
        if !stands_out {
            near.sort_by_key(|n| n.distance);
        }
        near.truncate(if sure { 1 } else { MAX_NAMED });
        let chosen = stands_out.then_some(likeliest);
        // After a repair the next two moves cannot follow, the line is not known (one may play
        // by chance): going on would blame the moves after it for the repair's guess.
        let go_on = (ahead[first] >= rest.len().min(2)).then_some(likeliest);
        Repair { chosen, go_on, near, by_what_follows }
    }

    /// How many moves of `rest` play after `mv` in `state`: `usize::MAX` when they all do (up
    /// to the next word that is no move, a fault of its own, and at most [`MAX_AHEAD`] of
    /// them), else how many before the first that does not.
    fn played_after(&mut self, state: &State, mv: Move, rest: &[MoveNode]) -> usize {
        let mut state = *state;
        state.play_unchecked(mv);
        for (played, node) in rest.iter().take(MAX_AHEAD).enumerate() {
            if node.mv.form == MoveForm::Unreadable {
                return usize::MAX;
            }
            if self.lookahead == 0 {
                return played;
            }
            self.lookahead -= 1;
            match resolve(&state, &node.mv) {
                Ok(r) => state.play_unchecked(r.mv),
                Err(_) => return played,
            }
        }
        usize::MAX
    }
}

/// The legal moves of `state` to the square `written` goes to, by the piece it names (any piece
/// when it names none).
fn destination_moves(state: &State, written: &WrittenMove) -> Vec<Move> {
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    legal.retain(|&mv| match mv {
        Move::Board { from, to, .. } => {
            to == written.to
                && !written.drop
                && written.piece.is_none_or(|k| state.piece_at(from).is_some_and(|p| p.kind == k))
        }
        Move::Drop { kind, to } => to == written.to && written.piece.is_none_or(|k| k == kind),
    });
    legal
}
