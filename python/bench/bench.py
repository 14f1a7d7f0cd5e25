"""kifu from Python beside the shogi libraries of Python, on the same SFEN records.

    python python/bench/bench.py [--records N] [--runs 3] [--cache FOLDER]

It makes its inputs with the repository's generator (``cargo run --release --example
generate``), kept in a cache folder (``target/python-bench``): N valid USI SFEN records (the
positions of seeded random games), and the same records with one in twenty slipped by one
character. Then it times, on each file, the median of ``--runs`` runs of:

* ``kifu.check_batch`` on a list of the records, on one thread and on all cores;
* the command line, ``kifu check -j 1`` and ``kifu check`` (all cores), its report written to
  /dev/null, timed from outside (wall time, the start of the process included);
* rsshogi: ``Board.set_sfen`` (raises ``ValueError`` on a record it cannot read), then
  ``Board.is_valid()``;
* cshogi: ``Board.set_sfen``, then ``Board.is_ok()``. cshogi ends the whole process (SIGABRT)
  on a record it cannot read, so it is reported as aborted, with the record it stopped at.

Each Python checker runs in a process of its own, the records already read, and only its loop
timed. The table gives records per second, the ratio to ``kifu.check_batch`` on one thread,
and how many records each one accepted (for kifu: those without an error).

The kifu command line is ``$KIFU_BIN`` when set, else ``target/release/kifu`` when it is built,
else it is built with ``cargo build --release``. The peers are installed with
``pip install rsshogi cshogi``; a peer that is not installed is left out of the table.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The tests' helpers that find or build kifu's command line and the generator.
sys.path.insert(0, str(ROOT / "python" / "tests"))
from repo import generate, kifu_binary  # noqa: E402


# The checkers that run in a process of their own. Each takes the records and returns how many
# it accepted.


def kifu_one_thread(records):
    import kifu

    return sum(v.valid for v in kifu.check_batch(records, "sfen", threads=1))


def kifu_all_cores(records):
    import kifu

    return sum(v.valid for v in kifu.check_batch(records, "sfen"))


def rsshogi(records):
    from rsshogi.core import Board

    board = Board()
    accepted = 0
    for record in records:
        try:
            board.set_sfen(record)
        except ValueError:
            continue
        accepted += board.is_valid()
    return accepted


def cshogi(records):
    import cshogi

    board = cshogi.Board()
    accepted = 0
    for record in records:
        board.set_sfen(record)  # a record it cannot read ends the process
        accepted += board.is_ok()
    return accepted


CHECKERS = {
    "kifu.check_batch, 1 thread": kifu_one_thread,
    "kifu.check_batch, all cores": kifu_all_cores,
    "rsshogi": rsshogi,
    "cshogi": cshogi,
}


def child(name: str, path: str, runs: int, out: str) -> None:
    """In the process of its own: times ``runs`` runs of checker ``name`` and writes the times
    and its verdicts to ``out``. cshogi writes to standard output, which is not used."""
    check = CHECKERS[name]
    records = Path(path).read_text(encoding="utf-8").splitlines()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        accepted = check(records)
        times.append(time.perf_counter() - start)
    Path(out).write_text(json.dumps({"times": times, "accepted": accepted}))


def locate(name: str, path: str, out: str) -> None:
    """In the process of its own: checks the records one at a time, first writing to ``out``
    the index of the one about to be checked, so that the record an abort happened on is known."""
    check = CHECKERS[name]
    records = Path(path).read_text(encoding="utf-8").splitlines()
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    for i, record in enumerate(records):
        os.pwrite(fd, b"%-12d" % i, 0)
        check([record])
    os.close(fd)


def in_own_process(name: str, path: Path, runs: int) -> dict:
    """Runs checker ``name`` on the records at ``path`` in a process of its own."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        command = [sys.executable, __file__, "--child", name, str(path), str(runs), str(out)]
        run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode == 0:
            return json.loads(out.read_text())
        said = run.stderr.strip().splitlines()[-1:] or [""]
        if run.returncode == -signal.SIGABRT:
            subprocess.run([sys.executable, __file__, "--locate", name, str(path), "0", str(out)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            at = int(out.read_text().strip() or -1) if out.exists() else -1
            return {"failed": f"aborted (SIGABRT) at record {at + 1}: {' '.join(said[0].split())}"}
        return {"failed": f"failed (exit status {run.returncode}): {' '.join(said[0].split())}"}


def generated(folder: Path, args: list) -> Path:
    """The generator's records for ``args``, written once into ``folder``."""
    path = folder / ("-".join(a.lstrip("-") for a in args) + ".sfen")
    if not path.exists():
        part = generate(args, path.with_suffix(".part"))
        part.replace(path)
    return path


def command_line(kifu: str, path: Path, jobs: list, runs: int) -> dict:
    """Wall times of ``kifu check`` on ``path`` (report to /dev/null), and how many records it
    found valid."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([kifu, "check", *jobs, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    run = subprocess.run([kifu, "check", "--statistics", "--message-format", "json", str(path)],
                         capture_output=True, text=True)
    summary = json.loads(run.stdout.splitlines()[-1])
    return {"times": times, "accepted": summary["valid"]}


def version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError, version as of

    try:
        return f"{module} {of(module)}"
    except PackageNotFoundError:
        return f"{module} (not installed)"


def main() -> None:
    parser = argparse.ArgumentParser(description="Time kifu from Python beside rsshogi and cshogi.")
    parser.add_argument("--records", type=int, default=200_000, help="records a file (default: 200000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each timing; the median is kept (default: 3)")
    parser.add_argument("--cache", type=Path, default=ROOT / "target" / "python-bench",
                        help="folder of the generated inputs (default: target/python-bench)")
    args = parser.parse_args()

    args.cache.mkdir(parents=True, exist_ok=True)
    inputs = {
        "valid": generated(args.cache, ["sfen", str(args.records)]),
        "5% slipped": generated(args.cache, ["sfen", str(args.records), "--slips"]),
    }
    kifu = str(kifu_binary())
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    missing = {m for m in ("kifu", "rsshogi", "cshogi") if importlib.util.find_spec(m) is None}

    rows = []
    for label, path in inputs.items():
        results = {}
        if "kifu" not in missing:
            for name in ("kifu.check_batch, 1 thread", "kifu.check_batch, all cores"):
                results[name] = in_own_process(name, path, args.runs)
        results["kifu check -j 1"] = command_line(kifu, path, ["-j", "1"], args.runs)
        results["kifu check, all cores"] = command_line(kifu, path, [], args.runs)
        for name in ("rsshogi", "cshogi"):
            if name not in missing:
                results[name] = in_own_process(name, path, args.runs)
        base = results.get("kifu.check_batch, 1 thread", {}).get("times")
        base_rate = args.records / statistics.median(base) if base else None
        for name, result in results.items():
            if "failed" in result:
                rows.append((label, name, "—", "—", result["failed"]))
                continue
            rate = args.records / statistics.median(result["times"])
            ratio = f"{rate / base_rate:.2f}×" if base_rate else "—"
            rows.append((label, name, f"{rate:,.0f}", ratio, f"{result['accepted']:,} of {args.records:,}"))

    print(f"{args.records:,} records a file, median of {args.runs} runs; {os.cpu_count()} cores; "
          f"Python {platform.python_version()}; " + ", ".join(version(m) for m in ("kifu", "rsshogi", "cshogi"))
          + (f"; load average {load:.2f} at the start" if load is not None else ""))
    for module in sorted(missing):
        how = "pip install . in the repository" if module == "kifu" else f"pip install {module}"
        print(f"{module} is not installed, so it is left out ({how})")
    print()
    print("| records | checker | records/s | vs check_batch, 1 thread | accepted |")
    print("|---|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] in ("--child", "--locate"):
        _, mode, name, path, runs, out = sys.argv
        if mode == "--child":
            child(name, path, int(runs), out)
        else:
            locate(name, path, out)
    else:
        main()
