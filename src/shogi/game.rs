//! A game of shogi as every game format records it, whatever its syntax: the headers, the
//! position it starts from, the moves played (each with its comments and time) and the lines
//! that could have been played instead, and how it ended.
//!
//! A format's reader resolves each written move in the position it is played from, so a
//! [`Game`] holds only moves the rules allow; the writers of every format start from it.

use std::time::Duration;

use super::rules::State;
use super::{Color, Move, Position};

/// A game written in a format: its text, and what of the game the format cannot hold.
#[derive(Debug)]
pub struct Record {
    /// The record, each line ended by a line feed.
    pub text: String,
    /// What the record leaves out, in words (`the start's move number`), each named once.
    pub lost: Vec<&'static str>,
}

impl Record {
    /// Notes that the record leaves `what` out (once).
    #[cfg(feature = "psn")]
    pub(crate) fn lose(&mut self, what: &'static str) {
        if !self.lost.contains(&what) {
            self.lost.push(what);
        }
    }
}

/// The headers PSN and KIF both name: PSN's keyword, then KIF's key. The players are KIF's
/// `先手` and `後手` in an even game, `下手` and `上手` in a handicap game.
#[cfg(feature = "psn")]
pub(crate) const HEADER_NAMES: &[(&str, &str)] = &[
    ("Sente", "先手"),
    ("Gote", "後手"),
    ("Event", "棋戦"),
    ("Site", "場所"),
    ("Date", "開始日時"),
    ("TimeControl", "持ち時間"),
    ("Opening", "戦型"),
];

/// A game: where it starts, its moves, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The header lines, `(key, value)`, in the record's order.
    pub headers: Vec<(String, String)>,
    /// The position the first move is played from.
    pub start: Position,
    /// Comments on the game before its first move.
    pub comments: Vec<String>,
    /// The main line, each move legal in the position before it.
    pub moves: Vec<Node>,
    /// How the game ended, when the record says.
    pub ending: Option<Ending>,
}

/// A move of a game, with what the record says of it and the lines played instead of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// Comments on the move.
    pub comments: Vec<String>,
    /// The time the move took and the mover's total, when the record gives them.
    pub time: Option<MoveTime>,
    /// The bookmarks (KIF's しおり) set on the position after the move, by name.
    pub bookmarks: Vec<String>,
    /// Lines that replace this move: each starts from the position before it.
    pub variations: Vec<Variation>,
}

/// A line played instead of a move, from the position before it: its moves, and how it ended
/// when the record says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The moves, the first replacing the move the variation belongs to.
    pub moves: Vec<Node>,
    /// How the line ended, when the record says.
    pub ending: Option<Ending>,
}

impl From<Vec<Node>> for Variation {
    /// A line of `moves` with no ending.
    fn from(moves: Vec<Node>) -> Self {
        Variation { moves, ending: None }
    }
}

/// A tree of any depth is dropped without recursion: the variations below a node are taken
/// out and dropped line by line. (The readers keep variations at most a hundred deep, so cloning
/// and comparing, which do recurse, stay shallow on any game they give.)
impl Drop for Node {
    fn drop(&mut self) {
        let mut lines = std::mem::take(&mut self.variations);
        while let Some(mut line) = lines.pop() {
            for node in &mut line.moves {
                lines.append(&mut node.variations);
            }
        }
    }
}

impl Node {
    /// A move with no comment, time, bookmark or variation.
    pub fn new(mv: Move) -> Self {
        Node { mv, comments: Vec::new(), time: None, bookmarks: Vec::new(), variations: Vec::new() }
    }
}

/// The time a move took, and the total its side had used after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTime {
    /// The time the move took.
    pub spent: Option<Duration>,
    /// The mover's total after it.
    pub total: Option<Duration>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Why it ended, when the record says.
    pub reason: Option<EndReason>,
    /// Who won, or a draw, when the record says or the reason tells.
    pub outcome: Option<Outcome>,
}

impl Ending {
    /// The ending a CSA or JKF end names (`TORYO`, without CSA's `%`), `mover` the side to move
    /// at it when known; `None` for a name that is none.
    pub fn from_csa(name: &str, mover: Option<Color>) -> Option<Self> {
        let reason = EndReason::from_csa(name)?;
        let win = |c: Option<Color>| c.map(Outcome::Win);
        let outcome = match name {
            "TORYO" | "TSUMI" | "TIME_UP" | "ILLEGAL_MOVE" => win(mover.map(Color::opponent)),
            // The sign is the side that broke the rules.
            "+ILLEGAL_ACTION" => Some(Outcome::Win(Color::White)),
            "-ILLEGAL_ACTION" => Some(Outcome::Win(Color::Black)),
            "KACHI" => win(mover),
            "JISHOGI" | "SENNICHITE" | "HIKIWAKE" | "MAX_MOVES" => Some(Outcome::Draw),
            // `CHUDAN`, `MATTA`, `FUZUMI`, `ERROR`: the game stopped, nobody won.
            _ => None,
        };
        Some(Ending { reason: Some(reason), outcome })
    }

    /// The one CSA (and JKF) name of this ending whose reason and winner are the ending's
    /// (`mover` is the side to move at the end), and what the name cannot say, in words: an
    /// ending with neither reason nor result has no name; a result with no reason, or one its
    /// reason contradicts, is named by its reason alone.
    #[cfg(feature = "psn")]
    pub(crate) fn to_csa(self, mover: Color) -> (Option<&'static str>, Option<&'static str>) {
        let loser = Some(Outcome::Win(mover.opponent()));
        let names: &[(&str, Option<Outcome>)] = match self.reason {
            Some(EndReason::Resignation) => &[("TORYO", loser)],
            Some(EndReason::Checkmate) => &[("TSUMI", loser)],
            Some(EndReason::Repetition) => &[("SENNICHITE", Some(Outcome::Draw))],
            Some(EndReason::Impasse) => &[("KACHI", Some(Outcome::Win(mover))), ("JISHOGI", Some(Outcome::Draw))],
            Some(EndReason::TimeUp) => &[("TIME_UP", loser)],
            Some(EndReason::IllegalMove) => &[
                ("ILLEGAL_MOVE", loser),
                ("+ILLEGAL_ACTION", Some(Outcome::Win(Color::White))),
                ("-ILLEGAL_ACTION", Some(Outcome::Win(Color::Black))),
            ],
            Some(EndReason::Interrupted) => &[("CHUDAN", None)],
            Some(EndReason::Draw) => &[("HIKIWAKE", Some(Outcome::Draw))],
            Some(EndReason::MaxMoves) => &[("MAX_MOVES", Some(Outcome::Draw))],
            None if self.outcome == Some(Outcome::Draw) => &[("HIKIWAKE", Some(Outcome::Draw))],
            None => return (None, self.outcome.map(|_| "a result with no reason for it")),
        };
        // The name that says the ending's winner; a winner the ending does not say is the one its
        // reason tells.
        match names.iter().find(|(_, outcome)| self.outcome.is_none() || *outcome == self.outcome) {
            Some((name, _)) => (Some(name), None),
            None => (Some(names[0].0), Some("a result its reason contradicts")),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move resigned.
    Resignation,
    /// The side to move is checkmated.
    Checkmate,
    /// The same position four times (sennichite).
    Repetition,
    /// A king entered the opponent's camp and a side declared a win by points (jishogi,
    /// nyūgyoku).
    Impasse,
    /// A side ran out of time.
    TimeUp,
    /// A side made an illegal move.
    IllegalMove,
    /// The game was stopped before its end.
    Interrupted,
    /// A draw agreed or declared, for no reason the record gives (hikiwake).
    Draw,
    /// The game reached the number of moves its rules allow.
    MaxMoves,
}

impl EndReason {
    /// The reason a CSA record's end names (`TORYO`, `%` left out), or `None` for a name that
    /// is none.
    pub fn from_csa(name: &str) -> Option<Self> {
        Some(match name {
            "TORYO" => Self::Resignation,
            "TSUMI" => Self::Checkmate,
            "SENNICHITE" => Self::Repetition,
            "JISHOGI" | "KACHI" => Self::Impasse,
            "TIME_UP" => Self::TimeUp,
            "ILLEGAL_MOVE" | "+ILLEGAL_ACTION" | "-ILLEGAL_ACTION" => Self::IllegalMove,
            // The game stopped: interrupted, a move taken back, no mate found, a fault.
            "CHUDAN" | "MATTA" | "FUZUMI" | "ERROR" => Self::Interrupted,
            "HIKIWAKE" => Self::Draw,
            "MAX_MOVES" => Self::MaxMoves,
            _ => return None,
        })
    }

    /// Its name in JSON: `resignation`, `checkmate`, `repetition`, `impasse`, `time-up`,
    /// `illegal-move`, `interrupted`, `draw` or `max-moves`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Resignation => "resignation",
            Self::Checkmate => "checkmate",
            Self::Repetition => "repetition",
            Self::Impasse => "impasse",
            Self::TimeUp => "time-up",
            Self::IllegalMove => "illegal-move",
            Self::Interrupted => "interrupted",
            Self::Draw => "draw",
            Self::MaxMoves => "max-moves",
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// Neither side won.
    Draw,
}

impl Game {
    /// A game from `start` with no move yet.
    pub fn new(start: Position) -> Self {
        Game { headers: Vec::new(), start, comments: Vec::new(), moves: Vec::new(), ending: None }
    }

    /// The value of the first header named `key` (compared without regard to ASCII case).
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().map(|n| n.mv)
    }

    /// The position after each move of the main line, in order.
    pub fn positions(&self) -> Vec<Position> {
        positions_after(&self.start, self.main_line())
    }

    /// The position after the last move of the main line.
    pub fn final_position(&self) -> Position {
        let mut state = State::new(&self.start);
        self.main_line().for_each(|mv| state.play_unchecked(mv));
        state.to_position()
    }

    /// The game as a USI `position` argument: `sfen <start> moves <main line>`.
    pub fn to_usi(&self) -> String {
        let mut s = format!("sfen {}", self.start);
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for mv in self.main_line() {
                s.push(' ');
                s.push_str(&mv.to_string());
            }
        }
        s
    }

    /// Every line of the game, the main line first, each before the variations that branch
    /// from it, with the number of moves played before its first (its ply); no recursion,
    /// however deep the variations.
    pub fn lines(&self) -> Vec<(usize, &[Node])> {
        let mut todo: Vec<(usize, &[Node])> = vec![(0, &self.moves)];
        let mut out = Vec::new();
        while let Some((ply, line)) = todo.pop() {
            out.push((ply, line));
            // The first variation of the first move is walked first: it goes on top.
            for (i, node) in line.iter().enumerate().rev() {
                todo.extend(node.variations.iter().rev().map(|v| (ply + i, v.moves.as_slice())));
            }
        }
        out
    }
}

/// The position after each of `moves`, played from `start` (legal moves only: they are not
/// checked).
pub(crate) fn positions_after(start: &Position, moves: impl IntoIterator<Item = Move>) -> Vec<Position> {
    let mut state = State::new(start);
    moves
        .into_iter()
        .map(|mv| {
            state.play_unchecked(mv);
            state.to_position()
        })
        .collect()
}

/// A time written `m:ss`, `mm:ss` or `h:mm:ss` (minutes and seconds below 60 after the first
/// field), or `None`.
pub fn parse_clock(text: &str) -> Option<Duration> {
    let mut seconds = 0u64;
    let mut fields = 0;
    for (i, field) in text.trim().split(':').enumerate() {
        if i > 2 || field.is_empty() || field.len() > 6 || !field.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u64 = field.parse().ok()?;
        if i > 0 && n >= 60 {
            return None;
        }
        seconds = seconds * 60 + n;
        fields = i + 1;
    }
    (fields >= 2).then(|| Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().expect("a USI move")
    }

    #[test]
    fn the_main_line_plays_to_its_final_position_and_usi() {
        let mut game = Game::new(Position::STARTPOS);
        game.moves = vec![Node::new(mv("7g7f")), Node::new(mv("3c3d"))];
        game.moves[1].variations.push(vec![Node::new(mv("8c8d"))].into());
        assert_eq!(
            game.to_usi(),
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d"
        );
        let end = game.final_position();
        assert_eq!(end.to_string(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        assert_eq!(game.positions().last(), Some(&end));
        let lines: Vec<(usize, usize)> = game.lines().iter().map(|(ply, l)| (*ply, l.len())).collect();
        assert_eq!(lines, [(0, 2), (1, 1)], "the variation replaces the second move");
    }

    #[test]
    fn lines_are_walked_in_order_without_recursion() {
        const DEPTH: usize = 100_000;
        let mut inner = vec![Node::new(mv("7g7f"))];
        for _ in 0..DEPTH {
            let mut node = Node::new(mv("7g7f"));
            node.variations.push(inner.into());
            inner = vec![node];
        }
        let mut game = Game::new(Position::STARTPOS);
        game.moves = inner;
        assert_eq!(game.lines().len(), DEPTH + 1);
        drop(game);
    }

    #[test]
    fn clocks_read_as_real_records_write_them() {
        assert_eq!(parse_clock("0:04"), Some(Duration::from_secs(4)));
        assert_eq!(parse_clock(" 1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_clock("00:01"), Some(Duration::from_secs(1)));
        assert_eq!(parse_clock("1:60"), None);
        assert_eq!(parse_clock("1"), None);
        assert_eq!(parse_clock("a:00"), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
    }
}

/// A game as JSON: `headers` (`{"key", "value"}` in the record's order), `start` (a USI SFEN),
/// `comments`, `moves` (each move with its comments, `time`, bookmarks and variations, each
/// with its `moves` and `ending`) and `ending` (`reason` and `result`: `black`, `white` or
/// `draw`, each `null` when unknown).
#[cfg(feature = "serde")]
mod json {
    use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

    use super::{Ending, Game, MoveTime, Node, Outcome, Variation};

    /// How deep a game's variations are serialized (serde writes nested values by recursion):
    /// the readers keep variations at most this deep, and a game built by hand that goes deeper
    /// gets an error rather than a stack overflow.
    const MAX_DEPTH: usize = 100;

    impl Serialize for Game {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            /// A header line.
            #[derive(serde::Serialize)]
            struct Header<'a> {
                key: &'a str,
                value: &'a str,
            }
            let headers: Vec<Header<'_>> = self.headers.iter().map(|(key, value)| Header { key, value }).collect();
            let mut s = serializer.serialize_struct("Game", 5)?;
            s.serialize_field("headers", &headers)?;
            s.serialize_field("start", &self.start.to_string())?;
            s.serialize_field("comments", &self.comments)?;
            s.serialize_field("moves", &Line(&self.moves, 0))?;
            s.serialize_field("ending", &self.ending.map(EndingJson))?;
            s.end()
        }
    }

    /// A line of moves, `depth` variations deep.
    struct Line<'a>(&'a [Node], usize);

    impl Serialize for Line<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            if self.1 > MAX_DEPTH {
                return Err(serde::ser::Error::custom(format!(
                    "variations nested more than {MAX_DEPTH} deep are not serialized"
                )));
            }
            serializer.collect_seq(self.0.iter().map(|node| NodeJson(node, self.1)))
        }
    }

    /// A move: `move` (USI), `comments`, `time`, `bookmarks` and `variations` (each its `moves`
    /// and `ending`).
    struct NodeJson<'a>(&'a Node, usize);

    impl Serialize for NodeJson<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let (node, depth) = (self.0, self.1);
            let mut s = serializer.serialize_struct("Node", 5)?;
            s.serialize_field("move", &node.mv.to_string())?;
            s.serialize_field("comments", &node.comments)?;
            s.serialize_field("time", &node.time.map(TimeJson))?;
            s.serialize_field("bookmarks", &node.bookmarks)?;
            let lines: Vec<VariationJson<'_>> = node.variations.iter().map(|v| VariationJson(v, depth + 1)).collect();
            s.serialize_field("variations", &lines)?;
            s.end()
        }
    }

    /// A variation, `depth` deep: its `moves` and `ending`.
    struct VariationJson<'a>(&'a Variation, usize);

    impl Serialize for VariationJson<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut s = serializer.serialize_struct("Variation", 2)?;
            s.serialize_field("moves", &Line(&self.0.moves, self.1))?;
            s.serialize_field("ending", &self.0.ending.map(EndingJson))?;
            s.end()
        }
    }

    /// A move's time: `spent` and `total`, in milliseconds, each `null` when not given.
    struct TimeJson(MoveTime);

    impl Serialize for TimeJson {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let ms = |d: Option<std::time::Duration>| d.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
            let mut map = serializer.serialize_map(Some(2))?;
            map.serialize_entry("spent_ms", &ms(self.0.spent))?;
            map.serialize_entry("total_ms", &ms(self.0.total))?;
            map.end()
        }
    }

    /// An ending: `reason` and `result`.
    struct EndingJson(Ending);

    impl Serialize for EndingJson {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let result = self.0.outcome.map(|o| match o {
                Outcome::Win(color) => color.name().to_ascii_lowercase(),
                Outcome::Draw => "draw".to_owned(),
            });
            let mut map = serializer.serialize_map(Some(2))?;
            map.serialize_entry("reason", &self.0.reason.map(super::EndReason::name))?;
            map.serialize_entry("result", &result)?;
            map.end()
        }
    }
}

/// What the readers' tests compare games by.
#[cfg(test)]
pub(crate) mod compare {
    use super::{Node, Position};

    /// Every move of a line and of its variations, depth first, with its depth.
    pub(crate) fn shape(line: &[Node]) -> Vec<(usize, String)> {
        tree(line).into_iter().map(|(depth, mv, _)| (depth, mv)).collect()
    }

    /// Every move of a line and of its variations, depth first, with its depth and comments.
    pub(crate) fn tree(line: &[Node]) -> Vec<(usize, String, Vec<String>)> {
        let mut out = Vec::new();
        let mut todo: Vec<(usize, &[Node])> = vec![(0, line)];
        while let Some((depth, line)) = todo.pop() {
            for node in line {
                out.push((depth, node.mv.to_string(), node.comments.clone()));
                todo.extend(node.variations.iter().rev().map(|v| (depth + 1, v.moves.as_slice())));
            }
        }
        out
    }

    /// The same board, hands and side to move (the move number aside).
    pub(crate) fn same_position(a: &Position, b: &Position) -> bool {
        a.board == b.board && a.hands == b.hands && a.side == b.side
    }
}
