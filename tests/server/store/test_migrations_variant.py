"""Revision 0005: match results name their variant; a 0004 database keeps its results as standard ones."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.migration import MigrationContext

from table.server.online.ratings import Rating, rate
from table.server.online.results import Outcome
from table.server.store import migrations, open_storage

from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.store.test_migrations import engine_for, schema_differences


def _a_0004_database_with_a_rated_result(where: str) -> tuple[Rating, Rating]:
    """Two players, a game and one rated 3-point result written as revision 0004 stored them
    (plain SQL: no variant column yet); returns the ratings after it, worked out here."""
    won, lost = rate(Rating(), Rating(), 3)
    engine = engine_for(where)
    with engine.begin() as conn:
        migrations.upgrade(conn, "0004")
        assert "variant" not in {c["name"] for c in sa.inspect(conn).get_columns("match_results")}
        conn.execute(sa.text("INSERT INTO players (name, name_key, token_hash, is_bot, created, last_seen) "
                             "VALUES ('Ana', 'ana', 'ha', false, 1, 1), ('Bo', 'bo', 'hb', false, 1, 1)"))
        conn.execute(sa.text("INSERT INTO games (id, created, config, seats) VALUES ('old', 1, '{}', '{}')"))
        conn.execute(sa.text(
            "INSERT INTO match_results (game_id, player0, player1, length, winner, score0, score1, ended, rated, "
            "rating0_before, rating0_after, rating1_before, rating1_after, experience0_before, "
            "experience1_before, created) VALUES ('old', 1, 2, 3, 0, 3, 1, 'normal', true, 1500, :w, 1500, :l, "
            "0, 0, 5)"), {"w": won.rating, "l": lost.rating})
    engine.dispose()
    return won, lost


def test_a_0004_database_keeps_its_results_as_standard_ones(where):
    won, lost = _a_0004_database_with_a_rated_result(where)
    s = open_storage(where)
    try:
        [old] = s.match_results()
        assert old.outcome.variant == "standard" and old.outcome.game_id == "old"
        assert s.rating(1) == pytest.approx(won) and s.rating(2) == pytest.approx(lost)
        assert s.rating(1, "nackgammon") == Rating() and s.variants_played(1) == ["standard"]
        assert [(p.name, round(v, 6)) for p, v in s.board("rating")[0]] == [
            ("Ana", round(won.rating, 6)), ("Bo", round(lost.rating, 6))]
        # A Nackgammon match after the upgrade starts both players at 1500 in Nackgammon ...
        s.create("new", {"mode": "online"}, {})
        r = s.record_match(Outcome("new", None, (2, 1), 1, 0, (1, 0), "normal", True, "nackgammon"))
        assert r.before == (Rating(), Rating())
        # ... and leaves their standard ratings and the standard leaderboard as they were.
        assert s.rating(1) == pytest.approx(won) and s.rating(2) == pytest.approx(lost)
        assert s.rating(2, "nackgammon").rating > 1500 > s.rating(1, "nackgammon").rating
        assert [p.name for p, _ in s.board("rating")[0]] == ["Ana", "Bo"]
        assert [p.name for p, _ in s.board("rating", variant="nackgammon")[0]] == ["Bo", "Ana"]
        assert s.variants_played(1) == ["standard", "nackgammon"]
    finally:
        s.close()
    engine = engine_for(where)
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == migrations.head() == "0005"
        assert schema_differences(conn) == []
        assert conn.execute(sa.text("SELECT variant FROM match_results ORDER BY id")).scalars().all() == [
            "standard", "nackgammon"]
    engine.dispose()
