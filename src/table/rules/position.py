"""Positions and plays: the value objects of the rules.

A ``Position`` is the board seen from the player on roll.  ``legal_plays``
gives every distinct way to play a roll; each ``Play`` knows its steps, its
notation and the position after it, seen from the opponent, who is then on
roll.

>>> p = Position.initial()
>>> p.id
'4HPwATDgc/ABMA'
>>> plays = p.legal_plays((3, 1))
>>> len(plays)
16
>>> play = p.parse_play("8/5 6/5", (3, 1))
>>> play.steps
((8, 5), (6, 5))
>>> play.position.id
'sGfwATDgc/ABMA'
>>> p.pip_counts()
(167, 167)
"""

from __future__ import annotations

from collections import deque
from itertools import repeat
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from table.errors import IllegalPlayError, PositionError
from table.rules import kernel
from table.rules.dice import Dice, as_dice
from table.rules.movetext import BAR, OFF, Segment, format_steps, parse_move_text
from table.rules.posid import decode_position_id, encode_position_id

_START = {24: 2, 13: 5, 8: 3, 6: 5}


class _Buffers:
    """Output arrays for the kernel, allocated once per process."""

    def __init__(self) -> None:
        self.hashes = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
        self.boards = np.empty((kernel.MAX_PLAYS, kernel.BOARD_SIZE), dtype=np.int8)
        self.steps = np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8)
        self.nsteps = np.empty(kernel.MAX_PLAYS, dtype=np.int8)


_BUF = _Buffers()

# Every roll as a pair: the common argument of ``legal_plays``.
_ROLLS = frozenset((a, b) for a in range(1, 7) for b in range(1, 7))


class Position:
    """A backgammon position, seen from the player on roll.  Immutable and hashable.

    ``board`` is 26 numbers: ``board[1..24]`` are the mover's points 1..24,
    positive for the mover's checkers and negative for the opponent's;
    ``board[25]`` is the mover's bar and ``board[0]`` the opponent's bar as a
    negative count.  Checkers not on the board have been borne off.
    """

    __slots__ = ("_board", "_id", "_raw")
    _board: tuple[int, ...]
    _id: str | None
    _raw: np.ndarray | None  # the board as the kernel takes it; None once the game is over

    def __init__(self, board: Iterable[int]) -> None:
        values = tuple(board)
        _validate(values)
        object.__setattr__(self, "_board", values)
        object.__setattr__(self, "_id", None)

    @classmethod
    def _trusted(cls, board: tuple[int, ...]) -> Position:
        """Build from a board the kernel produced, skipping validation."""
        self = object.__new__(cls)
        object.__setattr__(self, "_board", board)
        object.__setattr__(self, "_id", None)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # Construction -----------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The starting position: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6."""
        return cls.from_checkers(_START, _START)

    @classmethod
    def from_checkers(
        cls, mover: Mapping[int, int], opponent: Mapping[int, int]
    ) -> Position:
        """Build from each side's checkers, keyed by that side's own point numbers.

        Keys are 1..24, or 25 for the bar; checkers not listed are borne off.

        >>> Position.from_checkers({6: 2}, {1: 1, 25: 1}).board[:7]
        (-1, 0, 0, 0, 0, 0, 2)
        """
        board = [0] * kernel.BOARD_SIZE
        for side, checkers in ((1, mover), (-1, opponent)):
            for point, n in checkers.items():
                if not isinstance(point, int) or not 1 <= point <= 25:
                    raise PositionError(f"point {point!r} does not exist: use 1-24, or 25 for the bar")
                if not isinstance(n, int) or n < 0:
                    raise PositionError(f"checker count {n!r} on point {point} is not a count")
                index = point if side == 1 else 25 - point
                if board[index] and n:
                    raise PositionError(
                        f"both sides have checkers on the mover's point {index}"
                    )
                if n:
                    board[index] = side * n
        return cls(board)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Read a GNU Backgammon Position ID; ``PositionIdError`` if malformed."""
        return cls._trusted(decode_position_id(position_id))

    # Views --------------------------------------------------------------------

    @property
    def board(self) -> tuple[int, ...]:
        """The 26 raw numbers described in the class docstring."""
        return self._board

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID."""
        if self._id is None:
            object.__setattr__(self, "_id", encode_position_id(self._board))
        assert self._id is not None
        return self._id

    def checkers(self, mover: bool = True) -> dict[int, int]:
        """One side's checkers by its own point numbers (25 = bar), as ``from_checkers`` takes."""
        b = self._board
        if mover:
            pts = {p: b[p] for p in range(1, 26) if b[p] > 0}
        else:
            pts = {25 - i: -b[i] for i in range(0, 25) if b[i] < 0}
        return pts

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        b = self._board
        mine = sum(n for n in b[1:] if n > 0)
        theirs = -sum(n for n in b[:25] if n < 0)
        return (kernel.CHECKERS - mine, kernel.CHECKERS - theirs)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each side needs to bear off everything: (player on roll, opponent)."""
        b = self._board
        mine = sum(b[i] * i for i in range(1, 26) if b[i] > 0)
        theirs = sum(-b[i] * (25 - i) for i in range(0, 25) if b[i] < 0)
        return (mine, theirs)

    def swapped(self) -> Position:
        """The same board with the other side on roll."""
        b = self._board
        return Position._trusted(tuple(-b[25 - i] for i in range(kernel.BOARD_SIZE)))

    def is_race(self) -> bool:
        """True when no contact is left: every mover's checker is past every opponent's."""
        b = self._board
        my_back = max((i for i in range(1, 26) if b[i] > 0), default=0)
        their_back = min((i for i in range(0, 25) if b[i] < 0), default=25)
        return my_back < their_back

    def result(self) -> int:
        """The game's value if it is over, from the player on roll's side, else 0.

        +1, +2 or +3 if the player on roll has borne off all checkers (a single
        game, gammon or backgammon); -1, -2 or -3 if the opponent has.

        >>> Position.from_checkers({}, {6: 1}).result()
        1
        >>> Position.from_checkers({1: 15}, {}).result()
        -2
        >>> Position.from_checkers({20: 1, 3: 14}, {}).result()
        -3
        """
        off_me, off_them = self.borne_off()
        b = self._board
        if off_me == kernel.CHECKERS:
            if off_them:
                return 1
            # A loser's checker on the bar or in the winner's home board is a backgammon.
            back = any(b[i] < 0 for i in range(0, 7))
            return 3 if back else 2
        if off_them == kernel.CHECKERS:
            if off_me:
                return -1
            back = b[25] > 0 or any(b[i] > 0 for i in range(19, 25))
            return -3 if back else -2
        return 0

    @property
    def is_game_over(self) -> bool:
        """True once a side has borne off all 15 checkers."""
        return self.result() != 0

    # Plays --------------------------------------------------------------------

    def legal_plays(self, dice: Sequence[int] | str) -> list[Play]:
        """Every legal play of ``dice``: one per distinct resulting position.

        ``dice`` is a pair such as ``(3, 1)`` or text such as ``"31"`` or
        ``"3-1"``; anything else raises ``DiceError`` saying what is wrong.
        Returns ``[]`` when nothing can be played (or the game is over).

        >>> len(Position.initial().legal_plays("3-1"))
        16
        """
        if (dice.__class__ is tuple and dice in _ROLLS
                and dice[0].__class__ is int and dice[1].__class__ is int):
            roll = dice  # the common case, checked at once
        else:
            roll = as_dice(dice)
        try:
            raw = self._raw
        except AttributeError:  # the first question asked of this position
            b = self._board
            # The game is over once a side has no checker left (cheaper than ``result()``).
            raw = None if max(b) <= 0 or min(b) >= 0 else np.array(b, dtype=np.int8)
            object.__setattr__(self, "_raw", raw)
        if raw is None:
            return []
        buf = _BUF
        n = kernel.generate(raw, roll[0], roll[1], buf.hashes, buf.boards, buf.steps, buf.nsteps)
        if n < 0:  # pragma: no cover - no real position has this many plays
            raise RuntimeError("more legal plays than the generator has room for")
        # The kernel's buffers are reused by the next call: keep a copy that the
        # plays share, and build each play's steps and position only when asked.
        batch = _Batch(self, (roll[0], roll[1]), buf.boards[:n].copy(), buf.steps[:n].copy(),
                       buf.nsteps[:n].tolist())
        # Made and filled in by C-level calls, not a Python loop: this is the hot path.
        plays: list[Play] = list(map(_NEW_PLAY, repeat(Play, n)))
        deque(map(_PLAY_SOURCE, plays, zip(repeat(batch, n), range(n))), maxlen=0)
        return plays

    def parse_play(self, text: str, dice: Sequence[int] | str) -> Play:
        """The legal play that ``text`` (standard notation) describes for ``dice``.

        Raises ``NotationError`` when the text cannot be read and
        ``IllegalPlayError`` saying why when it is not a legal play.

        >>> str(Position.initial().parse_play("24/13", (6, 5)))
        '24/13'
        """
        roll = as_dice(dice)
        segments = parse_move_text(text)
        plays = self.legal_plays(roll)
        dice_text = f"{roll[0]}-{roll[1]}"
        if not plays:
            raise IllegalPlayError(f"no move is possible with {dice_text}: the turn passes")
        target, problem = self._net_checkers(segments)
        candidates = [p for p in plays if p._mover_after() == target] if problem is None else []
        if not candidates:
            raise IllegalPlayError(f"{text.strip()!r} is not legal with {dice_text}: "
                                   + (problem or self._why_illegal(segments, plays)))
        if len(candidates) > 1:
            candidates = _narrow(candidates, segments)
        if len(candidates) > 1:
            options = " or ".join(sorted(str(p) for p in candidates))
            raise IllegalPlayError(f"{text.strip()!r} is ambiguous with {dice_text}: did you mean {options}?")
        play = candidates[0]
        for seg in segments:
            if seg.hit and seg.dst not in play.hit_points():
                raise IllegalPlayError(
                    f"{text.strip()!r} marks a hit on {seg.dst}, but that play hits nothing there"
                )
        return play

    def _net_checkers(self, segments: list[Segment]) -> tuple[tuple[int, ...], str | None]:
        """The mover's checkers (index 0 = off) after the segments, or a problem."""
        counts = [max(n, 0) for n in self._board]
        counts[OFF] = self.borne_off()[0]
        for seg in segments:
            counts[seg.src] -= 1
            counts[seg.dst] += 1
        for seg in segments:
            if counts[seg.src] < 0:
                where = "on the bar" if seg.src == BAR else f"on point {seg.src}"
                return (), f"you have no checker {where} to move"
        return tuple(counts), None

    def _why_illegal(self, segments: list[Segment], plays: list[Play]) -> str:
        b = self._board
        if b[BAR] > 0 and all(seg.src != BAR for seg in segments):
            return f"you have {b[BAR]} checker(s) on the bar and must enter first"
        for seg in segments:
            if 1 <= seg.dst <= 24 and b[seg.dst] <= -2:
                return f"point {seg.dst} is closed: your opponent holds it"
        if any(seg.dst == OFF for seg in segments) and any(b[i] > 0 for i in range(7, 26)):
            return "you may bear off only when all your checkers are in your home board"
        used = max(len(p.steps) for p in plays)
        example = plays[0]
        return (
            f"the moves do not fit the roll; a legal play uses {used} "
            f"{'die' if used == 1 else 'dice'}, for example {example}"
        )

    # Dunder -------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._board == other._board

    def __hash__(self) -> int:
        return hash(self._board)

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r})"

    def __str__(self) -> str:
        """The text board of ``table.rules.diagram``, with pip counts and the Position ID."""
        # Imported here: the diagram module builds on this one.
        from table.rules.diagram import render

        return render(self)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Position.from_id, (self.id,))


def _narrow(candidates: list[Play], segments: list[Segment]) -> list[Play]:
    """Choose among plays that move checkers the same way, using hits and named points."""
    marked = {seg.dst for seg in segments if seg.hit}
    named = {seg.dst for seg in segments} | {seg.src for seg in segments}
    kept = [p for p in candidates if marked <= set(p.hit_points())]
    # Named intermediate points must be landed on.
    kept = [p for p in kept if named - {BAR, OFF} <= set(p.touched_points())] or kept
    # Standard notation marks every hit, so prefer the play that hits exactly
    # where the text says (nowhere, if it marks none).
    return [p for p in kept if set(p.hit_points()) == marked] or kept


def _validate(board: tuple[int, ...]) -> None:
    if len(board) != kernel.BOARD_SIZE:
        raise PositionError(f"a board has {kernel.BOARD_SIZE} entries, got {len(board)}")
    for i, n in enumerate(board):
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise PositionError(f"board entry {i} is {n!r}, not a whole number")
    if board[BAR] < 0:
        raise PositionError("the mover's bar (entry 25) cannot be negative")
    if board[OFF] > 0:
        raise PositionError("the opponent's bar (entry 0) is written as a negative count")
    mine = sum(n for n in board if n > 0)
    theirs = -sum(n for n in board if n < 0)
    for who, total in (("player on roll", mine), ("opponent", theirs)):
        if total > kernel.CHECKERS:
            raise PositionError(f"the {who} has {total} checkers; at most 15 are allowed")


def boards_after(plays: Sequence[Play]) -> np.ndarray:
    """The board after each of ``plays``, from the mover's side: one int8 row per play.

    Plays as ``legal_plays`` returned them are read straight from the move
    generator's output, without making a ``Position`` for each.

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
            self._after = (-self.boards[:, ::-1]).tolist()
        after = Position._trusted(tuple(self._after[k]))
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

    >>> play = Position.initial().parse_play("13/7 8/7", (6, 1))
    >>> play.steps = ((13, 7),)
    Traceback (most recent call last):
    ...
    AttributeError: Play is immutable
    """

    __slots__ = ("_source", "_steps", "_position", "_hits")
    _source: tuple[_Batch, int]
    _steps: tuple[tuple[int, int], ...] | None
    _position: Position | None
    _hits: tuple[bool, ...] | None

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
        counts = [-b[kernel.BOARD_SIZE - 1 - i] if b[kernel.BOARD_SIZE - 1 - i] < 0 else 0
                  for i in range(kernel.BOARD_SIZE)]
        counts[OFF] = self.position.borne_off()[1]
        return tuple(counts)

    def __str__(self) -> str:
        return format_steps(self.steps, self.hits, self.dice[0] == self.dice[1])

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
