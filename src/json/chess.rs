//! The chess analogue of the board viewer's JSON model, written and read back with pointed findings.
//!
//! ```text
//! {"sideOnMove":"white","castling":["K","Q","k","q"],"enPassant":null,"halfmoveClock":0,
//!  "fullmoveNumber":1,"pieces":{"a8":"bR","b8":"bN",…,"h1":"wR"}}
//! ```
//!
//! - `sideOnMove`: `"white"` or `"black"`.
//! - `castling`: the FEN castling letters, one string each, in canonical order (`K Q k q`, or
//!   rook files for Chess960); `[]` for none. A FEN castling field as one string (`"KQkq"`,
//!   `"-"`) is read too.
//! - `enPassant`: the target square (`"e3"`) or `null`.
//! - `halfmoveClock`, `fullmoveNumber`: FEN's two counters.
//! - `pieces`: an object from square to piece, in FEN order (a8, b8, … h1), blank squares left
//!   out; a piece is `w` or `b` and its letter: `"wK"`, `"bQ"`.
//!
//! An EPD record has no counters: its object has `operations` in their place, the record's
//! operations as written (`"bm e4; id \"a\";"`, or `""` for none), and no `halfmoveClock` or
//! `fullmoveNumber` ([`write_epd`]). An object with `operations` is read back as EPD.
//!
//! [`read`] checks the object's shape (findings `json::…` in the JSON text), then writes it as
//! FEN and checks that with [`crate::fen::check`], its findings moved onto the JSON parts they came
//! from.

use crate::diagnostic::codes;
use std::fmt::Write as _;

use super::position::{self, describe, Game, Mapped};
use super::reader::{Node, Value};
use crate::chess::{Color, Piece, Role, Square};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::fen::{Dialect, Kind, Position};
use crate::span::Span;

/// The keys of a chess position object, in the order written.
pub const KEYS: [&str; 6] = ["sideOnMove", "castling", "enPassant", "halfmoveClock", "fullmoveNumber", "pieces"];

/// The keys of an EPD record's object, in the order written: no counters, its operations.
pub const EPD_KEYS: [&str; 5] = ["sideOnMove", "castling", "enPassant", "operations", "pieces"];

/// A piece's code: `w` or `b`, then its letter (`"wK"`).
pub fn piece_code(piece: Piece) -> String {
    format!("{}{}", &side_name(piece.color)[..1], piece.role.letter())
}

/// The sides' names, white first (as [`Color::index`]).
const SIDES: [&str; 2] = ["white", "black"];

/// `"white"` or `"black"`.
pub const fn side_name(color: Color) -> &'static str {
    SIDES[color.index()]
}

/// `position` as one line of JSON.
pub fn write(position: &Position) -> String {
    write_with(position, None)
}

/// An EPD record's position as one line of JSON: its `operations` as written, and no
/// counters (EPD has none; [`Position`] holds 0 and 1 in their place).
pub fn write_epd(position: &Position, operations: &str) -> String {
    write_with(position, Some(operations))
}

fn write_with(position: &Position, operations: Option<&str>) -> String {
    let mut s = String::with_capacity(512);
    let _ = write!(s, "{{\"sideOnMove\":\"{}\",\"castling\":[", side_name(position.side));
    for (i, right) in position.castling.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(s, "{sep}\"{}\"", right.letter());
    }
    s.push_str("],\"enPassant\":");
    match position.en_passant {
        Some(sq) => {
            let _ = write!(s, "\"{sq}\"");
        }
        None => s.push_str("null"),
    }
    match operations {
        Some(ops) => {
            let quoted = serde_json::to_string(ops).unwrap_or_else(|_| "\"\"".to_owned());
            let _ = write!(s, ",\"operations\":{quoted},");
        }
        None => {
            let _ = write!(s, ",\"halfmoveClock\":{},\"fullmoveNumber\":{},", position.halfmove, position.fullmove);
        }
    }
    position::write_pieces::<Chess>(&mut s, position.board.pieces());
    s.push('}');
    s
}

/// The record a well-formed chess object writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The FEN record (an EPD record for an object with `operations`).
    pub fen: String,
    /// An EPD record's operations as written (`Some("")` for none); `None` for FEN.
    pub operations: Option<String>,
}

/// A JSON object read and checked: its record is what the object writes (`None` when the
/// object is malformed), its findings point into the JSON text.
pub type Checked = crate::checked::Checked<Option<Written>, Position>;

/// Reads "e3".
pub fn parse_square(s: &str) -> Option<Square> {
    Square::parse(s)
}

/// The square a key evidently means: the file letter in uppercase (`"E2"`), or rank and file
/// swapped (`"2e"`).
fn meant_square(key: &str) -> Option<Square> {
    match key.as_bytes() {
        [f @ b'A'..=b'H', r @ b'1'..=b'8'] => {
            parse_square(&format!("{}{}", f.to_ascii_lowercase() as char, *r as char))
        }
        [r @ b'1'..=b'8', f @ (b'a'..=b'h' | b'A'..=b'H')] => {
            parse_square(&format!("{}{}", f.to_ascii_lowercase() as char, *r as char))
        }
        _ => None,
    }
}

/// The piece code a string evidently means: a FEN letter alone (`"P"` is White's pawn), or the
/// side or the letter in the wrong case (`"wp"`, `"Wk"`).
fn meant_piece(code: &str) -> Option<String> {
    let meant = match code.as_bytes() {
        [l] => format!("{}{}", if l.is_ascii_uppercase() { 'w' } else { 'b' }, l.to_ascii_uppercase() as char),
        [c @ (b'w' | b'b' | b'W' | b'B'), l] => {
            format!("{}{}", c.to_ascii_lowercase() as char, l.to_ascii_uppercase() as char)
        }
        _ => return None,
    };
    parse_piece_code(&meant).map(|_| meant)
}

/// Reads "wK".
pub fn parse_piece_code(s: &str) -> Option<Piece> {
    let (color, letter) = match s.as_bytes() {
        [b'w', l] => (Color::White, *l),
        [b'b', l] => (Color::Black, *l),
        _ => return None,
    };
    let role = Role::from_letter(char::from(letter).to_ascii_uppercase()).filter(|_| letter.is_ascii_uppercase())?;
    Some(Piece { color, role })
}

/// The chess board for the shared mechanism of [`position`].
enum Chess {}

impl Game for Chess {
    type Square = Square;
    type Piece = Piece;
    const NAME: &'static str = "chess";
    const SIZE: (u8, u8) = (8, 8);
    const PIECES_EXAMPLE: &'static str = "{\"e1\":\"wK\",\"e8\":\"bK\",…}";

    /// FEN order: ranks 8 to 1, files a to h in each.
    fn square_at(row: u8, col: u8) -> Option<Square> {
        Square::new(col, 8 - row)
    }

    fn index(square: Square) -> usize {
        square.index()
    }

    fn parse_square(name: &str) -> Option<Square> {
        parse_square(name)
    }

    fn square_help(key: &str) -> String {
        match meant_square(key) {
            Some(sq) => {
                format!("did you mean \"{sq}\"? A square is its file letter, in lowercase, then its rank digit")
            }
            None => "a square is a file a-h and a rank 1-8: \"a8\" is the top left corner, \"h1\" the bottom right"
                .to_owned(),
        }
    }

    fn meant_square(key: &str) -> Option<Square> {
        meant_square(key)
    }

    fn piece(node: &Node) -> Result<Piece, Diagnostic> {
        let piece = match &node.value {
            Value::String(code) => parse_piece_code(code),
            _ => None,
        };
        piece.ok_or_else(|| {
            let meant = match &node.value {
                Value::String(code) => meant_piece(code),
                _ => None,
            };
            let diag =
                Diagnostic::error(codes::json::PIECE, node.span, format!("{} is not a piece code", describe(node)))
                    .label("not a piece");
            match meant {
                Some(m) => diag
                    .help(format!("did you mean \"{m}\"? A piece is `w` or `b`, then K Q R B N P in uppercase"))
                    .fix(Fix::replace(node.span, format!("\"{m}\""), Applicability::Safe)),
                None => diag.help("a piece is `w` or `b`, then K Q R B N P: \"wK\", \"bQ\""),
            }
        })
    }

    fn code(piece: Piece) -> String {
        piece_code(piece)
    }
}

/// Reads a chess position object and checks it.
pub fn read(object: &Node) -> Checked {
    let mut out = Vec::new();
    if !position::expect_object(object, &KEYS, &mut out) {
        return Checked::unread(out);
    }
    let epd = object.get("operations").is_some();
    let (keys, format): (&[&str], _) = if epd { (&EPD_KEYS, "chess EPD") } else { (&KEYS, "chess") };
    // A FEN without its counters is one with no known history (` 0 1`).
    let defaults: &[(&str, &str)] = if epd { &[] } else { &[("halfmoveClock", "0"), ("fullmoveNumber", "1")] };
    position::check_keys(object, keys, keys, defaults, format, &mut out);
    let field = |key: &str| object.get(key).map(|member| &member.value);
    let mut m = Mapped::new(position::first_char(object.span));
    if let Some(placed) = field("pieces").and_then(|p| position::read_pieces::<Chess>(p, &mut out)) {
        position::write_placement(&mut m, &placed);
    }
    m.push(" ", None);
    if let Some(side) = field("sideOnMove") {
        let meant = |s: &str| match s.to_lowercase().as_str() {
            "white" | "w" => Some(0),
            "black" | "b" => Some(1),
            _ => None,
        };
        let help = |guess: Option<&str>| match guess {
            Some(g) => format!("did you mean \"{g}\"? The side is written in lowercase, in full"),
            None => "write \"white\" or \"black\", in lowercase, in full".to_owned(),
        };
        if let Some(i) = position::side(side, SIDES, meant, help, &mut out) {
            m.push(&SIDES[i][..1], Some(side.span));
        }
    }
    m.push(" ", None);
    let chess960 = field("castling").is_some_and(|c| read_castling(c, &mut m, &mut out));
    m.push(" ", None);
    if let Some(e) = field("enPassant") {
        read_en_passant(e, &mut m, &mut out);
    }
    let operations = field("operations").and_then(|o| read_operations(o, &mut m, &mut out));
    if !epd {
        read_counters(object, &mut m, &mut out);
    }
    if !position::sorted_and_clean(&mut out) {
        return Checked::unread(out);
    }
    let dialect = if chess960 { Dialect::Chess960 } else { Dialect::Standard };
    let kind = if epd { Kind::Epd } else { Kind::Fen };
    let checked = crate::fen::check_without_repair(&m.text, kind, dialect);
    out.extend(checked.diagnostics.into_iter().map(|d| m.map_diagnostic(d)));
    let record = Some(Written { fen: m.text, operations });
    Checked { record, position: checked.position, syntax_ok: checked.syntax_ok, diagnostics: out }
}

/// Writes the castling rights; true when one is a rook's file (Chess960).
fn read_castling(c: &Node, m: &mut Mapped, out: &mut Vec<Diagnostic>) -> bool {
    let start = m.text.len();
    let letters = castling_letters(c, out);
    let mut chess960 = false;
    for (letter, span) in &letters {
        let ch = letter.chars().next().unwrap_or('-');
        if !matches!(ch, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h') {
            out.push(
                Diagnostic::error(
                    codes::json::CASTLING,
                    *span,
                    format!("`{}` is not a castling letter", letter.escape_debug()),
                )
                .label("not a castling letter")
                .help("castling letters are K Q k q, or a rook's file A-H / a-h in Chess960"),
            );
        }
        chess960 |= !matches!(ch, 'K' | 'Q' | 'k' | 'q');
        m.push(letter, Some(*span));
    }
    if letters.is_empty() {
        m.push("-", None);
    }
    m.region(start, c.span);
    chess960
}

/// The castling letters given and the span of each: an array of one-letter strings, or a FEN
/// field in one string (each letter's span its character in the string).
fn castling_letters(c: &Node, out: &mut Vec<Diagnostic>) -> Vec<(String, Span)> {
    match &c.value {
        Value::Array(items) => items
            .iter()
            .filter_map(|item| match &item.value {
                Value::String(s) if s.chars().count() == 1 => Some((s.clone(), item.span)),
                _ => {
                    out.push(
                        Diagnostic::error(codes::json::CASTLING, item.span, format!("a castling right is one letter, not {}", describe(item)))
                            .label("not a castling letter")
                            .help("write each right as a one-letter string: \"K\", \"Q\", \"k\", \"q\" (or a rook's file in Chess960)"),
                    );
                    None
                }
            })
            .collect(),
        Value::String(s) if s == "-" || s.is_empty() => Vec::new(),
        Value::String(s) if c.span.len() == s.len() + 2 => {
            let at = c.span.start + 1;
            s.char_indices().map(|(i, ch)| (ch.to_string(), Span::new(at + i, at + i + ch.len_utf8()))).collect()
        }
        v => {
            let diag = Diagnostic::error(codes::json::CASTLING, c.span, format!("the castling rights are an array of letters, not {}", v.kind()))
                .label("not castling rights")
                .help("write the rights as [\"K\",\"Q\",\"k\",\"q\"], or [] for none");
            // `null` says there are none.
            out.push(if *v == Value::Null { diag.fix(Fix::replace(c.span, "[]", Applicability::Safe)) } else { diag });
            Vec::new()
        }
    }
}

fn read_en_passant(e: &Node, m: &mut Mapped, out: &mut Vec<Diagnostic>) {
    let meant = match &e.value {
        Value::Null => return m.push("-", Some(e.span)),
        Value::String(s) if parse_square(s).is_some() => return m.push(s, Some(e.span)),
        // FEN's `-`, or a square written as another.
        Value::String(s) if s == "-" || s.is_empty() => Some("null".to_owned()),
        Value::String(s) => meant_square(s).map(|sq| format!("\"{sq}\"")),
        _ => None,
    };
    let diag = Diagnostic::error(
        codes::json::EN_PASSANT,
        e.span,
        format!("the en passant square is a square or null, not {}", describe(e)),
    )
    .label("not a square");
    out.push(match meant {
        Some(m) => diag
            .help(format!("write {m}: the square a pawn skipped, such as \"e3\", or null for none"))
            .fix(Fix::replace(e.span, m, Applicability::Safe)),
        None => diag.help("write the square a pawn skipped, such as \"e3\", or null"),
    });
}

/// An EPD record's operations, written in place of the counters.
fn read_operations(o: &Node, m: &mut Mapped, out: &mut Vec<Diagnostic>) -> Option<String> {
    let Value::String(ops) = &o.value else {
        out.push(
            Diagnostic::error(
                codes::json::OPERATIONS,
                o.span,
                format!("the EPD operations are a string, not {}", describe(o)),
            )
            .label("not a string")
            .help("write the operations as EPD writes them, in one string: \"bm e4; id \\\"a\\\";\", or \"\" for none"),
        );
        return None;
    };
    let ops = ops.trim();
    if !ops.is_empty() {
        m.push(" ", None);
        let start = m.text.len();
        m.push(ops, None);
        m.region(start, o.span);
    }
    Some(ops.to_owned())
}

/// FEN's two counters.
fn read_counters(object: &Node, m: &mut Mapped, out: &mut Vec<Diagnostic>) {
    for (key, min) in [("halfmoveClock", 0), ("fullmoveNumber", 1)] {
        m.push(" ", None);
        let Some(n) = object.get(key).map(|member| &member.value) else { continue };
        match position::number_from(n, min) {
            Some(v) => m.push(&v.to_string(), Some(n.span)),
            None => {
                let diag = Diagnostic::error(
                    codes::json::COUNTER,
                    n.span,
                    format!("`{key}` is a whole number from {min}, not {}", describe(n)),
                )
                .label("not a count");
                out.push(match position::quoted_number(n, min, u64::MAX) {
                    Some(fix) => diag.help("write the number without quotes").fix(fix),
                    None => diag.help(if min == 0 {
                        "write the half-moves since the last capture or pawn move, such as 0"
                    } else {
                        "write the move number, 1 for the first move"
                    }),
                });
            }
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    /// Writes the object [`write()`] writes.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let castling: Vec<String> = self.castling.iter().map(|r| r.letter().to_string()).collect();
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("sideOnMove", side_name(self.side))?;
        out.serialize_entry("castling", &castling)?;
        out.serialize_entry("enPassant", &self.en_passant.map(|s| s.to_string()))?;
        out.serialize_entry("halfmoveClock", &self.halfmove)?;
        out.serialize_entry("fullmoveNumber", &self.fullmove)?;
        out.serialize_entry("pieces", &position::PieceMap::<Chess, _>::new(|| self.board.pieces()))?;
        out.end()
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Position {
    /// Reads the object [`write()`] writes; a position that breaks the rules of chess is read (as
    /// [`Position`] always is), a malformed one is an error.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let checked = position::deserialize(deserializer, read, |c| &c.diagnostics)?;
        checked.position.ok_or_else(|| serde::de::Error::custom("not a chess position"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Checked {
        read(&position::tests::one_value(text))
    }

    #[test]
    fn epd_keeps_its_operations_and_has_no_counters() {
        let epd = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"a b\";";
        let checked = crate::fen::check(epd, Kind::Epd, Dialect::Standard);
        let p = checked.position.expect("a position");
        let ops = checked.record.operations.map(|s| s.slice(epd).trim().to_owned()).expect("operations");
        let json = write_epd(&p, &ops);
        assert!(!json.contains("halfmoveClock") && !json.contains("fullmoveNumber"), "{json}");
        let back = read_text(&json);
        assert!(back.is_valid(), "{:?}", back.diagnostics);
        assert_eq!(back.record.as_ref().map(|w| w.fen.as_str()), Some(epd));
        assert_eq!(back.record.as_ref().and_then(|w| w.operations.as_deref()), Some(ops.as_str()));
        assert_eq!(write_epd(&back.position.expect("position"), &ops), json);
        // No operations: an empty string, and the four fields alone.
        let back = read_text(&write_epd(&p, ""));
        assert_eq!(back.record.as_ref().map(|w| w.fen.as_str()), Some("4k3/8/8/8/8/8/8/4K3 w - -"));
    }

    #[test]
    fn fen_round_trips() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 12 40",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        ] {
            let p: Position = fen.parse().expect("fen");
            let back = read_text(&write(&p));
            assert!(back.is_valid(), "{:?}", back.diagnostics);
            assert_eq!(back.position.as_ref(), Some(&p));
            assert_eq!(back.record.as_ref().map(|w| w.fen.as_str()), Some(fen));
        }
    }

    #[test]
    fn faults_point_into_the_json() {
        let text = r#"{"sideOnMove":"w","castling":"KX","enPassant":"e9","halfmoveClock":-1,"fullmoveNumber":1,"pieces":{"i1":"wK","e8":"k"}}"#;
        let checked = read_text(text);
        assert_eq!(
            position::tests::found(&checked.diagnostics, text),
            [
                (crate::diagnostic::codes::json::SIDE, "\"w\""),
                (crate::diagnostic::codes::json::CASTLING, "X"),
                (crate::diagnostic::codes::json::EN_PASSANT, "\"e9\""),
                (crate::diagnostic::codes::json::COUNTER, "-1"),
                (crate::diagnostic::codes::json::SQUARE, "\"i1\""),
                (crate::diagnostic::codes::json::PIECE, "\"k\""),
            ]
        );
    }

    #[test]
    fn rule_findings_point_at_the_pieces() {
        let text = r#"{"sideOnMove":"white","castling":[],"enPassant":null,"halfmoveClock":0,"fullmoveNumber":1,"pieces":{"e8":"bK","e1":"wK","e2":"wK"}}"#;
        let checked = read_text(text);
        let d = checked
            .diagnostics
            .iter()
            .find(|d| d.code == crate::diagnostic::codes::fen::TOO_MANY_KINGS)
            .expect("two kings");
        assert!(d.labels.iter().all(|l| l.span.slice(text).contains("\"wK\"")), "{d:?}");
    }
}
