//! The fast path: the grammar's record rules compiled to DFAs; a record they accept is read
//! straight off its bytes (with the placement's shape reporting a rank of the wrong width, which
//! the grammar does not count, as the builder does). Anything else returns `None` and goes
//! through pest and [`super::build`].

use std::sync::OnceLock;

use super::ast::{Castling, Cell, Dialect, Placement, Record};
use super::parser::Rule;
use super::{token, validate, Kind};
#[cfg(feature = "internals")]
use super::Position;
use crate::chess::CastleRight;
use crate::diagnostic::Diagnostic;
use crate::notation::grammar::{RuleDfa, Run, Shipped};
use crate::notation::grid::{walk_accepted_cells, ByteMap, CellDecoder, Letters};
use crate::span::{Span, Spanned};

/// The grammar, read once: its regular rules compile to automata.
pub(crate) static GRAMMAR: Shipped = Shipped::new("fen");

/// The record rule of `kind` in `dialect`.
pub fn record_rule(kind: Kind, dialect: Dialect) -> Rule {
    match (kind, dialect) {
        (Kind::Fen, Dialect::Standard) => Rule::fen_record,
        (Kind::Fen, Dialect::Chess960) => Rule::fen960_record,
        (Kind::Epd, Dialect::Standard) => Rule::epd_record,
        (Kind::Epd, Dialect::Chess960) => Rule::epd960_record,
    }
}

/// The automaton for the record rule of `kind` in `dialect`.
pub fn automaton(kind: Kind, dialect: Dialect) -> Option<&'static RuleDfa> {
    static FEN: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static FEN960: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static EPD: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static EPD960: OnceLock<Option<RuleDfa>> = OnceLock::new();
    let cell = match (kind, dialect) {
        (Kind::Fen, Dialect::Standard) => &FEN,
        (Kind::Fen, Dialect::Chess960) => &FEN960,
        (Kind::Epd, Dialect::Standard) => &EPD,
        (Kind::Epd, Dialect::Chess960) => &EPD960,
    };
    GRAMMAR.compile(cell, record_rule(kind, dialect))
}

/// The automaton for EPD operations alone (`epd_operations_field`).
pub fn operations() -> Option<&'static RuleDfa> {
    static OPS: OnceLock<Option<RuleDfa>> = OnceLock::new();
    GRAMMAR.compile(&OPS, Rule::epd_operations_field)
}

/// True when `text` matches the record rule of `kind` in `dialect` exactly.
pub fn matches(text: &str, kind: Kind, dialect: Dialect) -> bool {
    automaton(kind, dialect).is_some_and(|d| d.is_match(text))
}

/// The squares a character of a placement covers: a digit its value, a piece letter one;
/// `None` for a character no placement holds.
fn square_width(b: u8) -> Option<u32> {
    token::cell_bytes(&[b]).map(|c| c.width())
}

/// [`square_width`] of every byte, found once.
pub(crate) fn square_widths() -> &'static ByteMap {
    static WIDTHS: OnceLock<ByteMap> = OnceLock::new();
    WIDTHS.get_or_init(|| ByteMap::of(square_width))
}

/// The pieces of a record's placement, counted once from its letters ([`Letters`]) whatever
/// the widths of its ranks, so that a repair search can refuse at once an edit of the placement
/// that leaves a side without exactly one king, or with material no game reaches: an edit of
/// the placement changes the counts by the pieces it writes less those it removes.
pub(crate) struct Material(Letters<'static, 12>);

/// The piece each byte of a placement writes, by colour then [`crate::chess::Role::index`],
/// found once.
fn letter_roles() -> &'static ByteMap {
    static ROLES: OnceLock<ByteMap> = OnceLock::new();
    ROLES.get_or_init(|| {
        ByteMap::of(|b| match token::cell_bytes(&[b])? {
            Cell::Piece(p) => Some((p.color.index() * 6 + p.role.index()) as u32),
            _ => None,
        })
    })
}

impl Material {
    /// The counts of `text`'s placement (its first field).
    pub fn of(text: &str) -> Self {
        Self(Letters::of(text, letter_roles()))
    }

    /// True when writing `written` over the bytes `span` of `text` (the record these counts are
    /// of), within its placement, leaves counts that break a rule wherever the pieces stand
    /// ([`crate::chess::violation::breaks_material`]). False when the edit reaches past the
    /// placement or writes a space.
    pub fn refuse(&self, text: &str, span: Span, written: &[u8]) -> bool {
        let Some(c) = self.0.after(text, span, written) else { return false };
        let counts = [std::array::from_fn(|i| c[i]), std::array::from_fn(|i| c[6 + i])];
        crate::chess::violation::breaks_material(&counts)
    }
}

/// The syntax tree of `text` if it is a well-formed record whose ranks all cover 8 squares and
/// whose castling rights are listed once each.
#[inline]
pub fn parse(text: &str, kind: Kind, dialect: Dialect) -> Option<Record> {
    match tree(text, kind, dialect)? {
        (record, true) => Some(record),
        (_, false) => None,
    }
}

/// The syntax tree of `text` and its findings, when the grammar accepts the record: the only
/// faults such a record can have are ranks of other than eight squares, which the placement's
/// shape reports, as [`super::build`] does for them (a test holds the two to the same tree and
/// the same findings). `None` for any other text, which the builder reads.
pub fn read(text: &str, kind: Kind, dialect: Dialect) -> Option<(Record, Vec<Diagnostic>)> {
    let (record, regular) = tree(text, kind, dialect)?;
    let findings =
        record.placement.as_ref().map_or_else(Vec::new, |b| b.accepted_findings::<super::shape::Shape>(regular));
    Some((record, findings))
}

/// The syntax tree of a record the grammar accepts, and true when its ranks are eight squares
/// each.
#[inline]
fn tree(text: &str, kind: Kind, dialect: Dialect) -> Option<(Record, bool)> {
    if !matches(text, kind, dialect) {
        return None;
    }
    // The automaton vouched for the shape: fields at single spaces (EPD operations may hold
    // more spaces; they are one field from the fifth on).
    let max = if kind == Kind::Epd { 5 } else { 6 };
    let mut bounds = [(0usize, text.len()); 6];
    let mut n = 1;
    for (i, b) in text.bytes().enumerate() {
        if b == b' ' && n < max {
            bounds[n - 1].1 = i;
            bounds[n] = (i + 1, text.len());
            n += 1;
        }
    }
    let mut fields = bounds[..n].iter().map(|&(a, b)| (text.get(a..b).unwrap_or(""), Span::new(a, b)));
    let (placement_text, placement_span) = fields.next()?;
    let (side_text, side_span) = fields.next()?;
    let (castling_text, castling_span) = fields.next()?;
    let (ep_text, ep_span) = fields.next()?;
    let (placement, regular) = read_placement(placement_text, placement_span)?;
    let mut record = Record {
        span: Span::new(0, text.len()),
        placement: Some(placement),
        side: Some(Spanned::new(token::side(side_text)?, side_span)),
        castling: Some(read_castling(castling_text, castling_span)?),
        en_passant: Some(Spanned::new(token::en_passant(ep_text)?, ep_span)),
        halfmove: None,
        fullmove: None,
        operations: None,
    };
    match kind {
        Kind::Fen => {
            let (h, hs) = fields.next()?;
            let (f, fs) = fields.next()?;
            record.halfmove = Some(Spanned::new(token::counter(h)?, hs));
            record.fullmove = Some(Spanned::new(token::counter(f)?, fs));
        }
        Kind::Epd => record.operations = fields.next().map(|(_, s)| Span::new(s.start, text.len())),
    }
    Some((record, regular))
}

fn read_placement(text: &str, span: Span) -> Option<(Placement, bool)> {
    // Every token is one character.
    Placement::read_accepted(text, span, 8, 8, |_| 1, token::cell_bytes)
}

fn read_castling(text: &str, span: Span) -> Option<Castling> {
    let mut rights: Vec<Spanned<CastleRight>> = Vec::new();
    if text != "-" {
        for i in 0..text.len() {
            let right = token::castle_right(text.get(i..i + 1)?)?;
            if rights.iter().any(|r| r.node == right) {
                return None; // a repeated right: the recovery path explains it
            }
            rights.push(Spanned::new(right, Span::new(span.start + i, span.start + i + 1)));
        }
    }
    Some(Castling { span, rights })
}

/// Most castling rights a record read straight from its bytes lists: two for each side. A
/// record with more lists two on one side of a king, which the full reading explains.
const MOST_RIGHTS: usize = 4;

/// A FEN record read straight from its bytes, as [`clean`] reads it.
#[derive(Clone)]
struct Quick {
    board: crate::chess::Board,
    tally: crate::chess::violation::Tally,
    side: crate::chess::Color,
    rights: [Spanned<CastleRight>; MOST_RIGHTS],
    listed: usize,
    en_passant: Option<crate::chess::Square>,
    halfmove: u64,
    fullmove: u64,
    /// No form warning: no split run of blank squares, the castling rights in order.
    canonical: bool,
}

impl Quick {
    /// A record not read yet, to be filled by [`read_quick`].
    fn empty() -> Self {
        let none = Spanned::new(
            CastleRight { color: crate::chess::Color::White, side: crate::chess::CastleSide::King },
            Span::default(),
        );
        Quick {
            board: crate::chess::Board::default(),
            tally: crate::chess::violation::Tally::default(),
            side: crate::chess::Color::White,
            rights: [none; MOST_RIGHTS],
            listed: 0,
            en_passant: None,
            halfmove: 0,
            fullmove: 0,
            canonical: false,
        }
    }
}

/// The FEN record `text` read straight from its bytes, when the automaton of `dialect` accepts
/// it, every rank covers eight squares and it lists at most four castling rights, none twice
/// (`None` for any other record).
fn quick(text: &str, dialect: Dialect) -> Option<Quick> {
    let mut q = Quick::empty();
    read_quick(text, dialect, &mut q)?;
    Some(q)
}

/// [`quick`] into `q`, an empty record ([`Quick::empty`]), filled in place: a caller that only
/// looks at it does not copy the board out. `q` is left part filled on `None`.
fn read_quick(text: &str, dialect: Dialect, q: &mut Quick) -> Option<()> {
    // The record is read as if the automaton had accepted it, and refused at the end unless it
    // does: the walk of the placement feeds the automaton its bytes, so that the automaton's
    // steps overlap the walk's work. (Any text reads to some answer, or to `None`, safely.)
    let mut run = automaton(Kind::Fen, dialect)?.run()?;
    // Six fields at single spaces, when the automaton accepts the record.
    let mut fields = crate::notation::fields::accepted_fields(text);
    let (placement, side, castling) = (fields.next()?, fields.next()?, fields.next()?);
    let (en_passant, halfmove, fullmove) = (fields.next()?, fields.next()?, fields.next()?);
    let whole = quick_board(placement, q, &mut run)?;
    // The walk read every byte of the placement, the first field. The automaton's steps over
    // the rest, each waiting on the one before, overlap the reading of the fields below.
    run.feed_all(text.as_bytes().get(placement.len()..)?);
    read_fields([side, castling, en_passant, halfmove, fullmove], q)?;
    if !run.accepts() {
        return None;
    }
    q.canonical = whole && q.rights_in_order();
    Some(())
}

/// Reads the fields after the placement (the side to move, the castling rights, the en passant
/// square and the two counters) into `q`; `None` for a castling right listed twice, which the
/// full reading explains, or a field no token reads.
#[inline(always)]
fn read_fields([side, castling, en_passant, halfmove, fullmove]: [&str; 5], q: &mut Quick) -> Option<()> {
    if castling != "-" {
        for i in 0..castling.len() {
            let right = token::castle_right(castling.get(i..i + 1)?)?;
            if q.rights[..q.listed].iter().any(|r| r.node == right) {
                return None; // a repeated right: the full reading explains it
            }
            *q.rights.get_mut(q.listed)? = Spanned::new(right, Span::default());
            q.listed += 1;
        }
    }
    q.side = token::side(side)?;
    q.en_passant = token::en_passant(en_passant)?;
    q.halfmove = token::counter(halfmove)?;
    q.fullmove = token::counter(fullmove)?;
    Some(())
}

/// The tokens of a placement, one byte each, for [`walk_accepted_cells`].
static CELLS: std::sync::LazyLock<CellDecoder<crate::chess::Piece>> =
    std::sync::LazyLock::new(|| CellDecoder::new(|_| 1, token::cell_bytes, crate::chess::PieceSets::slot));

/// Places the pieces of a placement on `board` (an empty one), and counts them in `tally`:
/// whether no run of blank squares is split, or `None` unless it has eight ranks of eight
/// squares. The bytes read go to `run`: the placement is only read right when the automaton
/// accepts its record. (Kept out of line: in the reader's body, the walk's values would not all
/// fit in the registers.)
#[inline(never)]
fn quick_board(text: &str, q: &mut Quick, run: &mut Run<'_>) -> Option<bool> {
    // A copy of the run, which stays in a register: the run behind `run` would be stored at
    // every byte, and each step would wait on the store. (The board and the tally are reached
    // through `q`, one register.)
    let mut local = *run;
    let read = walk_accepted_cells(
        text,
        8,
        8,
        &CELLS,
        |b| local.feed(b),
        |i, p, slot| {
            *q.board.0.get_mut(i)? = p;
            q.tally.add_to_slot(crate::chess::Square::from_index(i)?, slot);
            Some(())
        },
    );
    *run = local;
    read
}

impl Quick {
    /// What the rules say of the record ([`validate::verdict`], the rules [`super::check`]
    /// runs): the number of its warnings, or `None` when it breaks a rule.
    fn verdict(&self, dialect: Dialect) -> Option<usize> {
        fn at<T>(node: T) -> Option<Spanned<T>> {
            Some(Spanned::new(node, Span::default()))
        }
        let facts = validate::Facts {
            board: Some((&self.board, &self.tally)),
            side: at(self.side),
            castling: Some(&self.rights[..self.listed]),
            en_passant: at(self.en_passant),
            halfmove: at(self.halfmove),
            fullmove: at(self.fullmove),
        };
        validate::verdict(&facts, dialect)
    }

    /// True when the record has no finding: in canonical form, and keeping every rule.
    fn is_clean(&self, dialect: Dialect) -> bool {
        self.canonical && self.verdict(dialect) == Some(0)
    }

    /// Takes the pieces of the `r`th rank of the placement off the board and out of the tally.
    fn clear_rank(&mut self, r: usize) {
        if let Some(squares) = self.board.0.get_mut(r * 8..r * 8 + 8) {
            squares.fill(None);
        }
        self.tally.keep(!(0xFF << (8 * r)));
    }

    /// True when the castling rights are listed in the order of the standard, `KQkq`.
    fn rights_in_order(&self) -> bool {
        validate::castling_in_order(self.rights[..self.listed].iter().map(|r| r.node))
    }

    /// What [`verdict`] says of `text`, the record read into `self`.
    fn judged(&self, text: &str, dialect: Dialect) -> Option<(usize, crate::notation::repair::Likeness)> {
        let mut warnings = self.verdict(dialect)?;
        let rights: [CastleRight; MOST_RIGHTS] = std::array::from_fn(|i| self.rights[i].node);
        if !self.canonical {
            // The form warnings the full check adds: one for each run of blank squares written
            // with several digits, one for rights out of order.
            let placement = text.split(' ').next().unwrap_or_default();
            warnings += crate::notation::grid::split_runs(placement);
            warnings += usize::from(!self.rights_in_order());
        }
        let numbers = Some((self.halfmove, self.fullmove));
        Some((warnings, self.board.likeness_with(self.tally.sets(), self.side, &rights[..self.listed], numbers)))
    }
}

/// What the rules say of the FEN record `text` read straight from its bytes, for a repair
/// search: `Some(None)` when it breaks one, `Some(Some((n, likeness)))` when it is valid with
/// `n` findings, all warnings (and its board's [`crate::chess::Board::likeness`]); `None` when
/// it cannot be read so (a rank of the wrong width, a castling right listed twice), and must be
/// read in full.
pub(crate) fn verdict(text: &str, dialect: Dialect) -> Option<Option<(usize, crate::notation::repair::Likeness)>> {
    quick(text, dialect).map(|q| q.judged(text, dialect))
}

/// A FEN record read rank by rank for a repair search, whose candidates each differ from it in
/// one place: [`verdict`] of a candidate that edits within one rank of the placement, read
/// from that rank's bytes alone, the other ranks and the other fields taken from here.
pub(crate) struct Near<'a> {
    text: &'a str,
    /// Each rank's bytes in `text`.
    ranks: [Span; 8],
    /// A bit for each rank that reads as eight squares.
    read: u8,
    /// A bit for each rank that reads, and splits a run of blank squares.
    split: u8,
    /// The record with the ranks that read placed and its other fields read.
    base: Quick,
}

impl<'a> Near<'a> {
    /// `text` read rank by rank, when its placement has eight ranks and its other fields read.
    pub fn of(text: &'a str) -> Option<Self> {
        let mut base = Quick::empty();
        let mut fields = crate::notation::fields::accepted_fields(text);
        let placement = fields.next()?;
        let rest: [&str; 5] = [fields.next()?, fields.next()?, fields.next()?, fields.next()?, fields.next()?];
        read_fields(rest, &mut base)?;
        let mut near = Near { text, ranks: [Span::default(); 8], read: 0, split: 0, base };
        let (mut start, mut count) = (0, 0);
        let mut ranks = placement.split('/');
        for (r, rank) in ranks.by_ref().take(8).enumerate() {
            count += 1;
            near.ranks[r] = Span::new(start, start + rank.len());
            start += rank.len() + 1;
            match place_rank(rank, r, &mut near.base) {
                Some(whole) => {
                    near.read |= 1 << r;
                    near.split |= u8::from(!whole) << r;
                }
                None => near.base.clear_rank(r),
            }
        }
        (count == 8 && ranks.next().is_none()).then_some(near)
    }

    /// [`verdict`] of `candidate`, a record the automaton accepts, when it edits within one
    /// rank and the others read; `None` for any other.
    pub fn verdict(&self, candidate: &str, dialect: Dialect) -> Option<Option<(usize, crate::notation::repair::Likeness)>> {
        let (old, new) = (self.text.as_bytes(), candidate.as_bytes());
        // The bytes the edit replaced: after the bytes the two share at the start, before
        // those they share at the end.
        let same_start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let most = old.len().min(new.len()) - same_start;
        let same_end = old.iter().rev().zip(new.iter().rev()).take(most).take_while(|(a, b)| a == b).count();
        let edited = Span::new(same_start, old.len() - same_end);
        let r = self.ranks.iter().position(|rank| rank.start <= edited.start && edited.end <= rank.end)?;
        if self.read | 1 << r != u8::MAX {
            return None; // another rank does not read
        }
        let rank = self.ranks[r];
        let written = candidate.get(rank.start..(rank.end + new.len()).checked_sub(old.len())?)?;
        if written.contains(['/', ' ']) {
            return None;
        }
        let mut q = self.base.clone();
        q.clear_rank(r);
        let whole = place_rank(written, r, &mut q)?;
        q.canonical = whole && self.split & !(1 << r) == 0 && q.rights_in_order();
        Some(q.judged(candidate, dialect))
    }
}

/// Places the pieces of `rank`, the `r`th rank of a placement, on `q`'s board (whose squares
/// of that rank are empty), and counts them in its tally: whether no run of blank squares is
/// split, or `None` unless it covers eight squares (then some of its pieces may be placed, none
/// off its squares).
fn place_rank(rank: &str, r: usize, q: &mut Quick) -> Option<bool> {
    walk_accepted_cells(
        rank,
        8,
        1,
        &CELLS,
        |_| {},
        |i, p, slot| {
            // A piece past the rank's end: the walk stops there.
            let i = r * 8 + (i < 8).then_some(i)?;
            *q.board.0.get_mut(i)? = p;
            q.tally.add_to_slot(crate::chess::Square::from_index(i)?, slot);
            Some(())
        },
    )
}

/// True when the FEN record `text` has no finding at all (see [`clean`]), found without a
/// syntax tree and without allocating.
pub fn is_clean(text: &str, dialect: Dialect) -> bool {
    // Looked at where it was made: returned, it would be copied (some 300 bytes).
    let mut q = Quick::empty();
    read_quick(text, dialect, &mut q).is_some() && q.is_clean(dialect)
}

/// The position of the FEN record `text` when it has no finding at all: the automaton of
/// `dialect` accepts it, every rank covers eight squares, it is in canonical form and it keeps
/// every rule (`validate::rules`, the same rules [`super::check`] runs). Read straight from
/// the bytes, with no syntax tree. `None` for any other record (and for EPD records, whose
/// operations are read in full), which [`super::check`] reads in full to say what is wrong.
#[cfg(feature = "internals")]
pub fn clean(text: &str, dialect: Dialect) -> Option<Position> {
    let q = quick(text, dialect).filter(|q| q.is_clean(dialect))?;
    let mut castling: Vec<CastleRight> = q.rights[..q.listed].iter().map(|r| r.node).collect();
    castling.sort_unstable();
    Some(Position {
        board: q.board,
        side: q.side,
        castling,
        en_passant: q.en_passant,
        halfmove: q.halfmove,
        fullmove: q.fullmove,
    })
}

#[cfg(test)]
mod tests {
    use crate::fen::{Dialect, Kind};
    use crate::notation::grid::{refusals_are_invalid, RankWidths};

    /// FEN's walk of a placement (for boards mostly full) and the walk for boards mostly empty
    /// read every board alike: the start position and others, each with every one-character
    /// edit.
    #[test]
    fn both_walks_read_placements_alike() {
        let boards = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
            "8/8/8/8/8/8/8/8",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R",
            "7k/8/8/8/8/8/8/K7",
        ];
        crate::notation::grid::check_walks_agree_under_edits(&boards, b"pK18/3x+", 8, 8, &*super::CELLS);
    }

    /// The record read straight from its bytes, which feeds the automaton as it reads, is read
    /// exactly when the automaton accepts it, its placement reads and it lists at most four
    /// castling rights ([`super::parse`], which runs the automaton first), on valid records and
    /// every one-character edit of them.
    #[test]
    fn the_quick_reading_is_refused_unless_the_automaton_accepts() {
        let alphabet = b"12345678KQRBNPkqrbnpwx/ -";
        let mut read = 0;
        for dialect in [Dialect::Standard, Dialect::Chess960] {
            for record in [
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                "4k3/8/8/8/8/8/8/4RK2 b - - 0 1",
                "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 3",
            ] {
                for text in crate::notation::grid::one_edit_away(record, alphabet) {
                    let quick = super::quick(&text, dialect);
                    // The quick reading also refuses more rights than it holds.
                    let parsed = super::parse(&text, Kind::Fen, dialect)
                        .filter(|r| r.castling.as_ref().is_some_and(|c| c.rights.len() <= super::MOST_RIGHTS));
                    assert_eq!(quick.is_some(), parsed.is_some(), "{text:?} in {dialect:?}");
                    if quick.is_some() {
                        assert!(super::matches(&text, Kind::Fen, dialect), "{text:?}");
                        read += 1;
                    }
                }
            }
        }
        assert!(read > 100, "only {read} edits read");
    }

    /// The verdict a repair search takes from [`super::verdict`] (counts first, then the rules)
    /// is the full check's, for records breaking each rule the counts show, and for valid ones.
    #[test]
    fn the_quick_verdict_is_the_full_checks() {
        for (record, valid) in [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", true),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQQBNR b kq e3 0 1", false), // no White king
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBKKBNR b kq e3 0 1", false), // two
            ("rnbqkbnP/pppppppp/8/8/4P3/8/PPPP1PP1/RNBQKBNR b KQq - 0 1", false), // a pawn on rank 8
            ("rnbqkbnr/pppppppp/8/8/3QP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false), // 17 pieces
            ("rnbqkbnr/pppppppp/8/8/3QP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1", true), // 2 queens, 7 pawns: fine
            ("4k3/8/8/8/8/8/8/4RK2 b - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", false), // the side not to move is in check
            ("4k3/8/8/8/1b6/5n2/8/4K3 w - - 0 1", true), // a discovered double check
            ("4k3/8/8/8/7b/8/3p4/4K3 w - - 0 1", false), // a double check no last move gives
            ("8/8/3Pk3/8/8/8/B7/4R1K1 b - - 0 1", true), // a double check by en passant
        ] {
            let full = crate::fen::check_without_repair(record, Kind::Fen, Dialect::Standard).warnings_if_valid();
            let quick = super::verdict(record, Dialect::Standard).expect("read straight from its bytes");
            assert_eq!(quick.map(|(warnings, _)| warnings), full, "{record}");
            assert_eq!(full.is_some(), valid, "{record}");
        }
    }

    /// Wherever [`super::Near::verdict`] answers for a one-character edit of a record, it says
    /// what [`super::verdict`] says of the record the edit makes, read whole.
    #[test]
    fn a_candidate_read_from_its_edited_rank_is_judged_as_read_whole() {
        // Records with a rank of the wrong width (a repair search's commonest fault), a split
        // run of blank squares, rights out of order, a piece short; and valid ones.
        let alphabet = b"12345678KQRBNPkqrbnpw/ -";
        let automaton = super::automaton(Kind::Fen, Dialect::Standard).unwrap();
        let mut answered = 0;
        for record in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/ppppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/413/8/4P3/8/PPPP1PPP/RNBQKBNR w kqKQ - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w qkQK d6 0 3",
            "4k3/8/8/8/8/8/8/4RK2 b - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1 w KQkq - 2 3",
        ] {
            let near = super::Near::of(record).unwrap();
            let answered_before = answered;
            for text in crate::notation::grid::one_edit_away(record, alphabet) {
                if automaton.reads(&text).is_err() {
                    continue;
                }
                let Some(from_rank) = near.verdict(&text, Dialect::Standard) else { continue };
                assert_eq!(Some(from_rank), super::verdict(&text, Dialect::Standard), "{text:?}");
                answered += 1;
            }
            assert!(answered > answered_before, "{record:?}");
        }
        assert!(answered > 500, "{answered}");
        // A placement of another number of ranks is read whole.
        for ranks in ["8/8/8/8/8/8/8", "8/8/8/8/8/8/8/8/8"] {
            assert!(super::Near::of(&format!("{ranks} w - - 0 1")).is_none(), "{ranks}");
        }
    }

    /// Wherever [`super::verdict`] answers, its warnings (the form warnings of a record not in
    /// canonical form among them) and its likeness are the full check's: on records in and out
    /// of canonical form, and every one-character edit of them.
    #[test]
    fn the_quick_verdict_is_the_full_checks_under_edits() {
        let alphabet = b"12345678KQRBNPkqrbnpw/ -";
        let (mut answered, mut split, mut unordered) = (0, 0, 0);
        for record in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/413/8/4P3/8/PPPP1PPP/RNBQKBNR w kqKQ - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w qkQK d6 0 3",
            "4k3/8/8/8/8/8/8/4RK2 b - - 0 1",
        ] {
            for text in crate::notation::grid::one_edit_away(record, alphabet) {
                let Some(quick) = super::verdict(&text, Dialect::Standard) else { continue };
                let checked = crate::fen::check_without_repair(&text, Kind::Fen, Dialect::Standard);
                let full = checked.warnings_if_valid().zip(
                    checked.position.as_ref().map(|p| p.board.likeness(p.side, &p.castling, Some((p.halfmove, p.fullmove)))),
                );
                assert_eq!(quick, full, "{text:?}");
                let codes = |code| checked.diagnostics.iter().any(|d| d.code == code);
                split += usize::from(quick.is_some() && codes(crate::diagnostic::codes::fen::SPLIT_BLANK_RUN));
                unordered += usize::from(quick.is_some() && codes(crate::diagnostic::codes::fen::CASTLING_ORDER));
                answered += 1;
            }
        }
        assert!(answered > 1000 && split > 50 && unordered > 50, "{answered} {split} {unordered}");
    }

    #[test]
    fn an_edit_refused_for_the_material_leaves_an_invalid_record() {
        let alphabet = b"12345678KQRBNPkqrbnpx/ -";
        let invalid = |t: &str| !crate::fen::check_without_repair(t, Kind::Fen, Dialect::Standard).is_valid();
        for (record, least) in [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 10),
            // No black king, and a ninth white pawn on a rank of nine squares: only an edit of
            // theirs mends each (the letters are counted whatever the widths of the ranks).
            ("rnbqqbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQ - 0 1", 500),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPPP/RNBQKBNR b KQkq - 0 1", 500),
            // Three white knights and eight pawns: one piece beyond the set, and no pawn missing.
            ("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 500),
        ] {
            let material = super::Material::of(record);
            let refuse = |span, written: &[u8]| material.refuse(record, span, written);
            assert!(refusals_are_invalid(record, refuse, alphabet, invalid) > least, "{record}");
        }
    }

    /// The automata of the grammar's `field` and `gap` rules cut a line as pest reads it.
    #[test]
    fn the_automata_cut_a_line_as_pest_does() {
        use crate::fen::parser::{FenParser, Rule};
        crate::notation::fields::check_tokens_cut_as_pest::<FenParser, Rule>(Rule::line, Rule::field, Rule::gap);
    }

    #[test]
    fn an_edit_refused_for_a_rank_width_leaves_an_invalid_record() {
        let alphabet = b"12345678KQRBNPkqrbnpx/ -";
        let invalid = |t: &str| !crate::fen::check_without_repair(t, Kind::Fen, Dialect::Standard).is_valid();
        for record in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/7/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            // Two ranks run together, and a rank split in two: only an edit of a `/` mends each.
            "rnbqkbnr/pppppppp/8/84P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4/P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ] {
            let widths = RankWidths::of(record, 8, super::square_widths());
            let refuse = |span, written: &[u8]| widths.refuse(record, span, written);
            assert!(refusals_are_invalid(record, refuse, alphabet, invalid) > 500, "{record}");
        }
    }
}
