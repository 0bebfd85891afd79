"""Ratings, statistics, history and the leaderboard in the browser, against the real server: the
results are seeded through the HTTP API (two guests sit down, one leaves: a rated win for the
other), then the pages are read on a phone."""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from typing import Any

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person


def api(base: str, method: str, path: str, token: str = "", body: Any = None) -> Any:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers, method=method)) as res:
        return json.loads(res.read())


def guest(base: str, prefix: str) -> tuple[str, str]:
    """A new guest with a name of its own: (name, token)."""
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    g = api(base, "POST", "/api/guests", body={"name": name})
    return g["player"]["name"], g["token"]


def forfeit(base: str, winner: str, loser: str, **settings: Any) -> str:
    """``winner`` (a token) creates a table, ``loser`` sits down and leaves: the game's id."""
    t = api(base, "POST", "/api/tables", winner, {"length": 3, "cube": True, "clock": "normal", "private": False, **settings})
    joined = api(base, "POST", f"/api/tables/{t['table']['id']}/join", loser)
    api(base, "POST", f"/api/tables/{t['table']['id']}/leave", loser)
    return str(joined["table"]["game"])


def stats_catalogue(lang: str) -> dict[str, str]:
    from table.server.app import web_root

    return {**catalogue(lang), **json.loads((web_root() / "i18n" / f"stats.{lang}.json").read_text(encoding="utf-8"))}


RO, EN = stats_catalogue("ro"), stats_catalogue("en")


def test_the_player_page_shows_rating_statistics_chart_and_games(browser, server_url, artifacts):
    ana, ana_tok = guest(server_url, "Ana")
    ion, ion_tok = guest(server_url, "Ion")
    game = forfeit(server_url, ana_tok, ion_tok)
    with person(browser, server_url, **PHONE) as page:
        open_app(page)
        page.goto(f"/#/player/{ana}")
        # Equal ratings, a 3-point match, experience 0 (K = 5): P = 1/2, so 4·5·√3·½ = 17.32.
        page.locator("#player-rating", has_text="1.517,3").wait_for()
        assert page.locator("#player-experience").text_content() == "3"
        assert page.locator("#player-stat-games").text_content() == "1"
        # Games (the points ledger counts each game) and matches (the rating counts each match) are
        # named apart: "Jocuri câștigate / pierdute" beside "Partide jucate", never "Bilanț"/"Meciuri".
        labels = page.locator("#player dt").all_text_contents()
        assert RO["player_record_label"] == "Jocuri câștigate / pierdute" and RO["player_record_label"] in labels
        assert "Partide jucate" in labels and "Partide câștigate" in labels
        assert not any(w in page.locator("#player").inner_text() for w in ("Meci", "Bilanț", "meci"))
        assert page.locator("#player-streak").text_content() == "1 victorie"
        assert page.locator("#player-stats svg.rating-chart polyline").count() == 1
        item = page.locator("#player-history .history-item")
        item.first.wait_for()  # the games come in their own request, after the page's figures
        assert item.count() == 1
        assert item.locator("b").text_content() == "Câștigată 0–0 (adversarul a plecat)"
        assert item.locator(f"a[href='/api/games/{game}/record.mat']").text_content() == RO["st_download_mat"]
        assert item.locator(f"a[href='/api/games/{game}/record.sgf']").count() == 1
        assert item.locator("a.replay-link").get_attribute("href") == f"#/replay/{game}"
        page.screenshot(path=str(artifacts / "standings-player-ro.png"), full_page=True)
        page.goto(f"/#/player/{ion}")
        page.locator("#player-rating", has_text="1.482,7").wait_for()
        assert page.locator("#player-streak").text_content() == "1 înfrângere"
        page.locator("#player-history .history-item b", has_text="Pierdută 0–0 (a plecat)").wait_for()
        assert page.locator("#player-history .history-item").count() == 1


def test_the_leaderboard_orders_by_rating_and_shows_the_site_statistics(browser, server_url, artifacts):
    a, a_tok = guest(server_url, "Lb")
    b, b_tok = guest(server_url, "Lb")
    c, c_tok = guest(server_url, "Lb")
    forfeit(server_url, a_tok, b_tok)  # a 1517.3, b 1482.7
    forfeit(server_url, c_tok, b_tok)  # c gains less than a did: b is now the underdog
    with person(browser, server_url, lang="en", **PHONE) as page:
        open_app(page, "en")
        page.goto("/#/online")
        nickname(page, "Viewer" + uuid.uuid4().hex[:4])
        page.click("#lobby-leaderboard")
        page.wait_for_url("**/#/leaderboard")
        rows = page.locator("#leaderboard-rows .lb-row")
        rows.first.wait_for()
        names = [n for n in rows.locator("a").all_text_contents() if n in (a, b, c)]
        assert names == [a, c, b]
        stats = api(server_url, "GET", "/api/stats")
        site = page.locator("#site-stats dd")
        site.first.wait_for()
        assert site.first.text_content() == str(stats["games"])
        unfinished = round(100 * stats["unfinished"] / stats["games"])
        assert site.nth(3).text_content() == f"{stats['unfinished']} ({unfinished}%)"
        page.screenshot(path=str(artifacts / "standings-leaderboard-en.png"), full_page=True)
        page.click(f"text={EN['st_lb_by_points']}")
        page.wait_for_url("**/#/leaderboard/points/all")
        page.locator("#leaderboard-rows").wait_for()


def test_the_replay_steps_forward_and_back_with_the_arrow_keys(browser, server_url):
    _, w_tok = guest(server_url, "Rw")
    _, l_tok = guest(server_url, "Rl")
    game = forfeit(server_url, w_tok, l_tok)
    log = api(server_url, "GET", f"/api/games/{game}/record.json")["log"]
    assert len(log) >= 2 and log[0]["type"] == "opening_roll" and log[-1]["type"] == "forfeit"
    with person(browser, server_url, **PHONE) as page:
        open_app(page)
        page.goto(f"/#/replay/{game}")
        count = page.locator("#replay-count")
        count.wait_for()
        assert count.text_content() == f"Pasul 0 din {len(log)}"
        assert page.locator("#replay-prev").is_disabled()
        page.keyboard.press("ArrowRight")
        assert count.text_content() == f"Pasul 1 din {len(log)}"
        assert re.match(r"Aruncarea de deschidere: Rw\w+ dă \d, Rl\w+ dă \d$", page.locator("#replay-now").text_content() or "")
        for _ in range(len(log) + 2):  # past the end stays at the end
            page.keyboard.press("ArrowRight")
        assert count.text_content() == f"Pasul {len(log)} din {len(log)}"
        assert page.locator("#replay-now").text_content().endswith("a pierdut partida din oficiu")
        assert page.locator("#replay-next").is_disabled()
        page.keyboard.press("ArrowLeft")
        assert count.text_content() == f"Pasul {len(log) - 1} din {len(log)}"


def test_the_rated_switch_is_sent_and_rated_tables_wear_a_badge(browser, server_url):
    with person(browser, server_url, **PHONE) as page:
        open_app(page)
        page.click("#btn-online")
        nickname(page, "Sw" + uuid.uuid4().hex[:6])
        page.click("#btn-create")
        form = page.locator("#form-table")
        assert form.locator("input[name=rated]").is_checked()  # on by default
        form.locator("input[name=rated]").uncheck()
        page.click("#btn-create-table")
        page.wait_for_url("**/#/table/*")
        tid = page.url.rsplit("/", 1)[1]
        assert api(server_url, "GET", f"/api/tables/{tid}")["table"]["rated"] is False
        mine = json.loads(page.evaluate("localStorage.getItem('table.guest')"))["token"]
        api(server_url, "POST", f"/api/tables/{tid}/leave", mine)  # the other tests expect an empty lobby
    other, o_tok = guest(server_url, "Rt")
    rated = api(server_url, "POST", "/api/tables", o_tok, {"length": 1, "cube": True, "clock": "normal", "private": False})
    with person(browser, server_url, **PHONE) as page:
        open_app(page)
        page.click("#btn-online")
        nickname(page, "Sv" + uuid.uuid4().hex[:6])
        item = page.locator("#lobby-open .table-item", has_text=other)
        assert item.locator(".badge.rated").text_content() == RO["st_rated_marker"]
    api(server_url, "POST", f"/api/tables/{rated['table']['id']}/leave", o_tok)
