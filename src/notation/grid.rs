//! The board field of FEN-like notations as written: ranks of cells, each cell a piece, a run
//! of empty squares, or a fault standing for some squares. SFEN boards and FEN placements are
//! both a [`Grid`] of their game's pieces.

use std::fmt;
use std::ops::Range;

use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::notation::repair::{Bytes, Kept, Refuse};
use crate::span::{Span, Spanned};

/// A board field: its ranks as written, top first, and their cells end to end.
#[derive(Clone, PartialEq, Eq)]
pub struct Grid<P> {
    /// The whole field.
    pub span: Span,
    /// The ranks as written, the top one first.
    pub ranks: Vec<Row>,
    /// Every rank's cells, end to end (each [`Row`] says which are its own).
    pub cells: Vec<Spanned<Cell<P>>>,
}

/// One rank of a [`Grid`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The rank's text.
    pub span: Span,
    /// Where its cells are in [`Grid::cells`].
    pub cells: Range<usize>,
}

/// What one token of a rank says.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Cell<P> {
    /// A run of `n` empty squares (a digit).
    Empty(u8),
    /// A piece.
    Piece(P),
    /// Something not valid here, standing for `width` squares (0 for a stray `+` or `0`, the
    /// digit's value for a full-width digit, 1 for an unknown letter).
    Fault {
        /// Squares it is taken to cover.
        width: u8,
    },
}

impl<P> Cell<P> {
    /// True when this cell and `next`, side by side, split one run of empty squares (`54` for
    /// `9`): the form warnings `sfen::split-empty-run` and `fen::split-blank-run`.
    pub const fn splits_run(&self, next: &Self) -> bool {
        matches!((self, next), (Self::Empty(_), Self::Empty(_)))
    }

    /// Squares covered.
    pub const fn width(&self) -> u32 {
        match self {
            Self::Empty(n) => *n as u32,
            Self::Piece(_) => 1,
            Self::Fault { width } => *width as u32,
        }
    }
}

impl<P> Grid<P> {
    /// The cells of `rank`, left to right.
    pub fn cells_of(&self, rank: &Row) -> &[Spanned<Cell<P>>] {
        self.cells.get(rank.cells.clone()).unwrap_or(&[])
    }

    /// How many squares `rank` covers.
    pub fn width(&self, rank: &Row) -> u32 {
        self.cells_of(rank).iter().map(|c| c.node.width()).sum()
    }
}

impl<P> Grid<P> {
    /// Reads a board field `text` (at `span`) that an automaton has accepted, a cell at a time:
    /// a cell is `token_len(its first byte)` bytes, which `cell` reads. `None` only when a cell
    /// does not read; with the grid, true when every rank covers `files` squares (a grid with
    /// another has findings, which [`Grid::check_shape`] reports).
    #[inline]
    pub fn read_accepted(
        text: &str,
        span: Span,
        files: u32,
        ranks: usize,
        token_len: impl Fn(u8) -> usize,
        cell: impl Fn(&[u8]) -> Option<Cell<P>>,
    ) -> Option<(Self, bool)> {
        let mut rows = Vec::with_capacity(ranks);
        let mut cells = Vec::with_capacity(text.len());
        let mut start = span.start;
        let mut regular = true;
        for bytes in text.as_bytes().split(|&b| b == b'/') {
            let first = cells.len();
            let mut i = 0;
            let mut width = 0;
            while let Some(&b) = bytes.get(i) {
                let len = token_len(b);
                let c = cell(bytes.get(i..i + len)?)?;
                width += c.width();
                cells.push(Spanned::new(c, Span::new(start + i, start + i + len)));
                i += len;
            }
            regular &= width == files;
            rows.push(Row { span: Span::new(start, start + bytes.len()), cells: first..cells.len() });
            start += bytes.len() + 1;
        }
        Some((Self { span, ranks: rows, cells }, regular))
    }
}

impl<P: Copy> Grid<P> {
    /// Writes the pieces into `squares` rank by rank, `files` to a rank; false (and `squares`
    /// in any state) unless the grid has exactly `squares.len() / files` ranks of `files`
    /// squares and no faults.
    pub fn fill(&self, files: usize, squares: &mut [Option<P>]) -> bool {
        if files == 0 || self.ranks.len() * files != squares.len() {
            return false;
        }
        for (r, rank) in self.ranks.iter().enumerate() {
            let mut file = 0usize;
            for cell in self.cells_of(rank) {
                match cell.node {
                    Cell::Piece(p) if file < files => squares[r * files + file] = Some(p),
                    Cell::Piece(_) | Cell::Fault { .. } => return false,
                    Cell::Empty(_) => {}
                }
                file += cell.node.width() as usize;
            }
            if file != files {
                return false;
            }
        }
        true
    }
}

impl<P> Grid<P> {
    /// The span of the cell that writes the square `file` (0-based from the left) of rank
    /// `rank` (0-based from the top): for an empty square, its run's span.
    pub fn span_at(&self, rank: usize, file: usize) -> Span {
        let Some(row) = self.ranks.get(rank) else { return self.span };
        let mut seen = 0;
        for cell in self.cells_of(row) {
            seen += cell.node.width() as usize;
            if seen > file {
                return cell.span;
            }
        }
        row.span
    }
}

/// Writes `squares`, `files` to a rank, as a board field: ranks top first, separated by `/`,
/// each run of empty squares one digit (runs are at most 9 long on the boards written here).
pub fn write_board<P: fmt::Display>(squares: &[Option<P>], files: usize, s: &mut String) {
    use fmt::Write as _;
    for (r, rank) in squares.chunks(files.max(1)).enumerate() {
        if r > 0 {
            s.push('/');
        }
        let mut empty = 0u8;
        for square in rank {
            match square {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let _ = write!(s, "{p}");
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
    }
}

/// Where the separator between two ranks went, when one rank too few is written and one rank
/// is exactly two ranks wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostSeparator {
    /// No `/` between two ranks: it belongs at byte `at`.
    Missing {
        /// The merged rank's index.
        rank: usize,
        /// Where the `/` goes.
        at: usize,
    },
    /// One character stands where the `/` should be.
    Replaced {
        /// The merged rank's index.
        rank: usize,
        /// The character in its place.
        cell: Span,
        /// What it writes.
        written: char,
    },
}

impl LostSeparator {
    /// The finding for the lost `/`; `rank_name` names a rank by its index.
    pub fn diagnostic(self, code: crate::diagnostic::Code, rank_name: impl Fn(usize) -> String) -> Diagnostic {
        let (span, message, label) = match self {
            LostSeparator::Missing { rank, at } => (
                Span::point(at),
                format!("the `/` between {} and {} is missing", rank_name(rank), rank_name(rank + 1)),
                "a `/` goes here".to_owned(),
            ),
            LostSeparator::Replaced { rank, cell, written } => (
                cell,
                format!(
                    "`{written}` stands where the `/` between {} and {} should be",
                    rank_name(rank),
                    rank_name(rank + 1)
                ),
                "should be `/`".to_owned(),
            ),
        };
        let help = match self {
            LostSeparator::Missing { .. } => {
                "insert the `/`: with it, both ranks have the right number of squares".to_owned()
            }
            LostSeparator::Replaced { .. } => {
                "replace it with `/`: then both ranks have the right number of squares".to_owned()
            }
        };
        Diagnostic::error(code, span, message).label(label).help(help)
    }
}

impl<P: fmt::Display> Grid<P> {
    /// The one place where a separator was lost, if the grid has `ranks - 1` ranks, all of
    /// `files` squares but one that splits into two of `files` squares.
    pub fn lost_separator(&self, files: u32, ranks: usize) -> Option<LostSeparator> {
        if self.ranks.len() + 1 != ranks {
            return None;
        }
        let mut found = None;
        for (r, row) in self.ranks.iter().enumerate() {
            let width = self.width(row);
            if width == files {
                continue;
            }
            let cells = self.cells_of(row);
            if found.is_some() || width < 2 * files {
                return None;
            }
            let mut before = 0;
            for (k, cell) in cells.iter().enumerate() {
                let here = cell.node.width();
                if before == files && width - before == files {
                    found = Some(LostSeparator::Missing { rank: r, at: cell.span.start });
                    break;
                }
                if before == files && width - before - here == files && cell.span.len() == 1 && k + 1 < cells.len() {
                    let written = match &cell.node {
                        Cell::Empty(n) => char::from(b'0' + n),
                        Cell::Piece(p) => p.to_string().chars().last().unwrap_or('?'),
                        Cell::Fault { .. } => '?',
                    };
                    found = Some(LostSeparator::Replaced { rank: r, cell: cell.span, written });
                    break;
                }
                before += here;
            }
            found?;
        }
        found
    }
}

/// A board's size, and the words for a wrong number of its ranks.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    files: u32,
    ranks: usize,
    count_code: crate::diagnostic::Code,
    noun: &'static str,
    separators: &'static str,
}

impl Size {
    /// `ranks` ranks of `files` squares; `count_code` is the code of a wrong number of ranks
    /// (a lost separator among them), `noun` the field's name ("board"), and `separators` says
    /// why there is one separator fewer than ranks ("nine ranks have eight separators").
    pub const fn new(
        files: u32,
        ranks: usize,
        count_code: crate::diagnostic::Code,
        noun: &'static str,
        separators: &'static str,
    ) -> Self {
        Self { files, ranks, count_code, noun, separators }
    }
}

/// How one notation words the faults of its board's shape: the checks are [`Grid::check_shape`]'s,
/// the words each notation's own.
pub trait ShapeWords<P> {
    /// The board's size and the words for its rank count.
    const SIZE: Size;

    /// The name of the rank at `index` (0 is the top).
    fn rank_name(index: usize) -> String;
    /// True when the grid is another game's board, and only [`Self::too_few`] speaks.
    fn foreign(_grid: &Grid<P>) -> bool {
        false
    }
    /// The code of an empty rank, and how a rank of unoccupied squares is written and said:
    /// (`fen::empty-rank`, `8`, "eight blank squares").
    const EMPTY_RANK: (crate::diagnostic::Code, &'static str, &'static str);

    /// An empty rank, `span` its separators; `fill` is where a rank of empty squares would
    /// repair it (when the board has its number of ranks, so that the rank is evidently empty
    /// squares, not a stray separator).
    fn empty_rank(index: usize, span: Span, fill: Option<usize>) -> Diagnostic {
        let (code, full, squares) = Self::EMPTY_RANK;
        let diag = Diagnostic::error(code, span, format!("{} is empty", Self::rank_name(index)))
            .label("nothing between these")
            .help(format!("write `{full}` for a rank of {squares}"));
        match fill {
            Some(at) => diag.fix(Fix::replace(Span::point(at), full, Applicability::Safe)),
            None => diag,
        }
    }
    /// A rank `width` squares wide, more than the size's files; `over` is the cell that runs past.
    fn too_wide(index: usize, width: u32, over: Option<&Spanned<Cell<P>>>, rank: &Row) -> Diagnostic;
    /// A rank `width` squares wide, fewer than the size's files.
    fn too_narrow(index: usize, width: u32, rank: &Row) -> Diagnostic;
    /// `n` ranks, more than the size's ranks: `extra` covers the ones past `last`, the last rank.
    fn too_many(n: usize, extra: Span, last: Span) -> Diagnostic;
    /// `n` ranks, fewer than the size's ranks, in the field `span` (`foreign` from [`Self::foreign`]).
    fn too_few(n: usize, span: Span, foreign: bool) -> Diagnostic;
}

impl<P: Copy + fmt::Display> Grid<P> {
    /// Reports the faults of the grid's shape in `W`'s words: a lost separator, empty ranks,
    /// ranks too wide or too narrow, too many or too few ranks.
    pub fn check_shape<W: ShapeWords<P>>(&self, out: &mut Vec<Diagnostic>) {
        // Two ranks run together: one finding at the place of the lost `/`, not a width error,
        // a count error and a hint about digits.
        if let Some(lost) = self.lost_separator(W::SIZE.files, W::SIZE.ranks) {
            out.push(lost.diagnostic(W::SIZE.count_code, W::rank_name));
            return;
        }
        let foreign = W::foreign(self);
        let n = self.ranks.len();
        for (i, rank) in self.ranks.iter().enumerate().take(if foreign { 0 } else { W::SIZE.ranks }) {
            let width = self.width(rank);
            if rank.cells.is_empty() {
                if n == W::SIZE.ranks + 1 && (i == 0 || i + 1 == n) {
                    continue; // a leading or trailing `/`, reported with the rank count
                }
                // Point at the separators around the empty rank.
                let span = Span::new(
                    rank.span.start.saturating_sub(1).max(self.span.start),
                    (rank.span.end + 1).min(self.span.end),
                );
                let fill = (n == W::SIZE.ranks).then_some(rank.span.start);
                out.push(W::empty_rank(i, span, fill));
            } else if width > W::SIZE.files {
                let mut sum = 0;
                let over = self.cells_of(rank).iter().find(|c| {
                    sum += c.node.width();
                    sum > W::SIZE.files
                });
                out.push(W::too_wide(i, width, over, rank));
            } else if width < W::SIZE.files {
                out.push(W::too_narrow(i, width, rank));
            }
        }
        if n > W::SIZE.ranks {
            out.push(self.too_many_ranks::<W>());
        } else if n < W::SIZE.ranks {
            out.push(W::too_few(n, self.span, foreign));
        }
    }

    /// The findings of a grid read from bytes an automaton accepted ([`Grid::read_accepted`],
    /// which tells whether every rank is `regular`): none when it is, else the faults of its
    /// shape ([`Grid::check_shape`]), in the order of the text, as the builder reports them.
    pub fn accepted_findings<W: ShapeWords<P>>(&self, regular: bool) -> Vec<Diagnostic> {
        let mut findings = Vec::new();
        if !regular {
            self.check_shape::<W>(&mut findings);
            findings.sort_by_key(|d| d.span().start);
        }
        findings
    }

    fn too_many_ranks<W: ShapeWords<P>>(&self) -> Diagnostic {
        let n = self.ranks.len();
        let extra = Span::new(self.ranks[W::SIZE.ranks].span.start.saturating_sub(1), self.span.end);
        if n == W::SIZE.ranks + 1 && self.ranks[0].cells.is_empty() {
            Diagnostic::error(
                W::SIZE.count_code,
                Span::new(self.span.start, self.span.start + 1),
                format!("the {} starts with `/`", W::SIZE.noun),
            )
            .label("leading separator")
            .help(format!("remove the first `/`: {}", W::SIZE.separators))
        } else if n == W::SIZE.ranks + 1 && self.ranks[W::SIZE.ranks].cells.is_empty() {
            Diagnostic::error(W::SIZE.count_code, extra, format!("the {} ends with `/`", W::SIZE.noun))
                .label("trailing separator")
                .help(format!("remove the last `/`: {}", W::SIZE.separators))
        } else {
            W::too_many(n, extra, self.ranks[W::SIZE.ranks - 1].span)
        }
    }
}

impl<P: fmt::Display> fmt::Debug for Cell<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty(n) => write!(f, "Empty({n})"),
            Self::Piece(p) => write!(f, "Piece({p})"),
            Self::Fault { width } => write!(f, "Fault(width {width})"),
        }
    }
}

impl<P: fmt::Display> fmt::Debug for Grid<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board @ {:?} [", self.span)?;
        for rank in &self.ranks {
            write!(f, "    Rank @ {:?} [", rank.span)?;
            for (i, cell) in self.cells_of(rank).iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{cell:?}")?;
            }
            writeln!(f, "]")?;
        }
        f.write_str("]")
    }
}

/// A format's decoder of the tokens of a board field, for the walks over fields an automaton
/// accepted ([`walk_accepted`]): what its decoder makes of each byte as a whole token is looked
/// up in a table made from the decoder itself, and the longer tokens go to the decoder.
pub struct CellDecoder<P> {
    /// How many bytes a token takes, from its first.
    token_len: fn(u8) -> usize,
    /// The decoder of a token's bytes.
    cell: fn(&[u8]) -> Option<Cell<P>>,
    /// The small number its format gives each piece, or none (a slot in its sets of squares),
    /// handed to [`walk_accepted_cells`]'s `place` beside the piece.
    slot: fn(Option<P>) -> u8,
    /// Each byte as a whole token.
    one: [OneByte<P>; 256],
}

/// What a format's decoder makes of a byte as a whole token.
#[derive(Clone, Copy)]
struct OneByte<P> {
    /// The piece it is, if it is one.
    piece: Option<P>,
    /// Squares it covers (0 for a byte that is no one-byte token).
    width: u8,
    /// It is a run of empty squares ([`Cell::splits_run`] of two such tokens).
    empty: bool,
    /// It is a token: a piece or a run of empty squares.
    token: bool,
    /// The decoder's `slot` of its piece.
    slot: u8,
    /// It is `/`, the end of a rank.
    slash: bool,
    /// It is a token or `/`: [`walk_accepted_cells`]'s first loop reads it. (One flag to test,
    /// and with it an entry takes eight bytes, so that a byte finds its entry with one shift.)
    plain: bool,
}

impl<P: Copy> CellDecoder<P> {
    /// The decoder of tokens `token_len(first byte)` bytes long, read by `cell`, whose pieces
    /// (or none) [`walk_accepted_cells`] hands on with their `slot`.
    pub fn new(token_len: fn(u8) -> usize, cell: fn(&[u8]) -> Option<Cell<P>>, slot: fn(Option<P>) -> u8) -> Self {
        let one = std::array::from_fn(|b| {
            let c = u8::try_from(b).ok().filter(|&b| token_len(b) == 1).and_then(|b| cell(&[b]));
            match c {
                Some(c @ (Cell::Piece(_) | Cell::Empty(_))) => {
                    let piece = if let Cell::Piece(p) = c { Some(p) } else { None };
                    OneByte {
                        piece,
                        width: c.width() as u8,
                        empty: c.splits_run(&c),
                        token: true,
                        slot: slot(piece),
                        slash: false,
                        plain: true,
                    }
                }
                _ => {
                    let slash = b == usize::from(b'/');
                    OneByte { piece: None, width: 0, empty: false, token: false, slot: slot(None), slash, plain: slash }
                }
            }
        });
        Self { token_len, cell, slot, one }
    }

    /// The token at `i` in `bytes` (which starts a longer token than one byte, or is none),
    /// as a one-byte entry, and its length.
    #[cold]
    fn longer(&self, bytes: &[u8], i: usize) -> Option<(OneByte<P>, usize)> {
        let len = (self.token_len)(*bytes.get(i)?);
        let piece = match (self.cell)(bytes.get(i..i + len)?)? {
            Cell::Piece(p) => p,
            // Only a piece takes more than one byte.
            _ => return None,
        };
        let slot = (self.slot)(Some(piece));
        Some((
            OneByte { piece: Some(piece), width: 1, empty: false, token: true, slot, slash: false, plain: true },
            len,
        ))
    }
}

/// Walks a board field `text` that an automaton has accepted, a cell at a time as
/// [`Grid::read_accepted`] reads it, without building the grid: each piece goes to `place` with
/// its index (`rank * files + file`). `Some` when it has `ranks` ranks of `files` squares (and
/// `place` took every piece), saying whether no run of empty squares is split; else `None`.
///
/// `feed` is given each byte the walk reads, in order: every byte of `text` when the walk says
/// `Some`. (A reader feeds them to the record's automaton: the automaton's steps, each waiting
/// on the one before, then overlap the walk's work.)
///
/// It branches on each byte, which costs little on boards mostly empty (shogi's); boards mostly
/// full of pieces in no order (chess's) go faster through [`walk_accepted_cells`], which does
/// not (and costs more on the others). Tests check that the two read every board alike.
#[inline]
pub fn walk_accepted<P: Copy>(
    text: &str,
    files: usize,
    ranks: usize,
    decoder: &CellDecoder<P>,
    mut feed: impl FnMut(u8),
    mut place: impl FnMut(usize, P) -> Option<()>,
) -> Option<bool> {
    let bytes = text.as_bytes();
    let mut split = false;
    // The first square of the rank, and the next square to fill.
    let (mut rank, mut next) = (0usize, 0usize);
    let mut after_empty = false;
    let mut i = 0;
    // A rank's width is checked where it ends: a piece past its end is placed on a square of
    // the next rank (or off the board, which `place` refuses) only on the way to `None`.
    while let Some(&b) = bytes.get(i) {
        feed(b);
        let mut t = decoder.one[usize::from(b)];
        let mut len = 1;
        if !t.token {
            if b == b'/' {
                if next != rank + files {
                    return None;
                }
                (rank, after_empty, i) = (next, false, i + 1);
                continue;
            }
            (t, len) = decoder.longer(bytes, i)?;
            // A plain loop: an iterator's fold, out of line, would take `feed`'s state out of
            // the registers.
            for k in i + 1..i + len {
                if let Some(&b) = bytes.get(k) {
                    feed(b);
                }
            }
        }
        split |= after_empty & t.empty;
        if let Some(p) = t.piece {
            place(next, p)?;
        }
        (next, after_empty, i) = (next + usize::from(t.width), t.empty, i + len);
    }
    (next == ranks * files && next == rank + files).then_some(!split)
}

/// Walks a board field `text` that an automaton has accepted, as [`walk_accepted`] does, but
/// without a branch on what each byte is, for boards where most squares hold pieces (chess):
/// `place` is given the index (`rank * files + file`) of each token's first square with its
/// piece and the piece's slot ([`CellDecoder::new`]), or `None` (and the slot of none) for a run
/// of empty squares or a rank's end (on an empty board, placing nothing there changes
/// nothing). A rank's width is checked where it ends and remembered, so a
/// piece past a rank's end goes to a square of the next rank (or off the board, which `place`
/// refuses) only on the way to `None`. Only a token longer than a byte goes to the decoder.
/// `feed` is given each byte read, as [`walk_accepted`] gives it.
#[inline]
pub fn walk_accepted_cells<P: Copy>(
    text: &str,
    files: usize,
    ranks: usize,
    decoder: &CellDecoder<P>,
    mut feed: impl FnMut(u8),
    mut place: impl FnMut(usize, Option<P>, u8) -> Option<()>,
) -> Option<bool> {
    const SPLIT: u8 = 1;
    const WRONG: u8 = 2;
    let bytes = text.as_bytes();
    // What the walk found, in one register: a split run of empty squares, a rank of the wrong
    // width.
    let mut found = 0u8;
    // The first square of the rank, the next square to fill, and whether the token before was
    // a run of empty squares.
    let (mut rank, mut next, mut after_empty) = (0usize, 0usize, false);
    // One token read: `t`, or a `/`.
    let mut step = |t: OneByte<P>| {
        found |= u8::from(after_empty & t.empty) | (u8::from(t.slash & (next != rank + files)) * WRONG);
        after_empty = t.empty;
        rank = if t.slash { next } else { rank };
        place(next, t.piece, t.slot)?;
        next += usize::from(t.width);
        Some(())
    };
    // The tokens of one byte and the `/`s, in a loop with no call and few values, so that the
    // state of `feed` stays in a register. A longer token, or a byte that is none, goes on to
    // the loop below.
    let mut rest = bytes.iter();
    while let Some(&b) = rest.as_slice().first() {
        let t = decoder.one[usize::from(b)];
        if !t.plain {
            break;
        }
        rest.next();
        feed(b);
        step(t)?;
    }
    let mut i = bytes.len() - rest.len();
    while let Some(&b) = bytes.get(i) {
        feed(b);
        let mut t = decoder.one[usize::from(b)];
        let mut len = 1;
        if !t.plain {
            (t, len) = decoder.longer(bytes, i)?;
            // A plain loop: an iterator's fold, out of line, would take `feed`'s state out of
            // the registers.
            for k in i + 1..i + len {
                if let Some(&b) = bytes.get(k) {
                    feed(b);
                }
            }
        }
        step(t)?;
        i += len;
    }
    (found & WRONG == 0 && next == ranks * files && next == rank + files).then_some(found & SPLIT == 0)
}

/// The runs of empty squares that `board`, a board field whose ranks a reader found of the right
/// width and whose runs are each one digit, writes with several digits (a form warning each,
/// in FEN and in SFEN).
pub fn split_runs(board: &str) -> usize {
    let bytes = board.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    (1..bytes.len()).filter(|&i| digit(i) && digit(i - 1) && !(i >= 2 && digit(i - 2))).count()
}

/// For each byte, a small number or none, found once from a function (the squares a
/// character of a board covers, the kind of piece a letter writes) and read with one load.
#[derive(Clone, Debug)]
pub struct ByteMap {
    numbers: [u8; 256],
    /// The ASCII bytes of each number below [`ByteMap::SETS`].
    sets: [Bytes; ByteMap::SETS],
    /// The ASCII bytes of no number, or of one from [`ByteMap::SETS`] on.
    none: Bytes,
}

impl ByteMap {
    const NONE: u8 = u8::MAX;
    /// The numbers whose bytes are kept as sets.
    const SETS: usize = 16;

    /// What `f` gives each byte (a number below 255, or none).
    pub fn of(f: impl Fn(u8) -> Option<u32>) -> Self {
        let numbers: [u8; 256] = std::array::from_fn(|b| {
            f(b as u8).and_then(|n| u8::try_from(n).ok()).filter(|&n| n != Self::NONE).unwrap_or(Self::NONE)
        });
        let (mut sets, mut none) = ([Bytes(0); Self::SETS], Bytes(0));
        for b in 0..128u8 {
            let one = Bytes::of(&[b]);
            match sets.get_mut(usize::from(numbers[usize::from(b)])) {
                Some(set) => *set = set.or(one),
                None => none = none.or(one),
            }
        }
        Self { numbers, sets, none }
    }

    /// The number of byte `b`.
    #[inline]
    pub fn get(&self, b: u8) -> Option<u32> {
        let n = self.numbers[usize::from(b)];
        (n != Self::NONE).then_some(u32::from(n))
    }

    /// The ASCII bytes whose number is `n`: none for a number from [`ByteMap::SETS`] on, whose
    /// bytes are among [`ByteMap::none`]'s.
    pub fn bytes_of(&self, n: u32) -> Bytes {
        usize::try_from(n).ok().and_then(|n| self.sets.get(n)).copied().unwrap_or_default()
    }

    /// The ASCII bytes of no number, or of one [`ByteMap::bytes_of`] gives none for.
    pub fn none(&self) -> Bytes {
        self.none
    }
}

/// How many squares each rank of a record's board field covers, counted once, so that a repair
/// search can refuse at once an edit that leaves a rank of the wrong width: a rank's width is
/// the sum of its characters' widths, so an edit that writes no `/` and no space changes only
/// the width of the rank it is in, by what it writes less what it removes.
#[derive(Clone, Debug)]
pub struct RankWidths<'a> {
    /// Where the board field ends (its first space, or the end of the record).
    end: usize,
    /// Each rank's first byte and width (`None` when a character has no width).
    ranks: Vec<(usize, Option<u32>)>,
    /// The rank each byte of the board is in, up to its end ([`RankWidths::rank_of`] of each).
    rank_at: Vec<u32>,
    /// The width of the bytes of its rank before each byte of the board, up to its end (`None`
    /// when a character has no width; at a `/`, the rank's that ends there).
    before: Vec<Option<u32>>,
    /// How many ranks are of a known wrong width.
    wrong: usize,
    /// Squares a rank must cover.
    files: u32,
    /// The squares a character of a board covers (none for one no board holds).
    width: &'a ByteMap,
}

impl<'a> RankWidths<'a> {
    /// The ranks of `text`'s board field (its first field), for a game of `files` files whose
    /// characters cover `width` squares each.
    pub fn of(text: &str, files: u32, width: &'a ByteMap) -> Self {
        let bytes = text.as_bytes();
        let end = memchr::memchr(b' ', bytes).unwrap_or(bytes.len());
        let mut ranks = Vec::with_capacity(9);
        let mut start = 0;
        for rank in bytes[..end].split(|&b| b == b'/') {
            ranks.push((start, Self::sum(rank, width)));
            start += rank.len() + 1;
        }
        let wrong = ranks.iter().filter(|&&(_, w)| Self::is_wrong(w, files)).count();
        let mut rank_at = Vec::with_capacity(end + 1);
        for (i, &(start, _)) in ranks.iter().enumerate().skip(1) {
            // A `/` is in the rank that ends there.
            rank_at.resize(start, (i - 1) as u32);
        }
        rank_at.resize(end + 1, ranks.len().saturating_sub(1) as u32);
        let mut before = Vec::with_capacity(end + 1);
        let mut sum = Some(0u32);
        for &b in &bytes[..end] {
            before.push(sum);
            sum = if b == b'/' { Some(0) } else { sum.zip(width.get(b)).map(|(s, w)| s + w) };
        }
        before.push(sum);
        Self { end, ranks, rank_at, before, wrong, files, width }
    }

    /// True for a rank of a known width other than `files`.
    fn is_wrong(width: Option<u32>, files: u32) -> bool {
        width.is_some_and(|w| w != files)
    }

    fn sum(bytes: &[u8], width: &ByteMap) -> Option<u32> {
        bytes.iter().try_fold(0u32, |sum, &b| Some(sum + width.get(b)?))
    }

    /// True when writing `written` over the bytes `span` of `text` (the record these widths are
    /// of) leaves some rank covering other than the files of a rank: the edited record is
    /// invalid whatever else it holds. False when that cannot be told so cheaply (the edit
    /// writes or removes a space, writes a character without a width, or leaves one in the
    /// rank).
    #[inline(always)]
    pub fn refuse(&self, text: &str, span: Span, written: &[u8]) -> bool {
        // Most edits remove and write at most one character of a board, neither a `/` nor a
        // space: told from the widths alone, inline.
        if let Some(old) = text.as_bytes().get(span.start..span.end) {
            if let (Some(removed), Some(added)) = (self.plain(old), self.plain(written)) {
                return self.refuse_within(span, Some(removed), Some(added));
            }
        }
        self.refuse_other(text, span, written)
    }

    /// The slips of the characters at `span` of `text` (one or two) that [`RankWidths::refuse`]
    /// may let through, when it refuses every other slip of them (`Refuse::only_writes`).
    ///
    /// A slip that writes or removes a space or a `/` is not told from widths: it is kept. Of
    /// the others, a slip of the fields after the board is refused when a rank is of a wrong
    /// width. A slip of a rank's characters is refused when another rank is of a wrong width;
    /// else the rank's width after it is its width less what it removes plus what it writes,
    /// and it is kept when that is the files of a rank, or when it writes a character of no
    /// width (which is not told from widths either).
    pub fn only_writes(&self, text: &str, span: Span) -> Option<Kept> {
        let bytes = text.as_bytes().get(span.start..span.end)?;
        let [first, ref second @ ..] = *bytes else { return None };
        let apart = |b: u8| b == b'/' || b == b' ';
        let (spaces, every) = (Bytes::of(b" /"), Bytes(u128::MAX));
        if span.start > self.end {
            // After the board's field (past its space).
            return (self.wrong > 0).then(|| Kept {
                delete: apart(first),
                swap: bytes.iter().any(|&b| apart(b)),
                replace: if apart(first) { every } else { spaces },
                insert: spaces,
            });
        }
        if span.start == self.end {
            return None; // the board's space
        }
        let i = self.rank_of(span.start);
        let wrong_elsewhere = self.wrong > usize::from(Self::is_wrong(self.ranks.get(i)?.1, self.files));
        // The bytes an insertion before `first` may write: it adds to the width of the rank
        // that ends at a `/`, or holds `first`.
        let width = self.ranks[i].1;
        let fits = |target: Option<u32>| target.map_or(Bytes(0), |w| self.width.bytes_of(w)).or(self.width.none());
        let insert = match width {
            _ if wrong_elsewhere => spaces,
            Some(width) => fits(self.files.checked_sub(width)),
            None => every,
        };
        if first == b'/' {
            // A `/` removed or replaced joins two ranks.
            return Some(Kept { delete: true, swap: true, replace: every, insert });
        }
        let removed = self.width.get(first)?;
        // A swap with a `/`, a space or a character of no width is kept.
        let plain_second = second.iter().all(|&b| !apart(b) && self.width.get(b).is_some());
        if wrong_elsewhere {
            return Some(Kept { delete: false, swap: !plain_second, replace: spaces, insert });
        }
        let width = width?;
        Some(Kept {
            delete: width.checked_sub(removed) == Some(self.files),
            // A swap of two characters of the rank leaves its width.
            swap: !plain_second || width == self.files,
            replace: fits((self.files + removed).checked_sub(width)),
            insert,
        })
    }

    /// [`RankWidths::refuse`] for the other edits, out of line.
    #[inline(never)]
    fn refuse_other(&self, text: &str, span: Span, written: &[u8]) -> bool {
        let Some(old) = text.as_bytes().get(span.start..span.end) else { return false };
        if old.iter().chain(written).any(|&b| b == b' ') {
            return false;
        }
        if old.iter().chain(written).any(|&b| b == b'/') {
            return self.refuse_across(text, span, written);
        }
        let (removed, added) = (Self::sum(old, self.width), Self::sum(written, self.width));
        match (removed, added) {
            // A character without a width removed (a letter no board holds): the rank's width
            // after the edit is known when no other of its characters lacks one.
            (None, Some(added)) if span.end <= self.end => self.refuse_rest(text, span, added),
            _ => self.refuse_within(span, removed, added),
        }
    }

    /// [`RankWidths::refuse`] for an edit within one rank of the board, `span`, that removes a
    /// character without a width and writes characters of `added` squares: the rest of the rank
    /// is walked.
    fn refuse_rest(&self, text: &str, span: Span, added: u32) -> bool {
        if self.wrong > 0 {
            return true; // another rank stays wrong (this one's width is not known)
        }
        let i = self.rank_of(span.start);
        let bytes = text.as_bytes();
        let rest = (bytes.get(self.ranks[i].0..span.start), bytes.get(span.end..self.rank_end(i)));
        let (Some(before), Some(after)) = rest else { return false };
        let width = Self::sum(before, self.width).zip(Self::sum(after, self.width));
        width.is_some_and(|(b, a)| b + a + added != self.files)
    }

    /// The width of `bytes`, at most one byte, when it has one and is not a `/` or a space.
    #[inline(always)]
    fn plain(&self, bytes: &[u8]) -> Option<u32> {
        match *bytes {
            [] => Some(0),
            [b] if b != b'/' && b != b' ' => self.width.get(b),
            _ => None,
        }
    }

    /// [`RankWidths::refuse`] for an edit of `span` that removes characters of `removed`
    /// squares and writes characters of `added` squares, none of them a `/` or a space (`None`
    /// for characters without a width: then only another rank of the wrong width refuses it).
    #[inline(always)]
    fn refuse_within(&self, span: Span, removed: Option<u32>, added: Option<u32>) -> bool {
        // The rank the edit is in: an edit before a `/` or at the board's end is in the rank
        // that ends there.
        let edited = (span.end <= self.end).then(|| self.rank_of(span.start));
        let edited_wrong = edited.is_some_and(|i| Self::is_wrong(self.ranks[i].1, self.files));
        if self.wrong > usize::from(edited_wrong) {
            return true; // another rank stays wrong
        }
        let (Some(w), Some(removed), Some(added)) = (edited.and_then(|i| self.ranks[i].1), removed, added) else {
            return false;
        };
        (w + added).checked_sub(removed) != Some(self.files)
    }

    /// Where rank `i` ends: at the `/` after it, or at the board's end.
    fn rank_end(&self, i: usize) -> usize {
        self.ranks.get(i + 1).map_or(self.end, |&(next, _)| next - 1)
    }

    /// The rank byte `at` of the board is in (the one that ends there, at a `/`).
    fn rank_of(&self, at: usize) -> usize {
        match self.rank_at.get(at) {
            Some(&rank) => rank as usize,
            None => self.ranks.partition_point(|&(start, _)| start <= at).saturating_sub(1),
        }
    }

    /// [`RankWidths::refuse`] for an edit of the board that writes or removes a `/`: the ranks
    /// it touches become those between the `/`s of their bytes as edited, and the others stay
    /// as they are.
    fn refuse_across(&self, text: &str, span: Span, written: &[u8]) -> bool {
        if span.end > self.end {
            return false;
        }
        let (first, last) = (self.rank_of(span.start), self.rank_of(span.end));
        let touched = self.ranks[first..=last].iter().filter(|&&(_, w)| Self::is_wrong(w, self.files)).count();
        if self.wrong > touched {
            return true; // a rank the edit leaves alone stays wrong
        }
        let end = self.rank_end(last);
        let (Some(&before), Some(&head)) = (self.before.get(span.start), self.before.get(span.end)) else {
            return false;
        };
        // The bytes of the first rank before the edit and those of the last after it hold no
        // `/`: their widths are the rank's less what lies outside them, counted once.
        let after = match (self.ranks[last].1, head) {
            (Some(total), Some(head)) => Some(total - head),
            _ => Self::sum(text.as_bytes().get(span.end..end).unwrap_or_default(), self.width),
        };
        // The widths of the ranks the edited bytes hold, each checked where it ends.
        let mut width = before;
        for &b in written {
            if b == b'/' {
                if Self::is_wrong(width, self.files) {
                    return true;
                }
                width = Some(0);
            } else {
                width = width.zip(self.width.get(b)).map(|(w, v)| w + v);
            }
        }
        Self::is_wrong(width.zip(after).map(|(w, a)| w + a), self.files)
    }
}

/// The pieces of a record's board field (its first), counted from their letters alone,
/// whatever the widths of its ranks, so that a repair search can refuse at once an edit of the
/// board that leaves counts no valid position has (too many pieces of a kind, two kings on a
/// side): each letter of a board is one piece wherever it stands, so an edit of the board changes
/// the counts by the letters it writes less those it removes. Bytes no piece is written with
/// (digits, `+`, `/`, and any other) count nothing.
#[derive(Clone, Debug)]
pub struct Letters<'a, const N: usize> {
    /// Where the board field ends (its first space, or the end of the record).
    end: usize,
    /// The pieces of each kind, by `index`.
    counts: [u32; N],
    /// The kind (below `N`) of the piece a byte writes, if any.
    index: &'a ByteMap,
}

impl<'a, const N: usize> Letters<'a, N> {
    /// The pieces of `text`'s board field, each byte counted as the kind `index` gives it.
    pub fn of(text: &str, index: &'a ByteMap) -> Self {
        let bytes = text.as_bytes();
        let end = memchr::memchr(b' ', bytes).unwrap_or(bytes.len());
        let mut counts = [0; N];
        for &b in &bytes[..end] {
            if let Some(n) = index.get(b).and_then(|i| counts.get_mut(i as usize)) {
                *n += 1;
            }
        }
        Self { end, counts, index }
    }

    /// The counts of the board field of the record `text` becomes with `written` over the bytes
    /// `span`, for a record whose fields stay at the same spaces: `None` for an edit that reaches
    /// past the board field or writes a space.
    pub fn after(&self, text: &str, span: Span, written: &[u8]) -> Option<[u32; N]> {
        let old = text.as_bytes().get(span.start..span.end)?;
        if span.end > self.end || written.contains(&b' ') {
            return None;
        }
        let mut counts = self.counts;
        for &b in old {
            if let Some(n) = self.index.get(b).and_then(|i| counts.get_mut(i as usize)) {
                *n = n.saturating_sub(1);
            }
        }
        for &b in written {
            if let Some(n) = self.index.get(b).and_then(|i| counts.get_mut(i as usize)) {
                *n += 1;
            }
        }
        Some(counts)
    }

    /// [`Letters::after`], and for an edit past the board field's end and the space there that
    /// writes no space and removes none, the counts as they are: such an edit leaves the board
    /// field as it is. `None` for an edit of that space, or one that writes or removes a space.
    pub fn after_any(&self, text: &str, span: Span, written: &[u8]) -> Option<[u32; N]> {
        if span.start <= self.end {
            return self.after(text, span, written);
        }
        let old = text.as_bytes().get(span.start..span.end)?;
        (!old.contains(&b' ') && !written.contains(&b' ')).then_some(self.counts)
    }

    /// The counts as they are.
    pub fn counts(&self) -> &[u32; N] {
        &self.counts
    }

    /// For the characters of the board field at `span` of `text` (the one or two a search tries
    /// its slips on, the first on the board or the space after it): the slips of them that a
    /// refusal of the counts [`Letters::after`] gives may let through, when it refuses every
    /// other slip there. `takes` tells of counts whether the refusal lets them through, and if
    /// so, the bytes whose piece it lets through one more of (a byte that writes no piece adds
    /// nothing, and a space is never refused). `None` past the board's space.
    pub fn only_writes(&self, text: &str, span: Span, takes: impl Fn(&[u32; N]) -> (bool, Bytes)) -> Option<Kept> {
        let at = span.start;
        let first = *text.as_bytes().get(at).filter(|b| b.is_ascii())?;
        if at > self.end {
            return None;
        }
        // Whether counts pass, and the bytes that may be written where they are.
        let space = Bytes::of(b" ");
        let writes = |counts: &[u32; N]| match takes(counts) {
            (true, pieces) => (true, pieces.or(self.index.none()).or(space)),
            (false, pieces) => (false, pieces.or(space)),
        };
        let (as_is, insert) = writes(&self.counts);
        if at == self.end {
            // The board's space: only an insertion before it reaches the board.
            return Some(Kept { delete: true, swap: true, replace: Bytes(u128::MAX), insert });
        }
        let mut without = self.counts;
        if let Some(n) = self.index.get(first).and_then(|i| without.get_mut(i as usize)) {
            *n -= 1;
        }
        let (delete, replace) = writes(&without);
        // Two characters of the board swapped keep its counts; one swapped with the space after
        // it reaches past the board.
        Some(Kept { delete, swap: span.end > self.end || as_is, replace, insert })
    }
}

/// Every single edit of `record` (a character deleted, replaced or inserted, from `alphabet`,
/// or two swapped) that `refuse` refuses makes a record that `invalid` finds invalid; returns
/// how many were refused. (The formats' tests call it with their own refusals and checks.)
#[cfg(test)]
pub(crate) fn refusals_are_invalid(
    record: &str,
    refuse: impl Fn(Span, &[u8]) -> bool,
    alphabet: &[u8],
    invalid: impl Fn(&str) -> bool,
) -> usize {
    let mut refused = 0;
    for at in 0..=record.len() {
        let mut edits: Vec<(Span, Vec<u8>)> = Vec::new();
        if at < record.len() {
            edits.push((Span::new(at, at + 1), Vec::new()));
            edits.extend(alphabet.iter().map(|&b| (Span::new(at, at + 1), vec![b])));
        }
        if at + 1 < record.len() {
            let b = record.as_bytes();
            edits.push((Span::new(at, at + 2), vec![b[at + 1], b[at]]));
        }
        edits.extend(alphabet.iter().map(|&b| (Span::point(at), vec![b])));
        for (span, written) in edits {
            if refuse(span, &written) {
                refused += 1;
                let edited = [&record.as_bytes()[..span.start], &written, &record.as_bytes()[span.end..]].concat();
                let edited = String::from_utf8(edited).expect("ASCII");
                assert!(invalid(&edited), "refused, yet valid: {edited:?}");
            }
        }
    }
    refused
}

/// For each place of `record` where `only_writes` names the slips that may pass (given the span
/// of the one or two characters there), `refuse` refuses every other slip there: the deletion,
/// the swap, and every other byte of `alphabet` written over the first character or before
/// it. `each` is told each such place's span and what it keeps; returns how many slips were
/// refused, and how many kept. (The formats' tests call it with their own refusals.)
#[cfg(test)]
pub(crate) fn refuses_all_not_kept(
    record: &str,
    alphabet: &[u8],
    only_writes: impl Fn(Span) -> Option<Kept>,
    refuse: impl Fn(Span, &[u8]) -> bool,
    mut each: impl FnMut(Span, Kept),
) -> (usize, usize) {
    let (mut refused, mut kept_slips) = (0, 0);
    let bytes = record.as_bytes();
    for at in 0..=bytes.len() {
        let span = Span::new(at, (at + 2).min(bytes.len()));
        let Some(kept) = only_writes(span) else { continue };
        each(span, kept);
        let swapped: Vec<u8> = bytes[span.start..span.end].iter().rev().copied().collect();
        let mut slips = vec![(kept.delete, Span::new(at, at + 1), Vec::new()), (kept.swap, span, swapped)];
        for &b in alphabet {
            slips.push((kept.replace.has(b), Span::new(at, at + 1), vec![b]));
            slips.push((kept.insert.has(b), Span::point(at), vec![b]));
        }
        // At the record's end, only an insertion is a slip.
        for (keep, span, written) in slips.into_iter().filter(|(_, span, _)| span.end <= bytes.len()) {
            if keep {
                kept_slips += 1;
            } else {
                assert!(refuse(span, &written), "{record:?} {span:?} {written:?}");
                refused += 1;
            }
        }
    }
    (refused, kept_slips)
}

/// The refusals of a record with a board: an edit that leaves a rank of the wrong width
/// ([`RankWidths`]), or that `other` refuses.
pub struct Refusals<'a, O> {
    /// The record.
    pub text: &'a str,
    /// The widths of its ranks.
    pub ranks: RankWidths<'a>,
    /// The format's other cheap refusal (too many pieces of a kind, say).
    pub other: O,
}

impl<O: Refuse> Refuse for Refusals<'_, O> {
    #[inline(always)]
    fn refuse(&self, span: Span, written: &[u8]) -> bool {
        self.ranks.refuse(self.text, span, written) || self.other.refuse(span, written)
    }

    fn only_writes(&self, span: Span) -> Option<Kept> {
        // What either refuses, the two together refuse.
        match (self.ranks.only_writes(self.text, span), self.other.only_writes(span)) {
            (Some(widths), Some(other)) => Some(widths.and(other)),
            (widths, other) => widths.or(other),
        }
    }
}

/// Up to eight squares of a board, by their index on the board (row by row from the top left,
/// as SFEN and FEN write it): the squares along one line out of a square, nearest first
/// ([`rays`]), or those a jump lands on from it ([`jumps`]).
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    squares: [u8; 8],
    len: u8,
}

impl Ray {
    /// The squares, nearest first.
    #[inline]
    pub const fn squares(&self) -> &[u8] {
        match self.squares.split_at_checked(self.len as usize) {
            Some((squares, _)) => squares,
            None => &[],
        }
    }
}

/// The eight lines out of each of the `N` squares of a board `files` squares wide (of at most
/// nine squares a side): up, down, left and right as the board is written, then the four
/// diagonals (up-left, down-left, up-right, down-right).
pub const fn rays<const N: usize>(files: usize) -> [[Ray; 8]; N] {
    const LINES: [(isize, isize); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)];
    let ranks = N / files;
    let mut rays = [[Ray { squares: [0; 8], len: 0 }; 8]; N];
    let mut i = 0;
    while i < N {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = LINES[d];
            let (mut col, mut row) = ((i % files) as isize, (i / files) as isize);
            let mut len = 0;
            loop {
                (col, row) = (col + dc, row + dr);
                if col < 0 || col >= files as isize || row < 0 || row >= ranks as isize {
                    break;
                }
                rays[i][d].squares[len] = (row * files as isize + col) as u8;
                len += 1;
            }
            rays[i][d].len = len as u8;
            d += 1;
        }
        i += 1;
    }
    rays
}

/// For each of the `N` squares of a board `files` squares wide, the squares the jumps `by`
/// (columns to the right, rows down) land on, in the order of `by`, those off the board left out.
pub const fn jumps<const N: usize>(files: usize, by: [(isize, isize); 8]) -> [Ray; N] {
    let ranks = N / files;
    let mut out = [Ray { squares: [0; 8], len: 0 }; N];
    let mut i = 0;
    while i < N {
        let mut d = 0;
        let mut len = 0;
        while d < 8 {
            let (col, row) = ((i % files) as isize + by[d].0, (i / files) as isize + by[d].1);
            if col >= 0 && col < files as isize && row >= 0 && row < ranks as isize {
                out[i].squares[len] = (row * files as isize + col) as u8;
                len += 1;
            }
            d += 1;
        }
        out[i].len = len as u8;
        i += 1;
    }
    out
}

/// Asserts that [`walk_accepted`] and [`walk_accepted_cells`] (the two walks, one for boards
/// mostly empty and one for boards mostly full) place the same pieces on the same squares and
/// say the same of `text`, a board field of `files` by `ranks` squares read by `decoder`.
#[cfg(test)]
pub(crate) fn check_walks_agree<P: Copy + PartialEq + std::fmt::Debug>(
    text: &str,
    files: usize,
    ranks: usize,
    decoder: &CellDecoder<P>,
) {
    let cap = files * ranks;
    let mut by_pieces = Vec::new();
    let (mut fed_a, mut fed_b) = (Vec::new(), Vec::new());
    let a =
        walk_accepted(text, files, ranks, decoder, |b| fed_a.push(b), |i, p| (i < cap).then(|| by_pieces.push((i, p))));
    let mut by_cells = vec![None; cap];
    let b = walk_accepted_cells(
        text,
        files,
        ranks,
        decoder,
        |b| fed_b.push(b),
        |i, p, _| {
            *by_cells.get_mut(i)? = p;
            Some(())
        },
    );
    assert_eq!(a, b, "{text:?}");
    // What each walk read is a start of the text, and all of it when the walk succeeds.
    for fed in [&fed_a, &fed_b] {
        assert!(text.as_bytes().starts_with(fed), "{text:?}: fed {fed:?}");
        assert!(a.is_none() || fed.len() == text.len(), "{text:?}: fed {fed:?}");
    }
    if a.is_some() {
        let placed: Vec<(usize, P)> = by_cells.iter().enumerate().filter_map(|(i, p)| Some((i, (*p)?))).collect();
        assert_eq!(by_pieces, placed, "{text:?}");
    }
}

/// [`check_walks_agree`] on each of `boards` and on each edit of one character of it: every
/// character deleted, and every byte of `alphabet` written over it or inserted before it.
#[cfg(test)]
pub(crate) fn check_walks_agree_under_edits<P: Copy + PartialEq + std::fmt::Debug>(
    boards: &[&str],
    alphabet: &[u8],
    files: usize,
    ranks: usize,
    decoder: &CellDecoder<P>,
) {
    for board in boards {
        check_walks_agree(board, files, ranks, decoder);
        for text in one_edit_away(board, alphabet) {
            check_walks_agree(&text, files, ranks, decoder);
        }
    }
}

/// Every text one character away from `text` (of ASCII): each character deleted, and each byte
/// of `alphabet` written over it or inserted before it (or at the end).
#[cfg(test)]
pub(crate) fn one_edit_away(text: &str, alphabet: &[u8]) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for i in 0..=b.len() {
        if i < b.len() {
            out.push([&b[..i], &b[i + 1..]].concat());
        }
        for &c in alphabet {
            out.push([&b[..i], &[c], &b[i..]].concat());
            if i < b.len() {
                out.push([&b[..i], &[c], &b[i + 1..]].concat());
            }
        }
    }
    out.into_iter().map(|t| String::from_utf8(t).expect("ASCII")).collect()
}

#[cfg(test)]
mod tests {
    use super::{ByteMap, Bytes, RankWidths};
    use crate::span::Span;

    /// A shogi board's widths: digits their value, letters one, `+` none.
    fn width(b: u8) -> Option<u32> {
        match b {
            b'1'..=b'9' => Some(u32::from(b - b'0')),
            b'+' => Some(0),
            b if b.is_ascii_alphabetic() => Some(1),
            _ => None,
        }
    }

    #[test]
    fn the_rank_of_each_byte_is_found_as_a_search_of_the_ranks_starts_finds_it() {
        let width = ByteMap::of(width);
        for record in
            ["lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "", "/", "9//9/ b", "x", "a/b/"]
        {
            let widths = RankWidths::of(record, 9, &width);
            for at in 0..record.len() + 3 {
                let searched = widths.ranks.partition_point(|&(start, _)| start <= at).saturating_sub(1);
                assert_eq!(widths.rank_of(at), searched, "{record:?} at {at}");
            }
        }
    }

    /// [`RankWidths::refuse`] by walking: each rank found by a search of the ranks' starts, and
    /// the bytes of the ranks an edit touches walked one by one.
    fn refuse_by_walking(widths: &RankWidths<'_>, text: &str, span: Span, written: &[u8]) -> bool {
        let rank_of = |at: usize| widths.ranks.partition_point(|&(start, _)| start <= at).saturating_sub(1);
        let rank_end = |i: usize| widths.ranks.get(i + 1).map_or(widths.end, |&(next, _)| next - 1);
        let wrong = |w: Option<u32>| RankWidths::is_wrong(w, widths.files);
        let Some(old) = text.as_bytes().get(span.start..span.end) else { return false };
        if old.iter().chain(written).any(|&b| b == b' ') {
            return false;
        }
        if old.iter().chain(written).any(|&b| b == b'/') {
            if span.end > widths.end {
                return false;
            }
            let (first, last) = (rank_of(span.start), rank_of(span.end));
            if widths.wrong > widths.ranks[first..=last].iter().filter(|&&(_, w)| wrong(w)).count() {
                return true;
            }
            let bytes = text.as_bytes();
            let start = widths.ranks[first].0;
            let end = rank_end(last);
            let (Some(before), Some(after)) = (bytes.get(start..span.start), bytes.get(span.end..end)) else {
                return false;
            };
            let mut width = Some(0u32);
            for &b in before.iter().chain(written).chain(after) {
                if b == b'/' {
                    if wrong(width) {
                        return true;
                    }
                    width = Some(0);
                } else {
                    width = width.zip(widths.width.get(b)).map(|(w, v)| w + v);
                }
            }
            return wrong(width);
        }
        let edited = (span.end <= widths.end).then(|| rank_of(span.start));
        if widths.wrong > usize::from(edited.is_some_and(|i| wrong(widths.ranks[i].1))) {
            return true;
        }
        // The edited rank, walked: wrong when all its characters have a width and they cover
        // other than the files of a rank.
        let Some(i) = edited else { return false };
        let start = widths.ranks[i].0;
        let bytes = text.as_bytes();
        let rank = [&bytes[start..span.start], written, &bytes[span.end..rank_end(i)]].concat();
        wrong(RankWidths::sum(&rank, widths.width))
    }

    /// The bytes the tests of [`RankWidths`] write: digits, the separators, and letters with a
    /// width and without one.
    const SLIP_BYTES: &[u8] = b"123456789/+ -bwBWkKpPrRx?";

    /// `f` of each of `records` with the widths of its ranks, as a board of eight files and of
    /// nine.
    fn each_widths(records: &[&str], mut f: impl FnMut(&str, &RankWidths<'_>)) {
        let width = ByteMap::of(width);
        for record in records {
            for files in [8, 9] {
                f(record, &RankWidths::of(record, files, &width));
            }
        }
    }

    #[test]
    fn an_edit_is_refused_as_walking_the_ranks_it_touches_refuses_it() {
        let mut refused = 0;
        let records = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/99/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/pp?pppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/pp?pppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN",
            "9/9/9/9/9/9/9/9/9/",
            "/9/",
            "",
        ];
        each_widths(&records, |record, widths| {
            let bytes = record.as_bytes();
            for at in 0..=bytes.len() {
                for end in at..=(at + 2).min(bytes.len()) {
                    let swapped: Vec<u8> = bytes[at..end].iter().rev().copied().collect();
                    for written in SLIP_BYTES.iter().map(|b| vec![*b]).chain([Vec::new(), b"/9".to_vec(), swapped]) {
                        let span = Span::new(at, end);
                        let walked = refuse_by_walking(widths, record, span, &written);
                        assert_eq!(widths.refuse(record, span, &written), walked, "{record:?} {span:?} {written:?}");
                        refused += usize::from(walked);
                    }
                }
            }
        });
        assert!(refused > 10_000, "{refused}");
    }

    /// Where [`RankWidths::only_writes`] names the slips of a place that may pass,
    /// [`RankWidths::refuse`] refuses every other slip there: the deletion, the swap, and every
    /// other byte written over the first character or before it. Places in a rank of the wrong
    /// width, in a rank of the right one beside it, and on boards with no rank wrong all count.
    #[test]
    fn a_place_refuses_every_slip_it_does_not_keep() {
        let (mut places, mut refused, mut kept_slips) = (0, 0, 0);
        let (mut only_apart, mut deletions) = (0, 0);
        let records = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5+R11/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R11/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/99/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/pp?pppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b/pp?pppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN",
            "9/9/9/9/9/9/9/9/9/",
            "",
        ];
        let apart = Bytes::of(b" /");
        each_widths(&records, |record, widths| {
            let (r, k) = super::refuses_all_not_kept(
                record,
                SLIP_BYTES,
                |span| widths.only_writes(record, span),
                |span, written| widths.refuse(record, span, written),
                |_, kept| {
                    places += 1;
                    only_apart += usize::from(kept.replace == apart && kept.insert == apart);
                    deletions += usize::from(kept.delete);
                },
            );
            (refused, kept_slips) = (refused + r, kept_slips + k);
        });
        assert!(places > 300 && refused > 10_000 && kept_slips > 1_000, "{places} places, {refused} slips");
        // Places that may take only a space or a `/`, places that may take more, and places in a
        // rank one square too wide, whose character's deletion may mend it.
        assert!(only_apart > 100 && places - only_apart > 80 && deletions > 10, "{places} places, {only_apart} apart, {deletions} deletions");
    }

    #[test]
    fn only_an_edit_of_the_wrong_rank_that_mends_it_is_let_through() {
        let record = "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let width = ByteMap::of(width);
        let widths = RankWidths::of(record, 9, &width);
        // `1r5b` covers eight squares: a `1` inserted mends it, a letter replaced does not.
        assert!(!widths.refuse(record, Span::point(14), b"1"));
        assert!(!widths.refuse(record, Span::new(12, 13), b"6"));
        assert!(widths.refuse(record, Span::new(13, 14), b"r"));
        // An edit elsewhere leaves it as it is.
        assert!(widths.refuse(record, Span::new(0, 1), b"k"));
        assert!(widths.refuse(record, Span::new(57, 58), b"w"));
        // A `/` written or removed makes new ranks of the bytes around it.
        assert!(widths.refuse(record, Span::point(12), b"/"));
        assert!(widths.refuse(record, Span::new(9, 10), b""));
        let joined = "lnsgkgsnl/1r5b1/ppppppppp/99/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let widths = RankWidths::of(joined, 9, &width);
        assert!(!widths.refuse(joined, Span::point(27), b"/"));
        assert!(widths.refuse(joined, Span::point(26), b"/"));
        assert!(widths.refuse(joined, Span::new(27, 28), b"/"));
        // A space written or removed is not judged here.
        assert!(!widths.refuse(record, Span::point(12), b" "));
        assert!(!widths.refuse(record, Span::new(56, 57), b""));
    }
}
