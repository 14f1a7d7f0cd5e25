//! KIF and KI2 records through PSN and back (`kifu convert --to psn`, then `--to kif`): the
//! same game, moves, times, comments, variations and ending, but for what PSN cannot hold (the
//! bookmarks); and the PSN written is valid and written again the same. Times, endings and
//! starts of games built by hand too, and variations nested 100,000 deep.

use std::fs;
use std::path::Path;

use kifu::shogi::{Color, EndReason, Ending, Game, MoveTime, Node, Outcome, Position};

use crate::common::shared;

/// `game` written as PSN and read back: the text, and the game read.
fn round_trip(game: &Game) -> (String, Game) {
    let text = kifu::psn::write(game).text;
    let file = kifu::psn::check_bytes(text.as_bytes(), Default::default());
    assert_eq!(file.games.len(), 1, "{text}");
    let checked = &file.games[0];
    let errors: Vec<_> = checked.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
    // Converting twice changes nothing.
    assert_eq!(checked.to_psn(), text, "written again as PSN");
    (text.clone(), checked.to_game().expect("played out"))
}

/// `game` without what PSN cannot hold: its bookmarks, and the headers' keys (PSN's are its
/// own).
fn held(game: &Game) -> Game {
    let mut game = game.clone();
    game.headers.clear();
    let mut todo: Vec<&mut Vec<Node>> = vec![&mut game.moves];
    while let Some(line) = todo.pop() {
        for node in line.iter_mut() {
            node.bookmarks.clear();
            todo.extend(node.variations.iter_mut().map(|v| &mut v.moves));
        }
    }
    game
}

/// A KIF or KI2 record read, written as PSN and read back: the same game, and written again as
/// KIF, the same KIF but for the bookmarks. False when the record is not valid.
fn keeps(name: &str, bytes: &[u8]) -> bool {
    let read = kifu::kif::check_bytes(bytes, name.rsplit('.').next());
    let Some(game) = read.game.filter(|_| !read.diagnostics.iter().any(kifu::Diagnostic::is_error)) else {
        return false;
    };
    let (text, back) = round_trip(&game);
    assert_eq!(held(&back), held(&game), "{name} as PSN:\n{text}");
    let kif = |g: &Game| kifu::kif::write(g, "UTF-8").text;
    let without_bookmarks: String =
        kif(&game).lines().filter(|l| !l.starts_with('&')).map(|l| format!("{l}\n")).collect();
    assert_eq!(kif(&back), without_bookmarks, "{name} as PSN, then KIF:\n{text}");
    true
}

#[test]
fn the_kif_fixtures_go_through_psn_and_back() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kif");
    let mut checked = 0;
    for entry in fs::read_dir(dir).expect("fixtures") {
        let path = entry.expect("entry").path();
        let name = path.to_string_lossy().into_owned();
        checked += usize::from(keeps(&name, &fs::read(&path).expect("fixture")));
    }
    shared::at_least("valid KIF and KI2 fixtures", checked, 8);
}

/// Every KIF and KI2 game of the corpus beside the repository (random legal games of every
/// kind, written by three programs) goes through PSN and back unchanged.
#[test]
fn the_corpus_goes_through_psn_and_back() {
    let Some(dir) = shared::path("corpus/kifcsa/generated") else { return };
    let mut checked = 0;
    for folder in ["kif", "ki2"] {
        for entry in fs::read_dir(dir.join(folder)).expect("folder") {
            let path = entry.expect("entry").path();
            let name = path.to_string_lossy().into_owned();
            assert!(keeps(&name, &fs::read(&path).expect("file")), "{name} is valid");
            checked += 1;
        }
    }
    shared::at_least("KIF and KI2 files", checked, 400);
}

fn node(usi: &str) -> Node {
    Node::new(usi.parse().expect("a USI move"))
}

#[test]
fn times_endings_and_starts_read_back() {
    let secs = |s| Some(std::time::Duration::from_secs(s));
    let mut game = Game::new(Position::STARTPOS);
    game.moves = vec![node("7g7f"), node("3c3d"), node("8h2b+")];
    game.moves[0].time = Some(MoveTime { spent: secs(75), total: secs(3725) });
    game.moves[1].time = Some(MoveTime { spent: secs(4), total: None });
    game.moves[2].comments.push("{paired} }".into());
    for (reason, outcome) in [
        (Some(EndReason::Resignation), Some(Outcome::Win(Color::Black))),
        (Some(EndReason::MaxMoves), None),
        (Some(EndReason::Impasse), Some(Outcome::Draw)),
        (None, Some(Outcome::Win(Color::White))),
    ] {
        game.ending = Some(Ending { reason, outcome });
        let (text, back) = round_trip(&game);
        assert_eq!(back.moves[0].time, game.moves[0].time, "{text}");
        assert_eq!(back.moves[1].time, game.moves[1].time, "{text}");
        assert_eq!(back.ending, game.ending, "{text}");
        assert_eq!(back.moves[2].comments, ["{paired} )"], "an unpaired brace becomes a parenthesis");
    }
    let written = kifu::psn::write(&game);
    assert!(written.text.contains("P7f {(01:15 / 01:02:05)} 1... P3d {(00:04 / )}"), "{}", written.text);
    assert_eq!(written.lost.len(), 1, "{:?}", written.lost);

    // A header value keeps what a header line can hold: a `]` before a `[` would start a
    // second header.
    let mut noted = Game::new(Position::STARTPOS);
    noted.headers.push(("備考".into(), "see [1] [2]".into()));
    let written = kifu::psn::write(&noted);
    assert_eq!(written.text, "[備考 \"see [1) [2]\"]\n");
    assert_eq!(written.lost.len(), 1, "{:?}", written.lost);
    assert_eq!(round_trip(&noted).1.headers, [("備考".to_owned(), "see [1) [2]".to_owned())]);

    // A handicap by its name, any other start as FEN, or as SFEN where FEN cannot say it.
    let start = |sfen: &str| Game::new(sfen.parse().expect("SFEN"));
    let lance = start("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert_eq!(round_trip(&lance).0, "[Handicap \"lance\"]\n");
    let mut board = start("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    board.moves.push(node("G*5b"));
    assert_eq!(round_trip(&board).0, "[FEN \"4k4/9/4P4/9/9/9/9/9/4K4 0000100/0000000 s 1\"]\n1. G*5b\n");
    let white = start("4k4/9/4P4/9/9/9/9/9/4K4 w G 1");
    assert_eq!(round_trip(&white).1.start, white.start);
}

#[test]
fn deep_variations_are_written_without_recursion() {
    let mut inner = vec![node("7g7f")];
    for _ in 0..100_000 {
        let mut n = node("7g7f");
        n.variations.push(inner.into());
        inner = vec![n];
    }
    let mut game = Game::new(Position::STARTPOS);
    game.moves = inner;
    let text = kifu::psn::write(&game).text;
    assert_eq!(text.matches('(').count(), 100_000);
}

/// A variation's ending (`投了` or `中断` inside a `変化` block) is part of the game: read from
/// KIF and KI2, and written again as KIF, KI2 and PSN (`{Interrupt}` after its last move), each
/// reading back the same game.
#[test]
fn a_variations_ending_goes_through_every_format() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 投了\n\n変化：2手\n   2 ８四歩(83)\n   3 中断\n\n変化：1手\n   1 ２六歩(27)\n   2 投了\n";
    let read = kifu::kif::check_bytes(text.as_bytes(), Some("kifu"));
    assert!(read.diagnostics.iter().all(|d| !d.is_error()), "{:#?}", read.diagnostics);
    let game = read.game.expect("a game");
    let ending = |reason, outcome| Some(Ending { reason: Some(reason), outcome });
    assert_eq!(game.ending, ending(EndReason::Resignation, Some(Outcome::Win(Color::White))));
    let second = &game.moves[1].variations[0];
    assert_eq!(second.ending, ending(EndReason::Interrupted, None), "the variation of move 2");
    let first = &game.moves[0].variations[0];
    assert_eq!(first.ending, ending(EndReason::Resignation, Some(Outcome::Win(Color::Black))), "of move 1");
    let (psn, back) = round_trip(&game);
    assert!(psn.contains("( 1... P8d {Interrupt} )") && psn.contains("( 1. P2f {Resigns} )"), "{psn}");
    assert_eq!(held(&back), held(&game), "through PSN:\n{psn}");
    for (name, written) in [("kifu", kifu::kif::write(&game, "UTF-8")), ("ki2u", kifu::kif::write_ki2(&game))] {
        assert!(written.lost.is_empty(), "{name}: {:?}", written.lost);
        let again = kifu::kif::check_bytes(written.text.as_bytes(), Some(name));
        assert!(again.diagnostics.iter().all(|d| !d.is_error()), "{name}: {:#?}\n{}", again.diagnostics, written.text);
        assert_eq!(again.game.as_ref(), Some(&game), "{name}:\n{}", written.text);
    }
}

/// What PSN cannot hold of a variation is named: a variation of no move, and who won where its
/// ending's word does not say.
#[test]
fn what_psn_cannot_hold_of_a_variation_is_named() {
    let mut game = Game::new(Position::STARTPOS);
    game.moves = vec![node("7g7f")];
    game.moves[0].variations.push(Vec::new().into());
    let written = kifu::psn::write(&game);
    assert_eq!((written.text.as_str(), written.lost.as_slice()), ("1. P7f\n", &["a variation of no move"][..]));
    let mut variation: kifu::shogi::Variation = vec![node("2g2f")].into();
    variation.ending = Some(Ending { reason: Some(EndReason::Interrupted), outcome: Some(Outcome::Win(Color::Black)) });
    game.moves[0].variations = vec![variation];
    assert_eq!(kifu::psn::write(&game).lost, ["who won a variation, where its ending's word does not say"]);
}
