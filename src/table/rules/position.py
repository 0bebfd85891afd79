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
from typing import Iterable, Mapping, Sequence

import numpy as np

from table.errors import IllegalPlayError, PositionError, PositionIdError, VariantError
from table.rules import kernel
from table.rules.board import BOARD_SIZE, checkers_on, flip, game_value, is_race
from table.rules.dice import as_dice
from table.rules.greek import GreekGame, game_for
from table.rules.movetext import BAR, OFF, Segment, parse_move_text
from table.rules.play import _NEW_PLAY, _PLAY_HITS, _PLAY_POSITION, _PLAY_SOURCE, _PLAY_STEPS, Play, _Batch
from table.rules.play import boards_after as boards_after  # part of this module's API
from table.rules.posid import decode_position_id, encode_position_id
from table.rules.reserve import (RESERVE, RESERVE_BOARD_SIZE, THEIR_RESERVE, decode_reserve_id,
                                 encode_reserve_id, folded, parse_reserve_text)
from table.rules.reservekernel import Outputs, flip_reserve, generate_reserve
from table.rules.variant import ENGINE_ONLY, STANDARD, VARIANTS, Variant, find_variant

__all__ = ["Position", "Play", "boards_after"]

# The board's rules, as the Python functions numba compiles (one source for both).
_FLIP = flip.py_func
_IS_RACE = is_race.py_func
_CHECKERS_ON = checkers_on.py_func
_GAME_VALUE = game_value.py_func


class _Buffers:
    """Output arrays for the kernel, allocated once per process."""

    def __init__(self) -> None:
        self.hashes = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
        self.boards = np.empty((kernel.MAX_PLAYS, BOARD_SIZE), dtype=np.int8)
        self.steps = np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8)
        self.nsteps = np.empty(kernel.MAX_PLAYS, dtype=np.int8)
        self.reserve: Outputs | None = None  # for 28-entry boards, made when first needed


_BUF = _Buffers()


_FLIP_RESERVE = flip_reserve.py_func


def _reserve_buffers() -> Outputs:
    _BUF.reserve = Outputs()
    return _BUF.reserve

# Every roll as a pair: the common argument of ``legal_plays``.
_ROLLS = frozenset((a, b) for a in range(1, 7) for b in range(1, 7))


def _playable(variant: Variant | str) -> Variant:
    """The variant named, if the move generator plays its rules; else ``VariantError``."""
    if variant is STANDARD:
        return STANDARD
    found = find_variant(variant)
    if not kernel.supports(found.rules) and game_for(found.rules) is None:
        raise VariantError(f"the move generator does not play {found.title}'s rules yet")
    return found


class Position:
    """A position of ``variant`` (standard backgammon by default), seen from the player on roll.

    Immutable and hashable.  ``board`` is 26 numbers: ``board[1..24]`` are the
    mover's points 1..24, positive for the mover's checkers and negative for the
    opponent's; ``board[25]`` is the mover's bar and ``board[0]`` the opponent's
    bar as a negative count.  Checkers not on the board have been borne off.
    A variant whose checkers start off the board (``Variant.entry == "reserve"``)
    has 28 numbers: ``board[26]`` the mover's checkers waiting to enter and
    ``board[27]`` the opponent's, negative (``table.rules.reserve``).

    >>> race = Position.initial("race")
    >>> race.id, race.borne_off(), race.pip_counts()
    ('AAAAAAAAAAAAAA:15:15', (0, 0), (375, 375))
    >>> sorted(str(p) for p in race.legal_plays((6, 5)))
    ['in/14', 'in/20 in/19']
    """

    __slots__ = ("_board", "_id", "_raw", "_variant")
    _board: tuple[int, ...]
    _id: str | None
    _raw: np.ndarray | None  # the board as the kernel takes it; None once the game is over
    _variant: Variant

    def __init__(self, board: Iterable[int], variant: Variant | str = STANDARD) -> None:
        values = tuple(board)
        rules = _playable(variant)
        game = game_for(rules.rules)
        if game is not None:
            game.validate(values, rules.checkers)
        else:
            _validate(values, rules.checkers, rules.entry == "reserve")
        object.__setattr__(self, "_board", values)
        object.__setattr__(self, "_id", None)
        object.__setattr__(self, "_variant", rules)

    @classmethod
    def _trusted(cls, board: tuple[int, ...], variant: Variant = STANDARD) -> Position:
        """Build from a board the kernel produced, skipping validation."""
        self = object.__new__(cls)
        object.__setattr__(self, "_board", board)
        object.__setattr__(self, "_id", None)
        object.__setattr__(self, "_variant", variant)
        return self

    def _after(self, board: tuple[int, ...]) -> Position:
        """A position the kernel produced from this one (same variant), without validation."""
        return Position._trusted(board, self._variant)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # Construction -----------------------------------------------------------

    @classmethod
    def initial(cls, variant: Variant | str = STANDARD) -> Position:
        """The starting position of ``variant`` (a ``Variant`` or its name); ``VariantError`` if unknown.

        Standard backgammon: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6.

        >>> Position.initial("nackgammon").id
        '4Dl4ADbgOXgANg'
        """
        rules = _playable(variant)
        start = dict(rules.start)
        if rules.entry == "reserve":  # the checkers not on the board wait to enter
            start[RESERVE] = rules.checkers - sum(start.values())
        return cls.from_checkers(start, start, variant=rules)

    @classmethod
    def from_checkers(
        cls, mover: Mapping[int, int], opponent: Mapping[int, int],
        variant: Variant | str = STANDARD,
    ) -> Position:
        """Build from each side's checkers, keyed by that side's own point numbers.

        Keys are 1..24, or 25 for the bar, or 26 for the checkers waiting to
        enter in a variant where they start off the board; checkers not listed
        are borne off.

        >>> Position.from_checkers({6: 2}, {1: 1, 25: 1}).board[:7]
        (-1, 0, 0, 0, 0, 0, 2)
        """
        game = game_for(find_variant(variant).rules)
        if game is not None:  # Plakoto, Fevga: their own boards (``table.rules.greek``)
            return cls(game.build(mover, opponent), variant)
        reserve = find_variant(variant).entry == "reserve"
        board = [0] * (RESERVE_BOARD_SIZE if reserve else BOARD_SIZE)
        for side, checkers in ((1, mover), (-1, opponent)):
            for point, n in checkers.items():
                if not isinstance(point, int) or not 1 <= point <= (RESERVE if reserve else 25):
                    raise PositionError(f"point {point!r} does not exist: use 1-24, or 25 for the bar"
                                        + (", or 26 for the checkers waiting to enter" if reserve else ""))
                if not isinstance(n, int) or n < 0:
                    raise PositionError(f"checker count {n!r} on point {point} is not a count")
                if point == RESERVE:
                    index = RESERVE if side == 1 else THEIR_RESERVE
                else:
                    index = point if side == 1 else 25 - point
                if board[index] and n:
                    raise PositionError(
                        f"both sides have checkers on the mover's point {index}"
                    )
                if n:
                    board[index] = side * n
        return cls(board, variant)

    @classmethod
    def from_id(cls, position_id: str, variant: Variant | str = STANDARD) -> Position:
        """Read a GNU Backgammon Position ID; ``PositionIdError`` if malformed.

        The ID holds the board only: ``variant`` says which game it is.  A
        variant whose checkers start off the board takes the extended ID of
        ``table.rules.reserve`` (``<Position ID>:<mover>:<opponent>``), and only it does.

        >>> Position.from_id("AAAAAAAAAAAAAA:15:15")
        Traceback (most recent call last):
        ...
        table.errors.PositionIdError: 'AAAAAAAAAAAAAA:15:15' counts checkers waiting off the board: it is a position of a variant whose checkers start there (race, dutch, acey-deucey), not of Backgammon
        """
        rules = _playable(variant)
        game = game_for(rules.rules)
        if game is not None:
            board = game.decode_id(position_id)
            game.validate(board, rules.checkers)
            return cls._trusted(board, rules)
        if rules.entry == "reserve":
            board = decode_reserve_id(position_id)
            _validate(board, rules.checkers, True)
            return cls._trusted(board, rules)
        if isinstance(position_id, str) and ":" in position_id:
            waiting = ", ".join(v.name for v in (*VARIANTS.values(), *ENGINE_ONLY.values())
                                if v.entry == "reserve")
            if not all(part.isdigit() for part in position_id.split(":")[1:]):  # ``plakoto``'s pins
                raise PositionIdError(f"{position_id!r} lists pinned checkers: it is a Plakoto position, "
                                      f"not one of {rules.title}")
            raise PositionIdError(
                f"{position_id!r} counts checkers waiting off the board: it is a position of a "
                f"variant whose checkers start there ({waiting}), not of {rules.title}")
        board = decode_position_id(position_id)
        if rules.checkers != kernel.CHECKERS:
            _validate(board, rules.checkers)
        return cls._trusted(board, rules)

    # Views --------------------------------------------------------------------

    @property
    def board(self) -> tuple[int, ...]:
        """The 26 raw numbers described in the class docstring."""
        return self._board

    @property
    def variant(self) -> Variant:
        """The game this is a position of (``table.rules.variant``)."""
        return self._variant

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID (extended with the waiting checkers where there are any)."""
        if self._id is None:
            b = self._board
            game = game_for(self._variant.rules)
            object.__setattr__(self, "_id", game.encode_id(b) if game is not None
                               else encode_position_id(b) if len(b) == BOARD_SIZE
                               else encode_reserve_id(b))
        assert self._id is not None
        return self._id

    def checkers(self, mover: bool = True) -> dict[int, int]:
        """One side's checkers by its own point numbers (25 = bar, 26 = waiting), as ``from_checkers`` takes."""
        b = self._board
        game = game_for(self._variant.rules)
        if game is not None:
            return game.sides(b)[0 if mover else 1]
        if mover:
            pts = {p: b[p] for p in range(1, 26) if b[p] > 0}
        else:
            pts = {25 - i: -b[i] for i in range(0, 25) if b[i] < 0}
        if len(b) > BOARD_SIZE and b[RESERVE if mover else THEIR_RESERVE]:
            pts[RESERVE] = abs(b[RESERVE if mover else THEIR_RESERVE])
        return pts

    def waiting(self) -> tuple[int, int]:
        """Checkers still waiting to enter (player on roll, opponent); (0, 0) where none start off the board.

        >>> Position.initial("dutch").waiting()
        (15, 15)
        """
        b = self._board
        return (b[RESERVE], -b[THEIR_RESERVE]) if len(b) > BOARD_SIZE else (0, 0)

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        game = game_for(self._variant.rules)
        mine, theirs = _CHECKERS_ON(self._standard()) if game is None else game.on_board(self._board)
        checkers = self._variant.checkers
        return (checkers - mine, checkers - theirs)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each side needs to bear off everything: (player on roll, opponent).

        A checker waiting to enter needs 25, as one on the bar.
        """
        game = game_for(self._variant.rules)
        if game is not None:
            return game.pips(self._board)
        b = self._standard()
        mine = sum(b[i] * i for i in range(1, 26) if b[i] > 0)
        theirs = sum(-b[i] * (25 - i) for i in range(0, 25) if b[i] < 0)
        return (mine, theirs)

    def swapped(self) -> Position:
        """The same board with the other side on roll."""
        game = game_for(self._variant.rules)
        if game is not None:
            return Position._trusted(game.turned(self._board), self._variant)
        out = [0] * len(self._board)
        (_FLIP if len(out) == BOARD_SIZE else _FLIP_RESERVE)(self._board, out)
        return Position._trusted(tuple(out), self._variant)

    def is_race(self) -> bool:
        """True when no contact is left: every mover's checker is past every opponent's."""
        game = game_for(self._variant.rules)
        if game is not None:
            return game.is_race(self._board)
        race: bool = _IS_RACE(self._standard())
        return race

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

        Plakoto and Fevga score no backgammon (at most 2), and in Plakoto a
        pinned mother ends the game (-2 for its side) or, both pinned, draws
        it: ``result()`` is 0 and ``is_game_over`` is true.
        """
        game = game_for(self._variant.rules)
        if game is not None:
            return game.result(self._board, self._variant.checkers)[0]
        b = self._standard()
        value: int = _GAME_VALUE(b, *_CHECKERS_ON(b), self._variant.checkers)
        return value

    def _standard(self) -> tuple[int, ...]:
        """The 26-entry board, waiting checkers counted on the bar (``reserve.folded``)."""
        b = self._board
        return b if len(b) == BOARD_SIZE else folded(b)

    @property
    def is_game_over(self) -> bool:
        """True once a side has borne off all its checkers (or, in Plakoto, a pinned mother decided it)."""
        game = game_for(self._variant.rules)
        if game is not None:
            return game.result(self._board, self._variant.checkers)[1]
        return self.result() != 0

    @property
    def is_draw(self) -> bool:
        """True when the game is over without a winner (Plakoto: both mothers pinned)."""
        return self.is_game_over and self.result() == 0

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
        game = game_for(self._variant.rules)
        if game is not None:
            return self._greek_plays(game, roll)
        try:
            raw = self._raw
        except AttributeError:  # the first question asked of this position
            b = self._board
            # The game is over once a side has no checker left (cheaper than ``result()``).
            raw = None if max(b) <= 0 or min(b) >= 0 else np.array(b, dtype=np.int8)
            object.__setattr__(self, "_raw", raw)
        if raw is None:
            return []
        buf: _Buffers | Outputs = _BUF
        if len(raw) == BOARD_SIZE:
            n = kernel.generate(raw, roll[0], roll[1], buf.hashes, buf.boards, buf.steps,
                                buf.nsteps)
        else:  # checkers wait off the board: 28 entries, another generator
            buf = _BUF.reserve or _reserve_buffers()
            rules = self._variant.rules
            n = generate_reserve(raw, roll[0], roll[1], rules.reserve_first, rules.hit_needs_home,
                                 rules.bar_first, buf.hashes, buf.boards, buf.steps, buf.nsteps)
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

    def _greek_plays(self, game: GreekGame, roll: tuple[int, int]) -> list[Play]:
        """``legal_plays`` of Plakoto and Fevga, each play filled in at once (``table.rules.greek``)."""
        if game.result(self._board, self._variant.checkers)[1]:
            return []
        batch = _Batch(self, roll)
        plays = []
        for k, (steps, after, hits) in enumerate(game.plays(self._board, *roll)):
            play: Play = _NEW_PLAY(Play)
            _PLAY_SOURCE(play, (batch, k))
            _PLAY_STEPS(play, steps)
            _PLAY_HITS(play, hits)
            _PLAY_POSITION(play, self._after(game.turned(after)))
            plays.append(play)
        return plays

    def parse_play(self, text: str, dice: Sequence[int] | str) -> Play:
        """The legal play that ``text`` (standard notation) describes for ``dice``.

        Raises ``NotationError`` when the text cannot be read and
        ``IllegalPlayError`` saying why when it is not a legal play.

        >>> str(Position.initial().parse_play("24/13", (6, 5)))
        '24/13'
        """
        roll = as_dice(dice)
        segments = parse_reserve_text(text) if self._variant.entry == "reserve" else parse_move_text(text)
        plays = self.legal_plays(roll)
        dice_text = f"{roll[0]}-{roll[1]}"
        if not plays:
            raise IllegalPlayError(f"no move is possible with {dice_text}: the turn passes")
        target, problem = self._net_checkers(segments) if game_for(self._variant.rules) is None \
            else self._greek_target(segments)
        after = Play._mover_after if game_for(self._variant.rules) is None else _greek_after
        candidates = [p for p in plays if after(p) == target] if problem is None else []
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

    def _greek_target(self, segments: list[Segment]) -> tuple[tuple[int, ...], str | None]:
        """``_net_checkers`` for Plakoto and Fevga, in the form ``Play._mover_after`` gives."""
        mine = self.checkers()
        counts = [mine.get(p, 0) for p in range(BOARD_SIZE)]
        counts[OFF] = self.borne_off()[0]
        for seg in segments:
            if seg.src == BAR:
                return (), f"{self._variant.title} has no bar"
            counts[seg.src] -= 1
            counts[seg.dst] += 1
        for seg in segments:
            if counts[seg.src] < 0:
                return (), f"you have no checker on point {seg.src} to move"
        return tuple(counts), None

    def _why_illegal(self, segments: list[Segment], plays: list[Play]) -> str:
        b = self._board
        rules = self._variant.rules
        game = game_for(rules)
        if game is not None:
            used = max(len(p.steps) for p in plays)
            return game.why_illegal(b, [(seg.src, seg.dst) for seg in segments], used, str(plays[0]))
        if rules.bar_first and b[BAR] > 0 and all(seg.src != BAR for seg in segments):
            return f"you have {b[BAR]} checker(s) on the bar and must enter first"
        if (rules.reserve_first and b[RESERVE] > 0
                and any(seg.src not in (BAR, RESERVE) for seg in segments)):
            return f"you have {b[RESERVE]} checker(s) waiting and must enter them all first"
        for seg in segments:
            if 1 <= seg.dst <= 24 and b[seg.dst] <= -2:
                return f"point {seg.dst} is closed: your opponent holds it"
        if rules.hit_needs_home and any(1 <= seg.dst <= 24 and b[seg.dst] == -1 for seg in segments):
            return "you may hit only once you have a checker in your home board"
        if any(seg.dst == OFF for seg in segments) and any(b[i] > 0 for i in range(7, len(b))):
            return "you may bear off only when all your checkers are in your home board"
        used = max(len(p.steps) for p in plays)
        example = plays[0]
        return (
            f"the moves do not fit the roll; a legal play uses {used} "
            f"{'die' if used == 1 else 'dice'}, for example {example}"
        )

    # Dunder -------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self._board == other._board
                and (self._variant is other._variant or self._variant == other._variant))

    def __hash__(self) -> int:
        return hash(self._board)

    def __repr__(self) -> str:
        if self._variant == STANDARD:
            return f"Position.from_id({self.id!r})"
        return f"Position.from_id({self.id!r}, variant={self._variant.name!r})"

    def __str__(self) -> str:
        """The text board of ``table.rules.diagram``, with pip counts and the Position ID."""
        # Imported here: the diagram module builds on this one.
        from table.rules.diagram import render

        return render(self)

    def __reduce__(self) -> tuple[object, tuple[str] | tuple[str, Variant]]:
        if self._variant is STANDARD:
            return (Position.from_id, (self.id,))
        return (Position.from_id, (self.id, self._variant))


def _greek_after(play: Play) -> tuple[int, ...]:
    """``Play._mover_after`` for Plakoto and Fevga: the mover's checkers by point, 0 = borne off."""
    mine = play.position.checkers(mover=False)
    counts = [mine.get(p, 0) for p in range(BOARD_SIZE)]
    counts[OFF] = play.position.borne_off()[1]
    return tuple(counts)


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


def _validate(board: tuple[int, ...], checkers: int, reserve: bool = False) -> None:
    size = RESERVE_BOARD_SIZE if reserve else BOARD_SIZE
    if len(board) != size:
        raise PositionError(f"a board has {size} entries, got {len(board)}"
                            + (" (26, then the checkers waiting: the mover's, the opponent's negative)"
                               if reserve else ""))
    for i, n in enumerate(board):
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise PositionError(f"board entry {i} is {n!r}, not a whole number")
    if board[BAR] < 0:
        raise PositionError("the mover's bar (entry 25) cannot be negative")
    if board[OFF] > 0:
        raise PositionError("the opponent's bar (entry 0) is written as a negative count")
    if reserve and (board[RESERVE] < 0 or board[THEIR_RESERVE] > 0):
        raise PositionError("the mover's waiting checkers (entry 26) are a count, the opponent's "
                            "(entry 27) a negative count")
    mine = sum(n for n in board if n > 0)
    theirs = -sum(n for n in board if n < 0)
    for who, total in (("player on roll", mine), ("opponent", theirs)):
        if total > checkers:
            raise PositionError(f"the {who} has {total} checkers; at most {checkers} are allowed")
