//! What the fixture tests of every line notation share: reading a fixture, checking its verdict
//! and the spans of its syntax tree, and writing its snapshot.

use std::fmt::{Debug, Display, Write as _};
use std::path::Path;
use std::str::FromStr;

use kifu::notation::grid::Grid;
use kifu::{Diagnostic, Span};

/// A fixture: its file name, its record (one line), and whether it is an `ok/` one.
pub struct Fixture {
    /// The file name, for messages.
    pub file: String,
    /// The record, without its end of line.
    pub text: String,
    /// True under `ok/`, false under `err/`.
    pub ok: bool,
}

impl Fixture {
    /// Reads the fixture at `path`.
    pub fn read(path: &Path) -> Self {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
        let raw = std::fs::read_to_string(path).expect("fixture is UTF-8");
        let text = raw.strip_suffix('\n').unwrap_or(&raw).to_owned();
        assert!(!text.contains('\n'), "{file}: a fixture holds one record");
        let ok = path.parent().and_then(|p| p.file_name()).is_some_and(|n| n == "ok");
        Self { file, text, ok }
    }

    /// An `ok/` fixture has no errors and a position that survives a print-and-parse round trip
    /// (when `round_trip`); an `err/` one has an error. Every diagnostic is complete, with a code
    /// in one of `prefixes`.
    pub fn assert_verdict<P>(
        &self,
        diagnostics: &[Diagnostic],
        position: Option<&P>,
        round_trip: bool,
        prefixes: &[&str],
    ) where
        P: Debug + Display + FromStr + PartialEq,
        P::Err: Debug,
    {
        let file = &self.file;
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        if self.ok {
            assert_eq!(errors, 0, "{file}: an ok/ fixture has errors: {diagnostics:#?}");
            let position = position.expect("ok fixtures read into a position");
            if round_trip {
                let printed = position.to_string();
                let again: P = printed.parse().expect("canonical text parses");
                assert_eq!(&again, position, "{file}: round trip through {printed}");
            }
        } else {
            assert!(errors > 0, "{file}: an err/ fixture has no error");
        }
        for d in diagnostics {
            super::assert_complete(d, &self.text, file, prefixes);
        }
    }

    /// Asserts that `inner` (called `what`) lies inside `outer`.
    pub fn inside(&self, outer: Span, inner: Span, what: &str) {
        assert!(outer.contains(inner), "{}: {what} {inner:?} outside {outer:?}", self.file)
    }

    /// Asserts that each of `inner` (called `what`) lies inside `outer`.
    pub fn inside_all(&self, outer: Span, inner: impl IntoIterator<Item = Span>, what: &str) {
        for span in inner {
            self.inside(outer, span, what);
        }
    }

    /// Asserts that a board field, if any, lies inside `record`, its ranks inside it and their
    /// cells inside them.
    pub fn assert_grid_nested<P>(&self, record: Span, grid: Option<&Grid<P>>, what: &str) {
        let Some(grid) = grid else { return };
        self.inside(record, grid.span, what);
        for rank in &grid.ranks {
            self.inside(grid.span, rank.span, "rank");
            self.inside_all(rank.span, grid.cells_of(rank).iter().map(|c| c.span), "cell");
        }
    }

    /// The snapshot: the input, the pest tree (`pairs`), the syntax tree, the canonical text
    /// (`display`), and the rendered diagnostics.
    pub fn snapshot(
        &self,
        pairs: &str,
        ast: &impl Debug,
        display: Option<String>,
        diagnostics: &[Diagnostic],
    ) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "## Input\n{}\n", self.text);
        let _ = writeln!(out, "## Pairs");
        out.push_str(pairs);
        let _ = writeln!(out, "\n## AST\n{ast:#?}\n");
        if let Some(display) = display {
            let _ = writeln!(out, "## Display\n{display}\n");
        }
        let _ = writeln!(out, "## Diagnostics");
        out.push_str(&super::render(diagnostics, &self.file, &self.text));
        out
    }
}

/// The snapshot settings of a fixture test: snapshots in `dir`, named by the fixture alone.
pub fn settings(dir: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(dir);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}
