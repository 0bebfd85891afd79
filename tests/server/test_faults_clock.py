"""The server's system clock stepping backwards (or forwards) during a match neither gives nor takes time.

Game clocks compare deadlines with the time ``table serve`` gives the app: a ``SteadyWallClock``,
which follows the monotonic clock once started.  Here the system clock (``wall``) and the
monotonic clock (``mono``) are fakes moved by the test; before the fix the app read the system
clock itself, so an hour's step back gave the player to move an hour.
"""

from __future__ import annotations

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.client import choose
from table.server.edge.limits import Limits
from table.server.store import open_storage
from table.server.edge.wallclock import SteadyWallClock

from tests.server.server_helpers import FakeClock, TestClient, auth
from tests.server.test_online_tables import START, Site


@pytest.fixture
def clocks():
    return FakeClock(START), FakeClock(50.0)  # the system clock, the monotonic clock


@pytest.fixture
def site(tmp_path, clocks):
    wall, mono = clocks
    storage = open_storage(tmp_path / "g.sqlite3")
    app = create_app(storage, SeededDice(7), limits=Limits(games_burst=10**6), clock=FakeClock(0.0),
                     now=SteadyWallClock(wall, mono))
    with TestClient(app) as c:
        yield Site(c, storage, None, None)
    storage.close()


def clock_of(site, game):
    return site.c.get(f"/api/games/{game}").json()["view"]["clock"]


@pytest.mark.parametrize("step", [-3600.0, +3600.0])
def test_a_step_of_the_system_clock_does_not_change_what_a_decision_costs(site, clocks, step):
    wall, mono = clocks
    ana, ion, table = site.match(clock="rapid", length=1)  # 8 s a decision, then 20 s of reserve
    game, tokens = table["game"], [ana, ion]
    seat = clock_of(site, game)["running"]
    wall.now += step
    wall.now += 15
    mono.now += 15  # 15 s of thinking: the 8 s delay, then 7 s of the reserve
    mine = site.c.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
    action = choose(mine["view"], seat, "easy", False)
    r = site.c.post(f"/api/games/{game}/actions", headers=auth(tokens[seat]),
                    json={"version": mine["version"], "action": action})
    assert r.status_code == 200, r.json()
    assert r.json()["view"]["clock"]["reserve"][seat] == pytest.approx(13.0)


def test_a_step_back_does_not_postpone_a_timeout(site, clocks):
    wall, mono = clocks
    _, _, table = site.match(clock="rapid", length=1)
    game = table["game"]
    seat = clock_of(site, game)["running"]
    wall.now -= 3600
    mono.now += 28  # the whole delay and reserve
    site.c.portal.call(site.c.app.state.online.check_all)
    view = site.c.get(f"/api/games/{game}").json()["view"]
    assert view["over"] and view["forfeit"] == {"seat": seat, "why": "timeout"}


def test_serve_gives_the_app_a_steady_clock(monkeypatch, tmp_path):
    import uvicorn

    from table.cli import main
    from table.server import app as app_module

    seen = {}
    real = app_module.create_app

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(app_module, "create_app", spy)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    assert main(["serve", "--port", "8123", "--db", str(tmp_path / "g.sqlite3")]) == 0
    assert isinstance(seen.get("now"), SteadyWallClock)
