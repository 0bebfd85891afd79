"""A client of the online protocol (docs/protocol.md) that plays with the bot: what ``table online`` runs.

It registers a guest marked as a bot, creates a public table or joins one,
and plays the match to its end over the game WebSocket.  Its decisions are
the server's computer's own: the view of an online game carries the Position
ID and Match ID, which make the same ``BotTask`` the server's worker
processes get, and ``computer.think`` answers it.

HTTP goes through the standard library, the WebSocket through the
``websockets`` library (its synchronous client): a bot is one thread.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable

from table.errors import TableError
from table.server.play.computer import BotTask, think

JSON = dict[str, Any]


class ClientError(TableError):
    """The server refused a request, or could not be reached; ``code`` is the protocol's error code."""

    def __init__(self, message: str, code: str = "unreachable") -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Outcome:
    """How a match ended, as the client saw its last state."""

    seat: int
    names: tuple[str, str]
    score: tuple[int, int]
    winner: int | None
    forfeit: JSON | None
    points: tuple[int, int]
    state: JSON


def choose(view: JSON, seat: int, level: str, cube: bool) -> JSON:
    """The bot's wire action for ``seat`` in an online game's ``view`` (as the server's computer decides)."""
    if "next_game" in view["actions"]:
        return {"type": "next_game"}
    ids = view["ids"]
    # Acey-Deucey's stage says what the IDs cannot: that a double is to be named.
    return think(BotTask(level, seat, ids["position"], ids["match"], cube, view.get("variant", "standard"),
                         view.get("stage")))


class OnlineClient:
    """One player on a Table server at ``server`` (``http://host:port``)."""

    def __init__(self, server: str, level: str = "medium", *, think_time: float = 0.0,
                 rng: random.Random | None = None, timeout: float = 30.0,
                 say: Callable[[str], None] = lambda text: None) -> None:
        self.server = server.rstrip("/")
        self.level = level
        self.think_time = think_time
        self.rng = rng or random.Random()
        self.timeout = timeout
        self.say = say
        self.token: str | None = None
        self.name = ""

    def request(self, method: str, path: str, body: JSON | None = None) -> JSON:
        """An HTTP request to the server; a refusal raises ``ClientError`` with the server's code."""
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.server + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                answer: JSON = json.loads(r.read())
                return answer
        except urllib.error.HTTPError as exc:
            try:
                err = json.loads(exc.read())
            except ValueError:
                err = {}
            raise ClientError(err.get("message") or f"HTTP {exc.code}", err.get("code") or "http") from exc
        except OSError as exc:
            raise ClientError(f"cannot reach {self.server}: {exc}") from exc

    def register(self, name: str) -> None:
        """Become a guest called ``name``, marked as a bot."""
        answer = self.request("POST", "/api/guests", {"name": name, "bot": True})
        self.token, self.name = answer["token"], answer["player"]["name"]

    def create(self, length: int, clock: str = "normal", cube: bool = True, variant: str | None = None) -> JSON:
        """Open a public table (of ``variant``, by any of its names; standard backgammon by default); return it."""
        body: JSON = {"length": length, "clock": clock, "cube": cube}
        if variant is not None:
            body["variant"] = variant
        table: JSON = self.request("POST", "/api/tables", body)["table"]
        return table

    def join(self, table: str) -> str:
        """Sit at a table (by id or invite code); return the game id."""
        game: str = self.request("POST", f"/api/tables/{table}/join")["table"]["game"]
        return game

    def wait_for_game(self, table: str, poll: float = 0.2, patience: float = 3600.0) -> str:
        """Wait until somebody joins the table; return the game id."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            found = self.request("GET", f"/api/tables/{table}")["table"]
            if found["game"]:
                return str(found["game"])
            if found["status"] != "open":
                raise ClientError(f"the table was {found['status']} before anyone joined", "not_open")
            time.sleep(poll)
        raise ClientError("nobody joined the table in time", "timeout")

    def play(self, game: str, reconnects: int = 5) -> Outcome:
        """Play the game's match to its end; return how it ended.

        A lost connection is made again (``reconnects`` times at most): the
        server's state after hello is all a bot needs to go on.
        """
        from websockets.exceptions import ConnectionClosed

        for attempt in range(reconnects + 1):
            try:
                return self._play(game)
            except (ConnectionClosed, OSError) as exc:
                if attempt == reconnects:
                    raise ClientError(f"lost the connection to {self.server}: {exc}") from exc
                time.sleep(min(5.0, 0.2 * 2 ** attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def _play(self, game: str) -> Outcome:
        from websockets.sync.client import connect

        ws_url = self.server.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        with connect(f"{ws_url}/ws/games/{game}", open_timeout=self.timeout) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            sent_for = -1  # the version we last acted on: each state is answered once
            while True:
                message = json.loads(ws.recv(timeout=self.timeout * 20))
                if message["type"] == "error" and message.get("code") not in ("stale", "not_your_turn"):
                    raise ClientError(message["message"], message["code"])
                if message["type"] != "state":
                    continue
                view, seats = message["view"], message["seats"]
                if view["over"]:
                    return self._outcome(message)
                if not view["actions"] or not seats or message["version"] == sent_for:
                    continue
                seat = view["to_act"] if view["to_act"] in seats else seats[0]
                if self.think_time:
                    time.sleep(self.rng.expovariate(1 / self.think_time))
                action = choose(view, seat, self.level, message["config"]["cube"])
                sent_for = message["version"]
                ws.send(json.dumps({"type": "action", "version": sent_for, "action": action}))

    def _outcome(self, state: JSON) -> Outcome:
        view, config = state["view"], state["config"]
        players = view["table"]["players"]
        return Outcome(state["seats"][0], (config["names"][0], config["names"][1]),
                       (view["score"][0], view["score"][1]), view["winner"], view.get("forfeit"),
                       (players[0]["points"], players[1]["points"]), state)
