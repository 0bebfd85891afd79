"""One word for one thing in the Romanian the players read (the native speaker's review of
6 December 2026): the match is "partidă" and a game "joc", the cube "cubul", resigning "abandon",
a forfeit "din oficiu", claiming "a cere victoria", a backgammon "marț triplu"; and the pages
say what is true now (games play offline)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from table.cli.play import MESSAGES

I18N = Path(__file__).resolve().parents[2] / "src" / "table" / "web" / "i18n"


def _texts(name: str) -> dict[str, str]:
    return json.loads((I18N / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


ROMANIAN = {**{f"ro.json:{k}": v for k, v in _texts("ro.json").items()},
            **{f"stats.ro.json:{k}": v for k, v in _texts("stats.ro.json").items()},
            **{f"pages.ro.json:{k}": v for k, v in _texts("pages.ro.json").items()},
            **{f"play.py:{k}": v for k, v in MESSAGES["ro"].items()}}

# What the review found, and the word that replaces it.
WRONG = [
    (r"\bmeci", "partidă (a match) or joc (a game)"),
    (r"\bzar(ul)? de dublare", "cubul (de dublare)"),
    (r"\bced(are|area|ează|ezi|at)\b", "abandon, abandonează"),
    (r"\bcere(ți)? partida|\bcerut partida|\bcere încă partida", "a cere victoria"),
    (r"[Mm]arțuri duble|marț dublu", "marț triplu"),
    (r"\{points\} p\.", "the points counted in words"),
    (r"\bjoc pe bani\b", "joc fără limită de puncte"),
]


@pytest.mark.parametrize(("pattern", "instead"), WRONG)
def test_one_word_for_one_thing(pattern: str, instead: str) -> None:
    found = [f"{where}: {text[:80]!r}" for where, text in ROMANIAN.items() if re.search(pattern, text)]
    assert found == [], f"use {instead}"


def test_a_resignation_is_abandon_and_a_forfeit_is_din_oficiu() -> None:
    stats = _texts("stats.ro.json")
    assert stats["st_ended_resign_lost"] == "prin abandon"  # lost by resigning: the game's own word
    assert "din oficiu" in stats["st_ev_forfeit"]


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_the_faq_says_games_play_without_the_server(lang: str) -> None:
    faq = _texts(f"pages.{lang}.json")["faq"]
    offline = {"ro": "Fără conexiune joci pe acest dispozitiv", "en": "Offline you play on this device"}[lang]
    assert offline in faq
    assert {"ro": "dar partidele se joacă prin server", "en": "but games are played through the server"}[lang] not in faq
