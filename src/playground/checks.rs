//! What pest's own checks of a grammar will cost, found before they run.
//!
//! pest_meta checks a whole grammar (no repetition of what can match nothing, no choice after
//! one that cannot fail, no left recursion) with walks that follow the rules a rule calls at
//! its start, with no memory of what an earlier walk found: a chain of rules that each call
//! the next twice costs twice as much per rule, and the walks nest as deep as every rule of a
//! chain of calls together, on the thread's stack. kifu follows the same paths with each
//! rule's result kept, in loops of its own, and counts the steps pest's walks will take and
//! how deep they will nest; a grammar past the limits gets a report in place of the walk.
//!
//! The same walk finds left recursion: a rule that calls itself before reading anything.
//! pest's walks only end on such a grammar because they remember the rules on their path,
//! and what they cost then depends on the path; kifu reports it at once.

use std::collections::HashMap;

use pest_meta::ast::{Expr, Rule as AstRule};

use super::limits::{children, depth_and_copies};

/// The most steps pest's checks may take over a whole grammar (a step is one call of one of
/// its walks, a few hundred nanoseconds: about a second in all).
pub const MAX_CHECK_STEPS: u64 = 4_000_000;

/// The deepest pest's checks may nest: the depth of a rule, plus that of the rules it calls,
/// and so on down a chain of calls. Far past kifu's grammars, and a few hundred kilobytes of
/// stack at most.
pub const MAX_CHECK_DEPTH: u64 = 3_000;

/// The three walks of pest's checks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Walk {
    /// Whether an expression matches whatever follows (it cannot fail).
    NonFailing,
    /// Whether it can match without reading a character.
    NonProgressing,
    /// The rules it may call at its start (the walk that finds left recursion).
    Start,
}

/// What a walk of an expression answers, and what it costs.
#[derive(Clone, Copy, Default, Debug)]
struct Spent {
    holds: bool,
    steps: u64,
    depth: u64,
}

/// A grammar pest's checks should not be run on.
#[derive(Debug, PartialEq, Eq)]
pub enum Unfit {
    /// They would take too long or nest too deep.
    Costly {
        /// The rule (an index into the rules) from which on.
        rule: usize,
        /// Which limit, in words.
        message: String,
    },
    /// A rule calls itself before reading anything.
    LeftRecursive {
        /// The rules of the loop, the first again at the end (indices into the rules).
        chain: Vec<usize>,
    },
}

impl Unfit {
    fn left(chain: Vec<usize>) -> Self {
        Unfit::LeftRecursive { chain }
    }
}

/// One expression of a walk in progress.
struct Frame<'a> {
    walk: Walk,
    expr: &'a Expr,
    step: u8,
    /// Whether the left side of a sequence can match nothing (the `Start` walk).
    empty_start: bool,
    steps: u64,
    depth: u64,
}

/// What a frame does next.
enum Next<'a> {
    Call(Walk, &'a Expr),
    Done(bool),
}

struct Checks<'a> {
    rules: &'a [AstRule],
    index: HashMap<&'a str, usize>,
    known: HashMap<(Walk, usize), Spent>,
}

impl<'a> Checks<'a> {
    fn new(rules: &'a [AstRule]) -> Self {
        let index = rules.iter().enumerate().map(|(i, r)| (r.name.as_str(), i)).collect();
        Checks { rules, index, known: HashMap::new() }
    }

    /// A walk of a rule a frame calls: its answer, `None` for a builtin, or the rule to walk
    /// first.
    fn called(&self, walk: Walk, name: &str) -> Result<Option<Spent>, (Walk, usize)> {
        match self.index.get(name) {
            None => Ok(None),
            Some(&i) => self.known.get(&(walk, i)).copied().map(Some).ok_or((walk, i)),
        }
    }

    /// `walk` of `expr`, with every rule it calls already walked, or the first rule that is not.
    fn walk_expr(&self, walk: Walk, expr: &'a Expr) -> Result<Spent, (Walk, usize)> {
        let mut stack = vec![Frame { walk, expr, step: 0, empty_start: false, steps: 0, depth: 0 }];
        let mut got: Option<Spent> = None;
        while let Some(frame) = stack.last_mut() {
            let holds = got.take().is_some_and(|g| {
                frame.steps = frame.steps.saturating_add(g.steps);
                frame.depth = frame.depth.max(g.depth);
                g.holds
            });
            let next = match frame.walk {
                Walk::Start => self.start(frame, holds)?,
                _ => self.answer(frame, holds)?,
            };
            frame.step += 1;
            match next {
                Next::Call(walk, expr) => {
                    stack.push(Frame { walk, expr, step: 0, empty_start: false, steps: 0, depth: 0 });
                }
                Next::Done(holds) => {
                    let done = Spent { holds, steps: frame.steps.saturating_add(1), depth: frame.depth + 1 };
                    stack.pop();
                    got = Some(done);
                }
            }
        }
        Ok(got.unwrap_or_default())
    }

    /// One move of pest's `is_non_failing` or `is_non_progressing` on `frame`; `holds` is the
    /// answer of the expression it called last.
    fn answer(&self, frame: &mut Frame<'a>, holds: bool) -> Result<Next<'a>, (Walk, usize)> {
        let walk = frame.walk;
        let failing = walk == Walk::NonFailing;
        let call_then_answer =
            |inner: &'a Expr, step: u8| if step == 0 { Next::Call(walk, inner) } else { Next::Done(holds) };
        Ok(match frame.expr {
            Expr::Str(s) | Expr::Insens(s) => Next::Done(s.is_empty()),
            Expr::Ident(name) if !failing && (name == "SOI" || name == "EOI") => Next::Done(true),
            Expr::Ident(name) => match self.called(walk, name)? {
                Some(spent) => {
                    frame.steps = frame.steps.saturating_add(spent.steps);
                    frame.depth = frame.depth.max(spent.depth);
                    Next::Done(spent.holds)
                }
                None => Next::Done(false),
            },
            Expr::Opt(_) | Expr::Rep(_) | Expr::RepMax(..) => Next::Done(true),
            Expr::PosPred(_) | Expr::NegPred(_) if !failing => Next::Done(true),
            Expr::NegPred(_) => Next::Done(false),
            Expr::PosPred(inner) => call_then_answer(inner, frame.step),
            // `a ~ b` holds when both do, `a | b` when either does; the second is walked only
            // when the first does not decide.
            Expr::Seq(a, b) | Expr::Choice(a, b) => {
                let choice = matches!(frame.expr, Expr::Choice(..));
                match frame.step {
                    0 => Next::Call(walk, a),
                    1 if holds == choice => Next::Done(holds),
                    1 => Next::Call(walk, b),
                    _ => Next::Done(holds),
                }
            }
            Expr::RepExact(_, 0) | Expr::RepMin(_, 0) | Expr::RepMinMax(_, 0, _) => Next::Done(true),
            Expr::RepExact(inner, _) | Expr::RepMin(inner, _) | Expr::RepMinMax(inner, _, _) => {
                call_then_answer(inner, frame.step)
            }
            Expr::RepOnce(inner) | Expr::Push(inner) => call_then_answer(inner, frame.step),
            Expr::Range(..) | Expr::PeekSlice(..) => Next::Done(false),
            #[allow(unreachable_patterns)]
            _ => Next::Done(false),
        })
    }

    /// One move of pest's walk for left recursion on `frame`.
    fn start(&self, frame: &mut Frame<'a>, holds: bool) -> Result<Next<'a>, (Walk, usize)> {
        Ok(match frame.expr {
            Expr::Ident(name) => {
                if let Some(spent) = self.called(Walk::Start, name)? {
                    frame.steps = frame.steps.saturating_add(spent.steps);
                    frame.depth = frame.depth.max(spent.depth);
                }
                Next::Done(false)
            }
            // The right side of a sequence is at the start too when the left side cannot fail
            // or can match nothing.
            Expr::Seq(a, b) => match frame.step {
                0 => Next::Call(Walk::NonFailing, a),
                1 if holds => {
                    frame.empty_start = true;
                    frame.step = 2;
                    Next::Call(Walk::Start, a)
                }
                1 => Next::Call(Walk::NonProgressing, a),
                2 => {
                    frame.empty_start = holds;
                    Next::Call(Walk::Start, a)
                }
                3 if frame.empty_start => Next::Call(Walk::Start, b),
                _ => Next::Done(false),
            },
            Expr::Choice(a, b) => match frame.step {
                0 => Next::Call(Walk::Start, a),
                1 => Next::Call(Walk::Start, b),
                _ => Next::Done(false),
            },
            Expr::Opt(inner)
            | Expr::Rep(inner)
            | Expr::RepOnce(inner)
            | Expr::RepExact(inner, _)
            | Expr::RepMin(inner, _)
            | Expr::RepMax(inner, _)
            | Expr::RepMinMax(inner, _, _)
            | Expr::PosPred(inner)
            | Expr::NegPred(inner)
            | Expr::Push(inner) => {
                if frame.step == 0 {
                    Next::Call(Walk::Start, inner)
                } else {
                    Next::Done(false)
                }
            }
            _ => Next::Done(false),
        })
    }

    /// `walk` of rule `rule`, walking first the rules it needs. A rule needed while it is
    /// being walked is a loop of calls at the start: left recursion.
    fn rule(&mut self, walk: Walk, rule: usize) -> Result<Spent, Vec<usize>> {
        let mut todo = vec![(walk, rule)];
        while let Some(&(w, i)) = todo.last() {
            if self.known.contains_key(&(w, i)) {
                todo.pop();
                continue;
            }
            match self.walk_expr(w, &self.rules[i].expr) {
                Ok(spent) => {
                    self.known.insert((w, i), spent);
                    todo.pop();
                }
                Err(need) => {
                    if let Some(at) = todo.iter().position(|t| *t == need) {
                        let mut chain: Vec<usize> = todo[at..].iter().map(|t| t.1).collect();
                        chain.push(need.1);
                        return Err(chain);
                    }
                    todo.push(need);
                }
            }
        }
        Ok(self.known[&(walk, rule)])
    }

    /// `walk` of any expression of the grammar.
    fn spend(&mut self, walk: Walk, expr: &'a Expr) -> Result<Spent, Vec<usize>> {
        loop {
            match self.walk_expr(walk, expr) {
                Ok(spent) => return Ok(spent),
                Err((w, i)) => {
                    self.rule(w, i)?;
                }
            }
        }
    }
}

/// The expressions of `expr`, itself first, in the order pest visits them.
fn nodes(expr: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut todo = vec![expr];
    while let Some(e) = todo.pop() {
        out.push(e);
        todo.extend(children(e).into_iter().rev());
    }
    out
}

/// What pest asks of the expressions of `rule`: whether they can fail, and, with `true`, for
/// a repetition (and `WHITESPACE` or `COMMENT`) that can, whether it can match nothing; for
/// the alternatives before the last of a choice, only whether they can fail.
fn asked(rule: &AstRule) -> Vec<(&Expr, bool)> {
    let mut asked: Vec<(&Expr, bool)> = Vec::new();
    if rule.name == "WHITESPACE" || rule.name == "COMMENT" {
        asked.push((&rule.expr, true));
    }
    for e in nodes(&rule.expr) {
        match e {
            Expr::Rep(inner) | Expr::RepOnce(inner) | Expr::RepMin(inner, _) => asked.push((inner, true)),
            Expr::Choice(a, _) => match &**a {
                Expr::Choice(_, b) => asked.push((b, false)),
                a => asked.push((a, false)),
            },
            _ => {}
        }
    }
    asked
}

/// The deepest chain of calls, each rule counted with its depth and each group of rules that
/// call one another counted with all of theirs (pest's stack analysis follows every call
/// once per group), and the rule it starts from.
fn deepest_calls(rules: &[AstRule], index: &HashMap<&str, usize>, depths: &[u64]) -> (u64, usize) {
    let calls: Vec<Vec<usize>> = rules
        .iter()
        .map(|r| {
            let mut called: Vec<usize> = nodes(&r.expr)
                .into_iter()
                .filter_map(|e| match e {
                    Expr::Ident(name) => index.get(name.as_str()).copied(),
                    _ => None,
                })
                .collect();
            called.sort_unstable();
            called.dedup();
            called
        })
        .collect();
    let groups = groups_of_calls(&calls);
    // `groups` lists each group after every group it calls.
    let n = rules.len();
    let mut group_of = vec![0usize; n];
    for (g, members) in groups.iter().enumerate() {
        for &m in members {
            group_of[m] = g;
        }
    }
    let mut deepest = vec![0u64; groups.len()];
    for (g, members) in groups.iter().enumerate() {
        let own = members.iter().fold(0u64, |s, &m| s.saturating_add(depths[m]));
        let below = members
            .iter()
            .flat_map(|&m| calls[m].iter())
            .map(|&c| group_of[c])
            .filter(|&h| h != g)
            .map(|h| deepest[h])
            .max()
            .unwrap_or(0);
        deepest[g] = own.saturating_add(below);
    }
    (0..n).map(|i| (deepest[group_of[i]], i)).max_by_key(|&(d, i)| (d, std::cmp::Reverse(i))).unwrap_or((0, 0))
}

/// The groups of rules that call one another (Tarjan's strongly connected components, with a
/// stack of its own), each listed after the groups it calls.
fn groups_of_calls(calls: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = calls.len();
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut groups = Vec::new();
    let mut next = 0usize;
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && order[v] == usize::MAX {
                order[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = calls[v].get(*edge) {
                *edge += 1;
                if order[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                groups.push(group);
            }
        }
    }
    groups
}

/// The steps and the depth of pest's checks of `rules`, or why they should not run: past
/// [`MAX_CHECK_STEPS`] or [`MAX_CHECK_DEPTH`], or left recursion. The walks here are pest's,
/// with each rule's answer kept, so they cost no more than pest's and stop at the first
/// limit passed.
pub fn check(rules: &[AstRule]) -> Result<(u64, u64), Unfit> {
    let shapes: Vec<(u64, u64)> = rules.iter().map(|r| depth_and_copies(&r.expr)).collect();
    let depths: Vec<u64> = shapes.iter().map(|s| s.0).collect();
    let mut checks = Checks::new(rules);
    let (mut depth, from) = deepest_calls(rules, &checks.index, &depths);
    if depth > MAX_CHECK_DEPTH {
        return Err(Unfit::Costly {
            rule: from,
            message: format!(
                "this rule, the rules it calls and the rules they call nest more than {MAX_CHECK_DEPTH} levels deep together, more than kifu lets pest's checks of a grammar go"
            ),
        });
    }
    let mut steps = 0u64;
    for (i, rule) in rules.iter().enumerate() {
        // pest copies each expression it visits, with all below it, in two of its walks.
        steps = steps.saturating_add(shapes[i].1.saturating_mul(2));
        let mut spent = vec![checks.rule(Walk::Start, i).map_err(Unfit::left)?];
        for (expr, then_empty) in asked(rule) {
            let s = checks.spend(Walk::NonFailing, expr).map_err(Unfit::left)?;
            spent.push(s);
            if then_empty && !s.holds {
                spent.push(checks.spend(Walk::NonProgressing, expr).map_err(Unfit::left)?);
            }
        }
        for s in spent {
            steps = steps.saturating_add(s.steps);
            depth = depth.max(s.depth);
        }
        if depth > MAX_CHECK_DEPTH {
            return Err(Unfit::Costly {
                rule: i,
                message: format!(
                    "checking this rule would nest more than {MAX_CHECK_DEPTH} levels deep through the rules it calls at its start"
                ),
            });
        }
        if steps > MAX_CHECK_STEPS {
            return Err(Unfit::Costly {
                rule: i,
                message: "checking the grammar would take too long from this rule on: its rules call other rules at their start along too many paths".to_owned(),
            });
        }
    }
    Ok((steps, depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift;
    use pest_meta::parser::Rule as MetaRule;

    fn rules_of(grammar: &str) -> Vec<AstRule> {
        let pairs = pest_meta::parser::parse(MetaRule::grammar_rules, grammar).expect("parses");
        let mut out = Vec::new();
        for pair in pairs.flatten().filter(|p| p.as_rule() == MetaRule::grammar_rule) {
            let one = pest_meta::parser::parse(MetaRule::grammar_rules, pair.as_str()).expect("parses");
            out.extend(pest_meta::parser::consume_rules(one).unwrap_or_default());
        }
        out
    }

    /// pest's findings on `grammar`, each as the kind of fault it names.
    fn pest_says(grammar: &str) -> Vec<&'static str> {
        let pairs = pest_meta::parser::parse(MetaRule::grammar_rules, grammar).expect("parses");
        match pest_meta::parser::consume_rules(pairs) {
            Ok(_) => Vec::new(),
            Err(errors) => {
                let mut kinds: Vec<&str> = errors
                    .iter()
                    .map(|e| match &e.variant {
                        pest::error::ErrorVariant::CustomError { message } if message.contains("left-recursive") => {
                            "left"
                        }
                        pest::error::ErrorVariant::CustomError { message } if message.contains("cannot fail and") => {
                            "endless"
                        }
                        pest::error::ErrorVariant::CustomError { message } if message.contains("non-progressing") => {
                            "empty"
                        }
                        pest::error::ErrorVariant::CustomError { message }
                            if message.contains("choices cannot be reached") =>
                        {
                            "unreachable"
                        }
                        _ => "other",
                    })
                    .collect();
                kinds.sort_unstable();
                kinds
            }
        }
    }

    /// What kifu's walks say pest finds in `rules` (left recursion alone when there is some).
    fn kifu_says(rules: &[AstRule]) -> Vec<&'static str> {
        if let Err(Unfit::LeftRecursive { .. }) = check(rules) {
            return vec!["left"];
        }
        let mut checks = Checks::new(rules);
        let mut kinds = Vec::new();
        for rule in rules {
            for (expr, repeated) in asked(rule) {
                if checks.spend(Walk::NonFailing, expr).expect("no loop").holds {
                    kinds.push(if repeated { "endless" } else { "unreachable" });
                } else if repeated && checks.spend(Walk::NonProgressing, expr).expect("no loop").holds {
                    kinds.push("empty");
                }
            }
        }
        kinds.sort_unstable();
        kinds
    }

    /// A random expression over `rules` rules: any rule may call any (itself included), with
    /// the empty string, `SOI` and `EOI`, predicates, options and repetitions, so that rules
    /// can fail or not, read or not, and call themselves at their start or not.
    fn random_expr(rng: &mut XorShift, rules: usize, depth: usize) -> String {
        let leaf = |rng: &mut XorShift| match rng.below(9) {
            0 => "\"a\"".to_owned(),
            1 => "\"\"".to_owned(),
            2 => "'a'..'b'".to_owned(),
            3 => "SOI".to_owned(),
            4 => "EOI".to_owned(),
            _ => format!("r{}", rng.below(rules)),
        };
        if depth == 0 {
            return leaf(rng);
        }
        let sub = |rng: &mut XorShift| random_expr(rng, rules, depth - 1);
        match rng.below(11) {
            0 | 1 => format!("({} ~ {})", sub(rng), sub(rng)),
            2 | 3 => format!("({} | {})", sub(rng), sub(rng)),
            4 => format!("({})?", sub(rng)),
            5 => format!("({})*", sub(rng)),
            6 => format!("({})+", sub(rng)),
            7 => format!("&({})", sub(rng)),
            8 => format!("!({})", sub(rng)),
            _ => leaf(rng),
        }
    }

    /// On thousands of small random grammars, kifu's walks find what pest's checks find: left
    /// recursion exactly when pest does, and otherwise the same repetitions that can match
    /// nothing and the same choices that cannot be reached, so the walks whose steps kifu
    /// counts are pest's.
    #[test]
    fn the_walks_find_what_pest_finds() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let (mut left, mut faults, mut clean) = (0, 0, 0);
        for _ in 0..20_000 {
            let n = 1 + rng.below(4);
            let grammar: String = (0..n).map(|i| format!("r{i} = {{ {} }}\n", random_expr(&mut rng, n, 3))).collect();
            let pest = pest_says(&grammar);
            if pest.contains(&"other") {
                continue;
            }
            let rules = rules_of(&grammar);
            if rules.len() != n {
                // pest finds a fault in a rule read alone: it finds it in the whole grammar too.
                assert!(!pest.is_empty(), "{grammar}");
                continue;
            }
            let kifu = kifu_says(&rules);
            if pest.contains(&"left") {
                assert_eq!(kifu, ["left"], "{grammar}");
                left += 1;
            } else {
                assert_eq!(kifu, pest, "{grammar}");
                if pest.is_empty() {
                    clean += 1
                } else {
                    faults += 1
                }
            }
        }
        println!("{left} left-recursive, {faults} with other faults, {clean} clean");
        assert!(
            left > 250 && faults > 150 && clean > 1000,
            "{left} left-recursive, {faults} with other faults, {clean} clean"
        );
    }

    fn doubling(n: usize) -> String {
        let mut g: String = (0..n).map(|i| format!("r{i} = {{ r{} | r{} }}\n", i + 1, i + 1)).collect();
        g.push_str(&format!("r{n} = {{ \"x\" }}\n"));
        g
    }

    /// A chain of rules that each call the next twice at their start doubles pest's steps with
    /// each rule: the count doubles too, and the chain is refused once past the limit.
    #[test]
    fn steps_double_with_each_rule_that_calls_the_next_twice() {
        let steps = |n| check(&rules_of(&doubling(n))).map(|(s, _)| s);
        let (ten, eleven) = (steps(10).expect("within"), steps(11).expect("within"));
        assert!((ten * 19 / 10..=ten * 21 / 10).contains(&eleven), "{ten} then {eleven}");
        assert!(matches!(steps(30), Err(Unfit::Costly { rule: 0, .. })));
    }

    /// `rules` rules, each 100 levels deep, calling the next at its start (`&&…&r1`) or at
    /// its end (`"a" ~ … ~ r1`).
    fn chain(rules: usize, at_start: bool) -> String {
        (0..rules)
            .map(|i| {
                let next = if i + 1 < rules { format!("r{}", i + 1) } else { "\"x\"".to_owned() };
                if at_start {
                    format!("r{i} = {{ {}{next} }}\n", "&".repeat(99))
                } else {
                    format!("r{i} = {{ {}{next} }}\n", "\"a\" ~ ".repeat(99))
                }
            })
            .collect()
    }

    /// A chain of rules each called by the one before nests pest's checks as deep as all of
    /// them together (its walks from the start of rules, its stack analysis through every
    /// call); past the limit it is refused at the rule that starts it.
    #[test]
    fn chains_of_calls_nest_as_deep_as_their_rules_together() {
        for at_start in [true, false] {
            let (_, depth) = check(&rules_of(&chain(10, at_start))).expect("within");
            assert!((1000..1100).contains(&depth), "{depth}");
            assert!(matches!(check(&rules_of(&chain(40, at_start))), Err(Unfit::Costly { rule: 0, .. })));
        }
    }

    /// pest's own checks run without overflowing a test thread's stack on chains of calls as
    /// deep as kifu lets through.
    #[test]
    fn pest_checks_chains_just_within_the_limits() {
        for at_start in [true, false] {
            let grammar = chain(29, at_start);
            let (_, depth) = check(&rules_of(&grammar)).expect("within");
            assert!(depth > MAX_CHECK_DEPTH * 9 / 10, "{depth}");
            let pairs = pest_meta::parser::parse(MetaRule::grammar_rules, &grammar).expect("parses");
            assert!(pest_meta::parser::consume_rules(pairs).is_ok());
        }
    }

    #[test]
    fn left_recursion_is_reported_with_its_loop() {
        let rules = rules_of("a = { b ~ \"x\" }\nb = { \"\"? ~ c }\nc = { a | \"y\" }\n");
        // Found from `a`, whose first walk asks whether `b` can fail: through `c` and `a`, it
        // asks it again.
        assert_eq!(check(&rules), Err(Unfit::LeftRecursive { chain: vec![1, 2, 0, 1] }));
    }

    #[test]
    fn kifus_grammars_are_well_within_the_limits() {
        use crate::notation::grammar::{COMMON, FEN, PSN, SFEN};
        for text in [SFEN, FEN, PSN] {
            let (steps, depth) = check(&rules_of(&format!("{text}\n{COMMON}"))).expect("within");
            println!("{steps} steps, {depth} deep");
            assert!(steps < MAX_CHECK_STEPS / 5 && depth < MAX_CHECK_DEPTH / 5, "{steps} steps, {depth} deep");
        }
    }
}
