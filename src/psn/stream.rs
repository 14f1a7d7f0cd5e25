//! Reading PSN as a stream: game by game, in bounded memory.
//!
//! [`Games`] reads a file line by line (UTF-16 as UTF-8: [`Utf8Stream`]), decodes each line
//! ([`LineDecoder`]: each game in its own encoding), and cuts the lines into games with a scanner, which keeps only the text of
//! the game it is in. A game longer than [`MAX_GAME_BYTES`] is not kept: it gets one report, and
//! reading resumes at the next game. [`check_parallel`] checks the games on several threads and
//! hands the results back in the order of the games, with the text and the reports in flight
//! bounded by their size.

use crate::diagnostic::codes;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::{Condvar, Mutex, PoisonError};

use super::decode::{line_decoder, Encoding, LineDecoder};
use super::model::Game;
use super::scan::{is_first_move_line, is_header_line, trim_start, Legacy, RawGame, Scanner};
use super::{check_game, CheckedGame, Options};
use crate::diagnostic::Diagnostic;
use crate::input::decode::Utf8Stream;
use crate::input::lines::{LineRead, LineSource};
use crate::input::pool::{self, Limits, Parts, Reader, Stopped};
use crate::span::Span;

/// The longest game kifu reads, in bytes of text: 256 KiB. Real games are far shorter (a
/// long game with every move commented is some tens of kilobytes); a longer one is reported
/// (`psn::game-too-long`) and skipped, and reading resumes at the next game.
pub const MAX_GAME_BYTES: usize = 256 * 1024;

use crate::input::lines::MAX_LINE_SKIP;

/// How many bytes of games (their text and tokens), and of the results made from them, may wait
/// between the reader, the workers and the writer of [`check_parallel`]: 4 MiB.
pub const IN_FLIGHT_BYTES: usize = 4 * 1024 * 1024;

/// How many bytes of games' text may be checked at once by all workers of [`check_parallel`]
/// together (one game longer than this is checked alone): a game's model takes some tens of
/// times its text.
pub const CHECKING_BYTES: usize = MAX_GAME_BYTES;

/// What [`Games`] reads.
#[derive(Clone, Debug)]
pub enum Item {
    /// A game: its text, and its tokens (offsets into `text`).
    Game {
        /// The game's text, from its first character to its last that is not white space.
        text: String,
        /// Its tokens.
        raw: RawGame,
        /// Where its text starts in the text of the whole input, as decoded.
        offset: usize,
    },
    /// A game longer than [`MAX_GAME_BYTES`], not read.
    TooLong {
        /// The 1-based line where it starts.
        line: usize,
        /// The start of its first line (at most 200 bytes).
        head: String,
        /// Reading stopped there: a line ran on past `MAX_LINE_SKIP` without a line end.
        stopped: bool,
    },
}

/// What the decoder says of a line read in a legacy encoding: where its first character so read
/// is, the encoding, and the encoding of the game's other lines when it is not valid in it.
type LineNote = (usize, Encoding, Option<Encoding>);

/// Lines that hold whole games, read but not yet cut into games: a worker cuts them
/// ([`Stretch::games`]) as the reader's scanner would have.
///
/// The reader cuts the input into stretches where a game surely starts whatever came before:
/// at a header line after a line that is not one (the spec's "a header line is encountered",
/// with moves read since the game began). There a scanner fed the whole input and a new one
/// fed the stretch alone are in the same state (a comment left open is closed before the
/// header, and the game before it is finished at the same place), so the stretch's games are
/// those of the whole input. A stretch is never longer than [`MAX_GAME_BYTES`], so that no game
/// in it is too long; where one would be, the reader cuts the games itself, as it did.
#[derive(Clone, Debug)]
pub struct Stretch {
    /// The lines' text, decoded, with their line ends.
    text: String,
    /// Each line's length in `text`.
    lens: Vec<u32>,
    /// The lines read in a legacy encoding: the line's index and what the decoder said of it.
    legacy: Vec<(usize, LineNote)>,
    /// The number of its first line.
    line: usize,
    /// Where its text starts in the text of the whole input, as decoded.
    offset: usize,
    /// How the whole stream was read: UTF-16 (its encoding), and whether it started with a
    /// UTF-8 byte-order mark.
    read: (Option<Encoding>, bool),
}

impl Stretch {
    /// A stretch starting at line `line`, offset `offset`, with room for `bytes` of text.
    fn new(line: usize, offset: usize, bytes: usize) -> Self {
        let text = String::with_capacity(bytes);
        Self { text, lens: Vec::with_capacity(bytes / 32), legacy: Vec::new(), line, offset, read: (None, false) }
    }

    fn push(&mut self, text: &str, legacy: Option<LineNote>) {
        if let Some(l) = legacy {
            self.legacy.push((self.lens.len(), l));
        }
        self.text.push_str(text);
        // A line is shorter than MAX_GAME_BYTES and its decoded text a few times that at most.
        self.lens.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
    }

    /// Its lines, each with what the decoder said of it.
    fn lines(&self) -> impl Iterator<Item = (&str, Option<LineNote>)> {
        let mut at = 0;
        let mut notes = self.legacy.iter().peekable();
        self.lens.iter().enumerate().map(move |(i, &len)| {
            let start = at.min(self.text.len());
            at = start.saturating_add(len as usize).min(self.text.len());
            (self.text.get(start..at).unwrap_or(""), notes.next_if(|n| n.0 == i).map(|n| n.1))
        })
    }

    /// Its games, cut as the reader's scanner cuts them.
    pub fn games(&self) -> Vec<Item> {
        let mut scanner = Scanner::at(self.line, self.offset);
        scanner.reserve(self.text.len());
        for (text, legacy) in self.lines() {
            scanner.push_line(text, legacy);
        }
        scanner.end();
        scanner.take_games().into_iter().map(|raw| game_item(raw, &scanner, self.read)).collect()
    }
}

/// A game the scanner finished, as [`Games`] gives it: its own text, offsets into it, and how
/// it was read.
fn game_item(mut raw: RawGame, scanner: &Scanner, (stream, bom): (Option<Encoding>, bool)) -> Item {
    let text = scanner.game_text(&raw).to_owned();
    let offset = raw.start;
    raw.end -= raw.start;
    raw.start = 0;
    if let Some(encoding) = stream {
        // Each game says how it was read, as a game in a legacy encoding does.
        raw.encoding = encoding;
        raw.legacy = vec![Legacy { at: 0, encoding, unlike: None }];
    } else if bom && raw.legacy.is_empty() {
        raw.encoding = Encoding::Utf8Bom;
    }
    Item::Game { text, raw, offset }
}

/// What the reader hands on: a game cut (or too long), or lines a worker cuts.
#[derive(Clone, Debug)]
pub enum Unit {
    /// A game, or a game too long to read.
    Item(Item),
    /// Lines holding whole games.
    Stretch(Stretch),
}

impl Unit {
    /// The bytes of text it holds.
    fn size(&self) -> usize {
        match self {
            Self::Item(item) => item.size(),
            Self::Stretch(s) => s.text.len(),
        }
    }

    /// The bytes it holds in memory.
    fn weight(&self) -> usize {
        match self {
            Self::Item(item) => item.weight(),
            Self::Stretch(s) => {
                s.text.len()
                    + s.lens.len() * std::mem::size_of::<u32>()
                    + s.legacy.len() * std::mem::size_of::<(usize, LineNote)>()
            }
        }
    }

    /// Its games.
    pub fn into_items(self) -> Vec<Item> {
        match self {
            Self::Item(item) => vec![item],
            Self::Stretch(s) => s.games(),
        }
    }
}

/// The games of a PSN input, read line by line.
pub struct Games<R> {
    /// The input's lines, UTF-16 read as UTF-8.
    lines: LineSource<io::BufReader<Utf8Stream<R>>>,
    /// The number of the next line.
    number: usize,
    decoder: LineDecoder,
    scanner: Scanner,
    /// The lines read since the last cut, when the reader leaves cutting them to whoever takes
    /// the stretch; `None` while the scanner cuts the games.
    stretch: Option<Stretch>,
    /// Stretches may be cut (else the scanner reads every line).
    stretches: bool,
    ready: VecDeque<Unit>,
    /// The games of the stretch taken last, not yet given.
    items: VecDeque<Item>,
    /// Lines are dropped up to the next game (after a game too long).
    skipping: bool,
    after_blank: bool,
    /// The last line read that was not blank started with `[` (or none was read).
    after_bracket: bool,
    done: bool,
}

impl<R: BufRead> Games<R> {
    /// The games of `input`.
    pub fn new(input: R) -> Self {
        Self {
            lines: LineSource::new(io::BufReader::with_capacity(64 * 1024, Utf8Stream::new(input))),
            number: 1,
            decoder: line_decoder(),
            scanner: Scanner::new(1),
            stretch: Some(Stretch::new(1, 0, 0)),
            stretches: true,
            ready: VecDeque::new(),
            items: VecDeque::new(),
            skipping: false,
            after_blank: true,
            after_bracket: true,
            done: false,
        }
    }

    /// The games of `input`, every line cut by the reader's scanner (for tests: the games are
    /// the same).
    #[doc(hidden)]
    #[cfg(feature = "internals")]
    pub fn without_stretches(input: R) -> Self {
        Self { stretch: None, stretches: false, ..Self::new(input) }
    }

    /// How the stream is read: UTF-16 (its encoding), and whether it started with a UTF-8
    /// byte-order mark.
    fn read_as(&self) -> (Option<Encoding>, bool) {
        (self.lines.get_ref().get_ref().encoding(), self.decoder.bom)
    }

    /// Hands the games the scanner finished to `ready`.
    fn collect(&mut self) {
        let read = self.read_as();
        for raw in self.scanner.take_games() {
            let item = game_item(raw, &self.scanner, read);
            self.ready.push_back(Unit::Item(item));
        }
        self.scanner.compact();
    }

    /// Hands the stretch being read to `ready`, if it holds a line.
    fn hand_stretch(&mut self) {
        if let Some(mut s) = self.stretch.take() {
            if !s.lens.is_empty() {
                s.read = self.read_as();
                self.ready.push_back(Unit::Stretch(s));
            }
        }
    }

    /// A game surely starts at line `number`: the lines before it go on their own.
    fn cut(&mut self, number: usize) {
        // Room for as much text as the last stretch held.
        let mut bytes = 0;
        let offset = match &self.stretch {
            Some(s) => {
                bytes = s.text.len();
                s.offset + s.text.len()
            }
            None => {
                // The game being read ends here, as the header line would end it.
                self.scanner.end();
                self.collect();
                self.scanner.offset()
            }
        };
        self.hand_stretch();
        self.stretch = Some(Stretch::new(number, offset, bytes));
    }

    /// The scanner reads the lines from here on: it is given the stretch's lines first.
    fn leave_stretch(&mut self) {
        let Some(s) = self.stretch.take() else { return };
        self.scanner = Scanner::at(s.line, s.offset);
        for (text, legacy) in s.lines() {
            self.scanner.push_line(text, legacy);
            self.collect();
        }
    }

    /// Notes whether the line `text` (decoded) is blank or starts with `[`.
    fn note(&mut self, text: &str) {
        let trimmed = trim_start(text);
        if !trimmed.is_empty() {
            self.after_bracket = trimmed.starts_with('[');
        }
    }

    /// Reads the line `line`, numbered `number`.
    fn read(&mut self, number: usize, line: &[u8]) {
        if self.stretches && !self.after_bracket && is_header_line(line) {
            self.cut(number);
        }
        if let Some(s) = &mut self.stretch {
            if s.text.len() + line.len() <= MAX_GAME_BYTES {
                let (text, legacy) = self.decoder.decode(line);
                s.push(&text, legacy.map(|l| (l.at, l.encoding, l.unlike)));
                self.note(&text);
                return;
            }
            // A game in it may be too long: the scanner decides.
            self.leave_stretch();
        }
        if !self.scanner.starts_game(line) && self.scanner.held() + line.len() > MAX_GAME_BYTES {
            self.too_long(number, line, false);
            self.scanner.abandon(self.number);
        } else {
            let (text, legacy) = self.decoder.decode(line);
            self.scanner.push_line(&text, legacy.map(|l| (l.at, l.encoding, l.unlike)));
            self.note(&text);
            self.collect();
        }
    }

    /// The game being read is too long: it is reported and dropped, and lines are skipped up to
    /// the next game. `line` is where the line that made it too long starts.
    fn too_long(&mut self, line: usize, head: &[u8], stopped: bool) {
        let start = self.scanner.game_line();
        let head = if start.is_some() { self.scanner.held_head() } else { String::from_utf8_lossy(head).into_owned() };
        let head = shorten(head.trim_end_matches(['\r', '\n']));
        self.ready.push_back(Unit::Item(Item::TooLong { line: start.unwrap_or(line), head, stopped }));
        self.skipping = true;
        self.decoder.new_game();
    }

    /// Reads lines until a game or a stretch is ready or the input ends.
    fn advance(&mut self) -> io::Result<()> {
        while self.ready.is_empty() && !self.done {
            let number = self.number;
            match self.lines.read_line(MAX_GAME_BYTES)? {
                LineRead::End => {
                    self.done = true;
                    if self.stretch.is_some() {
                        self.hand_stretch();
                    } else if !self.skipping {
                        self.scanner.end();
                        self.collect();
                    }
                }
                LineRead::Long { ended } => {
                    self.leave_stretch();
                    self.number += 1;
                    let head = self.lines.take_long_head();
                    if !self.skipping {
                        if self.scanner.game_line().is_some() && self.scanner.starts_game(&head) {
                            // The long line starts a game: the game before it is whole.
                            self.scanner.end();
                            self.collect();
                        }
                        self.too_long(number, &head, !ended);
                    } else if !ended {
                        self.ready.push_back(Unit::Item(Item::TooLong {
                            line: number,
                            head: String::new(),
                            stopped: true,
                        }));
                    }
                    self.scanner.abandon(self.number);
                    self.after_blank = false;
                    self.done = !ended;
                }
                LineRead::Line => {
                    self.number += 1;
                    let blank = self.lines.line.iter().all(u8::is_ascii_whitespace);
                    if self.skipping {
                        let starts = is_header_line(&self.lines.line)
                            || self.after_blank && is_first_move_line(&self.lines.line);
                        if !starts {
                            self.after_blank = blank;
                            continue;
                        }
                        self.skipping = false;
                        self.scanner.abandon(number);
                    }
                    self.after_blank = blank;
                    let line = std::mem::take(&mut self.lines.line);
                    self.read(number, &line);
                    self.lines.line = line;
                }
            }
        }
        Ok(())
    }

    /// The next game, game too long or stretch of lines.
    pub fn next_unit(&mut self) -> Option<io::Result<Unit>> {
        if let Err(e) = self.advance() {
            // The games the scanner would have finished before the error are given after it,
            // as when it reads every line.
            self.leave_stretch();
            self.done = true;
            return Some(Err(e));
        }
        self.ready.pop_front().map(Ok)
    }
}

impl<R: BufRead> Iterator for Games<R> {
    type Item = io::Result<Item>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.items.pop_front() {
                return Some(Ok(item));
            }
            match self.next_unit()? {
                Ok(unit) => self.items.extend(unit.into_items()),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// At most 200 bytes of `text`, cut at a character boundary.
fn shorten(text: &str) -> String {
    let mut end = text.len().min(200);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// A game read from a stream and checked, with its own text.
#[derive(Clone, Debug)]
pub struct StreamGame {
    /// The game's text; the spans of `checked` are offsets into it.
    pub text: String,
    /// The game, checked.
    pub checked: CheckedGame,
    /// The encoding its text was read in.
    pub encoding: Encoding,
    /// Where its text starts in the text of the whole input, as decoded.
    pub offset: usize,
}

impl Item {
    /// The bytes of text it holds.
    fn size(&self) -> usize {
        match self {
            Self::Game { text, .. } => text.len(),
            Self::TooLong { head, .. } => head.len(),
        }
    }

    /// The bytes it holds in memory: its text and its tokens (a few times the text).
    fn weight(&self) -> usize {
        match self {
            Self::Game { text, raw, .. } => {
                text.len() + raw.tokens.capacity() * std::mem::size_of::<super::scan::Token>()
            }
            Self::TooLong { head, .. } => head.len(),
        }
    }

    /// The game's dialect when checking it ([`Item::check`]) would find nothing, told without
    /// reading it in full ([`super::fast::clean`]); `None` says nothing.
    pub fn clean(&self, options: Options) -> Option<super::dialect::Dialect> {
        match self {
            Self::Game { text, raw, .. } => super::fast::clean(raw, text, options),
            Self::TooLong { .. } => None,
        }
    }

    /// The game checked; a game too long to read is an empty game with one finding.
    pub fn check(self, options: Options) -> StreamGame {
        match self {
            Self::Game { text, raw, offset } => {
                let checked = check_game(&raw, &text, options);
                StreamGame { text, checked, encoding: raw.encoding, offset }
            }
            Self::TooLong { line, head, stopped } => {
                let span = Span::new(0, head.len());
                let d = if stopped {
                    Diagnostic::error(
                        codes::psn::LINE_TOO_LONG,
                        span,
                        format!(
                            "this line runs on for more than {} MiB without a line end: the rest of the input is not read",
                            MAX_LINE_SKIP >> 20
                        ),
                    )
                    .label("the line starts here")
                    .help("a PSN file is text in lines: check that this is a PSN file")
                } else {
                    Diagnostic::error(
                        codes::psn::GAME_TOO_LONG,
                        span,
                        format!("this game is longer than {} KiB: it is not read", MAX_GAME_BYTES >> 10),
                    )
                    .label("the game starts here")
                    .help(
                        "real games are far shorter: check that this is a PSN file, or split the game; \
                         the next game is read",
                    )
                };
                let game = Game {
                    line,
                    span,
                    dialect: super::dialect::Dialect::PsnVariant,
                    headers: Vec::new(),
                    setup: None,
                    comments: Vec::new(),
                    moves: Vec::new(),
                    end: None,
                };
                let checked = CheckedGame { game, replay: None, diagnostics: vec![d] };
                StreamGame { text: head, checked, encoding: Encoding::Utf8, offset: 0 }
            }
        }
    }
}

/// How many bytes a result of [`check_parallel`] holds, to bound those in flight.
pub trait Weigh {
    /// The bytes it holds.
    fn weight(&self) -> usize;
}

impl Weigh for String {
    fn weight(&self) -> usize {
        self.len()
    }
}

impl Weigh for Vec<u8> {
    fn weight(&self) -> usize {
        self.len()
    }
}

impl<A: Weigh, B> Weigh for (A, B) {
    fn weight(&self) -> usize {
        self.0.weight()
    }
}

impl<A: Weigh, B: Weigh> Weigh for Result<A, B> {
    fn weight(&self) -> usize {
        match self {
            Ok(a) => a.weight(),
            Err(b) => b.weight(),
        }
    }
}

/// Bytes of games' text being checked by all workers together ([`CHECKING_BYTES`]).
struct Checking {
    bytes: Mutex<usize>,
    changed: Condvar,
}

impl Checking {
    /// Waits until `bytes` more fit within [`CHECKING_BYTES`] (or none are checked), then takes them.
    fn take(&self, bytes: usize) {
        let mut held = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        while *held != 0 && *held + bytes > CHECKING_BYTES {
            held = self.changed.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
        *held += bytes;
    }

    fn give(&self, bytes: usize) {
        let mut held = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *held = held.saturating_sub(bytes);
        drop(held);
        self.changed.notify_all();
    }
}

/// The games of a stream (and stretches of them) in batches of about `piece_bytes` bytes of
/// text, each with the bytes it holds (its games' text and tokens).
struct Batches<R> {
    games: Games<R>,
    piece_bytes: usize,
}

impl<R: BufRead> Iterator for Batches<R> {
    type Item = io::Result<(Vec<Unit>, usize)>;

    fn next(&mut self) -> Option<Self::Item> {
        let (mut batch, mut size, mut weight) = (Vec::new(), 0, 0);
        while size < self.piece_bytes {
            match self.games.next_unit() {
                Some(Ok(unit)) => {
                    size += unit.size();
                    weight += unit.weight();
                    batch.push(unit);
                }
                Some(Err(e)) => return Some(Err(e)),
                None => break,
            }
        }
        (!batch.is_empty()).then_some(Ok((batch, weight)))
    }
}

/// Games shorter than this are checked without waiting for room ([`CHECKING_BYTES`]): 16 KiB.
const SMALL_GAME_BYTES: usize = 16 * 1024;

/// A worker hands its results over when they weigh this much, or at the end of its batch: 64 KiB.
const RESULTS_BYTES: usize = 64 * 1024;

/// Checks the games of `input` on `workers` threads and hands what `work` makes of each, in
/// the order of the games, to `each`; an error from `each` or from reading stops it.
///
/// This is [`read_parallel`] with each game checked ([`Item::check`]) for `work`.
pub fn check_parallel<R, T, W, E>(
    input: R,
    options: Options,
    piece_bytes: usize,
    workers: usize,
    work: W,
    each: E,
) -> io::Result<()>
where
    R: BufRead + Send,
    T: Weigh + Send,
    W: Fn(StreamGame) -> T + Sync,
    E: FnMut(T) -> io::Result<()>,
{
    read_parallel(input, piece_bytes, workers, |item: Item| work(item.check(options)), each)
}

/// Reads the games of `input` and hands what `work` makes of each, on `workers` threads, to
/// `each` in the order of the games; an error from `each` or from reading stops it.
///
/// The reader (a thread of its own when a core is free, else the workers in turn:
/// [`Reader::for_workers`]) cuts the input into games, or into stretches of whole games that
/// the workers cut ([`Stretch`]), in batches of about `piece_bytes` bytes of text, which the
/// workers take in turn. What a game gives does not depend on the batches, the number of
/// workers or how the input is buffered. At most [`IN_FLIGHT_BYTES`] of games and results wait
/// at once (and one batch or result more), and at most [`CHECKING_BYTES`] of games are checked
/// at once, so memory stays flat whatever the input's size.
pub fn read_parallel<R, T, W, E>(input: R, piece_bytes: usize, workers: usize, work: W, each: E) -> io::Result<()>
where
    R: BufRead + Send,
    T: Weigh + Send,
    W: Fn(Item) -> T + Sync,
    E: FnMut(T) -> io::Result<()>,
{
    let checking = Checking { bytes: Mutex::new(0), changed: Condvar::new() };
    let batches = Batches { games: Games::new(input), piece_bytes };
    let limits = Limits { reader: Reader::for_workers(workers), queue: None, in_flight: IN_FLIGHT_BYTES };
    let check = |batch: Vec<Unit>, parts: &mut Parts<'_, Vec<T>>| {
        let (mut results, mut weight) = (Vec::new(), 0);
        // A stretch is cut into its games here, on the worker's thread.
        for item in batch.into_iter().flat_map(Unit::into_items) {
            if parts.stopped() {
                break;
            }
            // Small games are checked at once; large ones wait for room.
            let bytes = item.size();
            let large = bytes >= SMALL_GAME_BYTES;
            if large {
                checking.take(bytes);
            }
            let result = work(item);
            if large {
                checking.give(bytes);
            }
            weight += result.weight();
            results.push(result);
            if weight >= RESULTS_BYTES && !parts.send(std::mem::take(&mut results), std::mem::take(&mut weight)) {
                break;
            }
        }
        (results, weight)
    };
    let mut each = each;
    let hand = |results: Vec<T>| results.into_iter().try_for_each(&mut each);
    match pool::run(batches, workers, limits, check, hand) {
        Ok(()) => Ok(()),
        Err(Stopped::Read(e) | Stopped::Write(e)) => Err(e),
    }
}
