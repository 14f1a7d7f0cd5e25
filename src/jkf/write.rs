//! A game written as JKF: the schema's types ([`super::schema`]) filled from the game and
//! serialized as JSON, each move with what json-kifu-format's own writer adds (`same`,
//! `capture`, `promote` where the piece could promote, `relative` where several pieces could
//! move), so that every JKF reader reads it.

use std::time::Duration;

use super::read::{preset_of, MAX_FORK_DEPTH};
use super::schema::{self, Board, Cell, Clock, Data, Entry, Header, Initial, Jkf, Kind, Place, Preset, Side, Special};
use crate::shogi::game::HEADER_NAMES;
use crate::shogi::relative::{self, Motion};
use crate::shogi::rules::State;
use crate::shogi::{Color, Ending, Game, Move, Node, Piece, PieceKind, Position, Record, Square};

/// Writes `game` as a JKF record (UTF-8 JSON, two spaces a level), and names what JKF cannot
/// hold: bookmarks, the start's move number, fractions of a second, an end by the limit of
/// moves, forks nested deeper than kifu reads them.
///
/// ```
/// let read = kifu::csa::check_bytes(b"V2.2\nPI\n+\n+7776FU\nT12\n%TORYO\n");
/// let record = kifu::jkf::write(&read.games[0]);
/// let back = kifu::jkf::check_bytes(record.text.as_bytes());
/// assert!(back.is_valid(), "{:?}", back.diagnostics);
/// assert_eq!(back.game.expect("a game").to_usi(), read.games[0].to_usi());
/// ```
pub fn write(game: &Game) -> Record {
    let mut out = Record { text: String::new(), lost: Vec::new() };
    let jkf = Jkf {
        header: Header(headers(game)),
        initial: Some(initial(&game.start, &mut out)),
        moves: std::iter::once(Entry { comments: non_empty(&game.comments), ..Entry::default() })
            .chain(line(State::new(&game.start), None, &game.moves, game.ending, 0, &mut out))
            .collect(),
    };
    out.text = layout(&jkf);
    out
}

/// The record as JSON, laid out to be read and compared line by line: the header a key a line,
/// the start on one line, each entry of the main line on its own (its forks within it).
fn layout(jkf: &Jkf) -> String {
    // Serializing kifu's own types into a string fails on nothing.
    let json = |value: &dyn erased::Json| value.json();
    let mut text = String::from("{\n  \"header\": {");
    for (i, (key, value)) in jkf.header.0.iter().enumerate() {
        text.push_str(if i == 0 { "\n    " } else { ",\n    " });
        text.push_str(&json(key));
        text.push_str(": ");
        text.push_str(&json(value));
    }
    text.push_str(if jkf.header.0.is_empty() { "},\n" } else { "\n  },\n" });
    if let Some(initial) = &jkf.initial {
        text.push_str("  \"initial\": ");
        text.push_str(&json(initial));
        text.push_str(",\n");
    }
    text.push_str("  \"moves\": [");
    for (i, entry) in jkf.moves.iter().enumerate() {
        text.push_str(if i == 0 { "\n    " } else { ",\n    " });
        text.push_str(&json(entry));
    }
    text.push_str("\n  ]\n}\n");
    text
}

mod erased {
    /// A value written as compact JSON.
    pub(super) trait Json {
        fn json(&self) -> String;
    }

    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap_or_default()
        }
    }
}

/// The headers, PSN's keys named as KIF names them; the start and the result are written as
/// the start and the end.
fn headers(game: &Game) -> Vec<(String, String)> {
    game.headers
        .iter()
        .filter(|(key, _)| {
            !matches!(key.to_ascii_lowercase().as_str(), "result" | "handicap" | "fen" | "sfen" | "手合割")
        })
        .map(|(key, value)| {
            let kif =
                HEADER_NAMES.iter().find(|(psn, _)| psn.eq_ignore_ascii_case(key)).map_or(key.as_str(), |(_, kif)| kif);
            (kif.to_owned(), value.clone())
        })
        .collect()
}

/// The start: a handicap by its name, or `OTHER` and the position.
fn initial(start: &Position, out: &mut Record) -> Initial {
    if start.move_number.is_some_and(|n| n != 1) {
        out.lose("the start's move number");
    }
    let preset = preset_of(start);
    if preset != Preset::Other {
        return Initial { preset, data: None };
    }
    let board = (1..=9)
        .map(|x| {
            (1..=9)
                .map(|y| match Square::new(x, y).and_then(|sq| start.board.get(sq)) {
                    Some(p) => Cell { color: Some(side(p.color)), kind: Some(Kind(p.kind, p.promoted)) },
                    None => Cell::default(),
                })
                .collect()
        })
        .collect();
    let hands = [Color::Black, Color::White].map(|c| {
        PieceKind::ALL
            .into_iter()
            .filter(|&k| k != PieceKind::King)
            .filter_map(|k| {
                let n = start.hand(c).count(k);
                (n > 0).then_some((Kind(k, false), n))
            })
            .collect()
    });
    Initial { preset, data: Some(Data { color: side(start.side), board: Board(board), hands }) }
}

/// The entries of a line played from `state` (the move before it went to `last_to`), its forks
/// within (`depth` forks deep), then its end.
fn line(
    mut state: State,
    mut last_to: Option<Square>,
    nodes: &[Node],
    ending: Option<Ending>,
    depth: usize,
    out: &mut Record,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    // The totals of each side, for the times that give none.
    let mut totals = [Some(Duration::ZERO); 2];
    for node in nodes {
        let Some(mv) = write_move(&state, node.mv, last_to) else {
            out.lose("the moves after one no piece makes");
            return entries;
        };
        let mut entry = Entry { comments: non_empty(&node.comments), mv: Some(mv), ..Entry::default() };
        if !node.bookmarks.is_empty() {
            out.lose("bookmarks");
        }
        entry.time = time(node, &mut totals[state.side().index()], out);
        if !node.variations.is_empty() {
            if depth >= MAX_FORK_DEPTH {
                out.lose("forks nested deeper than kifu reads them");
            } else {
                entry.forks =
                    node.variations.iter().map(|v| line(state, last_to, &v.moves, v.ending, depth + 1, out)).collect();
            }
        }
        entries.push(entry);
        if state.play(node.mv).is_err() {
            out.lose("the moves after one that is not legal");
            return entries;
        }
        last_to = Some(node.mv.to());
    }
    if let Some(ending) = ending {
        let (name, lost) = ending.to_csa(state.side());
        if let Some(lost) = lost {
            out.lose(lost);
        }
        match name {
            Some("MAX_MOVES") => out.lose("an end by the limit of moves"),
            Some(name) => entries.push(Entry { special: Some(Special(name.to_owned())), ..Entry::default() }),
            None => {}
        }
    }
    entries
}

/// `mv` as JKF writes it in `state`, or `None` for a move from a square without a piece.
fn write_move(state: &State, mv: Move, last_to: Option<Square>) -> Option<schema::Move> {
    let side = state.side();
    let to = mv.to();
    let (from, piece, promote, relative) = match mv {
        Move::Drop { kind, to } => {
            let piece = Piece { color: side, kind, promoted: false };
            // `H` (打) where a piece on the board could make the move too.
            let also = !relative::candidates(state, piece, to).is_empty();
            (None, piece, None, also.then(|| "H".to_owned()))
        }
        Move::Board { from, promote, .. } => {
            let piece = state.piece_at(from)?;
            let could =
                !piece.promoted && piece.kind.can_promote() && (from.rank_from(side) <= 3 || to.rank_from(side) <= 3);
            let words = relative::jsa_of(state, piece, mv);
            let relative = relative_text(words);
            (Some(place(from)), piece, (promote || could).then_some(promote), relative)
        }
    };
    Some(schema::Move {
        color: self::side(side),
        from,
        to: place(to),
        piece: Kind(piece.kind, piece.promoted),
        same: (last_to == Some(to)).then_some(true),
        promote,
        capture: state.piece_at(to).map(|p| Kind(p.kind, p.promoted)),
        relative,
    })
}

/// JKF's letters for the JSA's words (`LU`), or `None` when there are none.
fn relative_text(words: relative::Relative) -> Option<String> {
    let mut text = String::new();
    text.push_str(match words.place {
        Some(relative::Place::Left) => "L",
        Some(relative::Place::Straight) => "C",
        Some(relative::Place::Right) => "R",
        None => "",
    });
    text.push_str(match words.motion {
        Some(Motion::Up) => "U",
        Some(Motion::Sideways) => "M",
        Some(Motion::Down) => "D",
        None => "",
    });
    (!text.is_empty()).then_some(text)
}

/// A move's time: what it took and the mover's total (`total`, that side's running sum, stands
/// in where the game gives none).
fn time(node: &Node, total: &mut Option<Duration>, out: &mut Record) -> Option<schema::Time> {
    let Some(time) = node.time else {
        *total = None;
        return None;
    };
    *total = match (*total, time.spent) {
        (Some(sum), Some(spent)) => Some(sum + spent),
        _ => None,
    };
    let spent = time.spent?;
    let Some(sum) = time.total.or(*total) else {
        out.lose("a move's time without the mover's total");
        return None;
    };
    Some(schema::Time { now: clock(spent, false, out), total: Some(clock(sum, true, out)) })
}

/// A time as JKF writes it: minutes and seconds, and hours for a total.
fn clock(d: Duration, hours: bool, out: &mut Record) -> Clock {
    if d.subsec_nanos() != 0 {
        out.lose("the fractions of a second of a move's time");
    }
    let s = d.as_secs();
    if hours {
        Clock { h: Some(s / 3600), m: s / 60 % 60, s: s % 60 }
    } else {
        Clock { h: None, m: s / 60, s: s % 60 }
    }
}

fn side(color: Color) -> Side {
    Side(match color {
        Color::Black => 0,
        Color::White => 1,
    })
}

fn place(square: Square) -> Place {
    Place { x: i64::from(square.file()), y: i64::from(square.rank()) }
}

fn non_empty(comments: &[String]) -> Option<Vec<String>> {
    (!comments.is_empty()).then(|| comments.to_vec())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::write;
    use crate::shogi::{EndReason, Ending, Game, Move, MoveTime, Node, Outcome, Position, Variation};

    fn game(start: &str, moves: &[&str]) -> Game {
        let mut game = Game::new(start.parse::<Position>().expect("SFEN"));
        game.moves = moves.iter().map(|m| Node::new(Move::from_usi(m).expect("a USI move"))).collect();
        game
    }

    /// `game` written and read back: the text, the game read and what was left out.
    fn round_trip(game: &Game) -> (String, Game, Vec<&'static str>) {
        let record = write(game);
        let read = crate::jkf::check_bytes(record.text.as_bytes());
        assert!(read.diagnostics.is_empty(), "{:#?}\n{}", read.diagnostics, record.text);
        (record.text, read.game.expect("a game"), record.lost)
    }

    #[test]
    fn a_game_reads_back_as_written_and_writes_the_same_text_again() {
        let mut g = game(crate::shogi::handicap::EVEN, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        g.headers = vec![("先手".into(), "Sente".into()), ("Event".into(), "Meijin".into())];
        g.comments = vec!["before".into()];
        g.moves[2].comments = vec!["takes".into()];
        g.moves[0].time = Some(MoveTime { spent: Some(Duration::from_secs(75)), total: Some(Duration::from_secs(75)) });
        g.moves[1]
            .variations
            .push(Variation { moves: vec![Node::new(Move::from_usi("8c8d").expect("USI"))], ending: None });
        g.ending = Some(Ending {
            reason: Some(EndReason::Resignation),
            outcome: Some(Outcome::Win(crate::shogi::Color::Black)),
        });
        let (text, back, lost) = round_trip(&g);
        assert!(lost.is_empty(), "{lost:?}");
        assert_eq!(back.moves, g.moves);
        assert_eq!(back.ending, g.ending);
        assert_eq!(back.comments, g.comments);
        assert_eq!(back.headers, [("先手".to_owned(), "Sente".to_owned()), ("棋戦".to_owned(), "Meijin".to_owned())]);
        // What json-kifu-format's writer adds: the piece before the move, the capture as it
        // stood, `same`, `promote`, `H` for a drop another bishop could not make.
        assert!(text.contains("\"piece\":\"KA\",\"promote\":true,\"capture\":\"KA\""), "{text}");
        assert!(text.contains("\"same\":true"), "{text}");
        assert!(text.contains("\"time\":{\"now\":{\"m\":1,\"s\":15},\"total\":{\"h\":0,\"m\":1,\"s\":15}}"), "{text}");
        assert_eq!(write(&back).text, text);
    }

    #[test]
    fn the_start_is_a_preset_or_its_board_and_hands() {
        let (text, back, _) = round_trip(&game(crate::shogi::handicap::TWO, &["5a4b"]));
        assert!(text.contains("\"initial\": {\"preset\":\"2\"}"), "{text}");
        assert_eq!(back.start.to_string(), crate::shogi::handicap::TWO);
        let start = "4k4/9/9/9/9/9/9/9/4K4 w 2Pr 1";
        let (text, back, _) = round_trip(&game(start, &["R*5h"]));
        assert!(text.contains("\"preset\":\"OTHER\""), "{text}");
        assert_eq!(back.start, start.parse::<Position>().expect("SFEN"));
    }

    #[test]
    fn what_jkf_cannot_hold_is_named() {
        let mut g = game(crate::shogi::handicap::EVEN, &["7g7f"]);
        g.moves[0].time = Some(MoveTime { spent: Some(Duration::from_millis(1500)), total: None });
        g.moves[0].bookmarks = vec!["here".into()];
        g.ending = Some(Ending { reason: Some(EndReason::MaxMoves), outcome: Some(Outcome::Draw) });
        let (_, back, lost) = round_trip(&g);
        assert_eq!(lost, ["bookmarks", "the fractions of a second of a move's time", "an end by the limit of moves"]);
        assert_eq!(back.moves[0].time.and_then(|t| t.total), Some(Duration::from_secs(1)));
    }

    #[test]
    fn forks_as_deep_as_kifu_reads_them_read_back_and_deeper_ones_are_named() {
        // A fork of a fork of …: each replaces the first move of the line above with the same
        // move.
        let deep = |depth: usize| {
            let mut g = game(crate::shogi::handicap::EVEN, &["7g7f"]);
            let mut line = vec![Node::new(Move::from_usi("2g2f").expect("USI"))];
            for _ in 1..depth {
                let mut node = Node::new(Move::from_usi("2g2f").expect("USI"));
                node.variations.push(line.into());
                line = vec![node];
            }
            g.moves[0].variations.push(line.into());
            g
        };
        let (_, back, lost) = round_trip(&deep(super::MAX_FORK_DEPTH));
        assert!(lost.is_empty(), "{lost:?}");
        assert_eq!(back.lines().len(), super::MAX_FORK_DEPTH + 1);
        let record = write(&deep(super::MAX_FORK_DEPTH + 1));
        assert_eq!(record.lost, ["forks nested deeper than kifu reads them"]);
        assert!(crate::jkf::check_bytes(record.text.as_bytes()).diagnostics.is_empty());
    }
}
