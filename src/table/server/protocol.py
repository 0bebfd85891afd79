"""The game WebSocket's messages (and the HTTP action body) as typed values: one parser in, one
encoder out (docs/protocol.md).

A client sends ``Hello``, ``Act``, ``Chat`` or ``Ping``; ``parse_client`` reads
one message's text into one of them, or raises a ``ProtocolError`` whose
message says what is wrong and whose ``code`` is what the client is told
(``bad_request``, ``too_large``, ``bad_token``, ``illegal``).  Every check of a
message's shape is made here, once; what needs the game (whose turn it is,
whether a play is legal, the version a reconnect may ask for) is the room's
and the game's to check.

>>> parse_client('{"type": "hello", "token": "abc", "since": 3}')
Hello(token='abc', since=3)
>>> parse_client('{"type": "action", "version": 4, "action": {"type": "resign", "level": 2}}')
Act(action=Decision(action=Resign(level=2)), version=4)
>>> parse_client('{"type": "action", "action": {"type": "move", "steps": [[8, 5], [6, 5]]}}')
Act(action=MoveSteps(steps=((8, 5), (6, 5))), version=None)
>>> parse_client('{"type": "action", "action": {"type": "roll", "dice": [6, 6]}}')
Traceback (most recent call last):
...
table.server.protocol.ProtocolError: roll takes no dice: the server rolls the dice
>>> parse_client('{"type": "wave"}')
Traceback (most recent call last):
...
table.server.protocol.ProtocolError: unknown message type 'wave': use hello, action, chat or ping

The server's messages are values too, each written by ``encode``:

>>> encode(Pong(version=7))
'{"type":"pong","version":7}'
>>> encode(Refusal("stale", "the game has moved on", version=7))
'{"type":"error","code":"stale","message":"the game has moved on","version":7}'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Union

import orjson

from table.errors import TableError
from table.match.actions import (AcceptResignation, Action, Double, Drop, NameDouble, NextGame, RejectResignation,
                                 Resign, Roll, Take)
from table.server.edge.text import check_strings

JSON = dict[str, Any]


class ProtocolError(TableError):
    """A message the protocol refuses: ``code`` for the client's catalogue."""

    def __init__(self, message: str, code: str = "bad_request", status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


# Client messages -----------------------------------------------------------------------------

@dataclass(frozen=True)
class MoveSteps:
    """A move as a person makes it: up to four ``(from, to)`` steps, points 0..25 from the mover's side."""

    steps: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Decision:
    """Any other action of a player: a roll, a double and its answers, a resignation and its answers,
    the next game."""

    action: Action


PlayerAction = Union[MoveSteps, Decision]

# The decisions that carry nothing but their name on the wire.
PLAIN: dict[str, Action] = {"double": Double(), "take": Take(), "drop": Drop(),
                            "accept_resignation": AcceptResignation(), "reject_resignation": RejectResignation()}
# Actions a player may send, by wire name; "move" carries steps instead of text (``MoveSteps``).
PLAYER_ACTIONS = frozenset({*PLAIN, "roll", "resign", "next_game", "move", "name_double"})


@dataclass(frozen=True)
class Hello:
    """Watch the game, holding the seats of ``token`` (none: a spectator); with ``since``, the log
    entries after that version come first."""

    token: str | None = None
    since: int | None = None


@dataclass(frozen=True)
class Act:
    """Take ``action`` (at ``version``, when given: refused as stale if the game has moved on)."""

    action: PlayerAction
    version: int | None = None


@dataclass(frozen=True)
class Chat:
    """A chat line for ``channel`` (which channels a watcher may use is the table's to say)."""

    channel: object
    text: object


@dataclass(frozen=True)
class Ping:
    """Is the connection alive? Answered with ``Pong``."""


ClientMsg = Union[Hello, Act, Chat, Ping]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_json(raw: bytes | str, what: str) -> object:
    """Decoded JSON whose every string can be stored (else a ``ProtocolError`` / ``TextError``)."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, absurd nesting
        raise ProtocolError(f"{what} is not valid JSON: {exc}") from exc
    check_strings(value, what)
    return value


def parse_action(data: object) -> PlayerAction:
    """A player's wire action as a typed value; a ``ProtocolError`` (code ``illegal``) says what is wrong.

    >>> parse_action({"type": "double"})
    Decision(action=Double())
    >>> parse_action({"type": "resign", "level": 4})
    Traceback (most recent call last):
    ...
    table.server.protocol.ProtocolError: resign needs a level of 1, 2 or 3 (single, gammon, backgammon), got 4
    """
    if not isinstance(data, dict):
        raise ProtocolError("an action is a JSON object such as {\"type\": \"move\", ...}")
    kind = data.get("type")
    if kind not in PLAYER_ACTIONS:
        raise ProtocolError(f"unknown action {kind!r}: use one of {', '.join(sorted(PLAYER_ACTIONS))}", "illegal")
    if kind == "move":
        steps = data.get("steps")
        if set(data) - {"type", "steps"} or (not isinstance(steps, list) or len(steps) > 4 or not all(
                isinstance(s, list) and len(s) == 2 and all(_whole(p) and 0 <= p <= 26 for p in s)
                for s in steps)):
            raise ProtocolError("a move is {\"type\": \"move\", \"steps\": [[from, to], ...]} "
                                "with at most four steps between points 0..25 (26: a checker waiting "
                                "off the board)", "illegal")
        return MoveSteps(tuple((s[0], s[1]) for s in steps))
    if kind == "next_game":
        return Decision(NextGame())  # what else it carries has never been looked at
    extra = set(data) - {"type"} - ({"level"} if kind == "resign" else {"number"} if kind == "name_double" else set())
    if extra:
        raise ProtocolError(f"{kind} takes no {', '.join(sorted(map(str, extra)))}"
                            + (": the server rolls the dice" if "dice" in extra else ""), "illegal")
    if kind == "resign":
        level = data.get("level")
        if not _whole(level) or level not in (1, 2, 3):
            raise ProtocolError(f"resign needs a level of 1, 2 or 3 (single, gammon, backgammon), got {level!r}",
                                "illegal")
        return Decision(Resign(level))
    if kind == "roll":
        return Decision(Roll(None))
    if kind == "name_double":  # Acey-Deucey, after a 1-2
        number = data.get("number")
        if not (isinstance(number, int) and _whole(number) and 1 <= number <= 6):
            raise ProtocolError(f"name_double needs a number from 1 to 6 (the double to play), got {number!r}",
                                "illegal")
        return Decision(NameDouble(number))
    return Decision(PLAIN[kind])


def _version(value: object) -> int | None:
    if value is not None and not _whole(value):
        raise ProtocolError("version must be a whole number")
    return None if value is None else int(value)  # type: ignore[call-overload]


def parse_act(body: object) -> Act:
    """The HTTP action body ``{"version": n, "action": {...}}``."""
    if not isinstance(body, dict) or set(body) - {"version", "action"} or "action" not in body:
        raise ProtocolError('the body must be {"version": n, "action": {...}}')
    return Act(parse_action(body["action"]), _version(body.get("version")))


def parse_client(raw: str | None, max_chars: int | None = None) -> ClientMsg:
    """One client message from its text (``None``: it came as binary), at most ``max_chars`` long."""
    if raw is None:
        raise ProtocolError("send messages as JSON text, not binary")
    if max_chars is not None and len(raw) > max_chars:
        raise ProtocolError(f"the message is longer than {max_chars} characters", "too_large", 413)
    msg = read_json(raw, "the message")
    if not isinstance(msg, dict):
        raise ProtocolError("a message is a JSON object with a \"type\"")
    kind = msg.get("type")
    if kind == "hello":
        token, since = msg.get("token"), msg.get("since")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("the token must be a string", "bad_token")
        if since is not None and (not _whole(since) or since < 0):
            raise ProtocolError(f"since must be a version from 0 up, got {since!r}")
        return Hello(token or None, since)
    if kind == "action":
        return Act(parse_action(msg.get("action")), _version(msg.get("version")))
    if kind == "chat":
        if set(msg) - {"type", "channel", "text"}:
            raise ProtocolError('a chat message is {"type": "chat", "channel": ..., "text": ...}')
        return Chat(msg.get("channel"), msg.get("text"))
    if kind == "ping":
        return Ping()
    raise ProtocolError(f"unknown message type {kind!r}: use hello, action, chat or ping")


# Server messages -----------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    """The game as the holder of ``seats`` sees it, at ``version``."""

    game: str
    version: int
    seats: list[int]
    config: JSON
    view: JSON

    def to_json(self) -> JSON:
        return {"type": "state", "game": self.game, "version": self.version, "seats": self.seats,
                "config": self.config, "view": self.view}


@dataclass(frozen=True)
class Events:
    """The log entries after version ``since`` (what a reconnecting client missed), up to ``version``."""

    since: int
    version: int
    entries: list[JSON]

    def to_json(self) -> JSON:
        return {"type": "events", "from": self.since, "version": self.version, "entries": self.entries}


@dataclass(frozen=True)
class Refusal:
    """A refused message or request: ``code`` for the client's catalogue, ``message`` for people
    reading logs; on a game's socket, the game's ``version``."""

    code: str
    message: str
    version: int | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": "error", "code": self.code, "message": self.message}
        if self.version is not None:
            out["version"] = self.version
        return out


@dataclass(frozen=True)
class Pong:
    """The answer to ``Ping`` (on a game's socket, with the game's version)."""

    version: int | None = None

    def to_json(self) -> JSON:
        return {"type": "pong"} if self.version is None else {"type": "pong", "version": self.version}


@dataclass(frozen=True)
class Presence:
    """Who holds each seat's socket now (an online game)."""

    game: str
    presence: list[JSON]
    now: float

    def to_json(self) -> JSON:
        return {"type": "presence", "game": self.game, "presence": self.presence, "now": self.now}


@dataclass(frozen=True)
class ChatLine:
    """One chat message, to its channel's readers."""

    channel: str
    id: int
    sender: str | None
    text: str
    at: float

    def fields(self) -> JSON:
        return {"channel": self.channel, "id": self.id, "from": self.sender, "text": self.text, "at": self.at}

    def to_json(self) -> JSON:
        return {"type": "chat", **self.fields()}


@dataclass(frozen=True)
class ChatHistory:
    """The last lines of the channel a watcher reads, sent after every hello."""

    channel: str
    messages: list[ChatLine]

    def to_json(self) -> JSON:
        return {"type": "chat_history", "channel": self.channel, "messages": [m.fields() for m in self.messages]}


@dataclass(frozen=True)
class Rematch:
    """Who asked for a rematch; once both have, the new table and its game."""

    asked: list[int]
    table: str | None = None
    game: str | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": "rematch", "asked": self.asked}
        if self.table is not None:
            out.update(table=self.table, game=self.game)
        return out


@dataclass(frozen=True)
class Lobby:
    """The lobby's tables (``/ws/lobby``)."""

    tables: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"type": "lobby", **self.tables}


ServerMsg = Union[State, Events, Refusal, Pong, Presence, ChatLine, ChatHistory, Rematch, Lobby]


def encode(message: ServerMsg) -> str:
    """A server message as the wire carries it."""
    return encode_json(message.to_json())


# What orjson cannot write (an int beyond 64 bits) goes through the standard library's encoder, made
# once (``json.dumps`` with options makes an encoder per call); the messages are trees, never cyclic.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS


def _plain(value: object) -> object:
    """A float or int of a subclass orjson does not take (numpy's scalars) as the plain number."""
    if isinstance(value, float):
        return float(value)
    if isinstance(value, int):
        return int(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def encode_json(message: JSON) -> str:
    """A JSON message as the wire carries it (compact, UTF-8 as is).

    orjson writes what the standard library's compact encoder writes (a float's
    exponent without a leading zero: ``1e-7``), about six times faster: every
    state sent to every seat passes here, and on a busy server it was the
    largest cost after the move graph.

    >>> encode_json({"text": "ță", "n": [1, 2.5, None]})
    '{"text":"ță","n":[1,2.5,null]}'
    >>> encode_json({"big": 2**70, 3: "three"})
    '{"big":1180591620717411303424,"3":"three"}'
    """
    try:
        return orjson.dumps(message, default=_plain, option=_ORJSON_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return _ENCODER.encode(message)
