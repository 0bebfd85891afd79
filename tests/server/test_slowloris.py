"""Slow-loris against Table alone: one address holding half-sent requests starves nobody else.

uvicorn counts a socket towards ``limit_concurrency`` from the accept, so
before the per-address socket cap (``table.server.edge.http``) 300 half-sent
requests from 127.0.0.2 filled a limit of 150 and every health check from
127.0.0.1 was answered 503.  The attack runs in its own process
(tests/server/slowloris.py), on loopback addresses only, for a few seconds.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from table.server.app import create_app
from table.server.edge.http import connection_budget, http_protocol, raise_open_file_limit
from table.tools.bench.server import serving
from table.server.store import open_storage

from tests.server.slowloris import probe, probe_during

ROOT = Path(__file__).resolve().parents[2]


def start_attack(port: int, seconds: float, sockets: int, first: int, last: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.server.slowloris", str(port), str(seconds), str(sockets),
                             str(first), str(last)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def finish(attacker: subprocess.Popen[str]) -> dict[str, int]:
    out, err = attacker.communicate(timeout=60)
    assert attacker.returncode == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.fixture
def storage(tmp_path):
    s = open_storage(tmp_path / "g.sqlite3")
    yield s
    s.close()


def test_one_address_holding_half_sent_requests_starves_nobody(storage):
    protocol = http_protocol(header_timeout=2.0, sockets_per_address=32)
    with serving(create_app(storage), http=protocol, limit_concurrency=150) as port:
        attacker = start_attack(port, seconds=4.5, sockets=300, first=2, last=2)
        time.sleep(1.0)  # the attack is in place: its sockets are open or being re-opened
        statuses = probe_during(port, seconds=3.0)
        tally = finish(attacker)
    # Every health check from another address is answered, none with uvicorn's 503.
    assert len(statuses) >= 10 and statuses == [200] * len(statuses), statuses
    # The attack was real: 300 sockets tried, all but 32 refused as soon as accepted.
    assert tally["opened"] >= 300 and tally["closed_by_server"] >= 300 - 32, tally


def raw_socket(port: int, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    return s


def refused(s: socket.socket, wait: float = 2.0) -> bool:
    """Whether the server answered 429 and closed (instead of waiting ``wait`` s for a request)."""
    s.settimeout(wait)
    try:
        data = s.recv(4096)
    except socket.timeout:
        return False
    assert data.startswith(b"HTTP/1.1 429") and b"too_many_connections" in data, data
    return True


def test_the_socket_cap_counts_every_socket_until_it_closes(storage):
    from websockets.sync.client import connect

    with serving(create_app(storage), http=http_protocol(sockets_per_address=3)) as port:
        idle = raw_socket(port, "127.0.0.2")  # no byte sent yet: counted all the same
        kept = raw_socket(port, "127.0.0.2")
        kept.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert kept.recv(4096).startswith(b"HTTP/1.1 200")  # answered, kept alive, still counted
        with connect(f"ws://127.0.0.1:{port}/ws/lobby", source_address=("127.0.0.2", 0)):
            fourth = raw_socket(port, "127.0.0.2")
            assert refused(fourth)
            assert probe(port, "127.0.0.3") == 200  # other addresses are not touched
        # A WebSocket counts until it closes, then frees its place.
        deadline = time.monotonic() + 5
        while True:
            again = raw_socket(port, "127.0.0.2")
            again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            if again.recv(4096).startswith(b"HTTP/1.1 200"):
                break
            assert time.monotonic() < deadline, "the WebSocket's place was never freed"
            again.close()
            time.sleep(0.05)
        for s in (idle, kept, fourth, again):
            s.close()


def test_a_trusted_proxy_is_not_capped(storage):
    """127.0.0.1 is in uvicorn's default FORWARDED_ALLOW_IPS: a proxy carrying many clients' sockets."""
    with serving(create_app(storage), http=http_protocol(sockets_per_address=2)) as port:
        held = [raw_socket(port, "127.0.0.1") for _ in range(5)]
        assert probe(port, "127.0.0.1") == 200
        capped = [raw_socket(port, "127.0.0.2") for _ in range(3)]
        assert [refused(s, wait) for s, wait in zip(capped, (0.3, 0.3, 2.0))] == [False, False, True]
        for s in held + capped:
            s.close()


def test_the_connection_budget_stays_under_the_open_file_limit():
    assert connection_budget(1024) == 1024 - 128 and connection_budget(10**6) == 2000
    files = raise_open_file_limit()
    assert files is None or connection_budget(files) < files


def test_serve_keeps_its_connection_limit_under_the_open_file_limit(monkeypatch, tmp_path, capsys):
    import uvicorn

    from table.cli import main
    from table.server.edge import http

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    monkeypatch.setattr(http, "raise_open_file_limit", lambda: 512)  # a system that allows no more
    assert main(["serve", "--port", "8123", "--db", str(tmp_path / "g.sqlite3")]) == 0
    assert seen["limit_concurrency"] == 512 - 128
    assert seen["http"].sockets_per_address == 128 and seen["http"].header_timeout == 10.0
    assert "allows 384 connections at once, not 2000" in capsys.readouterr().out
