//! JKF, the JSON Kifu Format that web boards and apps exchange (`.jkf`: json-kifu-format,
//! Kifu for JS, ShogiHome), read and checked ([`check_bytes`]) and written ([`write()`]) as its
//! JSON Schema (`json-kifu-format.schema.json`) defines it.
//!
//! A record is a JSON object: its `header` (KIF's keys and their values), its start
//! (`initial`: a handicap's name, or `OTHER` and the board, hands and side to move) and its
//! `moves`: the first entry holds the comments on the start, each other a move
//! (`{"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}`), its time,
//! comments and the lines played instead of it (`forks`), or an end (`"special": "TORYO"`).
//!
//! Data flows one way: the JSON is read with the span of every value, each part into the
//! schema's types (every value the schema does not allow is reported at its place, with its
//! path: `moves[3].move.piece`), and every line replayed with the full rules of shogi into a
//! [`Game`]: what a move says beside its squares (`piece`, `same`, `capture`, `promote`,
//! `relative`) must agree with the position.
//!
//! ```
//! let record = r#"{"header": {}, "moves": [{}, {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}}, {"special": "TORYO"}]}"#;
//! let read = kifu::jkf::check_bytes(record.as_bytes());
//! assert!(read.is_valid(), "{:?}", read.diagnostics);
//! assert_eq!(read.game.expect("a game").to_usi(), "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f");
//! ```

mod de;
pub(crate) mod notation;
mod read;
mod schema;
pub(crate) mod write;

pub use write::write;

#[cfg(feature = "views")]
pub(crate) use read::position_at;
#[cfg(feature = "cli")]
pub(crate) use read::MAX_BYTES;
pub use read::MAX_FINDINGS;

use crate::diagnostic::{codes, Diagnostic};
use crate::input::decode::Encoding;
use crate::shogi::Game;
use crate::span::Span;

/// A JKF record read and checked.
#[derive(Clone, Debug)]
pub struct CheckedJkf {
    /// Its text; the findings' spans are in it.
    pub text: String,
    /// The game, when its start could be set up: its lines end where a move could not be
    /// played.
    pub game: Option<Game>,
    /// Every finding, in the order of the text.
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedJkf {
    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Reads and checks a JKF record's text.
pub(crate) fn check_text(text: &str) -> (Option<Game>, Vec<Diagnostic>) {
    read::read(text)
}

/// Reads and checks a JKF record's bytes: UTF-8, as JKF is written (with or without a
/// byte-order mark); bytes that are not UTF-8 are an error, read as `\u{FFFD}`.
pub fn check_bytes(bytes: &[u8]) -> CheckedJkf {
    let (text, bad) = decode(bytes);
    let (game, mut diagnostics) = read::read(&text);
    if let Some(at) = bad {
        let d = Diagnostic::error(
            codes::jkf::BAD_BYTES,
            Span::new(at, at + '\u{FFFD}'.len_utf8()),
            "bytes that are not UTF-8",
        )
        .label("not UTF-8")
        .help("a JKF record is JSON in UTF-8: save the file as UTF-8");
        diagnostics.insert(0, d);
    }
    CheckedJkf { text, game, diagnostics }
}

/// The text of a record's bytes (a byte-order mark kept: the JSON reader reads it as
/// whitespace), and where the first bytes that are not UTF-8 are, if any.
pub(crate) fn decode(bytes: &[u8]) -> (String, Option<usize>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_owned(), None),
        Err(e) => (String::from_utf8_lossy(bytes).into_owned(), Some(e.valid_up_to())),
    }
}

/// The encoding JKF is read in.
pub(crate) const ENCODING: Encoding = Encoding::Utf8;
