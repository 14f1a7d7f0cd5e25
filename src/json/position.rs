//! The one mechanism both games' JSON positions use: the object and its keys, the side to
//! move, the `pieces` object from square to piece (read through a [`Game`]'s hooks, written
//! back as a board placement), and the record text written from it with where each part came
//! from ([`Mapped`]), so that the record checker's findings point into the JSON.

use crate::diagnostic::codes;
use std::fmt::{self, Write as _};

use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::span::Span;

use super::reader::{Hints, Member, Node, Value};

/// What a syntax error in a JSON position says to do.
pub const HINTS: Hints = Hints {
    syntax: "write the position as JSON: an object such as {\"sideOnMove\":\"black\",…}, one per line",
    too_deep: "a position object nests three deep at most: remove the extra brackets",
};

/// What a game's JSON model reads its own way: squares, pieces, and the board's shape.
pub trait Game {
    /// A square of the board.
    type Square: Copy + Eq + fmt::Display;
    /// A piece; its `Display` is its letter in the record (SFEN or FEN).
    type Piece: Copy + fmt::Display;
    /// The game's name, as findings say it: "shogi", "chess".
    const NAME: &'static str;
    /// The board's rows and columns, in the order its record writes them.
    const SIZE: (u8, u8);
    /// An example of the `pieces` object, for help: `{"5i":"bK",…}`.
    const PIECES_EXAMPLE: &'static str;

    /// The square at `row` and `col` of the record's order (row 0 first written).
    fn square_at(row: u8, col: u8) -> Option<Self::Square>;
    /// The square's index on its board, below [`MAX_SQUARES`].
    fn index(square: Self::Square) -> usize;
    /// Reads a square's name (`"7f"`, `"e3"`): the one way the model reads a square.
    fn parse_square(name: &str) -> Option<Self::Square>;
    /// Help for a key of `pieces` that is not a square.
    fn square_help(key: &str) -> String;
    /// The square a key of `pieces` that is not one evidently means (`"a5"` → `"5a"`), if any.
    fn meant_square(key: &str) -> Option<Self::Square>;
    /// Reads the value of a `pieces` entry as a piece, or says why it is not one.
    fn piece(node: &Node) -> Result<Self::Piece, Diagnostic>;
    /// A piece's code in the model (`"bP"`, `"wK"`).
    fn code(piece: Self::Piece) -> String;
}

/// The entries of a `pieces` object read: each square, its piece, and the entry's JSON span.
#[derive(Clone, Debug)]
pub struct Placed<G: Game> {
    /// The squares given, each once, in the order written.
    pub entries: Vec<(G::Square, G::Piece, Span)>,
    /// The whole `pieces` value.
    pub whole: Span,
}

impl<G: Game> Placed<G> {
    /// The piece on `square` and the JSON span it came from.
    pub fn at(&self, square: G::Square) -> Option<(G::Piece, Span)> {
        self.entries.iter().find(|(s, ..)| *s == square).map(|&(_, p, span)| (p, span))
    }
}

/// What a JSON value is, with its text when short: "\"B\"", "12", "an array".
pub fn describe(node: &Node) -> String {
    match &node.value {
        Value::String(s) if s.chars().count() <= 20 => format!("\"{}\"", s.escape_debug()),
        Value::Number(n) if n.len() <= 20 => n.clone(),
        v => v.kind().to_owned(),
    }
}

/// True when `object` is an object; else a finding that shows the `required` keys.
pub fn expect_object(object: &Node, required: &[&str], out: &mut Vec<Diagnostic>) -> bool {
    if matches!(object.value, Value::Object(_)) {
        return true;
    }
    let keys: Vec<String> = required.iter().map(|k| format!("\"{k}\":…")).collect();
    out.push(
        Diagnostic::error(
            codes::json::NOT_OBJECT,
            object.span,
            format!("a position is a JSON object, not {}", object.value.kind()),
        )
        .label("not an object")
        .help(format!("write the position as {{{}}}", keys.join(","))),
    );
    false
}

/// The member `m` given again after `first`.
pub fn duplicate_key(m: &Member, first: &Member, help: &str) -> Diagnostic {
    Diagnostic::error(codes::json::DUPLICATE_KEY, m.key_span, format!("`{}` is given twice", m.key))
        .label("given again")
        .with(first.key_span, "first given here")
        .help(help)
}

/// Reads the side to move, one of the two `sides` by name: its index in `sides`. `meant` gives
/// the side a string evidently means (its index), and `help` what to write instead, from that
/// side; the side meant is the finding's safe fix.
pub fn side(
    node: &Node,
    sides: [&str; 2],
    meant: impl FnOnce(&str) -> Option<usize>,
    help: impl FnOnce(Option<&str>) -> String,
    out: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let guess = match &node.value {
        Value::String(s) => match sides.iter().position(|name| name == s) {
            Some(i) => return Some(i),
            None => meant(s).and_then(|i| sides.get(i).copied()),
        },
        _ => None,
    };
    let message = format!("the side to move is \"{}\" or \"{}\", not {}", sides[0], sides[1], describe(node));
    let diag = Diagnostic::error(codes::json::SIDE, node.span, message).label("not a side").help(help(guess));
    out.push(match guess {
        Some(g) => diag.fix(Fix::replace(node.span, format!("\"{g}\""), Applicability::Safe)),
        None => diag,
    });
    None
}

/// A whole number from `min`, if `node` is one.
pub fn number_from(node: &Node, min: u64) -> Option<u64> {
    node.as_u64().filter(|n| *n >= min)
}

/// The safe fix of a number written as a string (`"2"`): the number, when it is a whole number
/// from `min` to `max` written in plain digits.
pub fn quoted_number(node: &Node, min: u64, max: u64) -> Option<Fix> {
    let Value::String(s) = &node.value else { return None };
    let plain = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    let n: u64 = s.parse().ok().filter(|n| plain && (min..=max).contains(n))?;
    Some(Fix::replace(node.span, n.to_string(), Applicability::Safe))
}

/// Reads the `pieces` object: each key a square, each value a piece, each square once.
/// `None` when it is not an object.
pub fn read_pieces<G: Game>(node: &Node, out: &mut Vec<Diagnostic>) -> Option<Placed<G>> {
    let Value::Object(members) = &node.value else {
        out.push(
            Diagnostic::error(
                codes::json::PIECES,
                node.span,
                format!("the pieces are an object from square to piece, not {}", node.value.kind()),
            )
            .label("not an object")
            .help(format!("write the pieces as {}", G::PIECES_EXAMPLE)),
        );
        return None;
    };
    let mut placed = Placed { entries: Vec::with_capacity(members.len()), whole: node.span };
    for m in members {
        let square = G::parse_square(&m.key);
        if square.is_none() {
            let message = format!("\"{}\" is not a square of the {} board", m.key.escape_debug(), G::NAME);
            let diag = Diagnostic::error(codes::json::SQUARE, m.key_span, message)
                .label("not a square")
                .help(G::square_help(&m.key));
            // The square meant, unless another entry gives it.
            let meant = G::meant_square(&m.key)
                .filter(|sq| !members.iter().any(|o| G::parse_square(&o.key) == Some(*sq)))
                .map(|sq| Fix::replace(m.key_span, format!("\"{sq}\""), Applicability::Safe));
            out.push(match meant {
                Some(fix) => diag.fix(fix),
                None => diag,
            });
        }
        let piece = G::piece(&m.value).map_err(|d| out.push(d)).ok();
        let (Some(square), Some(piece)) = (square, piece) else { continue };
        if let Some((_, first)) = placed.at(square) {
            out.push(
                Diagnostic::error(codes::json::DUPLICATE_SQUARE, m.key_span, format!("{square} is given twice"))
                    .label("given again")
                    .with(first, "first given here")
                    .help("a square holds one piece: keep one of the two"),
            );
            continue;
        }
        placed.entries.push((square, piece, m.key_span.to(m.value.span)));
    }
    Some(placed)
}

/// The most squares a board has (shogi's 81).
pub const MAX_SQUARES: usize = 81;

/// Writes the board placement of `placed` (rows joined by `/`, empty squares counted), each
/// piece's letter mapped to its entry, the whole mapped to the `pieces` value.
pub fn write_placement<G: Game>(m: &mut Mapped, placed: &Placed<G>) {
    let start = m.text.len();
    let mut board: [Option<(G::Piece, Span)>; MAX_SQUARES] = [None; MAX_SQUARES];
    for &(square, piece, from) in &placed.entries {
        if let Some(at) = board.get_mut(G::index(square)) {
            *at = Some((piece, from));
        }
    }
    let (rows, cols) = G::SIZE;
    for row in 0..rows {
        if row > 0 {
            m.push("/", None);
        }
        let mut empty = 0;
        for col in 0..cols {
            let Some(square) = G::square_at(row, col) else { continue };
            match board.get(G::index(square)).copied().flatten() {
                Some((piece, from)) => {
                    if empty > 0 {
                        m.push(&empty.to_string(), None);
                        empty = 0;
                    }
                    m.push(&piece.to_string(), Some(from));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            m.push(&empty.to_string(), None);
        }
    }
    m.region(start, placed.whole);
}

/// Appends `"pieces":{"<square>":"<code>",…}` to `s`.
pub fn write_pieces<G: Game>(s: &mut String, pieces: impl Iterator<Item = (G::Square, G::Piece)>) {
    s.push_str("\"pieces\":{");
    for (i, (square, piece)) in pieces.enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(s, "{sep}\"{square}\":\"{}\"", G::code(piece));
    }
    s.push('}');
}

/// Sorts the JSON's findings in the order of the text; true when none is an error.
pub fn sorted_and_clean(out: &mut [Diagnostic]) -> bool {
    out.sort_by_key(|d| d.span().start);
    !out.iter().any(Diagnostic::is_error)
}

/// The `pieces` of a board as a serde map from square to code (the `serde` feature): `F`
/// gives the board's pieces, in the record's order.
#[cfg(feature = "serde")]
pub struct PieceMap<G, F>(F, std::marker::PhantomData<G>);

#[cfg(feature = "serde")]
impl<G: Game, F: Fn() -> I, I: Iterator<Item = (G::Square, G::Piece)>> PieceMap<G, F> {
    /// The map of the pieces `pieces` gives.
    pub const fn new(pieces: F) -> Self {
        Self(pieces, std::marker::PhantomData)
    }
}

#[cfg(feature = "serde")]
impl<G: Game, F: Fn() -> I, I: Iterator<Item = (G::Square, G::Piece)>> serde::Serialize for PieceMap<G, F> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map((self.0)().map(|(square, piece)| (square.to_string(), G::code(piece))))
    }
}

/// What a game's reader (`read`) makes of the JSON value `deserializer` holds, for serde's
/// `Deserialize` (the `serde` feature): the first fault of the JSON or of the model (a `json::`
/// finding) is the error; a position that breaks the game's rules is still read.
#[cfg(feature = "serde")]
pub fn deserialize<'de, D, C>(
    deserializer: D,
    read: fn(&Node) -> C,
    findings: fn(&C) -> &[Diagnostic],
) -> Result<C, D::Error>
where
    D: serde::Deserializer<'de>,
    C: Default,
{
    use serde::Deserialize as _;
    let text = serde_json::Value::deserialize(deserializer)?.to_string();
    let (nodes, syntax) = super::read_stream(&text);
    let checked = nodes.first().map(read).unwrap_or_default();
    let fault = syntax
        .into_iter()
        .next()
        .or_else(|| findings(&checked).iter().find(|d| codes::json::contains(d.code)).cloned());
    match fault {
        Some(d) => Err(serde::de::Error::custom(d.message)),
        None => Ok(checked),
    }
}

/// A record's text written from a JSON object, with where each part came from, so that the
/// findings of the record's checker can point into the JSON text instead.
#[derive(Clone, Debug, Default)]
pub struct Mapped {
    /// The text written (an SFEN or FEN record).
    pub text: String,
    /// Spans of `text` and the JSON spans they were written from.
    map: Vec<(Span, Span)>,
    /// Spans of `text` (a field) and the JSON span that stands for anything in them.
    regions: Vec<(Span, Span)>,
    /// Where a finding that matches nothing points: the object.
    fallback: Span,
}

impl Mapped {
    /// An empty text whose unmatched findings point at `fallback`.
    pub fn new(fallback: Span) -> Self {
        Self { fallback, ..Self::default() }
    }

    /// Appends `s`, written from the JSON at `from` (if any).
    pub fn push(&mut self, s: &str, from: Option<Span>) {
        let start = self.text.len();
        self.text.push_str(s);
        if let Some(from) = from {
            self.map.push((Span::new(start, self.text.len()), from));
        }
    }

    /// Marks the text from `start` to here as a region written from the JSON at `from`.
    pub fn region(&mut self, start: usize, from: Span) {
        self.regions.push((Span::new(start, self.text.len()), from));
    }

    /// The JSON span for a span of the text.
    pub fn json_span(&self, span: Span) -> Span {
        let touches = |s: Span| {
            if span.is_empty() {
                s.start <= span.start && span.start < s.end
            } else {
                s.start < span.end && span.start < s.end
            }
        };
        let found = self.map.iter().filter(|(s, _)| touches(*s)).map(|(_, j)| *j).reduce(Span::to);
        found
            .or_else(|| self.regions.iter().find(|(s, _)| touches(*s) || s.end == span.start).map(|(_, j)| *j))
            .unwrap_or(self.fallback)
    }

    /// `d` (a finding about the text) pointing into the JSON.
    /// Its fixes are edits of the record, not of the JSON: they are dropped.
    pub fn map_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        for label in &mut d.labels {
            label.span = self.json_span(label.span);
        }
        d.fixes.clear();
        d
    }
}

/// The first character of `span` (an object's `{`), as a span.
pub fn first_char(span: Span) -> Span {
    Span::new(span.start, (span.start + 1).min(span.end.max(span.start)))
}

/// A key near `key` among `known` (the same but for case, `_` or `-`), for "did you mean".
pub fn near_key<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
    let k = fold(key);
    known.iter().copied().find(|n| fold(n) == k)
}

/// Checks that `object` has only `known` keys, each once, and the `required` ones. A key that
/// is a required one misspelt is one fault, reported once at the key, with its repair: safe
/// when it differs from the known key only in case, `_` or `-`; unsafe when it is the only
/// unknown key and the only missing one is the key it may stand for. Required keys missing
/// that have a value in `defaults` (a position's counters) are one finding, whose safe fix adds
/// them with that value.
pub fn check_keys(
    object: &Node,
    known: &[&str],
    required: &[&str],
    defaults: &[(&str, &str)],
    format: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Value::Object(members) = &object.value else { return };
    // The first member of each key, found in one pass: an object may hold tens of thousands.
    let mut first_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::with_capacity(members.len());
    for (i, m) in members.iter().enumerate() {
        first_of.entry(m.key.as_str()).or_insert(i);
    }
    let repeated = |i: usize, m: &Member| first_of.get(m.key.as_str()).is_some_and(|&first| first < i);
    let is_unknown = |i: usize, m: &Member| !known.contains(&m.key.as_str()) && !repeated(i, m);
    let unknown = members.iter().enumerate().filter(|(i, m)| is_unknown(*i, m)).count();
    let missing: Vec<&str> = required.iter().copied().filter(|k| object.get(k).is_none()).collect();
    let sole = (unknown == 1 && missing.len() == 1).then(|| missing[0]);
    let mut meant_keys: Vec<&str> = Vec::new();
    for (i, m) in members.iter().enumerate() {
        if repeated(i, m) {
            out.push(duplicate_key(m, &members[first_of[m.key.as_str()]], "keep one of the two"));
            continue;
        }
        if !is_unknown(i, m) {
            continue;
        }
        let near = near_key(&m.key, known).filter(|k| object.get(k).is_none() && !meant_keys.contains(k));
        let meant = near.map(|k| (k, Applicability::Safe)).or(sole.map(|k| (k, Applicability::Unsafe)));
        let help = match meant {
            Some((k, _)) if near.is_some() => format!("did you mean `{k}`? Keys are case-sensitive"),
            Some((k, _)) => {
                format!("did you mean `{k}`, which is missing? A {format} position has the keys {}", quoted(known))
            }
            None => format!("a {format} position has the keys {}", quoted(known)),
        };
        let mut diag = Diagnostic::error(
            codes::json::UNKNOWN_KEY,
            m.key_span,
            format!("`{}` is not a key of a {format} position", m.key.escape_debug()),
        )
        .label("unknown key")
        .help(help);
        if let Some((k, applicability)) = meant {
            meant_keys.push(k);
            diag = diag.fix(Fix::replace(m.key_span, format!("\"{k}\""), applicability));
        }
        out.push(diag);
    }
    // A missing key that an unknown one stands for is that key's fault, reported there.
    let missing: Vec<&str> = missing.into_iter().filter(|k| !meant_keys.contains(k)).collect();
    let value = |key: &str| defaults.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    for key in missing.iter().filter(|k| value(k).is_none()) {
        out.push(
            Diagnostic::error(
                codes::json::MISSING_KEY,
                first_char(object.span),
                format!("the position has no `{key}`"),
            )
            .label(format!("this object needs `{key}`"))
            .help(format!("add `\"{key}\": …`; a {format} position has the keys {}", quoted(known))),
        );
    }
    let defaulted: Vec<(&str, &str)> = missing.iter().filter_map(|k| Some((*k, value(k)?))).collect();
    if !defaulted.is_empty() {
        out.push(missing_defaults(object, &defaulted, members.is_empty()));
    }
}

/// The one finding for the keys of `object` that are missing and have a default value: a
/// position without its history. Its safe fix adds them before the object's `}` (unless the
/// object is `empty`, which needs its other keys first).
fn missing_defaults(object: &Node, defaulted: &[(&str, &str)], empty: bool) -> Diagnostic {
    let names: Vec<String> = defaulted.iter().map(|(k, _)| format!("`{k}`")).collect();
    let names = names.join(" and ");
    let added: String = defaulted.iter().map(|(k, v)| format!(",\"{k}\":{v}")).collect();
    let diag =
        Diagnostic::error(codes::json::MISSING_KEY, first_char(object.span), format!("the position has no {names}"))
            .label(format!("this object needs {names}"))
            .help(format!("add `{}` for a position with no known history", added.get(1..).unwrap_or_default()));
    let end = Span::point(object.span.end.saturating_sub(1));
    if empty {
        diag
    } else {
        diag.fix(Fix::replace(end, added, Applicability::Safe))
    }
}

fn quoted(keys: &[&str]) -> String {
    keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

/// Helpers for the tests of the two models.
#[cfg(test)]
pub(crate) mod tests {
    use super::{Diagnostic, Node};

    /// The one value of `text`, which must be JSON.
    pub fn one_value(text: &str) -> Node {
        let (mut nodes, diagnostics) = super::super::read_stream(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        nodes.remove(0)
    }

    /// Each finding's code and the text it points at.
    pub fn found<'a>(diagnostics: &'a [Diagnostic], text: &'a str) -> Vec<(crate::diagnostic::Code, &'a str)> {
        diagnostics.iter().map(|d| (d.code, d.span().slice(text))).collect()
    }
}
