//! The rules a well-formed record must still follow: canonical form (warnings) and what a
//! shogi position can be (errors: the [`Violation`]s of the rules of shogi, said in SFEN's
//! words), each finding pointing at the squares or hand entries at fault.
//!
//! Checks run on the parts of a record that are well formed, so a fault in one field never
//! hides what is wrong in another, and nothing is judged from a part that could not be read
//! (a tenth rank is never reported as a missing king).

use std::borrow::Cow;

use super::ast::{Cell, HandEntry, Record};
use super::model::{hands_of, square_span};
use crate::diagnostic::codes;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::notation::findings::{self, CheckWords, Checker};
use crate::shogi::violation::{self, Tally};
use crate::shogi::{Board, Color, Hand, ImpossibleCheck, Piece, PieceKind, Square, Violation};
use crate::span::{Span, Spanned};

/// Which parts of a record read without syntax errors.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sound {
    /// The board field.
    pub board: bool,
    /// The side to move.
    pub side: bool,
    /// The hand field.
    pub hand: bool,
    /// The move number.
    pub move_number: bool,
}

/// Where the findings of the rules point: the parts of a record's syntax tree.
struct Places<'a> {
    field: &'a super::ast::BoardField,
    hand: &'a [HandEntry],
}

impl Places<'_> {
    /// The cell that writes `square` (for an empty square, its run).
    fn square(&self, square: Square) -> Span {
        square_span(self.field, square)
    }
    /// The board field.
    fn board(&self) -> Span {
        self.field.span
    }
    /// The entries of the hand field, in the order written.
    fn hand_entries(&self) -> &[HandEntry] {
        self.hand
    }
}

/// Adds to `out` every canonical-form warning and every rule of shogi that the sound parts of
/// `record` break.
///
/// `board` is the board of `record`'s board field when that field is sound (see
/// [`board_of`](super::model::board_of)).
pub fn check(record: &Record, board: Option<&Board>, sound: Sound, out: &mut Vec<Diagnostic>) {
    // Form warnings about a board with errors would only add noise.
    if let Some(board) = record.board.as_ref().filter(|_| sound.board) {
        check_empty_runs(board, out);
    }
    if let (Some(hand), true) = (&record.hand, sound.hand) {
        check_hand_form(hand, out);
    }
    let (Some(field), Some(board)) = (record.board.as_ref(), board) else { return };
    let side = record.side.filter(|_| sound.side).map(|s| Spanned::new(s.node.color, s.span));
    let hand = record.hand.as_ref().filter(|_| sound.hand);
    let hands = hand.map(hands_of);
    let move_number = record.move_number.filter(|_| sound.move_number);
    let places = Places { field, hand: hand.map_or(&[], |h| h.entries.as_slice()) };
    rules(board, &Tally::of(board), side, hands.as_ref(), move_number, &places, out);
}

/// Adds to `out` every rule of shogi the position breaks: its board (and its `tally`), the
/// side to move, the hands and the move number, those that are known (a part that could not be
/// read is not judged), with spans from `places`.
fn rules(
    board: &Board,
    tally: &Tally,
    side: Option<Spanned<Color>>,
    hands: Option<&[Hand; 2]>,
    move_number: Option<Spanned<u64>>,
    places: &Places<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let at = |sq: Square| places.square(sq);
    let violations = violation::violations(board, tally, side.map(|s| s.node), hands);
    // The missing kings are said after the kings a side has too many of.
    let kings = violations.iter().take_while(|v| matches!(v, Violation::TwoKings { .. })).count();
    let (two_kings, rest) = violations.split_at(kings);
    let say = |v: &Violation| say(v, board, side, places.hand_entries(), &at);
    out.extend(two_kings.iter().map(say));
    missing_kings(tally, places.board(), out);
    out.extend(rest.iter().map(say));
    if let (Some(hands), Some(side), Some(m)) = (hands, side, move_number) {
        check_parity(tally, hands, side, m, out);
    }
}

/// What [`rules`] finds in a position read whole (its board counted in `tally`, the side to
/// move, the hands and the move number when it has one), told without a word of it: `None`
/// when it breaks a rule, else how many warnings (a missing king, a move number of the other
/// side's).
pub(crate) fn verdict(
    board: &Board,
    tally: &Tally,
    side: Color,
    hands: &[Hand; 2],
    move_number: Option<u64>,
) -> Option<usize> {
    if tally.breaks_counts(hands) || !violation::violations(board, tally, Some(side), Some(hands)).is_empty() {
        return None;
    }
    let missing_king = usize::from(kingless(tally).next().is_some());
    let parity = move_number.and_then(|m| off_parity(tally, hands, side, m));
    Some(missing_king + usize::from(parity.is_some()))
}

/// True when hand entries, as (piece, count written) in the order written, are in canonical
/// USI form: each after the one before (so none is listed twice), and no count of 1. A hand
/// that is not has form warnings ([`check_hand_form`]).
pub(super) fn hand_is_canonical(entries: impl Iterator<Item = ((Color, PieceKind), Option<u32>)>) -> bool {
    let mut last = None;
    for (piece, count) in entries {
        let rank = usi_rank(piece);
        if count == Some(1) || last.is_some_and(|l| l >= rank) {
            return false;
        }
        last = Some(rank);
    }
    true
}

/// How many form warnings [`check_hand_form`] gives the hand of these entries (as for
/// [`hand_is_canonical`]): one for each count of 1, each piece listed more than once, and one
/// when the pieces are out of USI order.
pub(super) fn hand_form_warnings(entries: impl Iterator<Item = ((Color, PieceKind), Option<u32>)>) -> usize {
    // How many times each piece is listed, by its place in USI order.
    let mut listed = [0u8; 16];
    let (mut ones, mut out_of_order, mut last) = (0, false, None);
    for (piece, count) in entries {
        let rank = usi_rank(piece);
        ones += usize::from(count == Some(1));
        out_of_order |= last.is_some_and(|last| rank < last);
        last = Some(rank);
        if let Some(n) = listed.get_mut(rank) {
            *n = n.saturating_add(1);
        }
    }
    ones + listed.iter().filter(|&&n| n > 1).count() + usize::from(out_of_order)
}

fn check_empty_runs(board: &super::ast::BoardField, out: &mut Vec<Diagnostic>) {
    for rank in &board.ranks {
        let cells = board.cells_of(rank);
        // Runs of two or more consecutive digits: `(start, len)` in `cells`.
        let mut start = 0;
        for i in 0..=cells.len() {
            let empty = cells.get(i).is_some_and(|c| matches!(c.node, Cell::Empty(_)));
            if empty && (i == start || cells[i - 1].node.splits_run(&cells[i].node)) {
                continue;
            }
            if i - start > 1 {
                split_run(&cells[start..i], out);
            }
            start = i + 1;
        }
    }
}

fn split_run(run: &[Spanned<Cell>], out: &mut Vec<Diagnostic>) {
    let total: u32 = run.iter().map(|c| c.node.width()).sum();
    // A run too long for the rank is the rank's width error, not a matter of form.
    if total > 9 {
        return;
    }
    let span = run[0].span.to(run[run.len() - 1].span);
    let written: String = run.iter().map(|c| char::from(b'0' + c.node.width() as u8)).collect();
    out.push(
        Diagnostic::warning(
            codes::sfen::SPLIT_EMPTY_RUN,
            span,
            format!("`{written}` writes one run of {total} empty squares as {}", run.len()),
        )
        .label("consecutive digits")
        .help(format!("write `{total}`"))
        .fix(Fix::replace(span, total.to_string(), Applicability::Safe)),
    );
}

/// The position of a piece in hand in USI order: Black's before White's, each R B G S N L P.
fn usi_rank((color, kind): (Color, PieceKind)) -> usize {
    let order = PieceKind::USI_HAND_ORDER.iter().position(|k| *k == kind).unwrap_or(7);
    color.index() * 8 + order
}

/// The most a hand count can say (`integer`, spec line 44: two digits).
const MAX_HAND_COUNT: u32 = 99;

/// True when each count of `hands` can be written in one hand entry. A record whose entries of
/// one piece add up to more (`60p60p`, which breaks the rules too) cannot be written back.
pub(super) fn writable(hands: &[Hand; 2]) -> bool {
    hands.iter().all(|h| h.0.iter().all(|n| *n <= MAX_HAND_COUNT))
}

/// The hand in canonical USI form. A count over 99, which no hand entry can write, is written
/// as it is (`str::parse` refuses a record whose entries add up to one).
pub fn canonical_hand(hands: &[Hand; 2]) -> String {
    let mut s = String::new();
    for color in [Color::Black, Color::White] {
        for kind in PieceKind::USI_HAND_ORDER {
            let n = hands[color.index()].count(kind);
            if n > 1 {
                s.push_str(&n.to_string());
            }
            if n > 0 {
                s.push(hand_letter((color, kind)));
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

fn hand_letter((color, kind): (Color, PieceKind)) -> char {
    match color {
        Color::Black => kind.letter(),
        Color::White => kind.letter().to_ascii_lowercase(),
    }
}

/// The hand-form warnings of `hand`. The canonical hand repairs them all at once, so one
/// finding carries it (the first that only it repairs); a count of 1 alone is repaired by
/// removing the count.
fn check_hand_form(hand: &super::ast::Hand, out: &mut Vec<Diagnostic>) {
    let entries = &hand.entries;
    // The common case, a canonical hand.
    if hand_is_canonical(entries.iter().map(|e| (e.piece.node, e.count.map(|c| c.node)))) {
        return;
    }
    // Worked out only for a hand with a finding: valid records pay nothing.
    let hands = || {
        let mut hands = [Hand::default(); 2];
        for e in entries {
            hands[e.piece.node.0.index()].add(e.piece.node.1, e.amount());
        }
        hands
    };
    let canonical = || canonical_hand(&hands());
    let merged = || writable(&hands()).then(canonical);
    let mut found = Vec::new();
    check_hand_repeats(entries, &merged, &mut found);
    if let Some(pair) = entries.windows(2).find(|w| usi_rank(w[1].piece.node) < usi_rank(w[0].piece.node)) {
        found.push(
            Diagnostic::warning(codes::sfen::HAND_ORDER, pair[1].span, "the hand is not in USI order")
                .label("out of order")
                .with(pair[0].span, "comes after this")
                .help(format!(
                    "USI lists Black's pieces before White's, each in the order R B G S N L P: write `{}`",
                    canonical()
                )),
        );
    }
    // Merged counts over two digits cannot be written: then there is no whole-hand fix.
    let whole_fix = || merged().map(|text| Fix::replace(hand.span, text, Applicability::Safe));
    let whole = match found.first_mut() {
        Some(first) => whole_fix().map(|fix| first.fixes.push(fix)).is_some(),
        None => false,
    };
    for entry in entries {
        if let Some(count) = entry.count.filter(|c| c.node == 1) {
            let diag = Diagnostic::warning(codes::sfen::HAND_COUNT_ONE, count.span, "a count of 1 is not written")
                .label("redundant count")
                .help(format!("write `{}` alone", hand_letter(entry.piece.node)));
            out.push(if whole { diag } else { diag.fix(Fix::replace(count.span, "", Applicability::Safe)) });
        }
    }
    out.append(&mut found);
}

/// One warning per piece listed more than once in `entries`, with a label on each listing;
/// `merged` is the hand with each piece listed once, when its counts can be written.
fn check_hand_repeats(entries: &[HandEntry], merged: &dyn Fn() -> Option<String>, out: &mut Vec<Diagnostic>) {
    let mut seen: [Option<&HandEntry>; 16] = [None; 16];
    for entry in entries {
        let key = usi_rank(entry.piece.node);
        if seen[key].is_none() {
            seen[key] = Some(entry);
        }
    }
    for first in seen.iter().flatten() {
        let again: Vec<&HandEntry> =
            entries.iter().filter(|e| e.piece.node == first.piece.node && e.span != first.span).collect();
        let Some(last) = again.last() else { continue };
        let (color, kind) = first.piece.node;
        let times = again.len() + 1;
        let mut diag = Diagnostic::warning(
            codes::sfen::HAND_REPEAT,
            last.span,
            format!(
                "{}'s {} are listed {}",
                color.name(),
                kind.plural(),
                if times == 2 { "twice".to_owned() } else { format!("{times} times") }
            ),
        )
        .label("listed again")
        .with(first.span, "first listed here");
        for e in &again[..again.len() - 1] {
            diag = diag.with(e.span, "listed again");
        }
        out.push(diag.help(match merged() {
            Some(text) => format!("list each piece once with its total count: `{text}`"),
            None => format!("list each piece once with its total count, at most {MAX_HAND_COUNT}"),
        }));
    }
}

/// The finding of a rule the position breaks, placed by `at` (squares) and `entries` (the
/// hand's entries); `side` is known when the violation is a check.
fn say(
    violation: &Violation,
    board: &Board,
    side: Option<Spanned<Color>>,
    entries: &[HandEntry],
    at: &dyn Fn(Square) -> Span,
) -> Diagnostic {
    match violation {
        Violation::TwoKings { color, kings } => two_kings(*color, kings, at),
        Violation::DeadPiece { square, piece } => dead_piece(*square, *piece, at),
        Violation::Nifu { color, file, pawns } => nifu(*color, *file, pawns, at),
        Violation::TooManyPieces { kind, total, in_hand, on_board } => {
            too_many_pieces(*kind, (*total, *in_hand), on_board, entries, at)
        }
        Violation::OppositeCheck { king, checkers } => {
            let (side, named) = check_parts(side, checkers, board, at);
            let (mover, waiting) = (side.node, side.node.opponent());
            findings::opposite_check(
                CHECK_WORDS.opposite,
                (at(*king), king.to_string()),
                &named,
                (side.span, mover.name(), waiting.name()),
                CHECK_WORDS.side_field,
            )
        }
        Violation::ImpossibleCheck { king, checkers, cause } => {
            let (side, named) = check_parts(side, checkers, board, at);
            let (mover, waiting) = (side.node, side.node.opponent());
            let why = match cause {
                ImpossibleCheck::TwoClose => Cow::Borrowed(
                    "no single move gives check with two pieces that are both next to the king or a knight's jump away",
                ),
                ImpossibleCheck::NoLastMove => Cow::Owned(findings::no_last_move(waiting.name(), mover.name())),
                ImpossibleCheck::MoreThanTwo => Cow::Borrowed("one move gives check with at most two pieces"),
            };
            findings::impossible_check(
                CHECK_WORDS.impossible,
                (at(*king), king.to_string()),
                mover.name(),
                &named,
                &why,
            )
        }
    }
}

/// The side to move of a check finding (the rules judge checks only when it is known), and the
/// pieces that give check, named and placed.
fn check_parts(
    side: Option<Spanned<Color>>,
    checkers: &[Square],
    board: &Board,
    at: &dyn Fn(Square) -> Span,
) -> (Spanned<Color>, Vec<Checker>) {
    let side = side.unwrap_or_else(|| Spanned::new(Color::Black, Span::default()));
    let named = checkers
        .iter()
        .map(|&sq| Checker {
            span: at(sq),
            name: format!("{} on {sq}", board.get(sq).map_or_else(String::new, |p| p.describe())),
        })
        .collect();
    (side, named)
}

fn two_kings(color: Color, kings: &[Square], at: &dyn Fn(Square) -> Span) -> Diagnostic {
    let (first, last) = (kings[0], kings[kings.len() - 1]);
    let mut diag =
        Diagnostic::error(codes::sfen::TWO_KINGS, at(last), format!("{} has {} kings", color.name(), kings.len()))
            .label(format!("another {} king", color.name()))
            .with(at(first), format!("{} king on {first}", color.name()))
            .help("each side has exactly one king: remove the extra ones");
    for sq in &kings[1..kings.len() - 1] {
        diag = diag.with(at(*sq), format!("{} king on {sq}", color.name()));
    }
    diag
}

/// The warning of a side without a king (a tsume problem leaves one out).
/// The sides without a king.
fn kingless(tally: &Tally) -> impl Iterator<Item = Color> + '_ {
    [Color::Black, Color::White].into_iter().filter(|c| tally.kings(*c) == 0)
}

fn missing_kings(tally: &Tally, board: Span, out: &mut Vec<Diagnostic>) {
    let missing: Vec<Color> = kingless(tally).collect();
    match missing.as_slice() {
        [] => {}
        [color] => out.push(
            Diagnostic::warning(codes::sfen::MISSING_KING, board, format!("{} has no king", color.name()))
                .label(format!(
                    "no {} king (`{}`) on the board",
                    color.name(),
                    if *color == Color::Black { 'K' } else { 'k' }
                ))
                .help("tsume problems leave out the attacker's king; any other position needs both kings"),
        ),
        _ => out.push(
            Diagnostic::warning(codes::sfen::MISSING_KING, board, "neither side has a king")
                .label("no `K` or `k` on the board")
                .help("a game position needs both kings; only a tsume problem leaves one out"),
        ),
    }
}

fn dead_piece(sq: Square, piece: Piece, at: &dyn Fn(Square) -> Span) -> Diagnostic {
    let where_ =
        if piece.kind == PieceKind::Knight { "either of its owner's last two ranks" } else { "its owner's last rank" };
    Diagnostic::error(codes::sfen::DEAD_PIECE, at(sq), format!("the {} on {sq} can never move", piece.describe()))
        .label(format!("an unpromoted {} on {where_}", piece.kind.name()))
        .help(format!(
            "an unpromoted {} cannot stand on {where_}: promote it (`+{}`) or move it",
            piece.kind.name(),
            piece.letter()
        ))
}

fn nifu(color: Color, file: u8, pawns: &[Square], at: &dyn Fn(Square) -> Span) -> Diagnostic {
    let (first, last) = (pawns[0], pawns[pawns.len() - 1]);
    let mut diag = Diagnostic::error(
        codes::sfen::NIFU,
        at(last),
        format!("{} has {} unpromoted pawns on file {file} (nifu)", color.name(), pawns.len()),
    )
    .label(format!("pawn on {last}"))
    .with(at(first), format!("pawn on {first}"));
    for sq in &pawns[1..pawns.len() - 1] {
        diag = diag.with(at(*sq), format!("pawn on {sq}"));
    }
    diag.help("a side may have only one unpromoted pawn on a file: promote the others (`+P`) or move them")
}

const CHECK_WORDS: CheckWords =
    CheckWords::new(codes::sfen::OPPOSITE_CHECK, codes::sfen::IMPOSSIBLE_CHECK, "side to move");

fn too_many_pieces(
    kind: PieceKind,
    (total, in_hand): (u32, u32),
    on_board: &[Square],
    entries: &[HandEntry],
    at: &dyn Fn(Square) -> Span,
) -> Diagnostic {
    let message = format!(
        "{total} {}, counting promoted ones: a set has {} ({} on the board, {in_hand} in hand)",
        kind.plural(),
        kind.supply(),
        on_board.len()
    );
    let hand_entries: Vec<&HandEntry> = entries.iter().filter(|e| e.piece.node.1 == kind).collect();
    let mut diag = if let Some(last) = hand_entries.last() {
        let mut d = Diagnostic::error(codes::sfen::TOO_MANY_PIECES, last.span, message)
            .label(format!("{} in hand", last.amount()));
        for e in &hand_entries[..hand_entries.len() - 1] {
            d = d.with(e.span, format!("{} in hand", e.amount()));
        }
        d
    } else {
        // Without the hand's entries (a position read without its tree), on the board.
        let last = on_board.last().map_or_else(Span::default, |sq| at(*sq));
        Diagnostic::error(codes::sfen::TOO_MANY_PIECES, last, message).label(format!("{} number {total}", kind.name()))
    };
    if kind != PieceKind::Pawn {
        let primary = diag.span();
        for sq in on_board.iter().filter(|sq| at(**sq) != primary).take(4) {
            diag = diag.with(at(*sq), format!("{} on {sq}", kind.name()));
        }
    }
    let extra = total - kind.supply();
    diag.help(format!("remove {extra} {}", if extra == 1 { kind.name() } else { kind.plural() }))
}

/// The side whose move `move_number` is, when a full set on the board and in `hands` (counted in
/// `tally`) says the game had no handicap and that side is not `side`: Black plays the odd plies
/// of such a game.
fn off_parity(tally: &Tally, hands: &[Hand; 2], side: Color, move_number: u64) -> Option<Color> {
    let totals = tally.totals(hands);
    let full = PieceKind::ALL.iter().all(|&kind| totals[kind.index()] == kind.supply());
    let expected = if move_number % 2 == 1 { Color::Black } else { Color::White };
    (full && expected != side).then_some(expected)
}

fn check_parity(tally: &Tally, hands: &[Hand; 2], side: Spanned<Color>, m: Spanned<u64>, out: &mut Vec<Diagnostic>) {
    if let Some(expected) = off_parity(tally, hands, side.node, m.node) {
        out.push(
            Diagnostic::warning(
                codes::sfen::MOVE_PARITY,
                m.span,
                format!(
                    "move {} is {}'s in a game without handicap, but {} is to move",
                    m.node,
                    expected.name(),
                    side.node.name()
                ),
            )
            .label(format!("{} move number", if m.node % 2 == 1 { "an odd" } else { "an even" }))
            .with(side.span, format!("{} to move", side.node.name()))
            .help("Black plays the odd moves of an even game: check the move number or the side to move"),
        );
    }
}
