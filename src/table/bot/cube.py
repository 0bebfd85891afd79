"""Cube decisions from cubeless probabilities: double or not, take or pass, resignations.

Everything is seen from the player on roll, who holds the probabilities.
Cubeful equity is estimated Janowski's way: a mix, by the cube efficiency
``x``, of the dead-cube equity (nobody doubles again) and the fully-live-cube
equity (each side doubles exactly at the other's take point):

    E = x * E_live + (1 - x) * E_dead.

For money play the live equities are Janowski's closed forms (R. Janowski,
"Take-points in money games", 1993), with ``W`` and ``L`` the average points
won when winning and lost when losing.  For match play the same mix is taken
over match winning chances, with the live part from ``met.CubeModel`` at the
actual score and the position's own gammon rates.

The functions take plain parameters so that they do not depend on the match
state machine: ``cube`` (its value), ``owner`` ("centre", "player" = the
player on roll, "opponent"), and for matches ``length`` and ``score``
(points each already has: player on roll first) and ``crawford``.

>>> d = money_double(Chances(0.75, 0.0, 0.0, 0.0, 0.0))
>>> d.double, d.take
(True, True)
>>> money_double(Chances(0.60, 0.0, 0.0, 0.0, 0.0)).double
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
from table.jitcache import njit

from table.bot.met import CubeModel, crawford_game, match_equity, post_crawford
from table.errors import TableError
from table.rules.board import BOARD_SIZE, is_race
from table.rules.position import Position
from table.rules.reserve import folded

Owner = Literal["centre", "player", "opponent"]
OWNERS = ("centre", "player", "opponent")
# Cube efficiencies measured by ``table bench cube`` against Table's cubeful rollouts
# (docs/cube.md): in contact 0.72 lost least of 0.68-0.84 on 300 positions (0.68, the
# textbook value, 13% more); in long races 0.66-0.72 lost about the same and 0.72 agreed
# most (the pip-count formula used before agreed less).
CONTACT_EFFICIENCY = 0.72
RACE_EFFICIENCY = 0.72
# Past the cash point the live cube runs on towards W (too good: play on for the gammons) at this
# fraction of Janowski's slope.  Measured against Table's rollouts (research/cube/cube_toogood.py,
# docs/cube.md): the full slope lost more than stopping at +1, a sixth of it lost least, chosen
# on four references and confirmed on a fresh one.
TOO_GOOD_SLOPE = 0.15


class CubeError(TableError):
    """Cube parameters that make no sense (a cube of 3, a score past the match length, ...)."""


class Probabilities(Protocol):
    """Anything with the five cubeless chances (``table.bot.Evaluation`` fits)."""

    @property
    def win(self) -> float: ...
    @property
    def win_gammon(self) -> float: ...
    @property
    def win_backgammon(self) -> float: ...
    @property
    def lose_gammon(self) -> float: ...
    @property
    def lose_backgammon(self) -> float: ...


@dataclass(frozen=True)
class Chances:
    """Five cubeless chances as plain numbers (the player on roll's)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


@dataclass(frozen=True)
class CubeDecision:
    """What the player on roll should do with the cube, and what the opponent should answer.

    Equities are cubeful, for the player on roll: in points (money, already
    multiplied by the cube) or in match winning chances (match play).
    """

    double: bool
    take: bool
    no_double: float
    double_take: float
    double_pass: float

    @property
    def best(self) -> float:
        """The player on roll's cubeful equity under correct cube action."""
        if not self.double:
            return self.no_double
        return min(self.double_take, self.double_pass)


@njit(cache=True)
def last_roll(board: np.ndarray) -> bool:
    """True when the opponent bears off his last checkers with any roll on his next turn.

    Then the player on roll's double is the last cube action of the game (his
    opponent will never need the cube): the cube is dead.  Any roll bears off
    one checker on the 1-, 2- or 3-point (2-1 moves 3 pips, 1-1 four), or two
    on the 1- and 2-points but not both on the 2-point (2-1), never three (a
    roll that is not a double moves two checkers).  Raw board, the player on
    roll's view; a race only (in contact he might be hit first).
    """
    if not is_race(board):
        return False
    checkers = 0
    highest = 0
    pips = 0
    for i in range(0, 25):
        if board[i] < 0:
            if i < 19:
                return False  # not home yet
            point = 25 - i
            checkers -= board[i]
            pips -= board[i] * point
            highest = max(highest, point)
    if checkers == 1:
        return highest <= 3
    return checkers == 2 and pips <= 3


@njit(cache=True)
def board_efficiency(board: np.ndarray) -> float:
    """``efficiency`` of a raw board (the player on roll's view), for compiled callers."""
    if last_roll(board):
        return 0.0
    return RACE_EFFICIENCY if is_race(board) else CONTACT_EFFICIENCY


def efficiency(position: Position) -> float:
    """How live the cube is in ``position``: one value in contact, one in a race, none at the last roll.

    >>> from table.rules.position import Position
    >>> efficiency(Position.initial()) == CONTACT_EFFICIENCY
    True
    >>> board = [0] * 26
    >>> board[5] = board[6] = 1  # two checkers to go, the opponent one on his 2-point
    >>> board[23] = -1
    >>> efficiency(Position(board))
    0.0
    """
    # Checkers waiting off the board (Race, Dutch, Acey-Deucey) count as on the bar.
    b = position.board
    return float(board_efficiency(np.array(folded(b) if len(b) > BOARD_SIZE else b, dtype=np.int8)))


def _check(cube: int, owner: str) -> None:
    if cube < 1 or cube & (cube - 1):
        raise CubeError(f"the cube shows a power of two, not {cube}")
    if owner not in OWNERS:
        raise CubeError(f"cube owner {owner!r} is not one of {', '.join(OWNERS)}")


def _check_probs(p: Probabilities) -> None:
    if not (0.0 <= p.win_backgammon <= p.win_gammon <= p.win <= 1.0
            and 0.0 <= p.lose_backgammon <= p.lose_gammon <= 1.0 - p.win + 1e-9):
        raise CubeError("probabilities must be ordered: backgammons <= gammons <= wins")


# Money -------------------------------------------------------------------------


OWNER_CODES = {"centre": 0, "player": 1, "opponent": 2}


@njit(cache=True)
def money_core(win: float, win_gammon: float, win_backgammon: float, lose_gammon: float,
               lose_backgammon: float, owner: int, x: float,
               slope: float = TOO_GOOD_SLOPE) -> float:
    """Janowski's cubeful money equity per unit of cube (``owner``: 0 centre, 1 player, 2 opponent).

    ``slope`` is the too-good line's fraction of Janowski's (other values only to measure the model).
    """
    pw = win
    lose = 1.0 - pw
    w = 1.0 + (win_gammon + win_backgammon) / pw if pw > 1e-9 else 1.0
    ell = 1.0 + (lose_gammon + lose_backgammon) / lose if lose > 1e-9 else 1.0
    dead = pw * w - lose * ell
    # Fully live cube: each side doubles at the other's take point; the equity is linear
    # between them, -1 at or below the take point (a pass).  Past the cash point a cash is
    # worth +1 and playing on for the gammons more: Janowski's line runs on to W at certain
    # victory, but followed in full it lost against Table's rollouts (the network's gammon
    # rates are not that reliable), so it rises at a fraction of that slope.
    tp_live = (ell - 0.5) / (w + ell + 0.5)  # the player's own take point
    cp_live = (ell + 1.0) / (w + ell + 0.5)  # one minus the opponent's
    if owner == 2:
        live = -1.0 if pw <= tp_live else -1.0 + (w + 1.0) * (pw - tp_live) / (1.0 - tp_live)
    elif pw >= cp_live:
        live = 1.0 + slope * (w - 1.0) * (pw - cp_live) / (1.0 - cp_live)
    elif owner == 1:
        live = -ell + (ell + 1.0) * pw / cp_live
    elif pw <= tp_live:
        live = -1.0
    else:
        live = -1.0 + 2.0 * (pw - tp_live) / (cp_live - tp_live)
    return x * live + (1.0 - x) * dead


@njit(cache=True)
def money_action(p: np.ndarray, owner: int, x: float,
                 slope: float = TOO_GOOD_SLOPE) -> tuple[float, float]:
    """(no double, double-take) money equities per unit of the cube now, for chances ``p``.

    ``p`` is the network's five outputs; they are put in order first (single
    precision and averaging can leave a gammon a hair above its win).  A
    double is right when ``min(double-take, 1) > no double``, a take when
    ``double-take <= 1``.  Jacoby is off.
    """
    win = min(max(p[0], 0.0), 1.0)
    wg = min(max(p[1], 0.0), win)
    wbg = min(max(p[2], 0.0), wg)
    lg = min(max(p[3], 0.0), 1.0 - win)
    lbg = min(max(p[4], 0.0), lg)
    nd = money_core(win, wg, wbg, lg, lbg, owner, x, slope)
    dt = 2.0 * money_core(win, wg, wbg, lg, lbg, 2, x, slope)
    return nd, dt


def money_equity(p: Probabilities, owner: str = "centre", efficiency: float = CONTACT_EFFICIENCY) -> float:
    """Janowski's cubeful money equity, per unit of cube, for the player on roll."""
    return float(money_core(p.win, p.win_gammon, p.win_backgammon, p.lose_gammon,
                            p.lose_backgammon, OWNER_CODES[owner], efficiency))


def money_double(p: Probabilities, cube: int = 1, owner: str = "centre",
                 efficiency: float = CONTACT_EFFICIENCY, jacoby: bool = False) -> CubeDecision:
    """Money play: should the player on roll double, and should the opponent take?

    Under the Jacoby rule gammons count only once the cube has been turned.
    """
    _check(cube, owner)
    _check_probs(p)
    if owner == "opponent":
        nd = cube * money_equity(p, owner, efficiency)
        return CubeDecision(False, True, nd, nd, nd)
    centred = Chances(p.win, 0.0, 0.0, 0.0, 0.0) if jacoby and owner == "centre" else p
    nd = cube * money_equity(centred, owner, efficiency)
    dt = 2 * cube * money_equity(p, "opponent", efficiency)
    dp = float(cube)
    take = dt <= dp
    double = min(dt, dp) > nd
    return CubeDecision(double, take, nd, dt, dp)


# Match play ---------------------------------------------------------------------------


def _aways(length: int, score: tuple[int, int], cube: int) -> tuple[int, int]:
    if length < 1:
        raise CubeError(f"a match is played to 1 point or more, not {length}")
    a, b = length - score[0], length - score[1]
    if a < 1 or b < 1 or score[0] < 0 or score[1] < 0:
        raise CubeError(f"score {score[0]}-{score[1]} is not a live score in a {length}-point match")
    return a, b


def _model(p: Probabilities, a: int, b: int) -> CubeModel:
    # With a side 1-away, this game is the Crawford game or a later one: either way
    # every game after it is post-Crawford.
    post = a == 1 or b == 1

    def after(x: int, y: int) -> float:
        if x <= 0:
            return 1.0
        if y <= 0:
            return 0.0
        if post:
            return post_crawford(x, y)
        if x == 1 or y == 1:
            return crawford_game(x, y)
        return match_equity(x, y)

    lose = 1.0 - p.win
    gw = (p.win_gammon / p.win) if p.win > 1e-9 else 0.0
    bw = (p.win_backgammon / p.win) if p.win > 1e-9 else 0.0
    gl = (p.lose_gammon / lose) if lose > 1e-9 else 0.0
    bl = (p.lose_backgammon / lose) if lose > 1e-9 else 0.0
    return CubeModel(a, b, gw, gl, bw, bl, after)


def match_double(p: Probabilities, length: int, score: tuple[int, int], cube: int = 1,
                 owner: str = "centre", crawford: bool = False,
                 efficiency: float = CONTACT_EFFICIENCY) -> CubeDecision:
    """Match play: should the player on roll double, and should the opponent take?

    Equities are the player on roll's match winning chances.
    """
    _check(cube, owner)
    _check_probs(p)
    a, b = _aways(length, score, cube)
    m = _model(p, a, b)
    x = efficiency
    pw = p.win
    if crawford:
        # No cube in the Crawford game: the game's plain value at the score.
        nd = m.dead(cube, pw)
        return CubeDecision(False, True, nd, nd, nd)
    if owner == "centre":
        live_nd = m.centred(pw, cube)
    elif owner == "player":
        live_nd = m.a_owns(cube, pw)
    else:
        live_nd = m.b_owns(cube, pw)
    nd = x * live_nd + (1 - x) * m.dead(cube, pw)
    # A cube already past what A needs gains nothing.
    if owner == "opponent" or a - cube <= 0 and b - cube <= 0:
        return CubeDecision(False, True, nd, nd, nd)
    dt = x * m.b_owns(2 * cube, pw) + (1 - x) * m.dead(2 * cube, pw)
    dp = m.cash_a(cube)
    take = dt <= dp
    double = min(dt, dp) > nd + 1e-12
    return CubeDecision(double, take, nd, dt, dp)


# Resignations ------------------------------------------------------------------------


def accept_resignation(p: Probabilities, points: int, cube: int = 1, owner: str = "centre",
                       length: int = 0, score: tuple[int, int] = (0, 0),
                       crawford: bool = False, efficiency: float = CONTACT_EFFICIENCY) -> bool:
    """Should the player holding ``p`` accept the opponent's resignation of ``points`` x cube?

    ``points`` is 1 (single game), 2 (gammon) or 3 (backgammon).  ``length``
    0 means money play; ``p`` and the score are from the accepting player's
    side, as if on roll.
    """
    if points not in (1, 2, 3):
        raise CubeError(f"a resignation gives 1, 2 or 3 points, not {points}")
    _check(cube, owner)
    _check_probs(p)
    if length == 0:
        return points * cube >= money_double(p, cube, owner, efficiency).best - 1e-9
    a, b = _aways(length, score, cube)
    offered = _model(p, a, b).after(a - points * cube, b)
    return offered >= match_double(p, length, score, cube, owner, crawford, efficiency).best - 1e-9
