"""The points ledger's amounts, with the numbers written out."""

from __future__ import annotations

import pytest

from table.match.state import GameResult
from table.server.online.ledger import LedgerError, forfeit_entries, game_entries


def result(winner: int, level: int, cube: int = 1, how: str = "checkers") -> GameResult:
    return GameResult(winner=winner, points=level * cube, level=level, cube=cube, how=how)


def amounts(entries) -> list[tuple[int, int, str, str | None]]:
    return [(e.player_id, e.amount, e.reason, e.game_id) for e in entries]


@pytest.mark.parametrize(("level", "cube", "won", "lost", "name"), [
    (1, 1, 20, -10, "single"),
    (2, 1, 40, -20, "gammon"),
    (3, 1, 60, -30, "backgammon"),
    (1, 2, 40, -20, "single"),
    (2, 4, 160, -80, "gammon"),
    (3, 64, 3840, -1920, "backgammon"),
])
def test_winner_and_loser_amounts(level, cube, won, lost, name):
    assert amounts(game_entries(result(0, level, cube), (11, 22), "g")) == [
        (11, won, f"win:{name}", "g"), (22, lost, f"loss:{name}", "g")]


def test_the_winner_is_the_seat_in_the_result():
    assert amounts(game_entries(result(1, 1), (11, 22), "g")) == [(22, 20, "win:single", "g"),
                                                                 (11, -10, "loss:single", "g")]


def test_a_dropped_double_and_a_resignation_score_like_the_board():
    assert [e.amount for e in game_entries(result(1, 1, cube=2, how="drop"), (1, 2), "g")] == [40, -20]
    assert [e.amount for e in game_entries(result(0, 2, how="resign"), (1, 2), "g")] == [40, -20]


@pytest.mark.parametrize("why", ["left", "timeout"])
def test_leaving_or_running_out_of_time_costs_100_and_the_opponent_gets_0(why):
    assert amounts(forfeit_entries(5, 6, "g", why)) == [(5, -100, why, "g"), (6, 0, f"opponent-{why}", "g")]


@pytest.mark.parametrize("bad", [result(0, 4), result(0, 1, cube=3), result(0, 1, cube=0), result(2, 1)])
def test_impossible_results_are_refused(bad):
    with pytest.raises(LedgerError):
        game_entries(bad, (1, 2), "g")


def test_an_unknown_forfeit_is_refused():
    with pytest.raises(LedgerError, match="'left'"):
        forfeit_entries(1, 2, "g", "bored")  # type: ignore[arg-type]
