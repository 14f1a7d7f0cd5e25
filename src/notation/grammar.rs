//! The grammars in `grammar/`, as text, and their regular rules compiled to automata.
//!
//! pest runs a grammar by recursive descent, at some hundreds of instructions per character.
//! For the common case of a well-formed record kifu needs something faster without a second
//! definition of the syntax, so it reads the grammar itself (with pest's own meta-parser) and
//! compiles a rule that uses only regular operators into a regular expression: the same
//! language, run by a DFA. A record the automaton accepts is well-formed by the grammar; one it
//! rejects goes through pest, which explains what is wrong. Tests check that both agree.

use std::collections::HashMap;

use pest_meta::ast::Expr;

/// `grammar/common.pest`: rules shared by every format.
pub const COMMON: &str = include_str!("../../grammar/common.pest");
/// `grammar/sfen.pest`: the SFEN grammar.
pub const SFEN: &str = include_str!("../../grammar/sfen.pest");
/// `grammar/fen.pest`: the FEN and EPD grammar.
pub const FEN: &str = include_str!("../../grammar/fen.pest");
/// `grammar/psn.pest`: the PSN grammar.
pub const PSN: &str = include_str!("../../grammar/psn.pest");

/// One of kifu's grammars, read once, whose rules are compiled to automata at their first use.
pub struct Shipped {
    sources: &'static [&'static str],
    grammar: std::sync::OnceLock<Option<Rules>>,
}

impl Shipped {
    /// The grammar made of `sources`, not read yet.
    pub const fn new(sources: &'static [&'static str]) -> Self {
        Self { sources, grammar: std::sync::OnceLock::new() }
    }

    /// The grammar's rules, read once; `None` if pest's meta-parser refuses them.
    pub fn rules(&'static self) -> Option<&'static Rules> {
        self.grammar.get_or_init(|| Rules::parse(self.sources).ok()).as_ref()
    }

    /// `rule` (a variant of the grammar's pest `Rule`, which names it), compiled once into
    /// `cell`; `None` if it does not compile (it stopped being regular, or pest would read it
    /// differently), and the caller goes through pest.
    pub fn compile(
        &'static self,
        cell: &'static std::sync::OnceLock<Option<RuleDfa>>,
        rule: impl std::fmt::Debug,
    ) -> Option<&'static RuleDfa> {
        cell.get_or_init(|| RuleDfa::compile_in(self.rules()?, &format!("{rule:?}")).ok()).as_ref()
    }
}

/// A grammar rule compiled to a deterministic automaton that matches exactly the texts the
/// rule matches as a whole. Only rules that pest reads as the automaton does compile (see
/// [`Rules::check_sound`]).
pub struct RuleDfa(regex_automata::dfa::dense::DFA<Vec<u32>>, std::sync::OnceLock<Vec<u8>>);

/// A [`RuleDfa`] part way through a text: [`Run::accepts`] says whether the bytes fed so far
/// are a whole text of the rule.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    dfa: &'a regex_automata::dfa::dense::DFA<Vec<u32>>,
    state: regex_automata::util::primitives::StateID,
}

impl Run<'_> {
    /// Reads byte `b`. (A dead state stays dead, so records, short and mostly valid, run to
    /// their end unchecked.)
    #[inline]
    pub fn feed(&mut self, b: u8) {
        use regex_automata::dfa::Automaton;
        self.state = self.dfa.next_state(self.state, b);
    }

    /// Reads `bytes`, one after the other.
    #[inline]
    pub fn feed_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.feed(b);
        }
    }

    /// True when the bytes read are a whole text of the rule.
    #[inline]
    pub fn accepts(&self) -> bool {
        use regex_automata::dfa::Automaton;
        self.dfa.is_match_state(self.dfa.next_eoi_state(self.state))
    }
}

/// Builds the anchored DFA of `pattern` that reports every match, so that a match state at the
/// end of the input says that the whole input is in the language.
fn dense_all(patterns: &[String]) -> Result<regex_automata::dfa::dense::DFA<Vec<u32>>, CompileError> {
    use regex_automata::dfa::{dense, StartKind};
    dense::Builder::new()
        .configure(dense::Config::new().match_kind(regex_automata::MatchKind::All).start_kind(StartKind::Anchored))
        .build_many(patterns)
        .map_err(|e| CompileError::Grammar(e.to_string()))
}

impl RuleDfa {
    /// Compiles `rule` of the grammar made of `sources`.
    pub fn compile(sources: &[&str], rule: &str) -> Result<Self, CompileError> {
        Self::compile_in(&Rules::parse(sources)?, rule)
    }

    /// Compiles `rule` of `grammar`: refused when it is not regular, or when pest would read it
    /// differently (an ordered choice or a repetition that commits where the automaton would
    /// not).
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        Ok(Self(dense_all(&[grammar.sound_regex(rule, Mode::Whole)?])?, std::sync::OnceLock::new()))
    }

    /// True when the whole of `text` matches the rule.
    pub fn is_match(&self, text: &str) -> bool {
        self.run().is_some_and(|mut run| {
            run.feed_all(text.as_bytes());
            run.accepts()
        })
    }

    /// A run of the automaton from its start, to be fed a text a byte at a time (so that a
    /// reader can feed it the bytes it reads, and the automaton's steps overlap its work);
    /// `None` if the automaton has no anchored start.
    #[inline]
    pub fn run(&self) -> Option<Run<'_>> {
        use regex_automata::dfa::Automaton;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        Some(Run { dfa: &self.0, state: self.0.start_state(&config).ok()? })
    }

    /// Reads `text` whole: `Err` with the number of bytes read before the automaton could go
    /// no further (a repair must edit the text at or before that place), or the length of
    /// `text` when it stops short.
    pub fn reads(&self, text: &str) -> Result<(), usize> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let Ok(mut state) = dfa.start_state(&config) else { return Err(0) };
        for (i, &b) in text.as_bytes().iter().enumerate() {
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) {
                return Err(i);
            }
        }
        if dfa.is_match_state(dfa.next_eoi_state(state)) {
            Ok(())
        } else {
            Err(text.len())
        }
    }

    /// The length of the longest start of `bytes` that the rule matches as a whole, if one
    /// does and it is not empty.
    pub fn longest_start(&self, bytes: &[u8]) -> Option<usize> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let mut state = dfa.start_state(&config).ok()?;
        let mut longest = None;
        for (i, &b) in bytes.iter().enumerate() {
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) {
                break;
            }
            if dfa.is_match_state(dfa.next_eoi_state(state)) {
                longest = Some(i + 1);
            }
        }
        longest
    }

    /// The automaton's state after each prefix of `text`: `text.len() + 1` states, the first
    /// the start; past a byte the automaton cannot read, the dead state. `None` if the
    /// automaton has no anchored start.
    pub(crate) fn prefix(&self, text: &str) -> Option<Vec<regex_automata::util::primitives::StateID>> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let mut state = dfa.start_state(&config).ok()?;
        let mut states = Vec::with_capacity(text.len() + 1);
        states.push(state);
        for &b in text.as_bytes() {
            state = dfa.next_state(state, b);
            states.push(state);
        }
        Some(states)
    }

    /// Reads on from the state after the first `at` bytes of a text (`prefix` holds the
    /// states of that text's prefixes, as [`RuleDfa::prefix`] gives them) through `parts`,
    /// one after the other: `Err` with how many bytes in all (the prefix's among them) were
    /// read before the automaton could go no further, as [`RuleDfa::reads`] says it.
    pub(crate) fn reads_on(
        &self,
        prefix: &[regex_automata::util::primitives::StateID],
        at: usize,
        parts: &[&[u8]],
    ) -> Result<(), usize> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let Some(&start) = prefix.get(at) else { return Err(0) };
        if dfa.is_dead_state(start) {
            return Err(prefix.iter().position(|&s| dfa.is_dead_state(s)).map_or(0, |i| i.saturating_sub(1)));
        }
        let mut state = start;
        let mut read = at;
        for &b in parts.iter().flat_map(|p| p.iter()) {
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) {
                return Err(read);
            }
            read += 1;
        }
        if dfa.is_match_state(dfa.next_eoi_state(state)) {
            Ok(())
        } else {
            Err(read)
        }
    }

    /// Reads an edit of a text: the text whose prefixes' states `prefix` holds (as
    /// [`RuleDfa::prefix`] gives them), with `replacement` written from byte `at` on. The state
    /// after `replacement`, read from the state after the first `at` bytes, or `None` when the
    /// automaton can go no further (most edits that write a character where it cannot stand end
    /// here: a test cheap enough to come before any other). [`RuleDfa::accepts_from`] reads on.
    #[inline]
    pub(crate) fn edit_state(
        &self,
        prefix: &[regex_automata::util::primitives::StateID],
        at: usize,
        replacement: &[u8],
    ) -> Option<regex_automata::util::primitives::StateID> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let mut state = *prefix.get(at)?;
        for &b in replacement {
            if dfa.is_dead_state(state) {
                return None;
            }
            state = dfa.next_state(state, b);
        }
        (!dfa.is_dead_state(state)).then_some(state)
    }

    /// True when the automaton accepts a text edited in one place: `state` is the edited text's
    /// after the edit ([`RuleDfa::edit_state`]), the edit ends at byte `resume` of the text whose
    /// prefixes' states `prefix` holds, and `rest` is that text from `resume` on. Once the edited
    /// text's state is the text's own at the same place, the rest reads as it did: the answer is
    /// the text's own, with no more bytes read (a slip is undone or not within a few bytes).
    pub(crate) fn accepts_from(
        &self,
        prefix: &[regex_automata::util::primitives::StateID],
        state: regex_automata::util::primitives::StateID,
        resume: usize,
        rest: &[u8],
    ) -> bool {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let accepts = |state| !dfa.is_dead_state(state) && dfa.is_match_state(dfa.next_eoi_state(state));
        let mut state = state;
        for (k, &b) in (resume..).zip(rest) {
            if dfa.is_dead_state(state) {
                return false;
            }
            if prefix.get(k) == Some(&state) {
                return prefix.last().is_some_and(|&last| accepts(last));
            }
            state = dfa.next_state(state, b);
        }
        accepts(state)
    }

    /// The printable ASCII characters some text of the rule holds, in byte order: the
    /// characters a repair may insert. Found once, by a walk over the automaton's states.
    pub fn alphabet(&self) -> &[u8] {
        self.1.get_or_init(|| {
            use regex_automata::dfa::Automaton;
            let dfa = &self.0;
            let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
            let Ok(start) = dfa.start_state(&config) else {
                return Vec::new();
            };
            let mut seen = std::collections::HashSet::from([start]);
            let mut stack = vec![start];
            let mut used = [false; 128];
            while let Some(state) = stack.pop() {
                for b in 0x20..0x7Fu8 {
                    let next = dfa.next_state(state, b);
                    if dfa.is_dead_state(next) {
                        continue;
                    }
                    used[usize::from(b)] = true;
                    if seen.insert(next) {
                        stack.push(next);
                    }
                }
            }
            (0x20..0x7Fu8).filter(|&b| used[usize::from(b)]).collect()
        })
    }

    /// Where the rule stops reading `text`, if it does not match it whole: the first byte after
    /// which no text of the rule can go on (or the end of `text`, if it stops short), and what
    /// the rule could read there instead, in words.
    pub fn stop(&self, text: &str) -> Option<Stop> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let mut state = dfa.start_state(&config).ok()?;
        let mut at = text.len();
        for (i, &b) in text.as_bytes().iter().enumerate() {
            let next = dfa.next_state(state, b);
            if dfa.is_dead_state(next) {
                at = i;
                break;
            }
            state = next;
        }
        if at == text.len() && dfa.is_match_state(dfa.next_eoi_state(state)) {
            return None;
        }
        // The start of the character that holds the byte: a rule of whole characters can only
        // stop between characters.
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let live: Vec<u8> = (0..=255u8).filter(|&b| !dfa.is_dead_state(dfa.next_state(state, b))).collect();
        let end = dfa.is_match_state(dfa.next_eoi_state(state));
        let completion = if at == text.len() { shortest_completion(dfa, state) } else { None };
        Some(Stop { at, expected: describe_bytes(&live, end), completion })
    }
}

/// The shortest text that takes `dfa` from `state` to a match at the end, if one is short.
fn shortest_completion(
    dfa: &regex_automata::dfa::dense::DFA<Vec<u32>>,
    state: regex_automata::util::primitives::StateID,
) -> Option<String> {
    use regex_automata::dfa::Automaton;
    const LONGEST: usize = 24;
    let mut parent = HashMap::from([(state, None)]);
    let mut queue = std::collections::VecDeque::from([(state, 0)]);
    // One byte of each class, printable ASCII first, so that the completion shown is one a
    // person would type.
    let mut order = representatives(|b| dfa.byte_classes().get(b));
    order.sort_by_key(|b| !(0x21..0x7F).contains(b));
    while let Some((s, depth)) = queue.pop_front() {
        if dfa.is_match_state(dfa.next_eoi_state(s)) {
            let mut bytes = Vec::new();
            let mut at = s;
            while let Some(Some((from, b))) = parent.get(&at) {
                bytes.push(*b);
                at = *from;
            }
            bytes.reverse();
            return String::from_utf8(bytes).ok();
        }
        if depth == LONGEST {
            continue;
        }
        for &b in &order {
            let next = dfa.next_state(s, b);
            if dfa.is_dead_state(next) || parent.contains_key(&next) {
                continue;
            }
            parent.insert(next, Some((s, b)));
            queue.push_back((next, depth + 1));
        }
    }
    None
}

/// Where a rule stops reading a text it does not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The byte offset of the first character the rule cannot read.
    pub at: usize,
    /// What it could read there, in words: "`;` or a space".
    pub expected: String,
    /// When the text ends too early: the shortest text that would complete it.
    pub completion: Option<String>,
}

/// The bytes a rule can read next, in words: classes of ASCII characters named as such.
fn describe_bytes(live: &[u8], end: bool) -> String {
    let has = |b: u8| live.contains(&b);
    let all = |lo: u8, hi: u8| (lo..=hi).all(has);
    let mut words = Vec::new();
    let mut covered = [false; 256];
    let mut group = |lo: u8, hi: u8, name: &str, words: &mut Vec<String>| {
        if all(lo, hi) {
            words.push(name.to_owned());
            for b in lo..=hi {
                covered[usize::from(b)] = true;
            }
        }
    };
    group(b'0', b'9', "a digit", &mut words);
    group(b'a', b'z', "a lowercase letter", &mut words);
    group(b'A', b'Z', "an uppercase letter", &mut words);
    group(0x80, 0xFF, "a character beyond ASCII", &mut words);
    let rest: Vec<u8> = live.iter().copied().filter(|&b| !covered[usize::from(b)]).collect();
    if rest.len() > 12 {
        words.push("other characters".to_owned());
    } else {
        for b in rest {
            words.push(match b {
                b' ' => "a space".to_owned(),
                0x21..=0x7E => format!("`{}`", char::from(b)),
                0x80..=0xFF => "a character beyond ASCII".to_owned(),
                _ => format!("the control character U+{b:04X}"),
            });
        }
    }
    words.dedup();
    if end {
        words.push("the end of the record".to_owned());
    }
    match words.as_slice() {
        [] => "nothing more".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A grammar rule compiled to find what it matches at the start of a longer text, as pest
/// does when the rule is called there.
pub struct PrefixDfa(regex_automata::dfa::dense::DFA<Vec<u32>>);

impl PrefixDfa {
    /// Compiles `rule` of `grammar`, refused unless pest, whatever follows the rule, matches
    /// the very prefix the automaton finds (see [`Rules::check_sound_prefix`]).
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        Ok(Self(dense_all(&[grammar.sound_regex(rule, Mode::Prefix)?])?))
    }

    /// The length of the start of `text` that the rule matches, if any.
    pub fn prefix(&self, text: &str) -> Option<usize> {
        use regex_automata::dfa::Automaton;
        // The rule matches at most one prefix of any text (that is what soundness checked), so
        // the match the automaton reports is that one.
        let input = regex_automata::Input::new(text).anchored(regex_automata::Anchored::Yes);
        self.0.try_search_fwd(&input).ok().flatten().map(|m| m.offset())
    }
}

/// The alternatives of a choice rule (`word = _{ a | b | c }`), compiled together: a text is
/// the first alternative that matches it as a whole, as pest's ordered choice reads it when
/// each alternative must reach the end.
pub struct ChoiceDfa {
    dfa: regex_automata::dfa::dense::DFA<Vec<u32>>,
    names: Vec<String>,
}

impl ChoiceDfa {
    /// Compiles the alternatives of `rule` of the grammar made of `sources`.
    pub fn compile(sources: &[&str], rule: &str) -> Result<Self, CompileError> {
        Self::compile_in(&Rules::parse(sources)?, rule)
    }

    /// Compiles the alternatives of `rule` of `grammar`.
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        let names = grammar.alternatives(rule)?;
        let patterns = names.iter().map(|n| grammar.sound_regex(n, Mode::Whole)).collect::<Result<Vec<_>, _>>()?;
        Ok(Self { dfa: dense_all(&patterns)?, names })
    }

    /// The alternatives' rule names, in the grammar's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the first alternative that matches all of `text`.
    pub fn classify(&self, text: &[u8]) -> Option<usize> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.dfa;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let mut state = dfa.start_state(&config).ok()?;
        for &b in text {
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) {
                return None;
            }
        }
        let state = dfa.next_eoi_state(state);
        if !dfa.is_match_state(state) {
            return None;
        }
        (0..dfa.match_len(state)).map(|i| dfa.match_pattern(state, i).as_usize()).min()
    }
}

/// A rule that repeats a choice of rules (`row = ${ (a | b | c)* }`), each matching a
/// character or two, compiled: a text is cut as pest reads it, into pieces each of which is the
/// first alternative, in the grammar's order, that matches at its start. (The tests of the
/// formats that use one check that pest cuts their texts so.)
pub struct Repeated(ChoiceDfa);

impl Repeated {
    /// Compiles the alternatives of `rule` of `grammar`.
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        ChoiceDfa::compile_in(grammar, rule).map(Self)
    }

    /// The alternatives' rule names, in the grammar's order.
    pub fn names(&self) -> &[String] {
        self.0.names()
    }

    /// Appends the pieces of `text`, which starts at byte `offset` of its record, to `out`: each
    /// the index of its alternative and its span. `None` where no alternative matches.
    pub fn cut(&self, text: &str, offset: usize, out: &mut Vec<(usize, crate::span::Span)>) -> Option<()> {
        let mut at = 0;
        while at < text.len() {
            let rest = text.get(at..)?;
            let mut ends = rest.char_indices().skip(1).map(|(i, _)| i).chain(std::iter::once(rest.len()));
            let one = ends.next()?;
            let two = ends.next();
            // The first alternative that matches a start of the text: of one character or two,
            // and of two when the same one matches both (pest's repetitions take all they can).
            let (index, len) = [two, Some(one)]
                .into_iter()
                .flatten()
                .filter_map(|len| Some((self.0.classify(rest.get(..len)?.as_bytes())?, len)))
                .min_by_key(|&(index, _)| index)?;
            out.push((index, crate::span::Span::new(offset + at, offset + at + len)));
            at += len;
        }
        Some(())
    }
}

/// A grammar's rules, read once with pest's meta-parser.
#[derive(Clone, Debug)]
pub struct Rules {
    rules: HashMap<String, Expr>,
}

/// kifu's grammars as pest's meta-parser read them when kifu was built (see `build.rs`).
mod prebuilt {
    use pest_meta::ast::Expr::{self, *};
    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

impl Rules {
    /// Reads the grammar made of `sources` (joined, as pest_derive joins several `#[grammar]`
    /// files). One of kifu's own grammars (its files' texts, in the order pest_derive reads
    /// them) was read when kifu was built, and is not read again.
    pub fn parse(sources: &[&str]) -> Result<Self, CompileError> {
        match prebuilt::PREBUILT.iter().find(|(texts, _)| *texts == sources) {
            Some((_, rules)) => Ok(Self { rules: rules().into_iter().map(|(name, e)| (name.to_owned(), e)).collect() }),
            None => Self::read(sources),
        }
    }

    /// Reads the grammar made of `sources` with pest's meta-parser, as [`Rules::parse`] reads
    /// a grammar that is not kifu's own.
    pub fn read(sources: &[&str]) -> Result<Self, CompileError> {
        let text = sources.join("\n");
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, &text)
            .map_err(|e| CompileError::Grammar(e.to_string()))?;
        let rules = pest_meta::parser::consume_rules(pairs).map_err(|errors| {
            CompileError::Grammar(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
        })?;
        Ok(Self { rules: rules.into_iter().map(|r| (r.name, r.expr)).collect() })
    }

    /// The names of the grammar's rules, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.rules.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }

    /// `rule`'s language as a regular expression without anchors (`SOI` and `EOI` match the
    /// empty text), for generating samples of it; see [`Rules::to_regex`].
    pub fn to_sample_regex(&self, rule: &str) -> Result<String, CompileError> {
        let mut rules: HashMap<&str, &Expr> = self.rules.iter().map(|(n, e)| (n.as_str(), e)).collect();
        let empty = Expr::Str(String::new());
        rules.insert("SOI", &empty);
        rules.insert("EOI", &empty);
        let mut out = String::new();
        emit_rule(&rules, rule, &mut Vec::new(), &mut out)?;
        Ok(out)
    }

    /// `rule` in regular-expression syntax for the `regex` crate; `SOI` and `EOI` become `\A`
    /// and `\z`; lookahead (but for `!("a" | "b") ~ ANY`), the stack and recursion are refused.
    pub fn to_regex(&self, rule: &str) -> Result<String, CompileError> {
        let by_name: HashMap<&str, &Expr> = self.rules.iter().map(|(n, e)| (n.as_str(), e)).collect();
        let mut out = String::new();
        let mut stack = Vec::new();
        emit_rule(&by_name, rule, &mut stack, &mut out)?;
        Ok(out)
    }

    /// The names of the rules a choice rule chooses between, in order (`a | b | c` gives `a`,
    /// `b`, `c`; an alternative `a ~ &end` gives `a`); a rule that is a single name gives that
    /// name, and one that repeats a choice (`(a | b | c)*`) the choice's names.
    pub fn alternatives(&self, rule: &str) -> Result<Vec<String>, CompileError> {
        let found = match self.rules.get(rule).ok_or_else(|| CompileError::UnknownRule(rule.to_owned()))? {
            Expr::Rep(choice) => choice,
            other => other,
        };
        // A lookahead, written out or as a rule that is one.
        let lookahead = |e: &Expr| match e {
            Expr::PosPred(_) => true,
            Expr::Ident(name) => matches!(self.rules.get(name), Some(Expr::PosPred(_))),
            _ => false,
        };
        let walk = |expr: &Expr, out: &mut Vec<String>| -> Result<(), CompileError> {
            let mut stack = vec![expr];
            while let Some(e) = stack.pop() {
                match e {
                    Expr::Choice(a, b) => {
                        stack.push(b);
                        stack.push(a);
                    }
                    Expr::Ident(name) => out.push(name.clone()),
                    // `name ~ &(…)`: the rule, and a lookahead that says where it must end (the
                    // automaton matches the rule's text whole).
                    Expr::Seq(a, b) if lookahead(b) => stack.push(a),
                    _ => {
                        return Err(CompileError::NotRegular {
                            rule: rule.to_owned(),
                            what: "an alternative that is not a rule name".into(),
                        })
                    }
                }
            }
            Ok(())
        };
        let mut out = Vec::new();
        walk(found, &mut out)?;
        Ok(out)
    }
}

/// The names of the rules a choice rule chooses between (see [`Rules::alternatives`]).
pub fn alternatives(sources: &[&str], rule: &str) -> Result<Vec<String>, CompileError> {
    Rules::parse(sources)?.alternatives(rule)
}

/// Why a rule could not be compiled to a regular expression.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The grammar text did not parse.
    #[error("the grammar does not parse: {0}")]
    Grammar(String),
    /// The rule is not in the grammar.
    #[error("no rule `{0}` in the grammar")]
    UnknownRule(String),
    /// The rule uses an operator with no regular equivalent.
    #[error("rule `{rule}` uses {what}, which is not regular")]
    NotRegular {
        /// The rule that uses it.
        rule: String,
        /// The operator.
        what: String,
    },
    /// The rule is regular, but pest reads it differently from the regular expression: an
    /// ordered choice or a repetition commits where a regular expression would backtrack.
    #[error("rule `{rule}` cannot run as an automaton: {reason}")]
    Unsound {
        /// The rule whose operator could commit wrongly.
        rule: String,
        /// Which operator, and a text that shows it.
        reason: String,
    },
}

/// Compiles `rule` of the grammar made of `sources` (joined, as pest_derive joins several
/// `#[grammar]` files) into regular-expression syntax for the `regex` crate.
///
/// `SOI` and `EOI` become `\A` and `\z`; lookahead, the stack and recursion are refused.
pub fn rule_to_regex(sources: &[&str], rule: &str) -> Result<String, CompileError> {
    Rules::parse(sources)?.to_regex(rule)
}

fn emit_rule<'a>(
    rules: &HashMap<&'a str, &'a Expr>,
    name: &str,
    stack: &mut Vec<String>,
    out: &mut String,
) -> Result<(), CompileError> {
    let builtin = builtin(name).filter(|_| !rules.contains_key(name));
    if let Some(b) = builtin {
        out.push_str(&b);
        return Ok(());
    }
    let (key, expr) = rules.get_key_value(name).ok_or_else(|| CompileError::UnknownRule(name.to_owned()))?;
    if stack.iter().any(|s| s == key) {
        return Err(CompileError::NotRegular { rule: name.to_owned(), what: "recursion".into() });
    }
    stack.push((*key).to_owned());
    out.push_str("(?:");
    emit(rules, name, expr, stack, out)?;
    out.push(')');
    stack.pop();
    Ok(())
}

fn emit<'a>(
    rules: &HashMap<&'a str, &'a Expr>,
    rule: &str,
    expr: &Expr,
    stack: &mut Vec<String>,
    out: &mut String,
) -> Result<(), CompileError> {
    let group = |out: &mut String, e: &Expr, stack: &mut Vec<String>| -> Result<(), CompileError> {
        out.push_str("(?:");
        emit(rules, rule, e, stack, out)?;
        out.push(')');
        Ok(())
    };
    match expr {
        Expr::Str(s) => out.push_str(&regex::escape(s)),
        Expr::Insens(s) => {
            out.push_str("(?i-u:");
            out.push_str(&regex::escape(s));
            out.push(')');
        }
        Expr::Range(a, b) => {
            out.push('[');
            out.push_str(&regex::escape(a));
            out.push('-');
            out.push_str(&regex::escape(b));
            out.push(']');
        }
        Expr::Ident(name) => emit_rule(rules, name, stack, out)?,
        Expr::Seq(a, b) => {
            // `!("a" | "b") ~ ANY`: any one character but those, a negated class.
            if let Some(chars) = negated_class(a, b, &|name| rules.get(name).copied()) {
                out.push_str("[^");
                for c in chars {
                    out.push_str(&regex::escape(&c.to_string()));
                }
                out.push(']');
                return Ok(());
            }
            group(out, a, stack)?;
            group(out, b, stack)?;
        }
        Expr::Choice(a, b) => {
            group(out, a, stack)?;
            out.push('|');
            group(out, b, stack)?;
        }
        Expr::Opt(e) => {
            group(out, e, stack)?;
            out.push('?');
        }
        Expr::Rep(e) => {
            group(out, e, stack)?;
            out.push('*');
        }
        Expr::RepOnce(e) => {
            group(out, e, stack)?;
            out.push('+');
        }
        Expr::RepExact(e, n) => {
            group(out, e, stack)?;
            out.push_str(&format!("{{{n}}}"));
        }
        Expr::RepMin(e, n) => {
            group(out, e, stack)?;
            out.push_str(&format!("{{{n},}}"));
        }
        Expr::RepMax(e, n) => {
            group(out, e, stack)?;
            out.push_str(&format!("{{0,{n}}}"));
        }
        Expr::RepMinMax(e, a, b) => {
            group(out, e, stack)?;
            out.push_str(&format!("{{{a},{b}}}"));
        }
        other => {
            return Err(CompileError::NotRegular { rule: rule.to_owned(), what: operator_name(other).into() });
        }
    }
    Ok(())
}

/// The regular expression of a builtin rule, if `name` is one kifu translates.
fn builtin(name: &str) -> Option<String> {
    match name {
        "SOI" => Some(r"\A".into()),
        "EOI" => Some(r"\z".into()),
        "ANY" => Some(r"(?s:.)".into()),
        _ => builtin_class(name).map(|ranges| {
            let inner: String =
                ranges.iter().map(|&(lo, hi)| format!("{}-{}", char::from(lo), char::from(hi))).collect();
            format!("[{inner}]")
        }),
    }
}

/// The ASCII ranges of a builtin class rule (`ASCII_DIGIT` is `0`-`9`).
fn builtin_class(name: &str) -> Option<&'static [(u8, u8)]> {
    Some(match name {
        "ASCII_DIGIT" => &[(b'0', b'9')],
        "ASCII_NONZERO_DIGIT" => &[(b'1', b'9')],
        "ASCII_ALPHA_LOWER" => &[(b'a', b'z')],
        "ASCII_ALPHA_UPPER" => &[(b'A', b'Z')],
        "ASCII_ALPHA" => &[(b'A', b'Z'), (b'a', b'z')],
        "ASCII_ALPHANUMERIC" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        _ => return None,
    })
}

/// The characters of `!("a" | "b" | …) ~ ANY`, a negated class, if `a ~ b` is one; the
/// characters may be a rule that is a choice of them (`!ROW_SEPARATOR ~ ANY`), `rule_of` gives a
/// rule's expression.
fn negated_class<'e>(a: &'e Expr, b: &Expr, rule_of: &dyn Fn(&str) -> Option<&'e Expr>) -> Option<Vec<char>> {
    let (Expr::NegPred(inner), Expr::Ident(any)) = (a, b) else {
        return None;
    };
    let mut chars = Vec::new();
    (any == "ANY" && single_chars(inner, &mut chars, rule_of, 0)).then_some(chars)
}

/// The name of an operator that has no regular equivalent, for messages.
fn operator_name(expr: &Expr) -> &'static str {
    match expr {
        Expr::PosPred(_) | Expr::NegPred(_) => "a lookahead",
        Expr::Skip(_) => "a skip",
        _ => "the stack",
    }
}

/// Collects the characters of a choice of one-character strings, or of rules that are such
/// choices (found by `rule_of`, followed `depth` deep so far, at most eight); false for anything
/// else.
fn single_chars<'e>(
    expr: &'e Expr,
    out: &mut Vec<char>,
    rule_of: &dyn Fn(&str) -> Option<&'e Expr>,
    depth: usize,
) -> bool {
    match expr {
        Expr::Choice(a, b) => single_chars(a, out, rule_of, depth) && single_chars(b, out, rule_of, depth),
        Expr::Str(s) if s.chars().count() == 1 => {
            out.extend(s.chars());
            true
        }
        Expr::Ident(name) if depth < 8 => rule_of(name).is_some_and(|e| single_chars(e, out, rule_of, depth + 1)),
        _ => false,
    }
}

// ───────────────────────────── soundness ─────────────────────────────
//
// A regular expression and a PEG read the same operators differently. PEG's ordered choice
// `a | b` commits to `a` as soon as `a` matches a prefix, and its repetitions and options take
// what they can and never give it back; a regular expression tries every way. The two define
// the same language when no such commitment can be wrong. For an expression `e` followed by a
// continuation `F` (what the rest of the rule, and of the rules around it, reads), kifu
// requires, writing `L(x)` for the texts of `x` and `Σ*` for any text:
//
// * `a | b` then `F`: a text of `b F` that starts with a text of `a` is a text of `a F`
//   (`L(a)·Σ* ∩ (L(b F) ∖ L(a F)) = ∅`): when pest commits to `a`, `a` was right;
// * `e?` then `F`: `e` matches no empty text, and a text of `F` that starts with a text of `e`
//   is a text of `e F`; `e*` then `F`: the same with `e e* F`;
// * the counted forms as the sequences and options they stand for (`e{2}` is `e ~ e`, `e+`
//   is `e ~ e*`), and every part recursively, each with its own continuation.
//
// By induction on the text, pest then matches every text of the regular language (and pest's
// matches are always regular matches): both accept the same texts. For a rule matched at the
// start of a longer text (`F` is any text), kifu requires more, that no text of `b F` start
// with a text of `a` at all (and so for options and repetitions): a text then splits one way
// only, and the prefix pest matches is the one the automaton finds.
//
// Each condition is decided on automata: first on the bytes the two sides can start with, and
// when those meet, on the product of the DFAs of the languages involved, which also gives the
// shortest text that shows a conflict.

/// A set of bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ByteSet([u64; 4]);

impl ByteSet {
    const ALL: Self = Self([u64::MAX; 4]);

    fn add(&mut self, b: u8) {
        self.0[usize::from(b >> 6)] |= 1 << (b & 63);
    }

    fn add_range(&mut self, lo: u8, hi: u8) {
        for b in lo..=hi {
            self.add(b);
        }
    }

    fn union(&mut self, other: Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    fn meets(self, other: Self) -> bool {
        self.0.iter().zip(other.0).any(|(a, b)| a & b != 0)
    }
}

/// What an expression can start with: a superset of its texts' first bytes, and whether it
/// may match the empty text.
#[derive(Clone, Copy, Debug, Default)]
struct First {
    bytes: ByteSet,
    nullable: bool,
}

/// The first byte of `c` in UTF-8.
fn lead_byte(c: char) -> u8 {
    let mut buf = [0; 4];
    c.encode_utf8(&mut buf);
    buf[0]
}

impl Rules {
    /// Checks that `rule`, matched against a whole text, reads as pest reads it: the regular
    /// language of [`Rules::to_regex`] is then exactly the set of texts that pest's `rule`
    /// matches in full. An error names the operator that could commit wrongly and a text that
    /// shows it.
    pub fn check_sound(&self, rule: &str) -> Result<(), CompileError> {
        self.sound_regex(rule, Mode::Whole).map(drop)
    }

    /// Like [`Rules::check_sound`], for `rule` matched at the start of a longer text: the
    /// rule then matches at most one prefix of any text, and pest matches that prefix.
    pub fn check_sound_prefix(&self, rule: &str) -> Result<(), CompileError> {
        self.sound_regex(rule, Mode::Prefix).map(drop)
    }

    /// `rule`'s regular expression, once its soundness in `mode` is checked.
    fn sound_regex(&self, rule: &str, mode: Mode) -> Result<String, CompileError> {
        // The regex must exist (no lookahead, no recursion) before its parts are weighed.
        let regex = self.to_regex(rule)?;
        // Any text may follow a prefix.
        let any = Expr::Rep(Box::new(Expr::Ident("ANY".into())));
        let follow = match mode {
            Mode::Whole => Vec::new(),
            Mode::Prefix => vec![&any],
        };
        self.sound(rule, &Expr::Ident(rule.to_owned()), &follow, mode, &mut Vec::new())?;
        Ok(regex)
    }

    fn sound(&self, rule: &str, expr: &Expr, follow: &[&Expr], mode: Mode, stack: &mut Stack) -> Sound {
        let seq = |a: Expr, b: Expr| Expr::Seq(Box::new(a), Box::new(b));
        let exact = |e: &Expr, n: u32| Expr::RepExact(Box::new(e.clone()), n);
        let up_to = |e: &Expr, n: u32| Expr::RepMax(Box::new(e.clone()), n);
        match expr {
            Expr::Str(_) | Expr::Insens(_) | Expr::Range(..) => Ok(()),
            Expr::Ident(name) => {
                if builtin(name).is_some() {
                    return Ok(());
                }
                let body = self.rules.get(name).ok_or_else(|| CompileError::UnknownRule(name.clone()))?;
                if stack.iter().any(|s| s == name) {
                    return Err(CompileError::NotRegular { rule: name.clone(), what: "recursion".into() });
                }
                stack.push(name.clone());
                let result = self.sound(name, body, follow, mode, stack);
                stack.pop();
                result
            }
            Expr::Seq(a, b) => {
                if negated_class(a, b, &|name| self.rules.get(name)).is_some() {
                    return Ok(());
                }
                self.sound(rule, a, &then(b, follow), mode, stack)?;
                self.sound(rule, b, follow, mode, stack)
            }
            Expr::Choice(a, b) => self.sound_choice(rule, a, b, follow, mode, stack),
            // The counted forms are sequences and options of `e`: `e{n}` is `e ~ e{n-1}`, and so on.
            Expr::RepExact(e, n) => match n {
                0 => Ok(()),
                _ => self.sound(rule, &seq((**e).clone(), exact(e, n - 1)), follow, mode, stack),
            },
            Expr::RepMinMax(e, lo, hi) if *lo > 0 => {
                self.sound(rule, &seq(exact(e, *lo), up_to(e, hi - lo)), follow, mode, stack)
            }
            Expr::RepMinMax(e, _, hi) | Expr::RepMax(e, hi) => match hi {
                0 => Ok(()),
                _ => self.sound(rule, &Expr::Opt(Box::new(seq((**e).clone(), up_to(e, hi - 1)))), follow, mode, stack),
            },
            Expr::RepMin(e, n) => self.sound(rule, &seq(exact(e, *n), Expr::Rep(e.clone())), follow, mode, stack),
            Expr::RepOnce(e) => self.sound(rule, &seq((**e).clone(), Expr::Rep(e.clone())), follow, mode, stack),
            Expr::Opt(e) | Expr::Rep(e) => self.sound_repeat(rule, expr, e, follow, mode, stack),
            other => Err(CompileError::NotRegular { rule: rule.to_owned(), what: operator_name(other).into() }),
        }
    }

    /// [`Self::sound`] for the ordered choice `a | b`.
    fn sound_choice(&self, rule: &str, a: &Expr, b: &Expr, follow: &[&Expr], mode: Mode, stack: &mut Stack) -> Sound {
        // pest commits to `a` when it matches a prefix; wrong when the text is one that
        // only `b` (then the continuation) reads.
        let a_then = then(a, follow);
        let exclude = (mode == Mode::Whole).then_some(&a_then[..]);
        if let Some(witness) = self.commits_wrongly(rule, a, &then(b, follow), exclude)? {
            return Err(CompileError::Unsound {
                rule: rule.to_owned(),
                reason: format!(
                    "in the ordered choice `{a} | {b}`, the first alternative matches the start of {witness:?}, which only the second reads: pest takes the first and never tries the second"
                ),
            });
        }
        self.sound(rule, a, follow, mode, stack)?;
        self.sound(rule, b, follow, mode, stack)
    }

    /// [`Self::sound`] for `expr`, the option or repetition of `e`.
    fn sound_repeat(
        &self,
        rule: &str,
        expr: &Expr,
        e: &Expr,
        follow: &[&Expr],
        mode: Mode,
        stack: &mut Stack,
    ) -> Sound {
        let what = if matches!(expr, Expr::Opt(_)) { "optional" } else { "repeated" };
        if self.first(e, &mut Vec::new()).nullable {
            return Err(CompileError::Unsound {
                rule: rule.to_owned(),
                reason: format!("the {what} `{e}` can match the empty text"),
            });
        }
        // After `e?` or `e*` pest tries `e` again; wrong when what follows starts with a
        // text of `e` but is not itself `e` again.
        let inner = match expr {
            Expr::Opt(_) => follow.to_vec(),
            _ => then(expr, follow),
        };
        let again = then(e, &inner);
        let exclude = (mode == Mode::Whole).then_some(&again[..]);
        if let Some(witness) = self.commits_wrongly(rule, e, follow, exclude)? {
            return Err(CompileError::Unsound {
                rule: rule.to_owned(),
                reason: format!(
                    "the {what} `{e}` matches the start of {witness:?}, which is what follows it: pest takes it and never gives it back"
                ),
            });
        }
        self.sound(rule, e, &inner, mode, stack)
    }

    /// A text of `q` that starts with a text of `p` and is not a text of `exclude`, if any
    /// (`L(p)·Σ* ∩ (L(q) ∖ L(exclude))`): the shortest one.
    fn commits_wrongly(
        &self,
        rule: &str,
        p: &Expr,
        q: &[&Expr],
        exclude: Option<&[&Expr]>,
    ) -> Result<Option<String>, CompileError> {
        let (fp, fq) = (self.first(p, &mut Vec::new()), self.first_of(q));
        if !fp.nullable && !fp.bytes.meets(fq.bytes) {
            // A text of `q` is empty (no text of `p` is) or starts with a byte no text of `p`
            // starts with.
            return Ok(None);
        }
        let p = format!("{}(?s:.)*", self.concat(&[p])?);
        let q = self.concat(q)?;
        let exclude = exclude.map(|e| self.concat(e)).transpose()?;
        witness(&p, &q, exclude.as_deref()).map_err(|e| match e {
            CompileError::Unsound { reason, .. } => CompileError::Unsound { rule: rule.to_owned(), reason },
            e => e,
        })
    }

    /// The regular expression of a sequence of expressions.
    fn concat(&self, exprs: &[&Expr]) -> Result<String, CompileError> {
        let by_name: HashMap<&str, &Expr> = self.rules.iter().map(|(n, e)| (n.as_str(), e)).collect();
        let mut out = String::new();
        for e in exprs {
            out.push_str("(?:");
            emit(&by_name, "", e, &mut Vec::new(), &mut out)?;
            out.push(')');
        }
        Ok(out)
    }

    fn first_of(&self, exprs: &[&Expr]) -> First {
        let mut out = First { bytes: ByteSet::default(), nullable: true };
        for e in exprs {
            if matches!(e, Expr::Ident(n) if n == "EOI") {
                break; // nothing is read after the end
            }
            let f = self.first(e, &mut Vec::new());
            out.bytes.union(f.bytes);
            if !f.nullable {
                out.nullable = false;
                break;
            }
        }
        out
    }

    /// What `expr` can start with; on recursion or anything unknown, every byte, maybe empty.
    fn first(&self, expr: &Expr, stack: &mut Vec<String>) -> First {
        let unknown = First { bytes: ByteSet::ALL, nullable: true };
        let one = |bytes: ByteSet| First { bytes, nullable: false };
        match expr {
            Expr::Str(s) | Expr::Insens(s) => match s.as_bytes().first() {
                None => First { bytes: ByteSet::default(), nullable: true },
                Some(&b) => {
                    let mut set = ByteSet::default();
                    set.add(b);
                    if matches!(expr, Expr::Insens(_)) {
                        set.add(b.to_ascii_lowercase());
                        set.add(b.to_ascii_uppercase());
                    }
                    one(set)
                }
            },
            Expr::Range(lo, hi) => match (lo.chars().next(), hi.chars().next()) {
                (Some(lo), Some(hi)) => {
                    let mut set = ByteSet::default();
                    set.add_range(lead_byte(lo), lead_byte(hi));
                    one(set)
                }
                _ => unknown,
            },
            Expr::Ident(name) if builtin_class(name).is_some() => {
                let mut set = ByteSet::default();
                for &(lo, hi) in builtin_class(name).unwrap_or_default() {
                    set.add_range(lo, hi);
                }
                one(set)
            }
            Expr::Ident(name) => match name.as_str() {
                "SOI" | "EOI" => First { bytes: ByteSet::default(), nullable: true },
                "ANY" => one(ByteSet::ALL),
                _ => match self.rules.get(name) {
                    Some(body) if !stack.contains(name) => {
                        stack.push(name.clone());
                        let f = self.first(body, stack);
                        stack.pop();
                        f
                    }
                    _ => unknown,
                },
            },
            Expr::Seq(a, b) => {
                if negated_class(a, b, &|name| self.rules.get(name)).is_some() {
                    return one(ByteSet::ALL);
                }
                let fa = self.first(a, stack);
                if !fa.nullable {
                    return fa;
                }
                let mut fb = self.first(b, stack);
                fb.bytes.union(fa.bytes);
                fb
            }
            Expr::Choice(a, b) => {
                let (fa, fb) = (self.first(a, stack), self.first(b, stack));
                let mut bytes = fa.bytes;
                bytes.union(fb.bytes);
                First { bytes, nullable: fa.nullable || fb.nullable }
            }
            Expr::Opt(e) | Expr::Rep(e) | Expr::RepMax(e, _) => First { nullable: true, ..self.first(e, stack) },
            Expr::RepOnce(e) => self.first(e, stack),
            Expr::RepExact(e, n) | Expr::RepMin(e, n) | Expr::RepMinMax(e, n, _) => {
                let f = self.first(e, stack);
                First { nullable: f.nullable || *n == 0, ..f }
            }
            _ => unknown,
        }
    }
}

/// The shortest text in the languages `p` and `q` and not in `exclude`, if any: a search of the
/// product of their DFAs, built lazily (only the states the search reaches).
fn witness(p: &str, q: &str, exclude: Option<&str>) -> Result<Option<String>, CompileError> {
    use regex_automata::hybrid::dfa::{Cache, DFA};
    use regex_automata::hybrid::LazyStateID;
    let too_large =
        || CompileError::Unsound { rule: String::new(), reason: "the languages are too large to compare".into() };
    let dfas = [Some(p), Some(q), exclude]
        .into_iter()
        .flatten()
        .map(|pattern| {
            DFA::builder()
                .configure(
                    DFA::config()
                        .match_kind(regex_automata::MatchKind::All)
                        .cache_capacity(16 << 20)
                        // Never clear the cache: the states the search holds must stay valid.
                        .minimum_cache_clear_count(Some(0)),
                )
                .build(pattern)
                .map_err(|e| CompileError::Grammar(e.to_string()))
        })
        .collect::<Result<Vec<DFA>, _>>()?;
    let mut caches: Vec<Cache> = dfas.iter().map(DFA::create_cache).collect();
    let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
    let mut start = Vec::with_capacity(dfas.len());
    for (d, c) in dfas.iter().zip(&mut caches) {
        start.push(d.start_state(c, &config).map_err(|_| too_large())?);
    }
    // One byte for each combination of byte classes: the bytes all automata treat alike.
    let bytes = representatives(|byte| dfas.iter().map(|d| d.byte_classes().get(byte)).collect::<Vec<_>>());
    let mut parent: HashMap<Vec<LazyStateID>, Option<(Vec<LazyStateID>, u8)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(states) = queue.pop_front() {
        let mut accepts = Vec::with_capacity(dfas.len());
        for ((d, c), &s) in dfas.iter().zip(&mut caches).zip(&states) {
            accepts.push(d.next_eoi_state(c, s).map_err(|_| too_large())?.is_match());
        }
        if accepts[0] && accepts[1] && !(dfas.len() == 3 && accepts[2]) {
            let mut text = Vec::new();
            let mut at = &states;
            while let Some(Some((from, byte))) = parent.get(at) {
                text.push(*byte);
                at = from;
            }
            text.reverse();
            return Ok(Some(String::from_utf8_lossy(&text).into_owned()));
        }
        for &byte in &bytes {
            let mut next = Vec::with_capacity(dfas.len());
            for ((d, c), &s) in dfas.iter().zip(&mut caches).zip(&states) {
                next.push(d.next_state(c, s, byte).map_err(|_| too_large())?);
            }
            // Only `exclude` may die: its dead state is a state that never accepts.
            if next[0].is_dead() || next[1].is_dead() || parent.contains_key(&next) {
                continue;
            }
            parent.insert(next.clone(), Some((states.clone(), byte)));
            queue.push_back(next);
        }
    }
    Ok(None)
}

/// One byte for each value of `class`, the first of each: the bytes an automaton (or several)
/// cannot tell apart are tried once.
fn representatives<K: std::hash::Hash + Eq>(class: impl Fn(u8) -> K) -> Vec<u8> {
    let mut seen = std::collections::HashSet::new();
    (0..=255u8).filter(|&b| seen.insert(class(b))).collect()
}

/// The rules being weighed by [`Rules::sound`], outermost first: a rule met again is recursion.
type Stack = Vec<String>;

/// What [`Rules::sound`] finds: nothing, or why the rule cannot be compiled.
type Sound = Result<(), CompileError>;

/// How a rule is matched: against a whole text, or at the start of a longer one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Whole,
    Prefix,
}

/// Helpers for the tests of the token decoders: every short string, and whether a rule matches
/// one whole.
#[cfg(test)]
pub(crate) mod testing {
    /// True when one of `rules` matches all of `text`.
    pub fn pest_matches<P: pest::Parser<R>, R: pest::RuleType>(rules: &[R], text: &str) -> bool {
        rules.iter().any(|&rule| {
            P::parse(rule, text).is_ok_and(|mut p| p.next().is_some_and(|p| p.as_str().len() == text.len()))
        })
    }

    /// A token decoder to check against the grammar: its name, whether it reads a text, and
    /// the rules that match the same texts.
    pub type Decoder<'a, R> = (&'a str, fn(&str) -> bool, &'a [R]);

    /// Checks that each decoder reads exactly the texts (of up to two characters of
    /// `alphabet`) that one of its rules matches whole.
    pub fn decoders_agree<P: pest::Parser<R>, R: pest::RuleType>(alphabet: &str, decoders: &[Decoder<'_, R>]) {
        for text in strings(alphabet, 2) {
            for (name, reads, rules) in decoders {
                assert_eq!(reads(&text), pest_matches::<P, R>(rules, &text), "{name} {text:?}");
            }
        }
    }

    /// Every string of up to `max` characters drawn from `alphabet`.
    pub fn strings(alphabet: &str, max: usize) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = last.iter().flat_map(|s| alphabet.chars().map(move |c| format!("{s}{c}"))).collect();
            out.extend(last.iter().cloned());
        }
        out
    }
}

/// `first`, then `follow` (the expressions borrowed, not copied: a rule's soundness is weighed
/// against many such sequences).
fn then<'a>(first: &'a Expr, follow: &[&'a Expr]) -> Vec<&'a Expr> {
    let mut f = Vec::with_capacity(follow.len() + 1);
    f.push(first);
    f.extend_from_slice(follow);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kifus_grammars_are_read_at_build_time_as_at_run_time() {
        assert_eq!(super::prebuilt::PREBUILT.len(), 4);
        for (texts, _) in super::prebuilt::PREBUILT {
            let built = Rules::parse(texts).expect("read when kifu was built");
            let read = Rules::read(texts).expect("read now");
            assert!(!built.rules.is_empty());
            assert_eq!(built.rules, read.rules);
        }
    }

    #[test]
    fn compiles_the_sfen_records() {
        let re = rule_to_regex(&[SFEN, COMMON], "usi_record").expect("regular");
        let re = regex::Regex::new(&re).expect("valid regex");
        assert!(re.is_match("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"));
        assert!(!re.is_match("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1"));
        assert!(!re.is_match("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 "));
    }

    #[test]
    fn a_negated_set_of_characters_is_a_class() {
        // `field = @{ (!(" " | "\t" | …) ~ ANY)+ }`
        let re = rule_to_regex(&[SFEN, COMMON], "line").expect("regular");
        let re = regex::Regex::new(&re).expect("valid regex");
        assert!(re.is_match("a b\tc"));
        let words = ChoiceDfa::compile(&[PSN, COMMON], "word").expect("the word rule compiles");
        assert_eq!(words.names()[0], "seqnum");
        assert_eq!(words.classify(b"12..."), Some(0));
    }

    #[test]
    fn an_edit_read_from_the_prefixes_states_reads_as_the_edited_text() {
        let dfa = RuleDfa::compile(&[SFEN, COMMON], "usi_record").expect("regular");
        let mut accepted = 0;
        for text in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL  b - 1",
            "lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P 13",
            "8l/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
        ] {
            let prefix = dfa.prefix(text).expect("an anchored start");
            let bytes = text.as_bytes();
            for at in 0..=bytes.len() {
                // Every byte of the alphabet written over none, one or two bytes from `at`.
                for end in at..=(at + 2).min(bytes.len()) {
                    for written in dfa.alphabet().iter().map(|b| vec![*b]).chain([Vec::new(), b"+P".to_vec()]) {
                        let edited = [&bytes[..at], &written[..], &bytes[end..]].concat();
                        let whole = dfa.reads(std::str::from_utf8(&edited).expect("ASCII")).is_ok();
                        let split = dfa
                            .edit_state(&prefix, at, &written)
                            .is_some_and(|state| dfa.accepts_from(&prefix, state, end, &bytes[end..]));
                        assert_eq!(split, whole, "{text:?} with {written:?} over {at}..{end}");
                        accepted += usize::from(whole);
                    }
                }
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }

    #[test]
    fn refuses_what_is_not_regular() {
        // Nested braces need a counter: the rule is recursive.
        let err = rule_to_regex(&[PSN, COMMON], "comment").unwrap_err();
        assert!(matches!(err, CompileError::NotRegular { .. }), "{err}");
        let err = rule_to_regex(&[PSN, COMMON], "boundary").unwrap_err();
        assert!(matches!(err, CompileError::NotRegular { .. }), "a lookahead: {err}");
        assert_eq!(rule_to_regex(&[SFEN, COMMON], "nope").unwrap_err(), CompileError::UnknownRule("nope".into()));
    }
}
