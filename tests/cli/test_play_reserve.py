"""``table play`` with the games whose checkers start off the board: the cube left out where the game
has none, Acey-Deucey's double named at the keyboard or by the computer, and the record written as
Table's JSON (a .mat file cannot hold these games)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from table.cli.play import ComputerAgent, HumanAgent, RecordPathError, check_record_path, play_match, run
from table.cli.terminal import Terminal
from table.match import Match, NameDouble
from table.match.state import Phase
from table.notation.matchid import MatchInfo, encode_match_id
from table.rules.position import Position

from tests.cli.test_play import _args


def _naming() -> Match:
    """An Acey-Deucey game where the player on roll has played a 1-2 and must name a double."""
    start = Position.from_checkers({26: 5, 20: 2}, {26: 10}, "acey-deucey")
    info = MatchInfo(cube_value=1, cube_owner=None, player_on_roll=0, crawford=False, turn=0,
                     double_offered=False, dice=(2, 1), match_length=1, score=(0, 0))
    m = Match.from_ids(start.id, encode_match_id(info), cube=False, variant="acey-deucey")
    m.apply(next(a for a in m.legal_actions() if a.kind == "move"))
    assert m.phase == Phase.NAME_DOUBLE
    return m


@pytest.mark.parametrize(("typed", "number"), [("6", 6), ("3-3", 3), ("names 5-5", 5)])
def test_a_person_names_the_double_as_a_number_or_as_a_double(typed: str, number: int) -> None:
    out = io.StringIO()
    action = HumanAgent(Terminal("en", io.StringIO(f"7\n2-3\n{typed}\n"), out))(_naming())
    assert action == NameDouble(number)
    text = out.getvalue()
    assert "choose the double to play" in text and "Not understood: '7'" in text and "'2-3'" in text


def test_the_computer_names_its_double_and_says_which() -> None:
    out = io.StringIO()
    term = Terminal("ro", io.StringIO(""), out)
    action = ComputerAgent("easy", term)(_naming())
    assert isinstance(action, NameDouble) and f"alege dubla {action.number}-{action.number}" in out.getvalue()


def test_a_race_between_two_computers_is_recorded_as_json_that_reads_back(tmp_path: Path) -> None:
    from table.cli.play import save_record

    term = Terminal("en", io.StringIO(""), io.StringIO())
    m = Match(1, cube=False, seed=3, variant="race", players=("A", "B"))
    play_match(m, (ComputerAgent("easy", term), ComputerAgent("easy", term)), term)
    path = tmp_path / "race.json"
    save_record(m, path, term)
    again = Match.from_json(path.read_text())
    assert again.is_over and again.variant.name == "race" and again.actions == m.actions


def test_a_mat_record_of_a_race_is_refused_before_play(tmp_path: Path) -> None:
    with pytest.raises(RecordPathError, match="a .mat file cannot hold Backgammon Race"):
        check_record_path(tmp_path / "race.mat", "race")
    check_record_path(tmp_path / "race.json", "race")  # accepted


def test_race_is_played_without_the_cube_whatever_the_option_says() -> None:
    out = io.StringIO()
    # Without --no-cube: Race has no cube, so the match starts (it would refuse a cube) and stops.
    assert run(_args(variant="race"), stdin=io.StringIO("quit\n"), stdout=out) == 0
    assert "Match stopped." in out.getvalue()
