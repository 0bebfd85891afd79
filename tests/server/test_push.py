"""Web Push "your move" notices: the site's VAPID key, subscriptions, and a correctly formed, encrypted
request to a push service (a local HTTP handler here: tests never reach the internet)."""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from table.client import choose
from table.server.online.push import SUBJECT, TTL, Push, catalogue

from tests.server.server_helpers import auth
from tests.server.test_online_tables import site  # noqa: F401 - fixture
from tests.server.storage_fixtures import where  # noqa: F401 - fixture


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@contextmanager
def push_service(status_for=lambda path: 201):
    """A local push service: yields (its base URL, a queue of (path, headers, body) it received)."""
    got: queue.Queue = queue.Queue()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            got.put((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(status_for(self.path))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", got
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """What a browser holds for one push subscription: its ECDH key pair and auth secret."""

    def __init__(self, endpoint: str, lang: str = "ro") -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint, self.lang = endpoint, lang

    def subscription(self) -> dict:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}, "lang": self.lang}

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def local_push(site):
    """The app's push, allowed to reach the local push service over plain http."""
    site.c.app.state.online.push = Push(site.storage, insecure_hosts=frozenset({"127.0.0.1"}))


def ions_turn(site, ana, ion, table):
    """Make it Ion's move (Ana plays hers over HTTP if the opening roll gave her the first move)."""
    game = table["game"]
    mine = site.c.get(f"/api/games/{game}", headers=auth(ana)).json()
    if mine["view"]["clock"]["running"] == 0:
        action = choose(mine["view"], 0, "medium", False)
        r = site.c.post(f"/api/games/{game}/actions", headers=auth(ana), json={"version": mine["version"], "action": action})
        assert r.status_code == 200, r.json()
    assert site.c.get(f"/api/games/{game}").json()["view"]["clock"]["running"] == 1


def test_the_site_makes_its_vapid_key_once_and_keeps_it(site):
    first = site.c.get("/api/push/key").json()["key"]
    assert len(unb64(first)) == 65 and unb64(first)[0] == 4  # an uncompressed P-256 point
    assert site.c.get("/api/push/key").json()["key"] == first
    # Another server process on the same database uses the same key.
    assert Push(site.storage).storage.site_key("vapid-private-pem", lambda: "never made") != "never made"
    site.c.app.state.online.push = Push(site.storage)
    assert site.c.get("/api/push/key").json()["key"] == first


def test_a_waiting_move_sends_a_signed_encrypted_notice_to_the_push_service(site):
    local_push(site)
    with push_service() as (url, got):
        ana, ion = (site.c.post("/api/guests", json={"name": n}).json()["token"] for n in ("Ana", "Ion"))
        browser = Browser(f"{url}/push/ion-phone", "ro")
        r = site.c.post("/api/push/subscribe", json=browser.subscription(), headers=auth(ion))
        assert r.status_code == 200 and r.json() == {"subscribed": True}
        table = site.c.post("/api/tables", json={"clock": "days3", "cube": False}, headers=auth(ana)).json()["table"]
        table = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]
        ions_turn(site, ana, ion, table)
        path, headers, body = got.get(timeout=20)
        assert got.empty()  # Ana has no subscription: one notice in all
    assert path == "/push/ion-phone"
    assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == str(TTL)
    # The VAPID header: a JWT for this push service, signed with the key browsers subscribed with.
    scheme, _, params = headers["authorization"].partition(" ")
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert scheme == "vapid" and fields["k"] == site.c.get("/api/push/key").json()["key"]
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(head))["alg"] == "ES256"
    claims_json = json.loads(unb64(claims))
    assert claims_json["aud"] == url and claims_json["sub"] == SUBJECT
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    raw = unb64(signature)
    point.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                 f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    # Only the subscribed browser can read it: Romanian words, the opponent's name, the game's link.
    notice = browser.read(body)
    ro = catalogue("ro")
    assert notice == {"title": ro["push_turn_title"], "body": ro["push_turn_body"].replace("{name}", "Ana"),
                      "tag": f"turn-{table['game']}", "url": f"/#/game/{table['game']}"}


def test_a_player_watching_the_game_gets_no_notice_and_a_gone_endpoint_is_forgotten(site):
    local_push(site)
    with push_service(lambda path: 410 if path.endswith("gone") else 201) as (url, got):
        ana, ion = (site.c.post("/api/guests", json={"name": n}).json()["token"] for n in ("Ana", "Ion"))
        for name in ("gone", "kept"):
            r = site.c.post("/api/push/subscribe", json=Browser(f"{url}/{name}", "en").subscription(),
                            headers=auth(ion))
            assert r.status_code == 200
        table = site.c.post("/api/tables", json={"clock": "days1", "cube": False}, headers=auth(ana)).json()["table"]
        table = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]
        ions_turn(site, ana, ion, table)
        paths = sorted(got.get(timeout=20)[0] for _ in range(2))
    assert paths == ["/gone", "/kept"]
    player = site.storage.player_by_name_key("ion")
    assert [s.endpoint for s in site.storage.pushes(player.id)] == [f"{url}/kept"]  # 410: unsubscribed
    r = site.c.post("/api/push/unsubscribe", json={"endpoint": f"{url}/kept"}, headers=auth(ion))
    assert r.json() == {"subscribed": False} and site.storage.pushes(player.id) == []


@pytest.mark.parametrize("body, why", [
    ({"endpoint": "http://example.com/x", "keys": {"p256dh": "BA", "auth": "aa"}}, "https://"),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": "<b>", "auth": "aa"}}, "base64url"),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": "BA", "auth": "aa"}, "lang": "fr"}, "lang"),
    ({"endpoint": "https://push.example/x"}, "a subscription is"),
])
def test_a_bad_subscription_is_refused_and_nothing_is_kept(site, body, why):
    ion = site.c.post("/api/guests", json={"name": "Ion"}).json()["token"]
    r = site.c.post("/api/push/subscribe", json=body, headers=auth(ion))
    assert r.status_code == 400 and r.json()["code"] == "bad_request" and why in r.json()["message"]
    assert site.storage.pushes(site.storage.player_by_name_key("ion").id) == []
    good = {"endpoint": "https://push.example/x", "keys": {"p256dh": "BA", "auth": "aa"}}
    assert site.c.post("/api/push/subscribe", json=good).status_code == 401  # a guest's token is needed
    assert site.c.post("/api/push/other", json=good, headers=auth(ion)).status_code == 404


def test_without_pywebpush_the_server_offers_no_push_and_games_go_on(site):
    push = Push(site.storage)
    push.sender = None  # as when pywebpush is not installed
    site.c.app.state.online.push = push
    assert site.c.get("/api/push/key").json() == {"key": None}
    ana, ion, table = site.match(clock="days2", cube=False)
    assert site.c.get(f"/api/games/{table['game']}").json()["view"]["clock"]["running"] in (0, 1)


def test_a_player_keeps_notices_on_their_ten_newest_devices_only(site):
    ion = site.c.post("/api/guests", json={"name": "Ion"}).json()["token"]
    for n in range(12):
        body = {"endpoint": f"https://push.example/device-{n}", "keys": {"p256dh": "BA", "auth": "aa"}, "lang": "en"}
        assert site.c.post("/api/push/subscribe", json=body, headers=auth(ion)).status_code == 200
    kept = [s.endpoint for s in site.storage.pushes(site.storage.player_by_name_key("ion").id)]
    assert kept == [f"https://push.example/device-{n}" for n in range(2, 12)]
