//! Properties of the PSN reader on generated input:
//!
//! * the scanner names every word as the grammar does: the automaton compiled from the `word`
//!   rule and pest agree on which alternative is the first to match the whole word (PSN note 12);
//! * the pest `game` rule and the scanner read the spec's own form to the same moves;
//! * every word the scanner names a move decodes to one, and decoding any word as any kind
//!   never panics;
//! * any bytes at all are read without a panic, and every character that is not white space
//!   lands in a game;
//! * the public entry points take any text and any spans without a panic: decoding a word at
//!   any place, checking a game with any offsets, reading a game from any text.

use crate::common::shared;

use kifu::psn::build::decode;
use kifu::psn::parser::{PsnParser, Rule};
use kifu::psn::scan::{classify, WordKind};
use kifu::psn::{self};
use kifu::Span;
use pest::Parser;
use proptest::prelude::*;

/// The first alternative of `word` that pest matches over the whole word.
fn pest_classify(word: &str) -> Option<WordKind> {
    WordKind::ALL.into_iter().find(|k| {
        PsnParser::parse(k.rule(), word).is_ok_and(|mut p| p.next().is_some_and(|p| p.as_span().end() == word.len()))
    })
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        // Anything built from the characters of movetext.
        proptest::collection::vec(
            proptest::sample::select(
                "PLNSGBRKplnsgbrkwHQ+*'@-x=0123456789abcdefghij./!?$:½–".chars().collect::<Vec<_>>()
            ),
            1..9
        )
        .prop_map(|c| c.into_iter().collect()),
        // Near-moves: a piece, squares, separators and suffixes.
        (
            proptest::option::of(Just("+")),
            "[PLNSGBRKQ]",
            proptest::option::of("[0-9][a-j]"),
            proptest::option::of("[-x*'@]"),
            "[0-9][a-j]",
            proptest::option::of("[+=!?]")
        )
            .prop_map(|(p, k, f, s, t, e)| format!(
                "{}{k}{}{}{t}{}",
                p.unwrap_or(""),
                f.unwrap_or_default(),
                s.unwrap_or_default(),
                e.unwrap_or_default()
            )),
        // Chess squares.
        "[PLNSGBRK][a-j]?[1-9]?x?[a-j][0-9](=[A-Z+])?",
        // Numbers, clocks and results.
        "[0-9]{1,3}(\\.|\\.\\.|\\.\\.\\.)?",
        "[0-9]{1,2}:[0-9]{1,2}(:[0-9]{2})?",
        "(1|0|1/2|½)[-–](1|0|1/2|½)",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn the_automaton_names_words_as_pest_does(w in word()) {
        prop_assert_eq!(classify(&w), pest_classify(&w), "{:?}", w);
    }

    #[test]
    fn a_move_word_decodes_and_any_word_decodes_without_a_panic(w in prop_oneof![word(), any::<String>()]) {
        for kind in WordKind::ALL {
            let m = decode(kind, &w, Span::new(0, w.len()));
            prop_assert!(m.is_none() || kind.is_move(), "{:?} {:?}", kind, w);
        }
        if let Some(kind) = classify(&w).filter(|k| k.is_move()) {
            let m = decode(kind, &w, Span::new(0, w.len()));
            prop_assert!(m.is_some_and(|m| m.text == w.as_str()), "{:?} {:?}", kind, w);
        }
    }

    #[test]
    fn any_bytes_are_read(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let read = psn::check_bytes(&bytes, Default::default());
        let mut covered = vec![false; read.text.len()];
        for g in &read.games {
            prop_assert!(g.game.span.end <= read.text.len());
            covered[g.game.span.start..g.game.span.end].iter_mut().for_each(|c| *c = true);
            let text = g.text(&read.text);
            for d in &g.diagnostics {
                for l in &d.labels {
                    prop_assert!(l.span.end <= text.len() + 1, "{:?} outside {:?}", l.span, text);
                }
            }
        }
        for (i, c) in read.text.char_indices() {
            prop_assert!(covered[i] || c.is_whitespace(), "{:?} at {} is in no game", c, i);
        }
    }

    #[test]
    fn any_word_at_any_place_decodes_without_a_panic(w in word(), start in any::<usize>(), len in any::<usize>()) {
        for kind in WordKind::ALL {
            let _ = decode(kind, &w, Span::new(start, start.saturating_add(len)));
        }
    }

    #[test]
    fn a_game_is_checked_with_any_offsets(
        text in "([\\[\\]{}() \n\"é]|P7f|1\\.|1-0|Sente|G4a5b)*",
        start in prop_oneof![0usize..40, any::<usize>()],
        end in prop_oneof![0usize..40, any::<usize>()],
    ) {
        for raw in psn::scan::scan(&text) {
            let moved = psn::scan::RawGame { start, end, ..raw.clone() };
            let _ = psn::check_game(&moved, &text, Default::default());
            let _ = psn::check_game(&raw, "", Default::default());
        }
    }

    #[test]
    fn any_text_reads_as_a_game_or_an_error(text in prop_oneof![any::<String>(), "([\\[\\]{}() \n\"]|P7f|1\\.|1-0|Sente)*"]) {
        if let Ok(game) = text.parse::<psn::Game>() {
            // A game with moves writes text that reads back as a game.
            let written = game.to_string();
            prop_assert!(game.moves.is_empty() || written.parse::<psn::Game>().is_ok(), "{:?} wrote {:?}", text, written);
        }
    }

    #[test]
    fn movetext_like_bytes_are_read(text in "([\\[\\]{}() \n\r\"]|P7f|P7g-7f|1\\.|1\\.\\.\\.|1-0|Resigns|00:01:00|~|;|%|Sente|G4a5b|\\$)*") {
        let read = psn::check_bytes(text.as_bytes(), Default::default());
        for g in &read.games {
            prop_assert!(g.game.span.end <= read.text.len());
        }
    }
}

#[test]
fn every_word_of_the_corpus_is_named_alike() {
    let Some(files) = shared::psn_files() else { return };
    let mut words = std::collections::BTreeSet::new();
    for file in files {
        let text = String::from_utf8_lossy(&std::fs::read(file).expect("a corpus file")).into_owned();
        for w in text.split_whitespace() {
            words.insert(w.trim_matches(|c| matches!(c, '{' | '}' | '(' | ')')).to_owned());
        }
    }
    assert!(words.len() > 1000);
    for w in &words {
        assert_eq!(classify(w), pest_classify(w), "{w:?}");
    }
}

#[test]
fn pest_reads_the_spec_form_to_the_same_moves() {
    let Ok(dir) = std::fs::read_dir("tests/fixtures/psn/ok") else { panic!("fixtures") };
    let mut read_any = 0;
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("spec_") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("UTF-8");
        let ours = psn::check_bytes(text.as_bytes(), Default::default());
        for g in &ours.games {
            let own = g.text(&ours.text);
            let pairs = PsnParser::parse(Rule::game, own).unwrap_or_else(|e| panic!("{name}: pest rejects\n{e}"));
            let moves: Vec<&str> = pairs
                .flatten()
                .filter(|p| matches!(p.as_rule(), Rule::spec_move | Rule::spec_drop))
                .map(|p| p.as_str())
                .collect();
            let scanned: Vec<&str> = g.game.all_moves().iter().map(|m| m.mv.text.as_str()).collect();
            assert_eq!(moves, scanned, "{name}");
            read_any += 1;
        }
    }
    assert!(read_any >= 5);
}

/// A UTF-16 byte-order mark, alone or before some text, in either byte order: the file's text
/// is the games' text (it was once read as ISO-8859-1, a text no game held).
#[test]
fn a_utf16_file_is_read_whole_into_its_games() {
    for bytes in [&b"\xFF\xFE"[..], b"\xFE\xFF", b"\xFF\xFEP\x007\x00f\x00", b"\xFE\xFF\x00[\x00S\x00]\x00\n"] {
        let read = psn::check_bytes(bytes, Default::default());
        let mut covered = vec![false; read.text.len()];
        for g in &read.games {
            covered[g.game.span.start..g.game.span.end].iter_mut().for_each(|c| *c = true);
        }
        for (i, c) in read.text.char_indices() {
            assert!(covered[i] || c.is_whitespace(), "{c:?} at {i} of {:?} is in no game", read.text);
        }
    }
}
