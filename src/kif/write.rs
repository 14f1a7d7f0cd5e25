//! A [`Game`] written as KIF, as Kifu for Windows writes it: the header, the start as a
//! handicap's name or a board diagram, one move a line with its time and comments, the ending,
//! and the variations as `変化：N手` blocks after the main line.

use std::fmt::Write as _;
use std::time::Duration;

use crate::shogi::game::HEADER_NAMES;
use crate::shogi::relative;
use crate::shogi::rules::State;
use crate::shogi::{handicap, kanji, Color, Move, Piece, PieceKind, Position, Square};
use crate::shogi::{EndReason, Ending, Game, MoveTime, Node, Outcome, Record};

/// The columns a move's text is padded to before its time, as Kifu for Windows aligns them (a
/// full-width character is two columns).
const MOVE_COLUMNS: usize = 13;

/// The columns a KI2 move is padded to, as Kifu for Windows aligns them.
const KI2_COLUMNS: usize = 12;

/// The moves a KI2 line holds at most.
const KI2_MOVES_A_LINE: usize = 6;

/// Writes `game` as KIF, its `#KIF` line naming `encoding` (`UTF-8`, `Shift_JIS`).
pub fn write(game: &Game, encoding: &str) -> Record {
    write_as(game, Some(encoding))
}

/// Writes `game` as KI2: KIF's header, start, comments and variations, with the moves as
/// people write them (the JSA's words), several a line, no times, and the ending in the
/// `まで` summary.
pub fn write_ki2(game: &Game) -> Record {
    write_as(game, None)
}

/// Each move of `game`'s main line as KI2 writes it (`▲７六歩`), with the position after it.
#[cfg(feature = "cli")]
pub(crate) fn main_line_ki2(game: &Game) -> Vec<(String, Position)> {
    let mut state = State::new(&game.start);
    let mut before = None;
    game.main_line()
        .map(|mv| {
            let text = ki2_move_text(&state, mv, before);
            state.play_unchecked(mv);
            before = Some(mv.to());
            (text, state.to_position())
        })
        .collect()
}

/// Writes `game` as KIF with a `#KIF` line naming `encoding`, or as KI2 (`None`).
fn write_as(game: &Game, kif_encoding: Option<&str>) -> Record {
    let ki2 = kif_encoding.is_none();
    let mut out = Writer { record: Record { text: String::new(), lost: Vec::new() }, ki2, row: 0 };
    if let Some(encoding) = kif_encoding {
        let _ = writeln!(out.record.text, "#KIF version=2.0 encoding={encoding}");
    }
    let handicap = handicap_of(&game.start);
    let (black, white) =
        if handicap.is_some_and(|h| h != "平手") { ("下手", "上手") } else { ("先手", "後手") };
    let mut players = Vec::new();
    for (key, value) in &game.headers {
        match header_key(key) {
            Key::Kif(kif) => out.header(kif, &date_or(kif, value)),
            Key::Player(Color::Black) => players.push((black, value)),
            Key::Player(Color::White) => players.push((white, value)),
            Key::Written => {}
            Key::Other => out.header(key, value),
        }
    }
    match handicap {
        Some(name) => out.header("手合割", name),
        None => diagram(&mut out.record.text, &game.start),
    }
    for (key, value) in players {
        out.header(key, value);
    }
    if game.start.move_number.is_some_and(|n| n != 1) {
        out.record.lose("the start's move number");
    }
    if !ki2 {
        out.record.text.push_str("手数----指手---------消費時間--\n");
    }
    out.comments(&game.comments);
    out.lines(game, (black, white));
    out.record
}

/// What a header of the game becomes in KIF.
enum Key {
    /// A key KIF names (`棋戦`).
    Kif(&'static str),
    /// A player, written after the start (`先手`, or `下手` in a handicap game).
    Player(Color),
    /// Written otherwise (the start, the result).
    Written,
    /// Kept as it is.
    Other,
}

/// KIF's key for a header's `key` (PSN's, or KIF's own).
fn header_key(key: &str) -> Key {
    match key.to_ascii_lowercase().as_str() {
        "sente" | "black" | "先手" | "下手" => Key::Player(Color::Black),
        "gote" | "white" | "後手" | "上手" => Key::Player(Color::White),
        "result" | "handicap" | "fen" | "sfen" | "手合割" => Key::Written,
        _ => HEADER_NAMES
            .iter()
            .find(|(psn, _)| psn.eq_ignore_ascii_case(key))
            .map_or(Key::Other, |(_, kif)| Key::Kif(kif)),
    }
}

/// A date as KIF writes it (`2024/01/05`) when `key` is a date's and `value` one written with
/// dots (`2024.01.05`); else `value`.
fn date_or(key: &str, value: &str) -> String {
    let dotted = value.split('.').count() == 3 && value.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if key == "開始日時" && dotted {
        value.replace('.', "/")
    } else {
        value.to_owned()
    }
}

/// The name of the handicap `start` is, when KIF names it.
fn handicap_of(start: &Position) -> Option<&'static str> {
    if start.hands.iter().any(|h| !h.is_empty()) {
        return None;
    }
    let written = start.to_string();
    let mut fields = written.split(' ');
    let (board, side) = (fields.next()?, fields.next()?);
    // The names readers set up differently are written as a board diagram.
    handicap::KIF
        .iter()
        .filter(|(_, _, agreed)| *agreed)
        .find(|(_, sfen, _)| sfen.split(' ').take(2).eq([board, side]))
        .map(|(name, _, _)| *name)
}

/// A KIF record being written, and what it leaves out.
struct Writer {
    record: Record,
    /// KI2, not KIF.
    ki2: bool,
    /// The KI2 moves on the line being written.
    row: usize,
}

/// A line of moves still to write: its first move's number, its moves and ending, the position
/// before its first and the square the move before it went to; `more` when another variation
/// of its first move is written after it (readers attach that one to this line's first move,
/// which therefore has the `+` mark of a move with a variation).
struct Block<'a> {
    number: usize,
    line: &'a [Node],
    ending: Option<Ending>,
    state: State,
    before: Option<Square>,
    more: bool,
}

impl Writer {
    /// A header line, `key：value`; a value of several lines keeps its first.
    fn header(&mut self, key: &str, value: &str) {
        let mut lines = value.split(['\n', '\r']).filter(|l| !l.is_empty());
        let line = format!("{key}：{}", lines.next().unwrap_or(""));
        if lines.next().is_some() {
            self.record.lose("the lines of a header value after its first");
        }
        // Written only when it reads back as a header with this key: a key with white space or
        // a colon, or one that starts another kind of line (`#`, `*`, `変化`), is not.
        match super::syntax::line(&line) {
            super::syntax::Line::Header { key: read, .. } if read.slice(&line) == key => {
                self.record.text.push_str(&line);
                self.record.text.push('\n');
            }
            _ => self.record.lose(
                "a header whose key KIF cannot hold (white space, a colon, or the start of another kind of line)",
            ),
        }
    }

    /// Comments, each line a `*` line (the line breaks that open or close one are its record's
    /// layout, not its text).
    fn comments(&mut self, comments: &[String]) {
        // Split where a reader splits lines: at LF, CRLF, and a CR alone.
        for comment in comments {
            for line in comment.trim_matches(['\n', '\r']).replace("\r\n", "\n").split(['\n', '\r']) {
                let _ = writeln!(self.record.text, "*{line}");
            }
        }
    }

    /// The main line and its ending, then every variation, depth first and the later branches
    /// first: each `変化：N手` block then belongs to the latest line written that reaches move
    /// N, as readers find it. No recursion, however deep the variations.
    fn lines(&mut self, game: &Game, sides: (&str, &str)) {
        let main = Block {
            number: 1,
            line: &game.moves,
            ending: game.ending,
            state: State::new(&game.start),
            before: None,
            more: false,
        };
        let (mut todo, end) = self.moves(main);
        self.ending(game.ending, game.moves.len(), &end, sides, true);
        while let Some(block) = todo.pop() {
            let _ = write!(self.record.text, "\n変化：{}手\n", block.number);
            let (played, ending) = (block.number - 1 + block.line.len(), block.ending);
            let (branches, end) = self.moves(block);
            self.ending(ending, played, &end, sides, false);
            todo.extend(branches);
        }
    }

    /// The moves of `block`, one a line; the variations that branch from them, as a stack to
    /// pop (the later first, and of one move the first first); and the position after the last.
    fn moves<'a>(&mut self, block: Block<'a>) -> (Vec<Block<'a>>, State) {
        let Block { number, line, mut state, mut before, more, .. } = block;
        let mut branches = Vec::new();
        for (i, node) in line.iter().enumerate() {
            let number = number + i;
            let last = node.variations.len().saturating_sub(1);
            for (k, variation) in node.variations.iter().enumerate().rev() {
                let (line, ending) = (variation.moves.as_slice(), variation.ending);
                branches.push(Block { number, line, ending, state, before, more: k < last });
            }
            if self.ki2 {
                self.ki2_move(&ki2_move_text(&state, node.mv, before));
                if node.time.is_some() {
                    self.record.lose("the moves' times");
                }
                if !node.comments.is_empty() || !node.bookmarks.is_empty() {
                    self.end_row();
                }
            } else {
                let text = move_text(&state, node.mv, before);
                let _ = write!(self.record.text, "{number:>4} {text}");
                self.time(&text, node.time);
                if !node.variations.is_empty() || (i == 0 && more) {
                    self.record.text.push('+');
                }
                self.record.text.push('\n');
            }
            self.comments(&node.comments);
            for name in &node.bookmarks {
                let _ = writeln!(self.record.text, "&{name}");
            }
            state.play_unchecked(node.mv);
            before = Some(node.mv.to());
        }
        self.end_row();
        (branches, state)
    }

    /// A KI2 move, after the moves on its line (padded to [`KI2_COLUMNS`]), or on a new line.
    fn ki2_move(&mut self, text: &str) {
        if self.row == KI2_MOVES_A_LINE {
            self.end_row();
        }
        if self.row > 0 {
            // The move before, padded to its columns, and one space at least.
            let before = self.record.text.rsplit(['\n', ' ']).next().map_or(0, columns);
            let pad = KI2_COLUMNS.saturating_sub(before).max(1);
            let _ = write!(self.record.text, "{:pad$}", "");
        }
        self.record.text.push_str(text);
        self.row += 1;
    }

    /// Ends the line of KI2 moves being written, if any.
    fn end_row(&mut self) {
        if self.row > 0 {
            self.record.text.push('\n');
            self.row = 0;
        }
    }

    /// A move's time, `( m:ss/hh:mm:ss)`, after its text padded to [`MOVE_COLUMNS`].
    fn time(&mut self, text: &str, time: Option<MoveTime>) {
        let Some(time) = time else { return };
        let (Some(spent), Some(total)) = (time.spent, time.total) else {
            self.record.lose("a move's time without its total (or the total without the time)");
            return;
        };
        if spent.subsec_nanos() != 0 || total.subsec_nanos() != 0 {
            self.record.lose("the fractions of a second of a move's time");
        }
        let pad = MOVE_COLUMNS.saturating_sub(columns(text));
        let (m, s) = (spent.as_secs() / 60, spent.as_secs() % 60);
        let _ = write!(self.record.text, "{:pad$}({m:>2}:{s:02}/{})", "", clock(total));
    }

    /// A line's ending, after its `played` moves (counted from the game's start) that lead to
    /// `state`: its word as a move line, and for the `main` line the `まで` line that names the
    /// winner (KI2: that line alone, for every line).
    fn ending(&mut self, ending: Option<Ending>, played: usize, state: &State, sides: (&str, &str), main: bool) {
        let Some(Ending { reason, outcome }) = ending else { return };
        let (black, white) = sides;
        let mover = state.side();
        let word = match (reason, outcome) {
            (Some(EndReason::Resignation), _) => Some("投了"),
            (Some(EndReason::Checkmate), _) => Some("詰み"),
            (Some(EndReason::Repetition), _) => Some("千日手"),
            (Some(EndReason::Impasse), Some(Outcome::Win(_))) => Some("入玉勝ち"),
            (Some(EndReason::Impasse), _) => Some("持将棋"),
            (Some(EndReason::TimeUp), _) => Some("切れ負け"),
            (Some(EndReason::IllegalMove), Some(Outcome::Win(c))) if c == mover => Some("反則勝ち"),
            (Some(EndReason::IllegalMove), Some(Outcome::Win(_))) => Some("反則負け"),
            (Some(EndReason::Interrupted), _) => Some("中断"),
            (None, _) => None,
            (Some(_), _) => {
                self.record.lose("an ending KIF has no word for");
                None
            }
        };
        let side = |c: Color| if c == Color::Black { black } else { white };
        if self.ki2 {
            // KI2 writes the ending in the summary alone, in words that say its reason.
            let summary = match (word, outcome) {
                (Some("詰み" | "千日手" | "持将棋" | "中断"), _) => word.map(str::to_owned),
                (Some("投了"), Some(Outcome::Win(c))) => Some(format!("{}の勝ち", side(c))),
                (Some("切れ負け"), Some(Outcome::Win(c))) => Some(format!("時間切れにより{}の勝ち", side(c))),
                (Some("入玉勝ち"), Some(Outcome::Win(c))) => Some(format!("{}の入玉勝ち", side(c))),
                (Some("反則勝ち" | "反則負け"), Some(Outcome::Win(c))) => {
                    Some(format!("{}の反則勝ち", side(c)))
                }
                _ => None,
            };
            match summary {
                Some(summary) => {
                    let _ = writeln!(self.record.text, "まで{played}手で{summary}");
                }
                None => self.record.lose("an ending KI2 has no words for"),
            }
            return;
        }
        if let Some(word) = word {
            let _ = writeln!(self.record.text, "{:>4} {word}", played + 1);
        }
        if !main {
            if reason.is_none() {
                self.record.lose("a variation's ending with no reason");
            }
            return;
        }
        let summary = match (word, outcome) {
            (_, Some(Outcome::Win(c))) => format!("{}の勝ち", side(c)),
            (Some(w @ ("千日手" | "持将棋" | "中断")), _) => w.to_owned(),
            _ => return,
        };
        let _ = writeln!(self.record.text, "まで{played}手で{summary}");
    }
}

/// A move as KIF writes it, played in `state` after a move to `before`: the square (or `同　`
/// for `before`'s), the piece as it stands before moving, `成` for a promotion, and where it
/// came from (`(77)`) or `打` for a drop.
pub(super) fn move_text(state: &State, mv: Move, before: Option<Square>) -> String {
    let to = mv.to();
    let mut text = if before == Some(to) { "同　".to_owned() } else { square(to) };
    match mv {
        Move::Board { from, promote, .. } => {
            let piece = state.piece_at(from).map_or_else(|| "？".to_owned(), |p| name(p.kind, p.promoted));
            let _ = write!(text, "{piece}{}({}{})", if promote { "成" } else { "" }, from.file(), from.rank());
        }
        Move::Drop { kind, .. } => {
            let _ = write!(text, "{}打", name(kind, false));
        }
    }
    text
}

/// A legal move of `state` as KI2 writes it after a move to `before`: the mover's mark, the
/// square or `同　`, the piece, the JSA's words that tell it from others of its kind, then
/// `成`, `不成` where it could promote and does not, or `打` where a piece on the board could
/// make the move too.
pub(super) fn ki2_move_text(state: &State, mv: Move, before: Option<Square>) -> String {
    let side = state.side();
    let to = mv.to();
    let mut text = String::from(if side == Color::Black { "▲" } else { "△" });
    text.push_str(&if before == Some(to) { "同　".to_owned() } else { square(to) });
    match mv {
        Move::Board { from, promote, .. } => {
            let Some(piece) = state.piece_at(from) else { return text };
            text.push_str(&name(piece.kind, piece.promoted));
            text.push_str(&relative::jsa_of(state, piece, mv).kanji());
            let zone = |sq: Square| sq.rank_from(side) <= 3;
            if promote {
                text.push('成');
            } else if piece.kind.can_promote() && !piece.promoted && (zone(from) || zone(to)) {
                text.push_str("不成");
            }
        }
        Move::Drop { kind, .. } => {
            text.push_str(&name(kind, false));
            let piece = Piece { color: side, kind, promoted: false };
            if !relative::candidates(state, piece, to).is_empty() {
                text.push('打');
            }
        }
    }
    text
}

/// A square as KIF writes it: a full-width file digit and a kanji rank (`７六`).
pub(super) fn square(square: Square) -> String {
    const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
    let file = FILES[usize::from(square.file() - 1)];
    format!("{file}{}", kanji::number(u32::from(square.rank())))
}

/// A piece's name in a move: one or two kanji (`成銀`, where a diagram writes `全`).
pub(super) fn name(kind: PieceKind, promoted: bool) -> String {
    match (kind, promoted) {
        (PieceKind::Lance, true) => "成香".to_owned(),
        (PieceKind::Knight, true) => "成桂".to_owned(),
        (PieceKind::Silver, true) => "成銀".to_owned(),
        _ => kanji::piece(kind, promoted).to_string(),
    }
}

/// The columns `text` takes: two for a full-width character, one for any other.
fn columns(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() || ('\u{FF61}'..='\u{FF9F}').contains(&c) { 1 } else { 2 }).sum()
}

/// A total time, `hh:mm:ss`.
fn clock(total: Duration) -> String {
    let s = total.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `start` as a board diagram: White's hand, the board framed with its files and ranks, Black's
/// hand, and `後手番` when White moves first.
fn diagram(out: &mut String, start: &Position) {
    hand(out, "後手の持駒", start, Color::White);
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|sq| start.board.get(sq)) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(kanji::piece(p.kind, p.promoted));
                }
            }
        }
        let _ = writeln!(out, "|{}", kanji::number(u32::from(rank)));
    }
    out.push_str("+---------------------------+\n");
    hand(out, "先手の持駒", start, Color::Black);
    if start.side == Color::White {
        out.push_str("後手番\n");
    }
}

/// A hand in a board diagram: `飛　歩二　`, or `なし`.
fn hand(out: &mut String, key: &str, start: &Position, color: Color) {
    const ORDER: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];
    let held = start.hand(color);
    let mut pieces = String::new();
    for kind in ORDER {
        let n = held.count(kind);
        if n > 0 {
            let count = if n > 1 { kanji::number(n) } else { String::new() };
            let _ = write!(pieces, "{}{count}　", kanji::piece(kind, false));
        }
    }
    let _ = writeln!(out, "{key}：{}", if pieces.is_empty() { "なし" } else { &pieces });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        sfen.parse().expect("SFEN")
    }

    #[test]
    fn moves_name_square_piece_promotion_and_origin() {
        let state = State::new(&Position::startpos());
        let mv = |usi: &str| Move::from_usi(usi).expect("USI move");
        assert_eq!(move_text(&state, mv("7g7f"), None), "７六歩(77)");
        assert_eq!(move_text(&state, mv("8h2b+"), None), "２二角成(88)");
        assert_eq!(move_text(&state, mv("8h2b+"), Square::parse("2b")), "同　角成(88)");
        let drops = State::new(&position("4k4/9/9/9/9/9/9/9/4K4 b S 1"));
        assert_eq!(move_text(&drops, mv("S*5b"), None), "５二銀打");
        let promoted = State::new(&position("4k4/9/9/9/9/9/9/4+S4/4K4 b - 1"));
        assert_eq!(move_text(&promoted, mv("5h4g"), None), "４七成銀(58)");
    }

    #[test]
    fn handicaps_are_named_and_other_starts_drawn() {
        assert_eq!(handicap_of(&Position::startpos()), Some("平手"));
        assert_eq!(
            handicap_of(&position("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")),
            Some("飛車落ち")
        );
        let tsume = position("4k4/9/4P4/9/9/9/9/9/9 b 2G2p 1");
        assert_eq!(handicap_of(&tsume), None);
        let mut out = String::new();
        diagram(&mut out, &tsume);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "後手の持駒：歩二　");
        assert_eq!(lines[3], "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一");
        assert_eq!(lines[5], "| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三");
        assert_eq!(lines[13], "先手の持駒：金二　");
        assert_eq!(lines.len(), 14, "Black moves first: no 後手番 line");
    }

    #[test]
    fn a_header_is_written_only_when_it_reads_back() {
        let mut game = Game::new(Position::STARTPOS);
        game.headers = vec![
            ("\u{3000}ck".into(), "Engine A".into()),
            ("*note".into(), "x".into()),
            ("変化".into(), "3手".into()),
            ("Event".into(), "名人戦\n第1局".into()),
            ("作者".into(), "kifu".into()),
        ];
        let written = write(&game, "UTF-8");
        assert!(written.text.contains("棋戦：名人戦\n") && written.text.contains("作者：kifu\n"), "{}", written.text);
        assert!(!written.text.contains("ck：") && !written.text.contains("*note") && !written.text.contains("変化"));
        assert_eq!(written.lost.len(), 2, "{:?}", written.lost);
    }

    #[test]
    fn times_are_aligned_and_padded() {
        let mut w = Writer { record: Record { text: String::new(), lost: Vec::new() }, ki2: false, row: 0 };
        let t = |s| Some(Duration::from_secs(s));
        w.time("７六歩(77)", Some(MoveTime { spent: t(28), total: t(28) }));
        w.time("８二桂打", Some(MoveTime { spent: t(767), total: t(3 * 3600 + 795) }));
        assert_eq!(w.record.text, "   ( 0:28/00:00:28)     (12:47/03:13:15)");
        w.time("投了", Some(MoveTime { spent: t(1), total: None }));
        assert_eq!(w.record.lost.len(), 1);
    }
}

/// The games of the corpus beside the repository, written as KIF by tsshogi (a reader of
/// another library read each back exactly): written again here from their truth, every move
/// line, time, comment and variation heading is the same.
#[cfg(test)]
pub(crate) mod corpus {
    use std::fs;

    use serde_json::Value;

    use super::*;
    use crate::shogi::{EndReason, Ending};

    fn line(moves: &Value, mut state: State) -> Vec<Node> {
        let mut nodes = Vec::new();
        for usi in moves.as_array().expect("moves").iter().filter_map(Value::as_str) {
            let mv = Move::from_usi(usi).expect("a USI move");
            nodes.push(Node::new(mv));
            state.play(mv).expect("a legal move");
        }
        nodes
    }

    /// The game `truth` describes: its start, header, main line with times and comments, its
    /// variations (each replacing the move of its ply, or of its offset in the line above) and
    /// its ending.
    pub(crate) fn game_of(truth: &Value) -> Game {
        let start: Position = truth["sfen"].as_str().expect("sfen").parse().expect("SFEN");
        let mut game = Game::new(start.clone());
        for (key, value) in truth["header"].as_object().expect("header") {
            game.headers.push((key.clone(), value.as_str().unwrap_or_default().to_owned()));
        }
        game.comments.extend(truth["initial_comment"].as_str().map(str::to_owned));
        game.moves = line(&truth["moves"], State::new(&start));
        let mut totals = [0u64; 2];
        let mut side = start.side;
        for (node, ms) in game.moves.iter_mut().zip(truth["ms"].as_array().expect("ms")) {
            let ms = ms.as_u64().expect("ms");
            totals[side.index()] += ms;
            let total = Duration::from_millis(totals[side.index()]);
            node.time = Some(MoveTime { spent: Some(Duration::from_millis(ms)), total: Some(total) });
            side = side.opponent();
        }
        for (ply, text) in truth["comments"].as_object().expect("comments") {
            let ply: usize = ply.parse().expect("a ply");
            game.moves[ply - 1].comments.push(text.as_str().expect("text").to_owned());
        }
        for variation in truth["variations"].as_array().expect("variations") {
            let ply = usize::try_from(variation["ply"].as_u64().expect("ply")).expect("ply");
            let mut state = State::new(&start);
            game.main_line().take(ply - 1).for_each(|mv| state.play_unchecked(mv));
            let mut nodes = line(&variation["usi"], state);
            for sub in variation["sub"].as_array().expect("sub") {
                // The offset counts the line's moves from one.
                let offset = usize::try_from(sub["offset"].as_u64().expect("offset")).expect("offset") - 1;
                let mut at = state;
                nodes.iter().take(offset).for_each(|n| at.play_unchecked(n.mv));
                let sub_line = line(&sub["usi"], at);
                nodes[offset].variations.push(sub_line.into());
            }
            game.moves[ply - 1].variations.push(nodes.into());
        }
        let reason = match truth["terminal"].as_str() {
            Some("TORYO") => Some(EndReason::Resignation),
            Some("SENNICHITE") => Some(EndReason::Repetition),
            Some("TSUMI") => Some(EndReason::Checkmate),
            Some("CHUDAN") => Some(EndReason::Interrupted),
            Some("TIME_UP") => Some(EndReason::TimeUp),
            _ => None,
        };
        game.ending = reason.map(|reason| Ending { reason: Some(reason), outcome: None });
        game
    }

    /// The lines of a KIF record from its first move on, but the `まで` summary, without
    /// spaces, and without the times of endings and of moves that took none (tsshogi writes a
    /// variation's moves as taking none).
    fn moves_of(text: &str) -> Vec<String> {
        let from = text.find("手数----").expect("the moves' heading");
        let mut lines = Vec::new();
        for line in text[from..].lines().skip(1).filter(|l| !l.trim().is_empty() && !l.starts_with("まで")) {
            let (body, mark) = line.strip_suffix('+').map_or((line, ""), |b| (b, "+"));
            let time = body.rfind('(').filter(|&at| body[at..].contains(':'));
            let (mv, time) = time.map_or((body, ""), |at| (&body[..at], &body[at..]));
            let mv = mv.trim_end();
            let moved = mv.ends_with(')') || mv.ends_with('打');
            let time = if moved && !time.replace(' ', "").starts_with("(0:00/") { time } else { "" };
            lines.push(format!("{mv}{time}{mark}").split_whitespace().collect());
        }
        lines
    }

    #[test]
    fn games_are_written_as_tsshogi_writes_them() {
        let Some(dir) = crate::corpus::path("corpus/kifcsa/generated") else { return };
        let manifest = fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
        let mut checked = 0;
        for row in manifest.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let [id, "kif", file, writer, encoding, ..] = fields[..] else { continue };
            if !writer.starts_with("tsshogi") {
                continue;
            }
            let bytes = fs::read(dir.join(file)).expect(file);
            let theirs = match encoding {
                "utf-8" => String::from_utf8(bytes).expect("UTF-8"),
                _ => encoding_rs::SHIFT_JIS.decode(&bytes).0.into_owned(),
            };
            let truth: Value =
                serde_json::from_str(&fs::read_to_string(dir.join(format!("truth/{id}.json"))).expect("truth"))
                    .expect("JSON");
            let ours = write(&game_of(&truth), "UTF-8").text;
            assert_eq!(moves_of(&ours), moves_of(&theirs), "{file}");
            checked += 1;
        }
        crate::corpus::at_least("KIF files written by tsshogi", checked, 120);
    }
}
