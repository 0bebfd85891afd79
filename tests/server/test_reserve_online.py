"""Race, Dutch and Acey-Deucey at online tables (issue 50): opened in the lobby, joined, played to
the end by two people over the WebSockets, rated on their own, paid in the points ledger (an
Acey-Deucey game per checker), exported as Table's JSON record; Acey-Deucey's staged turn is timed."""

from __future__ import annotations

import json

import pytest

from table import Position
from table.client import ClientError
from table.match import Match
from table.server.online.ratings import Rating, rate
from table.server.online.state import next_clock
from table.server.play.clock import new_clock
from table.server.play.game import Game, GameConfig

from tests.server.test_online_bots import server  # noqa: F401 - fixture
from tests.server.test_online_variants import guests, play_out

RESERVE = ("race", "dutch", "acey-deucey")


@pytest.mark.parametrize("variant", RESERVE)
def test_a_table_of_each_is_listed_played_to_the_end_by_two_people_rated_and_paid(server, variant):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(1, "relaxed", cube=variant == "dutch", variant=variant)
    [listed] = bo.request("GET", "/api/tables")["open"]
    assert listed["id"] == table["id"] and listed["variant"] == variant
    outcome = play_out(ana, bo, table["id"])
    view = outcome.state["view"]
    assert outcome.forfeit is None and view["variant"] == variant and view["over"]
    game = outcome.state["game"]
    log = storage.load(game)[2]
    # Rated between people in this variant only: standard backgammon's rating stays where it was.
    winner, loser = outcome.names[outcome.winner], outcome.names[1 - outcome.winner]
    won, lost = rate(Rating(), Rating(), 1)
    w, lo = ana.request("GET", f"/api/players/{winner}"), ana.request("GET", f"/api/players/{loser}")
    assert (w["rating"], w["experience"], lo["rating"], lo["experience"]) == (1500, 0, 1500, 0)
    assert w["variants"] == [{"variant": variant, "rating": round(won.rating, 2), "experience": 1,
                              "games": 1, "wins": 1, "losses": 0, "draws": 0}]
    assert lo["variants"] == [{"variant": variant, "rating": round(lost.rating, 2), "experience": 1,
                               "games": 1, "wins": 0, "losses": 1, "draws": 0}]
    board = ana.request("GET", f"/api/leaderboard?variant={variant}")
    assert [(r["name"], r["value"]) for r in board["rows"]] == [(winner, round(won.rating, 2)),
                                                                 (loser, round(lost.rating, 2))]
    [row] = storage.match_results()
    assert row.outcome.variant == variant and row.outcome.rated
    # The ledger: a single game is 20 / -10 a unit; Acey-Deucey's units are the loser's checkers
    # not borne off (the view's ``off`` counts only borne-off ones), the others' the level.
    result = view["result"]
    units = 15 - view["off"][1 - outcome.winner] if variant == "acey-deucey" else result["level"] * result["cube"]
    if variant == "acey-deucey":
        assert result["points"] == units and units >= 1
        assert any(e["type"] == "name_double" for e in log)  # the staged turn was played
    lines = {ln.reason: ln.amount for ln in storage.ledger(game_id=game)}
    assert sorted(lines.values()) == [-10 * units, 20 * units]
    assert outcome.points[outcome.winner] == 20 * units and outcome.points[1 - outcome.winner] == -10 * units
    # The records: .mat and SGF cannot hold it and say so; Table's JSON record reads back to the same game.
    for kind in ("mat", "sgf"):
        with pytest.raises(ClientError) as refused:
            ana.request("GET", f"/api/games/{game}/record.{kind}")
        assert refused.value.code == "no_record" and "GNU Backgammon has no such variant" in str(refused.value)
    export = ana.request("GET", f"/api/games/{game}/export")
    assert export["mat"] is None and export["sgf"] is None and "JSON record" in export["why"]
    assert export["xgid"] is None  # an XGID has no place for checkers waiting off the board
    back = Match.from_json(json.dumps(export["json"]))
    assert back.variant.name == variant and back.game_result is not None
    assert back.game_result.winner == outcome.winner and back.game_result.points == result["points"]
    assert len(back.actions) == len([e for e in log if e["type"] != "forfeit"])
    # The IDs are of the board as it ended: the extended Position ID reads back in the variant.
    assert export["position"] == back.position.id and ":" in export["position"]
    assert Position.from_id(export["position"], variant) == back.position
    if variant == "acey-deucey":  # reviewed (no longer 409 no_review): the game and its record pasted
        for path, body in ((f"/api/games/{game}/review", {"depth": 0}),
                           ("/api/review", {"text": json.dumps(export["json"]), "depth": 0})):
            assert ana.request("POST", path, body)["state"] in ("running", "done")


class Loaded:
    """Dice that come up as listed, then as a seeded source rolls them."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll_die(self) -> int:
        return self.faces.pop(0) if self.faces else 3


def staged_turn(preset: str) -> list[tuple[str, int | None, float]]:
    """Acey-Deucey's staged turn at a table with clock ``preset``, 2 s a decision: after each entry,
    (its type, the seat whose decision runs, when that decision started)."""
    game = Game(GameConfig("online", 1, False, table="t", clock=preset, variant="acey-deucey"), Loaded(2, 1, 6, 5))
    clock, now, seen = new_clock(preset, 1), 100.0, []

    def after(entry):
        nonlocal clock
        clock = next_clock(clock, game, entry, now)
        seen.append((entry["type"], clock.running, clock.started))

    after(game.apply_automatic(game.automatic()))  # the opening roll: the first player's 2-1
    for action in ("move", {"type": "name_double", "number": 6}, "move", {"type": "roll"}, "move"):
        now += 2.0
        while (auto := game.automatic()) is not None:  # a forced play is the server's
            after(game.apply_automatic(auto))
        if game.to_act != 0:
            break
        if action == "move":
            play = game.graph.plays[0]
            action = {"type": "move", "steps": [list(s) for s in play.steps]}
        after(game.act(frozenset({0}), action))
    return seen


def test_on_a_live_clock_each_stage_of_the_acey_deucey_turn_is_a_decision_of_its_own():
    seen = staged_turn("rapid")
    assert [kind for kind, _, _ in seen] == ["opening_roll", "move", "name_double", "move", "roll", "move"]
    # Each decision starts when the one before it was made, with a fresh delay (a roll is one too).
    assert [(running, started) for _, running, started in seen] == [
        (0, 100.0), (0, 102.0), (0, 104.0), (0, 106.0), (0, 108.0), (1, 110.0)]


def test_on_a_turn_based_clock_the_whole_acey_deucey_turn_is_one_move():
    seen = staged_turn("days3")
    assert [kind for kind, _, _ in seen] == ["opening_roll", "move", "name_double", "move", "roll", "move"]
    # The 1-2, the double named, its play, the extra roll and its play: one move's days, then the opponent's.
    assert [(running, started) for _, running, started in seen] == [(0, 100.0)] * 5 + [(1, 110.0)]


def test_a_turn_based_acey_deucey_table_is_played_to_the_end(server):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(1, "days3", cube=False, variant="acey-deucey")
    assert table["turn_based"] and table["variant"] == "acey-deucey"
    outcome = play_out(ana, bo, table["id"])
    assert outcome.forfeit is None and outcome.state["view"]["variant"] == "acey-deucey"
    [row] = storage.match_results()
    assert row.outcome.variant == "acey-deucey" and row.outcome.ended == "normal"
