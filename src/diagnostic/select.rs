//! Which findings are reported, as `--select`, `--ignore`, `--extend-select` and
//! `--warnings-as-errors` (or a configuration file) say, by code (`sfen::missing-king`), by
//! group (`sfen`, written `sfen` or `sfen::`) or all of them (`ALL`).
//!
//! As in ruff, the most precise pattern that names a code decides: `--select sfen --ignore
//! sfen::missing-king` reports every SFEN code but that one, and `--ignore sfen --select
//! sfen::nifu` reports `sfen::nifu` alone of them. A code named as precisely by both is ignored.
//! With no `--select`, every code is selected.

use std::fmt;

use super::codes::{self, Code, GROUPS};
use super::{Diagnostic, Severity};

/// What a pattern names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Every code.
    All,
    /// The codes of a group: `sfen`.
    Group(&'static str),
    /// One code.
    Code(Code),
}

impl Pattern {
    /// The pattern a user wrote: `ALL`, a group's name (`sfen`, `sfen::`) or a code, written as
    /// [`codes::normalized`] allows; `Err` with the words that say why for anything else.
    pub fn parse(text: &str) -> Result<Self, String> {
        let wanted = codes::normalized(text);
        if wanted == "all" {
            return Ok(Self::All);
        }
        if let Some(g) = codes::group(wanted.strip_suffix("::").unwrap_or(&wanted)) {
            return Ok(Self::Group(g.name));
        }
        if let Some(e) = codes::lookup(&wanted) {
            return Ok(Self::Code(e.code));
        }
        let groups: Vec<&str> = GROUPS.iter().map(|g| g.name).collect();
        Err(format!(
            "`{}` is no code of kifu, nor a group ({}) or `ALL`: `kifu explain` lists the codes",
            text.trim(),
            groups.join(", ")
        ))
    }

    /// How precisely the pattern names `code`: `None` when it does not, else 0 for `ALL`, 1 for
    /// its group, 2 for the code itself.
    fn names(&self, code: Code) -> Option<u8> {
        match self {
            Self::All => Some(0),
            Self::Group(g) => (code.group() == *g).then_some(1),
            Self::Code(c) => (*c == code).then_some(2),
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::All => f.write_str("ALL"),
            Self::Group(g) => f.write_str(g),
            Self::Code(c) => f.write_str(c.as_str()),
        }
    }
}

/// Which findings are reported, and whether warnings count as errors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The codes reported; empty: every code.
    pub select: Vec<Pattern>,
    /// Codes reported besides those of `select`.
    pub extend_select: Vec<Pattern>,
    /// The codes not reported.
    pub ignore: Vec<Pattern>,
    /// Every warning reported is an error: a record with one is invalid.
    pub warnings_as_errors: bool,
}

impl Selection {
    /// True when this selection reports every finding as it is.
    pub fn is_everything(&self) -> bool {
        self.select.is_empty() && self.ignore.is_empty() && !self.warnings_as_errors
    }

    /// True when findings of `code` are reported.
    pub fn reports(&self, code: Code) -> bool {
        let most = |patterns: &[Pattern]| patterns.iter().filter_map(|p| p.names(code)).max();
        let selected = if self.select.is_empty() { Some(0) } else { most(&self.select) };
        let selected = selected.max(most(&self.extend_select));
        match (selected, most(&self.ignore)) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(s), Some(i)) => s > i,
        }
    }

    /// `diagnostics` as this selection reports them: those of unselected codes left out, and
    /// warnings made errors when asked.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.is_everything() {
            return;
        }
        diagnostics.retain(|d| self.reports(d.code));
        if self.warnings_as_errors {
            for d in diagnostics.iter_mut() {
                d.severity = Severity::Error;
            }
        }
    }
}

impl Selection {
    /// The selection of three lists of patterns, `select`, `extend-select` and `ignore` (each
    /// read by [`patterns`]), or the words that say which are unknown, each list named as
    /// `name` calls its key (`--ignore` for a flag, `ignore` in a configuration file).
    pub fn of_lists<S: AsRef<str>>(
        [select, extend_select, ignore]: [&[S]; 3],
        warnings_as_errors: bool,
        name: impl Fn(&str) -> String,
    ) -> Result<Self, String> {
        let list = |texts: &[S], key: &str| patterns(texts).map_err(|e| format!("`{}`: {e}", name(key)));
        Ok(Self {
            select: list(select, "select")?,
            extend_select: list(extend_select, "extend-select")?,
            ignore: list(ignore, "ignore")?,
            warnings_as_errors,
        })
    }
}

/// The patterns of `texts` (each may hold several, separated by commas), or the words that say
/// which are unknown.
pub fn patterns<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Pattern>, String> {
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    for text in texts {
        for part in text.as_ref().split(',').filter(|p| !p.trim().is_empty()) {
            match Pattern::parse(part) {
                Ok(p) => out.push(p),
                Err(e) => unknown.push(e),
            }
        }
    }
    if unknown.is_empty() {
        Ok(out)
    } else {
        Err(unknown.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes::{fen, psn, sfen};

    fn selection(select: &[&str], ignore: &[&str]) -> Selection {
        Selection {
            select: patterns(select).expect("known"),
            ignore: patterns(ignore).expect("known"),
            ..Selection::default()
        }
    }

    #[test]
    fn the_most_precise_pattern_decides() {
        let everything = Selection::default();
        assert!(everything.reports(sfen::MISSING_KING) && everything.is_everything());
        let s = selection(&["sfen"], &[sfen::MISSING_KING.as_str()]);
        assert!(s.reports(sfen::NIFU) && !s.reports(sfen::MISSING_KING) && !s.reports(fen::RANK_WIDTH));
        let s = selection(&[sfen::NIFU.as_str()], &["sfen::"]);
        assert!(s.reports(sfen::NIFU) && !s.reports(sfen::RANK_WIDTH));
        let s = selection(&[], &["ALL"]);
        assert!(!s.reports(psn::PROSE));
        let s = selection(&["psn"], &["psn"]);
        assert!(!s.reports(psn::PROSE), "named as precisely by both: ignored");
        let s = Selection { extend_select: patterns(&["fen"]).expect("known"), ..selection(&["sfen"], &[]) };
        assert!(s.reports(fen::RANK_WIDTH) && s.reports(sfen::NIFU) && !s.reports(psn::PROSE));
    }

    #[test]
    fn patterns_are_read_in_any_case_with_commas_and_unknown_ones_named() {
        let read = patterns(&["SFEN, fen::rank-width", "all"]).expect("known");
        assert_eq!(read, [Pattern::Group("sfen"), Pattern::Code(fen::RANK_WIDTH), Pattern::All]);
        let err = patterns(&["sfen::nope,bogus"]).unwrap_err();
        assert!(err.contains("`sfen::nope`") && err.contains("`bogus`"), "{err}");
    }

    #[test]
    fn warnings_become_errors_and_unselected_findings_go() {
        let span = crate::span::Span::new(0, 1);
        let mut found = vec![
            Diagnostic::warning(sfen::MISSING_KING, span, "no king"),
            Diagnostic::warning(sfen::HAND_ORDER, span, "order"),
            Diagnostic::error(sfen::NIFU, span, "nifu"),
        ];
        let s = Selection { warnings_as_errors: true, ..selection(&[], &[sfen::MISSING_KING.as_str()]) };
        s.apply(&mut found);
        let codes: Vec<_> = found.iter().map(|d| (d.code, d.is_error())).collect();
        assert_eq!(codes, [(sfen::HAND_ORDER, true), (sfen::NIFU, true)]);
    }
}
