"""Two people play Plakoto online, on phones (390x844), against the real server: the table made
with the game chosen in the create form (which offers the Greek games and the Tavli match after
the backgammon family's, Tavli to 3, 5 or 7 points only), listed in the lobby with it, both
starting from their own corners with no bar, played by taps to the end, and both players' Plakoto
records kept (the ratings moved unless a draw) while their standard ones did not, in Romanian and in English."""

from __future__ import annotations

from table.rules.variant import VARIANTS

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person, play_to_the_end
from tests.e2e.test_online_nackgammon import shot

RO = catalogue("ro")
EN = catalogue("en")


def test_two_people_play_plakoto_online_to_the_end(browser, server_url, artifacts):
    with person(browser, server_url, auto_roll=True, **PHONE) as ana, \
            person(browser, server_url, "en", auto_roll=True, **PHONE) as bo:
        # Names no other test of the session uses: the e2e tests share one server per worker.
        for page, name, lang in ((ana, "Eleni", "ro"), (bo, "Yannis", "en")):
            open_app(page, lang)
            page.click("#btn-online")
            nickname(page, name)
        eleni, yannis = ana, bo
        eleni.click("#btn-create")
        form = eleni.locator("#form-table")
        offered = form.locator("select[name=variant] option").evaluate_all("os => os.map(o => o.value)")
        assert offered == [*VARIANTS, "plakoto", "fevga", "portes", "tavli"], offered
        # A Tavli table is to 3, 5 or 7 points, without the cube.
        form.locator("select[name=variant]").select_option("tavli")
        lengths = form.locator("select[name=length] option:not([disabled])").evaluate_all("os => os.map(o => o.value)")
        assert lengths == ["3", "5", "7"] and form.locator("input[name=cube]").is_disabled()
        form.locator("select[name=variant]").select_option("plakoto")
        form.locator("select[name=length]").select_option("1")
        assert form.locator("input[name=cube]").is_disabled() and not form.locator("input[name=cube]").is_checked()
        form.locator("input[name=clock][value=relaxed]").check()
        shot(eleni, artifacts, "online-plakoto-create-phone-ro.png")
        eleni.click("#btn-create-table")
        eleni.wait_for_url("**/#/table/*")
        eleni.wait_for_function("document.querySelector('#table-settings').textContent !== ''")
        assert eleni.locator("#table-settings").inner_text().startswith(f"Plakoto · {RO['length_single']}")
        item = yannis.locator("#lobby-open .table-item", has_text="Eleni")
        item.wait_for()
        assert item.locator(".what").inner_text().startswith(f"Plakoto · {EN['length_single']}")
        shot(yannis, artifacts, "online-plakoto-lobby-phone-en.png")
        item.locator("button").click()
        yannis.wait_for_url("**/#/game/*")
        game = yannis.url.split("/#/game/")[1]
        eleni.goto(f"/#/game/{game}")
        for p in (eleni, yannis):
            p.wait_for_function("window.__table && window.__table.version() > 0")
            assert p.locator("#variant-badge").inner_text() == "Plakoto"
            assert p.locator("#board .barzone").count() == 0  # nothing is hit: no bar
        shot(eleni, artifacts, "online-plakoto-start-phone-ro.png")

        play_to_the_end(eleni, yannis)
        shot(yannis, artifacts, "online-plakoto-over-phone-en.png")
        view = eleni.request.get(f"/api/games/{game}").json()["view"]
        assert view["over"] and view["variant"] == "plakoto"
        # Each has a Plakoto record now, after one game; the standard rating stayed at 1500.  The
        # Plakoto rating moved unless both mothers were pinned: that game is a draw, and unrated.
        records = []
        for name in ("Eleni", "Yannis"):
            player = eleni.request.get(f"/api/players/{name}").json()
            assert (player["rating"], player["experience"]) == (1500, 0), player
            [plakoto] = player["variants"]
            assert plakoto["variant"] == "plakoto" and plakoto["games"] == 1, plakoto
            records.append(plakoto)
        if records[0]["draws"] == 1:
            assert all((r["draws"], r["rating"], r["experience"]) == (1, 1500, 0) for r in records), records
        else:
            assert sorted((r["wins"], r["losses"]) for r in records) == [(0, 1), (1, 0)], records
            assert all(r["rating"] != 1500 and r["experience"] == 1 for r in records), records
            assert abs(sum(r["rating"] - 1500 for r in records)) < 0.02, records  # equal newcomers: equal steps
