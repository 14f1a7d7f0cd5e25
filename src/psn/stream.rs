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
use super::scan::{is_first_move_line, is_header_line, Legacy, RawGame, Scanner};
use super::{check_game, CheckedGame, Options};
use crate::diagnostic::Diagnostic;
use crate::input::decode::Utf8Stream;
use crate::input::lines::{LineRead, LineSource};
use crate::input::pool::{self, Limits, Parts, Stopped};
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
        /// Reading stopped there: a line ran on past [`MAX_LINE_SKIP`] without a line end.
        stopped: bool,
    },
}

/// The games of a PSN input, read line by line.
pub struct Games<R> {
    /// The input's lines, UTF-16 read as UTF-8.
    lines: LineSource<io::BufReader<Utf8Stream<R>>>,
    /// The number of the next line.
    number: usize,
    decoder: LineDecoder,
    scanner: Scanner,
    ready: VecDeque<Item>,
    /// Lines are dropped up to the next game (after a game too long).
    skipping: bool,
    after_blank: bool,
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
            ready: VecDeque::new(),
            skipping: false,
            after_blank: true,
            done: false,
        }
    }

    /// Hands the games the scanner finished to `ready`.
    fn collect(&mut self) {
        for mut raw in self.scanner.take_games() {
            let text = self.scanner.game_text(&raw).to_owned();
            let offset = raw.start;
            raw.end -= raw.start;
            raw.start = 0;
            if let Some(encoding) = self.lines.get_ref().get_ref().encoding() {
                // Each game says how it was read, as a game in a legacy encoding does.
                raw.encoding = encoding;
                raw.legacy = vec![Legacy { at: 0, encoding, unlike: None }];
            } else if self.decoder.bom && raw.legacy.is_empty() {
                raw.encoding = Encoding::Utf8Bom;
            }
            self.ready.push_back(Item::Game { text, raw, offset });
        }
        self.scanner.compact();
    }

    /// The game being read is too long: it is reported and dropped, and lines are skipped up to
    /// the next game. `line` is where the line that made it too long starts.
    fn too_long(&mut self, line: usize, head: &[u8], stopped: bool) {
        let start = self.scanner.game_line();
        let head = if start.is_some() { self.scanner.held_head() } else { String::from_utf8_lossy(head).into_owned() };
        let head = shorten(head.trim_end_matches(['\r', '\n']));
        self.ready.push_back(Item::TooLong { line: start.unwrap_or(line), head, stopped });
        self.skipping = true;
        self.decoder.new_game();
    }

    /// Reads lines until a game is ready or the input ends.
    fn advance(&mut self) -> io::Result<()> {
        while self.ready.is_empty() && !self.done {
            let number = self.number;
            match self.lines.read_line(MAX_GAME_BYTES)? {
                LineRead::End => {
                    self.done = true;
                    if !self.skipping {
                        self.scanner.end();
                        self.collect();
                    }
                }
                LineRead::Long { ended } => {
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
                        self.ready.push_back(Item::TooLong { line: number, head: String::new(), stopped: true });
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
                    if !self.scanner.starts_game(&line) && self.scanner.held() + line.len() > MAX_GAME_BYTES {
                        self.too_long(number, &line, false);
                        self.scanner.abandon(self.number);
                    } else {
                        let (text, legacy) = self.decoder.decode(&line);
                        self.scanner.push_line(&text, legacy.map(|l| (l.at, l.encoding, l.unlike)));
                        self.collect();
                    }
                    self.lines.line = line;
                }
            }
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for Games<R> {
    type Item = io::Result<Item>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.advance() {
            self.done = true;
            return Some(Err(e));
        }
        self.ready.pop_front().map(Ok)
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
                    dialect: "psn-variant",
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

/// The games of a stream in batches of about `piece_bytes` bytes of text, each with the bytes
/// it holds (its games' text and tokens).
struct Batches<R> {
    games: Games<R>,
    piece_bytes: usize,
}

impl<R: BufRead> Iterator for Batches<R> {
    type Item = io::Result<(Vec<Item>, usize)>;

    fn next(&mut self) -> Option<Self::Item> {
        let (mut batch, mut size, mut weight) = (Vec::new(), 0, 0);
        while size < self.piece_bytes {
            match self.games.next() {
                Some(Ok(item)) => {
                    size += item.size();
                    weight += item.weight();
                    batch.push(item);
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
/// The reader cuts the games into batches of about `piece_bytes` bytes of text, which the
/// workers take in turn. What a game gives does not depend on the batches, the number of
/// workers or how the input is buffered. At most [`IN_FLIGHT_BYTES`] of games and results wait
/// at once (and one batch or result more), and at most [`CHECKING_BYTES`] of games are checked
/// at once, so memory stays flat whatever the input's size.
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
    let checking = Checking { bytes: Mutex::new(0), changed: Condvar::new() };
    let batches = Batches { games: Games::new(input), piece_bytes };
    let limits = Limits { queue: None, in_flight: IN_FLIGHT_BYTES };
    let check = |batch: Vec<Item>, parts: &mut Parts<'_, Vec<T>>| {
        let (mut results, mut weight) = (Vec::new(), 0);
        for item in batch {
            if parts.stopped() {
                break;
            }
            // Small games are checked at once; large ones wait for room.
            let bytes = item.size();
            let large = bytes >= SMALL_GAME_BYTES;
            if large {
                checking.take(bytes);
            }
            let result = work(item.check(options));
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
