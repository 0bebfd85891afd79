"""The move graph: every order of every legal play, and nothing else."""

from __future__ import annotations

import itertools
import random

import pytest

from table.errors import IllegalPlayError
from table.rules.position import Position
from table.rules.movegraph import move_graph


def paths(g, node=0, prefix=()):
    if not g.nodes[node]:
        yield prefix, node
    for src, dst, _die, _hit, child in g.nodes[node]:
        yield from paths(g, child, prefix + ((src, dst),))


def test_opening_31_first_steps_hand_counted():
    g = move_graph(Position.initial(), (3, 1))
    # With the 3: 24/21 13/10 8/5 6/3; with the 1: 24/23 8/7 6/5 (13/12 is the
    # opponent's 13-point).
    assert sorted((s, d) for s, d, *_ in g.nodes[0]) == sorted(
        [(24, 21), (13, 10), (8, 5), (6, 3), (24, 23), (8, 7), (6, 5)])
    assert g.depth == 2 and len(g.plays) == 16


def test_either_order_gives_the_same_play():
    g = move_graph(Position.initial(), (3, 1))
    assert str(g.play_for([(8, 5), (6, 5)])) == "8/5 6/5"
    assert str(g.play_for([(6, 5), (8, 5)])) == "8/5 6/5"
    # One checker, through either intermediate point.
    assert g.play_for([(24, 21), (21, 20)]) == g.play_for([(24, 23), (23, 20)])


def test_from_the_bar_only_the_bar_moves_first():
    p = Position.from_checkers({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {13: 5, 8: 3, 6: 5, 24: 2})
    g = move_graph(p, (4, 2))
    assert {s for s, *_ in g.nodes[0]} == {25}


def test_illegal_and_incomplete_steps_are_refused():
    g = move_graph(Position.initial(), (6, 5))
    with pytest.raises(IllegalPlayError, match="step 1"):
        g.play_for([(13, 6)])
    with pytest.raises(IllegalPlayError, match="not complete"):
        g.play_for([(24, 18)])
    with pytest.raises(IllegalPlayError, match="step 2"):
        g.play_for([(24, 18), (18, 12)])  # 12 is held by the opponent's five


def test_no_move_possible():
    # Every entry point closed: the roll cannot be played.
    p = Position.from_checkers({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    g = move_graph(p, (3, 4))
    assert g.plays == () and g.nodes == ((),)
    with pytest.raises(IllegalPlayError, match="no move is possible"):
        g.play_for([])


def random_positions(n: int, seed: int, variant: str = "standard"):
    rng = random.Random(seed)
    p = Position.initial(variant)
    out = []
    while len(out) < n:
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        p = rng.choice(plays).position if plays else p.swapped()
        if p.is_game_over:
            p = Position.initial(variant)
        out.append(p)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_graph_matches_legal_plays(seed):
    rng = random.Random(seed)
    for p in random_positions(60, seed):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = p.legal_plays(dice)
        g = move_graph(p, dice)
        if not plays:
            assert g.nodes == ((),)
            continue
        found = {}
        for steps, end in paths(g):
            assert len(steps) == len(plays[0].steps)
            found.setdefault(g.finals[end], set()).add(steps)
            assert g.play_for(steps) == plays[g.finals[end]]
        # Every legal play is reached, by its own steps among others.
        assert set(found) == set(range(len(plays)))
        # The start is node 0, no edge leads back to it, and every node lies on some path.
        children = [c for edges in g.nodes for *_, c in edges]
        assert 0 not in children and set(children) == set(range(1, len(g.nodes)))
        # Each play's standard notation leads back to it.
        assert len(g.by_text) == len(plays) and all(g.by_text[str(play)] == play for play in plays)
        for i, play in enumerate(plays):
            assert g.play_for(play.steps) == play
            # Every reordering of the play's steps that the graph allows ends in the same play.
            for perm in itertools.permutations(play.steps):
                if perm in found[i]:
                    assert g.play_for(perm) == play


def reference_graph(position, dice):
    """The walk as first written in Python (before ``graphkernel``): what the compiled one must equal,
    node for node and edge for edge.  Reserve boards step by ``reservekernel``'s rule."""
    import numpy as np

    from table.rules import kernel, reservekernel
    from table.rules.position import boards_after

    plays = position.legal_plays(dice)
    if not plays:
        return (), ((),), {}
    depth = len(plays[0].steps)
    targets = {row.tobytes(): i for i, row in enumerate(boards_after(plays))}
    d1, d2 = dice
    left0 = (d1,) * 4 if d1 == d2 else tuple(sorted(dice, reverse=True))
    reserve = len(position.board) == 28
    rules = position.variant.rules
    nodes, finals, seen = [], {}, {}

    def visit(board, left, level):
        key = (board.tobytes(), left)
        if key in seen:
            return seen[key]
        if level == depth:
            node = -1
            if key[0] in targets:
                nodes.append([])
                node = len(nodes)
                finals[node] = targets[key[0]]
            seen[key] = node
            return node
        edges = []
        if reserve:
            high = reservekernel._rearmost.py_func(board)
        else:
            high = kernel.highest_point.py_func(board)
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for src in range(27 if reserve else 26)[:0:-1]:
                if board[src] <= 0:
                    continue
                if reserve:
                    dst = reservekernel._target.py_func(board, src, die, high, rules.reserve_first,
                                                        rules.hit_needs_home, rules.bar_first)
                else:
                    dst = kernel.step_target.py_func(board, src, die, high)
                if dst < 0:
                    continue
                nxt = board.copy()
                hit = bool(kernel.apply_step.py_func(nxt, src, dst))
                child = visit(nxt, tuple(rest), level + 1)
                if child >= 0:
                    edges.append((src, dst, die, hit, child))
        node = -1
        if edges:
            nodes.append(edges)
            node = len(nodes)
        seen[key] = node
        return node

    root = visit(np.array(position.board, dtype=np.int8), left0, 0)
    assert root == len(nodes)
    return tuple(plays), (tuple(nodes[-1]), *map(tuple, nodes[:-1])), finals


@pytest.mark.parametrize("variant", ["standard", "nackgammon", "hypergammon", "race", "dutch", "acey-deucey"])
def test_the_compiled_walk_builds_the_graph_the_python_walk_built(variant):
    rng = random.Random(17)
    positions = random_positions(150, 3, variant)
    doubles = 0
    for p in positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        doubles += dice[0] == dice[1]
        g = move_graph(p, dice)
        plays, nodes, finals = reference_graph(p, dice)
        assert (g.plays, g.nodes, g.finals) == (plays, nodes, finals), (p.id, dice)
    assert doubles > 10


@pytest.mark.parametrize("variant", ["race", "dutch", "acey-deucey"])
def test_every_path_of_a_reserve_games_graph_is_a_legal_play_and_every_play_has_one(variant):
    rng = random.Random(5)
    for p in random_positions(80, 9, variant):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = p.legal_plays(dice)
        g = move_graph(p, dice)
        if not plays:
            assert g.nodes == ((),)
            continue
        reached = set()
        for steps, end in paths(g):
            assert g.play_for(steps) == plays[g.finals[end]]
            reached.add(g.finals[end])
        assert reached == set(range(len(plays)))
