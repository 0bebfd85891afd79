"""Matches whose games change variant: the Tavli match (docs/variants.md, "Portes and the Tavli match").

A ``Series`` is a match kind, not a ``Variant``: it names the variants its games
play in turn.  ``Match(variant="tavli")`` plays Portes, Plakoto, Fevga, Portes, ...
to 3, 5 or 7 points; every game is played by its own variant's rules and scored by
its scoring, and the winner of a game starts the next one without an opening roll.

>>> [TAVLI.game(n).name for n in range(1, 6)]
['portes', 'plakoto', 'fevga', 'portes', 'plakoto']
>>> find_game("Tavli") is TAVLI, find_game("fevga").title
(True, 'Fevga')
>>> find_game("octopus")
Traceback (most recent call last):
...
table.errors.VariantError: unknown variant 'octopus': a match plays standard, nackgammon, hypergammon, race, dutch, acey-deucey, plakoto, fevga, portes, or the Tavli match (tavli)
"""

from __future__ import annotations

from dataclasses import dataclass

from table.errors import VariantError
from table.rules.variant import ENGINE_ONLY, FEVGA, MATCH_ONLY, PLAKOTO, PORTES, VARIANTS, Variant, find_variant

__all__ = ["Series", "TAVLI", "SERIES", "GREEK_FLOW", "find_game", "greek_flow", "match_games"]

GREEK_FLOW = "greek"
"""``Variant.turn_flow`` of the Greek games: the opening roll's winner rolls both dice afresh."""


@dataclass(frozen=True)
class Series:
    """A match whose games follow ``games`` in turn, to one of ``lengths`` points, without a cube."""

    name: str  # Table's name: ``Match(variant=name)``, ``--variant``, JSON records
    title: str
    games: tuple[Variant, ...]
    lengths: tuple[int, ...]

    def game(self, number: int) -> Variant:
        """The variant of game ``number`` (1 = the first game)."""
        return self.games[(number - 1) % len(self.games)]

    def __str__(self) -> str:
        return self.name


TAVLI = Series(name="tavli", title="Tavli", games=(PORTES, PLAKOTO, FEVGA), lengths=(3, 5, 7))
SERIES: dict[str, Series] = {TAVLI.name: TAVLI}


def find_game(name: str | Variant | Series) -> Variant | Series:
    """The variant or series called ``name`` (any case); ``VariantError`` naming them all if none."""
    if isinstance(name, (Variant, Series)):
        return name
    if isinstance(name, str) and name.strip().lower() in SERIES:
        return SERIES[name.strip().lower()]
    try:
        return find_variant(name)
    except VariantError:
        known = ", ".join((*VARIANTS, *ENGINE_ONLY, *MATCH_ONLY))
        series = ", ".join(f"the {s.title} match ({s.name})" for s in SERIES.values())
        raise VariantError(f"unknown variant {name!r}: a match plays {known}, or {series}") from None


def greek_flow(variant: Variant) -> bool:
    """Whether ``variant`` opens the Greek way: each side rolls one die and the higher rolls afresh."""
    return variant.turn_flow == GREEK_FLOW


def match_games(game: Variant | Series) -> tuple[Variant, ...]:
    """The variants a match of ``game`` plays: one, or the series' rotation."""
    return game.games if isinstance(game, Series) else (game,)
