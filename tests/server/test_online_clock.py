"""The online clock moves with the game: each decision charged beyond its delay, the server's own steps free."""

from __future__ import annotations

import pytest

from table.match.state import Phase
from table.match import NextGame
from table.rules.dice import SeededDice
from table.server.play.clock import new_clock
from table.client import choose
from table.server.play.game import Game, GameConfig
from table.server.online.state import decider, ended_game, next_clock


def online_game(seed: int, length: int = 7) -> Game:
    return Game(GameConfig("online", length, True, names=("A", "B"), table="t", clock="relaxed"), SeededDice(seed))


@pytest.mark.parametrize("seed", [1, 2])
def test_people_pay_for_their_decisions_and_the_server_for_nothing(seed):
    game = online_game(seed)
    clock, now, think = new_clock("relaxed", 7), 1000.0, 20.0  # a 15 s delay: each decision costs 5 s
    forced = decisions = 0
    while not game.is_over and game.match.game_number <= 3:
        before = clock.reserve
        auto = game.automatic()
        if auto is not None:
            entry = game.apply_automatic(auto)
        elif game.match.phase == Phase.GAME_OVER:
            entry = game.apply_automatic(NextGame())
        else:
            seat = game.to_act
            assert clock.running == seat == decider(game)  # the clock runs for whoever must decide
            now += think
            entry = game.act(frozenset({seat}), choose(game.view(frozenset({seat})), seat, "medium", True))
        clock = next_clock(clock, game, entry, now)
        if entry["seat"] is None:
            assert clock.reserve == before, entry  # the server's steps cost nobody anything
            forced += entry.get("type") == "move" and bool(entry.get("play"))
        else:
            decisions += 1
            spent = [b - a for b, a in zip(before, clock.reserve)]
            assert spent[entry["seat"]] == pytest.approx(think - clock.delay) and spent[1 - entry["seat"]] == 0
        if clock.running is not None:
            assert clock.started == now  # each decision starts with a fresh delay
    assert forced >= 1 and decisions >= 20


def test_a_game_ends_once_and_the_pause_between_games_runs_no_clock():
    game = online_game(3, length=3)
    clock, ends = new_clock("rapid", 3), []
    while not game.is_over and game.match.game_number == 1:
        auto = game.automatic()
        if auto is not None:
            entry = game.apply_automatic(auto)
        elif game.match.phase == Phase.GAME_OVER:
            assert decider(game) is None and clock.running is None
            entry = game.apply_automatic(NextGame())
        else:
            seat = game.to_act
            entry = game.act(frozenset({seat}), choose(game.view(frozenset({seat})), seat, "medium", True))
        clock = next_clock(clock, game, entry, 0.0)
        ends.append(ended_game(game, entry))
    assert game.match.game_number == 2, "this seed's first game should not end the match"
    assert ends.count(True) == 1 and ends[-1] is False  # the game's end; the next game's start is not one


def test_a_forfeit_stops_the_clock_and_ends_the_match():
    game = online_game(4)
    game.apply_automatic(game.automatic())
    clock = next_clock(new_clock("rapid", 7), game, game.log[-1], 0.0)
    seat = clock.running
    entry = game.forfeit_match(seat, "timeout")
    clock = next_clock(clock, game, entry, 1000.0)
    assert clock.running is None and clock.reserve[seat] == 0.0 and game.is_over
    view = game.view(frozenset({1 - seat}))
    assert view["over"] and view["winner"] == 1 - seat and view["actions"] == []
    assert view["forfeit"] == {"seat": seat, "why": "timeout"}
    again = Game.replay(game.config, game.log, SeededDice(4))
    assert again.forfeit == game.forfeit and again.is_over
    with pytest.raises(Exception, match="over already"):
        game.forfeit_match(1 - seat, "left")


@pytest.mark.parametrize("seed", [1, 2])
def test_no_seat_is_offered_a_step_the_server_is_about_to_take(seed):
    # A forced or impossible move is the server's: a view offering it would invite a move that
    # arrives after the server has played it (refused as stale).
    game = online_game(seed)
    server_steps = 0
    # Two games at least, and on until the server has had a step to take (the bot's play decides
    # when a forced or impossible move comes up; a 7-point match is sure to have one).
    while not game.is_over and (game.match.game_number <= 2 or server_steps == 0):
        auto = game.automatic()
        views = [game.view(frozenset({s})) for s in (0, 1)]
        if auto is not None:
            assert views[0]["actions"] == views[1]["actions"] == [] and views[0]["moves"] is None
            server_steps += game.match.phase == Phase.MOVE
            game.apply_automatic(auto)
        elif game.match.phase == Phase.GAME_OVER:
            game.apply_automatic(NextGame())
        else:
            seat = game.to_act
            assert views[seat]["actions"] and views[1 - seat]["actions"] == []
            game.act(frozenset({seat}), choose(views[seat], seat, "medium", True))
    assert server_steps >= 1
