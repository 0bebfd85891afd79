"""Hypergammon: three checkers a side on the 24-, 23- and 22-points, standard rules otherwise.

Its plays are compared with GNU Backgammon's own lists (``hint`` at 0-ply without pruning,
as ``test_gnubg_crosscheck`` asks it) on positions of seeded Hypergammon games: the rules of
moving are standard backgammon's, so GNU Backgammon lists them from the board alone.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.rules.variant import HYPERGAMMON, find_variant
from tests.rules.test_gnubg_crosscheck import GNUBG, ROLLS, _gnubg_plays

# GNU Backgammon 1.07: `set variation 3-chequer-hypergammon`, `new match 1`, `show board`.
START_ID = "AACgAgAAKgAAAA"


def _games(count: int, seed: int) -> list[Position]:
    """Positions of seeded random Hypergammon games, every one a player is on roll at."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        p = Position.initial("hypergammon")
        while not p.is_game_over and len(out) < count:
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            plays = p.legal_plays(roll)
            if not plays:
                p = p.swapped()
                continue
            out.append(p)
            p = rng.choice(plays).position
    return out


def test_the_start_is_gnubgs_and_nothing_is_borne_off() -> None:
    p = Position.initial("hypergammon")
    assert p.id == START_ID and p.variant is HYPERGAMMON
    assert p.borne_off() == (0, 0)
    assert Position.from_id(START_ID, variant="hypergammon").borne_off() == (0, 0)
    # Read as standard backgammon, the same board has twelve checkers a side off already.
    assert Position.from_id(START_ID).borne_off() == (12, 12)
    assert p.checkers() == {24: 1, 23: 1, 22: 1}
    assert find_variant("HyperGammon (3)") is HYPERGAMMON and find_variant("Hypergammon3") is HYPERGAMMON


def test_a_side_that_bore_off_none_of_its_three_is_gammoned() -> None:
    # The opponent has borne off its three; the player on roll has all three still on.
    gammoned = Position.from_checkers({8: 1, 7: 1, 9: 1}, {}, variant="hypergammon")
    assert gammoned.result() == -2
    backgammoned = Position.from_checkers({20: 1, 7: 1, 9: 1}, {}, variant="hypergammon")
    assert backgammoned.result() == -3  # a checker in the winner's home board
    single = Position.from_checkers({8: 1, 7: 1}, {}, variant="hypergammon")
    assert single.result() == -1
    # As standard backgammon, three checkers on the board means twelve off: a single game.
    assert Position.from_checkers({8: 1, 7: 1, 9: 1}, {}).result() == -1


def test_plays_from_the_start() -> None:
    # Counted by hand.  3-1: one checker 4 pips (3 ways) or one 3 and another 1 (6 ways), of
    # which 24/20 = 23/20 24/23 and 23/19 = 22/19 23/22: 7.  6-6: four sixes among three
    # checkers, none taking all four (it would bear off from outside home): 12, all different
    # (the three checkers land on different residues mod 6) and none hitting.
    p = Position.initial("hypergammon")
    assert len(p.legal_plays((3, 1))) == 7
    assert len(p.legal_plays((6, 6))) == 12
    for roll in ROLLS:
        for play in p.legal_plays(roll):
            assert play.position.variant is HYPERGAMMON


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_three_checkers_a_side_whatever_is_played(seed: int) -> None:
    rng = random.Random(seed)
    p = Position.initial("hypergammon")
    for _ in range(200):
        if p.is_game_over:
            break
        mine, theirs = p.borne_off()
        assert sum(p.checkers().values()) + mine == 3
        assert sum(p.checkers(mover=False).values()) + theirs == 3
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        p = rng.choice(plays).position if plays else p.swapped()
    if p.is_game_over:
        assert p.result() in (-1, -2, -3)


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_plays_match_gnu_backgammon_on_seeded_hypergammon_games() -> None:
    positions = _games(80, seed=50)
    theirs = _gnubg_plays(positions)
    differences = []
    for i, position in enumerate(positions):
        for j, roll in enumerate(ROLLS):
            ours = {str(play) for play in position.legal_plays(roll)}
            if ours != theirs[i * len(ROLLS) + j]:
                differences.append((position.id, roll, ours ^ theirs[i * len(ROLLS) + j]))
    assert not differences, differences[:5]
