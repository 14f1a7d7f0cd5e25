//! Writing a game in the 1998 spec's form (`kifu convert --to psn`).
//!
//! What the spec can say is written its way: headers `[Key "value"]`, the starting position
//! as a `Handicap` or a 13-argument `FEN` header, pair numbers, moves without separators,
//! `P*5e` drops, `{comments}` after the move they refer to, and a result. What it cannot say is
//! kept in the closest form (PSN note 13): variations in `( … )`; a move whose piece or origin
//! only a replay can tell (`7g7f`, `G45b`) as written; clocks and glyphs in a comment.

use std::fmt::Write;

use super::model::{Comment, CommentKind, EndKind, Game, MoveNode, Origin, Promotion, SetupSource, WrittenMove};
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
    let white_first = start.as_ref().is_some_and(|p| p.side == Color::White);
    let first_pair = start.as_ref().and_then(|p| p.move_number).map_or(1, |n| n.div_ceil(2).max(1));
    // An end word the spec has no word for is kept in a comment, before the result.
    let (end_comment, result) = end_words(game, white_first);
    let mut words: Vec<String> = Vec::new();
    for c in &game.comments {
        words.push(comment(c));
    }
    if game.moves.is_empty() {
        words.extend(end_comment);
        write_moves(&game.moves, u64::from(white_first), first_pair, None, replay, &mut words);
    } else {
        write_moves(&game.moves, u64::from(white_first), first_pair, end_comment, replay, &mut words);
    }
    words.extend(result);
    wrap(words, &mut out);
    if out.is_empty() {
        // A game of nothing but a move number: written as one, it still reads as a game.
        out.push_str("1.\n");
    }
    out
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
        // A key keeps every character a header's keyword can hold (`Black_grade` stays as it
        // is); a space, quote, colon, bracket or control character would end the keyword.
        let key: String =
            h.key.chars().filter(|&c| !c.is_whitespace() && !c.is_control() && !"\":[]".contains(c)).collect();
        // A key cleaned into one the reader acts on (`Handicap*` into `Handicap`) would change
        // the game: it keeps a prefix that says it is only a tag.
        let acted_on = super::setup::is_setup_key(&key) || key.eq_ignore_ascii_case("Result");
        let key = if key.is_empty() || key != h.key.as_str() && acted_on { format!("Tag{key}") } else { key };
        if super::setup::is_setup_key(&key) {
            out.push_str(&position.take().unwrap_or_default());
        }
        if key.eq_ignore_ascii_case("SFEN") || key.eq_ignore_ascii_case("FEN") {
            continue;
        }
        // A value is read up to the line's last `"]`, so a quote inside it (`\"`) is kept as
        // it is, and so are tabs and other control characters. PSN has no escapes: a line
        // break, which would end the header, becomes a space.
        let value = h.value.replace(['\r', '\n'], " ");
        let _ = writeln!(out, "[{key} \"{value}\"]");
    }
    out.push_str(&position.unwrap_or_default());
    if let Some(name) = replay.and_then(|r| r.guessed_handicap) {
        let _ = writeln!(out, "[Handicap \"{name}\"]");
    }
}

/// The comment that keeps an end word the spec has no word for, and the result, of `game`.
fn end_words(game: &Game, white_first: bool) -> (Option<String>, Option<String>) {
    match &game.end {
        None => (None, None),
        Some(end) => {
            let plies = game.moves.len() as u64 + u64::from(white_first);
            // The side to move after the last move is the one that resigned or was mated.
            let to_move = if plies % 2 == 0 { Color::Black } else { Color::White };
            let result = |outcome| match outcome {
                Outcome::Win(Color::Black) => "1-0".to_owned(),
                Outcome::Win(Color::White) => "0-1".to_owned(),
                Outcome::Draw => "1/2-1/2".to_owned(),
            };
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

/// Writes `words` in lines, wrapped before 80 columns.
fn wrap(words: Vec<String>, out: &mut String) {
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

/// A line being written: its moves, the next one, which of that move's variations comes next
/// (`None` until the move itself is written), and the move's ply and pair.
struct Line<'a> {
    moves: &'a [MoveNode],
    next: usize,
    branch: Option<usize>,
    half: u64,
    pair: u64,
    need_number: bool,
}

/// Writes the main line `moves`, whose first is ply `half` (0 for Black) of pair `pair`, and its
/// variations; `last_words` go with the comments of its last move.
///
/// Every comment between two moves of a line is written in one place, after the first move and
/// before its variations, whichever move it belongs to: read again, the comments fall to the
/// same moves, in any dialect (GSDB gives them to the next move, the others to the one before),
/// and are written again in the same place. The lines being written are kept on a stack, one
/// entry per level of nesting: no recursion, however deep the variations go.
fn write_moves(
    moves: &[MoveNode],
    half: u64,
    pair: u64,
    mut last_words: Option<String>,
    replay: Option<&Replay>,
    words: &mut Vec<String>,
) {
    let mut lines = vec![Line { moves, next: 0, branch: None, half, pair, need_number: true }];
    while let Some(depth) = lines.len().checked_sub(1) {
        let line = &mut lines[depth];
        let Some(m) = line.moves.get(line.next) else {
            lines.pop();
            if let Some(outer) = lines.last_mut() {
                words.push(")".to_owned());
                outer.need_number = true;
            }
            continue;
        };
        let branch = match line.branch {
            Some(b) => b,
            None => {
                write_move(line, m, depth == 0, &mut last_words, replay, words);
                0
            }
        };
        if let Some(v) = m.variations().get(branch) {
            line.branch = Some(branch + 1);
            words.push("(".to_owned());
            for c in &v.comments {
                words.push(comment(c));
            }
            let (half, pair) = (line.half, line.pair);
            lines.push(Line { moves: &v.moves, next: 0, branch: None, half, pair, need_number: true });
            continue;
        }
        line.branch = None;
        line.next += 1;
        line.half += 1;
        if line.half % 2 == 0 {
            line.pair += 1;
        }
    }
}

/// Writes `m`, the next move of `line` (of the main line when `main`), with its number,
/// annotations and comments; `last_words` go after the main line's last move.
fn write_move(
    line: &mut Line<'_>,
    m: &MoveNode,
    main: bool,
    last_words: &mut Option<String>,
    replay: Option<&Replay>,
    words: &mut Vec<String>,
) {
    if line.next == 0 {
        for c in m.comments_before() {
            words.push(comment(c));
            line.need_number = true;
        }
    }
    if line.half % 2 == 0 {
        words.push(format!("{}.", line.pair));
    } else if line.need_number {
        words.push(format!("{}...", line.pair));
    }
    let resolved = replay.and_then(|r| r.resolved(m.mv.span.start));
    words.push(resolved.map_or_else(|| move_text(&m.mv), spec_move));
    line.need_number = false;
    let extras: Vec<&str> =
        m.annotations().iter().map(|a| a.text.as_str()).chain(m.clocks().iter().map(|c| c.text.as_str())).collect();
    if !extras.is_empty() {
        words.push(format!("{{{}}}", extras.join(" ")));
        line.need_number = true;
    }
    let next_before = line.moves.get(line.next + 1).map_or(&[][..], |n| n.comments_before());
    for c in m.comments_after().iter().chain(next_before) {
        words.push(comment(c));
        line.need_number = true;
    }
    if main && line.next + 1 == line.moves.len() {
        if let Some(w) = last_words.take() {
            words.push(w);
            line.need_number = true;
        }
    }
}

/// `c` written as a `{comment}`, its text kept: readers count nested braces
/// (`psn::nested-braces`), so a pair of braces inside a `{comment}` is kept, and only a brace
/// without its pair, which would end the comment early or leave it open, becomes a parenthesis.
/// The braces of a `;` comment, a `%` line or prose become parentheses: kept as braces, they
/// would give the game a nested comment it did not have. Spaces at either end, control
/// characters and line breaks are kept ([`comment_lines`]).
fn comment(c: &Comment) -> String {
    let text = comment_lines(&c.text);
    let brace = c.kind == CommentKind::Brace;
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
