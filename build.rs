//! Builds the conformance suite (`conformance/`) into the library when the `playground`
//! feature is on, so that `kifu conformance` runs from anywhere: `$OUT_DIR/suite.rs` lists every
//! file of the suite with its bytes (`include_bytes!`), in a stable order.
//!
//! Reads kifu's grammars with pest's meta-parser, as pest_derive does, and writes their rules
//! as Rust (`$OUT_DIR/rules.rs`), so that the library does not read them again each time it
//! starts: the meta-parser's checks take some 175 million instructions for the PSN grammar.
//! With the library's own compiler (`src/notation/regular.rs`), it also makes the automata
//! kifu's formats run (`regular::SHIPPED`), their soundness checked as at run time, and writes
//! them as bytes the library reads in place: compiling and checking them takes some 70 million
//! instructions for the PSN grammar.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pest_meta::ast::Expr;

/// The library's compiler of rules to automata, run here on kifu's own grammars.
#[allow(dead_code)]
#[path = "src/notation/regular.rs"]
mod regular;

use regular::{Rules, GRAMMARS, SHIPPED};

/// `e` as a Rust expression that builds it (with `Expr`'s variants in scope).
#[allow(unreachable_patterns)] // the variants of pest's "grammar-extras" feature
fn expr(e: &Expr, out: &mut String) {
    let boxed = |name: &str, inner: &Expr, rest: &str, out: &mut String| {
        let _ = write!(out, "{name}(Box::new(");
        expr(inner, out);
        let _ = write!(out, "){rest})");
    };
    match e {
        Expr::Str(s) => drop(write!(out, "Str({s:?}.into())")),
        Expr::Insens(s) => drop(write!(out, "Insens({s:?}.into())")),
        Expr::Range(a, b) => drop(write!(out, "Range({a:?}.into(), {b:?}.into())")),
        Expr::Ident(s) => drop(write!(out, "Ident({s:?}.into())")),
        Expr::PeekSlice(a, b) => drop(write!(out, "PeekSlice({a}, {b:?})")),
        Expr::PosPred(x) => boxed("PosPred", x, "", out),
        Expr::NegPred(x) => boxed("NegPred", x, "", out),
        Expr::Opt(x) => boxed("Opt", x, "", out),
        Expr::Rep(x) => boxed("Rep", x, "", out),
        Expr::RepOnce(x) => boxed("RepOnce", x, "", out),
        Expr::Push(x) => boxed("Push", x, "", out),
        Expr::RepExact(x, n) => boxed("RepExact", x, &format!(", {n}"), out),
        Expr::RepMin(x, n) => boxed("RepMin", x, &format!(", {n}"), out),
        Expr::RepMax(x, n) => boxed("RepMax", x, &format!(", {n}"), out),
        Expr::RepMinMax(x, lo, hi) => boxed("RepMinMax", x, &format!(", {lo}, {hi}"), out),
        Expr::Seq(a, b) | Expr::Choice(a, b) => {
            let name = if matches!(e, Expr::Seq(..)) { "Seq" } else { "Choice" };
            let _ = write!(out, "{name}(Box::new(");
            expr(a, out);
            out.push_str("), Box::new(");
            expr(b, out);
            out.push_str("))");
        }
        Expr::Skip(strings) => drop(write!(
            out,
            "Skip(vec![{}])",
            strings.iter().map(|s| format!("{s:?}.into()")).collect::<Vec<_>>().join(", ")
        )),
        other => panic!("kifu's grammars use no {other:?}"),
    }
}

/// `$OUT_DIR/rules.rs`: for each of [`GRAMMARS`], its files' text and a function that builds
/// its rules.
fn rules(root: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed=grammar");
    let mut text =
        String::from("// Written by build.rs: kifu's grammars as pest's meta-parser read them when kifu was built.\n");
    let mut table = String::from(
        "/// A grammar's rules by name.\n\
         pub(super) type Built = fn() -> Vec<(&'static str, Expr)>;\n\
         /// Each of kifu's grammars: its name, the texts of its files, and its rules.\n\
         pub(super) static PREBUILT: &[(&str, &[&str], Built)] = &[\n",
    );
    let mut made = String::from(
        "/// The automata of `SHIPPED` that compile, each with its grammar's name, kind and rule.\n\
         pub(super) static AUTOMATA: &[(&str, Kind, &str, &Aligned<[u8]>)] = &[\n",
    );
    for &(name, files) in GRAMMARS {
        let sources: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(root.join("grammar").join(f)).expect("read a grammar of grammar/"))
            .collect();
        let joined = sources.join("\n");
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, &joined)
            .unwrap_or_else(|e| panic!("{files:?}: {e}"));
        let rules = pest_meta::parser::consume_rules(pairs).unwrap_or_else(|e| panic!("{files:?}: {e:?}"));
        let _ = writeln!(text, "fn rules_{name}() -> Vec<(&'static str, Expr)> {{\n    vec![");
        for rule in &rules {
            let _ = write!(text, "        ({:?}, ", rule.name);
            expr(&rule.expr, &mut text);
            text.push_str("),\n");
        }
        text.push_str("    ]\n}\n");
        let texts: Vec<String> = files
            .iter()
            .map(|f| format!("include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/grammar/{f}\"))"))
            .collect();
        let _ = writeln!(table, "    ({name:?}, &[{}], rules_{name}),", texts.join(", "));
        automata(name, Rules::from_parsed(rules.into_iter().map(|r| (r.name, r.expr))), out_dir, &mut made);
    }
    table.push_str("];\n");
    text.push_str(&table);
    made.push_str("];\n");
    text.push_str(&made);
    std::fs::write(out_dir.join("rules.rs"), text).expect("write rules.rs");
}

/// Each automaton of [`SHIPPED`] from `grammar` (named `grammar_name` in [`GRAMMARS`]) that compiles,
/// written to `$OUT_DIR` as the bytes the library reads in place, and listed in `table`. One that
/// does not compile is left out: the library compiles it at run time and meets the same error.
fn automata(grammar_name: &str, grammar: Rules, out_dir: &Path, table: &mut String) {
    let big = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    for &(_, kind, rule) in SHIPPED.iter().filter(|(g, ..)| *g == grammar_name) {
        let Ok(dfa) = grammar.automaton(kind, rule) else { continue };
        let (bytes, pad) = if big { dfa.to_bytes_big_endian() } else { dfa.to_bytes_little_endian() };
        let name = format!("automaton-{grammar_name}-{rule}.bin");
        std::fs::write(out_dir.join(&name), &bytes[pad..]).expect("write an automaton");
        let _ = writeln!(
            table,
            "    ({grammar_name:?}, Kind::{kind:?}, {rule:?}, &Aligned {{ bytes: *include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}\")) }}),"
        );
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/notation/regular.rs");
    println!("cargo:rerun-if-changed=conformance");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let suite = root.join("conformance");
    let mut found = Vec::new();
    if std::env::var_os("CARGO_FEATURE_PLAYGROUND").is_some() {
        files(&suite, &mut found);
    }
    found.sort();
    let mut text = String::from("/// Every file of the conformance suite: its path in the suite, and its bytes.\npub static SUITE: &[(&str, &[u8])] = &[\n");
    for path in &found {
        let Ok(relative) = path.strip_prefix(&suite) else { continue };
        let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        // The path from the crate's own folder, so that the list holds for any checkout of it.
        text.push_str(&format!(
            "    ({name:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),\n",
            format!("/conformance/{name}")
        ));
    }
    text.push_str("];\n");
    std::fs::write(out_dir.join("suite.rs"), text).expect("write suite.rs");
    rules(&root, &out_dir);
}
