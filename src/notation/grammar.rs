//! The grammars in `grammar/`, as text, and their regular rules compiled to automata.
//!
//! pest runs a grammar by recursive descent, at some hundreds of instructions per character.
//! For the common case of a well-formed record kifu needs something faster without a second
//! definition of the syntax, so it reads the grammar itself (with pest's own meta-parser) and
//! compiles a rule that uses only regular operators into a regular expression: the same
//! language, run by a DFA. A record the automaton accepts is well-formed by the grammar; one it
//! rejects goes through pest, which explains what is wrong. Tests check that both agree.

use std::collections::HashMap;

use super::regular::{representatives, Dfa};
pub use super::regular::{CompileError, Kind, Rules};
#[cfg(feature = "internals")]
pub use super::regular::{GRAMMARS, SHIPPED};

/// `grammar/common.pest`: rules shared by every format.
pub const COMMON: &str = include_str!("../../grammar/common.pest");
/// `grammar/sfen.pest`: the SFEN grammar.
pub const SFEN: &str = include_str!("../../grammar/sfen.pest");
/// `grammar/fen.pest`: the FEN and EPD grammar.
pub const FEN: &str = include_str!("../../grammar/fen.pest");
/// `grammar/psn.pest`: the PSN grammar.
pub const PSN: &str = include_str!("../../grammar/psn.pest");
/// `grammar/kif.pest`: the KIF grammar.
pub const KIF: &str = include_str!("../../grammar/kif.pest");
/// `grammar/csa.pest`: the CSA grammar.
pub const CSA: &str = include_str!("../../grammar/csa.pest");

/// One of kifu's grammars, read once, whose rules are compiled to automata at their first use.
pub struct Shipped {
    name: &'static str,
    grammar: std::sync::OnceLock<Option<Rules>>,
}

impl Shipped {
    /// The grammar named `name` in [`GRAMMARS`], not read yet.
    pub const fn new(name: &'static str) -> Self {
        Self { name, grammar: std::sync::OnceLock::new() }
    }

    /// The grammar's rules, read once; `None` if pest's meta-parser refuses them.
    pub fn rules(&'static self) -> Option<&'static Rules> {
        self.grammar.get_or_init(|| Rules::named(self.name)).as_ref()
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
/// [`Rules::automaton`]).
pub struct RuleDfa(
    regex_automata::dfa::dense::DFA<Vec<u32>>,
    std::sync::OnceLock<Vec<u8>>,
    /// The same automaton as a table to step through, when it is small enough: made at the first
    /// [`RuleDfa::run`] (it takes 128 KiB).
    std::sync::OnceLock<Option<Steps>>,
);

/// The places in a [`Steps`] table for transitions: a state and a class add to a number of
/// 16 bits.
const STEPS_LEN: usize = 1 << 16;
/// Where the classes of the 256 bytes are in a [`Steps`] table.
const CLASSES_AT: usize = STEPS_LEN;
/// Where the column that says whether a state matches at the end is in a [`Steps`] table.
const END_COLUMN_AT: usize = CLASSES_AT + 256;

/// An automaton's transitions as one table indexed by a state plus a byte's class, with
/// nothing to check on the way: a state is a multiple of the table's stride, a class is less,
/// and the table has a place for every number of 16 bits. (The automaton's own step checks its
/// index, and looks up where its table is, at every byte.) Each byte's class, and the column
/// of the table that says whether a state matches at the end, are in the same table, past the
/// transitions: one pointer reaches everything. Made from the automaton by a walk over the
/// states reachable from its start (the first, 0), one byte of each class at a time.
struct Steps(Box<[u16; END_COLUMN_AT + 1]>);

impl Steps {
    /// The table of `dfa` from its anchored start; `None` when it has no such start or its
    /// reachable states take more than [`STEPS_LEN`] places.
    fn of(dfa: &regex_automata::dfa::dense::DFA<Vec<u32>>) -> Option<Self> {
        use regex_automata::dfa::Automaton;
        use regex_automata::util::primitives::StateID;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let start = dfa.start_state(&config).ok()?;
        let class = |b: u8| usize::from(dfa.byte_classes().get(b));
        let class_count = (0..=255u8).map(class).max()? + 1;
        let stride = (class_count + 1).next_power_of_two();
        let mut table = vec![0u16; END_COLUMN_AT + 1];
        for b in 0..=255u8 {
            table[CLASSES_AT + usize::from(b)] = u16::try_from(class(b)).ok()?;
        }
        table[END_COLUMN_AT] = u16::try_from(class_count).ok()?;
        let states = reachable(dfa, start);
        if states.len() * stride > STEPS_LEN {
            return None;
        }
        // Each state's number: its place in the walk's order, times the stride.
        let number: HashMap<StateID, usize> = states.iter().enumerate().map(|(i, &s)| (s, i * stride)).collect();
        let order = representatives(class);
        for (i, &state) in states.iter().enumerate() {
            let base = i * stride;
            for &b in &order {
                let next = number.get(&dfa.next_state(state, b))?;
                table[base + class(b)] = u16::try_from(*next).ok()?;
            }
            table[base + class_count] = u16::from(dfa.is_match_state(dfa.next_eoi_state(state)));
        }
        Some(Self(table.into_boxed_slice().try_into().ok()?))
    }
}

/// The states of `dfa` that `start` reaches, `start` first, each once, in the order a walk that
/// tries one byte of each class from each state finds them.
fn reachable(
    dfa: &regex_automata::dfa::dense::DFA<Vec<u32>>,
    start: regex_automata::util::primitives::StateID,
) -> Vec<regex_automata::util::primitives::StateID> {
    use regex_automata::dfa::Automaton;
    let order = representatives(|b| dfa.byte_classes().get(b));
    let mut states = vec![start];
    let mut seen = std::collections::HashSet::from([start]);
    let mut i = 0;
    while let Some(&state) = states.get(i) {
        for &b in &order {
            let next = dfa.next_state(state, b);
            if seen.insert(next) {
                states.push(next);
            }
        }
        i += 1;
    }
    states
}

/// A [`RuleDfa`] part way through a text: [`Run::accepts`] says whether the bytes fed so far
/// are a whole text of the rule.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    table: &'a [u16; END_COLUMN_AT + 1],
    state: u16,
}

impl Run<'_> {
    /// Reads byte `b`. (A dead state stays dead, so records, short and mostly valid, run to
    /// their end unchecked.)
    #[inline]
    pub fn feed(&mut self, b: u8) {
        let at = self.state.wrapping_add(self.table[CLASSES_AT + usize::from(b)]);
        self.state = self.table[usize::from(at)];
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
        self.table[usize::from(self.state.wrapping_add(self.table[END_COLUMN_AT]))] != 0
    }
}

impl RuleDfa {
    /// Compiles `rule` of the grammar made of `sources`.
    #[cfg(feature = "internals")]
    pub fn compile(sources: &[&str], rule: &str) -> Result<Self, CompileError> {
        Self::compile_in(&Rules::parse(sources)?, rule)
    }

    /// Compiles `rule` of `grammar`: refused when it is not regular, or when pest would read it
    /// differently (an ordered choice or a repetition that commits where the automaton would
    /// not).
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        Ok(Self(automaton(grammar, Kind::Whole, rule)?, std::sync::OnceLock::new(), std::sync::OnceLock::new()))
    }

    /// True when the whole of `text` matches the rule.
    pub fn is_match(&self, text: &str) -> bool {
        match self.run() {
            Some(mut run) => {
                run.feed_all(text.as_bytes());
                run.accepts()
            }
            None => self.reads(text).is_ok(),
        }
    }

    /// A run of the automaton from its start, to be fed a text a byte at a time (so that a
    /// reader can feed it the bytes it reads, and the automaton's steps overlap its work);
    /// `None` if the automaton is too large for its table of steps, one place for each state and
    /// class in 2^16 (none of kifu's record rules is: a test says so).
    #[inline]
    pub fn run(&self) -> Option<Run<'_>> {
        let steps = self.2.get_or_init(|| Steps::of(&self.0)).as_ref()?;
        Some(Run { table: &steps.0, state: 0 })
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
    /// the very prefix the automaton finds (see [`Rules::automaton`]).
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        Ok(Self(automaton(grammar, Kind::Prefix, rule)?))
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
    /// The state a text starts in (anchored, with nothing before it).
    start: regex_automata::util::primitives::StateID,
    /// For each state the start reaches (by its index, the state's ID over the stride): the
    /// first alternative that matches a text ending in it, plus one; 0 for none.
    ends: Vec<u16>,
}

impl ChoiceDfa {
    /// Compiles the alternatives of `rule` of the grammar made of `sources`.
    #[cfg(feature = "internals")]
    pub fn compile(sources: &[&str], rule: &str) -> Result<Self, CompileError> {
        Self::compile_in(&Rules::parse(sources)?, rule)
    }

    /// Compiles the alternatives of `rule` of `grammar`.
    pub fn compile_in(grammar: &Rules, rule: &str) -> Result<Self, CompileError> {
        use regex_automata::dfa::Automaton;
        let dfa = automaton(grammar, Kind::Choice, rule)?;
        let names = grammar.alternatives(rule)?;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let start = dfa.start_state(&config).map_err(|e| CompileError::Grammar(e.to_string()))?;
        // What a text ending in each state the start reaches matches: looked up, not worked out,
        // as each word is read.
        let index = |id: regex_automata::util::primitives::StateID| id.as_usize() >> dfa.stride2();
        let mut ends = Vec::new();
        for state in reachable(&dfa, start) {
            let eoi = dfa.next_eoi_state(state);
            let first = if dfa.is_match_state(eoi) {
                (0..dfa.match_len(eoi)).map(|i| dfa.match_pattern(eoi, i).as_usize()).min()
            } else {
                None
            };
            let i = index(state);
            if ends.len() <= i {
                ends.resize(i + 1, 0);
            }
            ends[i] =
                first.map_or(Ok(0), |f| u16::try_from(f + 1)).map_err(|e| CompileError::Grammar(e.to_string()))?;
        }
        Ok(Self { dfa, names, start, ends })
    }

    /// The alternatives' rule names, in the grammar's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the first alternative that matches all of `text`.
    pub fn classify(&self, text: &[u8]) -> Option<usize> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.dfa;
        let mut state = self.start;
        for &b in text {
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) {
                return None;
            }
        }
        self.first_ending(state)
    }

    /// The word at the start of `text` that runs while `inside` says its bytes are in one
    /// (to the first byte that is not, or to the end): its length, and the first alternative
    /// that matches all of it ([`ChoiceDfa::classify`]), read in one pass.
    #[inline]
    pub fn classify_while(&self, text: &[u8], inside: impl Fn(u8) -> bool) -> (usize, Option<usize>) {
        use regex_automata::dfa::Automaton;
        let dfa = &self.dfa;
        let mut state = self.start;
        for (i, &b) in text.iter().enumerate() {
            if !inside(b) {
                return (i, self.first_ending(state));
            }
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) {
                let rest = &text[i + 1..];
                return (i + 1 + rest.iter().position(|&b| !inside(b)).unwrap_or(rest.len()), None);
            }
        }
        (text.len(), self.first_ending(state))
    }

    /// The first alternative that matches a text whose reading ends in `state`.
    #[inline]
    fn first_ending(&self, state: regex_automata::util::primitives::StateID) -> Option<usize> {
        let first = self.ends.get(state.as_usize() >> self.dfa.stride2()).copied().unwrap_or(0);
        usize::from(first).checked_sub(1)
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

/// kifu's grammars as pest's meta-parser read them when kifu was built, and the automata of
/// [`SHIPPED`] made from them (see `build.rs`): written by the build, a rule a line, however
/// many lines that takes.
#[allow(clippy::too_many_lines)]
mod prebuilt {
    use super::{Aligned, Kind};
    use pest_meta::ast::Expr::{self, *};
    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

/// Bytes aligned as an automaton's table must be to be read in place.
#[repr(C, align(4))]
struct Aligned<B: ?Sized> {
    bytes: B,
}

impl Rules {
    /// Reads the grammar made of `sources` (joined, as pest_derive joins several `#[grammar]`
    /// files). One of kifu's own grammars (its files' texts, in the order pest_derive reads
    /// them) was read when kifu was built, and is not read again.
    #[cfg(feature = "internals")]
    pub fn parse(sources: &[&str]) -> Result<Self, CompileError> {
        match prebuilt::PREBUILT.iter().find(|(_, texts, _)| *texts == sources) {
            Some(built) => Ok(Self::prebuilt(built)),
            None => Self::read(sources),
        }
    }

    /// kifu's own grammar named `name` in [`GRAMMARS`] (`sfen`, `fen`, `psn`, `common`), as it
    /// was read when kifu was built; `None` for another name.
    pub fn named(name: &str) -> Option<Self> {
        prebuilt::PREBUILT.iter().find(|&&(n, ..)| n == name).map(Self::prebuilt)
    }

    /// A grammar of [`prebuilt::PREBUILT`]: its rules, and its name.
    fn prebuilt(&(name, _, rules): &(&'static str, &[&str], prebuilt::Built)) -> Self {
        Self { rules: rules().into_iter().map(|(rule, e)| (rule.to_owned(), e)).collect(), shipped: Some(name) }
    }
}

/// The automaton of `kind` for `rule` of `grammar`: the one made when kifu was built, if
/// `grammar` is one of kifu's own and the automaton one of [`SHIPPED`]; else compiled now.
fn automaton(grammar: &Rules, kind: Kind, rule: &str) -> Result<Dfa, CompileError> {
    let made = grammar.shipped.and_then(|g| {
        let (.., bytes) = prebuilt::AUTOMATA.iter().find(|&&(n, k, r, _)| (n, k, r) == (g, kind, rule))?;
        // An automaton that does not read back (made for other hardware) is compiled again.
        let (dfa, _) = regex_automata::dfa::dense::DFA::from_bytes(&bytes.bytes).ok()?;
        Some(dfa.to_owned())
    });
    match made {
        Some(dfa) => Ok(dfa),
        None => {
            #[cfg(test)]
            if let Some(g) = grammar.shipped {
                compiled_now::note(g, kind, rule);
            }
            grammar.automaton(kind, rule)
        }
    }
}

/// Compiles `rule` of the grammar made of `sources` (joined, as pest_derive joins several
/// `#[grammar]` files) into regular-expression syntax for the `regex` crate.
///
/// `SOI` and `EOI` become `\A` and `\z`; lookahead, the stack and recursion are refused.
#[cfg(feature = "internals")]
pub fn rule_to_regex(sources: &[&str], rule: &str) -> Result<String, CompileError> {
    Rules::parse(sources)?.to_regex(rule)
}

/// The automata of kifu's own grammars compiled at run time, noted for the test that the formats
/// compile none (`format.rs`).
#[cfg(test)]
pub(crate) mod compiled_now {
    use super::Kind;

    static COMPILED_NOW: std::sync::Mutex<Vec<(&'static str, Kind, String)>> = std::sync::Mutex::new(Vec::new());

    /// Notes that the automaton of `kind` for `rule` of the `grammar`th of kifu's own grammars
    /// was compiled at run time.
    pub(crate) fn note(grammar: &'static str, kind: Kind, rule: &str) {
        COMPILED_NOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((grammar, kind, rule.to_owned()));
    }

    /// Every automaton noted so far.
    pub(crate) fn all() -> Vec<(&'static str, Kind, String)> {
        COMPILED_NOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_automaton_made_when_kifu_was_built_is_the_one_compiled_now() {
        use regex_automata::dfa::Automaton;
        assert_eq!(prebuilt::AUTOMATA.len(), SHIPPED.len(), "every automaton of SHIPPED compiles");
        for &(g, kind, rule) in SHIPPED {
            let (_, texts, _) = prebuilt::PREBUILT.iter().find(|(n, ..)| *n == g).expect("a grammar of GRAMMARS");
            // Read and compiled afresh, as for a grammar that is not kifu's own.
            let now = Rules::read(texts).and_then(|r| r.automaton(kind, rule)).expect("compiles now");
            let (bytes, pad) = now.to_bytes_native_endian();
            let (.., made) =
                prebuilt::AUTOMATA.iter().find(|&&(n, k, r, _)| (n, k, r) == (g, kind, rule)).expect("made");
            assert!(bytes[pad..] == made.bytes, "{g} {kind:?} {rule}: the automaton made at build time is stale");
            // And it reads back in place, as the library reads it.
            let (read, _) = regex_automata::dfa::dense::DFA::from_bytes(&made.bytes).expect("reads back");
            assert_eq!(read.pattern_len(), now.pattern_len());
        }
    }

    #[test]
    fn kifus_grammars_are_read_at_build_time_as_at_run_time() {
        let names: Vec<&str> = super::prebuilt::PREBUILT.iter().map(|&(name, ..)| name).collect();
        assert_eq!(names, GRAMMARS.iter().map(|&(name, _)| name).collect::<Vec<_>>());
        for (_, texts, _) in super::prebuilt::PREBUILT {
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

    /// The first alternative that matches all of `text`, worked out by walking the automaton
    /// from its start state and asking what its state after the text's end matches.
    fn classify_by_walking(choice: &ChoiceDfa, text: &[u8]) -> Option<usize> {
        use regex_automata::dfa::Automaton;
        let dfa = &choice.dfa;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let mut state = dfa.start_state(&config).expect("a start state");
        for &b in text {
            state = dfa.next_state(state, b);
        }
        let state = dfa.next_eoi_state(state);
        if !dfa.is_match_state(state) {
            return None;
        }
        (0..dfa.match_len(state)).map(|i| dfa.match_pattern(state, i).as_usize()).min()
    }

    #[test]
    fn a_choice_names_a_text_as_the_automaton_walked_does() {
        // Every word of up to three characters from an alphabet of the PSN words' characters,
        // and many longer ones: the states' table of first alternatives says what walking the
        // automaton to the text's end says.
        let words = ChoiceDfa::compile(&[PSN, COMMON], "word").expect("the word rule compiles");
        const ALPHABET: &[u8] = b"+=.-*'x/:#!?$P7fgGK12ab0RsSFEN \xff";
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut named = 0;
        for _ in 0..3 {
            texts = texts.iter().flat_map(|t| ALPHABET.iter().map(move |&c| [t.as_slice(), &[c]].concat())).collect();
            for t in &texts {
                let quick = words.classify(t);
                assert_eq!(quick, classify_by_walking(&words, t), "{:?}", String::from_utf8_lossy(t));
                // Read up to the first space, in one pass.
                let word = t.split(|&b| b == b' ').next().unwrap_or_default();
                let read = words.classify_while(t, |b| b != b' ');
                assert_eq!(read, (word.len(), classify_by_walking(&words, word)), "{:?}", String::from_utf8_lossy(t));
                named += usize::from(quick.is_some());
            }
        }
        let mut rng = crate::rng::XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..100_000 {
            let seed = rng.next_u64();
            let len = 4 + (seed % 6) as usize;
            let t: Vec<u8> = (0..len).map(|i| ALPHABET[((seed >> (6 * i)) % ALPHABET.len() as u64) as usize]).collect();
            let quick = words.classify(&t);
            assert_eq!(quick, classify_by_walking(&words, &t), "{:?}", String::from_utf8_lossy(&t));
            named += usize::from(quick.is_some());
        }
        for t in ["P7f", "G4a5b", "P*4e", "12...", "1-0", "P7g-7f", "7g7f"] {
            assert!(words.classify(t.as_bytes()).is_some(), "{t}");
        }
        assert!(named > 200, "{named}");
    }

    #[test]
    fn a_table_of_steps_reads_every_text_as_the_automaton_does() {
        // Every record rule a fast path feeds a byte at a time has a table, and the table says
        // what the automaton says: of every text of up to three characters of an alphabet of the
        // records' characters, and of every edit of one or two characters of real records.
        let rules: [(&[&str], &str, &str); 6] = [
            (&[FEN, COMMON], "fen_record", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
            (&[FEN, COMMON], "fen960_record", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
            (&[FEN, COMMON], "epd_record", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Ng5;"),
            (&[FEN, COMMON], "epd960_record", "8/8/8/8/8/8/8/K6k w - -"),
            (&[SFEN, COMMON], "usi_record", "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w 2Pb 12"),
            (&[SFEN, COMMON], "sfen2007_record", "8l/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL W - 3"),
        ];
        for (sources, rule, record) in rules {
            let dfa = RuleDfa::compile(sources, rule).expect("regular");
            let stepped = |text: &[u8]| {
                let mut run = dfa.run().unwrap_or_else(|| panic!("{rule} has a table of steps"));
                run.feed_all(text);
                run.accepts()
            };
            // The automaton's own steps, byte by byte.
            let walked = |text: &[u8]| {
                use regex_automata::dfa::Automaton;
                let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
                let mut state = dfa.0.start_state(&config).expect("an anchored start");
                for &b in text {
                    state = dfa.0.next_state(state, b);
                }
                dfa.0.is_match_state(dfa.0.next_eoi_state(state))
            };
            let alphabet = dfa.alphabet();
            let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
            for _ in 0..3 {
                texts =
                    texts.iter().flat_map(|t| alphabet.iter().map(move |&c| [t.as_slice(), &[c]].concat())).collect();
                for t in &texts {
                    assert_eq!(stepped(t), walked(t), "{rule}: {:?}", String::from_utf8_lossy(t));
                }
            }
            let bytes = record.as_bytes();
            let mut accepted = 0;
            for at in 0..=bytes.len() {
                for end in at..=(at + 2).min(bytes.len()) {
                    for written in alphabet.iter().map(|b| vec![*b]).chain([Vec::new(), "é".as_bytes().to_vec()]) {
                        let edited = [&bytes[..at], &written[..], &bytes[end..]].concat();
                        let whole = walked(&edited);
                        assert_eq!(stepped(&edited), whole, "{rule}: {:?}", String::from_utf8_lossy(&edited));
                        accepted += usize::from(whole);
                    }
                }
            }
            assert!(stepped(bytes) && accepted > 100, "{rule}: {accepted}");
        }
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
