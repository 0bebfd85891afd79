"""A stand-in for the online server's side (docs/protocol.md), for testing the client's screens alone.

The page still comes from the real test server; the online endpoints and
WebSockets are answered here by Playwright's routing, so that a test can put
the client in any state (a clock under ten seconds, an opponent away for 95 s)
at once, without waiting or playing up to it.
"""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Page, Route, WebSocketRoute

TOKEN = "device-token-of-the-test-guest-0123456789abcdef"


def catalogue(lang: str) -> dict[str, str]:
    from table.server.app import web_root

    return json.loads((web_root() / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def guest_storage(page: Page, name: str) -> None:
    """This browser already has a guest called ``name`` (as after the nickname dialog)."""
    guest = json.dumps({"token": TOKEN, "name": name})
    page.add_init_script(f"localStorage.setItem('table.guest', {json.dumps(guest)})")


def table(tid: str, players: list[Any], status: str = "open", game: str | None = None,
          length: int = 3, clock: str = "normal", private: bool = False) -> dict[str, Any]:
    return {"id": tid, "status": status, "length": length, "cube": True, "clock": clock, "private": private,
            "players": players, "game": game, "created": time.time()}


def person(name: str, points: int = 0, bot: bool = False) -> dict[str, Any]:
    return {"name": name, "points": points, "bot": bot}


def answer(route: Route, status: int, body: Any) -> None:
    route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


class FakeGame:
    """The game WebSocket of one online game: a state after hello, chat echoed to its writer."""

    def __init__(self, state: dict[str, Any], me: str, history: list[dict[str, Any]] | None = None) -> None:
        self.state = state
        self.me = me
        self.history = history or []
        self.sent: list[dict[str, Any]] = []
        self.socket: WebSocketRoute | None = None
        self.next_id = 100

    def route(self, page: Page) -> None:
        page.route_web_socket(f"**/ws/games/{self.state['game']}", self._connect)

    def _connect(self, ws: WebSocketRoute) -> None:
        self.socket = ws
        ws.on_message(lambda raw: self._message(ws, raw))

    def _message(self, ws: WebSocketRoute, raw: str | bytes) -> None:
        msg = json.loads(raw)
        self.sent.append(msg)
        channel = "players" if self.state["seats"] else "spectators"
        if msg["type"] == "hello":
            ws.send(json.dumps(self.state))
            ws.send(json.dumps({"type": "chat_history", "channel": channel, "messages": self.history}))
        elif msg["type"] == "chat":
            self.say(self.me, msg["text"], msg["channel"])

    def say(self, who: str, text: str, channel: str = "players") -> None:
        self.next_id += 1
        assert self.socket is not None
        self.socket.send(json.dumps({"type": "chat", "channel": channel, "id": self.next_id, "from": who,
                                     "text": text, "at": time.time()}))

    def push(self, msg: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(msg))


def online_state(page: Page, names: tuple[str, str], seats: list[int], *, clock: dict[str, Any] | None = None,
                 presence: list[dict[str, Any]] | None = None, table_id: str = "T1") -> dict[str, Any]:
    """A real game's first state from the test server, dressed as an online game's (protocol.md)."""
    res = page.request.post("/api/games", data={"mode": "local", "length": 3, "cube": True})
    state = res.json()
    state.pop("token")
    state["seats"] = seats
    state["config"].update(mode="online", names=list(names), table=table_id, clock="rapid",
                           seat=seats[0] if seats else 0)
    if not seats:
        state["view"]["actions"] = []
        state["view"]["moves"] = None
    now = time.time()
    state["view"]["clock"] = clock or {"preset": "rapid", "delay": 8.0, "reserve": [60.0, 60.0],
                                       "delay_left": [8.0, 8.0], "running": 0, "deadline": now + 68,
                                       "now": now, "claim_only": False}
    state["view"]["presence"] = presence or [{"connected": True, "away_since": None}] * 2
    state["view"]["table"] = table(table_id, [person(names[0]), person(names[1])], "playing", state["game"])
    state["view"]["forfeit"] = None
    return dict(state)
