//! The fast path: the grammar's record rules compiled to DFAs; a record they accept is read
//! straight off its bytes. Anything else returns `None` and goes through pest and
//! [`super::build`].

use std::sync::OnceLock;

use super::ast::{Castling, Dialect, Placement, Record};
use super::parser::Rule;
use super::{token, Kind};
use crate::chess::CastleRight;
use crate::notation::grammar::{self, RuleDfa, Shipped};
use crate::span::{Span, Spanned};

static GRAMMAR: Shipped = Shipped::new(&[grammar::FEN, grammar::COMMON]);

/// The record rule of `kind` in `dialect`.
pub fn record_rule(kind: Kind, dialect: Dialect) -> Rule {
    match (kind, dialect) {
        (Kind::Fen, Dialect::Standard) => Rule::fen_record,
        (Kind::Fen, Dialect::Chess960) => Rule::fen960_record,
        (Kind::Epd, Dialect::Standard) => Rule::epd_record,
        (Kind::Epd, Dialect::Chess960) => Rule::epd960_record,
    }
}

/// The automaton for the record rule of `kind` in `dialect`.
pub fn automaton(kind: Kind, dialect: Dialect) -> Option<&'static RuleDfa> {
    static FEN: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static FEN960: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static EPD: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static EPD960: OnceLock<Option<RuleDfa>> = OnceLock::new();
    let cell = match (kind, dialect) {
        (Kind::Fen, Dialect::Standard) => &FEN,
        (Kind::Fen, Dialect::Chess960) => &FEN960,
        (Kind::Epd, Dialect::Standard) => &EPD,
        (Kind::Epd, Dialect::Chess960) => &EPD960,
    };
    GRAMMAR.compile(cell, record_rule(kind, dialect))
}

/// The automaton for EPD operations alone (`epd_operations_field`).
pub fn operations() -> Option<&'static RuleDfa> {
    static OPS: OnceLock<Option<RuleDfa>> = OnceLock::new();
    GRAMMAR.compile(&OPS, Rule::epd_operations_field)
}

/// True when `text` matches the record rule of `kind` in `dialect` exactly.
pub fn matches(text: &str, kind: Kind, dialect: Dialect) -> bool {
    automaton(kind, dialect).is_some_and(|d| d.is_match(text))
}

/// The syntax tree of `text` if it is a well-formed record whose ranks all cover 8 squares and
/// whose castling rights are listed once each.
pub fn parse(text: &str, kind: Kind, dialect: Dialect) -> Option<Record> {
    if !matches(text, kind, dialect) {
        return None;
    }
    // The automaton vouched for the shape: fields at single spaces (EPD operations may hold
    // more spaces; they are one field from the fifth on).
    let max = if kind == Kind::Epd { 5 } else { 6 };
    let mut bounds = [(0usize, text.len()); 6];
    let mut n = 1;
    for (i, b) in text.bytes().enumerate() {
        if b == b' ' && n < max {
            bounds[n - 1].1 = i;
            bounds[n] = (i + 1, text.len());
            n += 1;
        }
    }
    let mut fields = bounds[..n].iter().map(|&(a, b)| (text.get(a..b).unwrap_or(""), Span::new(a, b)));
    let (placement_text, placement_span) = fields.next()?;
    let (side_text, side_span) = fields.next()?;
    let (castling_text, castling_span) = fields.next()?;
    let (ep_text, ep_span) = fields.next()?;
    let mut record = Record {
        span: Span::new(0, text.len()),
        placement: Some(read_placement(placement_text, placement_span)?),
        side: Some(Spanned::new(token::side(side_text)?, side_span)),
        castling: Some(read_castling(castling_text, castling_span)?),
        en_passant: Some(Spanned::new(token::en_passant(ep_text)?, ep_span)),
        halfmove: None,
        fullmove: None,
        operations: None,
    };
    match kind {
        Kind::Fen => {
            let (h, hs) = fields.next()?;
            let (f, fs) = fields.next()?;
            record.halfmove = Some(Spanned::new(token::counter(h)?, hs));
            record.fullmove = Some(Spanned::new(token::counter(f)?, fs));
        }
        Kind::Epd => record.operations = fields.next().map(|(_, s)| Span::new(s.start, text.len())),
    }
    Some(record)
}

fn read_placement(text: &str, span: Span) -> Option<Placement> {
    // Every token is one character.
    Placement::read_accepted(text, span, 8, 8, |_| 1, token::cell_bytes)
}

fn read_castling(text: &str, span: Span) -> Option<Castling> {
    let mut rights: Vec<Spanned<CastleRight>> = Vec::new();
    if text != "-" {
        for i in 0..text.len() {
            let right = token::castle_right(text.get(i..i + 1)?)?;
            if rights.iter().any(|r| r.node == right) {
                return None; // a repeated right: the recovery path explains it
            }
            rights.push(Spanned::new(right, Span::new(span.start + i, span.start + i + 1)));
        }
    }
    Some(Castling { span, rights })
}
