"""Counts in words, in every catalogue: each string that takes a number is rendered with 1, 2, 19,
20, 21, 100 and 101, and a number written straight before a noun must agree with it (Romanian
"1 punct", "2 puncte", "20 de puncte", "101 puncte"; English "1 point", "2 points").  A string
that prints a count without the plural helper ("{n} puncte") fails at 1 or at 20.

The web catalogues are rendered by the client's own i18n.js under Node (render.mjs); the
terminal's by its ``Terminal``; the Learn pages are read as they are."""

from __future__ import annotations

import html
import io
import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from table.cli.play import MESSAGES, Terminal

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "table" / "web"
NUMBERS = (1, 2, 19, 20, 21, 100, 101)

# Nouns (and the participles the app counts with) that a number may stand before: singular, plural.
WORDS = {
    "ro": [("punct", "puncte"), ("pip", "pipuri"), ("zi", "zile"), ("oră", "ore"), ("minut", "minute"),
           ("secundă", "secunde"), ("mutare", "mutări"), ("zar", "zaruri"), ("piesă", "piese"),
           ("caracter", "caractere"), ("joc", "jocuri"), ("partidă", "partide"), ("victorie", "victorii"),
           ("înfrângere", "înfrângeri"), ("masă", "mese"), ("mesaj", "mesaje"), ("câștigată", "câștigate"),
           ("pierdută", "pierdute"), ("scoasă", "scoase"), ("decizie", "decizii"), ("aruncare", "aruncări"),
           ("poartă", "porți"), ("marț", "marțuri"), ("jucător", "jucători"), ("notificare", "notificări"),
           ("încercare", "încercări"), ("săptămână", "săptămâni"), ("literă", "litere"), ("cifră", "cifre"),
           ("triunghi", "triunghiuri"), ("cadran", "cadrane")],
    "en": [("point", "points"), ("pip", "pips"), ("day", "days"), ("hour", "hours"), ("minute", "minutes"),
           ("second", "seconds"), ("move", "moves"), ("play", "plays"), ("checker", "checkers"),
           ("character", "characters"), ("game", "games"), ("match", "matches"), ("table", "tables"),
           ("message", "messages"), ("decision", "decisions")],
}

# Placeholders whose numbers have a ceiling below the test's numbers: the checkers on one point (a
# single checker has its own string, point_one); and strings whose placeholder is not a number at
# all (a pinned checker's colour).
BOUNDS = {"point_label": range(2, 16), "point_pinned": range(0)}


def category(n: float, lang: str) -> str:
    """CLDR's plural category (the oracle, written from the rules, not from the app's code):
    ro one: the integer 1; few: 0, a fraction, or an integer ending in 01-19; other: the rest."""
    if n == 1:
        return "one"
    if lang != "ro":
        return "other"
    if n != int(n) or n == 0 or 1 <= int(n) % 100 <= 19:
        return "few"
    return "other"


def bad_counts(text: str, lang: str) -> list[str]:
    """Every "<number> <word>" in ``text`` where the word does not agree with the number."""
    singular = {s for s, _ in WORDS[lang]}
    plural = {p for _, p in WORDS[lang]}
    group, decimal = (".", ",") if lang == "ro" else (",", ".")
    bad = []
    for m in re.finditer(r"(?<![\w.,/−-])(\d[\d.,]*\d|\d)\s+(\w+)(?=(?:\s+(\w+))?)", text):
        number, word, after = m.group(1), m.group(2).lower(), (m.group(3) or "").lower()
        if word not in singular | plural and not (word == "de" and after in plural):
            continue
        value = float(number.replace(group, "").replace(decimal, "."))
        form = category(value, lang)
        if lang == "ro" and word == "de":
            ok = form == "other"
        elif form == "one":
            ok = word in singular
        elif form == "few" or lang == "en":
            ok = word in plural
        else:
            ok = False  # Romanian from 20 up: "20 de puncte"
        if not ok:
            bad.append(f"{number} {word}")
    return bad


def test_the_oracle_knows_right_from_wrong() -> None:
    assert bad_counts("167 pipuri, partidă până la 21 puncte", "ro") == ["167 pipuri", "21 puncte"]
    assert bad_counts("1 puncte, 2 punct, 2 de puncte", "ro") == ["1 puncte", "2 punct", "2 de"]
    assert bad_counts("1 punct, 19 puncte, 20 de puncte, 101 puncte, 1,5 puncte, 1.500 de puncte", "ro") == []
    assert bad_counts("1 points, 2 point, 1 point, 21 points", "en") == ["1 points", "2 point"]
    assert bad_counts("1 zi 1 h, 20 de zile 20 h, 20 zile", "ro") == ["20 zile"]


@pytest.fixture(scope="module")
def web() -> dict[str, dict[str, dict[str, str]]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the client's catalogues are rendered by its own i18n.js")
    run = subprocess.run([node, str(ROOT / "tests" / "e2e" / "js" / "render.mjs"), *map(str, NUMBERS)],
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(run.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_every_web_string_with_a_number_agrees(web: dict[str, dict[str, dict[str, str]]], lang: str) -> None:
    rendered = web[lang]
    assert len(rendered) > 50  # the renderer saw the catalogue
    bad = [f"{key} @ {n}: {text!r} ({', '.join(bad_counts(text, lang))})"
           for key, by_n in rendered.items() for n, text in by_n.items()
           if int(n) in BOUNDS.get(key, range(10**6)) and bad_counts(text, lang)]
    assert bad == []


def test_the_renderer_goes_through_the_plural_helper(web: dict[str, dict[str, dict[str, str]]]) -> None:
    ro = web["ro"]
    assert ro["pips"]["1"] == "1 pip" and ro["pips"]["20"] == "20 de pipuri" and ro["pips"]["101"] == "101 pipuri"
    assert ro["score_line"]["21"].endswith("până la 21 de puncte")
    assert ro["result_kind_2"]["2"] == "marț, 2 puncte"
    assert ro["left_days"]["1"] == "1 zi 1 h" and ro["left_days"]["20"] == "20 de zile 20 h"


def test_the_learn_pages_agree() -> None:
    for lang in ("ro", "en"):
        pages = json.loads((WEB / "i18n" / f"pages.{lang}.json").read_text(encoding="utf-8"))
        for name, page in pages.items():
            text = html.unescape(re.sub(r"<[^>]+>", " ", page))
            assert bad_counts(text, lang) == [], (lang, name)


# Fields the terminal fills with a count in words (Terminal.count or .points), by message.
COUNTED = {("match", "length"): "points", ("side", "pips"): "pips", ("hint_title", "total"): "plays",
           ("won_game", "points"): "points", ("won_game_you", "points"): "points",
           ("to_resign", "points"): "points"}


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_every_terminal_string_with_a_number_agrees(lang: str) -> None:
    term = Terminal(lang, io.StringIO(), io.StringIO())
    bad = []
    for key, text in MESSAGES[lang].items():
        fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        if not fields or re.search(r"_(one|few|other)$", key):
            continue
        for n in NUMBERS:
            values: dict[str, object] = {f: term.count(n, COUNTED[key, f]) if (key, f) in COUNTED else n
                                         for f in fields}
            shown = text.format(**values)
            if bad_counts(shown, lang):
                bad.append(f"{key} @ {n}: {shown!r}")
    assert bad == []


def test_the_client_writes_no_counted_word_itself() -> None:
    """Words come from the catalogues: no script writes a number (or a ${value}) before a noun."""
    nouns = "|".join(re.escape(w) for pair in WORDS["ro"] for w in pair)
    for path in (WEB / "js").rglob("*.js"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("//"):
                continue
            assert not re.search(rf"[\"'`][^\"'`]*(\d|\}})\s+({nouns})\b", line), (path.name, line)


def test_every_counted_placeholder_has_its_words() -> None:
    """{n:pips} needs pips_other (and, in Romanian, pips_one and pips_few) in the same catalogue."""
    for lang, forms in (("ro", ("one", "few", "other")), ("en", ("one", "other"))):
        messages = {**json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")),
                    **json.loads((WEB / "i18n" / f"stats.{lang}.json").read_text(encoding="utf-8"))}
        for key, text in messages.items():
            for words in re.findall(r"\{\w+:(\w+)\}", text):
                assert all(f"{words}_{f}" in messages for f in forms), (lang, key, words)
