//! CSA, the game records of the Computer Shogi Association's standard (`.csa`, versions 2.2
//! and 3.0, and the 1997 format without a version) that shogi engines, the floodgate server
//! and the computer-shogi championships write, read and checked ([`check_bytes`]).
//!
//! A record is its version (`V2.2`), the players' names (`N+`, `N-`), information lines
//! (`$EVENT:…`), the start position (`PI`, the nine rows `P1`…`P9`, or pieces one by one with
//! `P+` and `P-`) and the side to move, then the moves (`+7776FU`, each with its time `T12`)
//! and the end (`%TORYO`). Statements may share a line, joined by commas; a file may hold
//! several records, separated by `/` lines.
//!
//! Data flows one way: the bytes are decoded (UTF-8, Shift_JIS or EUC-JP, told by the
//! content), each line is read by the grammar (`grammar/csa.pest`) into its statements, and
//! the statements of each record are read into a [`Game`], every move played with the full
//! rules of shogi.
//!
//! ```
//! let record = "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nT12\n-3334FU\nT6\n%TORYO\n";
//! let read = kifu::csa::check_bytes(record.as_bytes());
//! assert!(read.is_valid(), "{:?}", read.diagnostics);
//! let game = &read.games[0];
//! assert_eq!(game.to_usi(), "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d");
//! ```

mod fast;
pub(crate) mod notation;
machinery! { mod parser; }
#[cfg(feature = "views")]
mod probe;
mod read;
machinery! { mod syntax; }
pub(crate) mod write;

pub use write::{write, Version};

#[cfg(feature = "views")]
pub(crate) use probe::position_at;
pub use read::{MAX_BYTES, MAX_FINDINGS};

use crate::diagnostic::{codes, Applicability, Diagnostic, Fix};
pub use crate::input::decode::Encoding;
use crate::shogi::Game;
use crate::span::Span;

/// A CSA file read and checked.
#[derive(Clone, Debug)]
pub struct CheckedCsa {
    /// The encoding it was read in.
    pub encoding: Encoding,
    /// Its text; the findings' spans are in it.
    pub text: String,
    /// Its games, one a record whose start could be set up: each ends where a move could not
    /// be played.
    pub games: Vec<Game>,
    /// Every finding, in the order of the text.
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedCsa {
    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Reads and checks a CSA text: its games and findings.
pub fn check_text(text: &str) -> (Vec<Game>, Vec<Diagnostic>) {
    read::read(text)
}

/// Reads and checks a CSA file's bytes, in the encoding its content tells (UTF-8, with or
/// without a byte-order mark, Shift_JIS or EUC-JP).
pub fn check_bytes(bytes: &[u8]) -> CheckedCsa {
    let (text, encoding, records, diagnostics) = read_bytes(bytes);
    let games = records.into_iter().filter_map(|r| r.game).collect();
    CheckedCsa { encoding, text, games, diagnostics: read::bounded(diagnostics) }
}

/// A CSA file read: its text, its encoding, its records (each with the line it starts on and
/// its first error) and its findings, at most [`MAX_FINDINGS`] of them.
#[cfg(feature = "cli")]
pub(crate) struct FileRead {
    pub text: String,
    pub encoding: Encoding,
    pub records: Vec<read::RecordRead>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a CSA file's bytes into its records, its findings as `select` keeps them (a
/// selection of codes; before they are bounded, so that each record's first error is found).
#[cfg(feature = "cli")]
pub(crate) fn read_file(bytes: &[u8], select: impl FnOnce(&mut Vec<Diagnostic>)) -> FileRead {
    let (text, encoding, mut records, mut diagnostics) = read_bytes(bytes);
    select(&mut diagnostics);
    diagnostics.sort_by_key(|d| d.span().start);
    read::first_errors(&text, &mut records, &diagnostics);
    FileRead { text, encoding, records, diagnostics: read::bounded(diagnostics) }
}

/// A CSA file's bytes decoded and read: its text, encoding, records and every finding.
fn read_bytes(bytes: &[u8]) -> (String, Encoding, Vec<read::RecordRead>, Vec<Diagnostic>) {
    let (text, encoding, bad) = crate::input::decode::decode_japanese(bytes);
    let (records, mut diagnostics) = read::read_records(&text);
    if let Some(at) = bad {
        let d = Diagnostic::error(codes::csa::BAD_BYTES, Span::new(at, at + '\u{FFFD}'.len_utf8()), "bytes that are not text")
            .label(format!("not {}", encoding.name()))
            .help("a CSA record is text in Shift_JIS or UTF-8 (V3.0 names it on its first line, `'CSA encoding=UTF-8`): these bytes are neither, and are read as `\u{FFFD}`");
        diagnostics.insert(0, d);
    } else if let Some(d) = encoding_note(&text, encoding) {
        diagnostics.insert(0, d);
    }
    (text, encoding, records, diagnostics)
}

/// The warning of a file whose first line, `'CSA encoding=…`, names another encoding than the
/// one it is in (and that has characters the two encodings write differently), with the
/// name of the one it is in as a safe fix.
pub(crate) fn encoding_note(text: &str, encoding: Encoding) -> Option<Diagnostic> {
    const LINE: &str = "'CSA encoding=";
    let first = text.lines().next()?.strip_prefix(LINE)?;
    let says = first.trim_end_matches([' ', '\t', '\r']);
    let span = Span::new(LINE.len(), LINE.len() + says.len());
    if encoding.is_named(says) || text.is_ascii() {
        return None;
    }
    // The CSA standard's spelling of the two encodings it names.
    let name = match encoding {
        Encoding::ShiftJis => "SHIFT_JIS",
        Encoding::EucJp => "EUC-JP",
        _ => "UTF-8",
    };
    Some(
        Diagnostic::warning(codes::csa::ENCODING, span, format!("the file says it is in {says}, but it is in {}", encoding.name()))
            .label(format!("read as {}", encoding.name()))
            .help(format!("programs read a CSA file in the encoding its first line names, and show garbled text when it is not the one the file is in: name `{name}` there"))
            .fix(Fix::replace(span, name, Applicability::Safe)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoding_findings(bytes: &[u8]) -> Vec<(String, String)> {
        let checked = check_bytes(bytes);
        let text = &checked.text;
        checked
            .diagnostics
            .iter()
            .filter(|d| d.code == codes::csa::ENCODING)
            .map(|d| (d.span().slice(text).to_owned(), d.safe_fix().and_then(|f| f.apply(text)).unwrap_or_default()))
            .collect()
    }

    #[test]
    fn a_wrong_encoding_name_is_one_warning() {
        let utf8 = "'CSA encoding=SHIFT_JIS \nV3.0\nN+羽生\nPI\n+\n";
        let fixed = "'CSA encoding=UTF-8 \nV3.0\nN+羽生\nPI\n+\n";
        assert_eq!(encoding_findings(utf8.as_bytes()), [("SHIFT_JIS".to_owned(), fixed.to_owned())]);
        // A name that is no encoding is as wrong.
        let unknown = utf8.replace("SHIFT_JIS", "latin1");
        assert_eq!(encoding_findings(unknown.as_bytes()), [("latin1".to_owned(), fixed.to_owned())]);
        // Right, any spelling.
        assert_eq!(encoding_findings(fixed.replace("UTF-8", "utf8").as_bytes()), []);
        let sjis = encoding_rs::SHIFT_JIS.encode(&utf8.replace("SHIFT_JIS", "Shift_JIS")).0.into_owned();
        assert_eq!(encoding_findings(&sjis), []);
        // Wrong, but the file is ASCII: every program reads it alike.
        assert_eq!(encoding_findings(b"'CSA encoding=SHIFT_JIS\nV3.0\nPI\n+\n"), []);
        // Only the first line names the file's encoding.
        assert_eq!(encoding_findings(format!("V3.0\n{utf8}").as_bytes()), []);
    }
}
