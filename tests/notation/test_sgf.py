"""SGF for backgammon (GM[6]): the point letters of the specification, and whole matches."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from table.match import AcceptResignation, Match, Move, OpeningRoll, Resign, Roll
from table.notation.sgf import SgfMove, letter_point, parse_sgf_moves, point_letter, sgf_move

from tests.notation.helpers import needs_gnubg, resigning_after_rolling, through_gnubg



@pytest.mark.parametrize("move, text", [
    # The examples of the GM[6] specification.
    (SgfMove(0, "roll", (3, 1), ((8, 5), (6, 5))), "31hefe"),
    (SgfMove(1, "roll", (6, 1), ((25, 18),)), "61yg"),
    (SgfMove(1, "roll", (6, 6), ()), "66"),
    (SgfMove(0, "roll", (6, 6), ((6, 0), (5, 0), (4, 0), (3, 0))), "66fzezdzcz"),
    (SgfMove(0, "double"), "double"),
    (SgfMove(1, "take"), "take"),
])
def test_specification_examples(move: SgfMove, text: str) -> None:
    assert sgf_move(move) == text


def test_letters_run_from_white_one_to_black_one() -> None:
    assert point_letter(0, 1) == "a" and point_letter(0, 24) == "x"
    assert point_letter(1, 24) == "a" and point_letter(1, 1) == "x"
    for player in (0, 1):
        for point in range(0, 26):
            assert letter_point(player, point_letter(player, point)) == point


def _match(seed: int, cube: bool = False) -> Match:
    m = Match(length=3, cube=cube, seed=seed, players=("Anca", "Bogdan ]"))
    rng = random.Random(seed)
    while not m.is_over:
        actions = m.legal_actions()
        plain = [a for a in actions if a.kind not in ("resign", "drop")]
        m.apply(rng.choice(plain))
    return m


def test_match_export_has_one_tree_per_game_with_result_and_moves() -> None:
    m = _match(4)
    assert m.game_number > 1
    text = m.to_sgf()
    trees = text.strip().split("\n(")
    assert len(trees) == m.game_number == len(m.results)
    for index, (tree, result) in enumerate(zip(trees, m.results)):
        assert "GM[6]" in tree and f"MI[length:3][game:{index}]" in tree
        assert f"RE[{'WB'[result.winner]}+{result.points}" in tree
    assert "PB[Bogdan \\]]" in text
    # Replaying the SGF moves gives the match's positions.
    moves = parse_sgf_moves(text)
    plays = [(s, a) for s, a in m.history if isinstance(a, Move)]
    rolls = [mv for mv in moves if mv.kind == "roll"]
    assert len(rolls) == len(plays)
    for mv, (state, action) in zip(rolls, plays):
        assert mv.player == state.on_roll and mv.dice == state.dice
        after = state.position
        for step in mv.steps:
            assert step in [s for p in after.legal_plays(state.dice) for s in p.steps]
        if action.play:
            play = state.position.parse_play(action.play, state.dice)
            assert mv.steps == play.steps


def test_crawford_game_is_marked() -> None:
    for seed in range(40):
        m = _match(seed)
        if any(s.crawford for s, _ in m.history):
            break
    else:  # pragma: no cover
        pytest.fail("no Crawford game in these seeds")
    assert m.to_sgf().count("Crawford:CrawfordGame]") == 1


@needs_gnubg
def test_gnu_backgammon_loads_our_sgf(tmp_path: Path) -> None:
    m = _match(7, cube=True)
    back = through_gnubg(m.to_sgf(), "sgf", tmp_path)
    again = Match.from_mat(back)
    assert again.score == m.score
    assert [a for a in again.actions] == [a for a in Match.from_mat(m.to_mat()).actions]
    assert re.search(r"Bogdan", back)


def test_resignation_after_rolling_is_written_as_gnu_backgammon_does() -> None:
    # GNU Backgammon 1.07 saved this game (root rolls 64 and resigns) with the moves
    # ";W[31hefe]" and ";PL[B]DI[64])" and the result RE[W+1R].
    m = Match(length=3, players=("gnubg", "root"))
    for action in (OpeningRoll((3, 1)), Move("8/5 6/5"), Roll((6, 4)), Resign(1), AcceptResignation()):
        m.apply(action)
    text = m.to_sgf()
    assert text.rstrip().endswith(";W[31hefe]\n;PL[B]DI[64])") and "RE[W+1R]" in text
    assert [(mv.player, mv.kind, mv.dice) for mv in parse_sgf_moves(text)] == \
        [(0, "roll", (3, 1)), (1, "dice", (6, 4))]


@needs_gnubg
@pytest.mark.parametrize("forced", [False, True])
def test_gnu_backgammon_loads_our_resignations_after_rolling(tmp_path: Path, forced: bool) -> None:
    m, count = resigning_after_rolling(forced, seed=1)
    assert count
    assert Match.from_mat(through_gnubg(m.to_sgf(), "sgf", tmp_path)).actions == m.actions
