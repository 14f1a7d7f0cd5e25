//! The words for the faults of a board's shape; [`crate::notation::grid::Grid::check_shape`]
//! finds them.

use super::ast::{BoardField, Cell};
use crate::diagnostic::codes;
use crate::diagnostic::Diagnostic;
use crate::notation::grid::{Row, ShapeWords, Size};
use crate::shogi::{rank_letter, Piece};
use crate::span::{Span, Spanned};

/// A shogi board: nine ranks of nine squares.
pub(crate) struct Shape;

fn s(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

impl ShapeWords<Piece> for Shape {
    const SIZE: Size = Size::new(9, 9, codes::sfen::RANK_COUNT, "board", "nine ranks have eight separators");
    const EMPTY_RANK: (crate::diagnostic::Code, &'static str, &'static str) =
        (codes::sfen::EMPTY_RANK, "9", "nine empty squares");

    fn rank_name(index: usize) -> String {
        if index < 9 {
            format!("rank {}", rank_letter(index as u8 + 1))
        } else {
            format!("rank {} (past rank i)", index + 1)
        }
    }

    /// Eight ranks of eight squares is a chess board: one finding says so, not eight.
    fn foreign(board: &BoardField) -> bool {
        board.ranks.len() == 8 && board.ranks.iter().all(|r| board.width(r) == 8)
    }

    fn too_wide(index: usize, width: u32, over: Option<&Spanned<Cell>>, rank: &Row) -> Diagnostic {
        let over_span = over.map_or(rank.span, |c| c.span);
        let square_label = match over.map(|c| c.node) {
            Some(Cell::Empty(1)) => "this empty square runs past file 1".to_owned(),
            Some(Cell::Empty(k)) => format!("these {k} empty squares run past file 1"),
            _ => "square 10: past file 1".to_owned(),
        };
        let name = Self::rank_name(index);
        Diagnostic::error(
            codes::sfen::RANK_WIDTH,
            over_span,
            format!("{name} covers {width} square{}; a rank has 9", s(width)),
        )
        .label(square_label)
        .with(rank.span, format!("{width} squares"))
        .help(format!(
            "remove {} square{} from {name}, or split it where a `/` is missing",
            width - 9,
            s(width - 9)
        ))
    }

    fn too_narrow(index: usize, width: u32, rank: &Row) -> Diagnostic {
        let missing = 9 - width;
        let name = Self::rank_name(index);
        Diagnostic::error(
            codes::sfen::RANK_WIDTH,
            rank.span,
            format!("{name} covers {width} square{}; a rank has 9", s(width)),
        )
        .label(format!("{width} square{}, {missing} short", s(width)))
        .help(format!(
            "add the {missing} missing square{} (a digit counts empty squares, as in `{missing}`)",
            s(missing)
        ))
    }

    fn too_many(n: usize, extra: Span, last: Span) -> Diagnostic {
        Diagnostic::error(
            codes::sfen::RANK_COUNT,
            extra,
            format!("the board has {n} ranks; a shogi board has 9 (a to i)"),
        )
        .label(format!("{} rank{} too many", n - 9, if n == 10 { "" } else { "s" }))
        .with(last, "rank i, the last")
        .help("remove the extra ranks, or join ranks split by a stray `/`")
    }

    fn too_few(n: usize, span: Span, chess: bool) -> Diagnostic {
        let help = if chess {
            "this looks like a chess FEN (eight ranks of eight squares): check it with `--format fen`".to_owned()
        } else {
            format!("a board lists nine ranks, a (top) to i, with eight `/` between them; {} missing", 9 - n)
        };
        Diagnostic::error(
            codes::sfen::RANK_COUNT,
            span,
            format!("the board has {n} rank{}; a shogi board has 9", s(n as u64)),
        )
        .label(format!("{n} rank{}", s(n as u64)))
        .help(help)
    }
}
