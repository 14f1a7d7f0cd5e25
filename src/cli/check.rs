//! `kifu check`: every record's findings and a summary, on standard output. Line records are
//! checked on a pool of workers and reported in input order; PSN games likewise.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

use crate::check;
use crate::diagnostic::select::Selection;
use crate::diagnostic::{LineIndex, Severity};
use crate::format::{Cut, Format, UnknownFormat};
use crate::input::pool::{self, Limits, Parts, Reader, Stopped};
use crate::input::{Batch, Line, LineReader, Reading};

use crate::cli::args::{self, DialectArg, FormatArg, MessageFormat};
use crate::cli::games::{open_input, PSN_PIECE_BYTES};
use crate::cli::input::{batch_sizes, WalkArgs};
use crate::cli::report::{self, exit_code, Rendered, Renderer, Totals, Volume};
use crate::cli::{fix, input, output, positions};

#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// Files, folders (walked recursively) and quoted globs to check; `-` or nothing reads
    /// standard input.
    paths: Vec<String>,
    /// The records' format (by default, from each file's extension: `.sfen`, `.fen`, `.epd`,
    /// `.json`, `.psn`, `.kif`, `.kifu`, `.ki2`, `.ki2u`, `.csa`, `.jkf`).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The dialect. SFEN: `auto` (each record in the dialect its side letter names),
    /// `sfen2007` or `usi`. FEN: `standard` (the default) or `chess960`.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Worker threads, 1 to 64 (default: one per core, at most 64).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_JOBS)))]
    jobs: Option<u32>,
    /// PSN: report every departure from the 1998 spec as an error, not a warning.
    #[arg(long)]
    strict: bool,
    /// PSN: check the syntax only, without playing the moves on a board.
    #[arg(long)]
    no_replay: bool,
    #[command(flatten)]
    fixes: fix::FixArgs,
    #[command(flatten)]
    walk: WalkArgs,
    #[command(flatten)]
    select: crate::cli::select::SelectArgs,
    /// Report errors and the summary only, not warnings.
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,
    /// Instead of the findings, count them: one line a code, the most frequent first.
    #[arg(long, conflicts_with_all = ["quiet", "diff"])]
    statistics: bool,
}

pub(crate) fn run(args: &CheckArgs) -> ExitCode {
    let Some(renderer) = renderer(args) else { return ExitCode::from(2) };
    let json = renderer.json;
    let workers = match args.jobs {
        Some(jobs) => jobs as usize,
        None => pool::cores().min(MAX_JOBS as usize),
    };
    // `--diff` prints a diff, not findings.
    let mut out = report::Out::new(if args.fixes.diff { MessageFormat::Json } else { renderer.format });
    let mut totals = Totals::default();
    let mut failed = false;
    let mut fixed = crate::document::fix::Fixed::default();
    let mut selector = match crate::cli::select::selector(&args.select) {
        Ok(selector) => selector,
        Err(e) => {
            crate::cli::output::message(e);
            return ExitCode::from(2);
        }
    };
    let mut inputs = input::expand(&args.paths, args.walk, args.format.is_some());
    for found in inputs.by_ref() {
        let found = match found {
            Ok(found) => found,
            Err(e) => {
                out.notice(&renderer, Severity::Error, &e.name, &e.message);
                failed = true;
                crate::cli::output::note_unread();
                continue;
            }
        };
        let path = found.path.as_str();
        let name = input::name(path);
        // A file found in a folder, of a format kifu knows of but does not read (a PGN or KIF
        // game), is a warning: the folder's other files are checked as asked.
        let format = match args::format_of(args.format, path) {
            Err(e @ UnknownFormat::Unread(..)) if found.found => {
                out.notice(&renderer, Severity::Warning, name, &e.to_string());
                totals.unread.push(name);
                continue;
            }
            format => format.map_err(|e| e.to_string()).and_then(|f| with_dialect(args, f)),
        };
        let checked = format.and_then(|f| Ok((f, selector.for_path(path)?))).map_err(Stop::usage).and_then(
            |(format, selection)| {
                fix_and_check(args, path, (format, &selection), (&renderer, workers), &mut fixed, &mut out)
            },
        );
        match checked {
            Ok(t) => {
                totals.add(&t);
                totals.files += 1;
            }
            Err(Stop::Usage(e, t)) => {
                totals.add(&t);
                out.notice(&renderer, Severity::Error, name, &e);
                failed = true;
                crate::cli::output::note_unread();
            }
            // `output::exit` reports it (a closed pipe quietly).
            Err(Stop::Write) => return ExitCode::from(2),
        }
    }
    totals.ignored = inputs.ignored;
    finish(args, json, (totals, fixed), failed, &mut out)
}

/// Fixes the input at `path` when `--fix` or `--diff` asks (what it fixed added to `fixed`), then
/// checks it in `format`, read with `selection`, unless `--diff` asks only what `--fix` would do:
/// its totals.
fn fix_and_check(
    args: &CheckArgs,
    path: &str,
    (format, selection): (Format, &Selection),
    (renderer, workers): (&Renderer, usize),
    fixed: &mut crate::document::fix::Fixed,
    out: &mut report::Out,
) -> Result<Totals, Stop> {
    let name = input::name(path);
    let mut unfixed = report::Named::default();
    if args.fixes.any() {
        match fix::fix_file(path, format, args.fixes, selection) {
            Ok(f) => fixed.add(f),
            Err(fix::NotFixed::Left(why)) => {
                out.notice(renderer, Severity::Warning, name, &why);
                unfixed.push(name);
            }
            Err(fix::NotFixed::Failed(e)) => return Err(Stop::usage(e)),
        }
        if args.fixes.diff {
            return Ok(Totals { unfixed, ..Totals::default() });
        }
    }
    let mut totals = check_path(args, path, (format, selection), renderer, workers, out)?;
    totals.unfixed = unfixed;
    renderer.end_file(name, out).map_err(|_| Stop::Write)?;
    Ok(totals)
}

/// What follows the findings of every input, `totals` of them with what was `fixed`: with
/// `--diff`, what `--fix` would do; else the statistics when asked and the summary. The exit
/// code, `failed` when an input could not be read.
fn finish(
    args: &CheckArgs,
    json: bool,
    (mut totals, fixed): (Totals, crate::document::fix::Fixed),
    failed: bool,
    out: &mut report::Out,
) -> ExitCode {
    if args.fixes.diff {
        // What `--fix` would do; nothing was checked.
        let _ = writeln!(out, "{}", fix::would(fixed, &totals, json));
        return exit_code(failed, fixed.applied > 0);
    }
    if args.fixes.fix {
        totals.fixed = Some(fixed);
    }
    // Any write error is kept and reported by `output::exit`.
    if out.is_sarif() {
        let _ = out.finish();
    } else {
        if args.statistics {
            let _ = write!(out, "{}", totals.statistics(json));
        }
        // When no input could be read, the error says all: no summary of nothing follows it
        // (JSON still ends with its summary object, which programs wait for).
        if json || !failed || totals.files > 0 {
            let _ = writeln!(out, "{}", totals.summary(json));
        }
    }
    exit_code(failed, totals.invalid > 0)
}

/// The renderer of the findings, as `-q`, `--statistics` and `--output-format` say; `None`
/// (with a message) when they disagree.
fn renderer(args: &CheckArgs) -> Option<Renderer> {
    let volume = match (args.quiet, args.statistics) {
        (_, true) => Volume::Statistics,
        (true, _) => Volume::Errors,
        _ => Volume::All,
    };
    let renderer = Renderer::for_check(volume);
    if args.statistics && !matches!(renderer.format, MessageFormat::Human | MessageFormat::Json) {
        output::message(
            "`--statistics` writes a table of counts, in words or JSON: leave out `--output-format sarif` or `github`",
        );
        return None;
    }
    Some(renderer)
}

/// `format` in the dialect `--dialect` names, or why it has none.
fn with_dialect(args: &CheckArgs, format: Format) -> Result<Format, String> {
    // JSON positions say their own game: `--dialect` is not theirs to choose.
    match args.dialect {
        Some(d) if !format.notation().dialects().is_empty() => format.with_dialect(d),
        _ => Ok(format),
    }
}

/// Why checking an input stopped: a usage or I/O error (with the totals of the records read
/// before it), or a write error (kept by `output`, which reports it at the end).
enum Stop {
    Usage(String, Box<Totals>),
    Write,
}

impl Stop {
    /// A usage error, before any record was read.
    fn usage(message: String) -> Self {
        Self::Usage(message, Box::default())
    }
}

/// Checks the input at `path` in `format`, its reports written to `out`.
fn check_path(
    args: &CheckArgs,
    path: &str,
    (format, selection): (Format, &Selection),
    renderer: &Renderer,
    workers: usize,
    out: &mut (impl Write + Send),
) -> Result<Totals, Stop> {
    let name = input::name(path);
    let unread = |e: io::Error| Stop::usage(format!("cannot read `{name}`: {e}"));
    match format.cut() {
        Cut::Values => positions::check_json(positions::open(path).map_err(unread)?, (name, selection), renderer, out)
            .map_err(unread),
        Cut::Games => {
            let options = crate::psn::Options { strict: args.strict, replay: !args.no_replay };
            match check_psn(open_input(path).map_err(unread)?, (name, selection), options, renderer, workers, out) {
                Ok(t) => Ok(t),
                Err(Failed::Read(e, t)) => Err(Stop::Usage(format!("cannot read `{name}`: {e}"), t)),
                Err(Failed::Write) => Err(Stop::Write),
            }
        }
        Cut::Record => {
            let bytes = read_record(path, format).map_err(unread)?;
            let mut out_buf = Vec::new();
            let t = check_record(format, &bytes, path, (name, selection), renderer, &mut out_buf);
            out.write_all(&out_buf).map_err(|_| Stop::Write)?;
            Ok(t)
        }
        Cut::Lines => {
            let result = if path == "-" {
                check_stream(io::stdin(), None, (name, format, selection), renderer, workers, out)
            } else {
                let f = File::open(path).map_err(|e| Stop::usage(format!("cannot open `{name}`: {e}")))?;
                let size = f.metadata().ok().map(|m| m.len());
                check_stream(f, size, (name, format, selection), renderer, workers, out)
            };
            match result {
                Ok(t) => Ok(t),
                // A write error: `output::exit` reports it.
                Err(_) if output::failed() => Err(Stop::Write),
                Err(e) => Err(Stop::usage(format!("cannot check `{name}`: {e}"))),
            }
        }
    }
}

/// The bytes of a file of `format` read whole (a KIF or CSA file, or standard input for `-`):
/// up to one byte more than such a file may hold, which the reader reports.
pub(crate) fn read_record(path: &str, format: Format) -> io::Result<Vec<u8>> {
    // One byte past the largest file the format reads: the reader then says it is too large.
    let largest = match format {
        Format::Csa => crate::csa::MAX_BYTES,
        Format::Jkf => crate::jkf::MAX_BYTES,
        _ => crate::kif::MAX_BYTES,
    };
    let mut bytes = Vec::new();
    open_input(path)?.take(largest as u64 + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Checks the bytes of a file of a format read whole (a KIF record, or a CSA file: the file at
/// `path`, whose extension tells the encoding a KIF record should be in) and writes its reports
/// to `out`. A KIF file counts as one record; a CSA file as its records (one when it has none).
pub(crate) fn check_record(
    format: Format,
    bytes: &[u8],
    path: &str,
    (name, selection): (&str, &Selection),
    renderer: &Renderer,
    out: &mut Vec<u8>,
) -> Totals {
    let extension = std::path::Path::new(path).extension().and_then(|e| e.to_str());
    let (text, diagnostics, records, invalid) = match format {
        Format::Csa => {
            let file = crate::csa::read_file(bytes, |d| selection.apply(d));
            let invalid = file.records.iter().filter(|r| r.error.is_some()).count() as u64;
            let invalid = invalid.max(u64::from(file.diagnostics.iter().any(crate::diagnostic::Diagnostic::is_error)));
            let records = (file.records.len() as u64).max(1);
            (file.text, file.diagnostics, records, invalid)
        }
        Format::Jkf => {
            let mut read = crate::jkf::check_bytes(bytes);
            selection.apply(&mut read.diagnostics);
            let invalid = u64::from(!read.is_valid());
            (read.text, read.diagnostics, 1, invalid)
        }
        _ => {
            let mut read = crate::kif::check_bytes(bytes, extension);
            selection.apply(&mut read.diagnostics);
            let invalid = u64::from(!read.is_valid());
            (read.text, read.diagnostics, 1, invalid)
        }
    };
    let mut t = Totals { records, valid: records - invalid, invalid, ..Totals::default() };
    if invalid > 0 {
        crate::cli::output::note_invalid();
    }
    t.warnings = diagnostics.iter().filter(|d| !d.is_error()).count() as u64;
    t.dialects.add(format.name(), format.title(), records);
    if renderer.volume == Volume::Statistics {
        t.count(&diagnostics);
    } else if !diagnostics.is_empty() {
        let mut rendered = Rendered::default();
        let text = text.as_str();
        renderer.render_text(name, (text, &LineIndex::new(text)), 1, &diagnostics, &mut rendered);
        let _ = renderer.write(&rendered, out);
    }
    t
}

/// Bytes of rendered reports a worker holds at most before it waits for its turn to write
/// them (one line's reports may pass it: [`check::MAX_FINDINGS`] bounds them).
pub(crate) const PART_BYTES: usize = 128 * 1024;

/// Bytes of finished reports held at most while they wait for the batches before them.
pub(crate) const HELD_BYTES: usize = 4 * 1024 * 1024;

/// The most worker threads `kifu check -j` starts. Each holds at most a batch and a part of
/// its reports, so memory stays within a few dozen MiB whatever the input.
pub(crate) const MAX_JOBS: u32 = 64;

/// Checks one line of a batch into `t`, its reports appended to `out`. In a file of lines that
/// are not records (`foreign`), the report of the first stands for the file, and those of the
/// others like it are counted, not shown.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_one(
    line: Line<'_>,
    reading: &Reading,
    (name, format, selection): (&str, Format, &Selection),
    foreign: Option<&ForeignFile>,
    renderer: &Renderer,
    out: &mut Rendered,
    t: &mut Totals,
) {
    let mut report = check::check_line_in(format, line, reading);
    selection.apply(&mut report.diagnostics);
    // A line like the first of a file of lines that are not records: the first's report stands
    // for it.
    let mut hidden = false;
    if let Some(file) = foreign.filter(|_| is_not_a_record(&report.diagnostics)) {
        if format.not_a_record(&report.text) == Some(file.looks) {
            hidden = report.line != file.first;
            if !hidden {
                if let Some(d) = format.not_a_record_report(&report.text, file.looks, Some(file.lines)) {
                    report.diagnostics[0] = d;
                }
            }
        }
    }
    t.records += 1;
    if report.is_valid() {
        t.valid += 1;
    } else {
        t.invalid += 1;
        crate::cli::output::note_invalid();
    }
    t.warnings += report.warnings() as u64;
    if let Some(f) = report.dialect {
        t.read_as(f.read_as(), f.title());
    }
    if renderer.volume == Volume::Statistics {
        t.count(&report.diagnostics);
    } else if hidden {
        t.hidden += 1;
    } else if !report.diagnostics.is_empty() {
        renderer.render(name, &report, out);
    }
}

/// True when `diagnostics` are the one report of a line that is not a record.
fn is_not_a_record(diagnostics: &[crate::Diagnostic]) -> bool {
    use crate::diagnostic::codes;
    matches!(diagnostics, [d] if d.code == codes::sfen::NOT_A_RECORD || d.code == codes::fen::NOT_A_RECORD)
}

/// A file whose first lines are all alike, and none a record: what they look like, the number
/// of the first, and how many were looked at.
pub(crate) struct ForeignFile {
    looks: crate::format::Looks,
    first: usize,
    lines: usize,
}

/// How many of a file's first lines are looked at to tell whether it holds records at all.
const FIRST_LINES: usize = 5;

/// Bytes of a file's start read to find its first lines.
const HEAD_BYTES: usize = 64 * 1024;

impl ForeignFile {
    /// The verdict on a file that starts with `head` (all of it when `whole`): `Some` when its
    /// first lines, two or more and at most [`FIRST_LINES`], are each not a record of `format`,
    /// and look alike.
    fn of(head: &[u8], whole: bool, format: Format) -> Option<Self> {
        let mut reader = LineReader::new(head);
        let mut seen: Vec<(usize, Option<crate::format::Looks>)> = Vec::new();
        while seen.len() <= FIRST_LINES {
            let Ok(Some(batch)) = reader.next_batch(HEAD_BYTES) else { break };
            for line in batch.read_lines() {
                let (report, other) =
                    check::check_line_with(line, &batch.reading, |text| (Vec::new(), None, format.not_a_record(text)));
                // A line too long to read, or not text, is reported as such.
                seen.push((report.line, other.flatten().filter(|_| report.diagnostics.is_empty())));
            }
        }
        // Unless the head is the whole file, its last line may be cut short.
        if !whole || seen.len() > FIRST_LINES {
            seen.pop();
        }
        seen.truncate(FIRST_LINES);
        let (first, looks) = *seen.first()?;
        let looks = looks?;
        (seen.len() >= 2 && seen.iter().all(|&(_, o)| o == Some(looks))).then_some(Self {
            looks,
            first,
            lines: seen.len(),
        })
    }
}

/// A part of a batch's reports and counts, and the input bytes it finishes.
#[derive(Default)]
pub(crate) struct Finished {
    text: Rendered,
    totals: Totals,
    consumed: u64,
}

/// Checks a stream on `workers` threads ([`crate::input::pool`]): it is cut into batches of
/// lines (by a reader thread when a core is free, else by the workers in turn: [`Reader`]), the
/// workers check and render them, and the reports are written in input order. Memory stays
/// flat whatever the input: at most `workers` batches wait to be checked,
/// a worker hands its reports over every [`PART_BYTES`] (and one line's), and at most
/// [`HELD_BYTES`] of reports wait for the batches before them.
pub(crate) fn check_stream(
    input: impl Read + Send,
    size: Option<u64>,
    (name, format, selection): (&str, Format, &Selection),
    renderer: &Renderer,
    workers: usize,
    out: &mut impl Write,
) -> io::Result<Totals> {
    // The first lines say whether the file holds records at all.
    let mut input = input;
    let mut head = Vec::new();
    (&mut input).take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    let foreign = ForeignFile::of(&head, head.len() < HEAD_BYTES, format);
    let input = io::Cursor::new(head).chain(input);
    // With a core of its own, the reader finds the lines of each batch too.
    let reading = Reader::for_workers(workers);
    let mut reader = LineReader::new(input).find_lines(reading == Reader::OwnThread);
    let mut sizes = batch_sizes(workers);
    let batches = std::iter::from_fn(move || reader.next_batch(sizes.next()?).transpose()).map(|b| b.map(|b| (b, 0)));
    let limits = Limits { reader: reading, queue: Some(workers), in_flight: HELD_BYTES };
    let check = |batch: Batch, parts: &mut Parts<'_, Finished>| {
        let mut done = Finished::default();
        for line in batch.read_lines() {
            let foreign = foreign.as_ref();
            let record = (name, format, selection);
            check_one(line, &batch.reading, record, foreign, renderer, &mut done.text, &mut done.totals);
            if done.text.len() >= PART_BYTES {
                let weight = done.text.len();
                if !parts.send(std::mem::take(&mut done), weight) {
                    break;
                }
            }
        }
        done.consumed = batch.consumed;
        let weight = done.text.len();
        (done, weight)
    };
    let progress = progress_bar(size);
    let mut totals = Totals::default();
    let write = |done: Finished| {
        match &progress {
            // Reports on the terminal go above the bar: it is cleared, the reports are written
            // and flushed, and it is drawn again below them.
            Some(bar) if done.text.len() > 0 => {
                bar.suspend(|| renderer.write(&done.text, out).and_then(|()| out.flush()))
            }
            _ => renderer.write(&done.text, out),
        }?;
        totals.add(&done.totals);
        if let Some(p) = &progress {
            p.inc(done.consumed);
        }
        Ok(())
    };
    let result = pool::run(batches, workers, limits, check, write);
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    match result {
        Ok(()) => Ok(totals),
        Err(Stopped::Read(e) | Stopped::Write(e)) => Err(e),
    }
}

pub(crate) fn progress_bar(size: Option<u64>) -> Option<indicatif::ProgressBar> {
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

/// Why reading a PSN stream stopped: its input failed (with the totals of the games read before),
/// or writing did (the error is kept by `output`, which reports it at the end).
pub(crate) enum Failed {
    Read(io::Error, Box<Totals>),
    Write,
}

/// What a worker makes of one PSN game for `check`.
#[derive(Default)]
pub(crate) struct GameReport {
    rendered: Rendered,
    valid: bool,
    warnings: u64,
    dialect: Option<crate::psn::Dialect>,
    /// With `--statistics`: the game's findings, counted.
    counted: Totals,
}

impl crate::psn::stream::Weigh for GameReport {
    fn weight(&self) -> usize {
        self.rendered.len()
    }
}

/// Checks the games of a PSN stream on `workers` threads and writes their reports in order
/// ([`crate::psn::stream::check_parallel`]): memory stays flat whatever the input's size.
pub(crate) fn check_psn(
    input: Box<dyn io::BufRead + Send>,
    (name, selection): (&str, &Selection),
    options: crate::psn::Options,
    renderer: &Renderer,
    workers: usize,
    out: &mut impl Write,
) -> Result<Totals, Failed> {
    let mut totals = Totals::default();
    let mut write_failed = false;
    let result = crate::psn::stream::read_parallel(
        input,
        PSN_PIECE_BYTES,
        workers,
        |item| {
            // A game with nothing to report is told so without being read in full.
            if let Some(dialect) = item.clean(options) {
                return GameReport { valid: true, dialect: Some(dialect), ..GameReport::default() };
            }
            let mut game = item.check(options);
            selection.apply(&mut game.checked.diagnostics);
            let mut rendered = Rendered::default();
            renderer.render_game(name, &game.checked, &game.text, &mut rendered);
            let mut counted = Totals::default();
            if renderer.volume == Volume::Statistics {
                counted.count(&game.checked.diagnostics);
            }
            GameReport {
                rendered,
                valid: game.checked.is_valid(),
                warnings: game.checked.diagnostics.iter().filter(|d| !d.is_error()).count() as u64,
                dialect: Some(game.checked.game.dialect),
                counted,
            }
        },
        |r| {
            totals.games = true;
            totals.records += 1;
            if r.valid {
                totals.valid += 1;
            } else {
                totals.invalid += 1;
                crate::cli::output::note_invalid();
            }
            totals.warnings += r.warnings;
            if let Some(dialect) = r.dialect {
                totals.read_as(dialect.name(), dialect.title());
            }
            totals.add(&r.counted);
            renderer.write(&r.rendered, out).inspect_err(|_| write_failed = true)
        },
    );
    if write_failed {
        return Err(Failed::Write);
    }
    if let Err(e) = result {
        return Err(Failed::Read(e, Box::new(totals)));
    }
    if totals.records == 0 && !renderer.json {
        output::message(format_args!("`{name}` holds no game"));
    }
    Ok(totals)
}
