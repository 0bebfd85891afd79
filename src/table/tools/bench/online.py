"""Load on online tables: N matches at once between clients on real WebSockets.

``table bench online --games N --think SECONDS`` starts the real app in a process of its own
(uvicorn, one worker, SQLite in a temporary folder that is removed after, no
rate limits: every client comes from one address) and plays N matches at once
from ``--clients`` other processes, so that the clients' work does not slow
the server down inside its own process.  Each client process registers its
guests, opens its tables, and waits until every client process is ready;
then all play.  A client waits a think time drawn around the given mean
before each decision, as a person would (0: as fast as possible), and plays
the first legal play it is offered (the bot's thinking would measure the
clients, not the server).

With ``--redis URL --db postgresql://...`` it runs ``--workers`` server
processes instead, each on a port of its own, sharing the database and
Redis as ``table serve --redis`` does (``table.server.cluster``; a fresh
schema and key prefix, removed after): the two seats of a match connect to
different processes, so that half the sockets are carried to their game's
owner, as behind one port. CPU and memory are then the processes' sums.

It prints actions per second, the p50/p95/p99 of the time from sending an
action to both seats having the new state (over the whole run, then apart for
the opening, when every socket connects and says hello at once as after a
restart, and for the play after every socket has had its first state), the errors, the server's CPU time
per action, and the server's memory (resident set) before, at the peak, just
after the games, and once the server has forgotten every room: the finished
ones and those whose players left before the end (the bench's server does
both after ``--evict`` seconds; a real one after one and two minutes).  The
run is bounded: ``--seconds`` stops the play, finished or not, and the client
processes stop by themselves.  The client processes settle their collector as
the server does (``settle_memory``): their own pauses would count as the
server's latency.  They send no WebSocket pings of their own, as a browser
sends none (until 6 December 2026 each of the 2 x N sockets pinged every 20 s),
and answer the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.server.edge.memory import RECENT_SECONDS
from table.server.play.rooms import tidy_period
from table.tools.bench.server import free_port, first_path

JSON = dict[str, Any]

_SERVE = """
import dataclasses, json, sys, uvicorn
from table.server.app import create_app
from table.server.edge.http import uvicorn_options
from table.server.edge.memory import settle_memory
from table.server.edge.limits import Limits
from table.server.store import open_storage
big = 10**9
limits = Limits(games_burst=big, guests_burst=big, tables_burst=big, ws_messages_burst=big,
                connections_per_client=big, chat_burst=big, open_tables_per_address=big,
                open_tables_per_player=big)
limits = dataclasses.replace(limits, room_finished_seconds=float(sys.argv[3]), room_away_seconds=float(sys.argv[3]))
cluster = None
if len(sys.argv) > 4:
    from table.server.cluster.member import Cluster
    from table.server.cluster.settings import ClusterSettings
    cluster = Cluster(ClusterSettings(**json.loads(sys.argv[4])), limits)
app = create_app(open_storage(sys.argv[2]), limits=limits, cluster=cluster,
                 bot_workers=1 if cluster else None)
settle_memory()
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            **uvicorn_options(limits, max_connections=100_000))
"""


def rss_mib(pid: int) -> float:
    """A process's resident memory in MiB (Linux)."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used, in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Figures:
    """What a run measured."""

    latencies: list[float] = field(default_factory=list)  # seconds, action sent -> both seats updated
    sent_at: list[float] = field(default_factory=list)  # seconds into the play each of those was sent
    seats: int = 0  # sockets this process plays
    greeted: int = 0  # of those, how many have had their first state
    connected: float | None = None  # seconds into the play when every socket had had its first state
    start: float = 0.0  # perf_counter() when the play began
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0


def _action(view: JSON) -> JSON:
    """A legal action for the seat to act: the first play, roll rather than double, take, accept."""
    acts = view["actions"]
    for kind in ("next_game", "roll", "take", "accept_resignation"):
        if kind in acts:
            return {"type": kind}
    if "move" in acts and view["moves"]:
        return {"type": "move", "steps": first_path(view["moves"])}
    return {"type": acts[0]}


class _Match:
    """The two seats of one match: when each action was sent, and which seats have seen its result."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}  # version acted on -> when
        self.seen: dict[int, set[int]] = {}  # version acted on -> seats that have a later state

    def arrived(self, seat: int, version: int, figures: Figures) -> None:
        for v in [v for v in self.sent if v < version]:
            seen = self.seen.setdefault(v, set())
            seen.add(seat)
            if len(seen) == 2:
                sent = self.sent.pop(v)
                figures.latencies.append(time.perf_counter() - sent)
                figures.sent_at.append(sent - figures.start)
                del self.seen[v]


async def _seat(url: str, game: str, seat: int, token: str, match: _Match, think: float, rng: random.Random,
                figures: Figures) -> None:
    from websockets.asyncio.client import connect

    # No pings of its own, as a browser sends none: the server's pings are answered, as a browser's are.
    async with connect(f"{url.replace('http', 'ws', 1)}/ws/games/{game}", max_size=2**22, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        acted = -1
        greeted = False
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "error":
                if msg.get("code") not in ("stale", "not_your_turn"):
                    figures.errors.append(msg["message"])
                elif acted in match.sent:  # refused, so nothing to wait for: not an action's time
                    del match.sent[acted]
                    match.seen.pop(acted, None)
                    figures.actions -= 1
                continue
            if msg["type"] != "state":
                continue
            if not greeted:
                greeted = True
                figures.greeted += 1
                if figures.greeted == figures.seats:
                    figures.connected = time.perf_counter() - figures.start
            match.arrived(seat, msg["version"], figures)
            view = msg["view"]
            if view["over"]:
                figures.finished += 1
                return
            if not view["actions"] or msg["version"] == acted:
                continue
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))
            acted = msg["version"]
            match.sent.setdefault(acted, time.perf_counter())
            figures.actions += 1
            await ws.send(json.dumps({"type": "action", "version": acted, "action": _action(view)}))


def _post(url: str, path: str, body: JSON, token: str | None = None) -> JSON:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:
        answer: JSON = json.loads(r.read())
        return answer


async def _play(urls: list[str], first: int, games: int, length: int, think: float, seconds: float, seed: int,
                figures: Figures, ready: Any = None) -> float:
    """Set up matches ``first`` .. ``first + games - 1``, await ``ready()``, play them; return the seconds played.

    The two seats of match ``n`` use servers ``n`` and ``n + 1`` (modulo how many there are)."""
    rng = random.Random(seed)
    seats: list[tuple[str, str, int, str, _Match]] = []
    for n in range(first, first + games):
        ua, ub = urls[n % len(urls)], urls[(n + 1) % len(urls)]
        a = await asyncio.to_thread(_post, ua, "/api/guests", {"name": f"b{seed % 1000:03d}a{n}", "bot": True})
        b = await asyncio.to_thread(_post, ub, "/api/guests", {"name": f"b{seed % 1000:03d}b{n}", "bot": True})
        table = await asyncio.to_thread(_post, ua, "/api/tables", {"length": length, "clock": "untimed"}, a["token"])
        game = (await asyncio.to_thread(_post, ub, f"/api/tables/{table['table']['id']}/join", {},
                                        b["token"]))["table"]["game"]
        match = _Match()
        seats += [(ua, game, 0, a["token"], match), (ub, game, 1, b["token"], match)]
    if ready is not None:
        await ready()
    start = figures.start = time.perf_counter()
    figures.seats = len(seats)
    tasks = [asyncio.ensure_future(_seat(u, g, s, t, m, think, random.Random(rng.random()), figures))
             for u, g, s, t, m in seats]
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            figures.errors.append(repr(task.exception()))
    return time.perf_counter() - start


_CLIENT = "import sys; from table.tools.bench.online import client_main; client_main(sys.argv[1])"


def client_main(spec_json: str) -> None:
    """A client process: play its share of the matches; write its figures to the file the spec names.

    It says ``ready`` on its standard output once its tables are open and
    starts playing when a line comes on its standard input.
    """
    from table.server.edge.memory import settle_memory

    settle_memory()  # a full collection here would stall every match it plays, as in a server
    spec = json.loads(spec_json)
    figures = Figures()

    async def ready() -> None:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

    played = asyncio.run(_play(spec["urls"], spec["first"], spec["games"], spec["length"], spec["think"],
                               spec["seconds"], spec["seed"], figures, ready))
    Path(spec["out"]).write_text(json.dumps({
        "latencies": figures.latencies, "sent_at": figures.sent_at, "connected": figures.connected,
        "actions": figures.actions, "errors": figures.errors,
        "finished": figures.finished, "seconds": played}))


def _start_server(port: int, db: str, evict: float, cluster: JSON | None = None) -> subprocess.Popen[bytes]:
    url = f"http://127.0.0.1:{port}"
    extra = [] if cluster is None else [json.dumps(cluster)]
    # On the allocator ``table serve`` runs on (``use_the_c_allocator``) unless PYTHONMALLOC says
    # otherwise; the clients keep Python's.
    server = subprocess.Popen([sys.executable, "-c", _SERVE, str(port), db, str(evict), *extra],
                              env={"PYTHONMALLOC": "malloc", **os.environ})
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/health", timeout=2).read()
            return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


def _shared(urls: list[str], seconds: float = 30.0) -> None:
    """Wait until the server processes have shared out every partition, none idle."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        shares = [json.loads(urllib.request.urlopen(f"{u}/api/health", timeout=2).read())["partitions"] for u in urls]
        if all(shares) and sum(map(len, shares)) == len(set().union(*map(set, shares))) == 64:
            return
        time.sleep(0.2)
    raise RuntimeError("the server processes did not share the partitions out")


@contextlib.contextmanager
def _fresh_cluster(db: str, redis: str) -> Iterator[tuple[str, str]]:
    """A new PostgreSQL schema and Redis key prefix for one run (the database URL and the prefix),
    both removed after."""
    import psycopg
    from redis import Redis

    name = "bench_" + secrets.token_hex(5)
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{db}{'&' if '?' in db else '?'}options=-csearch_path%3D{name}", name
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")
        r = Redis.from_url(redis)
        keys = list(r.scan_iter(match=f"{name}:*", count=1000))
        if keys:
            r.delete(*keys)
        r.close()


def _shares(games: int, clients: int) -> list[tuple[int, int]]:
    """``(first, count)`` of the matches each client process plays: as even as can be, none empty.

    >>> _shares(5, 2)
    [(0, 3), (3, 2)]
    >>> _shares(1, 4)
    [(0, 1)]
    """
    clients = max(1, min(clients, games))
    counts = [games // clients + (k < games % clients) for k in range(clients)]
    return [(sum(counts[:k]), c) for k, c in enumerate(counts)]


def _redis_cpu(redis: str | None) -> float:
    """The CPU seconds the Redis server has used (0 without one)."""
    if redis is None:
        return 0.0
    from redis import Redis

    r = Redis.from_url(redis)
    try:
        info: Any = r.info("cpu")
        return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
    finally:
        r.close()


def _postgres_cpu(redis: str | None) -> float:
    """The CPU seconds this machine's PostgreSQL processes have used (0 when not running over them;
    a database on another machine is not counted)."""
    if redis is None:
        return 0.0
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # gone meanwhile
        if text[text.index("(") + 1:text.rindex(")")] == "postgres":
            total += cpu_seconds(int(stat.parent.name))
    return total


def _round(urls: list[str], servers: list[subprocess.Popen[bytes]], tmp: str, first_game: int, games: int, length: int,
           think: float, seconds: float, seed: int, clients: int, evict: float, redis: str | None = None) -> JSON:
    """Play one round of ``games`` matches at once against the running server; return its raw figures."""
    procs: list[subprocess.Popen[str]] = []
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        outs = []
        for k, (first, count) in enumerate(_shares(games, clients)):
            out = Path(tmp) / f"client{first_game + k}.json"
            spec = {"urls": urls, "first": first_game + first, "games": count, "length": length, "think": think,
                    "seconds": seconds, "seed": seed * 1000 + k, "out": str(out)}
            procs.append(subprocess.Popen([sys.executable, "-c", _CLIENT, json.dumps(spec)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
            outs.append(out)
        for proc in procs:  # every client has its tables open
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError("a client process could not set up its matches")
        ready, cpu_before = _rss(servers), _cpu(servers)
        redis_before, pg_before = _redis_cpu(redis), _postgres_cpu(redis)
        peak = ready
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        start = time.perf_counter()
        while any(proc.poll() is None for proc in procs):
            peak = max(peak, _rss(servers))
            if time.perf_counter() - start > seconds + 60:
                raise RuntimeError("a client process did not stop by itself")
            time.sleep(0.25)
        elapsed = time.perf_counter() - start
        cpu, redis_cpu = _cpu(servers) - cpu_before, _redis_cpu(redis) - redis_before
        pg_cpu = _postgres_cpu(redis) - pg_before
        time.sleep(1.0)
        after = _rss(servers)
        # The server forgets a room ``evict`` s after its last watcher left, at its next sweep; its
        # memory keeper gives the memory back at its next tick.
        time.sleep(evict + tidy_period(evict) + RECENT_SECONDS + 1.0)
        for proc in procs:
            proc.wait(30)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        clients_cpu = used.ru_utime + used.ru_stime - children.ru_utime - children.ru_stime
        return {"parts": [json.loads(out.read_text()) for out in outs], "seconds": elapsed, "cpu": cpu,
                "redis_cpu": redis_cpu, "pg_cpu": pg_cpu,
                "clients_cpu": clients_cpu,
                "ready": ready, "peak": peak, "after": after, "settled": _rss(servers)}
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(30)


def _rss(servers: list[subprocess.Popen[bytes]]) -> float:
    return sum(rss_mib(s.pid) for s in servers)


def _cpu(servers: list[subprocess.Popen[bytes]]) -> float:
    return sum(cpu_seconds(s.pid) for s in servers)


def measure(games: int, length: int, think: float, seconds: float, seed: int = 1, clients: int = 2,
            evict: float = 5.0, rounds: int = 1, workers: int = 1, db: str | None = None,
            redis: str | None = None) -> JSON:
    """Run the server and ``clients`` client processes, play ``games`` matches at once, ``rounds`` times
    over on the same server; return the figures (memory read after each round).

    With ``redis`` (and a PostgreSQL ``db``), ``workers`` server processes share the games."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        servers: list[subprocess.Popen[bytes]] = []
        ports = [free_port() for _ in range(workers)]
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            if redis is None:
                servers.append(_start_server(ports[0], str(Path(tmp) / "bench.sqlite3"), evict))
            else:
                assert db is not None
                url, prefix = stack.enter_context(_fresh_cluster(db, redis))
                for port in ports:
                    servers.append(_start_server(port, url, evict, {
                        "database": url, "redis": redis, "workers": workers, "prefix": prefix}))
                _shared(urls)
            before = _rss(servers)
            played = [_round(urls, servers, tmp, r * games, games, length, think, seconds, seed + r, clients, evict,
                             redis) for r in range(rounds)]
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
    parts = [part for r in played for part in r["parts"]]
    ms = sorted(x * 1000 for part in parts for x in part["latencies"])
    # Every socket opens at once when play begins (as after a restart, when every client reconnects):
    # the actions sent before the last of them had its first state are counted apart.
    # (In each round: its clients count the seconds from when it began.)
    bursts = [max(p["connected"] if p["connected"] is not None else float("inf") for p in r["parts"]) for r in played]
    timed = [(x * 1000, at < burst) for r, burst in zip(played, bursts) for part in r["parts"]
             for x, at in zip(part["latencies"], part["sent_at"])]
    steady = sorted(x for x, opening in timed if not opening)
    burst = sorted(x for x, opening in timed if opening)
    burst_s = max(bursts)
    actions = sum(part["actions"] for part in parts)
    errors = [e for part in parts for e in part["errors"]]
    elapsed = sum(r["seconds"] for r in played)
    cpu = sum(r["cpu"] for r in played)
    clients_cpu = sum(r["clients_cpu"] for r in played)

    def pct(p: float, of: list[float] = ms) -> float:
        return of[min(len(of) - 1, int(p * (len(of) - 1) + 0.5))] if of else float("nan")

    return {"games": games, "rounds": rounds, "workers": workers,
            "storage": "PostgreSQL + Redis" if redis else "SQLite", "clients": len(played[0]["parts"]),
            "finished": sum(part["finished"] for part in parts) // 2,
            "actions": actions, "seconds": elapsed, "actions_per_s": actions / elapsed if elapsed else 0.0,
            "timed_actions": len(ms), "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
            "connected_s": burst_s if burst_s != float("inf") else None,
            "burst_actions": len(burst), "burst_p99_ms": pct(0.99, burst),
            "steady_actions": len(steady), "steady_p50_ms": pct(0.50, steady), "steady_p95_ms": pct(0.95, steady),
            "steady_p99_ms": pct(0.99, steady),
            "server_cpu_ms_per_action": cpu * 1000 / actions if actions else float("nan"),
            "redis_cpu_ms_per_action": (sum(r["redis_cpu"] for r in played) * 1000 / actions
                                        if actions and redis else None),
            "postgres_cpu_ms_per_action": (sum(r["pg_cpu"] for r in played) * 1000 / actions
                                           if actions and redis else None),
            "clients_cpu_ms_per_action": clients_cpu * 1000 / actions if actions else float("nan"),
            "errors": errors[:10], "error_count": len(errors),
            "rss_before_mib": before, "rss_ready_mib": played[0]["ready"],
            "rss_peak_mib": max(r["peak"] for r in played), "rss_after_mib": played[-1]["after"],
            "rss_settled_mib": played[-1]["settled"], "rss_rounds_mib": [r["settled"] for r in played],
            "evict_s": evict}


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures."""
    if (args.games < 1 or args.think < 0 or args.seconds <= 0 or args.clients < 1 or args.evict < 0
            or args.rounds < 1):
        print("table: error: --games, --clients and --rounds must be at least 1, --think and --evict 0 or more, "
              "--seconds more than 0", file=sys.stderr)
        return 2
    if not 1 <= args.workers <= 16 or (args.workers > 1 or args.db) and not args.redis:
        print("table: error: --workers is 1 to 16, and more than one (or --db) needs --redis", file=sys.stderr)
        return 2
    if args.redis and not (args.db or "").startswith("postgresql"):
        print("table: error: --redis needs --db postgresql://...", file=sys.stderr)
        return 2
    if args.compare and not args.redis:
        print("table: error: --compare needs --redis and --db", file=sys.stderr)
        return 2
    setups = ([(1, None, None), (1, args.db, args.redis), (max(2, args.workers), args.db, args.redis)]
              if args.compare else [(args.workers, args.db, args.redis)])
    failed = 0
    for workers, db, redis in setups:
        failed |= _report(args, measure(args.games, args.length, args.think, args.seconds, args.seed, args.clients,
                                        args.evict, args.rounds, workers, db, redis))
    return failed


def _phases(f: JSON) -> str:
    """The run's two phases: every socket opening at once, then play with all of them open."""
    if f["connected_s"] is None:
        return "some socket never had its first state, so the whole run was the opening burst"
    return (f"every socket had its first state {f['connected_s']:.1f} s in ({f['burst_actions']} actions "
            f"sent before that: p99 {f['burst_p99_ms']:.1f} ms); after that ({f['steady_actions']} actions): "
            f"p50 {f['steady_p50_ms']:.1f} ms, p95 {f['steady_p95_ms']:.1f} ms, p99 {f['steady_p99_ms']:.1f} ms")


def _report(args: argparse.Namespace, f: JSON) -> int:
    """Print one run's figures; 1 if it had errors."""
    rounds = f" x {f['rounds']} rounds" if f["rounds"] > 1 else ""
    print(f"online ({f['workers']} server process(es), {f['storage']}): {f['games']} matches at once{rounds} ({f['finished']} finished), think {args.think} s: "
          f"{f['actions']} actions in {f['seconds']:.1f} s = {f['actions_per_s']:.1f} actions/s; "
          f"action -> both seats updated p50 {f['p50_ms']:.1f} ms, p95 {f['p95_ms']:.1f} ms, "
          f"p99 {f['p99_ms']:.1f} ms; " + _phases(f) + f"; server CPU {f['server_cpu_ms_per_action']:.2f} ms per action "
          + (f"(Redis {f['redis_cpu_ms_per_action']:.2f} ms, PostgreSQL here {f['postgres_cpu_ms_per_action']:.2f} ms) "
             if f["redis_cpu_ms_per_action"] is not None else "") +
          f"(the client processes: {f['clients_cpu_ms_per_action']:.2f} ms); "
          f"errors {f['error_count']}; server memory {f['rss_before_mib']:.0f} MiB at start, "
          f"{f['rss_ready_mib']:.0f} MiB with the tables open, {f['rss_peak_mib']:.0f} MiB peak, "
          f"{f['rss_after_mib']:.0f} MiB after the games, {f['rss_settled_mib']:.0f} MiB once the rooms "
          f"are forgotten ({f['evict_s']:g} s)"
          + (f"; after each round: {', '.join(f'{m:.0f}' for m in f['rss_rounds_mib'])} MiB" if f["rounds"] > 1 else ""), flush=True)
    for e in f["errors"]:
        print(f"  error: {e}")
    return 0 if f["error_count"] == 0 else 1
