"""An HTTP API for bots and tools: the computer's ranked plays and its evaluation of a position.

The API is wildbg's (github.com/carsten-wenderdel/wildbg), so a client written
for wildbg works with only the host changed: ``GET /move`` and ``GET /eval``
answer as ``/api/move`` and ``/api/eval`` do.  A position is given by
``p0`` ... ``p25`` (checkers on each point from the mover's side: positive for
the mover, negative for the opponent; ``p25`` is the mover's bar, ``p0`` the
opponent's), or to ``/eval`` also as ``position=POSITION_ID``; ``die1`` and
``die2`` are the roll and ``x_away``/``o_away`` the score.  Parameters the API
does not know are ignored, as wildbg ignores them.

``/move`` answers every legal play, best first, as ``{"moves": [{"play":
[{"from", "to"}, ...], "probabilities": {...}, "equity": ...}, ...]}``; when
no checker can move, exactly one move whose ``play`` is empty (clients read
``moves[0]``).  ``/eval`` answers ``{"cube": {"double", "accept"},
"probabilities": {...}, "equity": ..., "position": POSITION_ID}`` for the
player on roll, before rolling.

Both use Greu's judgement and run in the computer's worker processes
(``BotPool.run``), never on the event loop.  Bad parameters get 400 and a
message saying which one and why.  docs/bot-api.md describes both.

>>> board = position_from_query({"die1": "3", "die2": "1", "p24": "2", "p1": "-2"})[0].board
>>> board[24], board[1]
(2, -2)
"""

from __future__ import annotations

from typing import Any, Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from table.bot import cube
from table.bot.bot import Evaluation
from table.errors import TableError
from table.rules.position import Position
from table.server.edge.limits import LimitError, Limits, RateLimiter
from table.server.edge.middleware import client_key
from table.server.play.pool import BotPool

JSON = dict[str, Any]
LEVEL = "hard"
"""Whose judgement the API gives: Greu's (1 ply)."""

POINTS = tuple(f"p{i}" for i in range(26))
MAX_AWAY = 25


class ApiError(TableError):
    """A request to the bot API that cannot be answered as asked (a 400)."""


def _integer(params: Mapping[str, str], name: str, lo: int, hi: int,
             default: int | None = None) -> int:
    raw = params.get(name)
    if raw is None:
        if default is None:
            raise ApiError(f"{name} is missing: give a whole number from {lo} to {hi}")
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ApiError(f"{name}={raw!r} is not a whole number") from None
    if not lo <= value <= hi:
        raise ApiError(f"{name}={value} is out of range: {lo} to {hi}")
    return value


def _board_from_query(params: Mapping[str, str]) -> Position:
    """The position, mover on roll, of wildbg's ``p0`` ... ``p25``: a game still going on."""
    board = [_integer(params, p, -15, 15, 0) for p in POINTS]
    if board[0] > 0:
        raise ApiError("p0 is the opponent's bar: its count is negative or 0")
    if board[25] < 0:
        raise ApiError("p25 is your bar: its count is positive or 0")
    position = Position(board)
    if position.is_game_over:
        raise ApiError("the game is over in this position: one side has no checkers left")
    return position


def _aways(params: Mapping[str, str]) -> tuple[int, int]:
    # 0 away is money play, as in wildbg.
    x_away = _integer(params, "x_away", 0, MAX_AWAY, 0)
    o_away = _integer(params, "o_away", 0, MAX_AWAY, 0)
    if (x_away == 0) != (o_away == 0):
        raise ApiError("x_away and o_away are both 0 (money play) or both 1 or more (a match)")
    return x_away, o_away


def position_from_query(params: Mapping[str, str]) -> tuple[Position, tuple[int, int], int, int]:
    """The position (mover on roll), dice and the two away scores of a wildbg ``/move`` query.

    Parameters other than wildbg's are ignored, as wildbg ignores them.
    """
    dice = (_integer(params, "die1", 1, 6), _integer(params, "die2", 1, 6))
    position = _board_from_query(params)
    return (position, dice, *_aways(params))


def eval_query(params: Mapping[str, str]) -> tuple[Position, int, int]:
    """The position (player on roll, before rolling) and away scores of an ``/eval`` query.

    The position is ``position=POSITION_ID`` or wildbg's ``p0`` ... ``p25``, not both.

    >>> eval_query({"p1": "1", "p20": "-1", "p24": "-1"})[0].pip_counts()
    (1, 6)
    """
    raw = params.get("position")
    points = [p for p in POINTS if p in params]
    if raw is not None and points:
        raise ApiError(f"give the position either as position=POSITION_ID or as p0..p25, "
                       f"not both (found position and {points[0]})")
    if raw is None and not points:
        raise ApiError("position is missing: give a GNU Backgammon Position ID as "
                       "position=..., or the checkers as p0..p25")
    if raw is not None:
        if not raw.strip():
            raise ApiError("position is empty: give a GNU Backgammon Position ID")
        position = Position.from_id(raw.strip())
        if position.is_game_over:
            raise ApiError("the game is over in this position: one side has no checkers left")
    else:
        position = _board_from_query(params)
    return (position, *_aways(params))


def query_from_position(position: Position, dice: tuple[int, int]) -> dict[str, str]:
    """The wildbg-style query for ``position`` (mover on roll) and ``dice``: zero points left out.

    >>> sorted(query_from_position(Position.initial(), (3, 1)).items())[:3]
    [('die1', '3'), ('die2', '1'), ('p1', '-2')]
    """
    query = {"die1": str(dice[0]), "die2": str(dice[1])}
    query.update({f"p{i}": str(n) for i, n in enumerate(position.board) if n})
    return query


def chances(e: Evaluation) -> dict[str, float]:
    """The five chances under wildbg's names."""
    return {"win": e.win, "winG": e.win_gammon, "winBg": e.win_backgammon,
            "loseG": e.lose_gammon, "loseBg": e.lose_backgammon}


def match_chance(e: Evaluation, x_away: int, o_away: int) -> float:
    """The mover's cubeless chance to win the match with chances ``e``, needing ``x_away`` to ``o_away``.

    With a side 1-away the game is taken to be after the Crawford game.

    >>> match_chance(Evaluation(0.6, 0.3, 0.0, 0.0, 0.0), 1, 1)
    0.6
    """
    length = max(x_away, o_away)
    score = (length - x_away, length - o_away)
    # A dead cube (efficiency 0) owned by the other side: the plain value of the game.
    return cube.match_double(e, length, score, 1, "opponent", False, 0.0).no_double


def ranked_moves(board: tuple[int, ...], dice: tuple[int, int], x_away: int = 0,
                 o_away: int = 0) -> JSON:
    """Every legal play, best first, with the mover's chances after it (runs in a worker).

    In money play (``x_away`` = ``o_away`` = 0) the bot's own ranking, by
    cubeless equity; in a match, by cubeless match winning chance.  When no
    checker can move, one move with an empty ``play``, as wildbg answers.
    """
    from table.server.play.computer import bot_for

    bot = bot_for(LEVEL)
    position = Position(board)
    analysed = bot.analyse_plays(position, dice)
    if not analysed:
        # The turn passes with the board unchanged: the mover's chances with the opponent on roll.
        e = bot.evaluate(position.swapped(), depth=bot.settings.analysis).swapped()
        return {"moves": [{"play": [], "probabilities": chances(e), "equity": e.equity}]}
    if x_away:
        analysed.sort(key=lambda pe: -match_chance(pe[1], x_away, o_away))
    return {"moves": [
        {"play": [{"from": a, "to": b} for a, b in play.steps], "probabilities": chances(e),
         "equity": e.equity}
        for play, e in analysed]}


def cube_advice(position: Position, e: Evaluation, x_away: int = 0, o_away: int = 0) -> JSON:
    """wildbg's ``cube``: should the player on roll double (the cube centred), and should the opponent take.

    >>> from table.bot.bot import Evaluation
    >>> cube_advice(Position.initial(), Evaluation(0.9, 0.0, 0.0, 0.0, 0.0))
    {'double': True, 'accept': False}
    """
    x = cube.efficiency(position)
    if not x_away:
        d = cube.money_double(e, 1, "centre", x)
        return {"double": d.double, "accept": d.take}
    length = max(x_away, o_away)
    d = cube.match_double(e, length, (length - x_away, length - o_away), 1, "centre", False, x)
    # A player 1-away gains nothing by doubling (after the Crawford game: before it, none may).
    return {"double": d.double and x_away > 1, "accept": d.take}


def evaluation(position_id: str, x_away: int = 0, o_away: int = 0) -> JSON:
    """The chances, cubeless equity and cube advice for the player on roll (runs in a worker)."""
    from table.server.play.computer import bot_for

    position = Position.from_id(position_id)
    e = bot_for(LEVEL).evaluate(position)
    return {"cube": cube_advice(position, e, x_away, o_away), "probabilities": chances(e),
            "equity": e.equity, "position": position_id}


def _bad(exc: TableError) -> JSONResponse:
    if isinstance(exc, LimitError):
        return JSONResponse({"type": "error", "code": exc.code, "message": str(exc)},
                            status_code=exc.status,
                            headers={"Retry-After": str(max(1, round(exc.retry_after)))})
    return JSONResponse({"type": "error", "code": "bad_parameter", "message": str(exc)},
                        status_code=400)


def routes(pool: BotPool, limiter: RateLimiter | None = None) -> list[Route]:
    """The API's routes, thinking in ``pool``'s worker processes, ``limiter`` per address.

    The API stays public, but answers each address at the pace of ``Limits.bot_api_per_minute``
    after a burst of ``Limits.bot_api_burst``: a person studying positions never meets it, a match
    between people cannot be played through it at a live pace.
    """
    limits = Limits()
    bucket = limiter or RateLimiter(limits.bot_api_per_minute / 60, limits.bot_api_burst)

    async def move(request: Request) -> Response:
        try:
            position, dice, x_away, o_away = position_from_query(request.query_params)
            bucket.take(client_key(request.scope), "too many questions to the bot from your address")
        except TableError as exc:
            return _bad(exc)
        return JSONResponse(await pool.run(ranked_moves, position.board, dice, x_away, o_away))

    async def evaluate(request: Request) -> Response:
        try:
            position, x_away, o_away = eval_query(request.query_params)
            bucket.take(client_key(request.scope), "too many questions to the bot from your address")
        except TableError as exc:
            return _bad(exc)
        return JSONResponse(await pool.run(evaluation, position.id, x_away, o_away))

    # wildbg serves the same at the root, so its clients need only the host changed.
    return [Route("/api/move", move), Route("/api/eval", evaluate),
            Route("/move", move), Route("/eval", evaluate)]
