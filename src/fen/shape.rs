//! The words for the faults of a placement's shape; [`crate::notation::grid::Grid::check_shape`]
//! finds them.

use super::ast::Cell;
use crate::chess::Piece;
use crate::diagnostic::codes;
use crate::diagnostic::Diagnostic;
use crate::notation::grid::{Row, ShapeWords, Size};
use crate::span::{Span, Spanned};

/// A chess board: eight ranks of eight squares.
pub(crate) struct Shape;

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl ShapeWords<Piece> for Shape {
    const SIZE: Size = Size::new(8, 8, codes::fen::RANK_COUNT, "placement", "eight ranks have seven separators");
    const EMPTY_RANK: (crate::diagnostic::Code, &'static str, &'static str) =
        (codes::fen::EMPTY_RANK, "8", "eight blank squares");

    fn rank_name(index: usize) -> String {
        if index < 8 {
            format!("rank {}", 8 - index)
        } else {
            format!("the {}th rank written (past rank 1)", index + 1)
        }
    }

    fn too_wide(index: usize, width: u32, over: Option<&Spanned<Cell>>, rank: &Row) -> Diagnostic {
        let (over_span, what) = match over {
            Some(c) if matches!(c.node, Cell::Fault { width: 9 }) => {
                (c.span, "`9`: more blank squares than a rank has".to_owned())
            }
            Some(c) => (c.span, "runs past file h".to_owned()),
            None => (rank.span, String::new()),
        };
        let name = Self::rank_name(index);
        Diagnostic::error(codes::fen::RANK_WIDTH, over_span, format!("{name} covers {width} squares; a rank has 8"))
            .label(what)
            .with(rank.span, plural(width, "square", "squares"))
            .help(format!("remove {} from {name}", plural(width - 8, "square", "squares")))
    }

    fn too_narrow(index: usize, width: u32, rank: &Row) -> Diagnostic {
        let name = Self::rank_name(index);
        Diagnostic::error(
            codes::fen::RANK_WIDTH,
            rank.span,
            format!("{name} covers {}; a rank has 8", plural(width, "square", "squares")),
        )
        .label(format!("{} short", 8 - width))
        .help(format!(
            "add the missing {} (a digit counts blank squares, as in `{}`)",
            plural(8 - width, "square", "squares"),
            8 - width
        ))
    }

    fn too_many(n: usize, extra: Span, last: Span) -> Diagnostic {
        Diagnostic::error(codes::fen::RANK_COUNT, extra, format!("the placement has {n} ranks; a chess board has 8"))
            .label(format!("{} too many", plural((n - 8) as u32, "rank", "ranks")))
            .with(last, "rank 1, the last")
            .help("remove the extra ranks (a Crazyhouse pocket after a ninth `/` is not standard FEN)")
    }

    fn too_few(n: usize, span: Span, _: bool) -> Diagnostic {
        Diagnostic::error(
            codes::fen::RANK_COUNT,
            span,
            format!("the placement has {}; a chess board has 8", plural(n as u32, "rank", "ranks")),
        )
        .label(plural(n as u32, "rank", "ranks"))
        .help(format!("the placement lists ranks 8 to 1, with seven `/` between them; {} missing", 8 - n))
    }
}
