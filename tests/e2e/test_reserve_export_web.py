"""The export panel of a finished Race game on a phone (390x844), in both languages: no .mat or SGF
(GNU Backgammon has no Race), the reason in the player's language from the catalogue, and Table's JSON
record to download, which reads back to the same game (issue 50)."""

from __future__ import annotations

import json
import urllib.request

from table.match import Match
from table.server.app import web_root

from tests.e2e.e2e_helpers import open_app
from tests.e2e.test_nackgammon import _phone
from tests.e2e.test_reserve_variants import _api

CATALOGUE = {lang: json.loads((web_root() / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
             for lang in ("ro", "en")}
RACE = {"ro": "Cursa de table", "en": "Backgammon Race"}  # variant_race in each catalogue


def _act(server_url: str, game: str, token: str, version: object, action: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(f"{server_url}/api/games/{game}/actions",
                                 data=json.dumps({"version": version, "action": action}).encode(),
                                 headers={"content-type": "application/json", "authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=60) as r:  # a cold server compiles the game's code first
        answer: dict[str, object] = json.loads(r.read())
        return answer


def _finished_race(server_url: str) -> tuple[str, str]:
    """A one-game Race match on one device from the start (a match set up from a position has no .mat
    for that reason first), ended at once: the player on roll resigns a single game, the other accepts.
    Made and played through the API, as a program would."""
    s = _api(server_url, "/api/games", {"mode": "local", "length": 1, "cube": False, "variant": "race"})
    game, token = str(s["game"]), str(s["token"])
    for action in ({"type": "resign", "level": 1}, {"type": "accept_resignation"}):
        s = _act(server_url, game, token, s["version"], action)
    assert s["view"]["over"], s["view"]  # type: ignore[index]
    return game, token


def test_the_export_panel_of_a_finished_race_offers_the_json_record_and_says_why_not_mat(browser, server_url,
                                                                                        artifacts):
    game, token = _finished_race(server_url)
    for lang in ("ro", "en"):
        ctx, page, errors = _phone(browser, server_url)
        try:
            page.add_init_script(f"localStorage.setItem('table.games', JSON.stringify({{{json.dumps(game)}: "
                                 f"{{token: {json.dumps(token)}, created: 1}}}}))")
            open_app(page, lang)
            page.goto(f"/#/game/{game}")
            page.locator("#dlg-result[open] button").first.click()  # the game's result, over the board
            page.click("#btn-export")
            link = page.locator("#learn-panel a[data-kind=json]")
            link.wait_for()
            assert page.locator("#learn-panel a[data-kind=mat], #learn-panel a[data-kind=sgf]").count() == 0
            assert link.inner_text() == CATALOGUE[lang]["export_json"]
            why = CATALOGUE[lang]["export_why_variant"].replace("{game}", RACE[lang])
            assert page.locator("#export-why").inner_text() == why
            page.locator("#learn-panel").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"race-export-phone-{lang}.png"))
            with page.expect_download() as caught:
                link.click()
            record = Match.from_json(caught.value.path().read_text(encoding="utf-8"))
            assert caught.value.suggested_filename == f"table-{game}.json"
            assert record.variant.name == "race" and record.game_result is not None
            assert not errors, errors
        finally:
            ctx.close()
