"""The playground page in headless Chromium, opened from the built folder (file://) with the
network cut off: typing, highlighting, an edited grammar, the address as the page's state,
every format against the command line, and a screenshot.

Needs the built page (web/build.sh), Playwright for Python (it drives the browser through the
DevTools protocol; no browser of its own is needed) and Debian's chromium. Run from the
repository's root:

    KIFU_BIN=target/debug/kifu python -m pytest web/test/test_page.py

KIFU_CHROMIUM names another browser; KIFU_WEB_DIST another built folder;
KIFU_SCREENSHOT saves the first screenshot there (the README's picture).
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import subprocess
import tempfile
from collections.abc import Iterator

import pytest
from PIL import Image
from playwright.sync_api import Page, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIST = pathlib.Path(os.environ.get("KIFU_WEB_DIST", ROOT / "web" / "dist"))
KIFU = os.environ.get("KIFU_BIN", str(ROOT / "target" / "debug" / "kifu"))
CHROMIUM = os.environ.get("KIFU_CHROMIUM", "/usr/bin/chromium")

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
SHORT_RANK = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSL b - 1"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    assert (DIST / "index.html").is_file(), f"build the page first: bash web/build.sh ({DIST})"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    # No network: any request that is not a file of the built folder fails the test.
    asked: list[str] = []

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            asked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    context.close()
    assert not errors, errors
    assert not asked, f"the page asked the network for {asked}"


def url(fragment: str = "") -> str:
    return (DIST / "index.html").as_uri() + fragment


def open_page(page: Page, fragment: str = "") -> None:
    page.goto(url(fragment))
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)


def settle(page: Page) -> None:
    """Waits until the last edit has been run (the page runs kifu a moment after typing)."""
    page.wait_for_timeout(400)
    page.wait_for_function("() => /checked in/.test(document.getElementById('status').textContent) || document.getElementById('status').className === 'bad'")


def type_input(page: Page, text: str) -> None:
    page.fill("#input", "")
    page.click("#input")
    page.keyboard.type(text)
    settle(page)


def cli_findings(text: str, suffix: str) -> list[dict]:
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        out = subprocess.run([KIFU, "check", "--message-format", "json", f.name], capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    return [d for d in map(json.loads, out.splitlines()) if d.get("type") == "diagnostic"]


def test_typing_a_record_shows_its_tree(page: Page) -> None:
    open_page(page)
    type_input(page, START)
    assert page.text_content("#verdict") == "none: valid"
    assert page.text_content("#tree-caption") == "1 of 1 record accepted by `record`"
    rules = page.locator("#tree .rule").all_text_contents()
    assert rules[:3] == ["record", "usi_record", "board"], rules
    assert rules.count("row") == 9
    # The side to move, as the grammar reads it.
    assert page.locator("#tree .node", has_text="usi_side").first.text_content().endswith('"b"')


def test_a_broken_record_highlights_the_characters_at_fault(page: Page) -> None:
    open_page(page)
    type_input(page, f"{START}\n{SHORT_RANK}")
    marks = page.locator("#input-pane .backdrop mark.error")
    assert marks.count() == 1
    assert marks.first.text_content() == "LNSGKGSL"
    (expected,) = cli_findings(f"{START}\n{SHORT_RANK}\n", ".sfen")
    item = page.locator("#findings li").first
    assert item.locator("code").text_content() == expected["code"] == "sfen::rank-width"
    assert item.locator(".place").text_content() == f"{expected['line']}:{expected['column']}" == "2:49"
    # A click on the finding selects those characters in the input.
    item.click()
    selected = page.evaluate("() => { const t = document.getElementById('input'); return t.value.slice(t.selectionStart, t.selectionEnd); }")
    assert selected == "LNSGKGSL"
    # Its fix applies: the record becomes valid.
    item.locator("button.fix").click()
    settle(page)
    assert page.text_content("#verdict") == "none: valid"


def test_an_edited_grammar_changes_the_verdict_and_the_address_keeps_it(page: Page) -> None:
    open_page(page)
    record = START.replace(" b - 1", " B - 100")
    type_input(page, record)
    assert page.text_content("#tree-caption") == "0 of 1 record accepted by `record`"
    assert page.locator("#tree .stopped").count() == 1
    grammar = page.input_value("#grammar")
    old = 'usi_side = @{ "b" | "w" }'
    assert old in grammar
    page.fill("#grammar", grammar.replace(old, 'usi_side = @{ ^"b" | ^"w" }'))
    settle(page)
    assert page.text_content("#tree-caption") == "1 of 1 record accepted by `record`"
    assert page.is_visible("#grammar-edited")
    assert page.is_visible("#diff-section")
    counts = dict(
        zip(
            page.locator("#diff td:first-child").all_text_contents(),
            map(int, page.locator("#diff td.count").all_text_contents()),
        )
    )
    assert counts["newly accepted"] == 1 and counts["rejected by both"] == 0, counts
    # kifu check is kifu's, whatever the grammar: the record is still an error there, and the
    # findings say so and where the edited grammar's verdict is, which is in view.
    assert page.text_content("#verdict").startswith("1 error")
    assert page.is_visible("#verdict-note")
    note = page.text_content("#verdict-note")
    assert "kifu’s grammar" in note and "1 record newly accepted" in note, note
    box = page.locator("#diff-section").bounding_box()
    assert box is not None and box["y"] < 1000, f"the diff is below the fold: {box}"

    # The address holds the state: a new page opened at it shows the same.
    address = page.url
    assert "grammar=" in address and "input=" in address
    other = page.context.new_page()
    other.goto(address)
    other.wait_for_selector("body[data-ready=true]", timeout=30_000)
    assert other.input_value("#input") == record
    assert other.input_value("#grammar") == page.input_value("#grammar")
    assert other.text_content("#tree-caption") == "1 of 1 record accepted by `record`"
    other.close()


def test_the_codes_chosen_are_the_codes_reported(page: Page) -> None:
    open_page(page)
    # No Black king (a warning), and two Black pawns on file 5 (an error).
    type_input(page, "4k4/9/9/9/4P4/4P4/9/9/9 b - 1")
    codes = lambda: page.locator("#findings li code").all_text_contents()
    assert sorted(codes()) == ["sfen::missing-king", "sfen::nifu"]
    page.fill("#ignore", "sfen::nifu")
    settle(page)
    assert codes() == ["sfen::missing-king"]
    assert page.text_content("#verdict") == "0 errors, 1 warning"
    page.check("#warnings-as-errors")
    settle(page)
    assert page.text_content("#verdict") == "1 error, 0 warnings"
    page.fill("#select", "fen")
    settle(page)
    assert codes() == [] and page.text_content("#verdict") == "none: valid"
    # The address keeps the choice.
    assert "ignore=sfen%3A%3Anifu" in page.url and "warnings-as-errors=1" in page.url
    # A code kifu does not have is named, and every finding is shown meanwhile.
    page.fill("#select", "sfen::nope")
    settle(page)
    assert "sfen::nope" in page.text_content("#status")
    assert page.get_attribute("#select", "aria-invalid") == "true"
    assert sorted(codes()) == ["sfen::missing-king", "sfen::nifu"]


def test_a_broken_grammar_is_pointed_at(page: Page) -> None:
    open_page(page)
    grammar = page.input_value("#grammar")
    page.fill("#grammar", grammar.replace("usi_side = @{", "usi_side = @{ missing_rule ~", 1))
    settle(page)
    item = page.locator("#grammar-findings li").first
    assert "missing_rule" in item.text_content()
    mark = page.locator("#grammar-pane .backdrop mark.error").first
    assert mark.text_content() == "missing_rule"
    assert page.text_content("#tree-caption") == "the grammar has faults: see them under it"


@pytest.mark.parametrize(
    ("format", "suffix"),
    [
        ("sfen", ".sfen"),
        ("fen", ".fen"),
        ("epd", ".epd"),
        ("psn", ".psn"),
        ("kif", ".kifu"),
        ("csa", ".csa"),
        ("jkf", ".jkf"),
        ("json", ".json"),
    ],
)
def test_every_format_reports_what_kifu_check_reports(page: Page, format: str, suffix: str) -> None:
    open_page(page)
    page.select_option("#format", format)
    settle(page)
    text = page.input_value("#input")
    expected = cli_findings(text + "\n", suffix)
    shown = [
        (li.locator("code").text_content(), li.locator(".place").text_content())
        for li in page.locator("#findings li").all()
    ]
    assert shown == [(d["code"], f"{d['line']}:{d['column']}") for d in expected]
    assert page.locator("#board svg").count() == 1, "the example has a position"
    if format == "json":
        assert page.text_content("#tree-caption") == "JSON positions have no grammar"
    elif format == "jkf":
        assert page.text_content("#tree-caption") == "JKF records have no grammar"
    else:
        assert page.locator("#tree .rule").count() > 0


@pytest.mark.parametrize(
    ("format", "first_move"), [("psn", "P7f"), ("kif", "７六歩"), ("csa", "-3334FU"), ("jkf", '"color": 1')]
)
def test_the_board_follows_the_cursor_in_a_game(page: Page, format: str, first_move: str) -> None:
    open_page(page)
    page.select_option("#format", format)
    settle(page)
    text = page.input_value("#input")
    end = page.inner_html("#board")
    first = text.index(first_move)
    page.evaluate(f"() => {{ const t = document.getElementById('input'); t.focus(); t.setSelectionRange({first + 1}, {first + 1}); t.dispatchEvent(new Event('click')); }}")
    after_first = page.inner_html("#board")
    assert after_first != end
    assert "<svg" in after_first


def test_the_page_is_drawn_and_the_board_sits_in_its_pane(page: Page) -> None:
    open_page(page)
    shot = page.screenshot(full_page=False)
    if os.environ.get("KIFU_SCREENSHOT"):
        pathlib.Path(os.environ["KIFU_SCREENSHOT"]).write_bytes(shot)
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50, "the screenshot is not blank"
    board = page.locator("#board svg").bounding_box()
    pane = page.locator("#results-pane").bounding_box()
    assert board and pane
    assert board["width"] > 250 and board["height"] > 250, board
    assert pane["x"] <= board["x"] and board["x"] + board["width"] <= pane["x"] + pane["width"] + 1
    # The third column of the layout, beside the input.
    assert board["x"] > page.locator("#input-pane").bounding_box()["x"]
    # The board's pixels are drawn: its middle is not the page's background.
    crop = image.crop((int(board["x"]), int(board["y"]), int(board["x"] + board["width"]), int(board["y"] + board["height"])))
    assert len(crop.getcolors(maxcolors=1 << 20) or []) > 10


def test_a_grammar_that_stops_kifu_is_said_and_kifu_comes_back(page: Page) -> None:
    open_page(page)
    grammar = page.input_value("#grammar")
    old = 'usi_side = @{ "b" | "w" }'
    # `POP` with nothing pushed: pest's machine stops (on the command line, tree::grammar-fault).
    with page.expect_navigation(timeout=30_000):
        page.fill("#grammar", grammar.replace(old, "usi_side = @{ POP }"))
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    assert page.text_content("#status").startswith("kifu stopped on this grammar and input")
    assert "usi_side = @{ POP }" in page.input_value("#grammar"), "the edit is kept"
    # Back to kifu's grammar: kifu runs again.
    page.click("#reset-grammar")
    settle(page)
    assert page.text_content("#tree-caption") == "3 of 3 records accepted by `record`"
    assert page.text_content("#verdict") == "1 error, 0 warnings"
