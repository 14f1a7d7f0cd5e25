//! What one slip does to a valid record: how many errors `kifu check` reports on the records a
//! single-character edit makes invalid, and how often the fix it offers makes them valid again.
//! Shared by the test that holds the shares to their floor (`tests/properties/single_edits.rs`) and the
//! bench that prints them (`cargo bench --bench single_edits`).

#![allow(dead_code)]

use std::fmt;

use kifu::format::Format;
use kifu::Diagnostic;

use super::generate::{slip, Rng};

/// The counts over a set of slipped records.
#[derive(Clone, Debug, Default)]
pub struct Shares {
    /// Slipped records in all.
    pub slipped: usize,
    /// Those that became invalid (an error at least).
    pub invalid: usize,
    /// Invalid records by their number of errors: 1, 2, 3, 4 to 8, more.
    pub by_errors: [usize; 5],
    /// Invalid records with exactly one error whose first fix makes them valid.
    pub fixed: usize,
    /// Of those, the ones whose first fix gives back the record as it was before the slip.
    pub restored: usize,
    /// The first few records that got more than one error, with their codes.
    pub cascades: Vec<String>,
    /// The first few records with one error whose fix does not make them valid.
    pub unfixed: Vec<String>,
    /// The first few records whose first fix makes them valid but not as they were before the slip.
    pub misranked: Vec<String>,
}

/// The errors of `text` read as `format`.
fn errors(format: Format, text: &str) -> Vec<Diagnostic> {
    format.check_text(text).0.into_iter().filter(Diagnostic::is_error).collect()
}

/// How many examples of each kind are kept.
const EXAMPLES: usize = 12;

impl Shares {
    /// Slips `n` records of `records` (in turn) by one character of `alphabet`, seeded with
    /// `seed`, and counts what `format`'s check says of them.
    pub fn measure(format: Format, records: &[String], alphabet: &[char], seed: u64, n: usize) -> Self {
        let mut rng = Rng::new(seed);
        let mut shares = Self::default();
        for i in 0..n {
            let record = &records[i % records.len()];
            let slipped = slip(record, alphabet, &mut rng);
            shares.count(format, record, &slipped);
        }
        shares
    }

    fn count(&mut self, format: Format, original: &str, slipped: &str) {
        self.slipped += 1;
        let found = errors(format, slipped);
        if found.is_empty() {
            return;
        }
        self.invalid += 1;
        let bucket = match found.len() {
            1 => 0,
            2 => 1,
            3 => 2,
            4..=8 => 3,
            _ => 4,
        };
        self.by_errors[bucket] += 1;
        if found.len() > 1 {
            if self.cascades.len() < EXAMPLES {
                let codes: Vec<String> = found.iter().map(|d| d.code.to_string()).collect();
                self.cascades.push(format!("{slipped:?}: {}", codes.join(", ")));
            }
            return;
        }
        let fixed = found[0].fixes.first().and_then(|fix| fix.apply(slipped));
        if fixed.as_deref().is_some_and(|fixed| errors(format, fixed).is_empty()) {
            self.fixed += 1;
            if fixed.as_deref() == Some(original) {
                self.restored += 1;
            } else if self.misranked.len() < EXAMPLES {
                let fixed = fixed.as_deref().unwrap_or_default();
                self.misranked.push(format!("{original:?} slipped to {slipped:?}, fixed to {fixed:?}"));
            }
        } else if self.unfixed.len() < EXAMPLES {
            self.unfixed.push(format!("{slipped:?}: {} {:?}", found[0].code, fixed));
        }
    }

    /// The share of invalid records with exactly one error, in percent.
    pub fn one_error(&self) -> f64 {
        percent(self.by_errors[0], self.invalid)
    }

    /// The share of records with one error whose fix makes them valid, in percent.
    pub fn fixed_share(&self) -> f64 {
        percent(self.fixed, self.by_errors[0])
    }

    /// The share of records with one error whose first fix gives back the record before the
    /// slip, in percent.
    pub fn restored_share(&self) -> f64 {
        percent(self.restored, self.by_errors[0])
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl fmt::Display for Shares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [one, two, three, few, many] = self.by_errors;
        write!(
            f,
            "| {} | {} | {:.1}% | {two} | {three} | {few} | {many} | {:.1}% ({} of {one}) | {:.1}% |",
            self.slipped,
            self.invalid,
            self.one_error(),
            self.fixed_share(),
            self.fixed,
            self.restored_share(),
        )
    }
}

/// The head of the table [`Shares`] rows are written in.
pub const HEAD: &str =
    "| format | slipped | made invalid | exactly 1 error | 2 | 3 | 4–8 | more | fixed by the fix | the record given back |\n\
                        |---|---|---|---|---|---|---|---|---|---|";
