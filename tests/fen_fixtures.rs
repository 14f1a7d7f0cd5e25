//! One snapshot per FEN and EPD fixture: the pest tree, the syntax tree, the canonical text and
//! the rendered diagnostics; and what must hold beyond the snapshots: `ok/` records have no
//! errors and survive a print-and-parse round trip, `err/` records have at least one, every
//! diagnostic is complete, and every span nests inside its parent's.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use kifu::fen::{self, ast, parser::FenParser, parser::Rule, Dialect, Kind, Position};
use kifu::Span;
use pest::Parser;

fn settings(path: &Path) -> (Kind, Dialect, Rule) {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let epd = path.extension().is_some_and(|e| e == "epd");
    let chess960 = name.starts_with("dialect_chess960_");
    match (epd, chess960) {
        (true, _) => (Kind::Epd, Dialect::Standard, Rule::epd_record),
        (false, true) => (Kind::Fen, Dialect::Chess960, Rule::fen960_record),
        (false, false) => (Kind::Fen, Dialect::Standard, Rule::fen_record),
    }
}

fn assert_nested(record: &ast::Record, file: &str) {
    let inside = |outer: Span, inner: Span, what: &str| {
        assert!(outer.contains(inner), "{file}: {what} {inner:?} outside {outer:?}")
    };
    if let Some(p) = &record.placement {
        inside(record.span, p.span, "placement");
        for rank in &p.ranks {
            inside(p.span, rank.span, "rank");
            for cell in p.cells_of(rank) {
                inside(rank.span, cell.span, "cell");
            }
        }
    }
    if let Some(c) = &record.castling {
        inside(record.span, c.span, "castling");
        for r in &c.rights {
            inside(c.span, r.span, "castling right");
        }
    }
    for span in [
        record.side.map(|s| s.span),
        record.en_passant.map(|e| e.span),
        record.halfmove.map(|h| h.span),
        record.fullmove.map(|f| f.span),
        record.operations,
    ]
    .into_iter()
    .flatten()
    {
        inside(record.span, span, "field");
    }
}

fn snapshot(path: &Path) -> String {
    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
    let raw = std::fs::read_to_string(path).expect("fixture is UTF-8");
    let text = raw.strip_suffix('\n').unwrap_or(&raw);
    assert!(!text.contains('\n'), "{file}: a fixture holds one record");
    let (kind, dialect, rule) = settings(path);
    let checked = fen::check(text, kind, dialect);
    let ok = path.parent().and_then(|p| p.file_name()).is_some_and(|n| n == "ok");
    let errors = checked.diagnostics.iter().filter(|d| d.is_error()).count();
    if ok {
        assert_eq!(errors, 0, "{file}: an ok/ fixture has errors: {:#?}", checked.diagnostics);
        let position = checked.position.as_ref().expect("ok fixtures read into a position");
        if kind == Kind::Fen {
            let printed = position.to_string();
            let again: Position = printed.parse().expect("canonical text parses");
            assert_eq!(&again, position, "{file}: round trip through {printed}");
        }
    } else {
        assert!(errors > 0, "{file}: an err/ fixture has no error");
    }
    for d in &checked.diagnostics {
        common::assert_complete(d, text, &file, &["fen::", "input::"]);
    }
    assert_nested(&checked.record, &file);

    let mut out = String::new();
    let _ = writeln!(out, "## Input\n{text}\n");
    let _ = writeln!(out, "## Pairs");
    match FenParser::parse(rule, text) {
        Ok(pairs) => out.push_str(&kifu::tree::render(pairs)),
        Err(_) => {
            let _ = writeln!(out, "not a `{rule:?}`");
        }
    }
    let _ = writeln!(out, "\n## AST\n{:#?}\n", checked.record);
    if let Some(p) = &checked.position {
        let _ = writeln!(out, "## Display\n{p}\n\n## Board\n{}", p.diagram());
    }
    let _ = writeln!(out, "## Diagnostics");
    out.push_str(&common::render(&checked.diagnostics, &file, text));
    out
}

#[test]
fn fen_fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/fen");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        insta::glob!("fixtures/fen/*/*.{fen,epd}", |path| {
            insta::assert_snapshot!(snapshot(path));
        });
    });
}
