"""The computer thinks in worker processes: the same decisions, and nobody else waits for them."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.play.computer import BotTask, choose_action, task_for, think
from table.server.play.game import Game, GameConfig
from table.server.edge.limits import Limits
from table.server.play.pool import BotPool
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path, run_async
from tests.server.slow_bot import THINK_SECONDS, slow_think
from tests.server.test_api import act


@pytest.mark.parametrize("seed, variant", [(1, "standard"), (2, "standard"), (3, "standard"), (4, "nackgammon")])
def test_the_worker_decides_from_the_ids_as_from_the_whole_match(seed, variant):
    """Every decision of a cube match (doubles, takes, resignations included) is the same from a
    BotTask, which carries the variant (the IDs do not say which game is played)."""
    rng = random.Random(seed)
    game = Game(GameConfig("local", length=5, cube=True, level="medium", variant=variant), SeededDice(seed))
    seen = set()
    for _ in range(2000):
        if game.is_over:
            break
        auto = game.automatic()
        if auto is not None:
            game.apply_automatic(auto)
            continue
        if game.to_act is None:  # between games
            game.act(frozenset({0, 1}), {"type": "next_game"})
            continue
        seat = game.to_act
        # Now and then a player doubles or resigns on its own, so that the other must answer.
        if game.match.phase.value in ("roll", "move") and rng.random() < 0.05:
            game.act(frozenset({seat}), {"type": "resign", "level": rng.choice([1, 2, 3])})
            continue
        if game.match.may_double() and rng.random() < 0.1:
            game.act(frozenset({seat}), {"type": "double"})
            continue
        action = choose_action(game, seat)
        assert think(task_for(game, seat)) == action
        seen.add(game.match.phase.value)
        game.act(frozenset({seat}), action)
    assert game.is_over
    assert {"roll", "move", "take", "resign"} <= seen


def test_a_task_is_small():
    game = Game(GameConfig("computer", length=21), SeededDice(1))
    game.apply_automatic(game.automatic())
    task = task_for(game, game.to_act)
    assert isinstance(task, BotTask) and len(repr(task)) < 200


def test_the_pool_runs_in_other_processes_and_stops():
    others = set(multiprocessing.active_children())  # e.g. the browser tests' server's workers
    pool = BotPool(1, think=_pid)
    assert not pool.running
    pid = run_async(pool.choose(None))
    assert pid != os.getpid() and pool.running
    pool.shutdown()
    assert not pool.running and set(multiprocessing.active_children()) <= others
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped and reaped


def _pid(task):
    return os.getpid()


def test_while_the_computer_thinks_another_table_plays_on(tmp_path):
    others = set(multiprocessing.active_children())
    storage = open_storage(tmp_path / "g.sqlite3")
    app = create_app(storage, SeededDice(8), bot_think=slow_think, limits=Limits(games_burst=100))
    with TestClient(app) as client:
        vs = client.post("/api/games", json={"mode": "computer", "level": "hard", "cube": False}).json()
        s = client.get(f"/api/games/{vs['game']}", headers=auth(vs["token"])).json()
        if s["view"]["phase"] == "roll":
            s = act(client, vs["game"], vs["token"], s["version"], {"type": "roll"}).json()
        other = client.post("/api/games", json={"mode": "local", "length": 21, "cube": False}).json()
        replies = []

        def move_against_the_computer():
            start = time.perf_counter()
            r = act(client, vs["game"], vs["token"], s["version"],
                    {"type": "move", "steps": first_path(s["view"]["moves"])})
            replies.append((r, time.perf_counter() - start))

        thinker = threading.Thread(target=move_against_the_computer)
        thinker.start()
        latencies = []
        state = client.get(f"/api/games/{other['game']}", headers=auth(other["token"])).json()
        while thinker.is_alive():
            v = state["view"]
            action = ({"type": "next_game"} if "next_game" in v["actions"]
                      else {"type": "roll"} if "roll" in v["actions"]
                      else {"type": "move", "steps": first_path(v["moves"])})
            start = time.perf_counter()
            r = act(client, other["game"], other["token"], state["version"], action)
            latencies.append(time.perf_counter() - start)
            assert r.status_code == 200, r.text
            state = r.json()
        thinker.join()
        (r, thinking), = replies
        assert r.status_code == 200 and r.json()["view"]["last"]["seat"] == 1
        assert thinking >= THINK_SECONDS
        # A blocked event loop would hold the first action for the rest of the think, and the
        # think would be over after one or two: dozens are answered meanwhile (81 on a loaded
        # machine whose slowest answer took 1.1 s).
        assert len(latencies) >= 5 and max(latencies) < THINK_SECONDS, latencies
        pool = app.state.pool
        assert pool.running
    assert not pool.running and set(multiprocessing.active_children()) <= others
    storage.close()


def test_table_serve_readies_the_computer_as_it_starts_and_tests_do_not(tmp_path):
    """``warm_bot`` (what ``table serve`` asks for) starts a worker and readies the bot in it before any
    game needs it, so the first computer game does not wait for numba to compile the search."""
    others = set(multiprocessing.active_children())
    storage = open_storage(tmp_path / "g.sqlite3")
    with TestClient(create_app(storage, bot_workers=1, warm_bot=True)) as client:
        assert client.get("/api/health").status_code == 200
        assert client.app.state.pool.running
    with TestClient(create_app(storage, bot_workers=1)) as client:
        assert client.get("/api/health").status_code == 200
        assert not client.app.state.pool.running  # started by the first game that needs it
    assert set(multiprocessing.active_children()) <= others


def test_readying_the_computer_loads_every_level():
    from table.server.play.computer import bot_for, warm_up

    bot_for.cache_clear()
    warm_up()
    assert bot_for.cache_info().currsize == 3


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    return [int(c) for t in tasks.iterdir() for c in (t / "children").read_text().split()]


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has ended; only its parent (here init) has not reaped it yet


def test_a_killed_server_leaves_no_worker_behind(tmp_path):
    """``kill -9`` of `table serve` alone, not its process group: the worker it started to ready the
    computer (and its resource tracker) end by themselves instead of keeping the bot in memory."""
    from tests.server.cluster.test_cluster import eventually
    from tests.server.test_clock_restart import Server

    server = Server(tmp_path / "games.sqlite3", tmp_path)
    server.start()
    assert server.proc is not None
    try:
        started: list[int] = []
        eventually(lambda: started.extend(_children(server.proc.pid)) or started, 60,
                   "table serve started no worker for the computer")
        server.proc.kill()
        server.proc.wait()
        eventually(lambda: not any(_running(p) for p in started), 30,
                   f"the workers {started} outlived their server")
    finally:
        try:
            os.killpg(server.proc.pid, signal.SIGKILL)  # whatever is left of its process group
        except ProcessLookupError:
            pass
