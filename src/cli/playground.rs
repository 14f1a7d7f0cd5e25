//! What the spec playground's commands (`kifu tree`, `kifu grammar`, `kifu conformance`) share:
//! reading capped inputs, loading grammars, rendering their findings. The work is done by
//! [`crate::playground`].

use std::io::{self, Read, Write};
use std::process::ExitCode;

use crate::diagnostic::Diagnostic;
use crate::playground::grammar::{Grammar, GrammarDiagnostic, Source};
use crate::playground::limits::MAX_GRAMMAR_BYTES;
use crate::playground::records::Layout;

use crate::cli::args::{DialectArg, FormatArg};

/// A diagnostic over a text of one or more lines whose first line is `first_line` of `name`,
/// for standard error, as `--message-format` and `--color` say.
pub(crate) fn render(name: &str, text: &str, first_line: usize, d: &Diagnostic) -> String {
    let renderer = crate::cli::report::Renderer::new(crate::cli::report::Stream::Stderr);
    let mut out = crate::cli::report::Rendered::default();
    let one = std::slice::from_ref(d);
    if text.contains(['\n', '\r']) {
        let index = crate::diagnostic::excerpt::LineIndex::new(text);
        renderer.render_text(name, (text, &index), first_line, one, &mut out);
    } else {
        renderer.render_line(name, first_line, text, one, &mut out);
    }
    out.text
}

pub(crate) fn usage(message: &str) -> ExitCode {
    crate::cli::output::message(message);
    ExitCode::from(2)
}

/// The most bytes `kifu tree` and `kifu grammar diff` read of an input file, and
/// `kifu conformance` of a case or the suite's index: each is read whole.
pub(crate) const MAX_INPUT_BYTES: usize = 64 << 20;

/// The most findings `kifu tree --ast` shows for one record; the rest are counted.
pub(crate) const MAX_FINDINGS_SHOWN: usize = 20;

/// The deepest level a tree is indented to; deeper lines start with their level instead.
pub(crate) const MAX_TREE_INDENT: usize = 40;

/// A whole file (or standard input for `-`), at most `cap` bytes: `Err` says why not.
pub(crate) fn read_capped(path: &str, cap: usize, what: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if path == "-" {
        io::stdin().lock().take(cap as u64 + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(cap as u64 + 1).read_to_end(&mut bytes))
    };
    let shown = if path == "-" { "standard input" } else { path };
    match read {
        Err(e) => Err(format!("cannot read `{shown}`: {e}")),
        Ok(_) if bytes.len() > cap => {
            Err(format!("{what} `{shown}` is larger than {} MiB, the most kifu reads of it", cap >> 20))
        }
        Ok(_) => Ok(bytes),
    }
}

/// How an input is cut into records for `rule` (a line each, a PSN game each, a whole PSN file).
pub(crate) fn layout(format: Option<FormatArg>, rule: &str) -> Layout {
    crate::playground::tree::layout(format.map(FormatArg::format), rule)
}

/// kifu's grammar for a format.
pub(crate) fn shipped(format: FormatArg) -> Result<Grammar, ExitCode> {
    match crate::playground::tree::shipped(format.format()) {
        None => Err(usage(&format!(
            "{} has no grammar: kifu reads it as JSON; give `--format sfen` (or fen, epd, psn, kif, csa)",
            format.format().title()
        ))),
        Some(loaded) => loaded.map_err(|e| report_grammar(&e)),
    }
}

/// The rule a format's records are read with, in `dialect` (or the format's default one).
pub(crate) fn default_rule(format: FormatArg, dialect: Option<DialectArg>) -> &'static str {
    let format = dialect.and_then(|d| format.format().with_dialect(d).ok()).unwrap_or(format.format());
    crate::playground::tree::default_rule(format)
}

pub(crate) fn report_grammar(errors: &[GrammarDiagnostic]) -> ExitCode {
    let mut out = String::new();
    for e in errors {
        out.push_str(&render(&e.source.name, &e.source.text, 1, &e.diagnostic));
    }
    let _ = io::stdout().flush();
    crate::cli::output::err(&out);
    ExitCode::from(2)
}

/// Loads `.pest` files joined in order; faults are reported and give exit status 2.
pub(crate) fn load(paths: &[String], no_common: bool, shipped: Option<&Grammar>) -> Result<Grammar, ExitCode> {
    let mut sources = Vec::new();
    for path in paths {
        let bytes = read_capped(path, MAX_GRAMMAR_BYTES, "the grammar").map_err(|e| usage(&e))?;
        let (source, fault) = Source::from_bytes(path.as_str(), &bytes);
        if let Some(d) = fault {
            return Err(report_grammar(&[GrammarDiagnostic { source, diagnostic: d }]));
        }
        sources.push(source);
    }
    Grammar::load(&sources, !no_common, shipped).map_err(|e| report_grammar(&e))
}

/// Exit status 2 with a pointed `grammar::unknown-rule` unless `grammar` has `rule`.
pub(crate) fn require_rule(grammar: &Grammar, rule: &str, which: &str) -> Result<(), ExitCode> {
    let Some(d) = crate::playground::tree::unknown_rule(grammar, rule, which, Some("`kifu grammar ebnf`")) else {
        return Ok(());
    };
    crate::cli::output::err(render("<command line>", &format!("--rule {rule}"), 1, &d));
    Err(ExitCode::from(2))
}

pub(crate) fn limit_pest() {
    // An edited grammar can loop for a long time on some input: stop it instead.
    pest::set_call_limit(std::num::NonZeroUsize::new(100_000_000));
}
