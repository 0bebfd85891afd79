"""Measure the web app: the size of its own files and how fast the server confirms a move.

Run ``table bench server`` (``--moves N --runs R``).  It starts the
real app with uvicorn on a free loopback port, with SQLite storage in a
temporary folder, and plays a two-players-on-one-device match over a real
WebSocket, timing each action from sending it to receiving the new state.
"""

from __future__ import annotations

import gzip

import argparse
import json
import socket
import statistics
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from starlette.types import ASGIApp

from table.server.app import create_app, web_root
from table.server.edge.http import uvicorn_options
from table.server.edge.limits import Limits
from table.server.store import open_storage

JSON = dict[str, Any]


def app_size(root: Path | None = None) -> dict[str, int]:
    """Bytes of the app's own HTML, JavaScript and CSS, and of its other shipped files.

    The offline engine (``js/engine``) and the computer's weights (``bot``) are counted apart:
    the first screen never waits for them (they load when a game on the device starts), and the
    service worker fetches them behind it.
    """
    root = root or web_root()
    offline_dirs = (root / "js" / "engine", root / "bot")
    files = [p for p in root.rglob("*") if p.is_file()]
    offline = [p for p in files if any(d in p.parents for d in offline_dirs)]
    code = [p for p in files if p.suffix in (".html", ".js", ".css") and p not in offline]
    other = [p for p in files if p not in code and p not in offline]
    engine = [p for p in offline if p.suffix == ".js"]
    weights = [p for p in offline if p not in engine]

    def packed(paths: list[Path]) -> int:
        # What a phone downloads: the files compressed together, as a server would.
        return len(gzip.compress(b"".join(p.read_bytes() for p in sorted(paths)), 9))

    return {"html_js_css": sum(p.stat().st_size for p in code), "html_js_css_gzip": packed(code),
            "catalogues_json": sum(p.stat().st_size for p in other if p.suffix == ".json"),
            "other": sum(p.stat().st_size for p in other if p.suffix != ".json"),
            "offline_js": sum(p.stat().st_size for p in engine), "offline_js_gzip": packed(engine),
            "offline_weights": sum(p.stat().st_size for p in weights), "offline_weights_gzip": packed(weights)}


def first_path(moves: JSON) -> list[list[int]]:
    """The steps of the first complete play in a view's move graph (``view["moves"]``)."""
    node, steps = 0, []
    while str(node) not in moves["finals"]:
        edge = moves["nodes"][node][0]
        steps.append(edge[:2])
        node = edge[4]
    return steps


def free_port() -> int:
    """A loopback port no one listens on now (the system picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: ASGIApp, **options: Any) -> Iterator[int]:
    """Run ``app`` with uvicorn in a thread on a free loopback port; yield the port.

    ``options`` go to ``uvicorn.Config``, over the bounds ``table serve`` uses.
    """
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           **{**uvicorn_options(), **options}))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def _serving(db: Path) -> Iterator[int]:
    """Run the real app, with SQLite storage at ``db``, on a free loopback port; yield the port."""
    storage = open_storage(db)
    try:
        # One address creates every game and plays at machine speed: no rate limits.
        with serving(create_app(storage, limits=Limits(games_burst=10**9, ws_messages_burst=10**9))) as port:
            yield port
    finally:
        storage.close()


def measure(moves: int, folder: Path) -> dict[str, list[float]]:
    """Play ``moves`` moves over a WebSocket; return the seconds each move and roll took."""
    import urllib.request

    from websockets.sync.client import connect

    def new_game() -> JSON:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", method="POST",
                                     data=json.dumps({"mode": "local", "length": 21, "cube": False}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req) as r:
            data: JSON = json.loads(r.read())
            return data

    times: dict[str, list[float]] = {"move": [], "roll": []}
    with _serving(folder / "bench.sqlite3") as port:
        while len(times["move"]) < moves:
            game = new_game()
            with connect(f"ws://127.0.0.1:{port}/ws/games/{game['game']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": game["token"]}))
                state = json.loads(ws.recv())
                while len(times["move"]) < moves and not state["view"]["over"]:
                    v = state["view"]
                    if "next_game" in v["actions"]:
                        action: JSON = {"type": "next_game"}
                        kind = ""
                    elif "roll" in v["actions"]:
                        action, kind = {"type": "roll"}, "roll"
                    else:
                        action, kind = {"type": "move", "steps": first_path(v["moves"])}, "move"
                    start = time.perf_counter()
                    ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
                    # Skip the server's own follow-ups (empty moves) until this action's state.
                    state = json.loads(ws.recv())
                    elapsed = time.perf_counter() - start
                    if state["type"] != "state":
                        raise RuntimeError(f"the server refused a benchmark action: {state}")
                    if kind:
                        times[kind].append(elapsed)
                    while not state["view"]["actions"] and not state["view"]["over"]:
                        state = json.loads(ws.recv())  # the server's empty move follows
    return times


def measure_computer(level: str, moves: int, folder: Path) -> list[float]:
    """Seconds from a person's move to the state with the computer's reply, at ``level``."""
    import urllib.request

    from websockets.sync.client import connect

    out: list[float] = []
    with _serving(folder / f"bench-{level}.sqlite3") as port:
        while len(out) < moves:
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games", method="POST",
                data=json.dumps({"mode": "computer", "level": level, "length": 1, "cube": False}).encode(),
                headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req) as r:
                game: JSON = json.loads(r.read())
            with connect(f"ws://127.0.0.1:{port}/ws/games/{game['game']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": game["token"]}))
                state = json.loads(ws.recv())
                while len(out) < moves and not state["view"]["over"]:
                    v = state["view"]
                    if not v["actions"]:
                        state = json.loads(ws.recv())
                        continue
                    if "roll" in v["actions"]:
                        ws.send(json.dumps({"type": "action", "version": state["version"], "action": {"type": "roll"}}))
                        state = json.loads(ws.recv())
                        continue
                    start = time.perf_counter()
                    ws.send(json.dumps({"type": "action", "version": state["version"],
                                        "action": {"type": "move", "steps": first_path(v["moves"])}}))
                    # States follow until the computer has moved (or passed) and it is our turn.
                    while True:
                        state = json.loads(ws.recv())
                        last = state["view"]["last"]
                        if state["view"]["over"] or (last and last["seat"] == 1):
                            break
                    if last and last["seat"] == 1 and last["steps"]:
                        out.append(time.perf_counter() - start)
    return out


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures."""
    size = app_size()
    print(f"app size: HTML+JS+CSS {size['html_js_css']} bytes ({size['html_js_css'] / 1024:.1f} KiB, "
          f"{size['html_js_css_gzip'] / 1024:.1f} KiB compressed); "
          f"message catalogues and pages {size['catalogues_json']} bytes; icons and manifest {size['other']} bytes")
    print(f"offline bundle: engine JS {size['offline_js']} bytes ({size['offline_js_gzip'] / 1024:.1f} KiB "
          f"compressed); weights {size['offline_weights']} bytes ({size['offline_weights_gzip'] / 1024:.1f} KiB compressed)")
    medians: dict[str, list[float]] = {"move": [], "roll": []}
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            times = measure(args.moves, Path(tmp))
        parts = []
        for kind in ("move", "roll"):
            ms = sorted(t * 1000 for t in times[kind])
            med = statistics.median(ms)
            medians[kind].append(med)
            p95 = ms[int(0.95 * (len(ms) - 1))]
            parts.append(f"{kind}: n={len(ms)} median {med:.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms")
        print(f"run {run + 1}: " + "; ".join(parts))
    print("median of run medians: " + ", ".join(
        f"{k} {statistics.median(v):.2f} ms" for k, v in medians.items()))
    for level in args.levels:
        with tempfile.TemporaryDirectory() as tmp:
            ms = sorted(t * 1000 for t in measure_computer(level, args.bot_moves, Path(tmp)))
        print(f"computer reply ({level}): n={len(ms)} median {statistics.median(ms):.1f} ms, "
              f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms "
              "(person's move sent to the computer's move received)")
    return 0
