"""The Dask recipe (python/examples/dask_check.py) counts exactly what ``kifu check`` counts.

Two generated files (20,000 SFEN and 20,000 FEN records, one in twenty slipped) are checked on a
local cluster of two workers, and by the ``kifu`` command line; the counts by code, the totals
and the invalid records (with their line numbers) must be the same.

The command line and the generator are found as ``conftest.py`` says.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("dask.bag")
distributed = pytest.importorskip("dask.distributed")

from conftest import ROOT, generate, kifu_binary

RECIPE = ROOT / "python" / "examples" / "dask_check.py"


def load_recipe():
    spec = importlib.util.spec_from_file_location("dask_check", RECIPE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpus")
    return [
        generate(["sfen", "20000", "--slips"], folder / "positions.sfen"),
        generate(["fen", "20000", "--slips", "--seed", "7"], folder / "boards.fen"),
    ]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            client.upload_file(str(RECIPE))  # the workers import the recipe's functions by name
            yield cluster


@pytest.fixture(scope="module")
def recipe():
    return load_recipe()


@pytest.fixture(scope="module")
def report(recipe, corpus, cluster):
    return recipe.check_files([str(p) for p in corpus])


def kifu_check(paths, *options) -> list:
    """The JSON lines of ``kifu check`` on ``paths``, as dicts (exit status 1: invalid records)."""
    command = [str(kifu_binary()), "check", *options, "--message-format", "json", *map(str, paths)]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_counts_equal_kifu_check(recipe, report, corpus):
    ours = [json.loads(line) for line in recipe.json_lines(report)]
    expected = kifu_check(corpus, "--statistics")
    assert ours == expected  # the same codes, counts, order and meanings, the same totals and dialects

    summary = expected[-1]
    assert (summary["files"], summary["records"]) == (2, 40000)
    assert 0 < summary["invalid"] < summary["records"]
    assert len(report["invalid"]) == summary["invalid"]
    for record in report["invalid"]:
        assert any(f["severity"] == "error" for f in record["findings"]), record


def listed_findings(report) -> Counter:
    """The findings of the invalid records the recipe lists: file name, line, column, severity, code."""
    found = Counter()
    for record in report["invalid"]:
        for f in record["findings"]:
            found[Path(record["file"]).name, record["line"], f["column"], f["severity"], f["code"]] += 1
    return found


def kifu_findings_of_invalid_records(paths) -> Counter:
    """The same, from ``kifu check``: every finding of each record with an error."""
    by_record = {}
    for d in kifu_check(paths):
        if d["type"] == "diagnostic":
            by_record.setdefault((Path(d["file"]).name, d["line"]), []).append(d)
    found = Counter()
    for (name, line), findings in by_record.items():
        if any(d["severity"] == "error" for d in findings):
            for d in findings:
                found[name, line, d["column"], d["severity"], d["code"]] += 1
    return found


def test_invalid_records_are_where_kifu_check_finds_them(report, corpus):
    """Each invalid record is listed at its file's line, with the findings kifu check gives there."""
    assert listed_findings(report) == kifu_findings_of_invalid_records(corpus)


def test_line_ends_and_blank_lines(recipe, cluster, tmp_path):
    """LF, CRLF and CR end lines; empty lines and lines of spaces and tabs are not records but
    still count for the line numbers; a byte-order mark is reported as kifu check reports it."""
    start = b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    lines = [b"\xef\xbb\xbf" + start, b"", b"  \t", start + b"x", b"\t", start.replace(b"b -", b"\xc3\xa9 -"), start]
    path = tmp_path / "mixed.sfen"
    path.write_bytes(lines[0] + b"\r\n" + lines[1] + b"\r" + lines[2] + b"\n" + lines[3] + b"\r"
                     + lines[4] + b"\r\n" + lines[5] + b"\n" + lines[6])
    report = recipe.check_files([str(path)])
    expected = kifu_check([path], "--statistics")
    assert [json.loads(line) for line in recipe.json_lines(report)] == expected
    assert expected[-1]["records"] == 4
    assert [r["line"] for r in report["invalid"]] == [4, 6]
    assert listed_findings(report) == kifu_findings_of_invalid_records([path])


def test_command_line_prints_the_same_json(recipe, report, corpus, cluster, capsys):
    status = recipe.main([*map(str, corpus), "--json", "--scheduler", cluster.scheduler_address])
    assert status == 1
    assert capsys.readouterr().out.splitlines() == recipe.json_lines(report)
