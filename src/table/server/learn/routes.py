"""Learning from a game: its move list, the computer's hint, export, and the post-game review.

HTTP (``Authorization: Bearer TOKEN`` where said)::

    GET  /api/games/{id}/moves    the move list (anyone who may watch the game)
    GET  /api/games/{id}/hint     the best plays or the cube equities now (the seat to act;
                                  never in online games)
    GET  /api/games/{id}/export   .mat and SGF records (or why not: ``why``, ``why_code``),
                                  Table's JSON record, Position ID, Match ID and XGID (None where
                                  an XGID cannot hold the board) (a seat)
    POST /api/games/{id}/review   {"depth": 0|1} starts the review of the match so far (a seat;
                                  an online match only once it has ended: 409 ``match_in_play``;
                                  a game the review cannot weigh: 409 ``no_review``, ``reviewable``)
    GET  /api/games/{id}/review   its progress ({"state": "running", "done", "total"}) and then
                                  {"state": "done", "review": {...}} (``review_for_web``)
    POST /api/review              {"text": a .mat / SGF record, "depth"}: review a pasted match;
                                  answers {"id", ...}; GET /api/review/{id} as above
    GET  /api/games/{id}/replay   a finished game step by step, each step with its board
                                  (anyone; ``replay_steps``); 409 ``not_finished`` before the end
    POST /api/replay              {"record": a .mat / SGF record}: the same for a pasted match

Between people online no computer help is given while the match is played: no hint at
all, and the review opens when the match has ended (``live_online``).  Games against the
computer and on one device keep both.

The hint and the review run in the computer's worker processes
(``BotPool.run``), never on the event loop; a review reports its progress
through a ``QueueProgress`` that the handler drains while it waits.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import queue as queues
from dataclasses import dataclass, field
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from table.bot.review import DEFAULT_DEPTH, Progress, QueueProgress, read_match, review_match
from table.errors import RecordError, TableError
from table.match import Match, Phase, action_from_json
from table.notation.xgid import BOTTOM, TOP, CubeOffer, to_xgid
from table.rules.variant import STANDARD, STANDARD_RULES, Variant, find_variant
from table.server.learn.botapi import LEVEL, chances
from table.match.state import plays_by_text
from table.server.play.game import Game, GameConfig, board_json, steps_json
from table.server.play.greekview import is_round
from table.server.edge.limits import LimitError, RateLimiter, read_body
from table.server.edge.middleware import client_key
from table.server.play.pool import BotPool
from table.server.play.rooms import Room, RoomError, Rooms
from table.server.replies import bearer

JSON = dict[str, Any]
HINT_PLAYS = 5
"""Plays a hint shows, best first."""
HINT_RATE, HINT_BURST = 2.0, 10
IMPORT_RATE, IMPORT_BURST = 0.1, 3
REPLAY_RATE, REPLAY_BURST = 1.0, 10
"""Pasted matches one address may replay: replaying is cheap, but it is done off the event loop."""
"""Pasted matches one address may have analysed: a few at once, then one every 10 seconds."""
MAX_RECORD_BYTES = 300_000
"""The longest request a review takes: a long match's .mat is well under 100 kB."""
MAX_REVIEWS = 64
"""Reviews kept (running or done) at once; the oldest finished ones are forgotten first."""


def hint_for(position_id: str, match_id: str, cube: bool, money: bool, variant: str = STANDARD.name) -> JSON:
    """Greu's advice for the player to act in the match state (runs in a worker process).

    With dice to play: ``{"kind": "play", "plays": [{"play", "equity", "diff",
    "probabilities"}, ...]}`` (at most ``HINT_PLAYS``, best first, cubeless
    equity for the mover).  Before rolling with the cube available, or when
    doubled: ``{"kind": "cube", "no_double", "double_take", "double_pass",
    "double", "take"}`` (cubeful, for the player on roll: the doubler when
    doubled) and the chances of the player on roll.  ``variant``: the game
    played (the IDs do not say), whose networks advise.
    """
    from table.server.play.computer import bot_for

    m = Match.from_ids(position_id, match_id, cube=cube, jacoby=False if money else None, variant=variant)
    bot = bot_for(LEVEL, variant)
    if m.phase == Phase.MOVE and m.dice is not None:
        ranked = bot.analyse_plays(m.position, m.dice)
        best = ranked[0][1].equity if ranked else 0.0
        return {"kind": "play", "plays": [
            {"play": str(play), "equity": e.equity, "diff": e.equity - best, "probabilities": chances(e)}
            for play, e in ranked[:HINT_PLAYS]]}
    on_roll = m.on_roll
    owner = m.cube_owner
    side = "centre" if owner is None else ("player" if owner == on_roll else "opponent")
    s = m.score
    d = bot.cube_decision(m.position, m.cube_value, side, m.length, (s[on_roll], s[1 - on_roll]),
                          m.crawford, m.jacoby)
    return {"kind": "cube", "no_double": d.no_double, "double_take": d.double_take,
            "double_pass": d.double_pass, "double": d.double, "take": d.take,
            "probabilities": chances(bot.evaluate(m.position))}


def review_for_web(text: str, depth: int, progress: Progress | None = None) -> JSON:
    """``review_record(text, depth, progress).to_json()``, each marked decision with what the
    board needs: ``board`` (before the decision, as views give it) and, for a checker play,
    ``best_play`` and ``played_play`` (``steps_json``: absolute steps and text from each side).
    Runs in a worker process.
    """
    match = read_match(text)
    reviewable(match)
    review = review_match(match, depth, progress)
    data = review.to_json()
    for d, out in zip(review.decisions, data["decisions"]):
        if not d.mark:
            continue
        # The IDs do not say which game is played: the record does (a Hypergammon or Race board;
        # in a Tavli match, the game the decision is of, which the board is drawn as).
        variant = match.variant if match.series is None else match.series.game(d.game)
        if match.series is not None:
            out["variant"] = variant.name
        m = Match.from_ids(d.position_id, d.match_id, cube=match.cube_enabled, variant=variant)
        out["board"] = board_json(m.position_for(0).board, variant.checkers)
        if d.kind == "play" and d.dice is not None:
            plays = plays_by_text(m.position, d.dice)
            doubles = d.dice[0] == d.dice[1]
            reserve, same_way = variant.entry == "reserve", is_round(variant)
            out["best_play"] = steps_json(d.player, plays.get(d.best), doubles, reserve, same_way)
            out["played_play"] = steps_json(d.player, plays.get(d.played), doubles, reserve, same_way)
    return data


REVIEWED_TURNS = ("standard", "acey-deucey", "greek")
"""The turn flows the review weighs (``table.bot.review``): the ordinary turn, Acey-Deucey's
staged 1-2 turn (a double named, an extra roll) and the Greek games' (Plakoto, Fevga, Portes)."""


def reviewable(match: Match) -> None:
    """Refuse (``no_review``) a match the review cannot weigh: one whose turn is not among
    ``REVIEWED_TURNS``.

    The review weighs each play by where it leaves the game: the opponent on roll, or in
    Acey-Deucey's 1-2 turn the same player naming a double or rolling again; it weighs the
    double named too.  Race, Dutch backgammon, Acey-Deucey, Plakoto, Fevga and Portes are
    reviewed, and a Tavli match (each of its games as the game it is).

    >>> reviewable(Match(variant="race", cube=False))
    >>> reviewable(Match(variant="acey-deucey", cube=False))
    >>> reviewable(Match(3, variant="tavli", cube=False))
    """
    if match.variant.turn_flow not in REVIEWED_TURNS:
        title = match.variant.title
        raise RoomError(f"the review does not weigh {title} yet: it weighs backgammon's turn, Acey-Deucey's "
                        f"staged 1-2 turn and the Greek games', not {title}'s", "no_review")


def replay_steps(config: GameConfig, log: list[JSON]) -> JSON:
    """A match replayed from its stored log as steps to show one after another.

    ``{"players", "length", "steps"}``: step 0 is ``{"kind": "start"}``, then
    one step per log entry: ``kind`` (the entry's type), ``seat`` (who acted;
    the loser for a forfeit), ``entry`` (the log entry, its ``seat`` filled
    in), ``dice``, and ``board`` (seat 0's numbering, as views give it),
    ``score``, ``cube`` and its ``owner`` (None: centred) as they stand after it.  A play also has the move
    list's ``text`` (from each seat's side), ``steps`` and ``hits``.  The
    plays come from ``Game.replay``, the positions from the same actions
    applied to the match, so no rule is written twice.

    >>> r = replay_steps(GameConfig("local"), [])
    >>> r["steps"][0]["kind"], r["steps"][0]["board"]["points"][23]
    ('start', 2)
    """
    plays = iter([e for e in Game.replay(config, log).moves if e["kind"] == "move"])
    m = Game(config).match

    def now(kind: str, seat: int | None) -> JSON:
        step = {"kind": kind, "seat": seat, "dice": list(m.dice) if m.dice else None,
                "board": board_json(m.position_for(0).board, m.variant.checkers), "score": list(m.score),
                "cube": m.cube_value,
                "owner": m.cube_owner}
        if m.series is not None:  # the Tavli match: the game each step's board is of
            step["variant"] = m.variant.name
        return step

    steps: list[JSON] = [now("start", None)]
    for entry in log:
        kind = str(entry.get("type"))
        if kind == "forfeit":
            seat = entry.get("loser")
        else:
            seat = entry.get("seat")
            if seat is None:
                seat = m.turn
            m.apply(action_from_json({k: v for k, v in entry.items() if k != "seat"}))
        step = now(kind, seat)
        step["entry"] = {**entry, "seat": seat}
        if kind == "move":
            play = next(plays)
            step.update(seat=play["seat"], dice=play["dice"], text=play["text"], steps=play["steps"],
                        hits=play["hits"])
            step["entry"]["seat"] = play["seat"]
        steps.append(step)
    names = [n or f"Player {i + 1}" for i, n in enumerate(config.names)]
    replay: JSON = {"players": names, "length": config.length, "steps": steps}
    if config.variant != STANDARD.name:  # what the match plays (``tavli``: its steps name their game)
        replay["variant"] = config.variant
    return replay


def replay_record(text: str) -> JSON:
    """``replay_steps`` of a pasted .mat / SGF record (``RecordError`` if it cannot be read)."""
    m = read_match(text)
    setup = m.to_json()["setup"]
    config = GameConfig("local", length=max(1, m.length), cube=m.cube_enabled,
                        names=(m.players[0], m.players[1]),
                        start=None if setup is None else (setup["position_id"], setup["match_id"]),
                        variant=m.variant.name)
    return replay_steps(config, [{"seat": None, **a.to_json()} for a in m.actions])


def records_of(m: Match) -> JSON:
    """``{"mat", "sgf", "json"}``: the match's records; ``mat`` and ``sgf`` are None, ``why`` says
    why and ``why_code`` which reason it is (what a client words in the player's language), for a
    match they cannot hold: ``"position"`` (one set up from a position), ``"variant"`` (a variant GNU
    Backgammon does not play: Race, Dutch, Acey-Deucey), ``"other"``.  ``json`` is Table's record
    (``Match.to_json``), which holds every match and reads back with ``Match.from_json``.

    >>> r = records_of(Match(variant="race", cube=False))
    >>> r["mat"], r["sgf"], r["json"]["variant"], r["why_code"]
    (None, None, 'race', 'variant')
    >>> r["why"]
    ".mat cannot hold a match of Backgammon Race: GNU Backgammon has no such variant; save it as Table's JSON record (Match.to_json)"
    """
    try:
        records: JSON = {"mat": m.to_mat(), "sgf": m.to_sgf()}
    except RecordError as exc:
        # The same order as the records' own checks: a set-up match first, then the variant.
        code = "position" if m.setup_ids is not None else "variant" if m.variant.mat_name is None else "other"
        records = {"mat": None, "sgf": None, "why": str(exc), "why_code": code}
    return {**records, "json": m.to_json()}


def xgid_holds(variant: Variant) -> bool:
    """Whether an XGID can hold a position of ``variant``: not checkers waiting off the board.

    >>> xgid_holds(find_variant("nackgammon")), xgid_holds(find_variant("dutch"))
    (True, False)
    """
    return variant.entry == "bar" and variant.rules == STANDARD_RULES


def ids_of(game: Game) -> JSON:
    """The current Position ID (player on roll's side), Match ID and XGID of ``game``.

    A finished match has IDs too (docs/learn-api.md): the Position ID of the board as
    it ended, the Match ID GNU Backgammon writes at the end (the game over, the final score) and,
    since an XGID cannot hold a score that has reached the match length, the XGID of the same
    board at the score the last game was played at, with no dice: the end of the last game as it
    would be set up for study.  ``match_over`` says which is which.  Where checkers wait off the
    board (Race, Dutch, Acey-Deucey) the Position ID is Table's extended one (docs/variants.md) and
    ``xgid`` is None: an XGID has no place for them (``xgid_holds``).
    """
    m = game.match
    dice = m.dice if m.phase == Phase.MOVE else None
    score = (m.score[0], m.score[1])
    result = m.game_result
    if m.is_over and result is not None:
        won = list(score)
        won[result.winner] -= result.points
        score = (won[0], won[1])
    if not xgid_holds(m.variant):
        return {"position": m.position.id, "match": m.match_id, "xgid": None, "match_over": game.is_over}
    xgid = to_xgid(m.position, cube_value=m.cube_value,
                   cube_owner=None if m.cube_owner is None else (BOTTOM if m.cube_owner == 0 else TOP),
                   turn=BOTTOM if m.on_roll == 0 else TOP, dice=(dice[0], dice[1]) if dice else None,
                   double_offered=CubeOffer.DOUBLE if m.phase == Phase.TAKE else CubeOffer.NONE,
                   score=score, match_length=m.length, crawford=m.crawford,
                   jacoby=bool(m.jacoby) and m.length == 0)
    return {"position": m.position.id, "match": m.match_id, "xgid": xgid, "match_over": game.is_over}


@dataclass
class ReviewJob:
    """One review under way or done: its progress, then its result or why it failed."""

    version: int
    done: int = 0
    total: int = 0
    result: JSON | None = None  # review_for_web's
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> JSON:
        state = "failed" if self.error else ("done" if self.result is not None else "running")
        data: JSON = {"state": state, "done": self.done, "total": self.total, "version": self.version}
        if self.result is not None:
            data["review"] = self.result
        if self.error:
            data["message"] = self.error
        return data


def _drain(q: Any) -> tuple[int, int] | None:
    """The latest (done, total) on the progress queue, or None if nothing new."""
    last = None
    while True:
        try:
            last = q.get_nowait()
        except queues.Empty:
            return last


async def _review(pool: BotPool, job: ReviewJob, text: str, depth: int) -> None:
    manager = await asyncio.to_thread(multiprocessing.get_context("spawn").Manager)
    try:
        q = await asyncio.to_thread(manager.Queue)
        work = asyncio.ensure_future(pool.run(review_for_web, text, depth, QueueProgress(q)))
        while not work.done():
            await asyncio.wait({work}, timeout=0.25)
            seen = await asyncio.to_thread(_drain, q)
            if seen is not None:
                job.done, job.total = seen
        try:
            job.result = work.result()
            job.done = job.total
        except TableError as exc:
            job.error = str(exc)
        except Exception:  # noqa: BLE001 - a worker failure is reported, never raised into the loop
            job.error = "the review failed; try again"
    finally:
        await asyncio.to_thread(manager.shutdown)


def _error(exc: TableError) -> JSONResponse:
    code = getattr(exc, "code", "bad_request")
    status = {"not_found": 404, "bad_token": 403, "online": 403, "no_hint": 409, "not_finished": 409,
              "match_in_play": 409, "no_review": 409, "busy": 429}.get(code, 400)
    if isinstance(exc, LimitError):
        status = exc.status
    return JSONResponse({"type": "error", "code": code, "message": str(exc)}, status_code=status)


async def _options(request: Request, fields: set[str]) -> tuple[int, Any]:
    """The depth (default Greu's) and, when ``fields`` names it, the text of a review request."""
    raw = (await read_body(request, MAX_RECORD_BYTES)).strip()
    if not raw:
        return DEFAULT_DEPTH, None
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise RoomError("the body is not valid JSON") from None
    if not isinstance(body, dict) or set(body) - {"depth"} - fields or body.get("depth", 1) not in (0, 1):
        raise RoomError('the body is a JSON object with "depth": 0 or 1'
                        + (f" and {', '.join(sorted(fields))}" if fields else "") + " (depth 1 is Greu's)")
    return int(body.get("depth", DEFAULT_DEPTH)), body.get("text")


def live_online(game: Game) -> bool:
    """Whether ``game`` is an online match still being played: no computer help is given in it.

    >>> live_online(Game(GameConfig("local")))
    False
    """
    return game.config.mode == "online" and not game.is_over


def routes(rooms: Rooms, pool: BotPool) -> list[Route]:
    """The routes of the move list, hint, export and review, thinking in ``pool``."""
    hints = RateLimiter(HINT_RATE, HINT_BURST)
    imports = RateLimiter(IMPORT_RATE, IMPORT_BURST)
    replays = RateLimiter(REPLAY_RATE, REPLAY_BURST)
    reviews: dict[str, ReviewJob] = {}

    async def seat_room(request: Request, need_seat: bool) -> tuple[Room, frozenset[int]]:
        room = await rooms.get(request.path_params["game_id"])
        seats = room.seats_for(bearer(request))
        if need_seat and not seats:
            raise RoomError("only a player of this game may ask this: send your token", "bad_token")
        return room, seats

    async def snapshot(request: Request, need_seat: bool, answer: Callable[[Room], JSON]) -> Response:
        """``answer(room)`` with the room's version, taken between changes."""
        try:
            room, _ = await seat_room(request, need_seat)
        except TableError as exc:
            return _error(exc)
        async with room.lock:
            return JSONResponse({**answer(room), "game": room.id, "version": room.version})

    async def moves(request: Request) -> Response:
        # ``?from=K``: the entries from the K-th on, so that a client following a long match asks
        # for what is new after each state, not for the whole list again (``count`` is its length).
        raw = request.query_params.get("from", "0")
        if not raw.isdigit() or len(raw) > 9:
            return _error(RoomError(f"from is a whole number from 0 up, got {raw!r}", "bad_request"))
        start = int(raw)

        def answer(room: Room) -> JSON:
            listed = room.game.moves
            first = start if start <= len(listed) else 0  # a shorter list than the client's: all of it
            return {"moves": listed[first:], "from": first, "count": len(listed)}
        return await snapshot(request, False, answer)

    async def hint(request: Request) -> Response:
        try:
            room, seats = await seat_room(request, True)
            game = room.game
            if game.config.mode == "online":
                raise RoomError("hints are not given in online games", "online")
            m = game.match
            if game.to_act in seats and m.phase == Phase.NAME_DOUBLE:
                raise RoomError("the computer does not advise on naming a double: name the one you "
                                "would play four times", "no_hint")
            if game.to_act not in seats or m.phase not in (Phase.MOVE, Phase.ROLL, Phase.TAKE):
                raise RoomError("there is no decision of yours to advise on now", "no_hint")
            if m.phase == Phase.ROLL and not m.may_double():
                raise RoomError("roll the dice: there is no cube decision now", "no_hint")
            if m.phase == Phase.MOVE and not game.graph.plays:
                raise RoomError("there is no play to make with this roll", "no_hint")
            hints.take(client_key(request.scope), "too many hints asked from your address")
            args = (m.position.id, m.match_id, game.config.cube, game.single, m.variant.name)
            version = room.version
        except TableError as exc:
            return _error(exc)
        advice = await pool.run(hint_for, *args)
        return JSONResponse({**advice, "version": version, "ids": {"position": args[0], "match": args[1]}})

    async def export(request: Request) -> Response:
        return await snapshot(request, True, lambda room: {**records_of(room.game.match), **ids_of(room.game)})

    def begin(key: str, version: int, text: str, depth: int) -> JSONResponse:
        """Start reviewing ``text`` as ``reviews[key]`` (room of at most ``MAX_REVIEWS``)."""
        if len(reviews) >= MAX_REVIEWS:
            finished = [k for k, j in reviews.items() if j.task is not None and j.task.done()]
            if not finished:
                return _error(RoomError("too many reviews are running; try again in a minute", "busy"))
            del reviews[finished[0]]
        job = reviews[key] = ReviewJob(version)
        job.task = asyncio.ensure_future(_review(pool, job, text, depth))
        return JSONResponse({**job.to_json(), "id": key}, status_code=202)

    async def review(request: Request) -> Response:
        try:
            room, _ = await seat_room(request, True)
            if live_online(room.game):
                raise RoomError("the review of an online match opens when the match has ended: "
                                "no computer help is given during a match between people", "match_in_play")
            reviewable(room.game.match)
            job = reviews.get(room.id)
            if request.method == "GET":
                if job is None:
                    raise RoomError("no review of this game was started: POST to start one", "not_found")
                return JSONResponse(job.to_json())
            depth = (await _options(request, set()))[0]
        except TableError as exc:
            return _error(exc)
        if job is not None and (job.task is None or not job.task.done() or job.version == room.version):
            return JSONResponse(job.to_json(), status_code=202)  # the same review: one at a time
        async with room.lock:
            # Table's own record: unlike .mat it also holds a match set up from a position.
            text = json.dumps(room.game.match.to_json())
            version = room.version
        return begin(room.id, version, text, depth)

    async def review_text(request: Request) -> Response:
        """POST /api/review {"text": .mat / SGF / JSON record, "depth"}: review a pasted match."""
        try:
            depth, text = await _options(request, {"text"})
            if not isinstance(text, str) or not text.strip():
                raise RoomError('the body is {"text": the record of a match (.mat or SGF), "depth": 0 or 1}')
            reviewable(read_match(text))  # a record that cannot be read is refused now, not in a worker
            imports.take(client_key(request.scope), "too many analyses asked from your address")
        except TableError as exc:
            return _error(exc)
        return begin("import-" + rooms.new_id(), 0, text, depth)

    async def review_job(request: Request) -> Response:
        job = reviews.get("import-" + request.path_params["job"])
        if job is None:
            return _error(RoomError("there is no such analysis (it may have been forgotten)", "not_found"))
        return JSONResponse(job.to_json())

    async def replay(request: Request) -> Response:
        """GET /api/games/{id}/replay: a finished game, step by step, for anyone."""
        try:
            room, _ = await seat_room(request, False)
            async with room.lock:
                if not room.game.is_over:
                    raise RoomError("only a finished game can be replayed", "not_finished")
                config, log = room.game.config, list(room.game.log)
        except TableError as exc:
            return _error(exc)
        data = await asyncio.to_thread(replay_steps, config, log)
        return JSONResponse({**data, "game": room.id})

    async def replay_text(request: Request) -> Response:
        """POST /api/replay {"record": .mat / SGF text}: a pasted match, step by step."""
        try:
            raw = await read_body(request, MAX_RECORD_BYTES)
            try:
                body = json.loads(raw)
            except (ValueError, RecursionError):
                raise RoomError("the body is not valid JSON") from None
            if not isinstance(body, dict) or set(body) != {"record"} or not isinstance(body["record"], str) \
                    or not body["record"].strip():
                raise RoomError('the body is {"record": the record of a match (.mat or SGF)}')
            replays.take(client_key(request.scope), "too many replays asked from your address")
            data = await asyncio.to_thread(replay_record, body["record"])
        except TableError as exc:
            return _error(exc)
        return JSONResponse(data)

    return [Route("/api/games/{game_id}/moves", moves),
            Route("/api/games/{game_id}/replay", replay),
            Route("/api/replay", replay_text, methods=["POST"]),
            Route("/api/games/{game_id}/hint", hint),
            Route("/api/games/{game_id}/export", export),
            Route("/api/games/{game_id}/review", review, methods=["GET", "POST"]),
            Route("/api/review", review_text, methods=["POST"]),
            Route("/api/review/import-{job}", review_job)]
