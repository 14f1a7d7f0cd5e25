//! The fast path: a DFA compiled from the grammar's record rules accepts well-formed records in
//! one pass; the syntax tree is then read off the bytes, which the automaton has already
//! vouched for (with the board's shape reporting a rank of the wrong width, which the grammar
//! does not count, as the builder does). Anything the automaton does not accept returns `None`
//! and goes through pest and [`super::build`].

use std::sync::OnceLock;

use super::ast::{BoardField, Cell, Dialect, Hand, HandEntry, Record};
use super::parser::Rule;
use super::{token, validate, DialectChoice, Position};
use crate::diagnostic::Diagnostic;
use crate::notation::grammar::{RuleDfa, Shipped};
use crate::notation::grid::{walk_accepted, ByteMap, CellDecoder, Letters};
use crate::notation::repair::{Bytes, Kept};
use crate::shogi::violation::{self, Tally};
use crate::span::{Span, Spanned};

/// The grammar, read once: its regular rules compile to automata.
pub(crate) static GRAMMAR: Shipped = Shipped::new("sfen");

/// The record rule of `choice`: `record` reads either dialect.
pub fn record_rule(choice: DialectChoice) -> Rule {
    match choice {
        DialectChoice::Auto => Rule::record,
        DialectChoice::Sfen2007 => Rule::sfen2007_record,
        DialectChoice::Usi => Rule::usi_record,
    }
}

/// The automaton for the record rule of `choice` (`None` if the rule stopped compiling).
pub fn automaton(choice: DialectChoice) -> Option<&'static RuleDfa> {
    static USI: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static SFEN2007: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static EITHER: OnceLock<Option<RuleDfa>> = OnceLock::new();
    let cell = match choice {
        DialectChoice::Usi => &USI,
        DialectChoice::Sfen2007 => &SFEN2007,
        DialectChoice::Auto => &EITHER,
    };
    GRAMMAR.compile(cell, record_rule(choice))
}

/// The dialect whose record rule `text` matches exactly, among those `choice` allows.
pub fn matches(text: &str, choice: DialectChoice) -> Option<Dialect> {
    let usi = || automaton(DialectChoice::Usi).is_some_and(|re| re.is_match(text));
    let old = || automaton(DialectChoice::Sfen2007).is_some_and(|re| re.is_match(text));
    match choice {
        DialectChoice::Usi => usi().then_some(Dialect::Usi),
        DialectChoice::Sfen2007 => old().then_some(Dialect::Sfen2007),
        DialectChoice::Auto => {
            if usi() {
                Some(Dialect::Usi)
            } else {
                old().then_some(Dialect::Sfen2007)
            }
        }
    }
}

/// The syntax tree of `text` if it is a well-formed record with nine squares to every rank.
#[cfg(any(test, feature = "internals"))]
#[inline]
pub fn parse(text: &str, choice: DialectChoice) -> Option<Record> {
    match tree(text, choice)? {
        (record, true) => Some(record),
        (_, false) => None,
    }
}

/// The syntax tree of `text` and its findings, when the grammar accepts the record: the only
/// faults such a record can have are ranks of other than nine squares, which the board's shape
/// reports, as [`super::build`] does for them (a test holds the two to the same tree and the
/// same findings). `None` for any other text, which the builder reads.
pub fn read(text: &str, choice: DialectChoice) -> Option<(Record, Vec<Diagnostic>)> {
    let (record, regular) = tree(text, choice)?;
    let findings = record.board.as_ref().map_or_else(Vec::new, |b| b.accepted_findings::<super::shape::Shape>(regular));
    Some((record, findings))
}

/// The syntax tree of a record the grammar accepts, and true when its ranks are nine squares
/// each.
#[inline]
fn tree(text: &str, choice: DialectChoice) -> Option<(Record, bool)> {
    let dialect = matches(text, choice)?;
    // The automaton vouched for the shape: fields split at single spaces, three or four.
    let bytes = text.as_bytes();
    let mut bounds = [0usize; 5];
    let mut n = 1;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b' ' && n < 5 {
            bounds[n] = i + 1;
            n += 1;
        }
    }
    let field = |k: usize| {
        let start = bounds[k];
        let end = if k + 1 < n { bounds[k + 1] - 1 } else { text.len() };
        (text.get(start..end).unwrap_or(""), Span::new(start, end))
    };
    if !(3..=4).contains(&n) {
        return None;
    }
    let ((board_text, board_span), (side_text, side_span), (hand_text, hand_span)) = (field(0), field(1), field(2));
    let move_number = match n {
        4 => {
            let (digits, span) = field(3);
            Some(Spanned::new(token::move_number(digits)?, span))
        }
        _ => None,
    };
    let (board, regular) = read_board(board_text, board_span)?;
    let side = Spanned::new(token::side(side_text)?, side_span);
    let hand = read_hand(hand_text, hand_span)?;
    let record = Record {
        span: Span::new(0, text.len()),
        board: Some(board),
        side: Some(side),
        hand: Some(hand),
        move_number,
        dialect: Some(dialect),
    };
    Some((record, regular))
}

/// The squares a character of a board field covers: a digit its value, a piece letter one, and
/// `+` none (a promoted piece covers the one square of its letter); `None` for a character no
/// board holds.
fn square_width(b: u8) -> Option<u32> {
    match b {
        b'+' => Some(0),
        _ => token::cell_bytes(&[b]).map(|c| c.width()),
    }
}

/// [`square_width`] of every byte, found once.
pub(crate) fn square_widths() -> &'static ByteMap {
    static WIDTHS: OnceLock<ByteMap> = OnceLock::new();
    WIDTHS.get_or_init(|| ByteMap::of(square_width))
}

/// How many bytes a token of a board field takes, from its first: a `+` and its letter, or one
/// character.
fn token_len(first: u8) -> usize {
    if first == b'+' {
        2
    } else {
        1
    }
}

/// The tokens of a board field, for [`walk_accepted`] (which hands on no slot: each is 0).
static CELLS: std::sync::LazyLock<CellDecoder<crate::shogi::Piece>> =
    std::sync::LazyLock::new(|| CellDecoder::new(token_len, token::cell_bytes, |_| 0));

fn read_board(text: &str, span: Span) -> Option<(BoardField, bool)> {
    BoardField::read_accepted(text, span, 9, 9, token_len, token::cell_bytes)
}

fn read_hand(text: &str, span: Span) -> Option<Hand> {
    let mut entries = Vec::new();
    if text != "-" {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let count = if i > start {
                let digits = Span::new(start, i).shift(span.start);
                Some(Spanned::new(token::hand_count(text.get(start..i)?)?, digits))
            } else {
                None
            };
            let piece = Spanned::new(token::hand_piece(text.get(i..i + 1)?)?, Span::new(i, i + 1).shift(span.start));
            entries.push(HandEntry { span: Span::new(start, i + 1).shift(span.start), count, piece });
            i += 1;
        }
    }
    Some(Hand { span, entries })
}

/// The position of `text` and its dialect when the record has no finding at all: the automaton
/// accepts it, every rank covers nine squares, it is in canonical form and it keeps every rule
/// (the same rules [`super::check`] runs). Read straight from the bytes:
/// no syntax tree, no spans, nothing allocated. `None` for any other record, which
/// [`super::check`] reads in full to say what is wrong.
#[cfg(feature = "internals")]
pub fn clean(text: &str, choice: DialectChoice) -> Option<(Position, Dialect)> {
    quick_dialect(text, choice).filter(|(q, _)| q.is_clean()).map(|(q, dialect)| (q.position, dialect))
}

/// The dialect of `text` when the record has no finding at all, as [`clean`] finds it, without
/// handing its position over.
pub fn clean_dialect(text: &str, choice: DialectChoice) -> Option<Dialect> {
    // Looked at where it was made, not moved out of the option (a copy of some 300 bytes).
    let read = quick_dialect(text, choice);
    let (q, dialect) = read.as_ref()?;
    q.is_clean().then_some(*dialect)
}

/// The record `text` read straight from its bytes ([`quick`]), and the dialect whose record
/// rule it matches ([`matches`]), when it has one and every rank covers nine squares. The
/// record is read as if the automaton of the first dialect `choice` allows had accepted it,
/// and the reading feeds that automaton its bytes, so that the automaton's steps overlap the
/// reader's work; the record is refused unless one of the automata accepts it.
fn quick_dialect(text: &str, choice: DialectChoice) -> Option<(Quick, Dialect)> {
    let (rule, first) = match choice {
        DialectChoice::Sfen2007 => (DialectChoice::Sfen2007, Dialect::Sfen2007),
        DialectChoice::Usi | DialectChoice::Auto => (DialectChoice::Usi, Dialect::Usi),
    };
    let Some(mut run) = automaton(rule).and_then(RuleDfa::run) else {
        let dialect = matches(text, choice)?;
        return Some((quick(text)?, dialect));
    };
    let q = quick_feeding(text, |b| run.feed(b))?;
    if run.accepts() {
        return Some((q, first));
    }
    (choice == DialectChoice::Auto && matches(text, DialectChoice::Sfen2007).is_some())
        .then_some((q, Dialect::Sfen2007))
}

/// A record read straight from its bytes, as [`clean`] reads it.
pub(crate) struct Quick {
    /// The position.
    pub position: Position,
    /// It is in canonical form: it has none of the form warnings.
    pub canonical: bool,
    /// Its board counted.
    tally: Tally,
}

impl Quick {
    /// True when the record has no finding: in canonical form, and keeping every rule.
    fn is_clean(&self) -> bool {
        self.canonical && self.verdict() == Some(0)
    }

    /// What the rules say of the position ([`validate::verdict`], the rules
    /// [`super::check`] runs): `None` when it breaks one, else how many warnings they give.
    pub fn verdict(&self) -> Option<usize> {
        let p = &self.position;
        validate::verdict(&p.board, &self.tally, p.side, &p.hands, p.move_number)
    }
}

/// The record `text`, which the automaton of a record rule accepted, read straight from its
/// bytes when every rank covers nine squares (`None` for any other). Such a record has no
/// syntax error: it has the findings of the rules and, when it is not `canonical`, form
/// warnings.
pub(crate) fn quick(text: &str) -> Option<Quick> {
    quick_feeding(text, |_| {})
}

/// [`quick`], giving `feed` each byte of `text` it reads, in order: all of them when it reads
/// the record. (Any text reads to some answer, or to `None`, safely; the answer is only right
/// for a record an automaton accepts.)
#[inline]
fn quick_feeding(text: &str, mut feed: impl FnMut(u8)) -> Option<Quick> {
    // The automaton vouches for the shape: fields split at single spaces, three or four.
    let mut fields = crate::notation::fields::accepted_fields(text);
    let (board, side, hand) = (fields.next()?, fields.next()?, fields.next()?);
    let move_number = match fields.next() {
        Some(digits) => Some(token::move_number(digits)?),
        None => None,
    };
    // Filled in place: the board is not moved from one value to the next.
    let position = Position {
        board: crate::shogi::Board::default(),
        hands: quick_hands(hand)?,
        side: token::side(side)?.color,
        move_number,
    };
    let mut q = Quick { position, canonical: false, tally: Tally::default() };
    let runs_whole = quick_board(board, &mut q.position.board, &mut q.tally, &mut feed)?;
    // The walk read every byte of the board, the first field.
    text.as_bytes().get(board.len()..)?.iter().for_each(|&b| feed(b));
    q.canonical = runs_whole && validate::hand_is_canonical(hand_entries(hand).map_while(|e| e));
    Some(q)
}

/// Places the pieces of a board field the automaton accepted on `board` (an empty one), and
/// counts them in `tally`: whether no run of empty squares is split, or `None` unless it has
/// nine ranks of nine squares. The bytes read go to `feed`.
fn quick_board(text: &str, board: &mut crate::shogi::Board, tally: &mut Tally, feed: impl FnMut(u8)) -> Option<bool> {
    walk_accepted(text, 9, 9, &CELLS, feed, |i, p| {
        *board.0.get_mut(i)? = Some(p);
        tally.add(crate::shogi::Square::from_index(i)?, p);
        Some(())
    })
}

/// The pieces of each kind a record holds, on the board and in hand, and each side's kings,
/// counted once, so that a repair search can refuse at once an edit of the board that leaves too
/// many of a kind or two kings on a side: the board's pieces are counted from its letters
/// ([`Letters`]), whatever the widths of its ranks, and an edit of the board changes them by the
/// pieces it writes less those it removes.
pub(crate) struct Supply<'a> {
    /// The record.
    text: &'a str,
    /// The board's pieces, by colour and kind.
    board: Letters<'static, 16>,
    /// Pieces of each kind in hand, by [`crate::shogi::PieceKind::index`]: none when the hand
    /// field does not read, which only makes the counts fewer than the record's.
    hands: [u32; 8],
    /// Where the hand field is (the third field), if the record has one.
    hand: Option<Span>,
}

/// The kind each byte of a board field writes, by colour then
/// [`crate::shogi::PieceKind::index`], found once.
fn letter_kinds() -> &'static ByteMap {
    static KINDS: OnceLock<ByteMap> = OnceLock::new();
    KINDS.get_or_init(|| {
        ByteMap::of(|b| match token::cell_bytes(&[b])? {
            Cell::Piece(p) => Some((p.color.index() * 8 + p.kind.index()) as u32),
            _ => None,
        })
    })
}

impl<'a> Supply<'a> {
    /// The counts of `text`, whose hand is its third field.
    pub fn of(text: &'a str) -> Self {
        // The third field: from after the second space to the third, or the end.
        let mut spaces = memchr::memchr_iter(b' ', text.as_bytes()).skip(1);
        let hand = spaces.next().map(|at| Span::new(at + 1, spaces.next().unwrap_or(text.len())));
        let hands = hand.and_then(|h| Self::counts(h.slice(text))).unwrap_or([0; 8]);
        Self { text, board: Letters::of(text, letter_kinds()), hands, hand }
    }

    /// The pieces of each kind a hand field holds, by [`crate::shogi::PieceKind::index`];
    /// `None` when it does not read.
    fn counts(hand: &str) -> Option<[u32; 8]> {
        quick_hands(hand).map(|[a, b]| crate::shogi::PieceKind::ALL.map(|k| a.count(k) + b.count(k)))
    }

    /// The pieces of each kind, on `board` (by colour and kind) and in `hands`.
    fn totals(board: &[u32; 16], hands: &[u32; 8]) -> [u32; 8] {
        std::array::from_fn(|i| board[i] + board[8 + i] + hands[i])
    }

    /// The kings of each side on `board` (by colour and kind).
    fn kings(board: &[u32; 16]) -> [u32; 2] {
        let king = crate::shogi::PieceKind::King.index();
        [board[king], board[8 + king]]
    }

    /// Whether the board's pieces `board` (by colour and kind) with the record's hands are
    /// within the supply, and if so, the letters of the pieces one more of which they are
    /// within it too (none are, when they are not: a piece more only adds to a count).
    fn takes(&self, board: &[u32; 16]) -> (bool, Bytes) {
        let (totals, kings) = (Self::totals(board, &self.hands), Self::kings(board));
        if violation::breaks_supply(&totals, &kings) {
            return (false, Bytes(0));
        }
        let (kinds, mut letters) = (letter_kinds(), Bytes(0));
        for (slot, &kind) in crate::shogi::PieceKind::ALL.iter().cycle().take(16).enumerate() {
            if violation::supply_takes_one(&totals, &kings, kind, slot / 8) {
                letters = letters.or(kinds.bytes_of(slot as u32));
            }
        }
        (true, letters)
    }
}

impl crate::notation::repair::Refuse for Supply<'_> {
    /// True when writing `written` over the bytes `span` of the record leaves too many pieces
    /// of a kind or two kings on a side: an edit of the board changes its counts, one of the
    /// hand field the hand's (which is read again), and one of the other fields neither. False
    /// when the edit writes or removes a space, or leaves a hand that does not read.
    fn refuse(&self, span: Span, written: &[u8]) -> bool {
        let text = self.text;
        let Some(board) = self.board.after_any(text, span, written) else { return false };
        let in_hand = self.hand.filter(|h| h.start <= span.start && span.end <= h.end);
        let hands = match in_hand {
            Some(hand) => {
                // The hand field as the edit leaves it, read again.
                let bytes = text.as_bytes();
                let edited = [&bytes[hand.start..span.start], written, &bytes[span.end..hand.end]].concat();
                let Some(counts) = std::str::from_utf8(&edited).ok().and_then(Self::counts) else { return false };
                counts
            }
            None => self.hands,
        };
        violation::breaks_supply(&Self::totals(&board, &hands), &Self::kings(&board))
    }

    /// On the board, the slips whose counts [`Supply::takes`]; elsewhere (past the board, or
    /// at a character of the board that is not ASCII), when the board and the hand are beyond
    /// the supply already, the slips of a space (every other leaves them so), except in the
    /// hand, which an edit reads again.
    fn only_writes(&self, span: Span) -> Option<Kept> {
        let at = span.start;
        if let Some(kept) = self.board.only_writes(self.text, span, |board| self.takes(board)) {
            return Some(kept);
        }
        let bytes = self.text.as_bytes().get(span.start..span.end)?;
        let in_hand = self.hand.is_some_and(|h| h.start <= at && at <= h.end);
        if in_hand || self.takes(self.board.counts()).0 {
            return None;
        }
        let first = bytes.first() == Some(&b' ');
        let space = Bytes::of(b" ");
        Some(Kept {
            delete: first,
            swap: bytes.contains(&b' '),
            replace: if first { Bytes(u128::MAX) } else { space },
            insert: space,
        })
    }
}

/// The entries of a hand field the automaton accepted, each a piece and the count written
/// (`None` for one the decoders refuse, and nothing after it).
fn hand_entries(
    text: &str,
) -> impl Iterator<Item = Option<((crate::shogi::Color, crate::shogi::PieceKind), Option<u32>)>> + '_ {
    let bytes = if text == "-" { &[][..] } else { text.as_bytes() };
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = i;
        if start >= bytes.len() {
            return None;
        }
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let count = match i > start {
            true => text.get(start..i).and_then(token::hand_count).map(Some),
            false => Some(None),
        };
        let piece = text.get(i..i + 1).and_then(token::hand_piece);
        i += 1;
        Some(piece.zip(count))
    })
}

/// The form warnings the full check gives `text`, a record [`quick`] read (all of them when it
/// is not in canonical form): one for each run of empty squares written with several digits,
/// and the hand's ([`validate::hand_form_warnings`]).
pub(crate) fn form_warnings(text: &str) -> usize {
    let mut fields = crate::notation::fields::accepted_fields(text);
    let (Some(board), Some(_), Some(hand)) = (fields.next(), fields.next(), fields.next()) else { return 0 };
    crate::notation::grid::split_runs(board) + validate::hand_form_warnings(hand_entries(hand).map_while(|entry| entry))
}

/// The hands of a hand field the automaton accepted (entries naming a piece twice add up).
fn quick_hands(text: &str) -> Option<[crate::shogi::Hand; 2]> {
    let mut hands = [crate::shogi::Hand::default(); 2];
    for entry in hand_entries(text) {
        let ((color, kind), count) = entry?;
        hands[color.index()].add(kind, count.unwrap_or(1));
    }
    Some(hands)
}

#[cfg(test)]
mod tests {
    use super::{parse, quick};
    use crate::notation::grid::{refusals_are_invalid, RankWidths};
    use crate::notation::repair::{Bytes, Refuse};
    use crate::sfen::{judge, DialectChoice};

    /// The record read straight from its bytes, which feeds the first automaton as it reads,
    /// is read exactly when some automaton the choice allows accepts it and its board reads
    /// ([`parse`], which runs the automata first), and in that automaton's dialect, on valid
    /// records and every one-character edit of them.
    #[test]
    fn the_quick_reading_is_refused_unless_an_automaton_accepts() {
        let alphabet = b"123456789+PLNSGBRKplnsgbrkbw/ -";
        let mut read = 0;
        for choice in [DialectChoice::Auto, DialectChoice::Usi, DialectChoice::Sfen2007] {
            for record in [
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                "8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L18P 1",
                "4k4/9/4+P4/9/9/9/9/9/4K4 w RB 12",
            ] {
                for text in crate::notation::grid::one_edit_away(record, alphabet) {
                    let quick = super::quick_dialect(&text, choice);
                    let parsed = parse(&text, choice);
                    assert_eq!(quick.is_some(), parsed.is_some(), "{text:?} as {choice:?}");
                    if let Some((_, dialect)) = quick {
                        assert_eq!(Some(dialect), super::matches(&text, choice), "{text:?} as {choice:?}");
                        read += 1;
                    }
                }
            }
        }
        assert!(read > 100, "only {read} edits read");
    }

    /// SFEN's walk of a board (for boards mostly empty) and the walk for boards mostly full read
    /// every board alike: the start position and others, each with every one-character edit.
    #[test]
    fn both_walks_read_boards_alike() {
        let boards = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
            "9/9/9/9/9/9/9/9/9",
            "4k4/9/4+P4/9/9/9/9/9/4K4",
            "+l+n+s+b+rk4/9/9/9/9/9/9/9/4K4",
        ];
        crate::notation::grid::check_walks_agree_under_edits(&boards, b"pK+19/x", 9, 9, &*super::CELLS);
    }

    /// The automata of the grammar's `field` and `gap` rules cut a line as pest reads it.
    #[test]
    fn the_automata_cut_a_line_as_pest_does() {
        use crate::sfen::parser::{Rule, SfenParser};
        crate::notation::fields::check_tokens_cut_as_pest::<SfenParser, Rule>(Rule::line, Rule::field, Rule::gap);
    }

    #[test]
    fn an_edit_refused_for_a_rank_width_leaves_an_invalid_record() {
        let alphabet = b"123456789+KRBGSNLPkrbgsnlpx/ -bw";
        let invalid = |t: &str| !crate::sfen::check_without_repair(t, DialectChoice::Auto).is_valid();
        for record in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3+Rl/2skg4/p1pppp2p/6p2/1p5P1/2P6/PP1PPPP1P/2S1K2s1/LN1G1G1NL w BNPb2p 40",
            // A rank of eight squares, and one of ten: only an edit of theirs can mend each.
            "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ] {
            let widths = RankWidths::of(record, 9, super::square_widths());
            let refuse = |span, written: &[u8]| widths.refuse(record, span, written);
            assert!(refusals_are_invalid(record, refuse, alphabet, invalid) > 1000, "{record}");
        }
    }

    /// Records whose supply refusal the tests put to every slip, each with the fewest slips it
    /// must refuse.
    const SUPPLY_RECORDS: [(&str, usize); 10] = [
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 10),
        ("ln1g3+Rl/2skg4/p1pppp2p/6p2/1p5P1/2P6/PP1PPPP1P/2S1K2s1/LN1G1G1NL w BNPb2p 40", 10),
        // A pawn too many, and a second black king: only an edit of theirs mends each.
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1", 1000),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1", 1000),
        // The board's letters are counted whatever the widths of its ranks: a rank of eight
        // squares with a pawn too many in hand, and one of ten with a third rook.
        ("lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1", 1000),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLR b - 1", 1000),
        // A hand that does not read counts nothing: only the board's letters refuse.
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b 0P 1", 1000),
        // An edit of the hand is counted by the hand it leaves, read again; one of the side
        // or the move number by the hand as it is.
        ("8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L19P 1", 1000),
        ("8k/9/9/9/9/9/9/9/K8 w 2R2B4G4S4N4L18P2r 12", 1000),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Pp 1", 1000),
    ];

    #[test]
    fn an_edit_refused_for_the_supply_leaves_an_invalid_record() {
        let alphabet = b"123456789+KRBGSNLPkrbgsnlpx/ -bw";
        let invalid = |t: &str| !crate::sfen::check_without_repair(t, DialectChoice::Auto).is_valid();
        for (record, least) in SUPPLY_RECORDS {
            let supply = super::Supply::of(record);
            let refuse = |span, written: &[u8]| Refuse::refuse(&supply, span, written);
            assert!(refusals_are_invalid(record, refuse, alphabet, invalid) > least, "{record}");
        }
    }

    /// Where the supply names the slips of a place that may pass, it refuses every other slip
    /// there: on the board, a piece written only where its kind has room (in a full set, only
    /// one of the other colour for one of the same kind); past the board, when the board or the
    /// hand is beyond the supply, every slip but a space's, the hand's own slips aside.
    #[test]
    fn the_supply_refuses_every_slip_a_place_does_not_keep() {
        let alphabet = b"123456789+KRBGSNLPkrbgsnlpx/ -bw";
        let (mut places, mut refused, mut kept_slips, mut colour_only) = (0, 0, 0, 0);
        let flips = |b: u8| Bytes::of(&[b.to_ascii_lowercase(), b.to_ascii_uppercase()]);
        for (record, _) in SUPPLY_RECORDS {
            let supply = super::Supply::of(record);
            let (r, k) = crate::notation::grid::refuses_all_not_kept(
                record,
                alphabet,
                |span| supply.only_writes(span),
                |span, written| supply.refuse(span, written),
                |span, kept| {
                    places += 1;
                    // A letter replaced: in a full set, only by itself or its other colour's letter.
                    let Some(&b) = record.as_bytes().get(span.start) else { return };
                    let letters = Bytes(kept.replace.0 & Bytes::of(b"KRBGSNLPkrbgsnlp").0);
                    colour_only += usize::from(b.is_ascii_alphabetic() && letters == flips(b));
                },
            );
            (refused, kept_slips) = (refused + r, kept_slips + k);
        }
        assert!(places > 500 && refused > 30_000 && kept_slips > 4_000, "{places} places, {refused} refused, {kept_slips} kept");
        assert!(colour_only > 30, "{colour_only} places keep only a colour's flip");
    }

    /// An edit past the board is refused by the counts it leaves: of the hand it leaves, read
    /// again, when it edits the hand; of the hand as it is, when it edits the side or the move
    /// number. One that writes a space, or leaves a hand that does not read, is not.
    #[test]
    fn an_edit_past_the_board_is_refused_by_the_hand_it_leaves() {
        use crate::span::Span;
        let record = "8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L19P 1";
        let supply = super::Supply::of(record);
        let pawns = record.find("19P").expect("the pawns");
        let refuse = |span: Span, written: &[u8]| Refuse::refuse(&supply, span, written);
        // `19P` → `18P` mends the count, `29P` or `19L` does not.
        assert!(!refuse(Span::new(pawns + 1, pawns + 2), b"8"));
        assert!(refuse(Span::new(pawns, pawns + 1), b"2"));
        assert!(refuse(Span::new(pawns + 2, pawns + 3), b"L"));
        // The move number and the side leave the hand as it is.
        assert!(refuse(Span::new(record.len() - 1, record.len()), b"2"));
        assert!(refuse(Span::new(20, 21), b"w"));
        // A hand that does not read, and a space, tell nothing.
        assert!(!refuse(Span::point(pawns + 3), b"0"));
        assert!(!refuse(Span::point(pawns), b" "));
    }

    /// The verdict a repair search takes from [`quick`] (counts first, then the rules) is the
    /// full check's, for records breaking each rule the counts show, and for valid ones.
    #[test]
    fn the_quick_verdict_and_form_warnings_are_the_full_checks_under_edits() {
        // Records out of canonical form (a split run, a count of 1, a piece listed twice, a
        // hand out of order) and in it.
        let alphabet = b"KRBGSNLPkrbgsnlp+/ -123456789w";
        let (mut answered, mut formed) = (0, 0);
        for record in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "ln1g1g1nl/1r1sk2s1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1BG4R1/LN2KGSNL w 1Bb1P 12",
            "ln1g1g1nl/1r1sk2s1/p1pppp1pp/33/1p7/2P6/PPSPPPPPP/1BG4R1/LN2KGSNL w bBPP 12",
            "8l/4k4/9/9/4+P4/9/9/4K4/8L b Pr2pRB2P 80",
        ] {
            for text in crate::notation::grid::one_edit_away(record, alphabet) {
                if super::matches(&text, DialectChoice::Auto).is_none() {
                    continue;
                }
                let Some(q) = quick(&text) else { continue };
                let form = if q.canonical { 0 } else { super::form_warnings(&text) };
                let full = judge(parse(&text, DialectChoice::Auto).expect("a tree"), Vec::new()).warnings_if_valid();
                assert_eq!(q.verdict().map(|w| w + form), full, "{text:?}");
                answered += 1;
                formed += usize::from(form > 0 && full.is_some());
            }
        }
        assert!(answered > 1000 && formed > 200, "{answered} {formed}");
    }

    #[test]
    fn the_quick_verdict_is_the_full_checks() {
        for (record, valid) in [
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", true),
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2", true), // parity warning
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1", false), // two kings
            ("lnsgkgsnP/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1", false), // a dead pawn
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1", false), // nifu
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1", false), // a pawn too many
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", true),
            ("4k4/9/9/9/9/9/9/4r4/4K4 w - 1", false), // the side not to move is in check
            ("k8/4r4/9/9/3n5/9/4K4/9/9 b - 1", true), // a discovered double check
            ("9/R3k4/4P4/9/9/9/9/9/4K4 w - 1", false), // a double check no last move gives
            ("4k4/5G3/9/9/8B/9/9/9/4L3K w P 1", true), // one given by a capture
            ("4k4/5G3/9/9/8B/9/9/9/4L3K w - 1", false), // which nothing in hand says was one
        ] {
            let q = quick(record).expect("read straight from its bytes");
            let full = judge(parse(record, DialectChoice::Auto).expect("a tree"), Vec::new()).warnings_if_valid();
            assert_eq!(q.verdict(), full, "{record}");
            assert_eq!(q.verdict().is_some(), valid, "{record}");
        }
    }
}
