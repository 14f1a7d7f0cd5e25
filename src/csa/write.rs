//! A [`Game`] written as CSA, as the standard's pages write a record: the version, the names
//! and information lines, the start (`PI` with the pieces a handicap takes off, or the nine
//! rows and the pieces in hand), the side to move, one move a line with its time and
//! comments, and the end.

use std::fmt::Write as _;
use std::time::Duration;

use super::syntax::{piece_name, sign, Statement, INFO_KEYS};
use crate::shogi::game::HEADER_NAMES;
use crate::shogi::rules::State;
use crate::shogi::{Color, EndReason, Ending, Game, Move, Node, PieceKind, Position, Record};

/// The version of the CSA standard a record is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// Version 2.2 (2008): times in whole seconds, no `%MAX_MOVES`; a file in Shift_JIS.
    V22,
    /// Version 3.0 (2024): times to the millisecond; its first line names the file's encoding
    /// (`'CSA encoding=UTF-8`).
    V30,
}

/// Writes `game` as a CSA record of `version`; a V3.0 record starts with the line that names
/// the encoding, UTF-8.
///
/// ```
/// use kifu::csa::{write, Version};
/// let read = kifu::csa::check_bytes(b"V2.2\nN+Sente\nPI\n+\n+7776FU\nT12\n%TORYO\n");
/// let record = write(&read.games[0], Version::V30);
/// assert_eq!(record.text, "'CSA encoding=UTF-8\nV3.0\nN+Sente\nPI\n+\n+7776FU\nT12\n%TORYO\n");
/// assert!(record.lost.is_empty());
/// ```
pub fn write(game: &Game, version: Version) -> Record {
    record(game, version, true)
}

/// Writes `game` as a CSA record of `version`; `first` when it starts its file (a V3.0 file's
/// first line names its encoding).
pub(crate) fn record(game: &Game, version: Version, first: bool) -> Record {
    let mut out = Record { text: String::new(), lost: Vec::new() };
    if first && version == Version::V30 {
        out.text.push_str("'CSA encoding=UTF-8\n");
    }
    out.text.push_str(match version {
        Version::V22 => "V2.2\n",
        Version::V30 => "V3.0\n",
    });
    headers(game, &mut out);
    start(&game.start, &mut out);
    comments(&game.comments, &mut out);
    let mut state = State::new(&game.start);
    let mut totals = [Some(Duration::ZERO); 2];
    for node in &game.moves {
        let side = state.side();
        // A game built by hand may hold a move from an empty square: the moves stop there.
        if !write_move(&state, node.mv, &mut out.text) {
            out.lose("the moves from the first that moves no piece");
            return out;
        }
        time(node, version, &mut totals[side.index()], &mut out);
        comments(&node.comments, &mut out);
        if !node.variations.is_empty() {
            out.lose("variations");
        }
        if !node.bookmarks.is_empty() {
            out.lose("bookmarks");
        }
        state.play_unchecked(node.mv);
    }
    if let Some(ending) = game.ending {
        end(ending, state.side(), version, &mut out);
    }
    out
}

/// The CSA line a header of the game is written as: a player's name (`N+…`) or an information
/// line (`$EVENT:…`), or `None` for a key CSA has no line for.
fn header_line(key: &str, value: &str) -> Option<String> {
    let line = match key.to_ascii_lowercase().as_str() {
        "sente" | "black" | "先手" | "下手" => format!("N+{value}"),
        "gote" | "white" | "後手" | "上手" => format!("N-{value}"),
        _ if key.starts_with('$') => format!("{key}:{value}"),
        _ => {
            let kif = HEADER_NAMES.iter().find(|(psn, _)| psn.eq_ignore_ascii_case(key)).map_or(key, |(_, kif)| kif);
            let (csa, _) = INFO_KEYS.iter().find(|(_, k)| *k == kif)?;
            format!("{csa}:{value}")
        }
    };
    // Written only when the grammar reads it back as the same name or information.
    let back = super::syntax::line(&line, 0);
    let same = match &back[..] {
        [(Statement::Name(_, name), _)] => name == value,
        [(Statement::Info(k, v), _)] => v == value && key.strip_prefix('$').is_none_or(|key| key == k),
        _ => false,
    };
    same.then_some(line)
}

/// The names, then the information lines; a header CSA has no line for is left out.
fn headers(game: &Game, out: &mut Record) {
    let mut lines = Vec::new();
    for (key, value) in &game.headers {
        // The result and the start are written as the end and the start.
        if matches!(key.to_ascii_lowercase().as_str(), "result" | "handicap" | "fen" | "sfen" | "手合割") {
            continue;
        }
        let mut parts = value.split(['\n', '\r']).filter(|l| !l.is_empty());
        let first = parts.next().unwrap_or("");
        if parts.next().is_some() {
            out.lose("the lines of a header value after its first");
        }
        match header_line(key, first) {
            Some(line) => lines.push(line),
            None => out.lose("headers CSA has no line for"),
        }
    }
    // The names first, as the standard orders them.
    lines.sort_by_key(|line| !line.starts_with('N'));
    for line in lines {
        out.text.push_str(&line);
        out.text.push('\n');
    }
}

/// The start: `PI` and the pieces a handicap takes off when the start is the start position
/// with pieces taken off; else the nine rows and the pieces in hand. Then the side to move.
fn start(start: &Position, out: &mut Record) {
    let full = &Position::STARTPOS.board;
    let handicap = start.hands.iter().all(|h| h.is_empty())
        && crate::shogi::Square::all().all(|sq| start.board.get(sq).is_none_or(|p| full.get(sq) == Some(p)));
    if handicap {
        out.text.push_str("PI");
        for (square, piece) in full.pieces() {
            if start.board.get(square).is_none() {
                let _ = write!(out.text, "{}{}{}", square.file(), square.rank(), piece_name(piece.kind, false));
            }
        }
        out.text.push('\n');
    } else {
        for rank in 1..=9 {
            let _ = write!(out.text, "P{rank}");
            for file in (1..=9).rev() {
                match crate::shogi::Square::new(file, rank).and_then(|square| start.board.get(square)) {
                    Some(p) => {
                        let _ = write!(out.text, "{}{}", sign(p.color), piece_name(p.kind, p.promoted));
                    }
                    None => out.text.push_str(" * "),
                }
            }
            out.text.push('\n');
        }
        for color in [Color::Black, Color::White] {
            let hand = &start.hands[color.index()];
            if hand.is_empty() {
                continue;
            }
            out.text.push('P');
            out.text.push_str(sign(color));
            // Gote holding every piece not placed yet (a problem's start) is `P-00AL`.
            let rest = |kind: PieceKind| {
                let on_board = start.board.pieces().filter(|(_, p)| p.kind == kind).count();
                kind.supply().saturating_sub(u32::try_from(on_board).unwrap_or(u32::MAX) + start.hands[0].count(kind))
            };
            if color == Color::White && PieceKind::USI_HAND_ORDER.iter().all(|&kind| hand.count(kind) == rest(kind)) {
                out.text.push_str("00AL\n");
                continue;
            }
            for kind in PieceKind::USI_HAND_ORDER {
                for _ in 0..hand.count(kind) {
                    let _ = write!(out.text, "00{}", piece_name(kind, false));
                }
            }
            out.text.push('\n');
        }
    }
    out.text.push_str(sign(start.side));
    out.text.push('\n');
    if start.move_number.is_some_and(|n| n != 1) {
        out.lose("the start's move number");
    }
}

/// A move's line, `+7776FU`; false, and nothing written, when no piece stands on its origin.
fn write_move(state: &State, mv: Move, text: &mut String) -> bool {
    let Some(line) = move_text(state, mv) else { return false };
    text.push_str(&line);
    text.push('\n');
    true
}

/// A move of `state` as CSA writes it, `+7776FU`: the side, the origin (`00` for a drop), the
/// destination and the piece after the move; `None` when no piece stands on its origin.
pub(crate) fn move_text(state: &State, mv: Move) -> Option<String> {
    let side = sign(state.side());
    Some(match mv {
        Move::Board { from, to, promote } => {
            let piece = state.piece_at(from)?;
            let name = piece_name(piece.kind, piece.promoted || promote);
            format!("{side}{}{}{}{}{name}", from.file(), from.rank(), to.file(), to.rank())
        }
        Move::Drop { kind, to } => format!("{side}00{}{}{}", to.file(), to.rank(), piece_name(kind, false)),
    })
}

/// A move's time, `T12` (V3.0: `T12.345` when it has a fraction), when the node has one;
/// `total` is the mover's sum so far, which a reader of CSA finds again.
fn time(node: &Node, version: Version, total: &mut Option<Duration>, out: &mut Record) {
    let (spent, given) = match node.time {
        Some(t) => (t.spent, t.total),
        None => (None, None),
    };
    let Some(mut spent) = spent else {
        *total = None;
        if given.is_some() {
            out.lose("a move's total time without the time it took");
        }
        return;
    };
    *total = total.map(|sum| sum + spent);
    if given.is_some_and(|g| Some(g) != *total) {
        out.lose("the moves' total times that are not the sums of their times");
    }
    if version == Version::V22 && spent.subsec_millis() != 0 {
        out.lose("the fractions of a second of a move's time");
        spent = Duration::from_secs(spent.as_secs());
    }
    let ms = spent.subsec_millis();
    if ms == 0 {
        let _ = writeln!(out.text, "T{}", spent.as_secs());
    } else {
        let _ = writeln!(out.text, "T{}.{ms:03}", spent.as_secs());
    }
}

/// Comments, each line a `'` line.
fn comments(comments: &[String], out: &mut Record) {
    for comment in comments {
        for line in comment.trim_matches(['\n', '\r']).replace("\r\n", "\n").split(['\n', '\r']) {
            let _ = writeln!(out.text, "'{line}");
        }
    }
}

/// The end, `%TORYO`: the one CSA name of `ending`'s reason that says who won as the ending
/// does (`mover` is the side to move at the end). An ending CSA cannot say is left out.
fn end(ending: Ending, mover: Color, version: Version, out: &mut Record) {
    if ending.reason == Some(EndReason::MaxMoves) && version == Version::V22 {
        out.lose("an end by the limit of moves (`%MAX_MOVES` is V3.0's)");
        return;
    }
    let (name, lost) = ending.to_csa(mover);
    if let Some(lost) = lost {
        out.lose(lost);
    }
    let Some(name) = name else { return };
    let _ = writeln!(out.text, "%{name}");
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{write, Version};
    use crate::shogi::{Color, EndReason, Ending, Game, Move, MoveTime, Node, Outcome, Position};

    fn game(start: &str, moves: &[&str]) -> Game {
        let mut game = Game::new(start.parse::<Position>().expect("SFEN"));
        game.moves = moves.iter().map(|m| Node::new(Move::from_usi(m).expect("USI"))).collect();
        game
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    /// Writes `game`, reads it back with no finding, and gives the game read.
    fn round_trip(game: &Game, version: Version) -> (String, Game, Vec<&'static str>) {
        let record = write(game, version);
        let (mut games, found) = crate::csa::check_text(&record.text);
        assert!(found.is_empty(), "{}: {found:#?}", record.text);
        assert_eq!(games.len(), 1, "{}", record.text);
        (record.text, games.remove(0), record.lost)
    }

    #[test]
    fn the_start_is_pi_for_the_start_position_and_its_handicaps() {
        let (text, back, lost) = round_trip(&game(START, &["7g7f", "3c3d", "8h2b+"]), Version::V30);
        assert_eq!(text, "'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n");
        assert_eq!(back.main_line().count(), 3);
        assert!(lost.is_empty());
        // Two pieces off (the rook and the bishop), gote to move.
        let two = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        let (text, back, _) = round_trip(&game(two, &["5a4b"]), Version::V22);
        assert_eq!(text, "V2.2\nPI82HI22KA\n-\n-5142OU\n");
        assert_eq!(back.start, two.parse().expect("SFEN"));
    }

    #[test]
    fn any_other_start_is_nine_rows_and_the_hands() {
        let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G2Prb 1";
        let (text, back, _) = round_trip(&game(sfen, &["G*5b"]), Version::V30);
        assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
        assert!(text.contains("P+00KI00FU00FU\nP-00HI00KA\n+\n+0052KI\n"), "{text}");
        assert_eq!(back.start, sfen.parse().expect("SFEN"));
        // A promoted piece on the board.
        let (text, ..) = round_trip(&game("4k4/9/4+P4/9/9/9/9/9/4K4 b - 1", &["5c5b"]), Version::V30);
        assert!(text.contains("P3 *  *  *  * +TO *  *  *  * \n") && text.contains("+5352TO\n"), "{text}");
    }

    #[test]
    fn times_are_seconds_or_milliseconds_and_totals_their_sums() {
        let mut g = game(START, &["7g7f", "3c3d", "2g2f"]);
        let spent = [12_000, 6_123, 3_000];
        let mut totals = [0; 2];
        for (i, (node, ms)) in g.moves.iter_mut().zip(spent).enumerate() {
            totals[i % 2] += ms;
            node.time = Some(MoveTime {
                spent: Some(Duration::from_millis(ms)),
                total: Some(Duration::from_millis(totals[i % 2])),
            });
        }
        let (text, back, lost) = round_trip(&g, Version::V30);
        assert!(text.contains("+7776FU\nT12\n-3334FU\nT6.123\n+2726FU\nT3\n"), "{text}");
        assert!(lost.is_empty(), "{lost:?}");
        assert_eq!(back.moves, g.moves);
        // V2.2 keeps whole seconds, and says so.
        let (text, _, lost) = round_trip(&g, Version::V22);
        assert!(text.contains("-3334FU\nT6\n"), "{text}");
        assert_eq!(lost, ["the fractions of a second of a move's time"]);
        // A total that is not the sum of the times is not held.
        g.moves[2].time = Some(MoveTime { spent: Some(Duration::from_secs(3)), total: Some(Duration::from_secs(99)) });
        assert_eq!(round_trip(&g, Version::V30).2, ["the moves' total times that are not the sums of their times"]);
    }

    #[test]
    fn each_ending_is_the_end_that_says_who_won() {
        let end = |reason: Option<EndReason>, outcome: Option<Outcome>, version: Version| {
            let mut g = game(START, &["7g7f"]);
            g.ending = Some(Ending { reason, outcome });
            let (text, back, lost) = round_trip(&g, version);
            (text.lines().last().unwrap_or("").to_owned(), back.ending, lost)
        };
        let white = Some(Outcome::Win(Color::White));
        let black = Some(Outcome::Win(Color::Black));
        // Gote is to move after 7g7f: it resigned, Black won.
        let (line, back, lost) = end(Some(EndReason::Resignation), None, Version::V30);
        assert_eq!(
            (line.as_str(), back, lost.len()),
            ("%TORYO", Some(Ending { reason: Some(EndReason::Resignation), outcome: black }), 0)
        );
        assert_eq!(end(Some(EndReason::Impasse), white, Version::V30).0, "%KACHI");
        assert_eq!(end(Some(EndReason::Impasse), Some(Outcome::Draw), Version::V30).0, "%JISHOGI");
        assert_eq!(end(Some(EndReason::IllegalMove), black, Version::V30).0, "%ILLEGAL_MOVE");
        assert_eq!(end(Some(EndReason::IllegalMove), white, Version::V30).0, "%+ILLEGAL_ACTION");
        assert_eq!(end(None, Some(Outcome::Draw), Version::V30).0, "%HIKIWAKE");
        assert_eq!(end(Some(EndReason::MaxMoves), None, Version::V30).0, "%MAX_MOVES");
        // What CSA cannot say is named.
        let (line, back, lost) = end(Some(EndReason::MaxMoves), None, Version::V22);
        assert_eq!((line.as_str(), back), ("+7776FU", None));
        assert_eq!(lost.len(), 1);
        assert_eq!(end(None, black, Version::V30).2, ["a result with no reason for it"]);
        assert_eq!(end(Some(EndReason::Resignation), white, Version::V30).2, ["a result its reason contradicts"]);
    }

    #[test]
    fn a_move_from_an_empty_square_ends_the_moves_written() {
        let mut g = game(START, &["7g7f"]);
        g.moves.push(Node::new(Move::from_usi("5e5d").expect("USI")));
        let record = write(&g, Version::V30);
        assert!(record.text.ends_with("PI\n+\n+7776FU\n"), "{}", record.text);
        assert_eq!(record.lost, ["the moves from the first that moves no piece"]);
    }

    #[test]
    fn headers_comments_and_what_csa_cannot_hold() {
        let mut g = game(START, &["7g7f", "3c3d"]);
        g.headers = vec![
            ("先手".into(), "羽生".into()),
            ("Event".into(), "名人戦".into()),
            ("$NOTE".into(), "a\\nb".into()),
            ("備考".into(), "none".into()),
        ];
        g.comments = vec!["before\nthe game".into()];
        g.moves[0].comments = vec!["** 30 -3334FU".into()];
        g.moves[0].variations.push(vec![Node::new(Move::from_usi("2g2f").expect("USI"))].into());
        let (text, back, lost) = round_trip(&g, Version::V30);
        assert!(text.starts_with("'CSA encoding=UTF-8\nV3.0\nN+羽生\n$EVENT:名人戦\n$NOTE:a\\nb\nPI\n+\n'before\n'the game\n+7776FU\n'** 30 -3334FU\n"), "{text}");
        assert_eq!(back.header("先手"), Some("羽生"));
        assert_eq!(back.header("棋戦"), Some("名人戦"));
        assert_eq!(back.comments, ["before", "the game"]);
        assert_eq!(back.moves[0].comments, g.moves[0].comments);
        assert_eq!(lost, ["headers CSA has no line for", "variations"]);
    }
}
