//! The generator the peer bench and the tests share makes what it says: valid records (by kifu
//! and by haitaka, another library's rules), PSN games kifu reads as valid, the same output for
//! the same seed, and slips that change a record by one character.

use crate::common::generate;

use generate::{psn_games, sfen_records, slip, Rng, SFEN_ALPHABET};
use kifu::sfen::{self, DialectChoice};

#[test]
fn generated_sfen_records_are_valid_for_kifu_and_for_haitaka() {
    let records = sfen_records(7, 2000);
    assert_eq!(records.len(), 2000);
    assert_eq!(records, sfen_records(7, 2000), "the same seed, the same records");
    for r in &records {
        let checked = sfen::check(r, DialectChoice::Usi);
        assert!(checked.is_valid(), "{r}: {:?}", checked.diagnostics);
        assert!(haitaka::Board::from_sfen(r).is_ok(), "haitaka refuses {r}");
    }
    let distinct: std::collections::HashSet<_> = records.iter().collect();
    assert!(distinct.len() > 1900, "positions from many games: {}", distinct.len());
}

#[test]
fn generated_psn_games_are_valid() {
    let text = psn_games(3, 40_000);
    assert!(text.len() >= 40_000);
    let file = kifu::psn::check_bytes(text.as_bytes(), Default::default());
    assert!(file.games.len() > 10);
    for g in &file.games {
        assert!(g.is_valid(), "{}: {:?}", g.text(&file.text), g.diagnostics);
        assert!(!g.game.moves.is_empty());
    }
}

#[test]
fn a_slip_changes_one_character() {
    let mut rng = Rng::new(1);
    let record = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    for _ in 0..200 {
        let s = slip(record, SFEN_ALPHABET, &mut rng);
        let (a, b): (Vec<char>, Vec<char>) = (record.chars().collect(), s.chars().collect());
        let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
        assert!(a.len().abs_diff(b.len()) <= 1 && prefix + suffix + 1 >= a.len().max(b.len()), "{s}");
    }
}
