//! Safe fixes are checked before they are called safe: the record a fix makes is read again,
//! and a fix that leaves its finding or brings another is only offered (unsafe).

use super::{Applicability, Code, Diagnostic};
use crate::span::Span;

/// Most safe fixes of one record that [`vet_fixes`] tries; any further one becomes unsafe, so
/// no record costs more than this many more reads.
pub const MAX_VETTED: usize = 16;

/// How many findings of each code `diagnostics` hold, and how many of those have a safe fix.
fn census(diagnostics: &[Diagnostic]) -> Vec<(Code, usize, usize)> {
    let mut counts: Vec<(Code, usize, usize)> = Vec::new();
    for d in diagnostics {
        let safe = usize::from(d.safe_fix().is_some());
        match counts.iter_mut().find(|(c, ..)| *c == d.code) {
            Some((_, n, s)) => {
                *n += 1;
                *s += safe;
            }
            None => counts.push((d.code, 1, safe)),
        }
    }
    counts
}

fn count(counts: &[(Code, usize, usize)], code: Code) -> (usize, usize) {
    counts.iter().find(|(c, ..)| *c == code).map_or((0, 0), |(_, n, s)| (*n, *s))
}

/// Drops the fixes of `diagnostics` that would make `text`, not blank, blank. Only a fix whose
/// edits put in nothing but whitespace can, so only those are applied to see.
fn drop_emptying_fixes(text: &str, diagnostics: &mut [Diagnostic]) {
    if text.trim().is_empty() {
        return;
    }
    let empties = |fix: &super::Fix| {
        fix.edits.iter().all(|e| e.replacement.trim().is_empty())
            && fix.apply(text).is_some_and(|fixed| fixed.trim().is_empty())
    };
    for d in diagnostics.iter_mut() {
        d.fixes.retain(|fix| !empties(fix));
    }
}

/// Keeps the safe fix of a finding of an invalid record (`text`, whose findings are
/// `diagnostics`) safe only when the record it makes, read by `check`, has one fewer finding of
/// its code and no more of any other, and no more safe fixes of any code (so that applying the
/// safe fixes once leaves none to apply): a fix that leaves the record broken in a new way, or
/// brings to light a fault that the first one hid, is not sure to be what the author meant,
/// and becomes unsafe. A valid record is left as it is: the fixes of warnings keep the
/// position as it is, and valid records pay nothing.
///
/// Before that, any fix (safe or not) that would leave a record that is not blank blank is
/// dropped: a fix never removes a record's line (a `0` alone, whose fix removes the `0`).
pub fn vet_fixes(text: &str, diagnostics: &mut [Diagnostic], check: impl Fn(&str) -> Vec<Diagnostic>) {
    drop_emptying_fixes(text, diagnostics);
    if !diagnostics.iter().any(Diagnostic::is_error) {
        return;
    }
    let before = census(diagnostics);
    let mut tried = 0;
    for d in diagnostics.iter_mut() {
        let Some(fixed) = d.safe_fix().map(|fix| fix.apply(text)) else { continue };
        let sound = tried < MAX_VETTED
            && fixed.is_some_and(|fixed| {
                let after = census(&check(&fixed));
                count(&after, d.code).0 < count(&before, d.code).0
                    && after.iter().all(|&(c, n, safe)| {
                        let (was, was_safe) = count(&before, c);
                        (c == d.code || n <= was) && safe <= was_safe
                    })
            });
        tried += 1;
        if !sound {
            d.fixes[0].applicability = Applicability::Unsafe;
        }
    }
    // One pass applies only one of two safe fixes that overlap: the fix of a warning that
    // overlaps the safe fix of an error (which makes the record valid) is only offered.
    let repairs: Vec<Span> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .filter_map(Diagnostic::safe_fix)
        .flat_map(|fix| fix.edits.iter().map(|e| e.span))
        .collect();
    for d in diagnostics.iter_mut().filter(|d| !d.is_error()) {
        let overlaps = |span: Span| repairs.iter().any(|r| span.start < r.end && r.start < span.end);
        if d.safe_fix().is_some_and(|fix| fix.edits.iter().any(|e| overlaps(e.span))) {
            d.fixes[0].applicability = Applicability::Unsafe;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{codes, Fix};
    use crate::span::Span;

    fn finding(code: Code, fixed: &str) -> Diagnostic {
        Diagnostic::error(code, Span::new(0, 1), "m").fix(Fix::replace(Span::new(0, 1), fixed, Applicability::Safe))
    }

    /// A reader of one-letter records: `a` is valid, `b` a syntax fault, `c` a fault of the
    /// rules, `d` a fault of the rules with a safe fix.
    fn check(text: &str) -> Vec<Diagnostic> {
        match text {
            "b" => vec![finding(codes::sfen::SYNTAX, "a")],
            "c" => vec![Diagnostic::error(codes::sfen::NIFU, Span::new(0, 1), "m")],
            "d" => vec![finding(codes::sfen::NIFU, "a")],
            _ => Vec::new(),
        }
    }

    #[test]
    fn a_fix_after_which_another_fix_is_safe_is_unsafe() {
        // Applying the safe fixes once would leave one to apply.
        let nifu = Diagnostic::error(codes::sfen::NIFU, Span::new(0, 1), "m");
        let mut found = vec![finding(codes::sfen::SYNTAX, "d"), nifu];
        vet_fixes("e", &mut found, check);
        assert_eq!(found[0].fixes[0].applicability, Applicability::Unsafe);
    }

    #[test]
    fn a_fix_that_brings_another_fault_is_unsafe() {
        let mut good = vec![finding(codes::sfen::SYNTAX, "a")];
        vet_fixes("b", &mut good, check);
        assert_eq!(good[0].fixes[0].applicability, Applicability::Safe);
        let mut bad = vec![finding(codes::sfen::SYNTAX, "c")];
        vet_fixes("b", &mut bad, check);
        assert_eq!(bad[0].fixes[0].applicability, Applicability::Unsafe);
        let mut same = vec![finding(codes::sfen::SYNTAX, "b")];
        vet_fixes("b", &mut same, check);
        assert_eq!(same[0].fixes[0].applicability, Applicability::Unsafe, "the finding is still there");
    }

    #[test]
    fn only_so_many_fixes_are_tried() {
        let mut many: Vec<Diagnostic> = (0..MAX_VETTED + 2).map(|_| finding(codes::sfen::SYNTAX, "a")).collect();
        vet_fixes("b", &mut many, check);
        let safe = many.iter().filter(|d| d.safe_fix().is_some()).count();
        assert_eq!(safe, MAX_VETTED);
    }

    #[test]
    fn a_warnings_fix_over_an_errors_safe_fix_is_unsafe() {
        // One pass can apply only one of the two: the error's, which makes the record valid.
        let order = Diagnostic::warning(codes::sfen::HAND_ORDER, Span::new(0, 2), "m").fix(Fix::replace(
            Span::new(0, 2),
            "ba",
            Applicability::Safe,
        ));
        let repair = Diagnostic::error(codes::sfen::TOO_MANY_PIECES, Span::new(1, 2), "m").fix(Fix::replace(
            Span::new(1, 2),
            "",
            Applicability::Safe,
        ));
        let elsewhere = Diagnostic::warning(codes::sfen::SPLIT_EMPTY_RUN, Span::new(2, 3), "m").fix(Fix::replace(
            Span::new(2, 3),
            "c",
            Applicability::Safe,
        ));
        let mut found = vec![order, repair, elsewhere];
        vet_fixes("abd", &mut found, |_| Vec::new());
        let safe: Vec<bool> = found.iter().map(|d| d.safe_fix().is_some()).collect();
        assert_eq!(safe, [false, true, true]);
    }
}
