"""The evaluator seam: what judges positions, as one batch method over raw boards.

An ``Evaluator`` takes boards (``int8[n, 26]``, each seen from its player on
roll, see ``table.rules.board``) and returns their five chances
(``float32[n, 5]``, in the order of ``CHANCES``: win, gammon win, backgammon
win, gammon loss, backgammon loss; each gammon counts its backgammons too).
``NetEvaluator`` is the networks with the bear-off database and finished games
judged exactly; ``FakeEvaluator`` is a cheap stand-in for tests.
``evaluator_for(variant)`` gives the one a variant plays with: Nackgammon has
the standard networks, as GNU Backgammon plays it.

>>> import numpy as np
>>> from table import Position
>>> boards = np.array([Position.initial("nackgammon").board], dtype=np.int8)
>>> chances = evaluator_for("nackgammon").evaluate(boards)
>>> chances.shape, chances.dtype.name, bool(0.3 < chances[0, WIN] < 0.7)
((1, 5), 'float32', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, search
from table.bot.net import N_OUTPUTS, WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON
from table.bot.net import Weights, bundled, evaluate_board, final_probs, shipped
from table.errors import TableError, VariantError
from table.rules.board import BOARD_SIZE, CHECKERS
from table.rules.position import Position
from table.rules.variant import Variant, find_variant

CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The five columns an evaluator returns, by index (``WIN`` ... ``LOSE_BACKGAMMON``)."""

__all__ = ["CHANCES", "WIN", "WIN_GAMMON", "WIN_BACKGAMMON", "LOSE_GAMMON", "LOSE_BACKGAMMON",
           "Evaluation", "consistent", "chances", "Evaluator", "EvaluatorError", "NetEvaluator", "FakeEvaluator", "evaluator_for"]


@dataclass(frozen=True)
class Evaluation:
    """The five chances as a value: cubeless, for the player on roll; gammons and backgammons
    count as wins too.  One row of an evaluator's output (``consistent(row)``)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        """Probability of losing."""
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity: points won per game on average.

        >>> Evaluation(0.6, 0.2, 0.0, 0.1, 0.0).equity
        0.3
        """
        return round(2.0 * self.win - 1.0 + self.win_gammon + self.win_backgammon
                     - self.lose_gammon - self.lose_backgammon, 12)

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        """(win, win gammon, win backgammon, lose gammon, lose backgammon): ``CHANCES``' order."""
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon,
                self.lose_backgammon)

    def swapped(self) -> Evaluation:
        """The same chances seen from the other player."""
        return Evaluation(1.0 - self.win, self.lose_gammon, self.lose_backgammon,
                          self.win_gammon, self.win_backgammon)


def consistent(v: Sequence[float]) -> Evaluation:
    """Chances in order (backgammons <= gammons <= wins) once in double precision.

    The compiled evaluator orders them in single precision; rounding there, and
    averaging over rolls, can leave a gammon a hair above its win.

    >>> consistent([0.5, 0.5000001, 0.0, 0.2, 0.0]).win_gammon
    0.5
    """
    win = min(max(float(v[0]), 0.0), 1.0)
    win_gammon = min(max(float(v[1]), 0.0), win)
    lose_gammon = min(max(float(v[3]), 0.0), 1.0 - win)
    return Evaluation(win, win_gammon, min(max(float(v[2]), 0.0), win_gammon),
                      lose_gammon, min(max(float(v[4]), 0.0), lose_gammon))


class Evaluator(Protocol):
    """Judges boards in a batch: ``int8[n, 26]`` (mover's view) to ``float32[n, 5]``."""

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        """The five chances of each board for its player on roll."""
        ...


def chances(evaluator: Evaluator, boards: np.ndarray) -> list[Evaluation]:
    """``evaluator``'s judgement of each board as an ``Evaluation``.

    >>> from table import Position
    >>> [e.win for e in chances(FakeEvaluator(), np.array([Position.initial().board]))]
    [0.5]
    """
    return [consistent(row) for row in evaluator.evaluate(boards).tolist()]


class EvaluatorError(TableError):
    """Boards an evaluator cannot read (not an array of 26-entry rows)."""


def _as_boards(boards: np.ndarray) -> np.ndarray:
    rows = np.ascontiguousarray(boards, dtype=np.int8)
    if rows.ndim != 2 or rows.shape[1] != BOARD_SIZE:
        raise EvaluatorError(f"boards are an array of shape (n, {BOARD_SIZE}), got {rows.shape}")
    return rows


@njit(cache=True)
def _evaluate_rows(net: search.Net, work: search.Work, boards: np.ndarray,
                   out: np.ndarray) -> None:  # pragma: no cover - compiled
    for r in range(boards.shape[0]):
        evaluate_board(net.w1, net.b1, net.wh, net.bh, net.w2, net.b2, net.db, boards[r],
                       work.x, work.hidden, work.scratch, out[r], net.checkers)


class NetEvaluator:
    """The networks of ``weights`` at 0-ply, the bear-off database ``db`` where it applies, for
    a game of ``checkers`` a side (the variant's: it decides who can still be gammoned)."""

    def __init__(self, weights: Weights, db: np.ndarray | None = None,
                 checkers: int = CHECKERS) -> None:
        self.weights = weights
        self.checkers = checkers
        self.net = search.make_net(weights, bearoff.database(checkers) if db is None else db,
                                   checkers)
        self._work = search.make_work(weights.hidden)

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        rows = _as_boards(boards)
        out = np.zeros((rows.shape[0], N_OUTPUTS), dtype=np.float32)
        _evaluate_rows(self.net, self._work, rows, out)
        return out


def _pip_race(board: np.ndarray) -> float:
    """A smooth guess at the win chance from the pip counts alone."""
    mine, theirs = Position(board.tolist()).pip_counts()
    return float(1.0 / (1.0 + np.exp((mine - theirs) / 25.0)))


class FakeEvaluator:
    """A stand-in for tests: ``win(board)`` gives the win chance (by default from the pip
    counts), gammons and backgammons are none, and finished games are exact.

    >>> from table import Position
    >>> FakeEvaluator().evaluate(np.array([Position.initial().board], dtype=np.int8))[0].tolist()
    [0.5, 0.0, 0.0, 0.0, 0.0]
    """

    def __init__(self, win: Callable[[np.ndarray], float] = _pip_race) -> None:
        self.win = win
        self.calls = 0  # boards judged, for tests that count them

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        rows = _as_boards(boards)
        out = np.zeros((rows.shape[0], N_OUTPUTS), dtype=np.float32)
        for r in range(rows.shape[0]):
            if not final_probs(rows[r], out[r]):
                out[r, WIN] = self.win(rows[r])
        self.calls += rows.shape[0]
        return out


def _own_or_standard(name: str) -> Callable[[int], Evaluator]:
    return lambda checkers: NetEvaluator(shipped(name), checkers=checkers)


# The shipped networks by ``Variant.weights``, made for the variant's checkers a side.
_SHIPPED: dict[str, Callable[[int], Evaluator]] = {
    "standard": lambda checkers: NetEvaluator(bundled(), checkers=checkers),
    # Hypergammon's own networks, trained by Table's self-play from its start.
    "hypergammon": lambda checkers: NetEvaluator(bundled("hypergammon"), checkers=checkers),
    # Checkers that start off the board: the folded 26-entry boards (``reserve.folded``), judged
    # by the variant's own networks once they ship, by the standard ones until then.
    **{name: _own_or_standard(name) for name in ("race", "dutch", "acey-deucey")},
}


def evaluator_for(variant: Variant | str) -> Evaluator:
    """The evaluator ``variant`` plays with (its ``weights``); ``VariantError`` if none ships."""
    found = find_variant(variant)
    make = _SHIPPED.get(found.weights)
    if make is None:
        raise VariantError(f"no evaluator ships for {found.title} (weights {found.weights!r})")
    return make(found.checkers)
