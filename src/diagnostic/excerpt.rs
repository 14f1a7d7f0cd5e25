//! Showing a diagnostic in a text of many lines (a PSN game): where its labels are, by line and
//! column, and the part of the text a report shows.
//!
//! A game can be thousands of lines, and a GSDB game has all its moves on one line of some
//! thousands of characters. A report shows only the lines its labels touch (with one line of
//! context each side), and a line longer than [`LONG_LINE`] characters only around its labels,
//! with `…` where text is left out.

use crate::diagnostic::{push_shown, Diagnostic};
use crate::span::Span;

/// Lines longer than this many bytes are cut around the labels.
pub const LONG_LINE: usize = 200;

/// Characters kept on each side of a label on a long line.
const MARGIN: usize = 40;

/// Bytes a block of [`LineIndex`]'s character counts covers.
const CHAR_BLOCK: usize = 256;

/// Where the lines of a text start (LF, CRLF and CR all end a line, or as pest counts lines:
/// see [`LineIndex::pest`]), and how many characters come before each block of
/// 256 bytes, so that a place costs a search and one block's bytes, not the
/// length of its line: a text of one long line asked for many places stays linear.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    /// `chars[k]`: how many characters start before byte `k * CHAR_BLOCK`.
    chars: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut pos = 0;
        while let Some(i) = memchr::memchr2(b'\n', b'\r', &bytes[pos..]) {
            let at = pos + i;
            pos = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') { at + 2 } else { at + 1 };
            starts.push(pos);
        }
        Self::with_starts(text, starts)
    }

    /// Indexes `text` with its lines as pest's `line_col` counts them: LF and CRLF end a line,
    /// a CR alone is a character of its line.
    pub fn pest(text: &str) -> Self {
        let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)).collect();
        Self::with_starts(text, starts)
    }

    fn with_starts(text: &str, starts: Vec<usize>) -> Self {
        let mut chars = Vec::with_capacity(text.len() / CHAR_BLOCK + 1);
        chars.push(0);
        for block in text.as_bytes().chunks_exact(CHAR_BLOCK) {
            chars.push(chars[chars.len() - 1] + char_starts(block));
        }
        Self { starts, chars, len: text.len() }
    }

    /// How many characters of `text` (the text indexed) start before byte `at`.
    pub fn chars_before(&self, text: &str, at: usize) -> usize {
        let block = at / CHAR_BLOCK;
        let counted = self.chars.get(block).copied().unwrap_or(0);
        counted + text.as_bytes().get(block * CHAR_BLOCK..at).map_or(0, char_starts)
    }

    /// The 0-based line that holds byte `at`.
    pub fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).saturating_sub(1)
    }

    /// The bytes of line `line`, without its end of line.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let start = self.starts.get(line).copied().unwrap_or(self.len);
        let next = self.starts.get(line + 1).copied().unwrap_or(self.len);
        let content = text.get(start..next).unwrap_or("");
        Span::new(start, start + content.trim_end_matches(['\n', '\r']).len())
    }

    /// The 0-based line and 1-based character column of byte `at` of `text` (the text indexed).
    pub fn place(&self, text: &str, at: usize) -> (usize, usize) {
        let at = at.min(self.len);
        let line = self.line_of(at);
        let start = self.starts[line];
        let column = text
            .get(start..at)
            .map_or(at - start, |_| self.chars_before(text, at).saturating_sub(self.chars_before(text, start)))
            + 1;
        (line, column)
    }

    /// The 1-based line and column of byte `at`, as pest's `line_col` gives them (for an index
    /// made by [`LineIndex::pest`]).
    pub fn line_col(&self, text: &str, at: usize) -> (usize, usize) {
        let (line, column) = self.place(text, at);
        (line + 1, column)
    }

    /// How many lines.
    pub fn lines(&self) -> usize {
        self.starts.len()
    }
}

/// How many characters start in `bytes` of UTF-8: the bytes that are not continuation bytes.
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The text a report of one diagnostic shows, and the diagnostic with its spans moved into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// The lines shown, separated by `\n`, unsafe characters shown as `?`
    /// ([`crate::diagnostic::push_shown`]); when they reach the
    /// end of the text, a space after it (where a label past the last character points).
    pub text: String,
    /// The 0-based line of the full text where the excerpt starts.
    pub first_line: usize,
    /// The diagnostic, its spans moved into `text`.
    pub diagnostic: Diagnostic,
    /// Each piece of a line kept in `text`: its offset there, and the 0-based character column
    /// of the full text's line where it starts.
    pub columns: Vec<(usize, usize)>,
}

/// A piece of an original line kept in the excerpt: original bytes `from..to`, shown from `at`.
#[derive(Clone, Copy)]
struct Kept {
    from: usize,
    to: usize,
    at: usize,
}

/// The excerpt of `text` that shows `d`.
pub fn excerpt(text: &str, index: &LineIndex, d: &Diagnostic) -> Excerpt {
    let mut label_lines: Vec<usize> = Vec::new();
    for l in &d.labels {
        label_lines.push(index.line_of(l.span.start));
        label_lines.push(index.line_of(l.span.end.max(l.span.start + 1) - 1).max(index.line_of(l.span.start)));
    }
    let first = label_lines.iter().min().copied().unwrap_or(0).saturating_sub(1);
    let last = (label_lines.iter().max().copied().unwrap_or(0) + 1).min(index.lines().saturating_sub(1));
    let mut shown = String::new();
    let mut kept: Vec<Kept> = Vec::new();
    for line in first..=last {
        let span = index.line_span(text, line);
        let content = span.slice(text);
        let windows: Vec<(usize, usize)> =
            if content.len() <= LONG_LINE { vec![(span.start, span.end)] } else { windows(text, span, d) };
        let mut cursor = span.start;
        for (a, b) in windows {
            if a > cursor {
                shown.push('…');
            }
            kept.push(Kept { from: a, to: b, at: shown.len() });
            push_shown(&mut shown, &text[a..b]);
            cursor = b;
        }
        if cursor < span.end {
            shown.push('…');
        }
        // The end of line belongs to the line: a label on it points at the `\n`.
        kept.push(Kept { from: span.end, to: span.end, at: shown.len() });
        shown.push('\n');
    }
    shown.pop();
    let end_at = shown.len();
    if last + 1 >= index.lines() && super::render::points_past_the_end(d, text.len()) {
        // Where a label past the last character points.
        shown.push(' ');
    }
    let map = |p: usize| -> usize {
        if p >= text.len() {
            return end_at + (p - text.len()).min(1);
        }
        for k in &kept {
            if k.from <= p && p <= k.to {
                return k.at + (p - k.from);
            }
        }
        // Outside every kept piece: the nearest one after it.
        kept.iter().find(|k| k.from >= p).map_or(end_at, |k| k.at)
    };
    let mut moved = d.clone();
    for l in &mut moved.labels {
        let (a, b) = (map(l.span.start), map(l.span.end));
        l.span = Span::new(a, b.max(a));
    }
    let columns = kept
        .iter()
        .map(|k| {
            let line = index.line_span(text, index.line_of(k.from));
            (k.at, text.get(line.start..k.from).map_or(0, |t| t.chars().count()))
        })
        .collect();
    Excerpt { text: shown, first_line: first, diagnostic: moved, columns }
}

/// The pieces of the long line `span` of `text` that show the labels of `d`: their
/// surroundings, merged where they meet (the line's start when no label is on it).
fn windows(text: &str, span: Span, d: &Diagnostic) -> Vec<(usize, usize)> {
    let mut w: Vec<(usize, usize)> = d
        .labels
        .iter()
        .filter(|l| l.span.start <= span.end && l.span.end >= span.start)
        .map(|l| (l.span.start.saturating_sub(MARGIN).max(span.start), (l.span.end + MARGIN).min(span.end)))
        .collect();
    if w.is_empty() {
        w.push((span.start, (span.start + LONG_LINE / 2).min(span.end)));
    }
    w.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in w {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 4 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged.into_iter().map(|(a, b)| (floor_char(text, a), ceil_char(text, b))).collect()
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_char(text: &str, mut at: usize) -> usize {
    while at < text.len() && !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_lines_and_characters() {
        let text = "ab\r\ncé d\rx\ny";
        let index = LineIndex::new(text);
        assert_eq!(index.lines(), 4);
        assert_eq!(index.place(text, 0), (0, 1));
        assert_eq!(index.place(text, 4), (1, 1));
        assert_eq!(index.place(text, 8), (1, 4), "é is one character");
        assert_eq!(index.place(text, 10), (2, 1));
        assert_eq!(index.place(text, 13), (3, 2), "the end of the text");
    }

    #[test]
    fn pest_places_are_pests_on_lines_longer_than_a_block() {
        // Lines of several blocks, characters of 1 to 4 bytes across the blocks' borders,
        // CR alone, CRLF and LF.
        let text = format!("{}\r\n{}\rb\n\n{}é", "aé😀".repeat(200), "x🎈".repeat(150), "c".repeat(600));
        let index = LineIndex::pest(&text);
        for at in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
            let pest = pest::Position::new(&text, at).map(|p| p.line_col());
            assert_eq!(Some(index.line_col(&text, at)), pest, "at byte {at}");
        }
    }

    #[test]
    fn long_lines_are_cut_around_their_labels() {
        let long = format!("[A \"x\"]\n{}BAD{}\nnext\n", "P7f ".repeat(100), " P3d".repeat(100));
        let at = long.find("BAD").expect("BAD");
        let d = Diagnostic::error(crate::diagnostic::codes::psn::TAG_NAME, Span::new(at, at + 3), "bad").label("here");
        let e = excerpt(&long, &LineIndex::new(&long), &d);
        assert_eq!(e.first_line, 0);
        let span = e.diagnostic.labels[0].span;
        assert_eq!(&e.text[span.start..span.end], "BAD");
        assert!(e.text.len() < 200, "{}", e.text);
        assert!(e.text.contains('…'));
    }
}
