//! Starting positions: the `Handicap` and `FEN` headers of the spec (§1.1.1), and the `SFEN`
//! headers and GSDB setups real files use instead.

use pest::Parser;

use super::model::Setup;
use super::parser::{PsnParser, Rule};
use crate::diagnostic::Diagnostic;
use crate::sfen::{self, DialectChoice, Position};
use crate::shogi::{Board, Color, Hand, Piece, PieceKind, Square};
use crate::span::Span;

/// The handicaps kifu knows: the canonical name, the words that name it, the position (USI
/// SFEN, White to move) and where the name is found. The piece sets are in docs/spec-notes.md.
pub const HANDICAPS: &[(&str, &[&str], &str, &str)] = &[
    (
        "even",
        &["even", "none", "no handicap"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "KoushuShogi",
    ),
    ("lance", &["lance", "left lance"], "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("right lance", &["right lance"], "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("bishop", &["bishop"], "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("rook", &["rook"], "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    (
        "rook and lance",
        &["rook and lance", "rook lance"],
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "spec",
    ),
    (
        "2 piece",
        &["2 piece", "rook and bishop", "2"],
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "spec",
    ),
    ("3 piece", &["3 piece", "3"], "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("4 piece", &["4 piece", "4"], "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    (
        "5 piece",
        &["5 piece", "5", "left 5", "left 5 piece"],
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "spec",
    ),
    ("6 piece", &["6 piece", "6"], "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("7 piece", &["7 piece", "7"], "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("8 piece", &["8 piece", "8"], "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "spec"),
    ("10 piece", &["10 piece", "10"], "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "gshogi, Asgts"),
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

/// The handicap a `Handicap` value names: its canonical name and position.
pub fn handicap(value: &str) -> Option<(&'static str, &'static str)> {
    let v = normalize(value);
    let v = v.trim_end_matches(" handicap");
    HANDICAPS.iter().find(|(_, words, _, _)| words.contains(&v)).map(|(name, _, sfen, _)| (*name, *sfen))
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
pub fn read_handicap(value: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) -> Option<Setup> {
    match handicap(value) {
        Some((name, sfen)) => {
            if !is_spec_value(value) {
                diagnostics.push(
                    Diagnostic::warning(
                        "psn::handicap-wording",
                        span,
                        format!("`{value}` is not how the spec names this handicap"),
                    )
                    .label(format!("read as the {name} handicap"))
                    .help(format!("the 1998 spec writes `[Handicap \"{name}\"]`")),
                );
            }
            (name != "even").then(|| Setup { source: "handicap", sfen: sfen.to_owned(), span })
        }
        None => {
            let known: Vec<&str> = HANDICAPS.iter().map(|(name, _, _, _)| *name).collect();
            diagnostics.push(
                Diagnostic::error("psn::handicap-unknown", span, format!("`{value}` is not a handicap kifu knows"))
                    .label("unknown handicap")
                    .help(format!("the known handicaps are: {}", known.join(", "))),
            );
            None
        }
    }
}

/// Checks the position `sfen` (a USI SFEN kifu composed) by the rules of shogi, and reports its
/// findings at `span`, or, for the board part, at the same place in `board_span` when given.
fn check_composed(sfen: &str, span: Span, board_span: Option<Span>, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let checked = sfen::check(sfen, DialectChoice::Usi);
    let board_len = sfen.find(' ').unwrap_or(sfen.len());
    for d in checked.diagnostics {
        let inside = d.span().end <= board_len;
        let d = match board_span {
            Some(b) if inside => d.shifted(b.start),
            _ => {
                let mut d = d;
                for l in &mut d.labels {
                    l.span = span;
                }
                d
            }
        };
        diagnostics.push(d);
    }
    checked.position.is_some()
}

/// The spec's `FEN` header (§1.1.1), whose value is `value` at `span`. The pychess form,
/// `board[hand] b - 1`, is read too, as a dialect.
pub fn read_fen(value: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) -> Option<Setup> {
    if let Some(setup) = read_pychess_fen(value, span, diagnostics) {
        return Some(setup);
    }
    let pairs = match PsnParser::parse(Rule::fen_header, value) {
        Ok(mut pairs) => pairs.next()?.into_inner(),
        Err(e) => {
            let at = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((a, _)) => a,
            };
            let args = value.split(['/', ' ']).filter(|a| !a.is_empty()).count();
            diagnostics.push(
                Diagnostic::error("psn::fen-shape", span, "this FEN header does not have the spec's shape")
                    .label(format!("{args} arguments; the spec's FEN has 13"))
                    .with(Span::point(span.start + at.min(value.len())), "the shape breaks here")
                    .help(
                        "write nine rows, Black's hand as 7 digits (P L N S G B R), White's hand as 7 digits or \
                         `t`, the side `s` or `g`, and the move pair number, separated by `/` or a space: \
                         `5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1`",
                    ),
            );
            return None;
        }
    };
    let mut board = None;
    let mut hands: Vec<(Span, &str)> = Vec::new();
    let mut side = Color::Black;
    let mut number = 1u64;
    for p in pairs {
        let s = Span::new(span.start + p.as_span().start(), span.start + p.as_span().end());
        match p.as_rule() {
            Rule::fen_board => board = Some((s, p.as_str())),
            Rule::fen_hand | Rule::fen_rest => hands.push((s, p.as_str())),
            Rule::fen_side => side = if p.as_str() == "s" { Color::Black } else { Color::White },
            Rule::fen_number => number = p.as_str().parse().unwrap_or(u64::MAX),
            _ => {}
        }
    }
    let (board_span, board_text) = board?;
    // The board's separators may be spaces; as an SFEN board they are slashes, in the same places.
    let board_sfen = board_text.replace(' ', "/");
    let Ok(position) = format!("{board_sfen} b - 1").parse::<Position>() else {
        check_composed(&format!("{board_sfen} b - 1"), span, Some(board_span), diagnostics);
        return None;
    };
    let black = hand_of(hands.first().map_or("0000000", |h| h.1));
    let white = match hands.get(1) {
        Some((s, "t" | "T")) => match rest_of(&position.board, &black) {
            Ok(h) => h,
            Err(kind) => {
                diagnostics.push(
                    Diagnostic::error(
                        "psn::fen-rest",
                        *s,
                        format!("the board and Black's hand already hold more {} than the game has", kind.plural()),
                    )
                    .label("nothing is left for White's hand")
                    .help("check the board and Black's hand, or write White's hand as 7 digits"),
                );
                return None;
            }
        },
        Some((_, digits)) => hand_of(digits),
        None => Hand::default(),
    };
    // The pair number and the side give the USI ply number.
    let ply = number.saturating_mul(2).saturating_sub(if side == Color::Black { 1 } else { 0 }).max(1);
    let full = Position { board: position.board, hands: [black, white], side, move_number: Some(ply) };
    let sfen = full.to_string();
    check_composed(&sfen, span, Some(board_span), diagnostics).then_some(Setup { source: "fen", sfen, span })
}

/// pychess writes `[FEN "lnsgkgsnl/…/LNSGKGSNL[-] w 0 1"]`: an SFEN board with the hand in
/// brackets (D11).
fn read_pychess_fen(value: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) -> Option<Setup> {
    let open = value.find('[')?;
    let close = value[open..].find(']')? + open;
    let hand = &value[open + 1..close];
    let hand = if hand.is_empty() { "-" } else { hand };
    // pychess's side letter follows Fairy-Stockfish in 2023 (`w` for the side that moves
    // first) and not in 2019 (`b`); both games start with Sente's move (PSN note 3).
    let sfen = format!("{} b {hand} 1", &value[..open]);
    diagnostics.push(
        Diagnostic::warning("psn::fen-pychess", span, "this FEN header is pychess's chess-style FEN, not the spec's")
            .label("an SFEN board with the hand in brackets")
            .help("the 1998 spec's FEN is 13 arguments: `5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1`"),
    );
    check_composed(&sfen, span, None, diagnostics).then_some(Setup { source: "fen", sfen, span })
}

fn hand_of(digits: &str) -> Hand {
    let mut hand = Hand::default();
    for (kind, d) in PieceKind::ALL[..7].iter().zip(digits.bytes()) {
        hand.add(*kind, u32::from(d - b'0'));
    }
    hand
}

/// White's hand under the `t` shortcut:
/// "the rest of the pieces not used on the board or in blacks hand are placed on whites hand"
/// (§1.1.1): every piece of the set, kings excepted.
pub fn rest_of(board: &Board, black: &Hand) -> Result<Hand, PieceKind> {
    let mut hand = Hand::default();
    for kind in PieceKind::ALL.into_iter().take(7) {
        let used = board.pieces().filter(|(_, p)| p.kind == kind).count() as u32 + black.count(kind);
        let left = kind.supply().checked_sub(used).ok_or(kind)?;
        hand.add(kind, left);
    }
    Ok(hand)
}

/// An `SFEN` header (D3, D4, D8): a USI SFEN, or only its board.
pub fn read_sfen(value: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) -> Option<Setup> {
    diagnostics.push(
        Diagnostic::warning("psn::sfen-header", span, "the 1998 spec has no SFEN header")
            .label("read as an SFEN position")
            .help("the spec gives a starting position in a `FEN` header of 13 arguments"),
    );
    let text = if value.trim().contains(' ') {
        value.to_owned()
    } else {
        diagnostics.push(
            Diagnostic::warning("psn::sfen-board-only", span, "this SFEN header has only a board")
                .label("no side to move, hands or move number")
                .help(format!("write the whole SFEN, such as `{} b - 1`", value.trim())),
        );
        format!("{} b - 1", value.trim())
    };
    let checked = sfen::check(&text, DialectChoice::Auto);
    for d in checked.diagnostics {
        if d.span().end <= value.len() {
            diagnostics.push(d.shifted(span.start));
        } else {
            let mut d = d;
            for l in &mut d.labels {
                l.span = span;
            }
            diagnostics.push(d);
        }
    }
    let p = checked.position?;
    let p = Position { move_number: Some(p.move_number.unwrap_or(1)), ..p };
    Some(Setup { source: "sfen", sfen: p.to_string(), span })
}

/// A GSDB setup (D1): `wK3a … bRH1 wPH15 $`, the words at `spans` of `text`.
pub fn read_gsdb(text: &str, spans: &[Span], diagnostics: &mut Vec<Diagnostic>) -> Option<Setup> {
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
                    Diagnostic::error("psn::setup-twice", *s, format!("two pieces on {square}"))
                        .label("this square already has a piece")
                        .help("each square of a setup holds one piece"),
                );
            }
            board.set(square, Some(piece));
        }
    }
    diagnostics.push(
        Diagnostic::warning("psn::gsdb-setup", whole, "a GSDB setup instead of a FEN header")
            .label("GSDB's private position format")
            .help("the 1998 spec gives a starting position in a `FEN` header"),
    );
    let position = Position { board, hands, side: Color::Black, move_number: Some(1) };
    let sfen = position.to_string();
    check_composed(&sfen, whole, None, diagnostics).then_some(Setup { source: "gsdb", sfen, span: whole })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_example_gives_the_diagram_hands() {
        let mut d = Vec::new();
        let value = "5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1";
        let setup = read_fen(value, Span::new(0, value.len()), &mut d).expect("the spec's example reads");
        // Black: N S S R; White: 17 P, 3 L, 2 N, 1 S, 2 G, 1 B (seeds/README.md).
        assert_eq!(setup.sfen, "5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 b R2SNb2gs2n3l17p 1");
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
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
