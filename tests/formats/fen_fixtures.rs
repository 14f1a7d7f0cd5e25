//! One snapshot per FEN and EPD fixture: the pest tree, the syntax tree, the canonical text and
//! the rendered diagnostics; and what must hold beyond the snapshots: `ok/` records have no
//! errors and survive a print-and-parse round trip, `err/` records have at least one, every
//! diagnostic is complete, and every span nests inside its parent's.

use crate::common;

use std::path::Path;

use common::fixture::Fixture;
use kifu::fen::{self, parser::FenParser, parser::Rule, Dialect, Kind, Position};
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

fn assert_nested(record: &fen::Record, f: &Fixture) {
    f.assert_grid_nested(record.span, record.placement.as_ref(), "placement");
    if let Some(c) = &record.castling {
        f.inside(record.span, c.span, "castling");
        f.inside_all(c.span, c.rights.iter().map(|r| r.span), "castling right");
    }
    let fields = [
        record.side.map(|s| s.span),
        record.en_passant.map(|e| e.span),
        record.halfmove.map(|h| h.span),
        record.fullmove.map(|f| f.span),
        record.operations,
    ];
    f.inside_all(record.span, fields.into_iter().flatten(), "field");
}

fn snapshot(path: &Path) -> String {
    let f = Fixture::read(path);
    let (kind, dialect, rule) = settings(path);
    let checked = fen::check(&f.text, kind, dialect);
    let round_trip = kind == Kind::Fen;
    f.assert_verdict::<Position>(&checked.diagnostics, checked.position.as_ref(), round_trip, &["fen::", "input::"]);
    assert_nested(&checked.record, &f);
    let pairs = match FenParser::parse(rule, &f.text) {
        Ok(pairs) => kifu::notation::tree::render(pairs),
        Err(_) => format!("not a `{rule:?}`\n"),
    };
    let display = checked.position.as_ref().map(|p| {
        let board = p.diagram();
        format!("{p}\n\n## Board\n{}", board.strip_suffix('\n').unwrap_or(&board))
    });
    f.snapshot(&pairs, &checked.record, display, &checked.diagnostics)
}

#[test]
fn fen_fixtures() {
    common::fixture::settings(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/fen")).bind(|| {
        insta::glob!("..", "fixtures/fen/*/*.{fen,epd}", |path| {
            insta::assert_snapshot!(snapshot(path));
        });
    });
}
