//! A CSA line read by the grammar (`grammar/csa.pest`) into its statements, each typed, with
//! its span in the line.

use pest::iterators::Pair;
use pest::Parser as _;

use super::parser::{CsaParser, Rule};
use crate::shogi::{Color, Piece, PieceKind, Square};
use crate::span::Span;

/// A piece as CSA names it (`FU` … `RY`), or `None` for a name that is none.
pub fn piece(name: &str) -> Option<(PieceKind, bool)> {
    PieceKind::from_csa(name)
}

/// The name CSA gives a piece (`FU` … `RY`).
pub fn piece_name(kind: PieceKind, promoted: bool) -> &'static str {
    kind.csa_name(promoted)
}

/// The sign CSA writes for a side: `+` for Black (sente), `-` for White (gote).
pub fn sign(color: Color) -> &'static str {
    match color {
        Color::Black => "+",
        Color::White => "-",
    }
}

/// The information keys (`$EVENT`) whose headers KIF also has, with KIF's key (`棋戦`).
pub const INFO_KEYS: &[(&str, &str)] = &[
    ("$EVENT", "棋戦"),
    ("$SITE", "場所"),
    ("$START_TIME", "開始日時"),
    ("$END_TIME", "終了日時"),
    ("$TIME_LIMIT", "持ち時間"),
    ("$OPENING", "戦型"),
];

/// A square as CSA writes it: `00` (a hand) is `None`, as is a digit 0 in a board square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A square of the board.
    Board(Square),
    /// `00`: a hand.
    Hand,
    /// Two digits that name no square (`70`, `09`).
    Bad,
}

/// A piece as CSA names it: its kind, and whether it is promoted.
pub type Named = (PieceKind, bool);
/// A piece `PI` takes off: its square, its name, and the span of both.
pub type Removed = (Place, Named, Span);
/// A piece `P+` or `P-` places: its square (`00` a hand), its name (`None` for `AL`), and the
/// span of both.
pub type Placed = (Place, Option<Named>, Span);

/// What one statement of a line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `'…`: a comment (its text after the `'`).
    Comment(String),
    /// `V2.2`.
    Version(String),
    /// `N+name`.
    Name(Color, String),
    /// `$KEY:value`.
    Info(String, String),
    /// `PI` with the pieces taken off: each square and piece, with its span.
    Handicap(Vec<Removed>),
    /// `P1`…`P9`: the row's number and its nine squares; true when its spaces were collapsed.
    Row(u8, Vec<Option<Piece>>, bool),
    /// `P+`/`P-` and the pieces placed: each square (or `00`), the piece (`None` for `AL`),
    /// and its span.
    List(Color, Vec<Placed>),
    /// `+` or `-` alone: the side to move.
    Side(Color),
    /// `+7776FU`: the side, the origin, the destination, the piece after the move.
    Move {
        /// The side that moves.
        side: Color,
        /// The origin, `00` for a drop.
        from: Place,
        /// The destination.
        to: Place,
        /// The piece after the move.
        piece: (PieceKind, bool),
    },
    /// `T12` or `T6.123`: the time the move took, in milliseconds, and its text.
    Time(Option<u64>),
    /// `%TORYO` and the other ends (the name after `%`).
    Special(String),
    /// `/`: the end of one record of a file, before the next.
    Separator,
    /// Nothing (an empty line, or nothing between two commas).
    Empty,
    /// A statement no rule reads.
    Unknown,
}

/// A statement with its span in the line.
pub type Spanned = (Statement, Span);

/// The statements of `line` (without its end), which starts at byte `at` of its text, with
/// spans in the text. A line the grammar cannot read at all (it always can: the recovery rule
/// reads any statement) is one unknown statement.
pub fn line(line: &str, at: usize) -> Vec<Spanned> {
    super::fast::line(line, at).unwrap_or_else(|| built(line, at))
}

/// The statements of `line` as pest and the builder below read them.
pub(super) fn built(line: &str, at: usize) -> Vec<Spanned> {
    let Ok(mut pairs) = CsaParser::parse(Rule::line, line) else {
        return vec![(Statement::Unknown, Span::new(at, at + line.len()))];
    };
    let Some(top) = pairs.next() else { return Vec::new() };
    top.into_inner().filter(|p| p.as_rule() != Rule::EOI).map(|p| statement(p, at)).collect()
}

/// The span of `p` in the text, its line starting at byte `at`.
fn span(p: &Pair<'_, Rule>, at: usize) -> Span {
    Span::new(at + p.as_span().start(), at + p.as_span().end())
}

fn side_of(p: &Pair<'_, Rule>) -> Color {
    if p.as_str() == "+" {
        Color::Black
    } else {
        Color::White
    }
}

fn place(p: &Pair<'_, Rule>) -> Place {
    place_of(p.as_str())
}

/// The place two digits name (`77`, `00`).
pub(super) fn place_of(digits: &str) -> Place {
    match digits.as_bytes() {
        [b'0', b'0'] => Place::Hand,
        [f, r] => Square::new(f - b'0', r - b'0').map_or(Place::Bad, Place::Board),
        _ => Place::Bad,
    }
}

fn piece_of(p: &Pair<'_, Rule>) -> (PieceKind, bool) {
    piece(p.as_str()).unwrap_or((PieceKind::Pawn, false))
}

fn statement(p: Pair<'_, Rule>, base: usize) -> Spanned {
    let at = span(&p, base);
    let text = p.as_str();
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    let s = match rule {
        Rule::comment => Statement::Comment(text[1..].to_owned()),
        Rule::version => Statement::Version(text[1..].to_owned()),
        Rule::name => {
            let side = inner.next().map_or(Color::Black, |s| side_of(&s));
            Statement::Name(side, text[2..].to_owned())
        }
        Rule::info => {
            let key = inner.next().map(|k| k.as_str().to_owned()).unwrap_or_default();
            let value = inner.next().map(|v| v.as_str().to_owned()).unwrap_or_default();
            Statement::Info(key, value)
        }
        Rule::handicap => Statement::Handicap(
            inner
                .map(|removed| {
                    let at = span(&removed, base);
                    let mut parts = removed.into_inner();
                    let square = parts.next().map_or(Place::Bad, |s| place(&s));
                    let piece = parts.next().map_or((PieceKind::Pawn, false), |p| piece_of(&p));
                    (square, piece, at)
                })
                .collect(),
        ),
        Rule::board_row | Rule::board_row_dialect => {
            let row = inner.next().map_or(0, |r| r.as_str().as_bytes()[0] - b'0');
            let cells = inner
                .map(|cell| {
                    let mut parts = cell.into_inner();
                    let (Some(side), Some(name)) = (parts.next(), parts.next()) else { return None };
                    let (kind, promoted) = piece_of(&name);
                    Some(Piece { color: side_of(&side), kind, promoted })
                })
                .collect();
            Statement::Row(row, cells, rule == Rule::board_row_dialect)
        }
        Rule::piece_list => {
            let side = inner.next().map_or(Color::Black, |s| side_of(&s));
            let placed = inner
                .map(|placed| {
                    let at = span(&placed, base);
                    let mut parts = placed.into_inner();
                    let square = parts.next().map_or(Place::Bad, |s| place(&s));
                    let piece = parts.next().filter(|p| p.as_rule() == Rule::piece_name).map(|p| piece_of(&p));
                    (square, piece, at)
                })
                .collect();
            Statement::List(side, placed)
        }
        Rule::side => Statement::Side(inner.next().map_or(Color::Black, |s| side_of(&s))),
        Rule::move_stmt => {
            let side = inner.next().map_or(Color::Black, |s| side_of(&s));
            let from = inner.next().map_or(Place::Bad, |s| place(&s));
            let to = inner.next().map_or(Place::Bad, |s| place(&s));
            let piece = inner.next().map_or((PieceKind::Pawn, false), |p| piece_of(&p));
            Statement::Move { side, from, to, piece }
        }
        Rule::time => Statement::Time(inner.next().and_then(|s| millis(s.as_str()))),
        Rule::special => Statement::Special(text[1..].to_owned()),
        Rule::separator => Statement::Separator,
        Rule::empty => Statement::Empty,
        _ => Statement::Unknown,
    };
    (s, at)
}

/// Seconds as CSA writes them (`12`, V3.0's `6.123`), in milliseconds; digits past the
/// milliseconds are dropped. `None` when the number is too large.
pub(super) fn millis(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let seconds: u64 = whole.parse().ok()?;
    let mut ms = 0;
    for (i, d) in fraction.bytes().chain(std::iter::repeat(b'0')).take(3).enumerate() {
        ms += u64::from(d - b'0') * [100, 10, 1][i];
    }
    seconds.checked_mul(1000)?.checked_add(ms)
}

#[cfg(test)]
mod tests {
    use super::{line, Place, Statement};
    use crate::shogi::{Color, PieceKind, Square};

    #[test]
    fn statements_are_read_with_their_spans() {
        let read = line("+2726FU,T12", 0);
        assert_eq!(read.len(), 2);
        let sq = |f, r| Place::Board(Square::new(f, r).expect("a square"));
        assert_eq!(
            read[0].0,
            Statement::Move { side: Color::Black, from: sq(2, 7), to: sq(2, 6), piece: (PieceKind::Pawn, false) }
        );
        assert_eq!((read[0].1.start, read[0].1.end), (0, 7));
        assert_eq!(read[1].0, Statement::Time(Some(12_000)));
        assert_eq!(line("T6.1234", 0)[0].0, Statement::Time(Some(6_123)));
        assert_eq!(line("'** 30 -8384FU", 0)[0].0, Statement::Comment("** 30 -8384FU".to_owned()));
        assert_eq!(line("N-藤井, 聡太", 0)[0].0, Statement::Name(Color::White, "藤井, 聡太".to_owned()));
        assert_eq!(line("%+ILLEGAL_ACTION", 0)[0].0, Statement::Special("+ILLEGAL_ACTION".to_owned()));
        assert_eq!(line("", 0)[0].0, Statement::Empty);
        assert_eq!(line("+77", 0)[0].0, Statement::Unknown);
    }

    #[test]
    fn rows_are_read_whole_or_collapsed() {
        let Statement::Row(2, cells, false) = line("P2 * -HI *  *  *  *  * -KA * ", 0).remove(0).0 else {
            panic!("a row")
        };
        assert_eq!(cells.iter().flatten().count(), 2);
        let Statement::Row(2, cells, true) = line("P2 * -HI * * * * * -KA *", 0).remove(0).0 else { panic!("a row") };
        assert_eq!(cells.len(), 9);
        assert_eq!(cells.iter().flatten().count(), 2);
    }
}
