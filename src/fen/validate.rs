//! The rules a well-formed FEN record must still follow: canonical form (warnings) and what a
//! chess position can be (errors), each finding pointing at the squares or letters at fault.
//! Checks run only on the parts of a record that read without errors.

use std::borrow::Cow;

use super::ast::{Cell, Dialect, Placement, Record};
use super::model::square_span;
use crate::chess::{retro, CastleRight, CastleSide};
use crate::chess::{Board, Color, Piece, PieceSets, Role, Square, BACK_RANKS, LIGHT_SQUARES};
use crate::diagnostic::codes;
use crate::diagnostic::{Applicability, Diagnostic, Fix, Label};
use crate::notation::findings::{self, CheckWords, Checker};
use crate::span::{Span, Spanned};

/// Which fields of a record read without syntax errors.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sound {
    /// The active colour.
    pub side: bool,
    /// The castling field.
    pub castling: bool,
    /// The en passant field.
    pub en_passant: bool,
    /// The halfmove clock.
    pub halfmove: bool,
    /// The fullmove number.
    pub fullmove: bool,
}

/// Adds to `out` every canonical-form warning and every rule of chess that the sound parts of
/// `record` break; `board` is the record's board when its placement is sound.
pub fn check(record: &Record, board: Option<&Board>, sound: Sound, dialect: Dialect, out: &mut Vec<Diagnostic>) {
    // Form warnings about a placement with errors would only add noise.
    if let (Some(p), Some(_)) = (&record.placement, board) {
        check_blank_runs(p, out);
    }
    let castling = record.castling.as_ref().filter(|_| sound.castling);
    if let Some(c) = castling {
        check_castling_order(c, out);
    }
    let tally = board.map(Tally::of);
    let facts = Facts {
        board: board.zip(tally.as_ref()),
        side: record.side.filter(|_| sound.side),
        castling: castling.map(|c| c.rights.as_slice()),
        en_passant: record.en_passant.filter(|_| sound.en_passant),
        halfmove: record.halfmove.filter(|_| sound.halfmove),
        fullmove: record.fullmove.filter(|_| sound.fullmove),
    };
    match &record.placement {
        Some(p) => rules(&facts, &Tree(p), dialect, out),
        None => rules(&Facts { board: None, ..facts }, &Unplaced, dialect, out),
    }
}

/// What the rules judge: the parts of a record that read without errors (`None` for the
/// others), the board with its [`Tally`].
#[derive(Clone, Copy, Debug)]
pub struct Facts<'a> {
    /// The board, and its pieces counted.
    pub board: Option<(&'a Board, &'a Tally)>,
    /// The active colour.
    pub side: Option<Spanned<Color>>,
    /// The castling rights, as written.
    pub castling: Option<&'a [Spanned<CastleRight>]>,
    /// The en passant square.
    pub en_passant: Option<Spanned<Option<Square>>>,
    /// The halfmove clock.
    pub halfmove: Option<Spanned<u64>>,
    /// The fullmove number.
    pub fullmove: Option<Spanned<u64>>,
}

/// Where the findings of the rules point: a record's placement, or nowhere, for a position
/// read without its syntax tree ([`Unplaced`]), whose findings are only counted.
pub trait Places {
    /// The square `square` of the placement.
    fn square(&self, square: Square) -> Span;
    /// The whole placement.
    fn placement(&self) -> Span;
}

/// The places of a placement's squares.
struct Tree<'a>(&'a Placement);

impl Places for Tree<'_> {
    fn square(&self, square: Square) -> Span {
        square_span(self.0, square)
    }
    fn placement(&self) -> Span {
        self.0.span
    }
}

/// No places (see [`super::fast::clean`]).
pub struct Unplaced;

impl Places for Unplaced {
    fn square(&self, _: Square) -> Span {
        Span::default()
    }
    fn placement(&self) -> Span {
        Span::default()
    }
}

/// Adds to `out` every rule of chess that `facts` break, with spans from `places`: the clocks,
/// and with a board, its pieces, checks, castling rights and en passant square.
pub fn rules(facts: &Facts<'_>, places: &dyn Places, dialect: Dialect, out: &mut Vec<Diagnostic>) {
    if let (Some(h), Some(f), Some(side)) = (facts.halfmove, facts.fullmove, facts.side) {
        check_clocks(h, f, side, out);
    }
    let Some((board, tally)) = facts.board else { return };
    let at = |sq: Square| places.square(sq);
    let census = Census { board, tally };
    check_kings(&census, places.placement(), &at, out);
    check_pawns(&census, &at, out);
    check_material(&census, places.placement(), &at, out);
    check_checks(board, &census, facts.side, facts.en_passant, &at, out);
    if let Some(rights) = facts.castling {
        check_castling_rights(board, &census, rights, dialect, &at, out);
    }
    if let (Some(ep), Some(side)) = (facts.en_passant, facts.side) {
        check_en_passant(board, &census, ep, side, facts.halfmove, &at, out);
    }
}

/// True when castling rights are in the usual order (`fen::castling-order`): each after the
/// one before.
pub(super) fn castling_in_order(rights: impl Iterator<Item = CastleRight>) -> bool {
    let mut last = None;
    for right in rights {
        if last.is_some_and(|l| right < l) {
            return false;
        }
        last = Some(right);
    }
    true
}

/// The pieces of a board, counted for every check (nothing allocated): the checks look
/// further only where the counts show a fault. Counted in one pass over the board
/// ([`Tally::of`]), or square by square as a reader places the pieces ([`Tally::add_to_slot`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// The squares of each piece, and how many.
    sets: PieceSets,
}

impl Tally {
    /// Counts the piece of `slot` ([`PieceSets::slot`]) on `square`.
    #[inline]
    pub fn add_to_slot(&mut self, square: Square, slot: u8) {
        self.sets.add_to_slot(square, slot);
    }

    fn count(&self, color: Color, role: Role) -> usize {
        self.sets.count(color, role)
    }

    /// True when `color`'s material needs no explaining: at most 8 pawns and 16 pieces, and no
    /// more pieces beyond the starting set (bishops by the colour of their squares) than its
    /// missing pawns could have become. Otherwise the rules find an error in it.
    fn plain_material(&self, color: Color) -> bool {
        let light = (self.sets.of(color, Role::Bishop) & LIGHT_SQUARES).count_ones() as usize;
        let dark = self.count(color, Role::Bishop) - light;
        plain(|role| self.count(color, role), light.saturating_sub(1) + dark.saturating_sub(1))
    }

    /// True when some pawn stands on rank 1 or 8.
    fn back_pawn(&self) -> bool {
        (self.sets.of(Color::White, Role::Pawn) | self.sets.of(Color::Black, Role::Pawn)) & BACK_RANKS != 0
    }

    /// True when the counts alone show that the position breaks a rule: a side without a
    /// king or with two, a pawn on a back rank, or material no game can reach. [`rules`] then
    /// finds an error.
    pub fn breaks_counts(&self) -> bool {
        [Color::White, Color::Black]
            .into_iter()
            .any(|color| self.count(color, Role::King) != 1 || !self.plain_material(color))
            || self.back_pawn()
    }

    /// The tally of `board`.
    pub fn of(board: &Board) -> Self {
        Self { sets: PieceSets::of_board(board) }
    }
}

/// True when a side's material needs no explaining (see [`Tally::breaks_counts`]): at most 8
/// pawns and 16 pieces, and no more pieces beyond the starting set than its missing pawns could
/// have become, where `n` counts its pieces of a role and `bishops` are its bishops beyond one on
/// each colour of square.
fn plain(n: impl Fn(Role) -> usize, bishops: usize) -> bool {
    let count: usize = Role::ALL.iter().map(|&role| n(role)).sum();
    let extra = n(Role::Queen).saturating_sub(1)
        + n(Role::Rook).saturating_sub(2)
        + n(Role::Knight).saturating_sub(2)
        + bishops;
    n(Role::Pawn) <= 8 && count <= 16 && extra <= 8 - n(Role::Pawn)
}

/// True when pieces counted by colour and role alone (`counts`, by [`Color::index`] then
/// [`Role::index`]) break a rule wherever they stand: a side without exactly one king, or with
/// material no game reaches even with its bishops split as evenly as they can be between the
/// colours of the squares. [`rules`] then finds an error.
pub(crate) fn breaks_material(counts: &[[u32; 6]; 2]) -> bool {
    counts.iter().any(|side| {
        let n = |role: Role| side[role.index()] as usize;
        n(Role::King) != 1 || !plain(n, n(Role::Bishop).saturating_sub(2))
    })
}

/// A board and its [`Tally`].
struct Census<'a> {
    board: &'a Board,
    tally: &'a Tally,
}

impl std::ops::Deref for Census<'_> {
    type Target = Tally;

    fn deref(&self) -> &Tally {
        self.tally
    }
}

impl Census<'_> {
    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board.0.iter().enumerate().filter_map(|(i, p)| Some((Square::from_index(i)?, (*p)?)))
    }

    fn of_color(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces().filter(move |(_, p)| p.color == color)
    }

    fn squares(&self, color: Color, role: Role) -> Vec<Square> {
        self.of_color(color).filter(|(_, p)| p.role == role).map(|(s, _)| s).collect()
    }

    /// The squares of `by`'s pieces that attack `target` ([`Board::attackers`]), in order.
    fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        PieceSets::squares(self.sets.attackers(target, by)).collect()
    }

    /// The king of `color`, when it has exactly one.
    fn king(&self, color: Color) -> Option<Square> {
        let kings = self.sets.of(color, Role::King);
        PieceSets::squares(kings).next().filter(|_| self.count(color, Role::King) == 1)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn check_blank_runs(p: &Placement, out: &mut Vec<Diagnostic>) {
    for rank in &p.ranks {
        let cells = p.cells_of(rank);
        let mut start = 0;
        for i in 0..=cells.len() {
            let empty = cells.get(i).is_some_and(|c| matches!(c.node, Cell::Empty(_)));
            if empty && (i == start || cells[i - 1].node.splits_run(&cells[i].node)) {
                continue;
            }
            let run = &cells[start..i];
            let total: u32 = run.iter().map(|c| c.node.width()).sum();
            if run.len() > 1 && total <= 8 {
                let written: String = run.iter().map(|c| char::from(b'0' + c.node.width() as u8)).collect();
                let span = run[0].span.to(run[run.len() - 1].span);
                out.push(
                    Diagnostic::warning(
                        codes::fen::SPLIT_BLANK_RUN,
                        span,
                        format!("`{written}` writes one run of {total} blank squares as {}", run.len()),
                    )
                    .label("consecutive digits")
                    .help(format!("write `{total}`"))
                    .fix(Fix::replace(span, total.to_string(), Applicability::Safe)),
                );
            }
            start = i + 1;
        }
    }
}

fn check_castling_order(castling: &super::ast::Castling, out: &mut Vec<Diagnostic>) {
    let rights = &castling.rights;
    if castling_in_order(rights.iter().map(|r| r.node)) {
        return;
    }
    if let Some(pair) = rights.windows(2).find(|w| w[1].node < w[0].node) {
        let mut sorted: Vec<CastleRight> = rights.iter().map(|r| r.node).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let canonical: String = sorted.iter().map(|r| r.letter()).collect();
        out.push(
            Diagnostic::warning(
                codes::fen::CASTLING_ORDER,
                pair[1].span,
                "the castling rights are not in the usual order",
            )
            .label("out of order")
            .with(pair[0].span, "comes after this")
            .help(format!("FEN lists White's rights before Black's, king side first: write `{canonical}`"))
            .fix(Fix::replace(castling.span, canonical, Applicability::Safe)),
        );
    }
}

fn check_clocks(h: Spanned<u64>, f: Spanned<u64>, side: Spanned<Color>, out: &mut Vec<Diagnostic>) {
    let plies = f.node.saturating_sub(1).saturating_mul(2).saturating_add(u64::from(side.node == Color::Black));
    if h.node > plies {
        out.push(
            Diagnostic::warning(
                codes::fen::HALFMOVE_TOO_LARGE,
                h.span,
                format!("the halfmove clock is {}, but only {} half-moves have been played by move {}", h.node, plies, f.node),
            )
            .label("more than the moves played")
            .with(f.span, "the fullmove number")
            .help("the halfmove clock counts half-moves since the last capture or pawn move: it cannot exceed the half-moves of the game"),
        );
    }
}

fn check_kings(census: &Census<'_>, placement: Span, at: &dyn Fn(Square) -> Span, out: &mut Vec<Diagnostic>) {
    for color in [Color::White, Color::Black] {
        if census.count(color, Role::King) == 1 {
            continue;
        }
        let kings = census.squares(color, Role::King);
        match kings.as_slice() {
            [] => out.push(
                Diagnostic::error(codes::fen::MISSING_KING, placement, format!("{} has no king", color.name()))
                    .label(format!("no {} on the board", if color == Color::White { "`K`" } else { "`k`" }))
                    .help("each side has exactly one king"),
            ),
            [_] => {}
            [first, .., last] => {
                let mut d = Diagnostic::error(
                    codes::fen::TOO_MANY_KINGS,
                    at(*last),
                    format!("{} has {} kings", color.name(), kings.len()),
                )
                .label("another king")
                .with(at(*first), format!("king on {first}"));
                for sq in &kings[1..kings.len() - 1] {
                    d = d.with(at(*sq), format!("king on {sq}"));
                }
                out.push(d.help("each side has exactly one king: remove the others"));
            }
        }
    }
}

fn check_pawns(census: &Census<'_>, at: &dyn Fn(Square) -> Span, out: &mut Vec<Diagnostic>) {
    if !census.back_pawn() {
        return;
    }
    for (sq, piece) in census.pieces().filter(|(sq, p)| p.role == Role::Pawn && (sq.rank() == 1 || sq.rank() == 8)) {
        out.push(
            Diagnostic::error(
                codes::fen::PAWN_ON_BACK_RANK,
                at(sq),
                format!("a {} stands on {sq}, on rank {}", piece.describe(), sq.rank()),
            )
            .label("a pawn on the first or last rank")
            .help("pawns start on rank 2 or 7 and promote on reaching the last rank: no pawn stands on rank 1 or 8"),
        );
    }
}

fn check_material(census: &Census<'_>, placement: Span, at: &dyn Fn(Square) -> Span, out: &mut Vec<Diagnostic>) {
    for color in [Color::White, Color::Black] {
        if census.plain_material(color) {
            continue; // the common case: nothing to explain
        }
        let count: usize = Role::ALL.iter().map(|&role| census.count(color, role)).sum();
        let pawns = census.squares(color, Role::Pawn);
        if pawns.len() > 8 {
            let mut d = Diagnostic::error(
                codes::fen::TOO_MANY_PAWNS,
                at(pawns[pawns.len() - 1]),
                format!("{} has {} pawns; a side has 8", color.name(), pawns.len()),
            )
            .label("pawn number 9 or more");
            for sq in &pawns[8..pawns.len() - 1] {
                d = d.with(at(*sq), "another pawn past the eighth");
            }
            out.push(d.help(format!("remove {}", plural(pawns.len() - 8, "pawn", "pawns"))));
        }
        if count > 16 {
            out.push(
                Diagnostic::error(
                    codes::fen::TOO_MANY_PIECES,
                    placement,
                    format!("{} has {count} pieces; a side has 16", color.name()),
                )
                .label(format!("{count} {} pieces", color.name()))
                .help(format!("remove {}", plural(count - 16, "piece", "pieces"))),
            );
        }
        // More than 16 pieces always means more than the missing pawns could have become: the
        // count is the one fault.
        if pawns.len() > 8 || count > 16 {
            continue;
        }
        check_promotions(census, color, pawns.len(), at, out);
    }
}

/// Pieces of `color` beyond the starting set must be promoted pawns: no more of them than its
/// missing pawns (it has `pawns`). Bishops count by the colour of their squares.
fn check_promotions(
    census: &Census<'_>,
    color: Color,
    pawns: usize,
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    let squares = |role| census.squares(color, role);
    let bishops = squares(Role::Bishop);
    let light: Vec<Square> = bishops.iter().copied().filter(|s| s.is_light()).collect();
    let dark: Vec<Square> = bishops.iter().copied().filter(|s| !s.is_light()).collect();
    let groups: [(&str, Vec<Square>, usize); 5] = [
        ("queens", squares(Role::Queen), 1),
        ("rooks", squares(Role::Rook), 2),
        ("knights", squares(Role::Knight), 2),
        ("light-squared bishops", light, 1),
        ("dark-squared bishops", dark, 1),
    ];
    let extra: usize = groups.iter().map(|(_, sqs, n)| sqs.len().saturating_sub(*n)).sum();
    let missing = 8 - pawns;
    if extra > missing {
        let over: Vec<&(&str, Vec<Square>, usize)> = groups.iter().filter(|(_, s, n)| s.len() > *n).collect();
        let words: Vec<String> = over.iter().map(|(name, s, _)| format!("{} {name}", s.len())).collect();
        let last = over.iter().filter_map(|(_, s, _)| s.last()).max().copied();
        let Some(last) = last else { return };
        let mut d = Diagnostic::error(
            codes::fen::IMPOSSIBLE_MATERIAL,
            at(last),
            format!(
                "{} has {}: {} beyond the starting set, but only {} of its pawns {} missing",
                color.name(),
                words.join(", "),
                plural(extra, "piece", "pieces"),
                missing,
                if missing == 1 { "is" } else { "are" }
            ),
        )
        .label("beyond the starting set");
        for (_, sqs, n) in &over {
            for sq in sqs.iter().skip(*n).filter(|s| **s != last) {
                d = d.with(at(*sq), "beyond the starting set");
            }
        }
        out.push(d.help("each piece beyond a side's starting set (one queen, two rooks, two knights, a bishop on each colour) is a promoted pawn, so it needs a missing pawn"));
    }
}

/// The checks no game reaches: the side not to move in check, or the mover checked by more
/// pieces (or in other ways) than one move brings about. With an en passant square the last
/// move is known, and [`check_after_double_step`] judges the checks instead of the search for a
/// last move ([`crate::chess::retro`]).
fn check_checks(
    board: &Board,
    census: &Census<'_>,
    side: Option<Spanned<Color>>,
    en_passant: Option<Spanned<Option<Square>>>,
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    let Some(side) = side else { return };
    let (mover, waiting) = (side.node, side.node.opponent());
    let far = |a: Square, king: Square| board.checks_from_afar(a, king);
    let last_move_known = en_passant.is_some_and(|ep| ep.node.is_some());
    // A king next to the other is the finding of the side not to move in check.
    let king = |a: Square| board.get(a).is_some_and(|p| p.role == Role::King);
    let no_last_move = |a: Square, b: Square, king_sq: Square| {
        !last_move_known && !king(a) && !king(b) && !retro::some_last_move(board, king_sq, waiting)
    };
    findings::check_checks(
        &CHECK_WORDS,
        [census.king(waiting), census.king(mover)],
        |king, movers| census.attackers(king, if movers { waiting } else { mover }),
        |checkers, king| {
            match *checkers {
            [] | [_] => None,
            [a, b] if !far(a, king) && !far(b, king) => Some(Cow::Borrowed(
                "a double check needs a check along a line that the other piece's move uncovered, and neither piece checks from afar along a line",
            )),
            [a, b] if aligned(a, b, king) => {
                Some(Cow::Borrowed("two pieces cannot check along the same line from both sides: one move uncovers one line"))
            }
            [a, b] if no_last_move(a, b, king) => Some(Cow::Owned(findings::no_last_move(waiting.name(), mover.name()))),
            [_, _] => None,
            _ => Some(Cow::Borrowed("one move gives check with at most two pieces")),
        }
        },
        |sq| Checker {
            span: at(sq),
            name: format!("{} on {sq}", board.get(sq).map_or_else(String::new, Piece::describe)),
        },
        (side.span, mover.name(), waiting.name()),
        out,
    );
}

const CHECK_WORDS: CheckWords =
    CheckWords::new(codes::fen::OPPOSITE_CHECK, codes::fen::IMPOSSIBLE_CHECK, "active colour");

/// True when `a` and `b` lie on one line through `king`, on opposite sides of it.
fn aligned(a: Square, b: Square, king: Square) -> bool {
    let d = |s: Square| (i16::from(s.file()) - i16::from(king.file()), i16::from(s.rank()) - i16::from(king.rank()));
    let ((af, ar), (bf, br)) = (d(a), d(b));
    af * br == ar * bf && (af * bf + ar * br) < 0
}

/// What stands in the way of one castling right: the king's square (when its king is there),
/// the rook's square, and each problem with the square it is about.
struct RightCheck {
    king: Option<Square>,
    rook: Option<Square>,
    problems: Vec<(Option<Square>, String)>,
}

fn check_right(board: &Board, right: CastleRight, dialect: Dialect) -> RightCheck {
    let color = right.color;
    let rank = color.back_rank();
    let has = |sq: Option<Square>, role: Role| {
        sq.and_then(|s| board.get(s)).is_some_and(|p| p.color == color && p.role == role)
    };
    let (king_sq, rook_sq) = castle_squares(board, right, dialect);
    let mut problems = Vec::new();
    match king_sq {
        Some(k) if has(Some(k), Role::King) && dialect == Dialect::Chess960 && (k.file() == 0 || k.file() == 7) => {
            problems.push((
                Some(k),
                format!("the {} king on {k} stands on an edge file, not between two rooks", color.name()),
            ));
        }
        Some(k) if has(Some(k), Role::King) => {}
        Some(k) => problems.push((Some(k), format!("no {} king on {k}", color.name()))),
        None => problems.push((None, format!("no {} king on rank {rank}", color.name()))),
    }
    // Without its king, the rook of a Chess960 right cannot be told: the king is the fault.
    let king = king_sq.filter(|k| has(Some(*k), Role::King));
    match rook_sq {
        Some(r) if has(Some(r), Role::Rook) => {}
        Some(r) => problems.push((Some(r), format!("no {} rook on {r}", color.name()))),
        None if king.is_some() => problems.push((None, format!("no {} rook on that side of the king", color.name()))),
        None => {}
    }
    RightCheck { king, rook: rook_sq, problems }
}

/// The side a right castles to, in words: "king-side", "b-file".
fn side_name(side: CastleSide) -> String {
    match side {
        CastleSide::King => "king-side".to_owned(),
        CastleSide::Queen => "queen-side".to_owned(),
        CastleSide::File(std::cmp::Reverse(f)) => format!("{}-file", (b'a' + f) as char),
    }
}

/// A castling right whose king and rook stand where it says: the colour, whether the rook is
/// on the king's side (a higher file), the rook's square, and the right as written.
type Named<'a> = (Color, bool, Option<Square>, &'a Spanned<CastleRight>);

fn check_castling_rights(
    board: &Board,
    census: &Census<'_>,
    rights: &[Spanned<CastleRight>],
    dialect: Dialect,
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    // The rook each right names, per colour and side of the king, to find two rights for one
    // rook or one side.
    let mut named: smallvec::SmallVec<[Named<'_>; 4]> = smallvec::SmallVec::new();
    // Where in `out` the finding of a colour's king away from its square is.
    let mut king_faults: Vec<(Color, usize, String)> = Vec::new();
    for right in rights {
        let color = right.node.color;
        // A side without a king is its own finding; its rights fall with it.
        if census.count(color, Role::King) == 0 {
            continue;
        }
        let RightCheck { king, rook, problems } = check_right(board, right.node, dialect);
        // A right already at fault is not counted again as a second right on its side.
        if let (Some(k), Some(r), true) = (king, rook, problems.is_empty()) {
            named.push((color, r.file() > k.file(), Some(r), right));
        }
        if problems.is_empty() {
            continue;
        }
        let side_name = side_name(right.node.side);
        // A king away from its square is one fault, whatever rights it takes away.
        let king_fault = king.is_none();
        let earlier = king_faults.iter_mut().find(|(c, ..)| king_fault && *c == color);
        if let Some((first, letters)) = earlier.and_then(|(_, i, letters)| Some((out.get_mut(*i)?, letters))) {
            letters.push(right.node.letter());
            first.message = format!("{} cannot castle: {}", color.name(), problems[0].1);
            first.help = Some(format!(
                "castling needs the king on its starting square: remove `{letters}`, or put the king back"
            ));
            first.labels.push(Label {
                span: right.span,
                message: format!("{side_name} castling right"),
                primary: false,
            });
            for (sq, message) in problems.iter().skip(1) {
                if let Some(sq) = sq {
                    first.labels.push(Label { span: at(*sq), message: message.clone(), primary: false });
                }
            }
            continue;
        }
        if king_fault {
            king_faults.push((color, out.len(), right.node.letter().to_string()));
        }
        let mut d = Diagnostic::error(
            codes::fen::CASTLING_RIGHTS,
            right.span,
            format!(
                "{} cannot castle {side_name}: {}",
                color.name(),
                problems.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>().join(" and ")
            ),
        )
        .label(format!("{side_name} castling right"));
        for (sq, message) in &problems {
            if let Some(sq) = sq {
                d = d.with(at(*sq), message.clone());
            }
        }
        out.push(d.help(format!(
            "castling needs the king and the rook on their starting squares: remove `{}`, or put them back",
            right.node.letter()
        )));
    }
    check_castling_repeats(&named, out);
}

/// Where the king and the rook must stand for `right` in `dialect` (in Chess960, where the king
/// stands on the back rank and the rook that right names).
fn castle_squares(board: &Board, right: CastleRight, dialect: Dialect) -> (Option<Square>, Option<Square>) {
    let color = right.color;
    let square = |file: u8| Square::new(file, color.back_rank());
    let has = |sq: Option<Square>, role: Role| {
        sq.and_then(|s| board.get(s)).is_some_and(|p| p.color == color && p.role == role)
    };
    match dialect {
        Dialect::Standard => {
            let rook_file = if right.side == CastleSide::King { 7 } else { 0 };
            (square(4), square(rook_file))
        }
        Dialect::Chess960 => {
            let king = (0..8).map(square).find(|s| has(*s, Role::King)).flatten();
            let rook = match (right.side, king.map(Square::file)) {
                (CastleSide::File(std::cmp::Reverse(f)), _) => square(f),
                (CastleSide::King, Some(k)) => ((k + 1)..8).rev().map(square).find(|s| has(*s, Role::Rook)).flatten(),
                (CastleSide::Queen, Some(k)) => (0..k).map(square).find(|s| has(*s, Role::Rook)).flatten(),
                (_, None) => None,
            };
            (king, rook)
        }
    }
}

/// One right per side of the king: two letters for one rook, or two rooks on one side. `named`
/// holds each right's colour, whether its rook is on the king's side, and the rook.
fn check_castling_repeats(named: &[Named<'_>], out: &mut Vec<Diagnostic>) {
    for (i, (color, king_side, rook, right)) in named.iter().enumerate() {
        let Some(first) = named[..i].iter().find(|(c, k, _, _)| c == color && k == king_side) else { continue };
        let side = if *king_side { "king" } else { "queen" };
        let message = if first.2 == *rook {
            format!("`{}` and `{}` name the same {} rook", first.3.node.letter(), right.node.letter(), color.name())
        } else {
            format!("{} has two castling rights on its {side} side", color.name())
        };
        out.push(
            Diagnostic::error(codes::fen::CASTLING_REPEAT, right.span, message)
                .label("a second right on this side")
                .with(first.3.span, "the first")
                .help("a side castles at most once on each side of its king: keep one of these letters")
                .fix(Fix::replace(right.span, "", Applicability::Unsafe)),
        );
    }
}

fn check_en_passant(
    board: &Board,
    census: &Census<'_>,
    ep: Spanned<Option<Square>>,
    side: Spanned<Color>,
    halfmove: Option<Spanned<u64>>,
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    let Some(sq) = ep.node else { return };
    let mover = side.node;
    let pusher = mover.opponent();
    // The pawn that just made a double step passed over `sq`: it stands one rank further on.
    let (expected_rank, forward) = if pusher == Color::White { (3, 1) } else { (6, -1) };
    if sq.rank() != expected_rank {
        out.push(
            Diagnostic::error(
                codes::fen::EP_RANK,
                ep.span,
                format!(
                    "{sq} is on rank {}, but after a {} move the en passant square is on rank {expected_rank}",
                    sq.rank(),
                    pusher.name()
                ),
            )
            .label(format!("not on rank {expected_rank}"))
            .with(side.span, format!("{} to move", mover.name()))
            .help(format!(
                "the en passant square is behind the pawn {} just pushed two squares: on rank {expected_rank}, or `-`",
                pusher.name()
            ))
            .fix(Fix::replace(ep.span, "-", Applicability::Unsafe)),
        );
        return;
    }
    let pawn_sq = sq.offset(0, forward);
    let from_sq = sq.offset(0, -forward);
    let has_pawn = pawn_sq.and_then(|s| board.get(s)).is_some_and(|p| p.color == pusher && p.role == Role::Pawn);
    if let (false, Some(p)) = (has_pawn, pawn_sq) {
        out.push(
            Diagnostic::error(
                codes::fen::EP_NO_PAWN,
                ep.span,
                format!("there is no {} pawn on {p} that could just have passed over {sq}", pusher.name()),
            )
            .label("en passant square")
            .with(at(p), format!("no {} pawn here", pusher.name()))
            .help("an en passant square is set only right after a pawn's double step: fix the square, or write `-`")
            .fix(Fix::replace(ep.span, "-", Applicability::Unsafe)),
        );
    }
    for s in [Some(sq), from_sq].into_iter().flatten() {
        if let Some(piece) = board.get(s) {
            out.push(
                Diagnostic::error(codes::fen::EP_BLOCKED, at(s), format!("a {} stands on {s}, which the double-stepping pawn just crossed", piece.describe()))
                    .label("should be empty")
                    .with(ep.span, "en passant square")
                    .help("after a double step the square passed over and the square it came from are empty: fix the placement, or write `-`"),
            );
        }
    }
    if let (true, Some(pawn), Some(from)) = (has_pawn, pawn_sq, from_sq) {
        check_after_double_step(board, census, ep.span, pawn, from, side, at, out);
    }
    if let Some(h) = halfmove.filter(|h| h.node != 0) {
        let message = format!("the halfmove clock is {}, but a pawn has just moved", h.node);
        out.push(
            Diagnostic::error(codes::fen::EP_HALFMOVE, h.span, message)
                .label("should be 0")
                .with(ep.span, "en passant square: a pawn just moved")
                .help("a pawn move resets the halfmove clock: write `0`")
                .fix(Fix::replace(h.span, "0", Applicability::Safe)),
        );
    }
}

/// True when `x` lies strictly between `a` and `b` on a line (a rank, file or diagonal).
fn between(a: Square, b: Square, x: Square) -> bool {
    let d =
        |s: Square, t: Square| (i16::from(t.file()) - i16::from(s.file()), i16::from(t.rank()) - i16::from(s.rank()));
    let ((bf, br), (xf, xr)) = (d(a, b), d(a, x));
    let steps = |f: i16, r: i16| f.abs().max(r.abs());
    bf * xr == br * xf
        && bf.signum() == xf.signum()
        && br.signum() == xr.signum()
        && 0 < steps(xf, xr)
        && steps(xf, xr) < steps(bf, br)
}

/// With an en passant square the last move was a pawn's double step from `from` to `pawn`:
/// any check on the side to move came from that pawn or along a line its move opened.
#[allow(clippy::too_many_arguments)]
fn check_after_double_step(
    board: &Board,
    census: &Census<'_>,
    ep_span: Span,
    pawn: Square,
    from: Square,
    side: Spanned<Color>,
    at: &dyn Fn(Square) -> Span,
    out: &mut Vec<Diagnostic>,
) {
    let mover = side.node;
    let Some(king) = census.king(mover) else { return };
    let checkers = census.attackers(king, mover.opponent());
    let unexplained: Vec<Square> = checkers
        .iter()
        .copied()
        .filter(|c| *c != pawn && !(board.checks_from_afar(*c, king) && between(*c, king, from)))
        .collect();
    let Some(first) = unexplained.first() else { return };
    let what = board.get(*first).map_or_else(String::new, Piece::describe);
    let mut d = Diagnostic::error(
        codes::fen::IMPOSSIBLE_CHECK,
        at(king),
        format!(
            "{}'s king on {king} is in check from the {what} on {first}, which the last move cannot have given",
            mover.name()
        ),
    )
    .label("in check");
    for sq in &unexplained {
        let what = board.get(*sq).map_or_else(String::new, Piece::describe);
        d = d.with(at(*sq), format!("{what} on {sq} gives check"));
    }
    out.push(d.with(ep_span, format!("the last move was a pawn's double step to {pawn}")).help(
        "after a double step only the pawn itself, or a line its move opened, can give check: fix the position or the en passant square",
    ));
}
