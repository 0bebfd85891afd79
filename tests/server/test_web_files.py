"""The static client: catalogues complete in both languages, correct Romanian letters."""

from __future__ import annotations

import json
import re

import pytest

from table.server.app import web_root

WEB = web_root()


def catalogue(name: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", ["", "pages.", "stats."])
def test_both_languages_have_the_same_keys(kind):
    ro, en = catalogue(f"{kind}ro.json"), catalogue(f"{kind}en.json")
    assert set(ro) == set(en)
    assert all(v.strip() for v in ro.values()) and all(v.strip() for v in en.values())
    for key in ro:  # the same placeholders on both sides
        # {n:pips}: n counted in the words of the pips_one/_few/_other keys
        fields = r"\{(\w+(?::\w+)?)\}"
        assert set(re.findall(fields, ro[key])) == set(re.findall(fields, en[key])), key


def test_every_key_the_client_uses_exists():
    keys = set(catalogue("ro.json")) | set(catalogue("stats.ro.json"))
    html = (WEB / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'data-i18n(?:-aria|-title)?="(\w+)"', html))
    for js in (WEB / "js").rglob("*.js"):
        used |= set(re.findall(r'\bt\("(\w+)"', js.read_text(encoding="utf-8")))
    # Keys built at run time from a prefix.
    dynamic = {k for k in keys if re.match(r"(level|page|result_kind|result_resign|resign_kind)_", k)}
    prefixes = {k for k in used if k.endswith("_")}  # t("level_" + level) and the like
    missing = used - keys - prefixes
    assert not missing, missing
    assert all(any(k.startswith(p) for k in keys) for p in prefixes), prefixes
    assert {"level_easy", "level_medium", "level_hard", "page_rules", "result_kind_2"} <= dynamic


def test_every_kind_of_log_entry_has_words_in_the_replay():
    """The replay tells each step of a match's log in words: every action a record may hold
    (and the server's forfeit) has its catalogue text and its case in history.js."""
    from table.match.actions import ACTION_TYPES

    history = (WEB / "js" / "history.js").read_text(encoding="utf-8")
    for lang in ("ro", "en"):
        words = catalogue(f"stats.{lang}.json")
        for kind in [cls.kind for cls in ACTION_TYPES] + ["forfeit"]:
            key = "st_ev_opening" if kind == "opening_roll" else f"st_ev_{kind}"
            assert key in words, f"stats.{lang}.json has no {key}"
            assert f'case "{kind}"' in history, f"history.js does not tell {kind!r} steps"


def test_romanian_uses_comma_below_letters():
    for name in ("ro.json", "pages.ro.json", "stats.ro.json"):
        text = (WEB / "i18n" / name).read_text(encoding="utf-8")
        # ş and ţ (cedilla) are the wrong letters; ș and ț (comma below) are right.
        assert "ş" not in text and "ţ" not in text and "Ş" not in text and "Ţ" not in text
        assert "ș" in text and "ț" in text and "ă" in text and "î" in text


def test_the_service_worker_caches_files_that_exist():
    sw = (WEB / "sw.js").read_text(encoding="utf-8")
    for path in re.findall(r'"(/static/[^"]+)"', sw):
        assert (WEB / path[len("/static/"):]).is_file(), path
