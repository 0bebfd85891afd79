"""A whole Tavli match reviewed in the browser on a phone (issue 51): the review weighs every game
of the match, and a marked decision opens on the board of the game it was made in (Portes with
its bar, Plakoto and Fevga without), whichever game the match ended in."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from tests.e2e.online_fakes import catalogue
from tests.e2e.e2e_helpers import open_app
from tests.e2e.test_nackgammon import _phone
from tests.server.test_greek_server import decide


RO = catalogue("ro")


def _open_made(page, made, lang):
    """Open a game made through the API in the app, as its owner (the device keeps its token)."""
    page.add_init_script(f"localStorage.setItem('table.games', JSON.stringify({{{json.dumps(made['game'])}: "
                         f"{{token: {json.dumps(made['token'])}, created: 1}}}}))")
    open_app(page, lang)
    page.goto(f"/#/game/{made['game']}")
    page.wait_for_function("window.__table && window.__table.version() >= 0")


def _badge(variant: str, n: int) -> str:
    """The game screen's badge for game ``n`` of a Tavli match, in Romanian."""
    return RO["badge_series"].format(series=RO["variant_tavli"], game=RO["variant_" + variant], n=n)


def _call(server_url: str, path: str, body: dict[str, Any] | None, token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(server_url + path, data=data, headers=headers),
                                timeout=30) as r:
        return json.loads(r.read())


def test_a_tavli_match_is_reviewed_whole_each_decision_on_its_games_board(browser, server_url, artifacts):
    # Two people on one device play a match to 3 through the API, as a program would.
    made = _call(server_url, "/api/games", {"mode": "local", "variant": "tavli", "length": 3})
    game, token, s = made["game"], made["token"], made
    for _ in range(5000):
        if s["view"]["over"]:
            break
        s = _call(server_url, f"/api/games/{game}/actions",
                  {"version": s["version"], "action": decide(s["view"])}, token)
    assert s["view"]["over"]
    last = s["view"]["variant"]
    # The review at the quick depth, then opened in the app (the same finished review).
    url = f"/api/games/{game}/review"
    job = _call(server_url, url, {"depth": 0}, token)
    deadline = time.monotonic() + 120
    while job["state"] == "running":
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.2)
        req = urllib.request.Request(server_url + url, headers={"authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, timeout=30) as r:
            job = json.loads(r.read())
    marked = [d for d in job["review"]["decisions"] if d["mark"]]
    games = {d["game"] for d in job["review"]["decisions"]}
    assert games == set(range(1, s["view"]["game_number"] + 1)) and len(games) >= 2
    # A decision of a game drawn unlike the last one: with a bar (Portes) or without (the Greek games).
    barred = last == "portes"
    pick = next(i for i, d in enumerate(marked) if (d["variant"] == "portes") != barred)
    ctx, page, errors = _phone(browser, server_url)
    try:
        _open_made(page, made, "ro")
        assert page.locator("#board .barzone").count() == (1 if barred else 0)
        now = _badge(last, s["view"]["game_number"])
        assert page.locator("#variant-badge").inner_text() == now
        if page.locator("#dlg-result[open]").count():  # the match's result, shown as it opens
            page.locator("#dlg-result button").first.click()
        page.click("#btn-review")
        page.wait_for_selector("#review-list")
        assert page.locator("#review-list li").count() == len(marked)
        page.locator("#review-list li button").nth(pick).click()
        page.wait_for_selector("#peek:not([hidden])")
        assert page.locator("#board .barzone").count() == (0 if barred else 1)
        # The badge names the game shown, not the one the match ended in.
        then = _badge(marked[pick]["variant"], marked[pick]["game"])
        assert then != now and page.locator("#variant-badge").inner_text() == then
        page.screenshot(path=str(artifacts / "tavli-review-phone-ro.png"))
        page.click("#btn-peek-back")
        assert page.locator("#board .barzone").count() == (1 if barred else 0)
        assert page.locator("#variant-badge").inner_text() == now
        assert not errors, errors
    finally:
        ctx.close()
