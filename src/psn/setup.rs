//! Starting positions: the `Handicap` and `FEN` headers of the spec (§1.1.1), and the `SFEN`
//! headers and GSDB setups real files use instead.

use crate::diagnostic::codes;
use pest::Parser;

use super::findings::Findings;
use super::model::{Setup, SetupSource};
use super::parser::{PsnParser, Rule};
use crate::diagnostic::Diagnostic;
use crate::sfen::ast::{HandEntry, Side};
use crate::sfen::{self, Dialect, DialectChoice, Position};
use crate::shogi::{handicap, Board, Color, Hand, Piece, PieceKind, Square};
use crate::span::{Span, Spanned};

/// The handicaps kifu knows: the canonical name, the words that name it, the position (USI
/// SFEN, White to move) and where the name is found. The piece sets are in docs/spec-notes.md.
pub const HANDICAPS: &[(&str, &[&str], &str, &str)] = &[
    (
        "even",
        &["even", "none", "no handicap"],
        handicap::EVEN,
        "KoushuShogi",
    ),
    ("lance", &["lance", "left lance"], handicap::LANCE, "spec"),
    ("right lance", &["right lance"], handicap::RIGHT_LANCE, "spec"),
    ("bishop", &["bishop"], handicap::BISHOP, "spec"),
    ("rook", &["rook"], handicap::ROOK, "spec"),
    (
        "rook and lance",
        &["rook and lance", "rook lance"],
        handicap::ROOK_LANCE,
        "spec",
    ),
    (
        "2 piece",
        &["2 piece", "rook and bishop", "2"],
        handicap::TWO,
        "spec",
    ),
    ("3 piece", &["3 piece", "3"], handicap::THREE, "spec"),
    ("4 piece", &["4 piece", "4"], handicap::FOUR, "spec"),
    (
        "5 piece",
        &["5 piece", "5", "left 5", "left 5 piece"],
        handicap::LEFT_FIVE,
        "spec",
    ),
    ("6 piece", &["6 piece", "6"], handicap::SIX, "spec"),
    ("7 piece", &["7 piece", "7"], handicap::LEFT_SEVEN, "spec"),
    ("8 piece", &["8 piece", "8"], handicap::EIGHT, "spec"),
    ("10 piece", &["10 piece", "10"], handicap::TEN, "gshogi, Asgts"),
    ("three pawn", &["three pawn", "3 pawn"], "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1", "gshogi"),
];

/// A handicap's words made comparable: lower case, `&` and `+` read as "and", number words as
/// digits, "pieces" as "piece", single spaces.
fn normalize(value: &str) -> String {
    let lower = value.to_lowercase().replace(['&', '+', ','], " and ").replace('-', " ");
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(|w| match w {
            "two" => "2",
            "three" => "3",
            "four" => "4",
            "five" => "5",
            "six" => "6",
            "seven" => "7",
            "eight" => "8",
            "ten" => "10",
            "pieces" => "piece",
            other => other,
        })
        .collect();
    let joined = words.join(" ");
    joined.replace(" and and ", " and ")
}

/// True when a header with the key `key` gives the game's starting position (`FEN`, `SFEN`,
/// `Handicap`, in any case).
pub(crate) fn is_setup_key(key: &str) -> bool {
    ["FEN", "SFEN", "Handicap"].iter().any(|k| key.eq_ignore_ascii_case(k))
}

/// The handicap a `Handicap` value names: its canonical name and position.
pub(crate) fn handicap(value: &str) -> Option<(&'static str, &'static str)> {
    let v = normalize(value);
    let v = v.trim_end_matches(" handicap");
    HANDICAPS.iter().find(|(_, words, _, _)| words.contains(&v)).map(|(name, _, sfen, _)| (*name, *sfen))
}

/// The spec's own name for the handicap `start` is (§1.1.1), when it is one: its pieces, White
/// to move, move 1.
pub(crate) fn spec_handicap(start: &crate::shogi::Position) -> Option<&'static str> {
    let sfen = start.to_string();
    HANDICAPS.iter().find(|(name, _, position, _)| *position == sfen && is_spec_value(name)).map(|(name, ..)| *name)
}

/// True when `name` is one of the spec's own handicap values (§1.1.1).
fn is_spec_value(value: &str) -> bool {
    const SPEC: [&str; 12] = [
        "8 piece",
        "7 piece",
        "6 piece",
        "5 piece",
        "4 piece",
        "3 piece",
        "2 piece",
        "rook and lance",
        "rook",
        "bishop",
        "right lance",
        "lance",
    ];
    SPEC.contains(&value)
}

/// The `Handicap` header: its starting position, or an error that lists the known values.
pub(crate) fn read_handicap(value: &str, span: Span, diagnostics: &mut Findings) -> Option<Setup> {
    match handicap(value) {
        Some((name, sfen)) => {
            if !is_spec_value(value) {
                diagnostics.push(
                    Diagnostic::warning(
                        codes::psn::HANDICAP_WORDING,
                        span,
                        format!("`{value}` is not how the spec names this handicap"),
                    )
                    .label(format!("read as the {name} handicap"))
                    .help(format!("the 1998 spec writes `[Handicap \"{name}\"]`")),
                );
            }
            (name != "even").then(|| Setup { source: SetupSource::Handicap, sfen: sfen.to_owned(), span })
        }
        None => {
            let known: Vec<&str> = HANDICAPS.iter().map(|(name, _, _, _)| *name).collect();
            diagnostics.push(
                Diagnostic::error(
                    codes::psn::HANDICAP_UNKNOWN,
                    span,
                    format!("`{value}` is not a handicap kifu knows"),
                )
                .label("unknown handicap")
                .help(format!("the known handicaps are: {}", known.join(", "))),
            );
            None
        }
    }
}

/// Places a diagnostic about a header value at `span` in the game's text. With `own`, the
/// number of bytes of the value that were checked as they stand, each label on those bytes moves
/// with them; a label on anything else (what kifu added to the value, or a position kifu
/// composed, `own` being `None`) covers the whole value.
fn place(mut d: Diagnostic, own: Option<usize>, span: Span) -> Diagnostic {
    for l in &mut d.labels {
        l.span = match own {
            Some(len) if l.span.end <= len => l.span.shift(span.start),
            _ => span,
        };
    }
    d
}

/// Adds the findings of a header's position to `diagnostics`, each placed by `place`; the
/// position, when none of them is an error (a game is not replayed from a position in error).
fn report(
    checked: sfen::Checked,
    place: impl Fn(Diagnostic) -> Diagnostic,
    diagnostics: &mut Findings,
) -> Option<Position> {
    let valid = checked.is_valid();
    diagnostics.extend(checked.diagnostics.into_iter().map(place));
    checked.position.filter(|_| valid)
}

/// The spec's `FEN` header (§1.1.1), whose value is `value` at `span`. Two other forms are read
/// too, each as a dialect: pychess's `board[hand] b - 1`, and a USI SFEN (PSN notes 2 and 3).
pub(crate) fn read_fen(value: &str, span: Span, diagnostics: &mut Findings) -> Option<Setup> {
    if let Some(hand) = pychess_hand(value) {
        return read_pychess_fen(value, hand, span, diagnostics);
    }
    if is_sfen(value) {
        diagnostics.push(
            Diagnostic::warning(
                codes::psn::FEN_SFEN,
                span,
                "this FEN header holds an SFEN position, not the spec's FEN",
            )
            .label("an SFEN position: board, side `b` or `w`, hand, move number")
            .help(format!(
                "the 1998 spec's FEN is 13 arguments, as in `{SPEC_EXAMPLE}`; an SFEN belongs in an `SFEN` header"
            )),
        );
        return sfen_position(value, span, SetupSource::Fen, diagnostics);
    }
    read_spec_fen(value, span, diagnostics)
}

/// The spec's own FEN example (§1.1.1), for help texts.
const SPEC_EXAMPLE: &str = "5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1";

/// True when a `FEN` header's value is an SFEN: a board with `/` and then SFEN's side letter,
/// where the spec's FEN has its second row (Asgts reads both, D10).
fn is_sfen(value: &str) -> bool {
    let mut words = value.split(' ').filter(|w| !w.is_empty());
    words.next().is_some_and(|board| board.contains('/')) && words.next().is_some_and(sfen::build::side_ok)
}

/// The arguments of the spec's FEN after the nine rows, in order (§1.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    BlackHand,
    WhiteHand,
    Side,
    Number,
}

const PARTS: [Part; 4] = [Part::BlackHand, Part::WhiteHand, Part::Side, Part::Number];

impl Part {
    const fn name(self) -> &'static str {
        match self {
            Self::BlackHand => "Black's hand",
            Self::WhiteHand => "White's hand",
            Self::Side => "the side to move",
            Self::Number => "the pair number",
        }
    }

    /// True when `arg` has this part's kind of characters: enough to tell which parts are
    /// missing when the value has fewer arguments than the spec's.
    fn fits(self, arg: &str) -> bool {
        let digits = !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_digit());
        match self {
            Self::BlackHand | Self::Number => digits,
            Self::WhiteHand => digits || arg.eq_ignore_ascii_case("t"),
            Self::Side => arg.len() == 1 && arg.bytes().all(|b| b.is_ascii_alphabetic()),
        }
    }
}

/// True when `arg`, argument `i` of `n`, cannot be a row, so that the board ends before it (when
/// the value is not nine rows and three arguments shaped like the hands and the side): 7
/// digits (or digits no row writes: a `0`, five or more, or more than nine squares), the `t` of
/// White's hand, or a side letter among the last two arguments (PSN note 2).
fn ends_board(arg: &str, i: usize, n: usize) -> bool {
    if !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_digit()) {
        let squares: u32 = arg.bytes().map(|b| u32::from(b - b'0')).sum();
        return arg.len() >= 5 || arg.contains('0') || squares > 9;
    }
    arg.eq_ignore_ascii_case("t") || (i + 2 >= n && matches!(arg, "s" | "g"))
}

/// True when `rule` matches the whole of `text`.
fn whole(rule: Rule, text: &str) -> bool {
    PsnParser::parse(rule, text).ok().and_then(|mut p| p.next()).is_some_and(|p| p.as_str().len() == text.len())
}

/// The spec's FEN (§1.1.1): the value is split into arguments by the grammar's `fen_lenient`;
/// the rows are read by SFEN's board reader, the other arguments by their own rules, and the
/// whole position is judged by SFEN's rules, so that every fault gets the report it gets in an
/// SFEN record, on its own characters.
fn read_spec_fen(value: &str, span: Span, diagnostics: &mut Findings) -> Option<Setup> {
    let mut out = Vec::new();
    let (mut args, mut gaps) = (Vec::new(), Vec::new());
    if let Ok(pairs) = PsnParser::parse(Rule::fen_lenient, value) {
        for p in pairs.flat_map(|p| p.into_inner()) {
            match p.as_rule() {
                Rule::fen_arg_lenient => args.push(Span::of(p.as_span())),
                Rule::fen_gap => gaps.push(Span::of(p.as_span())),
                _ => {}
            }
        }
    }
    let n = args.len();
    // Nine rows when the three arguments after them look like the hands and the side, else the
    // rows before the first argument no row can be.
    let nine = args.get(9..12).is_some_and(|a| a.iter().zip(PARTS).all(|(s, p)| p.fits(s.slice(value))));
    let rows = if nine { 9 } else { (0..n).find(|&i| ends_board(args[i].slice(value), i, n)).unwrap_or(n.min(9)) };
    let board_span = args.get(..rows).and_then(|r| Some(r.first()?.to(*r.last()?)));
    empty_arguments(value, &gaps, board_span, &mut out);
    let board = match board_span {
        Some(s) => Some(sfen::build::build_board_separated(s.slice(value), s.start, &[' '], &mut out)),
        None => {
            let at = Span::point(args.first().map_or(0, |a| a.start));
            out.push(
                Diagnostic::error(codes::psn::FEN_SHAPE, at, "this FEN header has no board")
                    .label("the nine rows go here")
                    .help(format!("the spec's FEN starts with the nine rows of the board, as in `{SPEC_EXAMPLE}`")),
            );
            None
        }
    };

    let parts = assign_parts(value, &args[rows..], n, board_span.is_some(), &mut out);

    let black = parts[0].and_then(|s| hand_digits(s.slice(value), s, Part::BlackHand, &mut out));
    let mut entries = black.map_or_else(Vec::new, |h| {
        hand_entries(&h, Color::Black, |i| parts[0].map_or(span, |s| Span::new(s.start + i, s.start + i + 1)))
    });
    if let Some(s) = parts[1] {
        let text = s.slice(value);
        if whole(Rule::fen_rest, text) {
            // "the rest of the pieces not used on the board or in blacks hand" (§1.1.1): known once
            // both are.
            let board = board.as_ref().and_then(sfen::model::board_of);
            if let (Some(board), Some(black)) = (board, black) {
                entries.extend(hand_entries(&leftover(&board, &black).0, Color::White, |_| s));
            }
        } else if let Some(white) = hand_digits(text, s, Part::WhiteHand, &mut out) {
            entries.extend(hand_entries(&white, Color::White, |i| Span::new(s.start + i, s.start + i + 1)));
        }
    }
    let side = parts[2].and_then(|s| side_letter(s.slice(value), s, &mut out));
    let number = parts[3].and_then(|s| pair_number(s.slice(value), s, &mut out));
    let hand_span = match (parts[0], parts[1]) {
        (Some(a), Some(b)) => Some(a.to(b)),
        (a, b) => a.or(b),
    };
    let record = sfen::Record {
        span: Span::new(0, value.len()),
        board,
        side: side.map(|s| Spanned::new(Side { color: s.node, dialect: Dialect::Usi }, s.span)),
        hand: hand_span.map(|span| sfen::ast::Hand { span, entries }),
        move_number: None,
        dialect: Some(Dialect::Usi),
    };
    let position = report(sfen::judge(record, out), |d| d.shifted(span.start), diagnostics);
    let (mut position, number, side) = (position?, number?, side?);
    // Pair N with `s` is USI ply 2N - 1, with `g` ply 2N.
    let ply = number.saturating_mul(2).saturating_sub(if side.node == Color::Black { 1 } else { 0 }).max(1);
    position.move_number = Some(ply);
    Some(Setup { source: SetupSource::Fen, sfen: position.to_string(), span })
}

/// Which argument after the board (`tail`) is which part of the spec's FEN: in order, skipping a
/// part only where too few are written; the faults of their number go to `out`
/// (`n`: how many arguments the value has in all).
fn assign_parts(
    value: &str,
    tail: &[Span],
    n: usize,
    board_known: bool,
    out: &mut Vec<Diagnostic>,
) -> [Option<Span>; 4] {
    let mut parts: [Option<Span>; 4] = [None; 4];
    let mut next = 0;
    let mut extra = Vec::new();
    for (i, &a) in tail.iter().enumerate() {
        if next == PARTS.len() {
            extra.push(a);
            continue;
        }
        let text = a.slice(value);
        let spare = (PARTS.len() - next).saturating_sub(tail.len() - i);
        if !PARTS[next].fits(text) {
            if let Some(k) = (next + 1..=next + spare).filter(|&k| k < PARTS.len()).find(|&k| PARTS[k].fits(text)) {
                out.push(missing(&PARTS[next..k], Span::point(a.start), n));
                next = k;
            }
        }
        parts[next] = Some(a);
        next += 1;
    }
    if next < PARTS.len() && board_known {
        out.push(missing(&PARTS[next..], Span::point(value.trim_end().len()), n));
    }
    if let (Some(first), Some(last)) = (extra.first(), extra.last()) {
        out.push(
            Diagnostic::error(
                codes::psn::FEN_SHAPE,
                first.to(*last),
                format!("this FEN header has {n} arguments; the spec's has 13"),
            )
            .label(format!("{} after the pair number", if extra.len() == 1 { "an argument" } else { "arguments" }))
            .help(format!("the pair number is the last argument: remove what follows it, as in `{SPEC_EXAMPLE}`")),
        );
    }
    parts
}

/// Separators that leave an empty argument (two in a row, or one at either end of the value),
/// outside the board, where an empty rank is the board's own fault.
fn empty_arguments(value: &str, gaps: &[Span], board: Option<Span>, out: &mut Vec<Diagnostic>) {
    let mut runs: Vec<Span> = Vec::new();
    for &g in gaps {
        match runs.last_mut() {
            Some(last) if last.end == g.start => *last = last.to(g),
            _ => runs.push(g),
        }
    }
    for run in runs {
        let (first, last) = (run.start == 0, run.end == value.len());
        if board.is_some_and(|b| b.contains(run)) || (run.len() < 2 && !first && !last) {
            continue;
        }
        let message = match (first, last) {
            (true, _) => "this FEN header starts with a separator",
            (_, true) => "this FEN header ends with a separator",
            _ => "two separators in a row in this FEN header",
        };
        out.push(Diagnostic::error(codes::psn::FEN_SHAPE, run, message).label("an empty argument").help(
            "separate the 13 arguments with a single `/` or space, with none before the first or after the last",
        ));
    }
}

/// The report on `parts`, missing where `at` is, in a value of `n` arguments.
fn missing(parts: &[Part], at: Span, n: usize) -> Diagnostic {
    let names: Vec<&str> = parts.iter().map(|p| p.name()).collect();
    let list = match names.as_slice() {
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => "an argument".to_owned(),
    };
    let verb = if parts.len() == 1 { "is" } else { "are" };
    Diagnostic::error(codes::psn::FEN_SHAPE, at, format!("{list} {verb} missing from this FEN header"))
        .label(if parts.len() == 1 { format!("{list} goes here") } else { "they go here".to_owned() })
        .help(format!(
            "the spec's FEN has 13 arguments and this one has {n}: nine rows, Black's hand as 7 digits (P L N S G B R), \
             White's hand as 7 digits or `t`, the side `s` or `g`, and the move pair number, separated by `/` or a \
             space, as in `{SPEC_EXAMPLE}`"
        ))
}

/// A hand of 7 digits (§1.1.1) at `span`, or its report.
fn hand_digits(text: &str, span: Span, part: Part, out: &mut Vec<Diagnostic>) -> Option<Hand> {
    if whole(Rule::fen_hand, text) {
        return Some(hand_of(text));
    }
    let whose = part.name();
    let (message, label) = if whole(Rule::fen_rest, text) {
        (
            "`t` gives White the pieces left over, so it cannot be Black's hand".to_owned(),
            "only White's hand can be `t`".to_owned(),
        )
    } else if text.bytes().all(|b| b.is_ascii_digit()) {
        (format!("{whose} has {} digits; the spec's FEN writes 7", text.len()), format!("{} digits", text.len()))
    } else {
        (
            format!("`{}` is not {whose} as the spec's FEN writes it", text.escape_debug()),
            if part == Part::WhiteHand { "expected 7 digits or `t`" } else { "expected 7 digits" }.to_owned(),
        )
    };
    let mut help =
        "write one digit for each kind of piece, in the order P L N S G B R, as in `0012001` (a knight, two \
                    silvers and a rook)"
            .to_owned();
    if part == Part::WhiteHand {
        help.push_str(", or `t` for every piece not on the board or in Black's hand");
    }
    out.push(Diagnostic::error(codes::psn::FEN_HAND, span, message).label(label).help(help));
    None
}

/// The entries of `hand`, `color`'s, in USI order (R B G S N L P, as an SFEN hand lists them),
/// each at `at(i)`, where `i` is the kind's place in the FEN's order P L N S G B R.
fn hand_entries(hand: &Hand, color: Color, at: impl Fn(usize) -> Span) -> Vec<HandEntry> {
    let mut entries = Vec::new();
    for kind in PieceKind::USI_HAND_ORDER {
        let n = hand.count(kind);
        let s = at(kind.index());
        if n > 0 {
            let count = (n > 1).then(|| Spanned::new(n, s));
            entries.push(HandEntry { span: s, count, piece: Spanned::new((color, kind), s) });
        }
    }
    entries
}

/// The side `s` or `g` (§1.1.1), or its report.
fn side_letter(text: &str, span: Span, out: &mut Vec<Diagnostic>) -> Option<Spanned<Color>> {
    if whole(Rule::fen_side, text) {
        return Some(Spanned::new(if text == "s" { Color::Black } else { Color::White }, span));
    }
    let meant = match text {
        "S" | "b" | "B" | "sente" | "Sente" | "black" | "Black" => Some('s'),
        "G" | "w" | "W" | "gote" | "Gote" | "white" | "White" => Some('g'),
        _ => None,
    };
    out.push(
        Diagnostic::error(
            codes::psn::FEN_SIDE,
            span,
            format!("`{}` is not a side to move of the spec's FEN", text.escape_debug()),
        )
        .label(meant.map_or_else(|| "expected `s` or `g`".to_owned(), |m| format!("did you mean `{m}`?")))
        .help("write `s` when Sente (Black) moves next, `g` when Gote (White) does"),
    );
    None
}

/// The pair number (§1.1.1), or its report.
fn pair_number(text: &str, span: Span, out: &mut Vec<Diagnostic>) -> Option<u64> {
    let digits = text.bytes().all(|b| b.is_ascii_digit());
    let diag = if !digits {
        Diagnostic::error(codes::psn::FEN_NUMBER, span, format!("`{}` is not a pair number", text.escape_debug()))
            .label("expected digits")
            .help("the last argument is the number of the move pair played next, counted from 1: write digits only")
    } else if text.bytes().all(|b| b == b'0') {
        Diagnostic::error(codes::psn::FEN_NUMBER, span, "pair numbers start at 1")
            .label("pair 0")
            .help("write `1` for the game's first pair of moves")
    } else if !whole(Rule::fen_number, text) {
        Diagnostic::error(codes::psn::FEN_NUMBER, span, format!("the pair number `{text}` has a leading zero"))
            .label("leading zero")
            .help(format!("write `{}`", text.trim_start_matches('0')))
    } else {
        match text.parse::<u64>() {
            Ok(n) => return Some(n),
            Err(_) => Diagnostic::error(codes::psn::FEN_NUMBER, span, "the pair number is too large")
                .label(format!("{} digits", text.len()))
                .help(format!("kifu reads pair numbers up to {}", u64::MAX)),
        }
    };
    out.push(diag);
    None
}

/// Where pychess's hand is: the `[` and `]` around it.
fn pychess_hand(value: &str) -> Option<(usize, usize)> {
    let open = value.find('[')?;
    let close = value[open..].find(']')? + open;
    Some((open, close))
}

/// pychess writes `[FEN "lnsgkgsnl/…/LNSGKGSNL[-] w 0 1"]`: an SFEN board with the hand in
/// brackets (pychess). The board and the hand are read by SFEN's readers where they stand.
fn read_pychess_fen(
    value: &str,
    (open, close): (usize, usize),
    span: Span,
    diagnostics: &mut Findings,
) -> Option<Setup> {
    diagnostics.push(
        Diagnostic::warning(
            codes::psn::FEN_PYCHESS,
            span,
            "this FEN header is pychess's chess-style FEN, not the spec's",
        )
        .label("an SFEN board with the hand in brackets")
        .help(format!("the 1998 spec's FEN is 13 arguments: `{SPEC_EXAMPLE}`")),
    );
    let mut out = Vec::new();
    let board = sfen::build::build_board(&value[..open], 0, &mut out);
    let hand_text = &value[open + 1..close];
    let hand = if hand_text.is_empty() {
        sfen::ast::Hand { span: Span::new(open, close + 1), entries: Vec::new() }
    } else {
        sfen::build::build_hand(hand_text, open + 1, &mut out)
    };
    let after = value[close + 1..].trim_start();
    let at = close + 1 + (value.len() - close - 1 - after.len());
    let side_text = after.split(' ').next().unwrap_or("");
    let side_span = Span::new(at, at + side_text.len());
    let Some(color) = pychess_side(side_text, after, side_span, &mut out) else {
        // The board and the hand are still checked: each fault is reported where it stands.
        let record = sfen::Record {
            span: Span::new(0, value.len()),
            board: Some(board),
            side: None,
            hand: Some(hand),
            move_number: None,
            dialect: Some(Dialect::Usi),
        };
        report(sfen::judge(record, out), |d| d.shifted(span.start), diagnostics);
        return None;
    };
    let record = sfen::Record {
        span: Span::new(0, value.len()),
        board: Some(board),
        side: Some(Spanned::new(Side { color, dialect: Dialect::Usi }, side_span)),
        hand: Some(hand),
        move_number: None,
        dialect: Some(Dialect::Usi),
    };
    let mut checked = sfen::judge(record, out);
    pychess_hand_form(&value[open + 1..close], open + 1, &mut checked.diagnostics);
    let position = report(checked, |d| d.shifted(span.start), diagnostics)?;
    let position = Position { move_number: Some(1), ..position };
    Some(Setup { source: SetupSource::Fen, sfen: position.to_string(), span })
}

/// The side to move of pychess's FEN, whose letter `side` starts `after` (the text after the
/// hand), at `span`. pychess's FEN has two forms (PSN note 3): since 2023 Fairy-Stockfish's,
/// `… w 0 1`, whose `w` is the side that moves first (Sente, Black) and `b` Gote (White, who
/// moves first in a handicap game); before, `… b - 1`, with SFEN's letters (`b` Black). The
/// field after the letter tells them apart: numbers, or the `-` of empty hands.
fn pychess_side(side: &str, after: &str, span: Span, out: &mut Vec<Diagnostic>) -> Option<Color> {
    let next = after.split(' ').filter(|w| !w.is_empty()).nth(1);
    let fairy = next.is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    match (side, fairy) {
        ("w", true) | ("b", false) => Some(Color::Black),
        ("b", true) | ("w", false) => Some(Color::White),
        _ => {
            let (letters, meaning) = if fairy {
                ("`w` or `b`", "`w` when Sente (Black) moves first, `b` when Gote (White) does, as in a handicap game")
            } else {
                ("`b` or `w`", "`b` when Sente (Black) moves next, `w` when Gote (White) does")
            };
            out.push(
                Diagnostic::error(
                    codes::psn::FEN_SIDE,
                    if span.is_empty() { Span::point(span.start) } else { span },
                    format!("`{}` is not a side to move of pychess's FEN", side.escape_debug()),
                )
                .label(format!("expected {letters}"))
                .help(format!("write {meaning}")),
            );
            None
        }
    }
}

/// pychess writes a hand as Fairy-Stockfish does, a letter for each piece (`[NNp]`): repeated
/// letters are its form, not SFEN's `sfen::hand-repeat`, and a count (`[2N]`), which
/// Fairy-Stockfish does not read, gets one warning for the hand. `hand` is the text between
/// the brackets, at `offset` in the header's value; `found` holds the findings of the position.
fn pychess_hand_form(hand: &str, offset: usize, found: &mut Vec<Diagnostic>) {
    let in_hand = Span::new(offset, offset + hand.len());
    found.retain(|d| {
        !(in_hand.contains(d.span())
            && [codes::sfen::HAND_REPEAT, codes::sfen::HAND_COUNT_ONE, codes::sfen::HAND_ORDER].contains(&d.code))
    });
    let Some(first) = hand.find(|c: char| c.is_ascii_digit()) else { return };
    // The hand with every count written as that many letters, when it reads so.
    let mut letters = String::new();
    let mut count = String::new();
    for c in hand.chars() {
        if c.is_ascii_digit() {
            count.push(c);
        } else {
            let n = count.parse::<usize>().unwrap_or(1).min(18);
            letters.extend(std::iter::repeat_n(c, n));
            count.clear();
        }
    }
    let mut d = Diagnostic::warning(
        codes::psn::PYCHESS_HAND_COUNT,
        Span::new(offset + first, offset + first + 1),
        "pychess writes a piece in hand once for each piece, with no count",
    )
    .label("a count");
    if count.is_empty() {
        d = d.help(format!("write `{letters}`")).fix(crate::diagnostic::Fix::replace(
            in_hand,
            letters,
            crate::diagnostic::Applicability::Safe,
        ));
    } else {
        d = d.help("write each piece's letter as many times as there are pieces");
    }
    found.push(d);
}

fn hand_of(digits: &str) -> Hand {
    let mut hand = Hand::default();
    for (kind, d) in PieceKind::ALL[..7].iter().zip(digits.bytes()) {
        hand.add(*kind, u32::from(d.saturating_sub(b'0')));
    }
    hand
}

/// White's hand under the `t` shortcut:
/// "the rest of the pieces not used on the board or in blacks hand are placed on whites hand"
/// (§1.1.1): every piece of the set, kings excepted. The second part is the first kind the
/// board and Black's hand already hold more of than the set has (none of it is left).
fn leftover(board: &Board, black: &Hand) -> (Hand, Option<PieceKind>) {
    let mut hand = Hand::default();
    let mut over = None;
    for kind in PieceKind::ALL.into_iter().take(7) {
        let used = board.pieces().filter(|(_, p)| p.kind == kind).count() as u32 + black.count(kind);
        match kind.supply().checked_sub(used) {
            Some(left) => hand.add(kind, left),
            None => over = over.or(Some(kind)),
        }
    }
    (hand, over)
}

/// White's hand under the `t` shortcut, or the first kind of which nothing is left.
pub(crate) fn rest_of(board: &Board, black: &Hand) -> Result<Hand, PieceKind> {
    match leftover(board, black) {
        (hand, None) => Ok(hand),
        (_, Some(kind)) => Err(kind),
    }
}

/// An `SFEN` header (Shogidokoro, MyShogi, gshogi, pgnparser): a USI SFEN, or only its board.
pub(crate) fn read_sfen(value: &str, span: Span, diagnostics: &mut Findings) -> Option<Setup> {
    diagnostics.push(
        Diagnostic::warning(codes::psn::SFEN_HEADER, span, "the 1998 spec has no SFEN header")
            .label("read as an SFEN position")
            .help("the spec gives a starting position in a `FEN` header of 13 arguments"),
    );
    sfen_position(value, span, SetupSource::Sfen, diagnostics)
}

/// A header value that is a USI SFEN, or only its board, checked as an SFEN record, with every
/// report on the value's own characters.
fn sfen_position(value: &str, span: Span, source: SetupSource, diagnostics: &mut Findings) -> Option<Setup> {
    // The bytes of `text` that are the value's own, where they stand in it.
    let (text, own) = if value.trim().contains(' ') {
        (value.to_owned(), value.len())
    } else {
        diagnostics.push(
            Diagnostic::warning(codes::psn::SFEN_BOARD_ONLY, span, "this SFEN header has only a board")
                .label("no side to move, hands or move number")
                .help(format!("write the whole SFEN, such as `{} b - 1`", value.trim())),
        );
        (format!("{} b - 1", value.trim_end()), value.trim_end().len())
    };
    let p = report(sfen::check(&text, DialectChoice::Auto), |d| place(d, Some(own), span), diagnostics)?;
    let p = Position { move_number: Some(p.move_number.unwrap_or(1)), ..p };
    Some(Setup { source, sfen: p.to_string(), span })
}

/// A GSDB setup: `wK3a … bRH1 wPH15 $`, the words at `spans` of `text`.
pub(crate) fn read_gsdb(text: &str, spans: &[Span], diagnostics: &mut Findings) -> Option<Setup> {
    let whole = spans.first()?.to(*spans.last()?);
    let mut board = Board::default();
    let mut hands = [Hand::default(), Hand::default()];
    for s in spans {
        let w = s.slice(text);
        let color = if w.starts_with('b') { Color::Black } else { Color::White };
        let bytes = w.as_bytes();
        if w.ends_with('$') {
            continue;
        }
        if bytes.get(2) == Some(&b'H') {
            let kind = PieceKind::from_letter(char::from(bytes[1]));
            let count: u32 = w[3..].parse().unwrap_or(0);
            if let Some(kind) = kind {
                hands[color.index()].add(kind, count);
            }
            continue;
        }
        let promoted = bytes.get(1) == Some(&b'+');
        let at = usize::from(promoted) + 1;
        let (Some(&letter), Some(&file), Some(&rank)) = (bytes.get(at), bytes.get(at + 1), bytes.get(at + 2)) else {
            continue;
        };
        let square = Square::from_ascii(file, rank);
        let piece = Piece::from_letter(char::from(letter), promoted).map(|p| Piece { color, ..p });
        if let (Some(square), Some(piece)) = (square, piece) {
            if board.get(square).is_some() {
                diagnostics.push(
                    Diagnostic::error(codes::psn::SETUP_TWICE, *s, format!("two pieces on {square}"))
                        .label("this square already has a piece")
                        .help("each square of a setup holds one piece"),
                );
            }
            board.set(square, Some(piece));
        }
    }
    diagnostics.push(
        Diagnostic::warning(codes::psn::GSDB_SETUP, whole, "a GSDB setup instead of a FEN header")
            .label("GSDB's private position format")
            .help("the 1998 spec gives a starting position in a `FEN` header"),
    );
    let position = Position { board, hands, side: Color::Black, move_number: Some(1) };
    let sfen = position.to_string();
    let checked = sfen::check(&sfen, DialectChoice::Usi);
    diagnostics.extend(checked.diagnostics.into_iter().map(|d| place(d, None, whole)));
    checked.position.map(|_| Setup { source: SetupSource::Gsdb, sfen, span: whole })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_example_gives_the_diagram_hands() {
        let mut d = Findings::new();
        let value = "5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1";
        let setup = read_fen(value, Span::new(0, value.len()), &mut d).expect("the spec's example reads");
        // Black: N S S R; White: 17 P, 3 L, 2 N, 1 S, 2 G, 1 B (seeds/README.md).
        assert_eq!(setup.sfen, "5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 b R2SNb2gs2n3l17p 1");
        assert!(d.iter().all(|d| !d.is_error()), "{:?}", d.iter().collect::<Vec<_>>());
    }

    /// The grammar decides: a value that `fen_header` rejects is an error (unless it is one of
    /// the dialects' forms, a warning), and one it accepts has no fault of the FEN's own parts
    /// (its rows may still break SFEN's board rules, which `fen_row` leaves to them). Checked on
    /// every value one edit away from the spec's example.
    #[test]
    fn the_grammar_decides_the_fen_header() {
        let example = SPEC_EXAMPLE;
        let mut values = vec![example.to_owned()];
        for (i, _) in example.char_indices() {
            values.push(format!("{}{}", &example[..i], &example[i + 1..]));
            for c in ['/', ' ', '0', '1', '9', 't', 's', 'g', 'b', 'w', 'P', 'k', '+', 'x', '-'] {
                values.push(format!("{}{c}{}", &example[..i], &example[i + 1..]));
                values.push(format!("{}{c}{}", &example[..i], &example[i..]));
            }
        }
        let (mut accepted, mut rejected) = (0, 0);
        for v in &values {
            let mut d = Findings::new();
            let setup = read_fen(v, Span::new(0, v.len()), &mut d);
            let dialect = d.iter().any(|d| {
                matches!(d.code, crate::diagnostic::codes::psn::FEN_SFEN | crate::diagnostic::codes::psn::FEN_PYCHESS)
            });
            let own_error = d.iter().any(|d| d.is_error() && crate::diagnostic::codes::psn::contains(d.code));
            for x in d.iter() {
                assert!(x.span().end <= v.len(), "{v:?}: {} at {:?}", x.code, x.span());
            }
            if whole(Rule::fen_header, v) {
                accepted += 1;
                assert!(!own_error, "{v:?}: the grammar accepts it, but {:?}", d.iter().collect::<Vec<_>>());
            } else if !dialect {
                rejected += 1;
                assert!(d.iter().any(Diagnostic::is_error), "{v:?}: the grammar rejects it, but no error");
                assert!(setup.is_none(), "{v:?}");
            }
        }
        assert!(accepted > 50 && rejected > 500, "{accepted} accepted, {rejected} rejected");
    }

    #[test]
    fn handicap_words() {
        assert_eq!(handicap("Four Pieces").map(|h| h.0), Some("4 piece"));
        assert_eq!(handicap("rook & lance").map(|h| h.0), Some("rook and lance"));
        assert_eq!(handicap("rook+lance").map(|h| h.0), Some("rook and lance"));
        assert_eq!(handicap("two pieces").map(|h| h.0), Some("2 piece"));
        assert_eq!(handicap("4").map(|h| h.0), Some("4 piece"));
        assert_eq!(handicap("queen"), None);
        for (_, _, sfen, _) in HANDICAPS {
            assert!(sfen::check(sfen, DialectChoice::Usi).is_valid(), "{sfen}");
        }
    }
}
