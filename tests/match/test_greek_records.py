"""Records of Plakoto, Fevga, Portes and the Tavli match: Table's JSON record writes each game
and a whole Tavli match and reads it back to the same state; .mat and SGF, GNU Backgammon's
formats, refuse them with the reason."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.errors import MatchSettingsError, RecordError
from table.match import Match, Move, NextGame, OpeningRoll, Phase

KINDS = ("plakoto", "fevga", "portes", "tavli")


def played(kind: str, seed: int, resign_chance: float = 0.0, length: int = 3) -> Match:
    """A match of ``kind`` played to its end: mostly the play that leaves the mover the fewest
    pips (short games, pins and mothers included), sometimes another; resignations now and then."""
    m = Match(length=length, cube=False, variant=kind, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.phase == Phase.MOVE and m.dice is not None:
            plays = m.position.legal_plays(m.dice)
            resigns = [a for a in m.legal_actions() if a.kind == "resign"]
            if plays and resigns and rng.random() < resign_chance:
                m.apply(rng.choice(resigns))
                continue
            if not plays:
                m.apply(Move(""))
            elif rng.random() < 0.7:
                m.apply(Move.of(min(plays, key=lambda p: p.position.pip_counts()[1])))
            else:
                m.apply(Move.of(rng.choice(plays)))
            continue
        legal = m.legal_actions()
        m.apply(rng.choice([a for a in legal if a.kind != "resign"] or legal))
    return m


def same(a: Match, b: Match) -> None:
    assert a.kind == b.kind and a.variant == b.variant and a.series == b.series
    assert a.actions == b.actions and a.state == b.state and a.results == b.results
    assert a.score == b.score and a.winner == b.winner and a.game_number == b.game_number


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_match_round_trips_through_the_json_record(kind):
    m = played(kind, 11)
    data = m.to_json()
    assert data["variant"] == kind and data["cube"] is False
    same(Match.from_json(json.dumps(data)), m)


def test_a_whole_tavli_match_keeps_each_games_variant():
    m = played("tavli", 3, length=5)
    again = Match.from_json(json.dumps(m.to_json()))
    same(again, m)
    starts = [after for (before, action), after in zip(again.history, [s for s, _ in again.history[1:]] + [again.state])
              if isinstance(action, NextGame)]
    games = [again.start.position.variant.name] + [s.position.variant.name for s in starts]
    assert games == ["portes", "plakoto", "fevga", "portes", "plakoto", "fevga"][:len(games)]
    assert len(games) == again.game_number >= 2
    assert sum(isinstance(a, OpeningRoll) for a in again.actions) == 1 + sum(
        1 for r in again.results[:-1] if r.is_draw)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10_000),
       resign=st.sampled_from([0.0, 0.01, 0.05]), cut=st.floats(0.0, 1.0))
def test_any_match_or_part_of_one_reads_back_to_the_same_state(kind, seed, resign, cut):
    m = played(kind, seed, resign)
    data = m.to_json()
    same(Match.from_json(data), m)
    # A match stopped part way (as `table play` saves it) reads back to that moment too.
    part = data | {"actions": data["actions"][:int(len(data["actions"]) * cut)]}
    again = Match.from_json(json.dumps(part))
    assert again.to_json() == part
    replayed = Match(length=3, cube=False, variant=kind, seed=seed)
    for action in again.actions:
        replayed.apply(action)
    assert replayed.state == again.state


@pytest.mark.parametrize("kind", KINDS)
def test_mat_and_sgf_refuse_them_with_the_reason(kind):
    m = played(kind, 2)
    name = "a Tavli match" if kind == "tavli" else f"a match of {m.variant.title}"
    for write, form in ((m.to_mat, ".mat"), (m.to_sgf, "SGF")):
        with pytest.raises(RecordError, match=f"{form} cannot hold {name}") as caught:
            write()
        assert "JSON record" in str(caught.value)


def test_a_mat_record_naming_portes_is_refused():
    text = ("; [Variation \"Portes\"]\n\n 1 point match\n\n Game 1\n Player 1 : 0"
            "                     Player 2 : 0\n  1) 31: 8/5 6/5\n")
    with pytest.raises(RecordError, match="Portes"):
        Match.from_mat(text)


def test_bad_json_records_are_refused_with_a_clear_reason():
    data = played("tavli", 1).to_json()
    with pytest.raises(RecordError, match="unknown variant 'tavla'"):
        Match.from_json(data | {"variant": "tavla"})
    with pytest.raises(MatchSettingsError, match="3, 5 or 7 points"):
        Match.from_json(data | {"length": 4})
    with pytest.raises(MatchSettingsError, match="without the doubling cube"):
        Match.from_json(data | {"cube": True})
    broken = data | {"actions": data["actions"][:3] + [{"type": "double"}]}
    with pytest.raises(RecordError, match="action 4"):
        Match.from_json(broken)
