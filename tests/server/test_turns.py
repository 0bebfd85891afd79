"""Turn-based (correspondence) tables: the days clock, dice rolled when the turn is opened, waiting
games first, a days timeout losing the match, deadlines kept across a restart."""

from __future__ import annotations

import calendar
from contextlib import contextmanager

import pytest
from hypothesis import given, settings, strategies as st

from table.match.state import Phase
from table.rules.dice import SeededDice
from table.server.play.clock import DAY, PRESETS, TURN_DAYS, new_clock
from table.client import choose
from table.server.play.game import Game, GameConfig
from table.server.online.state import next_clock
from table.server.online.tables import table_settings
from table.server.play.turns import keeps_running, roll_on_open, waiting_for

from tests.server.server_helpers import TestClient, auth
from tests.server.test_online_tables import START, Site, make_site, receive, site  # noqa: F401 - fixture
from tests.server.storage_fixtures import where  # noqa: F401 - fixture

HOUR = 3600.0


# The days clock, pure ------------------------------------------------------------------------------


@pytest.mark.parametrize("days", TURN_DAYS)
def test_each_move_has_n_days_then_the_bank_of_n_days(days):
    clock = new_clock(f"days{days}", length=7).start(1, now=0.0)
    assert clock.turn_based and not clock.claim_only
    assert clock.deadline() == 2 * days * DAY  # a move's days, then the whole bank
    # A move inside its days costs the bank nothing, however long it took.
    quick = clock.stop(now=days * DAY - 1)
    assert quick.reserve == (days * DAY, days * DAY)
    # Half a day over: half a day comes off the bank, and the next move starts with its full days again.
    slow = clock.stop(now=days * DAY + DAY / 2)
    assert slow.reserve[1] == days * DAY - DAY / 2 and slow.reserve[0] == days * DAY
    again = slow.start(1, now=10 * DAY)
    assert again.deadline() == 10 * DAY + days * DAY + slow.reserve[1]
    assert not again.flagged(10 * DAY + days * DAY + slow.reserve[1] - 1) and again.flagged(again.deadline())


def test_weekends_are_days_like_any_other():
    friday_evening = float(calendar.timegm((2026, 12, 4, 18, 0, 0)))  # a Friday, 18:00 UTC
    clock = new_clock("days1", 1).start(0, now=friday_evening)
    # One day for the move and one in the bank: it runs out on Sunday evening, weekend or not.
    assert clock.deadline() == float(calendar.timegm((2026, 12, 6, 18, 0, 0)))


@settings(max_examples=60, deadline=None)
@given(days=st.sampled_from(TURN_DAYS), took=st.lists(st.floats(0, 9 * DAY), min_size=1, max_size=12))
def test_the_bank_only_ever_loses_the_time_beyond_each_moves_days(days, took):
    clock, now = new_clock(f"days{days}", 5), 0.0
    expected = days * DAY
    for t in took:
        clock = clock.start(0, now)
        if t >= clock.delay + clock.reserve[0]:
            assert clock.flagged(now + t)
            break
        now += t
        clock = clock.stop(now)
        expected -= max(0.0, t - days * DAY)
        assert clock.reserve[0] == pytest.approx(expected) and clock.reserve[1] == days * DAY


def turn_game(seed, cube=False, length=3):
    return Game(GameConfig("online", length, cube, names=("A", "B"), table="t", clock="days3"), SeededDice(seed))


def test_rolling_is_part_of_the_move_and_forced_moves_cost_nothing():
    """Over a whole game: the roll never restarts a move's days; the server's own steps never run anyone's clock."""
    game, clock, now = turn_game(5), new_clock("days3", 3), 0.0
    forced = 0
    while game.match.game_number == 1 and not game.is_over:
        auto = game.automatic()
        if auto is not None:
            entry = game.apply_automatic(auto)
            forced += entry.get("type") == "move" and bool(entry.get("play"))
        elif game.match.phase == Phase.GAME_OVER:
            break
        elif (entry := roll_on_open(game, frozenset({game.to_act}))) is not None:
            started = clock.started
            now += DAY  # opened a day into the move
            clock = next_clock(clock, game, entry, now)
            if game.automatic() is None:  # the play is theirs: the same move's days go on
                assert clock.running == entry["seat"] and clock.started == started
            else:  # forced or impossible: the server plays it, the move ends with the roll
                assert clock.running is None
            continue
        else:
            seat = game.to_act
            now += HOUR
            entry = game.act(frozenset({seat}), choose(game.view(frozenset({seat})), seat, "medium", False))
        before = clock.reserve
        clock = next_clock(clock, game, entry, now)
        if entry["seat"] is None:
            assert clock.reserve == before
    assert forced >= 1  # this seed has forced moves: they cost no days
    assert clock.reserve == (3 * DAY, 3 * DAY)  # every move took a day and an hour: the bank is whole


def test_the_roll_waits_for_a_player_who_may_double():
    game = turn_game(2, cube=True)
    game.apply_automatic(game.automatic())
    seat = game.to_act
    game.act(frozenset({seat}), choose(game.view(frozenset({seat})), seat, "medium", True))
    while game.automatic() is not None:
        game.apply_automatic(game.automatic())
    assert game.match.phase == Phase.ROLL and "double" in game.view(frozenset({game.to_act}))["actions"]
    assert roll_on_open(game, frozenset({game.to_act})) is None  # double or roll: their choice
    assert roll_on_open(game, frozenset({1 - game.to_act})) is None  # never for the other seat


def test_waiting_for_reads_a_stored_clock():
    assert waiting_for(new_clock("days3", 3).start(1, 0.0).to_json()) == 1
    assert waiting_for(new_clock("days3", 3).to_json()) is None and waiting_for(None) is None
    assert not keeps_running(new_clock("normal", 3).start(0, 0.0), {"type": "roll", "seat": 0}, 0)


def test_turn_based_settings_are_checked():
    assert table_settings({"clock": "days5"})["clock"] == "days5"
    assert PRESETS["days3"].bank == 3 * DAY
    for bad in ("days4", "days", "days0"):
        with pytest.raises(Exception, match="clock must be one of"):
            table_settings({"clock": bad})


# Over the server, on a fake calendar ------------------------------------------------------------


def until(ws, pred):
    """The next state message that satisfies ``pred``."""
    while True:
        m = receive(ws, "state")
        if pred(m):
            return m


@contextmanager
def opened(site, token, game):
    """A player opens the game: their socket, and the first state its hello brings."""
    with site.c.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "token": token})
        yield ws, receive(ws, "state")


def test_two_players_move_on_different_days_and_the_dice_wait_for_a_reload(site):
    ana, ion, table = site.match(clock="days2", length=3, cube=False)
    assert table["turn_based"] and table["clock"] == "days2"
    assert [t["turn_based"] for t in site.c.get("/api/tables").json()["playing"]] == [True]
    tokens, game = [ana, ion], table["game"]
    mover = site.c.get(f"/api/games/{game}").json()["view"]["to_act"]  # after the opening roll: a move
    me = site.c.get("/api/me", headers=auth(tokens[mover])).json()
    assert me["waiting"] == 1 and me["tables"][0]["your_turn"]
    assert site.c.get("/api/me", headers=auth(tokens[1 - mover])).json()["waiting"] == 0

    # Day 1: the first player moves, a day and a half after the match began.
    site.now.now += 1.5 * DAY
    with opened(site, tokens[mover], game) as (ws, state):
        assert "move" in state["view"]["actions"]
        action = choose(state["view"], mover, "medium", False)
        ws.send_json({"type": "action", "version": state["version"], "action": action})
        after = until(ws, lambda m: m["view"]["clock"]["running"] == 1 - mover)
    clock = after["view"]["clock"]
    assert clock["reserve"] == [2 * DAY, 2 * DAY]  # within the 2 days: the bank is whole
    assert clock["deadline"] == pytest.approx(site.now.now + 4 * DAY)
    other = 1 - mover
    assert site.c.get("/api/me", headers=auth(tokens[other])).json()["waiting"] == 1
    assert after["view"]["phase"] == "roll" and after["view"]["dice"] is None  # nobody rolled for them yet

    # Day 4: the other player opens the game three days later: the dice are rolled now, once.
    site.now.now += 3 * DAY
    with opened(site, tokens[other], game) as (ws, state):
        assert state["view"]["dice"] is None
        rolled = until(ws, lambda m: m["view"]["dice"] is not None)
    dice, version = rolled["view"]["dice"], rolled["version"]
    # Reload, and another device: the same dice, no new roll.
    for _ in range(2):
        with opened(site, tokens[other], game) as (ws, again):
            assert again["view"]["dice"] == dice and again["version"] == version
    rolls = [e for e in site.storage.load(game)[2] if e["type"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["seat"] == other and sorted(rolls[0]["dice"]) == sorted(dice)
    # Three days into a 2-day move: one day came off the bank (the roll did not restart the move's days).
    view = site.c.get(f"/api/games/{game}").json()["view"]
    assert view["clock"]["reserve"][other] == pytest.approx(DAY)


def test_a_turn_based_match_runs_out_of_days_and_loses_with_the_ledger_entry(site):
    ana, ion, table = site.match(clock="days1", length=5, cube=False)
    game = table["game"]
    state = site.c.get(f"/api/games/{game}").json()
    seat, deadline = state["view"]["clock"]["running"], state["view"]["clock"]["deadline"]
    assert deadline == START + 2 * DAY  # one day for the move and the one-day bank
    site.now.now = deadline - 1
    site.check()
    assert not site.c.get(f"/api/games/{game}").json()["view"]["over"]
    site.now.now = deadline
    site.check()
    end = site.c.get(f"/api/games/{game}").json()["view"]
    assert end["over"] and end["forfeit"] == {"seat": seat, "why": "timeout"}
    names = ["ana", "ion"]
    loser, winner = site.c.get(f"/api/players/{names[seat]}").json(), site.c.get(f"/api/players/{names[1 - seat]}").json()
    assert loser["points"] == -100 and loser["recent"][0]["reason"] == "timeout"
    assert winner["points"] == 0 and winner["recent"][0]["reason"] == "opponent-timeout"
    assert loser["rating"] < 1500 < winner["rating"]  # a rated match lost on time moves the ratings
    games = site.c.get(f"/api/players/{names[seat]}/games").json()["games"]
    assert games[0]["ended"] == "timeout" and games[0]["winner"] == 1 - seat


def test_nobody_is_claimed_against_for_being_away_at_a_turn_based_table(site):
    ana, ion, table = site.match(clock="days3", cube=False)
    tokens = [ana, ion]
    site.now.now += 2 * DAY  # both away for two days
    waiting = site.c.get(f"/api/games/{table['game']}").json()["view"]["clock"]["running"]
    r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(tokens[1 - waiting]))
    assert r.status_code == 409 and r.json()["code"] == "cannot_claim"
    assert not site.c.get(f"/api/games/{table['game']}").json()["view"]["over"]


def test_a_player_holds_many_turn_based_games_and_sees_the_waiting_ones_first(site):
    ana = site.guest("Ana")
    others = [site.guest(n) for n in ("Ion", "Dan", "Maria", "Elena", "Radu")]
    games = []
    for tok in others:
        table = site.table(ana, clock="days7", cube=False)
        games.append(site.c.post(f"/api/tables/{table['id']}/join", headers=auth(tok)).json()["table"])
    me = site.c.get("/api/me", headers=auth(ana)).json()
    assert len(me["tables"]) == 5
    waits = [t["your_turn"] for t in me["tables"]]
    assert me["waiting"] == sum(waits) and waits == sorted(waits, reverse=True)  # waiting first
    for t in me["tables"]:
        seat = [p["name"] for p in t["players"]].index("Ana")
        running = site.c.get(f"/api/games/{t['game']}").json()["view"]["clock"]["running"]
        assert t["your_turn"] == (running == seat)


def test_a_deadline_that_passed_while_the_server_was_down_ends_the_match_at_start(tmp_path):
    storage, now, clock, app = make_site(tmp_path / "x.sqlite3")
    with TestClient(app()) as c:
        site = Site(c, storage, now, clock)
        ana, ion, table = site.match(clock="days2", cube=False)
        before = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
    now.now += 3 * DAY  # down for three days: no grace, and the move is still within its days + bank
    with TestClient(app()) as c:
        after = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
        seat = before["running"]
        assert after["deadline"] == before["deadline"] and after["running"] == seat  # no grace, no fresh days
        assert after["reserve"][seat] == pytest.approx(DAY)  # 3 days into a 2-day move: a day of the bank
    now.now += 2 * DAY  # down again, past the deadline: the new server ends the match as it starts
    with TestClient(app()) as c:
        view = c.get(f"/api/games/{table['game']}").json()["view"]
        assert view["over"] and view["forfeit"] == {"seat": before["running"], "why": "timeout"}
    storage.close()


def test_a_player_watching_as_their_turn_comes_gets_their_dice_at_once(site):
    ana, ion, table = site.match(clock="days3", length=3, cube=False)
    tokens, game = [ana, ion], table["game"]
    mover = site.c.get(f"/api/games/{game}").json()["view"]["to_act"]
    with opened(site, tokens[1 - mover], game) as (watching, _), opened(site, tokens[mover], game) as (ws, state):
        site.now.now += DAY
        ws.send_json({"type": "action", "version": state["version"],
                      "action": choose(state["view"], mover, "medium", False)})
        rolled = until(watching, lambda m: m["view"]["dice"] is not None and m["view"]["to_act"] == 1 - mover
                       or m["view"]["clock"]["running"] == mover)
    rolls = [e for e in site.storage.load(game)[2] if e["type"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["seat"] == 1 - mover and rolled["view"]["dice"] is not None
