//! Which program's dialect a game was written in, from what its text shows.
//!
//! The answer is a reasoned guess, by the first rule below that fits; a game with no departure
//! from the spec is `psn1998`. The names are stable: they are what `kifu check` counts.

use super::build::Features;
use super::findings::Findings;
use super::model::{for_each_line_mut, Game, MoveForm};
use super::scan::WordKind;
use crate::diagnostic::codes;
use crate::diagnostic::Diagnostic;
use crate::shogi::PieceKind;

/// Every dialect name, with the title reports show.
pub const DIALECTS: &[(&str, &str)] = &[
    ("psn1998", "PSN 1998"),
    ("gsdb", "GSDB archive"),
    ("grimbergen", "Grimbergen timed score"),
    ("shogidokoro", "Shogidokoro / MyShogi"),
    ("psn2", "MyShogi PSN2"),
    ("gshogi", "gshogi"),
    ("koushu", "KoushuShogi / USI moves"),
    ("lishogi-parser", "lishogi PSN parser"),
    ("lishogi-export", "lishogi export"),
    ("pgnparser", "pgnparser"),
    ("playshogi", "playshogi"),
    ("asgts", "Asgts"),
    ("pychess", "pychess-variants"),
    ("psn-variant", "PSN with departures"),
];

/// The title of dialect `name`.
pub fn title(name: &str) -> &str {
    DIALECTS.iter().find(|(n, _)| *n == name).map_or(name, |(_, t)| t)
}

/// The name of the 1998 spec's own form: the dialect of a game with no departure from it.
pub const SPEC: &str = "psn1998";

/// The dialect a game's features point to.
pub(crate) fn guess(f: &Features, departures: usize) -> &'static str {
    let has = |k: WordKind| f.words.get(&k).is_some_and(|&n| n > 0);
    let key = |k: &str| f.keys.iter().any(|h| h.eq_ignore_ascii_case(k));
    if departures == 0 {
        return SPEC;
    }
    let chess = has(WordKind::ChessMove) || has(WordKind::ChessDrop);
    if f.pychess_fen || chess && (key("White") || key("Black")) {
        return "pychess";
    }
    if chess {
        return "lishogi-export";
    }
    if has(WordKind::UsiMove) && (f.paren_clocks || key("BlackTimeSetting") || key("WhiteTimeSetting")) {
        return "psn2";
    }
    if f.paren_clocks || has(WordKind::VariationLine) {
        return "shogidokoro";
    }
    if f.timed || f.prose {
        return "grimbergen";
    }
    if f.won_line {
        return "playshogi";
    }
    if f.board_only_sfen {
        return "pgnparser";
    }
    if has(WordKind::UsiMove) {
        return "koushu";
    }
    if f.colon_headers || f.setup == Some("sfen") && f.ply_numbers {
        return "gshogi";
    }
    if has(WordKind::AtDrop) || has(WordKind::Nag) || f.line_comments || has(WordKind::ShortMove) {
        return "lishogi-parser";
    }
    if f.setup == Some("gsdb") || key("Proam") || key("Black_grade") || f.quote_drops {
        return "gsdb";
    }
    if f.setup == Some("fen") && departures > 0 {
        return "asgts";
    }
    if has(WordKind::SeparatedMove) && !f.ply_numbers {
        return "gsdb";
    }
    "psn-variant"
}

/// Reads the tokens whose meaning depends on the dialect (PSN note 16), once the game's dialect
/// is known. In pychess's games (Fairy-Stockfish SAN) a `G` in chess coordinates names a gold
/// or any piece promoted to move like one, and a trailing `+` is a check mark. In other games a
/// trailing `+` after a move in chess coordinates could be a check mark or a promotion: it is
/// refused, and the move is read without it.
pub(crate) fn settle(game: &mut Game, diagnostics: &mut Findings) {
    let pychess = game.dialect == "pychess";
    for_each_line_mut(&mut game.moves, |line| {
        for node in line {
            let m = &mut node.mv;
            if m.form != MoveForm::Chess {
                continue;
            }
            if pychess {
                m.gold_mover = m.piece == Some(PieceKind::Gold) && !m.promoted;
            } else if let Some(mark) = m.mark.as_deref().copied().filter(|k| !k.mate) {
                diagnostics.push(
                    Diagnostic::error(
                        codes::psn::UNCLEAR_PLUS,
                        mark.span,
                        format!("`{}`: this `+` may mean check or promotion", m.text),
                    )
                    .label("check or promotion?")
                    .with(m.span, "a move in chess coordinates")
                    .help(
                        "pychess writes `+` for check and `=G`, `=H` or `=D` for a promotion, while shogi \
                         notation writes `+` for a promotion: write the move in shogi coordinates (`B8hx2b+`), \
                         or, if pychess wrote the game, keep its `[White]` and `[Black]` headers",
                    ),
                );
                m.mark = None;
            }
        }
    });
}
