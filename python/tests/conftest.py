"""What the tests share: the repository's folders and kifu's command-line tool."""

import pathlib

import pytest

from repo import ROOT, generate, kifu_binary

__all__ = ["ROOT", "generate", "kifu_binary"]


@pytest.fixture(scope="session")
def kifu_bin() -> pathlib.Path:
    return kifu_binary()
