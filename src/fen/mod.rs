//! FEN: Forsyth-Edwards Notation for chess positions (the FEN description), its Chess960 castling
//! letters, and EPD.
//!
//! The same layers as [`crate::sfen`]: the grammar (`grammar/fen.pest`) → the syntax tree
//! ([`Record`]) → the position ([`Position`]) → findings ([`check`]) → text.
//!
//! ```
//! use kifu::fen::{self, Dialect, Kind};
//!
//! let checked = fen::check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Kind::Fen, Dialect::Standard);
//! assert!(checked.diagnostics.is_empty());
//! let checked = fen::check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", Kind::Fen, Dialect::Standard);
//! assert_eq!(checked.diagnostics[0].code, "fen::missing-field");
//! ```

pub(crate) mod ast;
machinery! { mod build; }
pub(crate) mod display;
machinery! { mod fast; }
pub(crate) mod model;
pub(crate) mod notation;
machinery! { mod parser; }
mod shape;
mod token;
pub(crate) mod validate;

use std::str::FromStr;

pub use ast::{Dialect, Record};
pub use model::Position;

use crate::diagnostic::Diagnostic;
use crate::notation::foreign;

/// Which record rule to read: FEN's six fields, or EPD's four and operations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Six fields.
    #[default]
    Fen,
    /// Four fields, then operations.
    Epd,
}

/// The title of records of `kind` in `dialect`: "FEN", "Chess960 FEN", "EPD", "Chess960 EPD".
pub fn title(kind: Kind, dialect: Dialect) -> &'static str {
    match (kind, dialect) {
        (Kind::Fen, Dialect::Standard) => "FEN",
        (Kind::Fen, Dialect::Chess960) => "Chess960 FEN",
        (Kind::Epd, Dialect::Standard) => "EPD",
        (Kind::Epd, Dialect::Chess960) => "Chess960 EPD",
    }
}

/// What records of `kind` in `dialect` look like, to tell a line that is none
/// (`crate::notation::foreign`).
pub(crate) fn shape(kind: Kind, dialect: Dialect) -> &'static foreign::Shape {
    static SHAPES: [std::sync::OnceLock<foreign::Shape>; 4] = [const { std::sync::OnceLock::new() }; 4];
    SHAPES[kind as usize * 2 + dialect as usize].get_or_init(|| foreign::Shape {
        // EPD's first four fields are FEN's; what follows them is operations.
        alphabet: foreign::alphabet_of(fast::automaton(Kind::Fen, dialect)),
        fields: match kind {
            Kind::Fen => 6,
            Kind::Epd => 4,
        },
        width: 8,
        usi: false,
        code: crate::diagnostic::codes::fen::NOT_A_RECORD,
        title: title(kind, dialect),
        example: match kind {
            Kind::Fen => build::START,
            Kind::Epd => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        },
    })
}

/// A record read and checked.
pub type Checked = crate::checked::Checked<Record, Position>;

/// The syntax tree of `text` and its syntax faults: the fast reader's, or the builder's.
fn read(text: &str, kind: Kind, dialect: Dialect) -> (Record, Vec<Diagnostic>) {
    fast::read(text, kind, dialect).unwrap_or_else(|| build::build(text, kind, dialect))
}

/// Reads and checks one record (a line without its end of line). The safe fixes of an invalid
/// record's findings are tried (see [`vet_fixes`](crate::diagnostic::vet_fixes)). A line that
/// is no record, and no slip of one, gets one report that says what it is instead
/// (`crate::notation::foreign`).
pub fn check(text: &str, kind: Kind, dialect: Dialect) -> Checked {
    let (record, diagnostics) = match fast::read(text, kind, dialect) {
        Some(read) => read,
        // A line that no slip of a record explains gets one report, which says what it is.
        None => match foreign::line(text, shape(kind, dialect)) {
            Some(looks) => {
                let record = Record { span: crate::span::Span::new(0, text.len()), ..Record::default() };
                let diagnostics = vec![foreign::report(text, shape(kind, dialect), looks, None)];
                return Checked { record, position: None, syntax_ok: false, diagnostics };
            }
            None => build::build(text, kind, dialect),
        },
    };
    let syntax = crate::notation::repair::syntax_faults(&diagnostics);
    let mut checked = judge(record, diagnostics, dialect);
    if !checked.is_valid() {
        repaired(text, kind, dialect, &mut checked.diagnostics, syntax);
    }
    checked
}

/// [`check`] without looking for repairs: each fault as the reading and the rules find it. For
/// a record kifu wrote from another notation (a JSON position), whose text is not the one its
/// author typed, and for the fields of a record written elsewhere (a PSN header's board).
pub fn check_without_repair(text: &str, kind: Kind, dialect: Dialect) -> Checked {
    let (record, diagnostics) = read(text, kind, dialect);
    let mut checked = judge(record, diagnostics, dialect);
    if !checked.is_valid() {
        vet(text, kind, dialect, &mut checked.diagnostics, false);
    }
    checked
}

/// An invalid record's findings folded into the fault its repair undoes
/// ([`crate::notation::repair`]), and its safe fixes vetted: kept out of the way of valid
/// records. `syntax` are the places of the faults its reading found.
#[cold]
fn repaired(
    text: &str,
    kind: Kind,
    dialect: Dialect,
    diagnostics: &mut Vec<Diagnostic>,
    syntax: Vec<crate::span::Span>,
) {
    fold_repairs(text, kind, dialect, diagnostics, syntax);
    vet(text, kind, dialect, diagnostics, true);
}

/// An invalid record's findings folded into the fault its repair undoes.
fn fold_repairs(
    text: &str,
    kind: Kind,
    dialect: Dialect,
    diagnostics: &mut Vec<Diagnostic>,
    syntax: Vec<crate::span::Span>,
) {
    if let Some(automaton) = fast::automaton(kind, dialect) {
        // A FEN candidate (which the automaton accepted) is judged by the rules alone, without
        // its syntax tree, when it can be read straight from its bytes in canonical form.
        let full = |t: &str| {
            let checked = fast::parse(t, kind, dialect).map(|r| judge(r, Vec::new(), dialect))?;
            let numbers = |p: &Position| (kind == Kind::Fen).then_some((p.halfmove, p.fullmove));
            let likeness = checked.position.as_ref().map(|p| p.board.likeness(p.side, &p.castling, numbers(p)))?;
            checked.warnings_if_valid().map(|w| (w, likeness))
        };
        // A candidate that edits one rank of a FEN record is read from that rank alone.
        let near = if kind == Kind::Fen { fast::Near::of(text) } else { None };
        // Of two repairs as good by the rules, the one nearer a game's likeliest boards.
        let valid = |t: &str| {
            let (warnings, likeness) = match kind {
                Kind::Fen => near
                    .as_ref()
                    .and_then(|near| near.verdict(t, dialect))
                    .or_else(|| fast::verdict(t, dialect))
                    .unwrap_or_else(|| full(t)),
                Kind::Epd => full(t),
            }?;
            Some(crate::notation::repair::cost(warnings, likeness))
        };
        // A candidate is refused at once when a rank is left of the wrong width, or an edit of
        // the placement leaves a side without one king or with material no game reaches.
        let ranks = crate::notation::grid::RankWidths::of(text, 8, fast::square_widths());
        let material = fast::Material::of(text);
        let refuse = crate::notation::grid::Refusals {
            text,
            ranks,
            other: |span, written: &[u8]| material.refuse(text, span, written),
        };
        crate::notation::repair::repair(text, diagnostics, syntax, automaton, refuse, valid);
    }
}

/// The vetting of [`check`]'s safe fixes: the record each makes is read again, with its repairs
/// folded when `repairs` (so that a repair the fix leaves sure is a safe fix it brings).
fn vet(text: &str, kind: Kind, dialect: Dialect, diagnostics: &mut [Diagnostic], repairs: bool) {
    crate::diagnostic::vet_fixes(text, diagnostics, |fixed| {
        // The record a safe fix makes is most often clean: told as `Format::check_text` tells a
        // clean FEN record, straight from its bytes; the others (and EPD records) in full.
        if kind == Kind::Fen && fast::is_clean(fixed, dialect) {
            return Vec::new();
        }
        let (record, diagnostics) = read(fixed, kind, dialect);
        let syntax = crate::notation::repair::syntax_faults(&diagnostics);
        let mut checked = judge(record, diagnostics, dialect);
        if repairs && !checked.is_valid() {
            fold_repairs(fixed, kind, dialect, &mut checked.diagnostics, syntax);
        }
        checked.diagnostics
    });
}

/// Checks a syntax tree by the rules of chess, after the syntax faults found in reading it
/// (`diagnostics`).
#[inline]
fn judge(record: Record, mut diagnostics: Vec<Diagnostic>, dialect: Dialect) -> Checked {
    let syntax_ok = !diagnostics.iter().any(Diagnostic::is_error);
    let faulty = |span: Option<crate::span::Span>| span.is_none_or(|s| !crate::diagnostic::is_sound(s, &diagnostics));
    let sound = validate::Sound {
        side: !faulty(record.side.map(|s| s.span)),
        castling: !faulty(record.castling.as_ref().map(|c| c.span)),
        en_passant: !faulty(record.en_passant.map(|e| e.span)),
        halfmove: !faulty(record.halfmove.map(|h| h.span)),
        fullmove: !faulty(record.fullmove.map(|f| f.span)),
    };
    let board = record.placement.as_ref().filter(|p| !faulty(Some(p.span))).and_then(model::board_of);
    validate::check(&record, board.as_ref(), sound, dialect, &mut diagnostics);
    let position = board.filter(|_| syntax_ok).and_then(|b| Position::with_board(&record, b));
    Checked { record, position, diagnostics, syntax_ok }
}

/// Reads a six-field FEN (standard or Chess960 castling) into a position, which may still break
/// the rules of chess (see [`check`] for those).
impl FromStr for Position {
    type Err = crate::diagnostic::ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::notation::parsed(read(s, Kind::Fen, Dialect::Chess960), Position::from_record, "FEN")
    }
}

/// What a rule matches, in words, for "expected …" messages.
pub fn rule_words(rule: parser::Rule) -> &'static str {
    use parser::Rule;
    match rule {
        Rule::fen_record | Rule::fen960_record => "a FEN record",
        Rule::epd_record | Rule::epd960_record => "an EPD record",
        Rule::placement | Rule::placement_lenient => "the piece placement",
        Rule::fen_rank | Rule::rank_lenient => "a rank",
        Rule::blank_run => "a digit 1-8 (blank squares)",
        Rule::fen_piece => "a piece letter (P N B R Q K or p n b r q k)",
        Rule::active_color | Rule::active_color_field => "`w` or `b`",
        Rule::castling | Rule::castling960 | Rule::castling_lenient => "the castling rights, or `-`",
        Rule::castling_right => "a castling right (K Q k q)",
        Rule::castling960_right => "a castling right (K Q k q, or a rook's file A-H a-h)",
        Rule::en_passant | Rule::ep_field => "an en passant square, or `-`",
        Rule::ep_square => "a square on rank 3 or 6",
        Rule::halfmove_clock => "the halfmove clock",
        Rule::fullmove_number => "the fullmove number",
        Rule::epd_operations | Rule::epd_operations_field => "EPD operations",
        Rule::epd_operation => "an operation (`opcode operand…;`)",
        Rule::epd_opcode => "an opcode",
        Rule::epd_operand => "an operand",
        Rule::epd_string_char | Rule::epd_bare_first | Rule::epd_bare_char => "a character",
        Rule::blank_zero | Rule::blank_nine | Rule::bad_fen_square => "a square",
        Rule::castling_dash | Rule::bad_castling_char => "a castling right",
        Rule::gap | Rule::SPACE => "a space",
        Rule::integer | Rule::natural | Rule::counter_lenient => "a number",
        Rule::field => "a field",
        Rule::line => "a line",
        Rule::EOI => "the end of the record",
    }
}

#[cfg(test)]
mod tests {
    use super::{check, Dialect, Kind};
    use crate::notation::grid::one_edit_away;
    use crate::notation::repair::testing::same_reports_slip_by_slip;

    /// The search takes whole a place whose slips the refusals refuse all but a few of (a
    /// place in a rank of the right width when another is of the wrong one, in the one rank of
    /// a wrong width, or after the placement when a rank is of a wrong width), and finds what
    /// the search slip by slip finds, so the same reports: on FEN records, and on a long EPD
    /// record whose search runs out of budget.
    #[test]
    fn a_place_taken_whole_is_searched_as_slip_by_slip() {
        let record = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        let texts: Vec<String> = one_edit_away(record, b"18pP/ ").into_iter().step_by(5).collect();
        let taken = same_reports_slip_by_slip(&texts, |t| check(t, Kind::Fen, Dialect::Standard).diagnostics);
        assert!(taken > 100, "only {taken} places taken whole, over {} records", texts.len());

        let operations = "bm Nf3; id \"a record whose operations run on and on\"; c0 \"so that a search of it \
                          runs out of its budget before it has tried every slip of it\"; c1 \"more\";";
        // A pawn on the last rank too: with a rank of the wrong width, no one slip mends it.
        let epd = format!("Pnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 {operations}");
        // Edits of the placement only.
        let after_placement = |t: &str| t.split_once(' ').map(|(_, rest)| rest.to_owned());
        let texts: Vec<String> = one_edit_away(&epd, b"18pP")
            .into_iter()
            .filter(|t| after_placement(t) == after_placement(&epd))
            .step_by(3)
            .collect();
        let taken = same_reports_slip_by_slip(&texts, |t| check(t, Kind::Epd, Dialect::Standard).diagnostics);
        assert!(taken > 50, "only {taken} places taken whole, over {} records", texts.len());
    }
}
