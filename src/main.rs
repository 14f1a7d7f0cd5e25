//! `kifu`: the command-line tool.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::{mpsc, Mutex};
use std::thread;

use clap::{Parser, Subcommand, ValueEnum};
use miette::{GraphicalReportHandler, GraphicalTheme};

use kifu::check::{self, Batch, Format, LineReader, LineReport};
use kifu::diagnostic::RecordSource;
use kifu::sfen::{Dialect, DialectChoice};

/// kifu: parses, validates and explains board-game notations (SFEN).
#[derive(Parser, Debug)]
#[command(name = "kifu", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check records and report every fault, with its place and a fix.
    ///
    /// One record per line; LF, CRLF and CR line ends; blank lines are skipped. Exit status: 0
    /// when every record is valid (warnings allowed), 1 when one is invalid, 2 for a usage or
    /// I/O error.
    Check(CheckArgs),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files to check; `-` or nothing reads standard input.
    paths: Vec<String>,
    /// The records' format (by default, from each file's extension: `.sfen`).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The SFEN dialect: `auto` reads each record in the dialect its side letter names.
    #[arg(long, default_value = "auto", value_parser = parse_dialect)]
    dialect: DialectChoice,
    /// How to print findings: `human` reports, or `json`, one object per line.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// When to use colours in human reports (NO_COLOR is respected under `auto`).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

fn parse_dialect(s: &str) -> Result<DialectChoice, String> {
    s.parse()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// SFEN (the 2007 spec and the USI dialect).
    Sfen,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Command::Check(args) => run_check(&args),
    }
}

/// Totals over every record checked.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    records: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    usi: u64,
    sfen2007: u64,
}

impl Totals {
    fn add(&mut self, other: &Self) {
        self.records += other.records;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        self.usi += other.usi;
        self.sfen2007 += other.sfen2007;
    }
}

/// The last line of `--message-format json`.
#[derive(serde::Serialize)]
struct JsonSummary {
    #[serde(rename = "type")]
    kind: &'static str,
    records: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    dialects: JsonDialects,
}

/// How many records were read in each SFEN dialect.
#[derive(serde::Serialize)]
struct JsonDialects {
    usi: u64,
    sfen2007: u64,
}

/// Everything a worker needs to render reports.
struct Renderer {
    json: bool,
    handler: GraphicalReportHandler,
}

impl Renderer {
    fn render(&self, file: &str, report: &LineReport, out: &mut String) {
        if self.json {
            for d in &report.diagnostics {
                let msg = d.to_json(file, report.line, &report.text);
                if let Ok(s) = serde_json::to_string(&msg) {
                    out.push_str(&s);
                    out.push('\n');
                }
            }
            return;
        }
        let shown = RecordSource::display_text(&report.text);
        let source = RecordSource { name: file, text: &shown, line: report.line };
        for d in &report.diagnostics {
            let r = d.report(&source);
            let _ = self.handler.render_report(out, &r);
            out.push('\n');
        }
    }
}

fn run_check(args: &CheckArgs) -> ExitCode {
    let json = args.message_format == MessageFormat::Json;
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal(),
    };
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let width = if io::stdout().is_terminal() { terminal_width().unwrap_or(100) } else { 100 };
    let renderer = Renderer { json, handler: GraphicalReportHandler::new_themed(theme).with_width(width) };
    let workers = args.jobs.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get())).max(1);

    let paths: Vec<String> = if args.paths.is_empty() { vec!["-".to_owned()] } else { args.paths.clone() };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut totals = Totals::default();
    let mut failed = false;
    for path in &paths {
        let name = if path == "-" { "<stdin>" } else { path.as_str() };
        let format = match (args.format, path.as_str()) {
            (Some(FormatArg::Sfen), _) => Format::Sfen(args.dialect),
            (None, "-") => {
                usage_error(
                    &mut out,
                    json,
                    name,
                    "standard input has no file name to tell its format: add `--format sfen`",
                );
                failed = true;
                continue;
            }
            (None, p) => match Format::from_path(p, args.dialect) {
                Some(f) => f,
                None => {
                    usage_error(
                        &mut out,
                        json,
                        name,
                        &format!("cannot tell the format of `{p}` from its name: add `--format sfen`"),
                    );
                    failed = true;
                    continue;
                }
            },
        };
        let result = if path == "-" {
            check_stream(io::stdin(), None, name, format, &renderer, workers, &mut out)
        } else {
            match File::open(path) {
                Ok(f) => {
                    let size = f.metadata().ok().map(|m| m.len());
                    check_stream(f, size, name, format, &renderer, workers, &mut out)
                }
                Err(e) => {
                    usage_error(&mut out, json, name, &format!("cannot open `{name}`: {e}"));
                    failed = true;
                    continue;
                }
            }
        };
        match result {
            Ok(t) => totals.add(&t),
            Err(e) => {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return ExitCode::from(2); // the reader of our output went away
                }
                usage_error(&mut out, json, name, &format!("cannot check `{name}`: {e}"));
                failed = true;
            }
        }
    }
    let summary = if json {
        let summary = JsonSummary {
            kind: "summary",
            records: totals.records,
            valid: totals.valid,
            invalid: totals.invalid,
            warnings: totals.warnings,
            dialects: JsonDialects { usi: totals.usi, sfen2007: totals.sfen2007 },
        };
        serde_json::to_string(&summary).unwrap_or_default()
    } else {
        let mut dialects = Vec::new();
        if totals.usi > 0 {
            dialects.push(format!("{} USI", totals.usi));
        }
        if totals.sfen2007 > 0 {
            dialects.push(format!("{} SFEN 2007", totals.sfen2007));
        }
        let dialects = if dialects.is_empty() { String::new() } else { format!(" (read as {})", dialects.join(", ")) };
        format!(
            "{} records: {} valid, {} invalid, {} warnings{dialects}",
            totals.records, totals.valid, totals.invalid, totals.warnings
        )
    };
    let _ = writeln!(out, "{summary}");
    let _ = out.flush();
    if failed {
        ExitCode::from(2)
    } else if totals.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn usage_error(out: &mut impl Write, json: bool, file: &str, message: &str) {
    if json {
        let msg = serde_json::json!({ "type": "error", "file": file, "message": message });
        let _ = writeln!(out, "{msg}");
    } else {
        let _ = out.flush();
        eprintln!("kifu: {message}");
    }
}

fn terminal_width() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.parse().ok()
}

/// Bytes per batch handed to a worker.
const BATCH_BYTES: usize = 256 * 1024;

fn check_batch(batch: &Batch, name: &str, format: Format, renderer: &Renderer) -> (String, Totals) {
    let mut out = String::new();
    let mut t = Totals::default();
    for line in &batch.lines {
        let report = check::check_line(format, line.number, batch.bytes(line), line.len);
        t.records += 1;
        if report.is_valid() {
            t.valid += 1;
        } else {
            t.invalid += 1;
        }
        t.warnings += report.warnings() as u64;
        match report.dialect {
            Some(Dialect::Usi) => t.usi += 1,
            Some(Dialect::Sfen2007) => t.sfen2007 += 1,
            None => {}
        }
        if !report.diagnostics.is_empty() {
            renderer.render(name, &report, &mut out);
        }
    }
    (out, t)
}

/// Checks a stream on `workers` threads: a reader thread cuts it into batches of lines, the
/// workers check and render them, and this thread writes the results in input order. At most
/// `2 × workers` batches are in flight, so memory stays flat whatever the input's size.
fn check_stream(
    input: impl Read + Send,
    size: Option<u64>,
    name: &str,
    format: Format,
    renderer: &Renderer,
    workers: usize,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let in_flight = workers * 2;
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(usize, Batch)>(in_flight);
    let (result_tx, result_rx) = mpsc::sync_channel::<(usize, u64, String, Totals)>(in_flight);
    // Tokens bound the batches between the reader and the writer.
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    let batch_rx = Mutex::new(batch_rx);
    let progress = progress_bar(size);
    thread::scope(|scope| {
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut reader = LineReader::new(input);
            let mut index = 0;
            while token_rx.recv().is_ok() {
                let Some(batch) = reader.next_batch(BATCH_BYTES)? else { break };
                if batch_tx.send((index, batch)).is_err() {
                    break;
                }
                index += 1;
            }
            Ok(())
        });
        for _ in 0..workers {
            let (batch_rx, result_tx) = (&batch_rx, result_tx.clone());
            scope.spawn(move || loop {
                let next = batch_rx.lock().map_or(None, |rx| rx.recv().ok());
                let Some((index, batch)) = next else { break };
                let (text, totals) = check_batch(&batch, name, format, renderer);
                if result_tx.send((index, batch.consumed, text, totals)).is_err() {
                    break;
                }
            });
        }
        drop(result_tx);
        let mut totals = Totals::default();
        let mut pending = BTreeMap::new();
        let mut next = 0;
        let mut write_error = None;
        for (index, consumed, text, t) in result_rx {
            pending.insert(index, (consumed, text, t));
            while let Some((consumed, text, t)) = pending.remove(&next) {
                if write_error.is_none() {
                    write_error = out.write_all(text.as_bytes()).err();
                }
                totals.add(&t);
                if let Some(p) = &progress {
                    p.inc(consumed);
                }
                next += 1;
                let _ = token_tx.send(());
            }
        }
        drop(token_tx);
        if let Some(p) = &progress {
            p.finish_and_clear();
        }
        let read = reader.join().unwrap_or_else(|_| Err(io::Error::other("the reader thread failed")));
        match (read, write_error) {
            (Err(e), _) | (_, Some(e)) => Err(e),
            _ => Ok(totals),
        }
    })
}

fn progress_bar(size: Option<u64>) -> Option<indicatif::ProgressBar> {
    let size = size.filter(|s| *s >= 16 * 1024 * 1024)?;
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::with_draw_target(Some(size), indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}") {
        bar.set_style(style);
    }
    Some(bar)
}
