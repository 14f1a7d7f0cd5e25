//! Findings that chess and shogi share, in one wording: a king in check when it should not be,
//! and checks that no move can give. The games' validators decide when; these say it.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// A piece that gives check: where it is written and how to call it ("Black rook on 5b").
pub struct Checker {
    /// The characters that write it.
    pub span: Span,
    /// Its colour, kind and square.
    pub name: String,
}

/// The side not to move is in check: the side to move could take its king.
pub fn opposite_check(
    code: crate::diagnostic::Code,
    king: (Span, String),
    checkers: &[Checker],
    side: (Span, &str, &str),
    side_field: &str,
) -> Diagnostic {
    let (span, square) = king;
    let (side_span, mover, waiting) = side;
    let mut d =
        Diagnostic::error(code, span, format!("{waiting}'s king on {square} is in check, but it is {mover}'s turn"))
            .label("in check");
    for c in checkers {
        d = d.with(c.span, format!("{} gives check", c.name));
    }
    d.with(side_span, format!("{mover} to move")).help(format!(
        "{mover} could capture the king: fix the position, or the {side_field} if it is {waiting}'s turn"
    ))
}

/// The side to move is in check by more pieces than one move can bring about: `why` says why.
pub fn impossible_check(
    code: crate::diagnostic::Code,
    king: (Span, String),
    mover: &str,
    checkers: &[Checker],
    why: &str,
) -> Diagnostic {
    let (span, square) = king;
    let mut d = Diagnostic::error(
        code,
        span,
        format!("{mover}'s king on {square} is checked by {} pieces, which no move can bring about", checkers.len()),
    )
    .label("in check");
    for c in checkers {
        d = d.with(c.span, format!("{} gives check", c.name));
    }
    d.help(format!("{why}: this position cannot arise in a game"))
}

/// Why two checks no last move gives are impossible ([`impossible_check`]'s `why`), when the
/// side `waiting` just moved and `mover`'s king is in check.
pub fn no_last_move(waiting: &str, mover: &str) -> String {
    format!(
        "{waiting} has no last move that gives both checks, as every move that could lead here starts with {mover}'s king already in check"
    )
}

/// A game's codes and words for the check findings.
pub struct CheckWords {
    /// The code of [`opposite_check`].
    pub opposite: crate::diagnostic::Code,
    /// The code of [`impossible_check`].
    pub impossible: crate::diagnostic::Code,
    /// What the record calls the side field: "side to move", "active colour".
    pub side_field: &'static str,
}

impl CheckWords {
    /// The codes of [`opposite_check`] and [`impossible_check`], and the side field's name.
    pub const fn new(
        opposite: crate::diagnostic::Code,
        impossible: crate::diagnostic::Code,
        side_field: &'static str,
    ) -> Self {
        Self { opposite, impossible, side_field }
    }
}
