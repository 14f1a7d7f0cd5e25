//! pest parse trees as indented text: one line per pair, with its rule, its place and its text.
//! Stable enough to diff, and the same for every grammar.

use std::fmt::Write as _;

use pest::iterators::Pairs;
use pest::RuleType;

/// Renders `pairs` one per line, indented by depth: `rule 1:3-1:8 "text"` (1-based line and
/// character columns; the end is exclusive).
pub fn render<R: RuleType>(pairs: Pairs<'_, R>) -> String {
    let mut out = String::new();
    walk(pairs, |pair, depth| {
        let span = pair.as_span();
        let (l1, c1) = span.start_pos().line_col();
        let (l2, c2) = span.end_pos().line_col();
        let _ =
            writeln!(out, "{}{:?} {l1}:{c1}-{l2}:{c2} {:?}", indent(depth, usize::MAX), pair.as_rule(), pair.as_str());
    });
    out
}

/// Like [`render`], for a text that starts on line `first_line` of its file: lines are the
/// file's, rule names come from `name`, and a text longer than 80 characters is shown by its two
/// ends and its length.
pub fn render_with<R: RuleType>(pairs: Pairs<'_, R>, first_line: usize, name: &dyn Fn(R) -> String) -> String {
    render_capped(pairs, first_line, name, usize::MAX)
}

/// Like [`render_with`], with lines indented at most `max_indent` levels (deeper lines start
/// with their level, `[57] `), so that the text stays linear in the number of pairs.
pub fn render_capped<R: RuleType>(
    pairs: Pairs<'_, R>,
    first_line: usize,
    name: &dyn Fn(R) -> String,
    max_indent: usize,
) -> String {
    let mut out = String::new();
    walk(pairs, |pair, depth| {
        let span = pair.as_span();
        let (l1, c1) = span.start_pos().line_col();
        let (l2, c2) = span.end_pos().line_col();
        let (l1, l2) = (l1 + first_line - 1, l2 + first_line - 1);
        let text = shorten(pair.as_str());
        let _ = writeln!(out, "{}{} {l1}:{c1}-{l2}:{c2} {text}", indent(depth, max_indent), name(pair.as_rule()));
    });
    out
}

/// Every pair of `pairs` with its depth, parents first, by a loop rather than recursion: an
/// edited grammar can nest pairs deeply.
fn walk<'i, R: RuleType>(pairs: Pairs<'i, R>, mut each: impl FnMut(&pest::iterators::Pair<'i, R>, usize)) {
    let mut stack: Vec<(pest::iterators::Pair<'i, R>, usize)> = pairs.rev().map(|p| (p, 0)).collect();
    while let Some((pair, depth)) = stack.pop() {
        each(&pair, depth);
        let children: Vec<_> = pair.into_inner().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
}

/// Two spaces per level up to `max_indent` levels; deeper, the cap's spaces and `[level] `.
fn indent(depth: usize, max_indent: usize) -> String {
    if depth <= max_indent {
        " ".repeat(depth * 2)
    } else {
        format!("{}[{depth}] ", " ".repeat(max_indent * 2))
    }
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

/// A syntax tree's debug text with each span (`@ 4..9`, `span: 0..63`) written as the places
/// of `text` it covers, `line:column-line:column` (1-based; the end column is exclusive, as in
/// the JSON messages); `first_line` is the line `text` starts on in its file.
pub fn with_places(debug: &str, text: &str, first_line: usize) -> String {
    let index = crate::diagnostic::excerpt::LineIndex::new(text);
    let place = |at: &str| {
        let (line, column) = index.place(text, at.parse().unwrap_or(usize::MAX));
        format!("{}:{column}", first_line + line)
    };
    let mut out = String::with_capacity(debug.len() + debug.len() / 4);
    let mut rest = debug;
    while let Some(at) = ["@ ", "span: "].iter().filter_map(|m| rest.find(m).map(|i| i + m.len())).min() {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let (a, after) = rest.split_at(digits(rest));
        let Some(after) = after.strip_prefix("..").filter(|_| !a.is_empty()) else { continue };
        let (b, after) = after.split_at(digits(after));
        if b.is_empty() {
            continue;
        }
        out.push_str(&format!("{}-{}", place(a), place(b)));
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `{:?}` output laid out as `{:#?}` lays it out (one field or item per line, indented four
/// spaces a level, a comma after each), in one pass: `{:#?}` itself writes every character of
/// a level through one adapter per level above it, which costs the cube of the nesting. Lines
/// deeper than `max_indent` levels are indented `max_indent` levels and start with their level.
pub fn pretty(debug: &str, max_indent: usize) -> String {
    let mut out = String::with_capacity(debug.len() * 2);
    let mut depth = 0usize;
    let bytes = debug.as_bytes();
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        if depth <= max_indent {
            out.extend(std::iter::repeat_n(' ', depth * 4));
        } else {
            out.extend(std::iter::repeat_n(' ', max_indent * 4));
            let _ = write!(out, "[{depth}] ");
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' | b'\'' => {
                // A string or a character: copied as it is, to its closing quote.
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != c {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let end = (j + 1).min(bytes.len());
                out.push_str(&debug[i..end]);
                i = end;
            }
            b'{' | b'[' | b'(' => {
                let close = match c {
                    b'{' => b'}',
                    b'[' => b']',
                    _ => b')',
                };
                // `[]`, `()` and `{}` stay as they are.
                let inner = if c == b'{' { debug[i + 1..].trim_start_matches(' ') } else { &debug[i + 1..] };
                if inner.as_bytes().first() == Some(&close) {
                    let skipped = debug.len() - (i + 1) - inner.len();
                    out.push(c as char);
                    out.push(close as char);
                    i += 2 + skipped;
                    continue;
                }
                out.push(c as char);
                depth += 1;
                newline(&mut out, depth);
                i += if c == b'{' && bytes.get(i + 1) == Some(&b' ') { 2 } else { 1 };
            }
            b'}' | b']' | b')' => {
                if c == b'}' && out.ends_with(' ') {
                    out.pop();
                }
                out.push(',');
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c as char);
                i += 1;
            }
            b',' if bytes.get(i + 1) == Some(&b' ') => {
                out.push(',');
                newline(&mut out, depth);
                i += 2;
            }
            _ => {
                let next = debug[i..]
                    .find(['"', '\'', '{', '[', '(', '}', ']', ')', ','])
                    .map_or(debug.len(), |k| i + k.max(1));
                out.push_str(&debug[i..next]);
                i = next;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pretty;

    #[derive(Debug)]
    #[allow(dead_code)]
    struct Node {
        name: &'static str,
        c: char,
        items: Vec<Node>,
        pair: Option<(u8, String)>,
        none: Option<u8>,
    }

    #[test]
    fn pretty_is_debugs_alternate_layout() {
        let leaf = |name| Node { name, c: '{', items: vec![], pair: None, none: None };
        let tree = Node {
            name: "a, \"b\" {x}",
            c: '\'',
            items: vec![leaf("(c)"), Node { items: vec![leaf("]")], ..leaf("d") }],
            pair: Some((1, "[e]".into())),
            none: None,
        };
        assert_eq!(pretty(&format!("{tree:?}"), usize::MAX), format!("{tree:#?}"));
        let deep = pretty("[[[1]]]", 1);
        assert_eq!(deep, "[\n    [\n    [2] [\n    [3] 1,\n    [2] ],\n    ],\n]");
    }

    #[test]
    fn spans_are_written_as_places() {
        // `é` is two bytes and one column.
        let debug = "Record { span: 0..9, side: Some(Black @ 7..8), rank: [] @ 1.. }";
        let shown = super::with_places(debug, "ab\ncdé f\n", 3);
        assert_eq!(shown, "Record { span: 3:1-4:6, side: Some(Black @ 4:4-4:5), rank: [] @ 1.. }");
    }
}
