"""The repository's programs, for the Python tests and the bench: kifu's command line and the
generator of seeded records, found or built with cargo. Nothing here needs pytest."""

import os
import pathlib
import subprocess

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


def generate(args, out: pathlib.Path) -> pathlib.Path:
    """Writes the records of the repository's generator (``cargo run --example generate --
    ARGS``) to ``out``. The generator built by ``cargo test`` (``KIFU_GENERATE_PROFILE=dev``) or
    by a release build is run when it is there; else cargo builds it."""
    dev = os.environ.get("KIFU_GENERATE_PROFILE", "release") == "dev"
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    built = target / ("debug" if dev else "release") / "examples" / "generate"
    if built.exists():
        command = [str(built)]
    else:
        command = ["cargo", "run", "-q", *([] if dev else ["--release"]), "--example", "generate", "--"]
    with open(out, "wb") as f:
        subprocess.run([*command, *args], cwd=ROOT, stdout=f, check=True)
    return out
