//! The spec playground's commands: `kifu tree`, `kifu grammar diff|railroad|ebnf` and
//! `kifu conformance`. The work is done by [`kifu::playground`]; this file reads arguments and
//! files, and prints.

use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use miette::GraphicalReportHandler;

use kifu::diagnostic::{Diagnostic, RecordSource};

use kifu::playground::grammar::{Grammar, GrammarDiagnostic, Source};
use kifu::playground::limits::MAX_GRAMMAR_BYTES;
use kifu::playground::records::{self, Layout, Record};
use kifu::span::Span;

use super::args::{DialectArg, FormatArg};

/// `kifu tree`.
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
}

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
    /// Exit status: 0 when no record's verdict or tree changed, 1 when one did, 2 for a broken
    /// grammar or a usage error.
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
    /// Print one JSON object instead of a report.
    #[arg(long)]
    json: bool,
    /// How many examples of each change to show.
    #[arg(long, default_value_t = 3)]
    examples: usize,
    /// Do not join `grammar/common.pest` after each grammar.
    #[arg(long)]
    no_common: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
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

/// `kifu conformance`.
#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {
    /// The validator to score: a shell command in which `{file}` is the case's input, `{format}`
    /// its format (sfen, fen, epd, psn) and `{dialect}` its dialect, each filled in quoted.
    /// Exit status 0 means valid, 1 invalid; anything else, or no answer in time, is a failure.
    #[arg(long)]
    cmd: String,
    /// The suite's folder.
    #[arg(long, default_value = "conformance")]
    suite: String,
    /// Run only the cases of this format.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    json: bool,
    /// Seconds a case may take (at most 3600); then the validator and all it started are ended.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// How many disagreements to show.
    #[arg(long, default_value_t = 5)]
    show: usize,
    /// Cases run at once (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

// ───────────────────────────── shared ─────────────────────────────

fn handler() -> GraphicalReportHandler {
    super::report::handler(super::report::Stream::Stderr, None, 100)
}

/// A diagnostic over a text of one or more lines whose first line is `first_line` of `name`.
fn render(name: &str, text: &str, first_line: usize, d: &Diagnostic) -> String {
    let mut out = String::new();
    if text.contains(['\n', '\r']) {
        let index = kifu::excerpt::LineIndex::new(text);
        let e = kifu::excerpt::excerpt(text, &index, d);
        let source = RecordSource { name, text: &e.text, line: first_line + e.first_line };
        let _ = handler().render_report(&mut out, &e.diagnostic.report(&source));
    } else {
        let shown = RecordSource::display_text(text);
        let source = RecordSource { name, text: &shown, line: first_line };
        let _ = handler().render_report(&mut out, &d.report(&source));
    }
    out.push('\n');
    out
}

fn usage(message: &str) -> ExitCode {
    super::output::message(message);
    ExitCode::from(2)
}

/// The most bytes `kifu tree` and `kifu grammar diff` read of an input file, and
/// `kifu conformance` of a case or the suite's index: each is read whole.
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// The longest record of a line format (SFEN, FEN, EPD) `kifu tree` reads; a longer line gets
/// a `tree::too-long` report instead of a tree.
pub const MAX_RECORD_BYTES: usize = 16 << 10;

/// The most findings `kifu tree --ast` shows for one record; the rest are counted.
pub const MAX_FINDINGS_SHOWN: usize = 20;

/// The deepest level a tree is indented to; deeper lines start with their level instead.
pub const MAX_TREE_INDENT: usize = 40;

/// A whole file (or standard input for `-`), at most `cap` bytes: `Err` says why not.
fn read_capped(path: &str, cap: usize, what: &str) -> Result<Vec<u8>, String> {
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

fn layout(format: Option<FormatArg>) -> Layout {
    if format == Some(FormatArg::Psn) {
        Layout::Games
    } else {
        Layout::Lines
    }
}

/// kifu's grammar for a format.
fn shipped(format: FormatArg) -> Result<Grammar, ExitCode> {
    let (name, text) = match format {
        FormatArg::Sfen => ("grammar/sfen.pest", kifu::grammar::SFEN),
        FormatArg::Fen | FormatArg::Epd => ("grammar/fen.pest", kifu::grammar::FEN),
        FormatArg::Psn => ("grammar/psn.pest", kifu::grammar::PSN),
        FormatArg::Json => {
            return Err(usage("JSON positions have no grammar: give `--format sfen` (or fen, epd, psn)"))
        }
    };
    Grammar::shipped(name, text).map_err(|e| report_grammar(&e))
}

/// The rule a format's records are read with.
fn default_rule(format: FormatArg, dialect: Option<DialectArg>) -> &'static str {
    match (format, dialect) {
        (FormatArg::Sfen, Some(DialectArg::Sfen2007)) => "sfen2007_record",
        (FormatArg::Sfen, Some(DialectArg::Usi)) => "usi_record",
        (FormatArg::Sfen, _) => "record",
        (FormatArg::Fen, Some(DialectArg::Chess960)) => "fen960_record",
        (FormatArg::Fen, _) => "fen_record",
        (FormatArg::Epd, Some(DialectArg::Chess960)) => "epd960_record",
        (FormatArg::Epd, _) => "epd_record",
        (FormatArg::Psn, _) => "game",
        (FormatArg::Json, _) => "value",
    }
}

fn report_grammar(errors: &[GrammarDiagnostic]) -> ExitCode {
    let mut out = String::new();
    for e in errors {
        out.push_str(&render(&e.source.name, &e.source.text, 1, &e.diagnostic));
    }
    let _ = io::stdout().flush();
    super::output::err(&out);
    ExitCode::from(2)
}

/// Loads `.pest` files joined in order; faults are reported and give exit status 2.
fn load(paths: &[String], no_common: bool, shipped: Option<&Grammar>) -> Result<Grammar, ExitCode> {
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
fn require_rule(grammar: &Grammar, rule: &str, which: &str) -> Result<(), ExitCode> {
    if grammar.rule(rule).is_some() {
        return Ok(());
    }
    let names: Vec<String> = grammar.names().into_iter().map(str::to_owned).collect();
    let text = format!("--rule {rule}");
    let help = match kifu::playground::grammar::closest(rule, &names) {
        Some(n) => format!("did you mean `{n}`? The rules are listed by `kifu grammar ebnf`"),
        None => format!("name one of its {} rules (`kifu grammar ebnf` lists them)", names.len()),
    };
    let d =
        Diagnostic::error("grammar::unknown-rule", Span::new(7, text.len()), format!("{which} has no rule `{rule}`"))
            .label("no such rule")
            .help(help);
    super::output::err(render("<command line>", &text, 1, &d));
    Err(ExitCode::from(2))
}

fn limit_pest() {
    // An edited grammar can loop for a long time on some input: stop it instead.
    pest::set_call_limit(std::num::NonZeroUsize::new(100_000_000));
}

// ───────────────────────────── kifu tree ─────────────────────────────

/// `kifu tree`: each record's parse tree on standard output, rejections on standard error.
pub fn run_tree(args: &TreeArgs) -> ExitCode {
    limit_pest();
    let path = args.path.clone().unwrap_or_else(|| "-".to_owned());
    let format = args.format.or_else(|| args.record.is_none().then(|| FormatArg::from_path(&path)).flatten());
    let name = if args.record.is_some() {
        "<record>".to_owned()
    } else if path == "-" {
        super::input::STDIN.to_owned()
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

fn records_of(args: &TreeArgs, format: Option<FormatArg>, path: &str) -> Result<Vec<Record>, ExitCode> {
    // PSN's `file` rule reads the whole file, where the others read one game each.
    let whole = format == Some(FormatArg::Psn) && args.rule.as_deref() == Some("file");
    match &args.record {
        Some(text) if whole => Ok(vec![Record { line: 1, text: text.clone() }]),
        Some(text) if format == Some(FormatArg::Psn) => {
            let records = records::split(text.as_bytes(), Layout::Games);
            Ok(if records.is_empty() { vec![Record { line: 1, text: text.clone() }] } else { records })
        }
        Some(text) => Ok(vec![Record { line: 1, text: text.clone() }]),
        None => {
            let bytes = read_capped(path, MAX_INPUT_BYTES, "the input").map_err(|e| usage(&e))?;
            Ok(records::split(&bytes, if whole { Layout::Whole } else { layout(format) }))
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
    let records = match records_of(args, format, path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if records.is_empty() {
        super::output::message(format_args!("`{name}` holds no record"));
        return ExitCode::SUCCESS;
    }
    let mut out = super::output::Stdout;
    let mut rejected = false;
    for (i, r) in records.iter().enumerate() {
        if let Some(report) = too_long(format, name, r) {
            rejected = true;
            let _ = out.flush();
            super::output::err(&report);
            continue;
        }
        match grammar.parse(&rule, &r.text) {
            Ok(pairs) => {
                let sep = if i > 0 { "\n" } else { "" };
                let tree = kifu::tree::render_capped(pairs, r.line, &|rule: &str| rule.to_owned(), MAX_TREE_INDENT);
                if write!(out, "{sep}{tree}").is_err() {
                    return ExitCode::from(2);
                }
            }
            Err(e) => {
                rejected = true;
                let _ = out.flush();
                super::output::err(render(name, &r.text, r.line, &e.diagnostic(&rule, &r.text)));
            }
        }
    }
    let _ = out.flush();
    super::report::exit_code(false, rejected)
}

/// The `tree::too-long` report for a line record longer than [`MAX_RECORD_BYTES`], shown on
/// the line's first characters only (PSN games are bounded by the input's size alone).
fn too_long(format: Option<FormatArg>, name: &str, record: &Record) -> Option<String> {
    let text = record.text.as_str();
    if format == Some(FormatArg::Psn) || text.len() <= MAX_RECORD_BYTES {
        return None;
    }
    let start = text.char_indices().nth(80).map_or(text.len(), |(i, _)| i);
    let d = Diagnostic::error(
        "tree::too-long",
        Span::new(0, start),
        format!(
            "this line is {} bytes long, more than the {} KiB kifu reads as one record",
            text.len(),
            MAX_RECORD_BYTES >> 10
        ),
    )
    .label("a record starts here and goes on")
    .help("a record is one line: is a line end missing, or is this not a file of records?");
    Some(render(name, &text[..start], record.line, &d))
}

fn ast(args: &TreeArgs, format: FormatArg, name: &str, path: &str) -> ExitCode {
    let records = match records_of(args, Some(format), path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if records.is_empty() {
        super::output::message(format_args!("`{name}` holds no record"));
        return ExitCode::SUCCESS;
    }
    let mut out = super::output::Stdout;
    let mut invalid = false;
    for (i, r) in records.iter().enumerate() {
        if let Some(report) = too_long(Some(format), name, r) {
            invalid = true;
            let _ = out.flush();
            super::output::err(&report);
            continue;
        }
        let (tree, diagnostics) = match (format, args.dialect) {
            (FormatArg::Sfen, d) => {
                let choice = match d {
                    Some(DialectArg::Sfen2007) => kifu::sfen::DialectChoice::Sfen2007,
                    Some(DialectArg::Usi) => kifu::sfen::DialectChoice::Usi,
                    _ => kifu::sfen::DialectChoice::Auto,
                };
                let c = kifu::sfen::check(&r.text, choice);
                (format!("{:#?}", c.record), c.diagnostics)
            }
            (FormatArg::Fen | FormatArg::Epd, d) => {
                let kind = if format == FormatArg::Epd { kifu::fen::Kind::Epd } else { kifu::fen::Kind::Fen };
                let dialect = if d == Some(DialectArg::Chess960) {
                    kifu::fen::Dialect::Chess960
                } else {
                    kifu::fen::Dialect::Standard
                };
                let c = kifu::fen::check(&r.text, kind, dialect);
                (format!("{:#?}", c.record), c.diagnostics)
            }
            (FormatArg::Json, _) => {
                return usage("`--ast` reads SFEN, FEN, EPD and PSN: JSON positions have no syntax tree of kifu's");
            }
            (FormatArg::Psn, _) => {
                let file = kifu::psn::check_bytes(r.text.as_bytes(), Default::default());
                let mut tree = String::new();
                let mut diagnostics = Vec::new();
                for g in file.games {
                    // `{:?}` then laid out as `{:#?}` would: `{:#?}` costs the cube of the depth
                    // of variations (a line record's tree is a few levels deep).
                    tree.push_str(&kifu::tree::pretty(&format!("{:?}", g.game), MAX_TREE_INDENT));
                    diagnostics.extend(g.diagnostics);
                }
                (tree, diagnostics)
            }
        };
        let sep = if i > 0 { "\n" } else { "" };
        if writeln!(out, "{sep}{tree}").is_err() {
            return ExitCode::from(2);
        }
        if !diagnostics.is_empty() {
            let _ = out.flush();
            let text = r.text.as_str();
            for d in diagnostics.iter().take(MAX_FINDINGS_SHOWN) {
                super::output::err(render(name, text, r.line, d));
            }
            if diagnostics.len() > MAX_FINDINGS_SHOWN {
                let more = diagnostics.len() - MAX_FINDINGS_SHOWN;
                super::output::err(format!(
                    "… and {more} more findings in this record (`kifu check` lists them all)\n\n"
                ));
            }
        }
        invalid |= diagnostics.iter().any(Diagnostic::is_error);
    }
    let _ = out.flush();
    super::report::exit_code(false, invalid)
}

// ───────────────────────────── kifu grammar ─────────────────────────────

/// `kifu grammar …`.
pub fn run_grammar(args: &GrammarArgs) -> ExitCode {
    limit_pest();
    match &args.command {
        GrammarCommand::Diff(a) => run_diff(a),
        GrammarCommand::Railroad(a) => run_railroad(a),
        GrammarCommand::Ebnf(a) => run_ebnf(a),
    }
}

fn run_diff(args: &DiffArgs) -> ExitCode {
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
    let mut report = kifu::playground::diff::Report::default();
    let mut texts = Vec::new();
    for path in &args.corpus {
        let bytes = match read_capped(path, MAX_INPUT_BYTES, "the corpus file") {
            Ok(b) => b,
            Err(e) => return usage(&e),
        };
        let records = records::split(&bytes, layout(args.format.or_else(|| FormatArg::from_path(path))));
        // Records are independent: cut them into one run per worker, and add the runs in order.
        let workers = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
        let size = records.len().div_ceil(workers).max(1);
        let parts: Vec<kifu::playground::diff::Report> = std::thread::scope(|scope| {
            let runs: Vec<_> = records
                .chunks(size)
                .map(|chunk| {
                    let (old, new, rule) = (&old, &new, args.rule.as_str());
                    scope.spawn(move || kifu::playground::diff::diff(old, new, rule, path, chunk, args.examples))
                })
                .collect();
            runs.into_iter().filter_map(|r| r.join().ok()).collect()
        });
        for part in parts {
            report.add(part, args.examples);
        }
        texts.push(path.clone());
    }
    report.examples.sort_by_key(|e| match e.kind {
        kifu::playground::diff::Change::NewlyAccepted => 0,
        kifu::playground::diff::Change::NewlyRejected => 1,
        kifu::playground::diff::Change::ChangedTree => 2,
    });
    let mut out = super::output::Stdout;
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        for e in &report.examples {
            let _ = write!(out, "{}", render(&e.file, &e.record, e.line, &e.diagnostic()));
        }
        let files = if texts.len() == 1 { "1 file".to_owned() } else { format!("{} files", texts.len()) };
        let _ =
            writeln!(out, "rule `{}`, {} → {}: {} records in {files}", args.rule, args.old, args.new, report.records);
        for (what, n) in [
            ("accepted by both, same tree", report.accepted_both),
            ("rejected by both", report.rejected_both),
            ("newly accepted", report.newly_accepted),
            ("newly rejected", report.newly_rejected),
            ("accepted by both, tree changed", report.changed_tree),
        ] {
            let _ = writeln!(out, "  {what:<31} {n:>8}");
        }
    }
    let _ = out.flush();
    super::report::exit_code(false, !report.unchanged())
}

fn run_railroad(args: &RailroadArgs) -> ExitCode {
    let grammar = match load(std::slice::from_ref(&args.grammar), args.no_common, None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if let Err(code) = require_rule(&grammar, &args.rule, &format!("`{}`", args.grammar)) {
        return code;
    }
    let svg = kifu::playground::draw::railroad(&grammar, &args.rule);
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
    let text = kifu::playground::draw::ebnf(&grammar, args.rule.as_deref());
    match io::stdout().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

// ───────────────────────────── kifu conformance ─────────────────────────────

use kifu::playground::conformance::{self, Case, Verdict};

/// What the validator did with a case.
struct Outcome {
    verdict: Verdict,
    status: String,
    stderr: String,
}

/// The most bytes of a validator's standard error kept for the report; the rest is read and
/// dropped, with a note.
pub const MAX_VALIDATOR_OUTPUT: usize = 1 << 20;

/// The longest `--timeout` a case may be given, in seconds (an hour).
pub const MAX_CASE_TIMEOUT_SECS: f64 = 3600.0;

/// Runs `command` under `sh` in a process group of its own, and on timeout kills the whole
/// group (a validator's own children too), so no process it started keeps kifu waiting.
fn run_case(command: &str, timeout: Duration) -> Outcome {
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut sh, 0);
    let mut child = match sh.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                verdict: Verdict::Failed,
                status: format!("cannot start `sh`: {e}"),
                stderr: String::new(),
            }
        }
    };
    // Standard error is read on a thread of its own (a full pipe would stall the validator),
    // keeping the first MAX_VALIDATOR_OUTPUT bytes.
    let (send, words) = std::sync::mpsc::channel();
    if let Some(mut err) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buffer = [0u8; 8192];
            let mut cut = false;
            loop {
                match err.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => {
                        let room = MAX_VALIDATOR_OUTPUT - kept.len();
                        cut |= n > room;
                        kept.extend_from_slice(&buffer[..n.min(room)]);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let mut text = String::from_utf8_lossy(&kept).into_owned();
            if cut {
                text.push_str(&format!("\n[kifu kept the first {} MiB of this output]", MAX_VALIDATOR_OUTPUT >> 20));
            }
            let _ = send.send(text);
        });
    }
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                kill_group(&mut child);
                break None;
            }
        }
    };
    // Once `sh` has ended, what it started may still hold the pipe: wait a moment for the
    // words, then go on without them (and end the group, which should have ended with it).
    let stderr = match words.recv_timeout(Duration::from_millis(500)) {
        Ok(text) => text,
        Err(_) => {
            kill_group(&mut child);
            words.recv_timeout(Duration::from_millis(500)).unwrap_or_default()
        }
    };
    match status.and_then(|s| s.code()) {
        Some(0) => Outcome { verdict: Verdict::Valid, status: "exit status 0".into(), stderr },
        Some(1) => Outcome { verdict: Verdict::Invalid, status: "exit status 1".into(), stderr },
        Some(n) => Outcome { verdict: Verdict::Failed, status: format!("exit status {n}"), stderr },
        None if status.is_some() => Outcome { verdict: Verdict::Failed, status: "killed by a signal".into(), stderr },
        None => {
            Outcome { verdict: Verdict::Failed, status: format!("no answer in {} s", timeout.as_secs_f64()), stderr }
        }
    }
}

/// Kills the validator's process group (`sh` leads it), then reaps `sh`.
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ =
            rustix::process::kill_process_group(rustix::process::Pid::from_child(child), rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[derive(Default, serde::Serialize)]
struct Score {
    cases: usize,
    agree: usize,
    accepted_invalid: usize,
    rejected_valid: usize,
    failed: usize,
}

impl Score {
    fn add(&mut self, case: &Case, verdict: Verdict) {
        self.cases += 1;
        match (case.valid, verdict) {
            (_, Verdict::Failed) => self.failed += 1,
            (true, Verdict::Valid) | (false, Verdict::Invalid) => self.agree += 1,
            (false, Verdict::Valid) => self.accepted_invalid += 1,
            (true, Verdict::Invalid) => self.rejected_valid += 1,
        }
    }

    fn line(&self) -> String {
        format!(
            "{} cases: {} agree, {} accepted though invalid, {} rejected though valid, {} failed",
            self.cases, self.agree, self.accepted_invalid, self.rejected_valid, self.failed
        )
    }
}

/// The diagnostic that shows a disagreement on a case's input: on the suite's first expected
/// error when the case is invalid, else on the first line.
fn disagreement(suite: &std::path::Path, case: &Case, outcome: &Outcome) -> (String, usize, Diagnostic) {
    let bytes = read_capped(&suite.join(&case.file).to_string_lossy(), MAX_INPUT_BYTES, "the case").unwrap_or_default();
    let text = if case.format == "psn" {
        kifu::psn::decode::decode(&bytes).text
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let text = text.trim_end_matches(['\n', '\r']).to_owned();
    let index = kifu::excerpt::LineIndex::new(&text);
    let expected: serde_json::Value =
        read_capped(&suite.join(format!("{}.json", case.file)).to_string_lossy(), MAX_INPUT_BYTES, "the expectation")
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
    let at = |line: u64, column: u64| -> usize {
        let span = index.line_span(&text, (line.max(1) - 1) as usize);
        let content = span.slice(&text);
        span.start + content.char_indices().nth((column.max(1) - 1) as usize).map_or(content.len(), |(i, _)| i)
    };
    let first_error =
        expected["diagnostics"].as_array().and_then(|ds| ds.iter().find(|d| d["severity"] == "error")).cloned();
    let whole_line = index.line_span(&text, 0);
    let (code, message, span, label, help) = match (outcome.verdict, first_error) {
        (Verdict::Failed, _) => (
            "conformance::failed",
            format!("the validator failed on this case ({})", outcome.status),
            whole_line,
            outcome
                .stderr
                .lines()
                .next()
                .map_or_else(|| "no verdict".to_owned(), |l| format!("it said: {}", conformance::shown_words(l, 200))),
            "a validator answers with exit status 0 (valid) or 1 (invalid); wrap it in `sh -c` if it uses others"
                .to_owned(),
        ),
        (_, Some(e)) if !case.valid => {
            let start = at(e["line"].as_u64().unwrap_or(1), e["column"].as_u64().unwrap_or(1));
            let end = at(e["end_line"].as_u64().unwrap_or(1), e["end_column"].as_u64().unwrap_or(1)).max(start);
            let code = e["code"].as_str().unwrap_or("?").to_owned();
            (
                "conformance::accepted-invalid",
                "the validator accepts a case the suite expects invalid".to_owned(),
                Span::new(start, end),
                format!("the suite expects `{code}` here"),
                format!("see {}.json for every expected finding", case.file),
            )
        }
        _ => (
            "conformance::rejected-valid",
            "the validator rejects a case the suite expects valid".to_owned(),
            whole_line,
            "valid by the suite".to_owned(),
            format!("see {}.json for the canonical form kifu reads it as", case.file),
        ),
    };
    let d = Diagnostic::error(code, span, message).label(label).help(help);
    (text, 1, d)
}

/// `kifu conformance --cmd '…'`: the suite's cases through another validator, scored.
pub fn run_conformance(args: &ConformanceArgs) -> ExitCode {
    let suite = std::path::Path::new(&args.suite);
    let index = match read_capped(&suite.join("cases.tsv").to_string_lossy(), MAX_INPUT_BYTES, "the suite's index") {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) => return usage(&e),
    };
    let cases = match conformance::read_index(&index) {
        Ok(c) => c,
        Err((line, text)) => return usage(&format!("line {line} of cases.tsv is not a case: `{text}`")),
    };
    let only = args.format.map(|f| f.format().name());
    let cases: Vec<Case> = cases.into_iter().filter(|c| only.is_none_or(|f| c.format == f)).collect();
    if !args.cmd.contains("{file}") {
        return usage("the command must name the case's input as `{file}`");
    }
    if !(args.timeout > 0.0 && args.timeout <= MAX_CASE_TIMEOUT_SECS) {
        return usage(&format!("`--timeout` takes a number of seconds above 0 and at most {MAX_CASE_TIMEOUT_SECS}"));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    let workers = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Outcome>>> = cases.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers.min(cases.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let file = suite.join(&case.file).to_string_lossy().into_owned();
                let outcome = run_case(&conformance::command_for(&args.cmd, case, &file), timeout);
                if let Ok(mut slot) = results[i].lock() {
                    *slot = Some(outcome);
                }
            });
        }
    });
    let mut total = Score::default();
    let mut formats: std::collections::BTreeMap<String, Score> = std::collections::BTreeMap::new();
    let mut shown = String::new();
    let mut disagreements = Vec::new();
    for (case, slot) in cases.iter().zip(results) {
        let outcome = slot.into_inner().ok().flatten().unwrap_or(Outcome {
            verdict: Verdict::Failed,
            status: "not run".into(),
            stderr: String::new(),
        });
        total.add(case, outcome.verdict);
        formats.entry(case.format.clone()).or_default().add(case, outcome.verdict);
        let agrees = matches!((case.valid, outcome.verdict), (true, Verdict::Valid) | (false, Verdict::Invalid));
        if agrees {
            continue;
        }
        let got = match outcome.verdict {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::Failed => "failed",
        };
        disagreements.push(serde_json::json!({
            "file": case.file, "expected": if case.valid { "valid" } else { "invalid" }, "got": got, "status": outcome.status,
        }));
        if disagreements.len() <= args.show && !args.json {
            let (text, line, d) = disagreement(suite, case, &outcome);
            shown.push_str(&render(&suite.join(&case.file).to_string_lossy(), &text, line, &d));
        }
    }
    let mut out = super::output::Stdout;
    if args.json {
        let object = serde_json::json!({
            "cases": total.cases, "agree": total.agree, "accepted_invalid": total.accepted_invalid,
            "rejected_valid": total.rejected_valid, "failed": total.failed, "formats": formats,
            "disagreements": disagreements,
        });
        let _ = writeln!(out, "{object}");
    } else {
        let _ = write!(out, "{shown}");
        if disagreements.len() > args.show {
            let _ =
                writeln!(out, "… and {} more disagreements (`--show N` shows more)\n", disagreements.len() - args.show);
        }
        for (format, score) in &formats {
            let _ = writeln!(out, "{format:<5} {}", score.line());
        }
        let _ = writeln!(out, "total {}", total.line());
    }
    let _ = out.flush();
    super::report::exit_code(false, !(total.cases > 0 && total.agree == total.cases))
}
