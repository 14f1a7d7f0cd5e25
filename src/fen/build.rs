//! pest pairs → FEN syntax tree, with a diagnostic for every syntax fault.
//!
//! As for SFEN, the record is split into fields by the total rule `line`, and each field is
//! parsed on its own by its recovery rule, so one bad field never hides another; the fields and
//! gaps, and the placement's ranks and squares, are found by automata compiled from those rules.

use crate::diagnostic::codes;
use pest::iterators::Pair;
use pest::Parser;

use super::ast::{Castling, Cell, Dialect, Placement, Rank, Record};
use super::parser::{FenParser, Rule};
use super::{token, Kind};
use crate::chess::{CastleRight, CastleSide};
use crate::chess::{Color, Square};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::notation::{fields, foreign, lookalike};
use crate::span::{Span, Spanned};

/// The start position, for help texts.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const CODES: fields::Codes = fields::Codes {
    format: "FEN",
    first_field: "the piece placement",
    leading: codes::fen::LEADING_WHITESPACE,
    trailing: codes::fen::TRAILING_WHITESPACE,
    separator: codes::fen::SEPARATOR,
    lookalike: codes::fen::LOOKALIKE,
};

const FIELD_NAMES: [&str; 6] = [
    "the piece placement",
    "the active colour",
    "the castling rights",
    "the en passant square",
    "the halfmove clock",
    "the fullmove number",
];

/// Reads `text` (one record, without its end of line) as `kind` into a syntax tree and the
/// syntax faults found in it.
pub fn build(text: &str, kind: Kind, dialect: Dialect) -> (Record, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let record = build_record(text, kind, dialect, &mut out);
    let rule = super::fast::record_rule(kind, dialect);
    let format = if kind == Kind::Epd { "EPD" } else { "FEN" };
    let automaton = super::fast::automaton(kind, dialect);
    out.extend(crate::notation::fields::grammar_verdict::<FenParser, Rule>(
        text,
        automaton,
        rule,
        &out,
        codes::fen::SYNTAX,
        format,
        super::rule_words,
    ));
    out.sort_by_key(|d| d.span().start);
    (record, out)
}

fn parse_total(rule: Rule, text: &str) -> Option<Pair<'_, Rule>> {
    FenParser::parse(rule, text).ok().and_then(|mut pairs| pairs.next())
}

fn internal(span: Span) -> Diagnostic {
    Diagnostic::error(codes::fen::INTERNAL, span, "kifu could not read this record (a grammar fault)")
        .help("please report this record to kifu's authors")
}

fn build_record(text: &str, kind: Kind, dialect: Dialect, out: &mut Vec<Diagnostic>) -> Record {
    let mut record = Record { span: Span::new(0, text.len()), ..Record::default() };
    let split = fields::split_board_first::<FenParser, Rule>(text, [Rule::line, Rule::field, Rule::gap], |_| false);
    let Some((mut fields, mut gaps)) = split else {
        out.push(internal(record.span));
        return record;
    };
    if kind == Kind::Fen && fields.len() == FIELD_NAMES.len() - 1 {
        find_lost_field(text, &mut fields, &mut gaps, out);
    }
    // EPD's operations are read by their own rule, whose quoted operands may hold any spaces:
    // only the gaps of the four fields, and the record's last, are the common rule's to judge.
    if let (Kind::Epd, Some(operations)) = (kind, fields.get(4)) {
        let start = operations.start;
        gaps.retain(|g| g.end <= start || g.end == text.len());
    }
    fields::check_gaps(text, &gaps, &CODES, out);
    if fields.is_empty() {
        let help = format!("a FEN record has six fields, as in `{START}`");
        out.push(fields::empty_record(codes::fen::EMPTY_RECORD, Span::point(text.len()), help));
        return record;
    }
    // An empty field was left out, and is already reported.
    let field = |i: usize| fields.get(i).filter(|s| !s.is_empty()).map(|s| (s.slice(text), *s));
    // Ranks of nine squares: a shogi record, not a chess one. One finding says so instead of a
    // list of unknown pieces.
    if field(0).is_some_and(|(b, _)| foreign::other_board(b, 9)) {
        out.push(foreign::report(text, super::shape(kind, dialect), foreign::Looks::Sfen, None));
        return record;
    }
    record.placement = field(0).map(|(t, s)| build_placement(t, s.start, out));
    record.side = field(1).and_then(|(t, s)| build_side(t, s, out));
    record.castling = field(2).map(|(t, s)| build_castling(t, s, dialect, out));
    record.en_passant = field(3).and_then(|(t, s)| build_en_passant(t, s, out));
    match kind {
        Kind::Fen => {
            record.halfmove = field(4).and_then(|(t, s)| build_counter(t, s, false, out));
            record.fullmove = field(5).and_then(|(t, s)| build_counter(t, s, true, out));
            check_extra_fields(&fields, out);
        }
        Kind::Epd => record.operations = fields.get(4).map(|first| build_operations(text, first.start, out)),
    }
    check_missing_fields(text, fields.len(), kind, out);
    record
}

/// One field short: says where it went instead of blaming every field that moved into its
/// place. Either the active colour is glued to the placement, or two spaces hold nothing; the
/// field found is put back in `fields` (an empty span for one that holds nothing).
fn find_lost_field(text: &str, fields: &mut Vec<Span>, gaps: &mut Vec<Span>, out: &mut Vec<Diagnostic>) {
    if let Some(at) = glued_side(text, fields[0]) {
        out.push(
            Diagnostic::error(
                codes::fen::SEPARATOR,
                Span::point(at),
                "a space is missing between the piece placement and the active colour",
            )
            .label("a space goes here")
            .help("separate the fields with a single space")
            .fix(Fix::replace(Span::point(at), " ", Applicability::Safe)),
        );
        fields.insert(1, Span::new(at, fields[0].end));
        fields[0].end = at;
    } else if let Some(i) = gaps.iter().position(|g| g.slice(text) == "  ") {
        let gap = gaps.remove(i);
        let at = gap.start + 1;
        let index = fields.iter().position(|f| f.start > at).unwrap_or(fields.len());
        let name = FIELD_NAMES[index];
        out.push(
            Diagnostic::error(
                codes::fen::MISSING_FIELD,
                Span::point(at),
                format!("{name} {} missing", if name.ends_with('s') { "are" } else { "is" }),
            )
            .label("nothing between these two spaces")
            .help(format!("write {name} here, as in `{START}`")),
        );
        fields.insert(index, Span::point(at));
    }
}

/// Reports the fields after a FEN's sixth.
fn check_extra_fields(fields: &[Span], out: &mut Vec<Diagnostic>) {
    if fields.len() > 6 {
        // The space before the extra fields goes with them: removing both leaves a record.
        let extra = Span::new(fields[5].end, fields[fields.len() - 1].end);
        out.push(
            Diagnostic::error(
                codes::fen::EXTRA_FIELD,
                extra,
                format!("the record has {} fields; FEN has six", fields.len()),
            )
            .label("unexpected")
            .help(
                "a FEN record ends with the fullmove number: remove what follows (EPD operations need `--format epd`)",
            )
            .fix(Fix::replace(extra, "", Applicability::Unsafe)),
        );
    }
}

/// The span of an EPD's operations, from `start` to the end of the record, with a finding
/// where the grammar stops reading them.
fn build_operations(text: &str, start: usize, out: &mut Vec<Diagnostic>) -> Span {
    let ops = Span::new(start, text.len());
    let stop = fields::grammar_stop::<FenParser, Rule>(
        ops.slice(text),
        super::fast::operations(),
        Rule::epd_operations_field,
        super::rule_words,
    );
    if let Some(stop) = stop {
        out.push(fields::stop_report(codes::fen::EPD_OPERATIONS, "the EPD operations", ops.slice(text), ops.start, &stop).help(
            "each operation is an opcode, its operands and a `;`, as in `bm Nf3; id \"test 1\";`; an operand that opens a quote closes it",
        ));
    }
    ops
}

/// Reports the fields a record of `kind` lacks, when it has `count`: FEN has six, EPD four,
/// then operations.
fn check_missing_fields(text: &str, count: usize, kind: Kind, out: &mut Vec<Diagnostic>) {
    let wanted = match kind {
        Kind::Fen => 6,
        Kind::Epd => 4,
    };
    if count >= wanted {
        return;
    }
    let missing = &FIELD_NAMES[count..wanted];
    // Four fields are a position without its history, which ` 0 1` gives; the fullmove number
    // alone may instead be the halfmove clock missing.
    let (message, help, fix) = match (kind, count) {
        (Kind::Fen, 4) => (
            "the halfmove clock and the fullmove number are missing".to_owned(),
            "add ` 0 1` for a position with no known history (or read it as EPD with `--format epd`)".to_owned(),
            Some((" 0 1", Applicability::Safe)),
        ),
        (Kind::Fen, 5) => (
            "the fullmove number is missing".to_owned(),
            "add the fullmove number, ` 1` when it is not known".to_owned(),
            Some((" 1", Applicability::Unsafe)),
        ),
        _ => (
            format!("{} {} missing", join(missing), if missing.len() == 1 { "is" } else { "are" }),
            format!("a FEN record has six fields, as in `{START}`"),
            None,
        ),
    };
    let end = Span::point(text.len());
    let diag = Diagnostic::error(codes::fen::MISSING_FIELD, end, message).label("the record ends here").help(help);
    out.push(match fix {
        Some((added, applicability)) => diag.fix(Fix::replace(end, added, applicability)),
        None => diag,
    });
}

/// Where the active colour starts when it is glued to the placement (`…/RNBQKBNRw`): the last
/// rank is a square too wide and ends with `w` or `b`.
fn glued_side(text: &str, placement: Span) -> Option<usize> {
    let field = placement.slice(text);
    let last = field.rsplit('/').next()?;
    let width = |r: &str| -> u32 { r.chars().map(|c| c.to_digit(10).unwrap_or(1)).sum() };
    let glued = field.matches('/').count() == 7
        && (last.ends_with('w') || last.ends_with('b'))
        && width(&last[..last.len() - 1]) == 8;
    glued.then(|| placement.end - 1)
}

fn join(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The squares of `rank_lenient`, compiled once; `None` if they do not compile.
pub(crate) fn squares() -> Option<&'static fields::RowSquares<Rule>> {
    static SQUARES: std::sync::OnceLock<Option<fields::RowSquares<Rule>>> = std::sync::OnceLock::new();
    SQUARES
        .get_or_init(|| {
            fields::RowSquares::compile(super::fast::GRAMMAR.rules()?, Rule::rank_lenient, Rule::all_rules())
        })
        .as_ref()
}

fn build_placement(text: &str, offset: usize, out: &mut Vec<Diagnostic>) -> Placement {
    let mut placement =
        Placement { span: Span::new(offset, offset + text.len()), ranks: Vec::new(), cells: Vec::new() };
    let rows = fields::board_rows::<FenParser, Rule>(text, squares(), Rule::placement_lenient, Rule::rank_lenient);
    let Some(rows) = rows else {
        out.push(internal(placement.span));
        return placement;
    };
    let unknown = fields::Unknown::new(
        codes::fen::UNKNOWN_PIECE,
        "chess piece",
        "pieces are P N B R Q K for White and p n b r q k for Black; digits 1-8 count blank squares",
        "PNBRQKpnbrqk12345678/",
    );
    for (row, squares) in rows {
        let span = row.shift(offset);
        let rank_text = row.slice(text);
        let first = placement.cells.len();
        let mut bad: Vec<(Span, char)> = Vec::new();
        for (rule, at) in squares {
            let s = at.shift(offset);
            let t = at.slice(text);
            if rule != Rule::bad_fen_square {
                flush_placement_faults(&bad, &unknown, out);
                bad.clear();
            }
            let cell = match rule {
                Rule::blank_run | Rule::fen_piece => token::cell(t).unwrap_or_else(|| {
                    out.push(internal(s));
                    Cell::Fault { width: 1 }
                }),
                Rule::blank_zero => {
                    out.push(fields::zero_count(
                        codes::fen::BLANK_ZERO,
                        s,
                        "`0` counts no blank squares",
                        "blank squares are counted with the digits 1 to 8: remove the `0`",
                        rank_text,
                        span.start,
                    ));
                    Cell::Fault { width: 0 }
                }
                Rule::blank_nine => Cell::Fault { width: 9 },
                Rule::bad_fen_square => {
                    let c = t.chars().next().unwrap_or(' ');
                    bad.push((s, c));
                    let width = match lookalike::ascii_for(c) {
                        Some(d @ '1'..='8') => d as u8 - b'0',
                        Some('/') => 0,
                        _ if c == ' ' => 0,
                        _ => 1,
                    };
                    Cell::Fault { width }
                }
                other => unreachable!("build_placement: {other:?}"),
            };
            placement.cells.push(Spanned::new(cell, s));
        }
        flush_placement_faults(&bad, &unknown, out);
        placement.ranks.push(Rank { span, cells: first..placement.cells.len() });
    }
    placement.check_shape::<super::shape::Shape>(out);
    placement
}

/// Reports characters of the placement the grammar does not know; a space gets its own finding,
/// since it means the placement was split.
fn flush_placement_faults(bad: &[(Span, char)], unknown: &fields::Unknown, out: &mut Vec<Diagnostic>) {
    if let (Some(first), true) = (bad.first(), bad.iter().all(|(_, c)| *c == ' ')) {
        let span = first.0.to(bad[bad.len() - 1].0);
        out.push(
            Diagnostic::error(codes::fen::SEPARATOR, span, "a space splits the piece placement")
                .label("inside the placement")
                .help("the placement is one field without spaces: remove the space, or put back the square it replaced")
                .fix(Fix::replace(span, "", Applicability::Safe)),
        );
    } else {
        out.extend(fields::bad_run(bad, &CODES, unknown));
    }
}

fn build_side(text: &str, span: Span, out: &mut Vec<Diagnostic>) -> Option<Spanned<Color>> {
    if let Some(color) = token::side(text) {
        return Some(Spanned::new(color, span));
    }
    let single = (text.chars().count() == 1).then(|| text.chars().next()).flatten();
    let meant = match (single.and_then(lookalike::ascii_for), text.to_ascii_lowercase().as_str()) {
        (Some(c @ ('w' | 'b')), _) => Some((c, true)),
        (_, "w" | "white") => Some(('w', false)),
        (_, "b" | "black") => Some(('b', false)),
        _ => None,
    };
    let diag = match meant {
        Some((c, true)) => {
            fields::lookalike_finding(&CODES, span, &lookalike::describe(single.unwrap_or(' ')), &c.to_string(), true)
        }
        Some((c, false)) => Diagnostic::error(codes::fen::SIDE, span, format!("`{text}` is not an active colour"))
            .label(format!("did you mean `{c}`?"))
            .help(format!("write `{c}`: the active colour is `w` (White to move) or `b` (Black to move), in lowercase"))
            .fix(Fix::replace(span, c.to_string(), Applicability::Safe)),
        None => Diagnostic::error(codes::fen::SIDE, span, format!("`{}` is not an active colour", text.escape_debug()))
            .label("expected `w` or `b`")
            .help("the active colour is `w` (White to move) or `b` (Black to move)"),
    };
    out.push(diag);
    None
}

fn build_castling(text: &str, span: Span, dialect: Dialect, out: &mut Vec<Diagnostic>) -> Castling {
    let mut castling = Castling { span, rights: Vec::new() };
    let Some(pair) = parse_total(Rule::castling_lenient, text) else {
        out.push(internal(span));
        return castling;
    };
    let mut dashes = Vec::new();
    let mut files = Vec::new();
    let mut bad: Vec<(Span, char)> = Vec::new();
    let mut clean = true;
    let unknown = fields::Unknown::new(codes::fen::CASTLING, "castling right", "castling rights are `-` or some of `K`, `Q`, `k`, `q` (White king-side, White queen-side, Black king-side, Black queen-side)", if dialect == Dialect::Standard { "KQkq-" } else { "KQkqABCDEFGHabcdefgh-" });
    for item in pair.into_inner() {
        let s = Span::of(item.as_span()).shift(span.start);
        let t = item.as_str();
        let c = t.chars().next().unwrap_or(' ');
        if item.as_rule() != Rule::bad_castling_char {
            out.extend(fields::bad_run(&bad, &CODES, &unknown));
            bad.clear();
        }
        match item.as_rule() {
            Rule::castling960_right => match token::castle_right(t) {
                Some(right) => {
                    if matches!(right.side, CastleSide::File(_)) {
                        files.push(s);
                    }
                    castling.rights.push(Spanned::new(right, s));
                }
                None => out.push(internal(s)),
            },
            Rule::castling_dash => dashes.push(s),
            Rule::bad_castling_char => {
                clean = false;
                bad.push((s, c));
            }
            Rule::EOI => {}
            other => unreachable!("build_castling: {other:?}"),
        }
    }
    out.extend(fields::bad_run(&bad, &CODES, &unknown));
    check_castling_letters(&castling, &dashes, &files, dialect, clean, out);
    castling
}

/// Reports the castling field's letters that cannot stand together: `-` with rights (`dashes`
/// are the `-`s), rook files (`files`) in standard chess, a right listed twice; `clean` when
/// the field holds no character it does not know.
fn check_castling_letters(
    castling: &Castling,
    dashes: &[Span],
    files: &[Span],
    dialect: Dialect,
    clean: bool,
    out: &mut Vec<Diagnostic>,
) {
    if !dashes.is_empty() && (dashes.len() > 1 || !castling.rights.is_empty()) {
        let lists = !castling.rights.is_empty();
        let means = "means no castling rights";
        let diag = fields::dash_with_more(
            codes::fen::CASTLING,
            dashes[0],
            means,
            "no castling rights",
            lists,
            "this field lists rights",
        );
        out.push(if clean { diag.fix(fields::dashes_fix(dashes, castling.span, lists)) } else { diag });
    }
    if dialect == Dialect::Standard && !files.is_empty() {
        let mut diag = Diagnostic::error(
            codes::fen::CASTLING_CHESS960,
            files[0],
            "a rook's file as a castling right is Chess960 notation (Shredder-FEN or X-FEN)",
        )
        .label("a Chess960 castling right");
        for f in &files[1..] {
            diag = diag.with(*f, "another");
        }
        // Shredder-FEN's outer files are standard FEN's `K` and `Q`.
        out.push(match standard_rights(castling).filter(|_| clean && dashes.is_empty()) {
            Some(standard) => diag
                .help(format!(
                    "standard FEN writes `{standard}` (or check Chess960 positions with `--dialect chess960`)"
                ))
                .fix(Fix::replace(castling.span, standard, Applicability::Safe)),
            None => diag.help("check Chess960 positions with `--dialect chess960`; standard FEN writes `KQkq`"),
        });
    }
    // Each right at most once.
    for (i, r) in castling.rights.iter().enumerate() {
        if let Some(first) = castling.rights[..i].iter().find(|e| e.node == r.node) {
            out.push(
                Diagnostic::error(
                    codes::fen::CASTLING_REPEAT,
                    r.span,
                    format!("the castling right `{}` is listed twice", r.node.letter()),
                )
                .label("again")
                .with(first.span, "first here")
                .help("list each castling right once")
                .fix(Fix::replace(r.span, "", Applicability::Safe)),
            );
        }
    }
}

/// The castling rights in standard FEN, in the usual order, when every rook's file they name is
/// the `h` file (`K`) or the `a` file (`Q`).
fn standard_rights(castling: &Castling) -> Option<String> {
    let mut rights = castling
        .rights
        .iter()
        .map(|r| {
            let side = match r.node.side {
                CastleSide::File(std::cmp::Reverse(7)) => CastleSide::King,
                CastleSide::File(std::cmp::Reverse(0)) => CastleSide::Queen,
                CastleSide::File(_) => return None,
                side => side,
            };
            Some(CastleRight { side, ..r.node })
        })
        .collect::<Option<Vec<CastleRight>>>()?;
    rights.sort_unstable();
    rights.dedup();
    Some(rights.iter().map(|r| r.letter()).collect())
}

fn build_en_passant(text: &str, span: Span, out: &mut Vec<Diagnostic>) -> Option<Spanned<Option<Square>>> {
    if FenParser::parse(Rule::ep_field, text).is_ok() {
        let square = token::en_passant(text);
        if square.is_none() {
            out.push(internal(span));
        }
        return square.map(|square| Spanned::new(square, span));
    }
    let meant: Option<String> =
        text.chars().map(|c| lookalike::ascii_for(c).or(Some(c).filter(char::is_ascii))).collect();
    let diag = if let (Some(m), false) = (meant.as_deref(), text.is_ascii()) {
        let fits = FenParser::parse(Rule::ep_field, m).is_ok();
        fields::lookalike_finding(&CODES, span, &format!("`{text}`"), m, fits)
    } else if text.len() > 1 && text.bytes().all(|b| b == b'-') {
        Diagnostic::error(codes::fen::EN_PASSANT, span, format!("`{text}` is not an en passant square"))
            .label("one `-` says there is none")
            .help("write a single `-` when there is no en passant square")
            .fix(Fix::replace(span, "-", Applicability::Safe))
    } else if let Some(sq) = Square::parse(&text.to_ascii_lowercase()).filter(|sq| matches!(sq.rank(), 3 | 6)) {
        Diagnostic::error(
            codes::fen::EN_PASSANT,
            span,
            format!("`{text}` is not an en passant square: files are lowercase"),
        )
        .label(format!("did you mean `{sq}`?"))
        .help(format!("write `{sq}`"))
        .fix(Fix::replace(span, sq.to_string(), Applicability::Safe))
    } else if let Some(sq) = Square::parse(text) {
        Diagnostic::error(codes::fen::EN_PASSANT, span, format!("{sq} cannot be an en passant square: it is not on rank 3 or 6"))
            .label("not on rank 3 or 6")
            .help("the en passant square is the one a pawn passed over in a double step: on rank 3 (after White's move) or 6 (after Black's), or `-`")
    } else {
        Diagnostic::error(
            codes::fen::EN_PASSANT,
            span,
            format!("`{}` is not an en passant square", text.escape_debug()),
        )
        .label("expected a square such as `e3`, or `-`")
        .help("the en passant square is written in algebraic notation (`e3`, `d6`), or `-` when there is none")
    };
    out.push(diag);
    None
}

fn build_counter(text: &str, span: Span, fullmove: bool, out: &mut Vec<Diagnostic>) -> Option<Spanned<u64>> {
    let name = if fullmove { "fullmove number" } else { "halfmove clock" };
    let code = if fullmove { codes::fen::FULLMOVE } else { codes::fen::HALFMOVE };
    if parse_total(Rule::counter_lenient, text).is_none() {
        let meant: Option<String> = text.chars().map(lookalike::ascii_for).collect();
        let diag = match meant {
            Some(m) if m.bytes().all(|b| b.is_ascii_digit()) => {
                let fits = (m == "0" && !fullmove) || !m.starts_with('0');
                fields::lookalike_finding(&CODES, span, &format!("`{text}`"), &m, fits)
            }
            _ if text.starts_with('-') && text.len() > 1 && text[1..].bytes().all(|b| b.is_ascii_digit()) => {
                Diagnostic::error(code, span, format!("the {name} `{text}` is negative"))
                    .label("a negative number")
                    .help(if fullmove { "the fullmove number starts at 1" } else { "the halfmove clock counts from 0" })
            }
            _ => Diagnostic::error(code, span, format!("`{}` is not a {name}", text.escape_debug()))
                .label("expected a whole number")
                .help(if fullmove {
                    "the fullmove number is a whole number from 1: it starts at 1 and grows after each Black move"
                } else {
                    "the halfmove clock is a whole number from 0: the half-moves since the last capture or pawn move"
                }),
        };
        out.push(diag);
        return None;
    }
    if text.len() > 1 && text.starts_with('0') {
        let meant = Some(text.trim_start_matches('0')).filter(|t| !t.is_empty()).unwrap_or("0");
        let diag = Diagnostic::error(code, span, format!("the {name} `{text}` has a leading zero"))
            .label("leading zero")
            .help(format!("write `{meant}`"));
        // A fullmove number of zeros is still 0, another fault: no fix.
        out.push(if fullmove && meant == "0" {
            diag
        } else {
            diag.fix(Fix::replace(span, meant, Applicability::Safe))
        });
        return None;
    }
    match token::counter(text) {
        Some(0) if fullmove => {
            out.push(
                Diagnostic::error(codes::fen::FULLMOVE_ZERO, span, "the fullmove number starts at 1")
                    .label("move 0")
                    .help("write `1`: the start position is move 1")
                    .fix(Fix::replace(span, "1", Applicability::Safe)),
            );
            None
        }
        Some(n) => Some(Spanned::new(n, span)),
        None => {
            out.push(
                Diagnostic::error(code, span, format!("the {name} is too large"))
                    .label(format!("{} digits", text.len()))
                    .help(format!("kifu reads counters up to {}", u64::MAX)),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FenParser, Rule};

    /// The automata of `rank_lenient`'s alternatives read a placement as pest reads
    /// `placement_lenient`.
    #[test]
    fn the_automata_read_a_placement_as_pest_does() {
        let squares = super::squares().expect("the alternatives compile");
        crate::notation::fields::check_rows_read_as_pest::<FenParser, Rule>(
            squares,
            Rule::placement_lenient,
            Rule::rank_lenient,
            "18Kq09/x é",
            &["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "rn0x/é9 /+", "//", ""],
        );
    }

    /// The spaces of an EPD record's operations are the operations' rule's to judge: a quoted
    /// operand holds any, and a fault in the operations is one report of theirs, never a
    /// separator between fields.
    #[test]
    fn epd_operands_are_split_by_the_operations_rule() {
        use crate::diagnostic::codes;
        use crate::fen::{check, Dialect, Kind};
        for inside in ["a  b", "a_b", "a\tb", "a\u{3000}b", "a b"] {
            let valid = format!("4k3/8/8/8/8/8/8/4K3 w - - id \"{inside}\"; c0 \"x{inside}\";");
            assert!(check(&valid, Kind::Epd, Dialect::Standard).is_valid(), "{valid:?}");
            let open = format!("4k3/8/8/8/8/8/8/4K3 w - - id \"{inside}");
            let codes: Vec<_> = check(&open, Kind::Epd, Dialect::Standard).diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, [codes::fen::EPD_OPERATIONS], "{open:?}");
        }
        // Between the four fields, and at the record's end, the common rule still judges.
        let gaps = check("4k3/8/8/8/8/8/8/4K3_w  - - id \"a\"; ", Kind::Epd, Dialect::Standard);
        let separators = gaps.diagnostics.iter().filter(|d| d.code == codes::fen::SEPARATOR).count();
        assert_eq!(separators, 2, "{:?}", gaps.diagnostics);
    }
}
