"""Fair clocks online: a refused resignation buys no time, a restart gives back only the time nobody
served the match, and a match both players left waits in the database, not in memory."""

from __future__ import annotations

import time

import pytest

from table.client import choose
from table.server.online.sweep import last_served

from tests.server.server_helpers import TestClient, auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import START, Site, make_site, site  # noqa: F401 - fixture


def post(site, game, token, action):
    mine = site.c.get(f"/api/games/{game}", headers=auth(token)).json()
    r = site.c.post(f"/api/games/{game}/actions", headers=auth(token), json={"version": mine["version"],
                                                                             "action": action})
    assert r.status_code == 200, r.json()
    return r.json()


def test_a_refused_resignation_leaves_the_time_spent_before_it_spent(site):
    ana, ion, table = site.match(clock="rapid", length=3)  # 8 s a decision, 3 x 20 s of reserve
    game, tokens = table["game"], [ana, ion]
    clock = site.c.get(f"/api/games/{game}").json()["view"]["clock"]
    seat = clock["running"]
    site.now.now += 5  # 5 s of the 8 s delay, then the offer
    offered = post(site, game, tokens[seat], {"type": "resign", "level": 1})["view"]["clock"]
    shown = [8.0, 8.0]
    shown[seat] = 3.0  # the offerer's delay is shown as it stands, the answerer's is fresh
    assert offered["running"] == 1 - seat and offered["delay_left"] == shown
    site.now.now += 4  # the answer takes 4 s of the answerer's own fresh delay
    back = post(site, game, tokens[1 - seat], {"type": "reject_resignation"})["view"]["clock"]
    assert back["running"] == seat
    assert back["delay_left"][seat] == 3.0 and back["reserve"] == [60.0, 60.0]
    assert back["deadline"] == START + 9 + 3 + 60
    site.now.now += 10  # 3 s of delay left, then 7 s of reserve
    mine = site.c.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
    after = post(site, game, tokens[seat], choose(mine["view"], seat, "easy", True))["view"]["clock"]
    assert after["reserve"][seat] == 53.0 and after["reserve"][1 - seat] == 60.0


def test_a_resignation_offered_past_the_delay_keeps_its_reserve_spent(site):
    ana, ion, table = site.match(clock="rapid", length=3)
    game, tokens = table["game"], [ana, ion]
    seat = site.c.get(f"/api/games/{game}").json()["view"]["clock"]["running"]
    site.now.now += 12  # the delay and 4 s of reserve
    post(site, game, tokens[seat], {"type": "resign", "level": 1})
    site.now.now += 1
    back = post(site, game, tokens[1 - seat], {"type": "reject_resignation"})["view"]["clock"]
    assert back["running"] == seat and back["delay_left"][seat] == 0.0 and back["reserve"][seat] == 56.0
    assert back["deadline"] == START + 13 + 56


def wait_for_note(storage, value, seconds=10.0):
    """Wait until the server has noted that it served at ``value`` (its note comes every second)."""
    deadline = time.monotonic() + seconds
    while last_served(storage) != value:
        assert time.monotonic() < deadline, f"the server did not note {value} (last: {last_served(storage)})"
        time.sleep(0.05)


def test_a_restart_gives_back_the_time_nobody_served_the_match_and_nothing_more(tmp_path):
    storage, now, clock, app = make_site(tmp_path / "x.sqlite3")
    with TestClient(app()) as c:
        site = Site(c, storage, now, clock)
        ana, ion, table = site.match(clock="rapid", length=3)
        before = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
        seat = before["running"]
        now.now += 5  # 5 s into the decision the server last notes that it serves ...
        wait_for_note(storage, START + 5)
    now.now += 3600  # ... and is down for an hour
    with TestClient(app()) as c:  # a new app on the same database: it loads the game at start-up
        after = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
        assert after["running"] == seat
        assert after["reserve"] == before["reserve"] == [60.0, 60.0]  # no grace for anyone
        assert after["delay_left"][seat] == 3.0  # the 5 s used before stay used
        assert after["deadline"] == now.now + 3 + 60
        # A second restart with no time served in between gives nothing either.
        wait_for_note(storage, now.now)
    with TestClient(app()) as c:
        again = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
        assert again["deadline"] == after["deadline"] and again["reserve"] == after["reserve"]
    storage.close()


def test_an_abandoned_timed_match_leaves_memory_and_its_stored_deadline_ends_it(site):
    ana, ion, table = site.match(length=21, clock="relaxed")  # the first decision: 15 s + 21 x 3 min
    game = table["game"]
    rooms = site.c.app.state.rooms
    clock = site.c.get(f"/api/games/{game}").json()["view"]["clock"]
    deadline, seat = clock["deadline"], clock["running"]
    assert deadline == START + 15 + 3780
    room = rooms._rooms[game]
    site.clock.now += 119  # nobody has come for two minutes, less a second
    assert site.c.portal.call(rooms.sweep) == []
    site.clock.now += 1
    assert site.c.portal.call(rooms.sweep) == [game] and len(rooms) == 0
    assert room.online.timer is None  # its timer went with it
    site.now.now = deadline - 0.5
    site.check()
    assert len(rooms) == 0  # not due: nothing loads it
    site.now.now = deadline
    site.check()  # due: the stored deadline brings it back and ends it
    view = site.c.get(f"/api/games/{game}").json()["view"]
    assert view["over"] and view["forfeit"] == {"seat": seat, "why": "timeout"}
    assert view["table"]["status"] == "finished"


def test_a_match_left_memory_comes_back_with_its_clock_as_it_stood(site):
    ana, ion, table = site.match(clock="rapid", length=3)
    game = table["game"]
    rooms = site.c.app.state.rooms
    before = site.c.get(f"/api/games/{game}").json()["view"]["clock"]
    with site.c.websocket_connect(f"/ws/games/{game}") as ws:  # a player is here: the room stays
        ws.send_json({"type": "hello", "token": ana})
        assert ws.receive_json()["type"] == "state"
        site.clock.now += 10_000
        assert site.c.portal.call(rooms.sweep) == []
    deadline = time.monotonic() + 5
    while rooms._rooms[game].watchers:  # the server has seen her go
        assert time.monotonic() < deadline
        time.sleep(0.01)
    site.clock.now += 120
    assert site.c.portal.call(rooms.sweep) == [game]
    site.now.now += 30  # within her delay and reserve
    after = site.c.get(f"/api/games/{game}").json()["view"]["clock"]
    # Served all along: no restart's rules apply, the decision has simply run for 30 s (8 s of delay, 22 s
    # of reserve).
    seat = before["running"]
    assert (after["deadline"], after["running"]) == (before["deadline"], seat)
    assert after["delay_left"][seat] == 0.0 and after["reserve"][seat] == before["reserve"][seat] - 22
