"""Why a match has no .mat / SGF record, as a code a client words in the player's language
(``records_of``'s ``why_code``): a variant GNU Backgammon does not play, a match set up from a position."""

from __future__ import annotations

import pytest

from table.match import Match
from table.server.learn.routes import records_of

from tests.match.helpers import reserve_setup


@pytest.mark.parametrize("variant", ["race", "dutch", "acey-deucey"])
def test_a_variant_gnu_backgammon_does_not_play_is_the_variant_reason(variant):
    records = records_of(Match(length=1, cube=False, variant=variant))
    assert (records["mat"], records["sgf"], records["why_code"]) == (None, None, "variant")
    assert records["json"]["variant"] == variant


def test_a_match_set_up_from_a_position_is_the_position_reason():
    m = Match.from_ids("4HPwATDgc/ABMA", "cIkSAAAAAAAA")  # standard backgammon, 5-4 to play
    records = records_of(m)
    assert (records["mat"], records["why_code"]) == (None, "position")


def test_a_reserve_game_set_up_from_a_position_says_position_first_as_the_records_check():
    records = records_of(reserve_setup("race", {6: 15}, {6: 15}, (3, 1)))
    assert records["why_code"] == "position" and "Position ID" in records["why"]


def test_a_match_the_records_hold_has_no_reason():
    records = records_of(Match(length=3, seed=1))
    assert records["mat"] and records["sgf"] and "why_code" not in records and "why" not in records
