//! One snapshot per SFEN fixture: the pest tree, the syntax tree, the canonical text and the
//! rendered diagnostics. Beyond the snapshots, each fixture is checked for what must hold:
//! `ok/` records have no errors and survive a print-and-parse round trip, `err/` records have at
//! least one, every diagnostic is complete and points inside the record, and every span of the
//! syntax tree nests inside its parent's.

use crate::common;

use std::path::Path;

use common::fixture::Fixture;
use kifu::sfen::{self, ast, parser::Rule, parser::SfenParser, DialectChoice, Position};
use pest::Parser;

fn dialect_of(path: &Path) -> DialectChoice {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with("dialect_usi_") {
        DialectChoice::Usi
    } else if name.starts_with("dialect_sfen2007_") {
        DialectChoice::Sfen2007
    } else {
        DialectChoice::Auto
    }
}

fn assert_nested(record: &ast::Record, f: &Fixture) {
    f.assert_grid_nested(record.span, record.board.as_ref(), "board");
    if let Some(hand) = &record.hand {
        f.inside(record.span, hand.span, "hand");
        for e in &hand.entries {
            f.inside(hand.span, e.span, "hand entry");
            f.inside(e.span, e.piece.span, "hand piece");
            f.inside_all(e.span, e.count.map(|c| c.span), "hand count");
        }
    }
    f.inside_all(record.span, record.side.map(|s| s.span), "side");
    f.inside_all(record.span, record.move_number.map(|m| m.span), "move number");
}

fn snapshot(path: &Path) -> String {
    let f = Fixture::read(path);
    let checked = sfen::check(&f.text, dialect_of(path));
    f.assert_verdict::<Position>(&checked.diagnostics, checked.position.as_ref(), true, &["sfen::", "input::"]);
    assert_nested(&checked.record, &f);
    let pairs = match SfenParser::parse(Rule::record, &f.text) {
        Ok(pairs) => kifu::notation::tree::render(pairs),
        Err(e) => format!("not a `record`: expected {}\n", sfen::expected_words(&e)),
    };
    f.snapshot(&pairs, &checked.record, checked.position.as_ref().map(Position::to_string), &checked.diagnostics)
}

#[test]
fn sfen_fixtures() {
    common::fixture::settings(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/sfen")).bind(|| {
        insta::glob!("..", "fixtures/sfen/*/*.sfen", |path| {
            insta::assert_snapshot!(snapshot(path));
        });
    });
}

/// Every fixture the spec notes cite as a decision's test exists, so the notes cannot drift.
#[test]
fn spec_notes_cite_existing_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let notes = std::fs::read_to_string(root.join("docs/spec-notes.md")).expect("docs/spec-notes.md");
    let mut cited = 0;
    for word in notes.split('`') {
        let Some((dir, name)) = word.split_once('/') else { continue };
        if !matches!(dir, "ok" | "err") || name.contains('*') || name.contains(' ') {
            continue;
        }
        cited += 1;
        let exists = ["sfen/{}.sfen", "fen/{}.fen", "fen/{}.epd", "psn/{}.psn"]
            .iter()
            .any(|pattern| root.join("tests/fixtures").join(pattern.replace("{}", &format!("{dir}/{name}"))).exists());
        assert!(exists, "spec notes cite {word}, which is not a fixture");
    }
    assert!(cited > 40, "only {cited} fixtures cited");
}
