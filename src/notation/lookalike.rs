//! Characters that look like the ASCII ones the notations use, and what they look like.
//!
//! Records pasted from word processors, web pages and Japanese input methods carry en dashes,
//! full-width letters and digits, and other look-alikes. Each is an error, but one with an
//! obvious fix: kifu names the ASCII character meant.

/// The ASCII character `c` looks like, if it is a known look-alike (never `c` itself).
pub fn ascii_for(c: char) -> Option<char> {
    let code = c as u32;
    // Full-width forms of ASCII: U+FF01..U+FF5E map to U+0021..U+007E.
    if (0xFF01..=0xFF5E).contains(&code) {
        return char::from_u32(code - 0xFEE0);
    }
    Some(match c {
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' | '\u{FE58}'
        | '\u{FE63}' | '\u{30FC}' => '-',
        '\u{3000}' | '\u{A0}' | '\u{2002}' | '\u{2003}' | '\u{2009}' => ' ',
        '\u{2044}' | '\u{2215}' => '/',
        '\u{FE62}' | '\u{2795}' => '+',
        // Cyrillic and Greek capitals that render as Latin ones.
        '\u{0410}' | '\u{0391}' => 'A',
        '\u{0412}' | '\u{0392}' => 'B',
        '\u{041A}' | '\u{039A}' => 'K',
        '\u{041D}' | '\u{039D}' => 'N',
        '\u{0420}' | '\u{03A1}' => 'P',
        '\u{0405}' => 'S',
        '\u{0440}' => 'p',
        '\u{043A}' => 'k',
        '\u{0455}' => 's',
        _ => return None,
    })
}

/// How to show `c` in a message: the character and, outside printable ASCII, its code point.
pub fn describe(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("`{c}`")
    } else if c == ' ' {
        "a space".to_owned()
    } else if c == '\t' {
        "a tab".to_owned()
    } else if c.is_control() {
        format!("the control character U+{:04X}", c as u32)
    } else {
        format!("`{c}` (U+{:04X})", c as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_full_width_and_dashes() {
        assert_eq!(ascii_for('９'), Some('9'));
        assert_eq!(ascii_for('Ｐ'), Some('P'));
        assert_eq!(ascii_for('–'), Some('-'));
        assert_eq!(ascii_for('P'), None);
        assert_eq!(describe('–'), "`–` (U+2013)");
        assert_eq!(describe('\u{0}'), "the control character U+0000");
    }
}
