"""Reading records from files and SGF, and what ``table`` exports."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import table
from table import Match
from table.errors import IllegalActionError, RecordError, RecordWarning
from table.match import OpeningRoll, Phase, RecordedResult, action_from_json

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


# eXtreme Gammon Mobile ended a game "Wins 1 point" for the player who had just taken a
# 2-cube, with the doubler on roll: no ending the rules allow (a resignation there is worth 2,
# 4 or 6).  GNU Backgammon reads the file and keeps the score it states (issue 48); the
# fixture is written in XG Mobile's layout with that ending (CRLF line ends, its headers).
XG_MOBILE = DATA / "xg_mobile_take_then_win.mat"


def test_a_game_ended_against_the_rules_is_read_as_the_file_states_with_a_warning() -> None:
    with pytest.warns(RecordWarning, match=r"line 18: .*XG Mobile wins 1"):
        m = Match.from_mat(XG_MOBILE)
    first = m.results[0]
    assert (first.winner, first.points, first.cube, first.how) == (1, 1, 2, "record")
    # Every later score line agreed with the file's, and the match ends as it says.
    assert [(r.winner, r.points) for r in m.results] == [(1, 1), (0, 1), (1, 4)]
    assert m.score == (1, 5) and m.is_over and m.winner == 1
    assert first.describe() == "as the record states (1 point)"


def test_a_record_read_leniently_writes_and_saves_what_it_read() -> None:
    with pytest.warns(RecordWarning):
        m = Match.from_mat(XG_MOBILE)
    assert Match.from_json(m.to_json()).state == m.state
    with pytest.warns(RecordWarning):
        again = Match.from_mat(m.to_mat())
    assert [r for r in again.results] == [r for r in m.results]
    with pytest.warns(RecordWarning):
        assert Match.from_sgf(m.to_sgf()).score == m.score


def test_a_recorded_result_is_never_a_legal_action() -> None:
    for seed in range(20):
        m = _random_match(seed)
        while not m.is_over and len(m.results) < 2:
            assert all(a.kind != "recorded_result" for a in m.legal_actions())
            m.apply(random.Random(seed + len(m.actions)).choice(m.legal_actions()))


@pytest.mark.parametrize("raw, words", [
    ({"type": "recorded_result", "winner": 2, "points": 1}, "'winner' must be player 0 or 1"),
    ({"type": "recorded_result", "winner": True, "points": 1}, "'winner' must be player 0 or 1"),
    ({"type": "recorded_result", "winner": 0, "points": 0}, "'points' must be a whole number"),
    ({"type": "recorded_result", "winner": 0}, "'points' must be a whole number"),
])
def test_bad_recorded_results_are_refused(raw: dict[str, object], words: str) -> None:
    with pytest.raises(RecordError, match=words):
        action_from_json(raw)


def test_a_recorded_result_ends_only_a_game_in_play() -> None:
    m = Match(length=3, seed=1)
    with pytest.raises(IllegalActionError, match="not possible now"):
        m.apply(RecordedResult(0, 1))  # the game has not started
    m.apply(OpeningRoll((3, 1)))
    m.apply(RecordedResult(0, 5))
    assert m.is_over and m.score == (5, 0) and m.state.phase == Phase.MATCH_OVER
    with pytest.raises(IllegalActionError):
        m.apply(RecordedResult(1, 1))


def test_a_record_whose_moves_break_the_rules_is_still_refused() -> None:
    text = XG_MOBILE.read_text().replace("31: 8/5 6/5", "31: 8/4 6/5")
    with pytest.raises(RecordError, match="line 16"):
        Match.from_mat(text)
