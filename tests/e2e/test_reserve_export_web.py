"""The export panel of a finished Race game on a phone (390x844), in both languages: no .mat or SGF
(GNU Backgammon has no Race), the reason in the player's language from the catalogue, and Table's JSON
record to download, which reads back to the same game; a player page's links to each variant's records,
and the review's words for an Acey-Deucey double named (issue 50)."""

from __future__ import annotations

import json
import urllib.request

from table.match import Match
from table.server.app import web_root

from tests.e2e.e2e_helpers import open_app
from tests.e2e.test_nackgammon import _phone

CATALOGUE = {lang: json.loads((web_root() / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
             | json.loads((web_root() / "i18n" / f"stats.{lang}.json").read_text(encoding="utf-8"))
             for lang in ("ro", "en")}
# The review's list with an Acey-Deucey double named (1-1, where 6-6 was best), as learn.renderReview shows it.
NAMED = """() => import('/static/js/learn.js').then(l => {
  const box = document.createElement('div');
  const totals = {error_rate: 100, rating: 'beginner', cube_errors: 0, luck: 0};
  l.renderReview(box, {depth: 0, totals: [totals, totals], decisions: [{kind: 'name', game: 1, move: 3, player: 0,
    dice: null, played: '1-1', best: '6-6', loss: 0.774, mark: '??'}]}, {name: () => 'Ana', side: () => 0});
  return box.querySelector('#review-list li').textContent; })"""
# A player page's download links for a finished match of each variant (history.recordLinks).
LINKS = """(games) => import('/static/js/history.js').then(h => games.map(g => h.recordLinks(g)
  .map(a => [a.dataset.kind, a.getAttribute('href'), a.textContent])))"""
RACE = {"ro": "Cursa de table", "en": "Backgammon Race"}  # variant_race in each catalogue


def _api(server_url: str, path: str, body: dict[str, object], token: str = "") -> dict[str, object]:
    headers = {"content-type": "application/json", **({"authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(server_url + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:  # a cold server on a busy machine may take a while
        answer: dict[str, object] = json.loads(r.read())
        return answer


def _finished_race(server_url: str) -> tuple[str, str]:
    """A one-game Race match on one device from the start (a match set up from a position has no .mat
    for that reason first), ended at once: the player on roll resigns a single game, the other accepts.
    Made and played through the API, as a program would."""
    s = _api(server_url, "/api/games", {"mode": "local", "length": 1, "cube": False, "variant": "race"})
    game, token = str(s["game"]), str(s["token"])
    for action in ({"type": "resign", "level": 1}, {"type": "accept_resignation"}):
        s = _api(server_url, f"/api/games/{game}/actions", {"version": s["version"], "action": action}, token)
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
            # A player page links a Race match's JSON record, a standard or Nackgammon one's .mat and SGF.
            race, standard, nack = page.evaluate(LINKS, [{"game": "g1", "variant": "race"}, {"game": "g2"},
                                                         {"game": "g3", "variant": "nackgammon"}])
            assert race == [["json", "/api/games/g1/record.json", CATALOGUE[lang]["st_download_json"]]]
            assert [k for k, _, _ in standard] == [k for k, _, _ in nack] == ["mat", "sgf"]
            assert standard[0][1:] == ["/api/games/g2/record.mat", CATALOGUE[lang]["st_download_mat"]]
            named = page.evaluate(NAMED)
            for dice in ("1-1", "6-6"):
                assert CATALOGUE[lang]["review_name_double"].replace("{dice}", dice) in named, named
            assert not errors, errors
        finally:
            ctx.close()
