"""Records of the reserve variants (Race, Dutch, Acey-Deucey): Table's JSON record holds them,
named doubles included; .mat and SGF, GNU Backgammon's formats, refuse them with the reason."""

from __future__ import annotations

import json
import random

import pytest

from table.errors import RecordError
from table.match import Match, Move, NameDouble, OpeningRoll, Phase

VARIANTS = ("race", "dutch", "acey-deucey")


def played(variant: str, seed: int) -> Match:
    """A one-game match of ``variant`` played to its end: a play that leaves the mover the
    fewest pips (a short game), any other legal action at random."""
    m = Match(length=1, cube=variant == "dutch", variant=variant, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.phase == Phase.MOVE and m.dice is not None:
            plays = m.position.legal_plays(m.dice)
            m.apply(Move.of(min(plays, key=lambda p: p.position.pip_counts()[1])) if plays else Move(""))
            continue
        legal = m.legal_actions()
        m.apply(rng.choice([a for a in legal if a.kind not in ("resign", "double")] or legal))
    return m


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_finished_game_round_trips_through_the_json_record(variant):
    m = played(variant, 5)
    text = json.dumps(m.to_json())
    again = Match.from_json(text)
    assert again.variant.name == variant and again.actions == m.actions
    assert again.state == m.state and again.results == m.results and again.is_over
    if variant == "acey-deucey":
        assert any(isinstance(a, NameDouble) for a in m.actions)
        assert any(a["type"] == "name_double" for a in json.loads(text)["actions"])


def test_an_acey_deucey_game_saved_while_a_double_is_to_be_named_goes_on_from_there():
    m = Match(length=3, cube=False, variant="acey-deucey", seed=2)
    m.apply(OpeningRoll((2, 1)))
    m.apply(Move("in/22"))
    assert m.phase == Phase.NAME_DOUBLE
    again = Match.from_json(m.to_json(), seed=9)
    assert again.state == m.state and again.turn == 0
    again.apply(NameDouble(3))
    assert again.dice == (3, 3)


def test_a_named_double_out_of_turn_in_a_saved_record_is_refused_with_its_place():
    m = Match(length=3, cube=False, variant="acey-deucey", seed=2)
    m.apply(OpeningRoll((3, 2)))
    data = m.to_json()
    data["actions"].append({"type": "name_double", "number": 6})
    with pytest.raises(RecordError, match="action 2 .*naming a double is not possible now"):
        Match.from_json(data)


@pytest.mark.parametrize("variant, title", [("race", "Backgammon Race"), ("dutch", "Dutch backgammon"),
                                            ("acey-deucey", "Acey-Deucey")])
def test_mat_and_sgf_refuse_a_reserve_variant_and_say_why(variant, title):
    m = Match(length=3, cube=variant == "dutch", variant=variant, seed=1)
    m.apply(OpeningRoll((2, 1)))
    for write, form in ((m.to_mat, ".mat"), (m.to_sgf, "SGF")):
        with pytest.raises(RecordError) as caught:
            write()
        assert str(caught.value) == (f"{form} cannot hold a match of {title}: GNU Backgammon has no such "
                                     "variant; save it as Table's JSON record (Match.to_json)")


@pytest.mark.parametrize("name", ["race", "Acey-Deucey", "dutch"])
def test_a_mat_record_naming_a_reserve_variant_is_refused(name):
    standard = Match(length=1, seed=3)
    standard.apply(OpeningRoll((3, 1)))
    standard.apply(Move("8/5 6/5"))
    text = standard.to_mat().replace('[Variation "Backgammon"]', f'[Variation "{name}"]')
    assert f'"{name}"' in text
    with pytest.raises(RecordError, match="which .mat and SGF records cannot hold"):
        Match.from_mat(text)
