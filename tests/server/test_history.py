"""Rated matches, player pages, the leaderboard, site statistics and match records over HTTP."""

from __future__ import annotations

import pytest

from table.match.records import match_from_mat, match_from_sgf

from tests.server.server_helpers import auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import START, play_http, site  # noqa: F401 - fixture


def leave(site, table, token):
    r = site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(token))
    assert r.status_code == 200, r.json()


def test_leaving_loses_a_rated_match_by_the_formula(site):
    ana, ion, table = site.match(length=5)
    assert table["rated"] is True
    leave(site, table, ion)
    # Equal ratings, n = 5, K = 5: P = 0.5, 4 * 5 * sqrt(5) * 0.5 = 22.3607.
    a = site.c.get("/api/players/ana").json()
    i = site.c.get("/api/players/Ion").json()
    assert a["rating"] == pytest.approx(1522.36, abs=0.01) and i["rating"] == pytest.approx(1477.64, abs=0.01)
    assert a["experience"] == i["experience"] == 5
    assert (a["games"], a["wins"], a["losses"], a["streak"]) == (1, 1, 0, 1)
    assert (i["games"], i["wins"], i["losses"], i["streak"]) == (1, 0, 1, -1)
    assert a["points"] == 0 and i["points"] == -100
    assert a["wins_white"] == 1 and a["wins_black"] == 0 and a["average_length"] == 5
    assert [h["rating"] for h in a["rating_history"]] == [pytest.approx(1522.36, abs=0.01)]
    [row] = site.storage.match_results()
    assert row.outcome.ended == "left" and row.outcome.winner == 0 and row.outcome.rated


def test_an_unrated_table_and_a_bot_do_not_move_ratings(site):
    ana, ion, table = site.match(length=3, rated=False)
    assert table["rated"] is False
    leave(site, table, ana)
    robo = site.guest("Robo", bot=True)
    t2 = site.table(robo)
    r = site.c.post(f"/api/tables/{t2['id']}/join", headers=auth(ana))
    assert r.status_code == 200
    leave(site, t2, robo)
    a = site.c.get("/api/players/ana").json()
    assert (a["rating"], a["experience"], a["games"], a["wins"], a["losses"]) == (1500, 0, 2, 1, 1)
    bot = site.c.get("/api/players/Robo").json()
    assert bot["bot"] is True and bot["games"] == 1 and bot["losses"] == 1 and bot["rating"] == 1500
    assert [r.outcome.rated for r in site.storage.match_results()] == [False, False]


def test_the_leaderboard_ranks_people_by_rating_and_points(site):
    ana, ion, table = site.match(length=1)
    leave(site, table, ion)  # Ana 1510, Ion 1490; points: Ana 0, Ion -100
    board = site.c.get("/api/leaderboard?by=rating").json()
    assert [(r["rank"], r["name"], r["value"]) for r in board["rows"]] == [(1, "Ana", 1510), (2, "Ion", 1490)]
    week = site.c.get("/api/leaderboard?by=rating&period=week").json()
    assert [(r["name"], r["value"]) for r in week["rows"]] == [("Ana", 10), ("Ion", -10)]
    pts = site.c.get("/api/leaderboard?by=points&period=all&page=1").json()
    assert [(r["name"], r["value"]) for r in pts["rows"]] == [("Ana", 0), ("Ion", -100)]
    site.now.now += 8 * 24 * 3600  # a week later nothing was gained this week
    assert site.c.get("/api/leaderboard?by=rating&period=week").json()["rows"] == []
    assert site.c.get("/api/leaderboard?by=rating&page=2").json()["rows"] == []
    for bad in ("by=elo", "period=year", "page=0", "page=x"):
        r = site.c.get(f"/api/leaderboard?{bad}")
        assert r.status_code == 400 and r.json()["code"] == "bad_request"


def test_site_statistics_count_wins_by_colour_and_unfinished(site):
    ana, ion, table = site.match(length=1)
    leave(site, table, ion)  # white (seat 0, Ana) wins
    t2 = site.table(ion)
    site.c.post(f"/api/tables/{t2['id']}/join", headers=auth(ana))  # still going
    assert site.c.get("/api/stats").json() == {"games": 2, "white": 1, "black": 0, "unfinished": 1}


def test_a_finished_game_is_listed_and_its_records_download(site):
    ana, ion, table = site.match(length=1, clock="relaxed")
    game = table["game"]
    play_http(site, game, [ana, ion], lambda s: s["view"]["over"])
    listed = site.c.get("/api/players/ion/games?page=1").json()
    assert listed["total"] == 1 and listed["games"][0]["game"] == game
    assert [p["name"] for p in listed["games"][0]["players"]] == ["Ana", "Ion"]
    assert listed["games"][0]["ended"] in ("normal", "resign")
    mat = site.c.get(f"/api/games/{game}/record.mat")  # anyone, no token
    assert mat.status_code == 200
    assert mat.headers["content-disposition"] == f'attachment; filename="table-ana-ion-{game}.mat"'
    m = match_from_mat(mat.text)
    assert m.players == ("Ana", "Ion")
    sgf = site.c.get(f"/api/games/{game}/record.sgf")
    assert sgf.status_code == 200 and sgf.headers["content-disposition"].endswith(f'{game}.sgf"')
    assert match_from_sgf(sgf.text).game_result == m.game_result


def test_records_of_unfinished_or_unknown_games_are_refused(site):
    ana, ion, table = site.match(length=3)
    r = site.c.get(f"/api/games/{table['game']}/record.mat")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    assert site.c.get("/api/games/nope/record.sgf").status_code == 404
    assert site.c.get(f"/api/games/{table['game']}/record.txt").status_code == 404
    assert site.c.get("/api/players/nobody").status_code == 404
    assert site.c.get("/api/players/ana/games?page=-1").status_code == 400


def test_a_finished_matchs_log_is_served_for_replay(site):
    ana, ion, table = site.match(length=3)
    assert site.c.get(f"/api/games/{table['game']}/record.json").json()["code"] == "not_finished"
    state = site.c.get(f"/api/games/{table['game']}", headers=auth(ana)).json()
    leave(site, table, ana)
    got = site.c.get(f"/api/games/{table['game']}/record.json").json()
    assert got["players"] == ["Ana", "Ion"] and got["length"] == 3
    assert len(got["log"]) == state["version"] + 1  # what was played, then the forfeit
    assert got["log"][-1] == {"seat": None, "type": "forfeit", "loser": 0, "why": "left"}
    # Table's JSON record of what was played reads back to the same match.
    from table.match import Match

    record = Match.from_json(got["record"])
    assert record.players == ("Ana", "Ion") and record.length == 3
    assert record.match_id == Match.from_json(got["record"]).match_id
    assert len(got["record"]["actions"]) == len(got["log"]) - 1


def test_a_player_page_counts_colours_lengths_streaks_and_gammons(site):
    from table.server.online.ledger import Entry
    from table.server.online.results import Outcome

    site.guest("Ana"), site.guest("Ion")
    ana, ion = (site.storage.player_by_name_key(k).id for k in ("ana", "ion"))
    # (seats, winning seat, length, rated): Ana wins as white, loses as black, wins as black, wins as white.
    for n, (seats, winner, length, rated) in enumerate([((ana, ion), 0, 1, True), ((ion, ana), 0, 3, True),
                                                        ((ion, ana), 1, 5, True), ((ana, ion), 0, 7, False)]):
        site.storage.create(f"g{n}", {"mode": "online"}, {})
        site.storage.record_match(Outcome(f"g{n}", None, seats, length, winner, (0, 0), "normal", rated),
                                  now=START + n)
    site.storage.add_ledger([Entry(ana, 40, "win:gammon", "g0"), Entry(ana, -30, "loss:backgammon", "g1")])
    a = site.c.get("/api/players/ana").json()
    assert (a["games"], a["wins"], a["losses"], a["wins_white"], a["wins_black"]) == (4, 3, 1, 2, 1)
    assert a["average_length"] == 4 and a["streak"] == 2 and a["experience"] == 9
    assert a["gammons"] == {"won": 1, "lost": 0} and a["backgammons"] == {"won": 0, "lost": 1}
    history = a["rating_history"]
    assert [h["at"] for h in history] == [START, START + 1, START + 2]  # rated ones, oldest first
    assert history[0]["rating"] == 1510 and history[-1]["rating"] == a["rating"]
    i = site.c.get("/api/players/ion").json()
    assert (i["wins"], i["losses"], i["streak"], i["wins_white"], i["wins_black"]) == (1, 3, -2, 1, 0)
    assert [g["game"] for g in site.c.get("/api/players/ion/games").json()["games"]] == ["g3", "g2", "g1", "g0"]


def test_running_out_of_time_loses_a_rated_match(site):
    ana, ion, table = site.match(clock="rapid", length=1)
    state = site.c.get(f"/api/games/{table['game']}").json()
    seat = state["view"]["clock"]["running"]
    site.now.now = state["view"]["clock"]["deadline"]
    site.check()
    [row] = site.storage.match_results()
    assert (row.outcome.ended, row.outcome.winner, row.outcome.rated) == ("timeout", 1 - seat, True)
    loser = site.c.get(f"/api/players/{['ana', 'ion'][seat]}").json()
    assert loser["rating"] == 1490 and loser["losses"] == 1


def test_a_players_games_come_twenty_a_page(site):
    from table.server.online.results import Outcome

    site.guest("Ana"), site.guest("Ion")
    ana, ion = (site.storage.player_by_name_key(k).id for k in ("ana", "ion"))
    for n in range(23):
        site.storage.create(f"g{n:02}", {"mode": "online"}, {})
        site.storage.record_match(Outcome(f"g{n:02}", None, (ana, ion), 1, n % 2, (0, 0), "normal", True))
    first = site.c.get("/api/players/ana/games").json()
    second = site.c.get("/api/players/ana/games?page=2").json()
    assert (first["pages"], first["total"], len(first["games"])) == (2, 23, 20)
    assert [g["game"] for g in second["games"]] == ["g02", "g01", "g00"]
    assert site.c.get("/api/players/ana/games?page=3").json()["games"] == []
