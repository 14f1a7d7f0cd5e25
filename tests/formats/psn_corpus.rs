//! Every real PSN file in `../shared/corpus/psn/` (when that folder exists): no crash, every
//! game found (the counts of PROVENANCE.md), no character outside a game, each game's dialect and
//! diagnostic codes pinned in a snapshot, the corrupted ACM-VIT copy in error, and every valid
//! game written in the 1998 spec's form reads back to the same moves.

use crate::common::shared;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use kifu::psn;

/// The real PSN files, in `../shared`.
const CORPUS: &str = "corpus/psn";

/// Games per file, from PROVENANCE.md (GSDB excerpts) or counted by hand (the others).
const GAMES: &[(&str, usize)] = &[
    ("acmvit-kisei2013-game2-timed.psn", 1),
    ("acmvit-sennichite-two-games-timed.psn", 2),
    ("acmvit-single-game-md-corrupted.psn", 1),
    ("gsdb-fist_thomas.psn", 55),
    ("gsdb-games274-comments-variations.psn", 5),
    ("gsdb-games274-handicap.psn", 3),
    ("gsdb-games274-odd-results.psn", 7),
    ("gsdb-games274-tsume-positions.psn", 5),
    ("gsdb-games274-unescaped-quotes.psn", 2),
    ("gsdb-games_nak_thomas-oshosen1976.psn", 3),
    ("gsdb-games_thomas-latin1.psn", 3),
    ("gsdb-games_thomas-nested-braces.psn", 3),
    ("gsdb-isf_thomas.psn", 42),
    ("gsdb-wesc2002_thomas.psn", 25),
    ("lishogi2021-export-broadcastbot-default.psn", 1),
    ("myshogi-yaneuraou-shogihome-issue598-fragment.psn", 1),
    ("pgnparser-test-oshosen1976-game3.psn", 1),
    ("playshogi-test-esc-wosc2013.psn", 1),
    ("playshogi-test-oldformat-multi-ec2002.psn", 2),
    ("playshogi-test-oldformat-shoginexus.psn", 1),
    ("pychess-issue1262-shogi-pgn-fairysan.psn", 1),
    ("pychess-issue36-shogi-pgn-western.psn", 1),
    ("scalashogi-fixtures-europe1997.psn", 4),
    ("scalashogi-fixtures-notagbutresult.psn", 1),
    ("scalashogi-fixtures-variations-noheaders.psn", 1),
    ("scalashogi-fixtures-withnag.psn", 1),
    ("w7a2jkf-grimbergen-54th-oisen-game1.psn", 1),
    ("w7a2jkf-grimbergen-84th-kisei-header-comment-only.psn", 1),
];

fn summary(read: &psn::CheckedFile) -> String {
    let mut out = format!("encoding: {}\n", read.encoding.name());
    for (i, g) in read.games.iter().enumerate() {
        let game = &g.game;
        let all = game.all_moves().len();
        let _ = writeln!(
            out,
            "game {} at line {}: {}, {} moves{}{}{}{}",
            i + 1,
            game.line,
            game.dialect,
            game.moves.len(),
            if all > game.moves.len() {
                format!(" (+{} in variations)", all - game.moves.len())
            } else {
                String::new()
            },
            game.end.as_ref().map_or(String::new(), |e| format!(", ends {:?}", e.text)),
            game.setup.as_ref().map_or(String::new(), |s| format!(", starts from {} {}", s.source, s.sfen)),
            if g.is_valid() { "" } else { ", INVALID" },
        );
        let mut codes: BTreeMap<(bool, &str), usize> = BTreeMap::new();
        for d in &g.diagnostics {
            *codes.entry((!d.is_error(), d.code.as_str())).or_default() += 1;
        }
        for ((warning, code), n) in codes {
            let _ = writeln!(out, "    {} {code} ×{n}", if warning { "warning" } else { "error  " });
        }
    }
    out
}

#[test]
fn corpus() {
    let Some(dir) = shared::path(CORPUS) else { return };
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/psn-corpus"));
    settings.set_prepend_module_to_snapshot(false);
    let mut seen = 0;
    let mut total = 0;
    for (name, games) in GAMES {
        let path = dir.join(name);
        let Ok(bytes) = std::fs::read(&path) else { panic!("{name} is missing from the corpus") };
        let read = psn::check_bytes(&bytes, Default::default());
        assert_eq!(read.games.len(), *games, "{name}: games");
        total += read.games.len();
        seen += 1;
        // No character outside a game.
        let mut covered = vec![false; read.text.len()];
        for g in &read.games {
            covered[g.game.span.start..g.game.span.end].iter_mut().for_each(|c| *c = true);
        }
        for (i, c) in read.text.char_indices() {
            assert!(covered[i] || c.is_whitespace(), "{name}: {c:?} at byte {i} is in no game");
        }
        // The spec's form reads back to the same moves.
        for g in read.games.iter().filter(|g| g.is_valid()) {
            let written = g.to_psn();
            let again = psn::check_bytes(written.as_bytes(), Default::default());
            assert_eq!(again.games.len(), 1, "{name} line {}: the written game:\n{written}", g.game.line);
            let played = |g: &psn::CheckedGame| {
                g.replay.as_ref().zip(g.to_game()).map(|(r, game)| (game.to_usi(), r.played.len()))
            };
            assert_eq!(played(&again.games[0]), played(g), "{name} line {}:\n{written}", g.game.line);
        }
        settings.bind(|| insta::assert_snapshot!(name.trim_end_matches(".psn"), summary(&read)));
    }
    let files = shared::psn_files().unwrap_or_default().len();
    assert_eq!(seen, files, "a corpus file is not in the table");
    assert_eq!(total, 175);
}

#[test]
fn the_corrupted_copy_is_in_error() {
    let Some(dir) = shared::path(CORPUS) else { return };
    let bytes = std::fs::read(dir.join("acmvit-single-game-md-corrupted.psn")).expect("the corrupted copy");
    let read = psn::check_bytes(&bytes, Default::default());
    let codes: Vec<&str> = read.games[0].diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["psn::bad-move", "psn::unknown-word"],
        "`24.R7f--4b`, counted as a ply (no repair of it lets the moves after it play, so the replay stops \
         there), and the stray `2f`, not a ply in a game that numbers every ply"
    );
}

/// pychess's games read as Fairy-Stockfish SAN means them: `Pxg3=G` promotes, `Gxg3` takes the
/// tokin with a gold, `Bxe3=H` and `Bxa9=H` make horses, `P@g4` and `S@g4` drop; the 2019 game
/// in shogi coordinates reads its `+` as promotions.
#[test]
fn pychess_games() {
    let Some(dir) = shared::path(CORPUS) else { return };
    let ends = [
        (
            "pychess-issue1262-shogi-pgn-fairysan.psn",
            "+Bng5l/3k1g3/pppsp1np1/3p1sr2/2P1Pp2p/2S3sP1/PP1PGPG1L/1B6R/LN1K3N1 b L2Pp 53",
        ),
        (
            "pychess-issue36-shogi-pgn-western.psn",
            "lnsgkgsnl/7b1/p1ppppppp/9/9/8P/P2PPPPP1/6GS1/L1+r2+pKNL b rbgsn2p 23",
        ),
    ];
    for (name, end) in ends {
        let bytes = std::fs::read(dir.join(name)).expect("a pychess file of the corpus");
        let read = psn::check_bytes(&bytes, Default::default());
        assert_eq!(read.games.len(), 1, "{name}");
        let g = &read.games[0];
        assert_eq!(g.game.dialect, kifu::psn::Dialect::Pychess, "{name}");
        assert!(g.is_valid(), "{name}: {:?}", g.diagnostics.iter().filter(|d| d.is_error()).collect::<Vec<_>>());
        let r = g.replay.as_ref().expect("replayed");
        assert_eq!(r.illegal_at, None, "{name}");
        assert_eq!(r.end.to_position().to_string(), end, "{name}");
    }
}
