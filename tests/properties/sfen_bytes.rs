//! Robustness over arbitrary bytes, the stable-toolchain stand-in for `fuzz/` (cargo-fuzz needs
//! nightly): whatever a line holds, checking it never panics, and every diagnostic has exactly
//! one primary label and labels that lie within the text they refer to, on character boundaries.
//!
//! Inputs are arbitrary byte strings and valid records with bytes and characters inserted,
//! deleted or replaced (multibyte look-alikes, NUL, CR, tabs, stray UTF-8 bytes), read through
//! [`check_line`] on line 1 (where a byte-order mark is allowed) and on a later line, in every
//! dialect, and through [`sfen::check`] directly.

use crate::common::edits;
use crate::common::entry;

use edits::Edit;

use kifu::check::check_line;
use kifu::format::Format;
use kifu::input::{MAX_KEPT, MAX_LINE};
use kifu::sfen::{self, DialectChoice};
use proptest::prelude::*;
use proptest::sample::Index;

/// Valid records to mutate (each checked by `seeds_are_valid`).
const SEEDS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL W - 2",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
    "ln1g3+Rl/1ks1g4/1ppp1p2p/p3p1p2/7N1/P1P1P1P2/1PSP1P2P/1KG1G4/LN6L b BSNPrbsp 151",
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "8l/1+R5p1/3pk1n1p/p1p1pp3/1n1P2P2/P1S1PK2P/1PG2S1+p1/2+b6/L7L w BGNPr2g2sn3p 100",
];

/// What mutations insert or put in place of a character: SFEN's own characters, separators
/// people use by mistake, look-alikes and control characters.
const PIECES: &[&str] = &[
    "ｐ", "Ｋ", "９", "–", "—", "\u{0}", "\r", "\n", "\t", " ", "  ", "_", "\u{A0}", "\u{3000}", "\u{2009}",
    "\u{FEFF}", "\u{FFFD}", "\u{301}", "é", "歩", "🀄", "+", "++", "/", "//", "-", "0", "1", "9", "10", "99", "100",
    "K", "k", "+K", "p", "P", "b", "w", "B", "W", "x",
];

/// Raw bytes that are not UTF-8 on their own, or start a byte-order mark.
const RAW: &[&[u8]] = &[b"\xFF", b"\xC3", b"\x80", b"\xE2\x80", b"\xEF\xBB\xBF", b"\xF0\x9F\x80", b"\xED\xA0\x80"];

fn insertion() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::sample::select(PIECES).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::sample::select(RAW).prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ]
}

/// Applies `edits` to `text` at character boundaries, inserting only valid UTF-8.
fn apply_chars(text: &mut String, edits: &[Edit]) {
    let boundary = |s: &String, at: &Index| {
        let mut i = at.index(s.len() + 1);
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let char_end = |s: &String, i: usize| s[i..].chars().next().map_or(i, |c| i + c.len_utf8());
    for e in edits {
        match e {
            Edit::Insert(at, with) => {
                let i = boundary(text, at);
                text.insert_str(i, &String::from_utf8_lossy(with));
            }
            Edit::Delete(at, n) => {
                let i = boundary(text, at);
                let mut end = i;
                for _ in 0..*n {
                    end = char_end(text, end);
                }
                text.replace_range(i..end, "");
            }
            Edit::Replace(at, with) => {
                let i = boundary(text, at);
                let end = char_end(text, i);
                text.replace_range(i..end, &String::from_utf8_lossy(with));
            }
        }
    }
}

fn mutated_bytes() -> impl Strategy<Value = Vec<u8>> {
    (prop::sample::select(SEEDS), prop::collection::vec(edits::edit(insertion, 3), 1..6)).prop_map(|(seed, edits)| {
        let mut bytes = seed.as_bytes().to_vec();
        edits::apply_bytes(&mut bytes, &edits);
        bytes
    })
}

fn mutated_text() -> impl Strategy<Value = String> {
    (prop::sample::select(SEEDS), prop::collection::vec(edits::edit(insertion, 3), 1..6)).prop_map(|(seed, edits)| {
        let mut text = seed.to_owned();
        apply_chars(&mut text, &edits);
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        entry::sfen_check(&bytes);
        entry::sfen_check(String::from_utf8_lossy(&bytes).as_bytes());
    }

    #[test]
    fn valid_records_with_bytes_mutated(bytes in mutated_bytes()) {
        entry::sfen_check(&bytes);
        entry::sfen_check(String::from_utf8_lossy(&bytes).as_bytes());
    }

    #[test]
    fn valid_records_with_characters_mutated(text in mutated_text()) {
        entry::sfen_check(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A line longer than `MAX_LINE`, of which the reader kept only the start.
    #[test]
    fn cut_long_lines(bytes in prop::collection::vec(any::<u8>(), 0..=MAX_KEPT), extra in 1..(4 * MAX_LINE)) {
        let len = MAX_LINE + extra;
        for line in [1, 2] {
            let report = check_line(Format::Sfen(DialectChoice::Auto), line, &bytes, len);
            entry::assert_line_report("a cut line", &report);
            prop_assert!(!report.is_valid());
        }
    }
}

#[test]
fn seeds_are_valid() {
    for seed in SEEDS {
        let checked = sfen::check(seed, DialectChoice::Auto);
        assert!(checked.is_valid(), "{seed}: {:?}", checked.diagnostics);
    }
}

#[test]
fn hand_picked_edges() {
    let start = SEEDS[0];
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b" ".to_vec(),
        b"\t".to_vec(),
        b"\0".to_vec(),
        b"\r".to_vec(),
        b"\xEF\xBB\xBF".to_vec(),
        b"\xEF\xBB".to_vec(),
        [b"\xEF\xBB\xBF", start.as_bytes()].concat(),
        [start.as_bytes(), b"\xFF"].concat(),
        [b"\xFF", start.as_bytes()].concat(),
        start.replace(' ', "\t").into_bytes(),
        start.replace('p', "ｐ").into_bytes(),
        start.replace('/', "–").into_bytes(),
        start.replace(' ', "\u{3000}").into_bytes(),
        start.replace('-', "\u{0}").into_bytes(),
        format!("{start}\r").into_bytes(),
        format!("{start} ").into_bytes(),
        format!("position sfen {start} moves 7g7f").into_bytes(),
        "+".repeat(300).into_bytes(),
        "/".repeat(300).into_bytes(),
        "ｐ".repeat(300).into_bytes(),
        "K".repeat(200).into_bytes(),
        "9".repeat(4096).into_bytes(),
        "1/".repeat(2000).into_bytes(),
        ("p".repeat(100) + " b " + &"99P".repeat(100) + " 0").into_bytes(),
    ];
    for bytes in cases {
        entry::sfen_check(&bytes);
        entry::sfen_check(String::from_utf8_lossy(&bytes).as_bytes());
    }
}
