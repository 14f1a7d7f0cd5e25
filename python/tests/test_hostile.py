"""No input crashes the interpreter or escapes as anything but a clean finding or error."""

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st

import kifu

FORMATS = ["sfen", "fen", "epd", "psn", "json"]
# Bytes that make records: the characters of every notation, and a few that break them.
ALPHABET = list(b"kKrRbBgGsSnNlLpPqQ+-/ 0123456789wWbB*[]{}()\"':,.\n\r\t\x00\xff\xfe\xef\xbb\xbf")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.sampled_from(FORMATS))
def test_any_bytes_get_findings(data, format):
    for f in kifu.check(data, format=format):
        assert f.severity in ("error", "warning")
        assert 0 <= f.start <= f.end and f.code and f.message and f.line >= 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=120).map(bytes), st.sampled_from(FORMATS))
def test_near_records_get_findings_with_spans_inside_their_text(data, format):
    text = data.decode("utf-8", "replace")
    for f in kifu.check(text, format=format):
        assert 0 <= f.start <= f.end <= len(text)
        for fix in f.fixes:
            fix.apply(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_positions_raise_only_their_own_errors(text):
    for read in (kifu.Position.from_sfen, kifu.Position.from_fen, kifu.Position.from_epd, kifu.Position.from_json):
        try:
            position = read(text)
        except kifu.InvalidRecord as e:
            assert e.findings
        except ValueError:
            pass
        else:
            assert position.game in ("shogi", "chess")
    try:
        kifu.Game.from_psn(text)
    except ValueError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=30), st.sampled_from(FORMATS))
def test_a_batch_of_anything_matches_its_records_one_by_one(records, format):
    one_by_one = [[f.code for f in kifu.check(r, format=format)] for r in records]
    assert [[f.code for f in v.findings] for v in kifu.check_batch(records, format=format, threads=3)] == one_by_one


def test_a_file_that_is_not_there_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match="cannot open"):
        kifu.check_file(tmp_path / "missing.sfen")
    with pytest.raises(ValueError, match="cannot tell the format"):
        (tmp_path / "x.txt").write_text("hello")
        kifu.check_file(tmp_path / "x.txt")


def test_a_file_of_hostile_bytes_is_read_to_its_end(tmp_path):
    path = tmp_path / "hostile.sfen"
    path.write_bytes(b"9/9/9/9/9/9/9/9/9 b - 1\n" + b"x" * 3_000_000 + b"\n\x00\x00\n4k4/9/9/9/9/9/9/9/4K4 b - 1\n")
    records = list(kifu.check_file(path))
    assert [r.line for r in records] == [1, 2, 3, 4]
    assert records[-1].valid and not records[1].valid
    assert len(records[1].text) < 3_000_000, "a line far too long is not kept whole"
