//! The fast path: a DFA compiled from the grammar's record rules accepts well-formed records in
//! one pass; the syntax tree is then read off the bytes, which the automaton has already
//! vouched for. Anything it does not accept (or that needs a diagnostic, like a rank of the
//! wrong width) returns `None` and goes through pest and [`super::build`].

use std::sync::OnceLock;

use super::ast::{BoardField, Dialect, Hand, HandEntry, Record};
use super::parser::Rule;
use super::{token, DialectChoice};
use crate::notation::grammar::{self, RuleDfa, Shipped};
use crate::span::{Span, Spanned};

static GRAMMAR: Shipped = Shipped::new(&[grammar::SFEN, grammar::COMMON]);

/// The record rule of `choice`: `record` reads either dialect.
pub fn record_rule(choice: DialectChoice) -> Rule {
    match choice {
        DialectChoice::Auto => Rule::record,
        DialectChoice::Sfen2007 => Rule::sfen2007_record,
        DialectChoice::Usi => Rule::usi_record,
    }
}

/// The automaton for the record rule of `choice` (`None` if the rule stopped compiling).
pub fn automaton(choice: DialectChoice) -> Option<&'static RuleDfa> {
    static USI: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static SFEN2007: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static EITHER: OnceLock<Option<RuleDfa>> = OnceLock::new();
    let cell = match choice {
        DialectChoice::Usi => &USI,
        DialectChoice::Sfen2007 => &SFEN2007,
        DialectChoice::Auto => &EITHER,
    };
    GRAMMAR.compile(cell, record_rule(choice))
}

/// The dialect whose record rule `text` matches exactly, among those `choice` allows.
pub fn matches(text: &str, choice: DialectChoice) -> Option<Dialect> {
    let usi = || automaton(DialectChoice::Usi).is_some_and(|re| re.is_match(text));
    let old = || automaton(DialectChoice::Sfen2007).is_some_and(|re| re.is_match(text));
    match choice {
        DialectChoice::Usi => usi().then_some(Dialect::Usi),
        DialectChoice::Sfen2007 => old().then_some(Dialect::Sfen2007),
        DialectChoice::Auto => {
            if usi() {
                Some(Dialect::Usi)
            } else {
                old().then_some(Dialect::Sfen2007)
            }
        }
    }
}

/// The syntax tree of `text` if it is a well-formed record with nine squares to every rank.
pub fn parse(text: &str, choice: DialectChoice) -> Option<Record> {
    let dialect = matches(text, choice)?;
    // The automaton vouched for the shape: fields split at single spaces, three or four.
    let bytes = text.as_bytes();
    let mut bounds = [0usize; 5];
    let mut n = 1;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b' ' && n < 5 {
            bounds[n] = i + 1;
            n += 1;
        }
    }
    let field = |k: usize| {
        let start = bounds[k];
        let end = if k + 1 < n { bounds[k + 1] - 1 } else { text.len() };
        (text.get(start..end).unwrap_or(""), Span::new(start, end))
    };
    if !(3..=4).contains(&n) {
        return None;
    }
    let ((board_text, board_span), (side_text, side_span), (hand_text, hand_span)) = (field(0), field(1), field(2));
    let move_number = match n {
        4 => {
            let (digits, span) = field(3);
            Some(Spanned::new(token::move_number(digits)?, span))
        }
        _ => None,
    };
    let board = read_board(board_text, board_span)?;
    let side = Spanned::new(token::side(side_text)?, side_span);
    let hand = read_hand(hand_text, hand_span)?;
    Some(Record {
        span: Span::new(0, text.len()),
        board: Some(board),
        side: Some(side),
        hand: Some(hand),
        move_number,
        dialect: Some(dialect),
    })
}

fn read_board(text: &str, span: Span) -> Option<BoardField> {
    // A token is a `+` and its letter, or one character.
    BoardField::read_accepted(text, span, 9, 9, |b| if b == b'+' { 2 } else { 1 }, token::cell_bytes)
}

fn read_hand(text: &str, span: Span) -> Option<Hand> {
    let mut entries = Vec::new();
    if text != "-" {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let count = if i > start {
                let digits = Span::new(start, i).shift(span.start);
                Some(Spanned::new(token::hand_count(text.get(start..i)?)?, digits))
            } else {
                None
            };
            let piece = Spanned::new(token::hand_piece(text.get(i..i + 1)?)?, Span::new(i, i + 1).shift(span.start));
            entries.push(HandEntry { span: Span::new(start, i + 1).shift(span.start), count, piece });
            i += 1;
        }
    }
    Some(Hand { span, entries })
}
