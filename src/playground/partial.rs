//! Partial trees: what a rule read of a record before it gave up.
//!
//! pest reports a rejection as a place and the rules it tried there, and keeps no tree. kifu
//! gets the tree of what was read before that place by running the same grammar, rewritten so
//! that the end of the text may cut any expression short, on the text up to the place: each
//! literal, range and built-in character class also matches any start of itself that the end
//! cuts (`"abc"` matches `ab` at the end), `EOI` becomes a look at the end (no pair), and a
//! repetition stops at the end. Every other choice is pest's own, so the tree is the reading
//! that went furthest, with pest's rules of choice and its pairs. A rule is not called at the
//! end (it would read nothing there, and recursion could loop). Negative lookaheads,
//! `WHITESPACE` and `COMMENT` are kept as written (a repetition of them must not match nothing).
//!
//! The rewritten grammar is as large as the grammar, within a small factor (a literal of `n`
//! characters becomes `n` nested options, for literals of up to 64 characters), and runs
//! under the same time budget.

use pest_meta::ast::{Expr, Rule as AstRule};

/// Rule names pest defines that read no character, kept as they are.
const READ_NOTHING: &[&str] = &["SOI", "PEEK", "PEEK_ALL", "POP", "POP_ALL", "DROP"];

/// `rules` rewritten so that the end of the text may cut any expression short.
pub(crate) fn cut_short(rules: &[AstRule]) -> Vec<AstRule> {
    let defined: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    rules
        .iter()
        .map(|r| {
            let keep = r.name == "WHITESPACE" || r.name == "COMMENT";
            let expr = if keep { r.expr.clone() } else { prefix(&r.expr, &defined) };
            AstRule { name: r.name.clone(), ty: r.ty, expr }
        })
        .collect()
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// `&EOI`: the end of the text, without a pair.
fn at_end() -> Expr {
    Expr::PosPred(boxed(Expr::Ident("EOI".to_owned())))
}

/// `e` or, at the end, nothing.
fn or_end(e: Expr) -> Expr {
    Expr::Choice(boxed(e), boxed(at_end()))
}

/// The longest literal whose starts are matched at the end: the options nest one a character,
/// and pest's optimizer recurses on nesting. A longer literal cut by the end is read as nothing.
const MAX_CUT_LITERAL: usize = 64;

/// A literal, or any start of it that the end cuts: `"abc" | ("a" ~ ("b")?)? ~ &EOI`.
fn literal(text: &str, one: impl Fn(String) -> Expr) -> Expr {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_CUT_LITERAL {
        return or_end(one(text.to_owned()));
    }
    // The starts shorter than the literal, as nested options, innermost first.
    let mut starts: Option<Expr> = None;
    for c in chars.iter().take(chars.len().saturating_sub(1)).rev() {
        let this = one(c.to_string());
        starts = Some(Expr::Opt(boxed(match starts {
            Some(inner) => Expr::Seq(boxed(this), boxed(inner)),
            None => this,
        })));
    }
    let cut = match starts {
        Some(s) => Expr::Seq(boxed(s), boxed(at_end())),
        None => at_end(),
    };
    Expr::Choice(boxed(one(text.to_owned())), boxed(cut))
}

/// A repetition's item, which may not start at the end (it could match nothing there).
fn item(e: &Expr, defined: &[&str]) -> Expr {
    Expr::Seq(boxed(Expr::NegPred(boxed(Expr::Ident("EOI".to_owned())))), boxed(prefix(e, defined)))
}

/// `expr` rewritten (see the module's documentation). Recursion is on the nesting of the
/// grammar's expressions, which [`super::limits`] bounds.
fn prefix(expr: &Expr, defined: &[&str]) -> Expr {
    let p = |e: &Expr| boxed(prefix(e, defined));
    match expr {
        Expr::Str(s) => literal(s, Expr::Str),
        Expr::Insens(s) => literal(s, Expr::Insens),
        Expr::Range(..) => or_end(expr.clone()),
        // At the end a rule can read nothing, and its pairs would start at the place and be
        // left out: it is not called there, which also keeps recursion from looping there.
        Expr::Ident(name) if defined.contains(&name.as_str()) => Expr::Choice(
            boxed(Expr::Seq(boxed(Expr::NegPred(boxed(Expr::Ident("EOI".to_owned())))), boxed(expr.clone()))),
            boxed(at_end()),
        ),
        Expr::Ident(name) if name == "EOI" => at_end(),
        Expr::Ident(name) if READ_NOTHING.contains(&name.as_str()) => expr.clone(),
        // A built-in class of characters (`ANY`, `ASCII_DIGIT`, a Unicode property).
        Expr::Ident(_) => or_end(expr.clone()),
        Expr::PosPred(e) => Expr::PosPred(p(e)),
        Expr::Seq(a, b) => Expr::Seq(p(a), p(b)),
        Expr::Choice(a, b) => Expr::Choice(p(a), p(b)),
        Expr::Opt(e) => Expr::Opt(p(e)),
        Expr::Rep(e) => Expr::Rep(boxed(item(e, defined))),
        Expr::RepOnce(e) => Expr::Seq(p(e), boxed(Expr::Rep(boxed(item(e, defined))))),
        Expr::RepMin(e, n) => Expr::Seq(boxed(Expr::RepExact(p(e), *n)), boxed(Expr::Rep(boxed(item(e, defined))))),
        Expr::RepExact(e, n) => Expr::RepExact(p(e), *n),
        Expr::RepMax(e, n) => Expr::RepMax(p(e), *n),
        Expr::RepMinMax(e, n, m) => Expr::RepMinMax(p(e), *n, *m),
        Expr::Push(e) => Expr::Push(p(e)),
        // Negative lookaheads, `PEEK[a..b]` and skips, as written.
        _ => expr.clone(),
    }
}

#[cfg(test)]
mod tests {
    use crate::playground::grammar::{Grammar, Source};

    fn grammar(text: &str) -> Grammar {
        Grammar::load(&[Source::new("t.pest", text)], false, None).expect("a valid grammar")
    }

    /// The partial tree as `rule start..end` lines.
    fn partial(g: &Grammar, rule: &str, input: &str) -> Vec<String> {
        let rejection = g.parse(rule, input).expect_err("rejected");
        let tree = g.partial(rule, input, &rejection).expect("a partial tree");
        tree.nodes.iter().map(|n| format!("{}{} {}..{}", "  ".repeat(n.depth), n.rule, n.start, n.end)).collect()
    }

    #[test]
    fn the_tree_goes_up_to_the_place_of_rejection() {
        // pest names the rule that failed, at its start: the tree goes up to there.
        let g = grammar("r = { SOI ~ word ~ (\",\" ~ word)* ~ EOI }\nword = { ASCII_ALPHA+ ~ \"!\" }");
        assert_eq!(partial(&g, "r", "ab!,cd?"), ["r 0..4", "  word 0..3"]);
        // Nodes under way when reading stopped reach the place; the mark goes inside them.
        let g = grammar("r = { SOI ~ pair ~ EOI }\npair = { key ~ \"=\" ~ value }\nkey = @{ ASCII_ALPHA+ }\nvalue = @{ ASCII_DIGIT+ }");
        assert_eq!(partial(&g, "r", "ab=x"), ["r 0..3", "  pair 0..3", "    key 0..2"]);
        let rejection = g.parse("r", "ab=x").expect_err("rejected");
        let tree = g.partial("r", "ab=x", &rejection).expect("a partial tree");
        let stop = tree.stop.as_ref().expect("a stop");
        assert_eq!((stop.at, stop.place, stop.depth, stop.found.as_str()), (3, (1, 4), 2, "x"));
        assert_eq!(stop.expected, "`value`");
        let open: Vec<&str> = tree.nodes.iter().filter(|n| tree.is_open(n)).map(|n| n.rule.as_str()).collect();
        assert_eq!(open, ["r", "pair"]);
        // Of the choices that reach the place, the first; a literal cut short by the end.
        let g = grammar("r = { (a | b) ~ EOI }\na = { \"x\" ~ \"y\" }\nb = { \"x\" ~ \"yz\" }");
        assert_eq!(partial(&g, "r", "xyw"), ["r 0..2", "  a 0..2"]);
        let g = grammar("r = { (b | a) ~ EOI }\na = { \"x\" ~ \"y\" }\nb = { \"x\" ~ \"yz\" }");
        assert_eq!(partial(&g, "r", "xyw"), ["r 0..2", "  b 0..2"]);
    }

    #[test]
    fn a_long_literal_is_not_cut() {
        // Its starts would nest a level a character.
        let long = "a".repeat(100_000);
        let g = grammar(&format!("r = {{ SOI ~ x ~ \"{long}\" ~ EOI }}\nx = {{ \"x\" }}"));
        // pest names `r` at the start: the tree is empty, but the grammar was rewritten.
        assert!(partial(&g, "r", &format!("x{}b", &long[..500])).is_empty());
    }

    #[test]
    fn recursion_stops_at_the_end() {
        let g = grammar("r = { SOI ~ v ~ EOI }\nv = { \"(\" ~ v ~ \")\" | \"x\" }");
        assert_eq!(partial(&g, "r", "(("), ["r 0..2", "  v 0..2", "    v 1..2"]);
    }

    #[test]
    fn a_rejection_at_the_first_character_has_an_empty_tree() {
        let g = grammar("r = { \"a\" ~ \"b\" }");
        assert!(partial(&g, "r", "xb").is_empty());
    }
}
