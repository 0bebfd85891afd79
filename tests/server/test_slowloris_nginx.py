"""Slow-loris from many addresses: the shipped nginx configuration (deploy/nginx) in front of ``table serve``.

A per-address cap cannot stop many addresses together: 1,000 half-sent
requests from 249 loopback addresses (127.0.0.2 .. 127.0.0.250, four each)
fill the connections ``table serve`` may hold.  Shown first against Table
alone (the health check fails), then with nginx in front, run with
deploy/nginx/table-http.conf and table-locations.conf unchanged: nginx holds
the half-sent requests, Table sees only complete ones, and every health check
is answered.  The same nginx passes WebSockets, sends the client's address
(Table's own per-address limits still tell clients apart) and refuses a
request flood from one address with 429.

``table serve`` runs with an open-file limit of 700 (soft 512, which it raises)
so that the attack needs no more than 1,000 sockets; nginx is Debian's ``nginx`` package, which
scripts/test installs (under CI a missing nginx fails the test).
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from tests.server.slowloris import probe, probe_during
from tests.server.test_slowloris import finish, start_attack

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "nginx"
FILES = 700  # table serve's open-file limit: it then holds at most 700 - 128 connections


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed: scripts/test installs Debian's nginx package")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, what: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while probe(port, timeout=1.0) != 200:
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"{what} did not start (exit status {process.poll()})")
        time.sleep(0.1)


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


@pytest.fixture(scope="module")
def table_server(tmp_path_factory) -> Iterator[tuple[int, subprocess.Popen[str], Path]]:
    """``table serve``, started with a soft open-file limit of 512 under a hard one of ``FILES``."""
    import resource

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (512, FILES))

    port = free_port()
    folder = tmp_path_factory.mktemp("table")
    env = {**os.environ, "FORWARDED_ALLOW_IPS": "127.0.0.1"}
    with open(folder / "serve.log", "w") as log:  # a file, not a pipe nobody reads while it runs
        server = subprocess.Popen([sys.executable, "-m", "table", "serve", "--port", str(port),
                                   "--db", str(folder / "g.sqlite3")], preexec_fn=few_files, env=env, cwd=ROOT,
                                  stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(port, "table serve", server)
        yield port, server, folder / "serve.log"
    finally:
        stop(server)


@pytest.fixture(scope="module")
def table_port(table_server) -> int:
    return table_server[0]


def more_files() -> None:
    """As many open files as the hard limit allows, up to nginx's worker_rlimit_nofile (when not root
    nginx cannot raise it itself)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(8192, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def nginx_conf(folder: Path, listen: int, upstream: int) -> Path:
    """A whole nginx.conf around the shipped files: only paths, ports and process settings are the test's."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        (folder / sub).chmod(0o777)
    conf = folder / "nginx.conf"
    conf.write_text(f"""
user {pwd.getpwuid(os.geteuid()).pw_name};
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
worker_rlimit_nofile 8192;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {DEPLOY}/table-http.conf;
    upstream table_app {{ server 127.0.0.1:{upstream}; keepalive 32; }}
    server {{
        listen 127.0.0.1:{listen};
        include {DEPLOY}/table-locations.conf;
    }}
}}
""")
    return conf


@pytest.fixture(scope="module")
def nginx_port(tmp_path_factory, table_port) -> Iterator[int]:
    binary = nginx_binary()
    port = free_port()
    folder = tmp_path_factory.mktemp("nginx")
    conf = nginx_conf(folder, port, table_port)
    proxy = subprocess.Popen([binary, "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, preexec_fn=more_files)
    try:
        wait_for(port, "nginx", proxy)
        yield port
    finally:
        stop(proxy)


def post(port: int, path: str, body: object, source: str) -> tuple[int, dict[str, object]]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        raw = r.read()
        try:
            return r.status, json.loads(raw)
        except ValueError:
            return r.status, {"html": raw.decode(errors="replace")}
    finally:
        conn.close()


def test_many_addresses_starve_table_alone_but_not_behind_nginx(table_port, nginx_port):
    # Table alone: the attack fills the connections it may hold; health checks fail.
    attacker = start_attack(table_port, seconds=5.0, sockets=1000, first=2, last=250)
    time.sleep(2.0)
    alone = probe_during(table_port, seconds=2.5)
    finish(attacker)
    assert alone.count(200) <= len(alone) // 2, alone
    time.sleep(1.0)
    assert probe(table_port) == 200  # recovered once the attack is gone

    # Behind nginx: the same attack, at nginx; every health check through nginx is answered.
    attacker = start_attack(nginx_port, seconds=6.0, sockets=1000, first=2, last=250)
    time.sleep(2.0)
    behind = probe_during(nginx_port, seconds=3.5)
    tally = finish(attacker)
    assert len(behind) >= 12 and behind == [200] * len(behind), behind
    assert tally["most_held"] >= 950, tally  # nginx held (nearly) every half-sent request open


def test_nginx_passes_websockets_and_the_clients_address(nginx_port):
    from websockets.sync.client import connect

    status, game = post(nginx_port, "/api/games", {"mode": "local"}, "127.0.0.1")
    assert status == 201, game
    with connect(f"ws://127.0.0.1:{nginx_port}/ws/games/{game['game']}") as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "pong"

    # Table's own limit on new guests (a burst of 20 per address) sees each client's address,
    # not nginx's: 127.0.0.5 runs out, 127.0.0.6 does not.
    answers = [post(nginx_port, "/api/guests", {"name": f"Oaspete{i}"}, "127.0.0.5") for i in range(21)]
    assert [s for s, _ in answers[:20]] == [201] * 20, answers[:20]
    assert answers[20][0] == 429 and answers[20][1].get("code") == "rate_limited", answers[20]
    status, body = post(nginx_port, "/api/guests", {"name": "Altcineva"}, "127.0.0.6")
    assert status == 201, body


def test_nginx_refuses_a_request_flood_from_one_address(nginx_port):
    start = time.monotonic()
    statuses = [probe(nginx_port, "127.0.0.251") for _ in range(120)]
    elapsed = time.monotonic() - start
    allowed = statuses.count(200)
    # 20 a second after a burst of 40 (table-http.conf); the rest are 429, and nobody else is touched.
    assert allowed <= 40 + 20 * elapsed + 2 and statuses.count(429) == len(statuses) - allowed, statuses
    assert statuses.count(429) >= 20
    assert probe(nginx_port, "127.0.0.252") == 200


def test_serve_raised_its_open_file_limit_and_keeps_its_connections_under_it(table_server):
    port, server, log = table_server
    limits = Path(f"/proc/{server.pid}/limits").read_text()
    line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
    assert line.split()[3:5] == [str(FILES), str(FILES)], line  # soft raised from 512 to the hard limit
    out = log.read_text()
    assert f"allows {FILES - 128} connections at once, not 2000" in out, out


def test_the_shipped_site_is_valid_nginx(tmp_path):
    """table-site.conf (TLS, HTTP/2, the redirect) passes ``nginx -t`` with a throwaway certificate."""
    binary = nginx_binary()
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed")
    folder = tmp_path / "site"
    folder.mkdir()
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=example.org",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
                   check=True, capture_output=True)
    site = (DEPLOY / "table-site.conf").read_text()
    for old, new in [("/etc/letsencrypt/live/example.org/fullchain.pem", str(folder / "cert.pem")),
                     ("/etc/letsencrypt/live/example.org/privkey.pem", str(folder / "key.pem")),
                     ("/etc/nginx/table/", f"{DEPLOY}/")]:
        assert site.count(old) == 1, old
        site = site.replace(old, new)
    (folder / "site.conf").write_text(site)
    conf = nginx_conf(folder, free_port(), free_port())
    text = conf.read_text()
    start = text.index("    upstream table_app")
    conf.write_text(text[:start] + f"    include {folder}/site.conf;\n}}\n")
    checked = subprocess.run([binary, "-t", "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
