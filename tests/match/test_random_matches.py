"""Whole matches played by random players: invariants at every step and the final score."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from table.match import AcceptResignation, Double, Match, Phase, RejectResignation, Resign
from table.match.state import State, turn

from tests.match.helpers import random_player


def _expected_points(before: State, after: State) -> int:
    """The points of a finished game, worked out here from the board and the cube."""
    r = after.result
    assert r is not None
    if r.how == "drop":
        return before.cube_value
    if r.how == "resign":
        level = before.resign_level
    else:
        # The winner has just moved, so the loser is on roll in ``after``.
        board = after.position.board
        on_board = sum(n for n in board[1:26] if n > 0)
        if on_board < 15:
            level = 1
        elif board[25] > 0 or any(board[i] > 0 for i in range(19, 25)):
            level = 3
        else:
            level = 2
    if before.settings.length == 0 and before.settings.jacoby and before.cube_value == 1:
        level = 1
    return level * before.cube_value


def _play(length: int, cube: bool, seed: int, uniform: bool = False) -> Match:
    m = Match(length=length, cube=cube, seed=seed)
    rng = random.Random(seed)
    choose = random_player(rng)
    games_left = 6 if length == 0 else 10**6  # money play never ends by itself
    while not m.is_over and games_left:
        actions = m.legal_actions()
        assert actions, m.phase
        action = rng.choice(actions) if uniform else choose(actions)
        before = m.state
        m.apply(action)
        after = m.state
        # Invariants after every action.
        assert 1 <= after.cube_value <= 64
        assert (after.cube_owner is None) == (after.cube_value == 1)
        if before.crawford:
            assert not isinstance(action, Double)
        if isinstance(action, Resign):
            # The offer waits on the other player; the dice of a roll stay on the board.
            assert after.phase == Phase.RESIGN and turn(after) == 1 - turn(before)
            assert after.dice == before.dice and after.resume_phase == before.phase
        if isinstance(action, RejectResignation):
            assert (after.phase, after.dice, turn(after)) == (before.resume_phase, before.dice,
                                                              1 - turn(before))
            assert not any(isinstance(a, Resign) for a in m.legal_actions())
        for side in (True, False):
            checkers = after.position.checkers(side)
            on_board = sum(checkers.values())
            assert on_board + after.position.borne_off()[0 if side else 1] == 15
        if after.result is not None and before.result is None:
            assert after.result.points == _expected_points(before, after)
            score = list(before.score)
            score[after.result.winner] += after.result.points
            assert after.score == tuple(score)
            games_left -= 1
    return m


def _answers(m: Match) -> set[tuple[str, Phase | None]]:
    """Each answer to a resignation in ``m`` with the phase its offer was made in."""
    return {(a.kind, s.resume_phase) for s, a in m.history
            if isinstance(a, (AcceptResignation, RejectResignation))}


def _label(m: Match) -> None:
    """Tell Hypothesis's statistics which resignations a generated match held."""
    for kind, phase in _answers(m):
        event(f"{kind} of an offer made in phase {phase.value if phase else None}")


def _check_match(m: Match) -> None:
    # Scores are the sum of the games' points.
    totals = [0, 0]
    crawford_games = []
    for state, _ in m.history:
        if state.phase == Phase.OPENING and state.crawford:
            crawford_games.append(state.game_number)
    # The Crawford game is the first game after someone first reaches length - 1.
    expected_crawford = None
    for number, r in enumerate(m.results, start=1):
        totals[r.winner] += r.points
        if (m.length and expected_crawford is None and m.length - 1 in totals
                and max(totals) < m.length):
            expected_crawford = number + 1
    assert tuple(totals) == m.score
    if m.length:
        assert crawford_games == ([] if expected_crawford is None or expected_crawford > m.game_number
                                  else [expected_crawford])
    if m.is_over:
        assert m.winner is not None
        assert m.score[m.winner] >= m.length > m.score[1 - m.winner]


def _records_round_trip(m: Match) -> None:
    restored = Match.from_json(m.to_json())
    assert restored.actions == m.actions and restored.state == m.state
    if m.phase != Phase.MOVE:
        from_mat = Match.from_mat(m.to_mat())
        kept = []
        skip = False
        for a in m.actions:
            if skip:
                skip = False
                continue
            if isinstance(a, Resign) and isinstance(_next(m, a), RejectResignation):
                skip = True  # .mat has no rejected resignations
                continue
            kept.append(a)
        if m.phase not in (Phase.TAKE, Phase.RESIGN):
            assert list(from_mat.actions) == kept
        assert from_mat.score == m.score and from_mat.results == m.results


def _next(m: Match, action: object) -> object:
    actions = m.actions
    for i, a in enumerate(actions):
        if a is action and i + 1 < len(actions):
            return actions[i + 1]
    return None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.sampled_from([1, 3, 5, 7]), cube=st.booleans())
def test_random_matches_end_with_a_consistent_score(seed: int, length: int, cube: bool) -> None:
    m = _play(length, cube, seed)
    assert m.is_over
    _check_match(m)
    _records_round_trip(m)
    _label(m)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_uniformly_random_actions_including_resignations(seed: int) -> None:
    m = _play(5, True, seed, uniform=True)
    assert m.is_over
    _check_match(m)
    _records_round_trip(m)
    _label(m)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_money_sessions_keep_going(seed: int) -> None:
    m = _play(0, True, seed)
    assert not m.is_over and m.winner is None
    _check_match(m)
    _records_round_trip(m)
    _label(m)


def test_random_play_resigns_after_rolling_and_the_records_keep_it() -> None:
    # Fixed seeds, so that offers made with the dice rolled, accepted and refused, are
    # certainly among the matches whose records are checked.
    seen: set[tuple[str, Phase | None]] = set()
    for seed in range(3):
        m = _play(5, True, seed, uniform=True)
        _check_match(m)
        _records_round_trip(m)
        seen |= _answers(m)
    assert {("accept_resignation", Phase.MOVE), ("reject_resignation", Phase.MOVE)} <= seen


def test_a_seeded_match_is_reproducible() -> None:
    a, b = _play(7, True, 12345), _play(7, True, 12345)
    assert a.actions == b.actions and a.score == b.score
    assert _play(7, True, 54321).actions != a.actions
