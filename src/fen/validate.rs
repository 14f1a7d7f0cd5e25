//! The rules a well-formed FEN record must still follow: canonical form (warnings) and what a
//! chess position can be (errors), each finding pointing at the squares or letters at fault.
//! Checks run only on the parts of a record that read without errors.

use std::borrow::Cow;

use super::ast::{Cell, Dialect, Placement, Record};
use super::model::square_span;
use crate::chess::violation::{self, Tally};
use crate::chess::{Beyond, CastleRight, CastleSide, CastlingMode, ImpossibleCheck, RightProblem, Violation};
use crate::chess::{Board, Color, Piece, Square};
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
    rules(&facts, record.placement.as_ref(), dialect, out);
}

/// What the rules judge: the parts of a record that read without errors (`None` for the
/// others), the board with its [`Tally`].
#[derive(Clone, Copy, Debug)]
pub struct Facts<'a> {
    /// The board, and its pieces counted.
    pub(crate) board: Option<(&'a Board, &'a Tally)>,
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

/// Adds to `out` every rule of chess that `facts` break: the clocks, and with a board (and
/// the `placement` that writes it, for the places of its squares), its pieces, checks, castling
/// rights and en passant square ([`crate::chess::Violation`], each said in FEN's words).
fn rules(facts: &Facts<'_>, placement: Option<&Placement>, dialect: Dialect, out: &mut Vec<Diagnostic>) {
    if let Some((h, f, plies)) = excess_halfmove(facts) {
        out.push(halfmove_too_large(h, f, plies));
    }
    let (Some((board, tally)), Some(placement)) = (facts.board, placement) else { return };
    let words = Words { board, facts, placement };
    // A king away from its square is one fault, whatever rights it takes away: where in `out`
    // the finding of its first right is, per colour, and the letters of the rights it takes.
    let mut king_faults: Vec<(Color, usize, String)> = Vec::new();
    for v in &violations(facts, board, tally, dialect) {
        if let Violation::CastlingRight { right, problems } = v {
            let right_written = words.right(*right).node;
            if problems.iter().any(|p| p.king_away()) {
                match king_faults.iter_mut().find(|(c, ..)| *c == right_written.color) {
                    Some((_, at, letters)) => {
                        if let Some(first) = out.get_mut(*at) {
                            words.fold_king_away(first, letters, *right, problems);
                        }
                        continue;
                    }
                    None => king_faults.push((right_written.color, out.len(), right_written.letter().to_string())),
                }
            }
        }
        out.push(words.say(v));
    }
}

/// The number of warnings the rules find in `facts` (the clocks), or `None` when they break a
/// rule of chess: what [`rules`] finds, told without a word of it.
pub(crate) fn verdict(facts: &Facts<'_>, dialect: Dialect) -> Option<usize> {
    let warnings = usize::from(excess_halfmove(facts).is_some());
    let Some((board, tally)) = facts.board else { return Some(warnings) };
    if tally.breaks_counts() || !violations(facts, board, tally, dialect).is_empty() {
        return None;
    }
    Some(warnings)
}

/// The rules of chess that `facts`, whose board is `board` (counted in `tally`), break. The
/// fullmove number is left out: the reading reports a move 0 (`fen::fullmove-zero`).
fn violations(facts: &Facts<'_>, board: &Board, tally: &Tally, dialect: Dialect) -> Vec<Violation> {
    let rights: smallvec::SmallVec<[CastleRight; 4]> =
        facts.castling.unwrap_or_default().iter().map(|r| r.node).collect();
    let chess = violation::Facts {
        board,
        side: facts.side.map(|s| s.node),
        castling: facts.castling.map(|_| rights.as_slice()),
        en_passant: facts.en_passant.map(|e| e.node),
        halfmove: facts.halfmove.map(|h| h.node),
        fullmove: None,
    };
    violation::violations(&chess, tally, mode(dialect))
}

/// How a FEN dialect's castling letters name their rooks.
fn mode(dialect: Dialect) -> CastlingMode {
    match dialect {
        Dialect::Standard => CastlingMode::Standard,
        Dialect::Chess960 => CastlingMode::Chess960,
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

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The half-moves played before move `fullmove` with `side` to move.
fn plies(fullmove: u64, side: Color) -> u64 {
    fullmove.saturating_sub(1).saturating_mul(2).saturating_add(u64::from(side == Color::Black))
}

/// The halfmove clock, the fullmove number and the half-moves played by that move, when the
/// clock counts more half-moves than were played.
fn excess_halfmove(facts: &Facts<'_>) -> Option<(Spanned<u64>, Spanned<u64>, u64)> {
    let (h, f, side) = (facts.halfmove?, facts.fullmove?, facts.side?);
    let plies = plies(f.node, side.node);
    (h.node > plies).then_some((h, f, plies))
}

fn halfmove_too_large(h: Spanned<u64>, f: Spanned<u64>, plies: u64) -> Diagnostic {
    Diagnostic::warning(
        codes::fen::HALFMOVE_TOO_LARGE,
        h.span,
        format!("the halfmove clock is {}, but only {} half-moves have been played by move {}", h.node, plies, f.node),
    )
    .label("more than the moves played")
    .with(f.span, "the fullmove number")
    .help("the halfmove clock counts half-moves since the last capture or pawn move: it cannot exceed the half-moves of the game")
}

const CHECK_WORDS: CheckWords =
    CheckWords::new(codes::fen::OPPOSITE_CHECK, codes::fen::IMPOSSIBLE_CHECK, "active colour");

/// What FEN says of the rules of chess a record breaks: the board, the record's fields and
/// where its squares are written.
struct Words<'a> {
    board: &'a Board,
    facts: &'a Facts<'a>,
    placement: &'a Placement,
}

impl Words<'_> {
    fn at(&self, square: Square) -> Span {
        square_span(self.placement, square)
    }

    /// The side to move (the rules judge checks and the en passant square only when it is
    /// known).
    fn side(&self) -> Spanned<Color> {
        self.facts.side.unwrap_or_else(|| Spanned::new(Color::White, Span::default()))
    }

    fn describe(&self, square: Square) -> String {
        self.board.get(square).map_or_else(String::new, Piece::describe)
    }

    fn en_passant_span(&self) -> Span {
        self.facts.en_passant.map_or_else(Span::default, |e| e.span)
    }

    /// The finding of `violation`, any but a castling right's ([`Words::castling_right`]).
    fn say(&self, violation: &Violation) -> Diagnostic {
        match violation {
            Violation::MissingKing { color } => Diagnostic::error(
                codes::fen::MISSING_KING,
                self.placement.span,
                format!("{} has no king", color.name()),
            )
            .label(format!("no {} on the board", if *color == Color::White { "`K`" } else { "`k`" }))
            .help("each side has exactly one king"),
            Violation::TooManyKings { color, kings } => self.too_many_kings(*color, kings),
            Violation::PawnOnBackRank { square, piece } => Diagnostic::error(
                codes::fen::PAWN_ON_BACK_RANK,
                self.at(*square),
                format!("a {} stands on {square}, on rank {}", piece.describe(), square.rank()),
            )
            .label("a pawn on the first or last rank")
            .help("pawns start on rank 2 or 7 and promote on reaching the last rank: no pawn stands on rank 1 or 8"),
            Violation::TooManyPawns { color, pawns } => self.too_many_pawns(*color, pawns),
            Violation::TooManyPieces { color, count } => Diagnostic::error(
                codes::fen::TOO_MANY_PIECES,
                self.placement.span,
                format!("{} has {count} pieces; a side has 16", color.name()),
            )
            .label(format!("{count} {} pieces", color.name()))
            .help(format!("remove {}", plural(count - 16, "piece", "pieces"))),
            Violation::ImpossibleMaterial { color, beyond, extra, missing } => {
                self.impossible_material(*color, beyond, (*extra, *missing))
            }
            Violation::OppositeCheck { king, checkers } => self.opposite_check(*king, checkers),
            Violation::ImpossibleCheck { king, checkers, cause } => self.impossible_check(*king, checkers, *cause),
            Violation::CheckAfterDoubleStep { king, checkers, pawn } => {
                self.check_after_double_step(*king, checkers, *pawn)
            }
            Violation::CastlingRepeat { first, second, same_rook, king_side } => {
                self.castling_repeat((*first, *second), *same_rook, *king_side)
            }
            Violation::EnPassantRank { square } => self.en_passant_rank(*square),
            Violation::EnPassantNoPawn { square, pawn } => self.en_passant_no_pawn(*square, *pawn),
            Violation::EnPassantBlocked { square, piece } => Diagnostic::error(
                codes::fen::EP_BLOCKED,
                self.at(*square),
                format!("a {} stands on {square}, which the double-stepping pawn just crossed", piece.describe()),
            )
            .label("should be empty")
            .with(self.en_passant_span(), "en passant square")
            .help("after a double step the square passed over and the square it came from are empty: fix the placement, or write `-`"),
            Violation::EnPassantHalfmove { halfmove } => {
                let h = self.facts.halfmove.map_or_else(Span::default, |h| h.span);
                Diagnostic::error(
                    codes::fen::EP_HALFMOVE,
                    h,
                    format!("the halfmove clock is {halfmove}, but a pawn has just moved"),
                )
                .label("should be 0")
                .with(self.en_passant_span(), "en passant square: a pawn just moved")
                .help("a pawn move resets the halfmove clock: write `0`")
                .fix(Fix::replace(h, "0", Applicability::Safe))
            }
            Violation::CastlingRight { right, problems } => self.castling_right(*right, problems),
            // The reading says a move 0 (it leaves the number out of the facts the rules judge).
            Violation::FullmoveZero => Diagnostic::error(
                codes::fen::FULLMOVE_ZERO,
                self.facts.fullmove.map_or_else(Span::default, |f| f.span),
                "the fullmove number starts at 1",
            ),
        }
    }

    fn too_many_pawns(&self, color: Color, pawns: &[Square]) -> Diagnostic {
        let mut d = Diagnostic::error(
            codes::fen::TOO_MANY_PAWNS,
            self.at(pawns[pawns.len() - 1]),
            format!("{} has {} pawns; a side has 8", color.name(), pawns.len()),
        )
        .label("pawn number 9 or more");
        for sq in &pawns[8..pawns.len() - 1] {
            d = d.with(self.at(*sq), "another pawn past the eighth");
        }
        d.help(format!("remove {}", plural(pawns.len() - 8, "pawn", "pawns")))
    }

    fn opposite_check(&self, king: Square, checkers: &[Square]) -> Diagnostic {
        let side = self.side();
        let (mover, waiting) = (side.node, side.node.opponent());
        findings::opposite_check(
            CHECK_WORDS.opposite,
            (self.at(king), king.to_string()),
            &self.checkers(checkers),
            (side.span, mover.name(), waiting.name()),
            CHECK_WORDS.side_field,
        )
    }

    fn impossible_check(&self, king: Square, checkers: &[Square], cause: ImpossibleCheck) -> Diagnostic {
        let mover = self.side().node;
        let why = match cause {
            ImpossibleCheck::TwoClose => Cow::Borrowed(
                "a double check needs a check along a line that the other piece's move uncovered, and neither piece checks from afar along a line",
            ),
            ImpossibleCheck::Aligned => Cow::Borrowed(
                "two pieces cannot check along the same line from both sides: one move uncovers one line",
            ),
            ImpossibleCheck::NoLastMove => Cow::Owned(findings::no_last_move(mover.opponent().name(), mover.name())),
            ImpossibleCheck::MoreThanTwo => Cow::Borrowed("one move gives check with at most two pieces"),
        };
        let at = (self.at(king), king.to_string());
        findings::impossible_check(CHECK_WORDS.impossible, at, mover.name(), &self.checkers(checkers), &why)
    }

    fn en_passant_no_pawn(&self, square: Square, pawn: Square) -> Diagnostic {
        let pusher = self.side().node.opponent();
        let ep = self.en_passant_span();
        Diagnostic::error(
            codes::fen::EP_NO_PAWN,
            ep,
            format!("there is no {} pawn on {pawn} that could just have passed over {square}", pusher.name()),
        )
        .label("en passant square")
        .with(self.at(pawn), format!("no {} pawn here", pusher.name()))
        .help("an en passant square is set only right after a pawn's double step: fix the square, or write `-`")
        .fix(Fix::replace(ep, "-", Applicability::Unsafe))
    }

    fn too_many_kings(&self, color: Color, kings: &[Square]) -> Diagnostic {
        let (first, last) = (kings[0], kings[kings.len() - 1]);
        let mut d = Diagnostic::error(
            codes::fen::TOO_MANY_KINGS,
            self.at(last),
            format!("{} has {} kings", color.name(), kings.len()),
        )
        .label("another king")
        .with(self.at(first), format!("king on {first}"));
        for sq in &kings[1..kings.len() - 1] {
            d = d.with(self.at(*sq), format!("king on {sq}"));
        }
        d.help("each side has exactly one king: remove the others")
    }

    /// Pieces of `color` beyond the starting set, `beyond`, more (`extra`) than its `missing`
    /// pawns. Bishops count by the colour of their squares.
    fn impossible_material(
        &self,
        color: Color,
        beyond: &[(Beyond, Vec<Square>)],
        (extra, missing): (usize, usize),
    ) -> Diagnostic {
        let name = |kind: Beyond| match kind {
            Beyond::Queens => "queens",
            Beyond::Rooks => "rooks",
            Beyond::Knights => "knights",
            Beyond::LightBishops => "light-squared bishops",
            Beyond::DarkBishops => "dark-squared bishops",
        };
        let words: Vec<String> = beyond.iter().map(|(kind, s)| format!("{} {}", s.len(), name(*kind))).collect();
        // The piece named last in the record.
        let last = beyond.iter().filter_map(|(_, s)| s.last()).max().copied();
        let mut d = Diagnostic::error(
            codes::fen::IMPOSSIBLE_MATERIAL,
            last.map_or_else(|| self.placement.span, |sq| self.at(sq)),
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
        for (kind, sqs) in beyond {
            for sq in sqs.iter().skip(kind.in_set()).filter(|s| Some(**s) != last) {
                d = d.with(self.at(*sq), "beyond the starting set");
            }
        }
        d.help("each piece beyond a side's starting set (one queen, two rooks, two knights, a bishop on each colour) is a promoted pawn, so it needs a missing pawn")
    }

    /// The pieces that give check, named and placed.
    fn checkers(&self, checkers: &[Square]) -> Vec<Checker> {
        checkers
            .iter()
            .map(|&sq| Checker { span: self.at(sq), name: format!("{} on {sq}", self.describe(sq)) })
            .collect()
    }

    /// With an en passant square the last move was a pawn's double step to `pawn`: any check
    /// on the side to move came from that pawn or along a line its move opened.
    fn check_after_double_step(&self, king: Square, unexplained: &[Square], pawn: Square) -> Diagnostic {
        let mover = self.side().node;
        let first = unexplained[0];
        let mut d = Diagnostic::error(
            codes::fen::IMPOSSIBLE_CHECK,
            self.at(king),
            format!(
                "{}'s king on {king} is in check from the {} on {first}, which the last move cannot have given",
                mover.name(),
                self.describe(first)
            ),
        )
        .label("in check");
        for sq in unexplained {
            d = d.with(self.at(*sq), format!("{} on {sq} gives check", self.describe(*sq)));
        }
        d.with(self.en_passant_span(), format!("the last move was a pawn's double step to {pawn}")).help(
            "after a double step only the pawn itself, or a line its move opened, can give check: fix the position or the en passant square",
        )
    }

    /// The right at `i` in the list as written.
    fn right(&self, i: usize) -> Spanned<CastleRight> {
        self.facts.castling.and_then(|r| r.get(i)).copied().unwrap_or_else(|| {
            Spanned::new(CastleRight { color: Color::White, side: CastleSide::King }, Span::default())
        })
    }

    /// What keeps the castling right at `i` from standing, `problems`, in words, each with the
    /// square it is about.
    fn problems(&self, i: usize, problems: &[RightProblem]) -> Vec<(Option<Square>, String)> {
        let color = self.right(i).node.color;
        problems.iter().map(|p| (p.square(), problem_words(*p, color))).collect()
    }

    /// The finding of the castling right at `i`, kept from standing by `problems`.
    fn castling_right(&self, i: usize, problems: &[RightProblem]) -> Diagnostic {
        let right = self.right(i);
        let words = self.problems(i, problems);
        let side_name = side_name(right.node.side);
        let mut d = Diagnostic::error(
            codes::fen::CASTLING_RIGHTS,
            right.span,
            format!(
                "{} cannot castle {side_name}: {}",
                right.node.color.name(),
                words.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>().join(" and ")
            ),
        )
        .label(format!("{side_name} castling right"));
        for (sq, message) in &words {
            if let Some(sq) = sq {
                d = d.with(self.at(*sq), message.clone());
            }
        }
        d.help(format!(
            "castling needs the king and the rook on their starting squares: remove `{}`, or put them back",
            right.node.letter()
        ))
    }

    /// Folds the castling right at `i`, taken away by its king away from home (`problems`),
    /// into `first`, the finding of the first right that king takes away; `letters` are the
    /// rights folded so far, and gain this one.
    fn fold_king_away(&self, first: &mut Diagnostic, letters: &mut String, i: usize, problems: &[RightProblem]) {
        let right = self.right(i);
        let words = self.problems(i, problems);
        letters.push(right.node.letter());
        first.message = format!("{} cannot castle: {}", right.node.color.name(), words[0].1);
        first.help =
            Some(format!("castling needs the king on its starting square: remove `{letters}`, or put the king back"));
        first.labels.push(Label {
            span: right.span,
            message: format!("{} castling right", side_name(right.node.side)),
            primary: false,
        });
        for (sq, message) in words.iter().skip(1) {
            if let Some(sq) = sq {
                first.labels.push(Label { span: self.at(*sq), message: message.clone(), primary: false });
            }
        }
    }

    /// Two rights, at `first` and `second`, on one side of a king.
    fn castling_repeat(&self, (first, second): (usize, usize), same_rook: bool, king_side: bool) -> Diagnostic {
        let (first, right) = (self.right(first), self.right(second));
        let color = right.node.color;
        let side = if king_side { "king" } else { "queen" };
        let message = if same_rook {
            format!("`{}` and `{}` name the same {} rook", first.node.letter(), right.node.letter(), color.name())
        } else {
            format!("{} has two castling rights on its {side} side", color.name())
        };
        Diagnostic::error(codes::fen::CASTLING_REPEAT, right.span, message)
            .label("a second right on this side")
            .with(first.span, "the first")
            .help("a side castles at most once on each side of its king: keep one of these letters")
            .fix(Fix::replace(right.span, "", Applicability::Unsafe))
    }

    /// The en passant square `square` is not on the rank the side that just moved passes over.
    fn en_passant_rank(&self, square: Square) -> Diagnostic {
        let side = self.side();
        let (mover, pusher) = (side.node, side.node.opponent());
        let expected_rank = if pusher == Color::White { 3 } else { 6 };
        let ep = self.en_passant_span();
        Diagnostic::error(
            codes::fen::EP_RANK,
            ep,
            format!(
                "{square} is on rank {}, but after a {} move the en passant square is on rank {expected_rank}",
                square.rank(),
                pusher.name()
            ),
        )
        .label(format!("not on rank {expected_rank}"))
        .with(side.span, format!("{} to move", mover.name()))
        .help(format!(
            "the en passant square is behind the pawn {} just pushed two squares: on rank {expected_rank}, or `-`",
            pusher.name()
        ))
        .fix(Fix::replace(ep, "-", Applicability::Unsafe))
    }
}

/// What keeps a castling right of `color` from standing, in words.
fn problem_words(problem: RightProblem, color: Color) -> String {
    match problem {
        RightProblem::KingOnEdge(k) => {
            format!("the {} king on {k} stands on an edge file, not between two rooks", color.name())
        }
        RightProblem::NoKing(k) => format!("no {} king on {k}", color.name()),
        RightProblem::NoKingOnRank => format!("no {} king on rank {}", color.name(), color.back_rank()),
        RightProblem::NoRook(r) => format!("no {} rook on {r}", color.name()),
        RightProblem::NoRookOnSide => format!("no {} rook on that side of the king", color.name()),
    }
}

/// The side a right castles to, in words: "king-side", "b-file".
fn side_name(side: CastleSide) -> String {
    match side {
        CastleSide::King => "king-side".to_owned(),
        CastleSide::Queen => "queen-side".to_owned(),
        CastleSide::File(std::cmp::Reverse(f)) => format!("{}-file", (b'a' + f) as char),
    }
}
