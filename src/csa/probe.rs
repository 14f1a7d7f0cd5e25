//! The place of a cursor in a CSA text: the record that holds it, and the move statement under
//! it with the position after that move.

use super::read::{lines, read_records};
use super::syntax::{self, Statement};
use crate::shogi::{Game, Move, Position};
use crate::span::Span;

/// The record of a CSA `text` that holds byte `cursor`, with its span and its game (when its
/// start could be set up); and, when the cursor is on a move statement that was played, that
/// statement's span, its move and the position after it. `None` when no record holds the
/// cursor.
#[allow(clippy::type_complexity)]
pub(crate) fn position_at(text: &str, cursor: usize) -> Option<(Span, Option<Game>, Option<(Span, Move, Position)>)> {
    let (records, _) = read_records(text);
    let record = records.into_iter().find(|r| r.span.start <= cursor && cursor <= r.span.end)?;
    let Some(game) = record.game else { return Some((record.span, None, None)) };
    // The moves played are the record's first move statements, in order: a record stops
    // playing at a move that cannot be played.
    let mut count = 0;
    let mut under = None;
    'lines: for (start, line) in lines(text) {
        if start + line.len() < record.span.start {
            continue;
        }
        for (statement, span) in syntax::line(line, start) {
            if span.start < record.span.start {
                continue;
            }
            if let Statement::Move { .. } = statement {
                if span.start <= cursor && cursor <= span.end {
                    under = Some((count, span));
                    break 'lines;
                }
                count += 1;
            }
        }
        if start > cursor {
            break;
        }
    }
    let probed = under.filter(|(n, _)| *n < game.moves.len()).and_then(|(n, span)| {
        let position = crate::shogi::game::positions_after(&game.start, game.main_line().take(n + 1)).pop()?;
        Some((span, game.moves[n].mv, position))
    });
    Some((record.span, Some(game), probed))
}

#[cfg(test)]
mod tests {
    use super::position_at;

    #[test]
    fn a_move_statement_is_found_in_the_record_that_holds_it() {
        let text = "PI\n+\n+7776FU,T1\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n-8384FU\n+9999FU\n";
        let at = |needle: &str| position_at(text, text.find(needle).expect("in the text") + 2);
        let (span, game, probed) = at("-3334FU").expect("the first record");
        assert_eq!(span.slice(text), "PI\n+\n+7776FU,T1\n-3334FU\n%TORYO\n/");
        assert_eq!(game.map(|g| g.moves.len()), Some(2));
        let (span, mv, position) = probed.expect("a move played");
        assert_eq!(span.slice(text), "-3334FU");
        assert_eq!(mv.to_string(), "3c3d");
        assert_eq!(position.to_string(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        // The second record counts its own moves.
        let (_, _, probed) = at("-8384FU").expect("the second record");
        assert_eq!(probed.map(|(_, mv, _)| mv.to_string()).as_deref(), Some("8c8d"));
        // A move that could not be played, and a place that is no move, show none.
        let (_, game, probed) = at("+9999FU").expect("the second record");
        assert!(probed.is_none());
        assert_eq!(game.map(|g| g.moves.len()), Some(2));
        assert!(at("%TORYO").expect("the first record").2.is_none());
        // Anywhere, in any text, no panic.
        for cursor in 0..=text.len() + 2 {
            let _ = position_at(text, cursor);
        }
        assert!(position_at("", 0).is_none());
    }
}
