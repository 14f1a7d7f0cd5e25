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

    #[test]
    fn promoted_pieces_have_their_own_kanji() {
        assert_eq!((piece(PieceKind::Silver, false), piece(PieceKind::Silver, true)), ('銀', '全'));
        assert_eq!(piece(PieceKind::Gold, true), '金');
    }
}
