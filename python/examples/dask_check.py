"""Check huge collections of SFEN, FEN or EPD records with kifu and Dask.

Run it on your machine (it starts a cluster of two worker processes)::

    python dask_check.py positions/*.sfen more.fen
    python dask_check.py big.sfen --workers 4 --json

It prints each invalid record with its findings, then how many findings of each code there
were, and the totals. With ``--json`` it prints what ``kifu check --statistics
--message-format json`` prints, so that the two can be compared: one line a code and severity,
the most frequent first, then a summary line. The exit status is 1 when a record is invalid.

On a real cluster
-----------------
Start a scheduler on one machine and a worker on each machine::

    dask-scheduler                              # prints its address, tcp://10.0.0.1:8786
    dask-worker tcp://10.0.0.1:8786             # on every machine that does the work

kifu and Dask must be installed on every worker (kifu is on no package index: ``pip install
.`` from a clone of the repository, or the wheel that ``maturin build --release`` makes). The
files must be where every worker can read them: a shared folder, or object storage that fsspec
reads (``s3://bucket/positions/*.sfen`` with s3fs installed, ``gs://`` with gcsfs). Then::

    python dask_check.py 's3://bucket/positions/*.sfen' --scheduler tcp://10.0.0.1:8786

How the work is split
---------------------
Each file is one partition, read whole by one worker, so every record's line number is known.
(Dask can also cut a file into blocks of bytes, but a block does not know how many lines came
before it, so its records would have no line numbers.) A partition is held in memory while it is
checked, and files are checked in parallel, not parts of one file: split one huge file into
files of a few hundred megabytes, or fewer records, before checking it.

Lines end with LF, CRLF or CR; lines that are empty or hold only spaces and tabs are not
records, as in ``kifu check``. Files are read as UTF-8, and bytes that are not UTF-8 reach kifu
as they are. But kifu judges the encoding of each record alone here, where ``kifu check`` judges
a whole file (a UTF-16 or Shift_JIS file, or stray bytes in a UTF-8 file, which it reports as
errors): check files that are not all UTF-8 with ``kifu check``, or convert them to UTF-8
first. Every invalid record is sent back to this program: for
collections with millions of invalid records, write them to files on the workers instead
(``dask.bag.Bag.to_textfiles``).
"""

from __future__ import annotations

import argparse
import json
import posixpath
import sys
from collections import Counter

import dask.bag as db
from dask.distributed import Client, LocalCluster

import kifu

LINE_FORMATS = ("sfen", "fen", "epd")
COMPRESSED = (".gz", ".bz2", ".xz", ".zst", ".lz4")


def format_of(path: str) -> str:
    """The format a file's extension names (``a.sfen``, ``a.fen.gz``), as ``kifu check`` reads it."""
    name = path.lower()
    for suffix in COMPRESSED:
        name = name.removesuffix(suffix)
    extension = posixpath.splitext(name)[1].lstrip(".")
    if extension not in LINE_FORMATS:
        raise ValueError(f"cannot tell the format of {path} from its name: give --format (sfen, fen or epd)")
    return extension


def records_of(lines):
    """The records of one file, from its ``(line, path)`` pairs: ``(path, line number, bytes)``.

    The line end is dropped, and lines that are empty or hold only spaces and tabs are skipped,
    but still counted, so that the line numbers are the file's.
    """
    records = []
    for number, (line, path) in enumerate(lines, start=1):
        # Read in Python's universal newlines mode, lines end with LF whether the file has LF, CRLF or CR.
        text = line[:-1] if line.endswith("\n") else line
        if text.strip(" \t"):
            records.append((path, number, text.encode("utf-8", "surrogateescape")))
    return records


def empty_report() -> dict:
    """Totals of nothing checked yet."""
    return {"files": 0, "records": 0, "valid": 0, "warnings": 0, "codes": Counter(), "dialects": Counter(), "invalid": []}


def check_records(records, format=None) -> list:
    """Checks the records of one file with one call of ``kifu.check_batch``; returns its report.

    The report is made of plain values (numbers, strings, lists), so it travels from a worker
    to this program as it is.
    """
    records = list(records)
    report = empty_report()
    report["files"] = 1
    if not records:
        return [report]
    # Dask already runs one task on each worker thread: one kifu thread each.
    verdicts = kifu.check_batch([data for _, _, data in records], format or format_of(records[0][0]), threads=1)
    for (path, number, data), verdict in zip(records, verdicts):
        report["records"] += 1
        if verdict.read_as:
            report["dialects"][verdict.read_as] += 1
        if verdict.valid and not verdict.findings:
            report["valid"] += 1
            continue
        findings = verdict.findings
        report["warnings"] += sum(not f.is_error for f in findings)
        report["codes"].update((f.code, f.severity) for f in findings)
        if verdict.valid:
            report["valid"] += 1
        else:
            listed = [
                {"code": f.code, "severity": f.severity, "message": f.message, "column": f.column}
                for f in findings
            ]
            text = data.decode("utf-8", "replace")
            report["invalid"].append({"file": path, "line": number, "text": text, "findings": listed})
    return [report]


def merge(reports) -> dict:
    """The totals of several reports."""
    total = empty_report()
    for report in reports:
        for key in ("files", "records", "valid", "warnings"):
            total[key] += report[key]
        total["codes"].update(report["codes"])
        total["dialects"].update(report["dialects"])
        total["invalid"].extend(report["invalid"])
    total["invalid"].sort(key=lambda r: (r["file"], r["line"]))
    return total


def check_files(paths, format=None) -> dict:
    """Checks every record of the files at ``paths`` (paths, globs or URLs that fsspec reads)
    on the Dask cluster of the current client, and returns the totals.

    ``format``: ``sfen``, ``fen`` or ``epd``; by default each file's extension names it.

    When this file is imported rather than run, the workers must be able to import it too:
    install it beside kifu, or send it to them with ``client.upload_file("dask_check.py")``.
    """
    # blocksize=None: one partition a file, so that line numbers are known.
    lines = db.read_text(paths, blocksize=None, encoding="utf-8", errors="surrogateescape", include_path=True)
    records = lines.map_partitions(records_of)
    reports = records.map_partitions(check_records, format)
    return merge(reports.compute())


def json_lines(report) -> list:
    """The lines of ``kifu check --statistics --message-format json``: one a code and severity,
    the most frequent first (then by code and severity), with what the code means; then the
    summary, with what the records were read as."""
    rows = sorted(report["codes"].items(), key=lambda item: (-item[1], item[0][0], item[0][1]))
    lines = [
        {"type": "statistic", "code": code, "severity": severity, "count": n, "meaning": kifu.meaning(code)}
        for (code, severity), n in rows
    ]
    summary = {key: report[key] for key in ("files", "records", "valid")}
    summary["invalid"] = report["records"] - report["valid"]
    summary["warnings"] = report["warnings"]
    summary["dialects"] = dict(sorted(report["dialects"].items()))
    lines.append({"type": "summary", **summary})
    return [json.dumps(line, separators=(",", ":"), ensure_ascii=False) for line in lines]


def print_report(report) -> None:
    """Prints the invalid records with their findings, the counts by code, and the totals."""
    for record in report["invalid"]:
        print(f"{record['file']}:{record['line']}: {record['text']}")
        for f in record["findings"]:
            print(f"    column {f['column']}: {f['severity']}[{f['code']}]: {f['message']}")
    if report["invalid"]:
        print()
    for (code, severity), n in sorted(report["codes"].items(), key=lambda item: (-item[1], item[0])):
        print(f"{n:>9}  {code:<30}  {severity}")
    invalid = report["records"] - report["valid"]
    print(
        f"{count(report['records'], 'record')} in {count(report['files'], 'file')}: "
        f"{report['valid']} valid, {invalid} invalid, {count(report['warnings'], 'warning')}"
    )


def count(n: int, noun: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def main(argv=None) -> int:
    """The command line: checks the files and prints the report; 1 when a record is invalid."""
    parser = argparse.ArgumentParser(description="Check SFEN, FEN or EPD files with kifu on a Dask cluster.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="files, globs or URLs (s3://…) to check")
    parser.add_argument("--format", choices=LINE_FORMATS, help="the records' format (default: each file's extension)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the local cluster (default: 2)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="use the Dask scheduler at ADDRESS, not a local cluster")
    parser.add_argument("--json", action="store_true", help="print the lines of kifu check --statistics as JSON")
    args = parser.parse_args(argv)

    cluster = None if args.scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1)
    with Client(args.scheduler or cluster):
        report = check_files(args.files, args.format)
    if cluster is not None:
        cluster.close()
    if args.json:
        print("\n".join(json_lines(report)))
    else:
        print_report(report)
    return 1 if report["valid"] < report["records"] else 0


if __name__ == "__main__":
    sys.exit(main())
