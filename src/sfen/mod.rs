//! SFEN: Shogi Forsyth-Edwards Notation, in the 2007 spec's dialect and in USI's.
//!
//! Text flows one way through these layers: the grammar (`grammar/sfen.pest`) → the syntax
//! tree ([`Record`]) → the position ([`Position`]) → findings ([`check`]) → text. A record with
//! no finding at all needs no tree: a fast path derived from the grammar reads it from the bytes
//! the grammar's automaton accepted straight into its position, and runs the same rules on it.
//!
//! ```
//! use kifu::sfen::{self, DialectChoice};
//!
//! let checked = sfen::check("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", DialectChoice::Auto);
//! assert!(checked.diagnostics.is_empty());
//!
//! let checked = sfen::check("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1", DialectChoice::Auto);
//! assert_eq!(checked.diagnostics[0].code, "sfen::rank-width");
//! ```

machinery! { mod ast; }
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
use parser::Rule;

/// Which dialect to read records in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DialectChoice {
    /// Either; each record is read in the dialect its side letter names.
    #[default]
    Auto,
    /// SFEN spec 0.0.1 (2007) only.
    Sfen2007,
    /// USI only.
    Usi,
}

impl FromStr for DialectChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Self::Auto),
            "sfen2007" => Ok(Self::Sfen2007),
            "usi" => Ok(Self::Usi),
            other => Err(format!("unknown SFEN dialect `{other}`: expected auto, sfen2007 or usi")),
        }
    }
}

/// A record read and checked.
pub type Checked = crate::checked::Checked<Record, Position>;

/// Reads and checks one record (a line without its end of line). The safe fixes of an invalid
/// record's findings are tried (see [`vet_fixes`](crate::diagnostic::vet_fixes)). A line that
/// is no record, and no slip of one, gets one report that says what it is instead
/// (`crate::notation::foreign`).
#[inline]
pub fn check(text: &str, choice: DialectChoice) -> Checked {
    let (record, diagnostics) = match fast::read(text, choice) {
        Some(read) => read,
        // A line that no slip of a record explains gets one report, which says what it is.
        None => match foreign::line(text, shape(choice)) {
            Some(looks) => {
                let record = Record { span: crate::span::Span::new(0, text.len()), ..Record::default() };
                let diagnostics = vec![foreign::report(text, shape(choice), looks, None)];
                return Checked { record, position: None, syntax_ok: false, diagnostics };
            }
            None => build::build(text, choice),
        },
    };
    let syntax = crate::notation::repair::syntax_faults(&diagnostics);
    let mut checked = judge(record, diagnostics);
    if !checked.is_valid() {
        repaired(text, choice, &mut checked.diagnostics, syntax);
    }
    checked
}

/// The title of records read in `choice`: "SFEN", "USI", "SFEN 2007".
pub fn title(choice: DialectChoice) -> &'static str {
    match choice {
        DialectChoice::Auto => "SFEN",
        DialectChoice::Usi => "USI",
        DialectChoice::Sfen2007 => "SFEN 2007",
    }
}

/// What SFEN records in `choice` look like, to tell a line that is none
/// (`crate::notation::foreign`).
pub(crate) fn shape(choice: DialectChoice) -> &'static foreign::Shape {
    static SHAPES: [std::sync::OnceLock<foreign::Shape>; 3] = [const { std::sync::OnceLock::new() }; 3];
    SHAPES[choice as usize].get_or_init(|| foreign::Shape {
        alphabet: foreign::alphabet_of(fast::automaton(choice)),
        fields: 4,
        width: 9,
        usi: true,
        code: crate::diagnostic::codes::sfen::NOT_A_RECORD,
        title: title(choice),
        example: build::START,
    })
}

/// [`check`] without looking for repairs: each fault as the reading and the rules find it. For
/// a record kifu wrote from another notation (a JSON position), whose text is not the one its
/// author typed, and for the fields of a record written elsewhere (a PSN header's board).
pub fn check_without_repair(text: &str, choice: DialectChoice) -> Checked {
    let (record, diagnostics) = read(text, choice);
    let mut checked = judge(record, diagnostics);
    if !checked.is_valid() {
        vet(text, choice, &mut checked.diagnostics, false);
    }
    checked
}

/// An invalid record's findings folded into the fault its repair undoes
/// ([`crate::notation::repair`]), and its safe fixes vetted: kept out of the way of valid
/// records. `syntax` are the places of the faults its reading found.
#[cold]
fn repaired(text: &str, choice: DialectChoice, diagnostics: &mut Vec<Diagnostic>, syntax: Vec<crate::span::Span>) {
    fold_repairs(text, choice, diagnostics, syntax);
    vet(text, choice, diagnostics, true);
}

/// An invalid record's findings folded into the fault its repair undoes.
fn fold_repairs(text: &str, choice: DialectChoice, diagnostics: &mut Vec<Diagnostic>, syntax: Vec<crate::span::Span>) {
    if let Some(automaton) = fast::automaton(choice) {
        // A candidate (which the automaton accepted) is read straight from its bytes: one that
        // cannot be so read has a rank of other than nine squares (or a token the decoders
        // refuse), an error either way; the others are judged by the rules alone, without a
        // syntax tree, with the form warnings of one not in canonical form counted.
        let valid = |t: &str| {
            let q = fast::quick(t)?;
            let warnings = q.verdict()?;
            let warnings = match q.canonical {
                true => warnings,
                false => warnings + fast::form_warnings(t),
            };
            let likeness = crate::notation::repair::Likeness {
                missing: q.position.missing_pieces(),
                at_home: q.position.pieces_at_home(),
                ..Default::default()
            };
            Some(crate::notation::repair::cost(warnings, likeness))
        };
        // A candidate is refused at once when a rank is left of the wrong width, or an edit of
        // the board leaves too many pieces or kings.
        let ranks = crate::notation::grid::RankWidths::of(text, 9, fast::square_widths());
        let refuse = crate::notation::grid::Refusals { text, ranks, other: fast::Supply::of(text) };
        crate::notation::repair::repair(text, diagnostics, syntax, automaton, refuse, valid);
    }
}

/// The vetting of [`check`]'s safe fixes: the record each makes is read again, with its repairs
/// folded when `repairs` (so that a repair the fix leaves sure is a safe fix it brings).
fn vet(text: &str, choice: DialectChoice, diagnostics: &mut [Diagnostic], repairs: bool) {
    crate::diagnostic::vet_fixes(text, diagnostics, |fixed| {
        // The record a safe fix makes is most often clean: told as `Format::check_text` tells a
        // clean record, straight from its bytes; the others are read in full.
        if fast::clean_dialect(fixed, choice).is_some() {
            return Vec::new();
        }
        let (record, diagnostics) = read(fixed, choice);
        let syntax = crate::notation::repair::syntax_faults(&diagnostics);
        let mut checked = judge(record, diagnostics);
        if repairs && !checked.is_valid() {
            fold_repairs(fixed, choice, &mut checked.diagnostics, syntax);
        }
        checked.diagnostics
    });
}

/// The syntax tree of `text` and its syntax faults: the fast reader's, or the builder's.
fn read(text: &str, choice: DialectChoice) -> (Record, Vec<Diagnostic>) {
    fast::read(text, choice).unwrap_or_else(|| build::build(text, choice))
}

/// Checks a syntax tree by the rules of shogi, after the syntax faults found in reading it
/// (`diagnostics`): the second half of [`check`], for the formats that write an SFEN position
/// in their own way (PSN's `FEN` header) and build the tree themselves. The position is given
/// only when no diagnostic is an error.
pub fn judge(record: Record, mut diagnostics: Vec<Diagnostic>) -> Checked {
    let syntax_ok = !diagnostics.iter().any(Diagnostic::is_error);
    let faulty = |span: Option<crate::span::Span>| span.is_none_or(|s| !crate::diagnostic::is_sound(s, &diagnostics));
    let sound = validate::Sound {
        board: !faulty(record.board.as_ref().map(|b| b.span)),
        side: !faulty(record.side.map(|s| s.span)),
        hand: !faulty(record.hand.as_ref().map(|h| h.span)),
        move_number: !faulty(record.move_number.map(|m| m.span)),
    };
    let board = record.board.as_ref().filter(|_| sound.board).and_then(model::board_of);
    validate::check(&record, board.as_ref(), sound, &mut diagnostics);
    let position = match (board, record.side, &record.hand) {
        (Some(board), Some(side), Some(hand)) if syntax_ok => Some(Position {
            board,
            hands: model::hands_of(hand),
            side: side.node.color,
            move_number: record.move_number.map(|m| m.node),
        }),
        _ => None,
    };
    Checked { record, position, diagnostics, syntax_ok }
}

/// Reads a record in either dialect into a position, which may still break the rules of shogi
/// (see [`check`] for those). A record whose hand lists a piece more than once, adding up to
/// more than a count can write (`60p60p`), is refused with the findings of [`check`]: its
/// position could not be written back.
impl FromStr for Position {
    type Err = crate::diagnostic::ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let position = crate::notation::parsed(read(s, DialectChoice::Auto), Position::from_record, "SFEN")?;
        if validate::writable(&position.hands) {
            return Ok(position);
        }
        let diagnostics = check(s, DialectChoice::Auto).errors().cloned().collect();
        Err(crate::diagnostic::ParseError { format: "SFEN", diagnostics })
    }
}

/// What a rule matches, in words, for "expected …" messages.
pub fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::sfen2007_record | Rule::usi_record | Rule::record => "an SFEN record",
        Rule::board | Rule::board_lenient => "a board",
        Rule::row | Rule::row_lenient => "a rank",
        Rule::empty_run => "a digit 1-9 (empty squares)",
        Rule::promoted_piece => "a promoted piece (`+P`, `+r`, …)",
        Rule::piece => "a piece letter (K R B G S N L P or k r b g s n l p)",
        Rule::sfen2007_side => "`B` or `W` (SFEN 2007)",
        Rule::usi_side => "`b` or `w` (USI)",
        Rule::side_field => "a side to move",
        Rule::hand | Rule::hand_lenient => "the pieces in hand, or `-`",
        Rule::hand_entry | Rule::hand_entry_lenient => "a hand entry (`2P`, `r`, …)",
        Rule::hand_count | Rule::loose_count => "a count (1-99)",
        Rule::hand_piece => "a hand piece (R B G S N L P or r b g s n l p)",
        Rule::NO_INFORMATION => "`-`",
        Rule::sfen2007_move_number => "a move number (1-99)",
        Rule::usi_move_number | Rule::move_number_field | Rule::move_number_lenient => "a move number",
        Rule::unpromotable | Rule::dangling_promotion | Rule::zero_run | Rule::bad_square => "a square",
        Rule::hand_king | Rule::hand_promoted | Rule::dangling_count | Rule::bad_hand_char => "a hand entry",
        Rule::gap | Rule::SPACE => "a space",
        Rule::PROMOTION => "`+`",
        Rule::ROW_SEPARATOR => "`/`",
        Rule::integer => "a number (1-99)",
        Rule::natural => "a number",
        Rule::field => "a field",
        Rule::line => "a line",
        Rule::EOI => "the end of the record",
    }
}

/// The "expected …" list of a pest error, in words: "`B` or `W` (SFEN 2007), or `b` or `w` (USI)".
pub fn expected_words(error: &pest::error::Error<Rule>) -> String {
    crate::notation::fields::expected_words(error, rule_words)
}

#[cfg(test)]
mod tests {
    use crate::notation::grid::one_edit_away;
    use crate::notation::repair::testing::same_reports_slip_by_slip;

    /// The search takes whole a place whose slips the refusals refuse all but a few of (a
    /// place in a rank of the right width when another is of the wrong one, in the one rank of
    /// a wrong width, or after the board when a rank is of a wrong width), and finds what the
    /// search slip by slip finds: the same repairs, as many, as sure, in the same order, so
    /// the same reports.
    #[test]
    fn a_place_taken_whole_is_searched_as_slip_by_slip() {
        let records = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3+Rl/2skg4/p1pppp2p/6p2/1p5P1/2P6/PP1PPPP1P/2S1K2s1/LN1G1G1NL w BNPb2p 40",
        ];
        let texts: Vec<String> = records.iter().flat_map(|r| one_edit_away(r, b"19+pP/ b")).step_by(2).collect();
        let check = |t: &str| super::check(t, super::DialectChoice::Auto).diagnostics;
        let taken = same_reports_slip_by_slip(&texts, check);
        assert!(taken > 1000, "only {taken} places taken whole, over {} records", texts.len());
    }
}
