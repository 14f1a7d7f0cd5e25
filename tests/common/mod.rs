//! Helpers the fixture tests share.

#![allow(dead_code)]

pub mod bin;
pub mod edits;
pub mod entry;
pub mod fixture;
pub mod generate;
pub mod shared;
pub mod single_edits;
pub mod strategies;
pub mod vectors;
use kifu::diagnostic::RecordSource;
use kifu::Diagnostic;
use miette::{GraphicalReportHandler, GraphicalTheme};

/// Diagnostics rendered as a person sees them, without colour, 80 columns wide.
pub fn render(diagnostics: &[Diagnostic], name: &str, text: &str) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    let shown = RecordSource::display_text(text);
    let source = RecordSource { name, text: &shown, line: 1, columns: &[] };
    let mut out = String::new();
    for d in diagnostics {
        let _ = handler.render_report(&mut out, &d.report(&source));
        out.push('\n');
    }
    out
}

/// Every diagnostic: a code in one of `prefixes`, words without rule names, one primary label
/// inside the record on character boundaries, and help.
pub fn assert_complete(d: &Diagnostic, text: &str, file: &str, prefixes: &[&str]) {
    assert!(prefixes.iter().any(|p| d.code.starts_with(p)), "{file}: code {}", d.code);
    assert!(!d.message.is_empty(), "{file}: {} has no message", d.code);
    assert!(d.help.as_deref().is_some_and(|h| !h.is_empty()), "{file}: {} has no help", d.code);
    assert_eq!(d.labels.iter().filter(|l| l.primary).count(), 1, "{file}: {} primary labels", d.code);
    for l in &d.labels {
        assert!(
            l.span.start <= l.span.end && l.span.end <= text.len(),
            "{file}: {} label {:?} outside",
            d.code,
            l.span
        );
        assert!(
            text.is_char_boundary(l.span.start) && text.is_char_boundary(l.span.end),
            "{file}: label splits a char"
        );
    }
    // Rule names (`hand_entry`, `ep_square`) never reach a person.
    let words = format!("{} {}", d.message, d.labels.iter().map(|l| l.message.as_str()).collect::<Vec<_>>().join(" "));
    for word in words.split(|c: char| c.is_whitespace() || c == '`') {
        let rule_like = word.contains('_')
            && word.chars().any(|c| c.is_ascii_lowercase())
            && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        assert!(!rule_like, "{file}: rule name {word:?} in {words:?}");
    }
}
