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

/// Like [`render`], for a text that starts on line `first_line` of its file: lines are the
/// file's, rule names come from `name`, and a text longer than 80 characters is shown by its two
/// ends and its length.
pub fn render_with<R: RuleType>(pairs: Pairs<'_, R>, first_line: usize, name: &dyn Fn(R) -> String) -> String {
    let mut out = String::new();
    let mut stack: Vec<(pest::iterators::Pair<'_, R>, usize)> = pairs.rev().map(|p| (p, 0)).collect();
    // A loop rather than recursion: an edited grammar can nest pairs deeply.
    while let Some((pair, depth)) = stack.pop() {
        let span = pair.as_span();
        let (l1, c1) = span.start_pos().line_col();
        let (l2, c2) = span.end_pos().line_col();
        let (l1, l2) = (l1 + first_line - 1, l2 + first_line - 1);
        let text = shorten(pair.as_str());
        let _ = writeln!(out, "{:indent$}{} {l1}:{c1}-{l2}:{c2} {text}", "", name(pair.as_rule()), indent = depth * 2);
        let children: Vec<_> = pair.into_inner().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

/// `text` quoted, its middle left out when it is longer than 80 characters.
fn shorten(text: &str) -> String {
    let n = text.chars().count();
    if n <= 80 {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(38).collect();
    let tail: String = text.chars().skip(n - 38).collect();
    format!("{head:?}…{tail:?} ({n} characters)")
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
