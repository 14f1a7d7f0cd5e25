//! The grammar's verdict on a game the reader found no error in.
//!
//! The reader cuts a game into lines and tokens by hand ([`super::scan`]), for speed and to
//! explain each fault; the grammar's `game` rule decides whether the game is well-formed. A game
//! in which the reader found no error is read again by that rule, and where the rule stops
//! reading the game gets `psn::syntax`.
//!
//! The rule is not run on the whole game when each of its lines is read as the grammar reads it
//! ([`reads_as_the_grammar`]), which is how nearly every game is:
//!
//! * its words, headers in the spec's shape, won lines, `Variation:` lines and clocks in
//!   parentheses were named by automata compiled from the grammar's rules and checked equal to
//!   them;
//! * its comments, `;` comments and escape lines were found by the character the grammar's
//!   rules start with, and read to where they end (comments by counting braces, as `comment`
//!   does);
//! * each `)` closes a `(` before it, as `variation_close` requires;
//! * each line of prose holds a word of prose as `prose_wordy` reads one, and a word no word
//!   rule reads, so that its other readings fail, as they do in `score_line`;
//! * each header line in another shape is read by `header_line`, where the reader found it.
//!
//! The guard test (`tests/properties/grammar_decides.rs`) holds whole games to the `game` rule.

use pest::Parser;

use super::parser::{PsnParser, Rule};
use super::scan::{self, Kind, RawGame};
use crate::diagnostic::{codes, Diagnostic};
use crate::span::Span;

/// `psn::syntax` where the grammar's `game` rule stops reading `own`, the text of the game
/// `raw`, if it does.
pub(crate) fn verdict(raw: &RawGame, own: &str) -> Option<Diagnostic> {
    if reads_as_the_grammar(raw, own) {
        return None;
    }
    let text = comments_blanked(raw, own)?;
    let error = PsnParser::parse(Rule::game, &text).err()?;
    let mut at = match error.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p.min(own.len()),
    };
    // A place inside a blanked comment need not be one between characters of `own`.
    while !own.is_char_boundary(at) {
        at -= 1;
    }
    Some(report(own, at))
}

/// The report at `at` in `own`.
fn report(own: &str, at: usize) -> Diagnostic {
    let help = "a game's lines hold headers `[Keyword \"text\"]`, then moves, move numbers, comments in `{…}`, \
                variations in `(…)` and a result: put other text in a `{comment}`";
    match own[at..].chars().next().filter(|c| !matches!(c, '\n' | '\r')) {
        Some(c) => Diagnostic::error(
            codes::psn::SYNTAX,
            Span::new(at, at + c.len_utf8()),
            format!("`{}` cannot stand here in a PSN game", c.escape_debug()),
        )
        .label("not read here")
        .help(help),
        None => Diagnostic::error(codes::psn::SYNTAX, Span::point(at), "the line cannot end here in a PSN game")
            .label("the line ends here")
            .help(help),
    }
}

/// True when every token of `raw` is one the grammar reads where the reader put it: header lines
/// before anything else, words, closed comments, `;` comments, clocks in parentheses, escape,
/// won and prose lines, and parentheses that open and close variations in pairs.
fn reads_as_the_grammar(raw: &RawGame, own: &str) -> bool {
    let mut depth = 0usize;
    let mut moved = false;
    raw.tokens.iter().all(|t| {
        let first = !moved;
        moved = t.kind != Kind::HeaderLine;
        match t.kind {
            Kind::HeaderLine => {
                let line = t.span.slice(own);
                first && (scan::is_spec_header(line) || scan::is_named_header(line) || whole(Rule::header_line, line))
            }
            // The reader makes a line prose only where one of its runs between spaces is a
            // word of prose as `prose_wordy` reads one, on a line with no `{`
            // (`scan::has_prose_word`): the line that `prose_line` reads, once its tokens fail.
            Kind::Prose
            | Kind::Word(_)
            | Kind::Comment { closed: true }
            | Kind::LineComment
            | Kind::ParenClock
            | Kind::Escape
            | Kind::WonLine => true,
            Kind::Open => {
                depth += 1;
                true
            }
            Kind::Close => match depth.checked_sub(1) {
                Some(d) => {
                    depth = d;
                    true
                }
                None => false,
            },
            _ => false,
        }
    })
}

/// True when `rule` reads the whole of `text`.
fn whole(rule: Rule, text: &str) -> bool {
    PsnParser::parse(rule, text).is_ok_and(|mut pairs| pairs.next().is_some_and(|p| p.as_span().end() == text.len()))
}

/// `own` with the text of each closed comment blanked (every byte but a line end made `x`),
/// so that the grammar reads the same comments without recursing on their nested braces: the
/// reader and the grammar's `comment` rule both count braces, and a comment's text is not
/// parsed (§1.2.2). Offsets are unchanged.
fn comments_blanked(raw: &RawGame, own: &str) -> Option<String> {
    let mut bytes = own.as_bytes().to_vec();
    for t in raw.tokens.iter().filter(|t| t.kind == Kind::Comment { closed: true }) {
        let inner = t.span.start + 1..t.span.end.saturating_sub(1);
        for b in bytes.get_mut(inner).into_iter().flatten() {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b'x';
            }
        }
    }
    // Whole characters were replaced by ASCII bytes, so the text is UTF-8.
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> RawGame {
        let games = scan::scan(text);
        assert_eq!(games.len(), 1, "{text:?}");
        games.into_iter().next().unwrap_or_default()
    }

    #[test]
    fn lines_the_reader_reads_as_the_grammar_are_not_read_again() {
        for text in [
            "[Sente \"Habu\"]\n1. P7f P3d 2. P2f {a {nested} comment\nover two lines} (2. P4f) 1-0\n",
            "[Event: 1st Meijin]\n  [Black_grade \"3dan\"] [Site \"x\"]\n1.P7g-7f 00:00:01 00:00:02\n",
            "%escape\n1. P7f ; a line comment\n(00:01 / 00:00:09)\n--Black Won--\n",
            "1. P7f P3d\nThis is a fine move by Black\n2. P2f\n",
        ] {
            let raw = game(text);
            assert!(reads_as_the_grammar(&raw, text), "{text:?}");
            assert!(PsnParser::parse(Rule::game, text).is_ok(), "{text:?}");
            assert!(verdict(&raw, text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn the_grammar_has_the_last_word() {
        // Tokens the reader would not read as the grammar does (one word for the whole second
        // line, unknown): the rule reads the game, and stops at the first `(` it cannot read as
        // a variation, after the line's second move.
        let text = "1. P7f P3d\nP2f(abc) P8d(def)\n";
        let mut raw = game("1. P7f P3d\nThis is a fine move by Black\n");
        raw.end = text.len();
        let last = raw.tokens.last_mut().expect("a token");
        (last.span, last.kind) = (Span::new(11, 28), Kind::Unknown);
        assert!(!reads_as_the_grammar(&raw, text));
        let d = verdict(&raw, text).expect("the grammar stops");
        assert_eq!(d.code, codes::psn::SYNTAX);
        assert_eq!(d.span(), Span::new(23, 24));
        assert_eq!(&text[23..24], "(");
        assert_eq!(d.message, "`(` cannot stand here in a PSN game");
        // A `)` with nothing open, at the end of a line.
        let text = "1. P7f )\n";
        let raw = game(text);
        assert!(!reads_as_the_grammar(&raw, text));
        assert!(verdict(&raw, text).is_some_and(|d| d.span() == Span::new(7, 8)));
    }

    #[test]
    fn deep_comments_are_read_without_recursion() {
        let depth = 200_000;
        let text = format!("1. P7f {}{} P3d\n", "{".repeat(depth), "}".repeat(depth));
        let blanked = comments_blanked(&game(&text), &text).expect("UTF-8");
        assert_eq!(blanked.len(), text.len());
        assert!(blanked.starts_with("1. P7f {x") && blanked.ends_with("x} P3d\n"));
        assert!(PsnParser::parse(Rule::game, &blanked).is_ok());
        // Line ends and offsets are kept; characters of several bytes become as many `x`.
        let text = "P7f {é\nb} P3d";
        assert_eq!(comments_blanked(&game(text), text).as_deref(), Some("P7f {xx\nx} P3d"));
    }
}
