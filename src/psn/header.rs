//! Header lines: `[Keyword "text"]` (§1.1), and the ways real files write them.

use crate::diagnostic::codes;
use pest::Parser;

use super::findings::Findings;
use super::model::Header;
use super::parser::{PsnParser, Rule};
use super::scan;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// Reads the header line `line`, which starts at `offset` of its game's text: one header, or
/// several on one line (Asgts, lishogi).
pub fn read(line: &str, offset: usize, headers: &mut Vec<Header>, diagnostics: &mut Findings) {
    // Several headers share the line where a `]` is followed by a `[`.
    let mut start = 0;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b']' {
            let rest = &line[i + 1..];
            let next = rest.trim_start();
            if next.starts_with('[') {
                let cut = i + 1;
                one(&line[start..cut], offset + start, headers, diagnostics);
                let at = cut + (rest.len() - next.len());
                diagnostics.push(
                    Diagnostic::warning(
                        codes::psn::HEADER_SHARED_LINE,
                        Span::new(offset + at, offset + at + 1),
                        "a second header on the same line",
                    )
                    .label("this header shares its line with the one before")
                    .help("the 1998 spec writes one header per line: put each `[…]` on a line of its own"),
                );
                start = at;
                i = at;
                continue;
            }
        }
        i += 1;
    }
    one(&line[start..], offset + start, headers, diagnostics);
}

fn one(text: &str, offset: usize, headers: &mut Vec<Header>, diagnostics: &mut Findings) {
    let at = |a: usize, b: usize| Span::new(offset + a, offset + b);
    let spec = scan::is_spec_header(text);
    if spec || scan::is_named_header(text) {
        headers.push(well_formed(text, offset, spec, diagnostics));
        return;
    }
    let Ok(mut pairs) = PsnParser::parse(Rule::header_lenient, text) else {
        // `header_lenient` accepts every line that starts with `[`.
        diagnostics.push(
            Diagnostic::error(codes::psn::HEADER_SHAPE, at(0, text.len()), "this header line cannot be read")
                .label("not a header")
                .help("write a header as `[Keyword \"text\"]`"),
        );
        return;
    };
    let mut key = None;
    let mut colon = None;
    let mut spaces = Vec::new();
    let mut rest = Span::default();
    let mut close = None;
    let mut trailer = Span::default();
    for p in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
        let s = at(p.as_span().start(), p.as_span().end());
        match p.as_rule() {
            Rule::keyword_lenient => key = Some(s),
            Rule::header_colon => colon = Some(s),
            Rule::header_space => spaces.push(s),
            Rule::header_rest => rest = s,
            Rule::header_close => close = Some(s),
            Rule::header_trailer => trailer = s,
            _ => {}
        }
    }
    let local = |s: Span| &text[s.start - offset..s.end - offset];
    let whole = at(0, text.len());
    let Some(key_span) = key else {
        diagnostics.push(
            Diagnostic::error(codes::psn::HEADER_KEYWORD, at(0, 1), "a header with no keyword")
                .label("a keyword should follow `[`")
                .help("write a header as `[Keyword \"text\"]`, for example `[Sente \"Habu Yoshiharu\"]`"),
        );
        return;
    };
    let key_text = local(key_span);
    if close.is_none() {
        diagnostics.push(
            Diagnostic::error(codes::psn::HEADER_UNCLOSED, at(0, 1), "this header line never closes")
                .label("the header opens here")
                .with(Span::point(whole.end), "the line ends here without `]`")
                .help("end the header with `\"]` on the same line"),
        );
    }
    if !key_text.chars().all(|c| c.is_ascii_alphabetic()) {
        diagnostics.push(tag_name(key_span, key_text));
    }
    gap(key_span, key_text, colon, &spaces, |s| local(s) == " ", diagnostics);
    let raw = local(rest).trim_end();
    let raw_span = Span::new(rest.start, rest.start + raw.len());
    let (value, value_span) = value(raw, raw_span, close.is_some(), key_text, diagnostics);
    if !local(trailer).trim().is_empty() {
        diagnostics.push(
            Diagnostic::error(codes::psn::HEADER_TRAILER, trailer, "text after the header's closing `]`")
                .label("after the header")
                .help("a header line holds the header only: move this text into a `{comment}`"),
        );
    }
    headers.push(Header { key: key_text.into(), value: value.into(), span: whole, key_span, value_span });
}

/// The findings on what is between the keyword (at `key_span`) and the value: a `colon`, and
/// `spaces` that are not one space (`one_space`).
fn gap(
    key_span: Span,
    key_text: &str,
    colon: Option<Span>,
    spaces: &[Span],
    one_space: impl Fn(Span) -> bool,
    diagnostics: &mut Findings,
) {
    if let Some(c) = colon {
        diagnostics.push(
            Diagnostic::warning(codes::psn::HEADER_COLON, c, "a colon after the keyword")
                .label("gshogi writes `[Sente: name\"]`")
                .help(format!("the spec writes `[{key_text} \"text\"]`, with no colon")),
        );
    }
    let gap = spaces.first().map(|s| s.to(*spaces.last().unwrap_or(s)));
    if spaces.len() != 1 || spaces.iter().any(|s| !one_space(*s)) {
        let span = gap.unwrap_or(Span::point(key_span.end + colon.map_or(0, |c| c.len())));
        diagnostics.push(
            Diagnostic::warning(codes::psn::HEADER_SPACE, span, "the keyword and the value should be one space apart")
                .label(if spaces.is_empty() { "no space here" } else { "not a single space" })
                .help("write one space between the keyword and the quoted value (§1.1: `SPC = ' '`)"),
        );
    }
}

/// The header of `text` (at `offset`), which is in the spec's form (`spec`) or in it but for
/// its keyword's characters.
fn well_formed(text: &str, offset: usize, spec: bool, diagnostics: &mut Findings) -> Header {
    let at = |a: usize, b: usize| Span::new(offset + a, offset + b);
    let space = text.find(' ').unwrap_or(1);
    let key = text.get(1..space).unwrap_or("");
    if !spec {
        diagnostics.push(tag_name(at(1, space), key));
    }
    let value = text.get(space + 2..text.len().saturating_sub(2)).unwrap_or("");
    Header {
        key: key.into(),
        value: value.into(),
        span: at(0, text.len()),
        key_span: at(1, space),
        value_span: at(space + 2, text.len().saturating_sub(2)),
    }
}

/// The value of a header, `raw` (at `raw_span`) with its quotes, in a header that is `closed`
/// by `]` or not, and where it is without them.
fn value(raw: &str, raw_span: Span, closed: bool, key_text: &str, diagnostics: &mut Findings) -> (String, Span) {
    if !closed {
        // Unclosed: the error says so; the value is what follows, without its quotes.
        let inner = raw.trim_start_matches('"').trim_end_matches('"');
        let lead = raw.len() - raw.trim_start_matches('"').len();
        (inner.to_owned(), Span::new(raw_span.start + lead, raw_span.start + lead + inner.len()))
    } else if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') {
        let inner = &raw[1..raw.len() - 1];
        if let Some(q) = inner.find('"') {
            let q = raw_span.start + 1 + q;
            diagnostics.push(
                Diagnostic::warning(
                    codes::psn::HEADER_QUOTE,
                    Span::new(q, q + 1),
                    "a double quote inside a header value",
                )
                .label("this quote does not end the value")
                .with(Span::new(raw_span.end - 1, raw_span.end), "the value ends here")
                .help("PSN has no escape for `\"` inside a value: write `'` instead"),
            );
        }
        (inner.to_owned(), Span::new(raw_span.start + 1, raw_span.end - 1))
    } else {
        let inner = raw.trim_start_matches('"').trim_end_matches('"');
        let lead = raw.len() - raw.trim_start_matches('"').len();
        diagnostics.push(
            Diagnostic::warning(codes::psn::HEADER_UNQUOTED, raw_span, "the header's value is not between two quotes")
                .label(if raw.ends_with('"') { "no opening quote" } else { "not quoted" })
                .help(format!("write the value in double quotes: `[{key_text} \"{inner}\"]`")),
        );
        (inner.to_owned(), Span::new(raw_span.start + lead, raw_span.start + lead + inner.len()))
    }
}

/// A keyword with characters other than letters.
fn tag_name(span: Span, key: &str) -> Diagnostic {
    Diagnostic::warning(codes::psn::TAG_NAME, span, format!("the keyword `{key}` has characters other than letters"))
        .label("not only letters")
        .help("the 1998 spec's keywords are words of letters, such as `Sente` or `BlackGrade`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_one(line: &str) -> (Vec<Header>, Vec<crate::diagnostic::Code>) {
        let (mut h, mut d) = (Vec::new(), Findings::new());
        read(line, 0, &mut h, &mut d);
        (h, d.into_vec().iter().map(|d| d.code).collect())
    }

    #[test]
    fn reads_the_spec_form_and_its_variants() {
        let (h, d) = read_one("[Sente \"The Champion\"]");
        assert_eq!((h[0].key.as_str(), h[0].value.as_str(), d.len()), ("Sente", "The Champion", 0));
        let (h, d) = read_one("[Comment \"\"Yokofutori Kuchusen\"(air fight) opening\"]");
        assert_eq!(h[0].value, "\"Yokofutori Kuchusen\"(air fight) opening");
        assert_eq!(d, [crate::diagnostic::codes::psn::HEADER_QUOTE]);
        let (h, d) = read_one("[Sente: name\"]");
        assert_eq!((h[0].key.as_str(), h[0].value.as_str()), ("Sente", "name"));
        assert_eq!(d, [crate::diagnostic::codes::psn::HEADER_COLON, crate::diagnostic::codes::psn::HEADER_UNQUOTED]);
        let (h, d) = read_one("[Black_grade \"3dan\"]");
        assert_eq!((h[0].value.as_str(), d), ("3dan", vec![crate::diagnostic::codes::psn::TAG_NAME]));
        let (h, d) = read_one("[Sente \"a\"] [Gote \"b\"]");
        assert_eq!((h.len(), d), (2, vec![crate::diagnostic::codes::psn::HEADER_SHARED_LINE]));
        let (h, d) = read_one("[Sente \"a\"");
        assert_eq!((h[0].value.as_str(), d), ("a", vec![crate::diagnostic::codes::psn::HEADER_UNCLOSED]));
    }
}
