"""Several server processes over PostgreSQL and Redis (table.server.cluster), as separate `table serve`s.

Needs TABLE_TEST_POSTGRES_URL and TABLE_TEST_REDIS_URL (scripts/test starts throwaway servers and sets
both); skipped with the reason printed without them. Each test gets a PostgreSQL schema and a Redis
database of its own, and starts real server processes on loopback ports, stopped at its end.
Each test's processes name their Redis keys and channels and their PostgreSQL locks with a prefix
of their own (``table serve --redis-prefix``), so tests on several test workers run side by side.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from table.client import OnlineClient, choose
from table.server.play.game import Game, GameConfig
from table.server.store import open_storage

PG = os.environ.get("TABLE_TEST_POSTGRES_URL")
REDIS = os.environ.get("TABLE_TEST_REDIS_URL")

pytestmark = pytest.mark.skipif(not (PG and REDIS),
                                reason="set TABLE_TEST_POSTGRES_URL and TABLE_TEST_REDIS_URL (scripts/test does)")


def free_port() -> int:
    from table.tools.bench.server import free_port
    return free_port()


def eventually(what: Callable[[], object], seconds: float = 20.0, message: str = "") -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if what():
            return
        time.sleep(0.1)
    raise AssertionError(message or "it did not happen in time")


def health(url: str) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(url + "/api/health", timeout=2) as r:
            answer: dict[str, object] = json.loads(r.read())
            return answer
    except OSError:
        return None


class Workers:
    """`table serve --redis` processes sharing one database and one Redis."""

    def __init__(self, db: str, redis: str, home: Path) -> None:
        self.db, self.redis, self.home = db, redis, home
        self.prefix = "test_" + secrets.token_hex(5)  # this group's keys, channels and locks
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []

    def start(self, workers: int = 1) -> str:
        port = free_port()
        env = {**os.environ, "HOME": str(self.home), "PYTHONUNBUFFERED": "1"}
        log = open(self.home / f"worker-{port}.log", "wb")
        self.procs.append(subprocess.Popen(
            [sys.executable, "-m", "table", "serve", "--db", self.db, "--redis", self.redis,
             "--redis-prefix", self.prefix, "--port", str(port),
             "--bot-delay", "0", "--workers", str(workers)], env=env, stdout=log, stderr=subprocess.STDOUT))
        url = f"http://127.0.0.1:{port}"
        self.urls.append(url)
        eventually(lambda: health(url), 60, f"the worker on {url} did not start")
        return url

    def shared(self) -> None:
        """Wait until every worker serves a share of the partitions and together all of them."""
        def fair() -> bool:
            shares = [health(u) for u in self.urls]
            parts = [set(s["partitions"]) for s in shares if s is not None]  # type: ignore[call-overload]
            return (len(parts) == len(self.urls) and all(parts)
                    and sum(len(p) for p in parts) == 64 and len(set().union(*parts)) == 64)
        eventually(fair, 30, "the workers did not share the partitions")

    def owner(self, game: str) -> int:
        from table.server.cluster.partitions import partition_of
        p = partition_of(game, 64)
        for i, u in enumerate(self.urls):
            h = health(u)
            if h is not None and p in h["partitions"]:  # type: ignore[operator]
                return i
        raise AssertionError(f"nobody serves {game}")

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    from tests.server.storage_fixtures import postgres_schema
    redis_mod = pytest.importorskip("redis")
    assert REDIS
    with postgres_schema() as url:
        group = Workers(url, REDIS, tmp_path)
        try:
            yield group
        finally:
            group.stop()
            redis = redis_mod.Redis.from_url(REDIS)
            keys = list(redis.scan_iter(match=f"{group.prefix}:*", count=1000))
            if keys:
                redis.delete(*keys)
            redis.close()


class Player(threading.Thread):
    """A bot at one online table that reconnects (to ``servers[0]``, which a test may change) and
    keeps every state it was sent."""

    def __init__(self, client: OnlineClient, game: str, servers: list[str],
                 stop: Callable[[dict[str, object]], bool] = lambda state: False,
                 halt: threading.Event | None = None) -> None:
        super().__init__(daemon=True)
        self.client, self.game, self.servers, self.stop = client, game, servers, stop
        self.halt = halt or threading.Event()  # set: leave at once (``stop`` sets it for everyone sharing it)
        self.states: list[dict[str, object]] = []
        self.others: list[dict[str, object]] = []
        self.reconnects = 0
        self.error: BaseException | None = None
        self.say: list[str] = []  # chat lines to send once connected

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        deadline = time.monotonic() + 240
        try:
            while time.monotonic() < deadline and not self.halt.is_set():
                url = self.servers[0].replace("http://", "ws://")
                try:
                    with connect(f"{url}/ws/games/{self.game}", open_timeout=5) as ws:
                        if self._play(ws):
                            return
                except (ConnectionClosed, OSError, TimeoutError):
                    self.reconnects += 1
                    time.sleep(0.3)
            if not self.halt.is_set():
                raise AssertionError("the match did not end in time")
        except BaseException as exc:
            self.error = exc

    def _play(self, ws: object) -> bool:
        ws.send(json.dumps({"type": "hello", "token": self.client.token}))  # type: ignore[attr-defined]
        sent_for = -1
        quiet = 0
        while True:
            try:
                m = json.loads(ws.recv(timeout=1))  # type: ignore[attr-defined]
            except TimeoutError:
                quiet += 1
                if self.halt.is_set():
                    return True
                if quiet < 30:
                    continue
                raise
            quiet = 0
            if m["type"] == "error" and m["code"] not in ("stale", "not_your_turn"):
                raise AssertionError(m)
            if m["type"] != "state":
                self.others.append(m)
                continue
            self.states.append(m)
            # Chat once both players are here, so that the other hears it live (not from the history).
            while self.say and all(p.get("connected") for p in m["view"].get("presence", [])):
                ws.send(json.dumps({"type": "chat", "channel": "players", "text": self.say.pop()}))  # type: ignore[attr-defined]
            view, seats = m["view"], m["seats"]
            if view["over"] or self.stop(m):
                self.halt.set()
                return True
            if not view["actions"] or not seats or m["version"] == sent_for:
                continue
            time.sleep(0.05)  # within the server's rate limit for one connection
            seat = view["to_act"] if view["to_act"] in seats else seats[0]
            sent_for = m["version"]
            ws.send(json.dumps({"type": "action", "version": sent_for,  # type: ignore[attr-defined]
                                "action": choose(view, seat, "easy", m["config"]["cube"])}))


def seated(servers: list[str], length: int, meanwhile: Callable[[str], None] = lambda table: None,
           clock: str = "normal") -> tuple[OnlineClient, OnlineClient, str]:
    """Two guests, one on each server; the first opens a table (``meanwhile`` sees its id) and the
    second sits down."""
    suffix = str(time.monotonic_ns() % 100_000)
    a, b = OnlineClient(servers[0], "easy"), OnlineClient(servers[1], "easy")
    a.register("ana" + suffix)
    b.register("bob" + suffix)
    table = a.create(length, clock=clock)
    meanwhile(table["id"])
    return a, b, b.join(table["id"])


def replayed_ids(db: str, game: str) -> Callable[[int, int], dict[str, str]]:
    """The Position and Match IDs the stored log gives at each version, as a seat sees them."""
    storage = open_storage(db)
    try:
        config, _, entries = storage.load(game)
    finally:
        storage.close()
    cfg = GameConfig.from_json(config, online=True)

    def ids(version: int, seat: int) -> dict[str, str]:
        view = Game.replay(cfg, entries[:version]).view(frozenset({seat}))
        return dict(view["ids"])
    ids.entries = len(entries)  # type: ignore[attr-defined]
    return ids


def test_players_on_different_workers_play_a_match_with_chat_presence_and_the_lobby(workers: Workers) -> None:
    from websockets.sync.client import connect

    urls = [workers.start(), workers.start()]
    workers.shared()
    with connect(urls[1].replace("http://", "ws://") + "/ws/lobby", open_timeout=5) as lobby:
        assert json.loads(lobby.recv(timeout=10))["type"] == "lobby"
        # The table opened on the first worker shows in the second's lobby, live.
        a, b, game = seated(urls, 1, lambda table: eventually(
            lambda: table in lobby.recv(timeout=10), 20, "the lobby on the other worker did not update"))
    owner = workers.owner(game)
    assert owner == 1  # the game lives where it started: with the joiner's worker
    pa, pb = Player(a, game, [urls[0]]), Player(b, game, [urls[1]])  # ana's socket goes through worker 0
    pa.say.append("salut, bob")
    pa.start(); pb.start()
    pa.join(240); pb.join(240)
    assert pa.error is None and pb.error is None, (pa.error, pb.error)
    last_a, last_b = pa.states[-1], pb.states[-1]
    assert last_a["version"] == last_b["version"] and last_a["view"]["over"]  # type: ignore[index]
    assert max(last_a["view"]["score"]) >= 1  # type: ignore[index]
    # Presence and chat cross the workers: bob heard ana's line, and both saw each other connected.
    assert any(m["type"] == "chat" and m["text"] == "salut, bob" and m["from"] == a.name for m in pb.others)
    assert any(all(p["connected"] for p in s["view"]["presence"]) for s in pa.states)  # type: ignore[index]
    # Every state either player saw is the stored game at that version.
    ids = replayed_ids(workers.db, game)
    assert ids.entries == last_a["version"]  # type: ignore[attr-defined]
    for player, seat in ((pa, 0 if pa.states[0]["seats"] == [0] else 1), (pb, None)):
        for s in player.states[::10]:
            sv = s["seats"][0]  # type: ignore[index]
            assert s["view"]["ids"] == ids(s["version"], sv), s["version"]  # type: ignore[arg-type,index]


def test_a_killed_owner_loses_nothing_acknowledged_and_the_clocks_stay_right(workers: Workers) -> None:
    urls = [workers.start(), workers.start()]
    workers.shared()
    a, b, game = seated(urls, 3)
    assert workers.owner(game) == 1
    servers_b = [urls[1]]
    pa, pb = Player(a, game, [urls[0]]), Player(b, game, servers_b)
    pa.start(); pb.start()
    eventually(lambda: len(pb.states) > 40 or not pb.is_alive(), 120, "the match did not get going")
    assert pb.is_alive() and not pb.states[-1]["view"]["over"]  # type: ignore[index]
    seen_before = {id(p): list(p.states) for p in (pa, pb)}
    workers.procs[1].kill()  # kill -9 the owner, mid-match
    servers_b[0] = urls[0]  # its players come back through the survivor (as behind one port)
    workers.procs[1].wait()
    pa.join(240); pb.join(240)
    assert pa.error is None and pb.error is None, (pa.error, pb.error)
    assert pa.reconnects + pb.reconnects >= 1
    assert workers.owner(game) == 0  # the survivor took the dead worker's partitions
    final = pa.states[-1]
    assert final["view"]["over"] and pb.states[-1]["version"] == final["version"]  # type: ignore[index]
    ids = replayed_ids(workers.db, game)
    assert ids.entries == final["version"]  # type: ignore[attr-defined]
    # Nothing acknowledged is lost: every state a player was sent before the kill is the stored game.
    for p in (pa, pb):
        for s in seen_before[id(p)]:
            assert s["view"]["ids"] == ids(s["version"], s["seats"][0]), s["version"]  # type: ignore[arg-type,index]
    # The clocks: nobody lost or gained time while no worker served the game (the bots never use their
    # reserve; tests/server/cluster/test_clock_cluster.py checks the running decision to the second).
    killed_at = max(s["version"] for p in (pa, pb) for s in seen_before[id(p)])  # type: ignore[type-var]
    before = {tuple(s["view"]["clock"]["reserve"]) for p in (pa, pb) for s in seen_before[id(p)]}  # type: ignore[index]
    after = {tuple(s["view"]["clock"]["reserve"]) for s in pa.states + pb.states  # type: ignore[index]
             if s["version"] > killed_at}  # type: ignore[operator]
    assert before == {(180.0, 180.0)}, before  # a 3-point match's reserve: a minute a point
    assert after == {(180.0, 180.0)}, after


def test_a_clock_runs_out_under_the_new_owner_when_the_old_one_died_with_nobody_connected(workers: Workers) -> None:
    urls = [workers.start(), workers.start()]
    workers.shared()
    tables: list[str] = []
    a, b, game = seated(urls, 1, tables.append, clock="rapid")  # 8 s a decision + 20 s of reserve
    assert workers.owner(game) == 1
    seat_a: list[int] = []

    def a_on_the_clock(state: dict[str, object]) -> bool:
        if state["seats"] and not seat_a:
            seat_a.append(state["seats"][0])  # type: ignore[index]
        view: Any = state["view"]  # her own decision (the server takes forced steps itself), timing
        return bool(seat_a) and state["version"] >= 6 and bool(view["actions"]) and view["clock"]["running"] == seat_a[0]  # type: ignore[operator]

    halt = threading.Event()  # both leave when ana's decision is timing
    pa = Player(a, game, [urls[0]], stop=a_on_the_clock, halt=halt)
    pb = Player(b, game, [urls[1]], halt=halt)
    pa.start(); pb.start()
    pa.join(90); pb.join(30)
    assert not pa.is_alive() and not pb.is_alive() and pa.error is None and pb.error is None, (pa.error, pb.error)
    assert a_on_the_clock(pa.states[-1])
    # Ana's decision is timing and nobody is connected when the owner dies.
    workers.procs[1].kill()
    workers.procs[1].wait()
    # Only the database is asked meanwhile (any process answers): the survivor must take the
    # game up by itself, clock and all, not because somebody asked for it.
    started = time.monotonic()
    eventually(lambda: a.request("GET", f"/api/tables/{tables[0]}")["table"]["status"] == "finished", 90,
               "nobody ended the match when ana's time ran out")
    view = a.request("GET", f"/api/games/{game}")["view"]
    assert view["forfeit"] == {"seat": seat_a[0], "why": "timeout"}, view.get("forfeit")
    # Not before her time: what she had left of 8 s of delay and 20 s of reserve when her owner last noted
    # serving the game (at most a second before it died), counted from the takeover.
    assert time.monotonic() - started >= 20


def test_workers_on_one_port_share_the_games_and_answer_for_each_other(workers: Workers) -> None:
    url = workers.start(workers=2)
    seen: dict[str, set[int]] = {}

    def both_serving() -> bool:
        h = health(url)
        if h is not None:
            seen[str(h["worker"])] = set(h["partitions"])  # type: ignore[call-overload]
        return len(seen) == 2 and all(seen.values()) and len(set().union(*seen.values())) == 64
    eventually(both_serving, 60, "the two worker processes did not share the partitions")
    body = json.dumps({"mode": "local", "length": 1}).encode()
    req = urllib.request.Request(url + "/api/games", body, {"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        created = json.loads(r.read())
    # Whichever process a request lands on, it is answered by the game's owner, the same each time.
    for _ in range(12):
        with urllib.request.urlopen(f"{url}/api/games/{created['game']}", timeout=30) as r:
            state = json.loads(r.read())
        assert (state["game"], state["version"]) == (created["game"], created["version"])


def test_the_online_benchmark_runs_two_workers_over_postgresql_and_redis() -> None:
    from table.tools.bench.online import measure

    assert PG and REDIS
    f = measure(games=2, length=1, think=0.0, seconds=90, clients=1, evict=0.5, workers=2, db=PG, redis=REDIS)
    assert (f["workers"], f["storage"], f["finished"], f["error_count"]) == (2, "PostgreSQL + Redis", 2, 0), f["errors"]
    assert f["actions"] > 40 and f["p50_ms"] > 0 and f["redis_cpu_ms_per_action"] > 0
