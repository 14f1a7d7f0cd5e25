//! The compiler half of [`super::grammar`]: a grammar's rules, as pest's meta-parser reads them,
//! turned into regular expressions, each checked to read as pest reads it, and into automata.
//!
//! It uses nothing else of kifu, so that `build.rs` runs this very code to make the automata of
//! kifu's own grammars ([`SHIPPED`]) when kifu is built: a program that checks records does not
//! spend its first milliseconds compiling them, and they are the ones it would compile.

use std::collections::HashMap;

use pest_meta::ast::Expr;

/// kifu's grammars by name, each with the files of `grammar/` it joins (with a line end between
/// them, in the order pest_derive reads them).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // build.rs reads it too
pub const GRAMMARS: &[(&str, &[&str])] = &[
    ("sfen", &["sfen.pest", "common.pest"]),
    ("fen", &["fen.pest", "common.pest"]),
    ("psn", &["psn.pest", "common.pest"]),
    ("kif", &["kif.pest"]),
    ("csa", &["csa.pest"]),
    ("common", &["common.pest"]),
];

/// The automata kifu's formats make from its own grammars: the grammar's name in [`GRAMMARS`],
/// the kind of automaton and the rule. `build.rs` makes them when kifu is built (a test checks
/// that each is the automaton compiled now, and that the formats compile no other).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // build.rs reads it too
pub const SHIPPED: &[(&str, Kind, &str)] = &[
    ("sfen", Kind::Whole, "record"),
    ("sfen", Kind::Whole, "usi_record"),
    ("sfen", Kind::Whole, "sfen2007_record"),
    ("sfen", Kind::Choice, "row_lenient"),
    ("fen", Kind::Whole, "fen_record"),
    ("fen", Kind::Whole, "fen960_record"),
    ("fen", Kind::Whole, "epd_record"),
    ("fen", Kind::Whole, "epd960_record"),
    ("fen", Kind::Whole, "epd_operations_field"),
    ("fen", Kind::Choice, "rank_lenient"),
    ("psn", Kind::Choice, "word"),
    ("psn", Kind::Whole, "header"),
    ("psn", Kind::Whole, "header_named"),
    ("psn", Kind::Prefix, "paren_clock"),
    ("psn", Kind::Whole, "won_line"),
    ("psn", Kind::Whole, "variation_line"),
    ("kif", Kind::Whole, "move_line"),
    ("kif", Kind::Whole, "ki2_line"),
    ("csa", Kind::Whole, "comment"),
    ("csa", Kind::Whole, "name"),
    ("csa", Kind::Whole, "info"),
    ("csa", Kind::Whole, "version"),
    ("csa", Kind::Whole, "handicap"),
    ("csa", Kind::Whole, "separator"),
    ("csa", Kind::Whole, "move_stmt"),
    ("csa", Kind::Whole, "time"),
    ("csa", Kind::Whole, "special"),
    ("csa", Kind::Whole, "side"),
    ("common", Kind::Whole, "field"),
    ("common", Kind::Whole, "gap"),
];

/// The kinds of automaton a rule compiles to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Matches exactly the texts the rule matches as a whole.
    Whole,
    /// Finds the start of a longer text that the rule matches, as pest does when the rule is
    /// called there.
    Prefix,
    /// The alternatives of a choice rule together, each a pattern of its own: a text is the
    /// first alternative that matches it whole, as pest's ordered choice reads it.
    Choice,
}

/// A rule's deterministic automaton.
pub type Dfa = regex_automata::dfa::dense::DFA<Vec<u32>>;

/// A grammar's rules, read once with pest's meta-parser.
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) rules: HashMap<String, Expr>,
    /// The name in [`GRAMMARS`] of this grammar, if it is one of kifu's own: its automata in
    /// [`SHIPPED`] were made when kifu was built.
    pub(crate) shipped: Option<&'static str>,
}

impl Rules {
    /// The grammar of `rules`, as pest's meta-parser gives them (name and expression).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))] // build.rs reads it too
    pub fn from_parsed(rules: impl IntoIterator<Item = (String, Expr)>) -> Self {
        Self { rules: rules.into_iter().collect(), shipped: None }
    }

    /// Reads the grammar made of `sources` with pest's meta-parser, as [`Rules::parse`] reads
    /// a grammar that is not kifu's own.
    #[cfg(feature = "internals")]
    pub fn read(sources: &[&str]) -> Result<Self, CompileError> {
        let text = sources.join("\n");
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, &text)
            .map_err(|e| CompileError::Grammar(e.to_string()))?;
        let rules = pest_meta::parser::consume_rules(pairs).map_err(|errors| {
            CompileError::Grammar(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
        })?;
        Ok(Self::from_parsed(rules.into_iter().map(|r| (r.name, r.expr))))
    }

    /// The names of the grammar's rules, sorted.
    #[cfg(feature = "internals")]
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.rules.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }

    /// `rule`'s language as a regular expression without anchors (`SOI` and `EOI` match the
    /// empty text), for generating samples of it; see [`Rules::to_regex`].
    #[cfg(feature = "internals")]
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

    /// The automaton of `kind` for `rule`: refused when the rule is not regular, or when pest
    /// would read it differently (an ordered choice or a repetition that commits where the
    /// automaton would not: each operator is weighed against what follows it).
    pub fn automaton(&self, kind: Kind, rule: &str) -> Result<Dfa, CompileError> {
        match kind {
            Kind::Whole => dense_all(&[self.sound_regex(rule, Mode::Whole)?]),
            Kind::Prefix => dense_all(&[self.sound_regex(rule, Mode::Prefix)?]),
            Kind::Choice => {
                let names = self.alternatives(rule)?;
                dense_all(&names.iter().map(|n| self.sound_regex(n, Mode::Whole)).collect::<Result<Vec<_>, _>>()?)
            }
        }
    }
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

/// Builds the anchored DFA of `pattern` that reports every match, so that a match state at the
/// end of the input says that the whole input is in the language.
fn dense_all(patterns: &[String]) -> Result<regex_automata::dfa::dense::DFA<Vec<u32>>, CompileError> {
    use regex_automata::dfa::{dense, StartKind};
    dense::Builder::new()
        .configure(dense::Config::new().match_kind(regex_automata::MatchKind::All).start_kind(StartKind::Anchored))
        .build_many(patterns)
        .map_err(|e| CompileError::Grammar(e.to_string()))
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
        Expr::Str(s) => out.push_str(&regex_syntax::escape(s)),
        Expr::Insens(s) => {
            out.push_str("(?i-u:");
            out.push_str(&regex_syntax::escape(s));
            out.push(')');
        }
        Expr::Range(a, b) => {
            out.push('[');
            out.push_str(&regex_syntax::escape(a));
            out.push('-');
            out.push_str(&regex_syntax::escape(b));
            out.push(']');
        }
        Expr::Ident(name) => emit_rule(rules, name, stack, out)?,
        Expr::Seq(a, b) => {
            // `!("a" | "b") ~ ANY`: any one character but those, a negated class.
            if let Some(chars) = negated_class(a, b, &|name| rules.get(name).copied()) {
                out.push_str("[^");
                for c in chars {
                    out.push_str(&regex_syntax::escape(&c.to_string()));
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
    /// `rule`'s regular expression, once it is checked to read as pest reads it in `mode`.
    /// Matched against a whole text ([`Mode::Whole`]), its regular language is then exactly the
    /// set of texts that pest's `rule` matches in full; matched at the start of a longer text
    /// ([`Mode::Prefix`]), the rule matches at most one prefix of any text, and pest matches
    /// that prefix. An error names the operator that could commit wrongly and a text that
    /// shows it.
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
            Expr::RepMinMax(e, lo, hi) => {
                self.sound(rule, &seq(exact(e, *lo), up_to(e, hi.saturating_sub(*lo))), follow, mode, stack)
            }
            Expr::RepMax(e, hi) => match hi {
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
        // Unless a text of `p` may be empty, or may start as a text of `q` does, no text of `q`
        // starts with one of `p` (it is empty, or starts with a byte no text of `p` starts with).
        if !(fp.nullable || fp.bytes.meets(fq.bytes)) {
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
            // No text through a dead state of `p` or `q` is a witness (only `exclude` may die:
            // its dead state is a state that never accepts); a state seen is not searched again.
            if next[0].is_dead() || next[1].is_dead() {
                continue;
            }
            if parent.contains_key(&next) {
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
pub(crate) fn representatives<K: std::hash::Hash + Eq>(class: impl Fn(u8) -> K) -> Vec<u8> {
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

/// `first`, then `follow` (the expressions borrowed, not copied: a rule's soundness is weighed
/// against many such sequences).
fn then<'a>(first: &'a Expr, follow: &[&'a Expr]) -> Vec<&'a Expr> {
    let mut f = Vec::with_capacity(follow.len() + 1);
    f.push(first);
    f.extend_from_slice(follow);
    f
}
