//! A KIF record read into a [`Game`]: each line read by the grammar ([`super::syntax`]), the
//! header and the start (a handicap's name, a board diagram, or the even game), then every move
//! resolved and played with the full rules of shogi by the resolver every game format shares
//! ([`crate::shogi::written`]), the variations attached where Kifu for Windows attaches them,
//! and every fault reported where it is, with its repairs. Reading goes on after a fault: a move
//! that cannot be played ends its line, and the other lines are still read.

use super::syntax::{self, Body, Ki2Move, Line, MoveLine, Summary, Time, Written as Move};
use crate::diagnostic::{codes, Applicability, Diagnostic, Fix};
use crate::shogi::game::parse_clock;
use crate::shogi::relative::{self, Relative};
use crate::shogi::rules::State;
use crate::shogi::written::{self, Origin, Promotion, Unresolved, Written};
use crate::shogi::Square;
use crate::shogi::{
    handicap, Board, Color, EndReason, Ending, Game, Hand, MoveTime, Node, Outcome, Piece, Position, Variation,
};
use crate::span::Span;

/// The largest record read, in bytes: a record is one game, and the longest real ones hold a
/// few hundred kilobytes.
pub const MAX_BYTES: usize = 8 << 20;

/// The longest line read, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// The deepest variations are nested (a variation of a variation is two deep).
pub const MAX_DEPTH: usize = 100;

/// Who an ending says won.
#[derive(Clone, Copy)]
enum Winner {
    /// No one said.
    Unsaid,
    /// A draw.
    Draw,
    /// The side to move at the ending.
    Mover,
    /// The other side.
    Other,
}

/// The ending words kifu knows, as a move line writes them: the KIF page's first (up to
/// `入玉勝ち`), then those other programs write, each with its reason and who won. (`不詰`, a
/// tsume problem without a mate, says neither.)
const ENDINGS: [(&str, Option<EndReason>, Winner); 14] = [
    ("中断", Some(EndReason::Interrupted), Winner::Unsaid),
    ("投了", Some(EndReason::Resignation), Winner::Other),
    ("持将棋", Some(EndReason::Impasse), Winner::Draw),
    ("千日手", Some(EndReason::Repetition), Winner::Draw),
    ("詰み", Some(EndReason::Checkmate), Winner::Other),
    ("切れ負け", Some(EndReason::TimeUp), Winner::Other),
    ("反則勝ち", Some(EndReason::IllegalMove), Winner::Mover),
    ("反則負け", Some(EndReason::IllegalMove), Winner::Other),
    ("入玉勝ち", Some(EndReason::Impasse), Winner::Mover),
    ("封じ手", Some(EndReason::Interrupted), Winner::Unsaid),
    ("最大手数", Some(EndReason::MaxMoves), Winner::Unsaid),
    ("引き分け", Some(EndReason::Draw), Winner::Draw),
    ("不戦勝", None, Winner::Mover),
    ("不戦敗", None, Winner::Other),
];

/// How many of [`ENDINGS`] the KIF page names.
const PAGE_ENDINGS: usize = 9;

/// The ending words the KIF page names.
fn page_endings() -> impl Iterator<Item = &'static str> {
    ENDINGS[..PAGE_ENDINGS].iter().map(|(word, _, _)| *word)
}

/// The most findings reported of a record; one more says how many were left out.
pub const MAX_FINDINGS: usize = 200;

/// A line's position is kept every this many moves, so that a variation's start is found by
/// playing at most this many moves, however long the line.
const CHECKPOINT: usize = 64;

/// A line of moves being read: the main line, or a variation.
struct Open {
    /// Its moves.
    nodes: Vec<Node>,
    /// The line and move it replaces, for a variation.
    parent: Option<(usize, usize)>,
    /// The number of moves played before its first.
    base: usize,
    /// The square the move before its first went to.
    before_first: Option<Square>,
    /// The position before each `CHECKPOINT`th move (the first included).
    checkpoints: Vec<State>,
    /// The position after its last move.
    state: State,
    /// Its ending, when one was written, and where.
    ending: Option<(Ending, Span)>,
    /// Comments written before its first move, given to it.
    pending: Vec<String>,
    /// A fault stopped its reading: the moves written after it are not played.
    stopped: bool,
}

impl Open {
    fn new(parent: Option<(usize, usize)>, base: usize, before_first: Option<Square>, state: State) -> Self {
        Self {
            nodes: Vec::new(),
            parent,
            base,
            before_first,
            checkpoints: vec![state],
            state,
            ending: None,
            pending: Vec::new(),
            stopped: false,
        }
    }

    /// The position before the move at `index`, and the square the move before it went to.
    fn before(&self, index: usize) -> (State, Option<Square>) {
        let mut state = self.checkpoints[index / CHECKPOINT];
        for node in &self.nodes[index / CHECKPOINT * CHECKPOINT..index] {
            state.play_unchecked(node.mv);
        }
        let before = if index == 0 { self.before_first } else { Some(self.nodes[index - 1].mv.to()) };
        (state, before)
    }

    /// The position after its last move, and the square that move went to (the move before
    /// its first, for a line with no move yet).
    fn tip(&self) -> (State, Option<Square>) {
        (self.state, self.nodes.last().map(|n| n.mv.to()).or(self.before_first))
    }

    fn push(&mut self, mut node: Node) {
        node.comments.splice(0..0, std::mem::take(&mut self.pending));
        self.state.play_unchecked(node.mv);
        self.nodes.push(node);
        if self.nodes.len() % CHECKPOINT == 0 {
            self.checkpoints.push(self.state);
        }
    }
}

/// A line's moves and ending, and the line and move it replaces (none for the main line).
type Branch = (Variation, Option<(usize, usize)>);

/// A rank of a board diagram: each cell's piece and span, file 9 first.
type Cells = Vec<(Option<Piece>, Span)>;

/// What the record says of its start, gathered until the first move.
#[derive(Default)]
struct Start {
    /// `手合割`'s value and span.
    handicap: Option<(String, Span)>,
    /// The diagram's ranks: each rank's cells and the line's span.
    rows: Vec<(Cells, Span)>,
    /// The span of the diagram, first line to last.
    diagram: Option<Span>,
    /// The hands, when written.
    hands: [Option<Hand>; 2],
    /// `後手番`.
    turn: Option<Color>,
}

/// A record being read.
struct Reader<'t> {
    text: &'t str,
    out: Vec<Diagnostic>,
    headers: Vec<(String, String)>,
    comments: Vec<String>,
    start: Start,
    /// The lines of moves, the main line first; empty until the first move.
    lines: Vec<Open>,
    /// The lines a variation may branch from, the latest on top.
    stack: Vec<usize>,
    /// The line moves are added to; `None` while the moves of a block that cannot be placed
    /// are passed over (its heading has the report).
    current: Option<usize>,
    /// The start could not be set up: moves are not played.
    no_start: bool,
    /// Variations nested too deep were reported (once a record).
    too_deep: bool,
    /// A line of KI2 moves was read: the summary says how a line ended.
    ki2: bool,
    /// A byte of the text whose move is looked for ([`position_at`]).
    probe: Option<usize>,
    /// The move whose text holds `probe`: its span, and the position after it.
    probed: Option<(Span, crate::shogi::Move, Position)>,
    /// The moves that may still be played ahead to rank repairs ([`LOOKAHEAD`] a record).
    lookahead: std::cell::Cell<usize>,
}

/// The most moves played ahead after one repair, to rank it: past them the record is taken to
/// go on.
const AHEAD: usize = 200;

/// The most moves played ahead, in all, to rank the repairs of one record: with [`AHEAD`], it
/// bounds what a record of many faults costs.
const LOOKAHEAD: usize = 20_000;

/// The most bytes after a move looked at to play the moves ahead of it.
const AHEAD_BYTES: usize = 32 * 1024;

/// Reads a KIF record's text: the game, when its start could be set up, and every finding.
pub fn read(text: &str) -> (Option<Game>, Vec<Diagnostic>) {
    read_probing(text, None).0
}

/// A KIF or KI2 record's game, and the move whose text holds byte `cursor` (in any line, main
/// or variation) with the position after it, when a move that was played is there.
#[cfg(feature = "views")]
#[allow(clippy::type_complexity)]
pub(crate) fn position_at(text: &str, cursor: usize) -> (Option<Game>, Option<(Span, crate::shogi::Move, Position)>) {
    let ((game, _), probed) = read_probing(text, Some(cursor));
    (game, probed)
}

/// Reads a record, looking for the move at `probe`.
#[allow(clippy::type_complexity)]
fn read_probing(
    text: &str,
    probe: Option<usize>,
) -> ((Option<Game>, Vec<Diagnostic>), Option<(Span, crate::shogi::Move, Position)>) {
    let mut reader = Reader {
        text,
        out: Vec::new(),
        headers: Vec::new(),
        comments: Vec::new(),
        start: Start::default(),
        lines: Vec::new(),
        stack: Vec::new(),
        current: None,
        no_start: false,
        too_deep: false,
        ki2: false,
        probe,
        probed: None,
        lookahead: std::cell::Cell::new(LOOKAHEAD),
    };
    if text.len() > MAX_BYTES {
        let d = Diagnostic::error(
            codes::kif::TOO_LARGE,
            Span::new(MAX_BYTES, MAX_BYTES),
            "the record is too large to read",
        )
        .label("kifu reads a KIF record up to here")
        .help(format!("a KIF record holds one game; kifu reads records of up to {} MiB", MAX_BYTES >> 20));
        return ((None, vec![d]), None);
    }
    let mut at = 0;
    for line in text.split_inclusive('\n').flat_map(|l| SplitCr(Some(l))) {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if body.len() > MAX_LINE {
            let span = Span::new(start, start + body.len());
            reader.out.push(
                Diagnostic::error(
                    codes::kif::LINE_TOO_LONG,
                    Span::new(start, start + MAX_LINE),
                    "this line is too long to read",
                )
                .label(format!("the line holds {} bytes", span.len()))
                .help(format!(
                    "kifu reads lines of up to {} MiB: break the line, or start it with `#` to mark it a comment",
                    MAX_LINE >> 20
                )),
            );
            continue;
        }
        let parsed = syntax::line(body);
        reader.feed(start, body, parsed);
    }
    let probed = reader.probed.take();
    (reader.finish(), probed)
}

/// The pieces of a line ended by a lone `\r` (old Macintosh files), each with its end.
struct SplitCr<'a>(Option<&'a str>);

impl<'a> Iterator for SplitCr<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let text = self.0?;
        match text.find('\r').filter(|&i| text.as_bytes().get(i + 1) != Some(&b'\n') && i + 1 < text.len()) {
            Some(i) => {
                self.0 = Some(&text[i + 1..]);
                Some(&text[..=i])
            }
            None => {
                self.0 = None;
                Some(text)
            }
        }
    }
}

impl Reader<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }

    /// One line, at byte `at` of the text.
    fn feed(&mut self, at: usize, body: &str, line: Line) {
        let shift = |s: Span| s.shift(at);
        let whole = Span::new(at, at + body.len());
        match line {
            Line::Blank | Line::Hash { .. } | Line::MovesHeading => {}
            Line::Summary(summary) => self.summary(at, summary),
            Line::Ki2(moves, bad) => self.ki2_line(at, moves, bad),
            Line::Comment(text) => self.comment(shift(text).slice(self.text).trim_end().to_owned()),
            Line::Bookmark(name) => {
                let name = shift(name).slice(self.text).trim().to_owned();
                match self.current.and_then(|l| self.lines[l].nodes.last_mut()) {
                    Some(node) => node.bookmarks.push(name),
                    None => self.comment(format!("&{name}")),
                }
            }
            Line::Header { key, ascii_colon, value } => {
                self.ascii_colon(ascii_colon.map(shift));
                self.header(shift(key), shift(value));
            }
            Line::BadHand(value) => self.push(
                Diagnostic::error(codes::kif::HAND, shift(value), "these pieces in hand cannot be read")
                    .label("not pieces in hand")
                    .help("write each piece's kanji and its count in kanji, separated by full-width spaces (`飛　金二　歩十八`), or `なし` for none; a king is never in hand"),
            ),
            Line::Hand { .. } | Line::Row { .. } | Line::Frame | Line::MoveCount | Line::Turn(_) => {
                self.diagram_line(at, whole, line);
            }
            Line::Move(mv) => self.move_line(at, *mv),
            Line::Variation(number, span) => self.variation(number, shift(span), whole),
            Line::BadMove { number, word } => {
                self.begin();
                let (number, rest) = (shift(number), shift(word));
                let d = Diagnostic::error(codes::kif::BAD_MOVE, if rest.is_empty() { number } else { rest }, "this move cannot be read")
                    .label("not a KIF move")
                    .help("a KIF move is its square (`７六`, or `同　` for the square of the move before), its piece, `成` when it promotes, and its origin `(77)`, or `打` for a drop: `７六歩(77)`");
                let d = self.with_nearest(d, rest, false);
                self.push(d);
                self.stop();
            }
            Line::Unknown(span) => {
                // Among the moves, most likely a move line that cannot be read: the moves after
                // it would be played from a position the author did not mean.
                let marks = self.mark_repairs(at, body);
                self.stop();
                let mut d =
                Diagnostic::error(codes::kif::UNKNOWN_LINE, shift(span), "this line is not a line of a KIF record")
                    .label("not KIF")
                    .help("a KIF line is a header (`棋戦：…`), a board diagram's line, a numbered move (`   1 ７六歩(77)`), a comment (`*…`) or a variation's heading (`変化：3手`); start the line with `#` to keep it as a note that programs skip");
                if let Some((_, line)) = marks.first() {
                    d.help = Some(format!("a line of KI2 moves starts with the mark of the side to move: `{line}`"));
                }
                d.fixes = marks.into_iter().map(|(fix, _)| fix).collect();
                self.push(d.fix(Fix::replace(Span::point(at), "#", Applicability::Unsafe)));
            }
        }
    }

    /// The warning of an ASCII colon after a key, when there is one.
    fn ascii_colon(&mut self, colon: Option<Span>) {
        if let Some(colon) = colon {
            self.push(
                Diagnostic::warning(codes::kif::ASCII_COLON, colon, "the key is followed by an ASCII colon")
                    .label("KIF writes `：` here")
                    .help("KIF writes a full-width colon after a key (`棋戦：…`); some programs read no other")
                    .fix(Fix::replace(colon, "：", Applicability::Safe)),
            );
        }
    }

    /// A header line, `key：value`: the start's handicap, or a header of the game.
    fn header(&mut self, key: Span, value: Span) {
        let (key, text) = (key.slice(self.text), value.slice(self.text));
        if key == "手合割" {
            self.start.handicap = Some((text.to_owned(), value));
        } else {
            self.headers.push((key.to_owned(), text.to_owned()));
        }
    }

    /// A line of the board diagram (at byte `at`, spanning `whole`), before the first move.
    fn diagram_line(&mut self, at: usize, whole: Span, line: Line) {
        if !self.lines.is_empty() || self.no_start {
            self.push(
                Diagnostic::warning(codes::kif::BOARD_AFTER_MOVES, whole, "a board diagram's line after the moves is not read")
                    .label("after the first move")
                    .help("the start is the diagram before the moves; a diagram after them (of the final position, say) is passed over: start its lines with `#` to say so"),
            );
            return;
        }
        match line {
            Line::Hand { owner, pieces, ascii_colon } => {
                self.ascii_colon(ascii_colon.map(|s| s.shift(at)));
                let mut hand = Hand::default();
                for (kind, n, _) in pieces {
                    hand.add(kind, n);
                }
                self.start.hands[owner.0.index()] = Some(hand);
            }
            Line::Row { cells, .. } => {
                self.start.rows.push((cells.into_iter().map(|(p, s)| (p, s.shift(at))).collect(), whole));
            }
            Line::Turn(color) => self.start.turn = Some(color),
            _ => {}
        }
        let diagram = self.start.diagram.get_or_insert(whole);
        *diagram = diagram.to(whole);
    }

    /// Stops reading the current line after a fault: its next move would be played from a
    /// position the author did not mean.
    fn stop(&mut self) {
        if let Some(current) = self.current.take() {
            self.lines[current].stopped = true;
        }
    }

    /// A `*` comment: the last move's, or the start's before the first move.
    fn comment(&mut self, text: String) {
        let Some(current) = self.current else {
            if self.lines.is_empty() {
                self.comments.push(text);
            }
            // A comment in a block that cannot be placed goes with it (its heading or its
            // fault has the report).
            return;
        };
        let line = &mut self.lines[current];
        match line.nodes.last_mut() {
            Some(node) => node.comments.push(text),
            None if line.parent.is_none() => self.comments.push(text),
            None => line.pending.push(text),
        }
    }

    /// The start, set up when the first move is read: the diagram, or the handicap named, or
    /// the even game.
    fn set_up(&mut self) -> Option<State> {
        let diagram = self.diagram();
        let named = self.start.handicap.take();
        let from_name = named.as_ref().and_then(|(name, span)| self.named(name, *span, diagram.is_some()));
        let position = match (diagram, from_name) {
            (Some(Ok(board)), named_position) => {
                if let (Some(named_position), Some((name, span))) = (named_position, &named) {
                    if named_position.board != board.board || named_position.side != board.side {
                        let diagram_span = self.start.diagram.unwrap_or(*span);
                        self.push(
                            Diagnostic::warning(codes::kif::HANDICAP_BOARD, *span, format!("`{name}` is not the position of the board diagram: the diagram is read"))
                                .label("this handicap")
                                .with(Span::new(diagram_span.start, diagram_span.start), "differs from this diagram")
                                .help("remove the `手合割` line, or make it `その他`, the name KIF gives a start drawn as a diagram"),
                        );
                    }
                }
                Some(board)
            }
            (Some(Err(())), _) => None,
            (None, Some(p)) => Some(p),
            (None, None) if named.is_some() => None,
            (None, None) => Some(Position::STARTPOS),
        };
        let position = position?;
        if let Err(violations) = position.clone().legal() {
            let span = self.start.diagram.unwrap_or_else(|| named.as_ref().map_or(Span::point(0), |n| n.1));
            let first = span.slice(self.text).lines().next().map_or(0, str::len);
            let list: Vec<String> = violations.iter().map(|v| v.breaks(&kif_square)).collect();
            self.push(
                Diagnostic::error(codes::kif::BOARD_POSITION, Span::new(span.start, span.start + first), "the board diagram's position breaks the rules of shogi")
                    .label(list.join("; "))
                    .help("correct the diagram: each side has one king, no two unpromoted pawns of a side on a file, no piece where it can never move again, and the side not to move is not in check"),
            );
            return None;
        }
        Some(State::new(&position))
    }

    /// The position of the handicap `name` (at `span`), with a warning when programs set it up
    /// differently; or `None`, with a report when KIF names no such handicap (an error when
    /// there is no `diagram` to read instead).
    fn named(&mut self, name: &str, span: Span, diagram: bool) -> Option<Position> {
        if let Some((sfen, agreed)) = handicap::kif(name) {
            if !agreed && !diagram {
                self.push(
                    Diagnostic::warning(codes::kif::HANDICAP_AMBIGUOUS, span, format!("programs set up `{name}` differently"))
                        .label(format!("read as {}", sfen.split(' ').next().unwrap_or(sfen)))
                        .help("kifu reads it as Kifu for Windows and most readers do; write the start as a board diagram, which every program reads alike (`kifu convert --to kif` writes one)"),
                );
            }
            return sfen.parse::<Position>().ok();
        }
        if name.trim() == "その他" && diagram {
            return None;
        }
        let names = || handicap::KIF.iter().map(|(n, _, _)| *n);
        let known = names().collect::<Vec<_>>().join(", ");
        // The one name nearest to what is written, when one is nearer than the others.
        let mut near: Vec<(usize, &str)> = names()
            .map(|n| (crate::notation::repair::edit_distance(name.trim(), n), n))
            .filter(|(d, _)| *d <= 2)
            .collect();
        near.sort_unstable();
        let near = match near[..] {
            [first, second, ..] if first.0 == second.0 => None,
            [first, ..] => Some(first.1),
            [] => None,
        };
        let known = match near {
            Some(n) => format!("`{n}` is nearest; KIF names {known}"),
            None => format!("KIF names {known}"),
        };
        let mut d = if diagram {
            Diagnostic::warning(
                codes::kif::HANDICAP_UNKNOWN,
                span,
                format!("KIF names no handicap `{name}`: the board diagram is read"),
            )
            .help(format!("{known}, or その他 with a board diagram"))
        } else {
            Diagnostic::error(
                codes::kif::HANDICAP_UNKNOWN,
                span,
                format!("KIF names no handicap `{name}`, and there is no board diagram"),
            )
            .help(format!("{known}; or write the start as a board diagram"))
        }
        .label("not a handicap KIF names");
        d.fixes = near.map(|n| Fix::replace(span, n, Applicability::Unsafe)).into_iter().collect();
        self.push(d);
        None
    }

    /// The board diagram's position, when there is one: `Err` when it cannot be read (the
    /// report is made).
    fn diagram(&mut self) -> Option<Result<Position, ()>> {
        let Start { rows, diagram, hands, turn, .. } = &self.start;
        if rows.is_empty() && hands.iter().all(Option::is_none) {
            return None;
        }
        let span = diagram.unwrap_or(Span::point(0));
        let bad_row = rows.iter().find(|(cells, _)| cells.len() != 9);
        if rows.len() != 9 || bad_row.is_some() {
            let (at, label) = match bad_row {
                Some((_, line)) => {
                    (*line, "a rank of nine cells, ` ・`, ` 歩` or `v歩`, between `|` and `|`".to_owned())
                }
                None => {
                    let first = span.slice(self.text).lines().next().map_or(0, str::len);
                    (Span::new(span.start, span.start + first), format!("{} ranks, not nine", rows.len()))
                }
            };
            self.push(
                Diagnostic::error(codes::kif::BOARD_SHAPE, at, "the board diagram cannot be read")
                    .label(label)
                    .help("a diagram is nine ranks between the frame's lines, each `|` and nine cells (` ・` empty, ` 歩` Black's, `v歩` White's), then `|` and the rank (`|一`)"),
            );
            return Some(Err(()));
        }
        let mut board = Board::default();
        for (r, (cells, _)) in rows.iter().enumerate() {
            for (f, (piece, _)) in cells.iter().enumerate() {
                if let Some(sq) = Square::new(9 - f as u8, r as u8 + 1) {
                    board.set(sq, *piece);
                }
            }
        }
        let hands = [hands[0].unwrap_or_default(), hands[1].unwrap_or_default()];
        Some(Ok(Position { board, hands, side: turn.unwrap_or(Color::Black), move_number: Some(1) }))
    }

    /// Sets the start up at the first move line, and opens the main line.
    fn begin(&mut self) {
        if self.lines.is_empty() && !self.no_start {
            match self.set_up() {
                Some(state) => {
                    self.lines.push(Open::new(None, 0, None, state));
                    self.stack.push(0);
                    self.current = Some(0);
                }
                None => self.no_start = true,
            }
        }
    }

    fn move_line(&mut self, at: usize, line: MoveLine) {
        self.begin();
        let Some(current) = self.current else { return };
        let shift = |s: Span| s.shift(at);
        let open = &self.lines[current];
        let ply = open.base + open.nodes.len() + 1;
        let span = match &line.body {
            Body::Move(m) => shift(m.span),
            Body::Ending(word, _) => shift(*word),
        };
        if self.after_ending(current, span) {
            return;
        }
        let (number, number_span) = line.number;
        if number != Some(ply as u64) {
            self.push(
                Diagnostic::error(codes::kif::MOVE_NUMBER, shift(number_span), format!("this is move {ply} of its line, numbered {}", shift(number_span).slice(self.text)))
                    .label(format!("move {ply}"))
                    .help("a move's number is its place in the game; a wrong number often means a move line is missing or repeated")
                    .fix(Fix::replace(shift(number_span), ply.to_string(), Applicability::Unsafe)),
            );
        }
        // The line's findings in the order of its text: the move's, then its time's.
        let time = |reader: &mut Self| {
            if let Some(bad) = line.bad_time {
                reader.bad_time(shift(bad), "not a time KIF writes");
            }
            line.time.as_ref().and_then(|t| reader.time(at, t))
        };
        match line.body {
            Body::Ending(word, known) => {
                let span = shift(word);
                self.ending(current, span, span.slice(self.text), known);
                time(self);
            }
            Body::Move(ref m) => {
                let (state, before) = self.lines[current].tip();
                let resolved = self.resolve(at, m, &state, before);
                let time = time(self);
                match resolved {
                    Some(mv) => {
                        let mut node = Node::new(mv);
                        node.time = time;
                        self.played(current, node, shift(m.span));
                    }
                    None => self.stop(),
                }
            }
        }
    }

    /// Adds the move of `node`, written at `span`, to line `current`.
    fn played(&mut self, current: usize, node: Node, span: Span) {
        let mv = node.mv;
        self.lines[current].push(node);
        if self.probe.is_some_and(|at| span.start <= at && at <= span.end) {
            self.probed = Some((span, mv, self.lines[current].state.to_position()));
        }
    }

    /// True, with its report, when line `current` has ended before the move at `span`: the
    /// line stops.
    fn after_ending(&mut self, current: usize, span: Span) -> bool {
        let Some((_, ended)) = self.lines[current].ending else { return false };
        self.push(
            Diagnostic::error(codes::kif::AFTER_ENDING, span, "a move after the line's ending")
                .label("after the ending")
                .with(Span::new(ended.start, ended.start), "the line ends here")
                .help("a line ends with its ending's word (`投了`, `中断`, …) or its summary (`まで64手で後手の勝ち`); put the moves before it, or start a variation with `変化：N手`"),
        );
        self.stop();
        true
    }

    /// A line of KI2 moves, and the word after them that cannot be read, if any.
    fn ki2_line(&mut self, at: usize, moves: Vec<Ki2Move>, bad: Option<Span>) {
        self.ki2 = true;
        self.begin();
        for m in moves {
            let Some(current) = self.current else { return };
            if self.after_ending(current, m.span.shift(at)) {
                return;
            }
            let (state, before) = self.lines[current].tip();
            match self.resolve_ki2(at, &m, &state, before) {
                Some(mv) => self.played(current, Node::new(mv), m.span.shift(at)),
                None => {
                    self.stop();
                    return;
                }
            }
        }
        let Some(bad) = bad.map(|b| b.shift(at)) else { return };
        if let Some(current) = self.current {
            if self.after_ending(current, bad) {
                return;
            }
        }
        let d = Diagnostic::error(codes::kif::BAD_MOVE, bad, "this move cannot be read")
            .label("not a KI2 move")
            .help("a KI2 move is its side's mark, its square (`７六`, or `同` for the square of the move before), its piece, the words that tell it from others of its kind (`左`, `直`, `右`, `上`, `寄`, `引`), then `成`, `不成` or `打`: `▲５八金左`");
        let d = self.with_nearest(d, bad, true);
        self.push(d);
        self.stop();
    }

    /// The move the KI2 move `m` means in `state` after a move to `before`, or `None` with its
    /// report; the warnings of the words the JSA's rules would write otherwise.
    fn resolve_ki2(
        &mut self,
        at: usize,
        m: &Ki2Move,
        state: &State,
        before: Option<Square>,
    ) -> Option<crate::shogi::Move> {
        let shift = |s: Span| s.shift(at);
        let span = shift(m.span);
        let Some(to) = m.to.or(before) else {
            self.same_first(span);
            return None;
        };
        let Named { drop, board, named } = named(m, state, to);
        let mut from = None;
        if !drop {
            match (named.as_slice(), board.as_slice()) {
                (&[one], _) => from = Some(one),
                ([], []) => {}
                (named, all) => {
                    let shown = if named.is_empty() { all } else { named };
                    self.which_piece(span, m, state, before, shown, named.is_empty());
                    // Words that name no piece where one piece can move: the move is that one's.
                    match all {
                        &[one] => from = Some(one),
                        _ => return None,
                    }
                }
            }
        }
        match ki2_resolve(m, state, to, drop, from) {
            Ok(resolved) => {
                self.ki2_forms(at, m, state, &resolved, &board);
                Some(resolved.mv)
            }
            Err(why) => {
                let message = self.unresolved(why, m.piece.0, drop);
                let d = Diagnostic::error(codes::kif::ILLEGAL_MOVE, span, message)
                    .label("not legal here")
                    .help("the move and the moves after it in its line are not played: correct it");
                let d = self.nearest(d, span, state, before, true);
                self.push(d);
                None
            }
        }
    }

    /// The error of a KI2 move whose words do not tell which of the pieces on `shown` moves:
    /// they name several (`none`: they name none of them).
    fn which_piece(
        &mut self,
        span: Span,
        m: &Ki2Move,
        state: &State,
        before: Option<Square>,
        shown: &[Square],
        none: bool,
    ) {
        let to = m.to.or(before).unwrap_or(shown[0]);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut texts: Vec<String> = shown
            .iter()
            .map(|&from| {
                let promote = m.promote.is_some();
                let mv = crate::shogi::Move::Board { from, to, promote };
                let mv =
                    if moves.contains(&mv) { mv } else { crate::shogi::Move::Board { from, to, promote: !promote } };
                super::write::ki2_move_text(state, mv, before)
            })
            .collect();
        // The likeliest first: a piece after whose move the record's next moves can be played.
        texts.sort_by_cached_key(|t| std::cmp::Reverse(self.played_after(span.end, state, t, before)));
        let name = super::write::name(m.piece.0 .0, m.piece.0 .1);
        let written = m.words().kanji();
        let message = if none {
            format!("no {name} that `{written}` names can go to {}", kif_square(to))
        } else {
            format!("{} pieces ({name}) can go to {}, and the move does not say which", shown.len(), kif_square(to))
        };
        let list: Vec<String> = texts.iter().map(|t| format!("`{t}`")).collect();
        let mut d = Diagnostic::error(codes::kif::WHICH_PIECE, span, message)
            .label(if none { "names no piece that can move" } else { "which one?" })
            .help(format!(
                "KI2 tells the pieces apart by where they stand (`左`, `直`, `右`) and how they move (`上`, `寄`, `引`): {}",
                list.join(", ")
            ));
        d.fixes = texts.into_iter().map(|t| Fix::replace(span, t, Applicability::Unsafe)).collect();
        self.push(d);
    }

    /// The warnings of a KI2 move played as `resolved` whose words are not the JSA's: those
    /// that tell it from others of its kind (`board` holds the pieces that could make it), `打`,
    /// `不成`, and the side's mark.
    fn ki2_forms(&mut self, at: usize, m: &Ki2Move, state: &State, resolved: &written::Resolved, board: &[Square]) {
        let shift = |s: Span| s.shift(at);
        let side = state.side();
        if m.mark.0 != side {
            let mark = if side == Color::Black { "▲" } else { "△" };
            self.push(
                Diagnostic::warning(codes::kif::SIDE_MARK, shift(m.mark.1), format!("the mark names {}, but it is {}'s move", m.mark.0.name(), side.name()))
                    .label(format!("{} moves here", side.name()))
                    .help("a KI2 move's mark is its side's: `▲` for Black (先手), `△` for White (後手); a wrong one often means a move is missing before it")
                    .fix(Fix::replace(shift(m.mark.1), mark, Applicability::Safe)),
            );
        }
        let written = m.words();
        match resolved.mv {
            crate::shogi::Move::Board { from, to, promote } => {
                let jsa = relative::jsa(side, resolved.piece, from, to, board);
                let named = relative::matches(side, resolved.piece, to, written, board) == [from];
                if written != jsa && named {
                    let words = shift(m.relative_span());
                    let reachers = relative::reachers(state, resolved.piece, to);
                    let pinned = reachers.len() > board.len()
                        && relative::jsa(side, resolved.piece, from, to, &reachers) == written;
                    let message = if pinned {
                        format!("`{}` tells this piece from one that is pinned: no other piece of its kind can make this move", written.kanji())
                    } else if jsa == Relative::default() {
                        format!("`{}` is written, but no other piece of its kind can make this move", written.kanji())
                    } else {
                        format!("the JSA's rules write `{}` for this move, not `{}`", jsa.kanji(), written.kanji())
                    };
                    self.push(
                        Diagnostic::warning(codes::kif::JSA_WORDS, words, message)
                            .label(if jsa == Relative::default() { "KI2 writes nothing here".to_owned() } else { format!("KI2 writes `{}` here", jsa.kanji()) })
                            .help("KI2 writes where a piece stands (`左`, `直`, `右`) and how it moves (`上`, `寄`, `引`) only as far as needed to tell it from the others of its kind that could make the move legally (a pinned piece cannot), how-it-moves first")
                            .fix(Fix::replace(words, jsa.kanji(), Applicability::Safe)),
                    );
                }
                if !promote && m.decline.is_none() && resolved.could_promote {
                    let end = shift(m.span).end;
                    self.push(
                        Diagnostic::warning(codes::kif::DECLINE_UNWRITTEN, shift(m.span), "this move could promote, and `不成` is not written")
                            .label("read as not promoting")
                            .help("KI2 writes `成` when a move promotes and `不成` when it could and does not; a move with neither reads as not promoting")
                            .fix(Fix::replace(Span::point(end), "不成", Applicability::Safe)),
                    );
                }
            }
            crate::shogi::Move::Drop { .. } => {
                if let Some(drop) = m.drop.filter(|_| board.is_empty()) {
                    self.push(
                        Diagnostic::warning(
                            codes::kif::JSA_WORDS,
                            shift(drop),
                            "`打` is written, but no piece on the board can make this move",
                        )
                        .label("KI2 writes nothing here")
                        .help("KI2 writes `打` only when a piece on the board could go to the same square")
                        .fix(Fix::replace(shift(drop), "", Applicability::Safe)),
                    );
                }
            }
        }
    }

    /// A KI2 summary (`まで64手で後手の勝ち`): the ending of the line it closes, which KI2
    /// writes nowhere else. (KIF's is skipped, as the KIF page says programs do: its ending is
    /// the word on a move line.)
    fn summary(&mut self, at: usize, summary: Summary) {
        // KI2 says how a line ended in the summary alone; so does a record with no move yet.
        if self.lines.is_empty() && !matches!(summary, Summary::Silent) {
            self.begin();
            self.ki2 = true;
        }
        let Some(current) = self.current.filter(|_| self.ki2) else { return };
        if self.lines[current].ending.is_some() {
            return;
        }
        match summary {
            Summary::Silent => {}
            Summary::Word(span) => {
                let span = span.shift(at);
                let word = match span.slice(self.text) {
                    "詰" => "詰み",
                    word => word,
                };
                self.ending(current, span, word, true);
            }
            Summary::Won { span, side, how, time } => {
                let span = span.shift(at);
                let mover = self.lines[current].state.side();
                // Who must have won, for the ending to be one: the side that resigns, runs out
                // of time or declares is the side to move.
                let (reason, winner, must) = match how.shift(at).slice(self.text) {
                    "反則勝ち" => (EndReason::IllegalMove, side, None),
                    "反則負け" => (EndReason::IllegalMove, side.opponent(), None),
                    "入玉勝ち" => (EndReason::Impasse, side, Some(mover)),
                    _ if time => (EndReason::TimeUp, side, Some(mover.opponent())),
                    _ => (EndReason::Resignation, side, Some(mover.opponent())),
                };
                if must.is_some_and(|m| m != winner) {
                    let why = if reason == EndReason::Impasse {
                        "a side declares its win on its own move"
                    } else {
                        "the side that resigns or runs out of time is the side to move"
                    };
                    self.push(
                        Diagnostic::warning(
                            codes::kif::ENDING_CLAIM,
                            span,
                            format!("the summary says {} won, but {} is to move: {why}", winner.name(), mover.name()),
                        )
                        .label("not what the moves show; the ending is not read")
                        .help("check the side the summary names, and the number of moves"),
                    );
                    return;
                }
                let ending = Ending { reason: Some(reason), outcome: Some(Outcome::Win(winner)) };
                self.lines[current].ending = Some((ending, span));
            }
        }
    }

    /// The error of `同` on a line's first move with no move before it.
    fn same_first(&mut self, span: Span) {
        self.push(
            Diagnostic::error(
                codes::kif::SAME_FIRST,
                span,
                "`同` names the square of the move before, and there is none",
            )
            .label("no move before this one")
            .help("write the square the move goes to (`７六歩(77)` in KIF, `▲７六歩` in KI2)"),
        );
    }

    /// Why a move of `piece` cannot be played, in words.
    fn unresolved(&self, why: Unresolved, piece: (crate::shogi::PieceKind, bool), drop: bool) -> String {
        match why {
            Unresolved::Illegal(illegal) => format!("this move is not legal: {}", illegal.describe(&kif_square)),
            Unresolved::WrongPiece { from, found } => format!(
                "the piece on {} is {}, not {}",
                kif_square(from),
                found.describe(),
                super::write::name(piece.0, piece.1)
            ),
            Unresolved::DeclineImpossible => "`不成` is written on a move that cannot promote".to_owned(),
            Unresolved::NoCandidate { .. } if drop => {
                format!("{} is a promoted piece: a piece is dropped unpromoted", super::write::name(piece.0, true))
            }
            _ => "this move is not legal here".to_owned(),
        }
    }

    /// A time that cannot be read, at `span`: the move is played without it.
    fn bad_time(&mut self, span: Span, label: &str) {
        self.push(
            Diagnostic::error(codes::kif::BAD_TIME, span, "this time cannot be read")
                .label(label)
                .help("KIF writes a move's time as `( 0:16/00:00:16)`: the minutes and seconds the move took, then the mover's total in hours, minutes and seconds (each below 60 after the first); correct it, or delete it, as a time may be left out"),
        );
    }

    /// A move's time, with a warning when its fields are not written with two digits; `None`,
    /// with an error, when a clock has a field of 60 or more.
    fn time(&mut self, at: usize, time: &Time) -> Option<MoveTime> {
        let text = |s: Span| s.shift(at).slice(self.text);
        let clock = |s: Span| parse_clock(text(s));
        if let Some(bad) = [Some(time.spent), time.total].into_iter().flatten().find(|&c| clock(c).is_none()) {
            self.bad_time(bad.shift(at), "minutes and seconds are below 60");
            return None;
        }
        let spent = clock(time.spent);
        let total = time.total.and_then(clock);
        let padded = |s: &str| s.split(':').skip(1).all(|f| f.len() == 2);
        if !padded(text(time.spent)) || time.total.is_some_and(|t| !padded(text(t))) {
            let written = spent.zip(total).map(|(spent, total)| {
                let (s, t) = (spent.as_secs(), total.as_secs());
                format!("({:>2}:{:02}/{:02}:{:02}:{:02})", s / 60, s % 60, t / 3600, t / 60 % 60, t % 60)
            });
            let label =
                written.as_ref().map_or("KIF writes `( 0:04/00:00:04)`".to_owned(), |w| format!("KIF writes `{w}`"));
            let fix: Vec<Fix> =
                written.into_iter().map(|w| Fix::replace(time.span.shift(at), w, Applicability::Safe)).collect();
            let mut d = Diagnostic::warning(codes::kif::TIME_FORM, time.span.shift(at), "the time's fields are not written with two digits")
                .label(label)
                .help("KIF writes a move's time as minutes and two-digit seconds, and the total as two-digit hours, minutes and seconds");
            d.fixes = fix;
            self.push(d);
        }
        Some(MoveTime { spent, total })
    }

    /// An ending's word, at `span`.
    fn ending(&mut self, current: usize, span: Span, word: &str, known: bool) {
        let side = self.lines[current].state.side();
        let (reason, winner) =
            ENDINGS.iter().find(|(w, _, _)| *w == word).map_or((None, Winner::Unsaid), |e| (e.1, e.2));
        let outcome = match winner {
            Winner::Unsaid => None,
            Winner::Draw => Some(Outcome::Draw),
            Winner::Mover => Some(Outcome::Win(side)),
            Winner::Other => Some(Outcome::Win(side.opponent())),
        };
        if !known {
            self.push(
                Diagnostic::warning(
                    codes::kif::UNKNOWN_ENDING,
                    span,
                    format!("KIF names no ending `{word}`: the line ends here, with no result"),
                )
                .label("not an ending KIF names")
                .help(format!("KIF's endings are {}", page_endings().collect::<Vec<_>>().join(", "))),
            );
        }
        let state = self.lines[current].state;
        let claim = match word {
            "詰み" if !state.is_checkmate() => Some(format!("{} is not checkmated: it has legal moves", side.name())),
            "千日手" if self.occurrences(current) < 4 => Some("no position occurred four times".to_owned()),
            _ => None,
        };
        if let Some(why) = claim {
            self.push(
                Diagnostic::warning(codes::kif::ENDING_CLAIM, span, format!("the line ends with `{word}`, but {why}"))
                    .label("not what the moves show")
                    .help("check the last moves, or the ending's word (`中断` ends a game with no result)"),
            );
        }
        self.lines[current].ending = Some((Ending { reason, outcome }, span));
    }

    /// How many times the position after the last move of line `id` occurred, from the start
    /// of the game through the lines it branches from.
    fn occurrences(&self, id: usize) -> usize {
        let mut path = Vec::new();
        let (mut line, mut upto) = (id, self.lines[id].nodes.len());
        loop {
            let open = &self.lines[line];
            path.extend(open.nodes[..upto].iter().rev().map(|n| n.mv));
            match open.parent {
                Some((parent, index)) => (line, upto) = (parent, index),
                None => break,
            }
        }
        let mut state = self.lines[0].checkpoints[0];
        let mut keys = vec![state.repetition_key()];
        for mv in path.into_iter().rev() {
            state.play_unchecked(mv);
            keys.push(state.repetition_key());
        }
        let last = state.repetition_key();
        keys.iter().filter(|&&k| k == last).count()
    }

    /// `変化：N手`: the moves after it replace move `number` of the latest line that reaches it.
    fn variation(&mut self, number: Option<u64>, span: Span, whole: Span) {
        self.current = None;
        if self.lines.is_empty() {
            if !self.no_start {
                self.push(
                    Diagnostic::error(codes::kif::VARIATION_UNREACHED, span, "a variation before any move")
                        .label("no move to replace")
                        .help("a variation replaces a move of a line written before it: write the main line's moves first"),
                );
            }
            return;
        }
        let ply = number.and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
        // The latest line that has a move `ply`: lines written after it that do not reach
        // back that far are done.
        while let Some(&top) = self.stack.last() {
            let open = &self.lines[top];
            if open.base < ply && ply <= open.base + open.nodes.len() {
                break;
            }
            if open.stopped && open.base < ply {
                // The line a fault stopped short of move `ply` is the likeliest to have it: the
                // block goes with the fault, which has the report.
                return;
            }
            self.stack.pop();
        }
        let Some(&target) = self.stack.last() else {
            // The main line is always there to come back to.
            self.stack.push(0);
            if self.too_deep {
                // Most likely a variation inside one too deep to read, which has the report.
                return;
            }
            self.push(
                Diagnostic::error(codes::kif::VARIATION_UNREACHED, span, format!("no line before this variation has a move {ply}"))
                    .label(format!("move {ply}"))
                    .help("a variation's number is the move it replaces, in the latest line before it that has that move; its moves are not read: correct the number"),
            );
            return;
        };
        if self.stack.len() >= MAX_DEPTH {
            if std::mem::replace(&mut self.too_deep, true) {
                return;
            }
            self.push(
                Diagnostic::error(codes::kif::TOO_DEEP, whole, "variations nest too deep to read")
                    .label(format!("deeper than {MAX_DEPTH}"))
                    .help(format!(
                        "kifu reads variations nested up to {MAX_DEPTH} deep; this one and those inside it are not read"
                    )),
            );
            return;
        }
        let open = &self.lines[target];
        let index = ply - open.base - 1;
        // A variation of a line's first move is one more replacement of the move that line
        // replaces.
        let parent = match (index, open.parent) {
            (0, Some(parent)) => parent,
            _ => (target, index),
        };
        let (state, before) = open.before(index);
        let id = self.lines.len();
        self.lines.push(Open::new(Some(parent), ply - 1, before, state));
        self.stack.push(id);
        self.current = Some(id);
    }

    /// The warnings of the forms real programs write that KIF does not: `同` without its
    /// full-width space, `不成`, a drop's `(00)`.
    fn forms(&mut self, at: usize, m: &Move) {
        let shift = |s: Span| s.shift(at);
        if let Some(space) = m.same_space {
            let (message, fix_span) = if space.is_empty() {
                ("`同` is written without a space after it", shift(space))
            } else {
                ("`同` is followed by a half-width space", shift(space))
            };
            self.push(
                Diagnostic::warning(
                    codes::kif::SAME_SPACE,
                    Span::new(shift(m.span).start, fix_span.end.max(shift(m.span).start + 3)),
                    message,
                )
                .label("KIF writes `同　`")
                .help("KIF writes `同` and a full-width space before the piece (`同　歩`); some programs read no other")
                .fix(Fix::replace(fix_span, "\u{3000}", Applicability::Safe)),
            );
        }
        if let Some(decline) = m.decline {
            self.push(
                Diagnostic::warning(codes::kif::DECLINE_WRITTEN, shift(decline), "`不成` is written in a KIF move")
                    .label("KIF writes nothing here")
                    .help("KIF writes `成` when a move promotes and nothing when it does not; programs that follow it cannot read `不成`")
                    .fix(Fix::replace(shift(decline), "", Applicability::Safe)),
            );
        }
        if let Some(zero) = m.zero_origin {
            let replacement = if m.drop.is_some() { "" } else { "打" };
            self.push(
                Diagnostic::warning(codes::kif::DROP_ORIGIN, shift(zero), "a drop's origin is written `(00)`")
                    .label("KIF writes `打` alone")
                    .help("a drop is written with `打` after the piece and no origin (`３三角打`)")
                    .fix(Fix::replace(shift(zero), replacement, Applicability::Safe)),
            );
        }
    }

    /// The move `m` means in `state` after a move to `before`, or `None` with its report.
    fn resolve(&mut self, at: usize, m: &Move, state: &State, before: Option<Square>) -> Option<crate::shogi::Move> {
        let shift = |s: Span| s.shift(at);
        self.forms(at, m);
        let span = shift(m.span);
        let Some(to) = m.to.or(before) else {
            self.same_first(span);
            return None;
        };
        let drop = m.drop.is_some() || m.zero_origin.is_some();
        let written = written_of(m, to);
        // A promoted piece is never dropped (the resolver drops the kind written, promoted or
        // not).
        let result = if drop && m.piece.1 {
            Err(Unresolved::NoCandidate { kind: m.piece.0, promoted: true, nearest: None, other_state: None })
        } else {
            written::resolve(state, &written)
        };
        match result {
            Ok(resolved) => Some(resolved.mv),
            Err(why) => {
                let message = self.unresolved(why, m.piece, drop);
                let d = Diagnostic::error(codes::kif::ILLEGAL_MOVE, span, message)
                    .label("not legal here")
                    .help("the move and the moves after it in its line are not played: correct it");
                let d = self.nearest(d, span, state, before, false);
                self.push(d);
                None
            }
        }
    }

    /// The repairs of `body`, a line at byte `at` that is no line of a KI2 record, that make it
    /// the line of moves it most likely is: its first character taken for the mark of the side
    /// to move (`左３八金` for `▲３八金`), or the mark added before it; each with the line it
    /// makes, when that line reads and its first move is legal.
    fn mark_repairs(&mut self, at: usize, body: &str) -> Vec<(Fix, String)> {
        let first = body.chars().next().map_or(0, char::len_utf8);
        let line_with = |mark: &str| {
            let candidates = [
                (Span::new(at, at + first), format!("{mark}{}", &body[first..])),
                (Span::point(at), format!("{mark}{body}")),
            ];
            candidates
                .into_iter()
                .filter_map(|(span, line)| match syntax::line(&line) {
                    Line::Ki2(moves, None) => Some((span, line, moves)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        // Read as moves only where KI2 moves are read: after them, or in place of the first.
        // (Every mark reads alike: the line reads with one when it reads with any.)
        if !self.ki2 && !self.lines.is_empty() || line_with("▲").is_empty() {
            return Vec::new();
        }
        self.begin();
        let Some(open) = self.current.and_then(|c| self.lines.get(c)).filter(|open| open.ending.is_none()) else {
            return Vec::new();
        };
        let (state, before) = open.tip();
        let mark = if state.side() == Color::Black { "▲" } else { "△" };
        line_with(mark)
            .into_iter()
            .filter(|(_, _, moves)| {
                let mut state = state;
                moves.first().is_some_and(|m| play_ki2(&mut state, m, before).is_some())
            })
            .map(|(span, line, _)| (Fix::replace(span, mark, Applicability::Unsafe), line))
            .collect()
    }

    /// `d` with the legal moves nearest to the text of a line whose move cannot be read, when
    /// the line's position is known.
    fn with_nearest(&mut self, d: Diagnostic, span: Span, ki2: bool) -> Diagnostic {
        let Some(current) = self.current else { return d };
        let open = &self.lines[current];
        if open.ending.is_some() {
            return d;
        }
        let (state, before) = open.tip();
        self.nearest(d, span, &state, before, ki2)
    }

    /// `d` with the legal moves of `state` nearest to the text at `span` as its repairs (at
    /// most three, the nearest first), and their list in its help.
    fn nearest(&self, mut d: Diagnostic, span: Span, state: &State, before: Option<Square>, ki2: bool) -> Diagnostic {
        // Compared whole, origin included, without the spaces that `同` may have after it.
        let bare = |t: &str| t.replace([' ', '\u{3000}'], "");
        let written = bare(span.slice(self.text));
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let near: Vec<(usize, String)> = moves
            .into_iter()
            .map(|mv| {
                let kif = if ki2 {
                    super::write::ki2_move_text(state, mv, before)
                } else {
                    super::write::move_text(state, mv, before)
                };
                (crate::notation::repair::edit_distance(&written, &bare(&kif)), kif)
            })
            .filter(|(distance, _)| *distance <= 3)
            .collect();
        // The likeliest first: a move after which more of the record's next moves can be played
        // (a move that continues the game is likelier than one that does not), then the
        // nearest, then in the order the rules list the moves.
        // At the same distance, a move from the origin written: its digits are seldom mistyped.
        let origin = |t: &str| t.find('(').map(|i| t[i..].to_owned());
        let written_origin = origin(&written);
        let mut ranked: Vec<(usize, usize, bool, String)> = near
            .into_iter()
            .map(|(distance, kif)| {
                let played = self.played_after(span.end, state, &kif, before);
                (played, distance, origin(&kif) != written_origin, kif)
            })
            .collect();
        // An ending's word, for a word that is near one (`投子` for `投了`).
        ranked.extend(
            page_endings()
                .map(|w| (crate::notation::repair::edit_distance(&written, w), w))
                .filter(|&(distance, w)| distance <= 1 && w.chars().count() > 1)
                .map(|(distance, w)| (usize::MAX, distance, true, w.to_owned())),
        );
        ranked
            .sort_by_key(|(played, distance, other_origin, _)| (std::cmp::Reverse(*played), *distance, *other_origin));
        let mut near: Vec<(usize, String)> = ranked.into_iter().map(|(_, d, _, kif)| (d, kif)).collect();
        near.truncate(3);
        if !near.is_empty() {
            let list: Vec<String> = near.iter().map(|(_, m)| format!("`{m}`")).collect();
            let help = d.help.take().unwrap_or_default();
            d.help = Some(format!("{help}; legal here and nearest to what is written: {}", list.join(", ")));
            d.fixes = near.into_iter().map(|(_, m)| Fix::replace(span, m, Applicability::Unsafe)).collect();
        }
        d
    }

    /// How many of the record's next moves (until a line that is not a move, and at most
    /// [`AHEAD`]) can be played after the move written `kif` (a legal move of `state` after a
    /// move to `before`), played in place of the move that ends at byte `end`: `usize::MAX` when
    /// they all can, else how many before the first that cannot. (The moves played ahead for
    /// one record are at most [`LOOKAHEAD`]: past them, none is.)
    fn played_after(&self, end: usize, state: &State, kif: &str, before: Option<Square>) -> usize {
        let mut state = *state;
        let Some(mv) = self.play_text(&mut state, kif, before) else { return 0 };
        let mut before = Some(mv.to());
        // The text looked at is bounded too, whatever lies between the moves.
        let rest = self.text.get(end..).unwrap_or_default();
        let mut cut = rest.len().min(AHEAD_BYTES);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let rest = &rest[..cut];
        if let Line::Ki2(..) = syntax::line(kif) {
            // KI2: the rest of the line, then the lines after it.
            let lines = rest.split_inclusive('\n').map(|l| l.trim_end_matches(['\n', '\r']));
            let moves = lines
                .filter(|l| !l.trim().is_empty() && !l.starts_with('*') && !l.starts_with('&'))
                .map_while(|l| match syntax::line(l) {
                    Line::Ki2(moves, _) => Some(moves),
                    _ => None,
                })
                .flatten()
                .take(AHEAD);
            for (played, m) in moves.enumerate() {
                match play_ki2(&mut state, &m, before).filter(|_| self.spend()) {
                    Some(mv) => before = Some(mv.to()),
                    None => return played,
                }
            }
            return usize::MAX;
        }
        let lines = rest.split_inclusive('\n').skip(1).map(|l| l.trim_end_matches(['\n', '\r']));
        let lines = lines.filter(|l| !l.trim().is_empty() && !l.starts_with('*') && !l.starts_with('&'));
        for (played, line) in lines.take(AHEAD).enumerate() {
            let Line::Move(m) = syntax::line(line) else { break };
            let Body::Move(w) = m.body else { break };
            match self.play_written(&mut state, &w, before).filter(|_| self.spend()) {
                Some(mv) => before = Some(mv.to()),
                None => return played,
            }
        }
        usize::MAX
    }

    /// Takes one move from what may still be played ahead: false when nothing is left.
    fn spend(&self) -> bool {
        let left = self.lookahead.get();
        self.lookahead.set(left.saturating_sub(1));
        left > 0
    }

    /// Plays the move a KIF text writes in `state`, when it reads as a legal move.
    fn play_text(&self, state: &mut State, kif: &str, before: Option<Square>) -> Option<crate::shogi::Move> {
        if let Line::Ki2(moves, None) = syntax::line(kif) {
            return moves.first().and_then(|m| play_ki2(state, m, before));
        }
        let Line::Move(m) = syntax::line(&format!("1 {kif}")) else { return None };
        let Body::Move(w) = m.body else { return None };
        self.play_written(state, &w, before)
    }

    /// Plays `w` in `state` after a move to `before`, when it is legal there.
    fn play_written(&self, state: &mut State, w: &Move, before: Option<Square>) -> Option<crate::shogi::Move> {
        let mv = written::resolve(state, &written_of(w, w.to.or(before)?)).ok()?.mv;
        state.play_unchecked(mv);
        Some(mv)
    }

    /// The game, once every line is read.
    fn finish(mut self) -> (Option<Game>, Vec<Diagnostic>) {
        if self.lines.is_empty() && !self.no_start {
            if let Some(state) = self.set_up() {
                self.lines.push(Open::new(None, 0, None, state));
            }
        }
        let mut out = std::mem::take(&mut self.out);
        if out.len() > MAX_FINDINGS {
            let left = out.len() - MAX_FINDINGS;
            out.truncate(MAX_FINDINGS);
            let at = out.last().map_or(Span::point(0), Diagnostic::span);
            out.push(
                Diagnostic::warning(codes::kif::MORE_FINDINGS, at, format!("{left} more findings are not shown"))
                    .label("the last finding shown")
                    .help("correct the faults shown, then check the record again"),
            );
        }
        if self.lines.is_empty() {
            return (None, out);
        }
        let start = self.lines[0].checkpoints[0].to_position();
        let ending = self.lines[0].ending.map(|(e, _)| e);
        // Each variation goes into the move it replaces, the later lines first: a line's
        // variations are all in place before it goes into its own parent.
        let mut lines: Vec<Branch> = self
            .lines
            .into_iter()
            .map(|l| (Variation { moves: l.nodes, ending: l.ending.map(|(e, _)| e) }, l.parent))
            .collect();
        for id in (1..lines.len()).rev() {
            let (mut variation, parent) = std::mem::take(&mut lines[id]);
            for node in &mut variation.moves {
                node.variations.reverse();
            }
            if let Some((line, index)) = parent {
                if let Some(node) = lines[line].0.moves.get_mut(index) {
                    node.variations.push(variation);
                }
            }
        }
        let mut moves = std::mem::take(&mut lines[0].0.moves);
        for node in &mut moves {
            node.variations.reverse();
        }
        let game = Game { headers: self.headers, start, comments: self.comments, moves, ending };
        (Some(game), out)
    }
}

/// The pieces a KI2 move names in a position.
struct Named {
    /// A drop: `打`, or no piece on the board can make the move and the hand holds the piece.
    drop: bool,
    /// The pieces on the board that can make the move.
    board: Vec<Square>,
    /// Those the move's words name.
    named: Vec<Square>,
}

/// The pieces the KI2 move `m` names in `state`, going to `to`.
fn named(m: &Ki2Move, state: &State, to: Square) -> Named {
    let side = state.side();
    let ((kind, promoted), _) = m.piece;
    let piece = Piece { color: side, kind, promoted };
    let board = relative::candidates(state, piece, to);
    let words = m.words();
    // No `打`: a drop when no piece on the board can make the move.
    let drop = m.drop.is_some()
        || board.is_empty()
            && !promoted
            && words == Relative::default()
            && m.promote.is_none()
            && m.decline.is_none()
            && state.hand(side).count(kind) > 0;
    let named = if drop { Vec::new() } else { relative::matches(side, piece, to, words, &board) };
    Named { drop, board, named }
}

/// The KI2 move `m` going to `to`, from `from` (`None`: the resolver finds the origin, or says
/// why there is none), resolved in `state`.
fn ki2_resolve(
    m: &Ki2Move,
    state: &State,
    to: Square,
    drop: bool,
    from: Option<Square>,
) -> Result<written::Resolved, Unresolved> {
    let ((kind, promoted), _) = m.piece;
    if drop && promoted {
        // A promoted piece is never dropped.
        return Err(Unresolved::NoCandidate { kind, promoted: true, nearest: None, other_state: None });
    }
    let promotion = promotion_of(m.promote, m.decline);
    written::resolve(state, &written_move((kind, promoted), from, to, drop, promotion))
}

/// `成` or `不成`, as the resolver takes them.
fn promotion_of(promote: Option<Span>, decline: Option<Span>) -> Option<Promotion> {
    match (promote, decline) {
        (Some(_), _) => Some(Promotion::Promote),
        (None, Some(_)) => Some(Promotion::Decline),
        (None, None) => None,
    }
}

/// What the resolver needs of a KIF or KI2 move of `piece` (before the move, promoted or not)
/// going to `to`: its origin if known, a drop, a promotion or a promotion declined.
fn written_move(
    piece: (crate::shogi::PieceKind, bool),
    from: Option<Square>,
    to: Square,
    drop: bool,
    promotion: Option<Promotion>,
) -> Written {
    Written {
        piece: Some(piece.0),
        promoted: piece.1,
        gold_mover: false,
        from: from.map_or(Origin::None, Origin::Square),
        to,
        drop,
        promotion,
        capture: None,
        promotes_to: None,
        mark: None,
    }
}

/// Plays the KI2 move `m` in `state` after a move to `before`, when it names one legal move.
fn play_ki2(state: &mut State, m: &Ki2Move, before: Option<Square>) -> Option<crate::shogi::Move> {
    let to = m.to.or(before)?;
    let Named { drop, named, .. } = named(m, state, to);
    let from = match named.as_slice() {
        &[one] => Some(one),
        [] if drop => None,
        _ => return None,
    };
    let mv = ki2_resolve(m, state, to, drop, from).ok()?.mv;
    state.play_unchecked(mv);
    Some(mv)
}

/// What the resolver needs of a KIF move going to `to` (a promotion declined is written in
/// real files).
fn written_of(m: &Move, to: Square) -> Written {
    let drop = m.drop.is_some() || m.zero_origin.is_some();
    written_move(m.piece, m.from.map(|(sq, _)| sq), to, drop, promotion_of(m.promote, m.decline))
}

/// A square as KIF writes it, `７六`.
fn kif_square(square: Square) -> String {
    super::write::square(square)
}

#[cfg(test)]
mod corpus {
    use std::fs;

    use serde_json::Value;

    use crate::shogi::{EndReason, Game, Position};

    use crate::shogi::game::compare::{same_position, shape};

    /// Every KIF file of the corpus beside the repository (random legal games written by three
    /// programs) is read without an error into the game of its truth: start, main line, final
    /// position, ending and variations.
    #[test]
    fn the_corpus_reads_as_its_truth() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated") else { return };
        let manifest = fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
        let mut checked = [0, 0];
        for row in manifest.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let [id, format @ ("kif" | "ki2"), file, _, _, _, terminal, variations, ..] = fields[..] else { continue };
            let bytes = fs::read(dir.join(file)).expect(file);
            let extension = file.rsplit('.').next();
            let read = crate::kif::check_bytes(&bytes, extension);
            let errors: Vec<_> = read.diagnostics.iter().filter(|d| d.is_error()).collect();
            assert!(errors.is_empty(), "{file}: {errors:#?}");
            let game: Game = read.game.expect("a game");
            let truth: Value =
                serde_json::from_str(&fs::read_to_string(dir.join(format!("truth/{id}.json"))).expect("truth"))
                    .expect("JSON");
            let want = super::super::write::corpus::game_of(&truth);
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
            // Written as KI2, the game reads back the same: moves, variations, comments and
            // ending.
            let ki2 = crate::kif::write_ki2(&game).text;
            let (again, found) = crate::kif::check_text(&ki2);
            assert!(!found.iter().any(crate::Diagnostic::is_error), "{file} as KI2: {found:#?}\n{ki2}");
            let again = again.expect("a game");
            assert_eq!(shape(&again.moves), shape(&game.moves), "{file} as KI2: moves");
            assert_eq!(again.ending, game.ending, "{file} as KI2: ending\n{ki2}");
            assert_eq!(again.comments, game.comments, "{file} as KI2: the start's comments");
            let comments = |g: &Game| g.moves.iter().map(|n| n.comments.clone()).collect::<Vec<_>>();
            assert_eq!(comments(&again), comments(&game), "{file} as KI2: comments");
            checked[usize::from(format == "ki2")] += 1;
        }
        crate::corpus::at_least("KIF files", checked[0], 200);
        crate::corpus::at_least("KI2 files", checked[1], 200);
    }
}

/// One character of a move changed in the games of the corpus: how often the record has one
/// error, on the changed line, whose first repair gives a record without an error. The figures
/// are in docs/spec-notes.md; these tests hold them.
#[cfg(test)]
mod single_edits {
    use std::fs;

    /// The characters a move is changed to: digits, ranks, pieces, the JSA's words, marks.
    const ALPHABET: &str = "１２３４５６７８９一二三四五六七八九歩香桂銀金角飛玉と馬龍左右直上寄引成打同▲△()0123456789";

    /// The share of records with one error, with it on the changed line, and with a first
    /// repair that leaves no error, of `count` records of `folder` made invalid by one changed
    /// character, in percent; `spot` gives the characters of a line that may change (none: the
    /// line holds no move).
    fn measure(
        folder: &str,
        count: usize,
        spot: impl Fn(&str) -> Option<std::ops::Range<usize>>,
    ) -> Option<[usize; 3]> {
        let dir = crate::corpus::path("corpus/kifcsa/generated")?.join(folder);
        let mut files: Vec<_> = fs::read_dir(dir).expect("folder").map(|e| e.expect("entry").path()).collect();
        files.sort();
        // The files in UTF-8 (the others are the same games in Shift_JIS).
        let files: Vec<String> = files.iter().filter_map(|f| fs::read_to_string(f).ok()).collect();
        let alphabet: Vec<char> = ALPHABET.chars().collect();
        // A linear congruential generator: the same mutants every run.
        let mut seed: u64 = 7;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap_or(0) % n
        };
        let (mut invalid, mut one, mut on_line, mut repaired) = (0, 0, 0, 0);
        while invalid < count {
            let text = &files[pick(files.len())];
            let lines: Vec<&str> = text.split('\n').collect();
            let moves: Vec<usize> = (0..lines.len()).filter(|&i| spot(lines[i]).is_some()).collect();
            let i = moves[pick(moves.len())];
            let chars: Vec<char> = lines[i].chars().collect();
            let range = spot(lines[i]).unwrap_or(0..0);
            let k = range.start + pick(range.len());
            let c = alphabet[pick(alphabet.len())];
            if c == chars[k] || matches!(chars[k], ' ' | '\u{3000}') {
                continue;
            }
            let mut changed = chars;
            changed[k] = c;
            let line: String = changed.into_iter().collect();
            let mut mutated = lines.clone();
            mutated[i] = &line;
            let mutated = mutated.join("\n");
            let (_, found) = crate::kif::check_text(&mutated);
            let errors: Vec<_> = found.iter().filter(|d| d.is_error()).collect();
            let Some(first) = errors.first() else { continue };
            invalid += 1;
            one += usize::from(errors.len() == 1);
            on_line += usize::from(mutated[..first.span().start].matches('\n').count() == i);
            let fixed = first.fixes.first().and_then(|f| f.apply(&mutated));
            repaired += usize::from(fixed.is_some_and(|t| !crate::kif::check_text(&t).1.iter().any(|d| d.is_error())));
        }
        let shares = [one, on_line, repaired].map(|n| n * 100 / invalid);
        eprintln!(
            "{folder}: {invalid} records made invalid: one error {}%, on the changed line {}%, first repair valid {}%",
            shares[0], shares[1], shares[2]
        );
        Some(shares)
    }

    #[test]
    fn a_changed_ki2_move_is_one_report_on_its_line() {
        // Any character of a line of moves but white space.
        let Some([one, on_line, repaired]) =
            measure("ki2", 300, |l| l.starts_with(['▲', '△']).then(|| 0..l.chars().count()))
        else {
            return;
        };
        assert!(one >= 97 && on_line >= 95 && repaired >= 96, "{one}% {on_line}% {repaired}%");
    }

    #[test]
    fn a_changed_kif_move_is_one_report_on_its_line() {
        // The move's characters, after its number.
        let Some([one, on_line, repaired]) = measure("kif", 300, |l| {
            let number = l.trim_start().split(' ').next()?;
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let start = l.len() - l.trim_start().len() + number.len() + 1;
            let word = l.get(start..)?.split(' ').next()?;
            let first = l[..start].chars().count();
            (!word.is_empty()).then(|| first..first + word.chars().count())
        }) else {
            return;
        };
        assert!(one >= 97 && on_line >= 95 && repaired >= 96, "{one}% {on_line}% {repaired}%");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::{Move, Node};
    use std::time::Duration;

    fn mv(usi: &str) -> Move {
        usi.parse().expect("a USI move")
    }

    /// A record with no move says how it ended in its summary alone, as a KI2 record does:
    /// written as KI2, a game that ends before its first move reads back with its ending.
    #[test]
    fn a_record_without_moves_ends_as_its_summary_says() {
        let (game, found) = read("手合割：平手\nまで0手で中断\n");
        assert!(found.is_empty(), "{found:#?}");
        let ending = game.and_then(|g| g.ending).map(|e| (e.reason, e.outcome));
        assert_eq!(ending, Some((Some(EndReason::Interrupted), None)));
        // A mate claimed where there is none is read, with its warning, in either form.
        let (game, found) = read("手合割：平手\n   1 詰み\nまで0手で後手の勝ち\n");
        let game = game.expect("a game");
        let (again, found_again) = read(&crate::kif::write_ki2(&game).text);
        assert_eq!(again.and_then(|g| g.ending), game.ending);
        let codes_of = |found: &[Diagnostic]| found.iter().map(|d| d.code).collect::<Vec<_>>();
        assert_eq!(codes_of(&found_again), codes_of(&found));
        assert_eq!(codes_of(&found), [codes::kif::ENDING_CLAIM]);
    }

    /// A line of KI2 moves whose side mark was mistyped, or left out, is repaired first by the
    /// mark of the side to move, also in place of the first move; other lines are not.
    #[test]
    fn a_mistyped_side_mark_is_repaired_first() {
        let first_fix = |text: &str| {
            let (_, found) = read(text);
            let errors: Vec<&Diagnostic> = found.iter().filter(|d| d.is_error()).collect();
            assert_eq!(errors.len(), 1, "{text}: {errors:#?}");
            errors[0].fixes.first().and_then(|f| f.apply(text)).expect("a fix")
        };
        let game = "手合割：平手\n▲７六歩    △３四歩\n";
        assert_eq!(first_fix("手合割：平手\n▲７六歩    △３四歩\n左２六歩\n"), format!("{game}▲２六歩\n"));
        assert_eq!(first_fix("手合割：平手\n▲７六歩    △３四歩\n２六歩\n"), format!("{game}▲２六歩\n"));
        assert_eq!(first_fix("手合割：平手\n)７六歩    △３四歩\n"), game);
        // White's turn: White's mark, and a line that reads with neither is kept as a note.
        assert_eq!(first_fix("手合割：平手\n▲７六歩\n金３四歩\n"), "手合割：平手\n▲７六歩\n△３四歩\n");
        assert_eq!(first_fix("手合割：平手\n▲７六歩\n金金\n"), "手合割：平手\n▲７六歩\n#金金\n");
    }

    /// Variations nested deeper than the limit are reported once, and what is above the limit
    /// is read; no recursion on the depth.
    #[test]
    fn variations_nest_up_to_the_limit() {
        // The rooks shuffle along their ranks: Black's on h, White's on b. Each line is two
        // moves, and the next line replaces its second.
        let depth = MAX_DEPTH + 20;
        let square = |color: usize, file: u8| format!("{file}{}", ['h', 'b'][color]);
        let step = |color: usize, from: u8, to: u8| mv(&format!("{}{}", square(color, from), square(color, to)));
        let pick = |avoid: &[u8]| (3..=7).find(|f| !avoid.contains(f)).expect("a free square");
        let mut levels = vec![[step(0, 2, 4), step(1, 8, 6)]];
        let (mut before, mut replaced, mut mover) = ([4u8, 8u8], 6u8, 1usize);
        for _ in 0..depth {
            let y = pick(&[before[mover], replaced]);
            let mut after = before;
            after[mover] = y;
            let other = 1 - mover;
            let z = pick(&[after[other]]);
            levels.push([step(mover, before[mover], y), step(other, after[other], z)]);
            (before, replaced, mover) = (after, z, other);
        }
        let mut line: Vec<Node> = Vec::new();
        for [first, second] in levels.into_iter().rev() {
            let mut second = Node::new(second);
            if !line.is_empty() {
                second.variations.push(std::mem::take(&mut line).into());
            }
            line = vec![Node::new(first), second];
        }
        let mut game = Game::new(Position::STARTPOS);
        game.moves = line;
        let text = super::super::write(&game, "UTF-8").text;
        let (read, diagnostics) = read(&text);
        let deep: Vec<_> = diagnostics.iter().filter(|d| d.code == codes::kif::TOO_DEEP).collect();
        assert_eq!(deep.len(), 1, "{diagnostics:?}");
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let read = read.expect("a game");
        let lines = read.lines();
        assert_eq!(lines.len(), MAX_DEPTH, "the main line and the variations above the limit");
        assert_eq!(game.lines().len(), depth + 1);
    }

    /// A line or a record too long to read is one finding, and the lines after a long line are
    /// read.
    #[test]
    fn limits_are_reported_once() {
        let long = format!("*{}\n   1 ７五歩(77)\n", "x".repeat(MAX_LINE + 1));
        let (game, d) = read(&long);
        let codes: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::kif::LINE_TOO_LONG, codes::kif::ILLEGAL_MOVE], "the move after it is read");
        assert!(game.is_some());
        let (game, d) = read(&"x".repeat(MAX_BYTES + 1));
        assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::kif::TOO_LARGE]);
        assert!(game.is_none());
        let many: String = (1..=MAX_FINDINGS + 10).map(|_| "bad line\n").collect();
        let (_, d) = read(&many);
        assert_eq!(d.len(), MAX_FINDINGS + 1);
        assert_eq!(d.last().map(|d| d.code), Some(codes::kif::MORE_FINDINGS));
    }

    /// The first repair of a move changed by one character is the move the record meant: the
    /// one after which the next moves are legal, from the origin written.
    #[test]
    fn the_first_repair_is_the_move_meant() {
        let record = |third: &str| {
            format!("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {third}\n   4 同　銀(31)\n   5 ７八金(69)\n")
        };
        for typo in ["２二角成(78)", "２二角成(８８)", "２二飛成(88)", "２二角不(88)"] {
            let text = record(typo);
            let (_, d) = read(&text);
            assert_eq!(d.len(), 1, "{typo}: {d:?}");
            let fixed = d[0].fixes.first().and_then(|f| f.apply(&text));
            assert_eq!(fixed, Some(record("２二角成(88)")), "{typo}");
        }
        // `同` mistyped as a square, and an ending's word mistyped.
        let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 ５　銀(31)\n   5 投子\n";
        let (_, d) = read(text);
        let fixed: Vec<_> = d.iter().filter_map(|d| d.fixes.first()?.apply(text)).collect();
        assert!(fixed.iter().any(|f| f.contains("   4 同　銀(31)\n")), "{d:?}");
    }

    /// A move that stops its line takes with it the variations that would branch after it:
    /// one fault, one report.
    #[test]
    fn a_stopped_line_takes_its_later_variations_with_it() {
        let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(87)\n   4 同　銀(31)\n\n変化：4手\n   4 同　飛(82)\n\n変化：2手\n   2 ８四歩(83)\n";
        let (game, d) = read(text);
        assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::kif::ILLEGAL_MOVE], "{d:?}");
        let game = game.expect("a game");
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.moves[1].variations.len(), 1, "the variation of move 2 is still read");
    }

    /// Of the pieces a KI2 move leaves, the one after whose move the record goes on is the
    /// first repair.
    #[test]
    fn the_piece_the_record_goes_on_with_comes_first() {
        let first = |text: &str| {
            let (_, d) = read(text);
            assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::kif::WHICH_PIECE], "{d:?}");
            let fixes: Vec<String> = d[0].fixes.iter().map(|f| f.edits[0].replacement.clone()).collect();
            fixes
        };
        // Only the gold of ６九 can go to ７八 next: the gold of ４九 went to ５八.
        assert_eq!(first("▲５八金 △３四歩 ▲７八金\n"), ["▲５八金右", "▲５八金左"]);
        // The record goes on after either: the board's order stays.
        assert_eq!(first("▲５八金 △３四歩 ▲２六歩\n"), ["▲５八金左", "▲５八金右"]);
    }

    /// Of the legal moves near a move that cannot be read, the one after which the game plays on
    /// furthest comes first, however far ahead the others fail: here the eighth move after the
    /// fault, `▲１五歩`, needs the pawn of `▲１六歩`.
    #[test]
    fn the_repair_after_which_the_game_plays_on_furthest_comes_first() {
        let text = "▲玉六歩 △３四歩 ▲７六歩 △４四歩 ▲６六歩 △５四歩 ▲５六歩 △６四歩 ▲１五歩\n";
        let (_, d) = read(text);
        assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::kif::BAD_MOVE], "{d:?}");
        let fixes: Vec<&str> = d[0].fixes.iter().map(|f| f.edits[0].replacement.as_str()).collect();
        assert_eq!(fixes.first(), Some(&"▲１六歩"), "{fixes:?}");
        let fixed = d[0].fixes[0].apply(text).expect("the fix applies");
        assert!(read(&fixed).1.iter().all(|d| !d.is_error()), "{fixed}");
    }

    /// A KIF move whose first character became a side's mark is a KIF move that cannot be read,
    /// not a KI2 line: the report is on the move, and its repair is the KIF move.
    #[test]
    fn a_kif_move_with_a_mark_for_its_file_is_read_as_kif() {
        let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 △六歩(27)\n   4 ８四歩(83)\n";
        let (_, d) = read(text);
        let found: Vec<_> = d.iter().map(|d| (d.code, d.span().slice(text))).collect();
        assert_eq!(found, [(codes::kif::BAD_MOVE, "△六歩(27)")]);
        assert_eq!(d[0].fixes[0].edits[0].replacement, "２六歩(27)");
    }

    /// A time that cannot be read is one error on the time: the move is played without it, and
    /// the `+` after it is still read.
    #[test]
    fn a_time_that_cannot_be_read_is_blamed_alone() {
        let text = "手合割：平手\n   1 ７六歩(77)   ( 0:1x/00:00:12)+\n   2 ３四歩(33)   ( 0:75/00:00:05)\n   3 ２六歩(27)   ( 0:04/00:00:16)\n\n変化：1手\n   1 ２六歩(27)\n";
        let (game, d) = read(text);
        let found: Vec<_> = d.iter().map(|d| (d.code, d.span().slice(text))).collect();
        assert_eq!(found, [(codes::kif::BAD_TIME, "( 0:1x/00:00:12)"), (codes::kif::BAD_TIME, "0:75")]);
        let game = game.expect("a game");
        let times: Vec<Option<MoveTime>> = game.moves.iter().map(|n| n.time).collect();
        let third = MoveTime { spent: Some(Duration::from_secs(4)), total: Some(Duration::from_secs(16)) };
        assert_eq!(times, [None, None, Some(third)], "every move played, the times read where they can be");
        assert_eq!(game.moves[0].variations.len(), 1);
        // An origin that cannot be read is the move's fault, not a time's.
        let (_, d) = read("手合割：平手\n   1 ７六歩(7x)\n");
        assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::kif::BAD_MOVE]);
    }
}
