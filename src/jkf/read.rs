//! A JKF document read into its game: the JSON read with the span of every value
//! ([`crate::json::reader`]), each part given to the schema's types ([`super::schema`]) — the
//! header, the start, each move on its own, so that one fault hides no other — and every line
//! (the main line and each fork) replayed with the full rules of shogi, what a move says beside
//! its squares (`piece`, `same`, `capture`, `promote`, `relative`) held to the position.

use std::time::Duration;

use super::de::{self, Fault, Path};
use super::schema::{Clock, Data, Entry, Header, Initial, Kind, Place, Preset, Special};
use crate::diagnostic::{codes, Applicability, Diagnostic, Fix};
use crate::json::{Hints, Node, Value};
use crate::shogi::relative::{self, Motion, Relative};
use crate::shogi::rules::State;
use crate::shogi::{
    handicap, Color, Ending, Game, Move, MoveTime, Node as GameNode, Piece, Position, Square, Variation,
};
use crate::span::Span;

/// The largest document read, in bytes.
pub const MAX_BYTES: usize = 64 << 20;
/// The most findings a document reports; the rest are counted in one last finding.
pub const MAX_FINDINGS: usize = 200;
/// The deepest forks read: a fork of a fork is two deep. Each is three levels of JSON, and
/// [`crate::json::MAX_DEPTH`] bounds them all.
pub const MAX_FORK_DEPTH: usize = 19;

/// What a JSON syntax error's help says of a JKF document.
const HINTS: Hints = Hints {
    syntax: "a JKF record is one JSON object: `{\"header\": {…}, \"initial\": {\"preset\": \"HIRATE\"}, \"moves\": [{}, {\"move\": …}]}`",
    too_deep: "forks nest too deep: kifu reads JSON nested up to 64 deep",
};

/// The game of a JKF text and its findings, in the order of the text.
pub fn read(text: &str) -> (Option<Game>, Vec<Diagnostic>) {
    let (game, out, _) = read_probing(text, None);
    (game, out)
}

/// A JKF text's game, and the entry whose text holds byte `cursor` (in any line, the main line
/// or a fork; not in its own `forks`) with its move and the position after it, when that
/// entry's move was played.
#[cfg(feature = "views")]
#[allow(clippy::type_complexity)]
pub(crate) fn position_at(text: &str, cursor: usize) -> (Option<Game>, Option<(Span, Move, Position)>) {
    let (game, _, probed) = read_probing(text, Some(cursor));
    (game, probed)
}

/// The game of a JKF text and its findings; with `probe`, the entry whose move was played there.
#[allow(clippy::type_complexity)]
fn read_probing(text: &str, probe: Option<usize>) -> (Option<Game>, Vec<Diagnostic>, Option<(Span, Move, Position)>) {
    if text.len() > MAX_BYTES {
        let d = Diagnostic::error(codes::jkf::TOO_LARGE, Span::point(MAX_BYTES), "the record is too large to read")
            .label("kifu reads a JKF record up to here")
            .help(format!("kifu reads JKF records of up to {} MiB", MAX_BYTES >> 20));
        return (None, vec![d], None);
    }
    let mut out = Vec::new();
    let mut root = None;
    for value in crate::json::reader::values(text).hints(HINTS) {
        match value {
            // After a syntax error the rest of the text cannot be trusted to be read as meant.
            Err(d) => {
                out.push(*d);
                return (None, out, None);
            }
            Ok(node) if root.is_none() => root = Some(node),
            Ok(node) => {
                out.push(
                    Diagnostic::error(
                        codes::jkf::SCHEMA,
                        first_char(text, node.span),
                        "a second JSON value after the record",
                    )
                    .label("not read")
                    .help("a JKF file holds one record, one JSON object: remove what follows it"),
                );
                break;
            }
        }
    }
    let Some(root) = root else {
        out.push(
            Diagnostic::error(codes::jkf::SCHEMA, Span::point(text.len()), "no record: the text holds no JSON value")
                .label("the text ends here")
                .help(HINTS.syntax),
        );
        return (None, out, None);
    };
    let mut reader = Reader { text, out, probe, probed: None };
    let game = reader.document(&root);
    let mut out = reader.out;
    out.sort_by_key(|d| d.span().start);
    (game, bounded(out), reader.probed)
}

/// `out` with at most [`MAX_FINDINGS`] findings, the rest counted in one last.
fn bounded(mut out: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if out.len() > MAX_FINDINGS {
        let left = out.len() - MAX_FINDINGS;
        let at = out[MAX_FINDINGS].span();
        out.truncate(MAX_FINDINGS);
        out.push(
            Diagnostic::warning(codes::jkf::MORE_FINDINGS, Span::point(at.start), format!("{left} more findings"))
                .label("kifu shows the first findings of a record, and stops here")
                .help("correct these, then check the file again"),
        );
    }
    out
}

/// The first character of `span` (a value's opening bracket).
fn first_char(text: &str, span: Span) -> Span {
    let len = text[span.start..].chars().next().map_or(0, char::len_utf8);
    Span::new(span.start, (span.start + len).min(span.end.max(span.start)))
}

/// A line being replayed: its entries, their path, the position before its first move (none
/// when it cannot be played) and the square the move before it went to; and the move its first
/// entry replaces, for a fork (its line and index in that line's moves).
struct Line<'a> {
    entries: &'a [Node],
    path: String,
    /// The index of the first entry in its array: 1 for the main line (the first entry is the
    /// start's comments), 0 for a fork.
    first: usize,
    state: Option<State>,
    last_to: Option<Square>,
    parent: Option<(usize, usize)>,
}

/// A line replayed: its moves and ending, and the move it replaces.
#[derive(Default)]
struct Played {
    moves: Vec<GameNode>,
    ending: Option<Ending>,
    parent: Option<(usize, usize)>,
}

struct Reader<'a> {
    text: &'a str,
    out: Vec<Diagnostic>,
    /// The byte whose entry is looked for, and that entry with its move and the position after
    /// it, once its move is played.
    probe: Option<usize>,
    probed: Option<(Span, Move, Position)>,
}

impl Reader<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }

    /// The document's game, when its start can be set up.
    fn document(&mut self, root: &Node) -> Option<Game> {
        let Value::Object(members) = &root.value else {
            self.schema_fault(de::Error {
                fault: Fault::Type(root.value.kind().to_owned()),
                span: Some(root.span),
                path: String::new(),
            });
            return None;
        };
        let [header, initial, moves] = self.parts(members);
        let open = first_char(self.text, root.span);
        let headers = match header {
            None => {
                self.push(
                    Diagnostic::warning(codes::jkf::NO_HEADER, open, "the record has no `header`")
                        .label("no header in this object")
                        .help("JKF's schema requires a `header`, if only an empty one: add `\"header\": {}`")
                        .fix(Fix::replace(Span::point(open.end), "\"header\":{},", Applicability::Safe)),
                );
                Vec::new()
            }
            Some(m) => match de::read::<Header>(&m.value, &Path::Named("header"), None) {
                Ok(h) => h.0,
                Err(e) => {
                    self.schema_fault(e);
                    Vec::new()
                }
            },
        };
        let start = match initial {
            None => Some(Position::STARTPOS),
            Some(m) => match de::read::<Option<Initial>>(&m.value, &Path::Named("initial"), None) {
                Ok(None) => Some(Position::STARTPOS),
                Ok(Some(initial)) => self.start(&initial, &m.value),
                Err(e) => {
                    self.schema_fault(e);
                    None
                }
            },
        };
        let Some(moves) = moves else {
            self.schema_fault(de::Error { fault: Fault::Missing("moves"), span: Some(open), path: String::new() });
            return start.map(|start| Game { headers, ..Game::new(start) });
        };
        let Value::Array(entries) = &moves.value.value else {
            let fault = Fault::Type(moves.value.value.kind().to_owned());
            self.schema_fault(de::Error { fault, span: Some(moves.value.span), path: "moves".to_owned() });
            return start.map(|start| Game { headers, ..Game::new(start) });
        };
        let mut comments = Vec::new();
        if let Some(first) = entries.first() {
            comments = self.first_entry(first);
        }
        let lines = self.replay(Line {
            entries: entries.get(1..).unwrap_or_default(),
            path: "moves".to_owned(),
            first: 1,
            state: start.as_ref().map(State::new),
            last_to: None,
            parent: None,
        });
        let start = start?;
        let (moves, ending) = assemble(lines);
        Some(Game { headers, start, comments, moves, ending })
    }

    /// The record's `header`, `initial` and `moves`, each once; any other key, or one given
    /// twice, is reported.
    fn parts<'a>(&mut self, members: &'a [crate::json::Member]) -> [Option<&'a crate::json::Member>; 3] {
        const KEYS: [&str; 3] = ["header", "initial", "moves"];
        let mut parts = [None; 3];
        for member in members {
            let Some(i) = KEYS.iter().position(|&k| k == member.key) else {
                let fault = Fault::Unknown(member.key.clone(), &KEYS);
                self.schema_fault(de::Error { fault, span: Some(member.key_span), path: member.key.clone() });
                continue;
            };
            if parts[i].is_some() {
                let fault = Fault::Twice(KEYS[i]);
                self.schema_fault(de::Error { fault, span: Some(member.key_span), path: member.key.clone() });
                continue;
            }
            parts[i] = Some(member);
        }
        parts
    }

    /// The start the document's `initial` sets up, or `None` with a report.
    fn start(&mut self, initial: &Initial, node: &Node) -> Option<Position> {
        let preset_span = node.get("preset").map_or(node.span, |m| m.value.span);
        let named = preset_position(initial.preset);
        let Some(data) = &initial.data else {
            if named.is_none() {
                self.push(
                    Diagnostic::error(codes::jkf::SCHEMA, preset_span, "`OTHER` with no `data`")
                        .label("the start is not given")
                        .help("a start other than a handicap is written in `data`: `{\"preset\": \"OTHER\", \"data\": {\"color\": 0, \"board\": [[…], …], \"hands\": [{}, {}]}}`"),
                );
            }
            return named;
        };
        let data_node = node.get("data").map_or(node, |m| &m.value);
        let position = self.data(data, data_node)?;
        if let Some(named) = named {
            if named != position {
                self.push(
                    Diagnostic::error(
                        codes::jkf::START_POSITION,
                        preset_span,
                        "the handicap and the start's `data` differ",
                    )
                    .label("this handicap's start is not the board of `data`")
                    .help(
                        "a start other than a handicap's is named `OTHER`; correct the handicap's name, or the board",
                    ),
                );
                return None;
            }
        }
        if let Err(violations) = position.clone().legal() {
            let list: Vec<String> = violations.iter().map(|v| v.breaks(&square_name)).collect();
            self.push(
                Diagnostic::error(codes::jkf::START_POSITION, data_node.span, "the start position breaks the rules of shogi")
                    .label(list.join("; "))
                    .help("correct the start position: each side has one king, no two unpromoted pawns of a side on a file, no piece where it can never move again, and the side not to move is not in check"),
            );
            return None;
        }
        Some(position)
    }

    /// The position `data` writes, or `None` with a report.
    fn data(&mut self, data: &Data, node: &Node) -> Option<Position> {
        let mut position = Position { board: crate::shogi::Board::default(), ..Position::STARTPOS };
        position.side = side_color(data.color.0);
        position.hands = Default::default();
        let board_node = node.get("board").map_or(node, |m| &m.value);
        let columns = &data.board.0;
        if !columns.is_empty() && (columns.len() != 9 || columns.iter().any(|c| c.len() != 9)) {
            self.push(
                Diagnostic::error(codes::jkf::SCHEMA, first_char(self.text, board_node.span), "the board is not nine columns of nine squares")
                    .label(format!("{} columns of {}", columns.len(), lengths(columns.iter().map(Vec::len))))
                    .help("`board[x-1][y-1]` is the square of file x and rank y: nine columns, each of nine squares (`{}` for an empty one)"),
            );
            return None;
        }
        for (x, column) in columns.iter().enumerate() {
            for (y, cell) in column.iter().enumerate() {
                let square = Square::new(x as u8 + 1, y as u8 + 1)?;
                match (cell.color, cell.kind) {
                    (Some(color), Some(Kind(kind, promoted))) => {
                        position.board.set(square, Some(Piece { color: side_color(color.0), kind, promoted }));
                    }
                    (None, None) => {}
                    _ => {
                        let span = match &board_node.value {
                            Value::Array(cols) => cols.get(x).and_then(|c| match &c.value {
                                Value::Array(cells) => cells.get(y).map(|c| c.span),
                                _ => None,
                            }),
                            _ => None,
                        };
                        self.push(
                            Diagnostic::error(codes::jkf::SCHEMA, span.unwrap_or(board_node.span), "a square with a side and no piece, or a piece and no side")
                                .label("half a piece")
                                .help("a square holds a piece and its side (`{\"color\": 0, \"kind\": \"FU\"}`), or nothing (`{}`)"),
                        );
                        return None;
                    }
                }
            }
        }
        let hands_node = node.get("hands").map(|m| &m.value);
        for (i, hand) in data.hands.iter().enumerate() {
            for (&Kind(kind, promoted), &count) in hand {
                if kind == crate::shogi::PieceKind::King || promoted {
                    let span = hands_node
                        .and_then(|h| match &h.value {
                            Value::Array(hs) => hs.get(i),
                            _ => None,
                        })
                        .and_then(|h| h.get(kind.csa_name(promoted)))
                        .map_or(node.span, |m| m.key_span);
                    self.push(
                        Diagnostic::error(codes::jkf::START_POSITION, span, "a king or a promoted piece in hand")
                            .label("never in hand")
                            .help("a captured piece goes to the hand unpromoted, and a king is never captured: a hand holds FU, KY, KE, GI, KI, KA and HI"),
                    );
                    return None;
                }
                if count > kind.supply() {
                    let span = hands_node.map_or(node.span, |h| h.span);
                    self.push(
                        Diagnostic::error(
                            codes::jkf::START_POSITION,
                            span,
                            format!("{count} of a piece a set holds {} of", kind.supply()),
                        )
                        .label("more than a set holds")
                        .help("correct the count"),
                    );
                    return None;
                }
                position.hands[i].add(kind, count);
            }
        }
        Some(position)
    }

    /// The first entry, the start's comments: a move or an end there is an error.
    fn first_entry(&mut self, node: &Node) -> Vec<String> {
        let entry = match de::read::<Entry>(node, &Path::Named("moves[0]"), None) {
            Ok(entry) => entry,
            Err(e) => {
                self.schema_fault(e);
                return Vec::new();
            }
        };
        for key in ["move", "special", "time"] {
            if let Some(m) = node.get(key) {
                self.push(
                    Diagnostic::error(codes::jkf::FIRST_ENTRY, m.key_span, format!("`{key}` in the first entry"))
                        .label("the first entry is the start's")
                        .help("the first entry of `moves` holds the comments on the start, never a move: the first move is the second entry (`[{}, {\"move\": …}]`)"),
                );
            }
        }
        entry.comments.unwrap_or_default().into_iter().chain(entry.comment).collect()
    }

    /// Replays `main` and every fork in it (a worklist: no recursion, however deep the forks):
    /// the lines played, each with the move it replaces, parents before their forks.
    fn replay(&mut self, main: Line<'_>) -> Vec<Played> {
        let mut todo = vec![main];
        let mut played = Vec::new();
        while let Some(line) = todo.pop() {
            let id = played.len();
            played.push(Played { parent: line.parent, ..Played::default() });
            self.line(line, id, &mut played[id], &mut todo);
        }
        played
    }

    /// Replays one line into `out` (line `id`), adding its forks to `todo`.
    fn line<'a>(&mut self, line: Line<'a>, id: usize, out: &mut Played, todo: &mut Vec<Line<'a>>) {
        let mut state = line.state;
        let mut last_to = line.last_to;
        let mut ended: Option<Span> = None;
        for (k, node) in line.entries.iter().enumerate() {
            let path = format!("{}[{}]", line.path, line.first + k);
            let entry = match de::read::<Entry>(node, &Path::Named(&path), Some("forks")) {
                Ok(entry) => Some(entry),
                Err(e) => {
                    self.schema_fault(e);
                    None
                }
            };
            // The forks of this entry start from the position before its move.
            if let Some(forks) = node.get("forks") {
                self.forks(
                    forks,
                    &path,
                    state.filter(|_| ended.is_none()),
                    last_to,
                    (id, out.moves.len()),
                    entry.as_ref(),
                    todo,
                );
            }
            let Some(entry) = entry else {
                state = None;
                continue;
            };
            if !self.entry_holds_a_move_or_an_end(&entry, node) {
                continue;
            }
            if let Some(end) = ended {
                let key = node.get("move").or_else(|| node.get("special")).map_or(node.span, |m| m.key_span);
                self.push(
                    Diagnostic::error(codes::jkf::AFTER_END, key, "a move or an end after the end of the line")
                        .label("the line has ended")
                        .with(end, "it ended here")
                        .help("remove the entry, or the end before it; a line played instead of a move is one of its `forks`"),
                );
                state = None;
                ended = None;
                continue;
            }
            let Some(current) = state else { continue };
            if let Some(mv) = &entry.mv {
                let Some(move_node) = node.get("move").map(|m| &m.value) else { continue };
                match self.play(&current, mv, move_node, last_to) {
                    Some((played_move, to, next)) => {
                        let mut game_node = GameNode::new(played_move);
                        game_node.comments = entry.comments.clone().unwrap_or_default();
                        game_node.time = self.time(&entry, node);
                        out.moves.push(game_node);
                        self.probe_entry(node, played_move, &next);
                        state = Some(next);
                        last_to = Some(to);
                    }
                    None => {
                        state = None;
                        continue;
                    }
                }
            }
            if let Some(special) = &entry.special {
                let span = node.get("special").map_or(node.span, |m| m.value.span);
                self.special(special, state.as_ref(), span, out);
                ended = Some(span);
                if entry.mv.is_none() {
                    // An end's time has no place in the game (its missing total is still
                    // named); its comments go to the move before it.
                    self.time(&entry, node);
                    if let (Some(comments), Some(last)) = (&entry.comments, out.moves.last_mut()) {
                        last.comments.extend(comments.iter().cloned());
                    }
                }
            }
        }
    }

    /// Keeps the entry at `node`, its move `mv` played into `next`, when the probed byte is in
    /// its text and not in its `forks`.
    fn probe_entry(&mut self, node: &Node, mv: Move, next: &State) {
        let Some(at) = self.probe else { return };
        let within = |span: Span| span.start <= at && at <= span.end;
        if within(node.span) && !node.get("forks").is_some_and(|f| within(f.value.span)) {
            self.probed = Some((node.span, mv, next.to_position()));
        }
    }

    /// True when `entry` (at `node`), after the first, holds a move or an end, as it must; a
    /// `comment` key, which only the first entry may have, is reported.
    fn entry_holds_a_move_or_an_end(&mut self, entry: &Entry, node: &Node) -> bool {
        if let Some(m) = node.get("comment") {
            self.push(
                Diagnostic::error(codes::jkf::SCHEMA, m.key_span, "`comment` in a move's entry")
                    .label("a move's comments are `comments`")
                    .help("only the first entry may name its comment `comment`; a move's are an array: `\"comments\": [\"…\"]`")
                    .fix(Fix::replace(m.key_span, "\"comments\"", Applicability::Unsafe)),
            );
        }
        if entry.mv.is_some() || entry.special.is_some() {
            return true;
        }
        self.push(
            Diagnostic::error(codes::jkf::EMPTY_ENTRY, first_char(self.text, node.span), "an entry with neither a move nor an end")
                .label("no `move`, no `special`")
                .help("each entry after the first is a move (`{\"move\": …}`) or an end (`{\"special\": \"TORYO\"}`); put comments in the entry of the move they are about"),
        );
        false
    }

    /// The forks of the entry at `path`, each a line from `state` (none when it cannot be
    /// played), replacing the move `at` (its line and index).
    #[allow(clippy::too_many_arguments)]
    fn forks<'a>(
        &mut self,
        forks: &'a crate::json::Member,
        path: &str,
        state: Option<State>,
        last_to: Option<Square>,
        at: (usize, usize),
        entry: Option<&Entry>,
        todo: &mut Vec<Line<'a>>,
    ) {
        let lines = match &forks.value.value {
            Value::Null => return,
            Value::Array(lines) => lines,
            other => {
                let fault = Fault::Type(other.kind().to_owned());
                self.schema_fault(de::Error { fault, span: Some(forks.value.span), path: format!("{path}.forks") });
                return;
            }
        };
        let of_a_move = entry.is_none_or(|e| e.mv.is_some());
        if !of_a_move && !lines.is_empty() {
            self.push(
                Diagnostic::warning(codes::jkf::FORK_OF_END, forks.key_span, "lines played instead of an end are not read")
                    .label("forks of an end")
                    .help("kifu keeps the lines played instead of a move; put these forks on the move before the end, as lines that replace it"),
            );
            return;
        }
        // Pushed in reverse, so that the first fork is replayed first.
        for (f, line) in lines.iter().enumerate().rev() {
            let Value::Array(entries) = &line.value else {
                let fault = Fault::Type(line.value.kind().to_owned());
                self.schema_fault(de::Error { fault, span: Some(line.span), path: format!("{path}.forks[{f}]") });
                continue;
            };
            todo.push(Line {
                entries,
                path: format!("{path}.forks[{f}]"),
                first: 0,
                state: state.filter(|_| entry.is_some()),
                last_to,
                parent: Some(at),
            });
        }
    }

    /// Plays `mv` (at `node`) in `state`: the move, the square it goes to, and the position
    /// after it; `None` with a report when it cannot be played. What the move says beside its
    /// squares is held to the position, each disagreement an error on its value.
    fn play(
        &mut self,
        state: &State,
        mv: &super::schema::Move,
        node: &Node,
        last_to: Option<Square>,
    ) -> Option<(Move, Square, State)> {
        let value = |key: &str| node.get(key).map(|m| m.value.span);
        let side = state.side();
        if side_color(mv.color.0) != side {
            let span = value("color").unwrap_or(node.span);
            self.push(
                Diagnostic::error(
                    codes::jkf::WRONG_SIDE,
                    span,
                    format!("a move of {}, who is not to move", side_color(mv.color.0).name()),
                )
                .label(format!("{} is to move", side.name()))
                .help("the sides move in turn: `color` is the side that makes the move, 0 for sente and 1 for gote")
                .fix(Fix::replace(span, side_digit(side), Applicability::Unsafe)),
            );
            return None;
        }
        let to = self.square(mv.to, node.get("to").map(|m| &m.value))?;
        let Kind(kind, promoted) = mv.piece;
        let piece_span = value("piece").unwrap_or(node.span);
        let resolved = match mv.from {
            None => {
                if promoted || mv.promote == Some(true) {
                    let span = if promoted { piece_span } else { value("promote").unwrap_or(node.span) };
                    self.illegal(span, "a promoted piece is never dropped".to_owned());
                    return None;
                }
                Move::Drop { kind, to }
            }
            Some(place) => {
                let from = self.square(place, node.get("from").map(|m| &m.value))?;
                let Some(on) = state.piece_at(from).filter(|p| p.color == side) else {
                    self.illegal(
                        value("from").unwrap_or(node.span),
                        format!("{} has no piece of {} on it", square_name(from), side.name()),
                    );
                    return None;
                };
                if (on.kind, on.promoted) != (kind, promoted) {
                    let right = on.kind.csa_name(on.promoted);
                    self.push(
                        Diagnostic::error(codes::jkf::CONTRADICTS, piece_span, format!("`piece` says {}, but the piece on {} is {right}", mv.piece.0.csa_name(promoted), square_name(from)))
                            .label(format!("{right} moves"))
                            .help("`piece` is the piece before the move (a promoting bishop is `KA`, with `\"promote\": true`)")
                            .fix(Fix::replace(piece_span, format!("\"{right}\""), Applicability::Unsafe)),
                    );
                }
                Move::Board { from, to, promote: mv.promote == Some(true) }
            }
        };
        let mut next = *state;
        if let Err(illegal) = next.play(resolved) {
            self.illegal(node.span, illegal.describe(&square_name));
            return None;
        }
        self.details(state, mv, node, resolved, last_to);
        Some((resolved, to, next))
    }

    /// Holds `same`, `capture`, `promote` and `relative` of the legal move `played` to the
    /// position `state` it is played in.
    fn details(&mut self, state: &State, mv: &super::schema::Move, node: &Node, played: Move, last_to: Option<Square>) {
        let value = |key: &str| node.get(key).map(|m| m.value.span);
        let to = played.to();
        if let (Some(true), Some(span)) = (mv.same, value("same")) {
            if last_to != Some(to) {
                let said = last_to.map_or("there is no move before it".to_owned(), |sq| {
                    format!("the move before went to {}", square_name(sq))
                });
                self.contradicts(
                    span,
                    format!("`same` says the move goes where the move before went, but {said}"),
                    "not the square of the move before",
                    "remove `same`, or write it `false`",
                    Some("false"),
                );
            }
        }
        let captured = state.piece_at(to);
        if let (Some(Kind(kind, promoted)), Some(span)) = (mv.capture, value("capture")) {
            match captured {
                None => self.contradicts(
                    span,
                    format!("`capture` says {}, but {} is empty", kind.csa_name(promoted), square_name(to)),
                    "nothing is captured",
                    "remove `capture`, or write it `null`",
                    Some("null"),
                ),
                // The piece as it stood (json-kifu-format, tsshogi), or as it goes to the hand
                // (rsshogi).
                Some(p) if p.kind != kind || (promoted && !p.promoted) => {
                    let right = format!("\"{}\"", p.kind.csa_name(p.promoted));
                    self.contradicts(
                        span,
                        format!(
                            "`capture` says {}, but the piece on {} is {}",
                            kind.csa_name(promoted),
                            square_name(to),
                            p.kind.csa_name(p.promoted)
                        ),
                        "not the piece captured",
                        "name the piece on the square",
                        Some(&right),
                    );
                }
                Some(_) => {}
            }
        }
        if let Move::Board { from, to, promote } = played {
            if let (Some(false), Some(span)) = (mv.promote, value("promote")) {
                let piece = state.piece_at(from);
                let could = piece.is_some_and(|p| {
                    !p.promoted && p.kind.can_promote() && (from.rank_from(p.color) <= 3 || to.rank_from(p.color) <= 3)
                });
                if !could && !promote {
                    self.contradicts(
                        span,
                        "`promote` is false where the piece could not promote".to_owned(),
                        "no promotion to decline",
                        "remove `promote`, or write it `null`: `false` says a promotion was declined",
                        Some("null"),
                    );
                }
            }
        }
        if let (Some(written), Some(span)) = (&mv.relative, value("relative")) {
            self.relative(state, written, span, played);
        }
    }

    /// Holds `relative` (written `written`, at `span`) to the legal move `played` in `state`.
    fn relative(&mut self, state: &State, written: &str, span: Span, played: Move) {
        let Some(words) = relative_words(written) else {
            self.push(
                Diagnostic::error(codes::jkf::SCHEMA, span, format!("`{written}` is not a `relative`"))
                    .label("not where a piece stands or how it moves")
                    .help("`relative` is L, C or R (where the piece stands), U, M or D (how it moves), one of each (`LU`, `RD`, `LM`, `RM`), or H for a drop"),
            );
            return;
        };
        let agrees = match (played, words) {
            (Move::Drop { .. }, None) => true,
            (Move::Drop { .. }, Some(_)) | (Move::Board { .. }, None) => false,
            (Move::Board { from, to, .. }, Some(words)) => match state.piece_at(from) {
                Some(piece) => {
                    let candidates = relative::candidates(state, piece, to);
                    relative::matches(state.side(), piece, to, words, &candidates).contains(&from)
                }
                None => false,
            },
        };
        if !agrees {
            let says = match played {
                Move::Drop { .. } => "a drop is `H`".to_owned(),
                Move::Board { .. } => "the piece that moves is not the one it names".to_owned(),
            };
            self.contradicts(
                span,
                format!("`relative` is `{written}`, but {says}"),
                "not this move's piece",
                "correct `relative`, or write it `null`: the squares say which piece moves",
                Some("null"),
            );
        }
    }

    fn contradicts(&mut self, span: Span, message: String, label: &str, help: &str, fix: Option<&str>) {
        let mut d =
            Diagnostic::error(codes::jkf::CONTRADICTS, span, message).label(label.to_owned()).help(help.to_owned());
        if let Some(fix) = fix {
            d = d.fix(Fix::replace(span, fix.to_owned(), Applicability::Unsafe));
        }
        self.push(d);
    }

    fn illegal(&mut self, span: Span, why: String) {
        self.push(
            Diagnostic::error(codes::jkf::ILLEGAL_MOVE, span, format!("this move is not legal: {why}"))
                .label("not legal here")
                .help("the move and the moves after it in its line are not played: correct it"),
        );
    }

    /// The square `place` names, or `None` with a report on `node`.
    fn square(&mut self, place: Place, node: Option<&Node>) -> Option<Square> {
        let square = u8::try_from(place.x).ok().zip(u8::try_from(place.y).ok()).and_then(|(x, y)| Square::new(x, y));
        if square.is_none() {
            let span = node
                .and_then(|n| {
                    let bad = if (1..=9).contains(&place.x) { "y" } else { "x" };
                    n.get(bad).map(|m| m.value.span)
                })
                .or(node.map(|n| n.span))
                .unwrap_or_default();
            self.push(
                Diagnostic::error(codes::jkf::BAD_SQUARE, span, "no square of the board")
                    .label("not 1 to 9")
                    .help("a square is its file `x` and its rank `y`, each 1 to 9 (`{\"x\": 7, \"y\": 6}`)"),
            );
        }
        square
    }

    /// The time of `entry` (at `node`): what the move took and the mover's total.
    fn time(&mut self, entry: &Entry, node: &Node) -> Option<MoveTime> {
        let time = entry.time.as_ref()?;
        if time.total.is_none() {
            let span = node.get("time").map_or(node.span, |m| m.key_span);
            self.push(
                Diagnostic::warning(codes::jkf::NO_TOTAL, span, "a time without its `total`")
                    .label("only `now`")
                    .help("JKF's schema requires the mover's total beside the time the move took: add `\"total\": {\"h\": 0, \"m\": 0, \"s\": 0}`"),
            );
        }
        Some(MoveTime { spent: Some(duration(time.now)), total: time.total.map(duration) })
    }

    /// The end `special` names, in `state` (none when the line could not be played).
    fn special(&mut self, special: &Special, state: Option<&State>, span: Span, out: &mut Played) {
        let ending = Ending::from_csa(&special.0, state.map(State::side));
        if special.0 == "TSUMI" {
            if let Some(state) = state {
                if !crate::shogi::rules::is_checkmate(&state.to_position()) {
                    self.push(
                        Diagnostic::error(codes::jkf::END_CONTRADICTS, span, "`TSUMI` where the side to move is not checkmated")
                            .label("no mate here")
                            .help("`TSUMI` ends a game whose side to move is checkmated; a game that ended by resignation ends with `TORYO`"),
                    );
                }
            }
        }
        out.ending = ending;
    }

    /// A value the schema does not allow, reported at its place with its path.
    fn schema_fault(&mut self, e: de::Error) {
        let span = e.span.unwrap_or_default();
        let (name, what) = expected(&e.path);
        let path = if e.path.is_empty() { "the record".to_owned() } else { format!("`{}`", e.path) };
        let d = match &e.fault {
            Fault::Missing(key) => {
                Diagnostic::error(codes::jkf::SCHEMA, first_char(self.text, span), format!("{path} has no `{key}`"))
                    .label(format!("`{key}` is missing"))
                    .help(format!("add `{key}`: {}", expected(key).1))
            }
            Fault::Unknown(key, known) => {
                let d = Diagnostic::error(
                    codes::jkf::SCHEMA,
                    span,
                    format!("`{key}` is not a key of {}", parent_words(&e.path)),
                )
                .label("unknown key");
                if known.is_empty() {
                    d.help("this object holds no key: write it `{}`")
                } else {
                    d.help(format!(
                        "the keys here are {}",
                        known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                    ))
                }
            }
            Fault::Twice(key) => Diagnostic::error(codes::jkf::SCHEMA, span, format!("`{key}` is given twice"))
                .label("a second time")
                .help("give each key once: remove one"),
            Fault::Type(found) | Fault::Value(found) => {
                let d = Diagnostic::error(codes::jkf::SCHEMA, span, format!("{path} is {found}, not {}", short(what)))
                    .label(format!("not {}", short(what)))
                    .help(format!("{name} is {what}"));
                // A piece's name in small letters (`"fu"`): the same piece, in the schema's
                // capitals.
                let written = span.slice(self.text);
                let upper = written.to_ascii_uppercase();
                let is_piece = what == PIECE_NAME
                    && upper
                        .strip_prefix('"')
                        .and_then(|u| u.strip_suffix('"'))
                        .is_some_and(|name| crate::shogi::PieceKind::from_csa(name).is_some());
                if is_piece && upper != written {
                    d.fix(Fix::replace(span, upper, Applicability::Safe))
                } else {
                    d
                }
            }
            Fault::Other(words) => Diagnostic::error(codes::jkf::SCHEMA, span, format!("{path}: {words}"))
                .label("not read")
                .help(format!("{name} is {what}")),
        };
        self.push(d);
    }
}

/// The lines replayed, assembled into the main line and its ending, each fork in the move it
/// replaces (no recursion: forks come after their parents, so they are placed last first).
fn assemble(mut lines: Vec<Played>) -> (Vec<GameNode>, Option<Ending>) {
    for id in (1..lines.len()).rev() {
        let line = std::mem::take(&mut lines[id]);
        let Some((parent, index)) = line.parent else { continue };
        let variation = Variation { moves: line.moves, ending: line.ending };
        // A fork of a move that was not played (the line stopped before it) has nothing to
        // replace: its moves were checked and are not kept.
        if let Some(node) = lines[parent].moves.get_mut(index) {
            node.variations.push(variation);
        }
    }
    // The forks of a move were placed last first.
    for line in &mut lines {
        reverse_variations(&mut line.moves);
    }
    let main = lines.into_iter().next().unwrap_or_default();
    (main.moves, main.ending)
}

fn reverse_variations(moves: &mut [GameNode]) {
    for node in moves {
        node.variations.reverse();
    }
}

/// The position a handicap's name sets up; `None` for `OTHER`.
fn preset_position(preset: Preset) -> Option<Position> {
    let sfen = match preset {
        Preset::Even => handicap::EVEN,
        Preset::Lance => handicap::LANCE,
        Preset::RightLance => handicap::RIGHT_LANCE,
        Preset::Bishop => handicap::BISHOP,
        Preset::Rook => handicap::ROOK,
        Preset::RookLance => handicap::ROOK_LANCE,
        Preset::Two => handicap::TWO,
        Preset::Three => handicap::THREE,
        Preset::Four => handicap::FOUR,
        Preset::Five => handicap::FIVE,
        Preset::LeftFive => handicap::LEFT_FIVE,
        Preset::Six => handicap::SIX,
        Preset::LeftSeven => handicap::LEFT_SEVEN,
        Preset::RightSeven => handicap::RIGHT_SEVEN,
        Preset::Eight => handicap::EIGHT,
        Preset::Ten => handicap::TEN,
        Preset::Other => return None,
    };
    sfen.parse().ok()
}

/// The handicap `start` is, if any (`OTHER` for none).
pub(crate) fn preset_of(start: &Position) -> Preset {
    use Preset::*;
    [
        Even, Lance, RightLance, Bishop, Rook, RookLance, Two, Three, Four, Five, LeftFive, Six, LeftSeven, RightSeven,
        Eight, Ten,
    ]
    .into_iter()
    .find(|&p| preset_position(p).is_some_and(|named| named == *start))
    .unwrap_or(Other)
}

/// The side JKF's `color` names: 0 sente (Black), 1 gote (White).
pub(crate) fn side_color(color: u8) -> Color {
    if color == 0 {
        Color::Black
    } else {
        Color::White
    }
}

fn side_digit(color: Color) -> &'static str {
    match color {
        Color::Black => "0",
        Color::White => "1",
    }
}

/// A square as JKF's coordinates read: its file then its rank (`76`).
fn square_name(square: Square) -> String {
    format!("{}{}", square.file(), square.rank())
}

fn duration(clock: Clock) -> Duration {
    let seconds =
        clock.h.unwrap_or(0).saturating_mul(3600).saturating_add(clock.m.saturating_mul(60)).saturating_add(clock.s);
    Duration::from_secs(seconds)
}

/// The words a JKF `relative` writes (`LU`), or `None` for `H` (a drop); an outer `None` for
/// a text that is no `relative`.
fn relative_words(text: &str) -> Option<Option<Relative>> {
    use relative::Place;
    if text == "H" {
        return Some(None);
    }
    let mut words = Relative::default();
    let mut chars = text.chars().peekable();
    if let Some(place) = chars.peek().and_then(|c| match c {
        'L' => Some(Place::Left),
        'C' => Some(Place::Straight),
        'R' => Some(Place::Right),
        _ => None,
    }) {
        words.place = Some(place);
        chars.next();
    }
    if let Some(motion) = chars.peek().and_then(|c| match c {
        'U' => Some(Motion::Up),
        'M' => Some(Motion::Sideways),
        'D' => Some(Motion::Down),
        _ => None,
    }) {
        words.motion = Some(motion);
        chars.next();
    }
    // The schema's forms: one of each at most, and 寄 (M) never with 直 (C).
    let allowed = (words.place, words.motion) != (None, None)
        && (words.place, words.motion) != (Some(Place::Straight), Some(Motion::Sideways));
    (chars.next().is_none() && allowed).then_some(Some(words))
}

/// `n, n, …` of the lengths of the columns, each once.
fn lengths(lengths: impl Iterator<Item = usize>) -> String {
    let mut seen: Vec<usize> = Vec::new();
    for n in lengths {
        if !seen.contains(&n) {
            seen.push(n);
        }
    }
    let words: Vec<String> = seen.iter().map(usize::to_string).collect();
    format!("{} squares", words.join(" or "))
}

/// What the schema allows where a piece is named.
const PIECE_NAME: &str = "a piece's name: FU, KY, KE, GI, KI, KA, HI, OU, TO, NY, NK, NG, UM or RY";

/// The name of what `path` holds and what the schema allows there, in words: its last key, and
/// how many indices follow it (`moves[3]`: an entry of `moves`).
fn expected(path: &str) -> (String, &'static str) {
    let last = path.rsplit('.').next().unwrap_or("");
    let key = last.split('[').next().unwrap_or("");
    let depth = last.matches('[').count();
    let parent = path.rsplit('.').nth(1).unwrap_or("");
    let name = if path.is_empty() { "the record".to_owned() } else { format!("`{path}`") };
    let what = match (key, depth) {
        ("", _) => "a JSON object: `{\"header\": {…}, \"moves\": [{}, …]}`",
        _ if parent == "header" => "a string",
        _ if parent.starts_with("hands[") => "a count, a whole number 0 or more",
        ("header", 0) => "an object of strings (`{\"先手\": \"…\"}`)",
        ("initial", 0) => "an object with a `preset` (`{\"preset\": \"HIRATE\"}`), or null",
        ("preset", 0) => "a handicap's name: HIRATE, KY, KY_R, KA, HI, HIKY, 2, 3, 4, 5, 5_L, 6, 7_L, 7_R, 8, 10, or OTHER with `data`",
        ("data", 0) => "an object with `color`, `board` and `hands`",
        ("color", 0) => "0 (sente) or 1 (gote)",
        ("board", 0) => "nine columns of nine squares (`board[x-1][y-1]`), or `{}` for an empty board",
        ("board", 1) => "a column of nine squares",
        ("board", _) => "a square: `{\"color\": 0, \"kind\": \"FU\"}`, or `{}`",
        ("kind" | "piece" | "capture", 0) => PIECE_NAME,
        ("hands", 0) => "two hands, sente's then gote's (`[{\"FU\": 1}, {}]`)",
        ("hands", _) => "a hand: piece names and counts (`{\"FU\": 2}`)",
        ("moves", 0) => "an array of entries, the first the start's comments (`[{}, {\"move\": …}]`)",
        ("moves", _) | ("forks", 2) => "an entry: an object with `move`, `time`, `comments`, `special` or `forks`",
        ("forks", 0) => "an array of lines, each an array of entries",
        ("forks", _) => "a line: an array of entries",
        ("comments", 0) => "an array of strings",
        ("comments", _) | ("comment", _) => "a string",
        ("move", 0) => "an object with `color`, `to` and `piece` (`{\"color\": 0, \"from\": {\"x\": 7, \"y\": 7}, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}`)",
        ("from" | "to", 0) => "a square: `{\"x\": 7, \"y\": 6}`",
        ("x" | "y", 0) => "a whole number 1 to 9",
        ("same" | "promote", 0) => "true or false",
        ("relative", 0) => "L, C or R, U, M or D, one of each (`LU`), or H",
        ("time", 0) => "`{\"now\": {\"m\": 0, \"s\": 5}, \"total\": {\"h\": 0, \"m\": 1, \"s\": 12}}`",
        ("now" | "total", 0) => "a time: `{\"h\": 0, \"m\": 1, \"s\": 12}`",
        ("h" | "m" | "s", 0) => "a whole number 0 or more",
        ("special", 0) => "an end: TORYO, CHUDAN, SENNICHITE, TIME_UP, ILLEGAL_MOVE, +ILLEGAL_ACTION, -ILLEGAL_ACTION, JISHOGI, KACHI, HIKIWAKE, MATTA, TSUMI, FUZUMI or ERROR",
        _ => "what JKF's schema allows",
    };
    (name, what)
}

/// What an object at `path` (the path of one of its keys) is, in words.
fn parent_words(path: &str) -> String {
    match path.rsplit_once('.') {
        None => "the record".to_owned(),
        Some((parent, _)) => format!("`{parent}`"),
    }
}

/// The first words of `what`, for a label.
fn short(what: &str) -> &str {
    what.split([':', '(']).next().unwrap_or(what).trim_end()
}

#[cfg(test)]
mod corpus {
    use std::fs;

    use serde_json::Value;

    use crate::shogi::{EndReason, Game, Node, Position};

    use crate::shogi::game::compare::{same_position, shape};

    /// Every JKF file of the corpus beside the repository (random legal games written by three
    /// programs) is read without an error into the game of its truth: start, main line, final
    /// position, ending, times, comments and variations.
    #[test]
    fn the_generated_files_read_as_their_truth() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated") else { return };
        let manifest = fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
        let mut checked = 0;
        for row in manifest.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let [id, "jkf", file, _, _, _, terminal, variations, ..] = fields[..] else { continue };
            let read = crate::jkf::check_bytes(&fs::read(dir.join(file)).expect(file));
            let errors: Vec<_> = read.diagnostics.iter().filter(|d| d.is_error()).collect();
            assert!(errors.is_empty(), "{file}: {errors:#?}");
            let game: Game = read.game.expect("a game");
            let truth: Value =
                serde_json::from_str(&fs::read_to_string(dir.join(format!("truth/{id}.json"))).expect("truth"))
                    .expect("JSON");
            let want = crate::kif::write::corpus::game_of(&truth);
            assert!(same_position(&game.start, &want.start), "{file}: start {} is not {}", game.start, want.start);
            let main: Vec<String> = game.main_line().map(|m| m.to_string()).collect();
            let want_main: Vec<String> = want.main_line().map(|m| m.to_string()).collect();
            assert_eq!(main, want_main, "{file}: main line");
            let end: Position = truth["final_sfen"].as_str().expect("final").parse().expect("SFEN");
            assert!(same_position(&game.final_position(), &end), "{file}: final position");
            assert_eq!(game.ending.and_then(|e| e.reason), EndReason::from_csa(terminal), "{file}: ending");
            if variations == "yes" {
                assert_eq!(shape(&game.moves), shape(&want.moves), "{file}: variations");
            }
            // JKF keeps whole seconds.
            for (i, (node, want)) in game.moves.iter().zip(&want.moves).enumerate() {
                let secs = |n: &Node| n.time.and_then(|t| t.spent).map(|d| d.as_secs());
                assert_eq!(secs(node), secs(want), "{file}: move {}'s time", i + 1);
                let comments = |n: &Node| n.comments.join("\n");
                assert_eq!(comments(node), comments(want), "{file}: move {}'s comments", i + 1);
            }
            for (key, value) in truth["header"].as_object().expect("header") {
                let value = value.as_str().expect("a header value");
                if let Some(read) = game.header(key) {
                    assert_eq!(read, value, "{file}: {key}");
                }
            }
            checked += 1;
        }
        crate::corpus::at_least("JKF files", checked, 200);
    }

    /// The JKF files of public test suites (json-kifu-format's and tsshogi's) are read with no
    /// error, each into a game.
    #[test]
    fn real_files_read_without_an_error() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/real") else { return };
        let mut checked = 0;
        for folder in ["json-kifu-format/jkf", "tsshogi"] {
            let mut files: Vec<_> =
                fs::read_dir(dir.join(folder)).expect("folder").map(|e| e.expect("entry").path()).collect();
            files.sort();
            for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "jkf")) {
                let read = crate::jkf::check_bytes(&fs::read(file).expect("file"));
                let errors: Vec<_> = read.diagnostics.iter().filter(|d| d.is_error()).collect();
                assert!(errors.is_empty(), "{}: {errors:#?}", file.display());
                assert!(read.game.is_some(), "{}: no game", file.display());
                checked += 1;
            }
        }
        crate::corpus::at_least("real JKF files", checked, 7);
    }
}

#[cfg(test)]
mod tests {
    use super::read;
    use crate::diagnostic::{codes, Applicability, Code};
    use crate::shogi::{Color, EndReason, Outcome, Position};

    /// A record of `moves` (JSON entries after the first), from the start position.
    fn record(moves: &str) -> String {
        format!("{{\"header\": {{}}, \"moves\": [{{}}{}{moves}]}}", if moves.is_empty() { "" } else { ", " })
    }

    fn mv(color: u8, from: (u8, u8), to: (u8, u8), piece: &str, extra: &str) -> String {
        format!(
            "{{\"move\": {{\"color\": {color}, \"from\": {{\"x\": {}, \"y\": {}}}, \"to\": {{\"x\": {}, \"y\": {}}}, \"piece\": \"{piece}\"{extra}}}}}",
            from.0, from.1, to.0, to.1
        )
    }

    /// `entry` with the members `rest` added.
    fn with(entry: &str, rest: &str) -> String {
        format!("{}, {rest}}}", &entry[..entry.len() - 1])
    }

    fn codes_of(text: &str) -> Vec<Code> {
        read(text).1.iter().map(|d| d.code).collect()
    }

    /// The text of each finding's primary span.
    fn at(text: &str) -> Vec<String> {
        read(text).1.iter().map(|d| d.span().slice(text).to_owned()).collect()
    }

    fn opening() -> String {
        [mv(0, (7, 7), (7, 6), "FU", ""), mv(1, (3, 3), (3, 4), "FU", "")].join(", ")
    }

    #[test]
    fn a_game_is_its_moves_comments_times_and_end() {
        let text = record(&format!(
            "{}, {}, {{\"special\": \"TORYO\"}}",
            with(
                &mv(0, (7, 7), (7, 6), "FU", ""),
                "\"comments\": [\"good\"], \"time\": {\"now\": {\"m\": 0, \"s\": 12}, \"total\": {\"h\": 0, \"m\": 0, \"s\": 12}}"
            ),
            mv(1, (3, 3), (3, 4), "FU", "")
        ));
        let (game, found) = read(&text);
        assert!(found.is_empty(), "{found:#?}");
        let game = game.expect("a game");
        assert_eq!(game.main_line().map(|m| m.to_string()).collect::<Vec<_>>(), ["7g7f", "3c3d"]);
        assert_eq!(game.moves[0].comments, ["good"]);
        assert_eq!(game.moves[0].time.and_then(|t| t.spent).map(|d| d.as_secs()), Some(12));
        let ending = game.ending.expect("an ending");
        assert_eq!((ending.reason, ending.outcome), (Some(EndReason::Resignation), Some(Outcome::Win(Color::White))));
    }

    #[test]
    fn a_value_the_schema_refuses_is_one_error_at_it_with_its_path() {
        let text = record(&mv(0, (7, 7), (7, 6), "XX", ""));
        let found = read(&text).1;
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::jkf::SCHEMA]);
        assert_eq!(found[0].span().slice(&text), "\"XX\"");
        assert!(found[0].message.contains("`moves[1].move.piece`"), "{}", found[0].message);
        // An unknown key, at the key; a missing one, at the object's brace.
        let text = record(&mv(0, (7, 7), (7, 6), "FU", ", \"promoted\": true"));
        assert_eq!(at(&text), ["\"promoted\""]);
        let text = record("{\"move\": {\"color\": 0, \"to\": {\"x\": 7, \"y\": 6}}}");
        let found = read(&text).1;
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].message.contains("has no `piece`"), "{}", found[0].message);
        assert_eq!(found[0].span().slice(&text), "{");
    }

    /// A piece's name in small letters gets a safe fix to its capitals, which reads back as
    /// the game meant; a name that is no piece gets none.
    #[test]
    fn a_piece_name_in_small_letters_is_fixed_to_its_capitals() {
        let text = record(&mv(0, (7, 7), (7, 6), "fu", ""));
        let found = read(&text).1;
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::jkf::SCHEMA]);
        let fix = found[0].fixes.first().expect("a fix");
        assert_eq!(fix.applicability, Applicability::Safe);
        let fixed = fix.apply(&text).expect("the fix applies");
        assert_eq!(fixed, record(&mv(0, (7, 7), (7, 6), "FU", "")));
        assert!(read(&fixed).1.is_empty());
        assert!(read(&record(&mv(0, (7, 7), (7, 6), "xx", ""))).1[0].fixes.is_empty());
    }

    #[test]
    fn each_entry_is_read_apart_so_one_fault_hides_no_other() {
        // Two faults in two entries: two errors; the moves after the first are not played.
        let text = record(&[mv(0, (7, 7), (7, 6), "XX", ""), mv(1, (3, 3), (3, 4), "FU", ", \"same\": 1")].join(", "));
        assert_eq!(codes_of(&text), [codes::jkf::SCHEMA, codes::jkf::SCHEMA]);
    }

    #[test]
    fn a_json_syntax_error_is_one_error() {
        let text = "{\"header\": {}, \"moves\": [{}, {\"move\": }]}";
        assert_eq!(codes_of(text), [codes::json::SYNTAX]);
        assert_eq!(codes_of(""), [codes::jkf::SCHEMA]);
        assert_eq!(codes_of("{\"header\": {}, \"moves\": [{}]}\n{}"), [codes::jkf::SCHEMA]);
    }

    #[test]
    fn what_real_writers_omit_is_read_with_a_warning() {
        let text = "{\"moves\": [{}]}";
        let (game, found) = read(text);
        assert!(game.is_some());
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::jkf::NO_HEADER]);
        assert!(!found[0].is_error());
        let fixed = found[0].fixes[0].apply(text).expect("edits that apply");
        assert!(read(&fixed).1.is_empty(), "{fixed}");
        let text = record(&format!(
            "{}, {{\"special\": \"TORYO\", \"time\": {{\"now\": {{\"m\": 0, \"s\": 1}}}}}}",
            mv(0, (7, 7), (7, 6), "FU", "")
        ));
        assert_eq!(codes_of(&text), [codes::jkf::NO_TOTAL], "an end's time without its total, as rsshogi writes it");
        let timed = with(&mv(0, (7, 7), (7, 6), "FU", ""), "\"time\": {\"now\": {\"m\": 0, \"s\": 1}}");
        assert_eq!(codes_of(&record(&timed)), [codes::jkf::NO_TOTAL]);
    }

    #[test]
    fn what_a_move_says_beside_its_squares_must_agree_with_the_position() {
        let base = opening();
        // The bishop takes the bishop and promotes: the piece is the bishop before the move.
        let good = mv(0, (8, 8), (2, 2), "KA", ", \"capture\": \"KA\", \"promote\": true");
        assert!(read(&record(&format!("{base}, {good}"))).1.is_empty());
        // The captured piece may be named as it goes to the hand.
        let recapture = mv(1, (3, 1), (2, 2), "GI", ", \"capture\": \"KA\", \"same\": true");
        assert!(read(&record(&format!("{base}, {good}, {recapture}"))).1.is_empty());
        for (extra, value) in [
            (", \"capture\": \"HI\"", "\"HI\""),
            (", \"capture\": \"KA\", \"same\": true", "true"),
            (", \"capture\": \"KA\", \"relative\": \"R\"", "\"R\""),
        ] {
            let text =
                record(&format!("{base}, {}", mv(0, (8, 8), (2, 2), "KA", &format!("{extra}, \"promote\": true"))));
            let found = read(&text).1;
            assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::jkf::CONTRADICTS], "{extra}");
            assert_eq!(found[0].span().slice(&text), value, "{extra}");
        }
        // `piece` names the piece before the move; the move is still played.
        let text = record(&format!(
            "{base}, {}, {}",
            mv(0, (8, 8), (2, 2), "UM", ", \"promote\": true"),
            mv(1, (3, 1), (2, 2), "GI", "")
        ));
        let (game, found) = read(&text);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::jkf::CONTRADICTS]);
        assert_eq!(game.expect("a game").moves.len(), 4);
        // `promote: false` where no promotion could be declined.
        let text = record(&mv(0, (7, 7), (7, 6), "FU", ", \"promote\": false"));
        assert_eq!(at(&text), ["false"]);
    }

    #[test]
    fn an_illegal_move_ends_its_line_and_the_side_must_be_the_one_to_move() {
        let text = record(&[mv(0, (7, 7), (7, 5), "FU", ""), mv(1, (3, 3), (3, 4), "FU", "")].join(", "));
        let (game, found) = read(&text);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::jkf::ILLEGAL_MOVE]);
        assert!(game.expect("a game").moves.is_empty());
        let text = record(&mv(1, (3, 3), (3, 4), "FU", ""));
        assert_eq!(codes_of(&text), [codes::jkf::WRONG_SIDE]);
        assert_eq!(at(&text), ["1"]);
        let text = record(&mv(0, (7, 7), (7, 10), "FU", ""));
        assert_eq!(codes_of(&text), [codes::jkf::BAD_SQUARE]);
        assert_eq!(at(&text), ["10"]);
    }

    #[test]
    fn forks_replace_their_move_at_any_depth() {
        let inner = mv(1, (1, 3), (1, 4), "FU", "");
        let fork = with(&mv(1, (8, 3), (8, 4), "FU", ""), &format!("\"forks\": [[{inner}]]"));
        let second = with(&mv(1, (3, 3), (3, 4), "FU", ""), &format!("\"forks\": [[{fork}]]"));
        let text = record(&[mv(0, (7, 7), (7, 6), "FU", ""), second.clone()].join(", "));
        let (game, found) = read(&text);
        assert!(found.is_empty(), "{found:#?}\n{text}");
        let game = game.expect("a game");
        let usi: Vec<String> = game
            .lines()
            .iter()
            .map(|(ply, line)| format!("{ply}:{}", line.iter().map(|n| n.mv.to_string()).collect::<Vec<_>>().join(" ")))
            .collect();
        assert_eq!(usi, ["0:7g7f 3c3d", "1:8c8d", "1:1c1d"]);
        // A fork of a move that is not legal is an error in the fork.
        let bad = second.replace("\"x\": 8, \"y\": 4", "\"x\": 8, \"y\": 5");
        let text = record(&[mv(0, (7, 7), (7, 6), "FU", ""), bad].join(", "));
        assert_eq!(codes_of(&text), [codes::jkf::ILLEGAL_MOVE]);
    }

    #[test]
    fn ends_and_entries_after_them() {
        let text = record(&format!("{}, {{\"special\": \"TSUMI\"}}", mv(0, (7, 7), (7, 6), "FU", "")));
        assert_eq!(codes_of(&text), [codes::jkf::END_CONTRADICTS]);
        let text = record(&format!("{{\"special\": \"TORYO\"}}, {}", mv(0, (7, 7), (7, 6), "FU", "")));
        assert_eq!(codes_of(&text), [codes::jkf::AFTER_END]);
        assert_eq!(codes_of(&record("{\"special\": \"RESIGN\"}")), [codes::jkf::SCHEMA]);
        assert_eq!(codes_of(&record("{}")), [codes::jkf::EMPTY_ENTRY]);
        let text = "{\"header\": {}, \"moves\": [{\"move\": {\"color\": 0, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}}]}";
        assert_eq!(codes_of(text), [codes::jkf::FIRST_ENTRY]);
    }

    #[test]
    fn the_start_is_a_handicap_or_a_board_with_hands() {
        let text = "{\"header\": {}, \"initial\": {\"preset\": \"KA\"}, \"moves\": [{}]}";
        let game = read(text).0.expect("a game");
        assert_eq!(game.start.to_string(), crate::shogi::handicap::BISHOP);
        // An empty board but two kings, each side's, and a pawn in sente's hand.
        let mut board = vec![vec!["{}".to_owned(); 9]; 9];
        board[4][8] = "{\"color\": 0, \"kind\": \"OU\"}".to_owned();
        board[4][0] = "{\"color\": 1, \"kind\": \"OU\"}".to_owned();
        let board: Vec<String> = board.iter().map(|c| format!("[{}]", c.join(","))).collect();
        let text = format!(
            "{{\"header\": {{}}, \"initial\": {{\"preset\": \"OTHER\", \"data\": {{\"color\": 1, \"board\": [{}], \"hands\": [{{\"FU\": 1}}, {{}}]}}}}, \"moves\": [{{}}]}}",
            board.join(",")
        );
        let (game, found) = read(&text);
        assert!(found.is_empty(), "{found:#?}");
        let start: Position = "4k4/9/9/9/9/9/9/9/4K4 w P 1".parse().expect("SFEN");
        assert_eq!(game.expect("a game").start.board, start.board);
        // A king in hand, and `OTHER` without its board.
        let text = text.replace("{\"FU\": 1}", "{\"OU\": 1}");
        assert_eq!(codes_of(&text), [codes::jkf::START_POSITION]);
        assert_eq!(at(&text), ["\"OU\""]);
        assert_eq!(
            codes_of("{\"header\": {}, \"initial\": {\"preset\": \"OTHER\"}, \"moves\": [{}]}"),
            [codes::jkf::SCHEMA]
        );
    }
}
