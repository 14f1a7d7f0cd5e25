//! Properties over generated input: printing and parsing are inverse, the DFA fast path and the
//! pest grammar accept the same records and build the same tree (with the same findings), and the recovery path finds an
//! error exactly where the grammar rejects.

use crate::common;

use common::strategies::{self, shogi_position as position};
use kifu::sfen::{self, build, fast, parser::Rule, parser::SfenParser, Dialect, DialectChoice, Position};
use kifu::shogi::Violation;
use pest::Parser;
use proptest::prelude::*;

/// Pieces of SFEN records and things that are not, glued together.
fn record_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        8 => prop::sample::select(vec![
            "l", "n", "s", "g", "k", "b", "r", "p", "L", "N", "S", "G", "K", "B", "R", "P", "+", "/", "1", "2", "3",
            "4", "5", "8", "9", "0", " ", "-", "b", "w", "B", "W", "2P", "10p", "99", "100",
        ]),
        1 => prop::sample::select(vec!["  ", "\t", "_", "ｐ", "–", "\u{0}", "９", "x", "Q", "++", "\u{3000}"]),
        2 => Just("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"),
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

/// A valid record with a few characters changed.
fn mutated() -> impl Strategy<Value = String> {
    strategies::mutated(position(), vec!["", "/", "+", "1", "9", " ", "p", "K", "-", "0"])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn print_then_parse_is_identity(p in position()) {
        strategies::round_trip(&p)?;
        if p.move_number.is_none_or(|n| n <= 99) {
            let old = p.to_sfen(Dialect::Sfen2007).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let checked = sfen::check(&old, DialectChoice::Sfen2007);
            prop_assert_eq!(checked.record.dialect, Some(Dialect::Sfen2007));
            let again = Position::from_record(&checked.record);
            prop_assert_eq!(again.as_ref(), Some(&p), "{}", old);
        }
    }

    /// The rules judged on the position itself and the rules the checker reports on its
    /// record agree: one violation for each error, of the same rule, in the same order.
    #[test]
    fn violations_are_the_checkers_errors(p in position()) {
        let text = p.to_string();
        let errors: Vec<&str> = sfen::check(&text, DialectChoice::Usi).errors().map(|d| d.code.as_str()).collect();
        let violations: Vec<&str> = p.violations().iter().map(|v| match v {
            Violation::TwoKings { .. } => "sfen::two-kings",
            Violation::DeadPiece { .. } => "sfen::dead-piece",
            Violation::Nifu { .. } => "sfen::nifu",
            Violation::OppositeCheck { .. } => "sfen::opposite-check",
            Violation::ImpossibleCheck { .. } => "sfen::impossible-check",
            Violation::TooManyPieces { .. } => "sfen::too-many-pieces",
            _ => "a violation the checker does not know",
        }).collect();
        prop_assert_eq!(errors, violations, "{}", text);
        prop_assert_eq!(p.legal().is_ok(), sfen::check(&text, DialectChoice::Usi).is_valid(), "{}", text);
    }

    #[test]
    fn fast_path_and_grammar_agree(text in prop_oneof![record_like(), mutated()]) {
        agree(&text)?;
    }
}

fn agree(text: &str) -> Result<(), TestCaseError> {
    let by_dfa = fast::matches(text, DialectChoice::Auto).is_some();
    let by_pest = SfenParser::parse(Rule::record, text).is_ok();
    prop_assert_eq!(by_dfa, by_pest, "DFA and pest disagree on {:?}", text);
    let (tree, diagnostics) = build::build(text, DialectChoice::Auto);
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    let widths_ok = tree.board.as_ref().is_some_and(|b| b.ranks.iter().all(|r| b.width(r) == 9));
    // Beyond the grammar, kifu counts squares and keeps move numbers in a u64 (spec notes 2, 8).
    let number_fits = text.split(' ').nth(3).is_none_or(|n| n.parse::<u64>().is_ok());
    // The fast reader reads every record the grammar accepts whose numbers fit: the tree the
    // builder makes, spans included, and its findings (ranks of the wrong width) word for word.
    if by_pest && number_fits {
        let read = fast::read(text, DialectChoice::Auto);
        prop_assert!(read.is_some(), "the fast reader declines {:?}", text);
        prop_assert_eq!(format!("{:?}", read), format!("{:?}", Some((&tree, &diagnostics))));
    } else {
        prop_assert!(fast::read(text, DialectChoice::Auto).is_none());
    }
    if by_pest && widths_ok && number_fits {
        prop_assert!(errors.is_empty(), "grammar accepts {:?} but the recovery path reports {:?}", text, errors);
        let quick = fast::parse(text, DialectChoice::Auto);
        prop_assert!(quick.is_some(), "the fast path declines {:?}", text);
        // Same tree, spans included.
        prop_assert_eq!(format!("{:?}", quick), format!("{:?}", Some(tree)));
    } else {
        prop_assert!(!errors.is_empty(), "grammar rejects {:?} but the recovery path finds no error", text);
        prop_assert!(fast::parse(text, DialectChoice::Auto).is_none());
    }
    Ok(())
}

#[test]
fn agreement_on_hand_picked_edges() {
    for text in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 100",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 123P 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 12P 01",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -P",
        "lnsgkgsnl/1r5b1/ppppppppp/45/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2p3P",
        "",
        " ",
    ] {
        agree(text).map_err(|e| format!("{text:?}: {e}")).expect("agree");
    }
}
