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
pub const COMMON: &str = include_str!("../grammar/common.pest");
/// `grammar/sfen.pest`: the SFEN grammar.
pub const SFEN: &str = include_str!("../grammar/sfen.pest");
/// `grammar/fen.pest`: the FEN and EPD grammar.
pub const FEN: &str = include_str!("../grammar/fen.pest");
/// `grammar/psn.pest`: the PSN grammar.
pub const PSN: &str = include_str!("../grammar/psn.pest");

/// A grammar rule compiled to a deterministic automaton that matches exactly the texts the
/// rule matches as a whole.
pub struct RuleDfa(regex_automata::dfa::dense::DFA<Vec<u32>>);

impl RuleDfa {
    /// Compiles `rule` of the grammar made of `sources`; `None` if it is not regular.
    pub fn compile(sources: &[&str], rule: &str) -> Option<Self> {
        Self::compile_in(&Grammar::parse(sources).ok()?, rule)
    }

    /// Compiles `rule` of `grammar`; `None` if it is not regular.
    pub fn compile_in(grammar: &Grammar, rule: &str) -> Option<Self> {
        let pattern = grammar.to_regex(rule).ok()?;
        regex_automata::dfa::dense::DFA::new(&pattern).ok().map(Self)
    }

    /// True when the whole of `text` matches the rule.
    pub fn is_match(&self, text: &str) -> bool {
        use regex_automata::dfa::Automaton;
        let dfa = &self.0;
        let config = regex_automata::util::start::Config::new().anchored(regex_automata::Anchored::Yes);
        let Ok(mut state) = dfa.start_state(&config) else {
            return false;
        };
        // A dead state stays dead, so records (short, and mostly valid) run to the end unchecked.
        for &b in text.as_bytes() {
            state = dfa.next_state(state, b);
        }
        dfa.is_match_state(dfa.next_eoi_state(state))
    }

    /// The length of the longest start of `text` that the rule matches, if any.
    pub fn prefix(&self, text: &str) -> Option<usize> {
        use regex_automata::dfa::Automaton;
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
        Self::compile_in(&Grammar::parse(sources)?, rule)
    }

    /// Compiles the alternatives of `rule` of `grammar`.
    pub fn compile_in(grammar: &Grammar, rule: &str) -> Result<Self, CompileError> {
        use regex_automata::dfa::{dense, StartKind};
        let names = grammar.alternatives(rule)?;
        let patterns = names.iter().map(|n| grammar.to_regex(n)).collect::<Result<Vec<_>, _>>()?;
        let dfa = dense::Builder::new()
            .configure(dense::Config::new().match_kind(regex_automata::MatchKind::All).start_kind(StartKind::Anchored))
            .build_many(&patterns)
            .map_err(|e| CompileError::Grammar(e.to_string()))?;
        Ok(Self { dfa, names })
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

/// A grammar's rules, read once with pest's meta-parser.
#[derive(Clone, Debug)]
pub struct Grammar {
    rules: HashMap<String, Expr>,
}

impl Grammar {
    /// Reads the grammar made of `sources` (joined, as pest_derive joins several `#[grammar]`
    /// files).
    pub fn parse(sources: &[&str]) -> Result<Self, CompileError> {
        let text = sources.join("\n");
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, &text)
            .map_err(|e| CompileError::Grammar(e.to_string()))?;
        let rules = pest_meta::parser::consume_rules(pairs).map_err(|errors| {
            CompileError::Grammar(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
        })?;
        Ok(Self { rules: rules.into_iter().map(|r| (r.name, r.expr)).collect() })
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
    /// `b`, `c`); a rule that is a single name gives that name.
    pub fn alternatives(&self, rule: &str) -> Result<Vec<String>, CompileError> {
        let found = self.rules.get(rule).ok_or_else(|| CompileError::UnknownRule(rule.to_owned()))?;
        fn walk(expr: &Expr, rule: &str, out: &mut Vec<String>) -> Result<(), CompileError> {
            match expr {
                Expr::Choice(a, b) => {
                    walk(a, rule, out)?;
                    walk(b, rule, out)
                }
                Expr::Ident(name) => {
                    out.push(name.clone());
                    Ok(())
                }
                _ => Err(CompileError::NotRegular {
                    rule: rule.to_owned(),
                    what: "an alternative that is not a rule name".into(),
                }),
            }
        }
        let mut out = Vec::new();
        walk(found, rule, &mut out)?;
        Ok(out)
    }
}

/// The names of the rules a choice rule chooses between (see [`Grammar::alternatives`]).
pub fn alternatives(sources: &[&str], rule: &str) -> Result<Vec<String>, CompileError> {
    Grammar::parse(sources)?.alternatives(rule)
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
}

/// Compiles `rule` of the grammar made of `sources` (joined, as pest_derive joins several
/// `#[grammar]` files) into regular-expression syntax for the `regex` crate.
///
/// `SOI` and `EOI` become `\A` and `\z`; lookahead, the stack and recursion are refused.
pub fn rule_to_regex(sources: &[&str], rule: &str) -> Result<String, CompileError> {
    Grammar::parse(sources)?.to_regex(rule)
}

fn emit_rule<'a>(
    rules: &HashMap<&'a str, &'a Expr>,
    name: &str,
    stack: &mut Vec<String>,
    out: &mut String,
) -> Result<(), CompileError> {
    let builtin = match name {
        "SOI" => Some(r"\A"),
        "EOI" => Some(r"\z"),
        "ANY" => Some(r"(?s:.)"),
        "ASCII_DIGIT" => Some("[0-9]"),
        "ASCII_NONZERO_DIGIT" => Some("[1-9]"),
        "ASCII_ALPHA_LOWER" => Some("[a-z]"),
        "ASCII_ALPHA_UPPER" => Some("[A-Z]"),
        "ASCII_ALPHA" => Some("[A-Za-z]"),
        "ASCII_ALPHANUMERIC" => Some("[0-9A-Za-z]"),
        _ => None,
    };
    if let Some(b) = builtin {
        out.push_str(b);
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
            if let (Expr::NegPred(inner), Expr::Ident(any)) = (&**a, &**b) {
                let mut chars = Vec::new();
                if any == "ANY" && single_chars(inner, &mut chars) {
                    out.push_str("[^");
                    for c in chars {
                        out.push_str(&regex::escape(&c.to_string()));
                    }
                    out.push(']');
                    return Ok(());
                }
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
            let what = match other {
                Expr::PosPred(_) | Expr::NegPred(_) => "a lookahead",
                Expr::Skip(_) => "a skip",
                _ => "the stack",
            };
            return Err(CompileError::NotRegular { rule: rule.to_owned(), what: what.into() });
        }
    }
    Ok(())
}

/// Collects the characters of a choice of one-character strings; false for anything else.
fn single_chars(expr: &Expr, out: &mut Vec<char>) -> bool {
    match expr {
        Expr::Choice(a, b) => single_chars(a, out) && single_chars(b, out),
        Expr::Str(s) if s.chars().count() == 1 => {
            out.extend(s.chars());
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn refuses_what_is_not_regular() {
        // Nested braces need a counter: the rule is recursive.
        let err = rule_to_regex(&[PSN, COMMON], "comment").unwrap_err();
        assert!(matches!(err, CompileError::NotRegular { .. }), "{err}");
        let err = rule_to_regex(&[PSN, COMMON], "boundary").unwrap_err();
        assert!(matches!(err, CompileError::NotRegular { .. }), "a lookahead: {err}");
        assert_eq!(rule_to_regex(&[SFEN, COMMON], "nope").unwrap_err(), CompileError::UnknownRule("nope".into()));
    }
}
