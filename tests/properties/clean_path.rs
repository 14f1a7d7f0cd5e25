//! The clean path — a record read straight from its bytes into its position, with no syntax
//! tree and no spans, when it has no finding at all — gives exactly the verdict of the full
//! check: it takes a record if and only if the full check finds nothing in it, and then reads
//! the same position in the same dialect. Over generated records, the same with one or two
//! characters slipped, and records made to have each form warning.

use crate::common::generate;

use generate::{fen_records, sfen_records, slip, Rng, FEN_ALPHABET, SFEN_ALPHABET};
use kifu::fen;
use kifu::sfen::{self, DialectChoice};

/// Asserts that the clean path and the full check agree on `text` in every dialect choice;
/// true when the record is clean.
fn sfen_agrees(text: &str) -> bool {
    let mut clean_somewhere = false;
    for choice in [DialectChoice::Auto, DialectChoice::Usi, DialectChoice::Sfen2007] {
        let full = sfen::check_without_repair(text, choice);
        let clean = sfen::fast::clean(text, choice);
        let codes: Vec<&str> = full.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(clean.is_some(), codes.is_empty(), "{choice:?} `{text}`: {codes:?}");
        if let Some((position, dialect)) = clean {
            assert_eq!(Some(position), full.position, "{choice:?} `{text}`");
            assert_eq!(Some(dialect), full.record.dialect, "{choice:?} `{text}`");
            clean_somewhere = true;
        }
    }
    clean_somewhere
}

#[test]
fn sfen_clean_path_agrees_with_the_full_check() {
    let records = sfen_records(21, 3000);
    let mut rng = Rng::new(22);
    let (mut clean, mut all) = (0, 0);
    for record in &records {
        let once = slip(record, SFEN_ALPHABET, &mut rng);
        let twice = slip(&once, SFEN_ALPHABET, &mut rng);
        for text in [record.as_str(), &once, &twice] {
            all += 1;
            clean += usize::from(sfen_agrees(text));
        }
    }
    // Both verdicts are well represented: every generated record, and few of the slipped ones.
    assert!(clean >= records.len() && clean < all * 2 / 3, "{clean} clean of {all}");
}

#[test]
fn sfen_form_warnings_and_rules_leave_the_clean_path() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert!(sfen_agrees(start));
    assert!(sfen_agrees("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1"));
    let hands = "4k4/9/9/9/9/9/9/9/4K4 b ";
    for not_clean in [
        // Form: a split run of empty squares; hands out of order, listed twice, a count of 1.
        "lnsgkgsnl/1r5b1/ppppppppp/45/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned(),
        format!("{hands}pP 1"),
        format!("{hands}PP 1"),
        format!("{hands}1P 1"),
        format!("{hands}Rp2P 1"),
        // Rules: a missing king (a warning), two kings, nifu, a piece that can never move, the
        // side not to move in check, too many pieces, the move number's parity.
        "4k4/9/9/9/9/9/9/9/9 b - 1".to_owned(),
        "4k4/9/9/9/9/9/9/9/3KK4 b - 1".to_owned(),
        "4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1".to_owned(),
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1".to_owned(),
        "4k4/9/9/9/9/9/9/9/4K4 b 19P 1".to_owned(),
        "4k4/4R4/9/9/9/9/9/9/4K4 b - 1".to_owned(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2".to_owned(),
        // Syntax: a rank of eight squares, a tenth rank; a rank of ten squares before one of
        // eight, and a last rank of ten (81 squares in all, and more).
        "lnsgkgsn/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1".to_owned(),
        "lnsgkgsnlp/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLP b - 1".to_owned(),
    ] {
        assert!(!sfen_agrees(&not_clean), "`{not_clean}` is not clean");
    }
    // Canonical hands and a position with checks are clean.
    assert!(sfen_agrees(&format!("{hands}R2Gb2n18p 1")));
    assert!(sfen_agrees("4k4/9/4R4/9/9/9/9/9/4K4 w - 2"));
}

/// Asserts that the clean path and the full check agree on the FEN record `text` in both
/// dialects; true when the record is clean.
fn fen_agrees(text: &str) -> bool {
    let mut clean_somewhere = false;
    for dialect in [fen::Dialect::Standard, fen::Dialect::Chess960] {
        let full = fen::check_without_repair(text, fen::Kind::Fen, dialect);
        let clean = fen::fast::clean(text, dialect);
        let codes: Vec<&str> = full.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(clean.is_some(), codes.is_empty(), "{dialect:?} `{text}`: {codes:?}");
        assert_eq!(fen::fast::is_clean(text, dialect), clean.is_some(), "{dialect:?} `{text}`");
        if let Some(position) = clean {
            assert_eq!(Some(position), full.position, "{dialect:?} `{text}`");
            clean_somewhere = true;
        }
    }
    clean_somewhere
}

#[test]
fn fen_clean_path_agrees_with_the_full_check() {
    let records = fen_records(23, 3000);
    let mut rng = Rng::new(24);
    let (mut clean, mut all) = (0, 0);
    for record in &records {
        let once = slip(record, FEN_ALPHABET, &mut rng);
        let twice = slip(&once, FEN_ALPHABET, &mut rng);
        for text in [record.as_str(), &once, &twice] {
            all += 1;
            clean += usize::from(fen_agrees(text));
        }
    }
    assert!(clean >= records.len() && clean < all * 2 / 3, "{clean} clean of {all}");
}

#[test]
fn fen_form_warnings_and_rules_leave_the_clean_path() {
    assert!(fen_agrees("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    assert!(fen_agrees("4k3/8/8/8/8/8/8/4K3 b - - 10 40"));
    for not_clean in [
        // Form: a split run of blank squares, castling rights out of order.
        "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QKkq - 0 1",
        // Rules: the clocks, kings, a pawn on the back rank, material, checks, castling
        // rights without their rook, a repeated right, an en passant square with no pawn.
        "4k3/8/8/8/8/8/8/4K3 w - - 5 1",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/PPPPPPPP/QQQQK3 w - - 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1",
        // Five rights, two on one side of a king (read in full: the quick reading holds four).
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkqA - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w AHKQah - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        // Syntax: a rank of seven squares; a rank of nine before one of seven, and a last rank
        // of nine.
        "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnrp/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRP w KQkq - 0 1",
    ] {
        assert!(!fen_agrees(not_clean), "`{not_clean}` is not clean");
    }
}
