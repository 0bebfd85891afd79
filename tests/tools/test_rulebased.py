"""The rule-based benchmark player: legal, deterministic, and its three rules checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from table import Position
from table.cli import main
from table.rules.dice import SeededDice, roll
from table.tools import rulebased
from table.tools.bench.strength import player
from table.tools.duel import RANDOM, RULES, Player, duel, start_board, summary


def _after(play_position: Position) -> np.ndarray:
    """The mover's-view board after a play (``play.position`` is the opponent's view)."""
    return np.array([-v for v in reversed(play_position.board)], dtype=np.int8)


def test_it_always_returns_a_legal_play_and_finishes_its_games() -> None:
    for start in ("standard", "nackgammon"):
        dice = SeededDice(11)
        p = Position.initial(start)
        for _ in range(400):
            dice_roll = roll(dice)
            plays = p.legal_plays(dice_roll)
            chosen = rulebased.choose_play(p, dice_roll)
            if not plays:
                assert chosen is None
                p = p.swapped()
                continue
            assert chosen is not None
            assert str(chosen) in {str(q) for q in plays}
            p = chosen.position
            if p.result() != 0:
                break
        assert p.result() != 0, f"a {start} game between two rule-based players did not end"


def test_opening_rolls_make_points() -> None:
    # The textbook point-making openings, known by heart rather than read off the code.
    start = Position.initial()
    assert str(rulebased.choose_play(start, (3, 1))) == "8/5 6/5"
    assert str(rulebased.choose_play(start, (4, 2))) == "8/4 6/4"
    assert str(rulebased.choose_play(start, (6, 1))) == "13/7 8/7"


def test_it_covers_a_slot_rather_than_leave_blots() -> None:
    # A blot slotted on the 5-point; with 3-2, 8/5 makes the point. 13/10 13/11 would leave
    # three blots in the opponent's reach, 13/8 leaves the slot.
    p = Position.from_checkers({24: 2, 13: 5, 8: 3, 6: 4, 5: 1},
                               {24: 2, 13: 5, 8: 3, 6: 5})
    play = rulebased.choose_play(p, (3, 2))
    assert play is not None
    after = _after(play.position)
    assert after[5] >= 2, str(play)
    assert str(play) not in ("13/10 13/11", "13/8")


def test_shot_cost_counted_by_hand() -> None:
    # A blot on the 10-point, one opponent checker 6 pips behind it (the mover's 4-point, the
    # opponent's 21), nothing of the mover's on the points between, the rest of the opponent's
    # checkers past the blot. Rolls that hit from 6 away: any 6 (11), 5-1 (2), 4-2 (2),
    # 3-3 (1), 2-2 (1) = 17 of 36; a hit costs the 15 pips from the 10-point to the bar and
    # the tempo, 6.
    open_board = Position.from_checkers({10: 1, 2: 14}, {21: 1, 6: 14})
    assert rulebased.shot_cost(np.array(open_board.board, dtype=np.int8)) == \
        pytest.approx(17 * 21 / 36)
    # With the 6- and 8-points made, 4-2 (through 6 or 8) and 2-2 (through 6) are blocked;
    # 3-3 goes through the 7, 5-1 through the 5 or the 9: 11 + 2 + 1 = 14 of 36.
    blocked = Position.from_checkers({10: 1, 8: 2, 6: 2, 2: 10}, {21: 1, 6: 14})
    assert rulebased.shot_cost(np.array(blocked.board, dtype=np.int8)) == \
        pytest.approx(14 * 21 / 36)
    # No opponent checker behind the blot: no shot.
    safe = Position.from_checkers({10: 1, 6: 14}, {6: 15})
    assert rulebased.shot_cost(np.array(safe.board, dtype=np.int8)) == 0.0


def test_pips_by_hand() -> None:
    p = Position.from_checkers({10: 1, 6: 14}, {21: 1, 25: 1, 6: 13})
    assert rulebased.pips(np.array(p.board, dtype=np.int8)) == (10 + 84, 21 + 25 + 78)


def test_in_a_race_it_bears_off_when_it_can() -> None:
    race = Position.from_checkers({6: 1, 5: 1, 2: 3}, {1: 15})
    assert str(rulebased.choose_play(race, (6, 5))) == "6/off 5/off"
    # 4-2 from the 5- and 3-points: 5/1 3/1 keeps both on, 5/3 then 3/off bears one off.
    two = Position.from_checkers({5: 1, 3: 1}, {1: 15})
    play = rulebased.choose_play(two, (4, 2))
    assert play is not None
    assert play.position.borne_off()[1] == 14


def test_when_ahead_it_breaks_contact() -> None:
    # One checker left back on the opponent's 5-point; the opponent's checkers are on its 10-
    # and 6-points (122 pips), the mover's on 122. 6-6 can run the back checker out (20/8)
    # and leave a race led by 122 - 98 = 24 pips, the opponent on roll.
    p = Position.from_checkers({20: 1, 13: 2, 8: 2, 6: 10}, {10: 8, 6: 7})
    play = rulebased.choose_play(p, (6, 6))
    assert play is not None
    assert play.position.is_race(), str(play)
    assert _after(play.position)[20] == 0


def test_the_same_board_gives_the_same_choice() -> None:
    p = Position.from_id("4HPwATDgc/ABMA")
    plays = p.legal_plays((5, 2))
    before = np.array(p.board, dtype=np.int8)
    boards = np.array([_after(q.position) for q in plays], dtype=np.int8)
    picks = {rulebased.pick(before, boards, len(plays)) for _ in range(5)}
    assert len(picks) == 1
    a = duel(Player(RULES), Player(RANDOM), 10, seed=4)
    assert np.array_equal(a, duel(Player(RULES), Player(RANDOM), 10, seed=4))


def test_it_beats_random_by_far() -> None:
    ppg, ci = summary(duel(Player(RULES), Player(RANDOM), 40, seed=7))
    assert ppg - ci > 1.0
    ppg, ci = summary(duel(Player(RULES), Player(RANDOM), 40, seed=7,
                           start=start_board("nackgammon")))
    assert ppg - ci > 1.0


def test_the_benchmark_names_it_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert player("rules")[1].kind == RULES
    assert main(["bench", "strength", "rules", "random", "--games", "4", "--variant",
                 "nackgammon"]) == 0
    assert "rules vs random (nackgammon):" in capsys.readouterr().out
