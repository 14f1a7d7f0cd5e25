//! The PSN stream's reader cuts its input into stretches of whole games, and the workers cut the
//! games of each: the games are those the reader's scanner cuts alone, with the same text, tokens,
//! offsets and encodings, whatever the input.

use crate::common::shared;

use crate::common::generate;

use std::io::BufRead;

use generate::Rng;
use kifu::psn::stream::{Games, MAX_GAME_BYTES};

/// Every game (or game too long) `games` gives, written out.
fn items<R: BufRead>(games: Games<R>) -> Vec<String> {
    games.map(|item| format!("{:?}", item.expect("bytes in memory read"))).collect()
}

/// The games of `bytes`, cut in stretches by the workers, are those the reader's scanner cuts
/// alone, with the same text, tokens, offsets and encodings.
fn assert_same_games(bytes: &[u8]) {
    let quick = items(Games::new(bytes));
    let exact = items(Games::without_stretches(bytes));
    assert_eq!(quick.len(), exact.len(), "{:?}", String::from_utf8_lossy(&bytes[..bytes.len().min(300)]));
    for (q, e) in quick.iter().zip(&exact) {
        assert_eq!(q, e);
    }
}

/// Lines that start, end, cut or hold games: headers (some indented, some only looking like
/// one), moves, results and end words, comments and variations left open or closed across
/// lines, prose, timed lines, escapes, won lines, and bytes in legacy encodings.
const LINES: &[&[u8]] = &[
    b"[Event \"x\"]",
    b"  [Sente \"y\"]",
    b"\t[Gote \"z\"] [Date \"1\"]",
    b"\xe3\x80\x80[Event \"ideographic space\"]",
    b"\x0c[Event \"form feed\"]",
    b"[Sente \"S\xf6lter\"]",
    b"[Sente \"\x82\xed\x82\xbd\x82\xb5\"]",
    b"",
    b"   ",
    b"\xe3\x80\x80",
    b"1. P7f P3d 2. P2f",
    b"1.P7f P3d",
    b"2. P2e P8d 1-0",
    b"P7f P3d P2f 0-1 P7f",
    b"Resigns",
    b"1/2-1/2 1. P7f",
    b"3. P7f {a comment",
    b"that runs on } P3d",
    b"[Event \"inside a comment\"] }",
    b"{ [not a header] }",
    b"4. P2f (4. P1f P1d",
    b"P9f) P3d",
    b"(((",
    b")",
    b"this line is prose about the game and its players",
    b"1.P2g-2f     00:00:00  00:00:00",
    b"2.P3c-3d     00:00:01  00:00:02",
    b"% escape",
    b"--Black Won--",
    b"Variation:3",
    b"12.P8gx8f 16.Sennichite",
    b"N*8f! P*7i?",
    b"}",
    b"; a line comment {",
    b"(00:01 / 00:00:09) P7f",
    b"\xff\xfe odd bytes",
];

const ENDS: &[&[u8]] = &[b"\n", b"\r\n", b"\r"];

#[test]
fn stretches_cut_the_games_the_scanner_cuts() {
    let mut rng = Rng::new(0x5EED_1234_ABCD_9876);
    for _ in 0..3000 {
        let mut bytes = Vec::new();
        if rng.below(20) == 0 {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for _ in 0..rng.below(40) {
            bytes.extend_from_slice(LINES[rng.below(LINES.len())]);
            bytes.extend_from_slice(ENDS[rng.below(8).min(2) * usize::from(rng.below(4) == 0)]);
        }
        if rng.below(2) == 0 {
            bytes.truncate(bytes.len().saturating_sub(1));
        }
        assert_same_games(&bytes);
    }
}

#[test]
fn stretches_leave_long_games_and_lines_to_the_scanner() {
    let moves = "1. P7f P3d 2. P2f P8d\n".repeat(MAX_GAME_BYTES / 40);
    let mut rng = Rng::new(77);
    for _ in 0..12 {
        let mut text = String::new();
        for _ in 0..6 {
            match rng.below(6) {
                0 => text.push_str(&moves),
                1 => text.push_str(&"x".repeat(MAX_GAME_BYTES + 10)),
                2 => text.push_str("[Event \"e\"]\n"),
                3 => text.push_str("1. P7f P3d 1-0\n\n"),
                4 => text.push_str("{ open\n"),
                _ => text.push_str(&moves[..MAX_GAME_BYTES / 3]),
            }
            if rng.below(2) == 0 {
                text.push('\n');
            }
        }
        assert_same_games(text.as_bytes());
    }
}

#[test]
fn stretches_of_the_corpus_are_cut_as_the_scanner_cuts() {
    // The real PSN files beside the repository, when they are there (more checks, never needed).
    let Some(files) = shared::psn_files() else { return };
    let mut all = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file).expect("a corpus file");
        assert_same_games(&bytes);
        all.extend_from_slice(&bytes);
        all.extend_from_slice(b"\n\n");
    }
    assert_same_games(&all);
    // UTF-16 (little-endian, with its mark).
    let text = String::from_utf8_lossy(&all).into_owned();
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    assert_same_games(&utf16);
}
