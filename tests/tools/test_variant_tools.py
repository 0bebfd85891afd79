"""The benchmarks and the refinement pass play a variant from its own start (``--variant``)."""

from __future__ import annotations

import numpy as np
import pytest

from table.bot.net import bundled
from table.cli import main
from table.errors import TableError
from table.rules.position import Position
from table.tools.duel import NETWORK, START, Player, duel, start_board
from table.tools.train.refine import collect


def test_a_variants_start_board_is_its_position() -> None:
    nack = start_board("NackGammon")
    assert nack.tolist() == list(Position.initial("nackgammon").board)
    assert not np.array_equal(nack, START)
    # Counted by hand: two on the 24-point and two on the 23-point, where standard has none.
    assert (int(nack[24]), int(nack[23]), int(START[23])) == (2, 2, 0)


def test_a_duel_from_nackgammons_start_is_another_game() -> None:
    medium = Player(NETWORK, bundled())
    standard = duel(medium, Player(NETWORK, bundled(), noise=0.3), 20, seed=7)
    nack = duel(medium, Player(NETWORK, bundled(), noise=0.3), 20, seed=7, start=start_board("nackgammon"))
    assert not np.array_equal(standard, nack)


def test_self_play_positions_come_from_the_variants_start() -> None:
    # Nackgammon's back checkers: every early position has a side with checkers on its 23-point.
    positions = collect(bundled(), 40, seed=3, start=start_board("nackgammon"))
    first = positions[0]
    assert sorted([int(first[23]), int(-first[2])]) != [0, 0]


def test_the_commands_refuse_a_variant_they_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "strength", "medium", "easy", "--games", "2", "--variant", "grasshopper"]) == 2
    assert "unknown variant 'grasshopper'" in capsys.readouterr().err
    # Plakoto's and Fevga's boards are played by the duels and self-play only (greek=True):
    # the tools that play the standard board (the refinement pass, cubeful duels) refuse them.
    with pytest.raises(TableError, match="plakoto is not one yet"):
        start_board("plakoto")
    assert main(["bench", "strength", "rules", "random", "--games", "2", "--variant", "fevga",
                 "--cube"]) == 2
    assert "fevga is played without the cube" in capsys.readouterr().err
    assert main(["bench", "strength", "rules", "pubeval", "--games", "2", "--variant", "plakoto"]) == 2
    assert "pubeval reads the standard board only" in capsys.readouterr().err
    from table.rules.variant import NO_CAPTURE, Rules, Variant

    # Three checkers a side are played (Hypergammon); a step rule the kernel lacks is not.
    assert start_board(Variant(name="three", title="Three", start=((24, 3),), checkers=3))[24] == 3
    # Race's checkers wait off the board: its 28-entry board, 15 waiting a side.
    race = start_board("race")
    assert race.shape == (28,) and (int(race[26]), int(race[27])) == (15, -15) and not race[:26].any()
    with pytest.raises(TableError, match="standard rules; blocking is not one yet"):
        start_board(Variant(name="blocking", title="Blocking", start=((24, 15),), hitting=False,
                            rules=Rules(capture=NO_CAPTURE)))


def test_bench_strength_prints_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "strength", "medium", "random", "--games", "4", "--variant", "nackgammon"]) == 0
    assert "medium vs random (nackgammon):" in capsys.readouterr().out


def test_a_level_plays_with_the_variants_own_networks() -> None:
    from table.tools.bench.strength import player

    # Hypergammon ships networks of its own (64 hidden units); standard's are another network.
    assert player("hard", "hypergammon")[1].weights is bundled("hypergammon")
    assert player("hard")[1].weights is bundled()
    assert player("medium", "nackgammon")[1].weights is bundled()  # Nackgammon plays standard's
    assert bundled("hypergammon") is not bundled()
