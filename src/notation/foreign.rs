//! Lines that are not records of the format being read, and what they look like instead.
//!
//! A record with a slip or two in it is reported fault by fault, each with its repair. A line
//! that no slip explains — a chess FEN in an SFEN file, a USI command, a line of a KIF or CSA
//! game, a JSON object, a sentence — gets one report instead ([`report`]), which names what it
//! looks like and what to do. Telling the two apart takes a pass or two over the line's
//! characters, so such a line costs about what a valid record costs.
//!
//! A line is not a record of a format ([`line()`]) when
//!
//! * six of its ranks or more are as wide as the other game's (eight squares for a chess
//!   board, nine for a shogi one): a chess FEN or EPD record in an SFEN file, an SFEN record in
//!   a FEN or EPD file; or
//! * fewer than five of its ranks are as wide as the format's, and the fields where the record
//!   would stand hold three different runs or more of characters the format's grammar never
//!   writes (after look-alikes are read as what they look like); or
//! * the line lacks three or more of the `/` of a record's board (and no other character stands
//!   for them), and holds three such characters or more, or none of its fields has a `/` and the
//!   first holds such a character.
//!
//! A slip writes, removes or changes one character: it leaves at most one such character,
//! takes one `/` at most, and changes the width of two ranks at most. So a line one or two slips
//! from a record is never taken for something else (a test checks thousands of such lines).

use crate::diagnostic::{Code, Diagnostic};
use crate::notation::lookalike;
use crate::span::Span;

/// A record format kifu recognises but does not read (yet): named so that such a file gets one
/// clear report instead of a wall of syntax errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unread {
    /// PGN, chess games (`.pgn`).
    Pgn,
}

impl Unread {
    /// The format a file name's extension names, if it is one of these.
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "pgn" => Self::Pgn,
            _ => return None,
        })
    }

    /// The format the start of a text is evidently written in, if it is one of these: PGN's
    /// seven tags. (A KIF, KI2 or CSA text is one kifu reads.)
    pub fn from_text(text: &str) -> Option<Self> {
        if is_kif(text) || is_csa(text) {
            return None;
        }
        let lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).take(40);
        for line in lines {
            if ["[Event \"", "[Site \"", "[White \"", "[Black \""].iter().any(|t| line.starts_with(t)) {
                return Some(Self::Pgn);
            }
        }
        None
    }

    /// The format's name: `PGN`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pgn => "PGN",
        }
    }

    /// What to do instead of checking a record in this format with kifu.
    pub fn instead(self) -> &'static str {
        match self {
            Self::Pgn => "kifu reads chess positions as FEN, EPD or JSON, not chess games",
        }
    }

    /// What a user should know of `file` in this format: that kifu does not read it, and what to
    /// do instead.
    pub fn message(self, file: &str) -> String {
        let name = self.name();
        format!("`{file}` is a {name} game record: kifu does not read {name} yet; {}", self.instead())
    }

    /// What a single line of a game record evidently is: a line with Japanese words or marks
    /// (KIF's or KI2's: `▲７六歩`), or a CSA line — a move
    /// (`+7776FU`), a time (`T12`), an ending (`%TORYO`), a version, a name, a start position or
    /// an information line (`V2.2`, `N+…`, `PI`, `P1-KY…`, `P+…`, `$EVENT:…`), or a comment
    /// (`'…`).
    pub fn from_line(line: &str) -> Option<Looks> {
        let japanese = |c: char| {
            matches!(c as u32, 0x3040..=0x30FF | 0x4E00..=0x9FFF | 0xFF1A) || matches!(c, '▲' | '△' | '☗' | '☖')
        };
        if line.chars().any(japanese) {
            return Some(Looks::Kif);
        }
        let b = line.as_bytes();
        let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
        let upper = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_uppercase));
        let csa = match b.first() {
            Some(b'+' | b'-') => b.len() == 1 || (digits(1..5) && upper(5..7)),
            Some(b'T') => b.len() > 1 && digits(1..b.len()),
            Some(b'%') => upper(1..b.len().max(2)),
            Some(b'V') => b.get(1).is_some_and(u8::is_ascii_digit),
            Some(b'N') => matches!(b.get(1), Some(b'+' | b'-')),
            Some(b'P') => matches!(b.get(1), Some(b'I' | b'+' | b'-' | b'1'..=b'9')),
            Some(b'$') => line.contains(':'),
            Some(b'\'') => true,
            _ => false,
        };
        csa.then_some(Looks::Csa)
    }
}

/// True when `text` starts as a CSA record does: a version line (`V2.2`), `PI`, or a first row
/// of the start position (`P1-KY`) among its first lines.
pub fn is_csa(text: &str) -> bool {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).take(40).any(|line| {
        matches!(line, "V1" | "V2" | "V2.1" | "V2.2" | "V3.0" | "PI") || line.starts_with("P1-KY") || line.starts_with("'CSA encoding=")
    })
}

/// True when `text` starts as a KIF or KI2 record does: its moves' heading (`手数----`), a
/// header KIF names (`手合割：`, `先手：`, `後手：`, `開始日時：`, `棋戦：`), a KI2 move
/// (`▲７六歩`) or a numbered KIF move (`   1 ７六歩(77)`) in its first lines.
pub fn is_kif(text: &str) -> bool {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).take(60).any(|line| {
        line.starts_with("手数----")
            || ["手合割：", "先手：", "後手：", "開始日時：", "棋戦："].iter().any(|w| line.starts_with(w))
            || line.starts_with(['▲', '△', '☗', '☖', '▼', '▽'])
            || line.split_once(' ').is_some_and(|(n, rest)| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && rest.trim_start().starts_with(|c: char| ('１'..='９').contains(&c) || c == '同')
            })
    })
}

/// What a line that is not a record looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Looks {
    /// A chess FEN (six fields).
    Fen,
    /// A chess EPD record (four fields, and operations).
    Epd,
    /// An SFEN record.
    Sfen,
    /// A line of a PSN game record: a header or numbered moves.
    Psn,
    /// JSON.
    Json,
    /// A line of a KIF or KI2 game record.
    Kif,
    /// A line of a CSA game record.
    Csa,
    /// A line of a game record in a format kifu does not read: PGN.
    Unread(Unread),
    /// A command of USI, the protocol between shogi programs (`go`, `usi`, `bestmove …`).
    Usi,
    /// Anything else: words, numbers, symbols.
    Text,
}

impl Looks {
    /// What the line is, in words: "a chess FEN", "a line of a CSA game record", "text".
    pub fn what(self) -> &'static str {
        match self {
            Self::Fen => "a chess FEN",
            Self::Epd => "a chess EPD record",
            Self::Sfen => "an SFEN record",
            Self::Psn => "a line of a PSN game record",
            Self::Json => "JSON",
            Self::Kif => "a line of a KIF or KI2 game record",
            Self::Csa => "a line of a CSA game record",
            Self::Unread(Unread::Pgn) => "a line of a PGN game record",
            Self::Usi => "a USI command",
            Self::Text => "text",
        }
    }

    /// The `--format` that reads such lines, when kifu reads them.
    pub fn format_name(self) -> Option<&'static str> {
        match self {
            Self::Fen => Some("fen"),
            Self::Epd => Some("epd"),
            Self::Sfen => Some("sfen"),
            Self::Psn => Some("psn"),
            Self::Json => Some("json"),
            Self::Kif => Some("kif"),
            Self::Csa => Some("csa"),
            _ => None,
        }
    }

    /// What to do with such a line, read as `format`.
    fn help(self, format: &Shape) -> String {
        if let Some(name) = self.format_name() {
            let what = match self {
                Self::Fen | Self::Epd => "chess positions",
                Self::Sfen => "shogi positions",
                Self::Psn => "shogi games",
                Self::Kif => "KIF game records",
                Self::Csa => "CSA game records",
                _ => "JSON positions",
            };
            let game = match (self, format.chess()) {
                (Self::Fen | Self::Epd, false) => ": an SFEN record is a shogi position",
                (Self::Sfen, true) => ": a FEN record is a chess position",
                _ => "",
            };
            return format!("check {what} with `--format {name}`{game}");
        }
        match self {
            Self::Unread(unread) => format!("kifu does not read {} yet: {}", unread.name(), unread.instead()),
            Self::Usi => format!(
                "an SFEN record is what follows `position sfen` in a USI command: write the record alone, as in `{}`",
                format.example
            ),
            _ => format!(
                "{} files hold one record a line: remove the line, or write a record there, as in `{}`",
                format.title, format.example
            ),
        }
    }
}

/// What a line format's records look like, as far as telling them from other lines goes, and
/// the words of its report.
pub struct Shape {
    /// The characters its record rule writes in the fields of a record: `alphabet[b]` for ASCII
    /// `b`.
    pub alphabet: [bool; 128],
    /// How many fields a record has at most (operations after them are EPD's own).
    pub fields: usize,
    /// How many squares a rank covers (and ranks a board has).
    pub width: u32,
    /// True when a record may stand in a USI command (`position sfen …`, `startpos`).
    pub usi: bool,
    /// The code of the report.
    pub code: Code,
    /// The format's title: `SFEN`, `FEN`, `EPD`, `Chess960 FEN`.
    pub title: &'static str,
    /// A valid record, for help texts.
    pub example: &'static str,
}

impl Shape {
    /// True for a chess format (eight ranks of eight squares), false for shogi (nine of nine).
    fn chess(&self) -> bool {
        self.width == 8
    }
}

/// The characters some text of a rule holds (its automaton's [`alphabet`]), as a table.
///
/// [`alphabet`]: crate::notation::grammar::RuleDfa::alphabet
pub fn alphabet_of(dfa: Option<&crate::notation::grammar::RuleDfa>) -> [bool; 128] {
    let mut mask = [false; 128];
    for &b in dfa.map_or(&[][..], |d| d.alphabet()) {
        mask[usize::from(b)] = true;
    }
    mask
}

/// The words a USI command starts with (USI's own, and those of the engine's replies).
const USI_WORDS: &[&str] = &[
    "usi",
    "isready",
    "setoption",
    "usinewgame",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "gameover",
    "bestmove",
    "info",
    "id",
    "option",
    "usiok",
    "readyok",
    "checkmate",
];

/// What `text`, a line the record rule of `shape`'s format does not read, is instead, when no
/// slip of a record explains it; `None` for a record with faults, and for the lines the record's
/// reader has a report of its own for (an empty line, USI's `startpos`).
pub fn line(text: &str, shape: &Shape) -> Option<Looks> {
    let tokens = crate::notation::fields::Tokens::shipped()?;
    let (fields, _) = tokens.split(text)?;
    let mut first = 0;
    if shape.usi {
        // `position sfen …` is a record in its USI command, and `startpos` a name for one: the
        // record's reader reports both.
        while fields.get(first).is_some_and(|f| matches!(f.slice(text), "position" | "sfen")) {
            first += 1;
        }
        if fields.get(first).is_some_and(|f| f.slice(text) == "startpos") {
            return (first + 1 < fields.len()).then_some(Looks::Usi);
        }
    }
    let rest = fields.get(first..).filter(|f| !f.is_empty())?;
    let slashes = text.bytes().filter(|&b| b == b'/').count();
    let own = shape.width as usize - 1;
    // The other game's board, with any gap a slip put in it: up to the end of its last rank.
    let record = text.get(rest[0].start..rest[rest.len() - 1].end)?;
    let end = record.rfind('/').map_or(0, |at| at + record[at..].find([' ', '\t', '_']).unwrap_or(record.len() - at));
    let chess = shape.chess();
    if other_board(&record[..end], if chess { 9 } else { 8 }) {
        // A chess record is a FEN when a halfmove clock follows its four fields, an EPD record
        // when operations or nothing do.
        let epd = match rest.get(4) {
            Some(fifth) => !fifth.slice(text).bytes().all(|b| b.is_ascii_digit()),
            None => rest.len() == 4,
        };
        return Some(match (chess, epd) {
            (true, _) => Looks::Sfen,
            (false, true) => Looks::Epd,
            (false, false) => Looks::Fen,
        });
    }
    // A board with five ranks or more of the format's width is a record's, whatever else the
    // line holds (a variant's pieces and pockets, a comment).
    if ranks_of_width(&record[..end], shape.width) >= 5 {
        return None;
    }
    // The record stands from its board, the first field with a `/`, when there is one.
    let board = rest.iter().position(|f| f.slice(text).contains('/'));
    let mut strange = Strange::default();
    for field in rest[board.unwrap_or(0)..].iter().take(shape.fields) {
        strange.add(field.slice(text), &shape.alphabet);
    }
    // Two slips leave a record's board with all its `/` but two, or as many of a character
    // written for each.
    let no_board = slashes + 2 < own && {
        let mut line = Strange::default();
        rest.iter().for_each(|f| line.add(f.slice(text), &shape.alphabet));
        let mut first = Strange::default();
        first.add(rest[0].slice(text), &shape.alphabet);
        let separated = first.most_repeated() + 2 >= own;
        !separated && (line.chars.len() >= 3 || (board.is_none() && !first.chars.is_empty()))
    };
    (strange.runs.len() >= 3 || no_board).then(|| looks_like(text, rest, shape))
}

/// True for a board field of the other game: six of its ranks or more cover `width` squares.
pub fn other_board(board: &str, width: u32) -> bool {
    ranks_of_width(board, width) >= 6
}

/// How many ranks of a board field cover `width` squares (a digit its value, `+` none, any
/// other character one).
fn ranks_of_width(board: &str, width: u32) -> usize {
    let wide =
        |rank: &str| rank.chars().filter(|&c| c != '+').map(|c| c.to_digit(10).unwrap_or(1)).sum::<u32>() == width;
    board.split('/').filter(|rank| wide(rank)).count()
}

/// The characters of a text outside a format's alphabet, each read as the ASCII one it looks
/// like: the runs they make and the characters, each counted once (a character written for
/// every `/` is one fault), and how often each is written.
#[derive(Default)]
struct Strange<'a> {
    runs: Vec<&'a str>,
    chars: Vec<(char, usize)>,
}

impl<'a> Strange<'a> {
    fn add(&mut self, field: &'a str, alphabet: &[bool; 128]) {
        let mut run: Option<usize> = None;
        let end = |start: Option<usize>, at: usize, runs: &mut Vec<&'a str>| {
            if let Some(start) = start {
                let r = &field[start..at];
                if !runs.contains(&r) {
                    runs.push(r);
                }
            }
        };
        for (at, c) in field.char_indices() {
            let c = if c.is_ascii() { c } else { lookalike::ascii_for(c).unwrap_or(c) };
            if c.is_ascii() && alphabet[c as usize] {
                end(run.take(), at, &mut self.runs);
                continue;
            }
            run.get_or_insert(at);
            match self.chars.iter_mut().find(|(known, _)| *known == c) {
                Some((_, n)) => *n += 1,
                None => self.chars.push((c, 1)),
            }
        }
        end(run, field.len(), &mut self.runs);
    }

    /// How often the most written of the characters is written.
    fn most_repeated(&self) -> usize {
        self.chars.iter().map(|&(_, n)| n).max().unwrap_or(0)
    }
}

/// What the line `text`, whose fields are `fields`, looks like, read as `shape`'s format.
fn looks_like(text: &str, fields: &[Span], shape: &Shape) -> Looks {
    let first = fields[0].slice(text);
    let line = &text[fields[0].start..];
    let chess = shape.chess();
    let numbered = first.strip_suffix('.').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if line.starts_with('{') || (line.starts_with('[') && line.ends_with(']') && !line.contains('"')) {
        Looks::Json
    } else if line.starts_with('[') || numbered {
        // A header or a numbered move: a game record's.
        if chess {
            Looks::Unread(Unread::Pgn)
        } else {
            Looks::Psn
        }
    } else if let Some(looks) = Unread::from_line(line) {
        looks
    } else if USI_WORDS.contains(&first) || first == "position" {
        Looks::Usi
    } else {
        Looks::Text
    }
}

/// "an SFEN record", "a FEN record", "an EPD record".
fn a_record(title: &str) -> String {
    let article = if title.starts_with(['S', 'E']) { "an" } else { "a" };
    format!("{article} {title} record")
}

/// The report of `text`, a line that is not a record of `shape`'s format but `looks` like
/// something else; with `lines`, the report for a file whose first `lines` lines are all such,
/// which stands for all of them. Its label covers the line, less the white space around it.
pub fn report(text: &str, shape: &Shape, looks: Looks, lines: Option<usize>) -> Diagnostic {
    let trimmed = text.trim_end_matches(char::is_whitespace);
    let start = trimmed.len() - trimmed.trim_start_matches(char::is_whitespace).len();
    let span = Span::new(start, trimmed.len());
    let what = looks.what();
    let message = match (looks, lines) {
        (Looks::Text, None) => format!("this line is not {}", a_record(shape.title)),
        (_, None) => format!("this line is not {}: it looks like {what}", a_record(shape.title)),
        (Looks::Text, Some(n)) => {
            format!("this file does not hold {} records: none of its first {n} lines is one", shape.title)
        }
        (_, Some(n)) => {
            format!("this file does not hold {} records: each of its first {n} lines looks like {what}", shape.title)
        }
    };
    let label = match looks {
        Looks::Text => "not a record, and no slip of one".to_owned(),
        _ => what.to_owned(),
    };
    let mut help = looks.help(shape);
    if lines.is_some() {
        help.push_str("; the other lines like these are counted, not shown");
    }
    Diagnostic::error(shape.code, span, message).label(label).help(help)
}
