//! `kifu grammar diff|railroad|ebnf`.

use std::io::{self, Write};
use std::process::ExitCode;

use crate::playground::records::{self, Sample};

use crate::cli::args::FormatArg;
use crate::cli::playground::*;
use crate::cli::pool;

/// `kifu grammar`.
#[derive(clap::Args, Debug)]
pub struct GrammarArgs {
    #[command(subcommand)]
    command: GrammarCommand,
}

#[derive(clap::Subcommand, Debug)]
enum GrammarCommand {
    /// Run a corpus through two grammars and report what the change does to it.
    ///
    /// Each line of a line-format file is one record; a PSN file gives one record per game.
    /// A grammar stopped on a record (2 s at most per record) leaves it with no verdict, and
    /// records left after 10 minutes are counted, not run. Exit status: 0 when every record was
    /// compared and none changed its verdict or tree, 1 when one did or one could not be
    /// compared, 2 for a broken grammar or a usage error. With `--watch`, it runs until Ctrl-C
    /// or until its output is closed (status 0).
    Diff(DiffArgs),
    /// Write an SVG railroad diagram of a rule and every rule it reaches.
    Railroad(RailroadArgs),
    /// Print a grammar (or a rule and what it reaches) as W3C-style EBNF.
    Ebnf(EbnfArgs),
}

#[derive(clap::Args, Debug)]
struct DiffArgs {
    /// The grammar before the change.
    old: String,
    /// The grammar after it.
    new: String,
    /// The files of records to run through both.
    #[arg(required = true)]
    corpus: Vec<String>,
    /// The rule each record is read with.
    #[arg(long)]
    rule: String,
    /// The corpus's format (by default, from each file's extension; `psn` reads games).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print one JSON object instead of a report: the counts, every changed record and the
    /// changes by transition.
    #[arg(long)]
    json: bool,
    /// How many examples of each change to show (`--json` lists them all).
    #[arg(long, default_value_t = 3)]
    examples: usize,
    /// Do not join `grammar/common.pest` after each grammar.
    #[arg(long)]
    no_common: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Run again each time a grammar or corpus file is saved, until Ctrl-C; a grammar with
    /// faults is reported and the next save awaited.
    #[arg(long)]
    watch: bool,
}

#[derive(clap::Args, Debug)]
struct RailroadArgs {
    /// The grammar.
    grammar: String,
    /// The rule to draw, with every rule it reaches.
    #[arg(long)]
    rule: String,
    /// Write the SVG here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<String>,
    /// Do not join `grammar/common.pest` after the grammar.
    #[arg(long)]
    no_common: bool,
}

#[derive(clap::Args, Debug)]
struct EbnfArgs {
    /// The grammar.
    grammar: String,
    /// Print only this rule and the rules it reaches.
    #[arg(long)]
    rule: Option<String>,
    /// Do not join `grammar/common.pest` after the grammar.
    #[arg(long)]
    no_common: bool,
}

/// `kifu grammar …`.
pub fn run(args: &GrammarArgs) -> ExitCode {
    limit_pest();
    match &args.command {
        GrammarCommand::Diff(a) => run_diff(a),
        GrammarCommand::Railroad(a) => run_railroad(a),
        GrammarCommand::Ebnf(a) => run_ebnf(a),
    }
}

fn run_diff(args: &DiffArgs) -> ExitCode {
    if !args.watch {
        return diff_once(args);
    }
    let mut files = vec![args.old.clone(), args.new.clone()];
    files.extend(args.corpus.iter().cloned());
    crate::cli::watch::run(&files, || {
        // A broken grammar has been reported: the next save is awaited all the same.
        let _ = diff_once(args);
    })
}

/// One run of `kifu grammar diff`: its exit status.
fn diff_once(args: &DiffArgs) -> ExitCode {
    let format = args.format.or_else(|| args.corpus.iter().find_map(|p| FormatArg::from_path(p)));
    let base = match format.map(shipped) {
        Some(Ok(g)) => Some(g),
        Some(Err(code)) => return code,
        None => None,
    };
    let (old, new) = match (
        load(std::slice::from_ref(&args.old), args.no_common, base.as_ref()),
        load(std::slice::from_ref(&args.new), args.no_common, base.as_ref()),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    for (g, path) in [(&old, &args.old), (&new, &args.new)] {
        if let Err(code) = require_rule(g, &args.rule, &format!("`{path}`")) {
            return code;
        }
    }
    let mut report = crate::playground::diff::Report::default();
    let budget = crate::playground::limits::RunBudget::start(crate::playground::limits::RUN_TIME_BUDGET);
    let mut texts = Vec::new();
    for path in &args.corpus {
        let bytes = match read_capped(path, MAX_INPUT_BYTES, "the corpus file") {
            Ok(b) => b,
            Err(e) => return usage(&e),
        };
        let records = records::split(&bytes, layout(args.format.or_else(|| FormatArg::from_path(path)), &args.rule));
        // Records are independent: cut them into one run per worker, and add the runs in order.
        let workers = pool::workers(args.jobs);
        let chunks: Vec<&[Sample]> = records.chunks(records.len().div_ceil(workers).max(1)).collect();
        let limit = if args.json { usize::MAX } else { args.examples };
        let parts = pool::map(&chunks, workers, |chunk| {
            crate::playground::diff::diff(&old, &new, &args.rule, path, chunk, limit, &budget)
        });
        for part in parts.into_iter().flatten() {
            report.add(part, limit);
        }
        texts.push(path.clone());
    }
    report.sort_examples();
    let mut out = crate::cli::output::Stdout;
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        write_summary(&mut out, args, &report, texts.len());
    }
    let _ = out.flush();
    crate::cli::report::exit_code(false, !report.unchanged())
}

/// `kifu grammar diff`'s report in words, of a run over `files` corpus files: the examples,
/// then the counts and the changes.
fn write_summary(out: &mut impl Write, args: &DiffArgs, report: &crate::playground::diff::Report, files: usize) {
    for e in &report.examples {
        let _ = write!(out, "{}", render(&e.file, &e.record, e.line, &e.diagnostic()));
    }
    let files = if files == 1 { "1 file".to_owned() } else { format!("{files} files") };
    let _ = writeln!(out, "rule `{}`, {} → {}: {} records in {files}", args.rule, args.old, args.new, report.records);
    for (what, n) in [
        ("accepted by both, same tree", report.accepted_both),
        ("rejected by both", report.rejected_both),
        ("newly accepted", report.newly_accepted),
        ("newly rejected", report.newly_rejected),
        ("accepted by both, tree changed", report.changed_tree),
    ] {
        let _ = writeln!(out, "  {what:<31} {n:>8}");
    }
    // Records with no verdict to compare are shown only when there are some.
    for (what, n) in [("stopped, no verdict", report.stopped), ("not run, out of time", report.not_run)] {
        if n > 0 {
            let _ = writeln!(out, "  {what:<31} {n:>8}");
        }
    }
    if report.not_run > 0 {
        let _ = writeln!(
            out,
            "the run's {} minutes were spent before the last {} records: run fewer records, or a grammar that backtracks less",
            crate::playground::limits::RUN_TIME_BUDGET.as_secs() / 60,
            report.not_run
        );
    }
    if !report.transitions.is_empty() {
        let _ = writeln!(out, "changes, old → new:");
    }
    for t in &report.transitions {
        let _ = writeln!(out, "  {:>8} × {} → {}", t.count, t.old, t.new);
    }
}

fn run_railroad(args: &RailroadArgs) -> ExitCode {
    let grammar = match load(std::slice::from_ref(&args.grammar), args.no_common, None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if let Err(code) = require_rule(&grammar, &args.rule, &format!("`{}`", args.grammar)) {
        return code;
    }
    let svg = crate::playground::draw::railroad(&grammar, &args.rule);
    let written = match &args.output {
        Some(path) => std::fs::write(path, svg).map_err(|e| format!("cannot write `{path}`: {e}")),
        None => io::stdout().write_all(svg.as_bytes()).map_err(|e| format!("cannot write: {e}")),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => usage(&e),
    }
}

fn run_ebnf(args: &EbnfArgs) -> ExitCode {
    let grammar = match load(std::slice::from_ref(&args.grammar), args.no_common, None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if let Some(rule) = &args.rule {
        if let Err(code) = require_rule(&grammar, rule, &format!("`{}`", args.grammar)) {
            return code;
        }
    }
    let text = crate::playground::draw::ebnf(&grammar, args.rule.as_deref());
    match io::stdout().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}
