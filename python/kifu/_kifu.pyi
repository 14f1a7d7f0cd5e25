"""Type stubs of kifu's extension module (kifu._kifu); import its names from ``kifu``."""

from typing import Any, Dict, Iterator, List, Optional, Union, final

__all__ = [
    "InvalidRecord",
    "Finding",
    "Label",
    "Edit",
    "Fix",
    "Record",
    "RecordIter",
    "Position",
    "Game",
    "GameIter",
    "Verdict",
    "meaning",
    "check",
    "check_batch",
    "check_arrow",
    "check_file",
    "read_games",
    "__version__",
]

__version__: str

class InvalidRecord(ValueError):
    """A record, position or game with errors; ``findings`` says which."""

    findings: List[Finding]

@final
class Label:
    """A place in the text a finding points at, with what it shows there."""

    @property
    def message(self) -> str:
        """What is wrong or relevant there, in a few words."""
    @property
    def primary(self) -> bool:
        """True for the one label on the characters at fault."""
    @property
    def start(self) -> int:
        """Index of the first character in the record's text (``text[start:end]``)."""
    @property
    def end(self) -> int:
        """Index just past the last character."""
    @property
    def line(self) -> int:
        """1-based line of the start."""
    @property
    def column(self) -> int:
        """1-based character column of the start."""
    @property
    def end_line(self) -> int:
        """1-based line of the end."""
    @property
    def end_column(self) -> int:
        """1-based character column of the end."""

@final
class Edit:
    """One replacement: the characters ``text[start:end]`` become ``replacement``."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def replacement(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...

@final
class Fix:
    """A repair of a finding: edits applied together."""

    @property
    def edits(self) -> List[Edit]:
        """The edits, in the order of the text."""
    @property
    def safe(self) -> bool:
        """True when it is the one repair there is (``kifu check --fix`` applies it unasked)."""
    def apply(self, text: str) -> str:
        """``text`` (the record the finding is about) with the fix applied."""

@final
class Finding:
    """A finding about a record: what is wrong, where, and how to fix it."""

    @property
    def code(self) -> str:
        """Stable code, such as ``sfen::rank-width``."""
    @property
    def severity(self) -> str:
        """``"error"`` (the record is invalid) or ``"warning"``."""
    @property
    def is_error(self) -> bool:
        """True for an error."""
    @property
    def message(self) -> str:
        """What is wrong, in plain words."""
    @property
    def help(self) -> Optional[str]:
        """How to fix it."""
    @property
    def start(self) -> int:
        """Index of the first character at fault in the record's text."""
    @property
    def end(self) -> int:
        """Index just past the last character at fault."""
    @property
    def line(self) -> int:
        """1-based line of the start (the file's line for ``check_file`` and games)."""
    @property
    def column(self) -> int:
        """1-based character column of the start."""
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...
    @property
    def labels(self) -> List[Label]:
        """Every label, the primary one first."""
    @property
    def fixes(self) -> List[Fix]:
        """Repairs, the likeliest first; several only when no one is sure."""

@final
class Record:
    """One record of a file, checked."""

    @property
    def path(self) -> Optional[str]: ...
    @property
    def line(self) -> int:
        """1-based line of the file where the record starts."""
    @property
    def text(self) -> str:
        """The record's text: the findings' ``start`` and ``end`` are indices into it."""
    @property
    def read_as(self) -> Optional[str]:
        """What it was read as (``usi``, ``sfen2007``, ``fen``, ``chess960``, ``epd``,
        ``json``, or a PSN game's dialect), when known."""
    @property
    def valid(self) -> bool:
        """True when no finding is an error."""
    @property
    def findings(self) -> List[Finding]: ...

@final
class Verdict:
    """What checking one record of a batch found (shared by the clean records of a batch)."""

    @property
    def valid(self) -> bool:
        """True when no finding is an error."""
    @property
    def read_as(self) -> Optional[str]:
        """What the record was read as, when known (``usi``, ``sfen2007``, ``fen``, …)."""
    @property
    def findings(self) -> List[Finding]:
        """Every finding, errors and warnings (empty for a clean record)."""

@final
class RecordIter(Iterator[Record]):
    def __iter__(self) -> RecordIter: ...
    def __next__(self) -> Record: ...

@final
class Position:
    """A shogi position (SFEN, JSON) or a chess position (FEN, EPD, JSON)."""

    @staticmethod
    def from_sfen(text: str, dialect: str = "auto") -> Position:
        """Reads an SFEN record (``auto``, ``sfen2007`` or ``usi``); raises
        ``InvalidRecord`` when it has errors."""
    @staticmethod
    def from_fen(text: str, dialect: str = "standard") -> Position:
        """Reads a FEN record (``standard`` or ``chess960``)."""
    @staticmethod
    def from_epd(text: str, dialect: str = "standard") -> Position:
        """Reads an EPD record; its operations are not kept."""
    @staticmethod
    def from_json(text: str) -> Position:
        """Reads one position of the JSON position model (or its chess analogue)."""
    @property
    def game(self) -> str:
        """``"shogi"`` or ``"chess"``."""
    @property
    def side_to_move(self) -> str:
        """``"black"`` or ``"white"``."""
    @property
    def hands(self) -> Optional[Dict[str, Dict[str, int]]]:
        """Shogi: each side's pieces in hand by USI letter; ``None`` for chess."""
    def to_sfen(self, dialect: str = "usi") -> str: ...
    def to_usi(self) -> str:
        """The arguments of USI's ``position`` command: ``sfen <USI SFEN>``."""
    def to_fen(self) -> str: ...
    def to_json(self) -> str: ...
    def board_svg(self, kanji: bool = False) -> str: ...
    def _repr_svg_(self) -> str: ...

@final
class Game:
    """A game, read, checked and played out: a PSN game, or a KIF or KI2 record."""

    @staticmethod
    def from_psn(text: str) -> Game:
        """Reads one game; raises ``InvalidRecord`` when it has errors."""
    @staticmethod
    def from_kif(text: Union[str, bytes]) -> Game:
        """Reads a KIF or KI2 record (bytes in UTF-8, Shift_JIS or EUC-JP, told by the
        content); raises ``InvalidRecord`` when it has errors."""
    @property
    def line(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def format(self) -> str:
        """``psn``, or ``kif`` for a KIF or KI2 record."""
    @property
    def dialect(self) -> str:
        """The PSN dialect it was read as; ``kif`` for a KIF or KI2 record."""
    @property
    def valid(self) -> bool: ...
    @property
    def findings(self) -> List[Finding]: ...
    @property
    def headers(self) -> Dict[str, str]: ...
    @property
    def moves(self) -> List[str]:
        """The main line's moves in USI, up to its first illegal move."""
    @property
    def start(self) -> Optional[Position]: ...
    def positions(self) -> List[Position]:
        """The position after each move of ``moves``."""
    def to_psn(self) -> str: ...
    def to_usi(self) -> str: ...
    def to_kif(self, encoding: str = "utf-8") -> bytes:
        """KIF as Kifu for Windows writes it, in ``utf-8`` (``.kifu``) or ``shift_jis`` (``.kif``)."""
    def to_ki2(self, encoding: str = "utf-8") -> bytes:
        """KI2, in ``utf-8`` (``.ki2u``) or ``shift_jis`` (``.ki2``)."""

@final
class GameIter(Iterator[Game]):
    def __iter__(self) -> GameIter: ...
    def __next__(self) -> Game: ...

def check(
    text: Union[str, bytes],
    format: str = "sfen",
    dialect: Optional[str] = None,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
) -> List[Finding]:
    """Checks one record (a line of SFEN, FEN or EPD, with or without its line end) or a whole
    PSN, KIF, KI2, CSA, JKF or JSON text. ``select``, ``extend_select``, ``ignore`` and
    ``warnings_as_errors`` choose the findings as ``kifu check``'s flags do; an unknown code raises
    ``ValueError``."""

def check_batch(
    records: List[Any],
    format: str = "sfen",
    dialect: Optional[str] = None,
    threads: Optional[int] = None,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
) -> List[Verdict]: ...
def check_arrow(
    offsets: bytes,
    data: bytes,
    validity: Optional[bytes],
    offset: int,
    length: int,
    large: bool,
    format: str = "sfen",
    dialect: Optional[str] = None,
    threads: Optional[int] = None,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
) -> List[Optional[Verdict]]: ...
def check_file(
    path: str,
    format: Optional[str] = None,
    dialect: Optional[str] = None,
    strict: bool = False,
    replay: bool = True,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
    isolated: bool = False,
) -> RecordIter:
    """The records of a file, each checked as it is read (the format from the extension).

    The findings are those ``kifu check`` reports: selected by the ``kifu.toml`` (or
    ``[tool.kifu]``) nearest the file, unless ``isolated``, and by ``select``,
    ``extend_select``, ``ignore`` and ``warnings_as_errors`` as by its flags. An unknown code
    raises ``ValueError``."""

def meaning(code: str) -> Optional[str]:
    """What a finding's code means, in a sentence (``None`` for a code kifu does not have)."""

def read_games(path: str, strict: bool = False, replay: bool = True) -> GameIter:
    """The games of a PSN file, each read and checked as it streams."""
