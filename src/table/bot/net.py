"""The evaluation networks: weights, loading and saving, and the compiled forward pass.

Two networks share one shape: index ``CONTACT`` for positions with contact and
``RACE`` for pure races.  Each maps the inputs of ``table.bot.features`` through
one or two sigmoid hidden layers to five sigmoid outputs, seen from the player
on roll: win, win a gammon, win a backgammon, lose a gammon, lose a backgammon
(each unconditional, so a gammon counts as a win too).

Weights are plain ``.npz`` files holding ``w1`` (2, inputs, hidden), ``b1``
(2, hidden), ``w2`` (2, last hidden, 5), ``b2`` (2, 5) and a few counters; a
second hidden layer adds ``wh`` (2, hidden, hidden2) and ``bh`` (2, hidden2)
(format 2).  The second layer fitted the networks' own look-ahead 5% better
than one layer of any width did (docs/strength.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, features
from table.errors import TableError
from table.rules.board import CHECKERS, checkers_on, game_value, is_race

CONTACT = 0
RACE = 1
EXACT = 2  # not a network: the bear-off database
N_OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
FORMAT_VERSION = 2  # 2: an optional second hidden layer; format 1 files are read too


class WeightsError(TableError):
    """A weights file that is missing, unreadable or of the wrong shape."""


@dataclass
class Weights:
    """Both networks' parameters plus how much training produced them."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    games: int = 0
    meta: dict[str, str] = field(default_factory=dict)
    wh: np.ndarray | None = None  # the second hidden layer, if any
    bh: np.ndarray | None = None

    @property
    def hidden(self) -> int:
        """Units in the (first) hidden layer."""
        return int(self.w1.shape[2])

    @property
    def hidden2(self) -> int:
        """Units in the second hidden layer; 0 when there is one.

        >>> Weights.random(4, 0).hidden2
        0
        >>> Weights.random(4, 0).deepened(3, 1).hidden2
        3
        """
        return 0 if self.wh is None else int(self.wh.shape[2])

    def second_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """``(wh, bh)``, empty arrays (no units) when there is one hidden layer."""
        if self.wh is None or self.bh is None:
            return (np.zeros((2, self.hidden, 0), np.float32), np.zeros((2, 0), np.float32))
        return self.wh, self.bh

    def deepened(self, hidden2: int, seed: int) -> Weights:
        """The same first layer, then a new second hidden layer of ``hidden2`` units.

        The second layer and the output layer start random, so the networks must
        be fitted again (``table refine --hidden2``); the first layer's features
        are kept, which is what made the fit start well.
        """
        if self.wh is not None:
            raise WeightsError("these networks already have two hidden layers")
        if hidden2 < 1:
            raise WeightsError(f"a second hidden layer needs at least one unit, not {hidden2}")
        rng = np.random.default_rng(seed)
        h1 = self.hidden
        wh = (rng.standard_normal((2, h1, hidden2)) * np.sqrt(1.0 / h1)).astype(np.float32)
        w2 = (rng.standard_normal((2, hidden2, N_OUTPUTS)) * np.sqrt(1.0 / hidden2)).astype(np.float32)
        return Weights(self.w1.copy(), self.b1.copy(), w2, np.zeros((2, N_OUTPUTS), np.float32),
                       self.games, dict(self.meta), wh, np.zeros((2, hidden2), np.float32))

    @classmethod
    def random(cls, hidden: int, seed: int) -> Weights:
        """Small random weights: the starting point of self-play training."""
        rng = np.random.default_rng(seed)
        ni = features.N_INPUTS
        w1 = rng.uniform(-0.1, 0.1, size=(2, ni, hidden)).astype(np.float32)
        w2 = rng.uniform(-0.1, 0.1, size=(2, hidden, N_OUTPUTS)).astype(np.float32)
        return cls(w1, np.zeros((2, hidden), np.float32), w2, np.zeros((2, N_OUTPUTS), np.float32))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Weights:
        """Read a ``.npz`` weights file; ``WeightsError`` saying what is wrong."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError) as exc:
            raise WeightsError(f"cannot read weights file {str(path)!r}: {exc}") from None
        version = int(arrays["version"]) if "version" in arrays else FORMAT_VERSION
        if version not in (1, FORMAT_VERSION):
            raise WeightsError(f"weights file {str(path)!r} is format {version}; "
                               f"this Table reads formats 1 and {FORMAT_VERSION}")
        for key in ("w1", "b1", "w2", "b2"):
            if key not in arrays:
                raise WeightsError(f"weights file {str(path)!r} has no array {key!r}")
        w1 = arrays["w1"].astype(np.float32)
        hidden = w1.shape[-1] if w1.ndim == 3 else -1
        expected = {
            "w1": (2, features.N_INPUTS, hidden),
            "b1": (2, hidden),
            "w2": (2, hidden, N_OUTPUTS),
            "b2": (2, N_OUTPUTS),
        }
        if ("wh" in arrays) != ("bh" in arrays):
            raise WeightsError(f"weights file {str(path)!r} has only half of a second layer")
        if "wh" in arrays:
            wh = arrays["wh"]
            hidden2 = wh.shape[2] if wh.ndim == 3 else -1
            expected.update(wh=(2, hidden, hidden2), bh=(2, hidden2), w2=(2, hidden2, N_OUTPUTS))
        for key, shape in expected.items():
            if arrays[key].shape != shape:
                raise WeightsError(
                    f"weights file {str(path)!r}: {key} has shape {arrays[key].shape}, expected {shape}"
                )
        meta = {}
        if "meta" in arrays:
            for line in str(arrays["meta"]).splitlines():
                k, _, v = line.partition("=")
                meta[k] = v
        games = int(arrays["games"]) if "games" in arrays else 0
        return cls(
            np.ascontiguousarray(w1),
            np.ascontiguousarray(arrays["b1"], dtype=np.float32),
            np.ascontiguousarray(arrays["w2"], dtype=np.float32),
            np.ascontiguousarray(arrays["b2"], dtype=np.float32),
            games,
            meta,
            np.ascontiguousarray(arrays["wh"], dtype=np.float32) if "wh" in arrays else None,
            np.ascontiguousarray(arrays["bh"], dtype=np.float32) if "bh" in arrays else None,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (a reader never sees half a file)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        meta = "\n".join(f"{k}={v}" for k, v in sorted(self.meta.items()))
        arrays: dict[str, Any] = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}
        if self.wh is not None and self.bh is not None:
            arrays.update(wh=self.wh, bh=self.bh)
        # One-layer files stay format 1, so that older copies of Table still read them.
        version = FORMAT_VERSION if "wh" in arrays else 1
        np.savez_compressed(tmp, **arrays, games=np.int64(self.games),
                            version=np.int64(version), meta=np.str_(meta))
        os.replace(tmp, path)

    def widened(self, hidden: int, seed: int, hidden2: int | None = None) -> Weights:
        """The same networks with more hidden units; the new units start silent.

        New units get small random input weights and zero output weights, so
        the widened networks judge every position exactly as before.  ``hidden2``
        widens the second hidden layer of two-layer networks the same way.

        >>> w = Weights.random(4, 0)
        >>> w.widened(6, 1).hidden
        6
        >>> d = w.deepened(3, 1).widened(8, 2, hidden2=5)
        >>> (d.hidden, d.hidden2)
        (8, 5)
        """
        if hidden < self.hidden:
            raise WeightsError(f"cannot narrow {self.hidden} hidden units to {hidden}")
        if hidden2 is not None and (self.wh is None or hidden2 < self.hidden2):
            raise WeightsError(f"cannot make a second hidden layer of {self.hidden2} units "
                               f"into {hidden2} by widening")
        extra = hidden - self.hidden
        rng = np.random.default_rng(seed)
        new_in = rng.uniform(-0.1, 0.1, size=(2, features.N_INPUTS, extra)).astype(np.float32)
        w1 = np.ascontiguousarray(np.concatenate([self.w1, new_in], axis=2))
        b1 = np.concatenate([self.b1, np.zeros((2, extra), np.float32)], axis=1)
        if self.wh is None or self.bh is None:
            w2 = np.ascontiguousarray(
                np.concatenate([self.w2, np.zeros((2, extra, N_OUTPUTS), np.float32)], axis=1))
            return Weights(w1, b1, w2, self.b2.copy(), self.games, dict(self.meta))
        # The new first-layer units feed the second layer with zero weights.
        wh = np.concatenate([self.wh, np.zeros((2, extra, self.hidden2), np.float32)], axis=1)
        extra2 = (hidden2 or self.hidden2) - self.hidden2
        new_h = (rng.standard_normal((2, hidden, extra2)) * 0.1 * np.sqrt(1.0 / hidden))
        wh = np.ascontiguousarray(np.concatenate([wh, new_h.astype(np.float32)], axis=2))
        bh = np.concatenate([self.bh, np.zeros((2, extra2), np.float32)], axis=1)
        w2 = np.ascontiguousarray(
            np.concatenate([self.w2, np.zeros((2, extra2, N_OUTPUTS), np.float32)], axis=1))
        return Weights(w1, b1, w2, self.b2.copy(), self.games, dict(self.meta), wh, bh)

    def copy(self) -> Weights:
        """An independent copy (training mutates arrays in place)."""
        return Weights(self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(),
                       self.games, dict(self.meta),
                       None if self.wh is None else self.wh.copy(),
                       None if self.bh is None else self.bh.copy())


@njit(cache=True, fastmath=True, error_model="numpy", inline="always")
def sigmoid(v: float) -> float:  # pragma: no cover - compiled
    """The logistic function, written so that a loop of it compiles to vector instructions.

    ``np.exp`` is a call per element that no loop vectorises, and it was
    about 40% of a two-layer network's time.  Here exp(-v) is a Taylor
    polynomial of -v/64 squared six times, in double precision: within
    1e-7 of the exact value (float32's own rounding); |v| is clamped at 30,
    where 1 - sigmoid already rounds to 1 in float32.  Callers compile with ``error_model="numpy"``:
    numba's default checks every division for zero, and that branch alone
    keeps a loop scalar.

    >>> round(float(sigmoid(0.0)), 6), round(float(sigmoid(2.0)), 6)
    (0.5, 0.880797)
    """
    y = -v * (1.0 / 64.0)
    y = min(max(y, -30.0 / 64.0), 30.0 / 64.0)
    p = 1.0 + y * (1.0 + y * (1.0 / 2 + y * (1.0 / 6 + y * (1.0 / 24 + y * (
        1.0 / 120 + y * (1.0 / 720 + y * (1.0 / 5040 + y * (1.0 / 40320 + y * (1.0 / 362880)))))))))
    p = p * p
    p = p * p
    p = p * p
    p = p * p
    p = p * p
    p = p * p
    return 1.0 / (1.0 + p)


@njit(cache=True, fastmath=True, error_model="numpy", inline="always")
def _first_layer(w1: np.ndarray, b1: np.ndarray, net: int, x: np.ndarray,
                 hidden: np.ndarray) -> int:  # pragma: no cover - compiled
    """The first hidden layer's activations into ``hidden``; returns its size.

    Most inputs are zero, so only the rows of nonzero inputs are added.
    """
    nh: int = b1.shape[1]
    for j in range(nh):
        hidden[j] = b1[net, j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(nh):
                hidden[j] += xi * w1[net, i, j]
    for j in range(nh):
        hidden[j] = sigmoid(hidden[j])
    return nh


@njit(cache=True, fastmath=True, error_model="numpy")
def forward(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
    net: int, x: np.ndarray, hidden: np.ndarray, out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """One position's raw outputs; ``hidden`` receives the hidden activations."""
    nh = _first_layer(w1, b1, net, x, hidden)
    # The output layer walks ``w2`` in memory order (unit by unit, five outputs each):
    # summing one output at a time strides through it and cost as much as the hidden layer.
    s0 = b2[net, 0]
    s1 = b2[net, 1]
    s2 = b2[net, 2]
    s3 = b2[net, 3]
    s4 = b2[net, 4]
    for j in range(nh):
        hj = hidden[j]
        s0 += hj * w2[net, j, 0]
        s1 += hj * w2[net, j, 1]
        s2 += hj * w2[net, j, 2]
        s3 += hj * w2[net, j, 3]
        s4 += hj * w2[net, j, 4]
    out[0] = sigmoid(s0)
    out[1] = sigmoid(s1)
    out[2] = sigmoid(s2)
    out[3] = sigmoid(s3)
    out[4] = sigmoid(s4)


@njit(cache=True, fastmath=True, error_model="numpy")
def forward2(
    w1: np.ndarray, b1: np.ndarray, wh: np.ndarray, bh: np.ndarray, w2: np.ndarray,
    b2: np.ndarray, net: int, x: np.ndarray, hidden: np.ndarray, out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """``forward`` for networks with a second hidden layer ``wh``, ``bh``.

    The second layer's few activations are allocated here: measured, that
    costs nothing visible, and spares every caller's scratch arrays a size.
    """
    nh = _first_layer(w1, b1, net, x, hidden)
    n2 = bh.shape[1]
    h2 = np.empty(n2, dtype=np.float32)
    for k in range(n2):
        h2[k] = bh[net, k]
    for j in range(nh):
        hj = hidden[j]
        for k in range(n2):
            h2[k] += hj * wh[net, j, k]
    for k in range(n2):
        h2[k] = sigmoid(h2[k])
    for o in range(N_OUTPUTS):
        s = b2[net, o]
        for k in range(n2):
            s += h2[k] * w2[net, k, o]
        out[o] = sigmoid(s)


@njit(cache=True)
def tidy(board: np.ndarray, p: np.ndarray, checkers: int = CHECKERS) -> None:  # pragma: no cover
    """Make raw outputs consistent, in place: ordered, and zero where impossible.

    A side that has borne off a checker (of the ``checkers`` each started
    with: the variant's) can no longer be gammoned.
    """
    mine_on, theirs_on = checkers_on(board)
    if mine_on < checkers:
        p[LOSE_GAMMON] = 0.0
        p[LOSE_BACKGAMMON] = 0.0
    if theirs_on < checkers:
        p[WIN_GAMMON] = 0.0
        p[WIN_BACKGAMMON] = 0.0
    if p[WIN_GAMMON] > p[WIN]:
        p[WIN_GAMMON] = p[WIN]
    if p[WIN_BACKGAMMON] > p[WIN_GAMMON]:
        p[WIN_BACKGAMMON] = p[WIN_GAMMON]
    if p[LOSE_GAMMON] > 1.0 - p[WIN]:
        p[LOSE_GAMMON] = 1.0 - p[WIN]
    if p[LOSE_BACKGAMMON] > p[LOSE_GAMMON]:
        p[LOSE_BACKGAMMON] = p[LOSE_GAMMON]


@njit(cache=True)
def equity(p: np.ndarray) -> float:  # pragma: no cover - compiled
    """Cubeless money equity of five probabilities, for the side they are seen from."""
    return float(2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4])


@njit(cache=True)
def flip_probs(p: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """The same probabilities seen from the other side."""
    w = p[0]
    wg = p[1]
    wb = p[2]
    out[0] = 1.0 - w
    out[1] = p[3]
    out[2] = p[4]
    out[3] = wg
    out[4] = wb


@njit(cache=True)
def final_probs(board: np.ndarray, out: np.ndarray,
                checkers: int = CHECKERS) -> bool:  # pragma: no cover - compiled
    """If the game is over, write its exact outcome for the player on roll and return True.

    A finished game is always lost by the player on roll: the opponent bore off
    last.  ``checkers`` is each side's count at the start (the variant's).
    """
    mine_on, theirs_on = checkers_on(board)
    if theirs_on > 0:
        return False
    value = game_value(board, mine_on, theirs_on, checkers)
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 0.0
    out[3] = 1.0 if value <= -2 else 0.0
    out[4] = 1.0 if value <= -3 else 0.0
    return True


@njit(cache=True)
def evaluate_board(
    w1: np.ndarray, b1: np.ndarray, wh: np.ndarray, bh: np.ndarray, w2: np.ndarray,
    b2: np.ndarray, db: np.ndarray,
    board: np.ndarray, x: np.ndarray, hidden: np.ndarray, scratch: np.ndarray, out: np.ndarray,
    checkers: int = CHECKERS,
) -> int:  # pragma: no cover - compiled
    """Tidy probabilities of ``board`` for the player on roll.

    Returns the network used, -1 when the game is over (exact result) or
    ``EXACT`` when the bear-off database ``db`` gave exact chances.  Each side
    started with ``checkers`` (the variant's; ``db`` must be built for them).
    """
    if final_probs(board, out, checkers):
        return -1
    if bearoff.applies(db, board):
        bearoff.probabilities(db, board, out, checkers)
        return EXACT
    if is_race(board):
        if bearoff.equivalent_differs(db, board):
            # A home side is judged as its bear-off class's representative, so that
            # boards with the same roll distributions get the same chances.
            same = np.empty(26, dtype=np.int8)
            bearoff.canonical_into(db, board, same)
            _judge(w1, b1, wh, bh, w2, b2, RACE, same, x, hidden, scratch, out, checkers)
        else:
            _judge(w1, b1, wh, bh, w2, b2, RACE, board, x, hidden, scratch, out, checkers)
        return RACE
    _judge(w1, b1, wh, bh, w2, b2, CONTACT, board, x, hidden, scratch, out, checkers)
    return CONTACT


@njit(cache=True)
def _judge(
    w1: np.ndarray, b1: np.ndarray, wh: np.ndarray, bh: np.ndarray, w2: np.ndarray,
    b2: np.ndarray, net: int, board: np.ndarray, x: np.ndarray, hidden: np.ndarray,
    scratch: np.ndarray, out: np.ndarray, checkers: int,
) -> None:  # pragma: no cover - compiled
    """The network ``net``'s tidy chances for ``board``."""
    features.encode(board, x, scratch)
    if wh.shape[2] == 0:
        forward(w1, b1, w2, b2, net, x, hidden, out)
    else:
        forward2(w1, b1, wh, bh, w2, b2, net, x, hidden, out)
    tidy(board, out, checkers)


_WEIGHTS = Path(__file__).with_name("weights")
_BUNDLED = _WEIGHTS / "table.npz"


def bundled_path(name: str = "standard") -> Path:
    """Where the shipped weights ``name`` (a ``Variant.weights``) live inside the package."""
    return _BUNDLED if name == "standard" else _WEIGHTS / f"{name}.npz"


_cache: dict[str, Weights] = {}


def shipped(name: str = "standard") -> Weights:
    """The networks a variant whose ``Variant.weights`` is ``name`` plays with: its own when
    ``bot/weights/<name>.npz`` ships, else the standard networks (Race, Dutch and Acey-Deucey
    play them on the folded board until their own are ahead of them: docs/strength.md).

    >>> shipped("no-such-variant") is bundled()
    True
    """
    return bundled(name if bundled_path(name).exists() else "standard")


def bundled(name: str = "standard") -> Weights:
    """The shipped weights ``name`` (standard backgammon's by default), loaded once per process."""
    path = bundled_path(name)
    key = str(path)
    if key not in _cache:
        if not path.exists():
            raise WeightsError(f"the bundled weights {key!r} are missing from the package")
        _cache[key] = Weights.load(path)
    return _cache[key]
