"""The Python examples of the guide (``docs/python.md``) run, and print what the guide shows.

Each ``pycon`` block of the page is a doctest: its ``>>>`` lines run in the repository's root,
in one namespace per block, and what they print must be what follows them (``...`` stands for
any text, as in doctest's ``ELLIPSIS``). The ``python -c`` commands of the guide's and the
package's README's shell blocks run too, with this Python."""

import doctest
import os
import re
import shlex
import subprocess
import sys

from repo import ROOT

GUIDE = ROOT / "docs" / "python.md"
PACKAGE_README = ROOT / "python" / "README.md"


def pycon_blocks(text: str) -> list[tuple[int, str]]:
    """Each ``pycon`` fenced block of a Markdown text: the line it starts on, its content."""
    return [
        (text.count("\n", 0, m.start()) + 2, m.group(1))
        for m in re.finditer(r"^```pycon\n(.*?)^```$", text, re.M | re.S)
    ]


def test_the_guide_has_examples_to_run() -> None:
    assert len(pycon_blocks(GUIDE.read_text(encoding="utf-8"))) >= 1


def test_every_example_of_the_guide_prints_what_it_shows() -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        for line, block in pycon_blocks(GUIDE.read_text(encoding="utf-8")):
            test = parser.get_doctest(block, {}, f"docs/python.md:{line}", str(GUIDE), line - 1)
            runner.run(test)
    finally:
        os.chdir(here)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed (above)"


def test_every_python_command_of_the_pages_runs() -> None:
    commands = [
        shlex.split(line)
        for page in (GUIDE, PACKAGE_README)
        for block in re.findall(r"^```sh\n(.*?)^```$", page.read_text(encoding="utf-8"), re.M | re.S)
        for line in block.splitlines()
        if line.startswith("python -c ")
    ]
    assert len(commands) >= 2
    for command in commands:
        run = subprocess.run([sys.executable, *command[1:]], cwd=ROOT, capture_output=True, text=True)
        assert run.returncode == 0, f"{command}: {run.stderr}"
        assert run.stdout.strip(), f"{command} printed nothing"
