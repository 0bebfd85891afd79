"""Two people play a Nackgammon match online, on phones (390x844), against the real server: the
table made with the variant in the create form, listed in the lobby with it, started from
Nackgammon's position, played by taps to the end; its .mat read back by GNU Backgammon with the
variation and the score; both players' Nackgammon ratings moved, their standard ones did not, and
each player page says so, in Romanian and in English."""

from __future__ import annotations

import re
from pathlib import Path

from table.match import Match
from table.rules.variant import NACKGAMMON
from table.server.online.ratings import Rating, rate

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person, play_to_the_end
from tests.e2e.test_nackgammon import _start_counts
from tests.notation.helpers import needs_gnubg, through_gnubg

RO = catalogue("ro")
EN = catalogue("en")
# A one-game match: the variant's seam end to end in CI's time budget (test_online_match plays
# the next-game flow of longer matches).
LENGTH = 1


def shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / name))


@needs_gnubg
def test_two_people_play_a_nackgammon_match_online_to_the_end(browser, server_url, artifacts, tmp_path):
    with person(browser, server_url, auto_roll=True, **PHONE) as ana, \
            person(browser, server_url, "en", auto_roll=True, **PHONE) as bo:
        # Names no other test of the session uses: the e2e tests share one server per worker.
        for page, name, lang in ((ana, "Nadia", "ro"), (bo, "Boris", "en")):
            open_app(page, lang)
            page.click("#btn-online")
            nickname(page, name)
        # Nadia makes a public Nackgammon table: a one-game match without the cube, a relaxed clock.
        ana.click("#btn-create")
        form = ana.locator("#form-table")
        offered = form.locator("select[name=variant] option").all_inner_texts()
        assert offered[:2] == [RO["variant_standard"], RO["variant_nackgammon"]], offered
        form.locator("select[name=variant]").select_option("nackgammon")
        form.locator("select[name=length]").select_option(str(LENGTH))
        form.locator("input[name=cube]").set_checked(False)
        form.locator("input[name=clock][value=relaxed]").check()
        ana.click("#btn-create-table")
        ana.wait_for_url("**/#/table/*")
        ana.wait_for_function("document.querySelector('#table-settings').textContent !== ''")
        assert ana.locator("#table-settings").inner_text().startswith(f"Nackgammon · {RO['length_single']}")
        # The lobby lists it with its variant, in both languages.
        item = bo.locator("#lobby-open .table-item", has_text="Nadia")
        item.wait_for()
        assert item.locator(".what").inner_text().startswith(f"Nackgammon · {EN['length_single']}")
        shot(bo, artifacts, "online-nackgammon-lobby-phone-en.png")
        ana.goto("/#/online")
        mine = ana.locator(".table-item", has_text="Nadia").first
        mine.wait_for()
        assert mine.locator(".what").inner_text().startswith(f"Nackgammon · {RO['length_single']}")
        shot(ana, artifacts, "online-nackgammon-lobby-phone-ro.png")
        # Boris sits down; both start from Nackgammon's position, the header names it.
        item.locator("button").click()
        bo.wait_for_url("**/#/game/*")
        game = bo.url.split("/#/game/")[1]
        ana.goto(f"/#/game/{game}")
        for p in (ana, bo):
            p.wait_for_function("window.__table && window.__table.version() > 0")
            assert p.locator("#variant-badge").inner_text() == "Nackgammon"
        counts = _start_counts(ana)
        assert counts == [2, 2, 4, 3, 4] * 2, counts  # before anyone moved: nobody has rolled by hand yet

        play_to_the_end(ana, bo)
        # A one-game match shows no score line; the record below has the score.
        assert ana.locator("#score").inner_text() == RO["length_single"]
        assert bo.locator("#score").inner_text() == EN["length_single"]
        shot(bo, artifacts, "online-nackgammon-over-phone-en.png")

        # The .mat export, read back by GNU Backgammon: Nackgammon, the match over.
        mat = ana.request.get(f"/api/games/{game}/record.mat").text()
        # A single game is written the way GNU Backgammon writes one game of a session: " 0 point match".
        assert '; [Variation "NackGammon"]' in mat and " 0 point match" in mat, mat[:300]
        ours = Match.from_mat(mat)
        assert ours.variant is NACKGAMMON and len(ours.results) == 1, ours.results
        assert ours.results[0].points in (1, 2, 3) and max(ours.score) == ours.results[0].points
        back = through_gnubg(mat, "mat", tmp_path)
        assert '; [Variation "NackGammon"]' in back, back[:400]
        again = Match.from_mat(back)
        assert again.variant is NACKGAMMON and again.score == ours.score
        assert [r.points for r in again.results] == [r.points for r in ours.results]

        # Ratings: Nackgammon's moved by the formula (both at 1500 before, n = 1); standard's did not.
        won, lost = rate(Rating(), Rating(), LENGTH)
        winner = ours.players[0 if ours.score[0] > ours.score[1] else 1]
        pages = {n: ana.request.get(f"/api/players/{n}").json() for n in ("Nadia", "Boris")}
        for name, page_json in pages.items():
            assert (page_json["rating"], page_json["experience"]) == (1500, 0)
            [nack] = page_json["variants"]
            expected = won if name == winner else lost
            assert nack["variant"] == "nackgammon" and nack["rating"] == round(expected.rating, 2)
            assert nack["games"] == 1 and nack["experience"] == LENGTH
        for page, name, lang, cat in ((ana, "Nadia", "ro", RO), (bo, "Boris", "en", EN)):
            for dlg in ("#dlg-result",):
                if page.locator(f"{dlg}[open]").count():
                    page.locator(f"{dlg} button").click()
            page.goto(f"/#/player/{name}")
            row = page.locator("#player-variants [data-variant=nackgammon]")
            row.wait_for()
            assert row.locator("dt").inner_text() == cat["variant_nackgammon"]
            text = row.locator("dd").inner_text()
            rating = pages[name]["variants"][0]["rating"]
            assert re.match(r"^1[.,]?\d{3}([.,]\d)?( |$)", text), text  # a decimal only when it is not 0
            assert str(int(rating)) in text.replace(".", "").replace(",", "")
            assert page.locator("#player-rating").inner_text() in ("1500", "1.500", "1,500")
            page.locator("#player-history .history-item .badge.variant").first.wait_for()
            page.locator("#player-variants").scroll_into_view_if_needed()
            shot(page, artifacts, f"online-nackgammon-player-phone-{lang}.png")
