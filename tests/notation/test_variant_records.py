"""Nackgammon in the records: .mat ``Variation``, SGF ``RU``, JSON ``variant``, as GNU Backgammon writes them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from table.errors import RecordError, VariantError
from table.match import Match
from table.rules.position import Position
from table.rules.variant import NACKGAMMON, STANDARD
from tests.notation.helpers import needs_gnubg, through_gnubg

# Written by GNU Backgammon 1.07: `set variation nackgammon`, both players gnubg at 0 ply,
# `new match 3`, `export match mat`.  Its `save match` wrote these rules, game by game:
GNUBG_NACKGAMMON = (Path(__file__).parent / "data" / "gnubg_nackgammon_3pt.mat").read_text()
GNUBG_SGF_RULES = ["Crawford:Nackgammon", "Crawford:CrawfordGame:Nackgammon",
                   "Crawford:Nackgammon", "Crawford:Nackgammon"]


def _nackgammon_match(seed: int, length: int = 3) -> Match:
    m = Match(length=length, seed=seed, players=("Ana", "Radu"), variant="nackgammon")
    rng = random.Random(seed)
    while not m.is_over:
        # Cube actions now and then, as tests/notation/test_mat.py plays them (GNU Backgammon
        # 1.07 misreads a redouble dropped on the next line of a .mat).
        actions = m.legal_actions()
        plain = [a for a in actions if a.kind not in ("resign", "double", "drop")]
        m.apply(rng.choice(actions) if rng.random() < 0.05 else rng.choice(plain))
    return m


def test_reads_gnubgs_nackgammon_match() -> None:
    m = Match.from_mat(GNUBG_NACKGAMMON)
    assert m.variant is NACKGAMMON
    assert m.score == (5, 2) and m.is_over  # the last game: 3 points to gnubg (a backgammon resigned)
    assert m.start.position == Position.initial("nackgammon")
    assert [r.points for r in m.results] == [2, 1, 1, 3]
    # Read as standard backgammon, its first move (24/20 23/20) has no checker on the 23-point.
    standard = GNUBG_NACKGAMMON.replace('; [Variation "NackGammon"]\n', "")
    with pytest.raises(RecordError, match="line"):
        Match.from_mat(standard)


def test_writes_the_variation_as_gnubg_does() -> None:
    m = Match.from_mat(GNUBG_NACKGAMMON)
    assert '; [Variation "NackGammon"]' in m.to_mat()
    assert re.findall(r"RU\[([^]]*)\]", m.to_sgf()) == GNUBG_SGF_RULES
    again = Match.from_sgf(m.to_sgf())
    assert again.variant is NACKGAMMON and again.actions == m.actions
    assert '; [Variation "Backgammon"]' in Match(length=1).to_mat()
    assert "Nackgammon" not in Match(length=1).to_sgf()


def test_nackgammon_records_read_back() -> None:
    m = _nackgammon_match(5)
    for again in (Match.from_mat(m.to_mat()), Match.from_sgf(m.to_sgf()), Match.from_json(m.to_json())):
        assert again.variant is NACKGAMMON
        assert again.score == m.score and again.results == m.results
    assert Match.from_json(m.to_json()).actions == m.actions
    assert m.to_json()["variant"] == "nackgammon"
    old = m.to_json()
    del old["variant"]  # saved before variants: standard backgammon
    with pytest.raises(RecordError):
        Match.from_json(old)
    assert Match.from_json(Match(length=1).to_json()).variant is STANDARD


def test_every_game_of_a_nackgammon_match_starts_from_its_start() -> None:
    m = _nackgammon_match(8, length=5)
    starts = [state.position for state, _ in m.history if state.moves_played == 0 and state.dice is None]
    assert starts and all(p == Position.initial("nackgammon") for p in starts)
    assert len(m.results) >= 2


@pytest.mark.parametrize("name", ["Hypergammon4", "Grasshopper", "backgammon2"])
def test_unknown_variations_are_refused(name: str) -> None:
    text = Match.from_mat(GNUBG_NACKGAMMON).to_mat().replace("NackGammon", name)
    with pytest.raises(RecordError, match=f"the record's variation '{name}' is not one Table plays "
                                          r"\(Backgammon, NackGammon, HyperGammon \(3\)\)"):
        Match.from_mat(text)
    data = _nackgammon_match(1, length=1).to_json()
    data["variant"] = name
    with pytest.raises(RecordError, match=f"unknown variant '{name}'"):
        Match.from_json(data)
    with pytest.raises(VariantError, match=f"unknown variant '{name}'"):
        Match(length=1, variant=name)


def test_an_unknown_sgf_variation_is_refused() -> None:
    sgf = Match.from_mat(GNUBG_NACKGAMMON).to_sgf().replace("Nackgammon]", "Hypergammon4]")
    with pytest.raises(RecordError, match="'Hypergammon4' is not one Table plays"):
        Match.from_sgf(sgf)


@needs_gnubg
@pytest.mark.parametrize("kind", ["mat", "sgf"])
def test_gnu_backgammon_imports_our_nackgammon_record(kind: str, tmp_path: Path) -> None:
    m = _nackgammon_match(13)
    back = through_gnubg(m.to_mat() if kind == "mat" else m.to_sgf(), kind, tmp_path)
    assert '; [Variation "NackGammon"]' in back
    again = Match.from_mat(back)
    assert again.variant is NACKGAMMON
    assert again.score == m.score and again.results == m.results
    assert again.actions == Match.from_mat(m.to_mat()).actions


def test_a_variation_gnu_backgammon_cannot_hold_is_refused_saying_so() -> None:
    # Plakoto is a game Table knows, but no .mat file holds one: the record is refused, naming JSON.
    text = Match.from_mat(GNUBG_NACKGAMMON).to_mat().replace("NackGammon", "Plakoto")
    with pytest.raises(RecordError, match="'Plakoto' is Plakoto, which .mat and SGF records cannot hold"):
        Match.from_mat(text)
