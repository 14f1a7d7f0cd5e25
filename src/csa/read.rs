//! A CSA text read into its games: each line read by the grammar into statements
//! ([`super::syntax`]), the statements of each record (records are separated by `/` lines)
//! into a [`Game`], its start set up and every move played with the full rules of shogi.

use super::syntax::{self, piece_name, sign, Place, Placed, Removed, Statement};
use crate::diagnostic::{codes, Applicability, Diagnostic, Fix};
use crate::shogi::rules::State;
use crate::shogi::{Color, Ending, Game, MoveTime, Node, Piece, PieceKind, Position, Square};
use crate::span::Span;

/// The largest text read, in bytes: a file of many records (a floodgate day) is read up to
/// here.
pub const MAX_BYTES: usize = 64 << 20;
/// The most findings a text reports; the rest are counted in one last finding.
pub const MAX_FINDINGS: usize = 200;

/// The most moves played ahead after one repair, to rank it: past them the record is taken to
/// go on.
const AHEAD: usize = 200;

/// The most moves played ahead, in all, to rank the repairs of one record: with [`AHEAD`], it
/// bounds what a record of many faults costs.
const LOOKAHEAD: usize = 20_000;

/// The most bytes after a move looked at to play the moves ahead of it.
const AHEAD_BYTES: usize = 32 * 1024;

/// How a record's start position is written, as far as it is read.
#[derive(Default)]
struct Start {
    /// `PI` and its span, with the pieces taken off.
    handicap: Option<(Span, Vec<Removed>)>,
    /// The rows `P1`…`P9` read, each with its span.
    rows: [Option<(Vec<Option<Piece>>, Span)>; 9],
    /// The `P+`/`P-` statements, in order.
    lists: Vec<(Color, Vec<Placed>, Span)>,
    /// The side to move.
    side: Option<(Color, Span)>,
    /// Where the start's first statement is.
    first: Option<Span>,
}

impl Start {
    fn is_empty(&self) -> bool {
        self.first.is_none() && self.side.is_none()
    }
}

/// One record being read.
#[derive(Default)]
struct Record {
    headers: Vec<(String, String)>,
    comments: Vec<String>,
    start: Start,
    /// The game once its start is set up: the position being played, the moves.
    state: Option<State>,
    start_position: Option<Position>,
    moves: Vec<Node>,
    ending: Option<(Ending, Span)>,
    /// The start could not be set up, or a move could not be played: what follows is read but
    /// not played.
    stopped: bool,
    /// Where the moves began.
    moving: bool,
    /// The last move took a time already.
    timed: bool,
    /// The moves played ahead so far to rank repairs (at most [`LOOKAHEAD`]).
    looked: usize,
}

/// The reader of a text: the records read so far and the findings.
struct Reader<'a> {
    text: &'a str,
    records: Vec<RecordRead>,
    out: Vec<Diagnostic>,
    record: Record,
    /// Where the record being read begins, and how many findings there were then.
    from: usize,
    found: usize,
}

/// A record of a CSA text: where it is (its span, and the line it starts on once
/// [`first_errors`] has counted it), its game when its start could be set up, and its first
/// error.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) struct RecordRead {
    pub span: Span,
    pub line: usize,
    pub game: Option<Game>,
    pub error: Option<Diagnostic>,
}

/// The games of a CSA text and its findings, in the order of the text.
pub fn read(text: &str) -> (Vec<Game>, Vec<Diagnostic>) {
    let (records, out) = read_records(text);
    (records.into_iter().filter_map(|r| r.game).collect(), bounded(out))
}

/// The records of a CSA text and every finding, in the order of the text (each record's first
/// error is given by [`first_errors`]).
pub(crate) fn read_records(text: &str) -> (Vec<RecordRead>, Vec<Diagnostic>) {
    if text.len() > MAX_BYTES {
        let d = Diagnostic::error(codes::csa::TOO_LARGE, Span::point(MAX_BYTES), "the record is too large to read")
            .label("kifu reads a CSA file up to here")
            .help(format!("kifu reads CSA files of up to {} MiB: split the file at a `/` line", MAX_BYTES >> 20));
        return (Vec::new(), vec![d]);
    }
    let mut reader =
        Reader { text, records: Vec::new(), out: Vec::new(), record: Record::default(), from: 0, found: 0 };
    for (start, line) in lines(text) {
        for (statement, span) in syntax::line(line, start) {
            reader.statement(statement, span);
        }
    }
    reader.finish_record(Span::point(text.len()));
    let mut out = reader.out;
    out.sort_by_key(|d| d.span().start);
    (reader.records, out)
}

/// Gives each of `records` of `text` the line it starts on and the first error of `found` (in
/// the order of the text) within it.
#[cfg(feature = "cli")]
pub(crate) fn first_errors(text: &str, records: &mut [RecordRead], found: &[Diagnostic]) {
    let mut errors = found.iter().filter(|d| d.is_error()).peekable();
    let (mut line, mut counted) = (1, 0);
    for record in records {
        // The first line with something on it.
        let from = text[record.span.start..record.span.end]
            .find(|c: char| !c.is_whitespace())
            .map_or(record.span.start, |at| record.span.start + at);
        line += text.as_bytes()[counted..from].iter().filter(|&&b| b == b'\n').count();
        counted = from;
        record.line = line;
        while errors.next_if(|d| d.span().start < record.span.start).is_some() {}
        if let Some(d) = errors.peek().filter(|d| d.span().start <= record.span.end) {
            record.error = Some((*d).clone());
        }
    }
}

/// `out` with at most [`MAX_FINDINGS`] findings, the rest counted in one last.
pub(crate) fn bounded(mut out: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if out.len() > MAX_FINDINGS {
        let left = out.len() - MAX_FINDINGS;
        let at = out[MAX_FINDINGS].span();
        out.truncate(MAX_FINDINGS);
        out.push(
            Diagnostic::warning(codes::csa::MORE_FINDINGS, Span::point(at.start), format!("{left} more findings"))
                .label("kifu shows the first findings of a record, and stops here")
                .help("correct these, then check the file again"),
        );
    }
    out
}

/// The lines of `text` without their ends (LF, CRLF or CR), each with the byte it starts at.
pub(super) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let rest = &text[at..];
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = (at, &rest[..end]);
        at += end
            + match rest.as_bytes().get(end..end + 2) {
                Some(b"\r\n") => 2,
                Some(_) => 1,
                None => usize::from(end < rest.len()),
            };
        Some(line)
    })
}

impl Reader<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }

    fn statement(&mut self, statement: Statement, span: Span) {
        match statement {
            Statement::Empty => {}
            Statement::Comment(text) => self.comment(text),
            Statement::Version(_) => {}
            Statement::Name(color, name) => {
                self.late_info(span);
                let key = if color == Color::Black { "N+" } else { "N-" };
                self.record.headers.push((key.to_owned(), name));
            }
            Statement::Info(key, value) => {
                self.late_info(span);
                self.record.headers.push((format!("${key}"), value));
            }
            Statement::Handicap(removed) => {
                if self.start_statement(span) {
                    let start = &mut self.record.start;
                    if start.handicap.is_some() || start.rows.iter().any(Option::is_some) || !start.lists.is_empty() {
                        self.start_twice(span, "`PI` after another start position");
                    } else {
                        self.record.start.handicap = Some((span, removed));
                    }
                }
            }
            Statement::Row(n, cells, collapsed) => self.row(n, cells, collapsed, span),
            Statement::List(color, placed) => {
                if self.start_statement(span) {
                    self.record.start.lists.push((color, placed, span));
                }
            }
            Statement::Side(color) => {
                if self.start_statement(span) {
                    if self.record.start.side.is_some() {
                        self.start_twice(span, "a second side to move");
                    } else {
                        self.record.start.side = Some((color, span));
                    }
                }
            }
            Statement::Move { side, from, to, piece } => self.play(side, from, to, piece, span),
            Statement::Time(ms) => self.time(ms, span),
            Statement::Special(name) => self.special(&name, span),
            Statement::Separator => {
                self.finish_record(span);
            }
            Statement::Unknown => self.unknown(span),
        }
    }

    fn comment(&mut self, text: String) {
        // `'CSA encoding=…` names the file's encoding: it is no comment of the game.
        if self.record.moves.is_empty() && text.starts_with("CSA encoding=") {
            return;
        }
        // A comment belongs to the move before it (floodgate's `'**` line is the evaluation
        // after the move it follows); before the first move, to the game.
        match self.record.moves.last_mut() {
            Some(last) => last.comments.push(text),
            None => self.record.comments.push(text),
        }
    }

    /// A name or information line read after the moves began: kept, with a warning.
    fn late_info(&mut self, span: Span) {
        if self.record.moving {
            self.push(
                Diagnostic::warning(codes::csa::LATE_INFO, span, "a name or information line after the moves")
                    .label("after the first move")
                    .help("CSA writes the names and the information before the start position: move this line up"),
            );
        }
    }

    /// True when a statement of the start position (at `span`) comes before the moves; else
    /// reports it.
    fn start_statement(&mut self, span: Span) -> bool {
        if self.record.moving || self.record.state.is_some() {
            self.push(
                Diagnostic::error(codes::csa::LATE_START, span, "a start position statement after the side to move")
                    .label("the game has started")
                    .help("the start position (`PI`, `P1`…`P9`, `P+`, `P-`) comes before the line that says who moves first; a new game starts after a `/` line"),
            );
            return false;
        }
        self.record.start.first.get_or_insert(span);
        true
    }

    fn start_twice(&mut self, span: Span, what: &str) {
        self.push(
            Diagnostic::error(codes::csa::START_TWICE, span, format!("{what}: the start position is given twice"))
                .label("given again here")
                .help("write the start once: `PI` (with the pieces a handicap takes off), or the nine rows `P1`…`P9` (with `P+`/`P-` for the pieces in hand), or the pieces one by one with `P+` and `P-`"),
        );
    }

    fn row(&mut self, n: u8, cells: Vec<Option<Piece>>, collapsed: bool, span: Span) {
        if !self.start_statement(span) {
            return;
        }
        if self.record.start.handicap.is_some() {
            self.start_twice(span, "a board row after `PI`");
            return;
        }
        let index = usize::from(n.saturating_sub(1)).min(8);
        if cells.len() != 9 {
            self.push(
                Diagnostic::error(codes::csa::ROW_WIDTH, span, format!("row {n} has {} squares", cells.len()))
                    .label("not nine squares")
                    .help("a row holds nine squares from file 9 to file 1, each ` * ` when empty or a side and a piece (`+FU`)"),
            );
            self.record.stopped = true;
            return;
        }
        if collapsed {
            let canonical: String = std::iter::once(format!("P{n}"))
                .chain(cells.iter().map(|c| match c {
                    None => " * ".to_owned(),
                    Some(p) => format!("{}{}", sign(p.color), piece_name(p.kind, p.promoted)),
                }))
                .collect();
            self.push(
                Diagnostic::warning(codes::csa::COLLAPSED_ROW, span, format!("row {n}'s spaces were collapsed"))
                    .label("squares not three characters each")
                    .help("each square of a row is three characters: ` * ` for an empty one")
                    .fix(Fix::replace(span, canonical, Applicability::Safe)),
            );
        }
        if self.record.start.rows[index].is_some() {
            self.start_twice(span, &format!("row {n} twice"));
            return;
        }
        self.record.start.rows[index] = Some((cells, span));
    }

    /// The start position of the record, set up from what was read, when the first move (or
    /// time, or end) comes; `None` with a report when it cannot be.
    fn set_up(&mut self, at: Span) {
        if self.record.state.is_some() || self.record.stopped {
            return;
        }
        let start = std::mem::take(&mut self.record.start);
        let Some(position) = self.position(&start, at) else {
            self.record.stopped = true;
            return;
        };
        if let Err(violations) = position.clone().legal() {
            let span = start.first.unwrap_or(at);
            let list: Vec<String> = violations.iter().map(|v| v.breaks(&csa_square)).collect();
            self.push(
                Diagnostic::error(codes::csa::START_POSITION, span, "the start position breaks the rules of shogi")
                    .label(list.join("; "))
                    .help("correct the start position: each side has one king, no two unpromoted pawns of a side on a file, no piece where it can never move again, and the side not to move is not in check"),
            );
            self.record.stopped = true;
            return;
        }
        self.record.state = Some(State::new(&position));
        self.record.start_position = Some(position);
    }

    /// The position `start` writes, or `None` with a report.
    fn position(&mut self, start: &Start, at: Span) -> Option<Position> {
        let Some((side, _)) = start.side else {
            let span = start.first.unwrap_or(at);
            self.push(
                Diagnostic::error(codes::csa::NO_SIDE, span, "no line says which side moves first")
                    .label(if start.first.is_some() { "the start position" } else { "the first move" })
                    .help("after the start position, a line `+` (sente moves first) or `-` (gote moves first)"),
            );
            return None;
        };
        let mut position =
            Position { board: crate::shogi::Board([None; 81]), hands: Default::default(), side, move_number: Some(1) };
        let drawn = start.rows.iter().filter(|r| r.is_some()).count();
        if let Some((_, removed)) = &start.handicap {
            position.board = Position::STARTPOS.board.clone();
            for &(place, (kind, promoted), span) in removed {
                let here = match place {
                    Place::Board(square) => position.board.get(square),
                    _ => None,
                };
                match (place, here) {
                    (Place::Board(square), Some(p)) if p.kind == kind && p.promoted == promoted => {
                        position.board.set(square, None);
                    }
                    _ => {
                        self.push(
                            Diagnostic::error(codes::csa::HANDICAP_PIECE, span, format!("`PI` takes off a {}{} that is not there", if promoted { "promoted " } else { "" }, kind.name()))
                                .label("no such piece on this square at the start")
                                .help("after `PI`, each piece a handicap takes off is its square and its name as it stands at the start (`PI82HI22KA`)"),
                        );
                        return None;
                    }
                }
            }
        } else if drawn > 0 {
            if drawn < 9 {
                let first = start.rows.iter().flatten().next().map_or(at, |r| r.1);
                let missing: Vec<String> =
                    (1..=9).filter(|i| start.rows[i - 1].is_none()).map(|i| format!("P{i}")).collect();
                self.push(
                    Diagnostic::error(
                        codes::csa::MISSING_ROWS,
                        first,
                        format!("the board lacks {}", missing.join(", ")),
                    )
                    .label("rows of a board drawn in part")
                    .help("draw the board whole, `P1` to `P9`, or place its pieces one by one with `P+` and `P-`"),
                );
                return None;
            }
            for (r, row) in start.rows.iter().enumerate() {
                for (i, cell) in row.iter().flat_map(|(cells, _)| cells.iter()).enumerate() {
                    // A row is written from file 9 to file 1.
                    if let Some(square) = Square::new(9 - i as u8, r as u8 + 1) {
                        position.board.set(square, *cell);
                    }
                }
            }
        }
        self.place(start, &mut position)?;
        Some(position)
    }

    /// The pieces `P+` and `P-` place on `position`, or `None` with a report.
    fn place(&mut self, start: &Start, position: &mut Position) -> Option<()> {
        // The pieces of each kind on the board and in the hands, kept as pieces are placed.
        let mut used = [0u32; 8];
        for (_, p) in position.board.pieces() {
            used[p.kind.index()] += 1;
        }
        for hand in &position.hands {
            for kind in PieceKind::ALL {
                if kind != PieceKind::King {
                    used[kind.index()] += hand.count(kind);
                }
            }
        }
        for (color, placed, _) in &start.lists {
            for &(place, piece, span) in placed {
                match (place, piece) {
                    (Place::Hand, None) => {
                        // `AL`: every piece not placed yet, but the kings, to this side's hand.
                        for kind in PieceKind::ALL {
                            if kind != PieceKind::King {
                                let left = kind.supply().saturating_sub(used[kind.index()]);
                                position.hands[color.index()].add(kind, left);
                                used[kind.index()] += left;
                            }
                        }
                    }
                    (Place::Hand, Some((kind, promoted))) if kind != PieceKind::King && !promoted => {
                        if used[kind.index()] >= kind.supply() {
                            self.no_piece_left(span, kind);
                            return None;
                        }
                        position.hands[color.index()].add(kind, 1);
                        used[kind.index()] += 1;
                    }
                    (Place::Board(square), Some((kind, promoted))) => {
                        if used[kind.index()] >= kind.supply() {
                            self.no_piece_left(span, kind);
                            return None;
                        }
                        // A piece placed where another stands takes its place.
                        if let Some(old) = position.board.get(square) {
                            used[old.kind.index()] = used[old.kind.index()].saturating_sub(1);
                        }
                        position.board.set(square, Some(Piece { color: *color, kind, promoted }));
                        used[kind.index()] += 1;
                    }
                    _ => {
                        self.push(
                            Diagnostic::error(codes::csa::PLACED_PIECE, span, "this piece cannot be placed so")
                                .label(if piece.is_none() { "`AL` is placed in hand only" } else { "a king or a promoted piece is never in hand" })
                                .help("`P+` and `P-` place a piece on a square (`P+77FU`), an unpromoted piece other than a king in hand (`P+00FU`), or every piece left in hand (`P-00AL`)"),
                        );
                        return None;
                    }
                }
            }
        }
        Some(())
    }

    fn no_piece_left(&mut self, span: Span, kind: PieceKind) {
        self.push(
            Diagnostic::error(codes::csa::PLACED_PIECE, span, format!("no {} is left to place", kind.name()))
                .label(format!("a set holds {} of them", kind.supply()))
                .help("each piece of a set is placed once: remove this one"),
        );
    }

    /// Plays the move statement at `span`.
    fn play(&mut self, side: Color, from: Place, to: Place, piece: (PieceKind, bool), span: Span) {
        self.set_up(span);
        self.record.moving = true;
        self.record.timed = false;
        if let Some((_, end)) = self.record.ending {
            self.push(
                Diagnostic::error(codes::csa::AFTER_END, span, "a move after the end of the game")
                    .label("the game has ended")
                    .with(end, "it ended here")
                    .help("remove the move, or the end before it; a new game starts after a `/` line"),
            );
            self.record.stopped = true;
            return;
        }
        let Some(state) = self.record.state.as_mut().filter(|_| !self.record.stopped) else { return };
        // Played in place: a move that is not legal leaves the state as it was.
        match csa_move(state, side, from, to, piece)
            .and_then(|mv| state.play(mv).map(|()| mv).map_err(|i| Unplayable::Illegal(i.describe(&csa_square))))
        {
            Ok(mv) => self.record.moves.push(Node::new(mv)),
            Err(fault) => {
                let state = *state;
                let d = match fault {
                    Unplayable::Square(at) => bad_square(Span::new(span.start + at, span.start + at + 2)),
                    Unplayable::Side => Diagnostic::error(
                        codes::csa::WRONG_SIDE,
                        Span::new(span.start, span.start + 1),
                        format!("a move of {}, who is not to move", side.name()),
                    )
                    .label(format!("{} is to move", state.side().name()))
                    .help("the sides move in turn: the sign before a move is the side that makes it"),
                    Unplayable::Illegal(why) => {
                        Diagnostic::error(codes::csa::ILLEGAL_MOVE, span, format!("this move is not legal: {why}"))
                            .label("not legal here")
                            .help("the move and the moves after it are not played: correct it")
                    }
                };
                let d = self.nearest(d, span, &state);
                self.push(d);
                self.record.stopped = true;
            }
        }
    }

    /// `d` with the legal moves of `state` nearest to the statement at `span` as its repairs (at
    /// most three, the likeliest first), and their list in its help.
    fn nearest(&mut self, mut d: Diagnostic, span: Span, state: &State) -> Diagnostic {
        let written = span.slice(self.text);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let near: Vec<(usize, crate::shogi::Move, String)> = moves
            .into_iter()
            .filter_map(|mv| {
                let text = super::write::move_text(state, mv)?;
                let distance = crate::notation::repair::edit_distance(written, &text);
                (distance <= 2).then_some((distance, mv, text))
            })
            .collect();
        // The likeliest first: a move after which more of the record's next moves can be played
        // (a move that continues the game is likelier than one that does not), then the
        // nearest, then in the order the rules list the moves.
        // At the same distance, a move from the origin written.
        let origin = |t: &str| t.get(1..3).map(str::to_owned);
        let mut ranked: Vec<(usize, usize, bool, String)> = near
            .into_iter()
            .map(|(distance, mv, text)| {
                let other = origin(&text) != origin(written);
                (self.played_after(span.end, state, mv), distance, other, text)
            })
            .collect();
        ranked.sort_by_key(|&(played, distance, other, _)| (std::cmp::Reverse(played), distance, other));
        ranked.truncate(3);
        if !ranked.is_empty() {
            let list: Vec<String> = ranked.iter().map(|(.., m)| format!("`{m}`")).collect();
            let help = d.help.take().unwrap_or_default();
            d.help = Some(format!("{help}; legal here and nearest to what is written: {}", list.join(", ")));
            d.fixes = ranked.into_iter().map(|(.., m)| Fix::replace(span, m, Applicability::Unsafe)).collect();
        }
        d
    }

    /// How many of the record's next moves (up to a statement that is no move, a time or a
    /// comment, and at most [`AHEAD`]) can be played after `mv`, a legal move of `state`, played
    /// in place of the statement that ends at byte `end`: `usize::MAX` when they all can, else
    /// how many before the first that cannot. (The moves played ahead for one record are at most
    /// [`LOOKAHEAD`]: past them, none is.)
    fn played_after(&mut self, end: usize, state: &State, mv: crate::shogi::Move) -> usize {
        let mut state = *state;
        if state.play(mv).is_err() {
            return 0;
        }
        // The text looked at is bounded too, whatever lies between the moves.
        let rest = self.text.get(end..).unwrap_or_default();
        let mut cut = rest.len().min(AHEAD_BYTES);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut count = 0;
        // The rest of the statement's line (after a `,`), then the lines after it.
        for (at, line) in lines(&rest[..cut]) {
            let line = if at == 0 { line.strip_prefix(',').unwrap_or(line) } else { line };
            for (statement, _) in syntax::line(line, 0) {
                match statement {
                    Statement::Empty | Statement::Comment(_) | Statement::Time(_) => {}
                    Statement::Move { side, from, to, piece } => {
                        if count == AHEAD {
                            return usize::MAX;
                        }
                        if self.record.looked >= LOOKAHEAD {
                            return count;
                        }
                        self.record.looked += 1;
                        match csa_move(&state, side, from, to, piece) {
                            Ok(mv) if state.play(mv).is_ok() => {}
                            _ => return count,
                        }
                        count += 1;
                    }
                    _ => return usize::MAX,
                }
            }
        }
        usize::MAX
    }

    fn time(&mut self, ms: Option<u64>, span: Span) {
        // The time of the end (`%TORYO` then `T0`, as rsshogi writes): the game model keeps
        // none.
        if self.record.ending.is_some() && !self.record.timed {
            self.record.timed = true;
            return;
        }
        let Some(node) = self.record.moves.last_mut().filter(|_| self.record.moving && !self.record.timed) else {
            if self.record.stopped && self.record.moving {
                return;
            }
            self.push(
                Diagnostic::error(codes::csa::TIME_WITHOUT_MOVE, span, "a time with no move before it")
                    .label(if self.record.moving {
                        "the move before has a time already"
                    } else {
                        "before the first move"
                    })
                    .help("a `T` line gives the time of the move on the line before it: remove this one"),
            );
            return;
        };
        node.time = Some(MoveTime { spent: ms.map(std::time::Duration::from_millis), total: None });
        self.record.timed = true;
    }

    fn special(&mut self, name: &str, span: Span) {
        self.set_up(span);
        self.record.moving = true;
        self.record.timed = false;
        if let Some((_, end)) = self.record.ending {
            // floodgate writes a declared win twice: the declaration and the server's verdict.
            if end.slice(self.text) == span.slice(self.text) {
                return;
            }
            self.push(
                Diagnostic::error(codes::csa::AFTER_END, span, "the game ends a second time")
                    .label("a second end")
                    .with(end, "it ended here")
                    .help("a record ends once: remove one of the two"),
            );
            return;
        }
        let mover = self.record.state.as_ref().map(State::side);
        // The grammar reads only the names the standard gives.
        let Some(ending) = Ending::from_csa(name, mover) else { return };
        if name == "TSUMI" && !self.record.stopped {
            if let Some(state) = &self.record.state {
                if !crate::shogi::rules::is_checkmate(&state.to_position()) {
                    self.push(
                        Diagnostic::error(codes::csa::END_CONTRADICTS, span, "`%TSUMI` where the side to move is not checkmated")
                            .label("no mate here")
                            .help("`%TSUMI` ends a game whose side to move is checkmated; a game that ended by resignation ends with `%TORYO`"),
                    );
                }
            }
        }
        self.record.ending = Some((ending, span));
    }

    fn unknown(&mut self, span: Span) {
        let text = span.slice(self.text);
        let looks = match text.as_bytes().first() {
            Some(b'+' | b'-') => "a move is a side, two squares and a piece after the move (`+7776FU`, a drop `-0055KA`)",
            Some(b'P') => "a start position statement is `PI`, a row `P1`…`P9` of nine three-character squares, or `P+`/`P-` and pieces (`P+00FU`)",
            Some(b'T') => "a time is `T` and the seconds the move took (`T12`, or `T6.123`)",
            Some(b'%') => "an end is `%` and one of TORYO, CHUDAN, SENNICHITE, TIME_UP, ILLEGAL_MOVE, +ILLEGAL_ACTION, -ILLEGAL_ACTION, JISHOGI, KACHI, HIKIWAKE, MATTA, TSUMI, FUZUMI, ERROR, MAX_MOVES",
            Some(b'V') => "a version is `V2.2` or `V3.0`",
            _ => "a CSA line is a comment (`'`), a version, a name (`N+`), information (`$KEY:value`), the start position, a move (`+7776FU`), a time (`T12`) or an end (`%TORYO`)",
        };
        let mut d = Diagnostic::error(
            codes::csa::UNKNOWN_STATEMENT,
            span,
            format!("`{}` is no statement of a CSA record", truncated(text)),
        )
        .label("not read")
        .help(looks);
        // After the side to move, a statement is a move, a time or an end: one that cannot be
        // read is repaired as a move, and the moves after it are not played.
        if self.record.moving || self.record.start.side.is_some() || self.record.state.is_some() {
            self.set_up(span);
            self.record.moving = true;
            if let Some(state) = self.record.state.filter(|_| !self.record.stopped) {
                d = self.nearest(d, span, &state);
            }
            self.record.stopped = true;
        }
        self.push(d);
    }

    /// Ends the record being read (at a `/` line at `span`, or at the end of the text): its
    /// game, if it has anything of one.
    fn finish_record(&mut self, span: Span) {
        let r = &self.record;
        let whole = Span::new(self.from, span.end);
        let found = std::mem::replace(&mut self.found, self.out.len());
        self.from = span.end;
        if r.headers.is_empty() && r.start.is_empty() && !r.moving {
            // Lines that are no record's: a record without a game when they have findings.
            if self.out.len() > found {
                self.records.push(RecordRead { span: whole, line: 0, game: None, error: None });
            }
            self.record = Record::default();
            return;
        }
        // A record without a move is set up here (once set up, or failed, this does nothing).
        self.set_up(span);
        let mut record = std::mem::take(&mut self.record);
        let Some(start) = record.start_position.take() else {
            self.records.push(RecordRead { span: whole, line: 0, game: None, error: None });
            return;
        };
        // A handicap's players are 下手 (sente) and 上手 (gote).
        let handicap = start.board != Position::STARTPOS.board;
        let headers =
            record.headers.into_iter().map(|(key, value)| (header_key(&key, handicap).to_owned(), value)).collect();
        let first = start.side;
        let mut game = Game::new(start);
        game.headers = headers;
        game.comments = record.comments;
        game.moves = record.moves;
        add_totals(&mut game.moves, first);
        game.ending = record.ending.map(|(e, _)| e);
        self.records.push(RecordRead { span: whole, line: 0, game: Some(game), error: None });
    }
}

/// Why a move statement cannot be played.
enum Unplayable {
    /// The two digits at this offset of the statement name no square.
    Square(usize),
    /// It is the other side's move.
    Side,
    /// Why the move is not legal, in words.
    Illegal(String),
}

/// The move a move statement of `side` from `from` to `to` naming `piece` (the piece after the
/// move) means in `state`, its legality not judged yet ([`State::play`] judges it).
fn csa_move(
    state: &State,
    side: Color,
    from: Place,
    to: Place,
    (kind, promoted): (PieceKind, bool),
) -> Result<crate::shogi::Move, Unplayable> {
    let Place::Board(to) = to else { return Err(Unplayable::Square(3)) };
    if side != state.side() {
        return Err(Unplayable::Side);
    }
    let mv = match from {
        Place::Hand if promoted => return Err(Unplayable::Illegal("a promoted piece is never dropped".to_owned())),
        Place::Hand => crate::shogi::Move::Drop { kind, to },
        Place::Bad => return Err(Unplayable::Square(1)),
        Place::Board(from) => match state.piece_at(from) {
            Some(p) if p.color == side && p.kind == kind && (p.promoted == promoted || !p.promoted && promoted) => {
                crate::shogi::Move::Board { from, to, promote: promoted && !p.promoted }
            }
            Some(p) if p.color == side => {
                return Err(Unplayable::Illegal(format!(
                    "the piece on {} is {}, not {}: CSA names the piece after the move",
                    csa_square(from),
                    piece_name(p.kind, p.promoted),
                    piece_name(kind, promoted)
                )))
            }
            _ => crate::shogi::Move::Board { from, to, promote: false },
        },
    };
    Ok(mv)
}

/// The error of two digits, at `span`, that name no square.
fn bad_square(span: Span) -> Diagnostic {
    Diagnostic::error(codes::csa::BAD_SQUARE, span, "these digits name no square")
        .label("not a square")
        .help("a square is its file then its rank, each 1 to 9 (`77`); `00` is a hand, where a drop comes from")
}

/// Gives each timed move of `moves` (the first played by `first`) its side's total: the sum of
/// the times of that side's moves so far, while each of them has one.
fn add_totals(moves: &mut [Node], first: Color) {
    let mut totals = [Some(std::time::Duration::ZERO); 2];
    let mut side = first;
    for node in moves {
        let total = &mut totals[side.index()];
        *total = match (*total, node.time.and_then(|t| t.spent)) {
            (Some(sum), Some(spent)) => Some(sum + spent),
            _ => None,
        };
        if let Some(time) = &mut node.time {
            time.total = *total;
        }
        side = side.opponent();
    }
}

/// The key a game's header gets for a CSA name or information key (`N+`, `$EVENT`): the key KIF
/// writes for it, or the CSA key as written.
fn header_key(key: &str, handicap: bool) -> &str {
    match (key, handicap) {
        ("N+", false) => "先手",
        ("N-", false) => "後手",
        ("N+", true) => "下手",
        ("N-", true) => "上手",
        _ => syntax::INFO_KEYS.iter().find(|(csa, _)| *csa == key).map_or(key, |(_, kif)| kif),
    }
}

/// A square as CSA writes it, `77`.
fn csa_square(square: Square) -> String {
    format!("{}{}", square.file(), square.rank())
}

/// The start of a long text, for a message.
fn truncated(text: &str) -> String {
    match text.char_indices().nth(24) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod corpus {
    use std::fs;

    use serde_json::Value;

    use crate::shogi::{EndReason, Position};

    fn same_position(a: &Position, b: &Position) -> bool {
        a.board == b.board && a.hands == b.hands && a.side == b.side
    }

    /// Every CSA file of the corpus beside the repository (random legal games written by three
    /// programs, V2.2 and V3.0, some with statements joined by commas) is read without an error
    /// into the game of its truth: start, main line, final position, ending, times and header.
    #[test]
    fn the_generated_files_read_as_their_truth() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated") else { return };
        let manifest = fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
        let mut checked = 0;
        for row in manifest.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let [id, "csa", file, _, _, _, terminal, ..] = fields[..] else { continue };
            let bytes = fs::read(dir.join(file)).expect(file);
            let read = crate::csa::check_bytes(&bytes);
            assert!(read.diagnostics.is_empty(), "{file}: {:#?}", read.diagnostics);
            let [game] = &read.games[..] else { panic!("{file}: {} games", read.games.len()) };
            let truth: Value =
                serde_json::from_str(&fs::read_to_string(dir.join(format!("truth/{id}.json"))).expect("truth"))
                    .expect("JSON");
            let start: Position = truth["sfen"].as_str().expect("sfen").parse().expect("SFEN");
            assert!(same_position(&game.start, &start), "{file}: start {} is not {start}", game.start);
            let main: Vec<String> = game.main_line().map(|m| m.to_string()).collect();
            let want: Vec<String> = truth["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().expect("move").to_owned())
                .collect();
            assert_eq!(main, want, "{file}: main line");
            let end: Position = truth["final_sfen"].as_str().expect("final").parse().expect("SFEN");
            assert!(same_position(&game.final_position(), &end), "{file}: final position");
            assert_eq!(game.ending.and_then(|e| e.reason), EndReason::from_csa(terminal), "{file}: ending");
            // CSA V2.2 keeps whole seconds: each time is the truth's, its fraction dropped
            // unless the file wrote it.
            let ms: Vec<u64> = truth["ms"].as_array().expect("ms").iter().map(|t| t.as_u64().expect("ms")).collect();
            let times: Vec<Option<u64>> = game
                .moves
                .iter()
                .map(|n| n.time.and_then(|t| t.spent).map(|d| u64::try_from(d.as_millis()).expect("ms")))
                .collect();
            for (i, (time, want)) in times.iter().zip(&ms).enumerate() {
                assert!(
                    time.is_none_or(|t| t == *want || t == want / 1000 * 1000),
                    "{file}: move {}: {time:?} for {want}",
                    i + 1
                );
            }
            for (key, value) in truth["header"].as_object().expect("header") {
                let value = value.as_str().expect("a header value");
                if let Some(read) = game.header(key) {
                    assert!(value.ends_with(read.trim()), "{file}: {key} is {read:?}, not {value:?}");
                }
            }
            checked += 1;
        }
        crate::corpus::at_least("CSA files", checked, 200);
    }

    /// The CSA files of public test suites (csa-rs's fixtures of every version,
    /// json-kifu-format's files: championship games in EUC-JP, floodgate, games ended by a
    /// foul) are read with no error, each into at least one game.
    #[test]
    fn real_files_read_without_an_error() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/real") else { return };
        let mut checked = 0;
        for folder in ["csa-rs", "json-kifu-format/csa"] {
            let mut files: Vec<_> =
                fs::read_dir(dir.join(folder)).expect("folder").map(|e| e.expect("entry").path()).collect();
            files.sort();
            for file in files {
                let read = crate::csa::check_bytes(&fs::read(&file).expect("file"));
                let errors: Vec<_> = read.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
                // The nine-pawn puzzle sets up nine gote pawns on one file, one of them where it
                // can never move: a position no game reaches, which the KIF reader refuses too.
                let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
                let expected: &[crate::diagnostic::Code] =
                    if name.starts_with("9fu") { &[crate::diagnostic::codes::csa::START_POSITION] } else { &[] };
                assert_eq!(errors, expected, "{}: {:#?}", file.display(), read.diagnostics);
                assert_eq!(read.games.is_empty(), !expected.is_empty(), "{}: its games", file.display());
                checked += 1;
            }
        }
        crate::corpus::at_least("real CSA files", checked, 15);
    }
}

/// One character of a move changed in the games of the corpus: how often the record has one
/// error, on the changed line, whose first repair gives a record without an error. The figures
/// are in docs/spec-notes.md; this test holds them.
#[cfg(test)]
mod single_edits {
    use std::fs;

    /// The characters a move is changed to: signs, digits, the letters of the pieces' names.
    const ALPHABET: &str = "+-0123456789FUKYEGIAHIOTNMRY";

    /// The characters of a move statement `+7776FU` in `line`, when there is one.
    fn spot(line: &str) -> Option<std::ops::Range<usize>> {
        let b = line.as_bytes();
        let ok = b.len() >= 7
            && matches!(b[0], b'+' | b'-')
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[5..7].iter().all(u8::is_ascii_uppercase)
            && b.get(7).is_none_or(|&c| c == b',');
        ok.then_some(0..7)
    }

    /// The share of records with one error, with it on the changed line, and with a first
    /// repair that leaves no error, of `count` CSA records made invalid by one changed
    /// character, in percent.
    fn measure(count: usize) -> Option<[usize; 3]> {
        let dir = crate::corpus::path("corpus/kifcsa/generated")?.join("csa");
        let mut files: Vec<_> = fs::read_dir(dir).expect("folder").map(|e| e.expect("entry").path()).collect();
        files.sort();
        let files: Vec<String> = files.iter().filter_map(|f| fs::read_to_string(f).ok()).collect();
        let alphabet: Vec<char> = ALPHABET.chars().collect();
        // A linear congruential generator: the same mutants every run.
        let mut seed: u64 = 7;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap_or(0) % n
        };
        let errors_of = |text: &str| -> Vec<crate::diagnostic::Diagnostic> {
            crate::csa::check_text(text).1.into_iter().filter(|d| d.is_error()).collect()
        };
        let (mut invalid, mut one, mut on_line, mut repaired, mut original) = (0, 0, 0, 0, 0);
        while invalid < count {
            let text = &files[pick(files.len())];
            let lines: Vec<&str> = text.split('\n').collect();
            let moves: Vec<usize> = (0..lines.len()).filter(|&i| spot(lines[i]).is_some()).collect();
            let i = moves[pick(moves.len())];
            let mut changed: Vec<char> = lines[i].chars().collect();
            let k = pick(7);
            let c = alphabet[pick(alphabet.len())];
            if c == changed[k] {
                continue;
            }
            changed[k] = c;
            let line: String = changed.into_iter().collect();
            let mut mutated = lines.clone();
            mutated[i] = &line;
            let mutated = mutated.join("\n");
            let errors = errors_of(&mutated);
            let Some(first) = errors.first() else { continue };
            invalid += 1;
            one += usize::from(errors.len() == 1);
            let here = mutated[..first.span().start].matches('\n').count() == i;
            on_line += usize::from(here);
            let fixed = first.fixes.first().and_then(|f| f.apply(&mutated));
            original += usize::from(fixed.as_deref() == Some(text.as_str()));
            let fixed = fixed.is_some_and(|t| errors_of(&t).is_empty());
            repaired += usize::from(fixed);
            if std::env::var_os("KIFU_SHOW_EDITS").is_some() && !(here && fixed && errors.len() == 1) {
                eprintln!(
                    "{} -> {line}: {:?}",
                    lines[i],
                    errors.iter().map(|d| (d.code, d.message.clone())).collect::<Vec<_>>()
                );
            }
        }
        let shares = [one, on_line, repaired].map(|n| n * 100 / invalid);
        eprintln!(
            "csa: {invalid} records made invalid: one error {}%, on the changed line {}%, first repair valid {}%, the original {}%",
            shares[0], shares[1], shares[2], original * 100 / invalid
        );
        Some(shares)
    }

    #[test]
    fn a_changed_csa_move_is_one_report_on_its_line() {
        let Some([one, on_line, repaired]) = measure(1000) else { return };
        assert!(one >= 97 && on_line >= 90 && repaired >= 95, "{one}% {on_line}% {repaired}%");
    }
}

#[cfg(test)]
mod tests {
    use super::read;
    use crate::diagnostic::{codes, Applicability, Code};
    use crate::shogi::{Color, EndReason, Outcome, Position};

    /// The codes of `text`'s findings, in order.
    fn codes_of(text: &str) -> Vec<Code> {
        read(text).1.iter().map(|d| d.code).collect()
    }

    const HEAD: &str = "V2.2\nN+Sente\nN-Gote\nPI\n+\n";

    #[test]
    fn the_three_start_forms_set_up_the_same_position() {
        let rows = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
                    P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
                    P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n";
        let lists = "P+77FU67FU57FU47FU37FU27FU17FU97FU87FU88KA28HI99KY89KE79GI69KI59OU49KI39GI29KE19KY\n\
                     P-11KY21KE31GI41KI51OU61KI71GI81KE91KY82HI22KA13FU23FU33FU43FU53FU63FU73FU83FU93FU\n+\n";
        for start in ["PI\n+\n", rows, lists] {
            let (games, found) = read(start);
            assert!(found.is_empty(), "{start}: {found:#?}");
            assert_eq!(games[0].start.board, Position::STARTPOS.board, "{start}");
            assert_eq!(games[0].start.side, Color::Black);
        }
    }

    #[test]
    fn a_handicap_takes_its_pieces_off_and_gote_moves_first() {
        let (games, found) = read("PI82HI22KA\n-\n-3334FU\n");
        assert!(found.is_empty(), "{found:#?}");
        assert_eq!(games[0].to_usi(), "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d");
        // A piece that is not there to take off.
        assert_eq!(codes_of("PI55HI\n-\n"), [codes::csa::HANDICAP_PIECE]);
    }

    #[test]
    fn pieces_in_hand_are_placed_with_00_and_al_gives_the_rest() {
        let (games, found) = read("P+59OU\nP-51OU\nP+00KI00FU\nP-00AL\n+\n");
        assert!(found.is_empty(), "{found:#?}");
        let start = &games[0].start;
        assert_eq!(start.to_string(), "4k4/9/9/9/9/9/9/9/4K4 b GP2r2b3g4s4n4l17p 1");
        // More of a kind than a set holds.
        // The finding is on the piece, wherever its line is.
        let text = "P+59OU\nP-51OU\nP+00HI00HI00HI\n+\n";
        let (_, found) = read(text);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::csa::PLACED_PIECE]);
        assert_eq!((found[0].span().start, found[0].span().slice(text)), (24, "00HI"), "the third rook");
        assert_eq!(codes_of("P+59OU\nP-51OU\nP+00TO\n+\n"), [codes::csa::PLACED_PIECE]);
    }

    #[test]
    fn a_collapsed_row_is_read_with_a_safe_fix_to_its_three_character_squares() {
        let text = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
                    P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
                    P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n";
        let (games, found) = read(text);
        assert_eq!(games[0].start.board, Position::STARTPOS.board);
        let [warning] = &found[..] else { panic!("{found:#?}") };
        assert_eq!(warning.code, codes::csa::COLLAPSED_ROW);
        let fix = warning.safe_fix().expect("a safe fix");
        let fixed = fix.apply(text).expect("applies");
        assert!(read(&fixed).1.is_empty(), "{fixed}");
        assert_eq!(fix.applicability, Applicability::Safe);
        // A row of eight squares.
        assert!(codes_of("P2 * -HI * * * * -KA *\n").contains(&codes::csa::ROW_WIDTH));
    }

    #[test]
    fn the_piece_after_the_move_says_whether_it_promotes_and_must_be_the_piece_that_moves() {
        let promote = "P+59OU28HI\nP-51OU\n+\n+2823RY\n";
        let (games, found) = read(promote);
        assert!(found.is_empty(), "{found:#?}");
        assert_eq!(games[0].main_line().map(|m| m.to_string()).collect::<Vec<_>>(), ["2h2c+"]);
        let stay = "P+59OU28HI\nP-51OU\n+\n+2823HI\n";
        assert_eq!(read(stay).0[0].main_line().map(|m| m.to_string()).collect::<Vec<_>>(), ["2h2c"]);
        // A rook named a bishop.
        let (_, found) = read("P+59OU28HI\nP-51OU\n+\n+2823KA\n");
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::csa::ILLEGAL_MOVE]);
        assert!(found[0].message.contains("the piece on 28 is HI, not KA"), "{}", found[0].message);
        // A promotion where none is possible, and a promoted piece dropped.
        assert_eq!(codes_of("P+59OU28HI\nP-51OU\n+\n+2826RY\n"), [codes::csa::ILLEGAL_MOVE]);
        assert_eq!(codes_of("P+59OU00FU\nP-51OU\n+\n+0055TO\n"), [codes::csa::ILLEGAL_MOVE]);
    }

    #[test]
    fn an_illegal_move_is_one_error_and_the_game_ends_before_it() {
        let text = format!("{HEAD}+7776FU\n-3334FU\n+7775FU\n-2233KA\n+8822UM\n");
        let (games, found) = read(&text);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::csa::ILLEGAL_MOVE]);
        assert_eq!(found[0].span().slice(&text), "+7775FU");
        assert_eq!(games[0].moves.len(), 2);
        // A move of the side not to move: its sign.
        let text = format!("{HEAD}-3334FU\n");
        let (_, found) = read(&text);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::csa::WRONG_SIDE]);
        assert_eq!(found[0].span().slice(&text), "-");
        // A square that is none.
        assert_eq!(codes_of(&format!("{HEAD}+7770FU\n")), [codes::csa::BAD_SQUARE]);
    }

    /// The first repair of a faulty move is the legal move nearest to it after which the
    /// record's next moves can be played; a repair is offered, never applied unasked.
    #[test]
    fn the_first_repair_is_the_move_after_which_the_game_plays_on() {
        let first_fix = |text: &str| {
            let (_, found) = read(text);
            assert_eq!(found.iter().filter(|d| d.is_error()).count(), 1, "{found:#?}");
            let fix = found[0].fixes.first().expect("a repair");
            assert_eq!(fix.applicability, Applicability::Unsafe);
            fix.apply(text).expect("the fix applies")
        };
        let game = format!("{HEAD}+7776FU\n-3334FU\n+2726FU\n-8384FU\n");
        // A digit: the pawn's square; the sign; a piece's name; a letter where a digit goes.
        for slip in ["+7766FU", "-7776FU", "+7776KY", "+7A76FU"] {
            assert_eq!(first_fix(&game.replacen("+7776FU", slip, 1)), game, "{slip}");
        }
        for slip in ["-3344FU", "+3334FU", "-33a4FU"] {
            assert_eq!(first_fix(&game.replacen("-3334FU", slip, 1)), game, "{slip}");
        }
        // `+2625FU` and `+2726FU` are both one character from `+2725FU`: the game goes on after
        // the second only, as gote's pawn then stands on 25 in the first.
        let game = format!("{HEAD}+7776FU\n-8384FU\n+2726FU\n-8485FU\n+2625FU\n-8586FU\n");
        let slipped = game.replacen("+2726FU", "+2725FU", 1);
        assert_eq!(first_fix(&slipped), game);
        // The list is in the help, the likeliest first.
        let (_, found) = read(&slipped);
        assert!(
            found[0].help.as_deref().is_some_and(|h| h.contains("nearest to what is written: `+2726FU`")),
            "{found:#?}"
        );
    }

    #[test]
    fn times_belong_to_the_move_before_them() {
        let (games, found) = read(&format!("{HEAD}+7776FU,T12\n-3334FU\nT6.123\n%TORYO\nT0\n"));
        assert!(found.is_empty(), "{found:#?}");
        let spent: Vec<_> =
            games[0].moves.iter().map(|n| n.time.and_then(|t| t.spent).map(|d| d.as_millis())).collect();
        assert_eq!(spent, [Some(12_000), Some(6_123)]);
        // Each side's total is the sum of its times, while each of its moves has one.
        let (games, _) = read(&format!("{HEAD}+7776FU,T12\n-3334FU,T6\n+2726FU,T3\n-8384FU\n+2625FU,T1\n-8485FU,T2\n"));
        let totals: Vec<_> = games[0].moves.iter().map(|n| n.time.and_then(|t| t.total).map(|d| d.as_secs())).collect();
        assert_eq!(totals, [Some(12), Some(6), Some(15), None, Some(16), None]);
        assert_eq!(codes_of(&format!("{HEAD}T1\n+7776FU\n")), [codes::csa::TIME_WITHOUT_MOVE]);
        assert_eq!(codes_of(&format!("{HEAD}+7776FU\nT1\nT2\n")), [codes::csa::TIME_WITHOUT_MOVE]);
    }

    #[test]
    fn each_end_says_why_and_who_won() {
        let moved = |end: &str| {
            let (games, found) = read(&format!("{HEAD}+7776FU\n%{end}\n"));
            assert!(found.is_empty(), "{end}: {found:#?}");
            let ending = games[0].ending.expect("an ending");
            (ending.reason, ending.outcome)
        };
        let white = Some(Outcome::Win(Color::White));
        let black = Some(Outcome::Win(Color::Black));
        // Gote is to move after one move.
        assert_eq!(moved("TORYO"), (Some(EndReason::Resignation), black));
        assert_eq!(moved("TIME_UP"), (Some(EndReason::TimeUp), black));
        assert_eq!(moved("KACHI"), (Some(EndReason::Impasse), white));
        assert_eq!(moved("+ILLEGAL_ACTION"), (Some(EndReason::IllegalMove), white));
        assert_eq!(moved("-ILLEGAL_ACTION"), (Some(EndReason::IllegalMove), black));
        assert_eq!(moved("SENNICHITE"), (Some(EndReason::Repetition), Some(Outcome::Draw)));
        assert_eq!(moved("MAX_MOVES"), (Some(EndReason::MaxMoves), Some(Outcome::Draw)));
        assert_eq!(moved("CHUDAN"), (Some(EndReason::Interrupted), None));
        // A mate claimed where there is none; a move after the end; an end no name reads.
        assert_eq!(codes_of(&format!("{HEAD}+7776FU\n%TSUMI\n")), [codes::csa::END_CONTRADICTS]);
        assert_eq!(codes_of(&format!("{HEAD}%TORYO\n+7776FU\n")), [codes::csa::AFTER_END]);
        assert_eq!(codes_of(&format!("{HEAD}%RESIGN\n")), [codes::csa::UNKNOWN_STATEMENT]);
    }

    #[test]
    fn records_of_a_file_are_read_one_by_one() {
        let text = format!("{HEAD}+7776FU\n%TORYO\n/\n{HEAD}+2726FU\n+3334FU\n/\n{HEAD}%CHUDAN\n");
        let (games, found) = read(&text);
        assert_eq!(games.len(), 3);
        // The second record's fault does not hide the third record.
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::csa::WRONG_SIDE]);
        assert_eq!(games[2].ending.and_then(|e| e.reason), Some(EndReason::Interrupted));
    }

    #[test]
    fn names_information_and_comments_are_kept() {
        let text = "'CSA encoding=UTF-8\nV3.0\nN+羽生\nN-藤井\n$EVENT:名人戦\n$NOTE:a\\nb\n'start\nPI\n+\n+7776FU,'good\n'really\n-3334FU\n";
        let (games, found) = read(text);
        assert!(found.is_empty(), "{found:#?}");
        let game = &games[0];
        assert_eq!(game.header("先手"), Some("羽生"));
        assert_eq!(game.header("棋戦"), Some("名人戦"));
        assert_eq!(game.header("$NOTE"), Some("a\\nb"));
        assert_eq!(game.comments, ["start"]);
        // A comment belongs to the move it follows, as json-kifu-format and tsshogi read it.
        assert_eq!(game.moves[0].comments, ["good", "really"]);
        assert!(game.moves[1].comments.is_empty());
        // A name after the moves is kept, with a warning.
        assert_eq!(codes_of(&format!("{HEAD}+7776FU\n$END_TIME:2020/01/01 10:00:00\n")), [codes::csa::LATE_INFO]);
    }

    #[test]
    fn a_start_without_its_side_or_given_twice_is_reported() {
        assert_eq!(codes_of("PI\n+7776FU\n"), [codes::csa::NO_SIDE]);
        assert_eq!(codes_of("PI\nPI\n+\n"), [codes::csa::START_TWICE]);
        assert_eq!(codes_of("PI\n+\n+7776FU\nPI\n"), [codes::csa::LATE_START]);
        assert_eq!(codes_of("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n+\n"), [codes::csa::MISSING_ROWS]);
        assert_eq!(codes_of("P+59OU58FU57FU\nP-51OU\n+\n"), [codes::csa::START_POSITION]);
    }

    #[test]
    fn a_statement_no_rule_reads_is_one_error_on_it() {
        let text = format!("{HEAD}+7776FU,X12,-3334FU\n");
        let (games, found) = read(&text);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [codes::csa::UNKNOWN_STATEMENT]);
        assert_eq!(found[0].span().slice(&text), "X12");
        assert_eq!(games[0].moves.len(), 1);
        // Any bytes: no panic, findings in order.
        for text in ["\u{0}\u{FFFD}", "P", "P+", "+", "%", "T", "$", "N", "/\n/\n/", "PI99", "P1", ",,,", "+0000FU"] {
            let _ = read(text);
        }
    }
}
