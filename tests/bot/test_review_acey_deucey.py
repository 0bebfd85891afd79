"""The review of Acey-Deucey (issue 50): the staged 1-2 turn weighed where it goes on (the 1-2's
play by the double it leaves to name, the double named against the best of the six, the named
double's play by the extra roll it earns), and no luck counted for a double that was chosen."""

from __future__ import annotations

import json

from table.match import Match, Move, NameDouble
from table.rules.dice import SeededDice
from table.server.learn.routes import review_for_web

from tests.match.helpers import reserve_setup

# Player 0 has six checkers left: on its 2 and 1 points and four on its 6 point; the opponent's 15
# all wait off the board.  Played 2/off 1/off, the 1-2 leaves the four on the 6 point, which a
# named 6-6 bears off: the game is won at once, a backgammon (3 points), since every opponent's
# checker is still waiting.  A named 1-1 cannot bear off anything.
ONE_TWO = ({2: 1, 1: 1, 6: 4}, {26: 15})
BACKGAMMON = 3.0


def one_two_then(named: int, then: str | None = None) -> Match:
    """The position above, 2/off 1/off played, ``named`` named and (``then``) its play made."""
    m = reserve_setup("acey-deucey", *ONE_TWO, (2, 1), dice_source=SeededDice(1))
    m.apply(Move("2/off 1/off"))
    m.apply(NameDouble(named))
    if then is not None:
        m.apply(Move(then))
    return m


def test_a_bad_double_named_after_a_one_two_is_a_blunder_against_the_one_that_wins():
    m = one_two_then(1, "6/5(4)")
    review = review_for_web(json.dumps(m.to_json()), 0)
    named = [d for d in review["decisions"] if d["kind"] == "name"]
    assert len(named) == 1
    d = named[0]
    assert (d["player"], d["played"], d["best"], d["mark"]) == (0, "1-1", "6-6", "??")
    assert d["best_equity"] == BACKGAMMON  # 6-6 bears the last four off: won, every opponent's checker waiting
    assert d["equity"] < BACKGAMMON - 0.16 and d["loss"] == round(BACKGAMMON - d["equity"], 6)
    # The board the review shows is the one the 1 and the 2 left: four checkers on player 0's 6 point.
    assert d["board"]["points"][5] == 4 and d["board"]["off"][0] == 11 and d["board"]["waiting"] == [0, 15]


def test_the_one_two_is_weighed_by_the_double_it_leaves_to_name():
    review = review_for_web(json.dumps(one_two_then(6, "6/off(4)").to_json()), 0)
    kinds = [(d["kind"], d["played"], d["best"]) for d in review["decisions"]]
    # The 1-2 that leaves the win to a named 6-6 is the best one, worth the backgammon it leads to;
    # 6-6 named was best, and its play, forced, is not a decision.
    assert kinds == [("play", "2/off 1/off", "2/off 1/off"), ("name", "6-6", "6-6")]
    first, second = review["decisions"]
    assert first["equity"] == first["best_equity"] == BACKGAMMON == second["equity"]
    assert first["loss"] == second["loss"] == 0.0


def test_a_named_double_is_chosen_not_rolled_so_it_brings_no_luck():
    review = review_for_web(json.dumps(one_two_then(1, "6/5(4)").to_json()), 0)
    # One roll: the 1-2.  The 1-1 was named, and the extra roll it earned is not rolled yet.
    assert review["totals"][0]["rolls"] == 1 and review["totals"][1]["rolls"] == 0


def test_naming_counts_with_the_checker_decisions_not_the_cube():
    review = review_for_web(json.dumps(one_two_then(1, "6/5(4)").to_json()), 0)
    mine = review["totals"][0]
    assert mine["cube_decisions"] == 0 and mine["cube_errors"] == 0
    assert mine["checker_decisions"] == mine["decisions"] == len(review["decisions"])
