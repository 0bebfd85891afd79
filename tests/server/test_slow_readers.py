"""A client that never reads its socket stalls nobody: it is dropped and may come back with since."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import threading
import time
import urllib.request

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.tools.bench.server import first_path, serving
from table.server.edge.limits import Limits
from table.server.store import open_storage

websockets = pytest.importorskip("websockets.sync.client")


@contextlib.contextmanager
def _serving(tmp_path, send_timeout):
    storage = open_storage(tmp_path / "g.sqlite3")
    app = create_app(storage, SeededDice(5), limits=Limits(send_timeout=send_timeout, outbox_messages=16,
                                                             ws_messages_burst=10**6))
    with serving(app) as port:
        yield app, port
    storage.close()


@pytest.fixture
def served(tmp_path):
    with _serving(tmp_path, 0.5) as served:
        yield served


STALL = 3.0
"""A send to a reader may take this long before it is dropped: a player's action that waited on
the lurker's sends would take at least as long (a busy machine's slowest action takes under 1 s)."""


@pytest.fixture
def served_patiently(tmp_path):
    with _serving(tmp_path, STALL) as served:
        yield served


def new_local_game(port):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", method="POST",
                                 data=json.dumps({"mode": "local", "length": 21, "cube": False}).encode())
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def never_reading(port, game):
    """A WebSocket, with the smallest receive buffer, that reads its handshake and nothing after.

    Written by hand: client libraries read the socket in the background.
    """
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws/games/{game} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def send_frame(sock, text):
    """One masked text frame, as a client sends it."""
    data = text.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    sock.sendall(bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def wait_until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


def next_state(ws):
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "state":
            return msg


def test_a_spectator_that_never_reads_does_not_slow_the_players(served_patiently):
    app, port = served_patiently
    g = new_local_game(port)
    room = app.state.rooms._rooms[g["game"]]
    with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{g['game']}") as player, \
            contextlib.closing(never_reading(port, g["game"])) as lurker:
        player.send(json.dumps({"type": "hello", "token": g["token"]}))
        state = next_state(player)
        # The lurker asks for the whole log again and again, and reads none of it.
        stop = threading.Event()

        def flood():
            while not stop.is_set():
                try:
                    send_frame(lurker, json.dumps({"type": "hello", "since": 0}))
                except Exception:
                    return

        lurker.settimeout(1)  # the flood stops when the server stops reading it
        flooder = threading.Thread(target=flood, daemon=True)
        flooder.start()
        latencies = []
        try:
            for _ in range(30):
                v = state["view"]
                action = ({"type": "roll"} if "roll" in v["actions"]
                          else {"type": "move", "steps": first_path(v["moves"])})
                start = time.perf_counter()
                player.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
                state = next_state(player)
                latencies.append(time.perf_counter() - start)
                while not state["view"]["actions"]:
                    state = next_state(player)  # the server's own empty move
            wait_until(lambda: len(room.watchers) == 1)
        finally:
            stop.set()
        assert max(latencies) < STALL / 2, f"slowest action took {max(latencies):.2f} s"
        assert len(room.watchers) == 1, "the reader that never reads was not dropped"
        missed_from = state["version"] - 5
        # Dropped, its connection still counts against its address until it goes.
        assert app.state.connections.held("127.0.0.1") == 2
    wait_until(lambda: app.state.connections.held("127.0.0.1") == 0)
    # Dropped, it comes back and gets what it missed, then the state.
    with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{g['game']}") as back:
        back.send(json.dumps({"type": "hello", "since": missed_from}))
        events = json.loads(back.recv(timeout=10))
        assert events["type"] == "events" and len(events["entries"]) == 5
        assert next_state(back)["version"] == state["version"]


def test_a_client_that_sends_faster_than_it_reads_is_slowed_not_dropped(served):
    app, port = served
    g = new_local_game(port)
    with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{g['game']}") as ws:
        for _ in range(100):  # far more answers than the outbox holds
            ws.send(json.dumps({"type": "ping"}))
        pongs = [json.loads(ws.recv(timeout=10)) for _ in range(100)]
    assert all(p["type"] == "pong" for p in pongs)
