//! pest pairs → syntax tree, with a diagnostic for every syntax fault.
//!
//! The record is first split into fields by the total rule `line`; each field is then parsed on
//! its own by its recovery rule (`board_lenient`, `hand_lenient`, …), so a fault in one field
//! never hides a fault in another. The fields and gaps, and a board's rows and squares, are found
//! by automata compiled from those rules ([`fields::split`], [`fields::board_rows`]), which read
//! them as pest does; pest reads the other fields. Pairs never leave this file.

use crate::diagnostic::codes;
use pest::iterators::Pair;
use pest::Parser;

use super::ast::{BoardField, Cell, Dialect, Hand, HandEntry, Rank, Record, Side};
use super::parser::{Rule, SfenParser};
use super::{token, DialectChoice};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::notation::{fields, lookalike};
use crate::shogi::PieceKind;
use crate::span::{Span, Spanned};

/// The start position, for help texts.
pub const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Reads `text` (one record, without its end of line) into a syntax tree and the syntax faults
/// found in it.
pub fn build(text: &str, choice: DialectChoice) -> (Record, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let record = build_record(text, choice, &mut out);
    let rule = super::fast::record_rule(choice);
    let automaton = super::fast::automaton(choice);
    out.extend(crate::notation::fields::grammar_verdict::<SfenParser, Rule>(
        text,
        automaton,
        rule,
        &out,
        codes::sfen::SYNTAX,
        "SFEN",
        super::rule_words,
    ));
    // In the order of the record, whatever order the fields were read in.
    out.sort_by_key(|d| d.span().start);
    (record, out)
}

/// Parses `text` with `rule`, a total recovery rule; `None` only if the grammar is broken.
fn parse_total(rule: Rule, text: &str) -> Option<Pair<'_, Rule>> {
    SfenParser::parse(rule, text).ok().and_then(|mut pairs| pairs.next())
}

fn build_record(text: &str, choice: DialectChoice, out: &mut Vec<Diagnostic>) -> Record {
    let mut record = Record { span: Span::new(0, text.len()), ..Record::default() };
    let split = fields::split_board_first::<SfenParser, Rule>(text, [Rule::line, Rule::field, Rule::gap], |first| {
        matches!(first, "sfen" | "position")
    });
    let Some((fields, gaps)) = split else {
        out.push(internal(text));
        return record;
    };
    fields::check_gaps(text, &gaps, &CODES, out);
    let Some(first) = skip_usi_words(text, &fields, out) else { return record };
    let fields = &fields[first..];
    if fields.is_empty() {
        let help = format!("an SFEN record is a board, a side to move, a hand and a move number, as in `{START}`");
        out.push(fields::empty_record(codes::sfen::EMPTY_RECORD, Span::point(text.len()), help));
        return record;
    }
    let [board, side, hand, move_number] = assign_fields(text, fields, out);
    let field = |s: Span| s.slice(text);
    record.board = board.map(|span| build_board(field(span), span.start, out));
    record.side = side.and_then(|span| build_side(field(span), span, choice, out));
    record.hand = hand.map(|span| build_hand(field(span), span.start, out));
    record.move_number = move_number.and_then(|span| build_move_number(field(span), span, out));
    check_extra_fields(text, fields, out);
    record.dialect = resolve_dialect(&record, choice, out);
    record
}

/// How many fields in front of the record are words of the USI command line (`position sfen`),
/// reported; `None` when the record is USI's `startpos` (reported), which holds no record.
fn skip_usi_words(text: &str, fields: &[Span], out: &mut Vec<Diagnostic>) -> Option<usize> {
    let mut first = 0;
    while let Some(&span) = fields.get(first) {
        match span.slice(text) {
            "position" | "sfen" => first += 1,
            "startpos" => {
                let diag = Diagnostic::error(
                    codes::sfen::STARTPOS,
                    span,
                    "`startpos` is USI's name for the start position, not an SFEN record",
                )
                .label("a USI keyword")
                .help(format!("write the start position out: `{START}`"));
                // With nothing after it, the USI words before it go too.
                let last = first + 1 == fields.len();
                let whole = Span::new(fields[0].start, span.end);
                out.push(if last { diag.fix(Fix::replace(whole, START, Applicability::Safe)) } else { diag });
                return None;
            }
            _ => break,
        }
    }
    if first > 0 {
        let span = fields[0].to(fields[first - 1]);
        out.push(
            Diagnostic::error(
                codes::sfen::USI_COMMAND,
                span,
                format!("`{}` belongs to the USI command, not to the SFEN record", span.slice(text)),
            )
            .label("not part of the record")
            .help("remove it: an SFEN record starts with the board")
            .fix(Fix::replace(
                Span::new(span.start, fields.get(first).map_or(text.len(), |f| f.start)),
                "",
                Applicability::Safe,
            )),
        );
    }
    Some(first)
}

/// Which field is which: normally board, side, hand, move number. A field left out shifts the
/// others, so before blaming a field for what it is not, see what it looks like.
fn assign_fields(text: &str, fields: &[Span], out: &mut Vec<Diagnostic>) -> [Option<Span>; 4] {
    let field = |s: Span| s.slice(text);
    let get = |i: usize| fields.get(i).copied();
    let looks_like_side = |s: Span| side_ok(field(s));
    let looks_like_hand = |s: Span| {
        let t = field(s);
        t == "-"
            || (t.bytes().all(|b| b"RBGSNLPrbgsnlp0123456789".contains(&b))
                && t.bytes().any(|b| b.is_ascii_alphabetic()))
    };
    let side_span = get(1);
    if fields.len() <= 3 && looks_like_side(fields[0]) {
        let first = fields[0];
        out.push(
            Diagnostic::error(codes::sfen::MISSING_FIELD, Span::point(first.start), "the board is missing")
                .label("the board goes here")
                .with(first, "this reads as the side to move")
                .help(format!("an SFEN record starts with the board, nine ranks separated by `/`, as in `{START}`")),
        );
        return [None, get(0), get(1), get(2)];
    }
    if let Some(side) = side_span.filter(|s| fields.len() <= 3 && !looks_like_side(*s) && looks_like_hand(*s)) {
        out.push(
            Diagnostic::error(codes::sfen::MISSING_FIELD, Span::point(side.start), "the side to move is missing")
                .label("the side to move goes here")
                .with(side, "this reads as the pieces in hand")
                .help("write `b` (Black to move) or `w` (White to move) after the board"),
        );
        return [get(0), None, get(1), get(2)];
    }
    if fields.len() == 3 && is_digits(field(fields[2])) && looks_like_side(fields[1]) {
        out.push(
            Diagnostic::error(
                codes::sfen::MISSING_FIELD,
                Span::point(fields[2].start),
                "the pieces in hand are missing",
            )
            .label("the hand goes here")
            .with(fields[2], "this reads as the move number")
            .help(format!("write `-` for empty hands: `… {} - {}`", field(fields[1]), field(fields[2]))),
        );
        return [get(0), get(1), None, get(2)];
    }
    let end = Span::point(text.len());
    match (side_span, get(2)) {
        (None, _) => out.push(
            Diagnostic::error(codes::sfen::MISSING_FIELD, end, "the side to move and the pieces in hand are missing")
                .label("the record ends after the board")
                .help("after the board write the side to move and the hand, as in ` b -` (Black to move, no pieces in hand)"),
        ),
        (Some(_), None) => out.push(
            Diagnostic::error(codes::sfen::MISSING_FIELD, end, "the pieces in hand are missing")
                .label("the record ends after the side to move")
                .help("write ` -` after the side to move when neither side holds pieces"),
        ),
        _ => {}
    }
    [get(0), get(1), get(2), get(3)]
}

/// Reports the fields after the fourth.
fn check_extra_fields(text: &str, fields: &[Span], out: &mut Vec<Diagnostic>) {
    if fields.len() <= 4 {
        return;
    }
    // The space before the extra fields goes with them: removing both leaves a record.
    let extra = Span::new(fields[3].end, fields[fields.len() - 1].end);
    let moves = fields[4].slice(text) == "moves";
    let (message, help) = if moves {
        (
            "the USI `moves` list is not part of an SFEN record".to_owned(),
            "check the position alone: end the record after the move number".to_owned(),
        )
    } else {
        (
            format!("the record has {} fields; SFEN has four", fields.len()),
            "a record is board, side to move, hand and move number: remove what follows".to_owned(),
        )
    };
    // A `moves` list is evidently not the record; other fields may be a misplaced part of it.
    let applicability = if moves { Applicability::Safe } else { Applicability::Unsafe };
    out.push(
        Diagnostic::error(codes::sfen::EXTRA_FIELD, extra, message).label("unexpected").help(help).fix(Fix::replace(
            extra,
            "",
            applicability,
        )),
    );
}

fn internal(text: &str) -> Diagnostic {
    Diagnostic::error(
        codes::sfen::INTERNAL,
        Span::new(0, text.len()),
        "kifu could not read this record (a grammar fault)",
    )
    .help("please report this record to kifu's authors")
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// True when `choice` reads records of `dialect`.
fn allows(choice: DialectChoice, dialect: Dialect) -> bool {
    !matches!((choice, dialect), (DialectChoice::Usi, Dialect::Sfen2007) | (DialectChoice::Sfen2007, Dialect::Usi))
}

/// True when `s` is a side to move of either dialect (`b`, `w`, `B`, `W`).
pub(crate) fn side_ok(s: &str) -> bool {
    token::side(s).is_some()
}

/// Reads a board field that starts at `offset` of its text, with a diagnostic for every fault
/// of its ranks and of their count. Other formats that write an SFEN board (PSN's `FEN` and
/// `SFEN` headers) read theirs here, so their boards get the same reports.
pub fn build_board(text: &str, offset: usize, out: &mut Vec<Diagnostic>) -> BoardField {
    let mut board = BoardField { span: Span::new(offset, offset + text.len()), ranks: Vec::new(), cells: Vec::new() };
    let rows = fields::board_rows::<SfenParser, Rule>(text, squares(), Rule::board_lenient, Rule::row_lenient);
    let Some(rows) = rows else {
        out.push(internal(text).shifted(offset));
        return board;
    };
    for (span, squares) in rows {
        let rank = build_rank(text, span, &squares, offset, &mut board.cells, out);
        board.ranks.push(rank);
    }
    board.check_shape::<super::shape::Shape>(out);
    board
}

/// The squares of `row_lenient`, compiled once; `None` if they do not compile.
pub(crate) fn squares() -> Option<&'static fields::RowSquares<Rule>> {
    static SQUARES: std::sync::OnceLock<Option<fields::RowSquares<Rule>>> = std::sync::OnceLock::new();
    SQUARES
        .get_or_init(|| {
            fields::RowSquares::compile(super::fast::GRAMMAR.rules()?, Rule::row_lenient, Rule::all_rules())
        })
        .as_ref()
}

/// Reads a board whose ranks are separated by `/` or by any of `separators` (PSN's `FEN` header
/// separates them by `/` or a space). Each separator is one ASCII character, as `/` is, so every
/// span stays where the text wrote it.
pub fn build_board_separated(text: &str, offset: usize, separators: &[char], out: &mut Vec<Diagnostic>) -> BoardField {
    let slashed: String = text.chars().map(|c| if c.is_ascii() && separators.contains(&c) { '/' } else { c }).collect();
    build_board(&slashed, offset, out)
}

/// The rank `row` (a span of the board field `board`) of `squares`, its squares and faults.
fn build_rank(
    board: &str,
    row: Span,
    squares: &[(Rule, Span)],
    offset: usize,
    cells: &mut Vec<Spanned<Cell>>,
    out: &mut Vec<Diagnostic>,
) -> Rank {
    let span = row.shift(offset);
    let row_text = row.slice(board);
    let first = cells.len();
    let mut bad: Vec<(Span, char)> = Vec::new();
    for &(rule, at) in squares {
        let s = at.shift(offset);
        let text = at.slice(board);
        if rule != Rule::bad_square {
            flush_bad(&mut bad, cells, BadContext::Board, out);
        }
        match rule {
            Rule::empty_run | Rule::piece | Rule::promoted_piece => match token::cell(text) {
                Some(cell) => cells.push(Spanned::new(cell, s)),
                None => {
                    out.push(internal(text).shifted(s.start));
                    cells.push(Spanned::new(Cell::Fault { width: 1 }, s));
                }
            },
            Rule::unpromotable => {
                let letter = text.chars().last().unwrap_or(' ');
                let kind = PieceKind::from_letter(letter).map_or("piece", PieceKind::name);
                out.push(
                    Diagnostic::error(
                        codes::sfen::UNPROMOTABLE,
                        s,
                        format!("a {kind} cannot be promoted, so `{text}` is not a piece"),
                    )
                    .label(format!("`+` before a {kind}"))
                    .help(format!("kings and golds never promote: write `{letter}`"))
                    .fix(Fix::replace(s, letter.to_string(), Applicability::Safe)),
                );
                cells.push(Spanned::new(Cell::Fault { width: 1 }, s));
            }
            Rule::dangling_promotion => {
                out.push(
                    Diagnostic::error(
                        codes::sfen::DANGLING_PROMOTION,
                        s,
                        "`+` must stand right before the piece it promotes",
                    )
                    .label("promotes nothing")
                    .help(
                        "write `+` directly before a rook, bishop, silver, knight, lance or pawn (`+P`), or remove it",
                    )
                    .fix(Fix::replace(s, "", Applicability::Unsafe)),
                );
                cells.push(Spanned::new(Cell::Fault { width: 0 }, s));
            }
            Rule::zero_run => {
                out.push(fields::zero_count(
                    codes::sfen::EMPTY_COUNT_ZERO,
                    s,
                    "`0` counts no empty squares",
                    "empty squares are counted with the digits 1 to 9: remove the `0`",
                    row_text,
                    span.start,
                ));
                cells.push(Spanned::new(Cell::Fault { width: 0 }, s));
            }
            Rule::bad_square => bad.push((s, text.chars().next().unwrap_or(' '))),
            other => unreachable!("build_rank: {other:?}"),
        }
    }
    flush_bad(&mut bad, cells, BadContext::Board, out);
    Rank { span, cells: first..cells.len() }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BadContext {
    Board,
    Hand,
}

/// The codes of the faults SFEN shares with the other formats.
const CODES: fields::Codes = fields::Codes {
    format: "SFEN",
    first_field: "the board",
    leading: codes::sfen::LEADING_WHITESPACE,
    trailing: codes::sfen::TRAILING_WHITESPACE,
    separator: codes::sfen::SEPARATOR,
    lookalike: codes::sfen::LOOKALIKE,
};

/// Reports a run of characters that are not part of the grammar as one diagnostic; on the
/// board, each stands for the squares it seems to mean.
fn flush_bad(
    bad: &mut Vec<(Span, char)>,
    cells: &mut Vec<Spanned<Cell>>,
    context: BadContext,
    out: &mut Vec<Diagnostic>,
) {
    if context == BadContext::Board {
        for &(s, c) in bad.iter() {
            // A full-width digit stands for that many squares, a space or a look-alike `/` or
            // `+` for none, anything else for one.
            let width = match lookalike::ascii_for(c) {
                Some(d @ '1'..='9') => d as u8 - b'0',
                Some('/' | '+') => 0,
                _ if c == ' ' => 0,
                _ => 1,
            };
            cells.push(Spanned::new(Cell::Fault { width }, s));
        }
    }
    let unknown = match context {
        BadContext::Board => fields::Unknown::new(codes::sfen::UNKNOWN_PIECE, "shogi piece", "pieces are K R B G S N L P for Black and k r b g s n l p for White, `+` before a promoted one; digits 1-9 count empty squares", "KRBGSNLPkrbgsnlp123456789+/"),
        BadContext::Hand => fields::Unknown::new(codes::sfen::UNKNOWN_HAND_PIECE, "shogi piece", "a hand lists R B G S N L P (Black) and r b g s n l p (White), each after an optional count, or is `-`", "RBGSNLPrbgsnlp0123456789-"),
    };
    if context == BadContext::Board && bad.iter().all(|(_, c)| *c == ' ') {
        if let Some(first) = bad.first() {
            let span = first.0.to(bad[bad.len() - 1].0);
            out.push(
                Diagnostic::error(codes::sfen::SEPARATOR, span, "a space splits the board")
                    .label("inside the board")
                    .help("the board is one field without spaces: remove the space (a square it replaced is counted as missing)")
                    .fix(Fix::replace(span, "", Applicability::Safe)),
            );
        }
    } else {
        out.extend(fields::bad_run(bad, &CODES, &unknown));
    }
    bad.clear();
}

fn build_side(text: &str, span: Span, choice: DialectChoice, out: &mut Vec<Diagnostic>) -> Option<Spanned<Side>> {
    match SfenParser::parse(Rule::side_field, text) {
        Ok(_) => {
            let side = token::side(text);
            if side.is_none() {
                out.push(internal(text).shifted(span.start));
            }
            side.map(|side| Spanned::new(side, span))
        }
        Err(error) => {
            let expected = super::expected_words(&error);
            let mut chars = text.chars();
            let single = chars.next().filter(|_| chars.next().is_none());
            let lower = text.to_ascii_lowercase();
            // A word for a side is written as the dialect asked for writes it.
            let (black, white) = if choice == DialectChoice::Sfen2007 { ("B", "W") } else { ("b", "w") };
            let suggestion = match (single.and_then(lookalike::ascii_for), lower.as_str()) {
                (Some(c), _) if side_ok(&c.to_string()) => Some(c.to_string()),
                (_, "black" | "sente" | "s" | "+" | "▲" | "☗" | "先手") => Some(black.to_owned()),
                (_, "white" | "gote" | "g" | "▽" | "△" | "☖" | "後手") => Some(white.to_owned()),
                _ => None,
            };
            let diag = match suggestion {
                Some(s) if single.is_some_and(|c| lookalike::ascii_for(c).is_some()) => {
                    let fits = token::side(&s).is_some_and(|side| allows(choice, side.dialect));
                    fields::lookalike_finding(&CODES, span, &lookalike::describe(single.unwrap_or(' ')), &s, fits)
                }
                Some(s) => Diagnostic::error(codes::sfen::SIDE, span, format!("`{text}` is not a side to move"))
                    .label(format!("did you mean `{s}`?"))
                    .help(format!("write `{s}`: the side to move is `b` (Black, sente) or `w` (White, gote); SFEN 2007 writes `B` or `W`"))
                    .fix(Fix::replace(span, s, Applicability::Safe)),
                None => Diagnostic::error(codes::sfen::SIDE, span, format!("`{}` is not a side to move", text.escape_debug()))
                    .label(format!("expected {expected}"))
                    .help("the side to move is `b` (Black, sente) or `w` (White, gote); SFEN 2007 writes `B` or `W`"),
            };
            out.push(diag);
            None
        }
    }
}

/// Reads a hand field that starts at `offset` of its text, with a diagnostic for every fault.
pub fn build_hand(text: &str, offset: usize, out: &mut Vec<Diagnostic>) -> Hand {
    let mut hand = Hand { span: Span::new(offset, offset + text.len()), entries: Vec::new() };
    let Some(pair) = parse_total(Rule::hand_lenient, text) else {
        out.push(internal(text).shifted(offset));
        return hand;
    };
    let mut dashes = Vec::new();
    let mut bad: Vec<(Span, char)> = Vec::new();
    let mut faults = 0;
    let mut no_cells = Vec::new();
    let items: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
    for (i, item) in items.iter().enumerate() {
        let item = item.clone();
        let s = Span::of(item.as_span()).shift(offset);
        // A count before an unknown letter counts that letter, which is reported itself.
        let before_unknown = items.get(i + 1).is_some_and(|next| next.as_rule() == Rule::bad_hand_char);
        if item.as_rule() != Rule::bad_hand_char {
            faults += usize::from(!bad.is_empty());
            flush_bad(&mut bad, &mut no_cells, BadContext::Hand, out);
        }
        match item.as_rule() {
            Rule::NO_INFORMATION => dashes.push(s),
            Rule::hand_entry_lenient => {
                // The hand is this entry alone (and the end of the text).
                let alone = items.len() == 2;
                if let Some(entry) = build_hand_entry(item, offset, alone, out) {
                    hand.entries.push(entry);
                } else {
                    faults += 1;
                }
            }
            Rule::dangling_count if before_unknown => faults += 1,
            Rule::dangling_count => {
                faults += 1;
                out.push(
                    Diagnostic::error(
                        codes::sfen::DANGLING_COUNT,
                        s,
                        format!("the count `{}` has no piece after it", item.as_str()),
                    )
                    .label("a count of nothing")
                    .help("write the piece after its count, as in `2P`, or remove the count"),
                );
            }
            Rule::bad_hand_char => bad.push((s, item.as_str().chars().next().unwrap_or(' '))),
            Rule::EOI => {}
            other => unreachable!("build_hand: {other:?}"),
        }
    }
    flush_bad(&mut bad, &mut no_cells, BadContext::Hand, out);
    if !dashes.is_empty() && (dashes.len() > 1 || !hand.entries.is_empty() || faults > 0) {
        let (means, label) = ("stands for empty hands", "`-` means no pieces in hand");
        let lists = !hand.entries.is_empty();
        let mut diag =
            fields::dash_with_more(codes::sfen::HAND_DASH, dashes[0], means, label, lists, "this hand lists pieces");
        for &d in &dashes[1..] {
            diag = diag.with(d, "another `-`");
        }
        if faults == 0 {
            diag = diag.fix(fields::dashes_fix(&dashes, hand.span, lists));
        }
        out.push(diag);
    }
    hand
}

fn build_hand_entry(item: Pair<'_, Rule>, offset: usize, alone: bool, out: &mut Vec<Diagnostic>) -> Option<HandEntry> {
    let span = Span::of(item.as_span()).shift(offset);
    let mut count = None;
    let mut piece = None;
    let mut ok = true;
    for part in item.into_inner() {
        let s = Span::of(part.as_span()).shift(offset);
        let text = part.as_str();
        match part.as_rule() {
            Rule::loose_count => {
                let value = token::hand_count(text);
                if value.is_none() {
                    ok = false;
                    // A piece held 0 times is left out; a hand of nothing else is `-`.
                    let left_out = Fix::replace(span, if alone { "-" } else { "" }, Applicability::Safe);
                    out.push(hand_count_fault(text, s, left_out));
                }
                count = value.map(|v| Spanned::new(v, s));
            }
            Rule::hand_piece => {
                piece = token::hand_piece(text).map(|p| Spanned::new(p, s));
                if piece.is_none() {
                    ok = false;
                    out.push(internal(text).shifted(s.start));
                }
            }
            Rule::hand_king => {
                ok = false;
                out.push(
                    Diagnostic::error(codes::sfen::KING_IN_HAND, s, "a king can never be in hand")
                        .label("a king")
                        .help("kings are never captured or dropped: put the king on the board, or remove it"),
                );
            }
            Rule::hand_promoted => {
                ok = false;
                let base = text.trim_start_matches('+');
                out.push(
                    Diagnostic::error(
                        codes::sfen::PROMOTED_IN_HAND,
                        s,
                        format!("`{text}` is a promoted piece; pieces in hand are never promoted"),
                    )
                    .label("promoted")
                    .help(format!("a captured piece goes to hand unpromoted: write `{base}`"))
                    .fix(Fix::replace(s, base, Applicability::Safe)),
                );
            }
            other => unreachable!("build_hand_entry: {other:?}"),
        }
    }
    match (ok, piece) {
        (true, Some(piece)) => Some(HandEntry { span, count, piece }),
        _ => None,
    }
}

/// The finding for a hand count `text` at `s` that is not a count from 1 to 99.
/// `left_out` is the fix of a count of 0: the entry left out.
fn hand_count_fault(text: &str, s: Span, left_out: Fix) -> Diagnostic {
    if text.bytes().all(|b| b == b'0') {
        Diagnostic::error(codes::sfen::HAND_COUNT_ZERO, s, "a count of 0 in hand")
            .label("zero pieces")
            .help("leave out a piece the side does not hold")
            .fix(left_out)
    } else if text.len() > 2 {
        Diagnostic::error(codes::sfen::HAND_COUNT_RANGE, s, format!("the count `{text}` has more than two digits"))
            .label("counts run from 1 to 99")
            .help("a count is one or two digits (`integer ::= [1-9][0-9]?`); a set has at most 18 of a kind")
    } else {
        Diagnostic::error(codes::sfen::HAND_COUNT_FORM, s, format!("the count `{text}` has a leading zero"))
            .label("leading zero")
            .help(format!("write `{}`", text.trim_start_matches('0')))
            .fix(Fix::replace(s, text.trim_start_matches('0'), Applicability::Safe))
    }
}

fn build_move_number(text: &str, span: Span, out: &mut Vec<Diagnostic>) -> Option<Spanned<u64>> {
    if parse_total(Rule::move_number_lenient, text).is_none() {
        let meant: Option<String> = text.chars().map(lookalike::ascii_for).collect();
        let diag = match meant {
            Some(m) if is_digits(&m) => {
                fields::lookalike_finding(&CODES, span, &format!("`{text}`"), &m, !m.starts_with('0'))
            }
            _ if text.starts_with('-') && is_digits(&text[1..]) => Diagnostic::error(
                codes::sfen::MOVE_NUMBER,
                span,
                format!("`{text}` is negative; move numbers are positive"),
            )
            .label("a negative number")
            .help("the start position is move 1, and each move adds one"),
            _ => Diagnostic::error(
                codes::sfen::MOVE_NUMBER,
                span,
                format!("`{}` is not a move number", text.escape_debug()),
            )
            .label("expected a positive whole number")
            .help("the move number counts plies from 1, the start position: write digits only, or leave the field out"),
        };
        out.push(diag);
        return None;
    }
    if text.bytes().all(|b| b == b'0') {
        out.push(
            Diagnostic::error(codes::sfen::MOVE_NUMBER_ZERO, span, "move numbers start at 1")
                .label("move 0")
                .help("the start position is move 1: write `1`, or leave the field out")
                .fix(Fix::replace(span, "1", Applicability::Unsafe)),
        );
        return None;
    }
    if text.starts_with('0') {
        out.push(
            Diagnostic::error(
                codes::sfen::MOVE_NUMBER_FORM,
                span,
                format!("the move number `{text}` has a leading zero"),
            )
            .label("leading zero")
            .help(format!("write `{}`", text.trim_start_matches('0')))
            .fix(Fix::replace(span, text.trim_start_matches('0'), Applicability::Safe)),
        );
        return None;
    }
    match token::move_number(text) {
        Some(n) => Some(Spanned::new(n, span)),
        None => {
            out.push(
                Diagnostic::error(codes::sfen::MOVE_NUMBER_RANGE, span, "the move number is too large")
                    .label(format!("{} digits", text.len()))
                    .help(format!("kifu reads move numbers up to {}", u64::MAX)),
            );
            None
        }
    }
}

fn resolve_dialect(record: &Record, choice: DialectChoice, out: &mut Vec<Diagnostic>) -> Option<Dialect> {
    let side = record.side;
    let big_move = record.move_number.filter(|m| m.node > 99);
    match choice {
        DialectChoice::Auto => {
            let dialect = side.map(|s| s.node.dialect);
            if let (Some(s), Some(m)) = (side.filter(|s| s.node.dialect == Dialect::Sfen2007), big_move) {
                let usi = Side { color: s.node.color, dialect: Dialect::Usi }.letter();
                out.push(
                    Diagnostic::error(
                        codes::sfen::MIXED_DIALECT,
                        m.span,
                        "this record mixes dialects: a three-digit move number with an SFEN 2007 side letter",
                    )
                    .label("SFEN 2007 move numbers have at most two digits")
                    .with(s.span, "an SFEN 2007 side letter")
                    .help(format!("write the side as `{usi}` to make this a USI record"))
                    .fix(Fix::replace(s.span, usi.to_string(), Applicability::Safe)),
                );
            }
            dialect
        }
        DialectChoice::Usi => {
            out.extend(side.and_then(|s| other_side_letter(s, Dialect::Usi)));
            Some(Dialect::Usi)
        }
        DialectChoice::Sfen2007 => {
            out.extend(side.and_then(|s| other_side_letter(s, Dialect::Sfen2007)));
            if let Some(m) = big_move {
                out.push(
                    Diagnostic::error(
                        codes::sfen::DIALECT,
                        m.span,
                        format!("SFEN 2007 move numbers have one or two digits; `{}` has more", m.node),
                    )
                    .label("`integer ::= [1-9][0-9]?`")
                    .help("USI accepts a move number of any size: check this record with `--dialect usi` (or `auto`)"),
                );
            }
            Some(Dialect::Sfen2007)
        }
    }
}

/// The finding for a side letter of the other dialect than `wanted`, if `side` is written so.
fn other_side_letter(side: Spanned<Side>, wanted: Dialect) -> Option<Diagnostic> {
    let written = side.node.dialect;
    if written == wanted {
        return None;
    }
    let meant = Side { color: side.node.color, dialect: wanted }.letter();
    let message =
        format!("`{}` is the {} side letter; {} writes `{meant}`", side.node.letter(), written.title(), wanted.title());
    let help = format!(
        "write `{meant}`, or check this record with `--dialect {}` (or `auto`), which accepts it",
        written.as_str()
    );
    Some(
        Diagnostic::error(codes::sfen::DIALECT, side.span, message)
            .label(format!("did you mean `{meant}`?"))
            .help(help)
            .fix(Fix::replace(side.span, meant.to_string(), Applicability::Safe)),
    )
}

#[cfg(test)]
mod tests {
    use super::{Rule, SfenParser};

    /// The automata of `row_lenient`'s alternatives read a board field as pest reads
    /// `board_lenient`.
    #[test]
    fn the_automata_read_a_board_as_pest_does() {
        let squares = super::squares().expect("the alternatives compile");
        crate::notation::fields::check_rows_read_as_pest::<SfenParser, Rule>(
            squares,
            Rule::board_lenient,
            Rule::row_lenient,
            "1+Kgp0/xé9",
            &["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL", "ln+g+k+/+r0x/é+é/+", "//", ""],
        );
    }
}
