"""Hypergammon in the records: .mat ``Variation``, SGF ``RU``, JSON ``variant``, as GNU
Backgammon writes and reads them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from table.match import Match
from table.rules.position import Position
from table.rules.variant import HYPERGAMMON
from tests.notation.helpers import needs_gnubg, through_gnubg

# Written by GNU Backgammon 1.07: `set variation 3-chequer-hypergammon`, `new match 1`,
# `export match mat` (the opening roll only: it cannot play Hypergammon without its database).
GNUBG_START = (Path(__file__).parent / "data" / "gnubg_hypergammon_start.mat").read_text()
# Its `save match` of the same wrote RU[Hypergammon3]; a game after the Crawford one's rules:
GNUBG_SGF_RULES = "Crawford:Hypergammon3"


def _match(seed: int, length: int = 3) -> Match:
    m = Match(length=length, seed=seed, players=("Ilinca", "Sorin"), variant="hypergammon")
    rng = random.Random(seed)
    while not m.is_over:
        actions = m.legal_actions()
        plain = [a for a in actions if a.kind not in ("resign", "double", "drop")]
        m.apply(rng.choice(actions) if rng.random() < 0.05 else rng.choice(plain))
    return m


def test_the_variation_is_written_as_gnubg_writes_it() -> None:
    m = _match(3)
    assert re.findall(r'; \[Variation "[^"]*"\]', GNUBG_START) == ['; [Variation "HyperGammon (3)"]']
    assert '; [Variation "HyperGammon (3)"]' in m.to_mat()
    rules = re.findall(r"RU\[([^]]*)\]", m.to_sgf())
    assert rules and all(r.endswith("Hypergammon3") for r in rules)
    assert rules[0] == GNUBG_SGF_RULES


def test_hypergammon_records_read_back() -> None:
    m = _match(5)
    assert m.to_json()["variant"] == "hypergammon"
    for again in (Match.from_mat(m.to_mat()), Match.from_sgf(m.to_sgf()),
                  Match.from_json(m.to_json())):
        assert again.variant is HYPERGAMMON
        assert again.start.position == Position.initial("hypergammon")
        assert again.score == m.score and again.results == m.results
    # .mat and SGF write some actions their own way (a resignation after the roll); JSON keeps all.
    assert Match.from_json(m.to_json()).actions == m.actions


def test_gammons_count_three_checkers() -> None:
    # Over many random games some side is gammoned: it had borne off none of its three.
    levels = [r.level for seed in range(8) for r in _match(seed, 5).results if r.how == "checkers"]
    assert 2 in levels or 3 in levels


@needs_gnubg
@pytest.mark.parametrize("kind", ["mat", "sgf"])
def test_gnu_backgammon_reads_our_hypergammon_record(kind: str, tmp_path: Path) -> None:
    m = _match(13)
    back = through_gnubg(m.to_mat() if kind == "mat" else m.to_sgf(), kind, tmp_path)
    assert '; [Variation "HyperGammon (3)"]' in back
    again = Match.from_mat(back)
    assert again.variant is HYPERGAMMON
    assert again.score == m.score and again.results == m.results
    assert again.actions == Match.from_mat(m.to_mat()).actions
