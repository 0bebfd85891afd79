"""Points and results: the ledger, match results with their rating changes, and the boards.

>>> from table.server.online.ledger import Entry
>>> from table.server.online.results import Outcome
>>> from table.server.store import open_storage
>>> s = open_storage(":memory:")
>>> ana, ion = (s.create_player(n, n.lower(), "h-" + n) for n in ("Ana", "Ion"))
>>> s.add_ledger([Entry(ana.id, 20, "win:single")])
>>> s.points_of([ana.id, ion.id])
{1: 20, 2: 0}
>>> s.create("g1", {}, {})
>>> s.record_match(Outcome("g1", None, (ana.id, ion.id), 3, 0, (3, 1), "normal", True)).after[0].experience
3
>>> s.create("g2", {}, {})
>>> s.record_match(Outcome("g2", None, (ana.id, ion.id), 1, 1, (0, 1), "normal", True, "nackgammon")).before[0]
Rating(rating=1500.0, experience=0)
>>> s.rating(ana.id, "nackgammon").rating < 1500 < s.rating(ana.id).rating
True
>>> s.variants_played(ana.id)
['standard', 'nackgammon']
>>> s.close()
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from table.rules.variant import STANDARD
from table.server.online.ledger import Entry
from table.server.online.ratings import Rating, rate
from table.server.online.results import ENDINGS, PLAYED_ONLINE, Outcome
from table.server.store import schema as t
from table.server.store.base import StoreBase, inserted_id, when
from table.server.store.players import player_of
from table.server.store.values import Board, LedgerLine, MatchResult, Player, StorageError


def points_of(conn: sa.Connection, player_ids: Iterable[int]) -> dict[int, int]:
    """``ResultStore.points_of`` in the transaction of ``conn``."""
    ids = list(player_ids)
    c = t.ledger.c
    sums = {row[0]: row[1] for row in conn.execute(
        sa.select(c.player_id, sa.func.sum(c.amount)).where(c.player_id.in_(ids)).group_by(c.player_id))}
    return {i: int(sums.get(i) or 0) for i in ids}


def ledger_lines(conn: sa.Connection, *, player_id: int | None = None, game_id: str | None = None,
                 limit: int = 100) -> list[LedgerLine]:
    """``ResultStore.ledger`` in the transaction of ``conn``."""
    c = t.ledger.c
    query = sa.select(t.ledger)
    if player_id is not None:
        query = query.where(c.player_id == player_id)
    if game_id is not None:
        query = query.where(c.game_id == game_id)
    return [_line(r) for r in conn.execute(query.order_by(c.id.desc()).limit(limit))]


def _line(row: sa.Row[Any]) -> LedgerLine:
    return LedgerLine(row.id, row.player_id, row.game_id, row.amount, row.reason, row.created)


def _result(row: sa.Row[Any]) -> MatchResult:
    r = row
    gained = r.length if r.rated else 0
    return MatchResult(
        r.id, Outcome(r.game_id, r.table_id, (r.player0, r.player1), r.length, r.winner, (r.score0, r.score1),
                      r.ended, bool(r.rated), r.variant),
        (Rating(r.rating0_before, r.experience0_before), Rating(r.rating1_before, r.experience1_before)),
        (Rating(r.rating0_after, r.experience0_before + gained), Rating(r.rating1_after, r.experience1_before + gained)),
        r.created)


def _rating_after(result: MatchResult, player_id: int) -> Rating:
    return result.after[result.outcome.players.index(player_id)]


def _of_player(player_id: int, variant: str | None = None) -> sa.ColumnElement[bool]:
    """The results of ``player_id`` (in ``variant`` only, when given)."""
    c = t.match_results.c
    either = sa.or_(c.player0 == player_id, c.player1 == player_id)
    return either if variant is None else sa.and_(either, c.variant == variant)


def record_match(conn: sa.Connection, o: Outcome, at: float) -> MatchResult:
    """Keep a finished match's result and its rating changes, in the transaction of ``conn``."""
    if o.ended not in ENDINGS or o.winner not in (0, 1) or o.players[0] == o.players[1] or o.variant not in PLAYED_ONLINE:
        raise StorageError(f"a match result has two players, a winning seat 0 or 1, an ending among "
                           f"{', '.join(ENDINGS)} and a variant among {', '.join(PLAYED_ONLINE)}: got {o!r}")
    # Two matches of one player ending at once must not both start from the same rating.
    conn.execute(sa.select(t.players.c.id).where(t.players.c.id.in_(o.players)).with_for_update())
    before = (_rating(conn, o.players[0], o.variant), _rating(conn, o.players[1], o.variant))
    after = before
    if o.rated:
        won, lost = rate(before[o.winner], before[1 - o.winner], o.length)
        after = (won, lost) if o.winner == 0 else (lost, won)
    new_id = inserted_id(conn.execute(t.match_results.insert().values(
        game_id=o.game_id, table_id=o.table_id, player0=o.players[0], player1=o.players[1], length=o.length,
        winner=o.winner, score0=o.score[0], score1=o.score[1], ended=o.ended, rated=o.rated,
        rating0_before=before[0].rating, rating0_after=after[0].rating, rating1_before=before[1].rating,
        rating1_after=after[1].rating, experience0_before=before[0].experience,
        experience1_before=before[1].experience, created=at, variant=o.variant)))
    return MatchResult(new_id, o, before, after, at)


def _rating(conn: sa.Connection, player_id: int, variant: str) -> Rating:
    row = conn.execute(sa.select(t.match_results).where(_of_player(player_id, variant))
                       .order_by(t.match_results.c.id.desc()).limit(1)).first()
    return Rating() if row is None else _rating_after(_result(row), player_id)


class ResultStore(StoreBase):
    """The ledger, match results and ratings, and the boards made of them."""

    def add_ledger(self, entries: Iterable[Entry], *, now: float | None = None) -> None:
        """Post ``entries`` (all or none)."""
        rows = [{"player_id": e.player_id, "game_id": e.game_id, "amount": e.amount,
                 "reason": e.reason, "created": when(now)} for e in entries]
        if rows:
            with self._tx("a ledger entry names a player or game that does not exist") as conn:
                conn.execute(t.ledger.insert(), rows)

    def points(self, player_id: int) -> int:
        """The player's points: the sum of their ledger entries (0 with none)."""
        return self.points_of([player_id])[player_id]

    def points_of(self, player_ids: Iterable[int]) -> dict[int, int]:
        """Points for each of ``player_ids``."""
        with self._tx() as conn:
            return points_of(conn, player_ids)

    def reasons(self, player_id: int) -> dict[str, int]:
        """How many of the player's ledger entries there are for each reason (their record)."""
        c = t.ledger.c
        with self._tx() as conn:
            return {str(r): int(n) for r, n in conn.execute(
                sa.select(c.reason, sa.func.count()).where(c.player_id == player_id).group_by(c.reason))}

    def leaderboard(self, limit: int = 20) -> list[tuple[Player, int]]:
        """The people with the most points (bots left out), most first; ties by name."""
        total = sa.func.sum(t.ledger.c.amount).label("total")
        query = (sa.select(t.players, total).join(t.ledger, t.ledger.c.player_id == t.players.c.id)
                 .where(t.players.c.is_bot.is_(False)).group_by(t.players.c.id)
                 .order_by(total.desc(), t.players.c.name_key).limit(limit))
        with self._tx() as conn:
            return [(player_of(row), int(row.total)) for row in conn.execute(query)]

    def ledger(self, *, player_id: int | None = None, game_id: str | None = None,
               limit: int = 100) -> list[LedgerLine]:
        """Ledger entries, newest first, of one player and/or one game."""
        with self._tx() as conn:
            return ledger_lines(conn, player_id=player_id, game_id=game_id, limit=limit)

    # Match results and ratings -------------------------------------------

    def record_match(self, outcome: Outcome, *, now: float | None = None) -> MatchResult:
        """Keep a finished match's result and, when it is rated, both players' new ratings."""
        with self._tx(f"game {outcome.game_id!r} already has a result") as conn:
            return record_match(conn, outcome, when(now))

    def rating(self, player_id: int, variant: str = STANDARD.name) -> Rating:
        """The player's rating and experience in ``variant`` now (1500 and 0 before any rated match of it)."""
        with self._tx() as conn:
            return _rating(conn, player_id, variant)

    def variants_played(self, player_id: int) -> list[str]:
        """The variants the player has a finished online match of, in the catalogue's order."""
        c = t.match_results.c
        with self._tx() as conn:
            played = set(conn.execute(sa.select(c.variant).where(_of_player(player_id)).distinct()).scalars())
        return [name for name in PLAYED_ONLINE if name in played]

    def match_results(self, player_id: int | None = None, *, limit: int = 100, offset: int = 0,
                      newest_first: bool = True, rated: bool | None = None,
                      variant: str | None = None) -> list[MatchResult]:
        """Stored match results, of one player or of everybody (rated ones only, or unrated ones only,
        when ``rated`` says; of one variant, when ``variant`` says), newest (or oldest) first."""
        c = t.match_results.c
        query = sa.select(t.match_results)
        if player_id is not None:
            query = query.where(_of_player(player_id))
        if variant is not None:
            query = query.where(c.variant == variant)
        if rated is not None:
            query = query.where(c.rated.is_(rated))
        with self._tx() as conn:
            return [_result(r) for r in conn.execute(
                query.order_by(c.id.desc() if newest_first else c.id).limit(limit).offset(offset))]

    def count_results(self, player_id: int) -> int:
        """How many finished online matches the player has."""
        return self.match_record(player_id)["games"]

    def match_record(self, player_id: int, variant: str | None = None) -> dict[str, int]:
        """The player's finished online matches (of every variant, or of ``variant``): ``games``,
        ``wins_white`` (won in seat 0), ``wins_black`` (seat 1), ``draws`` (a drawn single game, won
        by nobody) and ``points_played`` (the sum of their lengths)."""
        c = t.match_results.c
        won = c.ended != "draw"
        white = sa.func.sum(sa.case((sa.and_(c.player0 == player_id, c.winner == 0, won), 1), else_=0))
        black = sa.func.sum(sa.case((sa.and_(c.player1 == player_id, c.winner == 1, won), 1), else_=0))
        draws = sa.func.sum(sa.case((c.ended == "draw", 1), else_=0))
        with self._tx() as conn:
            row = conn.execute(sa.select(sa.func.count(), white, black, sa.func.sum(c.length), draws)
                               .where(_of_player(player_id, variant))).one()
        return {"games": int(row[0]), "wins_white": int(row[1] or 0), "wins_black": int(row[2] or 0),
                "draws": int(row[4] or 0), "points_played": int(row[3] or 0)}

    def site_results(self) -> dict[str, int]:
        """Online matches finished and won by seat 0 (white) and seat 1 (black), and started but unfinished."""
        c, tb = t.match_results.c, t.online_tables.c
        with self._tx() as conn:
            wins = {int(w): int(n) for w, n in conn.execute(  # a drawn game is nobody's win
                sa.select(c.winner, sa.func.count()).where(c.ended != "draw").group_by(c.winner))}
            unfinished = conn.execute(sa.select(sa.func.count()).select_from(t.online_tables).where(
                tb.game_id.is_not(None), tb.game_id.not_in(sa.select(c.game_id)))).scalar()
        return {"white": wins.get(0, 0), "black": wins.get(1, 0), "unfinished": int(unfinished or 0)}

    def board(self, by: Board, since: float | None = None, *, limit: int = 20, offset: int = 0,
              variant: str = STANDARD.name) -> tuple[list[tuple[Player, float]], int]:
        """People (bots left out) ranked by rating (in ``variant``) or points (of every variant), best
        first, ties by name; with ``since``, by what they gained from then on.  Returns one page and how
        many are ranked in all."""
        if by == "points":
            c = t.ledger.c
            scores = sa.select(c.player_id.label("p"), sa.func.sum(c.amount).label("v"))
            if since is not None:
                scores = scores.where(c.created >= since)
            ranked = scores.group_by(c.player_id).subquery()
        elif by == "rating":
            r = t.match_results.c
            sides = [sa.select(getattr(r, f"player{i}").label("p"), r.id.label("id"),
                               getattr(r, f"rating{i}_before").label("b"), getattr(r, f"rating{i}_after").label("a"))
                     .where(r.rated.is_(True), r.variant == variant,
                            *([r.created >= since] if since is not None else []))
                     for i in (0, 1)]
            u = sa.union_all(*sides).subquery()
            numbered = sa.select(u.c.p, u.c.b, u.c.a,
                                 sa.func.row_number().over(partition_by=u.c.p, order_by=u.c.id.desc()).label("last"),
                                 sa.func.row_number().over(partition_by=u.c.p, order_by=u.c.id).label("first")
                                 ).subquery()
            last = sa.func.sum(sa.case((numbered.c.last == 1, numbered.c.a), else_=0.0))
            first = sa.func.sum(sa.case((numbered.c.first == 1, numbered.c.b), else_=0.0))
            value = last if since is None else last - first
            ranked = sa.select(numbered.c.p, value.label("v")).group_by(numbered.c.p).subquery()
        else:
            raise StorageError(f"a leaderboard is by 'rating' or 'points', got {by!r}")
        pl = t.players.c
        base = (sa.select(t.players, ranked.c.v).join(ranked, ranked.c.p == pl.id).where(pl.is_bot.is_(False)))
        with self._tx() as conn:
            total = conn.execute(sa.select(sa.func.count()).select_from(base.subquery())).scalar()
            rows = conn.execute(base.order_by(ranked.c.v.desc(), pl.name_key).limit(limit).offset(offset)).all()
        return [(player_of(row), float(row.v)) for row in rows], int(total or 0)
