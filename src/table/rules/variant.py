"""Variants of backgammon as values: what one game of the family does differently, as data only.

How a new variant plugs in: add a ``Variant`` to ``VARIANTS`` below.  If it
needs only a start and a number of checkers (Nackgammon, Hypergammon, preset
races), that is all: ``Position.initial(name)`` sets it up, ``Position``
counts borne-off checkers and scores the game with ``checkers``, ``Match``
starts every game from ``start``, and the records write ``mat_name`` /
``sgf_name`` (``None``: the format cannot hold it, so it is refused).  Pinning
(Plakoto) and one checker blocking with both sides moving the same way (Fevga)
are played by ``table.rules.greekkernel`` on boards of their own, through
``Position`` only (``table.rules.greek.game_for``); ``table.rules.kernel.supports``
says which ``Rules`` the standard and reserve generators play (what the bot's
search takes), and ``Position`` refuses rules neither plays.  Checkers that start off the board
(``entry="reserve"``: Race, Dutch, Acey-Deucey) are played on a 28-entry board
by ``table.rules.reservekernel``, which reads ``reserve_first``,
``hit_needs_home`` and ``bar_first``.  A variant
whose checkers or features differ needs its own evaluator: ``weights`` names it
(``table.bot.evaluator.evaluator_for``).

>>> find_variant("nackgammon").start
((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))
>>> find_variant("NackGammon") is NACKGAMMON
True
>>> find_variant("grasshopper")
Traceback (most recent call last):
...
table.errors.VariantError: unknown variant 'grasshopper': Table plays standard, nackgammon, hypergammon, race, dutch, acey-deucey
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

from table.errors import VariantError

# How a checker is captured (``Rules.capture``).
HIT = 0  # a single checker is hit and goes to the bar (standard)
PIN = 1  # a single checker is pinned under the one landing on it (Plakoto)
NO_CAPTURE = 2  # a single checker blocks nothing and cannot be captured (Fevga)

# How the board turns round for the other side (``Rules.turn``).
REFLECT = 0  # the sides move in opposite directions: ``new[i] = -old[25 - i]`` (standard)
ROTATE = 1  # both sides move the same way round (Fevga)


class Rules(NamedTuple):
    """The step rule as compiled code sees it: small ints only."""

    block: int = 2  # the opponent's checkers that close a point (1 in Fevga)
    capture: int = HIT
    turn: int = REFLECT
    reserve_first: int = 0  # 1: checkers waiting off the board must enter before others move
    hit_needs_home: int = 0  # 1: a blot may be hit only by a side with a checker on its points 1-6
    bar_first: int = 1  # 0: a hit checker need not enter before others move (Acey-Deucey)


STANDARD_RULES = Rules()


@dataclass(frozen=True)
class Variant:
    """One game of the backgammon family.  Equal and hashable as a value; data only.

    ``start`` is each side's checkers at the start by that side's own point
    numbers, as ``(point, count)`` pairs (both sides start alike).
    """

    name: str  # Table's name: ``Position.initial(name)``, ``--variant``, JSON records
    title: str  # what a player reads
    start: tuple[tuple[int, int], ...]
    checkers: int = 15  # each side's; borne-off checkers are this minus what is on the board
    entry: str = "bar"  # "bar": all start on the board, a hit checker enters from the bar;
    #                     "reserve": checkers start off the board and enter (Dutch, Acey-Deucey)
    hitting: bool = True  # whether a single checker can be hit
    direction: str = "opposite"  # "opposite" (standard) or "same" (Fevga)
    turn_flow: str = "standard"  # opening roll, doubles played four times; "acey-deucey" later
    scoring: tuple[int, int, int] = (1, 2, 3)  # points for a single game, gammon, backgammon
    cube: bool = True  # whether the doubling cube may be used
    mat_name: str | None = "Backgammon"  # ``; [Variation "..."]`` in .mat, as GNU Backgammon writes it
    sgf_name: str | None = None  # the ``RU[...]`` token in SGF; None for standard backgammon
    weights: str = "standard"  # the evaluator it plays with
    rules: Rules = STANDARD_RULES

    def __post_init__(self) -> None:
        # ``rules`` restates ``hitting``, ``direction`` and ``entry`` for compiled code: they must agree.
        problems = []
        if self.entry not in ("bar", "reserve"):
            problems.append(f"entry is 'bar' or 'reserve', not {self.entry!r}")
        if self.direction not in ("opposite", "same"):
            problems.append(f"direction is 'opposite' or 'same', not {self.direction!r}")
        if self.hitting != (self.rules.capture == HIT):
            problems.append("hitting and rules.capture disagree")
        if (self.direction == "same") != (self.rules.turn == ROTATE):
            problems.append("direction and rules.turn disagree")
        if self.rules.reserve_first and self.entry != "reserve":
            problems.append("rules.reserve_first needs entry 'reserve'")
        if (self.rules.hit_needs_home or not self.rules.bar_first) and self.entry != "reserve":
            problems.append("rules.hit_needs_home and bar_first=0 need entry 'reserve'")
        if not 1 <= self.checkers <= 15:
            problems.append(f"checkers is 1 to 15, not {self.checkers!r}")
        if problems:
            raise VariantError(f"variant {self.name!r}: " + "; ".join(problems))

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # A shipped variant unpickles as the very value (``is`` holds), others field by field.
        if VARIANTS.get(self.name, ENGINE_ONLY.get(self.name, MATCH_ONLY.get(self.name))) == self:
            return (find_variant, (self.name,))
        return (Variant, tuple(getattr(self, f.name) for f in fields(self)))


STANDARD = Variant(name="standard", title="Backgammon", start=((24, 2), (13, 5), (8, 3), (6, 5)))
NACKGAMMON = Variant(
    name="nackgammon", title="Nackgammon",
    start=((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
    mat_name="NackGammon", sgf_name="Nackgammon",
)

HYPERGAMMON = Variant(
    name="hypergammon", title="Hypergammon", start=((24, 1), (23, 1), (22, 1)), checkers=3,
    mat_name="HyperGammon (3)", sgf_name="Hypergammon3", weights="hypergammon",
)

# Checkers start off the board and enter (docs/variants.md); the raw board has 28 entries
# (``table.rules.reservekernel``).
RACE = Variant(
    name="race", title="Backgammon Race", start=(), entry="reserve", cube=False,
    mat_name=None, weights="race",
)
DUTCH = Variant(
    name="dutch", title="Dutch backgammon", start=(), entry="reserve", mat_name=None,
    weights="dutch", rules=Rules(reserve_first=1, hit_needs_home=1),
)
ACEY_DEUCEY = Variant(
    name="acey-deucey", title="Acey-Deucey", start=(), entry="reserve", cube=False,
    turn_flow="acey-deucey", mat_name=None, weights="acey-deucey", rules=Rules(bar_first=0),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (STANDARD, NACKGAMMON, HYPERGAMMON, RACE, DUTCH, ACEY_DEUCEY)}
"""The games Table offers: the engine, the computer, the web app (on the server, on the device and
online), records and the command line play each of them."""

# The Greek games without hitting (docs/variants.md): played by ``table.rules.greekkernel`` on
# their own boards (``table.rules.plakoto``, ``table.rules.fevga``).  The engine plays them; the
# product does not offer them yet (no computer or web board), so they stay out of ``VARIANTS``,
# which the command line, the server and the forms list; ``find_variant`` finds them.
PLAKOTO = Variant(
    name="plakoto", title="Plakoto", start=((24, 15),), hitting=False, cube=False,
    scoring=(1, 2, 2), turn_flow="greek", mat_name=None, weights="plakoto",
    rules=Rules(capture=PIN),
)
FEVGA = Variant(
    name="fevga", title="Fevga", start=((24, 15),), hitting=False, direction="same", cube=False,
    scoring=(1, 2, 2), turn_flow="greek", mat_name=None, weights="fevga",
    rules=Rules(block=1, capture=NO_CAPTURE, turn=ROTATE),
)

ENGINE_ONLY: dict[str, Variant] = {v.name: v for v in (PLAKOTO, FEVGA)}

# Portes: standard play with the Greek conventions (docs/variants.md, "Portes and the Tavli
# match"): no cube, a backgammon counts as a gammon, the opening winner rolls afresh.  The
# Python match layer and the terminal play it (alone or in a Tavli match,
# ``table.match.series``); kept apart from ``ENGINE_ONLY``, which the browser's engine mirrors.
PORTES = Variant(
    name="portes", title="Portes", start=STANDARD.start, cube=False, scoring=(1, 2, 2),
    turn_flow="greek", mat_name=None,
)

MATCH_ONLY: dict[str, Variant] = {PORTES.name: PORTES}


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (Table's name or a record's, any case); a ``Variant`` as it is.

    Raises ``VariantError`` naming the variants Table plays when there is none.
    """
    if isinstance(name, Variant):
        return name
    if isinstance(name, str):
        key = name.strip().lower()
        for variant in (*VARIANTS.values(), *ENGINE_ONLY.values(), *MATCH_ONLY.values()):
            names = (variant.name, variant.mat_name, variant.sgf_name)
            if key in (n.lower() for n in names if n):
                return variant
    known = ", ".join(VARIANTS)
    raise VariantError(f"unknown variant {name!r}: Table plays {known}")
