//! Rules of the games held by assertions on the codes a record gets, beside the fixture
//! snapshots that draw the same reports: each rule's refusal, and the nearest record it must
//! let through.

use kifu::diagnostic::Code;
use kifu::fen::{self, Dialect, Kind};
use kifu::sfen::{self, DialectChoice};

/// No error.
const NONE: [Code; 0] = [];

/// The codes of the errors of an FEN record.
fn fen_errors(record: &str) -> Vec<Code> {
    let checked = fen::check_without_repair(record, Kind::Fen, Dialect::Standard);
    checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect()
}

/// The codes of the errors of an SFEN record.
fn sfen_errors(record: &str) -> Vec<Code> {
    let checked = sfen::check_without_repair(record, DialectChoice::Auto);
    checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect()
}

#[test]
fn an_en_passant_square_needs_the_double_step_path_empty() {
    // d7-d5 just happened: d7 (its origin) and d6 (the square it crossed) are empty.
    assert_eq!(fen_errors("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"), NONE);
    // Something stands on the origin, or on the square crossed.
    assert_eq!(fen_errors("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 2"), [kifu::diagnostic::Code::FenEpBlocked]);
    assert_eq!(fen_errors("4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 2"), [kifu::diagnostic::Code::FenEpBlocked]);
    // White's double step, Black to move: e2 and e3.
    assert_eq!(fen_errors("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), NONE);
    assert_eq!(fen_errors("4k3/8/8/8/3pP3/8/4N3/4K3 b - e3 0 1"), [kifu::diagnostic::Code::FenEpBlocked]);
    assert_eq!(fen_errors("4k3/8/8/8/3pP3/4N3/8/4K3 b - e3 0 1"), [kifu::diagnostic::Code::FenEpBlocked]);
}

#[test]
fn three_checkers_are_refused_in_both_games() {
    // A bishop, a knight and a rook on the white king: no move gives three checks.
    assert_eq!(fen_errors("4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1"), [kifu::diagnostic::Code::FenImpossibleCheck]);
    // Two of them, the rook's uncovered by the knight's move: a discovered double check.
    assert_eq!(fen_errors("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1"), NONE);
    // A knight, a gold and a silver on the black king.
    assert_eq!(sfen_errors("4k4/9/3n5/4gs3/4K4/9/9/9/9 b - 1"), [kifu::diagnostic::Code::SfenImpossibleCheck]);
}

#[test]
fn a_tokin_is_no_second_pawn() {
    // Two unpromoted pawns of one side on a file: nifu.
    assert_eq!(sfen_errors("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1"), [kifu::diagnostic::Code::SfenNifu]);
    // A pawn and a tokin, or a pawn of each side, on the same file: no nifu.
    assert_eq!(sfen_errors("4k4/9/9/9/4+P4/9/4P4/9/4K4 b - 1"), NONE);
    assert_eq!(sfen_errors("4k4/9/9/4p4/9/9/4P4/9/4K4 b - 1"), NONE);
}
