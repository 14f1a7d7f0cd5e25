//! `kifu tree`: each record's parse tree on standard output, rejections on standard error.

use crate::diagnostic::codes;
use std::io::Write;
use std::process::ExitCode;

use crate::diagnostic::Diagnostic;
use crate::notation::tree::Tree;
use crate::playground::records::{self, Layout, Sample};

use crate::format::{Cut, Format};

use crate::cli::args::{DialectArg, FormatArg};
use crate::cli::playground::*;

#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    /// The file to read; `-` or nothing reads standard input.
    path: Option<String>,
    /// Read this one record (or PSN game) instead of a file.
    #[arg(long, conflicts_with = "path")]
    record: Option<String>,
    /// The records' format (by default, from the file's extension).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The dialect: picks the rule read by default (`usi_record`, `fen960_record`, …) and the
    /// reading of `--ast`.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Print kifu's typed syntax tree instead of the pest tree.
    #[arg(long)]
    ast: bool,
    /// Run this `.pest` grammar instead of kifu's (several are joined in order).
    #[arg(long = "grammar", value_name = "FILE")]
    grammars: Vec<String>,
    /// The rule to read each record with (by default the format's record rule).
    #[arg(long)]
    rule: Option<String>,
    /// Do not join `grammar/common.pest` after `--grammar` files.
    #[arg(long)]
    no_common: bool,
    /// Print each record's tree as one JSON object a line (JSON Lines) instead of text.
    #[arg(long)]
    json: bool,
}

/// `kifu tree`: each record's parse tree on standard output, rejections on standard error.
pub fn run(args: &TreeArgs) -> ExitCode {
    limit_pest();
    let path = args.path.clone().unwrap_or_else(|| "-".to_owned());
    let format = args.format.or_else(|| args.record.is_none().then(|| FormatArg::from_path(&path)).flatten());
    let name = if args.record.is_some() {
        "<record>".to_owned()
    } else if path == "-" {
        crate::cli::input::STDIN.to_owned()
    } else {
        path.clone()
    };
    if args.ast && !args.grammars.is_empty() {
        return usage("`--ast` prints kifu's own syntax tree, which an edited grammar does not have: leave out `--ast` or `--grammar`");
    }
    let Some(format) = format else {
        if args.grammars.is_empty() || args.rule.is_none() {
            return usage("cannot tell the records' format: add `--format sfen` (or fen, epd, psn)");
        }
        return tree_with(args, None, &name, &path);
    };
    if args.ast {
        return ast(args, format, &name, &path);
    }
    tree_with(args, Some(format), &name, &path)
}

fn records_of(args: &TreeArgs, format: Option<FormatArg>, path: &str) -> Result<Vec<Sample>, ExitCode> {
    // PSN's `file` rule reads the whole file, where the others read one game each.
    let layout = layout(format, args.rule.as_deref().unwrap_or_default());
    match &args.record {
        Some(text) if layout == Layout::Games => {
            let records = records::split(text.as_bytes(), Layout::Games);
            Ok(if records.is_empty() { vec![Sample { line: 1, text: text.clone() }] } else { records })
        }
        Some(text) => Ok(vec![Sample { line: 1, text: text.clone() }]),
        None => {
            let bytes = read_capped(path, MAX_INPUT_BYTES, "the input").map_err(|e| usage(&e))?;
            Ok(records::split(&bytes, layout))
        }
    }
}

fn tree_with(args: &TreeArgs, format: Option<FormatArg>, name: &str, path: &str) -> ExitCode {
    let base = match format.map(shipped) {
        Some(Ok(g)) => Some(g),
        Some(Err(code)) => return code,
        None => None,
    };
    let edited = if args.grammars.is_empty() {
        None
    } else {
        match load(&args.grammars, args.no_common, base.as_ref()) {
            Ok(g) => Some(g),
            Err(code) => return code,
        }
    };
    let Some(grammar) = edited.as_ref().or(base.as_ref()) else {
        return usage("cannot tell the records' format: add `--format sfen` (or fen, epd, psn)");
    };
    let rule = match (&args.rule, format) {
        (Some(r), _) => r.clone(),
        (None, Some(f)) => default_rule(f, args.dialect).to_owned(),
        (None, None) => return usage("name the rule to read records with: add `--rule NAME`"),
    };
    let which = args.grammars.first().map_or("the grammar", String::as_str);
    if let Err(code) = require_rule(grammar, &rule, &format!("`{which}`")) {
        return code;
    }
    let records = match some_records(args, format, name, path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut out = crate::cli::output::Stdout;
    let mut rejected = false;
    let layout = crate::playground::tree::layout(format.map(FormatArg::format), &rule);
    for (i, r) in records.iter().enumerate() {
        let (tree, finding) = crate::playground::tree::read(grammar, &rule, layout, r);
        let finding = finding.map(|d| (shown_report(name, r, &d), d));
        if finding.is_some() {
            crate::cli::output::note_invalid();
        }
        let shown = if args.json {
            crate::playground::tree::record_json(name, r, &tree, finding.as_ref().map(|(_, d)| d))
        } else if tree.nodes.is_empty() && tree.stop.is_none() {
            String::new()
        } else {
            let sep = if i > 0 { "\n" } else { "" };
            format!("{sep}{}", tree.render(r.line, MAX_TREE_INDENT))
        };
        if write!(out, "{shown}").is_err() {
            return ExitCode::from(2);
        }
        if let Some((report, _)) = finding {
            rejected = true;
            crate::cli::output::err(&report);
        }
    }
    let _ = out.flush();
    crate::cli::report::exit_code(false, rejected)
}

/// The report of a record's finding for standard error: a `tree::too-long` one shows the
/// characters it is on, not the whole line.
fn shown_report(name: &str, r: &Sample, d: &Diagnostic) -> String {
    if d.code == codes::tree::TOO_LONG {
        render(name, &r.text[..d.span().end], r.line, d)
    } else {
        render(name, &r.text, r.line, d)
    }
}

/// The records to read, or the exit status when there are none (said on standard error) or
/// they cannot be read.
fn some_records(args: &TreeArgs, format: Option<FormatArg>, name: &str, path: &str) -> Result<Vec<Sample>, ExitCode> {
    let records = records_of(args, format, path)?;
    if records.is_empty() {
        crate::cli::output::message(format_args!("`{name}` holds no record"));
        return Err(ExitCode::SUCCESS);
    }
    Ok(records)
}

/// kifu's syntax tree of `text` read in `format`, as its debug text (`{:?}` for `json`, else
/// laid out one field a line), and the findings of the record.
fn syntax_tree(format: Format, text: &str, json: bool) -> (String, Vec<Diagnostic>) {
    let shown = |debug: &dyn std::fmt::Debug| if json { format!("{debug:?}") } else { format!("{debug:#?}") };
    match format.cut() {
        Cut::Lines => match format.record(text) {
            Some(record) => (shown(&record.syntax), record.diagnostics),
            None => (String::new(), Vec::new()),
        },
        Cut::Record if format == Format::Jkf => {
            let (game, diagnostics) = crate::jkf::check_text(text);
            (shown(&game), diagnostics)
        }
        Cut::Record if format == Format::Csa => {
            let (games, diagnostics) = crate::csa::check_text(text);
            (shown(&games), diagnostics)
        }
        Cut::Record => {
            let (game, diagnostics) = crate::kif::check_text(text);
            (shown(&game), diagnostics)
        }
        // Refused before: JSON positions have no syntax tree.
        Cut::Values => (String::new(), Vec::new()),
        Cut::Games => {
            let file = crate::psn::check_bytes(text.as_bytes(), Default::default());
            let mut tree = String::new();
            let mut diagnostics = Vec::new();
            for g in file.games {
                // `{:?}` then laid out as `{:#?}` would: `{:#?}` costs the cube of the depth
                // of variations (a line record's tree is a few levels deep).
                let debug = format!("{:?}", g.game);
                tree.push_str(&if json { debug } else { crate::notation::tree::pretty(&debug, MAX_TREE_INDENT) });
                diagnostics.extend(g.diagnostics);
            }
            (tree, diagnostics)
        }
    }
}

fn ast(args: &TreeArgs, format: FormatArg, name: &str, path: &str) -> ExitCode {
    let records = match some_records(args, Some(format), name, path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut out = crate::cli::output::Stdout;
    let mut invalid = false;
    let layout = crate::playground::tree::layout(Some(format.format()), "");
    for (i, r) in records.iter().enumerate() {
        if let Some(d) = crate::playground::tree::too_long(layout, r) {
            let report = shown_report(name, r, &d);
            invalid = true;
            crate::cli::output::note_invalid();
            // With `--json`, still one object for the record: no tree, and why.
            if args.json
                && write!(out, "{}", crate::playground::tree::record_json(name, r, &Tree::default(), Some(&d))).is_err()
            {
                return ExitCode::from(2);
            }
            crate::cli::output::err(&report);
            continue;
        }
        let read_in = match args.dialect {
            Some(d) => format.format().with_dialect(d),
            None => Ok(format.format()),
        };
        let (tree, diagnostics) = match read_in {
            Err(e) => return usage(&e),
            Ok(read_in) if read_in.grammar().is_none() => {
                return usage("`--ast` reads SFEN, FEN, EPD and PSN: JSON positions have no syntax tree of kifu's");
            }
            Ok(read_in) => syntax_tree(read_in, &r.text, args.json),
        };
        let shown = if args.json {
            let tree = Tree::from_debug(&tree, &r.text);
            crate::playground::tree::record_json(name, r, &tree, diagnostics.iter().find(|d| d.is_error()))
        } else {
            // Spans as the places of the file they cover.
            let sep = if i > 0 { "\n" } else { "" };
            format!("{sep}{}\n", crate::notation::tree::with_places(&tree, &r.text, r.line))
        };
        if diagnostics.iter().any(Diagnostic::is_error) {
            crate::cli::output::note_invalid();
        }
        if write!(out, "{shown}").is_err() {
            return ExitCode::from(2);
        }
        if !diagnostics.is_empty() {
            let _ = out.flush();
            let text = r.text.as_str();
            for d in diagnostics.iter().take(MAX_FINDINGS_SHOWN) {
                crate::cli::output::err(render(name, text, r.line, d));
            }
            if diagnostics.len() > MAX_FINDINGS_SHOWN {
                let more = diagnostics.len() - MAX_FINDINGS_SHOWN;
                crate::cli::output::err(format!(
                    "… and {more} more findings in this record (`kifu check` lists them all)\n\n"
                ));
            }
        }
        invalid |= diagnostics.iter().any(Diagnostic::is_error);
    }
    let _ = out.flush();
    crate::cli::report::exit_code(false, invalid)
}
