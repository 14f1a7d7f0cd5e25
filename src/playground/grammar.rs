//! Grammars loaded at run time: `.pest` texts read by pest's own meta parser (pest_meta) and run
//! by its virtual machine (pest_vm), with every fault of the grammar as a pointed diagnostic into
//! the file that holds it.
//!
//! A grammar is one or more sources joined in order, as pest_derive joins several `#[grammar]`
//! attributes. Unless told otherwise, `grammar/common.pest` is joined after them, less the rules
//! they define themselves, so that an edited copy of `grammar/sfen.pest` runs on its own.

use crate::diagnostic::codes;
use std::collections::{BTreeSet, HashMap};

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::{Pair, Pairs};
use pest_meta::ast::{Expr, Rule as AstRule};
use pest_meta::parser::Rule as MetaRule;

use crate::diagnostic::Diagnostic;
use crate::notation::tree::Tree;
use crate::span::Span;

use super::{checks, limits};

/// One `.pest` text and the name reports give it.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file's name as reports show it.
    pub name: String,
    /// Its text.
    pub text: String,
}

impl Source {
    /// A source named `name` holding `text`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Self { name: name.into(), text: text.into() }
    }

    /// A source from the bytes of a file: text that is not UTF-8 is read with replacement
    /// characters, and the first of them is a `grammar::not-utf8` diagnostic.
    pub fn from_bytes(name: impl Into<String>, bytes: &[u8]) -> (Self, Option<Diagnostic>) {
        match std::str::from_utf8(bytes) {
            Ok(text) => (Self::new(name, text), None),
            Err(e) => {
                let text = String::from_utf8_lossy(bytes).into_owned();
                let at = String::from_utf8_lossy(&bytes[..e.valid_up_to()]).len();
                let d = Diagnostic::error(
                    codes::grammar::NOT_UTF8,
                    Span::new(at, at + '\u{FFFD}'.len_utf8()),
                    "a grammar file must be UTF-8 text",
                )
                .label("this byte is not UTF-8")
                .help("save the grammar as UTF-8; pest grammars are text");
                (Self::new(name, text), Some(d))
            }
        }
    }
}

/// A finding about a grammar, in one of its sources.
#[derive(Clone, Debug)]
pub struct GrammarDiagnostic {
    /// The source it points into.
    pub source: Source,
    /// The finding, with spans into that source's text.
    pub diagnostic: Diagnostic,
}

/// A grammar ready to run.
pub struct Grammar {
    vm: pest_vm::Vm,
    rules: Vec<AstRule>,
    docs: HashMap<String, Vec<String>>,
    words: HashMap<String, String>,
    /// The grammar rewritten for partial trees ([`super::partial`]), made when first needed.
    cut_short: std::sync::OnceLock<pest_vm::Vm>,
}

impl std::fmt::Debug for Grammar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grammar").field("rules", &self.names()).finish_non_exhaustive()
    }
}

/// Where a source sits in the joined text.
struct Segment {
    source: Source,
    start: usize,
}

/// Rule names pest defines itself.
#[cfg(feature = "internals")]
pub const BUILTINS: &[&str] = &[
    "ANY",
    "EOI",
    "SOI",
    "PEEK",
    "PEEK_ALL",
    "POP",
    "POP_ALL",
    "DROP",
    "ASCII_DIGIT",
    "ASCII_NONZERO_DIGIT",
    "ASCII_BIN_DIGIT",
    "ASCII_OCT_DIGIT",
    "ASCII_HEX_DIGIT",
    "ASCII_ALPHA_LOWER",
    "ASCII_ALPHA_UPPER",
    "ASCII_ALPHA",
    "ASCII_ALPHANUMERIC",
    "ASCII",
    "NEWLINE",
    "WHITESPACE",
    "COMMENT",
];

/// `sources` joined in order, each line ending, then `grammar/common.pest` (less the rules the
/// sources define) when `with_common`; with where each source starts. Each source is checked
/// for size and nesting first: pest's grammar reader recurses on nesting.
fn join(sources: &[Source], with_common: bool) -> Result<(Vec<Segment>, String), Vec<GrammarDiagnostic>> {
    let mut segments = Vec::new();
    let mut joined = String::new();
    for s in sources {
        // Size and nesting first: pest's grammar reader recurses on nesting.
        let over = joined.len() + s.text.len() > limits::MAX_GRAMMAR_BYTES;
        let text_check = if over {
            limits::check_text(&" ".repeat(limits::MAX_GRAMMAR_BYTES + 1))
        } else {
            limits::check_text(&s.text)
        };
        if let Some(b) = text_check {
            return Err(vec![GrammarDiagnostic { source: s.clone(), diagnostic: b.diagnostic }]);
        }
        segments.push(Segment { source: s.clone(), start: joined.len() });
        joined.push_str(&s.text);
        joined.push('\n');
    }
    if with_common {
        let defined = defined_names(&joined);
        let common = blank_rules(crate::notation::grammar::COMMON, &defined);
        segments.push(Segment {
            source: Source::new("grammar/common.pest", crate::notation::grammar::COMMON),
            start: joined.len(),
        });
        joined.push_str(&common);
        joined.push('\n');
    }
    Ok((segments, joined))
}

impl Grammar {
    /// Loads `sources`, joined in order, then `grammar/common.pest` (less the rules the sources
    /// define) when `with_common`. `shipped` is the grammar the sources are an edit of, if any:
    /// its rules' descriptions are used for the rules left unchanged.
    pub fn load(
        sources: &[Source],
        with_common: bool,
        shipped: Option<&Grammar>,
    ) -> Result<Self, Vec<GrammarDiagnostic>> {
        let (segments, joined) = join(sources, with_common)?;
        let located = |errors: Vec<pest::error::Error<MetaRule>>, names: &[String]| -> Vec<GrammarDiagnostic> {
            errors.iter().map(|e| locate(&segments, e, 0, names)).collect()
        };
        let pairs = pest_meta::parser::parse(MetaRule::grammar_rules, &joined).map_err(|e| located(vec![e], &[]))?;
        // The limits pest's reader and optimizer need kept (they panic, recurse or write
        // repetitions out past them), each on the characters that break it.
        let broken = limits::check_pairs(pairs.clone());
        if !broken.is_empty() {
            return Err(broken.into_iter().map(|b| placed(&segments, b.span, b.diagnostic)).collect());
        }
        let names: Vec<String> = defined_in(pairs.clone()).into_iter().collect();
        pest_meta::validator::validate_pairs(pairs.clone()).map_err(|e| located(e, &names))?;
        let defined = rule_pairs(pairs.clone());
        let costly = |i: usize, message: String, help: &str| {
            let (_, (start, end)) = defined.get(i).cloned().unwrap_or_default();
            let name_end = start + joined[start..end].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(0);
            let d = Diagnostic::error(codes::grammar::TOO_COSTLY, Span::new(start, name_end), message)
                .label("this rule")
                .help(help);
            vec![placed(&segments, Span::new(start, name_end), d)]
        };
        // pest's checks of a whole grammar walk every path of calls, on the stack: kifu counts
        // their cost on the rules read one by one (which pest checks at the cost of each rule
        // alone) and runs them only within its limits.
        let alone = rules_alone(pairs.clone()).map_err(|errors| {
            errors.iter().map(|(shift, e)| locate(&segments, e, *shift, &names)).collect::<Vec<_>>()
        })?;
        match checks::check(&alone) {
            Ok(_) => {}
            Err(checks::Unfit::Costly { rule, message }) => {
                return Err(costly(
                    rule,
                    message,
                    "call fewer rules at the start of a rule (read something first), or split long chains of rules that call one another",
                ));
            }
            Err(checks::Unfit::LeftRecursive { chain }) => {
                return Err(vec![left_recursion_at(&segments, pairs.clone(), &alone, &chain)]);
            }
        }
        let rules = pest_meta::parser::consume_rules(pairs.clone()).map_err(|e| located(e, &names))?;
        if let Some((i, message)) = limits::check_preparation(&rules) {
            return Err(costly(
                i,
                message,
                "use smaller counts in counted repetitions (or `*` / `+`), and fewer alternatives in one choice",
            ));
        }
        let docs = docs_of(pairs);
        let vm = pest_vm::Vm::new_with_listener(
            pest_meta::optimizer::optimize(rules.clone()),
            Box::new(|_, _| watch::tick()),
        );
        let mut grammar = Self { vm, rules, docs, words: HashMap::new(), cut_short: std::sync::OnceLock::new() };
        grammar.words = grammar.describe(shipped);
        Ok(grammar)
    }

    /// A grammar kifu ships: `text` joined with `grammar/common.pest`, with kifu's descriptions
    /// of its rules where it has them.
    pub fn shipped(name: &str, text: &str) -> Result<Self, Vec<GrammarDiagnostic>> {
        let mut g = Self::load(&[Source::new(name, text)], true, None)?;
        if text == crate::notation::grammar::SFEN {
            use crate::sfen::parser::Rule;
            for rule in Rule::all_rules() {
                g.words.insert(format!("{rule:?}"), crate::sfen::rule_words(*rule).to_owned());
            }
        }
        Ok(g)
    }

    /// The names of the rules, in the order they are defined.
    pub fn names(&self) -> Vec<&str> {
        self.rules.iter().map(|r| r.name.as_str()).collect()
    }

    /// The rules as pest_meta reads them, in order.
    #[cfg(feature = "internals")]
    pub fn rules(&self) -> &[AstRule] {
        &self.rules
    }

    /// A rule by name.
    pub fn rule(&self, name: &str) -> Option<&AstRule> {
        self.rules.iter().find(|r| r.name == name)
    }

    /// The `///` lines before a rule.
    pub fn docs(&self, name: &str) -> &[String] {
        self.docs.get(name).map_or(&[], Vec::as_slice)
    }

    /// The names of the rules `name` reaches, itself first, in the order they are first named;
    /// pest's built-in rules are left out.
    pub(crate) fn reachable(&self, name: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut stack = vec![name.to_owned()];
        while let Some(next) = stack.pop() {
            if out.contains(&next) {
                continue;
            }
            let Some(rule) = self.rule(&next) else { continue };
            out.push(next);
            let mut named = Vec::new();
            idents(&rule.expr, &mut named);
            for n in named.into_iter().rev() {
                if !out.contains(&n) {
                    stack.push(n);
                }
            }
        }
        out
    }

    /// Parses `input` with `rule`: the pairs, or where and why the rule does not match. The
    /// rule must be one of [`Grammar::names`].
    pub fn parse<'a>(&'a self, rule: &'a str, input: &'a str) -> Result<Pairs<'a, &'a str>, Rejection> {
        if self.rule(rule).is_none() {
            return Err(Rejection {
                span: Span::point(0),
                expected: format!("a grammar with a rule `{rule}`"),
                kind: RejectionKind::Mismatch,
            });
        }
        match watch::run(limits::RECORD_TIME_BUDGET, || self.vm.parse(rule, input)) {
            watch::Ran::Done(Ok(pairs)) => Ok(pairs),
            watch::Ran::Done(Err(e)) => Err(self.rejection(&e, input)),
            watch::Ran::OutOfTime => {
                Err(Rejection { span: Span::point(0), expected: String::new(), kind: RejectionKind::OutOfTime })
            }
            watch::Ran::Panicked(message) => {
                Err(Rejection { span: Span::point(0), expected: message, kind: RejectionKind::Fault })
            }
        }
    }

    /// The tree of what `rule` read of `input` before `rejection` stopped it, with the place
    /// and the reason (see `super::partial`): `None` when the rule did not stop on a
    /// mismatch (it ran out of time, or the grammar is at fault), or the rewritten grammar
    /// does not read the text.
    pub fn partial(&self, rule: &str, input: &str, rejection: &Rejection) -> Option<Tree> {
        if rejection.kind != RejectionKind::Mismatch || self.rule(rule).is_none() {
            return None;
        }
        let at = rejection.span.start;
        let text = input.get(..at)?;
        let vm = self.cut_short.get_or_init(|| {
            let rules = pest_meta::optimizer::optimize(super::partial::cut_short(&self.rules));
            pest_vm::Vm::new_with_listener(rules, Box::new(|_, _| watch::tick()))
        });
        let read = || {
            let pairs = vm.parse(rule, text).ok()?;
            Some(Tree::cut(pairs, &|r: &str| r.to_owned(), input, at, &rejection.expected))
        };
        match watch::run(limits::RECORD_TIME_BUDGET, read) {
            watch::Ran::Done(tree) => tree,
            watch::Ran::OutOfTime | watch::Ran::Panicked(_) => None,
        }
    }

    fn rejection(&self, e: &pest::error::Error<&str>, input: &str) -> Rejection {
        let at = match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
        let len = input[at.min(input.len())..].chars().next().map_or(0, char::len_utf8);
        let span = Span::new(at, at + len);
        let expected = match &e.variant {
            ErrorVariant::ParsingError { positives, negatives } => {
                let mut words: Vec<String> = Vec::new();
                for r in positives {
                    let w = self.words(r);
                    if !words.contains(&w) {
                        words.push(w);
                    }
                }
                let mut out = join_or(&words);
                if !negatives.is_empty() {
                    let not: Vec<String> = negatives.iter().map(|r| self.words(r)).collect();
                    let not = join_or(&not);
                    out = if words.is_empty() { format!("anything but {not}") } else { format!("{out}, not {not}") };
                }
                if out.is_empty() {
                    "something else".to_owned()
                } else {
                    out
                }
            }
            ErrorVariant::CustomError { message } if message.contains("limit reached") => {
                // pest's own bounds: its call count, or the stack of the thread it runs on.
                return Rejection { span, expected: message.clone(), kind: RejectionKind::TooMuchWork };
            }
            ErrorVariant::CustomError { message } => message.clone(),
        };
        Rejection { span, expected, kind: RejectionKind::Mismatch }
    }

    /// A rule in words: kifu's description when the rule is as kifu ships it, its text when it
    /// is a simple literal, else its name.
    pub fn words(&self, name: &str) -> String {
        if let Some(w) = self.words.get(name) {
            return w.clone();
        }
        if let Some(w) = builtin_words(name) {
            return w.to_owned();
        }
        match self.rule(name).and_then(|r| literal_words(&r.expr)) {
            Some(text) => format!("`{name}` ({text})"),
            None => format!("`{name}`"),
        }
    }

    fn describe(&self, shipped: Option<&Grammar>) -> HashMap<String, String> {
        let mut out = HashMap::new();
        if let Some(shipped) = shipped {
            for r in &self.rules {
                if let Some(w) = shipped.words.get(&r.name) {
                    if shipped.rule(&r.name).is_some_and(|s| s.expr == r.expr) {
                        out.insert(r.name.clone(), w.clone());
                    }
                }
            }
        }
        out
    }
}

/// Where and why a rule does not match an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The character where the rule gave up (a point at the end of the input).
    pub span: Span,
    /// What the rule would have read there, in words (for a fault, what went wrong).
    pub expected: String,
    /// Why the rule gave up.
    pub kind: RejectionKind,
}

/// Why a rule gave up on an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectionKind {
    /// The input does not match the rule.
    Mismatch,
    /// The rule ran longer than [`limits::RECORD_TIME_BUDGET`] and was stopped.
    OutOfTime,
    /// The rule reached pest's bound on calls or on the depth of its stack.
    TooMuchWork,
    /// pest stopped on the grammar (`POP` or `PEEK` on an empty stack).
    Fault,
}

impl Rejection {
    /// The diagnostic for this rejection, for `rule`, over `input`: `tree::rejected`, or
    /// `tree::too-slow`, `tree::too-much-work`, `tree::grammar-fault` when the rule was stopped.
    pub fn diagnostic(&self, rule: &str, input: &str) -> Diagnostic {
        let whole = Span::new(0, input.len());
        match self.kind {
            RejectionKind::Mismatch => {}
            RejectionKind::OutOfTime => {
                return Diagnostic::error(
                    codes::tree::TOO_SLOW,
                    whole,
                    format!(
                        "the rule `{rule}` ran longer than {} s on this record and was stopped",
                        limits::RECORD_TIME_BUDGET.as_secs()
                    ),
                )
                .label("no verdict on this record")
                .help("the grammar backtracks too much here: make alternatives that start alike share their start, or make repetitions commit")
            }
            RejectionKind::TooMuchWork => {
                return Diagnostic::error(
                    codes::tree::TOO_MUCH_WORK,
                    self.span,
                    format!("the rule `{rule}` was stopped on this record: {}", self.expected),
                )
                .label("stopped here")
                .help("the grammar calls rules too often or nests too deeply for this record: shorten the record, or make the grammar backtrack less")
            }
            RejectionKind::Fault => {
                return Diagnostic::error(
                    codes::tree::GRAMMAR_FAULT,
                    whole,
                    format!("the rule `{rule}` cannot run on this record: {}", self.expected),
                )
                .label("no verdict on this record")
                .help("guard `POP`, `PEEK` and `DROP` so they run only after a `PUSH`")
            }
        }
        let found = self.span.slice(input);
        let label = if found.is_empty() {
            "the text ends here".to_owned()
        } else {
            format!("`{}` is not expected here", found.escape_debug())
        };
        Diagnostic::error(
            codes::tree::REJECTED,
            self.span,
            format!("the rule `{rule}` does not match: expected {}", self.expected),
        )
        .label(label)
        .help(format!("change the text here, or the grammar if `{rule}` should accept it"))
    }
}

/// `a`, `a or b`, `a, b, or c`.
pub(crate) fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// pest's own rules in words.
fn builtin_words(name: &str) -> Option<&'static str> {
    Some(match name {
        "EOI" => "the end of the text",
        "SOI" => "the start of the text",
        "ANY" => "any character",
        "ASCII_DIGIT" => "a digit `0`-`9`",
        "ASCII_NONZERO_DIGIT" => "a digit `1`-`9`",
        "ASCII_ALPHA" => "an ASCII letter",
        "ASCII_ALPHA_LOWER" => "a lowercase ASCII letter",
        "ASCII_ALPHA_UPPER" => "an uppercase ASCII letter",
        "ASCII_ALPHANUMERIC" => "an ASCII letter or digit",
        "NEWLINE" => "the end of a line",
        _ => return None,
    })
}

/// The text of a rule that is a literal, a range or a choice of those: "`B` or `W`".
pub(crate) fn literal_words(expr: &Expr) -> Option<String> {
    fn collect(expr: &Expr, out: &mut Vec<String>) -> bool {
        match expr {
            Expr::Str(s) => out.push(format!("`{}`", s.escape_debug())),
            Expr::Insens(s) => out.push(format!("`{}` in any case", s.escape_debug())),
            Expr::Range(a, b) => out.push(format!("a character `{a}`-`{b}`")),
            Expr::Choice(a, b) => return collect(a, out) && collect(b, out),
            _ => return false,
        }
        true
    }
    let mut out = Vec::new();
    (collect(expr, &mut out) && out.len() <= 16).then(|| join_or(&out))
}

/// Every rule name an expression uses, in order.
pub(crate) fn idents(expr: &Expr, out: &mut Vec<String>) {
    match expr {
        Expr::Ident(n) if !out.contains(n) => out.push(n.clone()),
        Expr::Ident(_) => {}
        Expr::PosPred(e) | Expr::NegPred(e) | Expr::Opt(e) | Expr::Rep(e) | Expr::RepOnce(e) | Expr::Push(e) => {
            idents(e, out)
        }
        Expr::RepExact(e, _) | Expr::RepMin(e, _) | Expr::RepMax(e, _) | Expr::RepMinMax(e, _, _) => idents(e, out),
        Expr::Seq(a, b) | Expr::Choice(a, b) => {
            idents(a, out);
            idents(b, out);
        }
        #[allow(unreachable_patterns)]
        _ => {}
    }
}

/// The names a grammar text defines (empty when it does not parse).
fn defined_names(text: &str) -> BTreeSet<String> {
    pest_meta::parser::parse(MetaRule::grammar_rules, text).map(defined_in).unwrap_or_default()
}

fn defined_in(pairs: Pairs<'_, MetaRule>) -> BTreeSet<String> {
    rule_pairs(pairs).into_iter().map(|(name, _)| name).collect()
}

/// The definitions of rules among `pairs` (not `///` lines), each with its name.
fn definitions(pairs: Pairs<'_, MetaRule>) -> impl Iterator<Item = (Pair<'_, MetaRule>, Pair<'_, MetaRule>)> {
    pairs.flatten().filter(|p| p.as_rule() == MetaRule::grammar_rule).filter_map(|pair| {
        let name = pair.clone().into_inner().next().filter(|p| p.as_rule() == MetaRule::identifier)?;
        Some((pair, name))
    })
}

/// Each rule's name and the span of its definition.
fn rule_pairs(pairs: Pairs<'_, MetaRule>) -> Vec<(String, (usize, usize))> {
    definitions(pairs)
        .map(|(rule, name)| (name.as_str().to_owned(), (rule.as_span().start(), rule.as_span().end())))
        .collect()
}

/// `text` with the rules named in `names` blanked out (spaces, line ends kept), so that the
/// rest keeps its places.
fn blank_rules(text: &str, names: &BTreeSet<String>) -> String {
    let Ok(pairs) = pest_meta::parser::parse(MetaRule::grammar_rules, text) else { return text.to_owned() };
    let mut out = text.to_owned();
    for (name, (start, end)) in rule_pairs(pairs) {
        if names.contains(&name) {
            let blank: String = text[start..end]
                .chars()
                .map(|c| if c == '\n' { "\n".to_owned() } else { " ".repeat(c.len_utf8()) })
                .collect();
            out.replace_range(start..end, &blank);
        }
    }
    out
}

/// The `///` lines before each rule.
fn docs_of(pairs: Pairs<'_, MetaRule>) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    let mut pending: Vec<String> = Vec::new();
    for pair in pairs.flatten().filter(|p| p.as_rule() == MetaRule::grammar_rule) {
        let Some(first) = pair.into_inner().next() else { continue };
        match first.as_rule() {
            MetaRule::line_doc => {
                let text = first.into_inner().next().map_or("", |p| p.as_str());
                pending.push(text.to_owned());
            }
            MetaRule::identifier => {
                out.insert(first.as_str().to_owned(), std::mem::take(&mut pending));
            }
            _ => {}
        }
    }
    out
}

/// The source that holds offsets `start..end` of the joined text, and the span there (a point
/// widened to the character it is on).
fn source_at(segments: &[Segment], start: usize, end: usize) -> (Source, Span) {
    let segment = segments.iter().rev().find(|s| s.start <= start).or(segments.first());
    let (source, base) = match segment {
        Some(s) => (s.source.clone(), s.start),
        None => (Source::new("<grammar>", ""), 0),
    };
    let len = source.text.len();
    let (start, end) = (start.saturating_sub(base).min(len), (end.saturating_sub(base)).min(len));
    let end = if end == start { start + source.text[start..].chars().next().map_or(0, char::len_utf8) } else { end };
    (source, Span::new(start, end))
}

/// A finding at `span` of the joined text, moved into the source that holds it.
fn placed(segments: &[Segment], span: Span, diagnostic: Diagnostic) -> GrammarDiagnostic {
    let (source, at) = source_at(segments, span.start, span.end);
    let mut diagnostic = diagnostic;
    for label in diagnostic.labels.iter_mut().filter(|l| l.primary) {
        label.span = at;
    }
    GrammarDiagnostic { source, diagnostic }
}

/// A pest_meta error, at `shift` plus its offsets into the joined text, as a diagnostic into
/// the source that holds it.
fn locate(segments: &[Segment], e: &pest::error::Error<MetaRule>, shift: usize, names: &[String]) -> GrammarDiagnostic {
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span(s) => s,
    };
    let (start, end) = (start + shift, end + shift);
    let (source, span) = source_at(segments, start, end);
    let found = span.slice(&source.text).to_owned();
    let diagnostic = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<String> = positives
                .iter()
                .map(|r| match r {
                    // pest_meta names the sequence operator `&`; it is written `~`.
                    MetaRule::sequence_operator => "`~`".to_owned(),
                    r => pest_meta::parser::rename_meta_rule(r),
                })
                .collect();
            words.dedup();
            let expected = join_or(&words);
            let expected = if expected.is_empty() { "something else".to_owned() } else { expected };
            Diagnostic::error(
                codes::grammar::SYNTAX,
                span,
                format!("the grammar does not parse here: expected {expected}"),
            )
            .label(if found.is_empty() { "the grammar ends here".to_owned() } else { format!("expected {expected}") })
            .help(if words.iter().any(|w| w == "`}`") {
                "a rule is written `name = { expression }`: is the `}` of the rule before this missing?"
            } else {
                "a rule is written `name = { expression }`, with an optional `_`, `@`, `$` or `!` before the brace"
            })
        }
        ErrorVariant::CustomError { message } => custom(message, span, &found, names),
    };
    GrammarDiagnostic { source, diagnostic }
}

/// pest_meta's validation messages, each with its own code and help.
fn custom(message: &str, span: Span, found: &str, names: &[String]) -> Diagnostic {
    if let Some(name) = message.strip_prefix("rule ").and_then(|m| m.strip_suffix(" is undefined")) {
        let hint = match closest(name, names) {
            Some(n) => format!("did you mean `{n}`? Otherwise define it: `{name} = {{ … }}`"),
            None => format!("define it (`{name} = {{ … }}`), or check the spelling"),
        };
        return Diagnostic::error(
            codes::grammar::UNDEFINED_RULE,
            span,
            format!("the rule `{name}` is used but never defined"),
        )
        .label("not defined")
        .help(hint);
    }
    if let Some(name) = message.strip_prefix("rule ").and_then(|m| m.strip_suffix(" already defined")) {
        return Diagnostic::error(codes::grammar::DUPLICATE_RULE, span, format!("the rule `{name}` is defined twice"))
            .label("defined again here")
            .help("rename one of the two, or delete one (an edit of a shipped rule replaces it only in a grammar of its own)");
    }
    if message.ends_with("limit reached") {
        return Diagnostic::error(
            codes::grammar::TOO_DEEP,
            span,
            "the grammar nests too deeply here for pest to read it",
        )
        .label("too deep")
        .help("name the inner part as a rule of its own, or flatten the expression");
    }
    if message.contains("left-recursive") {
        let chain = message.split_once('(').and_then(|(_, r)| r.split_once(')')).map_or("", |(c, _)| c);
        return left_recursion(span, found, &chain.replace("->", "→"));
    }
    if message.contains("repeat infinitely") {
        return Diagnostic::error(
            codes::grammar::ENDLESS_REPETITION,
            span,
            "this repetition can match nothing, so it would repeat forever",
        )
        .label("can match without reading a character")
        .help("make the repeated expression read at least one character (drop a `?` or `*` inside it)");
    }
    if message.ends_with("is a rust keyword") || message.ends_with("is a pest keyword") {
        return Diagnostic::error(
            codes::grammar::RESERVED_NAME,
            span,
            format!("`{found}` is a reserved word and cannot name a rule"),
        )
        .label("reserved")
        .help("choose another name for the rule");
    }
    Diagnostic::error(codes::grammar::INVALID, span, format!("the grammar is not valid: {message}"))
        .label("here")
        .help("fix the grammar as the message says")
}

/// A rule that calls itself before reading anything: `found`, called again at `span`, through
/// `chain` (`a → b → a`).
fn left_recursion(span: Span, found: &str, chain: &str) -> Diagnostic {
    Diagnostic::error(codes::grammar::LEFT_RECURSION, span, format!("`{found}` calls itself before reading anything ({chain})"))
        .label("called again at the same place")
        .help("pest reads top-down and would loop forever: read something first, or write the repetition as `item ~ (separator ~ item)*`")
}

/// The left recursion through `chain` (indices into `rules`, the first again at the end), on
/// the call that closes the loop: the first call of the first rule in the rule before it.
fn left_recursion_at(
    segments: &[Segment],
    pairs: Pairs<'_, MetaRule>,
    rules: &[AstRule],
    chain: &[usize],
) -> GrammarDiagnostic {
    let name = |i: usize| rules.get(i).map_or("", |r| r.name.as_str());
    let first = chain.first().copied().unwrap_or(0);
    let caller = chain.len().checked_sub(2).and_then(|k| chain.get(k)).copied().unwrap_or(first);
    let words: Vec<&str> = chain.iter().map(|&i| name(i)).collect();
    let call = definitions(pairs).find(|(_, n)| n.as_str() == name(caller)).and_then(|(p, _)| {
        p.into_inner().flatten().skip(1).find(|n| n.as_rule() == MetaRule::identifier && n.as_str() == name(first))
    });
    let span = call.map_or(Span::point(0), |c| Span::new(c.as_span().start(), c.as_span().end()));
    placed(segments, span, left_recursion(span, name(first), &words.join(" → ")))
}

/// The rules of `pairs` read one by one, as pest_meta reads them; or pest_meta's findings on
/// them, each with the offset of its rule. pest_meta checks a rule alone at the cost of the
/// rule's size, and finds in it only what it would find in the whole grammar.
fn rules_alone(pairs: Pairs<'_, MetaRule>) -> Result<Vec<AstRule>, Vec<(usize, pest::error::Error<MetaRule>)>> {
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for (pair, _) in definitions(pairs) {
        let shift = pair.as_span().start();
        let read = pest_meta::parser::parse(MetaRule::grammar_rules, pair.as_str())
            .map_err(|e| vec![e])
            .and_then(pest_meta::parser::consume_rules);
        match read {
            Ok(mut one) => rules.append(&mut one),
            Err(e) => errors.extend(e.into_iter().map(|e| (shift, e))),
        }
    }
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors)
    }
}

/// The defined name closest to `name`, if one is close.
pub fn closest<'a>(name: &str, names: &'a [String]) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (crate::notation::repair::edit_distance(name, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.as_str())
}

/// A rule run by pest's VM under a time budget, with its panics contained.
///
/// pest_vm calls a listener at every rule it enters; kifu's listener looks at the clock every
/// few hundred calls and, past the deadline, ends each call at once, so the parse unwinds
/// quickly. A backtracking grammar can only take exponential time through calls of rules, so
/// this bounds every record. pest panics on a `POP` or `PEEK` of an empty stack, which no check
/// of the grammar can rule out: that panic is caught, and the panic hook says nothing for a
/// panic inside the VM (it keeps the message for the report instead).
mod watch {
    use std::cell::{Cell, RefCell};
    use std::time::Duration;
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    use std::time::Instant;
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    use web_time::Instant;

    /// Calls between two looks at the clock.
    const CALLS_PER_LOOK: u32 = 256;

    thread_local! {
        static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
        static CALLS: Cell<u32> = const { Cell::new(0) };
        static EXPIRED: Cell<bool> = const { Cell::new(false) };
        static IN_VM: Cell<bool> = const { Cell::new(false) };
        static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    }

    /// How a run ended.
    pub(crate) enum Ran<T> {
        /// With the VM's answer.
        Done(T),
        /// Stopped at the deadline.
        OutOfTime,
        /// The VM panicked; what it said, in words.
        Panicked(String),
    }

    /// The listener: true (stop this call) once the deadline has passed.
    pub(crate) fn tick() -> bool {
        if EXPIRED.with(Cell::get) {
            return true;
        }
        let calls = CALLS.with(|c| {
            let n = c.get().wrapping_add(1);
            c.set(n);
            n
        });
        if calls % CALLS_PER_LOOK != 0 {
            return false;
        }
        let late = DEADLINE.with(Cell::get).is_some_and(|d| Instant::now() >= d);
        if late {
            EXPIRED.with(|e| e.set(true));
        }
        late
    }

    /// Runs `f` on this thread with `budget`.
    pub fn run<T>(budget: Duration, f: impl FnOnce() -> T) -> Ran<T> {
        hook();
        DEADLINE.with(|d| d.set(Instant::now().checked_add(budget)));
        CALLS.with(|c| c.set(0));
        EXPIRED.with(|e| e.set(false));
        PANIC.with(|p| p.borrow_mut().take());
        IN_VM.with(|v| v.set(true));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        IN_VM.with(|v| v.set(false));
        DEADLINE.with(|d| d.set(None));
        if EXPIRED.with(Cell::get) {
            return Ran::OutOfTime;
        }
        match result {
            Ok(value) => Ran::Done(value),
            Err(_) => {
                let message = PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
                Ran::Panicked(if message.contains("empty stack") {
                    "its `POP`, `PEEK` or `DROP` found the stack empty".to_owned()
                } else {
                    format!("pest stopped on it ({})", message.escape_debug())
                })
            }
        }
    }

    /// Installs, once, a panic hook that keeps quiet about panics inside the VM and hands
    /// every other panic to the hook before it.
    fn hook() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if IN_VM.with(Cell::get) {
                    let payload = info.payload();
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned());
                    PANIC.with(|p| *p.borrow_mut() = message);
                } else {
                    previous(info);
                }
            }));
        });
    }
}
