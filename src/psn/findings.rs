//! The findings of one game, bounded: a game with a million faults keeps the first
//! [`MAX_FINDINGS_PER_GAME`] of them, in text order, and one more finding says how many were left
//! out. Memory stays bounded while they are found: whenever twice the limit are held, only the
//! first ones are kept and the rest counted.

use crate::diagnostic::codes;
use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;

/// The most findings one game reports. Past it, `psn::more-findings` says how many more there
/// were, and whether errors were among them (so that the game's verdict never changes).
pub const MAX_FINDINGS_PER_GAME: usize = 100;

/// The findings of a game as they are found.
#[derive(Debug, Default)]
pub struct Findings {
    kept: Vec<Diagnostic>,
    /// How many were left out, how many of those were errors, and where the first of them is.
    dropped: usize,
    dropped_errors: usize,
    first_dropped: Option<Span>,
    /// How many of each code were left out (a few dozen codes at most).
    dropped_codes: Vec<(crate::diagnostic::Code, usize)>,
}

impl Findings {
    /// No findings yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// True when nothing was found (none kept, none left out).
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.dropped == 0
    }

    /// Adds a finding.
    pub fn push(&mut self, d: Diagnostic) {
        self.kept.push(d);
        if self.kept.len() >= 2 * MAX_FINDINGS_PER_GAME {
            self.trim();
        }
    }

    /// Inserts a finding before every other one at the same place.
    pub fn push_first(&mut self, d: Diagnostic) {
        self.kept.insert(0, d);
        if self.kept.len() >= 2 * MAX_FINDINGS_PER_GAME {
            self.trim();
        }
    }

    /// Adds the findings of `other`, and its count of findings left out.
    pub fn append(&mut self, other: Findings) {
        self.dropped += other.dropped;
        self.dropped_errors += other.dropped_errors;
        self.first_dropped = min_span(self.first_dropped, other.first_dropped);
        for (code, n) in other.dropped_codes {
            self.count_dropped(code, n);
        }
        self.extend(other.kept);
    }

    /// Keeps only the findings for which `keep` is true (among those kept so far).
    pub fn retain(&mut self, keep: impl FnMut(&Diagnostic) -> bool) {
        self.kept.retain(keep);
    }

    /// The findings kept so far (not in order), to change.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Diagnostic> {
        self.kept.iter_mut()
    }

    /// The findings kept so far (not in order).
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.kept.iter()
    }

    /// How many warnings there are, those left out included.
    pub fn warnings(&self, counted: impl Fn(&Diagnostic) -> bool) -> usize {
        self.kept.iter().filter(|d| d.severity == Severity::Warning && counted(d)).count()
            + (self.dropped - self.dropped_errors)
    }

    /// Puts the findings in text order.
    pub fn sort(&mut self) {
        self.kept.sort_by_key(|d| (d.span().start, d.span().end));
    }

    /// The findings in text order, at most [`MAX_FINDINGS_PER_GAME`] of them, then
    /// `psn::more-findings` if some were left out.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        self.sort();
        if self.kept.len() > MAX_FINDINGS_PER_GAME {
            self.trim();
        }
        if let Some(at) = self.first_dropped.filter(|_| self.dropped > 0) {
            let (n, errors) = (self.dropped, self.dropped_errors);
            let what = match errors {
                0 => format!("{n} more {}", plural(n, "warning", "warnings")),
                e if e == n => format!("{n} more {}", plural(n, "error", "errors")),
                e => format!("{n} more findings ({e} {})", plural(e, "error", "errors")),
            };
            // The most frequent codes first.
            self.dropped_codes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let mut codes: Vec<String> =
                self.dropped_codes.iter().take(SHOWN_CODES).map(|(code, n)| format!("{n} {code}")).collect();
            if self.dropped_codes.len() > SHOWN_CODES {
                codes.push("…".to_owned());
            }
            let message = format!("{what} in this game not shown: {}", codes.join(", "));
            let d = if errors > 0 { Diagnostic::error } else { Diagnostic::warning };
            self.kept.push(d(codes::psn::MORE_FINDINGS, at, message).label("the first one not shown is here").help(
                format!(
                    "kifu shows the first {MAX_FINDINGS_PER_GAME} findings of a game: fix these and check it again"
                ),
            ));
        }
        self.kept
    }

    /// Keeps the first [`MAX_FINDINGS_PER_GAME`] findings in text order and counts the others
    /// (a stable sort: findings at the same place keep the order they were found in).
    fn trim(&mut self) {
        self.sort();
        let left_out = self.kept.split_off(MAX_FINDINGS_PER_GAME.min(self.kept.len()));
        for d in left_out {
            self.dropped += 1;
            self.dropped_errors += usize::from(d.is_error());
            self.first_dropped = min_span(self.first_dropped, Some(d.span()));
            self.count_dropped(d.code, 1);
        }
    }

    fn count_dropped(&mut self, code: crate::diagnostic::Code, n: usize) {
        match self.dropped_codes.iter_mut().find(|(c, _)| *c == code) {
            Some((_, count)) => *count += n,
            None => self.dropped_codes.push((code, n)),
        }
    }
}

/// How many codes the finding on those left out names.
const SHOWN_CODES: usize = 5;

impl Extend<Diagnostic> for Findings {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

fn min_span(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if (b.start, b.end) < (a.start, a.end) { b } else { a }),
        (a, b) => a.or(b),
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_findings_in_text_order_and_counts_the_rest() {
        let mut f = Findings::new();
        // Found backwards: the ones kept are the first in the text all the same.
        for i in (0..10 * MAX_FINDINGS_PER_GAME).rev() {
            let d = if i % 2 == 0 { Diagnostic::warning } else { Diagnostic::error };
            f.push(d(codes::psn::TAG_NAME, Span::new(i, i + 1), "x"));
            assert!(f.kept.len() < 2 * MAX_FINDINGS_PER_GAME);
        }
        let all = f.into_vec();
        assert_eq!(all.len(), MAX_FINDINGS_PER_GAME + 1);
        assert!(all[..MAX_FINDINGS_PER_GAME].iter().enumerate().all(|(i, d)| d.span().start == i));
        let last = &all[MAX_FINDINGS_PER_GAME];
        assert_eq!(last.code, crate::diagnostic::codes::psn::MORE_FINDINGS);
        assert!(last.is_error());
        assert_eq!(last.span().start, MAX_FINDINGS_PER_GAME);
        let left = 9 * MAX_FINDINGS_PER_GAME;
        assert_eq!(
            last.message,
            format!("{left} more findings ({} errors) in this game not shown: {left} psn::tag-name", left / 2)
        );
    }

    #[test]
    fn says_nothing_more_under_the_limit() {
        let mut f = Findings::new();
        f.extend((0..MAX_FINDINGS_PER_GAME).map(|i| Diagnostic::warning(codes::psn::TAG_NAME, Span::new(i, i), "x")));
        assert_eq!(f.into_vec().len(), MAX_FINDINGS_PER_GAME);
    }
}
