"""The computer opponent: three levels over one network and one search.

>>> from table import Position
>>> bot = Bot(level="medium")
>>> play = bot.choose_play(Position.initial(), (3, 1))
>>> str(play)
'8/5 6/5'
>>> e = bot.evaluate(Position.initial())
>>> 0.0 < e.win < 1.0 and e.win_gammon <= e.win
True
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Literal, Sequence

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, cube, search
from table.bot.evaluator import Evaluation as Evaluation  # the five chances: one type, exported here too
from table.bot.evaluator import consistent as consistent
from table.bot.net import Weights, bundled, bundled_path, shipped
from table.errors import TableError
from table.rules.aceydeucey import double_played_in_full
from table.rules.board import CHECKERS
from table.rules.dice import as_dice
from table.rules.greek import game_for
from table.rules.position import Play, Position
from table.rules.variant import Variant

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")


class BotError(TableError):
    """A bot asked for something it cannot do (unknown level, ...)."""


@dataclass(frozen=True)
class LevelSettings:
    """How a level searches: look-ahead depth (plies), judgement noise, move filters.

    Before each ply of look-ahead, the plays judged so far are filtered:
    ``keep[s]`` at most, within ``margin[s]`` (equity) of the best, at stage
    ``s`` (the last value repeats; see ``search.choose``).  ``analysis_depth``
    is how deep the level judges *every* play when asked for advice
    (``Bot.analyse_plays``); by default its depth, but two plies for each of
    a few dozen plays would take seconds.
    """

    depth: int
    noise: float
    keep: tuple[int, ...] = (8, 3)
    margin: tuple[float, ...] = (0.16, 0.10)
    analysis_depth: int | None = None
    budget: int = 0  # plays judged at most in a choice, 0 for no cap (``search.choose``)

    @property
    def analysis(self) -> int:
        """Plies of look-ahead for judging every play."""
        return self.depth if self.analysis_depth is None else self.analysis_depth


# Plays Greu judges at most a move (``search.choose``); the browser's is the same (engine/bot.js).
GREU_BUDGET = 60_000

SETTINGS: dict[str, LevelSettings] = {
    # Easy: the network's judgement blurred by noise of this many points of equity
    # (0.12 puts it near -0.2 points a game against pubeval, mid-way in the -0.4..0 band;
    # the sweep is in research/bench.txt).
    "easy": LevelSettings(depth=0, noise=0.12),
    "medium": LevelSettings(depth=0, noise=0.0),
    # Hard: GNU Backgammon's "world class" search -- every play at 0-ply, the best 8 within
    # 0.16 one ply ahead, the best 2 of those within 0.04 two plies ahead (research/bench.txt
    # has what it gained over one ply, and docs/strength.md the time a move takes). Its budget
    # is a rare standard move's work (about 1 in 30 passes it), so that no variant takes
    # longer a move: where checkers enter from off the board a roll has hundreds of plays.
    "hard": LevelSettings(depth=2, noise=0.0, keep=(8, 2), margin=(0.16, 0.04),
                          analysis_depth=1, budget=GREU_BUDGET),
}


@njit(cache=True)
def _seed_numba(seed: int) -> None:  # pragma: no cover - compiled
    np.random.seed(seed)


class Bot:
    """A computer player of a given level, with the bundled weights unless told otherwise.

    Choices are deterministic for a given ``seed`` and sequence of calls (only
    the easy level draws random numbers).
    """

    def __init__(self, level: str = "medium", seed: int | None = 0,
                 weights: Weights | str | os.PathLike[str] | None = None,
                 use_bearoff: bool = True, depth: int | None = None) -> None:
        if level not in SETTINGS:
            raise BotError(f"unknown level {level!r}: choose easy, medium or hard")
        if depth is not None and depth not in range(search.MAX_DEPTH + 1):
            raise BotError(f"search depth {depth!r} is not 0 to {search.MAX_DEPTH} plies")
        self.level = level
        self.settings = SETTINGS[level]
        if depth is not None:
            # An explicit depth overrides the level's (for experiments and benchmarks).
            self.settings = LevelSettings(depth, self.settings.noise, self.settings.keep,
                                          self.settings.margin, budget=self.settings.budget)
        # With the shipped standard networks (given, or by default) the bot plays each variant
        # with the networks shipped for it (``Variant.weights``: Hypergammon's own), as
        # ``evaluator_for`` gives them: hints, reviews and the terminal need not know.
        self._by_variant = weights is None or weights is bundled()
        self._variant_work: dict[tuple[int, Variant], search.Work] = {}
        if weights is None:
            self.weights = bundled()
        elif isinstance(weights, Weights):
            self.weights = weights
        else:
            self.weights = Weights.load(weights)
        self._standard = Position.initial().variant
        self._rng = random.Random(seed)
        self._work = search.make_work(self.weights.hidden)
        self._db = bearoff.database() if use_bearoff else bearoff.empty()
        self._use_bearoff = use_bearoff
        self._filters = search.filters(self.settings.keep, self.settings.margin)

    def _net(self, position: Position) -> tuple[search.Net, search.Work]:
        """The networks for ``position``'s variant (its own when the bot was given none) with
        the bear-off database for its checkers a side (who can still be gammoned depends on
        them: Hypergammon's three), and the scratch arrays that go with them.

        Plakoto and Fevga are searched on their own boards with their own networks
        (``table.bot.greekfeatures``), never the standard ones: ``BotError`` when none ship
        and the bot was given none."""
        variant = position.variant
        weights, work = self.weights, self._work
        greek = game_for(variant.rules) is not None
        if self._by_variant and variant.weights != "standard":
            if greek and not bundled_path(variant.weights).exists():
                raise BotError(f"no network ships for {variant.title} yet: give the bot weights "
                               f"trained for it (table train --variant {variant.name})")
            weights = shipped(variant.weights)
        if weights is not self.weights or variant.entry == "reserve" or greek:
            # Scratch arrays for the network's width and the variant's board (28 entries and
            # the reserve generator for checkers that start off the board; the Greek boards).
            own = variant.entry == "reserve" or greek
            key = (weights.hidden, variant if own else self._standard)
            if key not in self._variant_work:
                self._variant_work[key] = search.make_work(weights.hidden, key[1])
            work = self._variant_work[key]
        if greek:
            return search.make_net(weights, bearoff.empty(), variant.checkers), work
        if variant.checkers == CHECKERS:
            return search.make_net(weights, self._db), work
        db = bearoff.database(variant.checkers) if self._use_bearoff else bearoff.empty()
        return search.make_net(weights, db, variant.checkers), work

    def choose_play(self, position: Position, dice: Sequence[int] | str) -> Play | None:
        """The play this bot makes with ``dice`` (``(3, 1)`` or ``"31"``), or None when nothing can be played."""
        roll = as_dice(dice)
        plays = position.legal_plays(roll)
        if not plays:
            return None
        if len(plays) == 1:
            return plays[0]
        s = self.settings
        if s.noise > 0.0:
            _seed_numba(self._rng.getrandbits(31))
        board = np.array(position.board, dtype=np.int8)
        net, work = self._net(position)
        _, best = search.choose(net, work, board,
                                roll[0], roll[1], s.depth, s.noise, *self._filters, s.budget)
        turned = np.empty_like(work.boards[0, best])
        search.turn_for(work.boards[0, best], turned, work.rules)
        chosen = tuple(int(v) for v in turned)
        for play in plays:
            if play.position.board == chosen:
                return play
        raise AssertionError("the search chose a board that is not a legal play")  # pragma: no cover

    def choose_double(self, position: Position) -> tuple[int, Play | None]:
        """Acey-Deucey's double after a 1-2 played in full: ``(d, play)``, the double ``d-d`` to
        name and this bot's play of it (None when it cannot be moved at all).

        ``position`` is the one the 1 and the 2 left, seen by the same player
        (``aceydeucey.still_on_roll``).  Each double is played as ``choose_play``
        plays it and judged where it leaves the game: played in full, the same
        player rolls again (judged from the player's side, on roll); otherwise the
        opponent is on roll.  The double judged best is named (the lowest of equals).

        >>> from table.rules import aceydeucey
        >>> p = Position.initial("acey-deucey")
        >>> after = aceydeucey.still_on_roll(p.legal_plays((2, 1))[0])
        >>> d, play = Bot("medium").choose_double(after)
        >>> 1 <= d <= 6 and play is not None and play.dice == (d, d)
        True
        """
        if position.variant.turn_flow != "acey-deucey":
            raise BotError(f"a double is named after a 1-2 in Acey-Deucey, not in "
                           f"{position.variant.title}")
        if position.result() != 0:
            raise BotError("the game is over: there is no double to name")
        depth = self.settings.analysis
        best: tuple[float, int, Play | None] | None = None
        for d in range(1, 7):
            play = self.choose_play(position, (d, d))
            if play is None:
                value = -self.evaluate(position.swapped(), depth).equity
            elif play.position.result() != 0:
                value = float(-play.position.result()) * 100.0  # a won game beats any position
            elif double_played_in_full(play):
                value = self.evaluate(play.position.swapped(), depth).equity
            else:
                value = -self.evaluate(play.position, depth).equity
            if best is None or value > best[0]:
                best = (value, d, play)
        assert best is not None
        return best[1], best[2]

    def evaluate(self, position: Position, depth: int | None = None) -> Evaluation:
        """Cubeless chances for the player on roll, at this level's depth unless given."""
        d = self.settings.depth if depth is None else depth
        if d not in range(search.MAX_DEPTH + 1):
            raise BotError(f"search depth {d!r} is not 0 to {search.MAX_DEPTH} plies")
        out = np.zeros(5, dtype=np.float32)
        net, work = self._net(position)
        search.evaluate(net, work,
                        np.array(position.board, dtype=np.int8), d, 0, out)
        return consistent([float(f) for f in out])

    def analyse_plays(self, position: Position, dice: Sequence[int] | str,
                      depth: int | None = None) -> list[tuple[Play, Evaluation]]:
        """Every legal play with the mover's cubeless chances after it, best equity first.

        The chances come from this level's analysis depth (0 plies for Ușor and
        Mediu, 1 for Greu; see ``LevelSettings``) unless ``depth`` is given; no
        noise is added, so this is the level's honest advice.

        >>> best, chances = Bot("medium").analyse_plays(Position.initial(), "31")[0]
        >>> str(best), chances.win > 0.5
        ('8/5 6/5', True)
        """
        roll = as_dice(dice)
        d = self.settings.analysis if depth is None else depth
        out = [(play, self.evaluate(play.position, depth=d).swapped())
               for play in position.legal_plays(roll)]
        out.sort(key=lambda pe: -pe[1].equity)
        return out

    def ranked_plays(self, position: Position, dice: Sequence[int] | str,
                     depth: int | None = None) -> list[tuple[Play, float]]:
        """Every legal play with its cubeless equity for the mover, best first.

        ``dice`` is a pair such as ``(3, 1)`` or text such as ``"31"``.  The
        equity (points a game, money play) comes from this level's analysis depth
        unless ``depth`` is given; ``analyse_plays`` gives the chances behind it.

        >>> bot = Bot("hard")
        >>> ranked = bot.ranked_plays(Position.initial(), (3, 1))
        >>> len(ranked), str(ranked[0][0])
        (16, '8/5 6/5')
        >>> ranked[0][1] >= ranked[1][1] >= ranked[-1][1]
        True
        """
        return [(play, e.equity) for play, e in self.analyse_plays(position, dice, depth)]

    # Cube -------------------------------------------------------------------------

    def cube_decision(self, position: Position, cube_value: int = 1, owner: str = "centre",
                      length: int = 0, score: tuple[int, int] = (0, 0),
                      crawford: bool = False, jacoby: bool = False) -> cube.CubeDecision:
        """Whether the player on roll at ``position`` should double, and whether to take.

        ``length`` 0 is money play; otherwise ``score`` is (player on roll, opponent).
        """
        e = self.evaluate(position)
        x = cube.efficiency(position)
        if length == 0:
            return cube.money_double(e, cube_value, owner, x, jacoby)
        return cube.match_double(e, length, score, cube_value, owner, crawford, x)

    def accepts_resignation(self, position: Position, points: int, cube_value: int = 1,
                            owner: str = "centre", length: int = 0,
                            score: tuple[int, int] = (0, 0), crawford: bool = False,
                            bot_on_roll: bool = False) -> bool:
        """Whether the bot accepts the opponent's resignation of ``points`` x cube.

        ``position`` is seen from the player on roll: the resigning opponent
        unless ``bot_on_roll``.  ``owner`` ("player" = the bot) and ``score``
        are from the bot's side.
        """
        e = self.evaluate(position)
        if not bot_on_roll:
            e = e.swapped()
        return cube.accept_resignation(e, points, cube_value, owner, length, score, crawford,
                                       cube.efficiency(position))
