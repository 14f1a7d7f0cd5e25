//! `kifu`: the command-line tool.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::{mpsc, Mutex};
use std::thread;

use clap::{Parser, Subcommand, ValueEnum};
use miette::GraphicalReportHandler;

use kifu::check::{self, Batch, LineReader, LineReport};
use kifu::diagnostic::RecordSource;
use kifu::format::Format;

use args::{DialectArg, FormatArg};

mod args;
mod input;
mod output;
#[path = "playground.rs"]
mod playground_cli;
mod report;
#[path = "views.rs"]
mod views_cli;

/// kifu: parses, validates and explains board-game notations (SFEN, FEN, EPD, PSN).
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
    /// Print each record as JSON, one object per line: PSN games, or positions.
    ///
    /// Positions (`.sfen`, `.fen`, `.epd`, `.json`) print the JSON position model, or its chess analogue;
    /// `--json-style keyed` writes hands as objects.
    Json(JsonArgs),
    /// Convert records: PSN games `--to psn`, positions (JSON, SFEN) `--to sfen`.
    ///
    /// `--to psn` writes PSN games in the 1998 spec's form; `--to sfen` writes positions as USI SFEN.
    Convert(ConvertArgs),
    /// Print each record's parse tree: rule, place (line:column) and text, indented.
    ///
    /// `--grammar FILE` runs an edited `.pest` grammar instead of kifu's; `--ast` prints kifu's
    /// typed syntax tree. Exit status: 0 when every record parsed, 1 when one was rejected, 2 for
    /// a broken grammar or a usage error.
    Tree(playground_cli::TreeArgs),
    /// Work on grammars: `diff` two over a corpus, draw a `railroad` diagram, print `ebnf`.
    Grammar(playground_cli::GrammarArgs),
    /// Score another validator against the conformance suite (`conformance/`).
    Conformance(playground_cli::ConformanceArgs),
    /// Print boards: FEN as eight lines of eight squares, SFEN as a 9×9 diagram; `--svg`, `--html`.
    ///
    /// FEN prints eight lines of eight characters, `.` for a blank square; SFEN and JSON
    /// shogi positions print a 9×9 diagram with both hands (`--ascii`, `--kanji`). `--svg` writes
    /// SVG diagrams, `--html` one self-contained page.
    ///
    /// Boards are separated by one empty line. An invalid record prints its findings on standard
    /// error and no board; the others still print. Exit status as for `check`.
    Board(BoardArgs),
}

#[derive(clap::Args, Debug)]
struct BoardArgs {
    /// Files to read (`.fen`, `.epd`, `.sfen`, `.json`); `-` or nothing reads standard input (as
    /// FEN, unless `--format` says otherwise).
    paths: Vec<String>,
    /// The records' dialect: FEN `standard` or `chess960` castling; SFEN `auto`, `sfen2007` or `usi`.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    #[command(flatten)]
    views: views_cli::ViewArgs,
}

#[derive(clap::Args, Debug)]
struct JsonArgs {
    /// Files to read: PSN games, or positions (`.sfen`, `.fen`, `.epd`, `.json`); `-` or nothing
    /// reads standard input (PSN, unless `--format` says otherwise).
    paths: Vec<String>,
    #[command(flatten)]
    positions: views_cli::JsonViewArgs,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// Files to read: PSN games, or positions (`.sfen`, `.fen`, `.epd`, `.json`); `-` or nothing
    /// reads standard input (PSN, unless `--format` says otherwise).
    paths: Vec<String>,
    /// The form to write: `psn`, the 1998 spec's PSN.
    #[arg(long, value_enum)]
    to: ConvertTo,
    #[command(flatten)]
    input: views_cli::ConvertInput,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ConvertTo {
    /// PSN as the 1998 spec writes it.
    Psn,
    /// PSN games as the arguments of USI's `position` command: `sfen … moves …`, one line a game.
    Usi,
    /// SFEN as USI writes it (positions: JSON or SFEN in).
    Sfen,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files to check; `-` or nothing reads standard input.
    paths: Vec<String>,
    /// The records' format (by default, from each file's extension: `.sfen`, `.fen`, `.epd`, `.psn`, `.json`).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The dialect. SFEN: `auto` (each record in the dialect its side letter names),
    /// `sfen2007` or `usi`. FEN: `standard` (the default) or `chess960`.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// How to print findings: `human` reports, or `json`, one object per line.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// When to use colours in human reports (NO_COLOR is respected under `auto`).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Worker threads, 1 to 64 (default: one per core, at most 64).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_JOBS)))]
    jobs: Option<u32>,
    /// PSN: report every departure from the 1998 spec as an error, not a warning.
    #[arg(long)]
    strict: bool,
    /// PSN: check the syntax only, without playing the moves on a board.
    #[arg(long)]
    no_replay: bool,
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
    let code = match cli.command {
        Command::Check(args) => run_check(&args),
        Command::Board(args) => run_board(&args),
        Command::Json(args) => run_json(&args),
        Command::Convert(args) => run_convert(&args),
        Command::Tree(args) => playground_cli::run_tree(&args),
        Command::Grammar(args) => playground_cli::run_grammar(&args),
        Command::Conformance(args) => playground_cli::run_conformance(&args),
    };
    output::exit(code)
}

/// Totals over every record checked.
#[derive(Debug, Default, Clone)]
struct Totals {
    /// Every record was a PSN game: the summary counts games.
    games: bool,
    records: u64,
    valid: u64,
    invalid: u64,
    warnings: u64,
    /// How many records were read in each dialect, by name, with the dialect's title.
    dialects: BTreeMap<&'static str, (u64, &'static str)>,
}

impl Totals {
    /// Counts a record read in dialect `name`, titled `title`.
    fn read_as(&mut self, name: &'static str, title: &'static str) {
        self.dialects.entry(name).or_insert((0, title)).0 += 1;
    }

    fn add(&mut self, other: &Self) {
        self.games = if self.records == 0 { other.games } else { self.games && (other.games || other.records == 0) };
        self.records += other.records;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        for (name, (n, title)) in &other.dialects {
            self.dialects.entry(name).or_insert((0, title)).0 += n;
        }
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
    /// How many records were read in each dialect.
    dialects: BTreeMap<&'static str, u64>,
}

/// Everything a worker needs to render reports.
struct Renderer {
    json: bool,
    handler: GraphicalReportHandler,
}

impl Renderer {
    /// The reports of one PSN game, each showing the lines its labels touch, with their real
    /// line numbers.
    fn render_game(&self, file: &str, checked: &kifu::psn::CheckedGame, file_text: &str, out: &mut String) {
        if checked.diagnostics.is_empty() {
            return;
        }
        let text = checked.text(file_text);
        let index = kifu::excerpt::LineIndex::new(text);
        if self.json {
            let place = |at: usize| {
                let (line, column) = index.place(text, at);
                (checked.game.line + line, column)
            };
            for d in &checked.diagnostics {
                if let Ok(s) = serde_json::to_string(&d.to_json_with(file, place)) {
                    out.push_str(&s);
                    out.push('\n');
                }
            }
            return;
        }
        for d in &checked.diagnostics {
            let e = kifu::excerpt::excerpt(text, &index, d);
            let source = RecordSource { name: file, text: &e.text, line: checked.game.line + e.first_line };
            let _ = self.handler.render_report(out, &e.diagnostic.report(&source));
            out.push('\n');
        }
    }

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
        ColorChoice::Always => Some(true),
        ColorChoice::Never => Some(false),
        ColorChoice::Auto => None,
    };
    let width = if io::stdout().is_terminal() { terminal_width().unwrap_or(100) } else { 100 };
    let handler =
        report::handler(report::Stream::Stdout, color, width).with_word_separator(textwrap::WordSeparator::AsciiSpace);
    let renderer = Renderer { json, handler };
    let workers = match args.jobs {
        Some(jobs) => jobs as usize,
        None => thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_JOBS as usize),
    };

    let paths = input::paths(&args.paths);
    let mut out = output::Stdout;
    let mut totals = Totals::default();
    let mut failed = false;
    for path in &paths {
        let name = input::name(path);
        let format = match (args::format_of(args.format, path), path.as_str()) {
            (Some(f), _) => f,
            (None, "-") => {
                usage_error(
                    &mut out,
                    json,
                    name,
                    "standard input has no file name to tell its format: add `--format sfen` (or fen, epd, psn)",
                );
                failed = true;
                continue;
            }
            (None, p) => {
                usage_error(
                    &mut out,
                    json,
                    name,
                    &format!("cannot tell the format of `{p}` from its name: add `--format sfen` (or fen, epd, psn)"),
                );
                failed = true;
                continue;
            }
        };
        // JSON positions say their own game: `--dialect` is not theirs to choose.
        let format = match args.dialect {
            Some(d) if format != Format::Json => match format.with_dialect(d) {
                Ok(f) => f,
                Err(e) => {
                    usage_error(&mut out, json, name, &e);
                    failed = true;
                    continue;
                }
            },
            _ => format,
        };
        if format == Format::Json {
            match views_cli::check_json(path, name, &renderer, &mut out) {
                Ok(t) => totals.add(&t),
                Err(e) => {
                    usage_error(&mut out, json, name, &format!("cannot read `{name}`: {e}"));
                    failed = true;
                }
            }
            continue;
        }
        if format == Format::Psn {
            match open_input(path) {
                Ok(input) => match check_psn(
                    input,
                    name,
                    kifu::psn::Options { strict: args.strict, replay: !args.no_replay },
                    &renderer,
                    workers,
                    &mut out,
                ) {
                    Ok(t) => totals.add(&t),
                    Err(Failed::Read(e, t)) => {
                        totals.add(&t);
                        usage_error(&mut out, json, name, &format!("cannot read `{name}`: {e}"));
                        failed = true;
                    }
                    // `output::exit` reports it (a closed pipe quietly).
                    Err(Failed::Write) => return ExitCode::from(2),
                },
                Err(e) => {
                    usage_error(&mut out, json, name, &format!("cannot read `{name}`: {e}"));
                    failed = true;
                }
            }
            continue;
        }
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
            // A write error: `output::exit` reports it.
            Err(_) if output::failed() => return ExitCode::from(2),
            Err(e) => {
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
            dialects: totals.dialects.iter().map(|(name, (n, _))| (*name, *n)).collect(),
        };
        serde_json::to_string(&summary).unwrap_or_default()
    } else {
        let dialects: Vec<String> = totals.dialects.values().map(|(n, title)| format!("{n} {title}")).collect();
        let dialects = if dialects.is_empty() { String::new() } else { format!(" (read as {})", dialects.join(", ")) };
        let noun = match (totals.games, totals.records) {
            (true, 1) => "game",
            (true, _) => "games",
            (false, 1) => "record",
            (false, _) => "records",
        };
        format!(
            "{} {noun}: {} valid, {} invalid, {} warnings{dialects}",
            totals.records, totals.valid, totals.invalid, totals.warnings
        )
    };
    // Any write error is kept and reported by `output::exit`.
    let _ = writeln!(out, "{summary}");
    exit_code(failed, totals.invalid > 0)
}

fn usage_error(out: &mut impl Write, json: bool, file: &str, message: &str) {
    if json {
        let msg = serde_json::json!({ "type": "error", "file": file, "message": message });
        // Any write error is kept and reported by `output::exit`.
        let _ = writeln!(out, "{msg}");
    } else {
        output::message(message);
    }
}

fn terminal_width() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.parse().ok()
}

/// Bytes per batch of input handed to a worker: the lines' bytes and their places
/// ([`LineReader::next_batch`] counts both).
const BATCH_BYTES: usize = 128 * 1024;

/// Bytes of rendered reports a worker holds at most before it waits for its turn to write
/// them (one line's reports may pass it: [`check::MAX_FINDINGS`] bounds them).
const PART_BYTES: usize = 128 * 1024;

/// Bytes of finished reports held at most while they wait for the batches before them.
const HELD_BYTES: usize = 4 * 1024 * 1024;

/// The most worker threads `kifu check -j` starts. Each holds at most a batch and a part of
/// its reports, so memory stays within a few dozen MiB whatever the input.
const MAX_JOBS: u32 = 64;

/// Checks one line of a batch into `t`, its reports appended to `out`.
fn check_one(
    batch: &Batch,
    line: &check::LineInfo,
    name: &str,
    format: Format,
    renderer: &Renderer,
    out: &mut String,
    t: &mut Totals,
) {
    let report = check::check_line(format, line.number, batch.bytes(line), line.len);
    t.records += 1;
    if report.is_valid() {
        t.valid += 1;
    } else {
        t.invalid += 1;
    }
    t.warnings += report.warnings() as u64;
    if let Some(f) = report.dialect {
        t.read_as(f.read_as(), f.title());
    }
    if !report.diagnostics.is_empty() {
        renderer.render(name, &report, out);
    }
}

/// A batch's reports and counts, done and waiting for the batches before it.
struct Finished {
    text: String,
    totals: Totals,
    consumed: u64,
}

/// Where the batches' reports are written in input order: batch `next` is the one to write;
/// a worker ahead of it holds its reports in `held` (up to [`HELD_BYTES`] in all) and moves
/// on, or, with more, waits for its turn.
struct Order<'a, W> {
    out: &'a mut W,
    next: usize,
    held: BTreeMap<usize, Finished>,
    held_bytes: usize,
    totals: Totals,
    error: Option<io::Error>,
}

/// [`Order`] shared by the workers.
struct Turns<'a, W> {
    order: Mutex<Order<'a, W>>,
    turn: std::sync::Condvar,
    progress: Option<indicatif::ProgressBar>,
}

impl<'a, W: Write> Turns<'a, W> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Order<'a, W>> {
        self.order.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until batch `index` is the one to write; `false` after a write error.
    fn wait<'g>(
        &self,
        mut order: std::sync::MutexGuard<'g, Order<'a, W>>,
        index: usize,
    ) -> Option<std::sync::MutexGuard<'g, Order<'a, W>>> {
        while order.next != index && order.error.is_none() {
            order = self.turn.wait(order).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        order.error.is_none().then_some(order)
    }

    /// Writes a part of batch `index`'s reports when its turn comes; `false` after a write error.
    fn write_part(&self, index: usize, text: &mut String) -> bool {
        let Some(mut order) = self.wait(self.lock(), index) else { return false };
        let written = order.out.write_all(text.as_bytes());
        text.clear();
        self.keep(&mut order, written)
    }

    /// Hands over batch `index` done: held when it is early and small, else written in its
    /// turn, with every held batch that follows; `false` after a write error.
    fn finish(&self, index: usize, done: Finished) -> bool {
        let mut order = self.lock();
        if order.error.is_some() {
            return false;
        }
        if order.next != index && order.held_bytes + done.text.len() <= HELD_BYTES {
            order.held_bytes += done.text.len();
            order.held.insert(index, done);
            return true;
        }
        let Some(mut order) = self.wait(order, index) else { return false };
        let mut done = Some(done);
        while let Some(d) = done.take() {
            let written = order.out.write_all(d.text.as_bytes());
            if !self.keep(&mut order, written) {
                return false;
            }
            order.totals.add(&d.totals);
            if let Some(p) = &self.progress {
                p.inc(d.consumed);
            }
            order.next += 1;
            let next = order.next;
            done = order.held.remove(&next);
            if let Some(d) = &done {
                order.held_bytes -= d.text.len();
            }
        }
        self.turn.notify_all();
        true
    }

    /// Keeps a write error, waking every waiting worker so it stops.
    fn keep(&self, order: &mut Order<'_, W>, written: io::Result<()>) -> bool {
        match written {
            Ok(()) => true,
            Err(e) => {
                order.error.get_or_insert(e);
                self.turn.notify_all();
                false
            }
        }
    }
}

/// Checks a stream on `workers` threads: a reader thread cuts it into batches of lines, the
/// workers check and render them, and write the reports in input order, each batch in its turn.
/// Memory stays flat whatever the input: at most `workers` batches wait to be checked, each
/// worker holds at most [`PART_BYTES`] of reports (and one line's) before waiting for its
/// turn, and at most [`HELD_BYTES`] of finished reports wait for the batches before them.
fn check_stream(
    input: impl Read + Send,
    size: Option<u64>,
    name: &str,
    format: Format,
    renderer: &Renderer,
    workers: usize,
    out: &mut (impl Write + Send),
) -> io::Result<Totals> {
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(usize, Batch)>(workers);
    // Dropped by a worker that stops on a write error, so that the reader stops too.
    let batch_rx = Mutex::new(Some(batch_rx));
    let turns = Turns {
        order: Mutex::new(Order {
            out,
            next: 0,
            held: BTreeMap::new(),
            held_bytes: 0,
            totals: Totals::default(),
            error: None,
        }),
        turn: std::sync::Condvar::new(),
        progress: progress_bar(size),
    };
    let read = thread::scope(|scope| {
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut reader = LineReader::new(input);
            let mut index = 0;
            while let Some(batch) = reader.next_batch(BATCH_BYTES)? {
                if batch_tx.send((index, batch)).is_err() {
                    break;
                }
                index += 1;
            }
            Ok(())
        });
        for _ in 0..workers {
            let (batch_rx, turns) = (&batch_rx, &turns);
            scope.spawn(move || loop {
                let next = batch_rx.lock().map_or(None, |rx| rx.as_ref().and_then(|rx| rx.recv().ok()));
                let Some((index, batch)) = next else { break };
                let (mut text, mut totals) = (String::new(), Totals::default());
                let mut going = true;
                for line in &batch.lines {
                    check_one(&batch, line, name, format, renderer, &mut text, &mut totals);
                    if text.len() >= PART_BYTES && !turns.write_part(index, &mut text) {
                        going = false;
                        break;
                    }
                }
                if !going || !turns.finish(index, Finished { text, totals, consumed: batch.consumed }) {
                    if let Ok(mut rx) = batch_rx.lock() {
                        *rx = None;
                    }
                    break;
                }
            });
        }
        reader.join().unwrap_or_else(|_| Err(io::Error::other("the reader thread failed")))
    });
    if let Some(p) = &turns.progress {
        p.finish_and_clear();
    }
    let order = turns.order.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    match (read, order.error) {
        (_, Some(e)) | (Err(e), _) => Err(e),
        _ => Ok(order.totals),
    }
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

/// `kifu board`: each valid record's board on standard output, findings on standard error.
fn run_board(args: &BoardArgs) -> ExitCode {
    views_cli::run_board(&args.paths, args.dialect, &args.views)
}

use report::exit_code;

/// An input as a stream: a file, or standard input for `-`.
fn open_input(path: &str) -> io::Result<Box<dyn io::BufRead + Send>> {
    if path == "-" {
        Ok(Box::new(io::BufReader::with_capacity(1 << 16, io::stdin())))
    } else {
        Ok(Box::new(io::BufReader::with_capacity(1 << 16, File::open(path)?)))
    }
}

/// Bytes of games' text per unit of work when PSN games are checked in parallel.
const PSN_PIECE_BYTES: usize = 128 * 1024;

/// Why reading a PSN stream stopped: its input failed (with the totals of the games read before),
/// or writing did (the error is kept by `output`, which reports it at the end).
enum Failed {
    Read(io::Error, Totals),
    Write,
}

/// What a worker makes of one PSN game for `check`.
struct GameReport {
    rendered: String,
    valid: bool,
    warnings: u64,
    dialect: &'static str,
}

impl kifu::psn::stream::Weigh for GameReport {
    fn weight(&self) -> usize {
        self.rendered.len()
    }
}

/// Checks the games of a PSN stream on `workers` threads and writes their reports in order
/// ([`kifu::psn::stream::check_parallel`]): memory stays flat whatever the input's size.
fn check_psn(
    input: Box<dyn io::BufRead + Send>,
    name: &str,
    options: kifu::psn::Options,
    renderer: &Renderer,
    workers: usize,
    out: &mut impl Write,
) -> Result<Totals, Failed> {
    let mut totals = Totals::default();
    let mut write_failed = false;
    let result = kifu::psn::stream::check_parallel(
        input,
        options,
        PSN_PIECE_BYTES,
        workers,
        |game| {
            let mut rendered = String::new();
            renderer.render_game(name, &game.checked, &game.text, &mut rendered);
            GameReport {
                rendered,
                valid: game.checked.is_valid(),
                warnings: game.checked.diagnostics.iter().filter(|d| !d.is_error()).count() as u64,
                dialect: game.checked.game.dialect,
            }
        },
        |r| {
            totals.games = true;
            totals.records += 1;
            if r.valid {
                totals.valid += 1;
            } else {
                totals.invalid += 1;
            }
            totals.warnings += r.warnings;
            totals.read_as(r.dialect, kifu::psn::dialect::title(r.dialect));
            out.write_all(r.rendered.as_bytes()).inspect_err(|_| write_failed = true)
        },
    );
    if write_failed {
        return Err(Failed::Write);
    }
    if let Err(e) = result {
        return Err(Failed::Read(e, totals));
    }
    if totals.records == 0 && !renderer.json {
        output::message(format_args!("`{name}` holds no game"));
    }
    Ok(totals)
}

/// Runs `each` on the checked games of every path, read as streams, in order; the results of
/// `work` (run on `workers` threads) are handed to it. A path that cannot be read is reported
/// on standard error. Returns true when a path could not be read, and the write error that
/// stopped it, if any.
fn each_game<T: kifu::psn::stream::Weigh + Send>(
    paths: &[String],
    workers: usize,
    work: impl Fn(&str, kifu::psn::stream::StreamGame) -> T + Sync,
    mut each: impl FnMut(&str, T) -> io::Result<()>,
) -> (bool, Option<io::Error>) {
    let paths = input::paths(paths);
    let mut failed = false;
    for path in &paths {
        let name = input::name(path);
        let input = match open_input(path) {
            Ok(input) => input,
            Err(e) => {
                output::message(format_args!("cannot read `{name}`: {e}"));
                failed = true;
                continue;
            }
        };
        let mut write_error = None;
        let result = kifu::psn::stream::check_parallel(
            input,
            kifu::psn::Options::default(),
            PSN_PIECE_BYTES,
            workers,
            |game| work(name, game),
            |t| each(name, t).inspect_err(|e| write_error = Some(io::Error::new(e.kind(), e.to_string()))),
        );
        if write_error.is_some() {
            return (failed, write_error);
        }
        if let Err(e) = result {
            output::message(format_args!("cannot read `{name}`: {e}"));
            failed = true;
        }
    }
    (failed, None)
}

/// The worker threads for `json`, `convert` and `board`: one per core.
fn default_workers() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// A game's line of `kifu json`.
#[derive(serde::Serialize)]
struct JsonGame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    valid: bool,
    encoding: kifu::psn::Encoding,
    game: &'a kifu::psn::Game,
}

/// `kifu json`: each game's model, one JSON object per line.
fn run_json(args: &JsonArgs) -> ExitCode {
    if views_cli::reads_positions(&args.paths, args.positions.format) {
        return views_cli::run_json(&args.paths, &args.positions);
    }
    let mut out = output::Stdout;
    let mut invalid = false;
    let (failed, write_error) = each_game(
        &args.paths,
        default_workers(),
        |name, g| {
            let mut game = g.checked.game;
            // The game's place in the whole input's text.
            game.span = kifu::span::Span::new(g.offset + game.span.start, g.offset + game.span.end);
            let valid = g.checked.diagnostics.iter().all(|d| !d.is_error());
            let object = JsonGame { kind: "game", file: name, valid, encoding: g.encoding, game: &game };
            (serde_json::to_string(&object).unwrap_or_default(), valid)
        },
        |_, (line, valid): (String, bool)| {
            invalid |= !valid;
            writeln!(out, "{line}")
        },
    );
    if write_error.is_some() || out.flush().is_err() {
        return ExitCode::from(2);
    }
    exit_code(failed, invalid)
}

/// `kifu convert`: each game written again in the form asked for.
fn run_convert(args: &ConvertArgs) -> ExitCode {
    if views_cli::converts_positions(&args.paths, &args.input) {
        return match args.to {
            ConvertTo::Sfen => views_cli::run_convert_sfen(&args.paths, &args.input),
            ConvertTo::Psn => views_cli::convert_unsupported("psn"),
            ConvertTo::Usi => views_cli::convert_unsupported("usi"),
        };
    }
    let mut out = output::Stdout;
    let (mut invalid, mut written) = (false, 0usize);
    let to = args.to;
    let (failed, write_error) = each_game(
        &args.paths,
        default_workers(),
        |name, g| {
            let g = g.checked;
            if !g.is_valid() {
                let first = g.diagnostics.iter().find(|d| d.is_error()).map(ToString::to_string).unwrap_or_default();
                return Err(format!(
                    "kifu: {name}:{}: game not converted: {first} (run `kifu check` for every finding)",
                    g.game.line
                ));
            }
            let replay = g.replay.as_ref();
            match (to, replay) {
                (ConvertTo::Psn, _) => Ok(kifu::psn::display::to_psn(&g.game, replay)),
                (ConvertTo::Usi, Some(r)) => Ok(format!("{}\n", kifu::psn::display::to_usi(r))),
                (ConvertTo::Sfen, Some(r)) => Ok(kifu::psn::display::to_sfens(r)),
                (_, None) => Err(format!(
                    "kifu: {name}:{}: game not converted: its starting position could not be read",
                    g.game.line
                )),
            }
        },
        |_, converted: Result<String, String>| {
            match converted {
                Ok(text) => {
                    // One game a line for USI; an empty line between games otherwise.
                    let sep = if written > 0 && to != ConvertTo::Usi { "\n" } else { "" };
                    write!(out, "{sep}{text}")?;
                    written += 1;
                }
                Err(message) => {
                    invalid = true;
                    output::err(format_args!("{message}\n"));
                }
            }
            Ok(())
        },
    );
    if write_error.is_some() || out.flush().is_err() {
        return ExitCode::from(2);
    }
    exit_code(failed, invalid)
}
