"""Hypothesis strategies for positions and dice."""

from __future__ import annotations

from hypothesis import strategies as st

from table import Position

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Arbitrary legal positions, weighted toward the interesting corners.

    A "zone" chooses where the mover's checkers go: anywhere (bar included),
    or only in the home board so bear-offs are common.
    """
    zone = draw(st.sampled_from(["anywhere", "home", "mostly home", "bar"]))
    if zone == "home":
        mover_points = list(range(1, 7))
    elif zone == "mostly home":
        mover_points = list(range(1, 10))
    elif zone == "bar":
        mover_points = [25, 25, 25] + list(range(1, 25))
    else:
        mover_points = list(range(1, 26))
    n_mine = draw(st.integers(1, 15))
    board = [0] * 26
    for _ in range(n_mine):
        board[draw(st.sampled_from(mover_points))] += 1
    free = [i for i in range(0, 25) if board[i] == 0 or i == 0]
    n_theirs = draw(st.integers(1, 15))
    for _ in range(n_theirs):
        board[draw(st.sampled_from(free))] -= 1
    return Position(board)
