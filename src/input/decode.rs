//! Legacy decoding: the bytes of a file of game records, as text.
//!
//! Game records (PSN files) come in every encoding their writers' platforms used: ASCII,
//! UTF-8 with or without a byte-order mark, ISO-8859-1 and CP437/850 (GSDB archives), and
//! Shift_JIS (Shogidokoro). Each line that is UTF-8 is read as UTF-8; each game whose lines are
//! not is read in the first legacy encoding that fits ([`LineDecoder`]), so that one
//! stray byte changes nothing outside its line.

#[cfg(feature = "serde")]
use serde::Serialize;

use super::lines::line_len;

/// What a line is to the record format, as far as telling where its records start: the
/// decoder reads each record in its own encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRole {
    /// A header line: a record starts at the first after a line that is not one.
    Header,
    /// A line that starts a record after a blank line (PSN: move number 1).
    First,
    /// Any other line.
    Other,
}

/// Tells a line's [`LineRole`] from its bytes (in any encoding).
pub type Roles = fn(&[u8]) -> LineRole;

/// Every line is [`LineRole::Other`]: the whole file is one record.
pub fn one_record(_: &[u8]) -> LineRole {
    LineRole::Other
}

/// The encoding a file was read in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Encoding {
    /// UTF-8 (or plain ASCII).
    #[default]
    Utf8,
    /// UTF-8 after a byte-order mark.
    Utf8Bom,
    /// Shift_JIS, as Shogidokoro writes.
    ShiftJis,
    /// IBM code page 437, as DOS programs wrote.
    Cp437,
    /// ISO-8859-1 (Latin-1).
    Latin1,
}

impl Encoding {
    /// The encoding's usual name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Utf8 => "UTF-8",
            Self::Utf8Bom => "UTF-8 with a byte-order mark",
            Self::ShiftJis => "Shift_JIS",
            Self::Cp437 => "CP437",
            Self::Latin1 => "ISO-8859-1",
        }
    }

    /// True for the encodings kifu had to guess.
    pub const fn is_legacy(self) -> bool {
        matches!(self, Self::ShiftJis | Self::Cp437 | Self::Latin1)
    }
}

/// A file's text and the encoding it was read in.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The text. Every byte of the input is in it, as the character it decodes to.
    pub text: String,
    /// The encoding used: the first legacy encoding a line was read in, else UTF-8.
    pub encoding: Encoding,
}

/// Decodes a whole file, line by line as [`LineDecoder`] does, with records starting where
/// `roles` says.
pub fn decode(bytes: &[u8], roles: Roles) -> Decoded {
    let mut decoder = LineDecoder::new(roles);
    let mut text = String::with_capacity(bytes.len());
    let mut encoding = None;
    let mut rest = bytes;
    while !rest.is_empty() {
        let len = line_len(rest);
        let (line, legacy) = decoder.decode(&rest[..len]);
        text.push_str(&line);
        if let (None, Some(l)) = (encoding, legacy) {
            encoding = Some(l.encoding);
        }
        rest = &rest[len..];
    }
    Decoded { text, encoding: encoding.unwrap_or(if decoder.bom { Encoding::Utf8Bom } else { Encoding::Utf8 }) }
}

/// Where a line was not read as UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineLegacy {
    /// Offset in the decoded line of its first character not in ASCII.
    pub at: usize,
    /// The encoding the line was read in.
    pub encoding: Encoding,
    /// The encoding of the game's earlier legacy lines, when the line is not valid in it.
    pub unlike: Option<Encoding>,
}

/// Decodes a file line by line, each game (record) in its own encoding (PSN note 10).
///
/// A line that is UTF-8 is read as UTF-8. A game's first line that is not is read in the first
/// legacy encoding that fits it: Shift_JIS when it decodes without fault and reads as Japanese
/// (kana, or two ideographs in a row); else CP437 when most of its bytes above 0x7F are in
/// 0x80-0x9F (letters in CP437, control codes in ISO-8859-1); else ISO-8859-1, which decodes any
/// byte. The game's later lines that are not UTF-8 are read in that encoding too, unless they are
/// not valid in it (then they are read on their own, and say so). A game starts at a header line
/// after a line that is not one, or at a line starting with move number 1 after a blank line.
/// A byte-order mark at the start of the file is dropped. Which lines are header lines and first
/// move lines is for the format to say ([`Roles`]).
#[derive(Clone, Debug)]
pub struct LineDecoder {
    /// What each line is to the format.
    roles: Roles,
    /// The legacy encoding of the game being read, once a line of it needed one.
    game: Option<Encoding>,
    /// Lines seen.
    lines: u64,
    /// The file started with a byte-order mark.
    pub bom: bool,
    /// The last line that was not blank was a header line.
    after_header: bool,
    /// The last line was blank.
    after_blank: bool,
}

impl LineDecoder {
    /// A decoder for a file whose lines `roles` tells apart.
    pub fn new(roles: Roles) -> Self {
        Self { roles, game: None, lines: 0, bom: false, after_header: false, after_blank: false }
    }

    /// Forgets the game being read: the next line starts a new one.
    pub(crate) fn new_game(&mut self) {
        self.game = None;
        self.after_header = false;
        self.after_blank = true;
    }

    /// The text of one line (with its line end) and, when it was not UTF-8, where and how it was
    /// read.
    pub fn decode<'a>(&mut self, line: &'a [u8]) -> (std::borrow::Cow<'a, str>, Option<LineLegacy>) {
        use std::borrow::Cow;
        let mut line = line;
        if self.lines == 0 {
            if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF") {
                self.bom = true;
                line = rest;
            }
        }
        self.lines += 1;
        let blank = line.iter().all(u8::is_ascii_whitespace);
        if !blank {
            let role = (self.roles)(line);
            let header = role == LineRole::Header;
            if header && !self.after_header || self.after_blank && role == LineRole::First {
                self.game = None;
            }
            self.after_header = header;
        }
        self.after_blank = blank;
        if let Ok(text) = std::str::from_utf8(line) {
            return (Cow::Borrowed(text), None);
        }
        let (encoding, unlike) = match self.game {
            Some(Encoding::ShiftJis) if sjis(line).is_none() => (guess(line), Some(Encoding::ShiftJis)),
            Some(e) => (e, None),
            None => {
                let e = guess(line);
                self.game = Some(e);
                (e, None)
            }
        };
        let text = decode_in(line, encoding);
        let at = text.char_indices().find(|(_, c)| !c.is_ascii()).map_or(0, |(i, _)| i);
        (Cow::Owned(text), Some(LineLegacy { at, encoding, unlike }))
    }
}

/// `bytes` as Shift_JIS, when they decode without fault.
fn sjis(bytes: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes)
}

/// The legacy encoding that fits `bytes` best (see [`LineDecoder`]).
fn guess(bytes: &[u8]) -> Encoding {
    if sjis(bytes).is_some_and(|text| reads_as_japanese(&text)) {
        return Encoding::ShiftJis;
    }
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    let c1 = bytes.iter().filter(|&&b| (0x80..0xA0).contains(&b)).count();
    if c1 * 2 > high {
        Encoding::Cp437
    } else {
        Encoding::Latin1
    }
}

/// `bytes` read in `encoding` (a fault in Shift_JIS becomes U+FFFD).
fn decode_in(bytes: &[u8], encoding: Encoding) -> String {
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => String::from_utf8_lossy(bytes).into_owned(),
        Encoding::ShiftJis => encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0.into_owned(),
        Encoding::Cp437 => oem_cp::decode_string_complete_table(bytes, &oem_cp::code_table::DECODING_TABLE_CP437),
        // ISO-8859-1 maps each byte to the code point of the same number.
        Encoding::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Japanese text has kana, or runs of ideographs; a Western byte that happens to form a Shift_JIS
/// pair gives a lone ideograph between Latin letters.
fn reads_as_japanese(text: &str) -> bool {
    let kana = |c: char| matches!(c, '\u{3040}'..='\u{30FF}' | '\u{FF66}'..='\u{FF9F}');
    let ideograph = |c: char| matches!(c, '\u{4E00}'..='\u{9FFF}');
    let mut run = 0;
    for c in text.chars() {
        if kana(c) {
            return true;
        }
        run = if ideograph(c) { run + 1 } else { 0 };
        if run >= 2 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Decoded {
        super::decode(bytes, one_record)
    }

    #[test]
    fn picks_the_encoding_that_fits() {
        assert_eq!(decode(b"[Sente \"x\"]").encoding, Encoding::Utf8);
        assert_eq!(decode("[Sente \"S\u{f6}lter\"]".as_bytes()).encoding, Encoding::Utf8);
        let bom = decode(b"\xEF\xBB\xBF7g7f");
        assert_eq!((bom.encoding, bom.text.as_str()), (Encoding::Utf8Bom, "7g7f"));
        let latin = decode(b"S\xf6lter");
        assert_eq!((latin.encoding, latin.text.as_str()), (Encoding::Latin1, "S\u{f6}lter"));
        let dos = decode(b"S\x94lter");
        assert_eq!((dos.encoding, dos.text.as_str()), (Encoding::Cp437, "S\u{f6}lter"));
        // "わたし" in Shift_JIS.
        let sjis = decode(b"[Sente \"\x82\xed\x82\xbd\x82\xb5\"]");
        assert_eq!((sjis.encoding, sjis.text.as_str()), (Encoding::ShiftJis, "[Sente \"わたし\"]"));
    }
}
