//! Records read as positions, for `kifu board`, `kifu json` and `kifu convert --to sfen`: SFEN,
//! FEN, EPD, JSON positions and PSN games, each record with its findings (reported on standard
//! error); the boards `kifu board` draws; `kifu check` on JSON input.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::check;
use crate::diagnostic::excerpt::LineIndex;
use crate::diagnostic::Diagnostic;
use crate::format::{Cut, Format, Position};
use crate::input::LineReader;
use crate::json::{self as kjson, JsonText, Node, OnJson, Style};
use crate::views::{self, html, text, Diagram, Frame, Names};
use crate::{fen, sfen};

use super::args::{self, DialectArg, FormatArg};
use super::input::{self as inputs, WalkArgs, STDIN};
use super::output::{self, AtomicFile};
use super::report;
use crate::cli::games::{open_input, stream_games, Stopped};
use crate::cli::input::BATCH_BYTES;
use crate::cli::report::{Rendered, Renderer, Totals, Volume};

/// The options of `kifu board` beyond the FEN description's printer.
#[derive(clap::Args, Debug, Default)]
pub struct ViewArgs {
    /// The records' format (by default, from each file's extension: `.fen`, `.epd`, `.sfen`,
    /// `.json`); standard input is FEN unless this says otherwise.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Write an SVG diagram per position instead of text.
    #[arg(long, conflicts_with = "html")]
    pub svg: bool,
    /// Write one self-contained HTML page with every record's diagram.
    #[arg(long)]
    pub html: bool,
    /// Write to this file instead of standard output. With `--svg` and several positions:
    /// PATH's name numbered (`board-1.svg`, `board-2.svg`, …), or, for a directory, one file per
    /// record in it.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<String>,
    /// Shogi text diagrams in ASCII only.
    #[arg(long, conflicts_with = "kanji")]
    pub ascii: bool,
    /// Shogi pieces by their kanji (text and SVG).
    #[arg(long)]
    pub kanji: bool,
    /// Shade the squares of a move: USI (`7g7f`, `P*5e`) for shogi, UCI (`e2e4`) for chess.
    #[arg(long, value_name = "MOVE")]
    pub last_move: Option<String>,
    /// PSN games: every position of each game, not only the final one.
    #[arg(long)]
    pub each: bool,
    #[command(flatten)]
    pub walk: WalkArgs,
}

/// `--format` and `--dialect` of `kifu json` and `kifu convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertInput {
    /// The records' format (by default, from each file's extension: `.psn`, `.kif`, `.kifu`,
    /// `.ki2`, `.ki2u`, `.csa`, `.jkf`, `.sfen`, `.fen`, `.epd`, `.json`); standard input is PSN
    /// unless this says otherwise.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Positions: the dialect, as for `kifu check`.
    #[arg(long, value_enum)]
    pub dialect: Option<DialectArg>,
    #[command(flatten)]
    pub walk: WalkArgs,
}

/// `kifu json`'s options for positions.
#[derive(clap::Args, Debug)]
pub struct JsonViewArgs {
    #[command(flatten)]
    pub input: ConvertInput,
    /// Shogi positions: hands as arrays of seven counts (`counts`) or as objects of the kinds
    /// held (`keyed`: `{"pawn":2}`).
    #[arg(long, value_enum, default_value_t = JsonStyle::Counts)]
    pub json_style: JsonStyle,
}

/// `--json-style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum JsonStyle {
    /// Hands as arrays of seven counts, P L N S G B R (the model's own form).
    // `seed`, its name in earlier versions, is still read.
    #[value(alias = "seed")]
    Counts,
    /// Hands as objects of the kinds held: `{"silver":1,"pawn":2}`.
    Keyed,
}

/// A position read from a record.
#[derive(Clone, Debug)]
enum Pos {
    Shogi(sfen::Position),
    /// A chess position, and an EPD record's operations as written (`None` for FEN).
    Chess(fen::Position, Option<String>),
    /// A PSN game: its start position, then the position after each move it replays.
    Game(Vec<Frame>),
}

/// One record read: where, as written, its position (when valid), its findings (with the text
/// they point into) and notes on what is shown of it.
struct Item {
    file: String,
    line: usize,
    notation: String,
    position: Option<Pos>,
    findings: Vec<html::Finding>,
    notes: Vec<String>,
}

/// How to read `path`; standard input without `--format` is `default`. `--dialect` applies to
/// the line formats only (PSN games and JSON positions say their own).
fn input_of(
    path: &str,
    format: Option<FormatArg>,
    dialect: Option<DialectArg>,
    default: Format,
) -> Result<Format, String> {
    let format = match args::format_of(format, path) {
        Ok(f) => f,
        Err(_) if path == "-" => default,
        Err(e) => return Err(e.to_string()),
    };
    match dialect {
        Some(d) if format.is_lines() => format.with_dialect(d),
        _ => Ok(format),
    }
}

/// Renders findings for standard error, as `--message-format` and `--color` say.
pub(crate) struct Reporter {
    renderer: Renderer,
}

impl Reporter {
    pub(crate) fn new() -> Self {
        Self { renderer: Renderer::new(report::Stream::Stderr) }
    }

    /// Reports on one line of a file: `text` is the line, `line` its number.
    pub(crate) fn line(&self, name: &str, line: usize, text: &str, diagnostics: &[Diagnostic]) -> String {
        let mut out = Rendered::default();
        self.renderer.render_line(name, line, text, diagnostics, &mut out);
        out.text
    }

    /// Reports on a text of several lines whose first line is line `first` of its file.
    fn multi(&self, name: &str, text: (&str, &LineIndex), first: usize, diagnostics: &[Diagnostic]) -> String {
        let mut out = Rendered::default();
        self.renderer.render_text(name, text, first, diagnostics, &mut out);
        out.text
    }
}

/// What reading the inputs came to.
#[derive(Default)]
struct Outcome {
    invalid: bool,
    failed: bool,
}

impl Outcome {
    fn code(&self) -> ExitCode {
        report::exit_code(self.failed, self.invalid)
    }
}

/// An error with what was being done: "cannot read `a.sfen`: …".
fn context(e: io::Error, what: impl std::fmt::Display) -> io::Error {
    io::Error::new(e.kind(), format!("{what}: {e}"))
}

/// The input at `path`, or standard input for `-`.
pub(crate) fn open(path: &str) -> io::Result<Box<dyn Read>> {
    Ok(if path == "-" { Box::new(io::stdin()) } else { Box::new(File::open(path)?) })
}

/// Reads every record of the files `paths` name (folders walked, globs expanded) as `reading`
/// says, reporting findings on standard error, and hands each to `f`. Standard input without
/// `--format` is read as `default`. Stops at the first error of `f` (a write error).
fn each_record(
    paths: &[String],
    reading: &ConvertInput,
    default: Format,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> Outcome {
    let reporter = Reporter::new();
    let mut outcome = Outcome::default();
    for found in inputs::expand(paths, reading.walk, reading.format.is_some()) {
        let found = match found {
            Ok(found) => found,
            Err(e) => {
                output::message(e.message);
                outcome.failed = true;
                crate::cli::output::note_unread();
                continue;
            }
        };
        let path = found.path.as_str();
        let name = inputs::name(path);
        let input = match input_of(path, reading.format, reading.dialect, default) {
            Ok(i) => i,
            Err(e) => {
                output::message(e);
                outcome.failed = true;
                crate::cli::output::note_unread();
                continue;
            }
        };
        let result = match input.cut() {
            Cut::Games => match open_input(path) {
                Ok(input) => psn_records(name, input, &reporter, &mut outcome, f),
                Err(e) => {
                    output::message(format_args!("cannot read `{name}`: {e}"));
                    outcome.failed = true;
                    crate::cli::output::note_unread();
                    continue;
                }
            },
            Cut::Record if input == Format::Csa => csa_records(path, name, &reporter, &mut outcome, f),
            Cut::Record => whole_record((path, input), name, &reporter, &mut outcome, f),
            cut @ (Cut::Lines | Cut::Values) => {
                let reader = match open(path) {
                    Ok(r) => r,
                    Err(e) => {
                        output::message(format_args!("cannot open `{name}`: {e}"));
                        outcome.failed = true;
                        crate::cli::output::note_unread();
                        continue;
                    }
                };
                match cut {
                    Cut::Values => json_records(name, reader, &reporter, &mut outcome, f),
                    _ => line_records(name, reader, input, &reporter, &mut outcome, f),
                }
            }
        };
        if let Err(e) = result {
            // A write error on standard output is reported once, at the end.
            if !output::failed() {
                output::message(e);
            }
            outcome.failed = true;
            crate::cli::output::note_unread();
            return outcome;
        }
    }
    outcome
}

/// The most positions of a game that `kifu board` shows (with `--each`, `--svg` or `--html`): a
/// longer game shows its start and the positions after its last moves.
pub const MAX_GAME_FRAMES: usize = 1000;

/// The most records one `kifu board --html` page shows; the page says how many more there were.
pub const MAX_PAGE_RECORDS: usize = 1000;

/// The most boards one `kifu board --html` page holds (a game's positions count one each, at
/// most [`MAX_GAME_FRAMES`]): with boards of some 14 KB, a page stays under some 30 MB. The
/// records after the first that would go past it are left out, and the page says how many.
pub const MAX_PAGE_BOARDS: usize = 2 * MAX_GAME_FRAMES;

/// What a `kifu board --html` page holds so far, and what it leaves out.
#[derive(Default)]
struct Page {
    records: usize,
    boards: usize,
    /// The first record left out, and how many were.
    left_out: Option<(String, usize)>,
}

impl Page {
    /// True when a record of `boards` boards still goes on the page (counted then), false
    /// when it is left out (counted as such): once one is left out, so are all after it.
    fn admit(&mut self, title: &str, boards: usize) -> bool {
        if self.left_out.is_none() && self.records < MAX_PAGE_RECORDS && self.boards + boards <= MAX_PAGE_BOARDS {
            self.records += 1;
            self.boards += boards;
            return true;
        }
        self.left_out.get_or_insert_with(|| (title.to_owned(), 0)).1 += 1;
        false
    }

    /// What the page says of the records it leaves out, if it leaves out any.
    fn left_out_note(&self) -> Option<String> {
        let (first, count) = self.left_out.as_ref()?;
        let more = if *count == 1 {
            format!("1 more record, from {first}, is")
        } else {
            format!("{count} more records, from {first} on, are")
        };
        Some(format!(
            "{more} not on this page: a page shows at most {MAX_PAGE_RECORDS} records and \
             {MAX_PAGE_BOARDS} boards, and this one shows {} records and {} boards. To see the rest, \
             split the input into smaller files and draw each, or draw them without `--html` (text \
             boards, or `--svg -o DIR` for one SVG file a record).",
            self.records, self.boards
        ))
    }
}

/// How many boards a record's diagram is: one, or a game's positions.
fn boards_of(diagram: &Option<Diagram>) -> usize {
    match diagram {
        Some(Diagram::Shogi(frames)) => frames.len(),
        Some(Diagram::Chess(..)) => 1,
        None => 0,
    }
}

/// A PSN game made ready on a worker: its findings rendered, and its record.
struct PsnRecord {
    rendered: String,
    item: Item,
}

impl crate::psn::stream::Weigh for PsnRecord {
    fn weight(&self) -> usize {
        // A position is some hundreds of bytes.
        self.rendered.len()
            + self.item.notation.len()
            + 512
                * self.item.position.as_ref().map_or(0, |p| match p {
                    Pos::Game(frames) => frames.len(),
                    _ => 1,
                })
    }
}

/// The frames `kifu board` draws of a game: its start, then the position after each move
/// `played` (with the move as written), only the last [`MAX_GAME_FRAMES`] less one when there
/// are more (said in `notes`).
fn game_frames(start: sfen::Position, played: Vec<(String, sfen::Position)>, notes: &mut Vec<String>) -> Vec<Frame> {
    // The start, and the positions after the last moves when there are too many.
    let skip = played.len().saturating_sub(MAX_GAME_FRAMES - 1);
    if skip > 0 {
        notes.push(format!(
            "only the positions after the last {} moves are shown, of {}",
            MAX_GAME_FRAMES - 1,
            played.len()
        ));
    }
    let mut sequence = vec![(None, start)];
    sequence.extend(played.into_iter().skip(skip).map(|(text, position)| (Some(text), position)));
    views::frames(&sequence)
}

/// A KIF, KI2 or JKF record read whole, as one item: its findings reported, its main line
/// replayed up to the first move that could not be played.
fn whole_record(
    (path, format): (&str, Format),
    name: &str,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let cannot = |e| context(e, format_args!("cannot read `{name}`"));
    let (text, diagnostics, game) = if format == Format::Jkf {
        let read = crate::jkf::check_bytes(&crate::cli::check::read_record(path, format).map_err(cannot)?);
        (read.text, read.diagnostics, read.game)
    } else {
        let read = crate::cli::games::read_kif(path).map_err(cannot)?;
        (read.text, read.diagnostics, read.game)
    };
    let errors = report_errors(name, &text, diagnostics.into_iter(), reporter, outcome);
    f(game_item(name, 1, game.as_ref(), errors.iter().map(|d| html::Finding::new(&text, 1, d)).collect()))
}

/// The errors of `findings` in the text of the file `name`, reported on standard error (the
/// file is then invalid).
fn report_errors(
    name: &str,
    text: &str,
    findings: impl Iterator<Item = Diagnostic>,
    reporter: &Reporter,
    outcome: &mut Outcome,
) -> Vec<Diagnostic> {
    let errors: Vec<Diagnostic> = findings.filter(Diagnostic::is_error).collect();
    if !errors.is_empty() {
        outcome.invalid = true;
        crate::cli::output::note_invalid();
        output::err(reporter.multi(name, (text, &LineIndex::new(text)), 1, &errors));
    }
    errors
}

/// The item of a game read whole (a KIF record, a CSA file's record) that starts on `line`:
/// its headers, and its main line replayed up to the first move that could not be played.
fn game_item(name: &str, line: usize, game: Option<&crate::shogi::Game>, findings: Vec<html::Finding>) -> Item {
    let mut notes = Vec::new();
    let frames = game.map(|game| game_frames(game.start.clone(), crate::kif::main_line_ki2(game), &mut notes));
    let notation = game
        .map_or_else(String::new, |g| g.headers.iter().map(|(k, v)| format!("{k}：{v}")).collect::<Vec<_>>().join(" "));
    Item { file: name.to_owned(), line, notation, position: frames.map(Pos::Game), findings, notes }
}

/// The records of a CSA file, each an item: the file's findings reported, each record's main
/// line replayed up to the first move that could not be played.
fn csa_records(
    path: &str,
    name: &str,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let bytes = crate::cli::check::read_record(path, Format::Csa)
        .map_err(|e| context(e, format_args!("cannot read `{name}`")))?;
    let read = crate::csa::read_file(&bytes, |_| {});
    let text = read.text.as_str();
    let errors = report_errors(name, text, read.diagnostics.into_iter(), reporter, outcome);
    for record in read.records {
        let within = |d: &&Diagnostic| d.span().start >= record.span.start && d.span().start <= record.span.end;
        let findings = errors.iter().filter(within).map(|d| html::Finding::new(text, 1, d)).collect();
        f(game_item(name, record.line, record.game.as_ref(), findings))?;
    }
    Ok(())
}

/// The games of a PSN stream, each replayed: its positions, move by move, up to its first
/// illegal move. Games are read, checked and handed to `f` one by one, in order.
fn psn_records(
    name: &str,
    input: Box<dyn io::BufRead + Send>,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let result = stream_games(
        input,
        crate::cli::pool::workers(None),
        |g| {
            let (text, g) = (&g.text, &g.checked);
            let errors: Vec<Diagnostic> = g.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
            let rendered = if errors.is_empty() {
                String::new()
            } else {
                reporter.multi(name, (text, &LineIndex::new(text)), g.game.line, &errors)
            };
            let findings = errors.iter().map(|d| html::Finding::new(text, g.game.line, d)).collect();
            let mut notes = Vec::new();
            let frames = g.replay.as_ref().map(|r| {
                let played = g.game.moves.iter().zip(r.positions()).map(|(node, p)| (node.mv.text.to_string(), p));
                game_frames(r.start.clone(), played.collect(), &mut notes)
            });
            let item = Item {
                file: name.to_owned(),
                line: g.game.line,
                notation: g
                    .game
                    .headers
                    .iter()
                    .map(|h| format!("[{} \"{}\"]", h.key, h.value))
                    .collect::<Vec<_>>()
                    .join(" "),
                position: frames.map(Pos::Game),
                findings,
                notes,
            };
            PsnRecord { rendered, item }
        },
        |record| {
            if !record.rendered.is_empty() {
                outcome.invalid = true;
                crate::cli::output::note_invalid();
                output::err(&record.rendered);
            }
            f(record.item)
        },
    );
    match result {
        Err(Stopped::Read(e) | Stopped::Write(e)) => Err(e),
        Ok(()) => Ok(()),
    }
}

fn line_records(
    name: &str,
    input: impl Read,
    format: Format,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let mut reader = LineReader::new(input);
    while let Some(batch) =
        reader.next_batch(BATCH_BYTES).map_err(|e| context(e, format_args!("cannot read `{name}`")))?
    {
        for line in batch.read_lines() {
            // Each record is read once: its findings, and its position and text beside them.
            let (report, read) = check::check_line_with(line, &batch.reading, |text| read_line(format, text));
            // Warnings leave a record valid: only an invalid record explains itself here.
            if !report.is_valid() {
                output::err(reporter.line(name, report.line, &report.text, &report.diagnostics));
            }
            let findings =
                report.diagnostics.iter().map(|d| html::Finding::new(&report.text, report.line, d)).collect();
            let (position, text) = read.unwrap_or_else(|| (None, report.text.clone()));
            let position = if report.is_valid() {
                position
            } else {
                outcome.invalid = true;
                crate::cli::output::note_invalid();
                None
            };
            let item =
                Item { file: name.to_owned(), line: report.line, notation: text, position, findings, notes: vec![] };
            f(item)?;
        }
        if output::failed() {
            return Err(io::Error::other("standard error could not be written"));
        }
    }
    Ok(())
}

/// One line record read in `format`: its findings, the dialect it was read in, and its
/// position (when it has one) and text.
fn read_line(format: Format, text: &str) -> (Vec<Diagnostic>, Option<Format>, (Option<Pos>, String)) {
    let (diagnostics, read_as, position) = match format.record(text) {
        Some(r) => {
            let position = r.position.map(|p| match p {
                Position::Shogi(p) => Pos::Shogi(p),
                Position::Chess(p) => Pos::Chess(p, r.operations.map(|ops| ops.trim().to_owned())),
            });
            (r.diagnostics, format.read_in(r.read_as), position)
        }
        None => (format.check_text(text).0, Some(format), None),
    };
    (diagnostics, read_as, (position, text.to_owned()))
}

/// A JSON record read: its position (when well formed and valid), the record it was written
/// as, and its findings (spans in the JSON text).
fn read_json_record(node: &Node) -> (Option<Pos>, Option<String>, Vec<Diagnostic>) {
    match kjson::read(node) {
        kjson::Model::Chess(c) => {
            let valid = c.is_valid();
            let (fen, ops) = c.record.map(|w| (w.fen, w.operations)).unzip();
            (c.position.filter(|_| valid).map(|p| Pos::Chess(p, ops.flatten())), fen, c.diagnostics)
        }
        kjson::Model::Shogi(c) => {
            let valid = c.is_valid();
            (c.position.filter(|_| valid).map(Pos::Shogi), c.record, c.diagnostics)
        }
    }
}

/// Hands `f` each record of a JSON input ([`kjson::each_record`]), with the file's name in a
/// read error, and stops when standard error can no longer be written.
fn each_json(name: &str, input: impl Read, f: &mut OnJson<'_>) -> io::Result<()> {
    kjson::each_record(input, &mut |at, record, notes| {
        f(at, record, notes)?;
        if output::failed() {
            return Err(io::Error::other("standard error could not be written"));
        }
        Ok(())
    })
    .map_err(|e| context(e, format_args!("cannot read `{name}`")))
}

/// `notes` (the findings on a piece's bytes) before `diagnostics`.
fn with_notes(notes: &[Diagnostic], diagnostics: &[Diagnostic]) -> Vec<Diagnostic> {
    notes.iter().chain(diagnostics).cloned().collect()
}

fn json_records(
    name: &str,
    input: impl Read,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    each_json(name, input, &mut |at, record, notes| match record {
        // A value that could not be read: shown where it is, with its findings.
        Err(diagnostics) => {
            outcome.invalid = true;
            crate::cli::output::note_invalid();
            let diagnostics = with_notes(notes, diagnostics);
            output::err(reporter.multi(name, (at.text, at.index), at.line, &diagnostics));
            let first = diagnostics.first().map_or(0, |d| d.span().start);
            let line = at.place(first).0;
            let findings = diagnostics.iter().map(|d| html::Finding::new(at.text, at.line, d)).collect();
            let notation = at.index.line_span(at.text, line - at.line).slice(at.text).chars().take(120).collect();
            f(Item { file: name.to_owned(), line, notation, position: None, findings, notes: vec![] })
        }
        Ok(node) => {
            let (position, written, diagnostics) = read_json_record(node);
            let diagnostics = with_notes(notes, &diagnostics);
            if position.is_none() {
                outcome.invalid = true;
                crate::cli::output::note_invalid();
                if !diagnostics.is_empty() {
                    output::err(reporter.multi(name, (at.text, at.index), at.line, &diagnostics));
                }
            }
            let line = at.place(node.span.start).0;
            let notation = written.unwrap_or_else(|| node.span.slice(at.text).chars().take(120).collect());
            let findings = diagnostics.iter().map(|d| html::Finding::new(at.text, at.line, d)).collect();
            f(Item { file: name.to_owned(), line, notation, position, findings, notes: vec![] })
        }
    })
}

/// `kifu check` on a JSON file: every finding, pointing into the JSON text.
pub fn check_json(
    input: impl Read,
    (name, selection): (&str, &crate::diagnostic::select::Selection),
    renderer: &Renderer,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let mut totals = Totals::default();
    let mut rendered = Rendered::default();
    let statistics = renderer.volume == Volume::Statistics;
    // `record` is where the value the findings are about starts.
    let render = |at: &JsonText<'_>,
                  record: crate::Span,
                  diagnostics: &[Diagnostic],
                  rendered: &mut Rendered,
                  totals: &mut Totals| {
        if statistics {
            totals.count(diagnostics);
        }
        // A position of tens of thousands of unknown keys is shown as a line record is: its
        // first findings, then how many more.
        let shown = crate::check::capped(diagnostics, record);
        renderer.render_text(name, (at.text, at.index), at.line, &shown, rendered);
    };
    // A value is valid when no error is reported of it (a position is read from every value
    // without one).
    let count = |diagnostics: &[Diagnostic], totals: &mut Totals| {
        if diagnostics.iter().any(Diagnostic::is_error) {
            totals.invalid += 1;
            crate::cli::output::note_invalid();
        } else {
            totals.valid += 1;
        }
        totals.warnings += diagnostics.iter().filter(|d| !d.is_error()).count() as u64;
    };
    // Syntax errors and records, in the order of the text, one value at a time.
    each_json(name, input, &mut |at, record, notes| {
        totals.records += 1;
        match record {
            Err(diagnostics) => {
                let record = diagnostics.first().map_or(crate::Span::point(0), Diagnostic::span);
                let mut diagnostics = with_notes(notes, diagnostics);
                selection.apply(&mut diagnostics);
                count(&diagnostics, &mut totals);
                render(at, record, &diagnostics, &mut rendered, &mut totals);
            }
            Ok(node) => {
                let (_, _, diagnostics) = read_json_record(node);
                let mut diagnostics = with_notes(notes, &diagnostics);
                selection.apply(&mut diagnostics);
                totals.read_as(Format::Json.read_as(), Format::Json.title());
                count(&diagnostics, &mut totals);
                // The note of findings not shown points at the value's first character.
                let record = crate::Span::new(node.span.start, (node.span.start + 1).min(node.span.end));
                render(at, record, &diagnostics, &mut rendered, &mut totals);
            }
        }
        if rendered.len() >= 1 << 16 {
            renderer.write(&rendered, out)?;
            rendered.clear();
        }
        Ok(())
    })?;
    renderer.write(&rendered, out)?;
    Ok(totals)
}

/// True when `kifu json` or `kifu convert` should read positions rather than games: with
/// `--format`, as it says; else when every file `paths` name (folders walked, globs expanded) is
/// one of positions by its extension.
pub fn reads_positions(paths: &[String], input: &ConvertInput) -> bool {
    match input.format {
        Some(f) => matches!(f.format().cut(), Cut::Lines | Cut::Values),
        None => {
            // The files skipped are named when they are read.
            let walk = WalkArgs { verbose: false, ..input.walk };
            inputs::expand(paths, walk, false).flatten().all(|found| {
                found.path != "-"
                    && Format::from_path(&found.path).is_some_and(|f| matches!(f.cut(), Cut::Lines | Cut::Values))
            })
        }
    }
}

/// `kifu json` on positions: one object per line, the board viewer's model (or the chess analogue).
pub fn run_json(paths: &[String], args: &JsonViewArgs) -> ExitCode {
    let style = match args.json_style {
        JsonStyle::Counts => Style::Counts,
        JsonStyle::Keyed => Style::Keyed,
    };
    let mut out = output::Stdout;
    let outcome = each_record(paths, &args.input, Format::Psn, &mut |item| match item.position {
        Some(Pos::Shogi(p)) => writeln!(out, "{}", crate::json::shogi::write(&p, style)),
        Some(Pos::Chess(p, None)) => writeln!(out, "{}", crate::json::chess::write(&p)),
        Some(Pos::Chess(p, Some(ops))) => writeln!(out, "{}", crate::json::chess::write_epd(&p, &ops)),
        Some(Pos::Game(_)) | None => Ok(()),
    });
    outcome.code()
}

/// `kifu convert --to sfen` on positions: each shogi position as a USI SFEN record.
pub fn run_convert_sfen(paths: &[String], input: &ConvertInput) -> ExitCode {
    let mut out = output::Stdout;
    let mut chess = false;
    let mut outcome = each_record(paths, input, Format::Psn, &mut |item| match item.position {
        Some(Pos::Shogi(p)) => writeln!(out, "{p}"),
        Some(Pos::Game(_)) => Ok(()),
        Some(Pos::Chess(..)) => {
            chess = true;
            output::message(format_args!(
                "{}:{}: a chess position has no SFEN (its FEN is `{}`)",
                item.file, item.line, item.notation
            ));
            Ok(())
        }
        None => Ok(()),
    });
    outcome.invalid |= chess;
    if chess {
        crate::cli::output::note_invalid();
    }
    outcome.code()
}

/// `kifu convert` on positions to anything but SFEN.
pub fn convert_unsupported(to: &str) -> ExitCode {
    output::message(format_args!("positions convert to SFEN only (`--to sfen`), not `--to {to}`"));
    ExitCode::from(2)
}

/// Where `kifu board` writes one stream of boards: standard output, or a file (`-o`) that
/// replaces its path only when the run read every input.
enum Sink {
    Stdout(output::Stdout),
    File(AtomicFile),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Stdout(out) => out.write(buf),
            Self::File(f) => {
                f.write(buf).map_err(|e| context(e, format_args!("cannot write `{}`", f.path().display())))
            }
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Self::Stdout(out) => out.write_all(buf),
            Self::File(f) => {
                f.write_all(buf).map_err(|e| context(e, format_args!("cannot write `{}`", f.path().display())))
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Stdout(out) => out.flush(),
            Self::File(f) => f.flush(),
        }
    }
}

/// Starts writing `path` ([`AtomicFile`]), or says why not.
fn create(path: &Path) -> Result<AtomicFile, ExitCode> {
    AtomicFile::create(path).map_err(|e| {
        output::message(format_args!("cannot write `{}`: {e}", path.display()));
        ExitCode::from(2)
    })
}

/// SVG diagrams written to files (`--svg -o`): one per record in a directory, or numbered
/// files after PATH's name when there are several (`board-1.svg`, …), or PATH itself for one.
///
/// In a directory, a record's file is named after its input and line (`x-12.svg`; with
/// `--each`, `x-12-3.svg` for a game's third position). No two diagrams of a run take one name:
/// an input whose names were taken by another (`a/x.sfen` and `b/x.sfen`) names its diagrams
/// with a number after its name (`x.2-12.svg`), and says so. Names are compared regardless of
/// case, as a case-insensitive file system would.
struct SvgFiles<'a> {
    target: &'a Path,
    dir: bool,
    /// The first diagram, held until a second one shows PATH must be numbered.
    first: Option<String>,
    count: usize,
    /// The names written in the directory so far, in lower case.
    taken: std::collections::HashSet<String>,
    /// The input being written and the name its diagrams' names start with.
    current: Option<(String, String)>,
}

impl<'a> SvgFiles<'a> {
    fn new(target: &'a Path) -> Self {
        Self { target, dir: target.is_dir(), first: None, count: 0, taken: Default::default(), current: None }
    }

    fn write(path: &Path, svg: &str) -> io::Result<()> {
        let mut f =
            AtomicFile::create(path).map_err(|e| context(e, format_args!("cannot write `{}`", path.display())))?;
        f.write_all(svg.as_bytes())
            .and_then(|()| f.commit())
            .map_err(|e| context(e, format_args!("cannot write `{}`", path.display())))
    }

    fn numbered(&self, n: usize) -> PathBuf {
        let stem = self.target.file_stem().and_then(|s| s.to_str()).unwrap_or("board");
        let ext = self.target.extension().and_then(|s| s.to_str()).unwrap_or("svg");
        self.target.with_file_name(format!("{stem}-{n}.{ext}"))
    }

    /// The name in the directory of the diagram of `file`'s record at `line` (its position
    /// `frame` of several, with `--each`), which no diagram of this run has taken.
    fn name_in_dir(&mut self, file: &str, line: usize, frame: Option<usize>) -> String {
        let stem = if file == STDIN {
            "stdin"
        } else {
            Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or("stdin")
        };
        let name_of = |prefix: &str| match frame {
            Some(k) => format!("{prefix}-{line}-{k}.svg"),
            None => format!("{prefix}-{line}.svg"),
        };
        let mut prefix = match &self.current {
            Some((current, prefix)) if current == file => prefix.clone(),
            _ => stem.to_owned(),
        };
        let first_choice = name_of(&prefix);
        if self.taken.contains(&first_choice.to_lowercase()) {
            let free = |p: &String| !self.taken.contains(&name_of(p).to_lowercase());
            prefix = (2usize..).map(|n| format!("{stem}.{n}")).find(free).unwrap_or_default();
            output::message(format_args!(
                "the diagrams of `{file}` are named `{prefix}-…`: `{first_choice}` was written for another record in this run"
            ));
        }
        let name = name_of(&prefix);
        self.current = Some((file.to_owned(), prefix));
        self.taken.insert(name.to_lowercase());
        name
    }

    fn add(&mut self, svg: String, file: &str, line: usize, frame: Option<usize>) -> io::Result<()> {
        self.count += 1;
        if self.dir {
            let name = self.name_in_dir(file, line, frame);
            return Self::write(&self.target.join(name), &svg);
        }
        match self.count {
            1 => {
                self.first = Some(svg);
                Ok(())
            }
            n => {
                if let Some(first) = self.first.take() {
                    Self::write(&self.numbered(1), &first)?;
                }
                Self::write(&self.numbered(n), &svg)
            }
        }
    }

    /// Writes a lone diagram to PATH itself.
    fn finish(mut self) -> io::Result<()> {
        match self.first.take() {
            Some(svg) => Self::write(self.target, &svg),
            None => Ok(()),
        }
    }
}

/// `kifu board` on SFEN, JSON, EPD, or with `--svg`, `--html`, `--ascii`, `--kanji`, `-o`.
/// Every board is written as its record is read: nothing waits for the last record.
pub fn run_board(paths: &[String], dialect: Option<DialectArg>, args: &ViewArgs) -> ExitCode {
    let names = if args.kanji { Names::Kanji } else { Names::Letters };
    let style = match (args.ascii, args.kanji) {
        (true, _) => text::Style::Ascii,
        (_, true) => text::Style::Kanji,
        _ => text::Style::Unicode,
    };
    let target = args.output.as_deref().filter(|o| *o != "-").map(Path::new);
    let (mut files, mut sink) = match open_boards(paths, args, target) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let mut bad_move = None;
    let (mut written, mut games) = (0usize, false);
    let mut page = Page::default();
    let reading = ConvertInput { format: args.format, dialect, walk: args.walk };
    let mut outcome = each_record(paths, &reading, Format::Fen(fen::Dialect::Standard), &mut |item| {
        let diagram = diagram_of(item.position, args.last_move.as_deref(), &mut bad_move);
        let record = html::Section {
            title: format!("{}:{}", item.file, item.line),
            notation: Some(item.notation),
            diagram,
            findings: item.findings,
            notes: item.notes,
        };
        if args.html {
            if !page.admit(&record.title, boards_of(&record.diagram)) {
                return Ok(());
            }
            let mut section = String::new();
            games |= html::section(&mut section, written, &record, names);
            written += 1;
            return sink.as_mut().map_or(Ok(()), |s| s.write_all(section.as_bytes()));
        }
        let to = Boards { files: &mut files, sink: &mut sink, written: &mut written };
        write_boards(record, (&item.file, item.line), args, (names, style), to)
    });
    if let Some(code) = stopped(bad_move, &outcome, target) {
        return code;
    }
    let mut end = String::new();
    if args.html {
        if let Some(note) = page.left_out_note() {
            html::left_out(&mut end, &note);
            output::message(&note);
        }
        end.push_str(&html::end(games));
    }
    // A file named by `-o` that would hold no board keeps what it held.
    if let (Some(Sink::File(f)), false, 0) = (&sink, args.html, written) {
        output::message(format_args!("`{}` is not written: no record gave a board", f.path().display()));
        return outcome.code();
    }
    let finished = finish_boards(files, sink, &end);
    if let Err(e) = finished {
        if !output::failed() {
            output::message(e);
        }
        outcome.failed = true;
        crate::cli::output::note_unread();
    }
    outcome.code()
}

/// Where `kifu board` writes its boards: SVG to files, one file per diagram, under `target`;
/// anything else to one stream, `target` or standard output (an HTML page begun).
fn open_boards<'a>(
    paths: &[String],
    args: &ViewArgs,
    target: Option<&'a Path>,
) -> Result<(Option<SvgFiles<'a>>, Option<Sink>), ExitCode> {
    let (files, mut sink) = match target {
        Some(path) if args.svg => (Some(SvgFiles::new(path)), None),
        Some(path) => (None, Some(Sink::File(create(path)?))),
        None => (None, Some(Sink::Stdout(output::Stdout))),
    };
    if let (true, Some(sink)) = (args.html, &mut sink) {
        if let Err(e) = start_html(paths, sink) {
            if !output::failed() {
                output::message(e);
            }
            return Err(ExitCode::from(2));
        }
    }
    Ok((files, sink))
}

/// Where the boards of records go ([`open_boards`]), and how many were written to the stream.
struct Boards<'s, 'a> {
    files: &'s mut Option<SvgFiles<'a>>,
    sink: &'s mut Option<Sink>,
    written: &'s mut usize,
}

/// Writes the boards of `record`, read at `line` of `file`: a game's final position, or with
/// `--each` every position of it; as SVG or text, as `args` asks.
fn write_boards(
    record: html::Section,
    (file, line): (&str, usize),
    args: &ViewArgs,
    (names, style): (Names, text::Style),
    to: Boards<'_, '_>,
) -> io::Result<()> {
    let frames = frames_of(record, args.each);
    let several = frames.len() > 1;
    for (k, record) in frames.iter().enumerate() {
        match (&mut *to.files, &mut *to.sink) {
            (Some(files), _) => {
                if let Some(svg) = svg_of(record, names) {
                    files.add(svg, file, line, several.then_some(k + 1))?;
                }
            }
            (None, Some(sink)) => {
                let board = if args.svg { svg_of(record, names).map(|s| s + "\n") } else { text_of(record, style) };
                if let Some(board) = board {
                    let sep = if *to.written > 0 && !args.svg { "\n" } else { "" };
                    write!(sink, "{sep}{board}")?;
                    *to.written += 1;
                }
            }
            (None, None) => {}
        }
    }
    Ok(())
}

/// The exit status when `kifu board` stops before its end: `--last-move` is not a move, or an
/// input could not be read (or a write failed; a file named by `-o` then keeps what it held).
fn stopped(bad_move: Option<String>, outcome: &Outcome, target: Option<&Path>) -> Option<ExitCode> {
    if let Some(m) = bad_move {
        output::message(format_args!(
            "`--last-move {m}` is not a move: write USI (`7g7f`, `7g7f+`, `P*5e`) for shogi, UCI (`e2e4`) for chess"
        ));
        return Some(ExitCode::from(2));
    }
    if !outcome.failed {
        return None;
    }
    if let Some(path) = target.filter(|_| !output::failed()) {
        output::message(format_args!("`{}` is not written: not every input could be read", path.display()));
    }
    Some(outcome.code())
}

/// Starts the HTML page, titled with the inputs' names.
fn start_html(paths: &[String], sink: &mut Sink) -> io::Result<()> {
    let paths = inputs::paths(paths);
    let mut files: Vec<&str> = paths.iter().map(|p| inputs::name(p)).collect();
    files.dedup();
    sink.write_all(html::start(&format!("kifu: {}", files.join(", "))).as_bytes())
}

/// A game's final position, or with `--each` every position of it.
fn frames_of(record: html::Section, each: bool) -> Vec<html::Section> {
    match &record.diagram {
        Some(Diagram::Shogi(frames)) if each && frames.len() > 1 => frames
            .iter()
            .map(|f| html::Section {
                title: record.title.clone(),
                notation: None,
                diagram: Some(Diagram::Shogi(vec![f.clone()])),
                findings: Vec::new(),
                notes: Vec::new(),
            })
            .collect(),
        _ => vec![record],
    }
}

/// The diagram of a record's position, its last move (`--last-move`) shaded; a move that is
/// not one is kept in `bad_move`.
fn diagram_of(position: Option<Pos>, last_move: Option<&str>, bad_move: &mut Option<String>) -> Option<Diagram> {
    Some(match position? {
        Pos::Shogi(p) => {
            let last = squares(last_move, views::shogi_move_squares, bad_move);
            Diagram::Shogi(vec![Frame { label: None, position: p, last_move: last }])
        }
        Pos::Game(frames) => Diagram::Shogi(frames),
        Pos::Chess(p, _) => Diagram::Chess(p, squares(last_move, views::chess_move_squares, bad_move)),
    })
}

/// The squares of `--last-move`, read by `read`; none when it is not given, or not a move
/// (then kept in `bad_move`).
fn squares<T>(last_move: Option<&str>, read: impl Fn(&str) -> Option<Vec<T>>, bad_move: &mut Option<String>) -> Vec<T> {
    let Some(m) = last_move else { return Vec::new() };
    read(m).unwrap_or_else(|| {
        *bad_move = Some(m.to_owned());
        Vec::new()
    })
}

/// Writes what ends the boards (`end`: the HTML page's end) and commits a file written with `-o`.
fn finish_boards(files: Option<SvgFiles<'_>>, sink: Option<Sink>, end: &str) -> io::Result<()> {
    match (files, sink) {
        (Some(files), _) => files.finish(),
        (None, Some(mut sink)) => {
            sink.write_all(end.as_bytes())?;
            match sink {
                Sink::File(f) => {
                    let path = f.path().display().to_string();
                    f.commit().map_err(|e| context(e, format_args!("cannot write `{path}`")))
                }
                Sink::Stdout(mut out) => out.flush(),
            }
        }
        (None, None) => Ok(()),
    }
}

/// The text diagram of a record: the FEN description's board for chess, the 9×9 diagram for shogi.
fn text_of(record: &html::Section, style: text::Style) -> Option<String> {
    record.diagram.as_ref()?.text(style)
}

fn svg_of(record: &html::Section, names: Names) -> Option<String> {
    record.diagram.as_ref()?.svg(names)
}
