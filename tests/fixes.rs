//! Every finding that carries a fix: applying it removes the finding and adds none, and a
//! safe fix makes an otherwise valid record valid.

use kifu::diagnostic::codes::{fen, sfen};
use kifu::diagnostic::{Applicability, Code};
use kifu::format::Format;
use kifu::sfen::DialectChoice;
use kifu::Diagnostic;

const SFEN: Format = Format::Sfen(DialectChoice::Auto);
const FEN: Format = Format::Fen(kifu::fen::Dialect::Standard);
const EPD: Format = Format::Epd;

/// A record with one finding (`code`) whose first fix has `applicability`, and what the
/// record reads after the fix.
struct Case {
    format: Format,
    record: &'static str,
    code: Code,
    applicability: Applicability,
    fixed: &'static str,
}

const fn case(format: Format, record: &'static str, code: Code, fixed: &'static str) -> Case {
    Case { format, record, code, applicability: Applicability::Safe, fixed }
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const FEN_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn cases() -> Vec<Case> {
    vec![
        case(SFEN, " lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", sfen::LEADING_WHITESPACE, START),
        case(
            SFEN,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 \t",
            sfen::TRAILING_WHITESPACE,
            START,
        ),
        case(SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL_b_-_1", sfen::SEPARATOR, START),
        case(
            SFEN,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b\t-  1",
            sfen::SEPARATOR,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -  1",
        ),
        case(FEN, "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", fen::LEADING_WHITESPACE, FEN_START),
        case(FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ", fen::TRAILING_WHITESPACE, FEN_START),
        case(FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\u{3000}1", fen::SEPARATOR, FEN_START),
        case(FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", fen::SEPARATOR, FEN_START),
        case(
            EPD,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\t",
            fen::TRAILING_WHITESPACE,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        ),
    ]
}

fn check(format: Format, text: &str) -> Vec<Diagnostic> {
    format.check_text(text).0
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<Code> {
    let mut codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    codes.sort_unstable();
    codes
}

/// The finding of `code` in `case`'s record, its fix applied, and the findings after.
fn apply(case: &Case) -> (String, Vec<Diagnostic>, Vec<Diagnostic>) {
    let before = check(case.format, case.record);
    let finding = before
        .iter()
        .find(|d| d.code == case.code)
        .unwrap_or_else(|| panic!("{:?}: no {} among {:?}", case.record, case.code, codes(&before)));
    let fix = finding.fixes.first().unwrap_or_else(|| panic!("{:?}: {} has no fix", case.record, case.code));
    assert_eq!(fix.applicability, case.applicability, "{:?}: {}", case.record, case.code);
    if fix.applicability == Applicability::Safe {
        assert_eq!(finding.safe_fix(), Some(fix), "{:?}: a safe fix is the only one", case.record);
    }
    let fixed = fix.apply(case.record).unwrap_or_else(|| panic!("{:?}: the fix does not apply", case.record));
    let after = check(case.format, &fixed);
    (fixed, before, after)
}

#[test]
fn each_fix_removes_its_finding_and_adds_none() {
    let mut failures = Vec::new();
    for case in cases() {
        let (fixed, before, after) = apply(&case);
        let (before, after) = (codes(&before), codes(&after));
        let mut expected = before.clone();
        if let Some(i) = expected.iter().position(|c| *c == case.code) {
            expected.remove(i);
        }
        let new: Vec<&Code> = after.iter().filter(|c| !expected.contains(c)).collect();
        if fixed != case.fixed || !new.is_empty() || after.len() > expected.len() {
            failures.push(format!(
                "{:?} ({}): fixed to {fixed:?}, expected {:?}; findings before {before:?}, after {after:?}",
                case.record, case.code, case.fixed
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_safe_fix_of_the_only_finding_leaves_a_clean_record() {
    for case in cases().iter().filter(|c| c.applicability == Applicability::Safe) {
        let (fixed, before, after) = apply(case);
        if before.len() == 1 {
            assert!(after.is_empty(), "{:?} fixed to {fixed:?} still has {:?}", case.record, codes(&after));
        }
    }
}
