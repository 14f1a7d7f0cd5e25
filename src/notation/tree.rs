//! pest parse trees as indented text: one line per pair, with its rule, its place and its text.
//! Stable enough to diff, and the same for every grammar.

use std::fmt::Write as _;

use pest::iterators::Pairs;
use pest::RuleType;

use crate::diagnostic::excerpt::LineIndex;

/// Renders `pairs` one per line, indented by depth: `rule 1:3-1:8 "text"` (1-based line and
/// character columns; the end is exclusive).
#[cfg(feature = "internals")]
pub fn render<R: RuleType>(pairs: Pairs<'_, R>) -> String {
    let mut out = String::new();
    let input = pairs.get_input();
    let index = LineIndex::pest(input);
    walk(pairs, |pair, depth| {
        let span = pair.as_span();
        let (l1, c1) = index.line_col(input, span.start());
        let (l2, c2) = index.line_col(input, span.end());
        let _ =
            writeln!(out, "{}{:?} {l1}:{c1}-{l2}:{c2} {:?}", indent(depth, usize::MAX), pair.as_rule(), pair.as_str());
    });
    out
}

/// Like [`render`], for a text that starts on line `first_line` of its file: lines are the
/// file's, rule names come from `name`, and a text longer than 80 characters is shown by its two
/// ends and its length.
#[cfg(feature = "internals")]
pub fn render_with<R: RuleType>(pairs: Pairs<'_, R>, first_line: usize, name: &dyn Fn(R) -> String) -> String {
    render_capped(pairs, first_line, name, usize::MAX)
}

/// Like [`render_with`], with lines indented at most `max_indent` levels (deeper lines start
/// with their level, `[57] `), so that the text stays linear in the number of pairs.
#[cfg(feature = "internals")]
pub fn render_capped<R: RuleType>(
    pairs: Pairs<'_, R>,
    first_line: usize,
    name: &dyn Fn(R) -> String,
    max_indent: usize,
) -> String {
    Tree::new(pairs, name).render(first_line, max_indent)
}

/// One pair of a parse tree, flattened: its depth, rule, bytes and places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// 0 for the pairs at the top.
    pub depth: usize,
    /// The rule's name.
    pub rule: String,
    /// The first byte it covers.
    pub start: usize,
    /// The byte after the last it covers.
    pub end: usize,
    /// 1-based line and character column of `start` in the record.
    pub from: (usize, usize),
    /// The same of `end` (exclusive).
    pub to: (usize, usize),
    /// What it covers.
    pub text: String,
    /// True when it has no pair inside it.
    pub leaf: bool,
}

/// Where and why a rule stopped reading a record it rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The byte where reading stopped.
    pub at: usize,
    /// Its 1-based line and character column in the record.
    pub place: (usize, usize),
    /// What the rule would have read there, in words.
    pub expected: String,
    /// The character found there (empty at the end of the text).
    pub found: String,
    /// The depth the mark takes in the tree: inside the deepest node with nodes inside it
    /// that reaches the place.
    pub depth: usize,
}

/// A parse tree as its pairs in order, parents first; for a rejected record, the tree of
/// what was read before the place where reading stopped, and that place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// The pairs, parents first.
    pub nodes: Vec<Node>,
    /// Where reading stopped, for a rejected record.
    pub stop: Option<Stop>,
}

impl Tree {
    /// The tree of `pairs`, rule names from `name`.
    pub fn new<R: RuleType>(pairs: Pairs<'_, R>, name: &dyn Fn(R) -> String) -> Self {
        let mut nodes = Vec::new();
        let input = pairs.get_input();
        let index = LineIndex::pest(input);
        walk(pairs, |pair, depth| {
            let span = pair.as_span();
            nodes.push(Node {
                depth,
                rule: name(pair.as_rule()),
                start: span.start(),
                end: span.end(),
                from: index.line_col(input, span.start()),
                to: index.line_col(input, span.end()),
                text: pair.as_str().to_owned(),
                leaf: pair.clone().into_inner().peek().is_none(),
            });
        });
        Self { nodes, stop: None }
    }

    /// The tree of what a rule read of `input` before it stopped at byte `at`, expecting
    /// `expected`: `pairs` are its reading of the text up to `at`; the pairs that start at `at`
    /// (read of no text) are left out.
    pub fn cut<R: RuleType>(
        pairs: Pairs<'_, R>,
        name: &dyn Fn(R) -> String,
        input: &str,
        at: usize,
        expected: &str,
    ) -> Self {
        let mut tree = Self::new(pairs, name);
        tree.nodes.retain(|n| n.start < at);
        let next: Vec<usize> = tree.nodes.iter().skip(1).map(|n| n.depth).chain([0]).collect();
        for (n, next) in tree.nodes.iter_mut().zip(next) {
            n.leaf = next <= n.depth;
        }
        let depth = tree.nodes.iter().filter(|n| !n.leaf && n.end >= at).map(|n| n.depth + 1).max().unwrap_or(0);
        let place = LineIndex::pest(input).line_col(input, at);
        let found = input.get(at..).and_then(|s| s.chars().next()).map(String::from).unwrap_or_default();
        tree.stop = Some(Stop { at, place, expected: expected.to_owned(), found, depth });
        tree
    }

    /// One line per pair, indented by depth, `rule 1:3-1:8 "text"`, lines counted from
    /// `first_line`; the place where reading stopped, if it did, as a last line
    /// `× stopped at 1:65: expected …; found "0"` at its depth. See [`render_capped`].
    pub fn render(&self, first_line: usize, max_indent: usize) -> String {
        let mut out = String::new();
        for n in &self.nodes {
            let (l1, c1) = (n.from.0 + first_line - 1, n.from.1);
            let (l2, c2) = (n.to.0 + first_line - 1, n.to.1);
            let text = shorten(&n.text);
            let _ = writeln!(out, "{}{} {l1}:{c1}-{l2}:{c2} {text}", indent(n.depth, max_indent), n.rule);
        }
        if let Some(s) = &self.stop {
            let found = if s.found.is_empty() { "the end of the text".to_owned() } else { format!("{:?}", s.found) };
            let _ = writeln!(
                out,
                "{}× stopped at {}:{}: expected {}; found {found}",
                indent(s.depth, max_indent),
                s.place.0 + first_line - 1,
                s.place.1,
                s.expected
            );
        }
        out
    }

    /// True when `node` was being read when reading stopped: it has nodes inside it and
    /// reaches the place, above the mark.
    pub fn is_open(&self, node: &Node) -> bool {
        self.stop.as_ref().is_some_and(|s| !node.leaf && node.end >= s.at && node.depth < s.depth)
    }

    /// The nodes as a JSON array of objects, each `{"rule", "start", "end", "line", "column",
    /// "end_line", "end_column"}` with `"text"` for a leaf or `"children"` (an array of the
    /// same) for the others, and `"open": true` on the nodes that were being read when
    /// reading stopped. Lines are counted from `first_line`; bytes from the record's start.
    /// Written by a loop, so a deep tree costs no stack.
    pub fn write_json(&self, first_line: usize, out: &mut String) {
        let quoted = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned());
        out.push('[');
        let mut open: Vec<usize> = Vec::new();
        for n in &self.nodes {
            while open.last().is_some_and(|&d| d >= n.depth) {
                out.push_str("]}");
                open.pop();
            }
            if !out.ends_with('[') {
                out.push(',');
            }
            let (l1, c1) = (n.from.0 + first_line - 1, n.from.1);
            let (l2, c2) = (n.to.0 + first_line - 1, n.to.1);
            let _ = write!(
                out,
                "{{\"rule\":{},\"start\":{},\"end\":{},\"line\":{l1},\"column\":{c1},\"end_line\":{l2},\"end_column\":{c2}",
                quoted(&n.rule),
                n.start,
                n.end
            );
            if self.is_open(n) {
                out.push_str(",\"open\":true");
            }
            if n.leaf {
                let _ = write!(out, ",\"text\":{}}}", quoted(&n.text));
            } else {
                out.push_str(",\"children\":[");
                open.push(n.depth);
            }
        }
        for _ in open {
            out.push_str("]}");
        }
        out.push(']');
    }
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
    let index = LineIndex::new(text);
    let place = |at: &str| {
        let (line, column) = index.place(text, at.parse().unwrap_or(usize::MAX));
        format!("{}:{column}", first_line + line)
    };
    let mut out = String::with_capacity(debug.len() + debug.len() / 4);
    const MARKS: [&str; 2] = ["@ ", "span: "];
    // The next place of each mark at or after `pos`, searched again only once passed: each
    // byte is searched once per mark, however rare one of them is.
    let mut next: [Option<usize>; 2] = MARKS.map(|m| debug.find(m));
    let mut pos = 0;
    loop {
        for (found, mark) in next.iter_mut().zip(MARKS) {
            if found.is_some_and(|i| i < pos) {
                *found = debug[pos..].find(mark).map(|i| pos + i);
            }
        }
        let Some(at) = next.iter().zip(MARKS).filter_map(|(found, mark)| found.map(|i| i + mark.len())).min() else {
            break;
        };
        out.push_str(&debug[pos..at]);
        pos = at;
        let rest = &debug[at..];
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let (a, after) = rest.split_at(digits(rest));
        let Some(after) = after.strip_prefix("..").filter(|_| !a.is_empty()) else { continue };
        let (b, after) = after.split_at(digits(after));
        if b.is_empty() {
            continue;
        }
        out.push_str(&format!("{}-{}", place(a), place(b)));
        pos = debug.len() - after.len();
    }
    out.push_str(&debug[pos..]);
    out
}

/// A value of the syntax tree being read by [`Tree::from_debug`]: the field it is the value
/// of, where its text starts, and the name before its bracket.
struct Frame {
    field: Option<String>,
    start: usize,
    head: String,
}

impl Tree {
    /// The tree of a syntax tree's debug text (`{:?}`) over `text`: a node for each value with
    /// a span (`… @ 4..9`, or a struct's `span: 0..63`), named by the field it is the value of
    /// (through `Some`), else by its type (`Rank`, `Piece`), nested by the bytes they cover.
    /// Places are counted as pest counts them; no stop.
    pub fn from_debug(debug: &str, text: &str) -> Self {
        let mut found: Vec<(String, usize, usize)> = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        let (mut field, mut start): (Option<String>, usize) = (None, 0);
        let bytes = debug.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let rest = &debug[i..];
            match bytes[i] {
                q @ (b'"' | b'\'') => {
                    let mut j = i + 1;
                    while j < bytes.len() && bytes[j] != q {
                        j += if bytes[j] == b'\\' { 2 } else { 1 };
                    }
                    i = j + 1;
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    let head = debug[start..i].trim().to_owned();
                    let inner = if head == "Some" { field.clone() } else { None };
                    stack.push(Frame { field: field.take(), start, head });
                    field = inner;
                    start = i + 1;
                }
                b')' | b']' | b'}' => {
                    if let Some(f) = stack.pop() {
                        field = f.field;
                        start = f.start;
                    }
                }
                b',' => {
                    field = None;
                    start = i + 1;
                }
                b'@' => {
                    if let Some((a, b, len)) = span_at(&rest[1..]) {
                        let value = debug[start..i].trim();
                        let name = field.clone().or_else(|| type_name(value)).unwrap_or_else(|| "value".to_owned());
                        found.push((name, a, b));
                        i += 1 + len;
                        continue;
                    }
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let n = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
                    let span = (&rest[..n] == "span").then(|| rest[n..].strip_prefix(':')).flatten().and_then(span_at);
                    if let Some((a, b, len)) = span {
                        // A struct's own span: the struct is the node.
                        let name = stack.last().and_then(|f| f.field.clone().or_else(|| type_name(&f.head)));
                        found.push((name.unwrap_or_else(|| "value".to_owned()), a, b));
                        i += n + 1 + len;
                        continue;
                    }
                    if rest[n..].starts_with(": ") {
                        field = Some(rest[..n].to_owned());
                        start = i + n + 2;
                        i += n + 2;
                        continue;
                    }
                    i += n;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        Self::nested(found, text)
    }

    /// Nodes of `text` from named byte ranges in the order found, nested by what they cover.
    fn nested(mut found: Vec<(String, usize, usize)>, text: &str) -> Self {
        found.sort_by_key(|&(_, a, b)| (a, std::cmp::Reverse(b)));
        let mut nodes: Vec<Node> = Vec::with_capacity(found.len());
        let mut open: Vec<usize> = Vec::new();
        let index = LineIndex::pest(text);
        let place = |at: usize| index.line_col(text, at);
        for (rule, a, b) in found {
            let (a, b) = (a.min(text.len()), b.min(text.len()).max(a.min(text.len())));
            while open.last().is_some_and(|&end| b > end || a >= end) {
                open.pop();
            }
            let slice = text.get(a..b).unwrap_or("").to_owned();
            nodes.push(Node {
                depth: open.len(),
                rule,
                start: a,
                end: b,
                from: place(a),
                to: place(b),
                text: slice,
                leaf: true,
            });
            open.push(b);
        }
        let next: Vec<usize> = nodes.iter().skip(1).map(|n| n.depth).chain([0]).collect();
        for (n, next) in nodes.iter_mut().zip(next) {
            n.leaf = next <= n.depth;
        }
        Self { nodes, stop: None }
    }
}

/// ` 4..9` at the start of `s`: the two numbers and the length read.
fn span_at(s: &str) -> Option<(usize, usize, usize)> {
    let body = s.strip_prefix(' ')?;
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let n = digits(body);
    let after = body[n..].strip_prefix("..")?;
    let m = digits(after);
    if n == 0 || m == 0 {
        return None;
    }
    Some((body[..n].parse().ok()?, after[..m].parse().ok()?, 1 + n + 2 + m))
}

/// The name a value's text starts with, when it starts with a capital (`Piece` of `Piece(l)`).
fn type_name(value: &str) -> Option<String> {
    let n = value.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    value.bytes().next().filter(u8::is_ascii_uppercase).map(|_| value[..n].to_owned())
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
    fn a_debug_text_gives_a_tree_of_its_spans() {
        // A struct with its own span, a field through `Some`, a list of spanned values (named
        // by their type), and a string holding what looks like a span.
        let text = "ab cd";
        let debug = "Record { span: 0..5, side: Some(Black @ 3..4), rows: [Row @ 0..2 [Piece(a) @ 0..1, \"x @ 1..2\"], Empty(1) @ 1..2], n: 5 @ 4..5 }";
        let tree = super::Tree::from_debug(debug, text);
        let shown: Vec<String> = tree
            .nodes
            .iter()
            .map(|n| format!("{}{} {}..{} {}", " ".repeat(n.depth), n.rule, n.start, n.end, n.leaf))
            .collect();
        assert_eq!(
            shown,
            [
                "Record 0..5 false",
                " Row 0..2 false",
                "  Piece 0..1 true",
                "  Empty 1..2 true",
                " side 3..4 true",
                " n 4..5 true"
            ]
        );
    }

    #[test]
    fn spans_are_written_as_places() {
        // `é` is two bytes and one column.
        let debug = "Record { span: 0..9, side: Some(Black @ 7..8), rank: [] @ 1.. }";
        let shown = super::with_places(debug, "ab\ncdé f\n", 3);
        assert_eq!(shown, "Record { span: 3:1-4:6, side: Some(Black @ 4:4-4:5), rank: [] @ 1.. }");
    }

    #[test]
    fn marks_of_both_kinds_in_any_order_are_all_written_as_places() {
        let debug = "[A @ 0..1, B { span: 1..2, c: C @ x }, D @ 2..3, E @ 3..4, F { span: 0..4 }] @ 0..4";
        let shown = super::with_places(debug, "abcd", 1);
        let want =
            "[A @ 1:1-1:2, B { span: 1:2-1:3, c: C @ x }, D @ 1:3-1:4, E @ 1:4-1:5, F { span: 1:1-1:5 }] @ 1:1-1:5";
        assert_eq!(shown, want);
    }
}
