//! Writing a game in the 1998 spec's form (`kifu convert --to psn`).
//!
//! What the spec can say is written its way: headers `[Key "value"]`, the starting position
//! as a `Handicap` or a 13-argument `FEN` header, pair numbers, moves without separators,
//! `P*5e` drops, `{comments}` after the move they refer to, and a result. What it cannot say is
//! kept in the closest form (PSN note 13): variations in `( … )`; a move whose piece or origin
//! only a replay can tell (`7g7f`, `G45b`) as written; clocks and glyphs in a comment.

use std::fmt::Write;

use super::model::{Clock, Comment, CommentKind, EndKind, Game, MoveNode, Origin, Promotion, SetupSource, WrittenMove};
use super::replay::{Replay, Resolved};
use crate::shogi::Move;
use crate::shogi::Outcome;
use crate::shogi::Position;
use crate::shogi::{Color, PieceKind};

/// The game as 1998-spec PSN, ending with a newline. With its replay, every move is written in
/// the spec's own form, with the origin square only where another piece could make the same
/// move; without, as the text allows (see the module's documentation).
pub fn to_psn(game: &Game, replay: Option<&Replay>) -> String {
    let mut out = String::new();
    let start: Option<Position> = game.setup.as_ref().and_then(|s| s.sfen.parse().ok());
    let start = start.or_else(|| replay.filter(|r| r.guessed_handicap.is_some()).map(|r| r.start.clone()));
    write_headers(game, start.as_ref(), replay, &mut out);
    let (half, pair) = start.as_ref().map_or((0, 1), first_move);
    // An end word the spec has no word for is kept in a comment, before the result.
    let (end_comment, result) = end_words(game, half == 1);
    let mut out_words = Numbering::new(half, pair, game.comments.iter().map(comment).collect());
    if game.moves.is_empty() {
        out_words.words.extend(end_comment);
    } else {
        write_moves(&game.moves, end_comment, replay, &mut out_words);
    }
    let mut words = out_words.words;
    words.extend(result);
    wrap(words, &mut out);
    if out.is_empty() {
        // A game of nothing but a move number: written as one, it still reads as a game.
        out.push_str("1.\n");
    }
    out
}

/// The ply (0 when Black moves first, 1 when White does) and pair number of the first move
/// played from `start`: pair N is ply 2N - 1 with Black to move and 2N with White.
pub(super) fn first_move(start: &Position) -> (u64, u64) {
    (u64::from(start.side == Color::White), start.move_number.map_or(1, |n| n.div_ceil(2).max(1)))
}

/// Writes the headers of `game`, which starts from `start`, and those of its starting position.
/// A position given by a `FEN` or `SFEN` header is written where the first header that gives a
/// starting position stood, so that a second one the reader ignored (`psn::setup-twice`) is
/// still the second.
fn write_headers(game: &Game, start: Option<&Position>, replay: Option<&Replay>, out: &mut String) {
    let mut position = match (&game.setup, start) {
        (Some(setup), Some(p)) if setup.source != SetupSource::Handicap => Some(match spec_fen(p) {
            Some(fen) => format!("[FEN \"{fen}\"]\n"),
            None => format!("[SFEN \"{}\"]\n", setup.sfen),
        }),
        (Some(setup), None) if setup.source != SetupSource::Handicap => Some(format!("[SFEN \"{}\"]\n", setup.sfen)),
        _ => None,
    };
    for h in &game.headers {
        let key = keyword(&h.key);
        if super::setup::is_setup_key(&key) {
            out.push_str(&position.take().unwrap_or_default());
        }
        if key.eq_ignore_ascii_case("SFEN") || key.eq_ignore_ascii_case("FEN") {
            continue;
        }
        // A value as read holds no `]` before a `[`: the reader starts a header there.
        let _ = header(&key, &h.value, out);
    }
    out.push_str(&position.unwrap_or_default());
    if let Some(name) = replay.and_then(|r| r.guessed_handicap) {
        let _ = writeln!(out, "[Handicap \"{name}\"]");
    }
}

/// A header's `key` as a keyword that reads back: every character a keyword can hold is kept
/// (`Black_grade` stays as it is); a space, quote, colon, bracket or control character, which
/// would end the keyword, is left out.
pub(super) fn keyword(key: &str) -> String {
    let clean: String =
        key.chars().filter(|&c| !c.is_whitespace() && !c.is_control() && !"\":[]".contains(c)).collect();
    // A key cleaned into one the reader acts on (`Handicap*` into `Handicap`) would change the
    // game: it keeps a prefix that says it is only a tag.
    let acted_on = super::setup::is_setup_key(&clean) || clean.eq_ignore_ascii_case("Result");
    if clean.is_empty() || clean != key && acted_on {
        format!("Tag{clean}")
    } else {
        clean
    }
}

/// Writes the header line `[key "value"]`, `key` a [`keyword`]; true when the value could not
/// be written as it is.
pub(super) fn header(key: &str, value: &str, out: &mut String) -> bool {
    // A value is read up to the line's last `"]`, so a quote inside it (`\"`) is kept as it is,
    // and so are tabs and other control characters. PSN has no escapes: a line break, which
    // would end the header, becomes a space, and a `]` before a `[` (after white space), where
    // readers start a second header on the line, becomes a `)`.
    let mut written = String::with_capacity(value.len());
    for (at, c) in value.char_indices() {
        written.push(match c {
            '\r' | '\n' => ' ',
            ']' if value[at + 1..].trim_start().starts_with('[') => ')',
            c => c,
        });
    }
    let _ = writeln!(out, "[{key} \"{written}\"]");
    written != value
}

/// The comment that keeps an end word the spec has no word for, and the result, of `game`.
fn end_words(game: &Game, white_first: bool) -> (Option<String>, Option<String>) {
    match &game.end {
        None => (None, None),
        Some(end) => {
            let plies = game.moves.len() as u64 + u64::from(white_first);
            // The side to move after the last move is the one that resigned or was mated.
            let to_move = if plies % 2 == 0 { Color::Black } else { Color::White };
            let result = |outcome| result(outcome).to_owned();
            let ending = end.ending(to_move);
            match end.kind {
                // The spec has no unknown result: `*` is written as a draw.
                EndKind::Result => (None, Some(result(ending.outcome.unwrap_or(Outcome::Draw)))),
                EndKind::WonLine => (None, ending.outcome.map(result)),
                EndKind::EndWord => (Some(format!("{{{}}}", end.text)), ending.outcome.map(result)),
            }
        }
    }
}

/// The spec's result for `outcome`: `1-0`, `0-1` or `1/2-1/2`.
pub(super) const fn result(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Color::Black) => "1-0",
        Outcome::Win(Color::White) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// Writes `words` in lines, wrapped before 80 columns.
pub(super) fn wrap(words: Vec<String>, out: &mut String) {
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The numbers, parentheses and comments around the moves of a game being written, one level
/// per line open (the main line, then a variation inside it…): every PSN writer walks its own
/// tree and leaves the words to this.
pub(super) struct Numbering {
    /// Each open line's last move written: its ply (0 for Black's first), its pair, whether the
    /// next move needs its number written again, and whether the line has a move yet.
    open: Vec<Level>,
    /// The words written so far.
    pub(super) words: Vec<String>,
}

/// A line open in a [`Numbering`].
#[derive(Clone, Copy)]
struct Level {
    half: u64,
    pair: u64,
    need_number: bool,
    started: bool,
}

impl Numbering {
    /// The main line, whose first move is ply `half` (1 when White moves first) of pair `pair`,
    /// after `words`.
    pub(super) fn new(half: u64, pair: u64, words: Vec<String>) -> Self {
        Numbering { open: vec![Level { half, pair, need_number: true, started: false }], words }
    }

    /// The next move of the line open: `before` (comments, written before its number), its
    /// `text`, and `after` (comments).
    pub(super) fn play(&mut self, before: Vec<String>, text: String, after: Vec<String>) {
        let Some(level) = self.open.last_mut() else { return };
        if level.started {
            level.half += 1;
            if level.half % 2 == 0 {
                level.pair += 1;
            }
        }
        level.started = true;
        if !before.is_empty() {
            level.need_number = true;
        }
        self.words.extend(before);
        if level.half % 2 == 0 {
            self.words.push(format!("{}.", level.pair));
        } else if level.need_number {
            self.words.push(format!("{}...", level.pair));
        }
        self.words.push(text);
        level.need_number = !after.is_empty();
        self.words.extend(after);
    }

    /// A variation of the last move played, after `comments`: its first move takes that
    /// move's number.
    pub(super) fn open(&mut self, comments: Vec<String>) {
        let Some(&level) = self.open.last() else { return };
        self.words.push("(".to_owned());
        self.words.extend(comments);
        self.open.push(Level { need_number: true, started: false, ..level });
    }

    /// The end of the variation open.
    pub(super) fn close(&mut self) {
        if self.open.len() > 1 {
            self.open.pop();
            self.words.push(")".to_owned());
            if let Some(outer) = self.open.last_mut() {
                outer.need_number = true;
            }
        }
    }
}

/// A move of a tree a PSN writer walks ([`walk`]).
pub(super) trait Branching<'a>: Sized + 'a {
    /// What a line carries from one move to the next (the position, for a writer that needs
    /// it).
    type State: Clone;
    /// The `i`th line played instead of this move, if any.
    fn variation(&'a self, i: usize) -> Option<Branch<'a, Self>>;
    /// `state` after this move.
    fn advance(&self, state: &mut Self::State);
}

/// A line played instead of a move, as a PSN writer writes it: its moves, the comments written
/// before its first, and the words written after its last (how it ended).
pub(super) struct Branch<'a, N> {
    pub(super) moves: &'a [N],
    pub(super) before: Vec<String>,
    pub(super) after: Vec<String>,
}

impl<'a> Branching<'a> for MoveNode {
    type State = ();

    fn variation(&'a self, i: usize) -> Option<Branch<'a, Self>> {
        let v = self.variations().get(i)?;
        Some(Branch { moves: &v.moves, before: v.comments.iter().map(comment).collect(), after: Vec::new() })
    }

    fn advance(&self, (): &mut ()) {}
}

/// A line being walked: its moves, the next one, which of that move's variations comes next
/// (`None` until the move itself is written), what the line carries, and the words written
/// after its last move.
struct Line<'a, N, S> {
    moves: &'a [N],
    next: usize,
    branch: Option<usize>,
    state: S,
    after: Vec<String>,
}

/// Walks the main line `main` (carrying `state` from its start) and its variations, each move
/// written by `write(line, index, on the main line, state, out)` before the lines played
/// instead of it. The lines being walked are kept on a stack, one entry per level of nesting:
/// no recursion, however deep the variations go.
pub(super) fn walk<'a, N: Branching<'a>>(
    main: &'a [N],
    state: N::State,
    out: &mut Numbering,
    mut write: impl FnMut(&'a [N], usize, bool, &N::State, &mut Numbering),
) {
    let mut lines = vec![Line { moves: main, next: 0, branch: None, state, after: Vec::new() }];
    while let Some(depth) = lines.len().checked_sub(1) {
        let line = &mut lines[depth];
        let Some(m) = line.moves.get(line.next) else {
            let after = std::mem::take(&mut line.after);
            lines.pop();
            if !lines.is_empty() {
                out.words.extend(after);
                out.close();
            }
            continue;
        };
        let branch = match line.branch {
            Some(b) => b,
            None => {
                write(line.moves, line.next, depth == 0, &line.state, out);
                0
            }
        };
        if let Some(Branch { moves, before, after }) = m.variation(branch) {
            line.branch = Some(branch + 1);
            if moves.is_empty() {
                // A line of no move is not written (a PSN variation has one at least).
                continue;
            }
            let state = line.state.clone();
            out.open(before);
            lines.push(Line { moves, next: 0, branch: None, state, after });
            continue;
        }
        line.branch = None;
        m.advance(&mut line.state);
        line.next += 1;
    }
}

/// Writes the main line `moves` and its variations; `last_words` go with the comments of its
/// last move.
///
/// Every comment between two moves of a line is written in one place, after the first move and
/// before its variations, whichever move it belongs to: read again, the comments fall to the
/// same moves, in any dialect (GSDB gives them to the next move, the others to the one before),
/// and are written again in the same place.
fn write_moves(moves: &[MoveNode], mut last_words: Option<String>, replay: Option<&Replay>, out: &mut Numbering) {
    walk(moves, (), out, |line, at, main, (), out| write_move(line, at, main, &mut last_words, replay, out));
}

/// Writes the move `at` of `line` (of the main line when `main`), with its annotations and
/// comments; `last_words` go after the main line's last move.
fn write_move(
    line: &[MoveNode],
    at: usize,
    main: bool,
    last_words: &mut Option<String>,
    replay: Option<&Replay>,
    out: &mut Numbering,
) {
    let Some(m) = line.get(at) else { return };
    let before = if at == 0 { m.comments_before().iter().map(comment).collect() } else { Vec::new() };
    let resolved = replay.and_then(|r| r.resolved(m.mv.span.start));
    let text = resolved.map_or_else(|| move_text(&m.mv), spec_move);
    let mut after = Vec::new();
    // The glyphs and clock columns in one comment, each parenthesised clock in its own: alone
    // in a comment, it is read back as the move's time.
    let (paren, columns): (Vec<&Clock>, Vec<&Clock>) = m.clocks().iter().partition(|c| c.text.starts_with('('));
    let extras: Vec<&str> =
        m.annotations().iter().map(|a| a.text.as_str()).chain(columns.iter().map(|c| c.text.as_str())).collect();
    if !extras.is_empty() {
        after.push(format!("{{{}}}", extras.join(" ")));
    }
    after.extend(paren.iter().map(|c| format!("{{{}}}", c.text)));
    let next_before = line.get(at + 1).map_or(&[][..], |n| n.comments_before());
    after.extend(m.comments_after().iter().chain(next_before).map(comment));
    if main && at + 1 == line.len() {
        after.extend(last_words.take());
    }
    out.play(before, text, after);
}

/// `c` written as a `{comment}`, its text kept: readers count nested braces
/// (`psn::nested-braces`), so a pair of braces inside a `{comment}` is kept, and only a brace
/// without its pair, which would end the comment early or leave it open, becomes a parenthesis.
/// The braces of a `;` comment, a `%` line or prose become parentheses: kept as braces, they
/// would give the game a nested comment it did not have. Spaces at either end, control
/// characters and line breaks are kept ([`comment_lines`]).
fn comment(c: &Comment) -> String {
    braced(&c.text, c.kind == CommentKind::Brace)
}

/// `text` written as a `{comment}` (see [`comment`]): its braces kept in pairs when it was a
/// `{comment}` (`brace`), made parentheses otherwise.
pub(super) fn braced(text: &str, brace: bool) -> String {
    let text = comment_lines(text);
    let mut unpaired = vec![!brace; text.len()];
    let mut open = Vec::new();
    for (i, b) in text.bytes().enumerate().filter(|_| brace) {
        match b {
            b'{' => open.push(i),
            b'}' if open.pop().is_none() => unpaired[i] = true,
            _ => {}
        }
    }
    for i in open {
        unpaired[i] = true;
    }
    let text: String = text
        .char_indices()
        .map(|(i, c)| match c {
            '{' if unpaired[i] => '(',
            '}' if unpaired[i] => ')',
            c => c,
        })
        .collect();
    format!("{{{text}}}")
}

/// A comment's text as it can be written inside braces: every character kept, line breaks
/// too, but a line break before a line that starts with `[` (after spaces or tabs), which would
/// read as a header and so as the start of a new game: it becomes a space.
fn comment_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['\n', '\r']) {
        let end = if rest[at..].starts_with("\r\n") { at + 2 } else { at + 1 };
        out.push_str(&rest[..at]);
        let header_next = rest[end..].trim_start_matches([' ', '\t']).starts_with('[');
        out.push_str(if header_next { " " } else { &rest[at..end] });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A move as played, in the spec's form: `+` before a promoted piece, the origin only when
/// another piece of the same kind could go to the same square, `+` to promote, `=` to decline a
/// promotion the move could make, `P*5e` for a drop.
pub fn spec_move(r: &Resolved) -> String {
    let mut s = String::new();
    match r.mv {
        Move::Drop { kind, to } => {
            s.push(kind.letter());
            s.push('*');
            s.push_str(&to.to_string());
        }
        Move::Board { from, to, promote } => {
            if r.piece.promoted {
                s.push('+');
            }
            s.push(r.piece.kind.letter());
            if r.needs_origin {
                s.push_str(&from.to_string());
            }
            s.push_str(&to.to_string());
            if promote {
                s.push('+');
            } else if r.could_promote {
                s.push('=');
            }
        }
    }
    s
}

/// A move in the spec's form, when the text says enough; as written otherwise.
pub(crate) fn move_text(m: &WrittenMove) -> String {
    let Some(piece) = m.piece else { return m.text.to_string() };
    if matches!(m.from, Origin::File(_) | Origin::Rank(_)) {
        return m.text.to_string();
    }
    let mut s = String::new();
    if m.drop {
        s.push(piece.letter());
        s.push('*');
        s.push_str(&m.to.to_string());
        return s;
    }
    if m.promoted {
        s.push('+');
    }
    s.push(piece.letter());
    if let Origin::Square(from) = m.from {
        s.push_str(&from.to_string());
    }
    s.push_str(&m.to.to_string());
    match m.promotion {
        Some(Promotion::Promote) => s.push('+'),
        Some(Promotion::Decline) => s.push('='),
        None => {}
    }
    s
}

/// The spec's 13-argument FEN of a position (§1.1.1), when its hands fit in single digits and
/// its move number reads back: pair N is ply 2N - 1 with Black to move and 2N with White, so
/// `w - 1` (White moves first, as in a handicap game) has no pair number and is kept as SFEN.
pub(crate) fn spec_fen(p: &Position) -> Option<String> {
    if p.move_number.is_some_and(|n| (n % 2 == 1) != (p.side == Color::Black)) {
        return None;
    }
    let board = p.board_sfen();
    let digits = |color: Color| -> Option<String> {
        PieceKind::ALL[..7]
            .iter()
            .map(|k| char::from_digit(p.hands[color.index()].count(*k), 10))
            .collect::<Option<String>>()
    };
    let black = digits(Color::Black)?;
    // Seven digits, or the `t` shortcut where a count needs two digits and White holds every
    // piece left (PSN note 2).
    let white = match digits(Color::White) {
        Some(d) => d,
        None if super::setup::rest_of(&p.board, &p.hands[0]).is_ok_and(|rest| rest == p.hands[1]) => "t".to_owned(),
        None => return None,
    };
    let side = if p.side == Color::Black { 's' } else { 'g' };
    let pair = p.move_number.map_or(1, |n| n.div_ceil(2).max(1));
    Some(format!("{board} {black}/{white} {side} {pair}"))
}

#[cfg(test)]
mod tests {
    use super::comment_lines;

    #[test]
    fn a_comment_keeps_its_line_breaks_but_before_a_header() {
        assert_eq!(comment_lines("a\nb\r\nc\rd\n"), "a\nb\r\nc\rd\n");
        assert_eq!(comment_lines("a\n[b]\r\n \t[c\n\nd"), "a [b]  \t[c\n\nd");
    }

    /// A result written with a dialect's dash keeps its winner in the spec's form; an unknown
    /// result (`*`), which the spec has no word for, is written as a draw.
    #[test]
    fn a_result_keeps_its_winner_whatever_its_dash() {
        let written = |text: &str| {
            let file = crate::psn::check_bytes(text.as_bytes(), Default::default());
            let g = &file.games[0];
            super::to_psn(&g.game, g.replay.as_ref())
        };
        assert!(written("1. P7f 0\u{2010}1\n").ends_with("0-1\n"), "{}", written("1. P7f 0\u{2010}1\n"));
        assert!(written("1. P7f 1\u{2013}0\n").ends_with("1-0\n"));
        assert!(written("1. P7f \u{BD}-\u{BD}\n").ends_with("1/2-1/2\n"));
        assert!(written("1. P7f *\n").ends_with("1/2-1/2\n"));
    }
}
