//! One snapshot per SFEN fixture: the pest tree, the syntax tree, the canonical text and the
//! rendered diagnostics. Beyond the snapshots, each fixture is checked for what must hold:
//! `ok/` records have no errors and survive a print-and-parse round trip, `err/` records have at
//! least one, every diagnostic is complete and points inside the record, and every span of the
//! syntax tree nests inside its parent's.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use kifu::sfen::{self, ast, parser::Rule, parser::SfenParser, DialectChoice, Position};
use kifu::Span;
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

fn assert_nested(record: &ast::Record, file: &str) {
    let inside = |outer: Span, inner: Span, what: &str| {
        assert!(outer.contains(inner), "{file}: {what} {inner:?} outside {outer:?}")
    };
    if let Some(board) = &record.board {
        inside(record.span, board.span, "board");
        for rank in &board.ranks {
            inside(board.span, rank.span, "rank");
            for cell in board.cells_of(rank) {
                inside(rank.span, cell.span, "cell");
            }
        }
    }
    if let Some(hand) = &record.hand {
        inside(record.span, hand.span, "hand");
        for e in &hand.entries {
            inside(hand.span, e.span, "hand entry");
            inside(e.span, e.piece.span, "hand piece");
            if let Some(c) = e.count {
                inside(e.span, c.span, "hand count");
            }
        }
    }
    if let Some(side) = record.side {
        inside(record.span, side.span, "side");
    }
    if let Some(m) = record.move_number {
        inside(record.span, m.span, "move number");
    }
}

fn snapshot(path: &Path) -> String {
    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
    let raw = std::fs::read_to_string(path).expect("fixture is UTF-8");
    let text = raw.strip_suffix('\n').unwrap_or(&raw);
    assert!(!text.contains('\n'), "{file}: a fixture holds one record");
    let choice = dialect_of(path);
    let checked = sfen::check(text, choice);
    let ok = path.parent().and_then(|p| p.file_name()).is_some_and(|n| n == "ok");
    let errors = checked.diagnostics.iter().filter(|d| d.is_error()).count();
    if ok {
        assert_eq!(errors, 0, "{file}: an ok/ fixture has errors: {:#?}", checked.diagnostics);
        let position = checked.position.as_ref().expect("ok fixtures read into a position");
        let printed = position.to_string();
        let again: Position = printed.parse().expect("canonical text parses");
        assert_eq!(&again, position, "{file}: round trip through {printed}");
    } else {
        assert!(errors > 0, "{file}: an err/ fixture has no error");
    }
    for d in &checked.diagnostics {
        common::assert_complete(d, text, &file, &["sfen::", "input::"]);
    }
    assert_nested(&checked.record, &file);

    let mut out = String::new();
    let _ = writeln!(out, "## Input\n{text}\n");
    let _ = writeln!(out, "## Pairs");
    match SfenParser::parse(Rule::record, text) {
        Ok(pairs) => out.push_str(&kifu::tree::render(pairs)),
        Err(e) => {
            let _ = writeln!(out, "not a `record`: expected {}", sfen::expected_words(&e));
        }
    }
    let _ = writeln!(out, "\n## AST\n{:#?}\n", checked.record);
    if let Some(p) = &checked.position {
        let _ = writeln!(out, "## Display\n{p}\n");
    }
    let _ = writeln!(out, "## Diagnostics");
    out.push_str(&common::render(&checked.diagnostics, &file, text));
    out
}

#[test]
fn sfen_fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/sfen");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        insta::glob!("fixtures/sfen/*/*.sfen", |path| {
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
