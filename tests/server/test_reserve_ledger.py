"""The points ledger for the reserve variants (docs/variants.md, "Matches and the points ledger"):
an Acey-Deucey game pays +20 / -10 for each of the loser's checkers not borne off; Race and Dutch
backgammon pay by levels as backgammon does.  The results come from games played by the match."""

from __future__ import annotations

import pytest

from table.match import AcceptResignation, Move, Resign
from table.match.state import GameResult
from table.rules.dice import SeededDice
from table.server.online.ledger import LedgerError, game_entries

from tests.match.helpers import reserve_setup


def amounts(result: GameResult) -> list[tuple[int, int, str]]:
    return [(e.player_id, e.amount, e.reason) for e in game_entries(result, (11, 22), "g")]


@pytest.mark.parametrize("opponent, checkers", [
    ({5: 3, 26: 2}, 5),     # three on the board and two waiting: ten borne off
    ({5: 1}, 1),            # one left: the least a game pays
    ({25: 1, 20: 4}, 5),    # one on the bar counts too
    ({26: 15}, 15),         # none entered: the most
    ({6: 15}, 15),          # all home, none off: no gammon on top, fifteen checkers
])
def test_an_acey_deucey_game_pays_twenty_and_ten_per_checker_not_borne_off(opponent, checkers):
    m = reserve_setup("acey-deucey", {1: 1}, opponent, (6, 5), dice_source=SeededDice(1))
    m.apply(Move("1/off"))
    assert m.game_result is not None
    assert amounts(m.game_result) == [(11, 20 * checkers, "win:single"), (22, -10 * checkers, "loss:single")]


def test_an_acey_deucey_resignation_pays_for_the_checkers_left_then():
    m = reserve_setup("acey-deucey", {6: 4, 26: 3}, {1: 2}, None, dice_source=SeededDice(1))
    m.apply(Resign(1))
    m.apply(AcceptResignation())
    assert m.game_result is not None
    assert amounts(m.game_result) == [(22, 140, "win:single"), (11, -70, "loss:single")]  # 7 checkers


@pytest.mark.parametrize("loser, won, lost, name", [
    ({6: 14}, 20, -10, "single"),
    ({6: 15}, 40, -20, "gammon"),
    ({6: 14, 20: 1}, 60, -30, "backgammon"),  # a checker in the winner's home board
])
def test_a_race_game_pays_by_levels(loser, won, lost, name):
    m = reserve_setup("race", {1: 1}, loser, (6, 5), dice_source=SeededDice(1))
    m.apply(Move("1/off"))
    assert m.game_result is not None and m.game_result.checkers == 0
    assert amounts(m.game_result) == [(11, won, f"win:{name}"), (22, lost, f"loss:{name}")]


def test_a_dutch_gammon_with_the_cube_at_two_pays_four_units():
    m = reserve_setup("dutch", {1: 1}, {6: 15}, (6, 5), cube=2, owner=0, dice_source=SeededDice(1))
    m.apply(Move("1/off"))
    assert amounts(m.game_result) == [(11, 80, "win:gammon"), (22, -40, "loss:gammon")]


@pytest.mark.parametrize("bad", [
    GameResult(winner=0, points=6, level=2, cube=1, how="checkers", checkers=3),   # a per-checker gammon
    GameResult(winner=0, points=16, level=1, cube=1, how="checkers", checkers=16),  # more than fifteen
    GameResult(winner=0, points=-1, level=1, cube=1, how="checkers", checkers=-1),
])
def test_an_impossible_per_checker_result_is_refused(bad):
    with pytest.raises(LedgerError, match="per checker"):
        game_entries(bad, (1, 2), "g")
