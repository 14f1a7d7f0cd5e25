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
//! FEN and checks that with [`super::check`], its findings moved onto the JSON parts they came
//! from.

use std::fmt::Write as _;

use super::{Dialect, Kind, Position};
use crate::chess::{Board, Color, Piece, Role, Square};
use crate::diagnostic::Diagnostic;
use crate::json::{self, Mapped, Node, Value};
use crate::span::Span;

/// The keys of a chess position object, in the order written.
pub const KEYS: [&str; 6] = ["sideOnMove", "castling", "enPassant", "halfmoveClock", "fullmoveNumber", "pieces"];

/// The keys of an EPD record's object, in the order written: no counters, its operations.
pub const EPD_KEYS: [&str; 5] = ["sideOnMove", "castling", "enPassant", "operations", "pieces"];

/// A piece's code: `w` or `b`, then its letter (`"wK"`).
pub fn piece_code(piece: Piece) -> String {
    let color = match piece.color {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("{color}{}", piece.role.letter())
}

/// `"white"` or `"black"`.
pub const fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
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
            let _ = write!(s, ",\"operations\":{quoted},\"pieces\":{{");
        }
        None => {
            let _ = write!(
                s,
                ",\"halfmoveClock\":{},\"fullmoveNumber\":{},\"pieces\":{{",
                position.halfmove, position.fullmove
            );
        }
    }
    for (i, (square, piece)) in position.board.pieces().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(s, "{sep}\"{square}\":\"{}\"", piece_code(piece));
    }
    s.push_str("}}");
    s
}

/// A JSON object read and checked.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// The position, when the object is well formed (it may still break the rules).
    pub position: Option<Position>,
    /// The FEN record the object was written as, when it is well formed (an EPD record for an
    /// object with `operations`).
    pub fen: Option<String>,
    /// An EPD record's operations as written (`Some("")` for none); `None` for FEN.
    pub operations: Option<String>,
    /// Every finding, its spans in the JSON text.
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Reads "e3".
pub fn parse_square(s: &str) -> Option<Square> {
    Square::parse(s)
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

fn describe(node: &Node) -> String {
    match &node.value {
        Value::String(s) if s.chars().count() <= 20 => format!("\"{}\"", s.escape_debug()),
        Value::Number(n) if n.len() <= 20 => n.clone(),
        v => v.kind().to_owned(),
    }
}

/// Reads a chess position object and checks it.
pub fn read(object: &Node) -> Checked {
    let mut out = Vec::new();
    if !matches!(object.value, Value::Object(_)) {
        out.push(
            Diagnostic::error("json::not-object", object.span, format!("a position is a JSON object, not {}", object.value.kind()))
                .label("not an object")
                .help("write the position as {\"sideOnMove\":…,\"castling\":…,\"enPassant\":…,\"halfmoveClock\":…,\"fullmoveNumber\":…,\"pieces\":…}"),
        );
        return Checked { diagnostics: out, ..Checked::default() };
    }
    let epd = object.get("operations").is_some();
    if epd {
        json::check_keys(object, &EPD_KEYS, &EPD_KEYS, "chess EPD", &mut out);
    } else {
        json::check_keys(object, &KEYS, &KEYS, "chess", &mut out);
    }
    let mut m = Mapped::new(json::first_char(object.span));
    // Placement.
    let pieces = object.get("pieces").map(|member| &member.value);
    let mut board = Board::default();
    let mut spans: Vec<(Square, Span)> = Vec::new();
    match pieces.map(|p| (&p.value, p)) {
        Some((Value::Object(members), _)) => {
            for member in members {
                let square = parse_square(&member.key);
                if square.is_none() {
                    out.push(
                        Diagnostic::error("json::square", member.key_span, format!("\"{}\" is not a square of the chess board", member.key.escape_debug()))
                            .label("not a square")
                            .help("a square is a file a-h and a rank 1-8: \"a8\" is the top left corner, \"h1\" the bottom right"),
                    );
                }
                let piece = match &member.value.value {
                    Value::String(code) => parse_piece_code(code),
                    _ => None,
                };
                if piece.is_none() {
                    out.push(
                        Diagnostic::error(
                            "json::piece",
                            member.value.span,
                            format!("{} is not a piece code", describe(&member.value)),
                        )
                        .label("not a piece")
                        .help("a piece is `w` or `b`, then K Q R B N P: \"wK\", \"bQ\""),
                    );
                }
                let (Some(square), Some(piece)) = (square, piece) else { continue };
                if let Some((_, first)) = spans.iter().find(|(s, _)| *s == square) {
                    out.push(
                        Diagnostic::error(
                            "json::duplicate-square",
                            member.key_span,
                            format!("{square} is given twice"),
                        )
                        .label("given again")
                        .with(*first, "first given here")
                        .help("a square holds one piece: keep one of the two"),
                    );
                    continue;
                }
                board.0[square.index()] = Some(piece);
                spans.push((square, member.key_span.to(member.value.span)));
            }
        }
        Some((v, node)) => out.push(
            Diagnostic::error(
                "json::pieces",
                node.span,
                format!("the pieces are an object from square to piece, not {}", v.kind()),
            )
            .label("not an object")
            .help("write the pieces as {\"e1\":\"wK\",\"e8\":\"bK\",…}"),
        ),
        None => {}
    }
    for rank in (1..=8u8).rev() {
        if rank < 8 {
            m.push("/", None);
        }
        let mut blank = 0;
        for file in 0..8u8 {
            let Some(square) = Square::new(file, rank) else { continue };
            match board.0[square.index()] {
                Some(piece) => {
                    if blank > 0 {
                        m.push(&blank.to_string(), None);
                        blank = 0;
                    }
                    let from = spans.iter().find(|(s, _)| *s == square).map(|(_, j)| *j);
                    m.push(&piece.letter().to_string(), from);
                }
                None => blank += 1,
            }
        }
        if blank > 0 {
            m.push(&blank.to_string(), None);
        }
    }
    if let Some(p) = pieces {
        m.region(0, p.span);
    }
    // Side.
    m.push(" ", None);
    if let Some(side) = object.get("sideOnMove").map(|member| &member.value) {
        match &side.value {
            Value::String(s) if s == "white" => m.push("w", Some(side.span)),
            Value::String(s) if s == "black" => m.push("b", Some(side.span)),
            _ => out.push(
                Diagnostic::error(
                    "json::side",
                    side.span,
                    format!("the side to move is \"white\" or \"black\", not {}", describe(side)),
                )
                .label("not a side")
                .help("write \"white\" or \"black\", in lowercase, in full"),
            ),
        }
    }
    // Castling.
    m.push(" ", None);
    let mut chess960 = false;
    let castling_start = m.text.len();
    if let Some(c) = object.get("castling").map(|member| &member.value) {
        let letters: Vec<(String, Span)> = match &c.value {
            Value::Array(items) => items
                .iter()
                .filter_map(|item| match &item.value {
                    Value::String(s) if s.chars().count() == 1 => Some((s.clone(), item.span)),
                    _ => {
                        out.push(
                            Diagnostic::error("json::castling", item.span, format!("a castling right is one letter, not {}", describe(item)))
                                .label("not a castling letter")
                                .help("write each right as a one-letter string: \"K\", \"Q\", \"k\", \"q\" (or a rook's file in Chess960)"),
                        );
                        None
                    }
                })
                .collect(),
            // A FEN field in one string: each letter's span is its character in the string.
            Value::String(s) if s == "-" || s.is_empty() => Vec::new(),
            Value::String(s) if c.span.len() == s.len() + 2 => {
                s.char_indices().map(|(i, ch)| (ch.to_string(), Span::new(c.span.start + 1 + i, c.span.start + 1 + i + ch.len_utf8()))).collect()
            }
            v => {
                out.push(
                    Diagnostic::error("json::castling", c.span, format!("the castling rights are an array of letters, not {}", v.kind()))
                        .label("not castling rights")
                        .help("write the rights as [\"K\",\"Q\",\"k\",\"q\"], or [] for none"),
                );
                Vec::new()
            }
        };
        for (letter, span) in &letters {
            let ch = letter.chars().next().unwrap_or('-');
            if !matches!(ch, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h') {
                out.push(
                    Diagnostic::error(
                        "json::castling",
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
        m.region(castling_start, c.span);
    }
    // En passant.
    m.push(" ", None);
    if let Some(e) = object.get("enPassant").map(|member| &member.value) {
        match &e.value {
            Value::Null => m.push("-", Some(e.span)),
            Value::String(s) if parse_square(s).is_some() => m.push(s, Some(e.span)),
            _ => out.push(
                Diagnostic::error(
                    "json::en-passant",
                    e.span,
                    format!("the en passant square is a square or null, not {}", describe(e)),
                )
                .label("not a square")
                .help("write the square a pawn skipped, such as \"e3\", or null"),
            ),
        }
    }
    // EPD operations, in place of the counters.
    let mut operations = None;
    if let Some(o) = object.get("operations").map(|member| &member.value) {
        match &o.value {
            Value::String(ops) => {
                let ops = ops.trim();
                if !ops.is_empty() {
                    m.push(" ", None);
                    let start = m.text.len();
                    m.push(ops, None);
                    m.region(start, o.span);
                }
                operations = Some(ops.to_owned());
            }
            _ => out.push(
                Diagnostic::error(
                    "json::operations",
                    o.span,
                    format!("the EPD operations are a string, not {}", describe(o)),
                )
                .label("not a string")
                .help("write the operations as EPD writes them, in one string: \"bm e4; id \\\"a\\\";\", or \"\" for none"),
            ),
        }
    }
    // Counters.
    let counters: &[(&str, u64)] = if epd { &[] } else { &[("halfmoveClock", 0), ("fullmoveNumber", 1)] };
    for &(key, min) in counters {
        m.push(" ", None);
        if let Some(n) = object.get(key).map(|member| &member.value) {
            match n.as_u64().filter(|v| *v >= min) {
                Some(v) => m.push(&v.to_string(), Some(n.span)),
                None => out.push(
                    Diagnostic::error(
                        "json::counter",
                        n.span,
                        format!("`{key}` is a whole number from {min}, not {}", describe(n)),
                    )
                    .label("not a count")
                    .help(if min == 0 {
                        "write the half-moves since the last capture or pawn move, such as 0"
                    } else {
                        "write the move number, 1 for the first move"
                    }),
                ),
            }
        }
    }
    // The JSON's findings in the order of the text.
    out.sort_by_key(|d| d.span().start);
    if out.iter().any(Diagnostic::is_error) {
        return Checked { diagnostics: out, ..Checked::default() };
    }
    let dialect = if chess960 { Dialect::Chess960 } else { Dialect::Standard };
    let kind = if epd { Kind::Epd } else { Kind::Fen };
    let checked = super::check(&m.text, kind, dialect);
    out.extend(checked.diagnostics.into_iter().map(|d| m.map_diagnostic(d)));
    Checked { position: checked.position, fen: Some(m.text), operations, diagnostics: out }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    /// Writes the object [`write`] writes.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        struct Pieces<'a>(&'a Board);
        impl serde::Serialize for Pieces<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_map(self.0.pieces().map(|(sq, p)| (sq.to_string(), piece_code(p))))
            }
        }
        let castling: Vec<String> = self.castling.iter().map(|r| r.letter().to_string()).collect();
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("sideOnMove", side_name(self.side))?;
        out.serialize_entry("castling", &castling)?;
        out.serialize_entry("enPassant", &self.en_passant.map(|s| s.to_string()))?;
        out.serialize_entry("halfmoveClock", &self.halfmove)?;
        out.serialize_entry("fullmoveNumber", &self.fullmove)?;
        out.serialize_entry("pieces", &Pieces(&self.board))?;
        out.end()
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Position {
    /// Reads the object [`write`] writes; a position that breaks the rules of chess is read (as
    /// [`Position`] always is), a malformed one is an error.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        let text = value.to_string();
        let (nodes, diagnostics) = crate::json::read_stream(&text);
        let checked = nodes.first().map(read).unwrap_or_default();
        let error = diagnostics
            .into_iter()
            .next()
            .or_else(|| checked.diagnostics.iter().find(|d| d.code.starts_with("json::")).cloned());
        match (error, checked.position) {
            (None, Some(position)) => Ok(position),
            (Some(d), _) => Err(serde::de::Error::custom(d.message)),
            (None, None) => Err(serde::de::Error::custom("not a chess position")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Checked {
        let (nodes, diagnostics) = json::read_stream(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        read(&nodes[0])
    }

    #[test]
    fn epd_keeps_its_operations_and_has_no_counters() {
        let epd = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"a b\";";
        let checked = super::super::check(epd, Kind::Epd, Dialect::Standard);
        let p = checked.position.expect("a position");
        let ops = checked.record.operations.map(|s| s.slice(epd).trim().to_owned()).expect("operations");
        let json = write_epd(&p, &ops);
        assert!(!json.contains("halfmoveClock") && !json.contains("fullmoveNumber"), "{json}");
        let back = read_text(&json);
        assert!(back.is_valid(), "{:?}", back.diagnostics);
        assert_eq!(back.fen.as_deref(), Some(epd));
        assert_eq!(back.operations.as_deref(), Some(ops.as_str()));
        assert_eq!(write_epd(&back.position.expect("position"), &ops), json);
        // No operations: an empty string, and the four fields alone.
        let back = read_text(&write_epd(&p, ""));
        assert_eq!(back.fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K3 w - -"));
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
            assert_eq!(back.fen.as_deref(), Some(fen));
        }
    }

    #[test]
    fn faults_point_into_the_json() {
        let text = r#"{"sideOnMove":"w","castling":"KX","enPassant":"e9","halfmoveClock":-1,"fullmoveNumber":1,"pieces":{"i1":"wK","e8":"k"}}"#;
        let checked = read_text(text);
        let found: Vec<(&str, &str)> = checked.diagnostics.iter().map(|d| (d.code, d.span().slice(text))).collect();
        assert_eq!(
            found,
            [
                ("json::side", "\"w\""),
                ("json::castling", "X"),
                ("json::en-passant", "\"e9\""),
                ("json::counter", "-1"),
                ("json::square", "\"i1\""),
                ("json::piece", "\"k\""),
            ]
        );
    }

    #[test]
    fn rule_findings_point_at_the_pieces() {
        let text = r#"{"sideOnMove":"white","castling":[],"enPassant":null,"halfmoveClock":0,"fullmoveNumber":1,"pieces":{"e8":"bK","e1":"wK","e2":"wK"}}"#;
        let checked = read_text(text);
        let d = checked.diagnostics.iter().find(|d| d.code == "fen::too-many-kings").expect("two kings");
        assert!(d.labels.iter().all(|l| l.span.slice(text).contains("\"wK\"")), "{d:?}");
    }
}
