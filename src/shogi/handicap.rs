//! The handicaps (komaochi) records name, each with the position it starts from: one board per
//! handicap, which PSN's words and KIF's names (`手合割`) both point at.
//!
//! White, the stronger player, takes pieces off and moves first. "Left" and "right" are White's,
//! who faces the other way: White's left lance is on file 1.

/// The even game.
pub const EVEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// The left lance (香落ち).
pub const LANCE: &str = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// The right lance (右香落ち).
pub const RIGHT_LANCE: &str = "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// The bishop (角落ち).
pub const BISHOP: &str = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// The rook (飛車落ち).
pub const ROOK: &str = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// The rook and the left lance (飛香落ち).
pub const ROOK_LANCE: &str = "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// The rook and the bishop (二枚落ち).
pub const TWO: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Two pieces and the left lance (三枚落ち).
pub const THREE: &str = "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Two pieces and both lances (四枚落ち).
pub const FOUR: &str = "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Four pieces and the right knight (五枚落ち).
pub const FIVE: &str = "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Four pieces and the left knight (左五枚落ち).
pub const LEFT_FIVE: &str = "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Both knights and lances and the two pieces (六枚落ち).
pub const SIX: &str = "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Six pieces and the left silver (左七枚落ち).
pub const LEFT_SEVEN: &str = "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Six pieces and the right silver (右七枚落ち).
pub const RIGHT_SEVEN: &str = "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// Both silvers too (八枚落ち).
pub const EIGHT: &str = "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// The king alone with its pawns (十枚落ち).
pub const TEN: &str = "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

/// KIF's handicap names (`手合割：…`), as the KIF page lists them, with the position each
/// starts from, and whether every reader sets it up alike (三枚落ち, 五枚落ち, 左五枚落ち and the
/// sevens are read differently by different programs).
pub const KIF: &[(&str, &str, bool)] = &[
    ("平手", EVEN, true),
    ("香落ち", LANCE, true),
    ("右香落ち", RIGHT_LANCE, true),
    ("角落ち", BISHOP, true),
    ("飛車落ち", ROOK, true),
    ("飛香落ち", ROOK_LANCE, true),
    ("二枚落ち", TWO, true),
    ("三枚落ち", THREE, false),
    ("四枚落ち", FOUR, true),
    ("五枚落ち", FIVE, false),
    ("左五枚落ち", LEFT_FIVE, false),
    ("六枚落ち", SIX, true),
    ("左七枚落ち", LEFT_SEVEN, false),
    ("右七枚落ち", RIGHT_SEVEN, false),
    ("八枚落ち", EIGHT, true),
    ("十枚落ち", TEN, true),
];

/// The position of the KIF handicap `name` (white space around it ignored), and whether every
/// reader sets it up alike.
pub fn kif(name: &str) -> Option<(&'static str, bool)> {
    let name = name.trim_matches(|c: char| c.is_whitespace());
    KIF.iter().find(|(n, _, _)| *n == name).map(|&(_, sfen, agreed)| (sfen, agreed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::{PieceKind, Position};

    #[test]
    fn each_handicap_takes_off_the_pieces_its_name_says() {
        let even: Position = EVEN.parse().expect("SFEN");
        let off = |sfen: &str| {
            let p: Position = sfen.parse().expect("SFEN");
            assert!(p.hands.iter().all(|h| h.is_empty()));
            let mut gone = Vec::new();
            for (sq, piece) in even.board.pieces() {
                if p.board.get(sq) != Some(piece) {
                    gone.push((sq.file(), piece.kind));
                }
            }
            gone
        };
        use PieceKind::{Bishop, Knight, Lance, Rook, Silver};
        assert_eq!(off(LANCE), [(1, Lance)]);
        assert_eq!(off(RIGHT_LANCE), [(9, Lance)]);
        assert_eq!(off(FIVE).len(), 5);
        assert!(off(FIVE).contains(&(8, Knight)) && off(LEFT_FIVE).contains(&(2, Knight)));
        assert!(off(LEFT_SEVEN).contains(&(3, Silver)) && off(RIGHT_SEVEN).contains(&(7, Silver)));
        for (name, sfen, _) in KIF.iter().skip(1) {
            let gone = off(sfen);
            assert!(
                gone.iter().all(|(_, k)| [Bishop, Rook, Lance, Knight, Silver, PieceKind::Gold].contains(k)),
                "{name}"
            );
            assert!(sfen.contains(" w "), "{name}: White moves first");
        }
        assert_eq!(kif(" 平手　"), Some((EVEN, true)));
        assert_eq!(kif("詰将棋"), None);
    }
}
