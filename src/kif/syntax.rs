//! A KIF line as the grammar reads it (`grammar/kif.pest`'s `line`): what kind of line it is,
//! and its parts with their spans in the line. The pieces, squares and counts are decoded here,
//! once; the reader ([`super::read`]) gives them their meaning in the game.

use pest::iterators::Pair;
use pest::Parser;

use super::parser::{KifParser, Rule};
use crate::shogi::relative::{Motion, Place};
use crate::shogi::{kanji, Color, PieceKind, Square};
use crate::span::Span;

/// A line of a KIF record, its spans in the line's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// White space only.
    Blank,
    /// A `#` line; its `#KIF` declaration's encoding, when it names one.
    Hash {
        /// The value of `encoding=`, and its span.
        encoding: Option<Span>,
    },
    /// A `*` comment (`**` for an engine's line): its text after the marks.
    Comment(Span),
    /// A `&` bookmark: its name.
    Bookmark(Span),
    /// `key：value`.
    Header {
        /// The key.
        key: Span,
        /// The colon, when it is the ASCII one.
        ascii_colon: Option<Span>,
        /// The value, without the white space around it.
        value: Span,
    },
    /// A side's pieces in hand in a board diagram.
    Hand {
        /// The side, and the span of its name.
        owner: (Color, Span),
        /// The pieces and their counts (none for `なし`), each with its span.
        pieces: Vec<(PieceKind, u32, Span)>,
        /// The colon, when it is the ASCII one.
        ascii_colon: Option<Span>,
    },
    /// A side's pieces in hand that cannot be read: the text after the colon.
    BadHand(Span),
    /// A rank of the board diagram: its nine cells, file 9 first.
    Row {
        /// Each cell's piece (`None`: empty) and its span.
        cells: Vec<(Option<crate::shogi::Piece>, Span)>,
        /// The rank written after the bar, if any.
        rank: Option<(u8, Span)>,
    },
    /// The files over a diagram, or its frame: lines that hold nothing of the position.
    Frame,
    /// `先手番` / `後手番` under a diagram.
    Turn(Color),
    /// `手数＝…` under a diagram.
    MoveCount,
    /// The moves' heading, `手数----指手---------消費時間--`.
    MovesHeading,
    /// A move, or an ending.
    Move(Box<MoveLine>),
    /// `変化：N手`: its number and the number's span.
    Variation(Option<u64>, Span),
    /// `まで…`: the summary after a line's last move.
    Summary(Summary),
    /// KI2 moves, and the word after them that cannot be read as one, if any.
    Ki2(Vec<Ki2Move>, Option<Span>),
    /// A numbered line whose move cannot be read: the number, and the word where the move
    /// would be.
    BadMove {
        /// The number's span.
        number: Span,
        /// The word after it, up to the next white space (empty when there is none).
        word: Span,
    },
    /// A line that is none of these.
    Unknown(Span),
}

/// What a summary (`まで64手で後手の勝ち`) says of how the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Summary {
    /// A side won: `後手の勝ち` (`how` is `勝ち`), `先手の反則勝ち`, `後手の反則負け` (the side
    /// lost), `先手の入玉勝ち`; `time` for `時間切れにより` before it.
    Won {
        /// The whole result.
        span: Span,
        /// The side named.
        side: Color,
        /// `勝ち`, `反則勝ち`, `反則負け` or `入玉勝ち`.
        how: Span,
        /// `時間切れにより` is written.
        time: bool,
    },
    /// An ending's word (`中断`, `千日手`, `詰み`; `詰`).
    Word(Span),
    /// Nothing kifu reads.
    Silent,
}

/// A KI2 move as written: `▲２二角成`, `△同　銀`, `▲５八金左上`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ki2Move {
    /// The whole move, from its mark on.
    pub span: Span,
    /// The side the mark names, and the mark's span.
    pub mark: (Color, Span),
    /// The destination, or `None` for `同`.
    pub to: Option<Square>,
    /// The piece before the move, promoted or not, and its span.
    pub piece: ((PieceKind, bool), Span),
    /// 左, 直 or 右, and its span.
    pub place: Option<(Place, Span)>,
    /// 上, 寄 or 引, and its span.
    pub motion: Option<(Motion, Span)>,
    /// `成`.
    pub promote: Option<Span>,
    /// `不成`.
    pub decline: Option<Span>,
    /// `打`.
    pub drop: Option<Span>,
}

impl Ki2Move {
    /// The words that tell the piece from others, as written.
    pub fn words(&self) -> crate::shogi::relative::Relative {
        crate::shogi::relative::Relative { place: self.place.map(|p| p.0), motion: self.motion.map(|m| m.0) }
    }

    /// The span of the words that tell the piece from others (empty, after the piece, when
    /// there are none).
    pub fn relative_span(&self) -> Span {
        let start = self.piece.1.end;
        let end = self.motion.map(|m| m.1.end).or(self.place.map(|p| p.1.end)).unwrap_or(start);
        Span::new(start, end)
    }
}

/// A move line: `   1 ７六歩(77)   ( 0:16/00:00:16)+`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move's number, and its span.
    pub number: (Option<u64>, Span),
    /// The move or the ending.
    pub body: Body,
    /// The time, when written.
    pub time: Option<Time>,
    /// A time that cannot be read: its span, from `(` to `)`.
    pub bad_time: Option<Span>,
    /// The `+` that marks a move another line branches from.
    pub branch: Option<Span>,
}

/// What a move line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// A move.
    Move(Written),
    /// An ending's word, and whether kifu knows it.
    Ending(Span, bool),
}

/// A move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The whole move, from its square to its origin.
    pub span: Span,
    /// The destination, or `None` for `同` (the square of the move before).
    pub to: Option<Square>,
    /// `同` without its full-width space: the span where the space belongs (the half-width
    /// space, or an empty span before the piece).
    pub same_space: Option<Span>,
    /// The piece before the move, promoted or not.
    pub piece: (PieceKind, bool),
    /// The piece's span.
    pub piece_span: Span,
    /// `成`.
    pub promote: Option<Span>,
    /// `不成`.
    pub decline: Option<Span>,
    /// `打`.
    pub drop: Option<Span>,
    /// `(00)` after a drop.
    pub zero_origin: Option<Span>,
    /// The origin, `(77)`.
    pub from: Option<(Square, Span)>,
}

/// A move's time: `( 0:16/00:00:16)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Time {
    /// From `(` to `)`.
    pub span: Span,
    /// The time the move took, as written.
    pub spent: Span,
    /// The mover's total, as written, when there is one.
    pub total: Option<Span>,
}

/// True when `word`, an ending, is one of the words KIF names (the grammar's `ending_word`).
pub(super) fn is_ending_word(word: &str) -> bool {
    KifParser::parse(Rule::ending_word, word).is_ok_and(|mut p| p.next().is_some_and(|w| w.as_str() == word))
}

/// Reads one line (without its end) into its kind and parts.
pub fn line(text: &str) -> Line {
    super::fast::line(text).unwrap_or_else(|| built(text))
}

/// [`line`], through pest and the builder.
pub(super) fn built(text: &str) -> Line {
    let Ok(mut pairs) = KifParser::parse(Rule::line, text) else {
        // `other_lenient` takes any line that no other rule takes.
        return Line::Unknown(Span::new(0, text.len()));
    };
    let Some(kind) = pairs.next().and_then(|line| line.into_inner().next()) else {
        return Line::Blank;
    };
    let span = Span::of(kind.as_span());
    match kind.as_rule() {
        Rule::blank | Rule::EOI => Line::Blank,
        Rule::hash_line => Line::Hash {
            encoding: kind.into_inner().flatten().filter(|p| p.as_rule() == Rule::declaration_field).find_map(|field| {
                let mut kv = field.into_inner();
                let (key, value) = (kv.next()?, kv.next()?);
                key.as_str().eq_ignore_ascii_case("encoding").then(|| Span::of(value.as_span()))
            }),
        },
        // A comment's text is all after its first `*`: an engine's `**` line keeps its second.
        Rule::engine_comment | Rule::comment => Line::Comment(Span::new(span.start + 1, span.end)),
        Rule::bookmark => Line::Bookmark(kind.into_inner().next().map_or(Span::point(span.end), |r| Span::of(r.as_span()))),
        Rule::header => {
            let (mut key, mut colon, mut value) = (span, None, Span::point(span.end));
            for part in kind.into_inner() {
                match part.as_rule() {
                    Rule::header_key => key = Span::of(part.as_span()),
                    Rule::colon => colon = ascii_colon(part),
                    Rule::header_value => value = trimmed(text, Span::of(part.as_span())),
                    _ => {}
                }
            }
            Line::Header { key, ascii_colon: colon, value }
        }
        Rule::hand => hand(kind),
        Rule::hand_lenient => Line::BadHand(find(kind, Rule::hand_rest).map_or(Span::point(span.end), |r| trimmed(text, Span::of(r.as_span())))),
        Rule::board_row => row(kind),
        Rule::board_row_lenient => Line::Row { cells: Vec::new(), rank: None },
        Rule::board_files | Rule::board_frame => Line::Frame,
        Rule::board_turn => {
            let black = kind.as_str().starts_with("先手") || kind.as_str().starts_with("下手");
            Line::Turn(if black { Color::Black } else { Color::White })
        }
        Rule::board_move_count => Line::MoveCount,
        Rule::moves_heading => Line::MovesHeading,
        Rule::move_line => Line::Move(Box::new(move_line(kind))),
        Rule::variation_heading => {
            let number = find(kind, Rule::move_number).map_or(span, |n| Span::of(n.as_span()));
            Line::Variation(number.slice(text).parse().ok(), number)
        }
        Rule::summary => Line::Summary(summary(kind)),
        Rule::ki2_line => Line::Ki2(kind.into_inner().map(ki2_move).collect(), None),
        Rule::ki2_line_lenient => {
            let (mut moves, mut bad) = (Vec::new(), None);
            for part in kind.into_inner() {
                match part.as_rule() {
                    Rule::ki2_move => moves.push(ki2_move(part)),
                    Rule::ki2_word | Rule::ki2_unmarked_word => bad = Some(Span::of(part.as_span())),
                    _ => {}
                }
            }
            Line::Ki2(moves, bad)
        }
        Rule::move_line_lenient => {
            let mut parts = kind.into_inner();
            let number = parts.next().map_or(span, |n| Span::of(n.as_span()));
            let word = parts.next().map_or(Span::point(number.end), |w| Span::of(w.as_span()));
            Line::BadMove { number, word }
        }
        _ => Line::Unknown(trimmed(text, span)),
    }
}

/// `span` of `text` without the white space at its ends.
fn trimmed(text: &str, span: Span) -> Span {
    let s = span.slice(text);
    let start = span.start + (s.len() - s.trim_start().len());
    Span::new(start, (span.end - (s.len() - s.trim_end().len())).max(start))
}

/// The first pair of `rule` in `pair`, at any depth.
fn find<'i>(pair: Pair<'i, Rule>, rule: Rule) -> Option<Pair<'i, Rule>> {
    pair.into_inner().flatten().find(|p| p.as_rule() == rule)
}

/// The span of a colon that is the ASCII one.
fn ascii_colon(colon: Pair<'_, Rule>) -> Option<Span> {
    (colon.as_str() == ":").then(|| Span::of(colon.as_span()))
}

fn hand(kind: Pair<'_, Rule>) -> Line {
    let (mut owner, mut pieces, mut colon) = ((Color::Black, Span::point(0)), Vec::new(), None);
    for part in kind.into_inner() {
        match part.as_rule() {
            Rule::hand_owner => {
                let color = if matches!(part.as_str(), "先手" | "下手") { Color::Black } else { Color::White };
                owner = (color, Span::of(part.as_span()));
            }
            Rule::colon => colon = ascii_colon(part),
            Rule::hand_items => {
                for item in part.into_inner() {
                    let span = Span::of(item.as_span());
                    let mut inner = item.into_inner();
                    let kind = inner.next().and_then(|p| kanji::piece_of(p.as_str())).map(|(k, _)| k);
                    let count = inner.next().map_or(Some(1), |c| kanji::count(c.as_str()));
                    if let (Some(kind), Some(count)) = (kind, count) {
                        pieces.push((kind, count, span));
                    }
                }
            }
            _ => {}
        }
    }
    Line::Hand { owner, pieces, ascii_colon: colon }
}

fn row(kind: Pair<'_, Rule>) -> Line {
    let mut cells = Vec::with_capacity(9);
    let mut rank = None;
    for part in kind.into_inner() {
        match part.as_rule() {
            Rule::cell => {
                let span = Span::of(part.as_span());
                let white = part.as_str().starts_with('v');
                let piece = part.into_inner().find(|p| p.as_rule() == Rule::board_piece).and_then(|p| {
                    let (kind, promoted) = kanji::piece_of(p.as_str())?;
                    Some(crate::shogi::Piece { color: if white { Color::White } else { Color::Black }, kind, promoted })
                });
                cells.push((piece, span));
            }
            Rule::rank_kanji => {
                rank = part.as_str().chars().next().and_then(kanji::digit).map(|r| (r, Span::of(part.as_span())));
            }
            _ => {}
        }
    }
    Line::Row { cells, rank }
}

fn move_line(kind: Pair<'_, Rule>) -> MoveLine {
    let mut line = MoveLine {
        number: (None, Span::point(0)),
        body: Body::Ending(Span::point(0), false),
        time: None,
        bad_time: None,
        branch: None,
    };
    for part in kind.into_inner() {
        let span = Span::of(part.as_span());
        match part.as_rule() {
            Rule::move_number => line.number = (part.as_str().parse().ok(), span),
            Rule::kif_move => line.body = Body::Move(written(part)),
            Rule::ending => line.body = Body::Ending(span, is_ending_word(part.as_str())),
            Rule::time => {
                let clocks: Vec<Span> = part.into_inner().map(|c| Span::of(c.as_span())).collect();
                line.time = Some(Time { span, spent: clocks.first().copied().unwrap_or(span), total: clocks.get(1).copied() });
            }
            Rule::time_lenient => line.bad_time = Some(span),
            Rule::branch_mark => line.branch = Some(span),
            _ => {}
        }
    }
    line
}

fn written(mv: Pair<'_, Rule>) -> Written {
    let mut w = Written {
        span: Span::of(mv.as_span()),
        to: None,
        same_space: None,
        piece: (PieceKind::Pawn, false),
        piece_span: Span::point(0),
        promote: None,
        decline: None,
        drop: None,
        zero_origin: None,
        from: None,
    };
    for part in mv.into_inner() {
        let span = Span::of(part.as_span());
        match part.as_rule() {
            Rule::destination => w.to = destination(part.as_str()),
            Rule::same => {
                let space = part.into_inner().next();
                w.same_space = match space {
                    Some(s) if s.as_rule() == Rule::same_space => None,
                    Some(s) => Some(Span::of(s.as_span())),
                    None => Some(Span::point(span.end)),
                };
            }
            Rule::piece => {
                w.piece = piece(part.as_str());
                w.piece_span = span;
            }
            Rule::promote => w.promote = Some(span),
            Rule::decline_dialect => w.decline = Some(span),
            Rule::drop => w.drop = Some(span),
            Rule::drop_origin_dialect => w.zero_origin = Some(span),
            Rule::origin => w.from = origin(part.as_str()).map(|sq| (sq, span)),
            _ => {}
        }
    }
    w
}

/// True for a side's mark (the grammar's `side_mark`): ▲ △, ▼ ▽, ☗ ☖.
pub(super) fn is_side_mark(c: char) -> bool {
    matches!(c, '▲' | '△' | '▼' | '▽' | '☗' | '☖')
}

/// The side a summary or a mark names: 先手 and 下手 (▲ ☗ ▼) are Black.
pub(super) fn side_named(text: &str) -> Color {
    if matches!(text, "先手" | "下手" | "▲" | "☗" | "▼") {
        Color::Black
    } else {
        Color::White
    }
}

fn summary(kind: Pair<'_, Rule>) -> Summary {
    let Some(result) = kind.into_inner().find(|p| matches!(p.as_rule(), Rule::summary_result | Rule::summary_mate)) else {
        return Summary::Silent;
    };
    let span = Span::of(result.as_span());
    if result.as_rule() == Rule::summary_mate {
        return Summary::Word(span);
    }
    let (mut side, mut how, mut time) = (None, None, false);
    for part in result.into_inner() {
        match part.as_rule() {
            Rule::summary_time => time = true,
            Rule::summary_side => side = Some(side_named(part.as_str())),
            Rule::summary_win => how = Some(Span::of(part.as_span())),
            _ => {}
        }
    }
    match side.zip(how) {
        Some((side, how)) => Summary::Won { span, side, how, time },
        None => Summary::Word(span),
    }
}

fn ki2_move(mv: Pair<'_, Rule>) -> Ki2Move {
    let mut m = Ki2Move {
        span: Span::of(mv.as_span()),
        mark: (Color::Black, Span::point(0)),
        to: None,
        piece: ((PieceKind::Pawn, false), Span::point(0)),
        place: None,
        motion: None,
        promote: None,
        decline: None,
        drop: None,
    };
    for part in mv.into_inner() {
        let span = Span::of(part.as_span());
        match part.as_rule() {
            Rule::side_mark => m.mark = (side_named(part.as_str()), span),
            Rule::destination => m.to = destination(part.as_str()),
            Rule::piece => m.piece = (piece(part.as_str()), span),
            Rule::ki2_position => m.place = Place::of_kanji(part.as_str()).map(|p| (p, span)),
            Rule::ki2_motion => m.motion = Motion::of_kanji(part.as_str()).map(|x| (x, span)),
            Rule::promote => m.promote = Some(span),
            Rule::ki2_decline => m.decline = Some(span),
            Rule::drop => m.drop = Some(span),
            _ => {}
        }
    }
    m
}

/// The square a destination writes (`７六`).
/// The piece a `piece` names, promoted or not (a pawn for a name the grammar does not hold).
pub(super) fn piece(text: &str) -> (PieceKind, bool) {
    kanji::piece_of(text).unwrap_or((PieceKind::Pawn, false))
}

/// The square of an `origin`, `(77)`: two ASCII digits between parentheses.
pub(super) fn origin(text: &str) -> Option<Square> {
    let digits = text.as_bytes();
    let digit = |i: usize| digits.get(i).map_or(0, |b| b.wrapping_sub(b'0'));
    Square::new(digit(1), digit(2))
}

/// True for the white space of the grammar's `WS`: a space, a full-width space or a tab.
pub(super) fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\u{3000}' | '\t')
}

pub(super) fn destination(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next().and_then(kanji::wide_digit);
    let rank = chars.next().and_then(kanji::digit);
    file.zip(rank).and_then(|(f, r)| Square::new(f, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> MoveLine {
        match line(text) {
            Line::Move(m) => *m,
            other => panic!("{text:?} read as {other:?}"),
        }
    }

    #[test]
    fn each_kind_of_line_is_told() {
        assert_eq!(line(""), Line::Blank);
        assert_eq!(line("  \u{3000}"), Line::Blank);
        assert_eq!(line("# ---- Kifu for Windows V7 ----"), Line::Hash { encoding: None });
        assert_eq!(line("#KIF version=2.0 encoding=UTF-8"), Line::Hash { encoding: Some(Span::new(26, 31)) });
        assert_eq!(line("*コメント"), Line::Comment(Span::new(1, 13)));
        assert_eq!(line("**対局 評価値 120"), Line::Comment(Span::new(1, 22)));
        assert_eq!(line("&しおり"), Line::Bookmark(Span::new(1, 10)));
        assert_eq!(line("手数----指手---------消費時間--"), Line::MovesHeading);
        assert_eq!(line("変化：12手"), Line::Variation(Some(12), Span::new(9, 11)));
        assert!(matches!(line("まで64手で後手の勝ち"), Line::Summary(Summary::Won { side: Color::White, time: false, .. })));
        assert!(matches!(line("まで3手で時間切れにより先手の勝ち"), Line::Summary(Summary::Won { side: Color::Black, time: true, .. })));
        assert!(matches!(line("まで98手で中断"), Line::Summary(Summary::Word(_))));
        assert!(matches!(line("まで3手詰"), Line::Summary(Summary::Word(_))));
        assert!(matches!(line("まで"), Line::Summary(Summary::Silent)));
        assert_eq!(line("後手番"), Line::Turn(Color::White));
        assert_eq!(line("  ９ ８ ７ ６ ５ ４ ３ ２ １"), Line::Frame);
        assert_eq!(line("+---------------------------+"), Line::Frame);
        assert!(matches!(line("手合割：平手　"), Line::Header { ascii_colon: None, .. }));
        assert!(matches!(line("開始日時:2024/01/01"), Line::Header { ascii_colon: Some(_), .. }));
        assert!(matches!(line("盤面回転"), Line::Unknown(_)));
        assert!(matches!(line("  12 ７七歩歩(76)"), Line::BadMove { .. }));
        // A line is read by the first kind that matches it whole, not the first that matches
        // its start.
        assert!(matches!(line("  12 ７七歩(76) and more"), Line::BadMove { .. }));
        assert!(matches!(line("先手の持駒：金と銀"), Line::BadHand(_)));
        // Only a side's pieces in hand are: another key ending in の持駒 is a header's.
        assert!(matches!(line("Senteの持駒：A"), Line::Header { .. }));
        assert!(matches!(line("変化：3手目"), Line::Header { .. }));
    }

    #[test]
    fn moves_are_read_into_their_parts() {
        let m = mv("   1 ７六歩(77)   ( 0:16/00:00:16)");
        let Body::Move(w) = &m.body else { panic!() };
        assert_eq!((w.to, w.piece, w.from.map(|f| f.0)), (Square::new(7, 6), (PieceKind::Pawn, false), Square::new(7, 7)));
        assert_eq!(m.number.0, Some(1));
        assert!(m.time.is_some() && m.branch.is_none());
        let m = mv("  14 同　成銀(47)+");
        let Body::Move(w) = &m.body else { panic!() };
        assert_eq!((w.to, w.same_space, w.piece), (None, None, (PieceKind::Silver, true)));
        assert!(m.branch.is_some() && m.time.is_none());
        let Body::Move(w) = mv("3 同歩(22)").body else { panic!() };
        assert!(w.same_space.is_some_and(|s| s.is_empty()));
        let Body::Move(w) = mv("44 ３三角打(00)").body else { panic!() };
        assert!(w.drop.is_some() && w.zero_origin.is_some() && w.from.is_none());
        let Body::Move(w) = mv("9 ７七銀不成(68)").body else { panic!() };
        assert!(w.decline.is_some() && w.promote.is_none());
        let Body::Move(w) = mv("9 ２二角成(88)").body else { panic!() };
        assert!(w.promote.is_some());
        assert_eq!(mv("  8 投了 ( 0:03/00:00:32)").body, Body::Ending(Span::new(4, 10), true));
        assert_eq!(mv("  8 封じ手").body, Body::Ending(Span::new(4, 13), true));
        assert!(matches!(mv("  8 あいこ").body, Body::Ending(_, false)));
        // A word that starts with one KIF names is another word, read whole.
        assert!(matches!(mv("  8 不詰み").body, Body::Ending(_, false)));
        assert!(mv("1 ７六歩(77) (0:4/0:0:4)").time.is_some_and(|t| t.total.is_some()));
    }

    #[test]
    fn a_board_diagram_is_read_cell_by_cell() {
        let Line::Row { cells, rank } = line("|v香v桂 ・v金v銀v金v角v桂v香|一") else { panic!() };
        assert_eq!(cells.len(), 9);
        assert_eq!(rank.map(|r| r.0), Some(1));
        assert_eq!(cells[2].0, None);
        assert_eq!(cells[0].0.map(|p| (p.color, p.kind)), Some((Color::White, PieceKind::Lance)));
        let Line::Hand { owner, pieces, .. } = line("先手の持駒：飛　金二　歩十八　") else { panic!() };
        assert_eq!(owner.0, Color::Black);
        let counts: Vec<(PieceKind, u32)> = pieces.iter().map(|p| (p.0, p.1)).collect();
        assert_eq!(counts, [(PieceKind::Rook, 1), (PieceKind::Gold, 2), (PieceKind::Pawn, 18)]);
        let Line::Hand { pieces, .. } = line("後手の持駒：なし") else { panic!() };
        assert!(pieces.is_empty());
        let Line::Hand { pieces, .. } = line("後手の持駒：飛歩") else { panic!() };
        assert_eq!(pieces.len(), 2);
    }
}
