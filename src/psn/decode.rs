//! The bytes of a PSN file, as text.
//!
//! PSN files come in every encoding their writers' platforms used (DIALECTS.md §14.10): ASCII,
//! UTF-8 with or without a byte-order mark, ISO-8859-1 and CP437/850 (GSDB archives), and
//! Shift_JIS (Shogidokoro). The file is decoded as a whole, with the first encoding that fits
//! (PSN note 10): UTF-8; else Shift_JIS when the bytes decode without fault and read as Japanese;
//! else CP437 when most bytes above 0x7F are in 0x80-0x9F (letters in CP437, control codes in
//! ISO-8859-1); else ISO-8859-1, which decodes any byte.

use serde::Serialize;

/// The encoding a file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// UTF-8 (or plain ASCII).
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
    /// The encoding used.
    pub encoding: Encoding,
}

/// Decodes a whole file, keeping its bytes as the text when they are UTF-8.
pub fn decode_owned(bytes: Vec<u8>) -> Decoded {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return decode(&bytes);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Decoded { text, encoding: Encoding::Utf8 },
        Err(e) => decode(e.as_bytes()),
    }
}

/// Decodes a whole file.
pub fn decode(bytes: &[u8]) -> Decoded {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        // After a byte-order mark the writer said UTF-8; a bad sequence becomes U+FFFD.
        return Decoded { text: String::from_utf8_lossy(rest).into_owned(), encoding: Encoding::Utf8Bom };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Decoded { text: text.to_owned(), encoding: Encoding::Utf8 };
    }
    if let Some(text) = encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes) {
        if reads_as_japanese(&text) {
            return Decoded { text: text.into_owned(), encoding: Encoding::ShiftJis };
        }
    }
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    let c1 = bytes.iter().filter(|&&b| (0x80..0xA0).contains(&b)).count();
    if c1 * 2 > high {
        let text = oem_cp::decode_string_complete_table(bytes, &oem_cp::code_table::DECODING_TABLE_CP437);
        return Decoded { text, encoding: Encoding::Cp437 };
    }
    // ISO-8859-1 maps each byte to the code point of the same number.
    Decoded { text: bytes.iter().map(|&b| char::from(b)).collect(), encoding: Encoding::Latin1 }
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
