//! Every finding that carries a fix: applying it removes the finding and adds none, and a
//! safe fix makes an otherwise valid record valid.

use kifu::diagnostic::{Applicability, Code};
use kifu::format::Format;
use kifu::sfen::DialectChoice;
use kifu::Diagnostic;

use crate::common::bin;

const SFEN: Format = Format::Sfen(DialectChoice::Auto);
const USI: Format = Format::Sfen(DialectChoice::Usi);
const SFEN2007: Format = Format::Sfen(DialectChoice::Sfen2007);
const FEN: Format = Format::Fen(kifu::fen::Dialect::Standard);
const CHESS960: Format = Format::Fen(kifu::fen::Dialect::Chess960);

/// EPD, by its name (its dialect as `Format::from_str` gives it).
fn epd() -> Format {
    "epd".parse().expect("a format")
}

/// A record with one finding (`code`) whose first fix has `applicability`, and what the
/// record reads after the fix.
struct Case {
    format: Format,
    record: String,
    code: Code,
    applicability: Applicability,
    fixed: String,
}

const SAFE: Applicability = Applicability::Safe;
const UNSAFE: Applicability = Applicability::Unsafe;

fn case(format: Format, record: &str, code: Code, applicability: Applicability, fixed: &str) -> Case {
    Case { format, record: record.to_owned(), code, applicability, fixed: fixed.to_owned() }
}

/// The SFEN board of the start position, and one with two Black pawns and a White one in hand.
const BOARD: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
const BOARD_HANDS: &str = "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPP2/1B5R1/LNSGKGSNL";
const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const PLACEMENT: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
const FEN_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `record` in `format`, with `code` fixed to the start position.
fn to_start(format: Format, record: &str, code: Code) -> Case {
    let start = if matches!(format, Format::Sfen(_)) { START } else { FEN_START };
    case(format, record, code, SAFE, start)
}

fn sfen_cases() -> Vec<Case> {
    let hands = |hand: &str| format!("{BOARD_HANDS} b {hand} 1");
    let fixed_hands = hands("2Pp");
    vec![
        to_start(SFEN, &format!(" {START}"), Code::SfenLeadingWhitespace),
        to_start(SFEN, &format!("{START} \t"), Code::SfenTrailingWhitespace),
        to_start(SFEN, &format!("{BOARD}_b_-_1"), Code::SfenSeparator),
        case(SFEN, &format!("{BOARD} b\t-  1"), Code::SfenSeparator, SAFE, &format!("{BOARD} b -  1")),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9 /PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Code::SfenSeparator),
        to_start(SFEN, &format!("position sfen {START}"), Code::SfenUsiCommand),
        to_start(SFEN, "startpos", Code::SfenStartpos),
        to_start(SFEN, "position startpos", Code::SfenStartpos),
        to_start(SFEN, &format!("{START} moves 7g7f 3c3d"), Code::SfenExtraField),
        // One slip away: the space typed between two digits of the move number.
        case(SFEN, &format!("{START} 5"), Code::SfenExtraField, UNSAFE, &format!("{START}5")),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/ＰPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Code::SfenLookalike),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/９/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Code::SfenLookalike),
        to_start(SFEN, &format!("{BOARD} ｂ - 1"), Code::SfenLookalike),
        to_start(SFEN, &format!("{BOARD} b \u{2013} 1"), Code::SfenLookalike),
        to_start(SFEN, &format!("{BOARD} b - １"), Code::SfenLookalike),
        case(SFEN, &hands("２Pp"), Code::SfenLookalike, SAFE, &fixed_hands),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1", Code::SfenUnpromotable),
        case(
            SFEN,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+ b - 1",
            Code::SfenDanglingPromotion,
            UNSAFE,
            START,
        ),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/90/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Code::SfenEmptyCountZero),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/45/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Code::SfenSplitEmptyRun),
        to_start(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9//9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Code::SfenEmptyRank),
        to_start(SFEN, &format!("{BOARD} black - 1"), Code::SfenSide),
        case(SFEN2007, &format!("{BOARD} sente - 1"), Code::SfenSide, SAFE, &format!("{BOARD} B - 1")),
        to_start(USI, &format!("{BOARD} B - 1"), Code::SfenDialect),
        case(SFEN2007, START, Code::SfenDialect, SAFE, &format!("{BOARD} B - 1")),
        case(SFEN, &format!("{BOARD} W - 100"), Code::SfenMixedDialect, SAFE, &format!("{BOARD} w - 100")),
        case(SFEN, &hands("02Pp"), Code::SfenHandCountForm, SAFE, &fixed_hands),
        case(SFEN, &hands("2P+p"), Code::SfenPromotedInHand, SAFE, &fixed_hands),
        case(SFEN, &hands("2P0Gp"), Code::SfenHandCountZero, SAFE, &fixed_hands),
        to_start(SFEN, &format!("{BOARD} b 0R 1"), Code::SfenHandCountZero),
        case(SFEN, &hands("-2Pp"), Code::SfenHandDash, SAFE, &fixed_hands),
        to_start(SFEN, &format!("{BOARD} b -- 1"), Code::SfenHandDash),
        to_start(SFEN, &format!("{BOARD} b - 01"), Code::SfenMoveNumberForm),
        case(SFEN, &format!("{BOARD} b - 0"), Code::SfenMoveNumberZero, UNSAFE, START),
        case(
            SFEN,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b 1P 1",
            Code::SfenHandCountOne,
            SAFE,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1",
        ),
        case(SFEN, &hands("p2P"), Code::SfenHandOrder, SAFE, &fixed_hands),
        case(SFEN, &hands("p1P1P"), Code::SfenHandRepeat, SAFE, &fixed_hands),
    ]
}

fn fen_cases() -> Vec<Case> {
    let fen = |rest: &str| format!("{PLACEMENT} {rest}");
    vec![
        to_start(FEN, &format!("  {FEN_START}"), Code::FenLeadingWhitespace),
        to_start(FEN, &format!("{FEN_START} "), Code::FenTrailingWhitespace),
        to_start(FEN, &fen("w KQkq - 0\u{3000}1"), Code::FenSeparator),
        to_start(FEN, &format!("{PLACEMENT}  w KQkq - 0 1"), Code::FenSeparator),
        to_start(FEN, "rnbqkbnr/pppppppp/8/8 /8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Code::FenSeparator),
        to_start(FEN, &format!("{PLACEMENT}w KQkq - 0 1"), Code::FenSeparator),
        to_start(FEN, &fen("w KQkq -"), Code::FenMissingField),
        case(FEN, &fen("w KQkq - 0"), Code::FenMissingField, UNSAFE, FEN_START),
        case(FEN, &fen("w KQkq - 0 1 x"), Code::FenExtraField, UNSAFE, FEN_START),
        to_start(FEN, "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Code::FenSplitBlankRun),
        to_start(FEN, "rnbqkbnr/pppppppp/8/8/80/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Code::FenBlankZero),
        to_start(FEN, "rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Code::FenEmptyRank),
        to_start(FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/ＲNBQKBNR w KQkq - 0 1", Code::FenLookalike),
        to_start(FEN, &fen("ｗ KQkq - 0 1"), Code::FenLookalike),
        to_start(FEN, &fen("w ＫQkq - 0 1"), Code::FenLookalike),
        to_start(FEN, &fen("w KQkq \u{2013} 0 1"), Code::FenLookalike),
        to_start(FEN, &fen("w KQkq - ０ 1"), Code::FenLookalike),
        to_start(FEN, &fen("w KQkq - 0 １"), Code::FenLookalike),
        to_start(FEN, &fen("white KQkq - 0 1"), Code::FenSide),
        to_start(FEN, &fen("w qkQK - 0 1"), Code::FenCastlingOrder),
        to_start(FEN, &fen("w KQ-kq - 0 1"), Code::FenCastling),
        case(FEN, &fen("w -- - 0 1"), Code::FenCastling, SAFE, &fen("w - - 0 1")),
        to_start(FEN, &fen("w KKQkq - 0 1"), Code::FenCastlingRepeat),
        to_start(FEN, &fen("w KQkq -- 0 1"), Code::FenEnPassant),
        to_start(FEN, &fen("w KQkq - 00 1"), Code::FenHalfmove),
        to_start(FEN, &fen("w KQkq - 0 01"), Code::FenFullmove),
        to_start(FEN, &fen("w KQkq - 0 0"), Code::FenFullmoveZero),
        case(
            FEN,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 1",
            Code::FenEpHalfmove,
            SAFE,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ),
        case(FEN, &fen("w KQkq e3 0 1"), Code::FenEpRank, UNSAFE, FEN_START),
        case(FEN, &fen("b KQkq e3 0 1"), Code::FenEpNoPawn, UNSAFE, &fen("b KQkq - 0 1")),
        // One slip away, and no warning left: the `H` that names the rook `K` already names.
        case(CHESS960, &fen("w HKQkq - 0 1"), Code::FenCastlingRepeat, UNSAFE, &fen("w KQkq - 0 1")),
        to_start(FEN, &fen("w HAha - 0 1"), Code::FenCastlingChess960),
        to_start(FEN, &fen("w AHah - 0 1"), Code::FenCastlingChess960),
        case(
            FEN,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1",
            Code::FenEnPassant,
            SAFE,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ),
        case(epd(), &format!("{PLACEMENT} w KQkq -\t"), Code::FenTrailingWhitespace, SAFE, &fen("w KQkq -")),
    ]
}

fn cases() -> Vec<Case> {
    let mut cases = sfen_cases();
    cases.extend(fen_cases());
    cases
}

fn check(format: Format, text: &str) -> Vec<Diagnostic> {
    format.check_text(text).0
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<Code> {
    let mut codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    codes.sort_unstable();
    codes
}

/// The finding of `code` in `case`'s record, its fix applied, and the findings after.
fn apply(case: &Case) -> (String, Vec<Diagnostic>, Vec<Diagnostic>) {
    let before = check(case.format, &case.record);
    let finding = before
        .iter()
        .find(|d| d.code == case.code)
        .unwrap_or_else(|| panic!("{:?}: no {} among {:?}", case.record, case.code, codes(&before)));
    let fix = finding.fixes.first().unwrap_or_else(|| panic!("{:?}: {} has no fix", case.record, case.code));
    assert_eq!(fix.applicability, case.applicability, "{:?}: {}", case.record, case.code);
    if fix.applicability == Applicability::Safe {
        assert_eq!(finding.safe_fix(), Some(fix), "{:?}: a safe fix is the only one", case.record);
    }
    let fixed = fix.apply(&case.record).unwrap_or_else(|| panic!("{:?}: the fix does not apply", case.record));
    let after = check(case.format, &fixed);
    (fixed, before, after)
}

#[test]
fn each_fix_removes_its_finding_and_adds_none() {
    let mut failures = Vec::new();
    for case in cases() {
        let (fixed, before, after) = apply(&case);
        let (before, after) = (codes(&before), codes(&after));
        let mut expected = before.clone();
        if let Some(i) = expected.iter().position(|c| *c == case.code) {
            expected.remove(i);
        }
        let new: Vec<&Code> = after.iter().filter(|c| !expected.contains(c)).collect();
        if fixed != case.fixed || !new.is_empty() || after.len() > expected.len() {
            failures.push(format!(
                "{:?} ({}): fixed to {fixed:?}, expected {:?}; findings before {before:?}, after {after:?}",
                case.record, case.code, case.fixed
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_safe_fix_of_the_only_finding_leaves_a_clean_record() {
    for case in cases().iter().filter(|c| c.applicability == Applicability::Safe) {
        let (fixed, before, after) = apply(case);
        if before.len() == 1 {
            assert!(after.is_empty(), "{:?} fixed to {fixed:?} still has {:?}", case.record, codes(&after));
        }
    }
}

/// Valid records the single edits start from.
fn valid_records() -> [(Format, &'static str); 8] {
    [
        (SFEN, START),
        (SFEN, "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPSP1PNPP/2G1K2R1/LN3G2L w Bb 26"),
        (SFEN, "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPP2/1B5R1/LNSGKGSNL b 2Pp 1"),
        (SFEN2007, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL W - 2"),
        (FEN, FEN_START),
        (FEN, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"),
        (FEN, "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Kq d3 0 3"),
        (epd(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";"),
    ]
}

/// Characters the edits insert and write over: each format's ASCII, separators, and a few
/// look-alikes.
const ALPHABET: &str = "0123456789/+-bwBWkKqQpPrRgGsSnNlLeE_ \tｂＰ１–";

/// Every record one character away from `text`.
fn single_edits(text: &str) -> Vec<String> {
    let at: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
    let mut out = Vec::new();
    for (k, &i) in at.iter().enumerate() {
        let next = at.get(k + 1).copied();
        for c in ALPHABET.chars() {
            out.push(format!("{}{c}{}", &text[..i], &text[i..]));
            if let Some(j) = next {
                out.push(format!("{}{c}{}", &text[..i], &text[j..]));
            }
        }
        if let Some(j) = next {
            out.push(format!("{}{}", &text[..i], &text[j..]));
        }
    }
    out
}

/// How many findings of each code.
fn census(diagnostics: &[Diagnostic]) -> std::collections::BTreeMap<Code, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for d in diagnostics {
        *counts.entry(d.code).or_insert(0) += 1;
    }
    counts
}

/// For every single edit of a valid record, each safe fix removes its finding and brings no
/// finding of a code that was not there, nor more of one.
#[test]
fn safe_fixes_of_single_edits_remove_their_finding_and_add_none() {
    let (mut failures, mut fixes) = (Vec::new(), 0);
    for (format, valid) in valid_records() {
        assert!(check(format, valid).is_empty(), "{valid:?} is valid");
        for record in single_edits(valid) {
            let before = check(format, &record);
            let counts = census(&before);
            for d in &before {
                let Some(fix) = d.safe_fix() else { continue };
                fixes += 1;
                let fixed = fix.apply(&record).unwrap_or_default();
                let after = census(&check(format, &fixed));
                let gone = after.get(&d.code).copied().unwrap_or(0) < counts[&d.code];
                let added: Vec<&Code> =
                    after.iter().filter(|(c, n)| counts.get(*c).is_none_or(|b| *n > b)).map(|(c, _)| c).collect();
                if !gone || !added.is_empty() {
                    failures.push(format!(
                        "{record:?} ({}) fixed to {fixed:?}: still there {}, new {added:?}",
                        d.code, !gone
                    ));
                }
            }
        }
    }
    eprintln!("{fixes} safe fixes tried");
    assert!(fixes > 1000, "only {fixes} safe fixes were tried");
    assert!(
        failures.is_empty(),
        "{} of {fixes} safe fixes fail:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// The board `text` reads as in `format` (the squares and their pieces), when it is valid
/// (warnings aside).
fn board(format: Format, text: &str) -> Option<String> {
    match format {
        Format::Sfen(choice) => {
            let checked = kifu::sfen::check(text, choice);
            checked.is_valid().then(|| checked.position.map(|p| format!("{:?}", p.board))).flatten()
        }
        Format::Fen(dialect) | Format::Epd(dialect) => {
            let kind = if matches!(format, Format::Fen(_)) { kifu::fen::Kind::Fen } else { kifu::fen::Kind::Epd };
            let checked = kifu::fen::check(text, kind, dialect);
            checked.is_valid().then(|| checked.position.map(|p| format!("{:?}", p.board))).flatten()
        }
        _ => None,
    }
}

/// A safe fix keeps the meaning: of every single edit of a valid record that slips a piece or
/// a square (an ASCII letter, digit, `+`, `-` or `/` deleted, inserted or replaced; not a
/// look-alike, a space or a tab, whose fixes keep what the record says), an error's safe fix
/// that makes the record valid gives back the record's own board, never another one, and no
/// safe fix writes, removes or replaces a piece on the board: a repair that guesses a piece or
/// a square (`L` for a lost `L`, however sure) is offered, never applied unasked.
#[test]
fn a_safe_fix_of_a_slipped_piece_gives_back_the_same_board() {
    let (mut changed, mut kept, mut offered) = (Vec::new(), 0, 0);
    for (format, valid) in valid_records() {
        let original = board(format, valid).unwrap_or_else(|| panic!("{valid:?} is valid"));
        let spaces = valid.matches(' ').count();
        let content_slip = |r: &str| r.is_ascii() && !r.contains(['_', '\t']) && r.matches(' ').count() == spaces;
        for record in single_edits(valid).into_iter().filter(|r| content_slip(r)) {
            for d in check(format, &record).iter().filter(|d| d.is_error()) {
                offered += usize::from(!d.fixes.is_empty());
                let Some(fix) = d.safe_fix() else { continue };
                // No piece letter of the board written, removed or replaced.
                let board_end = record.find(' ').unwrap_or(record.len());
                let letters = |t: &str| t.chars().filter(char::is_ascii_alphabetic).collect::<String>();
                let touches_a_piece = fix.edits.iter().any(|e| {
                    e.span.start < board_end && letters(&record[e.span.start..e.span.end]) != letters(&e.replacement)
                });
                let fixed = fix.apply(&record).unwrap_or_default();
                match board(format, &fixed) {
                    Some(b) if b == original && !touches_a_piece => kept += 1,
                    Some(_) => changed.push(format!("{record:?} ({}) fixed to {fixed:?}", d.code)),
                    None if touches_a_piece => changed.push(format!("{record:?} ({}) fixed to {fixed:?}", d.code)),
                    None => {}
                }
            }
        }
    }
    eprintln!("{offered} errors with a fix; {kept} safe fixes gave the board back");
    assert!(offered > 500 && kept > 100, "only {offered} errors had a fix, {kept} safe ones");
    assert!(
        changed.is_empty(),
        "{} safe fixes changed a piece of the board:\n{}",
        changed.len(),
        changed[..changed.len().min(40)].join("\n")
    );
}

/// The findings of a JSON text of one position (`chess` or shogi), its syntax's included.
fn check_json(chess: bool, text: &str) -> Vec<Diagnostic> {
    let (nodes, mut found) = kifu::json::read_stream(text);
    for node in &nodes {
        found.extend(if chess {
            kifu::json::chess::read(node).diagnostics
        } else {
            kifu::json::shogi::read(node).diagnostics
        });
    }
    found
}

const SHOGI_JSON: &str = r#"{"sideOnMove":"black","blackHand":{"silver":2},"whiteHand":[0,0,0,0,0,0,0],"pieces":{"5a":"wK","5i":"bK","5g":"bP"},"moveNumber":1}"#;
const CHESS_JSON: &str = r#"{"sideOnMove":"white","castling":"KQkq","enPassant":null,"halfmoveClock":0,"fullmoveNumber":1,"pieces":{"e1":"wK","h1":"wR","a1":"wR","e8":"bK","h8":"bR","a8":"bR","e2":"wP"}}"#;

/// JSON positions with one fault, the code of its finding, whether the fix is safe, and the
/// valid position it makes.
fn json_cases() -> Vec<(bool, String, Code, Applicability, String)> {
    let shogi = |from: &str, to: &str| (false, SHOGI_JSON.replacen(from, to, 1), SHOGI_JSON.to_owned());
    let chess = |from: &str, to: &str| (true, CHESS_JSON.replacen(from, to, 1), CHESS_JSON.to_owned());
    let counters = r#","halfmoveClock":0,"fullmoveNumber":1"#;
    let no_counters = CHESS_JSON.replacen(counters, "", 1);
    let counters_last = format!("{}{counters}}}", &no_counters[..no_counters.len() - 1]);
    let rows = [
        (shogi(r#""sideOnMove""#, r#""sideonmove""#), Code::JsonUnknownKey, SAFE),
        (shogi(r#""sideOnMove""#, r#""side""#), Code::JsonUnknownKey, UNSAFE),
        (shogi(r#""black""#, r#""Black""#), Code::JsonSide, SAFE),
        (shogi(r#""black""#, r#""sente""#), Code::JsonSide, SAFE),
        (shogi(r#""5g""#, r#""g5""#), Code::JsonSquare, SAFE),
        (shogi(r#""5g""#, r#""5G""#), Code::JsonSquare, SAFE),
        (shogi(r#""bP""#, r#""P""#), Code::JsonPiece, SAFE),
        (shogi(r#""bP""#, r#""bp""#), Code::JsonPiece, SAFE),
        (shogi(r#""silver""#, r#""Silver""#), Code::JsonHandPiece, SAFE),
        (shogi(r#""silver""#, r#""s""#), Code::JsonHandPiece, SAFE),
        (shogi(r#""silver":2"#, r#""silver":"2""#), Code::JsonHandCount, SAFE),
        (shogi(r#""moveNumber":1"#, r#""moveNumber":"1""#), Code::JsonMoveNumber, SAFE),
        (shogi(r#""5g":"bP"}"#, r#""5g":"bP",}"#), Code::JsonSyntax, SAFE),
        (chess(r#""white""#, r#""White""#), Code::JsonSide, SAFE),
        (chess(r#""e2""#, r#""E2""#), Code::JsonSquare, SAFE),
        (chess(r#""e2""#, r#""2e""#), Code::JsonSquare, SAFE),
        (chess(r#""wP""#, r#""P""#), Code::JsonPiece, SAFE),
        (chess(r#""wP""#, r#""wp""#), Code::JsonPiece, SAFE),
        (chess("null", r#""-""#), Code::JsonEnPassant, SAFE),
        (chess(r#""halfmoveClock":0"#, r#""halfmoveClock":"0""#), Code::JsonCounter, SAFE),
        (chess(r#""wP"}"#, r#""wP",}"#), Code::JsonSyntax, SAFE),
        ((true, no_counters.clone(), counters_last), Code::JsonMissingKey, SAFE),
        (
            (true, CHESS_JSON.replacen(r#""KQkq""#, "null", 1), CHESS_JSON.replacen(r#""KQkq""#, "[]", 1)),
            Code::JsonCastling,
            SAFE,
        ),
        (shogi("[0,0,0,0,0,0,0]", "[0,0,0,0,0,0,0,0]"), Code::JsonHandLength, SAFE),
        (shogi("[0,0,0,0,0,0,0]", "[0,0,0,0,0,0]"), Code::JsonHandLength, SAFE),
    ];
    rows.into_iter()
        .map(|((chess, record, fixed), code, applicability)| (chess, record, code, applicability, fixed))
        .collect()
}

#[test]
fn json_fixes_make_the_position_valid() {
    assert!(check_json(false, SHOGI_JSON).is_empty() && check_json(true, CHESS_JSON).is_empty());
    let unpromotable = SHOGI_JSON.replacen(r#""5i":"bK""#, r#""5i":"bK","4a":"+bG""#, 1);
    let mut cases = json_cases();
    cases.push((false, unpromotable, kifu::diagnostic::Code::JsonUnpromotable, SAFE, String::new()));
    for (chess, text, code, applicability, valid) in cases {
        let before = check_json(chess, &text);
        assert_eq!(before.len(), 1, "{text}: one fault, one finding: {:?}", codes(&before));
        let finding = &before[0];
        assert_eq!((finding.code, finding.fixes.len()), (code, 1), "{text}");
        assert_eq!(finding.fixes[0].applicability, applicability, "{text}");
        let fixed = finding.fixes[0].apply(&text).expect("the fix applies");
        let after = check_json(chess, &fixed);
        if valid.is_empty() {
            assert!(!after.iter().any(|d| d.code == code), "{fixed}: {:?}", codes(&after));
        } else {
            assert_eq!((fixed, codes(&after)), (valid, vec![]), "{text}");
        }
    }
}

/// A square the fix would write, but which the position already gives, has no fix: the fix
/// would give it twice.
#[test]
fn a_json_fix_never_gives_a_square_or_a_key_twice() {
    let taken = SHOGI_JSON.replacen(r#""5g""#, r#""a5""#, 1);
    let found = check_json(false, &taken);
    assert_eq!(codes(&found), [kifu::diagnostic::Code::JsonSquare]);
    assert!(found[0].fixes.is_empty(), "{:?}", found[0].fixes);
    let both = SHOGI_JSON.replacen(r#""pieces""#, r#""Pieces":{},"pieces""#, 1);
    let found = check_json(false, &both);
    assert_eq!(codes(&found), [kifu::diagnostic::Code::JsonUnknownKey]);
    assert!(found[0].fixes.is_empty());
}

/// The example of a message with a fix in `docs/check.md` is what `kifu` prints.
#[test]
fn the_documented_example_of_a_fix_is_real() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/check.md")).expect("docs/check.md");
    let out = bin::run(&["check", "--message-format", "json", "examples/tour.sfen"]);
    let printed = String::from_utf8_lossy(&out.stdout);
    let shown: Vec<&str> = readme.lines().filter(|l| l.starts_with('{') && l.contains("\"fixes\"")).collect();
    assert!(!shown.is_empty(), "docs/check.md shows a message with a fix");
    for line in shown {
        assert!(printed.lines().any(|p| p == line), "kifu does not print docs/check.md's\n{line}");
    }
}

/// One fault, one report: findings that only follow from another are folded into it.
#[test]
fn one_fault_is_reported_once() {
    // A line of JSON that goes on after a whole value: a bracket closed early, or lost.
    for text in [
        SHOGI_JSON.replacen('{', "{}", 1),
        SHOGI_JSON.replacen('{', "0", 1),
        SHOGI_JSON.replacen(r#""black","#, r#""black"},"#, 1),
    ] {
        assert_eq!(codes(&check_json(false, &text)), [Code::JsonSyntax], "{text}");
    }
    // Two positions on a line are still two positions, and a fault in the second is its own.
    let (nodes, found) = kifu::json::read_stream(&format!("{SHOGI_JSON} {SHOGI_JSON}"));
    assert_eq!((nodes.len(), found.len()), (2, 0));
    let (nodes, found) =
        kifu::json::read_stream(&format!("{SHOGI_JSON} {}", SHOGI_JSON.replacen(r#""bP"}"#, r#""bP",}"#, 1)));
    assert_eq!((nodes.len(), codes(&found)), (1, vec![Code::JsonSyntax]));
    assert_eq!(found[0].safe_fix().map(|f| f.edits.len()), Some(1), "the trailing comma keeps its fix");
    // A king away from its square takes both its rights: one finding; a side without a king
    // is that finding alone.
    let moved = check(FEN, "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1");
    assert_eq!(codes(&moved), [Code::FenCastlingRights]);
    assert_eq!(moved[0].labels.len(), 3, "both rights and the king's square");
    assert_eq!(codes(&check(FEN, "r3k2r/8/8/8/8/8/8/R6R w KQkq - 0 1")), [Code::FenMissingKing]);
    // Seventeen pieces are always more than promotions explain: the count is the fault.
    let extra_queen = check(FEN, "rnbqkbnr/pppppppp/8/8/3Q4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(codes(&extra_queen), [Code::FenTooManyPieces]);
    // A right at fault is not a second right on its side too.
    let chess960 = check(CHESS960, &format!("{PLACEMENT} w bKQkq - 0 1"));
    let errors: Vec<Diagnostic> = chess960.into_iter().filter(Diagnostic::is_error).collect();
    assert_eq!(codes(&errors), [Code::FenCastlingRights]);
}

/// `text` with every safe fix of `found` applied, those that overlap an earlier one left out.
fn apply_safe(text: &str, found: &[Diagnostic]) -> String {
    let mut edits: Vec<&kifu::Edit> = Vec::new();
    for fix in found.iter().filter_map(Diagnostic::safe_fix) {
        let clear =
            fix.edits.iter().all(|e| edits.iter().all(|o| e.span.end <= o.span.start || o.span.end <= e.span.start));
        if clear {
            edits.extend(&fix.edits);
        }
    }
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let all = kifu::Fix { edits: edits.into_iter().cloned().collect(), applicability: SAFE };
    all.apply(text).unwrap_or_else(|| text.to_owned())
}

/// Applying the safe fixes of a single edit of a valid record leaves no safe fix to apply: a
/// second pass changes nothing.
#[test]
fn safe_fixes_settle_in_one_pass() {
    let mut unsettled = Vec::new();
    for (format, valid) in valid_records() {
        for record in single_edits(valid) {
            let once = apply_safe(&record, &check(format, &record));
            let again = check(format, &once);
            if again.iter().any(|d| d.safe_fix().is_some()) {
                unsettled.push(format!("{record:?} -> {once:?}: {:?}", codes(&again)));
            }
        }
    }
    assert!(unsettled.is_empty(), "{} records:\n{}", unsettled.len(), unsettled[..unsettled.len().min(30)].join("\n"));
}
