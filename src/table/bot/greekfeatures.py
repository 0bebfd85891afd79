"""The networks' inputs and judgement for Plakoto and Fevga, on their own raw boards.

The Greek boards (``table.rules.greekkernel``) are not the standard board, so
they get encoders of their own; the inputs have the standard count
(``features.N_INPUTS``), so the networks, their files and the TD loop are the
standard ones (``net.Weights``, ``tools.train.selfplay``).  Each side, first the
player on roll and then the opponent, is described **by its own numbering**
(``PER_SIDE`` inputs from ``base``): four inputs for each of its points 1..24,
then ``HAND`` hand-made features.

* **Plakoto** (pins are part of the state): for each point, whether the side
  has at least one and at least two checkers on top there, a third of any
  beyond two, and whether it has a checker pinned there under the opponent's;
  then borne off, pips, its pinned checkers, its blots (a lone checker holding
  no captive), the rolls on which the other side can land on one of them (and
  pin it), checkers on its 24-point, a mother standing alone there, checkers
  home, points made, the longest run of points held, checkers in the other
  side's home.
* **Fevga** (both sides move the same way; one checker holds a point): the
  standard truncated-unary four per point; then borne off, pips, checkers on
  its 24-point, whether its first checker has passed the opponent's start,
  points held, the longest run of them, checkers home, the other side's points
  held in the six in front of the side's rearmost checker, the rolls that move
  that checker, checkers still on 13..24, and stacking beyond three.

Turning the board round swaps the two halves (``tests/bot/test_greek_bot.py``).
Which network judges: the race network once no contact is left (Plakoto: no
pin and every mover's checker past every opponent's; Fevga: every checker of
both sides on its own 1..12), the contact network before.  Finished games are
judged exactly (``outcome``): a gammon counts 2, never 3, and Plakoto's two
pinned mothers are a draw, chances ``(0.5, 0, 0, 0, 0)``.

>>> import numpy as np
>>> from table import Position
>>> x = encode_position(Position.initial("plakoto"))
>>> x.shape == (N_INPUTS,), float(x[HAND_BASE + 1]), float(x[HAND_BASE + 5])  # pips / 360; on the 24-point
(True, 1.0, 1.0)
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.bot.features import N_INPUTS, PER_SIDE, POINT_INPUTS
from table.bot.net import CONTACT, N_OUTPUTS, RACE, forward, forward2
from table.rules.greekkernel import CHECKERS, FEVGA, PINS, PLAKOTO, PLAKOTO_SIZE, rotated
from table.rules.position import Position

__all__ = ["N_INPUTS", "HAND_BASE", "encode", "encode_position", "outcome", "judge", "pick_net",
           "game_code", "pin_reach", "tidy"]

HAND_BASE = 24 * POINT_INPUTS  # where a side's hand-made features start within its half
START_PIPS = 24.0 * CHECKERS


def game_code(board_size: int) -> int:
    """``PLAKOTO`` for a 50-entry board, else ``FEVGA`` (the Python-side callers' shortcut)."""
    return PLAKOTO if board_size == PLAKOTO_SIZE else FEVGA


@njit(cache=True)
def _at(p: int, sign: int, game: int) -> int:  # pragma: no cover - compiled
    """The raw board's index of the side's own point ``p`` (``sign`` +1: the mover)."""
    if sign > 0:
        return p
    return 25 - p if game == PLAKOTO else rotated(p)


@njit(cache=True)
def _top(b: np.ndarray, p: int, sign: int, game: int) -> int:  # pragma: no cover - compiled
    """The side's checkers on top of its own point ``p``."""
    v = sign * b[_at(p, sign, game)]
    return v if v > 0 else 0


@njit(cache=True)
def _theirs(b: np.ndarray, p: int, sign: int, game: int) -> int:  # pragma: no cover - compiled
    """The other side's checkers on top of this side's own point ``p``."""
    v = -sign * b[_at(p, sign, game)]
    return v if v > 0 else 0


@njit(cache=True)
def _pinned(b: np.ndarray, p: int, sign: int) -> bool:  # pragma: no cover - compiled
    """Plakoto: the side has a checker pinned on its own point ``p``."""
    return bool(sign * b[PINS + _at(p, sign, PLAKOTO)] > 0)


@njit(cache=True)
def _captive(b: np.ndarray, p: int, sign: int) -> bool:  # pragma: no cover - compiled
    """Plakoto: the side holds an opposing checker pinned under its own point ``p``."""
    return bool(sign * b[PINS + _at(p, sign, PLAKOTO)] < 0)


@njit(cache=True)
def _closed_to_other(b: np.ndarray, p: int, sign: int) -> bool:  # pragma: no cover - compiled
    """Plakoto: the other side may not land on this side's point ``p``."""
    return _top(b, p, sign, PLAKOTO) >= 2 or _captive(b, p, sign)


@njit(cache=True)
def pin_reach(b: np.ndarray, s: int, q: int, d1: int, d2: int,
              sign: int) -> bool:  # pragma: no cover - compiled
    """Plakoto: whether the other side's checker on this side's point ``s`` lands on its point
    ``q`` (``s < q``: in this side's numbering the other side moves up) with ``d1``-``d2``,
    a combined shot touching down only on points open to it.  A feature, not a rule: the
    order of the dice and bearing off are ignored."""
    d = q - s
    if d1 == d2:
        for k in range(1, 5):
            if k * d1 == d:
                return True
            if k * d1 > d or _closed_to_other(b, s + k * d1, sign):
                return False
        return False
    if d == d1 or d == d2:
        return True
    return d == d1 + d2 and (not _closed_to_other(b, s + d1, sign)
                             or not _closed_to_other(b, s + d2, sign))


@njit(cache=True)
def _pin_rolls(b: np.ndarray, sign: int) -> int:  # pragma: no cover - compiled
    """Rolls out of 36 on which the other side can land on a blot of this side (and pin it)."""
    # The blots and the other side's points (below each blot) listed once: the rolls' loop
    # then visits only the pairs that exist (it was most of self-play's time).
    blots = np.empty(24, dtype=np.int64)
    nb = 0
    shooters = np.empty(24, dtype=np.int64)
    ns = 0
    for p in range(1, 25):
        if p >= 2 and _top(b, p, sign, PLAKOTO) == 1 and not _captive(b, p, sign):
            blots[nb] = p
            nb += 1
        if _theirs(b, p, sign, PLAKOTO) > 0:
            shooters[ns] = p
            ns += 1
    if nb == 0 or ns == 0:
        return 0
    total = 0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            hit = False
            for i in range(nb):
                q = blots[i]
                for j in range(ns):
                    s = shooters[j]
                    if s >= q:
                        break
                    if pin_reach(b, s, q, d1, d2, sign):
                        hit = True
                        break
                if hit:
                    break
            if hit:
                total += 1 if d1 == d2 else 2
    return total


@njit(cache=True)
def _plakoto_side(b: np.ndarray, sign: int, out: np.ndarray, base: int) -> None:  # pragma: no cover
    on = 0
    pips = 0
    pinned = 0
    blots = 0
    home = 0
    made = 0
    run = 0
    best_run = 0
    back = 0
    for p in range(1, 25):
        n = _top(b, p, sign, PLAKOTO)
        pin = _pinned(b, p, sign)
        j = base + (p - 1) * POINT_INPUTS
        out[j] = 1.0 if n >= 1 else 0.0
        out[j + 1] = 1.0 if n >= 2 else 0.0
        out[j + 2] = (n - 2) / 3.0 if n > 2 else 0.0
        out[j + 3] = 1.0 if pin else 0.0
        mine = n + (1 if pin else 0)
        on += mine
        pips += p * mine
        if pin:
            pinned += 1
        holds = n >= 2 or _captive(b, p, sign)
        if n == 1 and not _captive(b, p, sign):
            blots += 1
        if n >= 2:
            made += 1
        if holds:
            run += 1
            best_run = max(best_run, run)
        else:
            run = 0
        if p <= 6:
            home += mine
        if p >= 19:
            back += mine
    h = base + HAND_BASE
    out[h] = (CHECKERS - on) / CHECKERS
    out[h + 1] = pips / START_PIPS
    out[h + 2] = pinned / 3.0
    out[h + 3] = blots / 4.0
    out[h + 4] = _pin_rolls(b, sign) / 36.0
    out[h + 5] = _top(b, 24, sign, PLAKOTO) / CHECKERS
    out[h + 6] = 1.0 if _top(b, 24, sign, PLAKOTO) == 1 and not _captive(b, 24, sign) else 0.0
    out[h + 7] = home / CHECKERS
    out[h + 8] = made / 6.0
    out[h + 9] = best_run / 6.0
    out[h + 10] = back / CHECKERS


@njit(cache=True)
def _fevga_side(b: np.ndarray, sign: int, out: np.ndarray, base: int) -> None:  # pragma: no cover
    on = 0
    pips = 0
    home = 0
    held = 0
    run = 0
    best_run = 0
    far = 0
    stack = 0
    rear = 0
    low = False
    for p in range(1, 25):
        n = _top(b, p, sign, FEVGA)
        j = base + (p - 1) * POINT_INPUTS
        out[j] = 1.0 if n >= 1 else 0.0
        out[j + 1] = 1.0 if n >= 2 else 0.0
        out[j + 2] = 1.0 if n >= 3 else 0.0
        out[j + 3] = (n - 3) / 2.0 if n > 3 else 0.0
        if n > 0:
            on += n
            pips += p * n
            held += 1
            run += 1
            best_run = max(best_run, run)
            rear = p
            if p <= 6:
                home += n
            if p >= 13:
                far += n
            if p <= 11:
                low = True
            if n > 3:
                stack += n - 3
        else:
            run = 0
    # The other side's points held in the six in front of this side's rearmost checker.
    block = 0
    moves = 0
    if rear > 0:
        for p in range(max(1, rear - 6), rear):
            if _theirs(b, p, sign, FEVGA) > 0:
                block += 1
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                ok = False
                for d in (d1, d2):
                    if rear - d < 1 or _theirs(b, rear - d, sign, FEVGA) == 0:
                        ok = True
                if ok:
                    moves += 1 if d1 == d2 else 2
    h = base + HAND_BASE
    out[h] = (CHECKERS - on) / CHECKERS
    out[h + 1] = pips / START_PIPS
    out[h + 2] = _top(b, 24, sign, FEVGA) / CHECKERS
    out[h + 3] = 1.0 if low or on < CHECKERS else 0.0
    out[h + 4] = held / 12.0
    out[h + 5] = best_run / 6.0
    out[h + 6] = home / CHECKERS
    out[h + 7] = block / 6.0
    out[h + 8] = moves / 36.0
    out[h + 9] = far / CHECKERS
    out[h + 10] = stack / CHECKERS


@njit(cache=True)
def encode(board: np.ndarray, game: int, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Write the ``N_INPUTS`` inputs of a Greek ``board`` (player on roll's view) into ``out``."""
    if game == PLAKOTO:
        _plakoto_side(board, 1, out, 0)
        _plakoto_side(board, -1, out, PER_SIDE)
    else:
        _fevga_side(board, 1, out, 0)
        _fevga_side(board, -1, out, PER_SIDE)


@njit(cache=True)
def _counts(b: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """Checkers on the board (mover, opponent), pinned ones included (any Greek board)."""
    mine = 0
    theirs = 0
    for i in range(b.shape[0]):
        if b[i] > 0:
            mine += b[i]
        elif b[i] < 0:
            theirs -= b[i]
    return mine, theirs


@njit(cache=True)
def outcome(b: np.ndarray, game: int, checkers: int,
            out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """If the game is over, its exact chances for the player on roll into ``out`` and True.

    The reading of ``table.rules.plakoto``/``fevga``'s ``result``: bearing off
    first (2 for a gammon, no backgammon), then Plakoto's mother rule (a pinned
    mother loses 2, both pinned is a draw).
    """
    mine, theirs = _counts(b)
    value = 0
    over = False
    if mine == 0:
        value = 1 if theirs < checkers else 2
        over = True
    elif theirs == 0:
        value = -1 if mine < checkers else -2
        over = True
    elif game == PLAKOTO:
        my_mother = b[PINS + 24] > 0
        their_mother = b[PINS + 1] < 0
        if my_mother and their_mother:
            over = True
        elif my_mother and b[1] >= 0:
            value = -2
            over = True
        elif their_mother and b[24] <= 0:
            value = 2
            over = True
    if not over:
        return False
    for k in range(N_OUTPUTS):
        out[k] = 0.0
    if value == 0:
        out[0] = 0.5
    elif value > 0:
        out[0] = 1.0
        out[1] = 1.0 if value >= 2 else 0.0
    else:
        out[3] = 1.0 if value <= -2 else 0.0
    return True


@njit(cache=True)
def pick_net(b: np.ndarray, game: int) -> int:  # pragma: no cover - compiled
    """``RACE`` once no checker can meet another again, ``CONTACT`` before."""
    if game == PLAKOTO:
        for p in range(1, 25):
            if b[PINS + p] != 0:
                return CONTACT
        my_back = 0
        their_back = 25
        for p in range(1, 25):
            if b[p] > 0:
                my_back = p
        for p in range(24, 0, -1):
            if b[p] < 0:
                their_back = p
        return RACE if my_back < their_back else CONTACT
    for p in range(13, 25):
        if b[p] > 0 or b[rotated(p)] < 0:
            return CONTACT
    return RACE


@njit(cache=True)
def tidy(b: np.ndarray, p: np.ndarray, checkers: int) -> None:  # pragma: no cover - compiled
    """Consistent chances, in place: no backgammons (a gammon counts 2), none where impossible."""
    mine, theirs = _counts(b)
    p[2] = 0.0
    p[4] = 0.0
    if mine < checkers:
        p[3] = 0.0
    if theirs < checkers:
        p[1] = 0.0
    if p[1] > p[0]:
        p[1] = p[0]
    if p[3] > 1.0 - p[0]:
        p[3] = 1.0 - p[0]


@njit(cache=True)
def judge(w1: np.ndarray, b1: np.ndarray, wh: np.ndarray, bh: np.ndarray, w2: np.ndarray,
          b2: np.ndarray, board: np.ndarray, game: int, x: np.ndarray, hidden: np.ndarray,
          out: np.ndarray, checkers: int) -> int:  # pragma: no cover - compiled
    """Tidy chances of a Greek ``board`` for the player on roll; the network used, -1 if over."""
    if outcome(board, game, checkers, out):
        return -1
    net = pick_net(board, game)
    encode(board, game, x)
    if wh.shape[2] == 0:
        forward(w1, b1, w2, b2, net, x, hidden, out)
    else:
        forward2(w1, b1, wh, bh, w2, b2, net, x, hidden, out)
    tidy(board, out, checkers)
    return net


def encode_position(position: Position) -> np.ndarray:
    """The network inputs of a Plakoto or Fevga ``position`` as a new ``float32`` array."""
    board = np.array(position.board, dtype=np.int8)
    out = np.zeros(N_INPUTS, dtype=np.float32)
    encode(board, game_code(board.shape[0]), out)
    return out
