//! A PSN game as the model every game format shares ([`shogi::Game`]).

use super::model::{end_word, EndKind, MoveNode, Says, MAX_VARIATION_DEPTH};
use super::replay::Replay;
use super::CheckedGame;
use crate::shogi::{self, parse_clock, Color, Ending, MoveTime, Node, Variation};

impl CheckedGame {
    /// The game as the model every game format shares: its headers, its start, the moves
    /// played with their comments and times (each line up to its first move that could not be
    /// played), the lines played instead, and its ending. `None` when the game was not played
    /// out (see [`super::Options::replay`]).
    ///
    /// ```
    /// let file = kifu::psn::check_bytes(b"1. P7f {a comment} P3d (P8d) 2. P2f Resigns\n", Default::default());
    /// let game = file.games[0].to_game().expect("the game was played out");
    /// assert_eq!(game.to_usi(), "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 2g2f");
    /// assert_eq!(game.moves[0].comments, ["a comment"]);
    /// assert_eq!(game.moves[1].variations[0].moves[0].mv.to_string(), "8c8d");
    /// assert_eq!(game.ending.and_then(|e| e.outcome), Some(kifu::shogi::Outcome::Win(kifu::shogi::Color::Black)));
    /// ```
    pub fn to_game(&self) -> Option<shogi::Game> {
        let replay = self.replay.as_ref()?;
        let mut game = shogi::Game::new(replay.start.clone());
        game.headers = self.game.headers.iter().map(|h| (h.key.to_string(), h.value.to_string())).collect();
        game.comments = self.game.comments.iter().map(|c| c.text.clone()).collect();
        game.moves = line(&self.game.moves, replay, 0, replay.start.side);
        let to_move = game.final_position().side;
        game.ending = self.game.end.as_ref().map(|end| end.ending(to_move));
        // How the game ended, in the comment kifu writes it in: the last of the main line's
        // last move, or of the game's before its first.
        let last = match game.moves.last_mut() {
            Some(node) => &mut node.comments,
            None => &mut game.comments,
        };
        let said = self.game.end.as_ref().is_none_or(|end| end.kind != EndKind::EndWord);
        if let Some((reason, _)) = said.then(|| take_end_word(last)).flatten() {
            let outcome = game.ending.and_then(|e| e.outcome);
            game.ending = Some(Ending { reason: Some(reason), outcome });
        }
        Some(game)
    }
}

/// The moves of `nodes` that were played, up to the first that was not, with their variations
/// (`depth` lines deep already: the reader keeps no deeper line than [`MAX_VARIATION_DEPTH`],
/// and none is followed past it); `mover` plays the first.
fn line(nodes: &[MoveNode], replay: &Replay, depth: usize, mut mover: Color) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for written in nodes {
        let Some(played) = replay.resolved(written.mv.span.start) else { break };
        let mut node = Node::new(played.mv);
        let comments = written.comments_before().iter().chain(written.comments_after());
        node.comments = comments.map(|c| c.text.clone()).collect();
        node.time = written.clocks().iter().find_map(|c| time(&c.text));
        if node.time.is_none() {
            // A time in the comment kifu writes it in, `{(00:01 / 00:00:09)}`.
            if let Some(at) = node.comments.iter().position(|c| time(c).is_some()) {
                node.time = time(&node.comments.remove(at));
            }
        }
        if depth < MAX_VARIATION_DEPTH {
            for variation in written.variations() {
                let mut moves = line(&variation.moves, replay, depth + 1, mover);
                if let Some(first) = moves.first_mut() {
                    // Comments before a variation's first move are that move's.
                    let before = variation.comments.iter().map(|c| c.text.clone());
                    first.comments.splice(0..0, before);
                }
                // How the line ended, in the comment kifu writes it in: the last of its last
                // move (who won is what the word says).
                let to_move = if moves.len() % 2 == 0 { mover } else { mover.opponent() };
                let ending = moves
                    .last_mut()
                    .and_then(|last| take_end_word(&mut last.comments))
                    .map(|(reason, says)| Ending { reason: Some(reason), outcome: says.outcome(to_move) });
                if !moves.is_empty() {
                    node.variations.push(Variation { moves, ending });
                }
            }
        }
        out.push(node);
        mover = mover.opponent();
    }
    out
}

/// The end word that `comments`' last is, taken out of them: how a line ended, in the comment
/// kifu writes it in (`{Resigns}`).
fn take_end_word(comments: &mut Vec<String>) -> Option<(shogi::EndReason, Says)> {
    let word = comments.last().and_then(|c| end_word(c))?;
    comments.pop();
    Some(word)
}

/// A parenthesised clock, `(00:01 / 00:00:09)`: the time the move took and the mover's total.
/// A clock column (`07:55:00`) says no more than a time of day or a total whose side the
/// dialects disagree on, and gives none.
fn time(text: &str) -> Option<MoveTime> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (spent, total) = inner.split_once('/')?;
    let time = MoveTime { spent: parse_clock(spent), total: parse_clock(total) };
    (time != MoveTime::default()).then_some(time)
}

#[cfg(test)]
mod tests {
    use crate::shogi::{Color, EndReason, Outcome};
    use std::time::Duration;

    fn game(text: &str) -> crate::shogi::Game {
        let file = crate::psn::check_bytes(text.as_bytes(), Default::default());
        file.games[0].to_game().expect("played out")
    }

    #[test]
    fn the_main_line_is_the_replay_and_stops_at_the_first_illegal_move() {
        let text = "[Sente \"A\"]\n{before} 1. P7f P3d 2. P7f P8d\n";
        let file = crate::psn::check_bytes(text.as_bytes(), Default::default());
        let checked = &file.games[0];
        let game = checked.to_game().expect("played out");
        let replay = checked.replay.as_ref().expect("replayed");
        assert_eq!(game.main_line().collect::<Vec<_>>(), replay.moves, "the second P7f has no pawn");
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.header("sente"), Some("A"));
        assert_eq!(game.comments, ["before"]);
        assert_eq!(game.final_position(), replay.end.to_position());
    }

    #[test]
    fn times_and_endings_are_read() {
        let g = game("1. P7f (00:01 / 00:00:09) P3d (00:04 / 00:00:13) 2. P2f Resigns\n");
        assert_eq!(g.moves[0].time.and_then(|t| t.spent), Some(Duration::from_secs(1)));
        assert_eq!(g.moves[0].time.and_then(|t| t.total), Some(Duration::from_secs(9)));
        assert_eq!(g.moves[1].time.and_then(|t| t.total), Some(Duration::from_secs(13)));
        let ending = g.ending.expect("an ending");
        assert_eq!(ending.reason, Some(EndReason::Resignation));
        assert_eq!(ending.outcome, Some(Outcome::Win(Color::Black)), "White, to move, resigned");
        assert_eq!(game("1. P7f 0\u{2010}1\n").ending.and_then(|e| e.outcome), Some(Outcome::Win(Color::White)));
        assert_eq!(game("1. P7f \u{BD}-\u{BD}\n").ending.and_then(|e| e.outcome), Some(Outcome::Draw));
        assert_eq!(
            game("1. P7f Interrupt\n").ending.map(|e| (e.reason, e.outcome)),
            Some((Some(EndReason::Interrupted), None))
        );
    }

    /// What `kifu convert --to psn` writes in comments, for want of words in the spec: a time,
    /// alone in a comment after its move, and how the game ended, the main line's last comment.
    #[test]
    fn a_time_or_an_ending_in_a_comment_is_read_as_kifu_writes_it() {
        let g = game("1. P7f {(00:01 / 00:00:09)} {a} P3d {( 01:02 / )} {Resigns} 1-0\n");
        assert_eq!(g.moves[0].time.and_then(|t| t.total), Some(Duration::from_secs(9)));
        assert_eq!(g.moves[0].comments, ["a"]);
        assert_eq!(g.moves[1].time.map(|t| (t.spent, t.total)), Some((Some(Duration::from_secs(62)), None)));
        assert!(g.moves[1].comments.is_empty());
        let ending = g.ending.map(|e| (e.reason, e.outcome));
        assert_eq!(ending, Some((Some(EndReason::Resignation), Some(Outcome::Win(Color::Black)))));
        // The result alone says who won; the word, why.
        let ending = game("1. P7f {interrupt}\n").ending.map(|e| (e.reason, e.outcome));
        assert_eq!(ending, Some((Some(EndReason::Interrupted), None)));
        let ending = game("[Event \"e\"]\n{MaxMovesDraw}\n").ending.map(|e| (e.reason, e.outcome));
        assert_eq!(ending, Some((Some(EndReason::MaxMoves), None)));
        // Elsewhere, or beside an end word written as one, the word is a comment.
        let g = game("1. P7f {Resigns} {later}\n");
        assert_eq!((g.ending, g.moves[0].comments.len()), (None, 2));
        let g = game("1. P7f {Mate} Resigns\n");
        assert_eq!(g.ending.and_then(|e| e.reason), Some(EndReason::Resignation));
        assert_eq!(g.moves[0].comments, ["Mate"]);
        assert_eq!(game("1. P7f {(see 2:00)} P3d\n").moves[0].comments, ["(see 2:00)"], "no clock");
    }

    #[test]
    fn variations_keep_their_comments_and_stop_where_they_cannot_be_played() {
        let g = game("1. P7f P3d ({why} P8d 2. P7f) 2. P2f\n");
        assert_eq!(g.moves[1].variations.len(), 1);
        let v = &g.moves[1].variations[0];
        assert_eq!(v.moves.len(), 1, "P7f again has no pawn to move");
        assert_eq!(v.moves[0].comments, ["why"]);
        assert_eq!(g.lines().len(), 2);
    }
}
