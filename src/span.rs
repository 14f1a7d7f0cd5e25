//! Byte spans into a record's text, and their line/column positions.

use std::fmt;

/// A half-open range of byte offsets, `start..end`, into the text a node was parsed from.
///
/// Offsets are bytes so that slicing is exact; [`Span::columns`] turns them into the 1-based
/// character columns that people and editors read.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Span {
    /// A span is written as `[start, end]`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.start, self.end].serialize(serializer)
    }
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    /// An empty span at `at`: a point, such as where a missing field should start.
    pub const fn point(at: usize) -> Self {
        Self { start: at, end: at }
    }

    /// The span of a pest pair or span.
    pub fn of(span: pest::Span<'_>) -> Self {
        Self::new(span.start(), span.end())
    }

    /// Number of bytes covered.
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// True for a point.
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// This span moved `by` bytes to the right (offsets stop at `usize::MAX`).
    pub const fn shift(self, by: usize) -> Self {
        Self::new(self.start.saturating_add(by), self.end.saturating_add(by))
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Self {
        Self::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// True when `other` lies inside this span.
    pub const fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// The text this span covers.
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }

    /// 1-based character columns `(column, end_column)` of this span within `line`, the end
    /// exclusive. Offsets past the end of the line count as if the line went on.
    pub fn columns(self, line: &str) -> (usize, usize) {
        let col = char_column(line, self.start);
        let end = col + char_count(line, self.start, self.end);
        (col, end)
    }
}

/// 1-based character column of byte `at` in `line`.
fn char_column(line: &str, at: usize) -> usize {
    1 + char_count(line, 0, at)
}

fn char_count(line: &str, from: usize, to: usize) -> usize {
    if to <= from {
        return 0;
    }
    let len = line.len();
    let (a, b) = (from.min(len), to.min(len));
    let inside = line.get(a..b).map_or(b - a, |s| s.chars().count());
    inside + to.saturating_sub(len.max(from))
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        (span.start, span.len()).into()
    }
}

/// A value and the span it was read from.
///
/// Debug prints `value @ start..end`, which keeps syntax-tree snapshots short. Equality ignores
/// the span, so two readings of the same record compare equal wherever they stood.
#[derive(Clone, Copy)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was read.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `node` read at `span`.
    pub const fn new(node: T, span: Span) -> Self {
        Self { node, span }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: fmt::Debug> fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)?;
        write!(f, " @ {:?}", self.span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let line = "ａｂc d";
        // `c` is at byte 6 (two 3-byte characters before it), column 3.
        assert_eq!(Span::new(6, 7).columns(line), (3, 4));
        assert_eq!(Span::new(0, 3).columns(line), (1, 2));
        assert_eq!(Span::point(line.len()).columns(line), (6, 6));
    }

    #[test]
    fn spanned_equality_ignores_spans() {
        assert_eq!(Spanned::new(1, Span::new(0, 1)), Spanned::new(1, Span::new(5, 6)));
        assert_eq!(format!("{:?}", Spanned::new('K', Span::new(2, 3))), "'K' @ 2..3");
    }
}
