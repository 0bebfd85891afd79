"""Acey-Deucey's turn as the engine sees it: the pieces the staged 1-2 turn is built from.

A roll of 1-2 is played in three stages (docs/variants.md): the 1 and the 2 under the
standard rules; if both were played, a double the player names, four times; if that was
played in full, another roll.  The moves themselves are ordinary ``Position.legal_plays``
(of ``(2, 1)``, then of ``(d, d)``); what this module adds is where each stage leaves the
player and whether the turn goes on.  The turn flow (asking for the double, rolling again)
belongs to the match, which is later work.

>>> p = Position.initial("acey-deucey")
>>> is_acey_deucey((1, 2)), is_acey_deucey((2, 2))
(True, False)
>>> first = p.legal_plays((2, 1))[0]
>>> str(first) in ("in/22", "in/24 in/23"), played_both(first)
(True, True)
>>> same_player = still_on_roll(first)
>>> len(same_player.legal_plays((6, 6))) > 0, same_player.waiting()[0] < 15
(True, True)
>>> game_value(Position.from_checkers({}, {12: 9}, "acey-deucey"))
9
"""

from __future__ import annotations

from typing import Sequence

from table.errors import VariantError
from table.rules.play import Play
from table.rules.position import Position
from table.rules.variant import ACEY_DEUCEY, Variant, find_variant

__all__ = ["is_acey_deucey", "plays_acey_deucey", "can_play_both", "played_both", "still_on_roll",
           "double_played_in_full", "checkers_left", "game_value"]


def plays_acey_deucey(variant: Variant) -> bool:
    """Whether ``variant`` has Acey-Deucey's staged 1-2 turn and its per-checker scoring.

    >>> plays_acey_deucey(ACEY_DEUCEY), plays_acey_deucey(find_variant("race"))
    (True, False)
    """
    return variant.turn_flow == ACEY_DEUCEY.turn_flow


def is_acey_deucey(dice: Sequence[int]) -> bool:
    """Whether the roll is a 1 and a 2, which starts the staged turn."""
    return sorted(dice) == [1, 2]


def _check(position: Position) -> None:
    if position.variant != ACEY_DEUCEY:
        raise VariantError(f"the staged 1-2 turn is Acey-Deucey's, not {position.variant.title}'s")


def can_play_both(position: Position) -> bool:
    """Whether the player on roll can play both the 1 and the 2 (else the turn ends after them).

    The maximum-use rule makes every legal play of 1-2 use both dice when one can.

    >>> can_play_both(Position.from_checkers({1: 1}, {26: 15}, "acey-deucey"))
    False
    """
    _check(position)
    plays = position.legal_plays((2, 1))
    return bool(plays) and len(plays[0].steps) == 2


def played_both(play: Play) -> bool:
    """Whether a play of 1-2 used both dice: the player then names a double."""
    _check(play.before)
    return is_acey_deucey(play.dice) and len(play.steps) == 2


def still_on_roll(play: Play) -> Position:
    """The position after ``play`` seen by the same player, who goes on with the next stage."""
    _check(play.before)
    return play.position.swapped()


def double_played_in_full(play: Play) -> bool:
    """Whether a named double was played four times: only then does the player roll again."""
    _check(play.before)
    return play.dice[0] == play.dice[1] and len(play.steps) == 4


def game_value(position: Position) -> int:
    """The finished game's value from the player on roll's side: the loser's checkers not
    borne off (on the board, on the bar or waiting), 1 to 15, with no gammons; 0 while playing.

    >>> game_value(Position.from_checkers({3: 2, 26: 1}, {}, "acey-deucey"))
    -3
    """
    outcome = position.result()
    if outcome == 0:
        _check(position)
        return 0
    mine, theirs = checkers_left(position)
    return theirs if outcome > 0 else -mine


def checkers_left(position: Position) -> tuple[int, int]:
    """Each side's checkers not borne off (on the board, on the bar or waiting), the player
    on roll's first: what that side pays if it loses now (a game won, or a resignation).

    >>> checkers_left(Position.from_checkers({3: 2, 26: 1}, {}, "acey-deucey"))
    (3, 0)
    """
    _check(position)
    mine, theirs = position.borne_off()
    checkers = position.variant.checkers
    return checkers - mine, checkers - theirs
