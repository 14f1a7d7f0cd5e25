//! pest parse trees as indented text: one line per pair, with its rule, its place and its text.
//! Stable enough to diff, and the same for every grammar.

use std::fmt::Write as _;

use pest::iterators::Pairs;
use pest::RuleType;

/// Renders `pairs` one per line, indented by depth: `rule 1:3-1:8 "text"` (1-based line and
/// character columns; the end is exclusive).
pub fn render<R: RuleType>(pairs: Pairs<'_, R>) -> String {
    let mut out = String::new();
    for pair in pairs {
        render_pair(pair, 0, &mut out);
    }
    out
}

fn render_pair<R: RuleType>(pair: pest::iterators::Pair<'_, R>, depth: usize, out: &mut String) {
    let span = pair.as_span();
    let (l1, c1) = span.start_pos().line_col();
    let (l2, c2) = span.end_pos().line_col();
    let _ =
        writeln!(out, "{:indent$}{:?} {l1}:{c1}-{l2}:{c2} {:?}", "", pair.as_rule(), pair.as_str(), indent = depth * 2);
    for child in pair.into_inner() {
        render_pair(child, depth + 1, out);
    }
}
