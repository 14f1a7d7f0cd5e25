//! Double checks: valid when some last move of the side that just moved gives both checks
//! (`chess::retro`, `shogi::retro`), refused otherwise (`fen::impossible-check`,
//! `sfen::impossible-check`): a position for each kind of move that gives one, and for each
//! reason none does.

use kifu::diagnostic::{Code, Diagnostic};
use kifu::fen::{self, Dialect, Kind};
use kifu::sfen::{self, DialectChoice};

/// The errors of a checked record, as codes, and the help of its impossible check (`code`), if
/// any.
fn errors_and_help(diagnostics: &[Diagnostic], code: Code) -> (Vec<Code>, Option<String>) {
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    let help = errors.iter().find(|d| d.code == code).and_then(|d| d.help.clone());
    (errors.iter().map(|d| d.code).collect(), help)
}

/// The errors of the FEN record `record`, and the help of the impossible check, if any.
fn fen_errors(record: &str) -> (Vec<Code>, Option<String>) {
    let checked = fen::check_without_repair(record, Kind::Fen, Dialect::Standard);
    errors_and_help(&checked.diagnostics, kifu::diagnostic::Code::FenImpossibleCheck)
}

/// The errors of the SFEN record `record`, and the help of the impossible check, if any.
fn sfen_errors(record: &str) -> (Vec<Code>, Option<String>) {
    let checked = sfen::check_without_repair(record, DialectChoice::Auto);
    errors_and_help(&checked.diagnostics, kifu::diagnostic::Code::SfenImpossibleCheck)
}

/// Each record of `cases` (with how a move gives its checks) is valid.
fn all_valid(cases: &[(&str, &str)], errors: fn(&str) -> (Vec<Code>, Option<String>)) {
    for (record, how) in cases {
        assert_eq!(errors(record), (vec![], None), "{record}: {how}");
    }
}

/// Each record of `cases` (with why no move gives its checks) is refused with `code` alone,
/// whose help says that no last move gives both.
fn all_refused(cases: &[(&str, &str)], errors: fn(&str) -> (Vec<Code>, Option<String>), code: Code) {
    for (record, why) in cases {
        let (found, help) = errors(record);
        assert_eq!(found, [code], "{record}: {why}");
        assert!(help.is_some_and(|h| h.contains("has no last move that gives both checks")), "{record}: {why}");
    }
}

#[test]
fn every_kind_of_chess_double_check_a_move_gives_is_valid() {
    all_valid(
        &[
            ("4k3/8/8/8/1b6/5n2/8/4K3 w - - 0 1", "the knight d2-f3 uncovers the bishop"),
            ("4k3/8/8/8/4r3/8/2n5/4K3 w - - 0 1", "the knight e3-c2 uncovers the rook"),
            ("8/8/3k4/4P3/8/8/8/3RK3 b - - 0 1", "the pawn d4xe5 uncovers the rook"),
            ("rnbq1bnr/ppp1pppp/3k4/4P3/8/8/8/3RK3 b - - 0 1", "d4xe5 again: Black has lost a piece"),
            ("4N3/3R2k1/8/8/8/8/8/4K3 b - - 0 1", "the push e7-e8=N uncovers the rook"),
            ("4N3/2k4R/8/8/8/8/8/4K3 b - - 0 1", "the capture d7xe8=N uncovers the rook"),
            ("8/8/3Pk3/8/8/8/B7/4R1K1 b - - 0 1", "e5xd6 en passant: the pawns leave e5 and d5"),
            ("8/ppp2ppp/3Pk3/7p/8/8/B7/4R1K1 b - - 0 1", "the same, Black having lost a pawn"),
            ("4k3/8/8/8/1b6/8/4r3/4K3 w - - 0 1", "the rook d2-e2 uncovers the bishop"),
            ("6k1/8/8/3B4/8/8/8/K5R1 b - - 0 1", "the bishop g4-d5 uncovers the rook"),
        ],
        fen_errors,
    );
}

#[test]
fn chess_double_checks_no_last_move_gives_are_refused() {
    all_refused(
        &[
            ("4k3/8/8/8/7b/8/3p4/4K3 w - - 0 1", "a pawn and a bishop: the pawn came from no square on the diagonal"),
            ("4k3/8/8/4q3/7q/8/8/4K3 w - - 0 1", "the queen on e5 left g3 only, where it gave check already"),
            ("4k3/8/8/8/8/8/4r3/r3K3 w - - 0 1", "the rook on e2 came from no square on the first rank"),
            ("4k3/8/8/8/1b6/8/6n1/4K3 w - - 0 1", "the knight on g2 came from no square on the diagonal"),
            ("rnbq1bnr/pppppppp/3k4/4P3/8/8/8/3RK3 b - - 0 1", "d4xe5 takes a piece, and Black has all 16"),
            ("8/ppp2ppp/3Pk3/p6p/8/8/B7/4R1K1 b - - 0 1", "en passant takes a pawn, and Black has all 8"),
            ("k7/8/8/8/1K2B3/8/8/R7 b - - 0 1", "a king's move uncovers one line, and gives no check of its own"),
        ],
        fen_errors,
        kifu::diagnostic::Code::FenImpossibleCheck,
    );
}

#[test]
fn castling_gives_no_double_check() {
    // After 0-0-0 the rook on d1 checks along the first rank: a second check along it, from
    // beyond a square the castling emptied, comes from the other side of the king, which
    // stood on the way the king crossed. The quick rule of two checks on one line refuses it.
    let (found, help) = fen_errors("8/8/8/8/8/8/8/2KR1k1R b - - 0 1");
    assert_eq!(found, [kifu::diagnostic::Code::FenImpossibleCheck]);
    assert!(help.is_some_and(|h| h.contains("along the same line from both sides")));
}

#[test]
fn an_en_passant_square_leaves_the_checks_to_the_double_step() {
    // The last move is known, the pawn's double step d7-d5: it gives one check, not the
    // bishop's, and the finding about the double step says so, alone.
    let checked = fen::check_without_repair("4k3/7b/8/3p4/4K3/8/8/8 w - d6 0 1", Kind::Fen, Dialect::Standard);
    let found: Vec<_> =
        checked.diagnostics.iter().filter(|d| d.code == kifu::diagnostic::Code::FenImpossibleCheck).collect();
    assert_eq!(found.len(), 1);
    assert!(found[0].message.contains("which the last move cannot have given"), "{}", found[0].message);
}

#[test]
fn every_kind_of_shogi_double_check_a_move_gives_is_valid() {
    all_valid(
        &[
            ("k8/4r4/9/9/3n5/9/4K4/9/9 b - 1", "the knight 5c-6e uncovers the rook"),
            ("4k4/3S5/9/9/9/9/9/9/4L3K w - 1", "the silver 5c-6b uncovers the lance"),
            ("R3k4/4S4/9/9/9/9/9/9/8K w - 1", "the silver 6a-5b, stepping back, uncovers the rook"),
            ("4k4/5G3/9/9/9/9/9/9/4L3K w - 1", "the gold 5c-4b uncovers the lance"),
            ("4k+P3/9/9/9/8B/9/9/9/8K w - 1", "the pawn 4b-4a promotes (a tokin on 4b checks already)"),
            ("4k4/5G3/9/9/8B/9/9/9/4L3K w P 1", "the gold 5c-4b takes a pawn there, which blocked the bishop"),
            ("4k4/5+B3/9/9/9/9/9/9/4R3K w - 1", "the bishop 5c-4b promotes and uncovers the rook"),
        ],
        sfen_errors,
    );
}

#[test]
fn shogi_double_checks_no_last_move_gives_are_refused() {
    all_refused(
        &[
            ("9/R3k4/4P4/9/9/9/9/9/4K4 w - 1", "the pawn came from 5d, on no line of the rook"),
            ("k8/4r4/3n5/9/4K4/9/9/9/9 b - 1", "the knight came from 5a or 7a, on no line of the rook"),
            ("R3k4/9/9/9/9/9/9/9/4L3K w - 1", "the rook and the lance check along lines no move opened"),
            ("R3k4/3G5/9/9/9/9/9/9/8K w - 1", "only the gold leaving 6a uncovers the rook, and there it gave check"),
            ("4k4/5G3/9/9/8B/9/9/9/4L3K w - 1", "the gold's move took nothing: Black's hand is empty"),
            ("4k4/5G3/9/9/8B/9/9/9/4L3K w p 1", "the same, with a piece in White's hand only"),
        ],
        sfen_errors,
        kifu::diagnostic::Code::SfenImpossibleCheck,
    );
}
