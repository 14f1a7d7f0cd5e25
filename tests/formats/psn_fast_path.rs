//! The fast path for PSN games — a game read from its tokens straight to the board, with no
//! game model, when it is written as the 1998 spec writes it and has nothing to report — never
//! disagrees with the full check: every game it calls clean, the full check finds nothing in,
//! and reads in the same dialect. It answers for most games written in the spec's form, and
//! leaves every other game to the full check. Over the fixtures, generated games, the same
//! games with one or two characters slipped, and games made to have each finding it must not
//! miss.

use crate::common::shared;

use crate::common::generate;

use generate::{psn_games, slip, Rng};
use kifu::psn::stream::{Games, Item};
use kifu::psn::Options;

/// Every way `kifu check` reads games.
const OPTIONS: [Options; 3] = [
    Options { strict: false, replay: true },
    Options { strict: false, replay: false },
    Options { strict: true, replay: true },
];

/// The games of `bytes`, as the stream reads them.
fn items(bytes: &[u8]) -> Vec<Item> {
    Games::new(bytes).map(|item| item.expect("reading bytes cannot fail")).collect()
}

/// Asserts that the fast path and the full check agree on every game of `bytes` with every
/// option; how many (game, option) pairs the fast path called clean, of how many.
fn agree(bytes: &[u8]) -> (usize, usize) {
    let (mut clean, mut all) = (0, 0);
    for item in items(bytes) {
        for options in OPTIONS {
            all += 1;
            let Some(dialect) = item.clean(options) else { continue };
            clean += 1;
            let full = item.clone().check(options);
            let codes: Vec<&str> = full.checked.diagnostics.iter().map(|d| d.code.as_str()).collect();
            assert!(codes.is_empty(), "{options:?}: the fast path calls clean a game with {codes:?}:\n{}", full.text);
            assert_eq!(dialect, full.checked.game.dialect, "{options:?}:\n{}", full.text);
        }
    }
    (clean, all)
}

/// How many games of `bytes` the full check finds nothing in, with `options`.
fn clean_in_full(bytes: &[u8], options: Options) -> usize {
    items(bytes).into_iter().filter(|item| item.clone().check(options).checked.diagnostics.is_empty()).count()
}

/// The characters PSN movetext and headers are written with.
const PSN_ALPHABET: &[char] = &[
    'P', 'L', 'N', 'S', 'G', 'B', 'R', 'K', '+', '=', '*', '-', 'x', '.', ' ', '\n', '1', '2', '5', '9', 'a', 'e', 'i',
    '[', ']', '"', '{', '}', '(', ')', '!', '?', '0', '/', '\0',
];

#[test]
fn the_fast_path_agrees_with_the_full_check_on_generated_games() {
    let text = psn_games(31, 120_000);
    let (clean, all) = agree(text.as_bytes());
    // Nearly every generated game is clean, and the fast path reads it: it is not idle.
    let full: usize = OPTIONS.iter().map(|&o| clean_in_full(text.as_bytes(), o)).sum();
    assert!(clean * 100 >= full * 99 && full * 100 >= all * 95, "{clean} fast, {full} clean, of {all}");
}

#[test]
fn the_fast_path_agrees_with_the_full_check_on_slipped_games() {
    let text = psn_games(32, 60_000);
    let games: Vec<&str> = text.split_inclusive("\n\n").collect();
    let mut rng = Rng::new(33);
    let (mut clean, mut all) = (0, 0);
    for game in &games {
        let once = slip(game, PSN_ALPHABET, &mut rng);
        let twice = slip(&once, PSN_ALPHABET, &mut rng);
        for slipped in [once, twice] {
            let (c, a) = agree(slipped.as_bytes());
            clean += c;
            all += a;
        }
    }
    // Some slips leave a clean game (a changed name, a legal move for another), most do not.
    assert!(clean > 0 && clean < all, "{clean} clean of {all}");
}

#[test]
fn the_fast_path_agrees_with_the_full_check_on_the_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/psn");
    let mut files = 0;
    for sub in ["ok", "err"] {
        for e in std::fs::read_dir(dir.join(sub)).expect("the fixtures").flatten() {
            let bytes = std::fs::read(e.path()).expect("a fixture");
            agree(&bytes);
            files += 1;
        }
    }
    assert!(files > 10, "{files} fixtures");
}

/// The real games of the shared corpus, when it is there (an extra check, not a condition).
#[test]
fn the_fast_path_agrees_with_the_full_check_on_real_games() {
    let Some(files) = shared::psn_files() else { return };
    for file in files {
        agree(&std::fs::read(file).expect("a corpus file"));
    }
}

/// A clean game in the spec's form, with `moves` as its movetext.
fn game(moves: &str) -> String {
    format!("[Event \"test\"]\n[Sente \"A\"]\n[Gote \"B\"]\n{moves}\n")
}

/// Asserts that the fast path takes `text` with replay: its one game is clean.
fn taken(text: &str) {
    let items = items(text.as_bytes());
    assert_eq!(items.len(), 1, "{text}");
    assert_eq!(items[0].clean(Options::default()), Some(kifu::psn::Dialect::Psn1998), "{text}");
    agree(text.as_bytes());
}

/// Asserts that the fast path leaves `text` to the full check, with replay, and that the
/// full check finds `code` in it.
fn left(text: &str, code: &str) {
    let items = items(text.as_bytes());
    assert!(items.iter().all(|i| i.clean(Options::default()).is_none()), "{text}");
    let codes: Vec<String> = items
        .iter()
        .flat_map(|i| i.clone().check(Options::default()).checked.diagnostics)
        .map(|d| d.code.as_str().to_owned())
        .collect();
    assert!(codes.iter().any(|c| c == code), "{code} not in {codes:?}: {text}");
    agree(text.as_bytes());
}

#[test]
fn games_in_the_spec_form_take_the_fast_path() {
    taken(&game("1. P7f P3d 2. P2f 1-0"));
    // White's moves numbered with `...`, drops, captures, promotions, a game with no result.
    taken(&game("1. P7f 1... P3d 2. B2b+ S2b 3. B*4e 0-1"));
    taken(&game("1. P7f P3d 2. P2f"));
    taken(&game("1. P7f P3d\n2. P2f P8d 1/2-1/2"));
    // Numbers glued to their moves, tabs and wide spaces, line ends of Windows.
    taken(&game("1.P7f P3d 2.P2f 1-0"));
    taken(&game("1. P7f\tP3d\u{3000}2. P2f 1-0"));
    taken(&game("1. P7f P3d\r\n2. P2f 1-0\r\n"));
}

#[test]
fn every_finding_leaves_the_fast_path() {
    for (moves, why) in [
        ("2. P7f P3d 1-0", "the first number is not 1"),
        ("1. P7f P3d 3. P2f 1-0", "a number out of order"),
        ("1. P7f 2... P3d 1-0", "White's number out of order"),
        ("1. P7f 1. P3d 1-0", "White's move numbered as Black's"),
        ("1... P7f 1-0", "the first move numbered as White's"),
        ("1. P7f P3d P2f 1-0", "Black's move not numbered"),
        ("1. P7f P3e 1-0", "an illegal move"),
        ("1. P7f P3d 2. P2f 1-0 1-0", "two results"),
        ("1. P7g-7f P3d 1-0", "a move with a `-`"),
        ("1. P7f {a comment} P3d 1-0", "a comment"),
        ("1. P7f (1. P2f) P3d 1-0", "a variation"),
        ("1. P7f! P3d 1-0", "a glyph"),
        ("1. P7fx P3d 1-0", "a capture mark on no capture"),
    ] {
        let text = game(moves);
        assert!(items(text.as_bytes()).iter().all(|i| i.clean(Options::default()).is_none()), "{why}: {text}");
        agree(text.as_bytes());
    }
    // Each of these has a finding of its own, which the fast path leaves to the full check.
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    for (text, code) in [
        (game("1. P7f P3d\n0. P2f"), "psn::number-order"),
        (format!("[Event \"x\"]\n[SFEN \"{start}\"]\n[SFEN \"{start}\"]\n1. P7f 1-0\n"), "psn::setup-twice"),
        ("[Handicap \"Lance\"]\n1. P3d 1-0\n".to_owned(), "psn::wrong-side"),
        ("[Event \"x\"]\n[Result \"1-0 Illegal move P7f\"]\n1. P2f 1-0\n".to_owned(), "psn::illegal-move"),
        (game("1. P7f P3d\0 1-0"), "psn::nul-byte"),
        // The start position a fourth time, and a result that says Black won: sennichite.
        (game("1. G6h G4b 2. G6i G4a 3. G6h G4b 4. G6i G4a 5. G6h G4b 6. G6i G4a 1-0"), "psn::sennichite"),
    ] {
        left(&text, code);
    }
}

#[test]
fn a_game_in_a_legacy_encoding_leaves_the_fast_path() {
    // A header in Latin-1: the full check says how the game was read.
    let mut bytes = b"[Event \"caf".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(b"\"]\n1. P7f P3d 1-0\n");
    let items = items(&bytes);
    assert!(items.iter().all(|i| OPTIONS.iter().all(|&o| i.clean(o).is_none())));
    assert!(items.iter().any(|i| !i.clone().check(Options::default()).checked.diagnostics.is_empty()));
}
