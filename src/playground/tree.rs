//! A record's parse tree by a grammar, as `kifu tree` shows it: kifu's grammar for each format
//! and the rule its records are read with, the tree of an accepted record or the partial tree
//! of a rejected one with the finding that says why, and the record as a line of JSON.

use std::fmt::Write as _;

use super::grammar::{Grammar, GrammarDiagnostic};
use super::records::{Layout, Sample};
use crate::diagnostic::{codes, Diagnostic};
use crate::format::{Cut, Format};
use crate::notation::tree::Tree;
use crate::span::Span;

/// The longest record of a line format (SFEN, FEN, EPD) read as one record; a longer line gets
/// a `tree::too-long` finding instead of a tree.
pub const MAX_RECORD_BYTES: usize = 16 << 10;

/// kifu's grammar of `format` as its file name in the repository and its text; `None` for JSON
/// positions, which have no grammar.
pub fn source(format: Format) -> Option<(&'static str, &'static str)> {
    format.grammar().map(|g| (g.path, g.text))
}

/// kifu's grammar of `format`, loaded to run; `None` for JSON positions.
pub fn shipped(format: Format) -> Option<Result<Grammar, Vec<GrammarDiagnostic>>> {
    source(format).map(|(name, text)| Grammar::shipped(name, text))
}

/// The rule the records of `format` are read with, in its dialect.
pub fn default_rule(format: Format) -> &'static str {
    format.rule()
}

/// How an input in `format` is cut into records for `rule`: a line each, a PSN game each, or
/// (PSN's `file` rule, which reads where games start) the whole input.
pub fn layout(format: Option<Format>, rule: &str) -> Layout {
    match format.map(Format::cut) {
        Some(Cut::Games) if rule == "file" => Layout::Whole,
        Some(Cut::Games) => Layout::Games,
        Some(Cut::Lines | Cut::Values | Cut::Record) | None => Layout::Lines,
    }
}

/// The `grammar::unknown-rule` finding when `grammar` (called `which` in the message) has no
/// rule `rule`, on the text `--rule RULE`; its help names the closest rule, and `listed_by`
/// (if any) what lists them all.
pub fn unknown_rule(grammar: &Grammar, rule: &str, which: &str, listed_by: Option<&str>) -> Option<Diagnostic> {
    if grammar.rule(rule).is_some() {
        return None;
    }
    let names: Vec<String> = grammar.names().into_iter().map(str::to_owned).collect();
    let help = match (super::grammar::closest(rule, &names), listed_by) {
        (Some(n), Some(by)) => format!("did you mean `{n}`? The rules are listed by {by}"),
        (Some(n), None) => format!("did you mean `{n}`?"),
        (None, Some(by)) => format!("name one of its {} rules ({by} lists them)", names.len()),
        (None, None) => format!("name one of its {} rules", names.len()),
    };
    let text = format!("--rule {rule}");
    Some(
        Diagnostic::error(
            codes::grammar::UNKNOWN_RULE,
            Span::new(7, text.len()),
            format!("{which} has no rule `{rule}`"),
        )
        .label("no such rule")
        .help(help),
    )
}

/// The `tree::too-long` finding of a line record longer than [`MAX_RECORD_BYTES`], on its first
/// 80 characters (PSN games are bounded by the input's size alone).
pub fn too_long(layout: Layout, record: &Sample) -> Option<Diagnostic> {
    let text = record.text.as_str();
    if layout != Layout::Lines || text.len() <= MAX_RECORD_BYTES {
        return None;
    }
    let start = text.char_indices().nth(80).map_or(text.len(), |(i, _)| i);
    Some(
        Diagnostic::error(
            codes::tree::TOO_LONG,
            Span::new(0, start),
            format!(
                "this line is {} bytes long, more than the {} KiB kifu reads as one record",
                text.len(),
                MAX_RECORD_BYTES >> 10
            ),
        )
        .label("a record starts here and goes on")
        .help("a record is one line: is a line end missing, or is this not a file of records?"),
    )
}

/// A record read by `rule` of `grammar`: its tree and no finding when the rule accepts it;
/// else the partial tree of what the rule read before it stopped, and the finding that says
/// where and why (`tree::too-long` for a line record too long to read, with no tree).
pub fn read(grammar: &Grammar, rule: &str, layout: Layout, record: &Sample) -> (Tree, Option<Diagnostic>) {
    if let Some(d) = too_long(layout, record) {
        return (Tree::default(), Some(d));
    }
    match grammar.parse(rule, &record.text) {
        Ok(pairs) => (Tree::new(pairs, &|rule: &str| rule.to_owned()), None),
        Err(e) => {
            let d = e.diagnostic(rule, &record.text);
            (grammar.partial(rule, &record.text, &e).unwrap_or_default(), Some(d))
        }
    }
}

/// One record's tree as a line of JSON (`kifu tree --json`): `{"file", "line", "record",
/// "accepted", "tree"}`, and for a rejected record `"stopped"`: where and why reading stopped
/// (`"code"`, `"message"`, `"offset"`, `"line"`, `"column"`, and `"expected"` and `"found"`
/// when the rule read up to a character it could not go on with). It ends with a line end.
pub fn record_json(name: &str, r: &Sample, tree: &Tree, finding: Option<&Diagnostic>) -> String {
    let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut out = format!(
        "{{\"file\":{},\"line\":{},\"record\":{},\"accepted\":{},\"tree\":",
        quoted(name),
        r.line,
        quoted(&r.text),
        finding.is_none()
    );
    tree.write_json(r.line, &mut out);
    if let Some(d) = finding {
        let at = d.labels.iter().find(|l| l.primary).map_or(0, |l| l.span.start);
        let at = tree.stop.as_ref().map_or(at, |s| s.at);
        let (line, column) = pest::Position::new(&r.text, at).map_or((1, 1), |p| p.line_col());
        let _ = write!(
            out,
            ",\"stopped\":{{\"code\":{},\"message\":{},\"offset\":{at},\"line\":{},\"column\":{column}",
            quoted(d.code.as_str()),
            quoted(&d.message),
            line + r.line - 1
        );
        if let Some(s) = &tree.stop {
            let _ = write!(out, ",\"expected\":{},\"found\":{}", quoted(&s.expected), quoted(&s.found));
        }
        out.push('}');
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use crate::sfen::DialectChoice;

    #[test]
    fn every_format_but_json_has_a_grammar_with_its_record_rules() {
        use crate::sfen::DialectChoice::*;
        for format in [
            Format::Sfen(Auto),
            Format::Sfen(Usi),
            Format::Sfen(Sfen2007),
            Format::Fen(fen::Dialect::Standard),
            Format::Fen(fen::Dialect::Chess960),
            Format::Epd(fen::Dialect::Standard),
            Format::Epd(fen::Dialect::Chess960),
            Format::Psn,
        ] {
            let grammar = shipped(format).expect("a grammar").expect("it loads");
            assert!(grammar.rule(default_rule(format)).is_some(), "{format:?}");
        }
        assert!(shipped(Format::Json).is_none());
    }

    #[test]
    fn a_line_too_long_gets_its_finding_and_no_tree() {
        let grammar = shipped(Format::Sfen(DialectChoice::Auto)).expect("a grammar").expect("it loads");
        let long = Sample { line: 3, text: "9/".repeat(MAX_RECORD_BYTES) };
        let (tree, finding) = read(&grammar, "record", Layout::Lines, &long);
        assert!(tree.nodes.is_empty());
        let finding = finding.expect("a finding");
        assert_eq!(finding.code, codes::tree::TOO_LONG);
        assert_eq!(finding.span(), Span::new(0, 80));
        // A PSN game is not a line: its length alone does not stop it.
        assert!(too_long(Layout::Games, &long).is_none());
    }
}
