"""Two people play the standard board's other variants online, on phones (390x844), against the
real server, one in Romanian and one in English: each table made with its game chosen in the create
form and listed in the lobby with it, both boards naming the game.  Hypergammon is played by taps
to the end.  Race, Dutch backgammon and Acey-Deucey start with every checker in its side's pile;
the first turns are entered from the piles by taps (an Acey-Deucey 1-2 names its double), then the
one to roll resigns and the other accepts: a whole game from the piles takes minutes in a browser,
and tests/server/test_reserve_online.py plays each to the end over the same protocol.  Each player
then has a rating in that game and none moved in standard backgammon."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.e2e_helpers import MOVABLE, open_app, play_by_clicks
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person
from tests.e2e.test_online_match import shown, tap

RO = catalogue("ro")
EN = catalogue("en")


def _names(variant: str) -> tuple[str, str]:
    # Names no other test of the session uses: the e2e tests share one server per worker.
    stem = variant.title().replace("-", "")
    return f"{stem}Ana", f"{stem}Bo"


def _seated(ana: Page, bo: Page, variant: str) -> str:
    """Ana (Romanian) makes a public one-game table of ``variant``; Bo (English) finds it in the
    lobby and sits down; both open the game.  The game's id."""
    first, second = _names(variant)
    for page, name, lang in ((ana, first, "ro"), (bo, second, "en")):
        open_app(page, lang)
        page.click("#btn-online")
        nickname(page, name)
    ana.click("#btn-create")
    form = ana.locator("#form-table")
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=length]").select_option("1")
    cube = form.locator("input[name=cube]")
    if cube.is_enabled():
        cube.set_checked(False)
    form.locator("input[name=clock][value=relaxed]").check()
    ana.click("#btn-create-table")
    ana.wait_for_url("**/#/table/*")
    ana.wait_for_function("document.querySelector('#table-settings').textContent !== ''")
    assert ana.locator("#table-settings").inner_text().startswith(f"{RO['variant_' + variant]} · {RO['length_single']}")
    item = bo.locator("#lobby-open .table-item", has_text=first)
    item.wait_for()
    assert item.locator(".what").inner_text().startswith(f"{EN['variant_' + variant]} · {EN['length_single']}")
    item.locator("button").click()
    bo.wait_for_url("**/#/game/*")
    game = bo.url.split("/#/game/")[1]
    ana.goto(f"/#/game/{game}")
    for page in (ana, bo):
        page.wait_for_function("window.__table && window.__table.version() > 0")
    return game


def _act(me: Page) -> bool:
    """Do whatever this player may do now; whether anything was done."""
    if me.locator("#dlg-result[open]").count():
        me.locator("#dlg-result button").first.click()
        return True
    if shown(me, "roll"):
        return tap(me, "roll") or True
    named = me.locator("#controls [data-act=name_double]:visible")
    if named.count():  # Acey-Deucey's 1-2 played: name a double
        named.last.click()
        return True
    if me.locator(MOVABLE).count():
        before = me.evaluate("window.__table.version()")
        try:
            play_by_clicks(me)
            me.click("#controls [data-act=confirm]", timeout=5000)
        except PlaywrightTimeout:
            return False  # the board was drawn anew meanwhile: look again
        me.wait_for_function(f"window.__table.version() > {before}")
        return True
    return False


def _play(ana: Page, bo: Page, enough) -> None:
    """Both act by taps until ``enough()``."""
    for _ in range(3000):
        if enough():
            return
        if not any([_act(ana), _act(bo)]):
            ana.wait_for_timeout(100)
    raise AssertionError("the game did not get there")


def _rated_in(page: Page, variant: str, names: tuple[str, str]) -> None:
    """Each player has one finished game of ``variant``, rated, and their standard rating is 1500."""
    moved = []
    for name in names:
        player = page.request.get(f"/api/players/{name}").json()
        assert (player["rating"], player["experience"]) == (1500, 0), player
        [record] = player["variants"]
        assert record["variant"] == variant and record["games"] == 1 and record["experience"] == 1, record
        moved.append(record["rating"] - 1500)
    assert moved[0] != 0 and abs(moved[0] + moved[1]) < 0.02, moved  # equal newcomers: equal steps


def test_two_people_play_hypergammon_online_to_the_end(browser, server_url, artifacts):
    with person(browser, server_url, **PHONE) as ana, person(browser, server_url, "en", **PHONE) as bo:
        game = _seated(ana, bo, "hypergammon")
        for page, cat in ((ana, RO), (bo, EN)):
            assert page.locator("#variant-badge").inner_text() == cat["variant_hypergammon"]
        # Three checkers each, on the 24-, 23- and 22-points.
        assert ana.locator("#board .ck").count() == 6
        ana.screenshot(path=str(artifacts / "online-hypergammon-start-phone-ro.png"))
        _play(ana, bo, lambda: ana.locator("#controls [data-act=rematch]").is_visible())
        bo.screenshot(path=str(artifacts / "online-hypergammon-over-phone-en.png"))
        view = ana.request.get(f"/api/games/{game}").json()["view"]
        assert view["over"] and view["variant"] == "hypergammon"
        assert max(view["off"]) == 3  # won by bearing off all three (nobody resigned)
        _rated_in(ana, "hypergammon", _names("hypergammon"))


@pytest.mark.parametrize("variant", ["race", "dutch", "acey-deucey"])
def test_two_people_enter_from_their_piles_online_then_one_resigns(browser, server_url, artifacts, variant):
    with person(browser, server_url, **PHONE) as ana, person(browser, server_url, "en", **PHONE) as bo:
        game = _seated(ana, bo, variant)
        for page, cat in ((ana, RO), (bo, EN)):
            assert page.locator("#variant-badge").inner_text() == cat[f"variant_{variant}"]
        # Every checker starts in its side's pile (the opening roll's forced entry may be made by now).
        view = ana.request.get(f"/api/games/{game}").json()["view"]
        on_points = sum(abs(v) for v in view["points"])
        assert sum(view["waiting"]) + on_points == 30 and on_points <= 4 and view["off"] == [0, 0], view
        ana.screenshot(path=str(artifacts / f"online-{variant}-start-phone-ro.png"))

        def entered() -> bool:
            v = ana.request.get(f"/api/games/{game}").json()["view"]
            return max(v["waiting"]) <= 12 and v["phase"] == "roll"  # both entered some, one to roll

        _play(ana, bo, entered)
        bo.screenshot(path=str(artifacts / f"online-{variant}-entered-phone-en.png"))
        first, second = (ana, bo) if shown(ana, "resign") else (bo, ana)
        first.click("#controls [data-act=resign]")
        first.locator("#dlg-resign button[value='1']").click()
        second.wait_for_selector("#controls [data-act=accept_resignation]:visible")
        second.click("#controls [data-act=accept_resignation]")
        for page in (ana, bo):
            page.wait_for_selector("#dlg-result[open]")
        view = ana.request.get(f"/api/games/{game}").json()["view"]
        assert view["over"] and view["variant"] == variant
        _rated_in(ana, variant, _names(variant))
