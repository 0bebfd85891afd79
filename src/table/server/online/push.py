"""Web Push notices: "your move is waiting" on a player's phone or computer, where the browser allows.

The site signs its notices with a VAPID key pair it makes the first time it
needs one and keeps in the database (``site_keys``), so every server process
and every restart uses the same one; browsers subscribe with its public half
(``GET /api/push/key``).  Subscribing is optional: the game works the same
without it.  Sending needs ``pywebpush`` (the ``push`` extra); without it the
server says push is off and everything else works.

Notices are sent from worker threads, never on the event loop; an endpoint
the push service says is gone (404/410) is forgotten.  The text comes from
the web client's catalogue in the language the device subscribed with.

>>> check_subscription({"endpoint": "https://push.example/x", "keys": {"p256dh": "BAAA", "auth": "qq"}}).lang
'ro'
>>> check_subscription({"endpoint": "http://10.0.0.1/x", "keys": {"p256dh": "BAAA", "auth": "qq"}})
Traceback (most recent call last):
...
table.server.online.push.PushError: a push endpoint is an https:// address of at most 1000 characters
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Callable
from urllib.parse import urlsplit

from table.errors import TableError
from table.server.play.rooms import RoomError
from table.server.store import PushSubscription, SqlStorage, StorageError

JSON = dict[str, Any]
Sender = Callable[[PushSubscription, str, str], int]
"""Sends one notice: (subscription, JSON payload, VAPID private key PEM) -> the push service's HTTP status."""

log = logging.getLogger(__name__)

KEY_NAME = "vapid-private-pem"
SUBJECT = os.environ.get("TABLE_PUSH_CONTACT", "mailto:table@localhost")
"""Who the push services may contact about our notices (the VAPID ``sub`` claim): set
``TABLE_PUSH_CONTACT`` to a real ``mailto:`` or ``https:`` address on a public server
(some push services refuse a made-up one)."""
TTL = 86_400
"""Seconds a push service keeps a notice for a device that is off (a move waits for days anyway)."""
LANGS = ("ro", "en")
_B64 = re.compile(r"[A-Za-z0-9_=-]{1,200}")


class PushError(RoomError):
    """A subscription that cannot be used (the message says what is wrong), or storage failing."""


def check_subscription(data: object, insecure_hosts: frozenset[str] = frozenset()) -> PushSubscription:
    """A browser's ``PushSubscription.toJSON()`` (plus ``"lang"``: ro or en), checked.

    ``insecure_hosts``: hosts allowed over plain http (tests' local push service only).
    """
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise PushError('a subscription is {"endpoint": "https://...", "keys": {"p256dh": ..., "auth": ...}}')
    endpoint, keys, lang = data.get("endpoint"), data["keys"], data.get("lang", "ro")
    url = urlsplit(endpoint) if isinstance(endpoint, str) and len(endpoint) <= 1000 else None
    if url is None or not url.hostname or not (
            url.scheme == "https" or (url.scheme == "http" and url.hostname in insecure_hosts)):
        raise PushError("a push endpoint is an https:// address of at most 1000 characters")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not all(isinstance(k, str) and _B64.fullmatch(k) for k in (p256dh, auth)):
        raise PushError("a subscription's keys p256dh and auth are base64url text")
    if lang not in LANGS:
        raise PushError(f"lang is one of {', '.join(LANGS)}, got {lang!r}")
    assert isinstance(endpoint, str) and isinstance(p256dh, str) and isinstance(auth, str)
    return PushSubscription(endpoint, p256dh, auth, lang)


def new_private_key() -> str:
    """A fresh VAPID private key (P-256) as PEM text."""
    # cryptography comes with the push extra; a plain install never gets here (push is off).
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def public_key(pem: str) -> str:
    """The application server key browsers subscribe with: the public point, base64url without padding.

    >>> len(public_key(new_private_key()))    # 65 bytes, uncompressed
    87
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    raw = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """The web client's messages in ``lang`` (the notices say what the pages say)."""
    text = (resources.files("table") / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8")
    messages: dict[str, str] = json.loads(text)
    return messages


def turn_notice(lang: str, opponent: str, game_id: str) -> str:
    """The payload of "your move against ``opponent``", as the service worker shows it.

    >>> json.loads(turn_notice("en", "Ana", "g1"))["url"]
    '/#/game/g1'
    """
    words = catalogue(lang)
    return json.dumps({"title": words["push_turn_title"],
                       "body": words["push_turn_body"].replace("{name}", opponent),
                       "tag": f"turn-{game_id}", "url": f"/#/game/{game_id}"}, ensure_ascii=False)


def webpush_sender() -> Sender | None:
    """The real sender (pywebpush), or None when it is not installed."""
    try:
        from py_vapid import Vapid02
        from pywebpush import WebPushException, webpush
    except ImportError:
        return None

    def send(sub: PushSubscription, payload: str, pem: str) -> int:
        try:
            response = webpush({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                               payload, vapid_private_key=Vapid02.from_pem(pem.encode()),
                               vapid_claims={"sub": SUBJECT}, ttl=TTL, timeout=10)
        except WebPushException as exc:
            if exc.response is not None:
                return int(exc.response.status_code)
            raise
        return int(getattr(response, "status_code", 201))

    return send


class Push:
    """The site's VAPID key, its players' subscriptions, and sending them notices."""

    def __init__(self, storage: SqlStorage, sender: Sender | None = None, *,
                 insecure_hosts: frozenset[str] = frozenset()) -> None:
        self.storage = storage
        self.sender = sender if sender is not None else webpush_sender()
        self.insecure_hosts = insecure_hosts
        self._pem: str | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def enabled(self) -> bool:
        return self.sender is not None

    def _key(self) -> str:
        if self._pem is None:
            self._pem = self.storage.site_key(KEY_NAME, new_private_key)
        return self._pem

    async def key(self) -> JSON:
        """``{"key": public key}``, or ``{"key": null}`` when this server sends no notices."""
        if not self.enabled:
            return {"key": None}
        return {"key": public_key(await asyncio.to_thread(self._key))}

    async def subscribe(self, player_id: int, data: object) -> JSON:
        """Send ``player_id``'s turn notices to the browser subscription ``data`` too."""
        sub = check_subscription(data, self.insecure_hosts)
        await self._store(self.storage.add_push, player_id, sub)
        return {"subscribed": True}

    async def unsubscribe(self, player_id: int, data: object) -> JSON:
        """Stop sending ``player_id``'s notices to ``{"endpoint"}``."""
        endpoint = data.get("endpoint") if isinstance(data, dict) else None
        if not isinstance(endpoint, str) or len(endpoint) > 1000:
            raise PushError('unsubscribing is {"endpoint": "https://..."}')
        await self._store(self.storage.remove_push, endpoint, player_id)
        return {"subscribed": False}

    async def _store(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            await asyncio.to_thread(fn, *args)
        except StorageError as exc:
            raise PushError(str(exc), "storage_failed") from exc

    def turn(self, player_id: int, opponent: str, game_id: str) -> asyncio.Future[None] | None:
        """Tell ``player_id``'s devices that their move against ``opponent`` waits (in the background)."""
        if not self.enabled:
            return None
        task = asyncio.ensure_future(asyncio.to_thread(self._send_turn, player_id, opponent, game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _send_turn(self, player_id: int, opponent: str, game_id: str) -> None:
        assert self.sender is not None
        try:
            subs, pem = self.storage.pushes(player_id), self._key()
        except TableError as exc:
            log.warning("no push notices for player %s: %s", player_id, exc)
            return
        for sub in subs:
            try:
                status = self.sender(sub, turn_notice(sub.lang, opponent, game_id), pem)
            except Exception as exc:  # a push service down or unreachable: the badge still shows the move
                log.warning("a push notice could not be sent: %s", exc)
                continue
            if status in (404, 410):  # the browser unsubscribed: forget the endpoint
                self.storage.remove_push(sub.endpoint)
            elif status >= 400:
                log.warning("a push service refused a notice with HTTP %s", status)
