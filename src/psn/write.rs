//! A game of the shared model ([`Game`]) written as PSN: `kifu convert --to psn` of a KIF or
//! KI2 record. The form is the one a PSN game is written in ([`super::display`]): headers, the
//! start as a `Handicap` or `FEN` header, pair numbers, each move in the spec's form, comments
//! after their move, variations in `( … )` and a result. What the spec has no words for is
//! written as kifu's PSN writer writes it, in a comment after the move, and read back from
//! there: a move's time, `{(00:01 / 00:00:09)}`, and how the game ended, `{Resigns}` before the
//! result.

use std::time::Duration;

use super::display::{self, Branch, Branching, Numbering};
use crate::shogi::game::HEADER_NAMES;
use crate::shogi::rules::State;
use crate::shogi::written::as_played;
use crate::shogi::{Color, EndReason, Game, MoveTime, Node, Position, Record, Variation};

/// Writes `game` as PSN: its text, and what of the game PSN cannot hold (left out).
///
/// ```
/// use kifu::shogi::{Game, Node, Position};
/// let mut game = Game::new(Position::STARTPOS);
/// game.headers.push(("先手".into(), "Habu".into()));
/// game.moves = vec![Node::new("7g7f".parse().unwrap()), Node::new("3c3d".parse().unwrap())];
/// game.moves[1].comments.push("a reply".into());
/// assert_eq!(kifu::psn::write(&game).text, "[Sente \"Habu\"]\n1. P7f P3d {a reply}\n");
/// ```
pub fn write(game: &Game) -> Record {
    let mut record = Record { text: String::new(), lost: Vec::new() };
    headers(game, &mut record);
    let (half, pair) = display::first_move(&game.start);
    let mut out = Numbering::new(half, pair, comments(&game.comments, &mut record));
    // How the game ended, in words the spec has none for, goes after the last move's comments;
    // who won, after everything.
    let ending = game.ending.unwrap_or(crate::shogi::Ending { reason: None, outcome: None });
    if game.ending.is_some() && ending.reason.is_none() && ending.outcome.is_none() {
        record.lose("an ending that says neither why the game ended nor who won");
    }
    let word = ending.reason.and_then(|reason| {
        let word = end_comment(reason);
        if word.is_none() {
            record.lose("an ending PSN has no word for");
        }
        word
    });
    let result = ending.outcome.map(|o| display::result(o).to_owned());
    if game.moves.is_empty() {
        out.words.extend(word);
    } else {
        moves(game, word, &mut out, &mut record);
    }
    let mut words = out.words;
    words.extend(result);
    display::wrap(words, &mut record.text);
    if record.text.is_empty() {
        // A game of nothing: written as a move number, it still reads as a game.
        record.text.push_str("1.\n");
    }
    record
}

/// Writes the headers of `game`, each under its PSN keyword (KIF's `先手` as `Sente`), then
/// the header that gives its start when it is not the even game's.
fn headers(game: &Game, record: &mut Record) {
    for (key, value) in &game.headers {
        let psn = match key.as_str() {
            "下手" => "Sente",
            "上手" => "Gote",
            key => HEADER_NAMES.iter().find(|(_, kif)| *kif == key).map_or(key, |(psn, _)| psn),
        };
        // The start and the result are written from the game itself.
        let written = ["Result", "Handicap", "FEN", "SFEN", "手合割"].iter().any(|k| k.eq_ignore_ascii_case(psn));
        if written {
            continue;
        }
        if display::header(&display::keyword(psn), value, &mut record.text) {
            record.lose("a header value's line breaks, or a `]` before a `[` (written otherwise)");
        }
    }
    if game.start == Position::STARTPOS {
        return;
    }
    let _ = match super::setup::spec_handicap(&game.start) {
        Some(name) => display::header("Handicap", name, &mut record.text),
        None => match display::spec_fen(&game.start) {
            Some(fen) => display::header("FEN", &fen, &mut record.text),
            None => display::header("SFEN", &game.start.to_string(), &mut record.text),
        },
    };
}

/// `comments` as `{comments}`.
fn comments(comments: &[String], record: &mut Record) -> Vec<String> {
    comments
        .iter()
        .map(|text| {
            let written = display::braced(text, true);
            if written[1..written.len() - 1] != *text.as_str() {
                record.lose("a comment's braces without their pair, or a line break before a `[` (written otherwise)");
            }
            written
        })
        .collect()
}

impl<'a> Branching<'a> for Node {
    type State = State;

    /// A variation, with the word of its ending after its last move (a variation of no move is
    /// not written, and named as lost).
    fn variation(&'a self, i: usize) -> Option<Branch<'a, Self>> {
        let v = self.variations.get(i)?;
        let after = v.ending.and_then(|e| e.reason).and_then(end_comment);
        Some(Branch { moves: &v.moves, before: Vec::new(), after: after.into_iter().collect() })
    }

    fn advance(&self, state: &mut State) {
        state.play_unchecked(self.mv);
    }
}

/// Writes the main line of `game` and its variations; `word`, the ending's, goes with the
/// comments of its last move.
fn moves(game: &Game, mut word: Option<String>, out: &mut Numbering, record: &mut Record) {
    display::walk(&game.moves, State::new(&game.start), out, |line, at, main, state, out| {
        let Some(node) = line.get(at) else { return };
        let text = as_played(state, node.mv).map_or_else(|| node.mv.to_string(), |r| display::spec_move(&r));
        let mut after: Vec<String> = node.time.map(|t| clock(t, record)).into_iter().collect();
        after.extend(comments(&node.comments, record));
        if !node.bookmarks.is_empty() {
            record.lose("bookmarks");
        }
        if main && at + 1 == line.len() {
            after.extend(word.take());
        }
        for v in &node.variations {
            variation_losses(v, state.side(), record);
        }
        out.play(Vec::new(), text, after);
    });
}

/// The comment that says why a line ended, its end word (`{Resigns}`), when PSN has one.
fn end_comment(reason: EndReason) -> Option<String> {
    super::model::word_for(reason).map(|word| format!("{{{word}}}"))
}

/// Notes what of the variation `v`, whose first move `mover` plays, PSN cannot hold: a
/// variation of no move, and of its ending what its word (`{Resigns}` after its last move)
/// does not say.
fn variation_losses(v: &Variation, mover: Color, record: &mut Record) {
    if v.moves.is_empty() {
        record.lose("a variation of no move");
        return;
    }
    let Some(ending) = v.ending else { return };
    let to_move = if v.moves.len() % 2 == 0 { mover } else { mover.opponent() };
    match ending.reason.map(super::model::word_for) {
        None => record.lose("a variation's ending that says no reason"),
        Some(None) => record.lose("an ending PSN has no word for"),
        Some(Some(word)) => {
            let says = super::model::end_word(word).map(|(_, says)| says.outcome(to_move));
            if says != Some(ending.outcome) {
                record.lose("who won a variation, where its ending's word does not say");
            }
        }
    }
}

/// A move's time as a comment, `{(00:01 / 00:00:09)}`: the time it took (minutes and seconds),
/// then the mover's total (hours, minutes and seconds); a half not known is left empty.
fn clock(time: MoveTime, record: &mut Record) -> String {
    let mut fields = |d: Duration, hours: bool| {
        if d.subsec_nanos() != 0 {
            record.lose("the fractions of a second of a move's time");
        }
        let s = d.as_secs();
        if hours {
            format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
        } else {
            format!("{:02}:{:02}", s / 60, s % 60)
        }
    };
    let mut text = String::from("{(");
    if let Some(spent) = time.spent {
        text.push_str(&fields(spent, false));
    }
    text.push_str(" / ");
    if let Some(total) = time.total {
        text.push_str(&fields(total, true));
    }
    text.push_str(")}");
    text
}
