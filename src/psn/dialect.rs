//! Which program's dialect a game was written in, from what its text shows.
//!
//! The answer is a reasoned guess, by the first rule below that fits; a game with no departure
//! from the spec is `psn1998`. The names are stable: they are what `kifu check` counts.

use super::build::Features;
use super::findings::Findings;
use super::model::{for_each_line_mut, Game, MoveForm, SetupSource};
use super::scan::WordKind;
use crate::diagnostic::codes;
use crate::diagnostic::Diagnostic;
use crate::shogi::PieceKind;
use std::fmt;

/// A program's dialect of PSN, as kifu tells it from what a game's text shows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// The 1998 spec's own form: a game with no departure from it.
    Psn1998,
    /// The GSDB archive.
    Gsdb,
    /// Grimbergen's game scores, a clock reading after each move.
    Grimbergen,
    /// Shogidokoro and MyShogi.
    Shogidokoro,
    /// MyShogi's PSN2.
    Psn2,
    /// gshogi.
    Gshogi,
    /// KoushuShogi, and USI moves.
    Koushu,
    /// lishogi's PSN parser.
    LishogiParser,
    /// lishogi's export.
    LishogiExport,
    /// pgnparser.
    Pgnparser,
    /// playshogi.
    Playshogi,
    /// Asgts.
    Asgts,
    /// pychess-variants (Fairy-Stockfish's notation).
    Pychess,
    /// PSN with departures no program's dialect explains.
    PsnVariant,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Self; 14] = [
        Self::Psn1998,
        Self::Gsdb,
        Self::Grimbergen,
        Self::Shogidokoro,
        Self::Psn2,
        Self::Gshogi,
        Self::Koushu,
        Self::LishogiParser,
        Self::LishogiExport,
        Self::Pgnparser,
        Self::Playshogi,
        Self::Asgts,
        Self::Pychess,
        Self::PsnVariant,
    ];

    /// The dialect's name, stable: what `kifu check` counts records as.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Psn1998 => "psn1998",
            Self::Gsdb => "gsdb",
            Self::Grimbergen => "grimbergen",
            Self::Shogidokoro => "shogidokoro",
            Self::Psn2 => "psn2",
            Self::Gshogi => "gshogi",
            Self::Koushu => "koushu",
            Self::LishogiParser => "lishogi-parser",
            Self::LishogiExport => "lishogi-export",
            Self::Pgnparser => "pgnparser",
            Self::Playshogi => "playshogi",
            Self::Asgts => "asgts",
            Self::Pychess => "pychess",
            Self::PsnVariant => "psn-variant",
        }
    }

    /// The title reports show.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Psn1998 => "PSN 1998",
            Self::Gsdb => "GSDB archive",
            Self::Grimbergen => "Grimbergen timed score",
            Self::Shogidokoro => "Shogidokoro / MyShogi",
            Self::Psn2 => "MyShogi PSN2",
            Self::Gshogi => "gshogi",
            Self::Koushu => "KoushuShogi / USI moves",
            Self::LishogiParser => "lishogi PSN parser",
            Self::LishogiExport => "lishogi export",
            Self::Pgnparser => "pgnparser",
            Self::Playshogi => "playshogi",
            Self::Asgts => "Asgts",
            Self::Pychess => "pychess-variants",
            Self::PsnVariant => "PSN with departures",
        }
    }
}

/// Written as its name, quoted as a string is: a game's debug text says `dialect: "gsdb"`.
impl fmt::Debug for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.name(), f)
    }
}

super::by_name!(Dialect);

/// The 1998 spec's own form: the dialect of a game with no departure from it.
pub const SPEC: Dialect = Dialect::Psn1998;

/// The dialect a game's features point to.
pub(crate) fn guess(f: &Features, departures: usize) -> Dialect {
    let has = |k: WordKind| f.words.get(&k).is_some_and(|&n| n > 0);
    let key = |k: &str| f.keys.iter().any(|h| h.eq_ignore_ascii_case(k));
    if departures == 0 {
        return SPEC;
    }
    let chess = has(WordKind::ChessMove) || has(WordKind::ChessDrop);
    if f.pychess_fen || chess && (key("White") || key("Black")) {
        return Dialect::Pychess;
    }
    if chess {
        return Dialect::LishogiExport;
    }
    if has(WordKind::UsiMove) && (f.paren_clocks || key("BlackTimeSetting") || key("WhiteTimeSetting")) {
        return Dialect::Psn2;
    }
    if f.paren_clocks || has(WordKind::VariationLine) {
        return Dialect::Shogidokoro;
    }
    if f.timed || f.prose {
        return Dialect::Grimbergen;
    }
    if f.won_line {
        return Dialect::Playshogi;
    }
    if f.board_only_sfen {
        return Dialect::Pgnparser;
    }
    if has(WordKind::UsiMove) {
        return Dialect::Koushu;
    }
    if f.colon_headers || f.setup == Some(SetupSource::Sfen) && f.ply_numbers {
        return Dialect::Gshogi;
    }
    if has(WordKind::AtDrop) || has(WordKind::Nag) || f.line_comments || has(WordKind::ShortMove) {
        return Dialect::LishogiParser;
    }
    if f.setup == Some(SetupSource::Gsdb) || key("Proam") || key("Black_grade") || f.quote_drops {
        return Dialect::Gsdb;
    }
    if f.setup == Some(SetupSource::Fen) && departures > 0 {
        return Dialect::Asgts;
    }
    if has(WordKind::SeparatedMove) && !f.ply_numbers {
        return Dialect::Gsdb;
    }
    Dialect::PsnVariant
}

/// Reads the tokens whose meaning depends on the dialect (PSN note 16), once the game's dialect
/// is known. In pychess's games (Fairy-Stockfish SAN) a `G` in chess coordinates names a gold
/// or any piece promoted to move like one, and a trailing `+` is a check mark. In other games a
/// trailing `+` after a move in chess coordinates could be a check mark or a promotion: it is
/// refused, and the move is read without it.
pub(crate) fn settle(game: &mut Game, diagnostics: &mut Findings) {
    let pychess = game.dialect == Dialect::Pychess;
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
