"""Limits: rates, connections and sizes; every refusal is a clear error and changes nothing."""

from __future__ import annotations

import json
import socket
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.tools.bench.server import serving
from table.server.edge.http import with_header_timeout
from table.server.edge.limits import ConnectionLimiter, Limits, RateLimiter
from table.server.store import open_storage

from tests.server.server_helpers import FakeClock, TestClient, auth


@given(rate=st.floats(0.1, 50), burst=st.integers(1, 30),
       gaps=st.lists(st.floats(0, 5), min_size=1, max_size=60))
def test_a_bucket_never_allows_more_than_burst_plus_rate_times_time(rate, burst, gaps):
    clock = FakeClock()
    bucket = RateLimiter(rate, burst, clock)
    start = clock.now
    allowed = 0
    for gap in gaps:
        clock.now += gap
        wait = bucket.check("k")
        if wait == 0:
            allowed += 1
        else:
            # Waiting the time it names is enough (and a refusal took nothing).
            clock.now += wait
            assert bucket.check("k") == 0
            allowed += 1
    assert allowed <= burst + rate * (clock.now - start) + 1e-6


def test_buckets_are_per_key_and_bounded():
    clock = FakeClock()
    bucket = RateLimiter(1.0, 1, clock, max_keys=3)
    assert bucket.check("a") == 0 and bucket.check("a") > 0 and bucket.check("b") == 0
    for key in "cdef":
        bucket.check(key)
    assert len(bucket._buckets) == 3
    assert bucket.check("a") == 0  # forgotten, so a full bucket again


def test_connection_limiter_counts_and_releases():
    cap = ConnectionLimiter(2)
    assert cap.acquire("x") and cap.acquire("x") and not cap.acquire("x")
    cap.release("x")
    assert cap.held("x") == 1 and cap.acquire("x")


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def limited(tmp_path, clock):
    storage = open_storage(tmp_path / "g.sqlite3")
    limits = Limits(body_bytes=1000, ws_message_chars=500, connections_per_client=3, games_per_minute=6,
                    games_burst=2, ws_messages_per_second=1, ws_messages_burst=3)
    with TestClient(create_app(storage, SeededDice(1), limits=limits, clock=clock)) as c:
        yield c
    storage.close()


def test_new_games_are_rate_limited_per_address(limited, clock):
    for _ in range(2):
        assert limited.post("/api/games", json={"mode": "local"}).status_code == 201
    r = limited.post("/api/games", json={"mode": "local"})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert "too many new games" in r.json()["message"] and int(r.headers["retry-after"]) == 10
    assert len(limited.app.state.rooms) == 2
    # A bad request is refused for what it is and takes no token.
    assert limited.post("/api/games", json={"mode": "robot"}).status_code == 400
    clock.now += 10  # 6 a minute: one more after 10 s
    assert limited.post("/api/games", json={"mode": "local"}).status_code == 201
    assert limited.post("/api/games", json={"mode": "local"}).status_code == 429


def test_a_body_too_large_is_refused_while_it_is_read(tmp_path):
    """Over a real socket: the refusal comes while the client is still sending, nothing is created."""
    storage = open_storage(tmp_path / "g.sqlite3")
    app = create_app(storage, limits=Limits(body_bytes=1000))
    with serving(app) as port, socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        for _ in range(2):  # 2 KB of an unending body, no length announced
            sock.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
        sock.settimeout(5)
        head, _, body = sock.recv(65536).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert b"1000 bytes" in body and b"too_large" in body
    assert len(app.state.rooms) == 0
    storage.close()


def test_a_body_announced_too_large_is_refused(limited):
    big = json.dumps({"mode": "local", "names": ["x" * 2000, ""]})
    r = limited.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    assert len(limited.app.state.rooms) == 0


def test_websocket_messages_too_long_or_too_many_are_refused(limited, clock):
    g = limited.post("/api/games", json={"mode": "local"}).json()
    with limited.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 600}))
        e = ws.receive_json()
        assert e["code"] == "too_large" and "500 characters" in e["message"]
        ws.send_bytes(b"\x00\x01")
        assert "not binary" in ws.receive_json()["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
        ws.send_json({"type": "ping"})
        e = ws.receive_json()
        assert e["code"] == "rate_limited" and "too many messages on this connection" in e["message"]
        clock.now += 1
        ws.send_json({"type": "hello", "token": g["token"]})
        assert ws.receive_json()["type"] == "state"
    assert limited.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()["version"] == g["version"]


def test_one_address_may_hold_only_so_many_sockets(limited):
    g = limited.post("/api/games", json={"mode": "local"}).json()
    url = f"/ws/games/{g['game']}"
    with limited.websocket_connect(url), limited.websocket_connect(url), limited.websocket_connect(url):
        with limited.websocket_connect(url) as fourth:
            e = fourth.receive_json()
            assert e["code"] == "too_many_connections" and "at most 3" in e["message"]
            closed = fourth.receive()
            assert closed["type"] == "websocket.close" and closed["code"] == 4429
        r = limited.get("/api/health")
        assert r.status_code == 429 and r.json()["code"] == "too_many_connections"
    assert limited.get("/api/health").status_code == 200


def test_a_client_too_slow_with_its_headers_is_disconnected(tmp_path):
    storage = open_storage(tmp_path / "g.sqlite3")
    with serving(create_app(storage), http=with_header_timeout(0.3)) as port:
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            slow.settimeout(5)
            start = time.monotonic()
            assert slow.recv(1024) == b""  # closed by the server
            assert time.monotonic() - start < 2
        with socket.create_connection(("127.0.0.1", port)) as prompt:
            prompt.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            prompt.settimeout(5)
            assert prompt.recv(1024).startswith(b"HTTP/1.1 200")
            time.sleep(0.5)  # a request answered in time is not cut off afterwards by the timer
            prompt.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert prompt.recv(1024).startswith(b"HTTP/1.1 200")
    storage.close()


def test_a_websocket_frame_too_large_closes_the_socket(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tests.server.test_slow_readers import new_local_game

    storage = open_storage(tmp_path / "g.sqlite3")
    app = create_app(storage)
    with serving(app) as port:
        game = new_local_game(port)["game"]
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game}", max_size=None) as ws:
            ws.send(json.dumps({"type": "ping", "pad": "x" * (app.state.limits.ws_frame_bytes + 1)}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1009  # message too big
    storage.close()


def test_websocket_frames_go_uncompressed_though_the_client_offers_deflate(tmp_path):
    # permessage-deflate cost the server about 5% of its CPU and each socket its
    # own compressor's memory (docs/performance.md, fifth round); a state is about a kilobyte.
    from websockets.sync.client import connect

    from tests.server.test_slow_readers import new_local_game

    storage = open_storage(tmp_path / "g.sqlite3")
    with serving(create_app(storage)) as port:
        game = new_local_game(port)["game"]
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game}", compression="deflate") as ws:
            assert "permessage-deflate" in ws.request.headers["Sec-WebSocket-Extensions"]  # offered
            assert ws.response.headers.get("Sec-WebSocket-Extensions") is None  # and declined
    storage.close()
