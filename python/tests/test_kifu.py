"""The Python API: the same findings as ``kifu check``, positions, games, batches."""

import json
import pathlib
import subprocess
import threading
import xml.etree.ElementTree as ET

import pytest

import kifu

from conftest import ROOT

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
SHORT_RANK = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1"


def test_a_finding_points_at_the_characters_at_fault_and_says_how_to_fix_them():
    (f,) = kifu.check(SHORT_RANK)
    assert (f.code, f.severity, f.is_error) == ("sfen::rank-width", "error", True)
    assert SHORT_RANK[f.start : f.end] == "LNSGKGSN"
    assert (f.line, f.column) == (1, 49)
    assert f.labels[0].primary and f.labels[0].message == "8 squares, 1 short"
    assert "did you mean" in f.help
    repaired = [fix.apply(SHORT_RANK) for fix in f.fixes]
    assert repaired[0] == START, "the lost lance of a full set comes first"
    assert not any(fix.safe for fix in f.fixes), "three repairs: none is sure"
    for text in repaired:
        assert kifu.is_valid(kifu.check(text)), text


def test_a_record_may_end_with_one_line_end_as_in_a_file():
    for end in ("\n", "\r\n", "\r"):
        assert kifu.check(START + end) == []
        assert kifu.check_batch([START + end])[0].findings == []
    assert kifu.check(START + "\n\n") != [], "a blank line after it is not a line end"
    (f,) = kifu.check(SHORT_RANK + "\n")
    assert (f.code, f.column) == ("sfen::rank-width", 49)


def test_offsets_are_python_string_indices():
    text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNé b - 1"
    found = kifu.check(text)
    piece = next(f for f in found if f.code == "sfen::unknown-piece")
    assert text[piece.start : piece.end] == "é"
    assert piece.column == text.index("é") + 1


def test_every_format_and_dialect_is_named_in_plain_words():
    assert kifu.check(START, format="sfen", dialect="usi") == []
    assert [f.code for f in kifu.check(START, dialect="sfen2007")] != []
    assert kifu.check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", format="fen") == []
    assert kifu.check('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start";', format="epd") == []
    with pytest.raises(ValueError, match="unknown format `pgn`"):
        kifu.check(START, format="pgn")
    with pytest.raises(ValueError, match="not a dialect of SFEN"):
        kifu.check(START, dialect="chess960")


def test_bytes_that_are_not_text_get_a_finding_not_an_exception():
    (f,) = kifu.check(b"\xff\xfe\x00abc")
    assert f.is_error and f.code.startswith("input::")
    assert kifu.check(START.encode()) == []


def test_a_position_reads_and_writes_every_form():
    p = kifu.Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 w 2Pr 12")
    assert (p.game, p.side_to_move) == ("shogi", "white")
    assert p.hands == {"black": {"P": 2}, "white": {"R": 1}}
    assert p.to_sfen() == "4k4/9/9/9/9/9/9/9/4K4 w 2Pr 12"
    assert kifu.Position.from_sfen(p.to_sfen()) == p
    assert p.to_sfen("sfen2007").split()[1] == "W"
    assert p.to_usi() == "sfen " + p.to_sfen()
    assert kifu.Position.from_json(p.to_json()) == p
    assert "k" in str(p) and "White" in str(p)
    svg = ET.fromstring(p.board_svg())
    assert svg.tag.endswith("svg")
    assert p._repr_svg_() == p.board_svg()
    assert eval(repr(p), {"Position": kifu.Position}) == p
    assert len({p, kifu.Position.from_sfen(p.to_sfen())}) == 1
    with pytest.raises(ValueError, match="no FEN"):
        p.to_fen()

    c = kifu.Position.from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
    assert (c.game, c.side_to_move, c.hands) == ("chess", "white", None)
    assert c.to_fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    assert kifu.Position.from_json(c.to_json()) == c
    assert kifu.Position.from_epd("8/8/8/8/8/8/8/K1k5 w - - bm Kb1;").to_fen() == "8/8/8/8/8/8/8/K1k5 w - - 0 1"
    ET.fromstring(c.board_svg())
    with pytest.raises(ValueError, match="no SFEN"):
        c.to_sfen()


def test_an_invalid_record_raises_with_its_findings():
    with pytest.raises(kifu.InvalidRecord) as raised:
        kifu.Position.from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 b - 1")
    assert isinstance(raised.value, ValueError)
    assert "White's king on 5a is in check, but it is Black's turn" in str(raised.value)
    assert [f.code for f in raised.value.findings] == ["sfen::opposite-check"]
    with pytest.raises(kifu.InvalidRecord) as raised:
        kifu.Position.from_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    assert raised.value.findings and all(isinstance(f, kifu.Finding) for f in raised.value.findings)
    with pytest.raises(kifu.InvalidRecord):
        kifu.Position.from_json('{"sideOnMove": "black"}')
    with pytest.raises(ValueError, match="2 positions"):
        kifu.Position.from_json("[" + kifu.Position.from_sfen(START).to_json() + "," + kifu.Position.from_sfen(START).to_json() + "]")


def test_games_are_read_replayed_and_written():
    games = list(kifu.read_games(ROOT / "examples" / "tour.psn"))
    assert len(games) == 4
    first = games[0]
    assert first.valid and first.line == 1
    assert first.headers["Sente"] == "Black player"
    assert first.moves[:3] == ["7g7f", "3c3d", "2g2f"]
    positions = first.positions()
    assert len(positions) == len(first.moves)
    assert first.start == kifu.Position.from_sfen(START)
    assert first.to_usi() == "sfen " + START + " moves " + " ".join(first.moves)
    again = kifu.Game.from_psn(first.to_psn())
    assert again.moves == first.moves and again.positions()[-1] == positions[-1]
    broken = [g for g in games if not g.valid]
    assert broken and all(any(f.is_error for f in g.findings) for g in broken)
    for g in broken:
        for f in g.findings:
            assert f.line >= g.line, "lines are the file's"
    with pytest.raises(kifu.InvalidRecord) as raised:
        kifu.Game.from_psn(broken[0].text)
    assert raised.value.findings
    with pytest.raises(ValueError, match="no game"):
        kifu.Game.from_psn("")


def test_a_batch_gives_what_each_check_gives_in_order():
    records = [START, SHORT_RANK, "x", "", "é/9 b - 1", START.replace(" b ", " B "), b"\xff"] * 50
    one_by_one = [kifu.check(r) for r in records]
    summary = lambda found: [[(f.code, f.start, f.end, f.message) for f in fs] for fs in found]
    for threads in (1, 7, None):
        verdicts = kifu.check_batch(records, threads=threads)
        assert summary(v.findings for v in verdicts) == summary(one_by_one)
        assert [v.valid for v in verdicts] == [kifu.is_valid(fs) for fs in one_by_one]
    assert summary(v.findings for v in kifu.check_batch(iter(records))) == summary(one_by_one)
    verdicts = kifu.check_batch(records)
    assert [v.read_as for v in verdicts[:7]] == ["usi", "usi", None, None, "usi", "sfen2007", None]
    assert verdicts[0] is verdicts[7], "clean records of one dialect share their verdict"
    assert kifu.check_batch([]) == []
    with pytest.raises(TypeError, match="expected a str or bytes, not int"):
        kifu.check_batch([START, 7])


def test_a_code_says_what_it_means():
    assert kifu.meaning("sfen::rank-width") == "A rank covers more or fewer than nine squares."
    assert kifu.meaning("no::such-code") is None


def test_a_batch_reads_arrow_arrays_from_their_buffers():
    pa = pytest.importorskip("pyarrow")
    records = [START, None, SHORT_RANK, "é", "", START]
    expected = [None if r is None else [(f.code, f.start) for f in kifu.check(r)] for r in records]
    summary = lambda found: [None if v is None else [(f.code, f.start) for f in v.findings] for v in found]
    for kind in (pa.string(), pa.large_string()):
        array = pa.array(records, kind)
        assert summary(kifu.check_batch(array)) == expected
        assert summary(kifu.check_batch(array.slice(2, 3))) == expected[2:5]
        chunked = pa.chunked_array([array.slice(0, 2), array.slice(2)])
        assert summary(kifu.check_batch(chunked)) == expected
    with pytest.raises(TypeError, match="strings"):
        kifu.check_batch(pa.array([1, 2]))


def test_batches_run_beside_other_python_threads():
    records = [SHORT_RANK] * 2000
    results = {}

    def work(name):
        results[name] = [len(v.findings) for v in kifu.check_batch(records, threads=1)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3 and all(r == [1] * 2000 for r in results.values())


def cli_findings(kifu_bin, paths):
    """What ``kifu check --message-format json`` reports on ``paths``, by file."""
    run = subprocess.run(
        [str(kifu_bin), "check", "--message-format", "json", *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode in (0, 1), run.stderr
    by_file = {}
    summaries = []
    for line in run.stdout.splitlines():
        message = json.loads(line)
        if message["type"] == "diagnostic":
            edits = lambda edits: [(e["line"], e["column"], e["end_line"], e["end_column"], e["replacement"]) for e in edits]
            labels = [(l["line"], l["column"], l["end_line"], l["end_column"], l["message"], l["primary"]) for l in message["labels"]]
            fixes = [edits(message["fixes"])] + [edits(a) for a in message.get("alternatives", [])] if message.get("fixes") else []
            by_file.setdefault(message["file"], []).append(
                (
                    message["line"],
                    message["column"],
                    message["end_line"],
                    message["end_column"],
                    message["severity"],
                    message["code"],
                    message["message"],
                    message["help"],
                    labels,
                    fixes,
                )
            )
        elif message["type"] == "summary":
            summaries.append(message)
    return by_file, summaries


def python_findings(path):
    found, records, valid, dialects = [], 0, 0, {}
    for record in kifu.check_file(ROOT / path):
        records += 1
        valid += record.valid
        if record.read_as:
            dialects[record.read_as] = dialects.get(record.read_as, 0) + 1
        for f in record.findings:
            edits = lambda fix: [(e.line, e.column, e.end_line, e.end_column, e.replacement) for e in fix.edits]
            labels = [(l.line, l.column, l.end_line, l.end_column, l.message, l.primary) for l in f.labels]
            found.append(
                (f.line, f.column, f.end_line, f.end_column, f.severity, f.code, f.message, f.help, labels, [edits(x) for x in f.fixes])
            )
    return found, records, valid, dialects


FIXTURES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("tests/fixtures", "examples")
    for p in (ROOT / folder).rglob("*")
    if p.suffix in (".sfen", ".fen", ".epd", ".psn", ".json")
)


def test_the_fixtures_are_there_with_many_findings():
    assert len(FIXTURES) > 200
    assert sum(len(python_findings(path)[0]) for path in FIXTURES) > 400


@pytest.mark.parametrize("chunk", range(8))
def test_every_fixture_gets_the_findings_the_command_line_gives(kifu_bin, chunk):
    paths = FIXTURES[chunk::8]
    by_file, _ = cli_findings(kifu_bin, paths)
    for path in paths:
        found, records, valid, dialects = python_findings(path)
        assert found == by_file.get(path, []), path
        _, (summary,) = cli_findings(kifu_bin, [path])
        assert (records, valid, dialects) == (summary["records"], summary["valid"], summary["dialects"]), path


def test_check_file_selects_findings_as_kifu_check_does(tmp_path):
    # No Black king, and the hands out of USI's order (a warning).
    record = "4k4/9/9/9/9/9/9/9/9 b PR 1\n"
    (tmp_path / "kifu.toml").write_text('ignore = ["sfen::missing-king"]\nwarnings-as-errors = true\n')
    path = tmp_path / "a.sfen"
    path.write_text(record)
    codes = lambda **kw: [(f.code, f.severity) for r in kifu.check_file(path, **kw) for f in r.findings]
    assert codes() == [("sfen::hand-order", "error")]
    assert sorted(codes(isolated=True)) == [("sfen::hand-order", "warning"), ("sfen::missing-king", "warning")]
    assert codes(isolated=True, select=["sfen::missing-king"]) == [("sfen::missing-king", "warning")]
    assert codes(ignore=["sfen"]) == []
    [verdict] = list(kifu.check_file(path))
    assert not verdict.valid, "a warning made an error makes the record invalid"
    with pytest.raises(ValueError, match="sfen::nope"):
        kifu.check_file(path, ignore=["sfen::nope"])
    (tmp_path / "kifu.toml").write_text('ignore = ["bogus"]\n')
    with pytest.raises(ValueError, match="bogus"):
        kifu.check_file(path)


def test_check_and_batches_select_findings_as_the_flags_do():
    import pyarrow as pa

    # No Black king, and the hands out of USI's order (a warning).
    record = "4k4/9/9/9/9/9/9/9/9 b PR 1"
    codes = lambda findings: sorted((f.code, f.severity) for f in findings)
    both = [("sfen::hand-order", "warning"), ("sfen::missing-king", "warning")]
    assert codes(kifu.check(record)) == both
    assert codes(kifu.check(record, ignore=["sfen::missing-king"])) == [("sfen::hand-order", "warning")]
    assert codes(kifu.check(record, select=["sfen::missing-king"])) == [("sfen::missing-king", "warning")]
    errors = kifu.check(record, select=["sfen"], ignore=["sfen::hand-order"], warnings_as_errors=True)
    assert codes(errors) == [("sfen::missing-king", "error")]
    for records in ([record, record], pa.array([record, None, record])):
        verdicts = kifu.check_batch(records, ignore=["sfen::hand-order"], warnings_as_errors=True)
        shown = [None if v is None else (v.valid, codes(v.findings)) for v in verdicts]
        one = (False, [("sfen::missing-king", "error")])
        assert shown == ([one, one] if isinstance(records, list) else [one, None, one])
        assert all(v is None or v.valid for v in kifu.check_batch(records, ignore=["ALL"]))
    for call in (lambda: kifu.check(record, ignore=["sfen::nope"]), lambda: kifu.check_batch([record], select=["nope"])):
        with pytest.raises(ValueError, match="nope"):
            call()


def test_a_kif_or_ki2_record_is_checked_in_the_encoding_its_bytes_tell():
    record = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(77)\n"
    for data in (record, record.encode("utf-8"), record.encode("shift_jis"), record.encode("euc_jp")):
        (f,) = kifu.check(data, format="kif")
        assert (f.code, f.line, f.column) == ("kif::illegal-move", 4, 6), data
    (f,) = kifu.check(record, format="kif")
    assert record[f.start : f.end] == "７五歩(77)"
    assert "７五歩(76)" in f.help, "the nearest legal move"
    assert kifu.check("▲７六歩 △３四歩 ▲２二角成 △同　銀\n", format="kif") == []
    (f,) = kifu.check("▲５八金 △３四歩\n", format="kif")
    assert f.code == "kif::which-piece"
    assert [fix.apply("▲５八金 △３四歩\n") for fix in f.fixes] == ["▲５八金左 △３四歩\n", "▲５八金右 △３四歩\n"]


def test_a_csa_or_jkf_record_is_checked_as_text_bytes_or_a_file(tmp_path):
    csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7775FU\n%TORYO\n"
    for data in (csa, csa.encode("utf-8"), csa.encode("shift_jis")):
        (f,) = kifu.check(data, format="csa")
        assert (f.code, f.line, f.column) == ("csa::illegal-move", 6, 1), data
    (f,) = kifu.check(csa, format="csa")
    assert csa[f.start : f.end] == "+7775FU"
    assert kifu.check(csa.replace("+7775FU", "+8822UM"), format="csa") == []
    jkf = (
        '{"header": {}, "moves": [{}, {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}},\n'
        ' {"move": {"color": 1, "from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 5}, "piece": "FU"}}]}\n'
    )
    (f,) = kifu.check(jkf, format="jkf")
    assert f.code.startswith("jkf::") and f.severity == "error" and f.line == 2, f
    assert kifu.check(jkf.replace('"y": 5', '"y": 4').encode(), format="jkf") == []
    (f,) = kifu.check(b'{"header": {"\xff": "x"}, "moves": [{}]}', format="jkf")
    assert f.code == "jkf::bad-bytes"
    for name, text in (("game.csa", csa), ("game.jkf", jkf)):
        path = tmp_path / name
        path.write_text(text)
        [verdict] = list(kifu.check_file(path))
        assert not verdict.valid and [f.line for f in verdict.findings] == [(6 if name == "game.csa" else 2)]
        assert [f.code for f in verdict.findings] == [f.code for f in kifu.check(text, format=name[-3:])]
    path = tmp_path / "game.txt"
    path.write_text(csa)
    [verdict] = list(kifu.check_file(path, format="csa"))
    assert [f.code for f in verdict.findings] == ["csa::illegal-move"]


def test_a_kif_game_is_read_replayed_and_written_in_every_game_format():
    kifu_text = (ROOT / "tests" / "fixtures" / "kif" / "variations.kifu").read_text("utf-8")
    game = kifu.Game.from_kif(kifu_text)
    assert (game.format, game.dialect, game.valid) == ("kif", "kif", True)
    assert game.headers["先手"] == "先手の人"
    assert game.moves == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
    assert game.start == kifu.Position.from_sfen(START)
    assert len(game.positions()) == 5
    for data in (game.to_kif(), game.to_kif("shift_jis"), kifu_text.encode("euc_jp")):
        assert kifu.Game.from_kif(data).moves == game.moves
    assert game.to_kif("shift_jis").decode("cp932").startswith("#KIF version=2.0 encoding=Shift_JIS\n")
    ki2 = game.to_ki2().decode("utf-8")
    assert "▲７六歩" in ki2 and kifu.Game.from_kif(ki2).moves == game.moves
    psn = kifu.Game.from_psn(game.to_psn())
    assert psn.format == "psn" and psn.moves == game.moves
    assert psn.to_kif() == game.to_kif().replace("&角交換\n".encode("utf-8"), b""), "all but the bookmark"
    with pytest.raises(kifu.InvalidRecord) as raised:
        kifu.Game.from_kif("手合割：平手\n   1 ７五歩(77)\n")
    assert [f.code for f in raised.value.findings] == ["kif::illegal-move"]
    with pytest.raises(ValueError, match="shift_jis"):
        game.to_kif("latin-1")
    with pytest.raises(ValueError, match="Shift_JIS has no"):
        kifu.Game.from_kif("手合割：平手\n*😀\n   1 ７六歩(77)\n").to_kif("shift_jis")
