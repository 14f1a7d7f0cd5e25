//! KIF, the game records of Kifu for Windows (柿木将棋) that most Japanese shogi software reads
//! and writes (`.kif` in Shift_JIS, `.kifu` in UTF-8), read and checked ([`check_bytes`]) and
//! written ([`write()`]) as the format's own page (`kif_format.html`, 棋譜ファイル KIF 形式)
//! describes them.
//!
//! A record is an optional `#KIF` line (its encoding), the header (`key：value`, the start as
//! `手合割` or as a board diagram), the move lines (`   1 ７六歩(77)   ( 0:01/00:00:01)`), each
//! move's `*` comments, the ending (`投了`, and `まで…` naming the winner), and each variation
//! as a `変化：N手` block after the main line.
//!
//! Data flows one way: the bytes are decoded (UTF-8, Shift_JIS or EUC-JP, told by the
//! content), each line is read by the grammar (`grammar/kif.pest`) into its parts, and the
//! lines are read into a [`Game`], every move played with the full rules of shogi.
//!
//! ```
//! let record = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let read = kifu::kif::check_bytes(record.as_bytes(), Some("kifu"));
//! assert!(read.is_valid(), "{:?}", read.diagnostics);
//! let game = read.game.expect("a game");
//! assert_eq!(game.to_usi(), "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d");
//! ```

pub(crate) mod notation;
machinery! { mod parser; }
mod read;
machinery! { mod syntax; }
mod fast;
pub(crate) mod write;

#[cfg(feature = "views")]
pub(crate) use read::position_at;
pub use read::{MAX_BYTES, MAX_DEPTH, MAX_FINDINGS, MAX_LINE};
#[cfg(feature = "cli")]
pub(crate) use write::main_line_ki2;
pub use write::{write, write_ki2};

use crate::diagnostic::{codes, Applicability, Diagnostic, Fix};
pub use crate::input::decode::Encoding;
use crate::shogi::Game;
use crate::span::Span;

/// A KIF record read and checked.
#[derive(Clone, Debug)]
pub struct CheckedKif {
    /// The encoding it was read in.
    pub encoding: Encoding,
    /// Its text; the findings' spans are in it.
    pub text: String,
    /// The game, when its start could be set up: its lines end where a move could not be
    /// played.
    pub game: Option<Game>,
    /// Every finding, in the order of the text (a finding about the file's encoding first).
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedKif {
    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Reads and checks a KIF record's text.
pub fn check_text(text: &str) -> (Option<Game>, Vec<Diagnostic>) {
    read::read(text)
}

/// Reads and checks a KIF record's bytes, in the encoding its content tells (UTF-8, with or
/// without a byte-order mark, Shift_JIS or EUC-JP). `extension` is the file's (`kif`, `kifu`),
/// when known: a `.kif` file in UTF-8, which programs that follow the format cannot read, gets a
/// warning, as does a `#KIF` line that names another encoding.
pub fn check_bytes(bytes: &[u8], extension: Option<&str>) -> CheckedKif {
    let (text, encoding, bad) = decode(bytes);
    let (game, mut diagnostics) = read::read(&text);
    let note = match bad {
        Some(at) => Some(
            Diagnostic::error(codes::kif::BAD_BYTES, Span::new(at, at + '\u{FFFD}'.len_utf8()), "bytes that are not text")
                .label(format!("not {}", encoding.name()))
                .help("a KIF record is text in Shift_JIS (`.kif`) or UTF-8 (`.kifu`): these bytes are neither, and are read as `\u{FFFD}`"),
        ),
        None => encoding_note(&text, encoding, extension),
    };
    diagnostics.splice(0..0, note);
    CheckedKif { encoding, text, game, diagnostics }
}

/// The start of a file's bytes as text, as a KIF record's are decoded (its last character may
/// be cut).
pub(crate) fn decode_head(head: &[u8]) -> String {
    // UTF-8 cut in the middle of its last character is UTF-8 all the same.
    let whole = match std::str::from_utf8(head) {
        Err(e) if e.error_len().is_none() => &head[..e.valid_up_to()],
        _ => head,
    };
    decode(whole).0
}

/// The text of a record's bytes, the encoding it was read in, and where the first bytes that
/// are not text in it are, if any (see [`crate::input::decode::decode_japanese`]).
pub(crate) fn decode(bytes: &[u8]) -> (String, Encoding, Option<usize>) {
    crate::input::decode::decode_japanese(bytes)
}

/// The warning of a record whose encoding is not the one its `#KIF` line or its extension
/// says: one at most, the `#KIF` line's first (it has a fix).
pub(crate) fn encoding_note(text: &str, encoding: Encoding, extension: Option<&str>) -> Option<Diagnostic> {
    let utf8 = matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom);
    let declared = text.lines().take(3).enumerate().find_map(|(i, line)| {
        let at = text.lines().take(i).map(|l| l.len() + 1).sum::<usize>();
        match syntax::line(line.trim_end_matches('\r')) {
            syntax::Line::Hash { encoding: Some(span) } => Some(span.shift(at)),
            _ => None,
        }
    });
    if let Some(span) = declared {
        let says = span.slice(text);
        if !encoding.is_named(says) && text.bytes().any(|b| b >= 0x80) {
            let name = if utf8 { "UTF-8" } else { encoding.name() };
            return Some(
                Diagnostic::warning(codes::kif::ENCODING, span, format!("the record says it is in {says}, but it is in {name}"))
                    .label(format!("read as {name}"))
                    .help("programs read the record in the encoding its `#KIF` line names, and show garbled text when it is not the one the file is in")
                    .fix(Fix::replace(span, name, Applicability::Safe)),
            );
        }
    }
    let first_wide = text.char_indices().find(|(_, c)| !c.is_ascii()).map(|(i, c)| Span::new(i, i + c.len_utf8()))?;
    let extension = extension?.to_ascii_lowercase();
    let wrong = match extension.as_str() {
        "kif" | "ki2" => utf8,
        "kifu" | "ki2u" => !utf8,
        _ => false,
    };
    wrong.then(|| {
        let (should, fix) = if utf8 {
            ("Shift_JIS", format!("rename the file `.{extension}u`, or write it in Shift_JIS (`kifu convert --to kif`)"))
        } else {
            ("UTF-8", format!("rename the file `.{}`, or write it in UTF-8 (`kifu convert --to kifu`)", extension.trim_end_matches('u')))
        };
        Diagnostic::warning(codes::kif::ENCODING, first_wide, format!("this `.{extension}` file is in {}, not {should}", encoding.name()))
            .label(format!("read as {}", encoding.name()))
            .help(format!("programs that follow the format (ShogiGUI, Kifu for Windows, cshogi) read a `.{extension}` file as {should} and show this one garbled: {fix}"))
    })
}

/// `text` in Shift_JIS (as Windows writes it, code page 932), or the characters it has no code
/// for, quoted (`` `😀` ``).
pub fn shift_jis(text: &str) -> Result<Vec<u8>, String> {
    let (bytes, _, lossy) = encoding_rs::SHIFT_JIS.encode(text);
    if !lossy {
        return Ok(bytes.into_owned());
    }
    let mut missing: Vec<char> = Vec::new();
    for c in text.chars().filter(|c| encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut [0; 4])).2) {
        if !missing.contains(&c) && missing.len() < 5 {
            missing.push(c);
        }
    }
    Err(missing.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_is_told_by_the_content() {
        let text = "先手：羽生\n   1 ７六歩(77)\n";
        let sjis = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
        let euc = encoding_rs::EUC_JP.encode(text).0.into_owned();
        assert_eq!(decode(&sjis), (text.to_owned(), Encoding::ShiftJis, None));
        assert_eq!(decode(&euc), (text.to_owned(), Encoding::EucJp, None));
        assert_eq!(decode(text.as_bytes()).1, Encoding::Utf8);
        let bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
        assert_eq!(decode(&bom), (text.to_owned(), Encoding::Utf8Bom, None));
        let (_, _, bad) = decode(b"\x81\x7f\xff");
        assert!(bad.is_some());
    }

    #[test]
    fn a_file_in_the_wrong_encoding_for_its_name_gets_one_warning() {
        let text = "#KIF version=2.0 encoding=Shift_JIS\n先手：羽生\n";
        let read = check_bytes(text.as_bytes(), Some("kif"));
        let notes: Vec<_> = read.diagnostics.iter().filter(|d| d.code == codes::kif::ENCODING).collect();
        assert_eq!(notes.len(), 1, "{:?}", read.diagnostics);
        assert_eq!(notes[0].span().slice(&read.text), "Shift_JIS");
        assert_eq!(
            notes[0].fixes[0].apply(&read.text).as_deref(),
            Some("#KIF version=2.0 encoding=UTF-8\n先手：羽生\n")
        );
        let read = check_bytes("先手：羽生\n".as_bytes(), Some("kif"));
        assert!(read.diagnostics[0].message.contains("`.kif` file is in UTF-8"), "{:?}", read.diagnostics);
        assert!(check_bytes("先手：羽生\n".as_bytes(), Some("kifu")).diagnostics.is_empty());
        let sjis = encoding_rs::SHIFT_JIS.encode("先手：羽生\n").0.into_owned();
        assert!(check_bytes(&sjis, Some("kif")).diagnostics.is_empty());
        assert_eq!(check_bytes(&sjis, Some("kifu")).diagnostics.len(), 1);
    }
}
