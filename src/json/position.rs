//! The one mechanism both games' JSON positions use: an object's keys, its fields' type
//! errors, and the record text written from it with where each part came from.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

use super::reader::{Node, Value};

/// A record's text written from a JSON object, with where each part came from, so that the
/// findings of the record's checker can point into the JSON text instead.
#[derive(Clone, Debug, Default)]
pub struct Mapped {
    /// The text written (an SFEN or FEN record).
    pub text: String,
    /// Spans of `text` and the JSON spans they were written from.
    map: Vec<(Span, Span)>,
    /// Spans of `text` (a field) and the JSON span that stands for anything in them.
    regions: Vec<(Span, Span)>,
    /// Where a finding that matches nothing points: the object.
    fallback: Span,
}

impl Mapped {
    /// An empty text whose unmatched findings point at `fallback`.
    pub fn new(fallback: Span) -> Self {
        Self { fallback, ..Self::default() }
    }

    /// Appends `s`, written from the JSON at `from` (if any).
    pub fn push(&mut self, s: &str, from: Option<Span>) {
        let start = self.text.len();
        self.text.push_str(s);
        if let Some(from) = from {
            self.map.push((Span::new(start, self.text.len()), from));
        }
    }

    /// Marks the text from `start` to here as a region written from the JSON at `from`.
    pub fn region(&mut self, start: usize, from: Span) {
        self.regions.push((Span::new(start, self.text.len()), from));
    }

    /// The JSON span for a span of the text.
    pub fn json_span(&self, span: Span) -> Span {
        let touches = |s: Span| {
            if span.is_empty() {
                s.start <= span.start && span.start < s.end
            } else {
                s.start < span.end && span.start < s.end
            }
        };
        let found = self.map.iter().filter(|(s, _)| touches(*s)).map(|(_, j)| *j).reduce(Span::to);
        found
            .or_else(|| self.regions.iter().find(|(s, _)| touches(*s) || s.end == span.start).map(|(_, j)| *j))
            .unwrap_or(self.fallback)
    }

    /// `d` (a finding about the text) pointing into the JSON.
    pub fn map_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        for label in &mut d.labels {
            label.span = self.json_span(label.span);
        }
        d
    }
}

/// The first character of `span` (an object's `{`), as a span.
pub fn first_char(span: Span) -> Span {
    Span::new(span.start, (span.start + 1).min(span.end.max(span.start)))
}

/// A key near `key` among `known` (the same but for case, `_` or `-`), for "did you mean".
pub fn near_key<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
    let k = fold(key);
    known.iter().copied().find(|n| fold(n) == k)
}

/// Checks that `object` has only `known` keys, each once, and the `required` ones.
pub fn check_keys(object: &Node, known: &[&str], required: &[&str], format: &str, out: &mut Vec<Diagnostic>) {
    let Value::Object(members) = &object.value else { return };
    for (i, m) in members.iter().enumerate() {
        if let Some(first) = members[..i].iter().find(|o| o.key == m.key) {
            out.push(
                Diagnostic::error("json::duplicate-key", m.key_span, format!("`{}` is given twice", m.key))
                    .label("given again")
                    .with(first.key_span, "first given here")
                    .help("keep one of the two"),
            );
        } else if !known.contains(&m.key.as_str()) {
            let help = match near_key(&m.key, known) {
                Some(near) => format!("did you mean `{near}`? Keys are case-sensitive"),
                None => format!("a {format} position has the keys {}", quoted(known)),
            };
            out.push(
                Diagnostic::error(
                    "json::unknown-key",
                    m.key_span,
                    format!("`{}` is not a key of a {format} position", m.key.escape_debug()),
                )
                .label("unknown key")
                .help(help),
            );
        }
    }
    for key in required {
        if object.get(key).is_none() && !members.iter().any(|m| near_key(&m.key, &[key]).is_some()) {
            out.push(
                Diagnostic::error("json::missing-key", first_char(object.span), format!("the position has no `{key}`"))
                    .label(format!("this object needs `{key}`"))
                    .help(format!("add `\"{key}\": …`; a {format} position has the keys {}", quoted(known))),
            );
        }
    }
}

fn quoted(keys: &[&str]) -> String {
    keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}
