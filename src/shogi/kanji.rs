//! Shogi in kanji, as Japanese diagrams and records write it: the pieces and the numbers.

use super::PieceKind;

/// The kanji of a piece (one character; promoted pieces have their own).
pub const fn piece(kind: PieceKind, promoted: bool) -> char {
    match (kind, promoted) {
        (PieceKind::Pawn, false) => '歩',
        (PieceKind::Lance, false) => '香',
        (PieceKind::Knight, false) => '桂',
        (PieceKind::Silver, false) => '銀',
        (PieceKind::Gold, _) => '金',
        (PieceKind::Bishop, false) => '角',
        (PieceKind::Rook, false) => '飛',
        (PieceKind::King, _) => '玉',
        (PieceKind::Pawn, true) => 'と',
        (PieceKind::Lance, true) => '杏',
        (PieceKind::Knight, true) => '圭',
        (PieceKind::Silver, true) => '全',
        (PieceKind::Bishop, true) => '馬',
        (PieceKind::Rook, true) => '龍',
    }
}

#[cfg(feature = "psn")]
/// The piece a record's kanji name (KIF's reader, which comes with the `psn` feature): one kanji as [`piece`] writes them, 王 (the king), 竜 (the
/// dragon), and the two-kanji names of promoted pieces, 成銀, 成桂 and 成香.
pub fn piece_of(text: &str) -> Option<(PieceKind, bool)> {
    let found = match text {
        "王" => (PieceKind::King, false),
        "竜" => (PieceKind::Rook, true),
        "成銀" => (PieceKind::Silver, true),
        "成桂" => (PieceKind::Knight, true),
        "成香" => (PieceKind::Lance, true),
        _ => {
            let mut chars = text.chars();
            let c = chars.next().filter(|_| chars.next().is_none())?;
            return PIECES.iter().find(|&&(_, _, k)| k == c).map(|&(kind, promoted, _)| (kind, promoted));
        }
    };
    Some(found)
}

#[cfg(feature = "psn")]
/// Every piece and its kanji, as [`piece`] writes them.
const PIECES: [(PieceKind, bool, char); 14] = {
    use PieceKind::{Bishop, Gold, King, Knight, Lance, Pawn, Rook, Silver};
    let mut out = [(Pawn, false, ' '); 14];
    let kinds = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook, King];
    let mut i = 0;
    let mut n = 0;
    while i < kinds.len() {
        out[n] = (kinds[i], false, piece(kinds[i], false));
        n += 1;
        if kinds[i].can_promote() {
            out[n] = (kinds[i], true, piece(kinds[i], true));
            n += 1;
        }
        i += 1;
    }
    out
};

#[cfg(feature = "psn")]
/// The value of a kanji digit, 一 to 九.
pub fn digit(c: char) -> Option<u8> {
    ['一', '二', '三', '四', '五', '六', '七', '八', '九'].iter().position(|&d| d == c).map(|i| i as u8 + 1)
}

#[cfg(feature = "psn")]
/// The value of a full-width digit, １ to ９.
pub fn wide_digit(c: char) -> Option<u8> {
    ('１'..='９').contains(&c).then(|| (c as u32 - '０' as u32) as u8)
}

#[cfg(feature = "psn")]
/// The value of a count in kanji numerals as [`number`] writes them below a hundred: 一 to 九,
/// 十, 十一 to 十九, 二十 to 九十九.
pub fn count(text: &str) -> Option<u32> {
    let chars: Vec<char> = text.chars().collect();
    let ten = chars.iter().position(|&c| c == '十');
    let value = |cs: &[char]| -> Option<u32> {
        match cs {
            [] => Some(0),
            [c] => digit(*c).map(u32::from),
            _ => None,
        }
    };
    match ten {
        None => value(&chars).filter(|&n| n > 0),
        Some(at) => {
            let tens = if at == 0 { 1 } else { value(&chars[..at]).filter(|&n| n > 1)? };
            Some(tens * 10 + value(&chars[at + 1..])?)
        }
    }
}

/// 1-99 in kanji numerals: 二, 十, 十八, 二十三.
pub fn number(n: u32) -> String {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    if n >= 100 {
        return n.to_string();
    }
    let (tens, ones) = ((n / 10) as usize, (n % 10) as usize);
    let mut s = String::new();
    if tens > 1 {
        s.push(DIGITS[tens]);
    }
    if tens > 0 {
        s.push('十');
    }
    if ones > 0 || tens == 0 {
        s.push(DIGITS[ones]);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_numbers() {
        let got: Vec<String> = [1, 2, 10, 11, 18, 20, 23].iter().map(|n| number(*n)).collect();
        assert_eq!(got, ["一", "二", "十", "十一", "十八", "二十", "二十三"]);
    }

    #[cfg(feature = "psn")]
    #[test]
    fn kanji_are_read_back_as_they_are_written() {
        for n in 1..100 {
            assert_eq!(count(&number(n)), Some(n), "{n}");
        }
        assert_eq!((count(""), count("十十"), count("一十"), count("〇")), (None, None, None, None));
        for kind in PieceKind::ALL {
            for promoted in [false, true].into_iter().filter(|&p| !p || kind.can_promote()) {
                assert_eq!(piece_of(&piece(kind, promoted).to_string()), Some((kind, promoted)));
            }
        }
        assert_eq!(piece_of("成銀"), Some((PieceKind::Silver, true)));
        assert_eq!(piece_of("王"), piece_of("玉"));
        assert_eq!(piece_of("歩歩"), None);
        assert_eq!(
            (wide_digit('１'), wide_digit('９'), wide_digit('0'), digit('九')),
            (Some(1), Some(9), None, Some(9))
        );
    }

    #[test]
    fn promoted_pieces_have_their_own_kanji() {
        assert_eq!((piece(PieceKind::Silver, false), piece(PieceKind::Silver, true)), ('銀', '全'));
        assert_eq!(piece(PieceKind::Gold, true), '金');
    }
}
