//! A grammar for spec documents: railroad diagrams (SVG, drawn with the `railroad` crate) and
//! W3C-style EBNF (the notation of the XML spec, section 6).
//!
//! Both show a rule and every rule it reaches, in the order they are first named. pest's
//! operators that EBNF lacks are written out: `x{3}` as three copies, `!x ~ ANY` as `(Char - x)`,
//! lookaheads as comments; `SOI` and `EOI` are left out, as each production describes a whole
//! text.

use std::fmt::Write as _;

use pest_meta::ast::{Expr, RuleType};
use railroad::{
    Choice, Comment, Diagram, End, LabeledBox, Node, NonTerminal, Optional, Repeat, Sequence, Start, Stylesheet,
    Terminal, VerticalGrid,
};

use super::grammar::Grammar;

/// An SVG with one railroad diagram per rule `rule` reaches, `rule` first.
pub fn railroad(grammar: &Grammar, rule: &str) -> String {
    let mut rows: Vec<Box<dyn Node>> = Vec::new();
    for name in grammar.reachable(rule) {
        let Some(r) = grammar.rule(&name) else { continue };
        let title = match r.ty {
            RuleType::Silent => format!("{name} (silent)"),
            RuleType::Atomic => format!("{name} (atomic)"),
            _ => name.clone(),
        };
        let line: Vec<Box<dyn Node>> =
            vec![Box::new(Comment::new(title)), Box::new(Start), node(&r.expr), Box::new(End)];
        rows.push(Box::new(Sequence::new(line)));
    }
    let diagram = Diagram::new_with_stylesheet(VerticalGrid::new(rows), &Stylesheet::Light);
    // The size as well as the view box, so that a browser draws it at its size instead of
    // shrinking it to the width of the page.
    let (width, height) = (diagram.width(), diagram.height());
    let svg = diagram.to_string();
    match svg.strip_prefix("<svg ") {
        Some(rest) => format!("<svg width=\"{width}\" height=\"{height}\" {rest}\n"),
        None => format!("{svg}\n"),
    }
}

fn boxed(n: impl Node + 'static) -> Box<dyn Node> {
    Box::new(n)
}

fn seq_items(expr: &Expr, out: &mut Vec<Box<dyn Node>>) {
    match expr {
        Expr::Seq(a, b) => {
            seq_items(a, out);
            seq_items(b, out);
        }
        Expr::Ident(n) if n == "SOI" || n == "EOI" => {}
        other => out.push(node(other)),
    }
}

fn choice_items(expr: &Expr, out: &mut Vec<Box<dyn Node>>) {
    match expr {
        Expr::Choice(a, b) => {
            choice_items(a, out);
            choice_items(b, out);
        }
        other => out.push(node(other)),
    }
}

fn node(expr: &Expr) -> Box<dyn Node> {
    match expr {
        Expr::Str(s) => boxed(Terminal::new(shown(s))),
        Expr::Insens(s) => boxed(Terminal::new(format!("{} (any case)", shown(s)))),
        Expr::Range(a, b) => boxed(Terminal::new(format!("{a}-{b}"))),
        Expr::Ident(n) => match builtin_ebnf(n) {
            Some(_) => boxed(Terminal::new(n.clone())),
            None => boxed(NonTerminal::new(n.clone())),
        },
        Expr::Seq(..) => {
            let mut items = Vec::new();
            seq_items(expr, &mut items);
            if items.is_empty() {
                items.push(boxed(railroad::Empty));
            }
            boxed(Sequence::new(items))
        }
        Expr::Choice(..) => {
            let mut items = Vec::new();
            choice_items(expr, &mut items);
            boxed(Choice::new(items))
        }
        Expr::Opt(e) => boxed(Optional::new(node(e))),
        Expr::Rep(e) => boxed(Optional::new(Repeat::new(node(e), railroad::Empty))),
        Expr::RepOnce(e) => boxed(Repeat::new(node(e), railroad::Empty)),
        Expr::RepExact(e, n) => boxed(LabeledBox::new(node(e), Comment::new(format!("exactly {n} times")))),
        Expr::RepMin(e, n) => boxed(LabeledBox::new(node(e), Comment::new(format!("{n} times or more")))),
        Expr::RepMax(e, n) => boxed(LabeledBox::new(node(e), Comment::new(format!("at most {n} times")))),
        Expr::RepMinMax(e, a, b) => boxed(LabeledBox::new(node(e), Comment::new(format!("{a} to {b} times")))),
        Expr::PosPred(e) => boxed(LabeledBox::new(node(e), Comment::new("followed by (not read)".into()))),
        Expr::NegPred(e) => boxed(LabeledBox::new(node(e), Comment::new("not followed by".into()))),
        Expr::Push(e) => boxed(LabeledBox::new(node(e), Comment::new("PUSH".into()))),
        Expr::PeekSlice(..) => boxed(NonTerminal::new("PEEK".into())),
        Expr::Skip(s) => boxed(Comment::new(format!("skip to {}", s.join(" or ")))),
        #[allow(unreachable_patterns)]
        _ => boxed(Comment::new("…".into())),
    }
}

/// A literal as a record writes it: quotes and backslashes as they are, control characters
/// as escapes (`\n`).
fn shown(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

/// pest's own rules in EBNF.
fn builtin_ebnf(name: &str) -> Option<&'static str> {
    Some(match name {
        "ANY" => "Char",
        "ASCII_DIGIT" => "[0-9]",
        "ASCII_NONZERO_DIGIT" => "[1-9]",
        "ASCII_BIN_DIGIT" => "[0-1]",
        "ASCII_OCT_DIGIT" => "[0-7]",
        "ASCII_HEX_DIGIT" => "[0-9a-fA-F]",
        "ASCII_ALPHA_LOWER" => "[a-z]",
        "ASCII_ALPHA_UPPER" => "[A-Z]",
        "ASCII_ALPHA" => "[a-zA-Z]",
        "ASCII_ALPHANUMERIC" => "[a-zA-Z0-9]",
        "ASCII" => "[#x0-#x7F]",
        "NEWLINE" => "(#xA | #xD #xA | #xD)",
        "SOI" | "EOI" => "",
        _ => return None,
    })
}

/// The grammar's rules that `rule` reaches (every rule when `None`), as W3C-style EBNF, each
/// after its `///` lines as a comment.
pub fn ebnf(grammar: &Grammar, rule: Option<&str>) -> String {
    let names: Vec<String> = match rule {
        Some(r) => grammar.reachable(r),
        None => grammar.names().into_iter().map(str::to_owned).collect(),
    };
    let width = names.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for name in names {
        let Some(r) = grammar.rule(&name) else { continue };
        let docs = grammar.docs(&name);
        if !docs.is_empty() {
            let _ = writeln!(out, "/* {} */", docs.join("\n   ").replace("*/", "* /"));
        }
        let _ = writeln!(out, "{name:width$} ::= {}\n", expr_ebnf(&r.expr, 0));
    }
    out
}

/// Binding strength: 0 choice, 1 sequence, 2 a postfix operand.
fn expr_ebnf(expr: &Expr, outer: u8) -> String {
    let (text, own) = match expr {
        Expr::Str(s) => (quote(s), 2),
        Expr::Insens(s) => (insensitive(s), if s.chars().count() == 1 { 2 } else { 1 }),
        Expr::Range(a, b) => (format!("[{}-{}]", class_char(a), class_char(b)), 2),
        Expr::Ident(n) => (builtin_ebnf(n).map_or_else(|| n.clone(), str::to_owned), 2),
        Expr::Seq(a, b) => match (&**a, &**b) {
            // `!x ~ y`: y, except what x matches.
            (Expr::NegPred(x), y) => (format!("{} - {}", expr_ebnf(y, 2), expr_ebnf(x, 2)), 1),
            _ => {
                let parts: Vec<String> =
                    [expr_ebnf(a, 1), expr_ebnf(b, 1)].into_iter().filter(|p| !p.is_empty()).collect();
                (parts.join(" "), 1)
            }
        },
        Expr::Choice(a, b) => (format!("{} | {}", expr_ebnf(a, 0), expr_ebnf(b, 0)), 0),
        Expr::Opt(e) => (format!("{}?", expr_ebnf(e, 2)), 2),
        Expr::Rep(e) => (format!("{}*", expr_ebnf(e, 2)), 2),
        Expr::RepOnce(e) => (format!("{}+", expr_ebnf(e, 2)), 2),
        Expr::RepExact(e, n) => (copies(&expr_ebnf(e, 2), *n as usize, ""), 1),
        Expr::RepMin(e, n) => {
            let one = expr_ebnf(e, 2);
            (format!("{} {one}*", copies(&one, *n as usize, "")).trim_start().to_owned(), 1)
        }
        Expr::RepMax(e, n) => (copies(&expr_ebnf(e, 2), *n as usize, "?"), 1),
        Expr::RepMinMax(e, a, b) => {
            let one = expr_ebnf(e, 2);
            let min = copies(&one, *a as usize, "");
            let max = copies(&one, b.saturating_sub(*a) as usize, "?");
            ([min, max].into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" "), 1)
        }
        Expr::PosPred(e) => (format!("/* followed by {} */", expr_ebnf(e, 2)), 2),
        Expr::NegPred(e) => (format!("/* not followed by {} */", expr_ebnf(e, 2)), 2),
        Expr::Push(e) => (expr_ebnf(e, outer), outer),
        Expr::PeekSlice(..) => ("/* the text pushed before */".to_owned(), 2),
        Expr::Skip(s) => {
            (format!("/* anything up to {} */", s.iter().map(|x| quote(x)).collect::<Vec<_>>().join(" or ")), 2)
        }
        #[allow(unreachable_patterns)]
        _ => ("/* … */".to_owned(), 2),
    };
    if own < outer && !text.is_empty() {
        format!("({text})")
    } else {
        text
    }
}

fn copies(one: &str, n: usize, suffix: &str) -> String {
    vec![format!("{one}{suffix}"); n].join(" ")
}

/// A string literal: `"…"`, or `'…'` when it holds `"`, or character references when it holds
/// both.
fn quote(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_graphic() || c == ' ') {
        if !s.contains('"') {
            return format!("\"{s}\"");
        }
        if !s.contains('\'') {
            return format!("'{s}'");
        }
    }
    let parts: Vec<String> = s
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' || c == ' ' {
                format!("\"{c}\"")
            } else {
                format!("#x{:X}", c as u32)
            }
        })
        .collect();
    parts.join(" ")
}

fn class_char(s: &str) -> String {
    match s.chars().next() {
        Some(c) if c.is_ascii_alphanumeric() => c.to_string(),
        Some(c) => format!("#x{:X}", c as u32),
        None => String::new(),
    }
}

fn insensitive(s: &str) -> String {
    let parts: Vec<String> = s
        .chars()
        .map(|c| {
            let (l, u) = (c.to_lowercase().to_string(), c.to_uppercase().to_string());
            if l == u {
                quote(&l)
            } else {
                format!("[{l}{u}]")
            }
        })
        .collect();
    parts.join(" ")
}
