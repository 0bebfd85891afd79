"""Invariants of legal-play generation over arbitrary positions and rolls."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.tools.corpus import random_positions

from .oracle import oracle_results
from .strategies import dice, positions

CORPUS = random_positions(400, seed=11)


def _mover_view_after(play_position: Position) -> tuple[int, ...]:
    return play_position.swapped().board


@settings(max_examples=400, deadline=None)
@given(positions(), dice)
def test_generator_agrees_with_naive_oracle(position: Position, roll: tuple[int, int]) -> None:
    plays = position.legal_plays(roll)
    got = [_mover_view_after(p.position) for p in plays]
    assert len(got) == len(set(got)), "one play per distinct resulting position"
    assert set(got) == oracle_results(position.board, roll)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(CORPUS), dice)
def test_generator_agrees_with_oracle_in_real_games(position: Position, roll: tuple[int, int]) -> None:
    got = {_mover_view_after(p.position) for p in position.legal_plays(roll)}
    assert got == oracle_results(position.board, roll)


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_never_land_on_closed_points(
    position: Position, roll: tuple[int, int]
) -> None:
    before_off = position.borne_off()
    for play in position.legal_plays(roll):
        after = play.position
        # Each side still has 15 checkers between the board and the tray.
        assert sum(n for n in after.board if n > 0) + after.borne_off()[0] == 15
        assert -sum(n for n in after.board if n < 0) + after.borne_off()[1] == 15
        # The opponent's borne-off count never changes on our move.
        assert after.borne_off()[0] == before_off[1]
        # Replay the steps: no step lands on a point the opponent holds.
        board = list(position.board)
        for src, dst in play.steps:
            assert board[src] > 0
            if dst:
                assert board[dst] >= -1, f"{play} lands on closed point {dst}"
                if board[dst] == -1:
                    board[dst] = 0
                    board[0] -= 1
                board[dst] += 1
            board[src] -= 1
        assert tuple(board) == after.swapped().board


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_play_uses_as_many_dice_as_possible(position: Position, roll: tuple[int, int]) -> None:
    plays = position.legal_plays(roll)
    if not plays:
        return
    used = {len(p.steps) for p in plays}
    assert len(used) == 1
    for play in plays:
        for (src, dst) in play.steps:
            distance = src - dst
            assert distance in roll or dst == 0 and distance < max(roll)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_ids_round_trip(position: Position) -> None:
    again = Position.from_id(position.id)
    assert again == position
    assert hash(again) == hash(position)
    assert len(position.id) == 14


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(CORPUS), dice)
def test_notation_round_trips(position: Position, roll: tuple[int, int]) -> None:
    for play in position.legal_plays(roll):
        assert position.parse_play(str(play), roll) == play


@settings(max_examples=200, deadline=None)
@given(positions())
def test_swapping_twice_is_identity_and_keeps_pips(position: Position) -> None:
    swapped = position.swapped()
    assert swapped.swapped() == position
    assert swapped.pip_counts() == position.pip_counts()[::-1]
    assert swapped.borne_off() == position.borne_off()[::-1]
