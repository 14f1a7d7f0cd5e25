"""What the tests share: the repository's folders and kifu's command-line tool."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def kifu_binary() -> pathlib.Path:
    """The command-line tool to compare with: ``KIFU_BIN`` when set, else the release build
    of this repository (built when missing)."""
    named = os.environ.get("KIFU_BIN")
    if named:
        return pathlib.Path(named)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    binary = target / "release" / "kifu"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "--bin", "kifu"], cwd=ROOT, check=True)
    return binary


@pytest.fixture(scope="session")
def kifu_bin() -> pathlib.Path:
    return kifu_binary()


def generate(args, out: pathlib.Path) -> pathlib.Path:
    """Writes records made by the repository's generator (``cargo run --example generate --
    ARGS``) to ``out``, once. ``KIFU_GENERATE_PROFILE=dev`` runs the build that ``cargo test``
    made instead of a release build."""
    if not out.exists():
        release = os.environ.get("KIFU_GENERATE_PROFILE", "release") == "release"
        command = ["cargo", "run", "-q", *(["--release"] if release else []), "--example", "generate", "--", *args]
        with open(out.with_suffix(".part"), "wb") as part:
            subprocess.run(command, cwd=ROOT, stdout=part, check=True)
        out.with_suffix(".part").rename(out)
    return out
