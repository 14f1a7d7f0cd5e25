//! Grammar diffs: every record of a corpus through two grammars, and what the change does to it.

use crate::diagnostic::codes;
#[cfg(feature = "serde")]
use serde::Serialize;

use super::grammar::{Grammar, Rejection, RejectionKind};
use super::limits::RunBudget;
use super::records::Sample;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// What a change of grammar did to one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Change {
    /// The old grammar rejects it, the new one accepts it.
    NewlyAccepted,
    /// The old grammar accepts it, the new one rejects it.
    NewlyRejected,
    /// Both accept it, with different trees.
    ChangedTree,
    /// A grammar was stopped on it (out of time, too much work, or a fault of the grammar): it
    /// has no verdict to compare.
    Stopped,
}

impl Change {
    /// The diagnostic code that shows an example of this change.
    pub const fn code(self) -> crate::diagnostic::Code {
        match self {
            Self::NewlyAccepted => codes::grammar::NEWLY_ACCEPTED,
            Self::NewlyRejected => codes::grammar::NEWLY_REJECTED,
            Self::ChangedTree => codes::grammar::CHANGED_TREE,
            Self::Stopped => codes::grammar::STOPPED,
        }
    }
}

/// One record whose verdict or tree changed, and where.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Example {
    /// What changed.
    pub kind: Change,
    /// The corpus file.
    pub file: String,
    /// 1-based line of the record's first character.
    pub line: usize,
    /// 1-based line and character column where the two grammars part.
    pub at_line: usize,
    /// Column of that place.
    pub column: usize,
    /// The record.
    pub record: String,
    /// How the old grammar reads the place.
    pub old: String,
    /// How the new grammar reads it.
    pub new: String,
    /// Where they part, in bytes of the record.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub span: Span,
}

impl Example {
    /// This example as a pointed diagnostic (a warning: a change is news, not a fault).
    pub fn diagnostic(&self) -> Diagnostic {
        let (message, label, help) = match self.kind {
            Change::NewlyAccepted => (
                "the new grammar accepts this record; the old one rejected it",
                format!("old: {}", self.old),
                "if this record should stay invalid, the new grammar is too lenient here",
            ),
            Change::NewlyRejected => (
                "the new grammar rejects this record; the old one accepted it",
                format!("new: {}", self.new),
                "if this record should stay valid, the new grammar is too strict here",
            ),
            Change::ChangedTree => (
                "both grammars accept this record, but read it differently",
                format!("old: {}; new: {}", self.old, self.new),
                "check that code built on the old tree reads the new one alike",
            ),
            Change::Stopped => (
                "a grammar was stopped on this record, which has no verdict to compare",
                format!("old: {}; new: {}", self.old, self.new),
                "`kifu tree --grammar` on this record shows why; make the grammar backtrack less or fix its fault",
            ),
        };
        Diagnostic::warning(self.kind.code(), self.span, message).label(label).help(help)
    }
}

/// How many records changed in one way: from what the old grammar made of them to what the new
/// one makes (the rule of the first node where their trees part, or a verdict).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Transition {
    /// What changed.
    pub kind: Change,
    /// The old grammar's side: `usi_record`, or `rejected (expected …)`.
    pub old: String,
    /// The new grammar's side.
    pub new: String,
    /// How many records changed so.
    pub count: usize,
}

/// The counts of a grammar diff, and the first examples of each change.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Report {
    /// Records read.
    pub records: usize,
    /// Accepted by both grammars with the same tree.
    pub accepted_both: usize,
    /// Rejected by both.
    pub rejected_both: usize,
    /// Rejected by the old grammar, accepted by the new one.
    pub newly_accepted: usize,
    /// Accepted by the old grammar, rejected by the new one.
    pub newly_rejected: usize,
    /// Accepted by both, with different trees.
    pub changed_tree: usize,
    /// Records a grammar was stopped on (no verdict to compare).
    pub stopped: usize,
    /// Records not run: the run's time ([`super::limits::RUN_TIME_BUDGET`]) was spent before them.
    pub not_run: usize,
    /// The first examples of each change, in corpus order.
    pub examples: Vec<Example>,
    /// Every change by transition, the most frequent first.
    pub transitions: Vec<Transition>,
}

impl Report {
    /// True when every record was compared and none changed its verdict or tree.
    pub fn unchanged(&self) -> bool {
        self.newly_accepted + self.newly_rejected + self.changed_tree + self.stopped + self.not_run == 0
    }

    /// Puts the examples in the order reports show them: the newly accepted, the newly
    /// rejected, then the changed trees, each kind in corpus order.
    pub fn sort_examples(&mut self) {
        self.examples.sort_by_key(|e| match e.kind {
            Change::NewlyAccepted => 0,
            Change::NewlyRejected => 1,
            Change::ChangedTree => 2,
            Change::Stopped => 3,
        });
    }

    /// Adds another part of the corpus's counts and examples (kept to `limit` of each kind).
    pub fn add(&mut self, other: Report, limit: usize) {
        self.records += other.records;
        self.accepted_both += other.accepted_both;
        self.rejected_both += other.rejected_both;
        self.newly_accepted += other.newly_accepted;
        self.newly_rejected += other.newly_rejected;
        self.changed_tree += other.changed_tree;
        self.stopped += other.stopped;
        self.not_run += other.not_run;
        for e in other.examples {
            if self.examples.iter().filter(|x| x.kind == e.kind).count() < limit {
                self.examples.push(e);
            }
        }
        for t in other.transitions {
            self.count(t.kind, t.old, t.new, t.count);
        }
    }

    /// Counts `n` records more that changed from `old` to `new`, keeping the most frequent
    /// transitions first.
    fn count(&mut self, kind: Change, old: String, new: String, n: usize) {
        match self.transitions.iter_mut().find(|t| t.kind == kind && t.old == old && t.new == new) {
            Some(t) => t.count += n,
            None => self.transitions.push(Transition { kind, old, new, count: n }),
        }
        // Stable: among equal counts, the first seen stays first.
        self.transitions.sort_by_key(|t| std::cmp::Reverse(t.count));
    }
}

/// A node of a parse tree, flattened: depth, rule, byte span.
type Node<'a> = (usize, &'a str, usize, usize);

fn flatten<'a>(pairs: pest::iterators::Pairs<'a, &'a str>) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    let mut stack: Vec<(pest::iterators::Pair<'a, &'a str>, usize)> = pairs.rev().map(|p| (p, 0)).collect();
    while let Some((pair, depth)) = stack.pop() {
        let span = pair.as_span();
        out.push((depth, pair.as_rule(), span.start(), span.end()));
        let children: Vec<_> = pair.into_inner().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

/// Where two trees of one text part: the first place where a node of one starts or ends and
/// the same node of the other does not (a node that differs only in its end, such as a header
/// around a changed word, parts where the word does, not at its own start).
fn parting<'a>(a: &[Node<'a>], b: &[Node<'a>]) -> usize {
    // Each node's start and end, as (place, 0 for an end and 1 for a start, depth, rule).
    fn events<'a>(nodes: &[Node<'a>]) -> Vec<(usize, u8, usize, &'a str)> {
        let mut e: Vec<_> = nodes.iter().flat_map(|&(d, r, s, e)| [(s, 1, d, r), (e, 0, d, r)]).collect();
        e.sort_unstable();
        e
    }
    let (x, y) = (events(a), events(b));
    match x.iter().zip(&y).find(|(p, q)| p != q) {
        Some((p, q)) => p.0.min(q.0),
        None => x.get(y.len()).or_else(|| y.get(x.len())).map_or(0, |e| e.0),
    }
}

/// What the old and the new grammar make of one place.
type Sides = (String, String);

/// Where two trees of `text` differ, if they do: the place, the rules of the first nodes that
/// differ (the transition), and what each tree reads there.
fn changed_tree(a: &[Node<'_>], b: &[Node<'_>], text: &str) -> Option<(Span, Sides, Sides)> {
    let i = a.iter().zip(b).position(|(x, y)| x != y).or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))?;
    let show = |n: Option<&Node<'_>>| match n {
        Some((_, rule, s, e)) if e - s > 24 => format!("`{rule}`"),
        Some((_, rule, s, e)) => format!("`{rule}` reads `{}`", Span::new(*s, *e).slice(text).escape_debug()),
        None => "nothing more".to_owned(),
    };
    let rule = |n: Option<&Node<'_>>| n.map_or_else(|| "nothing more".to_owned(), |n| format!("`{}`", n.1));
    let (x, y) = (a.get(i), b.get(i));
    let start = parting(a, b).min(text.len());
    // The nodes that part there, or else the character.
    let end = [x, y].iter().flatten().filter(|n| n.2 == start).map(|n| n.3).max();
    let end =
        end.filter(|&e| e > start).unwrap_or_else(|| start + text[start..].chars().next().map_or(0, char::len_utf8));
    Some((Span::new(start, end), (rule(x), rule(y)), (show(x), show(y))))
}

/// Runs the records of `file` through `rule` of both grammars, those left once `budget` is
/// spent only counted.
pub fn diff(
    old: &Grammar,
    new: &Grammar,
    rule: &str,
    file: &str,
    records: &[Sample],
    limit: usize,
    budget: &RunBudget,
) -> Report {
    let mut report = Report::default();
    for (i, r) in records.iter().enumerate() {
        if budget.spent() {
            report.records += records.len() - i;
            report.not_run += records.len() - i;
            break;
        }
        report.records += 1;
        let text = r.text.as_str();
        let Some((kind, span, old_says, new_says)) = compare((old, new), rule, text, &mut report) else { continue };
        if report.examples.iter().filter(|x| x.kind == kind).count() < limit {
            let index = crate::diagnostic::excerpt::LineIndex::new(text);
            let (line, column) = index.place(text, span.start);
            report.examples.push(Example {
                kind,
                file: file.to_owned(),
                line: r.line,
                at_line: r.line + line,
                column,
                record: text.to_owned(),
                old: old_says,
                new: new_says,
                span,
            });
        }
    }
    report
}

/// Reads `text` with `rule` of the old grammar and the new, counted in `report`: how the two
/// differ, where, and what each says there; `None` when they agree.
fn compare(
    (old, new): (&Grammar, &Grammar),
    rule: &str,
    text: &str,
    report: &mut Report,
) -> Option<(Change, Span, String, String)> {
    let a = old.parse(rule, text);
    let b = new.parse(rule, text);
    let stopped = |side: &Result<_, Rejection>| match side {
        Err(e) if e.kind != RejectionKind::Mismatch => Some(e.diagnostic(rule, text).message),
        _ => None,
    };
    let verdict = |side: &Result<_, Rejection>| match side {
        Ok(_) => "accepted".to_owned(),
        Err(e) => format!("rejected (expected {})", e.expected),
    };
    let (old_stop, new_stop) = (stopped(&a), stopped(&b));
    match (a, b) {
        (a, b) if old_stop.is_some() || new_stop.is_some() => {
            report.stopped += 1;
            let (old, new) = (old_stop.unwrap_or_else(|| verdict(&a)), new_stop.unwrap_or_else(|| verdict(&b)));
            report.count(Change::Stopped, old.clone(), new.clone(), 1);
            Some((Change::Stopped, Span::new(0, text.len()), old, new))
        }
        (Err(_), Err(_)) => {
            report.rejected_both += 1;
            None
        }
        (Err(e), Ok(_)) => {
            report.newly_accepted += 1;
            report.count(Change::NewlyAccepted, format!("rejected (expected {})", e.expected), "accepted".into(), 1);
            Some((Change::NewlyAccepted, e.span, format!("expected {}", e.expected), "accepted".into()))
        }
        (Ok(_), Err(e)) => {
            report.newly_rejected += 1;
            report.count(Change::NewlyRejected, "accepted".into(), format!("rejected (expected {})", e.expected), 1);
            Some((Change::NewlyRejected, e.span, "accepted".into(), format!("expected {}", e.expected)))
        }
        (Ok(a), Ok(b)) => match changed_tree(&flatten(a), &flatten(b), text) {
            None => {
                report.accepted_both += 1;
                None
            }
            Some((span, (old_rule, new_rule), (old, new))) => {
                report.changed_tree += 1;
                report.count(Change::ChangedTree, old_rule, new_rule, 1);
                Some((Change::ChangedTree, span, old, new))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::parting;

    #[test]
    fn trees_part_where_their_words_do_not_where_the_nodes_around_them_start() {
        // `[Sente "A1"]`: the old grammar reads the value as one word, the new one as two.
        let old = [(0, "header", 0, 12), (1, "keyword", 1, 6), (1, "value", 8, 10)];
        let new = [(0, "header", 0, 12), (1, "keyword", 1, 6), (1, "value", 8, 9), (1, "digit", 9, 10)];
        assert_eq!(parting(&old, &new), 9);
        // Different rules from the start part at the start.
        assert_eq!(parting(&[(0, "usi_record", 0, 5)], &[(0, "sfen2007_record", 0, 5)]), 0);
        // One tree a prefix of the other: where the longer goes on.
        assert_eq!(parting(&[(0, "a", 0, 5)], &[(0, "a", 0, 5), (1, "b", 2, 3)]), 2);
    }
}
