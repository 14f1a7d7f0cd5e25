//! The commands on positions: `kifu json` (the JSON model), `kifu convert --to sfen` (JSON
//! in), `kifu board` beyond seed 001 (SFEN text diagrams, `--svg`, `--html`), and `kifu check`
//! on JSON input.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use miette::{GraphicalReportHandler, GraphicalTheme};

use kifu::check::{self, Format, FormatName, LineReader};
use kifu::diagnostic::{Diagnostic, RecordSource};
use kifu::excerpt::{self, LineIndex};
use kifu::json::{self as kjson, Node, Style, Value};
use kifu::views::{self, html, svg, text, Diagram, Frame, Names};
use kifu::{fen, sfen};

use super::{read_input, resolve, DialectArg, Renderer, Totals, BATCH_BYTES};

/// The options of `kifu board` beyond seed 001's printer.
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
}

impl ViewArgs {
    fn any(&self) -> bool {
        self.format.is_some()
            || self.svg
            || self.html
            || self.output.is_some()
            || self.ascii
            || self.kanji
            || self.last_move.is_some()
            || self.each
    }
}

/// `kifu json`'s options for positions.
#[derive(clap::Args, Debug)]
pub struct JsonViewArgs {
    /// The records' format (by default, from each file's extension: `.psn`, `.sfen`, `.fen`,
    /// `.epd`, `.json`); standard input is PSN unless this says otherwise.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Positions: the dialect, as for `kifu check`.
    #[arg(long, value_enum)]
    pub dialect: Option<DialectArg>,
    /// Shogi positions: hands as arrays of seven counts (`counts`) or as objects of the kinds
    /// held (`keyed`: `{"pawn":2}`).
    #[arg(long, value_enum, default_value_t = JsonStyle::Counts)]
    pub json_style: JsonStyle,
}

/// `--json-style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum JsonStyle {
    /// Hands as arrays of seven counts, P L N S G B R (the model's own form; `seed` is its old
    /// name).
    #[value(alias = "seed")]
    Counts,
    /// Hands as objects of the kinds held: `{"silver":1,"pawn":2}`.
    Keyed,
}

/// `kifu convert`'s input options.
#[derive(clap::Args, Debug)]
pub struct ConvertInput {
    /// The input's format (by default, from each file's extension; standard input is PSN unless
    /// this says otherwise).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
}

/// A position read from a record.
#[derive(Clone, Debug)]
enum Pos {
    Shogi(sfen::Position),
    Chess(fen::Position),
    /// A PSN game: its start position, then the position after each move it replays.
    Game(Vec<Frame>),
}

/// One record read: where, as written, its position (when valid) and its findings.
struct Item {
    file: String,
    line: usize,
    notation: String,
    position: Option<Pos>,
    findings: Vec<String>,
}

/// How one input is read.
enum Input {
    Lines(Format),
    Json,
    Psn,
}

/// The formats of positions (and PSN, which these commands hand back or refuse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// SFEN (the 2007 spec and the USI dialect).
    Sfen,
    /// FEN (chess, six fields).
    Fen,
    /// EPD (chess, four fields and operations).
    Epd,
    /// JSON positions: the JSON position model, or its chess analogue.
    Json,
    /// PSN (shogi game records).
    Psn,
}

/// True for a `.json` file.
pub fn is_json_path(path: &str) -> bool {
    Path::new(path).extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// How to read `path`; standard input without `--format` is `default`.
fn input_of(
    path: &str,
    format: Option<FormatArg>,
    dialect: Option<DialectArg>,
    default: FormatArg,
) -> Result<Input, String> {
    let format = match format {
        Some(f) => f,
        None if path == "-" => default,
        None if is_json_path(path) => FormatArg::Json,
        None => match FormatName::from_path(path) {
            Some(FormatName::Sfen) => FormatArg::Sfen,
            Some(FormatName::Fen) => FormatArg::Fen,
            Some(FormatName::Epd) => FormatArg::Epd,
            Some(FormatName::Psn) => FormatArg::Psn,
            None => {
                return Err(format!(
                    "cannot tell the format of `{path}` from its name: add `--format sfen` (or fen, epd, json, psn)"
                ))
            }
        },
    };
    let name = match format {
        FormatArg::Json => return Ok(Input::Json),
        FormatArg::Psn => return Ok(Input::Psn),
        FormatArg::Sfen => FormatName::Sfen,
        FormatArg::Fen => FormatName::Fen,
        FormatArg::Epd => FormatName::Epd,
    };
    resolve(name, dialect).map(Input::Lines)
}

/// Renders findings for standard error.
struct Reporter {
    handler: GraphicalReportHandler,
}

impl Reporter {
    fn new() -> Self {
        let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stderr().is_terminal();
        let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
        Self { handler: GraphicalReportHandler::new_themed(theme).with_width(100) }
    }

    fn line(&self, name: &str, line: usize, text: &str, diagnostics: &[Diagnostic]) -> String {
        let shown = RecordSource::display_text(text);
        let source = RecordSource { name, text: &shown, line };
        let mut out = String::new();
        for d in diagnostics {
            let _ = self.handler.render_report(&mut out, &d.report(&source));
            out.push('\n');
        }
        out
    }

    /// Reports on a text of several lines whose first line is line `first` of its file.
    fn multi(&self, name: &str, text: &str, first: usize, index: &LineIndex, diagnostics: &[Diagnostic]) -> String {
        let mut out = String::new();
        for d in diagnostics {
            let e = excerpt::excerpt(text, index, d);
            let source = RecordSource { name, text: &e.text, line: first + e.first_line };
            let _ = self.handler.render_report(&mut out, &e.diagnostic.report(&source));
            out.push('\n');
        }
        out
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
        if self.failed {
            ExitCode::from(2)
        } else if self.invalid {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// True when a JSON object is a chess position: it has a chess key, or a square key that is a
/// chess square.
fn is_chess(node: &Node) -> bool {
    let Value::Object(members) = &node.value else { return false };
    if members.iter().any(|m| matches!(m.key.as_str(), "castling" | "enPassant" | "halfmoveClock" | "fullmoveNumber")) {
        return true;
    }
    if members.iter().any(|m| matches!(m.key.as_str(), "blackHand" | "whiteHand" | "moveNumber")) {
        return false;
    }
    match node.get("pieces").map(|m| &m.value.value) {
        Some(Value::Object(pieces)) => {
            pieces.first().is_some_and(|p| p.key.as_bytes().first().is_some_and(|b| (b'a'..=b'h').contains(b)))
        }
        _ => false,
    }
}

/// Reads every record of `paths`, reporting findings on standard error, and hands each to `f`.
fn each_record(
    paths: &[String],
    format: Option<FormatArg>,
    dialect: Option<DialectArg>,
    default: FormatArg,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> Outcome {
    let reporter = Reporter::new();
    let paths: Vec<String> = if paths.is_empty() { vec!["-".to_owned()] } else { paths.to_vec() };
    let mut outcome = Outcome::default();
    for path in &paths {
        let name = if path == "-" { "<stdin>" } else { path.as_str() };
        let input = match input_of(path, format, dialect, default) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("kifu: {e}");
                outcome.failed = true;
                continue;
            }
        };
        let result = match input {
            Input::Psn => match super::open_input(path) {
                Ok(input) => psn_records(name, input, &reporter, &mut outcome, f),
                Err(e) => {
                    eprintln!("kifu: cannot read `{name}`: {e}");
                    outcome.failed = true;
                    continue;
                }
            },
            Input::Json => match read_input(path) {
                Ok(bytes) => json_records(name, &bytes, &reporter, &mut outcome, f),
                Err(e) => {
                    eprintln!("kifu: cannot read `{name}`: {e}");
                    outcome.failed = true;
                    continue;
                }
            },
            Input::Lines(format) => {
                let reader: Box<dyn Read> = if path == "-" {
                    Box::new(io::stdin())
                } else {
                    match File::open(path) {
                        Ok(file) => Box::new(file),
                        Err(e) => {
                            eprintln!("kifu: cannot open `{name}`: {e}");
                            outcome.failed = true;
                            continue;
                        }
                    }
                };
                line_records(name, reader, format, &reporter, &mut outcome, f)
            }
        };
        if let Err(e) = result {
            if e.kind() != io::ErrorKind::BrokenPipe {
                eprintln!("kifu: `{name}`: {e}");
            }
            outcome.failed = true;
            return outcome;
        }
    }
    outcome
}

/// The most positions of a game that `kifu board` shows (with `--each`, `--svg` or `--html`): a
/// longer game shows its start and the positions after its last moves.
pub const MAX_GAME_FRAMES: usize = 1000;

/// A PSN game made ready on a worker: its findings rendered, and its record.
struct PsnRecord {
    rendered: String,
    item: Item,
}

impl kifu::psn::stream::Weigh for PsnRecord {
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

/// The games of a PSN stream, each replayed: its positions, move by move, up to its first
/// illegal move. Games are read, checked and handed to `f` one by one, in order.
fn psn_records(
    name: &str,
    input: Box<dyn io::BufRead + Send>,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut write_error = None;
    let result = kifu::psn::stream::check_parallel(
        input,
        kifu::psn::Options::default(),
        super::PSN_PIECE_BYTES,
        workers,
        |g| {
            let (text, g) = (&g.text, &g.checked);
            let errors: Vec<Diagnostic> = g.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
            let rendered = if errors.is_empty() {
                String::new()
            } else {
                reporter.multi(name, text, g.game.line, &LineIndex::new(text), &errors)
            };
            let mut findings: Vec<String> = errors.iter().map(ToString::to_string).collect();
            let frames = g.replay.as_ref().map(|r| {
                let positions = r.positions();
                // The start, and the positions after the last moves when there are too many.
                let skip = positions.len().saturating_sub(MAX_GAME_FRAMES - 1);
                if skip > 0 {
                    findings.push(format!(
                        "only the positions after the last {} moves are shown, of {}",
                        MAX_GAME_FRAMES - 1,
                        positions.len()
                    ));
                }
                let mut sequence = vec![(None, r.start.clone())];
                let played = g.game.moves.iter().zip(positions).skip(skip);
                sequence.extend(played.map(|(node, position)| (Some(node.mv.text.to_string()), position)));
                views::frames(&sequence)
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
            };
            PsnRecord { rendered, item }
        },
        |record| {
            if !record.rendered.is_empty() {
                outcome.invalid = true;
                let _ = io::stdout().flush();
                eprint!("{}", record.rendered);
            }
            f(record.item).inspect_err(|e| write_error = Some(io::Error::new(e.kind(), e.to_string())))
        },
    );
    match write_error {
        Some(e) => Err(e),
        None => result,
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
    while let Some(batch) = reader.next_batch(BATCH_BYTES)? {
        for line in &batch.lines {
            let bytes = batch.bytes(line);
            let report = check::check_line(format, line.number, bytes, line.len);
            // Warnings leave a record valid: only an invalid record explains itself here.
            if !report.is_valid() {
                let rendered = reporter.line(name, report.line, &report.text, &report.diagnostics);
                let _ = io::stdout().flush();
                eprint!("{rendered}");
            }
            let findings = report.diagnostics.iter().map(ToString::to_string).collect();
            // The report keeps the line's text only when it has findings.
            let decoded = String::from_utf8_lossy(bytes);
            let text = decoded.strip_prefix('\u{FEFF}').unwrap_or(&decoded);
            let position = if report.is_valid() {
                match format {
                    Format::Sfen(choice) => sfen::check(text, choice).position.map(Pos::Shogi),
                    Format::Fen(dialect) => fen::check(text, fen::Kind::Fen, dialect).position.map(Pos::Chess),
                    Format::Epd => fen::check(text, fen::Kind::Epd, fen::Dialect::Standard).position.map(Pos::Chess),
                }
            } else {
                outcome.invalid = true;
                None
            };
            f(Item { file: name.to_owned(), line: report.line, notation: text.to_owned(), position, findings })?;
        }
    }
    Ok(())
}

/// A JSON record read: its position (when well formed and valid), the record it was written
/// as, and its findings (spans in the JSON text).
fn read_json_record(node: &Node) -> (Option<Pos>, Option<String>, Vec<Diagnostic>) {
    if is_chess(node) {
        let c = fen::json::read(node);
        let valid = c.is_valid();
        (c.position.filter(|_| valid).map(Pos::Chess), c.fen, c.diagnostics)
    } else {
        let c = sfen::json::read(node);
        let valid = c.is_valid();
        (c.position.filter(|_| valid).map(Pos::Shogi), c.sfen, c.diagnostics)
    }
}

fn json_records(
    name: &str,
    bytes: &[u8],
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let text = String::from_utf8_lossy(bytes);
    let index = LineIndex::new(&text);
    for value in kjson::values(&text) {
        let node = match value {
            Ok(node) => node,
            Err(d) => {
                outcome.invalid = true;
                let _ = io::stdout().flush();
                eprint!("{}", reporter.multi(name, &text, 1, &index, std::slice::from_ref(&*d)));
                continue;
            }
        };
        for node in records_of(std::slice::from_ref(&node)) {
            json_record(name, &text, &index, node, reporter, outcome, f)?;
        }
    }
    Ok(())
}

/// One JSON record: read, its findings reported when it is invalid, handed to `f`.
fn json_record(
    name: &str,
    text: &str,
    index: &LineIndex,
    node: &Node,
    reporter: &Reporter,
    outcome: &mut Outcome,
    f: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let (position, written, diagnostics) = read_json_record(node);
    if position.is_none() && !diagnostics.is_empty() {
        let _ = io::stdout().flush();
        eprint!("{}", reporter.multi(name, text, 1, index, &diagnostics));
    }
    if position.is_none() {
        outcome.invalid = true;
    }
    let line = index.place(text, node.span.start).0 + 1;
    let notation = written.unwrap_or_else(|| node.span.slice(text).chars().take(120).collect());
    let findings = diagnostics.iter().map(ToString::to_string).collect();
    f(Item { file: name.to_owned(), line, notation, position, findings })
}

/// The records of a JSON stream: each top-level value, or the elements of a top-level array.
fn records_of(nodes: &[Node]) -> Vec<&Node> {
    nodes
        .iter()
        .flat_map(|n| match &n.value {
            Value::Array(items) => items.iter().collect::<Vec<_>>(),
            _ => vec![n],
        })
        .collect()
}

/// `kifu check` on a JSON file: every finding, pointing into the JSON text.
pub fn check_json(path: &str, name: &str, renderer: &Renderer, out: &mut impl Write) -> io::Result<Totals> {
    let bytes = read_input(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let index = LineIndex::new(&text);
    let mut totals = Totals::default();
    let mut rendered = String::new();
    let render = |diagnostics: &[Diagnostic], rendered: &mut String| {
        if renderer.json {
            for d in diagnostics {
                let place = |at: usize| {
                    let (line, column) = index.place(&text, at);
                    (line + 1, column)
                };
                if let Ok(s) = serde_json::to_string(&d.to_json_with(name, place)) {
                    rendered.push_str(&s);
                    rendered.push('\n');
                }
            }
        } else {
            for d in diagnostics {
                let e = excerpt::excerpt(&text, &index, d);
                let source = RecordSource { name, text: &e.text, line: 1 + e.first_line };
                let _ = renderer.handler.render_report(rendered, &e.diagnostic.report(&source));
                rendered.push('\n');
            }
        }
    };
    // Syntax errors and records, in the order of the text, one value at a time.
    for value in kjson::values(&text) {
        let node = match value {
            Ok(node) => node,
            Err(d) => {
                totals.records += 1;
                totals.invalid += 1;
                render(std::slice::from_ref(&*d), &mut rendered);
                continue;
            }
        };
        for node in records_of(std::slice::from_ref(&node)) {
            let (position, _, diagnostics) = read_json_record(node);
            totals.records += 1;
            if position.is_some() {
                totals.valid += 1;
            } else {
                totals.invalid += 1;
            }
            totals.warnings += diagnostics.iter().filter(|d| !d.is_error()).count() as u64;
            *totals.dialects.entry("json").or_default() += 1;
            render(&diagnostics, &mut rendered);
        }
        if rendered.len() >= 1 << 16 {
            out.write_all(rendered.as_bytes())?;
            rendered.clear();
        }
    }
    out.write_all(rendered.as_bytes())?;
    Ok(totals)
}

/// True when `kifu json` or `kifu convert` should read positions rather than PSN games.
pub fn reads_positions(paths: &[String], format: Option<FormatArg>) -> bool {
    match format {
        Some(FormatArg::Psn) => false,
        Some(_) => true,
        None => {
            !paths.is_empty()
                && paths.iter().all(|p| {
                    p != "-"
                        && (is_json_path(p)
                            || matches!(
                                FormatName::from_path(p),
                                Some(FormatName::Sfen | FormatName::Fen | FormatName::Epd)
                            ))
                })
        }
    }
}

/// `kifu json` on positions: one object per line, seed 002's model (or the chess analogue).
pub fn run_json(paths: &[String], args: &JsonViewArgs) -> ExitCode {
    let style = match args.json_style {
        JsonStyle::Counts => Style::Seed,
        JsonStyle::Keyed => Style::Keyed,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = each_record(paths, args.format, args.dialect, FormatArg::Psn, &mut |item| match item.position {
        Some(Pos::Shogi(p)) => writeln!(out, "{}", sfen::json::write(&p, style)),
        Some(Pos::Chess(p)) => writeln!(out, "{}", fen::json::write(&p)),
        Some(Pos::Game(_)) | None => Ok(()),
    });
    let _ = out.flush();
    outcome.code()
}

/// True when `kifu convert` reads positions (JSON, SFEN) rather than PSN games.
pub fn converts_positions(paths: &[String], input: &ConvertInput) -> bool {
    reads_positions(paths, input.format)
}

/// `kifu convert --to sfen` on positions: each shogi position as a USI SFEN record.
pub fn run_convert_sfen(paths: &[String], input: &ConvertInput) -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut chess = false;
    let mut outcome = each_record(paths, input.format, None, FormatArg::Psn, &mut |item| match item.position {
        Some(Pos::Shogi(p)) => writeln!(out, "{p}"),
        Some(Pos::Game(_)) => Ok(()),
        Some(Pos::Chess(_)) => {
            chess = true;
            let _ = out.flush();
            eprintln!(
                "kifu: {}:{}: a chess position has no SFEN (its FEN is `{}`)",
                item.file, item.line, item.notation
            );
            Ok(())
        }
        None => Ok(()),
    });
    outcome.invalid |= chess;
    let _ = out.flush();
    outcome.code()
}

/// `kifu convert` on positions to anything but SFEN.
pub fn convert_unsupported(to: &str) -> ExitCode {
    eprintln!("kifu: positions convert to SFEN only (`--to sfen`), not `--to {to}`");
    ExitCode::from(2)
}

/// True when `kifu board` goes beyond seed 001's FEN printer.
pub fn handles_board(paths: &[String], args: &ViewArgs) -> bool {
    args.any() || paths.iter().any(|p| p != "-" && !matches!(FormatName::from_path(p), Some(FormatName::Fen)))
}

/// `kifu board` on SFEN, JSON, EPD, or with `--svg`, `--html`, `--ascii`, `--kanji`, `-o`.
pub fn run_board(paths: &[String], dialect: Option<DialectArg>, args: &ViewArgs) -> ExitCode {
    let names = if args.kanji { Names::Kanji } else { Names::Letters };
    let style = match (args.ascii, args.kanji) {
        (true, _) => text::Style::Ascii,
        (_, true) => text::Style::Kanji,
        _ => text::Style::Unicode,
    };

    let mut records: Vec<html::Record> = Vec::new();
    let mut names_of: Vec<(String, usize)> = Vec::new();
    let mut bad_move = None;
    let to_stdout = args.output.as_deref().is_none_or(|o| o == "-");
    let (mut written, mut text_out) = (0usize, String::new());
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    // A page is written as its records come: its head before the first, its tail after the last.
    let mut page: Option<Box<dyn Write>> = None;
    let (mut sections, mut games) = (0usize, false);
    let page_title = {
        let mut files: Vec<&str> = if paths.is_empty() {
            vec!["<stdin>"]
        } else {
            paths.iter().map(|p| if p == "-" { "<stdin>" } else { p.as_str() }).collect()
        };
        files.dedup();
        format!("kifu: {}", files.join(", "))
    };
    let output = args.output.clone();
    let open_page = move |page: &mut Option<Box<dyn Write>>| -> io::Result<()> {
        if page.is_none() {
            let mut w = open_output(output.as_deref())?;
            w.write_all(html::page_head(&page_title).as_bytes())?;
            *page = Some(w);
        }
        Ok(())
    };
    let mut outcome = each_record(paths, args.format, dialect, FormatArg::Fen, &mut |item| {
        let diagram = match item.position {
            Some(Pos::Shogi(p)) => {
                let last = match args.last_move.as_deref().map(views::shogi_move_squares) {
                    Some(Some(squares)) => squares,
                    Some(None) => {
                        bad_move = args.last_move.clone();
                        Vec::new()
                    }
                    None => Vec::new(),
                };
                Some(Diagram::Shogi(vec![Frame { label: None, position: p, last_move: last }]))
            }
            Some(Pos::Game(frames)) => Some(Diagram::Shogi(frames)),
            Some(Pos::Chess(p)) => {
                let last = match args.last_move.as_deref().map(views::chess_move_squares) {
                    Some(Some(squares)) => squares,
                    Some(None) => {
                        bad_move = args.last_move.clone();
                        Vec::new()
                    }
                    None => Vec::new(),
                };
                Some(Diagram::Chess(p, last))
            }
            None => None,
        };
        let record = html::Record {
            title: format!("{}:{}", item.file, item.line),
            notation: Some(item.notation),
            diagram,
            findings: item.findings,
        };
        // Text, and SVG on standard output, are written as they come; a page or files wait
        // for the last record.
        if !args.html && (!args.svg || to_stdout) {
            // A game's final position, or with `--each` every position of it.
            let frames: Vec<html::Record> = match &record.diagram {
                Some(Diagram::Shogi(frames)) if args.each && frames.len() > 1 => frames
                    .iter()
                    .map(|f| html::Record {
                        title: record.title.clone(),
                        notation: None,
                        diagram: Some(Diagram::Shogi(vec![f.clone()])),
                        findings: Vec::new(),
                    })
                    .collect(),
                _ => vec![record],
            };
            for record in &frames {
                let board = if args.svg { svg_of(record, names).map(|s| s + "\n") } else { text_of(record, style) };
                if let Some(board) = board {
                    let sep = if written > 0 && !args.svg { "\n" } else { "" };
                    if to_stdout {
                        write!(stdout, "{sep}{board}")?;
                    } else {
                        text_out.push_str(sep);
                        text_out.push_str(&board);
                    }
                    written += 1;
                }
            }
            return Ok(());
        }
        if args.html {
            open_page(&mut page)?;
            sections += 1;
            let section = html::section(sections, &record, names, &mut games);
            return page.as_mut().map_or(Ok(()), |w| w.write_all(section.as_bytes()));
        }
        names_of.push((item.file.clone(), item.line));
        records.push(record);
        Ok(())
    });
    let flushed = stdout.flush();
    drop(stdout);
    if let Some(m) = bad_move {
        eprintln!("kifu: `--last-move {m}` is not a move: write USI (`7g7f`, `7g7f+`, `P*5e`) for shogi, UCI (`e2e4`) for chess");
        return ExitCode::from(2);
    }
    let result = if args.html {
        // Nothing read, nothing written to a file.
        let nothing = sections == 0 && outcome.failed && !to_stdout;
        (|| {
            if nothing {
                return Ok(());
            }
            open_page(&mut page)?;
            match page.as_mut() {
                Some(w) => {
                    w.write_all(html::page_tail(games).as_bytes())?;
                    w.flush()
                }
                None => Ok(()),
            }
        })()
    } else if args.svg {
        write_svgs(&records, names, args.output.as_deref(), &names_of)
    } else {
        match args.output.as_deref() {
            Some(path) if path != "-" => std::fs::write(path, &text_out),
            _ => flushed,
        }
    };
    if let Err(e) = result {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("kifu: cannot write: {e}");
        }
        outcome.failed = true;
    }
    outcome.code()
}

/// Where a page goes: the file `path`, or standard output.
fn open_output(path: Option<&str>) -> io::Result<Box<dyn Write>> {
    Ok(match path {
        Some(p) if p != "-" => Box::new(io::BufWriter::new(File::create(p)?)),
        _ => Box::new(io::BufWriter::new(io::stdout())),
    })
}

/// The text diagram of a record: seed 001's board for chess, the 9×9 diagram for shogi.
fn text_of(record: &html::Record, style: text::Style) -> Option<String> {
    match &record.diagram {
        Some(Diagram::Shogi(frames)) => frames.last().map(|f| text::shogi(&f.position, style)),
        Some(Diagram::Chess(p, _)) => Some(p.diagram()),
        None => None,
    }
}

fn svg_of(record: &html::Record, names: Names) -> Option<String> {
    match &record.diagram {
        Some(Diagram::Shogi(frames)) => frames.last().map(|f| svg::shogi(&f.position, names, &f.last_move)),
        Some(Diagram::Chess(p, last)) => Some(svg::chess(p, last)),
        None => None,
    }
}

/// SVG diagrams: one document per line on standard output; to one file; or numbered files.
fn write_svgs(
    records: &[html::Record],
    names: Names,
    output: Option<&str>,
    places: &[(String, usize)],
) -> io::Result<()> {
    let svgs: Vec<(usize, String)> =
        records.iter().enumerate().filter_map(|(i, r)| svg_of(r, names).map(|s| (i, s))).collect();
    match output {
        None | Some("-") => {
            let mut out = io::stdout().lock();
            for (_, s) in &svgs {
                writeln!(out, "{s}")?;
            }
            out.flush()
        }
        Some(dir) if Path::new(dir).is_dir() => {
            for (i, s) in &svgs {
                let (file, line) = &places[*i];
                let stem = Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or("stdin");
                let stem = if file == "<stdin>" { "stdin" } else { stem };
                std::fs::write(Path::new(dir).join(format!("{stem}-{line}.svg")), s)?;
            }
            Ok(())
        }
        Some(path) if svgs.len() == 1 => std::fs::write(path, &svgs[0].1),
        Some(path) => {
            let p = Path::new(path);
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("board");
            let ext = p.extension().and_then(|s| s.to_str()).unwrap_or("svg");
            for (n, (_, s)) in svgs.iter().enumerate() {
                std::fs::write(p.with_file_name(format!("{stem}-{}.{ext}", n + 1)), s)?;
            }
            Ok(())
        }
    }
}
