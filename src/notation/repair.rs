//! Minimal repairs: the fewest one-character edits that make an invalid record valid, found by
//! trying them, and the one report they make of a record's findings.
//!
//! A slip of one character (one deleted, inserted, replaced, or two swapped) often breaks a
//! record in several places at once: a missing space shifts every field after it. Reported one
//! by one, the findings hide the slip. kifu's records are short and its grammars compile to
//! automata, so it can afford what a parser of long texts cannot (Diekmann and Tratt, "Don't
//! Panic! Better, Fewer, Syntax Errors for LR Parsers", ECOOP 2020, search repair sequences in
//! the same spirit): try every single edit of the record, keep those the grammar's automaton
//! accepts and the rules then find valid, and if none, pairs of edits near the fault. The
//! repairs found are the fault: reported once, where the edit is, with the repaired text in the
//! help and the edits as fixes; the findings the repair also settles are folded into it.
//!
//! Only invalid records pay for the search, and it is bounded: at most [`MAX_READS`] bytes of
//! candidate texts run through the automaton for single slips (a fifth of it again for each
//! later stage) and [`MAX_CHECKS`] judged by the rules in each, whatever the input.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

use super::grammar::RuleDfa;
use crate::diagnostic::{apply_edits, Applicability, Diagnostic, Edit, Fix};
use crate::span::Span;

/// Most bytes one search runs through the automaton, over all its candidate texts (about
/// 12,000 single edits of an 80-character record); the substitutions and the pairs, tried
/// when no single slip repairs the record, have a fifth of it each.
pub const MAX_READS: usize = 500_000;
/// Most bytes of candidate texts one search judges by the rules (those the automaton accepts;
/// about 600 of 80 characters).
pub const MAX_CHECKS: usize = 48_000;
/// Most repairs a report names.
pub const MAX_SHOWN: usize = 3;
/// How far from where the automaton stops, in bytes, the edits of a pair may be.
const PAIR_REACH: usize = 3;
/// Records longer than this are searched near the fault only (and no repair is called safe).
const WHOLE: usize = 256;

/// One slip, as a repair undoes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slip {
    /// The character at this byte deleted.
    Delete(usize),
    /// The character at this byte replaced by a byte of the alphabet.
    Replace(usize, u8),
    /// A byte of the alphabet inserted before this byte.
    Insert(usize, u8),
    /// The characters at this byte and the next swapped.
    Swap(usize),
}

/// The kinds of slip, as a search tries them at a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlipKind {
    Delete,
    Swap,
    Replace,
    Insert,
}

/// The order a search tries the slips at a place in, the likeliest first: the deletion (a key
/// hit twice, a space too many), the swap, the replacements, the insertions.
const ORDER: [SlipKind; 4] = [SlipKind::Delete, SlipKind::Swap, SlipKind::Replace, SlipKind::Insert];

impl SlipKind {
    /// True for the kinds that write a byte of the alphabet.
    fn writes_a_byte(self) -> bool {
        matches!(self, SlipKind::Replace | SlipKind::Insert)
    }

    /// The slip of this kind at `at`, writing `b` if it writes a byte.
    fn slip(self, at: usize, b: u8) -> Slip {
        match self {
            SlipKind::Delete => Slip::Delete(at),
            SlipKind::Swap => Slip::Swap(at),
            SlipKind::Replace => Slip::Replace(at, b),
            SlipKind::Insert => Slip::Insert(at, b),
        }
    }
}

/// The few bytes a slip writes (a character, or two swapped), kept inline.
#[derive(Clone, Copy)]
struct Written {
    bytes: [u8; 8],
    len: usize,
}

impl Written {
    /// Nothing (a deletion).
    const NOTHING: Self = Self { bytes: [0; 8], len: 0 };

    /// The characters `chars`, in order.
    fn of(chars: [char; 2]) -> Self {
        let mut w = Self::NOTHING;
        for c in chars {
            w.len += c.encode_utf8(&mut w.bytes[w.len..]).len();
        }
        w
    }

    /// The one byte `b`, an ASCII character of an automaton's alphabet.
    fn byte(b: u8) -> Self {
        let mut w = Self::NOTHING;
        w.bytes[0] = b;
        w.len = 1;
        w
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// The place of a text where slips are tried: its byte, and the two characters from there,
/// found once for all the slips at that byte.
#[derive(Clone, Copy)]
struct Here {
    at: usize,
    /// `at` is a character boundary.
    boundary: bool,
    first: Option<char>,
    second: Option<char>,
}

impl Here {
    fn of(text: &str, at: usize) -> Self {
        let char_at = |at: usize| match text.as_bytes().get(at) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            _ => text.get(at..).and_then(|rest| rest.chars().next()),
        };
        let first = char_at(at);
        let second = first.and_then(|a| char_at(at + a.len_utf8()));
        Self { at, boundary: text.is_char_boundary(at), first, second }
    }

    /// Where the two characters from here end (or the text does): every slip here edits
    /// within them.
    fn end(&self) -> usize {
        self.at + [self.first, self.second].iter().flatten().map(|c| c.len_utf8()).sum::<usize>()
    }
}

impl Slip {
    /// The byte where this slip is.
    fn at(self) -> usize {
        match self {
            Slip::Delete(at) | Slip::Replace(at, _) | Slip::Insert(at, _) | Slip::Swap(at) => at,
        }
    }

    /// The bytes of `text` this slip replaces and what it writes there, or `None` when it
    /// would change nothing or split a character.
    fn change(self, text: &str) -> Option<(Span, Written)> {
        self.change_here(&Here::of(text, self.at()))
    }

    /// [`Slip::change`], with the characters where the slip is (`here`, at its byte) found
    /// already.
    #[inline]
    fn change_here(self, here: &Here) -> Option<(Span, Written)> {
        let at = here.at;
        Some(match self {
            Slip::Delete(_) => (Span::new(at, at + here.first?.len_utf8()), Written::NOTHING),
            Slip::Replace(_, b) => {
                let c = here.first?;
                if c == char::from(b) {
                    return None;
                }
                (Span::new(at, at + c.len_utf8()), Written::byte(b))
            }
            Slip::Insert(_, b) => {
                here.boundary.then_some(())?;
                (Span::point(at), Written::byte(b))
            }
            Slip::Swap(_) => {
                let (a, b) = (here.first?, here.second?);
                if a == b {
                    return None;
                }
                (Span::new(at, at + a.len_utf8() + b.len_utf8()), Written::of([b, a]))
            }
        })
    }

    /// The edit of `text` this slip makes (see [`Slip::change`]).
    fn edit(self, text: &str) -> Option<Edit> {
        self.change(text).map(|(span, written)| Edit { span, replacement: written.as_str().to_owned() })
    }
}

/// What a search found: the distinct repaired texts' edits, likeliest first.
#[derive(Clone, Debug, Default)]
pub struct Repairs {
    /// The edits of each repair (one or two, in the order of the text), at most
    /// [`MAX_SHOWN`].
    pub found: Vec<Vec<Edit>>,
    /// How many distinct repairs were found: all there are when the search is `complete`; the
    /// search stops early once several leave no doubt which to show.
    pub count: usize,
    /// True when every repair of this size was tried, so that one found is the only one.
    pub complete: bool,
}

impl Repairs {
    /// True when there is exactly one repair, and nothing was left untried.
    pub fn is_sure(&self) -> bool {
        self.count == 1 && self.complete
    }
}

/// Where a record's findings are: what a search tries first, and where it must edit.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    /// The labels of its errors: slips nearest to them are tried first.
    pub near: Vec<Span>,
    /// The labels of its syntax errors: a repair must edit next to one of them (a slip that
    /// made a field unreadable is undone where the field is), or none.
    pub at: Vec<Span>,
}

impl Faults {
    /// The faults of `diagnostics`, the findings of a record, of which those at `syntax` are
    /// the faults its reading found (the others are the rules').
    pub fn of(diagnostics: &[Diagnostic], syntax: Vec<Span>) -> Self {
        Self { near: syntax_faults(diagnostics), at: syntax }
    }

    /// How far byte `at` is from the nearest fault, and how wide that fault is: a slip is
    /// looked for first on the characters a narrow label points at (a second king), then in
    /// the wide ones (a board with too many pieces).
    fn distance(&self, at: usize) -> (usize, usize) {
        self.near.iter().map(|s| (gap(*s, Span::point(at)), s.len())).min().unwrap_or((0, 0))
    }

    /// True when an edit of `span` may undo a syntax fault.
    fn allows(&self, span: Span) -> bool {
        self.at.is_empty() || self.at.iter().any(|s| gap(*s, span) <= 1)
    }
}

/// The places of the errors among `diagnostics`: every label of each (nothing is allocated
/// when there is no error).
pub fn syntax_faults(diagnostics: &[Diagnostic]) -> Vec<Span> {
    diagnostics.iter().filter(|d| d.is_error()).flat_map(|d| d.labels.iter().map(|l| l.span)).collect()
}

/// True when the two spans share a byte, or one is a point inside or at the edge of the other.
fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end || (a.is_empty() || b.is_empty()) && gap(a, b) == 0
}

/// The bytes between two spans (0 when they touch or overlap).
fn gap(a: Span, b: Span) -> usize {
    if a.end < b.start {
        b.start - a.end
    } else {
        a.start.saturating_sub(b.end)
    }
}

/// The character boundaries of `text` up to `limit`, nearest to `faults` first (by
/// [`Faults::distance`], then in the order of the text).
fn places(text: &str, faults: &Faults, limit: usize) -> Vec<usize> {
    let end = text.len().min(limit);
    let places = (0..=end).filter(|&at| text.is_char_boundary(at));
    // Each place with its key, found once: the keys differ (each holds its place), so an
    // unstable sort orders them as a stable one would. A key's three numbers are packed
    // into one when they fit (when the text and the faults end before `1 << BITS`, so do
    // the gaps and the faults' lengths), for a sort of plain integers.
    const BITS: u32 = 21;
    if text.len() < 1 << BITS && faults.near.iter().all(|s| s.end < 1 << BITS) {
        let mut keyed: Vec<u64> = places
            .map(|at| {
                let (gap, len) = faults.distance(at);
                ((gap as u64) << (2 * BITS)) | ((len as u64) << BITS) | at as u64
            })
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|key| (key & ((1 << BITS) - 1)) as usize).collect()
    } else {
        let mut keyed: Vec<((usize, usize), usize)> = places.map(|at| (faults.distance(at), at)).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, at)| at).collect()
    }
}

/// The cheap tests a search puts a single edit to before the rules judge it: each refuses an
/// edit that leaves the text invalid, told without reading the text it makes.
pub trait Refuse {
    /// True when writing `written` over the bytes `span` of the text leaves it invalid.
    fn refuse(&self, span: Span, written: &[u8]) -> bool;

    /// For the characters at `span` (the one or two a search tries its slips on): the slips of
    /// them that may pass, when [`Refuse::refuse`] refuses every other (see [`Kept`]). `None`
    /// when that cannot be told for the place as a whole.
    fn only_writes(&self, _span: Span) -> Option<Kept> {
        None
    }
}

/// The slips at a place that a refusal may let through ([`Refuse::only_writes`]): it refuses
/// every other slip there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The deletion of the first character.
    pub delete: bool,
    /// The swap of the two characters.
    pub swap: bool,
    /// The ASCII bytes that may be written over the first character ([`Bytes`]).
    pub replace: Bytes,
    /// The ASCII bytes that may be written before it.
    pub insert: Bytes,
}

impl Kept {
    /// The slips both keep: at a place where two refusals each refuse all but those they keep,
    /// the two together refuse all but these.
    pub const fn and(self, other: Self) -> Self {
        Self {
            delete: self.delete && other.delete,
            swap: self.swap && other.swap,
            replace: Bytes(self.replace.0 & other.replace.0),
            insert: Bytes(self.insert.0 & other.insert.0),
        }
    }
}

/// A set of ASCII bytes, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bytes(pub u128);

impl Bytes {
    /// The ASCII bytes of `bytes`.
    pub const fn of(bytes: &[u8]) -> Self {
        let mut set = 0u128;
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] < 128 {
                set |= 1 << bytes[i];
            }
            i += 1;
        }
        Self(set)
    }

    /// True when `b` is in the set.
    #[cfg(test)]
    pub fn has(self, b: u8) -> bool {
        b < 128 && self.0 >> b & 1 == 1
    }

    /// The bytes of the set, in byte order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            let b = rest.trailing_zeros();
            rest &= rest.wrapping_sub(1);
            u8::try_from(b).ok().filter(|&b| b < 128)
        })
    }

    /// The bytes in either set.
    #[must_use]
    pub const fn or(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl<F: Fn(Span, &[u8]) -> bool> Refuse for F {
    fn refuse(&self, span: Span, written: &[u8]) -> bool {
        self(span, written)
    }
}

/// A search for the repairs of one record.
struct Search<'a, V, R> {
    text: &'a str,
    automaton: &'a RuleDfa,
    /// The automaton's alphabet, as a set.
    alphabet: Bytes,
    /// The automaton's states after each prefix of the text.
    prefix: Vec<regex_automata::util::primitives::StateID>,
    /// For a text the grammar accepts: `None` if it breaks a rule, else its warnings.
    valid: V,
    /// True for a single edit (the bytes it replaces, what it writes) that leaves the text
    /// invalid, told cheaply: refused before `valid` sees it.
    refuse: R,
    reads: usize,
    checks: usize,
    /// The bytes the automaton may read in this stage of the search.
    budget: usize,
    /// The place being tried lies within a fault's characters: the search does not settle.
    in_fault: bool,
    /// Candidate texts already judged.
    seen: HashSet<Box<str>, BuildHasherDefault<FxHasher>>,
    /// The candidate text being tried (one buffer for all).
    candidate: String,
    out: Found,
}

/// The repairs a search has found so far, each with the cost of the text it makes.
#[derive(Default)]
struct Found {
    found: Vec<(Vec<Edit>, u64)>,
    /// How many of `found` leave no warning.
    good: usize,
    count: usize,
    complete: bool,
}

/// Most repairs a search keeps, to choose the likeliest among.
const KEPT: usize = 64;

impl Found {
    /// True when more repairs would seldom change the report: [`SETTLED`] were found (so none
    /// is sure), [`MAX_SHOWN`] of them leaving no warning (so few found later could rank
    /// before them: among repairs as likely, the one found first, nearer the faults, comes
    /// first).
    fn settled(&self) -> bool {
        self.count >= SETTLED && self.good >= MAX_SHOWN
    }

    /// Keeps a repair, the edits `edits` makes, whose text has cost `cost`.
    fn keep(&mut self, edits: Vec<Edit>, cost: u64) {
        self.good += usize::from(cost < WITHOUT_WARNINGS);
        self.found.push((edits, cost));
    }
}

impl<'a, V: Fn(&str) -> Option<u64>, R: Refuse> Search<'a, V, R> {
    /// The byte positions where a slip may be undone, nearest to the faults first, up to
    /// `limit` (the place where the automaton stopped: a fault of the grammar is at or before
    /// it).
    fn places(&self, faults: &Faults, limit: usize) -> Vec<usize> {
        places(self.text, faults, limit)
    }

    /// Every slip at `at`, in the order of [`ORDER`]: the replacements and the insertions by
    /// each byte of the alphabet.
    fn slips(&self, at: usize) -> impl Iterator<Item = Slip> + 'a {
        let alphabet = self.automaton.alphabet();
        ORDER.into_iter().flat_map(move |kind| {
            let bytes: &[u8] = if kind.writes_a_byte() { alphabet } else { &[0] };
            bytes.iter().map(move |&b| kind.slip(at, b))
        })
    }

    /// True while the budget lasts and the report is not settled.
    fn open(&self) -> bool {
        self.reads < self.budget && self.checks < MAX_CHECKS && (self.in_fault || !self.out.settled())
    }

    /// Judges `fixed`, a text the grammar accepts: a repair when the rules find it valid, by
    /// the edits `edits` makes.
    fn judge(&mut self, fixed: &str, edits: impl FnOnce() -> Vec<Edit>) {
        if self.seen.contains(fixed) {
            return;
        }
        self.checks += fixed.len();
        if let Some(cost) = (self.valid)(fixed) {
            self.out.count += 1;
            if self.out.found.len() < KEPT {
                self.out.keep(edits(), cost);
            }
        }
        self.seen.insert(fixed.into());
    }

    /// Tries one edit, writing `written` over `span`: the automaton reads on from the state
    /// before it, until it is back in the text's own states. (The budget counts every byte
    /// after the edit, however few are read.)
    #[inline(always)]
    fn try_one(&mut self, span: Span, written: Written) {
        self.reads += self.text.len() - span.start + written.len;
        // The automaton's first steps, then the cheap refusal, then the rest of the automaton's
        // reading: each refuses many of the edits the one before lets through, and costs more
        // (all three only answer, so the edits judged are the same in any order).
        let Some(state) = self.automaton.edit_state(&self.prefix, span.start, written.as_bytes()) else { return };
        if self.refuse.refuse(span, written.as_bytes()) {
            return;
        }
        let rest = self.text.as_bytes().get(span.end..).unwrap_or_default();
        if !self.automaton.accepts_from(&self.prefix, state, span.end, rest) {
            return;
        }
        self.judge_one(span, written);
    }

    /// Judges the text one edit makes, an edit the automaton accepts and nothing refuses (out
    /// of line: few edits come this far).
    #[inline(never)]
    fn judge_one(&mut self, span: Span, written: Written) {
        let (Some(before), Some(after)) = (self.text.get(..span.start), self.text.get(span.end..)) else { return };
        let mut fixed = std::mem::take(&mut self.candidate);
        fixed.clear();
        fixed.push_str(before);
        fixed.push_str(written.as_str());
        fixed.push_str(after);
        self.judge(&fixed, || vec![Edit { span, replacement: written.as_str().to_owned() }]);
        self.candidate = fixed;
    }

    /// Every single slip, nearest to the faults first: at each place, those of
    /// [`Search::slips`], in its order.
    fn singles(&mut self, faults: &Faults, limit: usize) {
        let automaton: &'a RuleDfa = self.automaton;
        let alphabet = automaton.alphabet();
        for at in self.places(faults, limit) {
            // The places within a fault's own characters are all tried before the search
            // settles: the likeliest repair may be at its far end (the `L` lost at a rank's end).
            self.in_fault = faults.distance(at).0 == 0 && !faults.near.is_empty();
            // Every slip here edits within the two characters here (a swap's span): none may
            // undo a syntax fault when an edit of both may not.
            let here = Here::of(self.text, at);
            if !faults.allows(Span::new(at, here.end())) {
                continue;
            }
            let kept = self.refuse.only_writes(Span::new(at, here.end()));
            #[cfg(test)]
            let kept = kept.filter(|_| !testing::SLIP_BY_SLIP.get());
            if let Some(kept) = kept {
                match self.take_whole(&here, kept, faults) {
                    Some(true) => continue,
                    Some(false) => return,
                    None => {} // the budget may run out here: every slip as usual
                }
            }
            // The slips of each kind in the order of [`ORDER`], as [`Search::slips`] gives them.
            // Every replacement here writes over the same character, and every insertion at
            // the same point: whether the faults allow it is asked once for all.
            for kind in ORDER {
                let span = match kind {
                    SlipKind::Delete | SlipKind::Swap => {
                        if !self.open() {
                            self.out.complete = false;
                            return;
                        }
                        match kind.slip(at, 0).change_here(&here) {
                            Some((span, written)) if faults.allows(span) => self.try_one(span, written),
                            _ => {}
                        }
                        continue;
                    }
                    SlipKind::Replace => here.first.map(|c| Span::new(at, at + c.len_utf8())),
                    SlipKind::Insert => here.boundary.then_some(Span::point(at)),
                };
                let span = span.filter(|&span| faults.allows(span));
                for &b in alphabet {
                    if !self.open() {
                        self.out.complete = false;
                        return;
                    }
                    match span {
                        // A character replaced by itself is no slip.
                        Some(_) if kind == SlipKind::Replace && here.first == Some(char::from(b)) => {}
                        Some(span) => self.try_one(span, Written::byte(b)),
                        None => {}
                    }
                }
            }
        }
    }

    /// The slips at a place where the refusal refuses all but those of `kept`
    /// ([`Refuse::only_writes`]): only those are tried. The others are counted in the budget as
    /// [`Search::singles`] counts them (so that the search stops where it would have, and
    /// settles as it would have), without reading any. True to go on to the next place, false
    /// when the search stops here; `None`, trying nothing, when the budget could run out at
    /// this place (then each slip is tried as usual).
    fn take_whole(&mut self, here: &Here, kept: Kept, faults: &Faults) -> Option<bool> {
        let alphabet = self.automaton.alphabet();
        let at = here.at;
        // What a slip here adds to the reads: the rest of the text, and what it writes.
        let rest = self.text.len() - at;
        // Each place has the same slips, each asking first whether the search is open: the
        // deletion, the swap, then a replacement and an insertion by each byte of the
        // alphabet. Between the slips tried, only the reads change, and they cannot reach the
        // budget at this place; so the search stops here exactly when it is not open before
        // the first slip, before a slip tried, or after the last slip tried unless that is the
        // last slip of the place.
        if self.reads + (2 + 2 * alphabet.len()) * (rest + 8) >= self.budget {
            return None;
        }
        if !self.open() {
            self.out.complete = false;
            return Some(false);
        }
        let allowed = |span: Span| faults.allows(span).then_some(span);
        // The deletion and the swap, when kept; the reads of those refused are counted.
        let mut skipped = 0;
        let mut first_two = [None; 2];
        for (slot, (kind, keep)) in first_two.iter_mut().zip([(SlipKind::Delete, kept.delete), (SlipKind::Swap, kept.swap)]) {
            if let Some((span, written)) = kind.slip(at, 0).change_here(here) {
                if faults.allows(span) {
                    if keep {
                        *slot = Some((span, written));
                    } else {
                        skipped += rest + written.len;
                    }
                }
            }
        }
        let replaced = here.first.and_then(|c| allowed(Span::new(at, at + c.len_utf8())));
        let inserted = if here.boundary { allowed(Span::point(at)) } else { None };
        // A character replaced by itself is no slip.
        let itself = here.first.and_then(|c| u8::try_from(c).ok()).map_or(Bytes(0), |b| Bytes::of(&[b]));
        let replaces = Bytes(self.alphabet.0 & kept.replace.0 & !itself.0);
        let inserts = Bytes(self.alphabet.0 & kept.insert.0);
        if replaced.is_some() {
            skipped += (self.alphabet.0 & !replaces.0 & !itself.0).count_ones() as usize * (rest + 1);
        }
        if inserted.is_some() {
            skipped += (self.alphabet.0 & !inserts.0).count_ones() as usize * (rest + 1);
        }
        self.reads += skipped;
        let last = alphabet.last().copied();
        let mut tried_last = None;
        for (span, written) in first_two.into_iter().flatten() {
            if !self.open() {
                self.out.complete = false;
                return Some(false);
            }
            self.try_one(span, written);
            tried_last = Some(false);
        }
        for (kind, span, bytes) in [(SlipKind::Replace, replaced, replaces), (SlipKind::Insert, inserted, inserts)] {
            let Some(span) = span else { continue };
            for b in bytes.iter() {
                if !self.open() {
                    self.out.complete = false;
                    return Some(false);
                }
                self.try_one(span, Written::byte(b));
                tried_last = Some(kind == SlipKind::Insert && Some(b) == last);
            }
        }
        #[cfg(test)]
        testing::TOLD_WHOLE.set(testing::TOLD_WHOLE.get() + 1);
        if tried_last == Some(false) && !self.open() {
            self.out.complete = false;
            return Some(false);
        }
        Some(true)
    }

    /// Pairs of slips within [`PAIR_REACH`] of `focus`, the second after the first, and at or
    /// before the place where the automaton stops reading the text the first makes.
    fn pairs(&mut self, focus: usize, limit: usize) {
        self.out.complete = false;
        let near = Faults { near: vec![Span::point(focus)], at: Vec::new() };
        let places: Vec<usize> =
            self.places(&near, limit).into_iter().filter(|at| at.abs_diff(focus) <= PAIR_REACH).collect();
        for &first_at in &places {
            for first in self.slips(first_at) {
                let Some(e1) = first.edit(self.text) else { continue };
                let Some(once) = apply_edits(self.text, std::slice::from_ref(&e1)) else { continue };
                self.reads += once.len();
                // Where the automaton stops after the first edit, in the original text's bytes.
                let stop = match self.automaton.reads(&once) {
                    Ok(()) => continue, // a single slip, already tried
                    Err(at) => (at + e1.span.len()).saturating_sub(e1.replacement.len()),
                };
                for &second_at in places.iter().filter(|&&at| at >= e1.span.end && at <= stop) {
                    for second in self.slips(second_at) {
                        if !self.open() {
                            return;
                        }
                        let Some(e2) = second.edit(self.text) else { continue };
                        if e2.span.start < e1.span.end || (e2.span.is_empty() && e2.span.start == e1.span.end) {
                            continue;
                        }
                        let edits = [e1.clone(), e2];
                        let Some(fixed) = apply_edits(self.text, &edits) else { continue };
                        self.reads += fixed.len();
                        if self.automaton.reads(&fixed).is_ok() {
                            self.judge(&fixed, || edits.to_vec());
                        }
                    }
                }
            }
        }
    }

    /// One character written for another wherever it stands (`,` for `/` between every two
    /// ranks): each character of the text that occurs more than once, replaced everywhere by
    /// each character of the alphabet.
    fn substitutions(&mut self) {
        let mut chars: Vec<char> = self.text.chars().collect();
        chars.sort_unstable();
        // The characters met more than once.
        let repeated: Vec<char> = chars.chunk_by(|a, b| a == b).filter(|run| run.len() > 1).map(|run| run[0]).collect();
        for c in repeated {
            for &b in self.automaton.alphabet() {
                if !self.open() {
                    self.out.complete = false;
                    return;
                }
                let with = char::from(b);
                if with == c {
                    continue;
                }
                let edits: Vec<Edit> = self
                    .text
                    .match_indices(c)
                    .map(|(at, m)| Edit { span: Span::new(at, at + m.len()), replacement: with.to_string() })
                    .collect();
                let fixed = self.text.replace(c, with.encode_utf8(&mut [0; 4]));
                self.reads += fixed.len();
                if self.automaton.reads(&fixed).is_ok() {
                    self.judge(&fixed, || edits);
                }
            }
        }
    }
}

/// The repairs of `text`, an invalid record with `faults`: single slips first; if none, and
/// the grammar refuses the record, one character written for another wherever it stands; if
/// none, pairs of slips near the place where the automaton of the record's rule stops
/// reading. `valid` judges a text the automaton accepts by the rules: `None` if it breaks one,
/// else its cost ([`cost`]: its warnings, then the pieces its position lacks; a repair that
/// costs less is likelier). A single edit that `refuse`
/// tells cheaply leaves the text invalid (a rank of the wrong width, told from the ranks'
/// widths: [`super::grid::RankWidths`]) is refused before `valid` sees it.
pub fn search(
    text: &str,
    faults: &Faults,
    automaton: &RuleDfa,
    refuse: impl Refuse,
    valid: impl Fn(&str) -> Option<u64>,
) -> Repairs {
    let Some(prefix) = automaton.prefix(text) else { return Repairs::default() };
    let stop = automaton.reads_on(&prefix, 0, &[text.as_bytes()]).err();
    let limit = stop.unwrap_or(text.len());
    let mut s = Search {
        text,
        automaton,
        alphabet: Bytes::of(automaton.alphabet()),
        prefix,
        valid,
        refuse,
        reads: 0,
        checks: 0,
        budget: MAX_READS,
        in_fault: false,
        seen: HashSet::default(),
        candidate: String::with_capacity(text.len() + 8),
        out: Found { complete: text.len() <= WHOLE, ..Found::default() },
    };
    if text.len() > WHOLE {
        // A long record (EPD operations): only next to its faults.
        let near = Faults { near: faults.near.clone(), at: faults.near.clone() };
        s.singles(&near, limit);
    } else {
        s.singles(faults, limit);
    }
    s.in_fault = false;
    if s.out.count == 0 && stop.is_some() {
        // A fresh budget: a substitution costs a read for each character and replacement.
        (s.reads, s.checks, s.budget) = (0, 0, MAX_READS / 5);
        s.substitutions();
    }
    if s.out.count == 0 {
        if let Some(stop) = stop {
            (s.reads, s.checks, s.budget) = (0, 0, MAX_READS / 5);
            s.pairs(stop, limit);
        }
    }
    // Of repairs as likely by what they make, one that undoes a slip that wrote no character of
    // its own comes first: a lost character (any may be lost) or two swapped; a slip that adds
    // or replaces a character writes one particular character of many.
    let text = s.text;
    s.out.found.sort_by_key(|(edits, cost)| (*cost, !writes_nothing_new(text, edits)));
    s.out.found.truncate(MAX_SHOWN);
    Repairs {
        found: s.out.found.into_iter().map(|(edits, _)| edits).collect(),
        count: s.out.count,
        complete: s.out.complete,
    }
}

/// True when `edits`, one edit of `text`, undoes a slip that wrote no character of its own:
/// it gives back a character a slip lost, or swaps back two characters.
fn writes_nothing_new(text: &str, edits: &[Edit]) -> bool {
    let old = |edit: &Edit| text.get(edit.span.start..edit.span.end).unwrap_or("");
    matches!(edits, [edit] if edit.span.is_empty() || swaps(old(edit), &edit.replacement))
}

/// True when `replacement` is the two characters of `old` swapped.
fn swaps(old: &str, replacement: &str) -> bool {
    old.chars().count() == 2 && replacement.chars().rev().eq(old.chars())
}

/// How far a repaired record's board is from a game's likeliest boards, for ranking repairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Likeness {
    /// The pieces of the set a game starts with that are not on the board (nor in a hand).
    pub missing: usize,
    /// The pieces that stand where the start position has the same piece.
    pub at_home: usize,
    /// The captures that the pawns' files call for and that the other side's lost pieces
    /// cannot account for (chess: a pawn leaves its file only by capturing).
    pub unexplained_captures: usize,
    /// The captures that the pawns' files call for (chess), explained or not.
    pub captures: usize,
    /// The pieces beyond the set a game starts with (each a promoted pawn).
    pub promoted: usize,
    /// The squares of the numbers of each kind of piece of the set missing, summed (chess): of
    /// two boards that lack as many pieces, the one that lacks fewer alike (a lost piece given
    /// back is likelier one of a kind its side lacks several of).
    pub missing_alike: usize,
    /// The signs, in the record's other fields, that its board is not the author's (chess:
    /// [`crate::chess::Board::likeness`]).
    pub implausible: usize,
}

/// The cost of a repaired record, which has `warnings`, with its board's [`Likeness`]. Of two
/// repairs, the one with fewer warnings is likelier; then the one whose pawns need no capture
/// that did not happen; then the one with fewer pieces beyond the set (each needs a
/// promotion); then the one with more of the set (a slip more often loses a character than
/// adds one: a lost `L` of a full board is likelier than a rank that never had it); then the
/// one nearer the start position's shape; then the one whose pawns call for fewer captures;
/// then the one that lacks fewer pieces alike; then the one whose other fields agree with its
/// board.
pub fn cost(warnings: usize, likeness: Likeness) -> u64 {
    let Likeness { missing, at_home, unexplained_captures, captures, promoted, missing_alike, implausible } = likeness;
    let keys = [unexplained_captures, promoted, missing, KEY - at_home.min(KEY), captures, missing_alike, implausible];
    // Eight keys of seven bits: a `u64` on every target (the browser's `usize` has 32 bits).
    keys.iter().fold(warnings.min(KEY) as u64, |cost, &key| cost * (KEY as u64 + 1) + key.min(KEY) as u64)
}

/// The largest value each key of a [`cost`] counts to.
const KEY: usize = 127;

/// The costs ([`cost`]) of the repairs that leave no warning.
const WITHOUT_WARNINGS: u64 = (KEY as u64 + 1).pow(7);

/// How many repairs a search finds before it settles (with [`MAX_SHOWN`] of them leaving no
/// warning): enough to rank them by their pieces.
const SETTLED: usize = 12;

/// How a person reads an edit: "delete `-`", "`K` for `k`", "insert ` `", "swap `ab`".
fn edit_words(text: &str, edit: &Edit) -> String {
    let old = text.get(edit.span.start..edit.span.end).unwrap_or("");
    match (old.is_empty(), edit.replacement.is_empty()) {
        (true, _) => format!("insert `{}`", edit.replacement),
        (false, true) => format!("delete `{}`", old),
        (false, false) if swaps(old, &edit.replacement) => {
            format!("swap `{}`", old)
        }
        (false, false) => format!("`{}` for `{}`", edit.replacement, old),
    }
}

/// The part of the repaired text around `edits` a person needs to see it: the fields or ranks
/// the edits touch (between spaces and slashes), with one more on each side when that is short.
fn excerpt(text: &str, edits: &[Edit]) -> Option<String> {
    let fixed = apply_edits(text, edits)?;
    let first = edits.first()?;
    let last = edits.last()?;
    // Where the edits lie in the repaired text.
    let grown: isize = edits.iter().map(|e| e.replacement.len() as isize - e.span.len() as isize).sum();
    let start = first.span.start;
    let end = (last.span.end as isize + grown).max(start as isize) as usize;
    let delimiter = |c: char| c == ' ' || c == '/';
    let left = |from: usize| fixed[..from].rfind(delimiter).map_or(0, |i| i + 1);
    let right = |from: usize| fixed[from..].find(delimiter).map_or(fixed.len(), |i| from + i);
    let (mut a, mut b) = (left(start), right(end.min(fixed.len())));
    if b - a < 8 {
        a = left(a.saturating_sub(1));
        b = right((b + 1).min(fixed.len()));
    }
    // The short fields at the end of a record are shown whole.
    if fixed.len() - b <= 12 {
        b = fixed.len();
    }
    let head = if a > 0 { "…" } else { "" };
    let tail = if b < fixed.len() { "…" } else { "" };
    Some(format!("{head}{}{tail}", fixed.get(a..b)?))
}

/// Folds `diagnostics`, the findings of `text`, into one report of the fault `repairs`
/// undo: the error that offers the likeliest repair as its own fix, else the one nearest to
/// its first edit, keeps its code and words, and gains a label on the edit, the repairs in its
/// help and as fixes (safe only when the repair is sure), and the other errors as labels of
/// its own (they follow from the same slip; the repair settles them all). Warnings stay as
/// they are. Nothing changes when no repair was found.
pub fn fold(text: &str, diagnostics: &mut Vec<Diagnostic>, repairs: &Repairs) {
    let Some(likeliest) = repairs.found.first() else { return };
    let Some(edit) = likeliest.first() else { return };
    // The finding that offers the repair itself, else the one nearest to its edit.
    let key = |d: &Diagnostic| (!d.fixes.iter().any(|f| &f.edits == likeliest), gap(d.span(), edit.span));
    let Some(kept) =
        (0..diagnostics.len()).filter(|&i| diagnostics[i].is_error()).min_by_key(|&i| key(&diagnostics[i]))
    else {
        return;
    };
    let mut report = diagnostics[kept].clone();
    let mut folded = Vec::new();
    let mut i = 0;
    diagnostics.retain(|d| {
        let keep = !d.is_error() || i == kept;
        if !keep {
            folded.push(d.clone());
        }
        i += 1;
        keep
    });
    // A finding on the characters an edit changes is said by the edit's label.
    for other in folded.into_iter().filter(|d| !likeliest.iter().any(|e| overlaps(e.span, d.span()))) {
        report = report.with(other.span(), other.message);
    }
    for e in likeliest {
        report = report.with(e.span, edit_words(text, e));
    }
    let shown: Vec<String> =
        repairs.found.iter().filter_map(|edits| excerpt(text, edits)).map(|s| format!("`{s}`")).collect();
    let guess = match shown.as_slice() {
        [] => String::new(),
        [one] => format!("did you mean {one}?"),
        [init @ .., last] => format!("did you mean {} or {last}?", init.join(", ")),
    };
    report.help = Some(match report.help.take() {
        Some(help) if !guess.is_empty() => format!("{guess} {}", capitalised(&help)),
        Some(help) => help,
        None => guess,
    });
    // A repair is applied unasked only when it is sure and keeps the record's meaning: it
    // touches nothing but spacing, separators and punctuation (a piece, a square or a count it
    // changed would be a guess, however sure).
    // The rule's own safe fix (` 0 1` for a FEN without its counters) stays safe.
    let own = report.fixes.iter().any(|f| f.applicability == Applicability::Safe && &f.edits == likeliest);
    let keeps_meaning = own
        || likeliest.iter().all(|e| {
            let removed = text.get(e.span.start..e.span.end).unwrap_or("x");
            removed.chars().chain(e.replacement.chars()).all(is_form_char)
        });
    let applicability = if repairs.is_sure() && keeps_meaning { Applicability::Safe } else { Applicability::Unsafe };
    report.fixes = repairs
        .found
        .iter()
        .enumerate()
        .map(|(n, edits)| Fix {
            edits: edits.clone(),
            applicability: if n == 0 { applicability } else { Applicability::Unsafe },
        })
        .collect();
    if let Some(slot) = diagnostics.iter_mut().find(|d| d.is_error()) {
        *slot = report;
    }
}

/// A character that only shapes a record: spacing, the separators of its fields and ranks, and
/// punctuation written for them (`,` for `/`). Letters, digits and `+` say a piece, a square or
/// a count.
fn is_form_char(c: char) -> bool {
    !c.is_alphanumeric() && c != '+'
}

/// `text` with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Looks for the repairs of an invalid record and folds its findings into the one report of
/// the fault they undo (see [`search`] and [`fold`]). `syntax` are the places of the faults
/// its reading found, before the rules' ([`syntax_faults`] of them). A record with no error is
/// left alone.
pub fn repair(
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
    syntax: Vec<Span>,
    automaton: &RuleDfa,
    refuse: impl Refuse,
    valid: impl Fn(&str) -> Option<u64>,
) {
    if !diagnostics.iter().any(Diagnostic::is_error) {
        return;
    }
    // A finding's own safe fix (a space too many, a look-alike) that makes the record valid is
    // what its author meant: it is the repair, without a search.
    let makes_valid = |fix: &Fix| {
        let fixed = fix.apply(text)?;
        (automaton.reads(&fixed).is_ok() && valid(&fixed).is_some()).then(|| fix.edits.clone())
    };
    let errors = || diagnostics.iter().filter(|d| d.is_error());
    if let Some(edits) = errors().find_map(|d| makes_valid(d.safe_fix()?)) {
        fold(text, diagnostics, &Repairs { found: vec![edits], count: 1, complete: true });
        return;
    }
    // What the grammar says completes a record that ends too early (`";` after an operand that
    // opens a quote) loses nothing of it: after the single slips, it comes before the repairs
    // of two edits, which change what is written.
    let completes = |fix: &&Fix| fix.edits.iter().all(|e| e.span == Span::point(text.len()));
    let completion = errors().find_map(|d| makes_valid(d.fixes.iter().find(completes)?));
    let mut repairs = search(text, &Faults::of(diagnostics, syntax), automaton, refuse, valid);
    if let Some(edits) = completion {
        let new = apply_edits(text, &edits);
        if !repairs.found.iter().any(|found| apply_edits(text, found) == new) {
            let at = repairs.found.iter().take_while(|found| found.len() == 1).count();
            repairs.found.insert(at, edits);
            repairs.found.truncate(MAX_SHOWN);
            repairs.count += 1;
            repairs.complete = false;
        }
    }
    fold(text, diagnostics, &repairs);
}

/// The edit distance between two texts, in characters: how many to delete, insert or replace
/// to make one the other (Levenshtein's).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb { diagonal } else { 1 + diagonal.min(above).min(row[j]) };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// What the formats' tests of the search use: a search slip by slip, to hold the search that
/// takes places whole to it.
#[cfg(test)]
pub(crate) mod testing {
    thread_local! {
        /// Set by a test: every place is searched slip by slip, as if no refusal told the
        /// bytes a place may take ([`super::Refuse::only_writes`]).
        pub(crate) static SLIP_BY_SLIP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        /// How many places a search took whole ([`super::Search::take_whole`]).
        pub(crate) static TOLD_WHOLE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// The reports of `texts` (by `check`), the places that could be taken whole taken so, and
    /// searched slip by slip: they are the same, word for word. Returns how many places were
    /// taken whole.
    pub(crate) fn same_reports_slip_by_slip<C: std::fmt::Debug>(texts: &[String], check: impl Fn(&str) -> C) -> usize {
        TOLD_WHOLE.set(0);
        for text in texts {
            let whole = format!("{:?}", check(text));
            SLIP_BY_SLIP.set(true);
            let slip_by_slip = format!("{:?}", check(text));
            SLIP_BY_SLIP.set(false);
            assert_eq!(whole, slip_by_slip, "{text:?}");
        }
        TOLD_WHOLE.get()
    }
}

#[cfg(test)]
mod tests {
    use super::{places, Bytes, Faults};
    use crate::span::Span;

    #[test]
    fn a_set_of_bytes_gives_its_ascii_bytes_in_byte_order() {
        let set = Bytes::of(b"z/ a\x7f/\x80");
        assert_eq!(set.iter().collect::<Vec<u8>>(), b" /az\x7f");
        assert!(set.has(b'a') && !set.has(b'b') && !set.has(0x80));
        assert_eq!(set.or(Bytes::of(b"\0")).iter().next(), Some(0));
        assert_eq!(Bytes::default().iter().next(), None);
    }

    #[test]
    fn the_places_are_ordered_as_a_sort_by_their_distance_to_the_faults_orders_them() {
        let texts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "K é k",
            "",
        ];
        let spans =
            [Span::new(3, 5), Span::point(0), Span::new(10, 30), Span::point(4), Span::new(4, 6), Span::new(40, 41)];
        for text in texts {
            for n in 0..=spans.len() {
                for first in 0..spans.len() {
                    let near: Vec<Span> = spans.iter().cycle().skip(first).take(n).copied().collect();
                    let faults = Faults { near, at: Vec::new() };
                    for limit in [0, 5, text.len(), usize::MAX] {
                        let mut sorted: Vec<usize> =
                            (0..=text.len().min(limit)).filter(|&at| text.is_char_boundary(at)).collect();
                        sorted.sort_by_cached_key(|&at| (faults.distance(at), at));
                        assert_eq!(places(text, &faults, limit), sorted, "{text:?} {:?} {limit}", faults.near);
                    }
                }
            }
        }
    }
}
