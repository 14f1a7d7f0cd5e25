//! The rules a well-formed record must still follow: canonical form (warnings) and what a
//! shogi position can be (errors), each finding pointing at the squares or hand entries at
//! fault.
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
use crate::shogi::{retro, Board, Color, Hand, Piece, PieceKind, Square};
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

/// The pieces of a board, counted for every check (nothing allocated): the checks look
/// further only where the counts show a fault. Counted in one pass over the board
/// ([`Tally::of`]), or piece by piece as a reader places them ([`Tally::add`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Pieces per kind (promoted ones as their base kind), both colours together.
    counts: [u32; 8],
    /// How many kings each colour has, and where its first one stands.
    kings: [(u32, Option<Square>); 2],
    /// Some piece can never move ([`Piece::is_dead_on`]).
    dead: bool,
    /// Per colour, a bit for each file (1 << file) that holds an unpromoted pawn.
    seen: [u16; 2],
    /// Per colour, a bit for each file that holds more than one.
    twice: [u16; 2],
}

impl Tally {
    /// Counts `piece` on `square`; pieces are added in SFEN order (the first king found is the
    /// one named).
    #[inline]
    pub fn add(&mut self, square: Square, piece: Piece) {
        self.counts[piece.kind.index()] += 1;
        match piece.kind {
            PieceKind::King => {
                let k = &mut self.kings[piece.color.index()];
                k.0 += 1;
                k.1 = k.1.or(Some(square));
            }
            PieceKind::Pawn if !piece.promoted => {
                let (bit, c) = (1 << square.file(), piece.color.index());
                self.twice[c] |= self.seen[c] & bit;
                self.seen[c] |= bit;
            }
            _ => {}
        }
        self.dead |= piece.is_dead_on(square);
    }

    /// True when `color` has more than one king.
    fn two_kings(&self, color: Color) -> bool {
        too_many_kings(self.kings[color.index()].0)
    }

    /// The pieces of `kind` on the board and in `hands` together, and how many of them are in
    /// hand, when that is more than a set holds (never for kings, which are counted apart).
    fn oversupplied(&self, kind: PieceKind, hands: &[Hand; 2]) -> Option<(u32, u32)> {
        let in_hand = hands[0].count(kind) + hands[1].count(kind);
        let total = self.counts[kind.index()] + in_hand;
        exceeds_supply(kind, total).then_some((total, in_hand))
    }

    /// The pieces of each kind (by [`PieceKind::index`]) on the board and in `hands` together,
    /// and each colour's kings.
    pub(super) fn supply(&self, hands: &[Hand; 2]) -> ([u32; 8], [u32; 2]) {
        let mut totals = self.counts;
        for kind in PieceKind::ALL {
            totals[kind.index()] += hands[0].count(kind) + hands[1].count(kind);
        }
        (totals, [self.kings[0].0, self.kings[1].0])
    }

    /// True when the counts alone show that the position breaks a rule: a side has two kings,
    /// a piece can never move, a side has two unpromoted pawns on a file, or there are more
    /// pieces of a kind than a set holds (with `hands`). [`rules`] then finds an error.
    pub fn breaks_counts(&self, hands: &[Hand; 2]) -> bool {
        let (totals, kings) = self.supply(hands);
        self.dead || self.twice != [0, 0] || breaks_supply(&totals, &kings)
    }

    /// The tally of `board`.
    pub fn of(board: &Board) -> Self {
        let mut tally = Self::default();
        for (i, p) in board.0.iter().enumerate() {
            if let (Some(p), Some(sq)) = (p, Square::from_index(i)) {
                tally.add(sq, *p);
            }
        }
        tally
    }
}

/// True when `total` pieces of `kind` (on the board and in hand, promoted ones counted) are more
/// than a set holds: `sfen::too-many-pieces`. Kings are counted apart ([`too_many_kings`]).
fn exceeds_supply(kind: PieceKind, total: u32) -> bool {
    kind != PieceKind::King && total > kind.supply()
}

/// True when a side has more kings than one: `sfen::two-kings`.
const fn too_many_kings(kings: u32) -> bool {
    kings > 1
}

/// True when the pieces of some kind, `totals` (by [`PieceKind::index`], on the board and in
/// hand), are more than a set holds, or a side has more kings than one (each colour's `kings`).
pub(super) fn breaks_supply(totals: &[u32; 8], kings: &[u32; 2]) -> bool {
    PieceKind::ALL.iter().any(|&kind| exceeds_supply(kind, totals[kind.index()]))
        || kings.iter().any(|&k| too_many_kings(k))
}

/// A board and its [`Tally`].
struct Census<'a> {
    board: &'a Board,
    tally: Tally,
}

impl std::ops::Deref for Census<'_> {
    type Target = Tally;

    fn deref(&self) -> &Tally {
        &self.tally
    }
}

impl Census<'_> {
    /// Every piece and its square, in SFEN order.
    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board.0.iter().enumerate().filter_map(|(i, p)| Some((Square::from_index(i)?, (*p)?)))
    }

    /// The king of `color`, when it has exactly one.
    fn king(&self, color: Color) -> Option<Square> {
        match self.kings[color.index()] {
            (1, sq) => sq,
            _ => None,
        }
    }

    /// Every king of `color`, in SFEN order.
    fn kings_of(&self, color: Color) -> Vec<Square> {
        self.pieces().filter(|(_, p)| p.color == color && p.kind == PieceKind::King).map(|(s, _)| s).collect()
    }
}

/// Where the findings of the rules point: the parts of a record's syntax tree, or nowhere, for
/// a position read without one ([`Unplaced`]), whose findings are only counted.
pub trait Places {
    /// The cell that writes `square` (for an empty square, its run).
    fn square(&self, square: Square) -> Span;
    /// The board field.
    fn board(&self) -> Span;
    /// The entries of the hand field, in the order written.
    fn hand_entries(&self) -> &[HandEntry];
}

/// The places of a syntax tree's parts.
struct Tree<'a> {
    field: &'a super::ast::BoardField,
    hand: &'a [HandEntry],
}

impl Places for Tree<'_> {
    fn square(&self, square: Square) -> Span {
        square_span(self.field, square)
    }
    fn board(&self) -> Span {
        self.field.span
    }
    fn hand_entries(&self) -> &[HandEntry] {
        self.hand
    }
}

/// No places: the findings of a position read straight from its text, where all that matters
/// is whether there are any (see [`super::fast::clean`]).
pub struct Unplaced;

impl Places for Unplaced {
    fn square(&self, _: Square) -> Span {
        Span::default()
    }
    fn board(&self) -> Span {
        Span::default()
    }
    fn hand_entries(&self) -> &[HandEntry] {
        &[]
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
    let places = Tree { field, hand: hand.map_or(&[], |h| h.entries.as_slice()) };
    rules(board, Tally::of(board), side, hands.as_ref(), move_number, &places, out);
}

/// Adds to `out` every rule of shogi the position breaks: its board (and its `tally`), the
/// side to move, the hands and the move number, those that are known (a part that could not be
/// read is not judged), with spans from `places`.
pub fn rules(
    board: &Board,
    tally: Tally,
    side: Option<Spanned<Color>>,
    hands: Option<&[Hand; 2]>,
    move_number: Option<Spanned<u64>>,
    places: &dyn Places,
    out: &mut Vec<Diagnostic>,
) {
    let at = |sq: Square| places.square(sq);
    let census = Census { board, tally };
    check_kings(&census, places.board(), &at, out);
    check_dead_pieces(&census, &at, out);
    check_nifu(&census, &at, out);
    if let Some(side) = side {
        check_checks(board, &census, side, hands, &at, out);
    }
    match hands {
        Some(hands) => {
            check_supply(&census, hands, places.hand_entries(), &at, out);
            if let (Some(side), Some(m)) = (side, move_number) {
                check_parity(&census, hands, side, m, out);
            }
        }
        // Without a readable hand, what the board alone holds can still be too much.
        None => check_supply(&census, &[Hand::default(); 2], &[], &at, out),
    }
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

/// The hand in canonical USI form (a count over 99, which no record can write, is written as
/// it is: see [`writable`]).
pub fn canonical_hand(hands: &[Hand; 2]) -> String {
    let mut s = String::new();
    for color in [Color::Black, Color::White] {
        for kind in PieceKind::USI_HAND_ORDER {
            let n = hands[color.index()].count(kind);
            if n > 1 {
                s.push_str(&n.to_string());
            }
            if n > 0 {
                let c = kind.letter();
                s.push(if color == Color::Black { c } else { c.to_ascii_lowercase() });
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

fn check_kings(census: &Census<'_>, board: Span, at: &dyn Fn(Square) -> Span, out: &mut Vec<Diagnostic>) {
    let mut missing = Vec::new();
    for color in [Color::Black, Color::White] {
        let kings = if census.two_kings(color) { census.kings_of(color) } else { Vec::new() };
        if census.kings[color.index()].0 == 0 {
            missing.push(color);
            continue;
        }
        match kings.as_slice() {
            [] | [_] => {}
            [first, rest @ ..] => {
                let mut diag = Diagnostic::error(
                    codes::sfen::TWO_KINGS,
                    at(rest[rest.len() - 1]),
                    format!("{} has {} kings", color.name(), kings.len()),
                )
                .label(format!("another {} king", color.name()))
                .with(at(*first), format!("{} king on {first}", color.name()))
                .help("each side has exactly one king: remove the extra ones");
                for sq in &rest[..rest.len() - 1] {
                    diag = diag.with(at(*sq), format!("{} king on {sq}", color.name()));
                }
                out.push(diag);
            }
        }
    }
    let span = board;
    match missing.as_slice() {
        [] => {}
        [color] => out.push(
            Diagnostic::warning(codes::sfen::MISSING_KING, span, format!("{} has no king", color.name()))
                .label(format!(
                    "no {} king (`{}`) on the board",
                    color.name(),
                    if *color == Color::Black { 'K' } else { 'k' }
                ))
                .help("tsume problems leave out the attacker's king; any other position needs both kings"),
        ),
        _ => out.push(
            Diagnostic::warning(codes::sfen::MISSING_KING, span, "neither side has a king")
                .label("no `K` or `k` on the board")
                .help("a game position needs both kings; only a tsume problem leaves one out"),
        ),
    }
}

fn check_dead_pieces(census: &Census<'_>, at: &dyn Fn(Square) -> Span, out: &mut Vec<Diagnostic>) {
    if !census.dead {
        return;
    }
    for (sq, piece) in census.pieces() {
        if piece.is_dead_on(sq) {
            let where_ = if piece.kind == PieceKind::Knight {
                "either of its owner's last two ranks"
            } else {
                "its owner's last rank"
            };
            out.push(
                Diagnostic::error(
                    codes::sfen::DEAD_PIECE,
                    at(sq),
                    format!("the {} on {sq} can never move", piece.describe()),
                )
                .label(format!("an unpromoted {} on {where_}", piece.kind.name()))
                .help(format!(
                    "an unpromoted {} cannot stand on {where_}: promote it (`+{}`) or move it",
                    piece.kind.name(),
                    piece.letter()
                )),
            );
        }
    }
}

fn check_nifu(census: &Census<'_>, at: &dyn Fn(Square) -> Span, out: &mut Vec<Diagnostic>) {
    let is_pawn = |p: &Piece| p.kind == PieceKind::Pawn && !p.promoted;
    let twice = census.twice;
    for color in [Color::Black, Color::White] {
        for file in (1..=9u8).rev().filter(|f| twice[color.index()] & (1 << f) != 0) {
            let pawns: Vec<Square> = census
                .pieces()
                .filter(|(sq, p)| is_pawn(p) && p.color == color && sq.file() == file)
                .map(|(sq, _)| sq)
                .collect();
            if let [first, rest @ .., last] = pawns.as_slice() {
                let mut diag = Diagnostic::error(
                    codes::sfen::NIFU,
                    at(*last),
                    format!("{} has {} unpromoted pawns on file {file} (nifu)", color.name(), pawns.len()),
                )
                .label(format!("pawn on {last}"))
                .with(at(*first), format!("pawn on {first}"));
                for sq in rest {
                    diag = diag.with(at(*sq), format!("pawn on {sq}"));
                }
                out.push(diag.help(
                    "a side may have only one unpromoted pawn on a file: promote the others (`+P`) or move them",
                ));
            }
        }
    }
}

/// True when the piece on `from` gives check from a distance along a line, which a move of
/// another piece can uncover (a discovered check).
fn distant_slider(board: &Board, from: Square, king: Square) -> bool {
    let Some(piece) = board.get(from) else {
        return false;
    };
    let line = matches!(piece.kind, PieceKind::Rook | PieceKind::Bishop)
        || (piece.kind == PieceKind::Lance && !piece.promoted);
    let dist = (i16::from(from.file()) - i16::from(king.file()))
        .abs()
        .max((i16::from(from.rank()) - i16::from(king.rank())).abs());
    line && dist >= 2
}

/// The checks no game reaches: the side not to move in check, or the mover checked by more
/// pieces (or in other ways) than one move brings about; `hands`, when known, tell whether the
/// last move can have taken a piece.
fn check_checks(
    board: &Board,
    census: &Census<'_>,
    side: Spanned<Color>,
    hands: Option<&[Hand; 2]>,
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    let (mover, waiting) = (side.node, side.node.opponent());
    // A piece taken goes to the taker's hand.
    let can_take = hands.is_none_or(|h| !h[waiting.index()].is_empty());
    // A king next to the other is the finding of the side not to move in check.
    let king = |a: Square| board.get(a).is_some_and(|p| p.kind == PieceKind::King);
    let no_last_move = |a: Square, b: Square, king_sq: Square| {
        !king(a) && !king(b) && !retro::some_last_move(board, king_sq, waiting, can_take)
    };
    findings::check_checks(
        &CHECK_WORDS,
        [census.king(waiting), census.king(mover)],
        |king, movers| board.attackers(king, if movers { waiting } else { mover }),
        |checkers, king| match *checkers {
            [] | [_] => None,
            [a, b] if !distant_slider(board, a, king) && !distant_slider(board, b, king) => Some(Cow::Borrowed(
                "no single move gives check with two pieces that are both next to the king or a knight's jump away",
            )),
            [a, b] if no_last_move(a, b, king) => {
                Some(Cow::Owned(findings::no_last_move(waiting.name(), mover.name())))
            }
            [_, _] => None,
            _ => Some(Cow::Borrowed("one move gives check with at most two pieces")),
        },
        |sq| Checker {
            span: at(sq),
            name: format!("{} on {sq}", board.get(sq).map_or_else(String::new, |p| p.describe())),
        },
        (side.span, mover.name(), waiting.name()),
        out,
    );
}

const CHECK_WORDS: CheckWords =
    CheckWords::new(codes::sfen::OPPOSITE_CHECK, codes::sfen::IMPOSSIBLE_CHECK, "side to move");

fn check_supply(
    census: &Census<'_>,
    hands: &[Hand; 2],
    entries: &[HandEntry],
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    // (Two kings on one side is a finding of its own.)
    for kind in PieceKind::ALL {
        let Some((total, in_hand)) = census.oversupplied(kind, hands) else { continue };
        let on_board: Vec<Square> = census.pieces().filter(|(_, p)| p.kind == kind).map(|(s, _)| s).collect();
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
            Diagnostic::error(codes::sfen::TOO_MANY_PIECES, last, message)
                .label(format!("{} number {total}", kind.name()))
        };
        if kind != PieceKind::Pawn {
            let primary = diag.span();
            for sq in on_board.iter().filter(|sq| at(**sq) != primary).take(4) {
                diag = diag.with(at(*sq), format!("{} on {sq}", kind.name()));
            }
        }
        out.push(diag.help(format!(
            "remove {} {}",
            total - kind.supply(),
            if total - kind.supply() == 1 { kind.name() } else { kind.plural() }
        )));
    }
}

fn check_parity(
    census: &Census<'_>,
    hands: &[Hand; 2],
    side: Spanned<Color>,
    m: Spanned<u64>,
    out: &mut Vec<Diagnostic>,
) {
    // Only a full set tells that the game had no handicap, where Black plays the odd plies.
    let full = PieceKind::ALL.iter().all(|&kind| {
        let n = census.counts[kind.index()] + hands[0].count(kind) + hands[1].count(kind);
        n == kind.supply()
    });
    let expected = if m.node % 2 == 1 { Color::Black } else { Color::White };
    if full && expected != side.node {
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
