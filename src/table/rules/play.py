"""Plays: one legal way to play a roll, and the batch of them one ``legal_plays`` call makes.

``Position.legal_plays`` (``table.rules.position``) makes them; a ``Play`` reads
its steps and its position from the move generator's output only when asked.
This module imports no ``Position`` at run time: a batch asks the position it
was made from for the positions after it (``Position._after``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from table.rules.board import BOARD_SIZE, flip_rows
from table.rules.dice import Dice
from table.rules.movetext import OFF, format_steps
from table.rules.reserve import THEIR_RESERVE, flip_reserve_rows, format_reserve_steps

if TYPE_CHECKING:
    from table.rules.position import Position


def boards_after(plays: Sequence[Play]) -> np.ndarray:
    """The board after each of ``plays``, from the mover's side: one int8 row per play.

    Plays as ``legal_plays`` returned them are read straight from the move
    generator's output, without making a ``Position`` for each.

    >>> from table import Position
    >>> p = Position.initial()
    >>> plays = p.legal_plays((6, 5))
    >>> [list(row) for row in boards_after(plays)] == [list(q.position.swapped().board) for q in plays]
    True
    """
    if plays:
        batch = plays[0]._source[0]
        if (batch.boards is not None and len(batch.boards) == len(plays)
                and all(q._source[0] is batch and q._source[1] == k for k, q in enumerate(plays))):
            return batch.boards
    return np.array([q.position.swapped().board for q in plays], dtype=np.int8).reshape(len(plays), -1)


def steps_per_play(plays: Sequence[Play]) -> int:
    """How many single-die steps each of ``plays`` makes (the maximum-use rule makes them all
    equal), read from the move generator's output without writing out any play's steps.

    >>> from table import Position
    >>> steps_per_play(Position.initial().legal_plays((6, 6))), steps_per_play([])
    (4, 0)
    """
    if not plays:
        return 0
    batch = plays[0]._source[0]
    if batch.nsteps is not None:
        return int(batch.nsteps[0])
    return len(plays[0].steps)


class _Batch:
    """The kernel's output for one call of ``legal_plays``, shared by its plays.

    The arrays become Python lists for all the plays at once, the first time
    any play needs its steps or its position (one bulk conversion is much
    cheaper than one per play).  A play built whole (``Play(...)``) has a batch
    with only ``before`` and ``dice``.
    """

    __slots__ = ("before", "dice", "boards", "steps", "nsteps", "_after", "_steps", "_unread")

    def __init__(self, before: Position, dice: Dice, boards: np.ndarray | None = None,
                 steps: np.ndarray | None = None, nsteps: list[int] | None = None) -> None:
        self.before = before
        self.dice = dice
        self.boards = boards
        self.steps = steps
        self.nsteps = nsteps
        self._after: list[list[int]] | None = None
        self._steps: list[list[list[int]]] | None = None
        # Plays whose position and steps are not yet read: once every play has
        # its own copy, the bulk lists are dropped, so that kept plays do not
        # keep hundreds of small lists alive (a long-running server keeps many).
        self._unread = 2 * len(nsteps) if nsteps is not None else 0

    def position(self, k: int) -> Position:
        """The position after play ``k``, seen from the opponent."""
        if self._after is None:
            assert self.boards is not None
            # The kernel leaves the boards from the mover's side: turn them round.
            turn = flip_rows if self.boards.shape[1] == BOARD_SIZE else flip_reserve_rows
            self._after = turn(self.boards).tolist()
        after = self.before._after(tuple(self._after[k]))
        self._read()
        return after

    def play_steps(self, k: int) -> tuple[tuple[int, int], ...]:
        """The single-die steps of play ``k``."""
        if self._steps is None:
            assert self.steps is not None
            self._steps = self.steps.tolist()
        assert self.nsteps is not None
        steps = tuple((a, b) for a, b in self._steps[k][: self.nsteps[k]])
        self._read()
        return steps

    def _read(self) -> None:
        self._unread -= 1
        if self._unread == 0:
            self._after = self._steps = None


class Play:
    """One legal way to play a roll.  Immutable and hashable.

    ``steps`` are single-die moves ``(from, to)`` in playing order, with
    points numbered from the mover's side, 25 for the bar and 0 for off.
    ``position`` is the result, seen from the opponent, who is now on roll.

    >>> from table import Position
    >>> play = Position.initial().parse_play("13/7 8/7", (6, 1))
    >>> play.steps = ((13, 7),)
    Traceback (most recent call last):
    ...
    AttributeError: Play is immutable
    """

    __slots__ = ("_source", "_steps", "_position", "_hits", "_text")
    _source: tuple[_Batch, int]
    _steps: tuple[tuple[int, int], ...] | None
    _position: Position | None
    _hits: tuple[bool, ...] | None
    _text: str

    def __init__(
        self,
        before: Position,
        steps: tuple[tuple[int, int], ...],
        position: Position,
        dice: Dice,
    ) -> None:
        _PLAY_SOURCE(self, (_Batch(before, dice), -1))
        _PLAY_STEPS(self, steps)
        _PLAY_POSITION(self, position)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Play is immutable")

    @property
    def generated(self) -> bool:
        """Whether ``legal_plays`` made this play (so it is legal in ``before``), not a caller building it whole.

        >>> from table import Position
        >>> Position.initial().legal_plays((3, 1))[0].generated
        True
        """
        return self._source[1] >= 0

    @property
    def before(self) -> Position:
        """The position the play was made from (the mover on roll)."""
        return self._source[0].before

    @property
    def dice(self) -> Dice:
        """The roll played."""
        return self._source[0].dice

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        """The single-die moves ``(from, to)`` in playing order."""
        try:
            steps = self._steps
        except AttributeError:
            batch, k = self._source
            steps = batch.play_steps(k)
            _PLAY_STEPS(self, steps)
        assert steps is not None
        return steps

    @property
    def position(self) -> Position:
        """The position after the play, seen from the opponent (now on roll)."""
        try:
            position = self._position
        except AttributeError:
            batch, k = self._source
            position = batch.position(k)
            _PLAY_POSITION(self, position)
        assert position is not None
        return position

    @property
    def hits(self) -> tuple[bool, ...]:
        """For each step, whether it hit a blot."""
        try:
            hits = self._hits
        except AttributeError:
            board = list(self.before.board)
            found = []
            for src, dst in self.steps:
                board[src] -= 1
                hit = dst != OFF and board[dst] == -1
                if hit:
                    board[dst] = 0
                if dst != OFF:
                    board[dst] += 1
                found.append(hit)
            hits = tuple(found)
            _PLAY_HITS(self, hits)
        assert hits is not None
        return hits

    def hit_points(self) -> list[int]:
        """Points where this play hit a blot."""
        return [dst for (_, dst), hit in zip(self.steps, self.hits) if hit]

    def touched_points(self) -> list[int]:
        """Every point a checker left or landed on."""
        return [p for step in self.steps for p in step]

    def _mover_after(self) -> tuple[int, ...]:
        """The mover's checkers after the play (index 0 = borne off)."""
        b = self.position.board
        counts = [-b[BOARD_SIZE - 1 - i] if b[BOARD_SIZE - 1 - i] < 0 else 0
                  for i in range(BOARD_SIZE)]
        counts[OFF] = self.position.borne_off()[1]
        if len(b) > BOARD_SIZE:  # the mover's checkers still waiting, as ``_net_checkers`` counts them
            counts += [-b[THEIR_RESERVE], 0]
        return tuple(counts)

    def __str__(self) -> str:
        # Written once: a server writes each play it applies more than once (the action, the log
        # entry), and writing it was 5% of a loaded server's time.
        try:
            return self._text
        except AttributeError:
            pass
        if self.before.variant.entry == "reserve":
            text = format_reserve_steps(self.steps, self.hits, self.dice[0] == self.dice[1])
        else:
            text = format_steps(self.steps, self.hits, self.dice[0] == self.dice[1])
        _PLAY_TEXT(self, text)
        return text

    def __repr__(self) -> str:
        return f"<Play {self} with {self.dice[0]}-{self.dice[1]}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Play)
            and self.before == other.before
            and self.position == other.position
        )

    def __hash__(self) -> int:
        return hash((self.before, self.position))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Play, (self.before, self.steps, self.position, self.dice))


# Slot setters that bypass ``Play.__setattr__``: only this module fills a play in.
def _slot_setter(name: str) -> Callable[[Play, object], None]:
    descriptor: Any = Play.__dict__[name]
    setter: Callable[[Play, object], None] = descriptor.__set__
    return setter


_NEW_PLAY = Play.__new__
_PLAY_SOURCE = _slot_setter("_source")
_PLAY_STEPS = _slot_setter("_steps")
_PLAY_POSITION = _slot_setter("_position")
_PLAY_HITS = _slot_setter("_hits")
_PLAY_TEXT = _slot_setter("_text")
