"""Post-game review: every decision of both players weighed by the bot.

``review_record(text)`` reads a match (``.mat``, SGF or Table's JSON), replays
it and, for each decision, compares what was done with the best the bot
finds at ``depth`` plies (0 = Mediu's judgement, 1 = Greu's):

* checker plays: the mover's equity after the play made against the best
  play's.  Only unforced plays count (two or more legal plays);
* cube actions: double / no double for the player on roll who may double, and
  take / pass for the player doubled, from the no-double, double-take and
  double-pass equities of ``table.bot.cube``.  A double/no-double decision
  counts when the player doubled, when doubling was right, or when it would
  have cost less than a blunder (a *close* decision); every take/pass counts.

Equities are cubeful where a cube is in play (``table.bot.cube``), cubeless
otherwise.  In a match they are match winning chances, turned into
money-equivalent equity (the scale of a one-point game at the current cube:
winning it is +1, losing it -1) so that one set of thresholds fits every
score; in money play they are points per unit of the cube.  An error of
0.04 or more is doubtful (``?!``), 0.08 an error (``?``), 0.16 a blunder
(``??``).  A player's error rate is the equity lost per counted decision,
times 1000, with a rating word.

Acey-Deucey's staged 1-2 turn (docs/variants.md) is weighed where it goes on: a play of the 1
and the 2 by the best double the same player can then name, a named double played in full by
the same player rolling again, and the naming itself (``"name"``) by the best play of each of
the six doubles from the position the 1 and the 2 left, the double named against the best.
Its games are weighed in the same units as the others (the network's win and gammon chances,
a single game = 1): the payment per checker is not what the networks learn.

Luck is what each roll gave its roller: the equity after the best play with
the dice rolled, minus the average of the same over the 21 rolls (15 for the
opening roll, which cannot be a double); it is measured with the 0-ply
evaluation whatever ``depth`` is, as is usual.  A named double is chosen, not rolled: no luck.

``review_record`` takes and returns plain data, so that a server can run it
in a worker process (``ProcessPoolExecutor.submit(review_record, text)``);
``progress(done, total)`` is called after each decision (``QueueProgress``
carries it back from a worker).  Resignations are not weighed.

>>> from table.match import Match
>>> m = Match(length=1, seed=3)
>>> while not m.is_over:
...     _ = m.apply(m.legal_actions()[-1])
>>> r = review_record(m.to_mat(), depth=0)
>>> r.length, len(r.players)
(1, 2)
>>> all(d.loss >= 0.0 for d in r.decisions)
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, Sequence

from table.bot import cube as cubes
from table.bot.bot import Bot, Evaluation
from table.bot.met import match_equity
from table.errors import TableError
from table.match import Double, Drop, Match, Move, NameDouble, Phase, Roll, State, Take
from table.match.ids import match_info
from table.match.state import acey_deucey_stage, plays_by_text, why_no_double
from table.notation.matchid import encode_match_id
from table.rules import aceydeucey
from table.rules.dice import Dice
from table.rules.play import Play
from table.rules.position import Position

DEFAULT_DEPTH = 1
"""Greu's 1-ply judgement: a 7-point match takes well under a minute (docs/performance.md)."""

DOUBTFUL, ERROR, BLUNDER = 0.04, 0.08, 0.16
MARKS = ((BLUNDER, "??"), (ERROR, "?"), (DOUBTFUL, "?!"))

RATINGS = ((2.0, "supernatural"), (5.0, "world_class"), (8.0, "expert"),
           (12.0, "advanced"), (18.0, "intermediate"))
"""Upper bounds (exclusive) of each rating's error rate; beyond the last, "beginner"."""

CHECKER_CANDIDATES = 8
"""Plays (best cubeless first) whose cubeful equity is worked out; the rest cannot be best."""

LOOKED_AT = 16
"""Plays of one roll judged at the review's depth, the best by the 0-ply judgement (Greu's own
search looks at 8): a reserve game's entering has hundreds of plays.  The 7-point match of
tests/bot/data reviews the same with 8, 16 or all; an Acey-Deucey game at depth 1 took 83, 121 and
447 s with 8, 16 and 32 on a busy 2-core machine."""

NAMING_CANDIDATES = 3
"""Plays of an Acey-Deucey 1-2 (best by a quick look first) whose six doubles are weighed in full."""

ALL_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
OPENING_ROLLS: tuple[Dice, ...] = tuple(d for d in ALL_ROLLS if d[0] != d[1])

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class QueueProgress:
    """A picklable ``progress`` that puts ``(done, total)`` on a queue another process reads.

    For ``ProcessPoolExecutor``: pass ``QueueProgress(multiprocessing.Manager().Queue())``.
    """

    queue: Any

    def __call__(self, done: int, total: int) -> None:
        self.queue.put((done, total))


class ReviewError(TableError):
    """A record that cannot be reviewed (not a match, an impossible depth, ...)."""


def mark(loss: float) -> str:
    """``"??"``, ``"?"``, ``"?!"`` or ``""`` for an equity loss.

    >>> [mark(x) for x in (0.0, 0.039, 0.04, 0.08, 0.16)]
    ['', '', '?!', '?', '??']
    """
    for threshold, sign in MARKS:
        if loss >= threshold - 1e-12:
            return sign
    return ""


def rating(error_rate: float) -> str:
    """The rating word (a key: ``"world_class"``, ...) for an error rate.

    >>> rating(1.99), rating(2.0), rating(18.0)
    ('supernatural', 'world_class', 'beginner')
    """
    for bound, word in RATINGS:
        if error_rate < bound:
            return word
    return "beginner"


@dataclass(frozen=True)
class Decision:
    """One counted decision: what was done, what was best, and the equity lost.

    ``kind`` is ``"play"``, ``"double"`` (double or not, by the player on
    roll), ``"take"`` (take or pass) or ``"name"`` (Acey-Deucey's double named
    after a 1-2).  ``played`` and ``best`` are plays in standard notation from
    the mover's side, or ``"double"``/``"no double"``, ``"take"``/``"pass"``, or
    the doubles named (``"6-6"``).  ``move`` counts the turns of the game from 1;
    ``position_id`` and ``match_id`` describe the moment before the decision.
    """

    game: int
    move: int
    player: int
    kind: str
    dice: tuple[int, int] | None
    position_id: str
    match_id: str
    played: str
    best: str
    equity: float
    best_equity: float
    loss: float
    mark: str

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["dice"] = None if self.dice is None else list(self.dice)
        return data


@dataclass(frozen=True)
class PlayerTotals:
    """One player's figures: decisions counted, equity lost, error rate and rating, luck."""

    name: str
    decisions: int
    checker_decisions: int
    cube_decisions: int
    loss: float
    checker_loss: float
    cube_loss: float
    error_rate: float | None
    rating: str | None
    doubtful: int
    errors: int
    blunders: int
    cube_errors: int
    luck: float
    rolls: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Review:
    """The whole review: the counted decisions in order and each player's totals."""

    players: tuple[str, str]
    length: int
    depth: int
    decisions: tuple[Decision, ...]
    totals: tuple[PlayerTotals, PlayerTotals]

    def errors(self) -> list[Decision]:
        """The decisions marked doubtful or worse, in order."""
        return [d for d in self.decisions if d.mark]

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "length": self.length, "depth": self.depth,
                "decisions": [d.to_json() for d in self.decisions],
                "totals": [t.to_json() for t in self.totals]}


def read_match(text: str) -> Match:
    """The match in ``text``: SGF (``(;``), Table's saved JSON (``{``) or ``.mat``."""
    if not isinstance(text, str):
        raise ReviewError(f"a record is text, not {type(text).__name__}")
    head = text.lstrip()[:1]
    if head == "(":
        return Match.from_sgf(text, seed=0)
    if head == "{":
        return Match.from_json(text, seed=0)
    if "\n" not in text:
        text += "\n"  # one line is still a record, not a file name
    return Match.from_mat(text, seed=0)


# Equities ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Seat:
    """The cube and score seen from one player, with the scale that makes equities comparable."""

    length: int
    score: tuple[int, int]   # (this player, opponent)
    cube: int
    owner: str               # "centre", "player" (this one), "opponent"
    crawford: bool
    post_crawford: bool
    cube_on: bool
    jacoby: bool
    may_double: bool         # on this player's turn, by the rules
    them: tuple[str, bool]   # the opponent's view of the owner, and whether they may double

    @classmethod
    def of(cls, state: State, player: int) -> _Seat:
        def view(p: int) -> tuple[str, bool]:
            owner = state.cube_owner
            side = "centre" if owner is None else ("player" if owner == p else "opponent")
            # The match's own rule, asked about p's next turn to roll.
            turn = replace(state, phase=Phase.ROLL, on_roll=p, dice=None,
                           moves_played=state.moves_played + 1)
            return side, why_no_double(turn) is None

        s = state.score
        mine = view(player)
        return cls(state.settings.length, (s[player], s[1 - player]), state.cube_value, mine[0],
                   state.crawford, state.crawford_done, state.settings.cube,
                   state.settings.jacoby, mine[1], view(1 - player))

    def other(self) -> _Seat:
        owner = "centre" if self.owner == "centre" else (
            "opponent" if self.owner == "player" else "player")
        return _Seat(self.length, (self.score[1], self.score[0]), self.cube, owner,
                     self.crawford, self.post_crawford, self.cube_on, self.jacoby,
                     self.them[1], (self.owner, self.may_double))

    def after_game(self, points: int) -> float:
        """This player's match winning chance once ``points`` (negative: lost) are scored."""
        a, b = self.length - self.score[0], self.length - self.score[1]
        if points > 0:
            a -= points
        else:
            b += points
        return match_equity(a, b, post_crawford_game=self.post_crawford)

    def raw(self, equity: float) -> float:
        """Turn a money-equivalent equity back into this seat's own unit (for display)."""
        if not self.length:
            return equity * self.cube
        lo, hi = self.after_game(-self.cube), self.after_game(self.cube)
        return lo + (equity + 1.0) * (hi - lo) / 2.0

    def normal(self, raw: float) -> float:
        """Money-equivalent equity of a raw one: match chances or points at this cube."""
        if not self.length:
            return raw / self.cube
        lo, hi = self.after_game(-self.cube), self.after_game(self.cube)
        return 2.0 * (raw - lo) / (hi - lo) - 1.0 if hi > lo else 0.0

    def decision(self, e: Evaluation, position: Position) -> cubes.CubeDecision:
        """The cube decision for this player on roll with cubeless chances ``e``."""
        x = cubes.efficiency(position)
        if not self.length:
            return cubes.money_double(e, self.cube, self.owner, x, self.jacoby)
        return cubes.match_double(e, self.length, self.score, self.cube, self.owner,
                                  self.crawford, x)

    def on_roll(self, e: Evaluation, position: Position) -> float:
        """Raw equity of this player on roll before rolling, cube handled correctly."""
        if not self.length and not self.cube_on:
            if self.jacoby and self.cube == 1:
                e = Evaluation(e.win, 0.0, 0.0, 0.0, 0.0)  # gammons score 1 under Jacoby
            return e.equity * self.cube
        if not self.cube_on or self.crawford:
            # A dead cube: the game's cubeless value at the score.
            return cubes.match_double(e, self.length, self.score, self.cube, "opponent",
                                      self.crawford, 0.0).no_double
        d = self.decision(e, position)
        return d.best if self.may_double else d.no_double

    def after_play(self, e: Evaluation, position: Position) -> float:
        """Normalised equity of this player after a play, with the opponent on roll at ``position``.

        ``e`` holds this player's chances; ``position`` is seen from the opponent.
        """
        result = position.result()
        if result:
            # The play ended the game: its value is known exactly.
            won = -result * self.cube
            return self.normal(self.after_game(won) if self.length else float(won))
        them = self.other()
        theirs = them.on_roll(e.swapped(), position)
        mine = (1.0 - theirs) if self.length else -theirs
        return self.normal(mine)


class _Reviewer:
    def __init__(self, depth: int) -> None:
        if depth not in (0, 1, 2):
            raise ReviewError(f"the review depth is 0, 1 or 2 plies, not {depth!r}")
        self.depth = depth
        self.bot = Bot("medium", seed=0, depth=depth)
        self.quick = self.bot if depth == 0 else Bot("medium", seed=0, depth=0)
        self._named: dict[tuple[int, _Seat, Position], dict[int, tuple[float, str]]] = {}

    def ranked(self, bot: Bot, seat: _Seat, position: Position, dice: Dice,
               also: str | None = None, keep: int = CHECKER_CANDIDATES
               ) -> list[tuple[str, float]]:
        """(play, normalised equity) for the best cubeless candidates (and ``also``), best first."""
        analysed = self.analysed(bot, position, dice, also)
        if not analysed:
            e = bot.evaluate(position.swapped()).swapped()
            return [("", seat.after_play(e, position.swapped()))]
        chosen = analysed[:keep] + _the(analysed[keep:], position, dice, also)
        out = [(str(p), seat.after_play(e, p.position)) for p, e in chosen]
        out.sort(key=lambda pe: -pe[1])
        return out

    def analysed(self, bot: Bot, position: Position, dice: Dice, also: str | None) -> list[tuple[Play, Evaluation]]:
        """``bot.analyse_plays``, except that of a roll with more than ``LOOKED_AT`` plays only the
        best ``LOOKED_AT`` by the 0-ply judgement (and ``also``) are judged at ``bot``'s depth."""
        if bot is self.quick or len(plays_by_text(position, dice)) <= LOOKED_AT:
            return bot.analyse_plays(position, dice)
        first = self.quick.analyse_plays(position, dice)
        chosen = first[:LOOKED_AT] + _the(first[LOOKED_AT:], position, dice, also)
        out = [(p, bot.evaluate(p.position, bot.settings.analysis).swapped()) for p, _ in chosen]
        out.sort(key=lambda pe: -pe[1].equity)
        return out

    def luck(self, seat: _Seat, position: Position, dice: Dice, opening: bool) -> float:
        """Equity this roll gave its roller against the average roll."""
        rolls = OPENING_ROLLS if opening else ALL_ROLLS
        value = {d: self.rolled(seat, position, d) for d in rolls}
        mean = sum(v * (1 if d[0] == d[1] else 2) for d, v in value.items()) / (
            2 * len(rolls) - (0 if opening else 6))
        key = (max(dice), min(dice))
        return value[key] - mean


    def rolled(self, seat: _Seat, position: Position, dice: Dice, named: bool = False) -> float:
        """Normalised equity after the 0-ply bot's own play of ``dice``: what a roll is worth to luck.

        The cubeless best stands for the best (luck is a rough, 0-ply measure anyway); the bot's
        search picks it in compiled code, where ranking every play would cost each one a call.
        An Acey-Deucey 1-2 played in full is worth the best of the six doubles then (``named``).
        """
        play = self.quick.choose_play(position, dice)
        if play is None:
            return self.ranked(self.quick, seat, position, dice)[0][1]
        if not named and play.position.result() == 0 and aceydeucey.plays_acey_deucey(position.variant) \
                and aceydeucey.played_both(play):
            after = aceydeucey.still_on_roll(play)
            return max(self.rolled(seat, after, (d, d), named=True) for d in range(1, 7))
        return self.after(self.quick, seat, play, "named_double" if named else None)

    # Acey-Deucey's staged 1-2 turn ------------------------------------------------------

    def after(self, bot: Bot, seat: _Seat, play: Play, stage: str | None) -> float:
        """Normalised equity of the mover after ``play`` made at ``stage`` of the turn
        (``acey_deucey_stage``): where the staged turn goes on, the same player's."""
        after = play.position
        if after.result() == 0:
            if stage == "one_two" and aceydeucey.played_both(play):
                return max(self.naming(bot, seat, aceydeucey.still_on_roll(play)).values())[0]
            if stage == "named_double" and aceydeucey.double_played_in_full(play):
                return self.rolls_again(bot, seat, aceydeucey.still_on_roll(play))
            return seat.after_play(bot.evaluate(after).swapped(), after)
        return seat.after_play(Evaluation(0.0, 0.0, 0.0, 0.0, 0.0), after)  # known: the game is over

    @staticmethod
    def rolls_again(bot: Bot, seat: _Seat, position: Position) -> float:
        """Normalised equity of the player on roll at ``position`` (their side), before rolling."""
        return seat.normal(seat.on_roll(bot.evaluate(position), position))

    def staged(self, bot: Bot, seat: _Seat, position: Position, dice: Dice, stage: str,
               also: str | None = None) -> list[tuple[str, float]]:
        """``ranked`` for a stage of Acey-Deucey's 1-2 turn: (play, normalised equity), best first.

        Every play is looked at quickly (0 plies; a 1-2 by the chances of the same player on
        roll after it), the best ``CHECKER_CANDIDATES`` and ``also`` weighed by ``bot`` (a 1-2 by
        the best double it leaves to name: only ``NAMING_CANDIDATES`` of them, each costs six doubles).
        """
        plays = position.legal_plays(dice)
        if not plays:
            return self.ranked(bot, seat, position, dice)  # nothing to play: the opponent is on roll

        def look(play: Play) -> float:
            if stage == "one_two" and play.position.result() == 0 and aceydeucey.played_both(play):
                return self.rolls_again(self.quick, seat, aceydeucey.still_on_roll(play))
            return self.after(self.quick, seat, play, stage)

        order = sorted(((p, look(p)) for p in plays), key=lambda pv: -pv[1])
        keep = NAMING_CANDIDATES if stage == "one_two" else CHECKER_CANDIDATES
        chosen = order[:keep] + _the(order[keep:], position, dice, also)
        final = bot is self.quick and stage != "one_two"  # the quick look was the weighing
        out = [(str(p), v if final else self.after(bot, seat, p, stage)) for p, v in chosen]
        out.sort(key=lambda pe: -pe[1])
        return out

    def naming(self, bot: Bot, seat: _Seat, position: Position) -> dict[int, tuple[float, str]]:
        """Each double ``d`` the player may name at ``position`` (their side, after the 1 and the
        2): (the normalised equity its best play leaves, that play), worked out once per position."""
        key = (id(bot), seat, position)
        if key not in self._named:
            best = {d: self.staged(bot, seat, position, (d, d), "named_double")[0] for d in range(1, 7)}
            self._named[key] = {d: (value, play) for d, (play, value) in best.items()}
        return self._named[key]


def _the(rest: list[tuple[Play, Any]], position: Position, dice: Dice, text: str | None) -> list[tuple[Play, Any]]:
    """The entry of ``rest`` whose play is ``text`` (none for None), found by the position it leaves:
    writing every play of a roll out costs more than judging it where there are hundreds."""
    play = None if text is None else plays_by_text(position, dice).get(text)
    return [] if play is None else [pe for pe in rest if pe[0].position == play.position]


def _decisions(m: Match) -> list[tuple[State, Any]]:
    """The history entries that hold a decision or a roll to weigh."""
    out: list[tuple[State, Any]] = []
    for state, action in m.history:
        if state.phase == Phase.MOVE and isinstance(action, Move):
            out.append((state, action))
        elif state.phase == Phase.ROLL and isinstance(action, (Roll, Double)) \
                and why_no_double(state) is None:
            out.append((state, action))
        elif state.phase == Phase.TAKE and isinstance(action, (Take, Drop)):
            out.append((state, action))
        elif state.phase == Phase.NAME_DOUBLE and isinstance(action, NameDouble):
            out.append((state, action))
    return out


def review_match(m: Match, depth: int = DEFAULT_DEPTH,
                 progress: Progress | None = None) -> Review:
    """Weigh every decision of ``m`` at ``depth`` plies (see the module's notes)."""
    r = _Reviewer(depth)
    entries = _decisions(m)
    decisions: list[Decision] = []
    luck = [0.0, 0.0]
    rolls = [0, 0]
    for done, (state, action) in enumerate(entries, 1):
        d = _weigh(r, state, action, luck, rolls)
        if d is not None:
            decisions.append(d)
        if progress is not None:
            progress(done, len(entries))
    if progress is not None and not entries:
        progress(0, 0)
    totals = tuple(_totals(m.players[p], p, decisions, luck[p], rolls[p]) for p in (0, 1))
    return Review(m.players, m.length, depth, tuple(decisions), (totals[0], totals[1]))


def review_record(text: str, depth: int = DEFAULT_DEPTH,
                  progress: Progress | None = None) -> Review:
    """Review the match recorded in ``text`` (.mat, SGF or JSON); picklable in and out."""
    return review_match(read_match(text), depth, progress)


def _weigh(r: _Reviewer, state: State, action: Any, luck: list[float],
           rolls: list[int]) -> Decision | None:
    def decision(player: int, kind: str, played: str, best: str, eq: float,
                 best_eq: float) -> Decision:
        loss = max(0.0, round(best_eq - eq, 9))
        return Decision(state.game_number, state.moves_played + 1, player, kind, state.dice,
                        state.position.id, encode_match_id(match_info(state)), played, best,
                        round(eq, 6), round(best_eq, 6), round(loss, 6), mark(loss))

    position = state.position
    if state.phase == Phase.MOVE:
        player, dice = state.on_roll, state.dice
        assert dice is not None
        seat = _Seat.of(state, player)
        stage = acey_deucey_stage(state)
        if stage != "named_double":  # a named double is chosen, not rolled
            luck[player] += r.luck(seat, position, dice, opening=state.moves_played == 0
                                   and dice[0] != dice[1])
            rolls[player] += 1
        if len(plays_by_text(position, dice)) < 2:
            return None  # forced: nothing to choose
        ranked = (r.ranked(r.bot, seat, position, dice, also=action.play) if stage is None
                  else r.staged(r.bot, seat, position, dice, stage, also=action.play))
        played = dict(ranked)[action.play]
        return decision(player, "play", action.play, ranked[0][0], played, ranked[0][1])
    if state.phase == Phase.NAME_DOUBLE:
        player = state.on_roll
        values = r.naming(r.bot, _Seat.of(state, player), position)
        top = max(values, key=lambda n: values[n][0])  # the lowest of equals
        if values[top][0] - min(v for v, _ in values.values()) < 1e-9:
            return None  # every double is worth the same: nothing to choose
        named = action.number
        return decision(player, "name", f"{named}-{named}", f"{top}-{top}", values[named][0],
                        values[top][0])
    if state.phase == Phase.ROLL:
        player = state.on_roll
        seat = _Seat.of(state, player)
        cd = seat.decision(r.bot.evaluate(position), position)
        double_eq = seat.normal(min(cd.double_take, cd.double_pass))
        no_double = seat.normal(cd.no_double)
        doubled = isinstance(action, Double)
        close = abs(double_eq - no_double) < BLUNDER
        if not (doubled or cd.double or close):
            return None
        best = "double" if cd.double else "no double"
        eq = double_eq if doubled else no_double
        return decision(player, "double", "double" if doubled else "no double", best, eq,
                        double_eq if cd.double else no_double)
    # Phase.TAKE: the doubler is on roll; the taker answers.
    doubler = state.on_roll
    seat = _Seat.of(state, doubler)
    cd = seat.decision(r.bot.evaluate(position), position)
    # The taker's equities are the doubler's turned round.
    take, drop = -seat.normal(cd.double_take), -seat.normal(cd.double_pass)
    took = isinstance(action, Take)
    best = "take" if take >= drop else "pass"
    return decision(1 - doubler, "take", "take" if took else "pass", best,
                    take if took else drop, max(take, drop))


def _totals(name: str, player: int, decisions: Sequence[Decision], luck: float,
            rolls: int) -> PlayerTotals:
    mine = [d for d in decisions if d.player == player]
    # Naming a double chooses where the checkers go: it counts with the checker plays.
    checker = [d for d in mine if d.kind in ("play", "name")]
    cube = [d for d in mine if d.kind in ("double", "take")]
    loss = sum(d.loss for d in mine)
    rate = round(1000.0 * loss / len(mine), 3) if mine else None
    return PlayerTotals(
        name=name, decisions=len(mine), checker_decisions=len(checker),
        cube_decisions=len(cube), loss=round(loss, 6),
        checker_loss=round(sum(d.loss for d in checker), 6),
        cube_loss=round(sum(d.loss for d in cube), 6),
        error_rate=rate, rating=None if rate is None else rating(rate),
        doubtful=sum(d.mark == "?!" for d in mine), errors=sum(d.mark == "?" for d in mine),
        blunders=sum(d.mark == "??" for d in mine), cube_errors=sum(bool(d.mark) for d in cube),
        luck=round(luck, 6), rolls=rolls)
