//! The board viewer's JSON model of a shogi position, written and read back with pointed findings.
//!
//! ```text
//! {"sideOnMove":"black","blackHand":[0,0,0,2,0,0,0],"whiteHand":[0,0,0,0,0,0,0],
//!  "pieces":{"2a":"wR","3b":"bB","1b":"wP","3c":"bB","2c":"wS","1c":"wK","2e":"bP"}}
//! ```
//!
//! - `sideOnMove`: `"black"` or `"white"`.
//! - `blackHand`, `whiteHand`: seven counts in the order Pawn, Lance, Knight, Silver, Gold,
//!   Bishop, Rook; or, in the keyed style ([`Style::Keyed`]), an object of the kinds held and
//!   their counts, `{"silver":2}`.
//! - `pieces`: an object from square to piece, in SFEN order (9a, 8a, … 1a, 9b, … 1i), empty
//!   squares left out. A square is its file digit and rank letter; a piece is `b` or `w`, its
//!   letter, and `+` in front when promoted: `"bP"`, `"+wR"`.
//! - `moveNumber` (kifu's addition, written when the record has one): the move number.
//!
//! [`read`] accepts both hand styles. Every fault of the JSON is a finding that points into the
//! JSON text (`json::square`, `json::piece`, `json::hand-length`, …); a well-formed object is
//! then written as SFEN and checked by [`crate::sfen::check`], whose findings are moved onto the JSON
//! parts they came from. `read(write(p))` gives `p` back for every position.

use crate::diagnostic::codes;
use std::fmt::Write as _;

use super::position::{self, Game, Mapped, Placed};
use super::reader::{Member, Node, Value};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::sfen::{DialectChoice, Position};
use crate::shogi::{Color, Hand, Piece, PieceKind, Square};
use crate::span::Span;

/// The keys of a shogi position object, in the order written.
pub const KEYS: [&str; 5] = ["sideOnMove", "blackHand", "whiteHand", "pieces", "moveNumber"];

/// The largest hand count read (a set has 18 pawns; larger counts are typing errors).
pub const MAX_HAND_COUNT: u64 = 99;

/// How `kifu json` writes a shogi position's hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// The board viewer's model: each hand an array of seven counts, P L N S G B R.
    #[default]
    Counts,
    /// Each hand an object of the kinds held and their counts: `{"silver":1,"pawn":2}`.
    Keyed,
}

/// The style a position's hands are written in: keyed when its `blackHand` is an object.
pub fn style_of(position: &Node) -> Style {
    match position.get("blackHand").map(|m| &m.value.value) {
        Some(Value::Object(_)) => Style::Keyed,
        _ => Style::Counts,
    }
}

/// A piece's code: `b` or `w`, its letter, `+` in front when promoted (`"+bP"`).
pub fn piece_code(piece: Piece) -> String {
    let promoted = if piece.promoted { "+" } else { "" };
    format!("{promoted}{}{}", &side_name(piece.color)[..1], piece.kind.letter())
}

/// The sides' names, black first (as [`Color::index`]).
const SIDES: [&str; 2] = ["black", "white"];

/// `"black"` or `"white"`.
pub const fn side_name(color: Color) -> &'static str {
    SIDES[color.index()]
}

/// `position` as one line of JSON in `style`.
pub fn write(position: &Position, style: Style) -> String {
    let mut s = String::with_capacity(512);
    let _ = write!(s, "{{\"sideOnMove\":\"{}\"", side_name(position.side));
    for color in [Color::Black, Color::White] {
        let key = if color == Color::Black { "blackHand" } else { "whiteHand" };
        let _ = write!(s, ",\"{key}\":{}", hand_json(position.hand(color), style));
    }
    s.push(',');
    position::write_pieces::<Shogi>(&mut s, position.board.pieces());
    if let Some(n) = position.move_number {
        let _ = write!(s, ",\"moveNumber\":{n}");
    }
    s.push('}');
    s
}

fn hand_json(hand: &Hand, style: Style) -> String {
    match style {
        Style::Counts => {
            let counts: Vec<String> = hand.0.iter().map(u32::to_string).collect();
            format!("[{}]", counts.join(","))
        }
        Style::Keyed => {
            let entries: Vec<String> = PieceKind::ALL[..7]
                .iter()
                .filter(|k| hand.count(**k) > 0)
                .map(|k| format!("\"{}\":{}", k.name(), hand.count(*k)))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
    }
}

/// A JSON object read and checked: its record is the SFEN record the object writes (`None`
/// when the object is malformed), its findings point into the JSON text.
pub type Checked = crate::checked::Checked<Option<String>, Position>;

/// The shogi board for the shared mechanism of [`position`].
enum Shogi {}

impl Game for Shogi {
    type Square = Square;
    type Piece = Piece;
    const NAME: &'static str = "shogi";
    const SIZE: (u8, u8) = (9, 9);
    const PIECES_EXAMPLE: &'static str = "{\"5i\":\"bK\",\"5a\":\"wK\",…}";

    /// SFEN order: ranks a to i, files 9 to 1 in each.
    fn square_at(row: u8, col: u8) -> Option<Square> {
        Square::new(9 - col, row + 1)
    }

    fn index(square: Square) -> usize {
        square.index()
    }

    fn parse_square(name: &str) -> Option<Square> {
        parse_square(name)
    }

    fn square_help(key: &str) -> String {
        square_help(key)
    }

    fn meant_square(key: &str) -> Option<Square> {
        meant_square(key)
    }

    fn piece(node: &Node) -> Result<Piece, Diagnostic> {
        let Value::String(code) = &node.value else {
            return Err(Diagnostic::error(
                codes::json::PIECE,
                node.span,
                format!("a piece is a string such as \"bP\", not {}", node.value.kind()),
            )
            .label("not a piece")
            .help("write the piece as a string: `b` or `w`, then its letter, `+` in front when promoted"));
        };
        parse_piece_code(code).ok_or_else(|| {
            let unpromotable = matches!(code.as_str(), "+bG" | "+wG" | "+bK" | "+wK");
            let (code_name, message, label) = if unpromotable {
                (
                    codes::json::UNPROMOTABLE,
                    format!("\"{code}\" promotes a piece that does not promote"),
                    "does not promote",
                )
            } else {
                (codes::json::PIECE, format!("\"{}\" is not a piece code", code.escape_debug()), "not a piece")
            };
            let diag = Diagnostic::error(code_name, node.span, message).label(label).help(piece_help(code));
            match meant_piece(code) {
                Some(meant) => diag.fix(Fix::replace(node.span, format!("\"{meant}\""), Applicability::Safe)),
                None => diag,
            }
        })
    }

    fn code(piece: Piece) -> String {
        piece_code(piece)
    }
}

/// Reads a shogi position object (a value of [`super::read_stream`]) and checks it.
pub fn read(object: &Node) -> Checked {
    let mut out = Vec::new();
    if let Some(moves) = game_record(object) {
        out.push(
            Diagnostic::error(codes::json::GAME_RECORD, moves.key_span, "a JKF game record, not a position")
                .label("the moves of a game")
                .help("kifu reads JKF game records as JKF: check the file with `--format jkf`, or name it `.jkf`"),
        );
        return Checked::unread(out);
    }
    if !position::expect_object(object, &KEYS[..4], &mut out) {
        return Checked::unread(out);
    }
    position::check_keys(object, &KEYS, &KEYS[..4], &[], "shogi", &mut out);
    let side = object.get("sideOnMove").and_then(|m| read_side(&m.value, &mut out));
    let black = object.get("blackHand").and_then(|m| read_hand(&m.value, Color::Black, &mut out));
    let white = object.get("whiteHand").and_then(|m| read_hand(&m.value, Color::White, &mut out));
    let placed = object.get("pieces").and_then(|m| position::read_pieces::<Shogi>(&m.value, &mut out));
    let move_number = read_move_number(object, &mut out);
    let clean = position::sorted_and_clean(&mut out);
    let (true, Some(side), Some(black), Some(white), Some(placed), Some(move_number)) =
        (clean, side, black, white, placed, move_number)
    else {
        return Checked::unread(out);
    };
    let mapped = to_sfen(object, side, [&black, &white], &placed, move_number);
    let checked = crate::sfen::check_without_repair(&mapped.text, DialectChoice::Usi);
    out.extend(checked.diagnostics.into_iter().map(|d| mapped.map_diagnostic(d)));
    Checked { record: Some(mapped.text), position: checked.position, syntax_ok: checked.syntax_ok, diagnostics: out }
}

/// The `moves` of an object that is a JKF game record (an array of moves, and none of a
/// position's keys), if it is one.
fn game_record(object: &Node) -> Option<&Member> {
    let moves = object.get("moves").filter(|m| matches!(m.value.value, Value::Array(_)))?;
    KEYS.iter().all(|k| object.get(k).is_none()).then_some(moves)
}

/// `moveNumber`: `Some(None)` when it is left out, `None` when it is not a move number.
fn read_move_number(object: &Node, out: &mut Vec<Diagnostic>) -> Option<Option<u64>> {
    let Some(m) = object.get("moveNumber") else { return Some(None) };
    let n = position::number_from(&m.value, 1);
    if n.is_none() {
        let diag = Diagnostic::error(
            codes::json::MOVE_NUMBER,
            m.value.span,
            format!("a move number is a whole number from 1, not {}", position::describe(&m.value)),
        )
        .label("not a move number");
        out.push(match position::quoted_number(&m.value, 1, u64::MAX) {
            Some(fix) => diag.help("write the move number without quotes").fix(fix),
            None => diag.help("write the move number as a number such as 1, or leave `moveNumber` out"),
        });
    }
    n.map(Some)
}

fn read_side(node: &Node, out: &mut Vec<Diagnostic>) -> Option<(Color, Span)> {
    let side = position::side(node, SIDES, meant_side, side_help, out)?;
    Some(([Color::Black, Color::White][side], node.span))
}

/// The side a string evidently names: its index in [`SIDES`].
fn meant_side(s: &str) -> Option<usize> {
    match s.to_lowercase().as_str() {
        "black" | "b" | "sente" => Some(0),
        "white" | "w" | "gote" => Some(1),
        _ => None,
    }
}

fn side_help(guess: Option<&str>) -> String {
    match guess {
        Some(g) => format!("did you mean \"{g}\"? The side is written in lowercase, in full"),
        None => "write \"black\" (sente, who moves first) or \"white\"".to_owned(),
    }
}

/// A hand read: the counts, and the JSON span of each kind's count (for findings).
struct HandRead {
    hand: Hand,
    spans: [Option<Span>; 7],
    whole: Span,
}

impl HandRead {
    fn add(&mut self, kind: PieceKind, n: u32, from: Span) {
        self.hand.add(kind, n);
        self.spans[kind.index()] = Some(from);
    }
}

fn count_of(node: &Node, what: &str, out: &mut Vec<Diagnostic>) -> Option<u32> {
    if let Some(fix) = position::quoted_number(node, 0, MAX_HAND_COUNT) {
        out.push(
            Diagnostic::error(
                codes::json::HAND_COUNT,
                node.span,
                format!("a hand count is a number, not {}", position::describe(node)),
            )
            .label("a number in quotes")
            .help("write the count without quotes")
            .fix(fix),
        );
        return None;
    }
    let (message, label, help) = match node.as_u64() {
        Some(n) if n <= MAX_HAND_COUNT => return u32::try_from(n).ok(),
        Some(n) => (
            format!("{n} {what} in hand is more than any set holds"),
            "too many",
            "a set holds 18 pawns, 4 lances, knights, silvers and golds, 2 bishops and 2 rooks",
        ),
        None => (
            format!("a hand count is a whole number from 0, not {}", position::describe(node)),
            "not a count",
            "write how many the side holds, such as 0 or 2",
        ),
    };
    out.push(Diagnostic::error(codes::json::HAND_COUNT, node.span, message).label(label).help(help));
    None
}

fn read_hand(node: &Node, color: Color, out: &mut Vec<Diagnostic>) -> Option<HandRead> {
    let mut read = HandRead { hand: Hand::default(), spans: [None; 7], whole: node.span };
    let before = out.len();
    match &node.value {
        Value::Array(items) => hand_counts(items, node.span, color, &mut read, out),
        Value::Object(members) => hand_kinds(members, &mut read, out),
        _ => out.push(
            Diagnostic::error(
                codes::json::HAND_LENGTH,
                node.span,
                format!("{}'s hand is {}, not seven counts", color.name(), node.value.kind()),
            )
            .label("not a hand")
            .help("write seven counts, pawn to rook, as [0,0,0,2,0,0,0], or the kinds held, as {\"silver\":2}"),
        ),
    }
    (out.len() == before).then_some(read)
}

/// A hand as an array of seven counts, pawn to rook.
fn hand_counts(items: &[Node], whole: Span, color: Color, read: &mut HandRead, out: &mut Vec<Diagnostic>) {
    if items.len() != 7 {
        let message = format!("{}'s hand has {} counts; a hand has 7", color.name(), items.len());
        let (label, span) = match (items.get(7), items.last()) {
            (Some(extra), Some(last)) => (format!("{} too many", items.len() - 7), extra.span.to(last.span)),
            _ => (format!("{} short", 7 - items.len()), whole),
        };
        let diag = Diagnostic::error(codes::json::HAND_LENGTH, span, message).label(label).help(
            "give seven counts, in the order pawn, lance, knight, silver, gold, bishop, rook: [0,0,0,0,0,0,0] for none",
        );
        // Nothing but zeros is an empty hand, however many were written.
        let empty = !items.is_empty() && items.iter().all(|i| i.as_u64() == Some(0));
        out.push(if empty { diag.fix(Fix::replace(whole, "[0,0,0,0,0,0,0]", Applicability::Safe)) } else { diag });
    }
    for (item, &kind) in items.iter().zip(&PieceKind::ALL[..7]) {
        if let Some(n) = count_of(item, kind.plural(), out) {
            read.add(kind, n, item.span);
        }
    }
}

/// A hand as an object of the kinds held and their counts.
fn hand_kinds(members: &[Member], read: &mut HandRead, out: &mut Vec<Diagnostic>) {
    // The first member of each key, and the keys given, found in one pass: a hand may hold
    // thousands of members.
    let mut first_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, m) in members.iter().enumerate() {
        first_of.entry(m.key.as_str()).or_insert(i);
    }
    for (i, m) in members.iter().enumerate() {
        let kind = PieceKind::ALL[..7].iter().copied().find(|k| k.name() == m.key || k.plural() == m.key);
        let Some(kind) = kind else {
            let diag = Diagnostic::error(
                codes::json::HAND_PIECE,
                m.key_span,
                format!("`{}` is not a kind a hand holds", m.key.escape_debug()),
            )
            .label("unknown kind")
            .help(hand_kind_help(&m.key));
            // The kind meant, unless the hand gives it already.
            let given = |k: PieceKind| first_of.contains_key(k.name()) || first_of.contains_key(k.plural());
            out.push(match meant_kind(&m.key).filter(|k| !given(*k)) {
                Some(k) => diag.fix(Fix::replace(m.key_span, format!("\"{}\"", k.name()), Applicability::Safe)),
                None => diag,
            });
            continue;
        };
        if let Some(&first) = first_of.get(m.key.as_str()).filter(|&&first| first < i) {
            out.push(position::duplicate_key(m, &members[first], "give each kind once, with its whole count"));
            continue;
        }
        if let Some(n) = count_of(&m.value, kind.plural(), out) {
            read.add(kind, n, m.key_span.to(m.value.span));
        }
    }
}

/// The kind of piece in hand a key evidently names: a kind's name or plural in another case,
/// or its letter.
fn meant_kind(key: &str) -> Option<PieceKind> {
    let lower = key.to_lowercase();
    PieceKind::ALL[..7].iter().copied().find(|k| {
        k.name() == lower
            || k.plural() == lower
            || (lower.len() == 1 && lower.starts_with(k.letter().to_ascii_lowercase()))
    })
}

fn hand_kind_help(key: &str) -> String {
    if key.eq_ignore_ascii_case("king") {
        return "a king is never in hand".to_owned();
    }
    match meant_kind(key) {
        Some(k) => format!("did you mean \"{}\"?", k.name()),
        None => "the kinds in hand are pawn, lance, knight, silver, gold, bishop and rook".to_owned(),
    }
}

/// Reads `"7f"`.
pub fn parse_square(s: &str) -> Option<Square> {
    Square::parse(s)
}

/// Reads `"+bP"`.
pub fn parse_piece_code(s: &str) -> Option<Piece> {
    let (promoted, rest) = match s.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let color = match rest.as_bytes().first()? {
        b'b' => Color::Black,
        b'w' => Color::White,
        _ => return None,
    };
    let mut letters = rest[1..].chars();
    let kind = PieceKind::from_letter(letters.next().filter(char::is_ascii_uppercase)?)?;
    if letters.next().is_some() || (promoted && !kind.can_promote()) {
        return None;
    }
    Some(Piece { color, kind, promoted })
}

/// The square a key evidently means: rank and file swapped (`"a5"`), or the rank letter in
/// uppercase (`"5A"`).
fn meant_square(key: &str) -> Option<Square> {
    match key.as_bytes() {
        [r @ b'a'..=b'i', f @ b'1'..=b'9'] => Square::parse(&format!("{}{}", *f as char, *r as char)),
        [f @ b'1'..=b'9', r @ b'A'..=b'I'] => {
            Square::parse(&format!("{}{}", *f as char, r.to_ascii_lowercase() as char))
        }
        _ => None,
    }
}

/// The piece code a string evidently means (the one its help names), if it is one.
fn meant_piece(code: &str) -> Option<String> {
    let c: Vec<char> = code.chars().collect();
    let meant = match c.as_slice() {
        [k] => format!("{}{}", if k.is_ascii_uppercase() { 'b' } else { 'w' }, k.to_ascii_uppercase()),
        [col @ ('b' | 'w'), '+', k] => format!("+{col}{k}"),
        ['+', col @ ('b' | 'w'), k @ ('G' | 'K')] => format!("{col}{k}"),
        [col @ ('b' | 'w'), k] => format!("{col}{}", k.to_ascii_uppercase()),
        _ => return None,
    };
    parse_piece_code(&meant).map(|_| meant)
}

fn square_help(key: &str) -> String {
    let b = key.as_bytes();
    match b {
        [r @ b'a'..=b'i', f @ b'1'..=b'9'] => {
            format!("did you mean \"{}{}\"? A square is its file digit, then its rank letter", *f as char, *r as char)
        }
        [f @ b'1'..=b'9', r @ b'A'..=b'I'] => {
            format!("did you mean \"{}{}\"? Rank letters are lowercase", *f as char, r.to_ascii_lowercase() as char)
        }
        _ => "a square is a file 1-9 and a rank a-i: \"9a\" is the top left corner, \"1i\" the bottom right".to_owned(),
    }
}

fn piece_help(code: &str) -> String {
    let c: Vec<char> = code.chars().collect();
    match c.as_slice() {
        [k] if PieceKind::from_letter(*k).is_some() => {
            let color = if k.is_ascii_uppercase() { 'b' } else { 'w' };
            format!("put `b` or `w` in front for its side, as \"{color}{}\"", k.to_ascii_uppercase())
        }
        [col @ ('b' | 'w'), '+', k] => format!("the `+` comes first: \"+{col}{k}\""),
        ['+', 'b' | 'w', 'G' | 'K'] => "golds and kings do not promote: leave out the `+`".to_owned(),
        [col @ ('b' | 'w'), k] if PieceKind::from_letter(*k).is_some() => {
            format!("piece letters are uppercase: \"{col}{}\"", k.to_ascii_uppercase())
        }
        ['B' | 'W', ..] => "the side is a lowercase `b` or `w`".to_owned(),
        _ => "a piece is `b` or `w`, then K R B G S N L P, with `+` in front when promoted: \"bP\", \"+wR\"".to_owned(),
    }
}

/// The SFEN record of a well-formed object, with where each part came from.
fn to_sfen(
    object: &Node,
    side: (Color, Span),
    hands: [&HandRead; 2],
    placed: &Placed<Shogi>,
    move_number: Option<u64>,
) -> Mapped {
    let mut m = Mapped::new(position::first_char(object.span));
    position::write_placement(&mut m, placed);
    m.push(" ", None);
    m.push(if side.0 == Color::Black { "b" } else { "w" }, Some(side.1));
    m.push(" ", None);
    let hand_start = m.text.len();
    let mut any = false;
    for (color, read) in [Color::Black, Color::White].into_iter().zip(hands) {
        for kind in PieceKind::USI_HAND_ORDER {
            let n = read.hand.count(kind);
            if n == 0 {
                continue;
            }
            let count = if n > 1 { n.to_string() } else { String::new() };
            let letter = Piece { color, kind, promoted: false }.letter();
            m.push(&format!("{count}{letter}"), read.spans[kind.index()]);
            any = true;
        }
    }
    if !any {
        m.push("-", None);
    }
    m.region(hand_start, hands[0].whole.to(hands[1].whole));
    if let Some(n) = move_number {
        m.push(" ", None);
        let from = object.get("moveNumber").map(|mn| mn.value.span);
        m.push(&n.to_string(), from);
    }
    m
}

#[cfg(feature = "serde")]
mod serde_impls {
    //! `Position` as the board viewer's object, for serde (the `serde` feature).

    use super::{read, Position, Shogi};
    use crate::json::position::PieceMap;

    impl serde::Serialize for Position {
        /// Writes the model's object (hands as arrays of seven counts), as [`write`] does.
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut out = serializer.serialize_map(None)?;
            out.serialize_entry("sideOnMove", super::side_name(self.side))?;
            out.serialize_entry("blackHand", &self.hands[0].0)?;
            out.serialize_entry("whiteHand", &self.hands[1].0)?;
            out.serialize_entry("pieces", &PieceMap::<Shogi, _>::new(|| self.board.pieces()))?;
            if let Some(n) = self.move_number {
                out.serialize_entry("moveNumber", &n)?;
            }
            out.end()
        }
    }

    impl<'de> serde::Deserialize<'de> for Position {
        /// Reads the model's object in either hand style; a position that breaks the rules of
        /// shogi is read (as [`Position`] always is), a malformed one is an error.
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let checked = crate::json::position::deserialize(deserializer, read, |c| &c.diagnostics)?;
            let sfen = checked.record.ok_or_else(|| serde::de::Error::custom("not a shogi position"))?;
            sfen.parse().map_err(serde::de::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Checked {
        read(&position::tests::one_value(text))
    }

    #[test]
    fn the_seed_tsume_round_trips() {
        let p: Position = "7r1/6B1p/6Bsk/9/7P1/9/9/9/9 B 2S".parse().expect("sfen");
        let text = write(&p, Style::Counts);
        assert_eq!(
            text,
            r#"{"sideOnMove":"black","blackHand":[0,0,0,2,0,0,0],"whiteHand":[0,0,0,0,0,0,0],"pieces":{"2a":"wR","3b":"bB","1b":"wP","3c":"bB","2c":"wS","1c":"wK","2e":"bP"}}"#
        );
        let back = read_text(&text);
        assert_eq!(back.position.as_ref(), Some(&p));
        assert_eq!(back.record.as_deref(), Some("7r1/6B1p/6Bsk/9/7P1/9/9/9/9 b 2S"));
        let keyed = write(&p, Style::Keyed);
        assert!(keyed.contains(r#""blackHand":{"silver":2},"whiteHand":{}"#), "{keyed}");
        assert_eq!(read_text(&keyed).position, Some(p));
    }

    #[test]
    fn faults_point_into_the_json() {
        let text = r#"{"sideOnMove":"Black","blackHand":[0,0,0],"whiteHand":{"king":1},"pieces":{"5j":"bK","5a":"K","4a":"+bG"}}"#;
        let checked = read_text(text);
        assert_eq!(
            position::tests::found(&checked.diagnostics, text),
            [
                (crate::diagnostic::codes::json::SIDE, "\"Black\""),
                (crate::diagnostic::codes::json::HAND_LENGTH, "[0,0,0]"),
                (crate::diagnostic::codes::json::HAND_PIECE, "\"king\""),
                (crate::diagnostic::codes::json::SQUARE, "\"5j\""),
                (crate::diagnostic::codes::json::PIECE, "\"K\""),
                (crate::diagnostic::codes::json::UNPROMOTABLE, "\"+bG\""),
            ]
        );
        assert!(checked.position.is_none());
    }

    #[test]
    fn rule_findings_point_at_the_pieces() {
        let text = r#"{"sideOnMove":"black","blackHand":[0,0,0,0,0,0,0],"whiteHand":[0,0,0,0,0,0,0],"pieces":{"5a":"wK","5c":"bP","5g":"bP","5i":"bK"}}"#;
        let checked = read_text(text);
        let nifu = checked.diagnostics.iter().find(|d| d.code == crate::diagnostic::codes::sfen::NIFU).expect("nifu");
        let spans: Vec<&str> = nifu.labels.iter().map(|l| l.span.slice(text)).collect();
        assert_eq!(spans, ["\"5g\":\"bP\"", "\"5c\":\"bP\""]);
    }
}
