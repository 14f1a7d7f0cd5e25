//! PSN, Portable Shogi Notation: game records (the 1998 spec), and the
//! dialects real programs write.
//!
//! Data flows one way: bytes are decoded into text, the text is scanned into games and tokens
//! (the grammar's word rules, compiled to an automaton), each game is built into its model
//! ([`Game`]) with every fault found on the way, its [`Dialect`] is named, and the game can be
//! written back in the 1998 spec's form.
//!
//! ```
//! let file = kifu::psn::check_bytes(b"[Sente \"Oyama\"]\n1. P7f P3d 2. P2f 1-0\n", Default::default());
//! let game = &file.games[0];
//! assert_eq!(game.game.moves.len(), 3);
//! assert_eq!(game.game.dialect.name(), "psn1998");
//! assert!(game.is_valid());
//! ```

/// `Display` and (with serde) `Serialize` of a type by its `name()`: how PSN's typed words
/// (a dialect, a setup's source, an end's kind) are written in reports and JSON.
macro_rules! by_name {
    ($t:ty) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }
    };
}
pub(crate) use by_name;

machinery! { mod build; }
machinery! { mod decode; }
pub(crate) mod dialect;
pub(crate) mod display;
pub(crate) mod fast;
machinery! { mod findings; }
mod game;
pub(crate) mod header;
pub(crate) mod model;
pub(crate) mod nearest;
pub(crate) mod notation;
machinery! { mod parser; }
pub(crate) mod repair;
machinery! { mod replay; }
machinery! { mod scan; }
machinery! { mod setup; }
machinery! { mod stream; }
mod verdict;
mod write;

use crate::diagnostic::codes;
pub use decode::Encoding;
pub use dialect::Dialect;
pub use findings::MAX_FINDINGS_PER_GAME;
pub use model::{
    Annotation, Clock, Comment, CommentKind, End, EndKind, Game, Header, Mark, MoveExtras, MoveForm, MoveNode,
    MoveNumber, Setup, SetupSource, Variation, WrittenMove, MAX_VARIATION_DEPTH,
};
pub use stream::{StreamGame, MAX_GAME_BYTES};
pub use write::write;

use crate::diagnostic::{Diagnostic, Severity};
use crate::input::decode::{encoding_note, LineLegacy};
use crate::span::Span;

/// How to check games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Every departure from the 1998 spec is an error.
    pub strict: bool,
    /// Play the moves on a board, with the full rules of shogi.
    pub replay: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self { strict: false, replay: true }
    }
}

/// A game read and checked.
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// The game.
    pub game: Game,
    /// The game played out, when it was replayed.
    pub replay: Option<replay::Replay>,
    /// Every finding, with spans into the game's text.
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedGame {
    /// The game in the 1998 spec's form (`kifu convert --to psn`), its moves resolved by the
    /// replay where the text leaves them open (`7g7f`).
    pub fn to_psn(&self) -> String {
        display::to_psn(&self.game, self.replay.as_ref())
    }

    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The game's text, from the file's text.
    pub fn text<'a>(&self, file_text: &'a str) -> &'a str {
        self.game.span.slice(file_text)
    }
}

/// A PSN file read and checked.
#[derive(Clone, Debug)]
pub struct CheckedFile {
    /// The encoding it was read in.
    pub encoding: Encoding,
    /// Its text.
    pub text: String,
    /// Its games, in order.
    pub games: Vec<CheckedGame>,
}

/// The games of a PSN input, read as they stream and checked one at a time: memory holds one
/// game, whatever the input's size. Each is its own text, its findings and the encoding it was
/// read in (a file may mix them); a game too long to read is an empty game with one finding,
/// and reading goes on after it.
///
/// ```
/// use kifu::psn::{GameStream, Options};
///
/// let input = "[Sente \"A\"]\n1.P7g-7f\n\n[Sente \"B\"]\n1.P7g-7e\n";
/// let valid: Vec<bool> = GameStream::new(input.as_bytes(), Options::default())
///     .map(|game| game.expect("read").checked.is_valid())
///     .collect();
/// assert_eq!(valid, [true, false]);
/// ```
pub struct GameStream<R> {
    games: stream::Games<R>,
    options: Options,
}

impl<R: std::io::BufRead> GameStream<R> {
    /// The games of `input`, checked as `options` says.
    pub fn new(input: R, options: Options) -> Self {
        Self { games: stream::Games::new(input), options }
    }
}

impl<R: std::io::BufRead> Iterator for GameStream<R> {
    type Item = std::io::Result<StreamGame>;

    fn next(&mut self) -> Option<Self::Item> {
        let options = self.options;
        self.games.next().map(|item| item.map(|i| i.check(options)))
    }
}

/// Reads and checks the bytes of a PSN file, game by game as `kifu check` reads them.
/// The file's text is its bytes decoded as `kifu check` decodes them; each game's span is where its
/// text is in it. (A game too long to read, and the games after one, whose text is not where the
/// reader found it, are added at the end of the text, a line apart.)
pub fn check_bytes(bytes: &[u8], options: Options) -> CheckedFile {
    let mut games = Vec::new();
    let (encoding, text) = check_each(bytes, options, |g| games.push(g));
    CheckedFile { encoding, text, games }
}

/// [`check_bytes`] with each game handed to `each` as it is checked, its span set, instead of
/// kept: what is held at once is the file's text and one game. Gives the encoding and the
/// file's text.
pub fn check_each(bytes: &[u8], options: Options, mut each: impl FnMut(CheckedGame)) -> (Encoding, String) {
    let decoded = decode::decode(bytes);
    let mut text = decoded.text;
    let whole = text.len();
    for game in GameStream::new(bytes, options) {
        // Reading a slice of bytes cannot fail.
        let Ok(game) = game else { break };
        let mut checked = game.checked;
        let at = game.offset;
        if game.text.is_empty() || text.get(at..at + game.text.len()) != Some(game.text.as_str()) || at >= whole {
            text.push('\n');
            let start = text.len();
            text.push_str(&game.text);
            checked.game.span = Span::new(start, text.len());
        } else {
            checked.game.span = Span::new(at, at + game.text.len());
        }
        each(checked);
    }
    (decoded.encoding, text)
}

/// Checks every game of a PSN text: their findings, in the order of the text, with spans into
/// `text` (as [`check_bytes`] reads it: a byte-order mark at its start is not part of it).
pub fn check_text(text: &str, options: Options) -> Vec<Diagnostic> {
    check_findings(text.as_bytes(), options).1
}

/// The text of a PSN file's bytes (as [`check_bytes`] reads it) and the findings of every game,
/// in the order of the text, with spans into that text. Games are checked one at a time and
/// only their findings kept (at most [`MAX_FINDINGS_PER_GAME`] and one a game): memory
/// holds the text, one game and the findings, not every game's reading.
pub fn check_findings(bytes: &[u8], options: Options) -> (String, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let (_, text) = check_each(bytes, options, |g| {
        let start = g.game.span.start;
        found.extend(g.diagnostics.into_iter().map(|d| d.shifted(start)));
    });
    (text, found)
}

impl CheckedFile {
    /// Every finding of every game, in the order of the text, with spans into [`Self::text`].
    pub fn findings(self) -> Vec<Diagnostic> {
        self.games
            .into_iter()
            .flat_map(|g| g.diagnostics.into_iter().map(move |d| d.shifted(g.game.span.start)))
            .collect()
    }
}

/// Checks one game of `text`, the text the offsets of `raw` are in. Offsets past the end of
/// `text` or inside a character are moved back to the nearest character boundary.
///
/// The safe fixes of an invalid game are checked as those of every format are
/// ([`crate::diagnostic::vet_fixes`]): the game each makes is read again.
pub fn check_game(raw: &scan::RawGame, text: &str, options: Options) -> CheckedGame {
    let mut checked = read_game(raw, text, options);
    if checked.diagnostics.iter().any(|d| d.safe_fix().is_some()) {
        let own = clamped(text, raw.start, raw.end);
        crate::diagnostic::vet_fixes(own, &mut checked.diagnostics, |fixed| {
            scan::scan(fixed).iter().flat_map(|raw| read_game(raw, fixed, options).diagnostics).collect()
        });
    }
    checked
}

/// [`check_game`], its safe fixes unchecked.
fn read_game(raw: &scan::RawGame, text: &str, options: Options) -> CheckedGame {
    let own = clamped(text, raw.start, raw.end);
    let (mut game, mut diagnostics, features) = build::build_bounded(raw, own);
    // The grammar decides whether a game the reader found no error in is well-formed.
    if !diagnostics.iter().any(Diagnostic::is_error) {
        diagnostics.extend(verdict::verdict(raw, own));
    }
    // The first is kept whatever the cap on findings (it says how the whole game was read);
    // the others go with the game's findings, in reverse, so that each is first at its place.
    let mut read_as = None;
    // The first line read in a legacy encoding, and the first not valid in the game's.
    let first_unlike = raw.legacy.iter().position(|l| l.unlike.is_some());
    let reported =
        raw.legacy.iter().enumerate().filter(|&(i, l)| i == 0 || l.unlike.is_some() && Some(i) == first_unlike);
    for (i, legacy) in reported.collect::<Vec<_>>().into_iter().rev() {
        let legacy = LineLegacy { at: legacy.at, encoding: legacy.encoding, unlike: legacy.unlike };
        let Some(d) = encoding_note(codes::psn::ENCODING, "game", own, &legacy) else { continue };
        if i == 0 {
            read_as = Some(d);
        } else {
            diagnostics.push_first(d);
        }
    }
    let departures = diagnostics.warnings(|d| codes::psn::contains(d.code)) + usize::from(read_as.is_some());
    game.dialect = dialect::guess(&features, departures);
    dialect::settle(&mut game, &mut diagnostics);
    diagnostics.sort();
    if game.dialect == dialect::Dialect::Gsdb {
        model::for_each_line_mut(&mut game.moves, attach_forward);
    }
    // A starting position given but not read (its header is in error): nothing to replay from.
    let setup_failed = game.setup.is_none()
        && game.headers.iter().any(|h| {
            h.key.eq_ignore_ascii_case("FEN")
                || h.key.eq_ignore_ascii_case("SFEN")
                || h.key.eq_ignore_ascii_case("Handicap")
                    && setup::handicap(&h.value).is_none_or(|(name, _)| name != "even")
        });
    let replay = (options.replay && !setup_failed).then(|| {
        let mut found = findings::Findings::new();
        let r = replay::replay(&game, features.ply_numbers, &mut found);
        // The replay's `psn::wrong-side` says more than the count's `psn::number-side`.
        diagnostics.retain(|d| {
            d.code != codes::psn::NUMBER_SIDE
                || !found.iter().any(|f| f.code == codes::psn::WRONG_SIDE && f.span() == d.span())
        });
        diagnostics.append(found);
        amend_unreadable(&r, &mut diagnostics);
        r
    });
    let mut diagnostics = diagnostics.into_vec();
    if let Some(d) = read_as {
        let at = diagnostics.partition_point(|f| f.span().start < d.span().start);
        diagnostics.insert(at, d);
    }
    if options.strict {
        for d in &mut diagnostics {
            d.severity = Severity::Error;
        }
    }
    CheckedGame { game, replay, diagnostics }
}

/// A word that is no move was reported as it was read: its finding names its repair.
fn amend_unreadable(r: &replay::Replay, diagnostics: &mut findings::Findings) {
    for (span, repair) in &r.unreadable {
        if let Some(d) = diagnostics.iter_mut().find(|d| span.contains(d.span()) && UNREADABLE.contains(&d.code)) {
            repair.amend(d, *span);
        }
    }
}

/// The codes of a word that is no move, where a move stands.
const UNREADABLE: [crate::diagnostic::Code; 4] =
    [codes::psn::UNKNOWN_PIECE, codes::psn::BAD_SQUARE, codes::psn::BAD_MOVE, codes::psn::UNKNOWN_WORD];

/// `text[start..end]`, each end moved back to a character boundary within `text` (an empty
/// text when they cross).
fn clamped(text: &str, start: usize, end: usize) -> &str {
    let floor = |mut at: usize| {
        at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    text.get(floor(start)..floor(end)).unwrap_or("")
}

/// GSDB writes a comment before the move it is stored on: a comment after move
/// N of a line belongs to move N+1.
fn attach_forward(moves: &mut [model::MoveNode]) {
    for i in (1..moves.len()).rev() {
        let (before, after) = moves.split_at_mut(i);
        let prev = &mut before[i - 1];
        if !prev.comments_after().is_empty() {
            let mut moved = std::mem::take(&mut prev.extras_mut().comments_after);
            let next = after[0].extras_mut();
            moved.append(&mut next.comments_before);
            next.comments_before = moved;
        }
    }
}

/// Why text did not read as one game ([`Game`]'s `FromStr`).
#[derive(Clone, Debug)]
pub enum GameError {
    /// The text holds no game.
    NoGame,
    /// The text holds more than one game: how many.
    SeveralGames(usize),
    /// The game has errors: every finding, with spans into the text.
    Invalid(Vec<Diagnostic>),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoGame => f.write_str("the text holds no game"),
            Self::SeveralGames(n) => write!(f, "the text holds {n} games, not one"),
            Self::Invalid(found) => {
                let errors = found.iter().filter(|d| d.is_error()).count();
                let first = found.iter().find(|d| d.is_error()).map_or("", |d| d.message.as_str());
                write!(f, "the game has {errors} error(s), the first: {first}")
            }
        }
    }
}

impl std::error::Error for GameError {}

impl std::str::FromStr for Game {
    type Err = GameError;

    /// Reads and checks one game, as [`check_bytes`] does with the default [`Options`]: the
    /// game when it has no error (warnings, such as a dialect's departures from the spec, are
    /// allowed), else every finding.
    fn from_str(text: &str) -> Result<Self, GameError> {
        let mut file = check_bytes(text.as_bytes(), Options::default());
        match file.games.len() {
            0 => Err(GameError::NoGame),
            1 => {
                let checked = file.games.remove(0);
                if checked.is_valid() {
                    Ok(checked.game)
                } else {
                    Err(GameError::Invalid(checked.diagnostics))
                }
            }
            n => Err(GameError::SeveralGames(n)),
        }
    }
}

impl std::fmt::Display for Game {
    /// The game in the 1998 spec's form, as far as the text tells without replaying it
    /// ([`CheckedGame::to_psn`] resolves moves such as `7g7f` with the game's replay).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&display::to_psn(self, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_reads_from_a_str_and_writes_back() {
        let game: Game = "[Sente \"Oyama\"]\n1. P7f P3d 2. P2f 1-0\n".parse().expect("one game");
        assert_eq!(game.moves.len(), 3);
        let again: Game = game.to_string().parse().expect("its text reads back");
        assert_eq!(again.to_string(), game.to_string());
        assert!(matches!("".parse::<Game>(), Err(GameError::NoGame)));
        assert!(matches!("P7f 1-0\n\n[A \"b\"]\nP7f\n".parse::<Game>(), Err(GameError::SeveralGames(2))));
        assert!(matches!("P7f P7f P7f (".parse::<Game>(), Err(GameError::Invalid(_))));
    }

    #[test]
    fn check_game_takes_any_offsets() {
        let text = "P7f {é} P3d";
        let raw = &scan::scan(text)[0];
        for (start, end) in [(0, 100), (9, 3), (5, 6), (usize::MAX, usize::MAX), (6, usize::MAX)] {
            let raw = scan::RawGame { start, end, ..raw.clone() };
            let _ = check_game(&raw, text, Options::default());
        }
    }
}
