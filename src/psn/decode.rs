//! The bytes of a PSN file, as text: each game in its own encoding ([`crate::input::decode`]),
//! games starting where PSN says.

pub use crate::input::decode::{Decoded, Encoding, LineDecoder};
#[cfg(feature = "internals")]
pub use crate::input::decode::LineLegacy;

use super::scan;

/// Decodes a whole PSN file, line by line, each game in the first encoding that fits it (a
/// file in UTF-16 read as its UTF-8 twin, as the games are: [`super::stream::Games`]).
pub fn decode(bytes: &[u8]) -> Decoded {
    crate::input::decode::decode(bytes, scan::line_role)
}

/// A decoder for the lines of a PSN file.
pub(crate) fn line_decoder() -> LineDecoder {
    LineDecoder::new(scan::line_role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_encoding_that_fits() {
        assert_eq!(decode(b"[Sente \"x\"]").encoding, Encoding::Utf8);
        let latin = decode(b"S\xf6lter");
        assert_eq!((latin.encoding, latin.text.as_str()), (Encoding::Latin1, "S\u{f6}lter"));
    }

    #[test]
    fn utf16_is_read_as_the_games_are() {
        // A byte-order mark alone, and one before a header: the text is the games' text.
        for (bytes, text) in [(&b"\xFF\xFE"[..], ""), (&b"\xFE\xFF\x00[\x00]"[..], "[]")] {
            let d = decode(bytes);
            assert_eq!(d.text, text);
            assert!(matches!(d.encoding, Encoding::Utf16Le | Encoding::Utf16Be), "{:?}", d.encoding);
        }
    }

    #[test]
    fn each_game_in_its_own_encoding() {
        // "わたし" in Shift_JIS, then a Latin-1 game: the header starts a new game.
        let text = decode(b"[Sente \"\x82\xed\x82\xbd\x82\xb5\"]\nP7f\n[Sente \"S\xf6lter\"]\n").text;
        assert_eq!(text, "[Sente \"わたし\"]\nP7f\n[Sente \"S\u{f6}lter\"]\n");
    }
}
