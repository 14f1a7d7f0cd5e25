//! Properties over generated FEN: printing and parsing are inverse, and the DFA fast path and
//! the pest grammar accept the same records and build the same tree.

use crate::common;

use common::strategies;
use kifu::chess::{Board, Color, Piece, Role};
use kifu::chess::{CastleRight, CastleSide, CastlingMode, Violation};
use kifu::fen::{self, build, fast, parser::FenParser, parser::Rule, Dialect, Kind, Position};
use pest::Parser;
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = Option<Piece>> {
    prop_oneof![
        3 => Just(None),
        1 => (0..6usize, any::<bool>()).prop_map(|(r, black)| Some(Piece {
            color: if black { Color::Black } else { Color::White },
            role: Role::ALL[r],
        })),
    ]
}

fn position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(piece(), 64),
        any::<bool>(),
        prop::collection::btree_set((any::<bool>(), 0..10u8), 0..5),
        prop::option::of((0..8u8, any::<bool>())),
        0..1000u64,
        1..u64::MAX,
    )
        .prop_map(|(squares, black, rights, ep, halfmove, fullmove)| {
            let mut board = Board::default();
            for (i, p) in squares.into_iter().enumerate() {
                board.0[i] = p;
            }
            let mut castling: Vec<CastleRight> = rights
                .into_iter()
                .map(|(b, s)| CastleRight {
                    color: if b { Color::Black } else { Color::White },
                    side: match s {
                        8 => CastleSide::King,
                        9 => CastleSide::Queen,
                        f => CastleSide::File(std::cmp::Reverse(f)),
                    },
                })
                .collect();
            castling.sort_unstable();
            castling.dedup();
            Position {
                board,
                side: if black { Color::Black } else { Color::White },
                castling,
                en_passant: ep.and_then(|(f, six)| kifu::chess::Square::new(f, if six { 6 } else { 3 })),
                halfmove,
                fullmove,
            }
        })
}

/// FEN-like text: pieces, digits, separators and things that are not, glued together.
fn record_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        8 => prop::sample::select(vec![
            "p", "n", "b", "r", "q", "k", "P", "N", "B", "R", "Q", "K", "/", "1", "2", "3", "4", "7", "8", "9", "0",
            " ", "-", "w", "b", "KQkq", "Kq", "HAha", "e3", "d6", "e4", "0", "1", "12",
        ]),
        1 => prop::sample::select(vec!["  ", "\t", "_", "–", "\u{0}", "Ｒ", "x", "+", ";", "\""]),
        2 => Just("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

fn mutated() -> impl Strategy<Value = String> {
    strategies::mutated(position(), vec!["", "/", "1", "8", " ", "p", "K", "-", "0", "q"])
}

fn agree(text: &str, kind: Kind, dialect: Dialect, rule: Rule) -> Result<(), TestCaseError> {
    let by_dfa = fast::matches(text, kind, dialect);
    let by_pest = FenParser::parse(rule, text).is_ok();
    prop_assert_eq!(by_dfa, by_pest, "DFA and pest disagree on {:?}", text);
    let (tree, diagnostics) = build::build(text, kind, dialect);
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    let widths_ok = tree.placement.as_ref().is_some_and(|p| p.ranks.iter().all(|r| p.width(r) == 8));
    let once =
        tree.castling.as_ref().is_none_or(|c| c.rights.iter().enumerate().all(|(i, r)| !c.rights[..i].contains(r)));
    // Beyond the grammar, kifu counts squares, lists each right once, keeps counters in a u64
    // and starts the fullmove number at 1 (spec notes).
    let fields: Vec<&str> = text.split(' ').collect();
    let counters_ok = kind == Kind::Epd
        || (fields.get(4).is_some_and(|h| h.parse::<u64>().is_ok())
            && fields.get(5).and_then(|f| f.parse::<u64>().ok()).is_some_and(|f| f > 0));
    let sfen_like = fields.first().is_some_and(|b| b.split('/').count() == 9);
    // The fast reader reads every record the grammar accepts whose rights and counters kifu
    // takes: the tree the builder makes, spans included, and its findings (ranks of the wrong
    // width, or a board of nine) word for word.
    if by_pest && once && counters_ok {
        let read = fast::read(text, kind, dialect);
        prop_assert!(read.is_some(), "the fast reader declines {:?}", text);
        prop_assert_eq!(format!("{:?}", read), format!("{:?}", Some((&tree, &diagnostics))));
    } else {
        prop_assert!(fast::read(text, kind, dialect).is_none());
    }
    if by_pest && widths_ok && once && counters_ok && !sfen_like {
        prop_assert!(errors.is_empty(), "grammar accepts {:?} but the recovery path reports {:?}", text, errors);
        let quick = fast::parse(text, kind, dialect);
        prop_assert!(quick.is_some(), "the fast path declines {:?}", text);
        prop_assert_eq!(format!("{:?}", quick), format!("{:?}", Some(tree)));
    } else {
        prop_assert!(!errors.is_empty(), "grammar rejects {:?} but the recovery path finds no error", text);
        prop_assert!(fast::parse(text, kind, dialect).is_none());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn print_then_parse_is_identity(p in position()) {
        let text = strategies::round_trip(&p)?;
        let checked = fen::check(&text, Kind::Fen, Dialect::Chess960);
        prop_assert_eq!(checked.position.as_ref(), Some(&p));
    }

    /// The rules judged on the position itself and the rules the checker reports on its
    /// record agree: one violation for each error, of the same rule, in the same order (the
    /// rights a king away from home takes away are one error).
    #[test]
    fn violations_are_the_checkers_errors(p in position()) {
        let text = p.to_string();
        let checked = fen::check_without_repair(&text, Kind::Fen, Dialect::Chess960);
        let errors: Vec<&str> = checked.errors().map(|d| d.code.as_str()).collect();
        let violations = p.violations(CastlingMode::Chess960);
        let mut king_away: Vec<Color> = Vec::new();
        let codes: Vec<&str> = violations.iter().filter_map(|v| Some(match v {
            Violation::MissingKing { .. } => "fen::missing-king",
            Violation::TooManyKings { .. } => "fen::too-many-kings",
            Violation::PawnOnBackRank { .. } => "fen::pawn-on-back-rank",
            Violation::TooManyPawns { .. } => "fen::too-many-pawns",
            Violation::TooManyPieces { .. } => "fen::too-many-pieces",
            Violation::ImpossibleMaterial { .. } => "fen::impossible-material",
            Violation::OppositeCheck { .. } => "fen::opposite-check",
            Violation::ImpossibleCheck { .. } | Violation::CheckAfterDoubleStep { .. } => "fen::impossible-check",
            Violation::CastlingRight { right, problems } => {
                let color = p.castling[*right].color;
                if problems.iter().any(|p| p.king_away()) {
                    if king_away.contains(&color) {
                        return None;
                    }
                    king_away.push(color);
                }
                "fen::castling-rights"
            }
            Violation::CastlingRepeat { .. } => "fen::castling-repeat",
            Violation::EnPassantRank { .. } => "fen::ep-rank",
            Violation::EnPassantNoPawn { .. } => "fen::ep-no-pawn",
            Violation::EnPassantBlocked { .. } => "fen::ep-blocked",
            Violation::EnPassantHalfmove { .. } => "fen::ep-halfmove",
            _ => "a violation the checker does not know",
        })).collect();
        prop_assert_eq!(errors, codes, "{}", &text);
        prop_assert_eq!(p.legal_in(CastlingMode::Chess960).is_ok(), checked.is_valid(), "{}", text);
    }

    #[test]
    fn fast_path_and_grammar_agree(text in prop_oneof![record_like(), mutated()]) {
        agree(&text, Kind::Fen, Dialect::Standard, Rule::fen_record)?;
        agree(&text, Kind::Fen, Dialect::Chess960, Rule::fen960_record)?;
        agree(&text, Kind::Epd, Dialect::Standard, Rule::epd_record)?;
    }
}
