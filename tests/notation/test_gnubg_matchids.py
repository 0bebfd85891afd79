"""Match IDs read exactly as leniently as GNU Backgammon's ``set matchid`` (data/gnubg_matchids.txt)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import MatchIdError
from table.notation.matchid import GameState, decode_match_id, encode_match_id

from tests.notation.gnubg_matchids import make_id

FIXTURE = Path(__file__).parent / "data" / "gnubg_matchids.txt"


def gnubg_verdicts() -> dict[str, bool]:
    """Match ID -> whether GNU Backgammon 1.07 accepted it."""
    out = {}
    for line in FIXTURE.read_text(encoding="ascii").splitlines():
        if line and not line.startswith("#"):
            text, verdict = line.split()
            assert verdict in ("accepted", "refused")
            out[text] = verdict == "accepted"
    return out


def _won_past_the_length(text: str) -> bool:
    """A finished game's score past the length, one player only: GNU Backgammon refuses it,
    but a gammon can take a match there and our own Match writes such IDs."""
    key = int.from_bytes(base64.b64decode(text), "little")
    state, length = (key >> 8) & 7, (key >> 21) & 0x7FFF
    score = ((key >> 36) & 0x7FFF, (key >> 51) & 0x7FFF)
    dice = ((key >> 15) & 7, (key >> 18) & 7)
    return (2 <= state <= 4 and 0 < length <= 64 and max(score) > length > min(score)
            and max(dice) <= 6)


def test_the_fixture_covers_both_verdicts_and_every_field() -> None:
    verdicts = gnubg_verdicts()
    assert len(verdicts) > 3000
    assert sum(verdicts.values()) > 1500 and sum(not v for v in verdicts.values()) > 1000
    # Fields alone, straight from the generator: every game state 0-7, both owner bits 10.
    for state in range(8):
        assert verdicts[make_id(state=state)] is True
    assert verdicts[make_id(owner=2)] is True
    assert verdicts[make_id(die1=7)] is False


def test_every_id_gnubg_accepts_is_read() -> None:
    for text, accepted in gnubg_verdicts().items():
        if accepted:
            info = decode_match_id(text)
            # What is read is a consistent key that reads back as itself.
            assert decode_match_id(encode_match_id(info)) == info, text


def test_every_id_gnubg_refuses_is_a_match_id_error() -> None:
    kept = 0
    for text, accepted in gnubg_verdicts().items():
        if accepted:
            continue
        if _won_past_the_length(text):
            kept += 1
            assert decode_match_id(text).game_state in (GameState.OVER, GameState.RESIGNED,
                                                        GameState.DROPPED)
            continue
        with pytest.raises(MatchIdError, match="GNU Backgammon refuses it too"):
            decode_match_id(text)
    assert kept > 0


@settings(max_examples=500)
@given(st.fixed_dictionaries({
    "cube": st.integers(0, 15), "owner": st.integers(0, 3), "dice_owner": st.integers(0, 1),
    "crawford": st.integers(0, 1), "state": st.integers(0, 7), "turn": st.integers(0, 1),
    "double": st.integers(0, 1), "resign": st.integers(0, 3), "die1": st.integers(0, 7),
    "die2": st.integers(0, 7), "length": st.sampled_from([0, 1, 3, 5, 7, 25, 64, 65]),
    "score0": st.integers(0, 9), "score1": st.integers(0, 9)}))
def test_any_key_is_settled_or_refused_as_gnubg_refuses(fields: dict[str, int]) -> None:
    text = make_id(**fields)
    try:
        info = decode_match_id(text)
    except MatchIdError as exc:
        assert "GNU Backgammon refuses it too" in str(exc)
        return
    assert decode_match_id(encode_match_id(info)) == info
    assert info.match_length == fields["length"]
    assert info.score == (fields["score0"], fields["score1"])
