//! A report on a one-line record drawn directly, without colour: the characters miette's
//! graphical handler draws for it (its Unicode theme without colour, words wrapped at ASCII
//! spaces), at a small part of the cost.
//!
//! miette's handler is general: any number of lines, spans across lines, tabs, wide characters,
//! colours, links, causes, related reports. Drawing one report took it about 114,000
//! instructions, as much as finding the repair of a slipped record. Most reports are on one
//! line of printable ASCII, with labels on that line; [`draw_plain`] draws those, and says when
//! it cannot, so that the caller asks miette. A test draws thousands of reports both ways and
//! compares them byte for byte.

use std::fmt::Write as _;

use super::render::{escape_unsafe, RecordSource};
use super::{Diagnostic, Severity};

/// miette's renderer of human reports as kifu draws them: coloured or not, `width` columns wide,
/// words wrapped at ASCII spaces (faster than Unicode line breaking). Without colour,
/// [`draw_plain`] draws most reports exactly as it does.
#[cfg(feature = "cli")]
pub fn graphical_handler(color: bool, width: usize) -> miette::GraphicalReportHandler {
    use miette::GraphicalTheme;
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    miette::GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
}

/// Labels sorted with a stable sort give the order miette's unstable sort gives only up to this
/// many (the standard library sorts short slices by insertion, which keeps equal keys in order).
const MAX_LABELS: usize = 20;

/// Draws `d` on `source` onto `out`, as [`graphical_handler`] draws it without colour, `width`
/// columns wide. False, with `out` as it was, when the report is not one this drawing knows to
/// match: the record's text is not all printable ASCII, or is an excerpt of a longer line; the
/// message or help has a character outside the few it measures; or the report has more than 20
/// labels.
pub fn draw_plain(d: &Diagnostic, source: &RecordSource<'_>, width: usize, out: &mut String) -> bool {
    let start = out.len();
    if draw(d, source, width, out).is_some() {
        true
    } else {
        out.truncate(start);
        false
    }
}

/// A label as the drawing sees it: its span kept inside the text, and its words, if any.
struct Mark {
    start: usize,
    len: usize,
    text: Option<String>,
    primary: bool,
}

fn draw(d: &Diagnostic, source: &RecordSource<'_>, width: usize, out: &mut String) -> Option<()> {
    let text = source.text;
    if !source.columns.is_empty() || source.line == 0 || !text.bytes().all(printable) {
        return None;
    }
    if d.labels.len() > MAX_LABELS {
        return None;
    }
    let len = text.len();
    let mut marks = Vec::with_capacity(d.labels.len());
    for l in &d.labels {
        let start = l.span.start.min(len);
        let end = l.span.end.min(len).max(start);
        // Escaped, as miette gets it: no line break is left.
        let words = (!l.message.is_empty()).then(|| escape_unsafe(&l.message).into_owned());
        marks.push(Mark { start, len: end - start, text: words, primary: l.primary });
    }
    marks.sort_by_key(|m| m.start);
    // Room for the frame's lines at once: the text and a line of marks, each label's words, the
    // message and help and a few lines of frame.
    let words: usize = marks.iter().filter_map(|m| m.text.as_ref()).map(|w| w.len() + 4 * len).sum();
    out.reserve(words + 4 * len + d.message.len() + d.help.as_ref().map_or(0, String::len) + 160);

    // The code, then the message after the severity's sign.
    let _ = write!(out, "{}\n\n", d.code);
    let sign = match d.severity {
        Severity::Error => "  × ",
        Severity::Warning => "  ⚠ ",
    };
    wrap(&escape_unsafe(&d.message), width.saturating_sub(2), sign, "  │ ", out)?;
    out.push('\n');

    if !marks.is_empty() {
        snippet(&marks, source, out);
    }
    if let Some(help) = &d.help {
        wrap(&escape_unsafe(help), width.saturating_sub(2), "  help: ", "        ", out)?;
        out.push('\n');
    }
    Some(())
}

/// The record's line with its labels under it, in a frame headed by the place of the primary
/// label (`marks` sorted by their starts).
fn snippet(marks: &[Mark], source: &RecordSource<'_>, out: &mut String) {
    let line_len = source.text.len();
    let digits = source.line.to_string().len();
    let primary = marks.iter().find(|m| m.primary).unwrap_or(&marks[0]);
    let pad = " ".repeat(digits + 2);
    let _ = writeln!(out, "{pad}╭─[{}:{}:{}]", escape_unsafe(source.name), source.line, primary.start + 1);
    let _ = write!(out, " {} │ ", source.line);
    out.push_str(source.text);
    out.push('\n');

    // The labels shown under the line: those that start or end on it (miette's test, which
    // leaves out a point just past its end).
    let shown: Vec<&Mark> = marks
        .iter()
        .filter(|m| {
            let reach = m.start + m.len.max(1);
            m.start < line_len || (reach > 0 && reach <= line_len)
        })
        .collect();
    if !shown.is_empty() {
        let gutter = format!(" {} · ", " ".repeat(digits));
        out.push_str(&gutter);
        let mut highest = 0;
        let mut bars = Vec::with_capacity(shown.len());
        for m in &shown {
            let start = m.start.max(highest);
            let end = if m.len == 0 { start + 1 } else { (m.start + m.len).max(start + 1) };
            let bar = (start + end) / 2;
            push_repeat(out, " ", start - highest);
            push_repeat(out, "─", bar - start);
            out.push_str(match (m.len, &m.text) {
                (0, _) => "▲",
                (_, Some(_)) => "┬",
                (_, None) => "─",
            });
            push_repeat(out, "─", end - bar - 1);
            highest = highest.max(end);
            bars.push(bar);
        }
        out.push('\n');
        // Each label's words, the last first, with a bar down from each label before it.
        for m in shown.iter().rev() {
            let Some(words) = &m.text else { continue };
            out.push_str(&gutter);
            let mut column = 1;
            for (other, &bar) in shown.iter().zip(&bars) {
                while column < bar + 1 {
                    out.push(' ');
                    column += 1;
                }
                // miette tells the label apart by its words and span, not its place.
                if (other.start, other.len, &other.text) != (m.start, m.len, &m.text) {
                    out.push('│');
                    column += 1;
                } else {
                    let _ = writeln!(out, "╰── {words}");
                    break;
                }
            }
        }
    }
    let _ = writeln!(out, "{pad}╰────");
}

fn push_repeat(out: &mut String, s: &str, n: usize) {
    for _ in 0..n {
        out.push_str(s);
    }
}

/// True for a byte of printable ASCII: a space, a letter, a digit or a mark.
fn printable(b: u8) -> bool {
    (b' '..=b'~').contains(&b)
}

/// True for a character terminals show one column wide and the wrapping measures so: printable
/// ASCII and the few others kifu's messages use.
fn narrow(c: char) -> bool {
    u8::try_from(c).is_ok_and(printable)
        || matches!(c, '…' | '§' | '→' | '×' | '·' | '—' | '–' | 'é' | '‘' | '’' | '“' | '”')
}

/// A piece of a line as textwrap cuts it: the characters, the spaces after them, and its width.
#[derive(Clone, Copy)]
struct Piece<'a> {
    word: &'a str,
    spaces: usize,
    width: usize,
}

/// Appends `text` filled to `width` columns as `textwrap::fill` fills it with miette's options
/// (the first line after `first`, the others after `rest`; words split at ASCII spaces and after
/// a hyphen between letters or digits; a word longer than a line broken; lines filled first
/// fit). None for a text with a character [`narrow`] does not know (a line break among them).
fn wrap(text: &str, width: usize, first: &str, rest: &str, out: &mut String) -> Option<()> {
    let first_width = width.saturating_sub(first.chars().count());
    let rest_width = width.saturating_sub(rest.chars().count());

    // The words, each with the spaces after it (textwrap's `AsciiSpace`: a word ends where a
    // character that is not a space follows a space). Each is split after its hyphens between
    // letters or digits, and what is still wider than a line is broken; an empty piece comes
    // first, so that the first word may go to the second line.
    let mut pieces = Vec::with_capacity(text.len() / 3 + 2);
    pieces.push(Piece { word: "", spaces: 0, width: 0 });
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        let (mut ascii, mut hyphen) = (true, false);
        while let Some(&b) = bytes.get(at).filter(|&&b| b != b' ') {
            ascii &= printable(b);
            hyphen |= b == b'-';
            at += 1;
        }
        let word = &text[start..at];
        let end = at;
        while bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        let spaces = at - end;
        if !ascii && !word.chars().all(narrow) {
            return None;
        }
        let mut from = 0;
        if hyphen {
            for (i, _) in word.match_indices('-') {
                let before = word[..i].chars().next_back().is_some_and(char::is_alphanumeric);
                let after = word[i + 1..].chars().next().is_some_and(char::is_alphanumeric);
                if before && after {
                    push_broken(&mut pieces, &word[from..=i], 0, rest_width);
                    from = i + 1;
                }
            }
        }
        if from < word.len() || from == 0 {
            push_broken(&mut pieces, &word[from..], spaces, rest_width);
        }
    }

    // First fit.
    let mut line_start = 0;
    let mut filled = 0;
    let mut byte = 0;
    let mut lines = 0;
    let emit = |from: usize, to: usize, byte: &mut usize, lines: &mut usize, out: &mut String| {
        let group = &pieces[from..to];
        let len: usize = group.iter().map(|p| p.word.len() + p.spaces).sum();
        let last_spaces = group.last().map_or(0, |p| p.spaces);
        if *lines > 0 {
            out.push('\n');
        }
        out.push_str(if *lines == 0 { first } else { rest });
        out.push_str(&text[*byte..*byte + len - last_spaces]);
        *byte += len;
        *lines += 1;
    };
    for (i, p) in pieces.iter().enumerate() {
        let line_width = if lines == 0 { first_width } else { rest_width };
        if filled + p.width > line_width && i > line_start {
            emit(line_start, i, &mut byte, &mut lines, out);
            line_start = i;
            filled = 0;
        }
        filled += p.width + p.spaces;
    }
    emit(line_start, pieces.len(), &mut byte, &mut lines, out);
    Some(())
}

/// Pushes `word` (followed by `spaces` spaces) as one piece, or in pieces of `line_width`
/// characters when it is wider.
fn push_broken<'a>(pieces: &mut Vec<Piece<'a>>, word: &'a str, spaces: usize, line_width: usize) {
    let width = if word.is_ascii() { word.len() } else { word.chars().count() };
    if width <= line_width {
        pieces.push(Piece { word, spaces, width });
        return;
    }
    let mut from = 0;
    let mut taken = 0;
    for (i, _) in word.char_indices() {
        if taken > 0 && taken + 1 > line_width {
            pieces.push(Piece { word: &word[from..i], spaces: 0, width: taken });
            from = i;
            taken = 0;
        }
        taken += 1;
    }
    pieces.push(Piece { word: &word[from..], spaces, width: taken });
}

/// Draws `d` on the record `text`, line `line` of a file, both here and by miette, at several
/// widths, and fails unless they agree; true when [`draw_plain`] took the report at every width.
#[cfg(all(test, feature = "cli"))]
pub(crate) fn draws_as_miette(d: &Diagnostic, text: &str, line: usize) -> bool {
    let shown = RecordSource::display_text(text);
    let source = RecordSource { name: "records.sfen", text: &shown, line, columns: &[] };
    let mut taken = true;
    for width in [100, 61, 37, 12] {
        let mut out = "before ".to_owned();
        if draw_plain(d, &source, width, &mut out) {
            let mut theirs = String::new();
            graphical_handler(false, width).render_report(&mut theirs, &d.report(&source)).expect("miette draws");
            assert_eq!(out["before ".len()..], theirs, "{d:?} on {text:?}, {width} columns");
        } else {
            assert_eq!(out, "before ", "a refusal leaves the output as it was");
            taken = false;
        }
    }
    taken
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use crate::diagnostic::codes;
    use crate::diagnostic::Label;
    use crate::span::Span;
    use proptest::prelude::*;

    #[test]
    fn refuses_what_it_does_not_draw() {
        let d = Diagnostic::error(codes::sfen::RANK_WIDTH, Span::new(0, 1), "a message");
        let mut out = String::new();
        for (text, columns) in [("a\tb", &[][..]), ("ｂ", &[]), ("abc", &[(0, 40)][..])] {
            let source = RecordSource { name: "x", text, line: 1, columns };
            assert!(!draw_plain(&d, &source, 100, &mut out), "{text:?}");
        }
        let source = RecordSource { name: "x", text: "abc ", line: 1, columns: &[] };
        let wide_message = Diagnostic { message: "将棋".into(), ..d.clone() };
        let wide = Diagnostic { help: Some("ｂ".into()), ..d.clone() };
        for d in [wide_message, wide] {
            assert!(!draw_plain(&d, &source, 100, &mut out));
        }
        assert!(out.is_empty());
        assert!(draw_plain(&d, &source, 100, &mut out));
    }

    /// Words of letters, hyphens, spaces and the few wider characters, some long.
    fn words() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[ a-z`…×—-]{0,8}( {1,3}[a-z`…-]{1,12}|-|[a-z]{20,40}){0,30} {0,2}")
            .expect("a regex")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn draws_any_labels_and_words_as_miette_does(
            text in "[ -~]{0,70}",
            labels in proptest::collection::vec((0usize..80, 0usize..12, "[a-z `-]{0,14}", any::<bool>()), 0..6),
            message in words(),
            help in proptest::option::of(words()),
            warning in any::<bool>(),
            line in 1usize..20_000,
        ) {
            let labels: Vec<Label> = labels
                .into_iter()
                .map(|(start, len, message, primary)| Label { span: Span::new(start, start + len), message, primary })
                .collect();
            let severity = if warning { Severity::Warning } else { Severity::Error };
            let d = Diagnostic { code: codes::sfen::RANK_WIDTH, severity, message, labels, help, fixes: Vec::new() };
            prop_assert!(draws_as_miette(&d, &text, line), "refused");
        }
    }
}
