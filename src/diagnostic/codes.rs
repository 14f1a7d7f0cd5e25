//! The registry of diagnostic codes: every code kifu gives a finding, grouped by format, each
//! with what it means.
//!
//! A code is stable: scripts and editors match on it, and the table of `docs/codes.md` and the
//! conformance suite's `codes.tsv` are written from this registry (`KIFU_UPDATE_CODES=1 cargo
//! test --test formats codes::` writes them again). Inside kifu, code that makes or tests a finding
//! names its code by its constant (`codes::sfen::RANK_WIDTH`), never as a string; a user names
//! it by its variant ([`Code::SfenRankWidth`]), by its text (`d.code == "sfen::rank-width"`), or
//! finds it with [`lookup`].

impl Code {
    /// The code as text, `sfen::rank-width`.
    pub const fn as_str(self) -> &'static str {
        CODES[self as usize]
    }

    /// The format or group the code belongs to: `sfen` for `sfen::rank-width`.
    pub fn group(self) -> &'static str {
        let text = self.as_str();
        text.split_once("::").map_or(text, |(group, _)| group)
    }

    /// The code's name in its group: `rank-width` for `sfen::rank-width`.
    pub fn name(self) -> &'static str {
        let text = self.as_str();
        text.split_once("::").map_or(text, |(_, name)| name)
    }
}

/// Codes are ordered by their text, `fen::…` before `psn::…`.
impl Ord for Code {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Code {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A code shows as its text: `Code("sfen::rank-width")`.
impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Code").field(&self.as_str()).finish()
    }
}

/// A code reads as its text: `code.starts_with("psn::")`.
impl std::ops::Deref for Code {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A code of the registry with what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The code, `format::name`.
    pub code: Code,
    /// What it means, in one line.
    pub meaning: &'static str,
}

/// A group of codes: those of one format, or of one command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The prefix of the group's codes, as in `sfen`.
    pub name: &'static str,
    /// The group's title in tables.
    pub title: &'static str,
    /// Where its codes come from, in one line: "Codes of SFEN records (`--format sfen`)."
    pub about: &'static str,
    /// The group's codes, in the registry's order.
    pub codes: &'static [Entry],
}

macro_rules! registry {
    ($(
        #[doc = $group_doc:literal]
        $group:ident $title:literal {
            $( #[doc = $doc:literal] $name:ident $variant:ident = $code:literal, )*
        }
    )*) => {
        /// A diagnostic's stable code, `format::name`: one variant per code of the registry, and
        /// nothing else. It compares with its text (`code == "sfen::rank-width"`), and
        /// [`lookup`] finds one by its text.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $($( #[doc = $doc] $variant, )*)*
        }

        /// The text of each code, in the order of [`Code`]'s variants.
        const CODES: &[&str] = &[$($($code,)*)*];

        /// Each code's constant and variant as the registry names them, with its text.
        #[cfg(test)]
        const NAMES: &[(&str, &str, &str)] = &[$($((stringify!($name), stringify!($variant), $code),)*)*];

        $(
            #[doc = $group_doc]
            // Every code is registered whatever the features; some are given only by a part
            // the features leave out (the tool, the playground).
            #[allow(dead_code)]
            pub(crate) mod $group {
                use super::{Code, Entry};
                $( #[doc = $doc] pub(crate) const $name: Code = Code::$variant; )*
                /// Every code of this group, with what it means.
                pub(crate) const ALL: &[Entry] = &[$(Entry { code: Code::$variant, meaning: $doc.trim_ascii() }),*];
                /// True when `code` is one of this group's.
                pub(crate) fn contains(code: Code) -> bool {
                    code.group() == stringify!($group)
                }
            }
        )*
        /// Every group of codes, in the registry's order.
        pub const GROUPS: &[Group] = &[$(Group { name: stringify!($group), title: $title, about: $group_doc.trim_ascii(), codes: $group::ALL }),*];
    };
}

registry! {
    /// Codes of SFEN records (`--format sfen`).
    sfen "SFEN" {
        /// The record does not follow SFEN's syntax at this place.
        SYNTAX SfenSyntax = "sfen::syntax",
        /// kifu could not read the record because of a fault in its own grammar.
        INTERNAL SfenInternal = "sfen::internal",
        /// The line holds no record.
        EMPTY_RECORD SfenEmptyRecord = "sfen::empty-record",
        /// The line is not an SFEN record, and no slip of one explains it: another format, a command, text.
        NOT_A_RECORD SfenNotARecord = "sfen::not-a-record",
        /// `startpos` is USI's name for the start position, not an SFEN record.
        STARTPOS SfenStartpos = "sfen::startpos",
        /// Part of a USI `position` command (such as `sfen` or `moves`) is written with the record.
        USI_COMMAND SfenUsiCommand = "sfen::usi-command",
        /// Spaces or tabs come before the record.
        LEADING_WHITESPACE SfenLeadingWhitespace = "sfen::leading-whitespace",
        /// Spaces or tabs come after the record.
        TRAILING_WHITESPACE SfenTrailingWhitespace = "sfen::trailing-whitespace",
        /// Fields are not separated by exactly one space.
        SEPARATOR SfenSeparator = "sfen::separator",
        /// A character looks like the one SFEN wants (a full-width letter or digit, a dash) but is another.
        LOOKALIKE SfenLookalike = "sfen::lookalike",
        /// A field of the record is missing.
        MISSING_FIELD SfenMissingField = "sfen::missing-field",
        /// The record has more fields than SFEN's four.
        EXTRA_FIELD SfenExtraField = "sfen::extra-field",
        /// A letter of the board names no shogi piece.
        UNKNOWN_PIECE SfenUnknownPiece = "sfen::unknown-piece",
        /// A letter of the hands names no shogi piece.
        UNKNOWN_HAND_PIECE SfenUnknownHandPiece = "sfen::unknown-hand-piece",
        /// `+` promotes a piece that does not promote (a gold or a king).
        UNPROMOTABLE SfenUnpromotable = "sfen::unpromotable",
        /// A `+` is not right before the piece it promotes.
        DANGLING_PROMOTION SfenDanglingPromotion = "sfen::dangling-promotion",
        /// The board does not have nine ranks.
        RANK_COUNT SfenRankCount = "sfen::rank-count",
        /// A rank covers more or fewer than nine squares.
        RANK_WIDTH SfenRankWidth = "sfen::rank-width",
        /// A rank is empty (nothing between two `/`).
        EMPTY_RANK SfenEmptyRank = "sfen::empty-rank",
        /// A `0` counts empty squares on the board.
        EMPTY_COUNT_ZERO SfenEmptyCountZero = "sfen::empty-count-zero",
        /// One run of empty squares is written as several digits side by side.
        SPLIT_EMPTY_RUN SfenSplitEmptyRun = "sfen::split-empty-run",
        /// The side to move is not `b` or `w` (`B` or `W` in SFEN 2007).
        SIDE SfenSide = "sfen::side",
        /// A side letter of SFEN 2007 is used where USI is asked for, or the other way round.
        DIALECT SfenDialect = "sfen::dialect",
        /// The record mixes the USI and SFEN 2007 dialects.
        MIXED_DIALECT SfenMixedDialect = "sfen::mixed-dialect",
        /// A count in the hands has no piece after it.
        DANGLING_COUNT SfenDanglingCount = "sfen::dangling-count",
        /// `-` (empty hands) is combined with pieces.
        HAND_DASH SfenHandDash = "sfen::hand-dash",
        /// A count in the hands has a leading zero.
        HAND_COUNT_FORM SfenHandCountForm = "sfen::hand-count-form",
        /// A count of 1 is written in the hands, where the piece alone says it.
        HAND_COUNT_ONE SfenHandCountOne = "sfen::hand-count-one",
        /// A count in the hands has more than two digits.
        HAND_COUNT_RANGE SfenHandCountRange = "sfen::hand-count-range",
        /// A count of 0 is written in the hands.
        HAND_COUNT_ZERO SfenHandCountZero = "sfen::hand-count-zero",
        /// The hands are not in USI's order (rook, bishop, gold, silver, knight, lance, pawn; Black first).
        HAND_ORDER SfenHandOrder = "sfen::hand-order",
        /// The same piece is listed twice in one hand.
        HAND_REPEAT SfenHandRepeat = "sfen::hand-repeat",
        /// A king is in hand.
        KING_IN_HAND SfenKingInHand = "sfen::king-in-hand",
        /// A promoted piece is in hand.
        PROMOTED_IN_HAND SfenPromotedInHand = "sfen::promoted-in-hand",
        /// The move number is negative.
        MOVE_NUMBER SfenMoveNumber = "sfen::move-number",
        /// The move number has a leading zero.
        MOVE_NUMBER_FORM SfenMoveNumberForm = "sfen::move-number-form",
        /// The move number is too large to read.
        MOVE_NUMBER_RANGE SfenMoveNumberRange = "sfen::move-number-range",
        /// The move number is 0; moves count from 1.
        MOVE_NUMBER_ZERO SfenMoveNumberZero = "sfen::move-number-zero",
        /// The move number is the other side's in a game without handicap (Black plays the odd moves).
        MOVE_PARITY SfenMoveParity = "sfen::move-parity",
        /// There are more pieces of one kind, on the board and in hand, than a set holds.
        TOO_MANY_PIECES SfenTooManyPieces = "sfen::too-many-pieces",
        /// A side has no king.
        MISSING_KING SfenMissingKing = "sfen::missing-king",
        /// A side has more than one king.
        TWO_KINGS SfenTwoKings = "sfen::two-kings",
        /// A side has two unpromoted pawns on one file (nifu).
        NIFU SfenNifu = "sfen::nifu",
        /// A pawn, lance or knight stands where it can never move.
        DEAD_PIECE SfenDeadPiece = "sfen::dead-piece",
        /// The side that is not to move is in check.
        OPPOSITE_CHECK SfenOppositeCheck = "sfen::opposite-check",
        /// The side to move is in a check that no last move could give.
        IMPOSSIBLE_CHECK SfenImpossibleCheck = "sfen::impossible-check",
    }
    /// Codes of FEN and EPD records (`--format fen`, `--format epd`).
    fen "FEN and EPD" {
        /// The record does not follow FEN's syntax at this place.
        SYNTAX FenSyntax = "fen::syntax",
        /// kifu could not read the record because of a fault in its own grammar.
        INTERNAL FenInternal = "fen::internal",
        /// The line holds no record.
        EMPTY_RECORD FenEmptyRecord = "fen::empty-record",
        /// The line is not a FEN or EPD record, and no slip of one explains it: a shogi record, another format, text.
        NOT_A_RECORD FenNotARecord = "fen::not-a-record",
        /// Spaces or tabs come before the record.
        LEADING_WHITESPACE FenLeadingWhitespace = "fen::leading-whitespace",
        /// Spaces or tabs come after the record.
        TRAILING_WHITESPACE FenTrailingWhitespace = "fen::trailing-whitespace",
        /// Fields are not separated by exactly one space.
        SEPARATOR FenSeparator = "fen::separator",
        /// A character looks like the one FEN wants (a full-width letter or digit, a dash) but is another.
        LOOKALIKE FenLookalike = "fen::lookalike",
        /// A field of the record is missing.
        MISSING_FIELD FenMissingField = "fen::missing-field",
        /// The record has more fields than FEN's six.
        EXTRA_FIELD FenExtraField = "fen::extra-field",
        /// The EPD operations are not opcodes with operands, each ended by `;`.
        EPD_OPERATIONS FenEpdOperations = "fen::epd-operations",
        /// A letter of the board names no chess piece.
        UNKNOWN_PIECE FenUnknownPiece = "fen::unknown-piece",
        /// The board does not have eight ranks.
        RANK_COUNT FenRankCount = "fen::rank-count",
        /// A rank covers more or fewer than eight squares.
        RANK_WIDTH FenRankWidth = "fen::rank-width",
        /// A rank is empty (nothing between two `/`).
        EMPTY_RANK FenEmptyRank = "fen::empty-rank",
        /// A `0` counts blank squares on the board.
        BLANK_ZERO FenBlankZero = "fen::blank-zero",
        /// One run of blank squares is written as several digits side by side.
        SPLIT_BLANK_RUN FenSplitBlankRun = "fen::split-blank-run",
        /// The active colour is not `w` or `b`.
        SIDE FenSide = "fen::side",
        /// The castling field holds something other than castling rights or `-`.
        CASTLING FenCastling = "fen::castling",
        /// A castling right names a rook's file (Chess960) in a standard FEN.
        CASTLING_CHESS960 FenCastlingChess960 = "fen::castling-chess960",
        /// The castling rights are not in the usual order (`KQkq`).
        CASTLING_ORDER FenCastlingOrder = "fen::castling-order",
        /// A castling right is listed twice.
        CASTLING_REPEAT FenCastlingRepeat = "fen::castling-repeat",
        /// A castling right is given to a side whose king or rook has left its start square.
        CASTLING_RIGHTS FenCastlingRights = "fen::castling-rights",
        /// The en passant field is not a square of rank 3 or 6, nor `-`.
        EN_PASSANT FenEnPassant = "fen::en-passant",
        /// The en passant square is on the rank of the side to move, not of the side that just moved.
        EP_RANK FenEpRank = "fen::ep-rank",
        /// No pawn stands where a double step over the en passant square would have put it.
        EP_NO_PAWN FenEpNoPawn = "fen::ep-no-pawn",
        /// A piece stands on a square the double-stepping pawn just crossed.
        EP_BLOCKED FenEpBlocked = "fen::ep-blocked",
        /// The halfmove clock is not 0 though a pawn has just moved.
        EP_HALFMOVE FenEpHalfmove = "fen::ep-halfmove",
        /// The halfmove clock is not a whole number.
        HALFMOVE FenHalfmove = "fen::halfmove",
        /// The fullmove number is not a whole number.
        FULLMOVE FenFullmove = "fen::fullmove",
        /// The fullmove number is 0; moves count from 1.
        FULLMOVE_ZERO FenFullmoveZero = "fen::fullmove-zero",
        /// The halfmove clock counts more half-moves than the game has played.
        HALFMOVE_TOO_LARGE FenHalfmoveTooLarge = "fen::halfmove-too-large",
        /// A side has no king.
        MISSING_KING FenMissingKing = "fen::missing-king",
        /// A side has more than one king.
        TOO_MANY_KINGS FenTooManyKings = "fen::too-many-kings",
        /// A pawn stands on rank 1 or 8.
        PAWN_ON_BACK_RANK FenPawnOnBackRank = "fen::pawn-on-back-rank",
        /// A side has more than eight pawns.
        TOO_MANY_PAWNS FenTooManyPawns = "fen::too-many-pawns",
        /// A side has more than sixteen pieces.
        TOO_MANY_PIECES FenTooManyPieces = "fen::too-many-pieces",
        /// A side has more promoted pieces than its missing pawns allow.
        IMPOSSIBLE_MATERIAL FenImpossibleMaterial = "fen::impossible-material",
        /// The side that is not to move is in check.
        OPPOSITE_CHECK FenOppositeCheck = "fen::opposite-check",
        /// The side to move is in a check that no last move could give.
        IMPOSSIBLE_CHECK FenImpossibleCheck = "fen::impossible-check",
    }
    /// Codes of PSN game records (`--format psn`).
    psn "PSN" {
        /// The game is too long to read.
        GAME_TOO_LONG PsnGameTooLong = "psn::game-too-long",
        /// A line of the game is too long to read.
        LINE_TOO_LONG PsnLineTooLong = "psn::line-too-long",
        /// Variations nest too deep to read.
        TOO_DEEP PsnTooDeep = "psn::too-deep",
        /// The game has more findings than kifu shows.
        MORE_FINDINGS PsnMoreFindings = "psn::more-findings",
        /// The text holds NUL bytes.
        NUL_BYTE PsnNulByte = "psn::nul-byte",
        /// The game is not in UTF-8: it is read in the encoding named (UTF-16, Shift_JIS, CP437 or ISO-8859-1).
        ENCODING PsnEncoding = "psn::encoding",
        /// A header line cannot be read as `[Keyword "text"]`.
        HEADER_SHAPE PsnHeaderShape = "psn::header-shape",
        /// A header has no keyword.
        HEADER_KEYWORD PsnHeaderKeyword = "psn::header-keyword",
        /// A header line has no closing `]`.
        HEADER_UNCLOSED PsnHeaderUnclosed = "psn::header-unclosed",
        /// A header's value is not between two double quotes.
        HEADER_UNQUOTED PsnHeaderUnquoted = "psn::header-unquoted",
        /// A header's value holds a double quote of its own.
        HEADER_QUOTE PsnHeaderQuote = "psn::header-quote",
        /// A header's keyword and value are not one space apart.
        HEADER_SPACE PsnHeaderSpace = "psn::header-space",
        /// A colon follows a header's keyword (as gshogi writes).
        HEADER_COLON PsnHeaderColon = "psn::header-colon",
        /// Text follows a header's closing `]`.
        HEADER_TRAILER PsnHeaderTrailer = "psn::header-trailer",
        /// Two headers share a line.
        HEADER_SHARED_LINE PsnHeaderSharedLine = "psn::header-shared-line",
        /// A header's keyword holds characters other than letters.
        TAG_NAME PsnTagName = "psn::tag-name",
        /// The game gives its starting position twice.
        SETUP_TWICE PsnSetupTwice = "psn::setup-twice",
        /// The starting position is given in an `SFEN` header, which the spec does not have.
        SFEN_HEADER PsnSfenHeader = "psn::sfen-header",
        /// An `SFEN` header holds only a board.
        SFEN_BOARD_ONLY PsnSfenBoardOnly = "psn::sfen-board-only",
        /// The starting position is given in GSDB's own format, not a `FEN` header.
        GSDB_SETUP PsnGsdbSetup = "psn::gsdb-setup",
        /// A `FEN` header has no board.
        FEN_SHAPE PsnFenShape = "psn::fen-shape",
        /// A `FEN` header's hands cannot be read.
        FEN_HAND PsnFenHand = "psn::fen-hand",
        /// A `FEN` header's side to move cannot be read.
        FEN_SIDE PsnFenSide = "psn::fen-side",
        /// A `FEN` header's move-pair number is not a number.
        FEN_NUMBER PsnFenNumber = "psn::fen-number",
        /// A `FEN` header holds an SFEN position, not the spec's FEN.
        FEN_SFEN PsnFenSfen = "psn::fen-sfen",
        /// A `FEN` header holds pychess's chess-style FEN, not the spec's.
        FEN_PYCHESS PsnFenPychess = "psn::fen-pychess",
        /// A count in the hand of pychess's FEN, which writes a letter for each piece.
        PYCHESS_HAND_COUNT PsnPychessHandCount = "psn::pychess-hand-count",
        /// The `Handicap` header names a handicap kifu does not know.
        HANDICAP_UNKNOWN PsnHandicapUnknown = "psn::handicap-unknown",
        /// The `Handicap` header names a handicap otherwise than the spec does.
        HANDICAP_WORDING PsnHandicapWording = "psn::handicap-wording",
        /// White moves first, but the game has no `Handicap` header.
        HANDICAP_MISSING PsnHandicapMissing = "psn::handicap-missing",
        /// A `{` comment never ends.
        COMMENT_UNCLOSED PsnCommentUnclosed = "psn::comment-unclosed",
        /// A `}` closes no comment.
        COMMENT_UNOPENED PsnCommentUnopened = "psn::comment-unopened",
        /// Comments hold braces of their own.
        NESTED_BRACES PsnNestedBraces = "psn::nested-braces",
        /// Comments write a line break as `~`.
        TILDE_NEWLINE PsnTildeNewline = "psn::tilde-newline",
        /// The game has `;` comments, which the spec does not have.
        LINE_COMMENT PsnLineComment = "psn::line-comment",
        /// The game has `%` escape lines, which the spec does not have.
        ESCAPE_LINE PsnEscapeLine = "psn::escape-line",
        /// The game holds commentary outside braces.
        PROSE PsnProse = "psn::prose",
        /// The game has variations in parentheses.
        VARIATION PsnVariation = "psn::variation",
        /// A variation comes before any move.
        VARIATION_FIRST PsnVariationFirst = "psn::variation-first",
        /// A `(` variation never ends.
        VARIATION_UNCLOSED PsnVariationUnclosed = "psn::variation-unclosed",
        /// A `)` closes no variation.
        VARIATION_UNOPENED PsnVariationUnopened = "psn::variation-unopened",
        /// The game has `Variation:` lines.
        VARIATION_LINE PsnVariationLine = "psn::variation-line",
        /// A word of the movetext is not PSN.
        UNKNOWN_WORD PsnUnknownWord = "psn::unknown-word",
        /// The game does not follow PSN's syntax at this place.
        SYNTAX PsnSyntax = "psn::syntax",
        /// The moves have no sequence numbers.
        UNNUMBERED PsnUnnumbered = "psn::unnumbered",
        /// Moves are numbered one per ply, not one per pair.
        PLY_NUMBERS PsnPlyNumbers = "psn::ply-numbers",
        /// A move number is not the one expected next.
        NUMBER_ORDER PsnNumberOrder = "psn::number-order",
        /// A move number names the wrong side (`…` where Black moves, or none where White does).
        NUMBER_SIDE PsnNumberSide = "psn::number-side",
        /// A move has more than one separator between its squares.
        BAD_MOVE PsnBadMove = "psn::bad-move",
        /// A move names a square off the board.
        BAD_SQUARE PsnBadSquare = "psn::bad-square",
        /// A move names no shogi piece.
        UNKNOWN_PIECE PsnUnknownPiece = "psn::unknown-piece",
        /// Moves are written in a short form, without the square they leave.
        SHORT_MOVE PsnShortMove = "psn::short-move",
        /// Moves are written with no piece letter.
        PIECELESS_MOVE PsnPiecelessMove = "psn::pieceless-move",
        /// Moves are written in USI coordinates.
        USI_MOVE PsnUsiMove = "psn::usi-move",
        /// Moves are written in chess coordinates.
        CHESS_SQUARES PsnChessSquares = "psn::chess-squares",
        /// Moves are written with `-` or `x` between their squares.
        MOVE_SEPARATOR PsnMoveSeparator = "psn::move-separator",
        /// Drops are written with `@`.
        AT_DROP PsnAtDrop = "psn::at-drop",
        /// A promotion is written with the wrong promoted letter.
        PROMOTION_LETTER PsnPromotionLetter = "psn::promotion-letter",
        /// A `+` after a move may mean check or promotion.
        UNCLEAR_PLUS PsnUnclearPlus = "psn::unclear-plus",
        /// Moves carry annotation glyphs (`!`, `?`).
        GLYPH PsnGlyph = "psn::glyph",
        /// Moves carry numeric annotations (`$n`).
        NAG PsnNag = "psn::nag",
        /// Moves carry clock times.
        CLOCK PsnClock = "psn::clock",
        /// An annotation follows no move.
        ANNOTATION_ALONE PsnAnnotationAlone = "psn::annotation-alone",
        /// A move is played by the side not on move.
        WRONG_SIDE PsnWrongSide = "psn::wrong-side",
        /// A move names another piece than the one on the square it leaves.
        WRONG_PIECE PsnWrongPiece = "psn::wrong-piece",
        /// A move names a piece as promoted (or not) otherwise than it stands.
        PROMOTED_MARK PsnPromotedMark = "psn::promoted-mark",
        /// A short move fits more than one piece.
        AMBIGUOUS_MOVE PsnAmbiguousMove = "psn::ambiguous-move",
        /// A move is written as a capture onto an empty square, or as a plain move onto a piece.
        CAPTURE_MARK PsnCaptureMark = "psn::capture-mark",
        /// A move is marked as check or mate, but is not.
        CHECK_MARK PsnCheckMark = "psn::check-mark",
        /// A move breaks the rules of shogi.
        ILLEGAL_MOVE PsnIllegalMove = "psn::illegal-move",
        /// A drop breaks the rules of shogi.
        ILLEGAL_DROP PsnIllegalDrop = "psn::illegal-drop",
        /// A piece that must promote does not.
        PROMOTION_MISSING PsnPromotionMissing = "psn::promotion-missing",
        /// A move promotes a piece that cannot promote there.
        PROMOTION_IMPOSSIBLE PsnPromotionImpossible = "psn::promotion-impossible",
        /// The same position occurs a fourth time (sennichite), which ends the game.
        SENNICHITE PsnSennichite = "psn::sennichite",
        /// The game claims sennichite, but no position occurred four times.
        SENNICHITE_CLAIM PsnSennichiteClaim = "psn::sennichite-claim",
        /// The game claims checkmate, but the side to move is not checkmated.
        MATE_CLAIM PsnMateClaim = "psn::mate-claim",
        /// The result calls a move illegal that the side to move may play.
        RESULT_CLAIM PsnResultClaim = "psn::result-claim",
        /// The result names as winner the side that is checkmated.
        RESULT_CONTRADICTION PsnResultContradiction = "psn::result-contradiction",
        /// The result is not written as the spec writes it.
        RESULT_FORM PsnResultForm = "psn::result-form",
        /// The game ends with a word, not a result.
        END_WORD PsnEndWord = "psn::end-word",
        /// The game ends a second time.
        END_TWICE PsnEndTwice = "psn::end-twice",
        /// The game ends with a `--… Won--` line.
        WON_LINE PsnWonLine = "psn::won-line",
    }
    /// Codes of KIF game records (`--format kif`).
    kif "KIF" {
        /// The record is too large to read.
        TOO_LARGE KifTooLarge = "kif::too-large",
        /// A line of the record is too long to read.
        LINE_TOO_LONG KifLineTooLong = "kif::line-too-long",
        /// Variations nest too deep to read.
        TOO_DEEP KifTooDeep = "kif::too-deep",
        /// The record has more findings than kifu shows.
        MORE_FINDINGS KifMoreFindings = "kif::more-findings",
        /// The record is in an encoding that its extension or its `#KIF` line does not say.
        ENCODING KifEncoding = "kif::encoding",
        /// The record holds bytes that are not text in any encoding KIF is written in.
        BAD_BYTES KifBadBytes = "kif::bad-bytes",
        /// A line is none of the lines a KIF record holds.
        UNKNOWN_LINE KifUnknownLine = "kif::unknown-line",
        /// A header's key is followed by an ASCII colon, where KIF writes a full-width one.
        ASCII_COLON KifAsciiColon = "kif::ascii-colon",
        /// The start names a handicap KIF does not know.
        HANDICAP_UNKNOWN KifHandicapUnknown = "kif::handicap-unknown",
        /// The start names a handicap that programs set up differently.
        HANDICAP_AMBIGUOUS KifHandicapAmbiguous = "kif::handicap-ambiguous",
        /// The handicap named and the board diagram differ: the diagram is read.
        HANDICAP_BOARD KifHandicapBoard = "kif::handicap-board",
        /// The board diagram cannot be read: a rank does not hold nine cells, or there are not nine ranks.
        BOARD_SHAPE KifBoardShape = "kif::board-shape",
        /// The pieces in hand of a board diagram cannot be read.
        HAND KifHand = "kif::hand",
        /// The position of the board diagram breaks the rules of shogi.
        BOARD_POSITION KifBoardPosition = "kif::board-position",
        /// A line of a board diagram comes after the moves, where it is not read.
        BOARD_AFTER_MOVES KifBoardAfterMoves = "kif::board-after-moves",
        /// A move line's move cannot be read.
        BAD_MOVE KifBadMove = "kif::bad-move",
        /// A move's number is not its place in its line.
        MOVE_NUMBER KifMoveNumber = "kif::move-number",
        /// `同` is written without the full-width space after it.
        SAME_SPACE KifSameSpace = "kif::same-space",
        /// `不成` is written, where KIF writes nothing for a promotion declined.
        DECLINE_WRITTEN KifDeclineWritten = "kif::decline-written",
        /// A drop's origin is written `(00)`, where KIF writes `打` alone.
        DROP_ORIGIN KifDropOrigin = "kif::drop-origin",
        /// A time's fields are not written with two digits.
        TIME_FORM KifTimeForm = "kif::time-form",
        /// A move's time cannot be read.
        BAD_TIME KifBadTime = "kif::bad-time",
        /// A move is not legal in its position, or does not match it.
        ILLEGAL_MOVE KifIllegalMove = "kif::illegal-move",
        /// `同` names the square of a move before the first.
        SAME_FIRST KifSameFirst = "kif::same-first",
        /// A move comes after its line's ending.
        AFTER_ENDING KifAfterEnding = "kif::after-ending",
        /// An ending's word is not one KIF names.
        UNKNOWN_ENDING KifUnknownEnding = "kif::unknown-ending",
        /// An ending says what the moves do not show: a mate that is none, a repetition that did not happen.
        ENDING_CLAIM KifEndingClaim = "kif::ending-claim",
        /// A variation branches at a move that no line before it reaches.
        VARIATION_UNREACHED KifVariationUnreached = "kif::variation-unreached",
        /// Several pieces can make a KI2 move and its words do not say which, or say none of them.
        WHICH_PIECE KifWhichPiece = "kif::which-piece",
        /// A KI2 move's words that tell it from others (左 直 右, 上 寄 引, 打) are not those the JSA's rules write.
        JSA_WORDS KifJsaWords = "kif::jsa-words",
        /// A KI2 move that could promote writes nothing, where the JSA's rules write `不成`.
        DECLINE_UNWRITTEN KifDeclineUnwritten = "kif::decline-unwritten",
        /// A KI2 move's mark names the side that is not to move.
        SIDE_MARK KifSideMark = "kif::side-mark",
    }
    /// Codes of CSA game records (`--format csa`).
    csa "CSA" {
        /// The record is too large to read.
        TOO_LARGE CsaTooLarge = "csa::too-large",
        /// The record has more findings than kifu shows.
        MORE_FINDINGS CsaMoreFindings = "csa::more-findings",
        /// Bytes that are not text in the record's encoding.
        BAD_BYTES CsaBadBytes = "csa::bad-bytes",
        /// The file's first line names another encoding than the one it is in.
        ENCODING CsaEncoding = "csa::encoding",
        /// A statement that is no statement of a CSA record.
        UNKNOWN_STATEMENT CsaUnknownStatement = "csa::unknown-statement",
        /// A square that is not one of the board (`70`).
        BAD_SQUARE CsaBadSquare = "csa::bad-square",
        /// A board row whose spaces were collapsed.
        COLLAPSED_ROW CsaCollapsedRow = "csa::collapsed-row",
        /// A board row of other than nine squares.
        ROW_WIDTH CsaRowWidth = "csa::row-width",
        /// The start position is given twice, or in two forms that do not go together.
        START_TWICE CsaStartTwice = "csa::start-twice",
        /// The board is drawn without all of its nine rows.
        MISSING_ROWS CsaMissingRows = "csa::missing-rows",
        /// A handicap's piece is not on the square `PI` takes it from.
        HANDICAP_PIECE CsaHandicapPiece = "csa::handicap-piece",
        /// A piece placed by `P+` or `P-` that no set has left to place.
        PLACED_PIECE CsaPlacedPiece = "csa::placed-piece",
        /// The start position breaks the rules of shogi.
        START_POSITION CsaStartPosition = "csa::start-position",
        /// No line says which side moves first.
        NO_SIDE CsaNoSide = "csa::no-side",
        /// A start position statement after the moves have begun.
        LATE_START CsaLateStart = "csa::late-start",
        /// A name or information line after the moves have begun.
        LATE_INFO CsaLateInfo = "csa::late-info",
        /// A move of the side that is not to move.
        WRONG_SIDE CsaWrongSide = "csa::wrong-side",
        /// A move that is not legal in the position, or whose piece is not the one that moves.
        ILLEGAL_MOVE CsaIllegalMove = "csa::illegal-move",
        /// A time with no move before it.
        TIME_WITHOUT_MOVE CsaTimeWithoutMove = "csa::time-without-move",
        /// A move or an end after the game has ended.
        AFTER_END CsaAfterEnd = "csa::after-end",
        /// An end that contradicts the position (`%TSUMI` where there is no mate).
        END_CONTRADICTS CsaEndContradicts = "csa::end-contradicts",
    }
    /// Codes of JKF game records (`--format jkf`).
    jkf "JKF" {
        /// The record is too large to read.
        TOO_LARGE JkfTooLarge = "jkf::too-large",
        /// The record has more findings than kifu shows.
        MORE_FINDINGS JkfMoreFindings = "jkf::more-findings",
        /// Bytes that are not UTF-8.
        BAD_BYTES JkfBadBytes = "jkf::bad-bytes",
        /// A value JKF's schema does not allow: a key missing or unknown, a value of another type or not one of its names.
        SCHEMA JkfSchema = "jkf::schema",
        /// The record has no `header`, which the schema requires.
        NO_HEADER JkfNoHeader = "jkf::no-header",
        /// A time without the mover's `total`, which the schema requires.
        NO_TOTAL JkfNoTotal = "jkf::no-total",
        /// The first entry of `moves`, the start's, holds a move, a time or an end.
        FIRST_ENTRY JkfFirstEntry = "jkf::first-entry",
        /// An entry after the first holds neither a move nor an end.
        EMPTY_ENTRY JkfEmptyEntry = "jkf::empty-entry",
        /// A square that is not one of the board.
        BAD_SQUARE JkfBadSquare = "jkf::bad-square",
        /// The start position breaks the rules of shogi, or differs from its handicap's.
        START_POSITION JkfStartPosition = "jkf::start-position",
        /// A move of the side that is not to move.
        WRONG_SIDE JkfWrongSide = "jkf::wrong-side",
        /// A move that is not legal in the position.
        ILLEGAL_MOVE JkfIllegalMove = "jkf::illegal-move",
        /// What a move says beside its squares (`piece`, `same`, `capture`, `promote`, `relative`) contradicts the position.
        CONTRADICTS JkfContradicts = "jkf::contradicts",
        /// A move or an end after the end of its line.
        AFTER_END JkfAfterEnd = "jkf::after-end",
        /// An end that contradicts the position (`TSUMI` where there is no mate).
        END_CONTRADICTS JkfEndContradicts = "jkf::end-contradicts",
        /// Lines played instead of an end, which a game keeps only for moves.
        FORK_OF_END JkfForkOfEnd = "jkf::fork-of-end",
    }
    /// Codes of positions written as JSON (`--format json`).
    json "JSON positions" {
        /// The JSON document is too long to read whole.
        TOO_LARGE JsonTooLarge = "json::too-large",
        /// JSON values nest too deep.
        TOO_DEEP JsonTooDeep = "json::too-deep",
        /// The text is not JSON at this place.
        SYNTAX JsonSyntax = "json::syntax",
        /// A position is not a JSON object.
        NOT_OBJECT JsonNotObject = "json::not-object",
        /// A JKF game record where a position is read.
        GAME_RECORD JsonGameRecord = "json::game-record",
        /// A position lacks a key it needs.
        MISSING_KEY JsonMissingKey = "json::missing-key",
        /// A position has a key it does not know.
        UNKNOWN_KEY JsonUnknownKey = "json::unknown-key",
        /// A key is given twice.
        DUPLICATE_KEY JsonDuplicateKey = "json::duplicate-key",
        /// The side to move is not `"black"` or `"white"`.
        SIDE JsonSide = "json::side",
        /// The pieces are not an object from square to piece.
        PIECES JsonPieces = "json::pieces",
        /// A square is not a square of the board.
        SQUARE JsonSquare = "json::square",
        /// A square is given twice.
        DUPLICATE_SQUARE JsonDuplicateSquare = "json::duplicate-square",
        /// A piece code names no piece.
        PIECE JsonPiece = "json::piece",
        /// A piece code promotes a piece that does not promote.
        UNPROMOTABLE JsonUnpromotable = "json::unpromotable",
        /// A hand is not seven counts.
        HAND_LENGTH JsonHandLength = "json::hand-length",
        /// A hand holds a kind of piece that is never in hand.
        HAND_PIECE JsonHandPiece = "json::hand-piece",
        /// A count in hand is more than any set holds.
        HAND_COUNT JsonHandCount = "json::hand-count",
        /// The move number is not a whole number from 1.
        MOVE_NUMBER JsonMoveNumber = "json::move-number",
        /// A castling right is not one letter.
        CASTLING JsonCastling = "json::castling",
        /// The en passant square is not a square or `null`.
        EN_PASSANT JsonEnPassant = "json::en-passant",
        /// The halfmove clock or fullmove number is not a whole number in range.
        COUNTER JsonCounter = "json::counter",
        /// The EPD operations are not a string.
        OPERATIONS JsonOperations = "json::operations",
    }
    /// Codes of the input itself, whatever its format: its bytes and lines.
    input "Input" {
        /// The file starts with a byte-order mark.
        BOM InputBom = "input::bom",
        /// A line of a UTF-8 file holds bytes that are not UTF-8.
        NOT_UTF8 InputNotUtf8 = "input::not-utf8",
        /// The file is not in UTF-8: it is read in the encoding named (UTF-16, Shift_JIS, CP437 or ISO-8859-1).
        ENCODING InputEncoding = "input::encoding",
        /// The file is not text (control codes and bytes of no encoding): it is read no further.
        NOT_TEXT InputNotText = "input::not-text",
        /// A line is too long to be a record.
        LINE_TOO_LONG InputLineTooLong = "input::line-too-long",
        /// The input has more findings than kifu shows.
        TOO_MANY_FINDINGS InputTooManyFindings = "input::too-many-findings",
    }
    /// Codes of grammars read by `kifu grammar` and of their differences.
    grammar "Grammars" {
        /// A grammar file is not UTF-8 text.
        NOT_UTF8 GrammarNotUtf8 = "grammar::not-utf8",
        /// A grammar is too large to read.
        TOO_LARGE GrammarTooLarge = "grammar::too-large",
        /// A grammar nests too deep.
        TOO_DEEP GrammarTooDeep = "grammar::too-deep",
        /// A grammar defines too many rules.
        TOO_MANY_RULES GrammarTooManyRules = "grammar::too-many-rules",
        /// A rule holds too many terms.
        RULE_TOO_LONG GrammarRuleTooLong = "grammar::rule-too-long",
        /// A repetition count is too large.
        COUNT_TOO_LARGE GrammarCountTooLarge = "grammar::count-too-large",
        /// A rule would take too much work to run.
        TOO_COSTLY GrammarTooCostly = "grammar::too-costly",
        /// A grammar does not parse at this place.
        SYNTAX GrammarSyntax = "grammar::syntax",
        /// An escape in a grammar names no character.
        BAD_ESCAPE GrammarBadEscape = "grammar::bad-escape",
        /// A grammar is not valid.
        INVALID GrammarInvalid = "grammar::invalid",
        /// A rule is defined twice.
        DUPLICATE_RULE GrammarDuplicateRule = "grammar::duplicate-rule",
        /// A rule is used but never defined.
        UNDEFINED_RULE GrammarUndefinedRule = "grammar::undefined-rule",
        /// The rule asked for is not in the grammar.
        UNKNOWN_RULE GrammarUnknownRule = "grammar::unknown-rule",
        /// A rule is named with a reserved word.
        RESERVED_NAME GrammarReservedName = "grammar::reserved-name",
        /// A rule calls itself before reading anything, so it would loop forever.
        LEFT_RECURSION GrammarLeftRecursion = "grammar::left-recursion",
        /// A repetition can match nothing, so it would repeat forever.
        ENDLESS_REPETITION GrammarEndlessRepetition = "grammar::endless-repetition",
        /// An edited grammar accepts a record the shipped one rejects.
        NEWLY_ACCEPTED GrammarNewlyAccepted = "grammar::newly-accepted",
        /// An edited grammar rejects a record the shipped one accepts.
        NEWLY_REJECTED GrammarNewlyRejected = "grammar::newly-rejected",
        /// An edited grammar reads a record into another parse tree.
        CHANGED_TREE GrammarChangedTree = "grammar::changed-tree",
        /// A grammar was stopped on a record of the corpus: the record has no verdict to compare.
        STOPPED GrammarStopped = "grammar::stopped",
    }
    /// Codes of `kifu tree`, which shows a record as a grammar reads it.
    tree "Parse trees" {
        /// The rule asked for does not match the record.
        REJECTED TreeRejected = "tree::rejected",
        /// The record is too long to show as a parse tree.
        TOO_LONG TreeTooLong = "tree::too-long",
        /// The rule took too long on the record.
        TOO_SLOW TreeTooSlow = "tree::too-slow",
        /// The rule was stopped on the record after too much work.
        TOO_MUCH_WORK TreeTooMuchWork = "tree::too-much-work",
        /// The rule cannot run on the record because of a fault in the grammar.
        GRAMMAR_FAULT TreeGrammarFault = "tree::grammar-fault",
    }
    /// Codes of `kifu conformance`, which scores another validator.
    conformance "Conformance" {
        /// The validator accepts a case the suite expects invalid.
        ACCEPTED_INVALID ConformanceAcceptedInvalid = "conformance::accepted-invalid",
        /// The validator rejects a case the suite expects valid.
        REJECTED_VALID ConformanceRejectedValid = "conformance::rejected-valid",
        /// The validator failed on a case (another exit status, a signal, or a timeout).
        FAILED ConformanceFailed = "conformance::failed",
    }
}

/// Every code of the registry, group by group.
pub fn all() -> impl Iterator<Item = &'static Entry> {
    GROUPS.iter().flat_map(|g| g.codes)
}

/// The registry's entry for `code`, or `None` when kifu has no such code.
pub fn lookup(code: &str) -> Option<&'static Entry> {
    all().find(|e| e.code == code)
}

/// The group named `name` (`sfen`).
pub fn group(name: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == name)
}

/// A code or group as a user may write it, as the registry writes it: trimmed, in lower case,
/// with `-` for `_` (`SFEN::Rank_Width` is `sfen::rank-width`).
pub fn normalized(written: &str) -> String {
    written.trim().to_ascii_lowercase().replace('_', "-")
}

/// The table of `docs/codes.md`: one Markdown table per group, with a heading each.
pub fn markdown() -> String {
    let mut out = String::new();
    for group in GROUPS {
        out.push_str(&format!("#### {}\n\n| Code | Meaning |\n| --- | --- |\n", group.title));
        for e in group.codes {
            out.push_str(&format!("| [`{}`]({}) | {} |\n", e.code, page(e.code), e.meaning.replace('|', "\\|")));
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// The path of `code`'s page under `docs/`: `codes/sfen/rank-width.md` (written by `kifu explain`).
pub fn page(code: Code) -> String {
    format!("codes/{}.md", code.as_str().replace("::", "/"))
}

/// The conformance suite's list of codes (`codes.tsv`): a header line, then one code per line,
/// tab-separated: `group`, `code`, `meaning`.
pub fn tsv() -> String {
    let mut out = String::from("group\tcode\tmeaning\n");
    for group in GROUPS {
        for e in group.codes {
            out.push_str(&format!("{}\t{}\t{}\n", group.name, e.code, e.meaning));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each code is unique, belongs to its group, and its constant is its name in capitals.
    #[test]
    fn codes_are_unique_and_named_by_their_group() {
        let mut seen = std::collections::HashSet::new();
        for group in GROUPS {
            for e in group.codes {
                assert!(seen.insert(e.code), "{} twice", e.code);
                let (prefix, name) = e.code.as_str().split_once("::").expect("format::name");
                assert_eq!(prefix, group.name);
                assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{}", e.code);
                assert!(!e.meaning.is_empty() && e.meaning.ends_with('.'), "{}", e.code);
            }
        }
        assert_eq!(lookup(sfen::RANK_WIDTH.as_str()).map(|e| e.code.as_str()), Some("sfen::rank-width"));
        assert!(psn::contains(psn::NUMBER_SIDE) && !psn::contains(sfen::RANK_WIDTH));
        assert!(lookup("sfen::no-such-code").is_none());
    }

    /// A code's constant is its name in capitals (`RANK_WIDTH`), and its variant its group and
    /// name in camel case (`SfenRankWidth`), so that each is found from the text.
    #[test]
    fn constants_and_variants_spell_the_code() {
        fn camel(words: &str) -> String {
            let mut out = String::new();
            for word in words.split('-') {
                let mut chars = word.chars();
                out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                out.extend(chars);
            }
            out
        }
        assert_eq!(NAMES.len(), CODES.len());
        for &(name, variant, code) in NAMES {
            let (group, rest) = code.split_once("::").expect("format::name");
            assert_eq!(name, rest.to_ascii_uppercase().replace('-', "_"), "{code}");
            assert_eq!(variant, camel(group) + &camel(rest), "{code}");
        }
    }
}
