//! No public panic: every public parsing entry point, called on arbitrary input with arbitrary
//! spans and offsets, returns (a finding, `None` or an error), and never panics.
//!
//! `tests/properties/hostile.rs` checks what the findings say about hostile input; this test calls the
//! library's functions as a user can, including those that take a caller's spans.

use kifu::diagnostic::excerpt::{excerpt, LineIndex};
use kifu::diagnostic::{Diagnostic, RecordSource};
use kifu::fen::{self, Dialect, Kind};
use kifu::psn::{self, build, scan, Options};
use kifu::sfen::{self, DialectChoice};
use kifu::views;
use kifu::Span;
use proptest::prelude::*;

/// Text from any characters, with those of the notations more often.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => any::<String>(),
        3 => "[-+/ 0-9a-zA-Z\\[\\]{}()\":,.*'~%;\\n\\r\\t]{0,80}",
    ]
}

/// An offset into a short text, or well past its end.
fn offset() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0..100usize, 1 => any::<usize>()]
}

fn span() -> impl Strategy<Value = Span> {
    (offset(), offset()).prop_map(|(start, end)| Span { start, end })
}

/// A diagnostic pointing at `span` with a second label at `other`.
fn diagnostic(span: Span, other: Span) -> Diagnostic {
    Diagnostic::error(kifu::diagnostic::Code::SfenSyntax, span, "message")
        .label("label")
        .with(other, "other")
        .help("help")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn records_never_panic(text in text()) {
        for choice in [DialectChoice::Auto, DialectChoice::Usi, DialectChoice::Sfen2007] {
            let _ = sfen::check(&text, choice);
        }
        for kind in [Kind::Fen, Kind::Epd] {
            for dialect in [Dialect::Standard, Dialect::Chess960] {
                let _ = fen::check(&text, kind, dialect);
            }
        }
        let _ = text.parse::<sfen::Position>();
        let _ = text.parse::<fen::Position>();
        let _ = kifu::json::shogi::parse_square(&text);
        let _ = kifu::json::chess::parse_square(&text);
        let _ = kifu::json::chess::parse_piece_code(&text);
        let _ = views::shogi_move_squares(&text);
        let _ = views::chess_move_squares(&text);
    }

    #[test]
    fn json_never_panics(text in text()) {
        let (nodes, _) = kifu::json::read_stream(&text);
        for node in &nodes {
            let _ = kifu::json::shogi::read(node);
            let _ = kifu::json::chess::read(node);
        }
    }

    #[test]
    fn psn_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200), text in text(), strict: bool) {
        let options = Options { strict, replay: true };
        let _ = psn::check_bytes(&bytes, options);
        let _ = psn::check_bytes(text.as_bytes(), options);
    }

    /// A game's bounds and tokens taken from one text and used on another, moved anywhere.
    #[test]
    fn psn_games_with_any_spans_never_panic(a in text(), b in text(), start in offset(), end in offset(), shift in offset()) {
        for mut raw in scan::scan(&a) {
            let _ = psn::check_game(&raw, &b, Options::default());
            raw.start = start;
            raw.end = end;
            let _ = psn::check_game(&raw, &b, Options::default());
            for token in &mut raw.tokens {
                token.span = Span { start: token.span.start.saturating_add(shift), end: token.span.end };
            }
            let _ = psn::check_game(&raw, &a, Options::default());
        }
    }

    #[test]
    fn psn_moves_with_any_spans_never_panic(word in text(), span in span()) {
        for kind in scan::WordKind::ALL {
            let _ = build::decode(kind, &word, span);
        }
        let _ = scan::classify(&word);
    }

    /// Diagnostics with any spans, shown over any text: excerpts, places, JSON and reports.
    #[test]
    fn diagnostics_with_any_spans_never_panic(text in text(), a in span(), b in span(), at in offset()) {
        let d = diagnostic(a, b);
        let index = LineIndex::new(&text);
        let _ = excerpt(&text, &index, &d);
        let _ = index.place(&text, at);
        let _ = index.line_of(at);
        let _ = index.line_span(&text, at);
        let _ = d.to_json("file", 1, &text);
        let _ = a.slice(&text);
        let _ = a.columns(&text);
        let _ = d.clone().shifted(at);
        let _ = kifu::diagnostic::is_sound(b, std::slice::from_ref(&d));
        let shown = RecordSource::display_text(&text);
        let source = RecordSource { name: "file", text: &shown, line: 1, columns: &[] };
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
        let _ = handler.render_report(&mut out, &d.report(&source));
    }

    /// Positions read from any text, drawn every way.
    #[test]
    fn views_never_panic(text in text()) {
        if let Ok(p) = text.parse::<sfen::Position>() {
            for style in [views::text::Style::Unicode, views::text::Style::Ascii, views::text::Style::Kanji] {
                let _ = views::text::shogi(&p, style);
            }
            let _ = views::svg::shogi(&p, views::Names::Kanji, &[]);
        }
        if let Ok(p) = text.parse::<fen::Position>() {
            let _ = views::svg::chess(&p, &[]);
        }
        let _ = views::escape(&text);
    }

    #[test]
    fn grammars_never_panic(text in text()) {
        let _ = kifu::playground::limits::check_text(&text);
    }
}
