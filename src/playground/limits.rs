//! The limits a grammar loaded at run time must keep, checked before pest's own grammar
//! reader and optimizer see it: they recurse on a grammar's nesting, write counted repetitions
//! out in full, and panic on some literals, so a few bytes of grammar could crash kifu or keep
//! it busy for minutes. Every check here is a loop over the text or the rules (no recursion),
//! and each limit is reported on the characters that break it.

use crate::diagnostic::codes;
use std::time::Duration;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
use web_time::Instant;

use pest::iterators::Pairs;
use pest_meta::ast::{Expr, Rule as AstRule};
use pest_meta::parser::Rule as MetaRule;

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The most bytes a grammar may hold, all its files together: far more than any real grammar
/// (kifu's largest is about 20 KiB), and small enough to read at once.
pub const MAX_GRAMMAR_BYTES: usize = 1 << 20;

/// The deepest a grammar may nest parentheses, brackets and block comments.
pub(crate) const MAX_GRAMMAR_NESTING: usize = 100;

/// The most rules a grammar may define, `grammar/common.pest` included.
pub(crate) const MAX_GRAMMAR_RULES: usize = 1000;

/// The most terms and operators one rule may hold (`"a" ~ b?` is four).
pub(crate) const MAX_RULE_TERMS: usize = 500;

/// The most terms and operators a grammar's rules may hold together, each rule counted with
/// the square of its number: pest's checks copy each part of a rule with all below it, so a
/// rule of `n` terms costs them about `n × n` steps, some four times over. A rule of the
/// longest (500) costs under a third of this.
pub(crate) const MAX_SQUARED_TERMS: u64 = 800_000;

/// The largest count of a counted repetition (`e{n}`, `e{n,m}`, `e{,m}`, `e{n,}`) and the
/// largest index of a `PEEK[a..b]` slice. pest writes a counted repetition out in full.
pub(crate) const MAX_REPETITION: u64 = 1000;

/// The most work kifu lets pest spend preparing a grammar to run, in steps of its optimizer
/// (about 60 ns each, so at most about a second). Long chains of alternatives and large
/// counted repetitions cost the cube of their length; kifu's own grammars need under a fifth of
/// this.
pub const MAX_PREPARATION_STEPS: u64 = 20_000_000;

/// The deepest a rule may nest once its counted repetitions are written out.
pub(crate) const MAX_WRITTEN_OUT_DEPTH: u64 = 1000;

/// The longest a grammar rule may spend on one record before kifu stops it with a report.
pub const RECORD_TIME_BUDGET: Duration = Duration::from_secs(2);

/// The longest a whole run over a corpus (`kifu grammar diff`) may spend on its records; the
/// records left when it is spent are counted, not run.
pub const RUN_TIME_BUDGET: Duration = Duration::from_secs(600);

/// The deadline of a whole run.
#[derive(Clone, Copy, Debug)]
pub struct RunBudget {
    deadline: Option<Instant>,
}

impl RunBudget {
    /// A run that starts now and may last `budget`.
    pub fn start(budget: Duration) -> Self {
        RunBudget { deadline: Instant::now().checked_add(budget) }
    }

    /// Whether the run's time is spent.
    pub fn spent(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A limit broken at `span` (an offset range into the text checked).
#[derive(Debug)]
pub struct Broken {
    /// Where.
    pub span: Span,
    /// The finding.
    pub diagnostic: Diagnostic,
}

fn broken(span: Span, d: Diagnostic) -> Broken {
    Broken { span, diagnostic: d }
}

/// Checks a grammar's text before it is parsed: its size and how deep it nests. Strings,
/// character literals and line comments are skipped; block comments nest.
pub fn check_text(text: &str) -> Option<Broken> {
    if text.len() > MAX_GRAMMAR_BYTES {
        let d = Diagnostic::error(
            codes::grammar::TOO_LARGE,
            Span::new(0, 0),
            format!("this grammar is larger than {} MiB, the most kifu reads", MAX_GRAMMAR_BYTES >> 20),
        )
        .label("the grammar starts here")
        .help("split it, or leave out what the rule you try does not need");
        return Some(broken(Span::point(0), d));
    }
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut comments = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if comments > 0 && rest.starts_with(b"*/") {
            comments -= 1;
            i += 2;
            continue;
        }
        let opens = if rest.starts_with(b"/*") {
            comments += 1;
            2
        } else if comments > 0 {
            i += 1;
            continue;
        } else if rest.starts_with(b"//") {
            i += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            continue;
        } else {
            match rest[0] {
                b'"' | b'\'' => {
                    // A literal: to its closing quote, past escapes, or to the line's end.
                    let quote = rest[0];
                    let mut j = 1;
                    while j < rest.len() && rest[j] != quote && rest[j] != b'\n' {
                        j += if rest[j] == b'\\' { 2 } else { 1 };
                    }
                    i += (j + 1).min(rest.len());
                    continue;
                }
                b'(' | b'[' => {
                    depth += 1;
                    1
                }
                b')' | b']' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                    continue;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
        };
        if depth + comments > MAX_GRAMMAR_NESTING {
            let what = if opens == 2 { "block comments" } else { "parentheses and brackets" };
            let d = Diagnostic::error(
                codes::grammar::TOO_DEEP,
                Span::new(i, i + opens),
                format!("the grammar nests {what} more than {MAX_GRAMMAR_NESTING} levels deep here"),
            )
            .label(format!("level {}", depth + comments))
            .help("name the inner part as a rule of its own, or flatten the expression");
            return Some(broken(Span::new(i, i + opens), d));
        }
        i += opens;
    }
    None
}

/// Checks what pest's grammar reader read, before it builds rules from it: how many rules and
/// how many terms in each, the counts of repetitions and `PEEK` slices, and the escapes of
/// every literal. Every broken limit is reported, up to one per rule.
pub(crate) fn check_pairs(pairs: Pairs<'_, MetaRule>) -> Vec<Broken> {
    let mut out = Vec::new();
    let mut rules = 0usize;
    let mut terms = 0usize;
    let mut rule_reported = false;
    let mut squared = 0u64;
    let mut squared_reported = false;
    // Adds the rule just read to the sum of squares, and reports the rule that passes its limit.
    let mut rule_end = |terms: usize, name: Span, out: &mut Vec<Broken>| {
        squared = squared.saturating_add((terms as u64).saturating_mul(terms as u64));
        if squared > MAX_SQUARED_TERMS && !squared_reported {
            squared_reported = true;
            out.push(too_costly(name));
        }
    };
    let mut last_name: Option<Span> = None;
    for pair in pairs.flatten() {
        let span = Span::new(pair.as_span().start(), pair.as_span().end());
        match pair.as_rule() {
            MetaRule::grammar_rule => {
                // A `///` line is a `grammar_rule` too; it holds no identifier.
                let is_rule = pair.clone().into_inner().next().is_some_and(|p| p.as_rule() == MetaRule::identifier);
                if !is_rule {
                    continue;
                }
                rules += 1;
                if let Some(name) = last_name {
                    rule_end(terms, name, &mut out);
                }
                let name_end = pair.clone().into_inner().next().map_or(span.end, |p| p.as_span().end());
                let name = Span::new(span.start, name_end);
                last_name = Some(name);
                terms = 0;
                rule_reported = false;
                if rules == MAX_GRAMMAR_RULES + 1 {
                    out.push(too_many_rules(name, rules));
                }
            }
            r if is_term(r) => {
                terms += 1;
                if terms > MAX_RULE_TERMS && !rule_reported {
                    rule_reported = true;
                    out.push(rule_too_long(span, terms));
                }
            }
            MetaRule::number | MetaRule::integer => {
                let within_one = out.iter().any(|b: &Broken| b.span.start <= span.start && span.end <= b.span.end);
                if is_too_large(pair.as_str()) && !within_one {
                    out.push(count_too_large(span));
                }
            }
            MetaRule::string | MetaRule::character => {
                if let Some((at, len)) = bad_escape(pair.as_str()) {
                    let span = Span::new(span.start + at, span.start + at + len);
                    let d = Diagnostic::error(codes::grammar::BAD_ESCAPE, span, "this escape names no character")
                        .label("not a character")
                        .help(r"write `\u{…}` with 2 to 6 hex digits of a Unicode scalar value (at most 10FFFF, not D800-DFFF)");
                    out.push(broken(span, d));
                }
            }
            _ => {}
        }
    }
    if let Some(name) = last_name {
        rule_end(terms, name, &mut out);
    }
    out
}

/// True for a number above [`MAX_REPETITION`] (a repetition count or a `PEEK` index).
fn is_too_large(number: &str) -> bool {
    let digits = number.trim_start_matches('-').trim_start_matches('0');
    digits.len() > 6 || digits.parse::<u64>().is_ok_and(|n| n > MAX_REPETITION)
}

/// The report of the rule `name` whose terms, with those of the rules before it, pass
/// [`MAX_SQUARED_TERMS`].
fn too_costly(name: Span) -> Broken {
    let d = Diagnostic::error(
        codes::grammar::TOO_COSTLY,
        name,
        "the grammar's rules are too long together for pest to check: this rule passes the limit",
    )
    .label("the rules up to this one")
    .help("split long rules into smaller rules: a rule of n terms costs pest's checks about n × n steps");
    broken(name, d)
}

/// The report of the rule `name`, the `rules`-th, one past [`MAX_GRAMMAR_RULES`].
fn too_many_rules(name: Span, rules: usize) -> Broken {
    let d = Diagnostic::error(
        codes::grammar::TOO_MANY_RULES,
        name,
        format!("the grammar defines more than {MAX_GRAMMAR_RULES} rules"),
    )
    .label(format!("rule {rules}"))
    .help("leave out the rules the rule you try does not reach");
    broken(name, d)
}

/// The report of the `terms`-th term of a rule, one past [`MAX_RULE_TERMS`], at `span`.
fn rule_too_long(span: Span, terms: usize) -> Broken {
    let d = Diagnostic::error(
        codes::grammar::RULE_TOO_LONG,
        span,
        format!("this rule holds more than {MAX_RULE_TERMS} terms and operators"),
    )
    .label(format!("term or operator {terms}"))
    .help("split the rule into smaller rules");
    broken(span, d)
}

/// The report of a number above [`MAX_REPETITION`] at `span`.
fn count_too_large(span: Span) -> Broken {
    let d = Diagnostic::error(
        codes::grammar::COUNT_TOO_LARGE,
        span,
        format!("a repetition count or `PEEK` index above {MAX_REPETITION}"),
    )
    .label(format!("at most {MAX_REPETITION}"))
    .help("pest writes a counted repetition out in full: use a smaller count, or `*` / `+`");
    broken(span, d)
}

/// Whether pest's grammar reader names a term or an operator with `rule` (what
/// [`MAX_RULE_TERMS`] counts).
fn is_term(rule: MetaRule) -> bool {
    matches!(
        rule,
        MetaRule::term
            | MetaRule::positive_predicate_operator
            | MetaRule::negative_predicate_operator
            | MetaRule::optional_operator
            | MetaRule::repeat_operator
            | MetaRule::repeat_once_operator
            | MetaRule::repeat_exact
            | MetaRule::repeat_min
            | MetaRule::repeat_max
            | MetaRule::repeat_min_max
    )
}

/// The place and length of the first escape of a quoted literal that pest cannot read
/// (it would panic on it): `\x` with other than two hex digits, `\u{…}` that is not a
/// character.
fn bad_escape(literal: &str) -> Option<(usize, usize)> {
    let bytes = literal.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let start = i;
        match bytes.get(i + 1) {
            Some(b'"' | b'\\' | b'r' | b'n' | b't' | b'0' | b'\'') => i += 2,
            Some(b'x') => {
                let hex = literal.get(i + 2..i + 4)?;
                if u8::from_str_radix(hex, 16).is_err() {
                    return Some((start, 2));
                }
                i += 4;
            }
            Some(b'u') => {
                let close = literal[i..].find('}').map_or(bytes.len(), |c| i + c);
                let hex = literal.get(i + 3..close).unwrap_or("");
                let ok = bytes.get(i + 2) == Some(&b'{')
                    && (2..=6).contains(&hex.len())
                    && u32::from_str_radix(hex, 16).ok().and_then(char::from_u32).is_some();
                if !ok {
                    return Some((start, (close + 1).min(bytes.len()) - start));
                }
                i = close + 1;
            }
            _ => return Some((start, 1 + usize::from(i + 1 < bytes.len()))),
        }
    }
    None
}

/// What a rule costs pest's optimizer once its counted repetitions are written out.
#[derive(Clone, Copy, Default, Debug)]
struct Cost {
    /// Nodes.
    size: u64,
    /// How deep it nests.
    depth: u64,
    /// Steps to walk it once (pest copies each node it visits, with everything below it).
    walk: u64,
    /// Steps of the walks the optimizer starts inside it (one per branch of `|`, `?`, `*`).
    own: u64,
    /// How many such walks, each of which also walks the rules it calls.
    branches: u64,
}

impl Cost {
    const LEAF: Cost = Cost { size: 1, depth: 1, walk: 1, own: 0, branches: 0 };

    fn wrap(inner: Cost, branch: bool) -> Cost {
        let size = inner.size.saturating_add(1);
        Cost {
            size,
            depth: inner.depth.saturating_add(1),
            walk: inner.walk.saturating_add(size),
            own: if branch { inner.own.saturating_add(inner.walk) } else { inner.own },
            branches: inner.branches.saturating_add(u64::from(branch)),
        }
    }

    fn pair(a: Cost, b: Cost, choice: bool) -> Cost {
        let size = a.size.saturating_add(b.size).saturating_add(1);
        let own = a.own.saturating_add(b.own);
        Cost {
            size,
            depth: a.depth.max(b.depth).saturating_add(1),
            walk: a.walk.saturating_add(b.walk).saturating_add(size),
            own: if choice { own.saturating_add(a.walk).saturating_add(b.walk) } else { own },
            branches: a.branches.saturating_add(b.branches).saturating_add(if choice { 2 } else { 0 }),
        }
    }

    /// `items` in sequence, as pest writes a counted repetition out: `a ~ (b ~ (c ~ …))`.
    fn chain(items: &[(Cost, u64)]) -> Cost {
        let mut acc: Option<Cost> = None;
        for &(item, n) in items.iter().rev() {
            for _ in 0..n {
                acc = Some(match acc {
                    None => item,
                    Some(rest) => Cost::pair(item, rest, false),
                });
                if acc.is_some_and(|c| c.depth > MAX_WRITTEN_OUT_DEPTH) {
                    return acc.unwrap_or(item);
                }
            }
        }
        acc.unwrap_or(Cost::LEAF)
    }
}

/// How deep `expr` nests as it is read (its counted repetitions not written out), and the
/// steps of a walk of it that copies, at each of its expressions, everything below it.
pub(crate) fn depth_and_copies(expr: &Expr) -> (u64, u64) {
    let (cost, _) = rule_cost(expr, false);
    (cost.depth, cost.walk)
}

/// The expressions directly below `expr`, left to right.
pub(crate) fn children(expr: &Expr) -> Vec<&Expr> {
    match expr {
        Expr::Seq(a, b) | Expr::Choice(a, b) => vec![a, b],
        Expr::PosPred(e)
        | Expr::NegPred(e)
        | Expr::Opt(e)
        | Expr::Rep(e)
        | Expr::RepOnce(e)
        | Expr::Push(e)
        | Expr::RepExact(e, _)
        | Expr::RepMin(e, _)
        | Expr::RepMax(e, _)
        | Expr::RepMinMax(e, _, _) => vec![e],
        _ => Vec::new(),
    }
}

fn combine(expr: &Expr, inner: &[Cost], written_out: bool) -> Cost {
    let one = inner.first().copied().unwrap_or(Cost::LEAF);
    let n = |k: &u32| u64::from(*k);
    match expr {
        Expr::RepOnce(_) | Expr::RepExact(..) | Expr::RepMin(..) | Expr::RepMax(..) | Expr::RepMinMax(..)
            if !written_out =>
        {
            Cost::wrap(one, true)
        }
        Expr::Seq(..) => Cost::pair(one, inner.get(1).copied().unwrap_or(Cost::LEAF), false),
        Expr::Choice(..) => Cost::pair(one, inner.get(1).copied().unwrap_or(Cost::LEAF), true),
        Expr::Opt(_) | Expr::Rep(_) => Cost::wrap(one, true),
        Expr::RepOnce(_) => Cost::pair(one, Cost::wrap(one, true), false),
        Expr::RepExact(_, k) => Cost::chain(&[(one, n(k))]),
        Expr::RepMin(_, k) => Cost::chain(&[(one, n(k)), (Cost::wrap(one, true), 1)]),
        Expr::RepMax(_, k) => Cost::chain(&[(Cost::wrap(one, true), n(k))]),
        Expr::RepMinMax(_, lo, hi) => {
            Cost::chain(&[(one, n(lo)), (Cost::wrap(one, true), n(hi).saturating_sub(n(lo)))])
        }
        Expr::PosPred(_) | Expr::NegPred(_) | Expr::Push(_) => Cost::wrap(one, false),
        _ if inner.is_empty() => Cost::LEAF,
        _ => Cost::wrap(one, false),
    }
}

/// A rule's cost, its counted repetitions `written_out` as pest's optimizer writes them or
/// as they are read, and whether it calls a rule, by a walk with a stack of its own (rules can
/// be thousands of nodes deep).
fn rule_cost(expr: &Expr, written_out: bool) -> (Cost, bool) {
    let mut todo: Vec<(&Expr, bool)> = vec![(expr, false)];
    let mut done: Vec<Cost> = Vec::new();
    let mut calls = false;
    while let Some((e, visited)) = todo.pop() {
        calls |= matches!(e, Expr::Ident(_));
        let kids = children(e);
        if visited {
            let at = done.len() - kids.len().min(done.len());
            let cost = combine(e, &done[at..], written_out);
            done.truncate(at);
            done.push(cost);
        } else {
            todo.push((e, true));
            todo.extend(kids.into_iter().rev().map(|k| (k, false)));
        }
    }
    (done.pop().unwrap_or(Cost::LEAF), calls)
}

/// The first rule (by index) that pest's optimizer could not prepare within the limits: too
/// deep once written out, or too much work. Each walk the optimizer starts can also walk every
/// rule the grammar calls, which this counts as the whole grammar's walk.
pub fn check_preparation(rules: &[AstRule]) -> Option<(usize, String)> {
    let costs: Vec<(Cost, bool)> = rules.iter().map(|r| rule_cost(&r.expr, true)).collect();
    let all_walks = costs.iter().fold(0u64, |s, (c, _)| s.saturating_add(c.walk));
    let mut steps = 0u64;
    for (i, (c, calls)) in costs.iter().enumerate() {
        steps = steps.saturating_add(rule_steps(c, *calls, all_walks));
        if c.depth > MAX_WRITTEN_OUT_DEPTH {
            return Some((
                i,
                format!(
                    "with its counted repetitions written out, this rule nests more than {MAX_WRITTEN_OUT_DEPTH} levels deep"
                ),
            ));
        }
        if steps > MAX_PREPARATION_STEPS {
            return Some((
                i,
                "preparing the grammar to run would take too long from this rule on: its alternatives and counted repetitions come to too many steps".to_owned(),
            ));
        }
    }
    None
}

/// The steps of the optimizer's walks started in a rule: its own, and for a rule that calls
/// others, each walk's calls counted as the whole grammar's walk.
fn rule_steps(c: &Cost, calls: bool, all_walks: u64) -> u64 {
    let walks = if calls { c.branches.saturating_mul(all_walks) } else { 0 };
    c.own.saturating_add(walks)
}

/// The steps preparing `rules` takes, by the estimate [`check_preparation`] holds to
/// [`MAX_PREPARATION_STEPS`].
#[cfg(feature = "internals")]
pub fn preparation_steps(rules: &[AstRule]) -> u64 {
    let costs: Vec<(Cost, bool)> = rules.iter().map(|r| rule_cost(&r.expr, true)).collect();
    let all_walks = costs.iter().fold(0u64, |s, (c, _)| s.saturating_add(c.walk));
    costs.iter().fold(0u64, |s, (c, calls)| s.saturating_add(rule_steps(c, *calls, all_walks)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kifus_grammars_are_well_within_the_limits() {
        use crate::notation::grammar::{COMMON, FEN, PSN, SFEN};
        for text in [SFEN, FEN, PSN] {
            let joined = format!("{text}\n{COMMON}");
            let pairs = pest_meta::parser::parse(MetaRule::grammar_rules, &joined).expect("parses");
            assert!(check_pairs(pairs.clone()).is_empty());
            assert!(
                squared_terms(pairs.clone()) < MAX_SQUARED_TERMS / 20,
                "{} squared terms",
                squared_terms(pairs.clone())
            );
            let rules = pest_meta::parser::consume_rules(pairs).expect("rules");
            let steps = preparation_steps(&rules);
            assert!(steps < MAX_PREPARATION_STEPS / 5, "{steps} steps");
            assert!(check_text(&joined).is_none() && check_preparation(&rules).is_none());
        }
    }

    /// The sum over the rules of `pairs` of the square of their terms and operators (what
    /// [`MAX_SQUARED_TERMS`] bounds).
    fn squared_terms(pairs: Pairs<'_, MetaRule>) -> u64 {
        let mut sum = 0u64;
        for rule in pairs.flatten().filter(|p| p.as_rule() == MetaRule::grammar_rule) {
            let n = rule.into_inner().flatten().filter(|p| is_term(p.as_rule())).count() as u64;
            sum += n * n;
        }
        sum
    }

    #[test]
    fn escapes() {
        assert_eq!(bad_escape(r#""a\n\x41\u{10FFFF}""#), None);
        assert_eq!(bad_escape(r#""\u{110000}""#), Some((1, 10)));
        assert_eq!(bad_escape(r#""\u{D800}""#), Some((1, 8)));
        assert_eq!(bad_escape(r#"'\q'"#), Some((1, 2)));
    }

    #[test]
    fn nesting_is_counted_outside_literals_and_comments() {
        let deep = format!("a = {{ {}\"x\"{} }}", "(".repeat(101), ")".repeat(101));
        assert!(check_text(&deep).is_some());
        let quoted = format!("a = {{ \"{}\" }} // {}", "(".repeat(200), "(".repeat(200));
        assert!(check_text(&quoted).is_none());
        assert!(check_text(&"/*".repeat(101)).is_some());
    }
}
