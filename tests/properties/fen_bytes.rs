//! Robustness over arbitrary bytes for FEN and EPD: whatever a line holds, checking it never
//! panics, and every diagnostic has one primary label inside the text, on character
//! boundaries.

use crate::common::entry;

use proptest::prelude::*;

/// FEN (standard and Chess960) and EPD, as `kifu check` reads a line (see `common/entry.rs`).
fn sound(bytes: &[u8]) {
    entry::fen_check(bytes);
    entry::epd_check(bytes);
}

fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let seeds = prop::sample::select(vec![
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 40",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";",
    ]);
    let edits = prop::collection::vec((any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 0..3)), 1..5);
    (seeds, edits).prop_map(|(seed, edits)| {
        let mut bytes = seed.as_bytes().to_vec();
        for (at, with) in edits {
            let i = at.index(bytes.len() + 1);
            let end = (i + 1).min(bytes.len());
            bytes.splice(i..end, with);
        }
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        sound(&bytes);
    }

    #[test]
    fn mutated_records(bytes in mutated()) {
        sound(&bytes);
    }
}
