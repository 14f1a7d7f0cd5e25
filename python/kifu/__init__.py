"""kifu: the reference validator of shogi and chess notations, for Python.

kifu reads SFEN (the 2007 spec and USI), FEN, EPD, PSN game records and the JSON position
model, and says exactly what is wrong with a record: a stable code, the characters at fault,
plain words, and how to fix it. The checks are kifu's Rust library, the same ones
``kifu check`` runs, so Python and the command line agree on every record.

>>> import kifu
>>> [f.code for f in kifu.check("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1")]
['sfen::rank-width']
>>> kifu.Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").side_to_move
'black'
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Union, overload

from ._kifu import (
    Edit,
    Finding,
    Fix,
    Game,
    InvalidRecord,
    Label,
    Position,
    Record,
    Verdict,
    __version__,
    check,
    check_file,
    meaning,
    read_games,
)
from . import _kifu

__all__ = [
    "Edit",
    "Finding",
    "Fix",
    "Game",
    "InvalidRecord",
    "Label",
    "Position",
    "Record",
    "Verdict",
    "__version__",
    "check",
    "check_batch",
    "check_file",
    "is_valid",
    "meaning",
    "read_games",
]


def is_valid(findings: Iterable[Finding]) -> bool:
    """True when none of ``findings`` is an error (warnings leave a record valid)."""
    return not any(f.is_error for f in findings)


@overload
def check_batch(
    records: Iterable[Union[str, bytes]],
    format: str = "sfen",
    dialect: Optional[str] = None,
    threads: Optional[int] = None,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
) -> List[Verdict]: ...


@overload
def check_batch(
    records: Any,
    format: str = "sfen",
    dialect: Optional[str] = None,
    threads: Optional[int] = None,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
) -> Sequence[Optional[Verdict]]: ...


def check_batch(
    records: Any,
    format: str = "sfen",
    dialect: Optional[str] = None,
    threads: Optional[int] = None,
    *,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warnings_as_errors: bool = False,
) -> Sequence[Optional[Verdict]]:
    """Check many records at once, in parallel on ``threads`` threads (all cores by default).

    ``records`` is a list (or any iterable) of ``str`` or ``bytes``, each one record of a line
    format (a line of SFEN, FEN or EPD) or a whole PSN or JSON text; or a pyarrow
    ``StringArray``, ``LargeStringArray`` or ``ChunkedArray`` of them, read from its buffers
    without making Python strings.

    Returns one ``Verdict`` per record, in order (``valid``, ``read_as`` and ``findings``);
    ``None`` for a null of an Arrow array. A record may end with one line end, as a line read
    from a file does. ``select``, ``extend_select``, ``ignore`` (lists of codes, groups or
    ``"ALL"``) and ``warnings_as_errors`` choose the findings as ``kifu check``'s flags do; an
    unknown code raises ``ValueError``. The GIL is released while kifu works.
    """
    arrow = _arrow_chunks(records)
    if arrow is None:
        listed = records if isinstance(records, list) else list(records)
        return _kifu.check_batch(
            listed,
            format,
            dialect,
            threads,
            select=select,
            extend_select=extend_select,
            ignore=ignore,
            warnings_as_errors=warnings_as_errors,
        )
    out: List[Optional[Verdict]] = []
    for chunk in arrow:
        out.extend(
            _check_arrow_chunk(
                chunk,
                format,
                dialect,
                threads,
                select=select,
                extend_select=extend_select,
                ignore=ignore,
                warnings_as_errors=warnings_as_errors,
            )
        )
    return out


def _arrow_chunks(records):
    """The chunks of a pyarrow string array, or None when ``records`` is not one."""
    module = type(records).__module__ or ""
    if not module.startswith("pyarrow"):
        return None
    import pyarrow as pa  # type: ignore[import-untyped]

    if isinstance(records, pa.ChunkedArray):
        chunks = records.chunks
    elif isinstance(records, pa.Array):
        chunks = [records]
    else:
        return None
    for chunk in chunks:
        if not (pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type)):
            raise TypeError(f"expected an Arrow array of strings, not of {chunk.type}")
    return chunks


def _check_arrow_chunk(chunk, format, dialect, threads, **selection):
    import pyarrow as pa  # type: ignore[import-untyped]

    validity, offsets, data = chunk.buffers()
    large = pa.types.is_large_string(chunk.type)
    as_bytes = lambda buffer: buffer.to_pybytes() if buffer is not None else b""
    return _kifu.check_arrow(
        as_bytes(offsets),
        as_bytes(data),
        None if validity is None or chunk.null_count == 0 else validity.to_pybytes(),
        chunk.offset,
        len(chunk),
        large,
        format,
        dialect,
        threads,
        **selection,
    )
