//! What each diagnostic code means, shown on an example: the registry's words
//! ([`crate::diagnostic::codes`]) and an input that gets a finding of the code, which
//! `kifu explain CODE` checks and shows, and of which `docs/codes/` holds a page per code.
//!
//! A test checks every example: it must get a finding of its code.

use crate::diagnostic::codes::{self, Code, Entry};
use crate::fen;
use crate::format::Format;
use crate::notation::repair::edit_distance;
use crate::sfen::DialectChoice;

/// An input that gets a finding of `code` when `kifu check` reads it as `format`.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The code the input shows.
    pub code: Code,
    /// How the input is read: its format and dialect.
    pub format: Format,
    /// False for PSN games read without being played (`--no-replay`): the code is one that the
    /// replay replaces with a finding that says more.
    pub replay: bool,
    /// The input, byte for byte (some codes are about bytes that are not UTF-8).
    pub input: &'static [u8],
}

impl Example {
    /// The flags `kifu check` reads the input with: `--format`, and `--dialect` and
    /// `--no-replay` when they are not the default.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut flags = vec!["--format", self.format.name()];
        if self.format.name().parse::<Format>() != Ok(self.format) {
            flags.extend(["--dialect", self.format.dialect().name()]);
        }
        if !self.replay {
            flags.push("--no-replay");
        }
        flags
    }
}

/// The example of `code`, or `None` when it has none: a code that only a very large or deep
/// input gets, one kifu gives when it fails itself, and those of `kifu grammar`, `kifu tree`
/// and `kifu conformance`.
pub fn example(code: Code) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.code == code)
}

/// Every example, in the registry's order.
pub fn examples() -> &'static [Example] {
    EXAMPLES
}

/// The codes a user's words name: the code itself (`sfen::rank-width`), or its name alone
/// (`nifu`, `rank-width`), written as [`codes::normalized`] allows. Several when the name is
/// one of several groups'; none when nothing matches.
pub fn lookup(query: &str) -> Vec<&'static Entry> {
    let wanted = codes::normalized(query);
    if let Some(e) = codes::lookup(&wanted) {
        return vec![e];
    }
    codes::all().filter(|e| e.code.name() == wanted).collect()
}

/// The codes nearest to a query that names none: those that hold it, else those a few
/// edits from it, the nearest first; at most `n`.
pub fn nearest(query: &str, n: usize) -> Vec<&'static Entry> {
    let wanted = codes::normalized(query);
    let holding: Vec<_> = codes::all().filter(|e| !wanted.is_empty() && e.code.contains(wanted.as_str())).collect();
    if !holding.is_empty() {
        return holding.into_iter().take(n).collect();
    }
    let mut near: Vec<(usize, &'static Entry)> = codes::all()
        .map(|e| (edit_distance(&wanted, e.code.as_str()).min(edit_distance(&wanted, e.code.name())), e))
        .filter(|&(d, _)| d <= 3)
        .collect();
    near.sort_by_key(|&(d, _)| d);
    near.into_iter().take(n).map(|(_, e)| e).collect()
}

const SFEN: (Format, bool) = (Format::Sfen(DialectChoice::Auto), true);
const SFEN_USI: (Format, bool) = (Format::Sfen(DialectChoice::Usi), true);
const FEN: (Format, bool) = (Format::Fen(fen::Dialect::Standard), true);
const FEN_960: (Format, bool) = (Format::Fen(fen::Dialect::Chess960), true);
const EPD: (Format, bool) = (Format::Epd(fen::Dialect::Standard), true);
#[cfg(feature = "psn")]
const PSN: (Format, bool) = (Format::Psn, true);
#[cfg(feature = "psn")]
const PSN_NO_REPLAY: (Format, bool) = (Format::Psn, false);
const JSON: (Format, bool) = (Format::Json, true);
#[cfg(feature = "psn")]
const KIF: (Format, bool) = (Format::Kif, true);
#[cfg(feature = "psn")]
const CSA: (Format, bool) = (Format::Csa, true);
#[cfg(feature = "psn")]
const JKF: (Format, bool) = (Format::Jkf, true);

const fn ex(code: Code, (format, replay): (Format, bool), input: &'static [u8]) -> Example {
    Example { code, format, replay, input }
}

/// The examples, in the registry's order.
#[rustfmt::skip]
const EXAMPLES: &[Example] = &[
    ex(codes::sfen::EMPTY_RECORD, SFEN, "_\n".as_bytes()),
    ex(codes::sfen::NOT_A_RECORD, SFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::sfen::STARTPOS, SFEN, "startpos\n".as_bytes()),
    ex(codes::sfen::USI_COMMAND, SFEN, "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::LEADING_WHITESPACE, SFEN, " lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::TRAILING_WHITESPACE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 \n".as_bytes()),
    ex(codes::sfen::SEPARATOR, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\u{3000}b - 1\n".as_bytes()),
    ex(codes::sfen::LOOKALIKE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b \u{2013} 1\n".as_bytes()),
    ex(codes::sfen::MISSING_FIELD, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b\n".as_bytes()),
    ex(codes::sfen::EXTRA_FIELD, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 0\n".as_bytes()),
    ex(codes::sfen::UNKNOWN_PIECE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/4Q4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::UNKNOWN_HAND_PIECE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b X 1\n".as_bytes()),
    ex(codes::sfen::UNPROMOTABLE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::DANGLING_PROMOTION, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1+/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::RANK_COUNT, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::RANK_WIDTH, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1\n".as_bytes()),
    ex(codes::sfen::EMPTY_RANK, SFEN, "lnsgkgsnl/1r5b1/ppppppppp//9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::EMPTY_COUNT_ZERO, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/90/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::SPLIT_EMPTY_RUN, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/45/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::sfen::SIDE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1\n".as_bytes()),
    ex(codes::sfen::DIALECT, SFEN_USI, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1\n".as_bytes()),
    ex(codes::sfen::MIXED_DIALECT, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 150\n".as_bytes()),
    ex(codes::sfen::DANGLING_COUNT, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1\n".as_bytes()),
    ex(codes::sfen::HAND_DASH, SFEN, "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -R 1\n".as_bytes()),
    ex(codes::sfen::HAND_COUNT_FORM, SFEN, "lnsgkgsnl/7b1/ppppppp2/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R02P 1\n".as_bytes()),
    ex(codes::sfen::HAND_COUNT_ONE, SFEN, "lnsgkgsnl/7b1/ppppppp2/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 1R2P 1\n".as_bytes()),
    ex(codes::sfen::HAND_COUNT_RANGE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 100P 1\n".as_bytes()),
    ex(codes::sfen::HAND_COUNT_ZERO, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1\n".as_bytes()),
    ex(codes::sfen::HAND_ORDER, SFEN, "lnsgkgsnl/7b1/ppppppp2/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2PR 1\n".as_bytes()),
    ex(codes::sfen::HAND_REPEAT, SFEN, "lnsgkgsnl/7b1/ppppppp2/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b RP1P 1\n".as_bytes()),
    ex(codes::sfen::KING_IN_HAND, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1\n".as_bytes()),
    ex(codes::sfen::PROMOTED_IN_HAND, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b +P 1\n".as_bytes()),
    ex(codes::sfen::MOVE_NUMBER, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - -1\n".as_bytes()),
    ex(codes::sfen::MOVE_NUMBER_FORM, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 01\n".as_bytes()),
    ex(codes::sfen::MOVE_NUMBER_RANGE, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 123456789012345678901234567890\n".as_bytes()),
    ex(codes::sfen::MOVE_NUMBER_ZERO, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0\n".as_bytes()),
    ex(codes::sfen::MOVE_PARITY, SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n".as_bytes()),
    ex(codes::sfen::TOO_MANY_PIECES, SFEN, "4k4/9/9/9/9/9/9/RRR6/4K4 b - 1\n".as_bytes()),
    ex(codes::sfen::MISSING_KING, SFEN, "4k4/9/4P4/9/9/9/9/9/9 b R 1\n".as_bytes()),
    ex(codes::sfen::TWO_KINGS, SFEN, "4k4/9/9/9/9/9/9/9/3KK4 b - 1\n".as_bytes()),
    ex(codes::sfen::NIFU, SFEN, "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1\n".as_bytes()),
    ex(codes::sfen::DEAD_PIECE, SFEN, "4k3P/9/9/9/9/9/9/9/4K4 b - 1\n".as_bytes()),
    ex(codes::sfen::OPPOSITE_CHECK, SFEN, "9/9/9/9/4k4/4K4/9/9/9 b - 1\n".as_bytes()),
    ex(codes::sfen::IMPOSSIBLE_CHECK, SFEN, "k8/4r4/3n5/9/4K4/9/9/9/9 b - 1\n".as_bytes()),
    ex(codes::fen::EMPTY_RECORD, FEN, "_\n".as_bytes()),
    ex(codes::fen::NOT_A_RECORD, FEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::fen::LEADING_WHITESPACE, FEN, " rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::TRAILING_WHITESPACE, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \n".as_bytes()),
    ex(codes::fen::SEPARATOR, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::LOOKALIKE, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq \u{2013} 0 1\n".as_bytes()),
    ex(codes::fen::MISSING_FIELD, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w\n".as_bytes()),
    ex(codes::fen::EXTRA_FIELD, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm\n".as_bytes()),
    ex(codes::fen::EPD_OPERATIONS, EPD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4\n".as_bytes()),
    ex(codes::fen::UNKNOWN_PIECE, FEN, "rnbqkbnr/pppppppp/8/8/3X4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::RANK_COUNT, FEN, "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::RANK_WIDTH, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::EMPTY_RANK, FEN, "rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::BLANK_ZERO, FEN, "rnbqkbnr/pppppppp/80/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::SPLIT_BLANK_RUN, FEN, "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::SIDE, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::CASTLING, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1\n".as_bytes()),
    ex(codes::fen::CASTLING_CHESS960, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n".as_bytes()),
    ex(codes::fen::CASTLING_ORDER, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1\n".as_bytes()),
    ex(codes::fen::CASTLING_REPEAT, FEN_960, "4k3/8/8/8/8/8/8/R3K2R w KH - 0 1\n".as_bytes()),
    ex(codes::fen::CASTLING_RIGHTS, FEN, "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1\n".as_bytes()),
    ex(codes::fen::EN_PASSANT, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq x9 0 1\n".as_bytes()),
    ex(codes::fen::EP_RANK, FEN, "4k3/8/8/3pP3/8/8/8/4K3 b - d6 0 2\n".as_bytes()),
    ex(codes::fen::EP_NO_PAWN, FEN, "4k3/8/8/8/8/8/8/4K3 w - d6 0 2\n".as_bytes()),
    ex(codes::fen::EP_BLOCKED, FEN, "4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 2\n".as_bytes()),
    ex(codes::fen::EP_HALFMOVE, FEN, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 2\n".as_bytes()),
    ex(codes::fen::HALFMOVE, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1\n".as_bytes()),
    ex(codes::fen::FULLMOVE, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x\n".as_bytes()),
    ex(codes::fen::FULLMOVE_ZERO, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0\n".as_bytes()),
    ex(codes::fen::HALFMOVE_TOO_LARGE, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 50 1\n".as_bytes()),
    ex(codes::fen::MISSING_KING, FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1\n".as_bytes()),
    ex(codes::fen::TOO_MANY_KINGS, FEN, "k6k/8/8/8/8/8/8/4K3 w - - 0 1\n".as_bytes()),
    ex(codes::fen::PAWN_ON_BACK_RANK, FEN, "4k2P/8/8/8/8/8/8/4K3 w - - 0 1\n".as_bytes()),
    ex(codes::fen::TOO_MANY_PAWNS, FEN, "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1\n".as_bytes()),
    ex(codes::fen::TOO_MANY_PIECES, FEN, "4k3/8/8/8/8/QQQQQQQQ/PPPPPPPP/4K3 b - - 0 1\n".as_bytes()),
    ex(codes::fen::IMPOSSIBLE_MATERIAL, FEN, "4k3/8/8/8/8/8/PPPPPPPP/3QKQ2 w - - 0 1\n".as_bytes()),
    ex(codes::fen::OPPOSITE_CHECK, FEN, "8/8/8/3k4/3K4/8/8/8 w - - 0 1\n".as_bytes()),
    ex(codes::fen::IMPOSSIBLE_CHECK, FEN, "4k3/8/8/8/8/8/8/r3K2r w - - 0 1\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::NUL_BYTE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f\x00 P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::ENCODING, PSN, b"[Sente \"\x82\xa0\"]\n1. P7f P3d\n"),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_KEYWORD, PSN, "[ \"Habu\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_UNCLOSED, PSN, "[Sente \"Habu\"\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_UNQUOTED, PSN, "[Sente Habu]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_QUOTE, PSN, "[Event \"The \"Meijin\" match\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_SPACE, PSN, "[Sente  \"Habu\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_COLON, PSN, "[Sente: \"Habu\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_TRAILER, PSN, "[Sente \"Habu\"] played well\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HEADER_SHARED_LINE, PSN, "[Sente \"Habu\"] [Gote \"Moriuchi\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::TAG_NAME, PSN, "[Sente_grade \"9-dan\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::SETUP_TWICE, PSN, "[FEN \"4k4/9/9/9/9/9/9/9/4K4 0000000/0000000 s 1\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4K4 0000000/0000000 s 1\"]\n1. K5h\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::SFEN_HEADER, PSN, "[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::SFEN_BOARD_ONLY, PSN, "[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::GSDB_SETUP, PSN, "[Source \"Tsume\"]\nwK1a bG1c bGH1\n1. G*1b\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::FEN_SHAPE, PSN, "[FEN \"0000000/0000000 s 1\"]\n1. P7f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::FEN_HAND, PSN, "[FEN \"4k4/9/9/9/9/9/9/9/4K4 000000/0000000 s 1\"]\n1. K5h\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::FEN_SIDE, PSN, "[FEN \"4k4/9/9/9/9/9/9/9/4K4 0000000/0000000 x 1\"]\n1. K5h\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::FEN_NUMBER, PSN, "[FEN \"4k4/9/9/9/9/9/9/9/4K4 0000000/0000000 s one\"]\n1. K5h\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::FEN_SFEN, PSN, "[FEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::FEN_PYCHESS, PSN, "[FEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PYCHESS_HAND_COUNT, PSN, "[FEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[2N] w 0 1\"]\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HANDICAP_UNKNOWN, PSN, "[Handicap \"queen\"]\n1... P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HANDICAP_WORDING, PSN, "[Handicap \"four pieces\"]\n1... P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::HANDICAP_MISSING, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\nS7a-6b P7g-7f P3c-3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::COMMENT_UNCLOSED, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f {the usual opening\n2. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::COMMENT_UNOPENED, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d } 2. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::NESTED_BRACES, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f {a {good} move} P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::TILDE_NEWLINE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f {first line~second line} P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::LINE_COMMENT, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d ; the usual opening\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::ESCAPE_LINE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n% exported by a program\n1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PROSE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d\nBlack opens the bishop diagonal, and so does White.\n2. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::VARIATION, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d (1... P8d) 2. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::VARIATION_FIRST, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n(1. P2f) 1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::VARIATION_UNCLOSED, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d (1... P8d 2. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::VARIATION_UNOPENED, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d ) 2. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::VARIATION_LINE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2. P2f\nVariation: 2\n1... P8d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::UNKNOWN_WORD, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2. P2f banana\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::UNNUMBERED, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\nP7f P3d P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PLY_NUMBERS, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f 2. P3d 3. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::NUMBER_ORDER, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 3. P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::NUMBER_SIDE, PSN_NO_REPLAY, "[Sente \"Habu\"]\n1. P7f 1... P3d 2... P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::BAD_MOVE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7g--7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::BAD_SQUARE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7j P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::UNKNOWN_PIECE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. Z7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::SHORT_MOVE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P-7f P-3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PIECELESS_MOVE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. 7g-7f 3c-3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::USI_MOVE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. 7g7f 3c3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::CHESS_SQUARES, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. Pc4 Pg6\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::MOVE_SEPARATOR, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7g-7f P3c-3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::AT_DROP, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2. Bx2b+ Sx2b 3. B@4e\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PROMOTION_LETTER, PSN, "[Variant \"Shogi\"]\n1. Pc4 Pg6 2. Bxh8=D Sxh8\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::UNCLEAR_PLUS, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. Pc4 Pg6 2. Bxh8+ Sxh8\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::GLYPH, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f! P3d?\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::NAG, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f $1 P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::CLOCK, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f (0:05) P3d (0:10)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::ANNOTATION_ALONE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n!? 1. P7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::WRONG_SIDE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2... P2f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::WRONG_PIECE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. S7g7f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PROMOTED_MARK, PSN, "[FEN \"4k4/9/9/9/4+P4/9/9/9/4K4 0000000/0000000 s 1\"]\n1. P5d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::AMBIGUOUS_MOVE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2. G5h\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::CAPTURE_MARK, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7gx7f P3d\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::CHECK_MARK, PSN, "[Variant \"Shogi\"]\n[FEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1\"]\n1. Pc4+ Pg6\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::ILLEGAL_MOVE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. S7i7f\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::ILLEGAL_DROP, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P*5e\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PROMOTION_MISSING, PSN, "[FEN \"4k4/7P1/9/9/9/9/9/9/4K4 0000000/0000000 s 1\"]\n1. P2a\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::PROMOTION_IMPOSSIBLE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f+\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::SENNICHITE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. R2h-3h R8b-7b 2. R3h-2h R7b-8b 3. R2h-3h R8b-7b 4. R3h-2h R7b-8b 5. R2h-3h R8b-7b 6. R3h-2h R7b-8b 7. R2h-3h\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::SENNICHITE_CLAIM, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d Sennichite\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::MATE_CLAIM, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d Mate\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::RESULT_CONTRADICTION, PSN, "[FEN \"8k/9/7G1/9/9/9/9/9/4K4 0000100/0000000 s 1\"]\n1. G*1b 0-1\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::RESULT_FORM, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 1\u{2013}0\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::END_WORD, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d Resigns\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::END_TWICE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 1-0 0-1\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::psn::WON_LINE, PSN, "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d\n--Black Won--\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::ENCODING, KIF, "#KIF version=2.0 encoding=Shift_JIS\n先手：羽生善治\n後手：森内俊之\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::BAD_BYTES, KIF, b"\x90\xe6\x8e\xe8\x81\x46\x89\x48\x90\xb6\xff\n   1 \x82\x56\x98\x5a\x95\xe0(77)\n"),
    #[cfg(feature = "psn")]
    ex(codes::kif::UNKNOWN_LINE, KIF, "先手：羽生善治\n後手：森内俊之\nthe game was played in Tokyo\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::ASCII_COLON, KIF, "先手:羽生善治\n後手：森内俊之\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::HANDICAP_UNKNOWN, KIF, "手合割：角香落ち\n下手：羽生善治\n上手：森内俊之\n手数----指手---------消費時間--\n   1 ５二玉(51)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::HANDICAP_AMBIGUOUS, KIF, "手合割：五枚落ち\n下手：羽生善治\n上手：森内俊之\n手数----指手---------消費時間--\n   1 ５二玉(51)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::HANDICAP_BOARD, KIF, "手合割：平手\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 金 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金\n手数----指手---------消費時間--\n   1 ５二金打\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::BOARD_SHAPE, KIF, "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 金 ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::HAND, KIF, "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金と銀\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::BOARD_POSITION, KIF, "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::BOARD_AFTER_MOVES, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n後手番\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::BAD_MOVE, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩歩(77)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::MOVE_NUMBER, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   3 ３四歩(33)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::SAME_SPACE, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同銀(31)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::DECLINE_WRITTEN, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::DROP_ORIGIN, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打(00)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::TIME_FORM, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   (0:4/0:0:4)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::BAD_TIME, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:1ｘ/00:00:12)\n   2 ３四歩(33)   ( 0:05/00:00:05)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::ILLEGAL_MOVE, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７五歩(77)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::SAME_FIRST, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 同　歩(77)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::AFTER_ENDING, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::UNKNOWN_ENDING, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 勝ち宣言\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::ENDING_CLAIM, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 詰み\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::VARIATION_UNREACHED, KIF, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n\n変化：3手\n   3 ２六歩(27)\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::WHICH_PIECE, KIF, "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\n▲４五角    △５二金\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::JSA_WORDS, KIF, "手合割：平手\n▲７六歩    △３四歩    ▲６八銀上\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::DECLINE_UNWRITTEN, KIF, "手合割：平手\n▲７六歩    △３四歩    ▲２二角\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::kif::SIDE_MARK, KIF, "手合割：平手\n▲７六歩    ▲３四歩\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::BAD_BYTES, CSA, b"V2.2\nN+\x90\xe6\xff\nPI\n+\n+7776FU\n"),
    #[cfg(feature = "psn")]
    ex(codes::csa::ENCODING, CSA, b"'CSA encoding=UTF-8\nV3.0\nN+\x89\x48\x90\xb6\nPI\n+\n+7776FU\n"),
    #[cfg(feature = "psn")]
    ex(codes::csa::UNKNOWN_STATEMENT, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nT12\n-3334FU,T6,%RESIGN\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::BAD_SQUARE, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7770FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::COLLAPSED_ROW, CSA, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n+7776FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::ROW_WIDTH, CSA, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * -KA *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::START_TWICE, CSA, "V2.2\nPI\nPI82HI\n+\n+7776FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::MISSING_ROWS, CSA, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::HANDICAP_PIECE, CSA, "V2.2\nPI82KA\n-\n-3334FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::PLACED_PIECE, CSA, "V2.2\nP+59OU00HI00HI00HI\nP-51OU\n+\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::START_POSITION, CSA, "V2.2\nP+59OU58FU57FU\nP-51OU\n+\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::NO_SIDE, CSA, "V2.2\nPI\n+7776FU\n-3334FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::LATE_START, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nP+00FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::LATE_INFO, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n$EVENT:Meijin\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::WRONG_SIDE, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n+3334FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::ILLEGAL_MOVE, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n+7674FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::TIME_WITHOUT_MOVE, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\nT5\n+7776FU\nT12\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::AFTER_END, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n%TORYO\n-3334FU\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::csa::END_CONTRADICTS, CSA, "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n%TSUMI\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::BAD_BYTES, JKF, b"{\"header\":{\"\xe5\x85\x88\xe6\x89\x8b\":\"\x90\xe6\"},\"moves\":[{}]}\n"),
    #[cfg(feature = "psn")]
    ex(codes::jkf::SCHEMA, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"PAWN\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::NO_HEADER, JKF, "{\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::NO_TOTAL, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"time\":{\"now\":{\"m\":0,\"s\":12}}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::FIRST_ENTRY, JKF, "{\"header\":{},\"moves\":[{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::EMPTY_ENTRY, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},{\"comments\":[\"a good move\"]}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::BAD_SQUARE, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":0},\"piece\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::START_POSITION, JKF, "{\"header\":{},\"initial\":{\"preset\":\"OTHER\",\"data\":{\"color\":0,\"board\":{},\"hands\":[{\"OU\":1},{}]}},\"moves\":[{}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::WRONG_SIDE, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},{\"move\":{\"color\":0,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::ILLEGAL_MOVE, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":5},\"piece\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::CONTRADICTS, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\",\"capture\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::AFTER_END, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},{\"special\":\"TORYO\"},{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::END_CONTRADICTS, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},{\"special\":\"TSUMI\"}]}\n".as_bytes()),
    #[cfg(feature = "psn")]
    ex(codes::jkf::FORK_OF_END, JKF, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},{\"special\":\"TORYO\",\"forks\":[[{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]]}]}\n".as_bytes()),
    ex(codes::json::SYNTAX, JSON, "{\"sideOnMove\":\"black\",}\n".as_bytes()),
    ex(codes::json::NOT_OBJECT, JSON, "[\"black\"]\n".as_bytes()),
    ex(codes::json::GAME_RECORD, JSON, "{\"header\":{},\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}]}\n".as_bytes()),
    ex(codes::json::MISSING_KEY, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0]}\n".as_bytes()),
    ex(codes::json::UNKNOWN_KEY, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":1,\"comment\":\"x\"}\n".as_bytes()),
    ex(codes::json::DUPLICATE_KEY, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":1,\"moveNumber\":2}\n".as_bytes()),
    ex(codes::json::SIDE, JSON, "{\"sideOnMove\":\"sente\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::PIECES, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":[\"wK\",\"bK\"],\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::SQUARE, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5j\":\"bK\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::DUPLICATE_SQUARE, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\",\"5i\":\"bG\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::PIECE, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bQ\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::UNPROMOTABLE, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\",\"4i\":\"+bG\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::HAND_LENGTH, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::HAND_PIECE, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":{\"king\":1},\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::HAND_COUNT, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,1.5],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":1}\n".as_bytes()),
    ex(codes::json::MOVE_NUMBER, JSON, "{\"sideOnMove\":\"black\",\"blackHand\":[0,0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{\"5a\":\"wK\",\"5i\":\"bK\"},\"moveNumber\":0}\n".as_bytes()),
    ex(codes::json::CASTLING, JSON, "{\"sideOnMove\":\"white\",\"castling\":[\"KQ\"],\"enPassant\":null,\"halfmoveClock\":0,\"fullmoveNumber\":1,\"pieces\":{\"e8\":\"bK\",\"e1\":\"wK\"}}\n".as_bytes()),
    ex(codes::json::EN_PASSANT, JSON, "{\"sideOnMove\":\"white\",\"castling\":[],\"enPassant\":\"z9\",\"halfmoveClock\":0,\"fullmoveNumber\":1,\"pieces\":{\"e8\":\"bK\",\"e1\":\"wK\"}}\n".as_bytes()),
    ex(codes::json::COUNTER, JSON, "{\"sideOnMove\":\"white\",\"castling\":[],\"enPassant\":null,\"halfmoveClock\":-1,\"fullmoveNumber\":1,\"pieces\":{\"e8\":\"bK\",\"e1\":\"wK\"}}\n".as_bytes()),
    ex(codes::json::OPERATIONS, JSON, "{\"sideOnMove\":\"white\",\"castling\":[],\"enPassant\":null,\"pieces\":{\"e8\":\"bK\",\"e1\":\"wK\"},\"operations\":7}\n".as_bytes()),
    ex(codes::input::BOM, SFEN, "\u{feff}lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes()),
    ex(codes::input::NOT_UTF8, SFEN, b"4k4/9/9/9/9/9/9/9/4K4 b \xe2\x80\x93 1\n4k4/9/9/9/9/9/9/9/4K4 b \xff 1\n"),
    ex(codes::input::ENCODING, SFEN, b"4k4/9/9/9/9/9/9/9/4K4 b - 1\n4k4/9/9/9/9/9/9/9/4K4 b \x81| 1\n"),
    ex(codes::input::NOT_TEXT, SFEN, b"\x00\x01\x02\x03\x80\x81\x8d\x8f\x90\x9d\x00\x01\x02\x03\x80\x81\x8d\x8f\x90\x9d\n"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_found_by_its_name_and_a_near_miss_by_its_neighbours() {
        assert_eq!(lookup(codes::sfen::RANK_WIDTH.as_str()).len(), 1);
        assert_eq!(lookup("NIFU")[0].code, codes::sfen::NIFU);
        assert_eq!(lookup("rank_width").len(), 2, "sfen::rank-width and fen::rank-width");
        assert!(lookup("rank").is_empty());
        assert!(nearest("rank", 50).iter().any(|e| e.code == codes::fen::RANK_WIDTH));
        assert_eq!(nearest(&format!("{}u", codes::sfen::NIFU), 1)[0].code, codes::sfen::NIFU);
        assert!(nearest("zzzzzzzzzzzz", 5).is_empty());
    }

    #[test]
    fn examples_follow_the_registry_order_once_each() {
        let order: Vec<Code> = codes::all().map(|e| e.code).collect();
        let at = |c: Code| order.iter().position(|&o| o == c).expect("a code of the registry");
        assert!(EXAMPLES.windows(2).all(|w| at(w[0].code) < at(w[1].code)));
    }
}
