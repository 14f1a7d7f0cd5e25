//! The fast path: the automata compiled from the grammar's rules for the statements a record
//! is mostly made of (a comment, a name, information, a move, a time, an end, the side to move,
//! a version, `PI`, a separator) accept the commonest lines of a
//! record (a move, its time, or both joined by a comma) in one pass; the statements' parts are
//! then read off their bytes, which the automata have already vouched for. Any other line returns `None` and goes through pest and [`super::syntax`]'s builder. A
//! test holds the two to the same statements on every line the fast path reads.

use std::sync::OnceLock;

use super::parser::Rule;
use super::syntax::{self, Spanned, Statement};
use crate::notation::grammar::{RuleDfa, Shipped};
use crate::shogi::Color;
use crate::span::Span;

/// The grammar, read once: its regular rules compile to automata.
static GRAMMAR: Shipped = Shipped::new("csa");

/// The automaton of `rule`, compiled once into `cell`.
fn dfa(cell: &'static OnceLock<Option<RuleDfa>>, rule: Rule) -> Option<&'static RuleDfa> {
    GRAMMAR.compile(cell, rule)
}

/// The statements of `line` (starting at byte `at` of its text), as the builder reads them,
/// when the line is a comment, a name or information, or each of its comma-separated parts is
/// a move, a time, an end, a side to move, a version, `PI` or a separator; else `None`.
pub(super) fn line(line: &str, at: usize) -> Option<Vec<Spanned>> {
    static MOVE: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static TIME: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static SPECIAL: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static SIDE: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static COMMENT: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static NAME: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static INFO: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static VERSION: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static HANDICAP: OnceLock<Option<RuleDfa>> = OnceLock::new();
    static SEPARATOR: OnceLock<Option<RuleDfa>> = OnceLock::new();
    let sign = |b: u8| if b == b'+' { Color::Black } else { Color::White };
    let whole = Span::new(at, at + line.len());
    // The grammar's `line` tries a comment, a name and information, each the whole line, before
    // statements.
    match line.as_bytes().first() {
        Some(b'\'') if dfa(&COMMENT, Rule::comment)?.is_match(line) => {
            return Some(vec![(Statement::Comment(line[1..].to_owned()), whole)]);
        }
        Some(b'N') if dfa(&NAME, Rule::name)?.is_match(line) => {
            return Some(vec![(Statement::Name(sign(line.as_bytes()[1]), line[2..].to_owned()), whole)]);
        }
        Some(b'$') if dfa(&INFO, Rule::info)?.is_match(line) => {
            // The key holds no colon: the first one ends it.
            let (key, value) = line[1..].split_once(':')?;
            return Some(vec![(Statement::Info(key.to_owned(), value.to_owned()), whole)]);
        }
        _ => {}
    }
    let mut out = Vec::with_capacity(2);
    let mut start = 0;
    // Statements, each followed by spaces (the grammar's `padding`), joined by commas.
    for part in line.split(',') {
        let text = part.trim_end_matches(' ');
        let span = Span::new(at + start, at + start + text.len());
        start += part.len() + 1;
        let statement = match text.as_bytes().first() {
            Some(&b @ (b'+' | b'-')) if text.len() == 1 && dfa(&SIDE, Rule::side)?.is_match(text) => {
                Statement::Side(sign(b))
            }
            Some(&b @ (b'+' | b'-')) if dfa(&MOVE, Rule::move_stmt)?.is_match(text) => {
                let (from, to) = (syntax::place_of(&text[1..3]), syntax::place_of(&text[3..5]));
                Statement::Move { side: sign(b), from, to, piece: syntax::piece(&text[5..7])? }
            }
            Some(b'T') if dfa(&TIME, Rule::time)?.is_match(text) => Statement::Time(syntax::millis(&text[1..])),
            Some(b'%') if dfa(&SPECIAL, Rule::special)?.is_match(text) => Statement::Special(text[1..].to_owned()),
            Some(b'V') if dfa(&VERSION, Rule::version)?.is_match(text) => Statement::Version(text[1..].to_owned()),
            Some(b'/') if dfa(&SEPARATOR, Rule::separator)?.is_match(text) => Statement::Separator,
            Some(b'P') if dfa(&HANDICAP, Rule::handicap)?.is_match(text) => {
                // `PI`, then pieces of four characters each: a square and a name.
                let removed = (2..text.len()).step_by(4).map(|i| {
                    let piece = syntax::piece(&text[i + 2..i + 4]).unwrap_or((crate::shogi::PieceKind::Pawn, false));
                    let at = span.start + i;
                    (syntax::place_of(&text[i..i + 2]), piece, Span::new(at, at + 4))
                });
                Statement::Handicap(removed.collect())
            }
            _ => return None,
        };
        out.push((statement, span));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::syntax::built;

    /// The lines to try: those of kifu's CSA fixtures, and of the records of the corpus beside
    /// the repository when it is there.
    fn lines() -> Vec<String> {
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir("tests/fixtures/csa")
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        for folder in
            ["corpus/kifcsa/generated/csa", "corpus/kifcsa/real/csa-rs", "corpus/kifcsa/real/json-kifu-format/csa"]
        {
            if let Some(dir) = crate::corpus::path(folder) {
                let found = std::fs::read_dir(dir).map(|d| d.filter_map(Result::ok).map(|e| e.path()));
                files.extend(found.into_iter().flatten().take(40));
            }
        }
        let mut out: Vec<String> = [
            "+7776FU",
            "-0055KA,T12",
            "+2823RY , T6.123  ",
            "T0",
            "+7776FU,'comment",
            "+7776FU,",
            "+,-",
            "%TORYO,T3",
            "%+ILLEGAL_ACTION",
            "N+a,b",
            "$EVENT:a:b,c",
            "$:x",
            "'**,x",
            "PI82HI22KA",
            "PI,V2.2",
            "V3.0",
            "/",
            "PI82H",
        ]
        .map(str::to_owned)
        .into();
        for file in files {
            let Ok(bytes) = std::fs::read(&file) else { continue };
            let (text, ..) = crate::input::decode::decode_japanese(&bytes);
            out.extend(text.lines().map(str::to_owned));
        }
        out.sort();
        out.dedup();
        out
    }

    /// Characters a slip may write: those of moves, times and the other statements, and others.
    const SLIPS: &[char] = &[
        '+', '-', '0', '1', '7', '9', 'F', 'U', 'K', 'A', 'T', '.', ',', ' ', '\t', '\'', '%', 'P', 'N', '$', 'あ',
        'V', 'I', '/', '\r',
    ];

    /// Every line the fast path reads is read as pest and the builder read it: on the lines of
    /// the fixtures and the corpus, and on each of them with one character changed, deleted or
    /// added.
    #[test]
    fn the_fast_path_reads_every_line_as_the_builder() {
        let (mut fast, mut all) = (0, 0);
        let mut check = |line: &str| {
            all += 1;
            if let Some(read) = super::line(line, 3) {
                fast += 1;
                assert_eq!(read, built(line, 3), "{line:?}");
            }
        };
        for line in lines() {
            check(&line);
            let chars: Vec<(usize, char)> = line.char_indices().collect();
            for &(at, c) in chars.iter().take(30) {
                let after = &line[at + c.len_utf8()..];
                check(&format!("{}{after}", &line[..at]));
                for &slip in SLIPS {
                    check(&format!("{}{slip}{after}", &line[..at]));
                    check(&format!("{}{slip}{}", &line[..at], &line[at..]));
                }
            }
        }
        assert!(fast > 1000, "{fast} of {all} lines read by the fast path");
    }
}
