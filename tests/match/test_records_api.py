"""Reading records from files and SGF, and what ``table`` exports."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import table
from table import Match
from table.errors import RecordError

DATA = Path(__file__).resolve().parents[1] / "notation" / "data"
MAT = DATA / "gnubg_3pt.mat"
SGF = DATA / "gnubg_3pt.sgf"  # GNU Backgammon's own SGF of the same match ("save match")


def _random_match(seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(rng.choice([0, 1, 3, 5]), rng.random() < 0.8, seed=seed)
    while not m.is_over and len(m.results) < 3:
        m.apply(rng.choice(m.legal_actions()))
    return m


def test_from_mat_reads_text_a_path_or_an_open_file() -> None:
    expected = Match.from_mat(MAT.read_text())
    for source in (str(MAT), MAT):
        assert Match.from_mat(source).actions == expected.actions
    with MAT.open(encoding="utf-8") as text_file:
        assert Match.from_mat(text_file).actions == expected.actions
    assert Match.from_mat(io.BytesIO(MAT.read_bytes())).actions == expected.actions


def test_a_missing_record_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read .*nothing.mat"):
        Match.from_mat(tmp_path / "nothing.mat")
    with pytest.raises(RecordError, match="a record is text, a file path or an open file"):
        Match.from_mat(42)  # type: ignore[arg-type]


def test_gnu_backgammons_sgf_reads_as_the_same_match_as_its_mat() -> None:
    from_sgf = Match.from_sgf(SGF)
    from_mat = Match.from_mat(MAT)
    assert from_sgf.actions == from_mat.actions
    assert from_sgf.players == ("gnubg", "root") and from_sgf.length == 3
    assert from_sgf.is_over and from_sgf.score == from_mat.score


@pytest.mark.parametrize("seed", range(12))
def test_our_sgf_reads_back_as_the_same_match(seed: int) -> None:
    m = _random_match(seed)
    back = Match.from_sgf(m.to_sgf())
    assert back.score == m.score and back.results == m.results
    assert back.cube_enabled == m.cube_enabled and back.length == m.length
    assert back.state.position == m.state.position


@pytest.mark.parametrize(("text", "message"), [
    ("(;GM[1]PW[a]PB[b])", "not a backgammon record"),
    ("(;GM[6]MI[length:3][game:0][ws:0][bs:0]\n;AB[a])", "line 2: games set up from a position"),
    ("(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n;B[31hefe])",
     "line 3:"),
    ("(;GM[6]MI[length:3][game:0][ws:0][bs:0]\n;W[3x])", "line 2: cannot read the SGF move"),
    ("(;GM[6]\n;W[31hefe]", "not closed"),
    ("no record\nhere", "line 1: cannot read the SGF text"),
])
def test_bad_sgf_is_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Match.from_sgf(text)


def test_the_actions_are_exported_from_table() -> None:
    from table import match

    for name in ("Action", "OpeningRoll", "Roll", "Move", "Double", "Take", "Drop", "Resign",
                 "AcceptResignation", "RejectResignation", "NextGame", "Phase", "GameResult"):
        assert getattr(table, name) is getattr(match, name)
        assert name in table.__all__


def test_the_version_matches_the_package_metadata() -> None:
    import tomllib

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    assert table.__version__ == tomllib.loads(pyproject.read_text())["project"]["version"]


def test_from_json_reads_a_dict_text_a_path_or_an_open_file(tmp_path: Path) -> None:
    import json

    m = _random_match(3)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(m.to_json()))
    for source in (m.to_json(), json.dumps(m.to_json()), str(path), path):
        assert Match.from_json(source).actions == m.actions
    with path.open(encoding="utf-8") as file:
        assert Match.from_json(file).actions == m.actions
    with pytest.raises(RecordError, match="not JSON"):
        Match.from_json("{nonsense")
