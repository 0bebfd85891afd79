"""Ratings, statistics, the leaderboard and the history of online matches, as the API serves them.

``Standings`` answers ``/api/players/{name}`` (the player page: points,
rating, record, statistics, rating history), ``/api/players/{name}/games``,
``/api/leaderboard``, ``/api/stats`` and the match records
``/api/games/{id}/record.mat`` / ``.sgf`` (docs/protocol.md; ``no_record`` for a game they
cannot hold: Race, Dutch, Acey-Deucey, whose ``record.json`` holds them).  It only reads:
results are written by the online tables when a match ends.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from table.errors import RecordError
from table.match import Match, Phase, action_from_json
from table.match.records import match_to_mat, match_to_sgf
from table.rules.variant import STANDARD
from table.server.play.game import GameConfig
from table.server.online.base import OnlineError, variant_named
from table.server.online.service import Online
from table.server.online.players import name_key
from table.server.store import Board, MatchResult, Player, SqlStorage, StorageError

JSON = dict[str, Any]

PAGE = 20
"""Rows in a page of the leaderboard or of a player's games."""
HISTORY = 100
"""Rating history points sent on a player page (the latest ones)."""
STREAK = 1000
"""The longest streak a player page counts (so a page reads a bounded number of results)."""
WEEK = 7 * 24 * 3600.0
MAX_PAGE = 10_000


def page_number(raw: str | None) -> int:
    """``?page=N`` (1 when absent), or an error saying what a page is."""
    if raw is None:
        return 1
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise OnlineError(f"page is a whole number from 1 to {MAX_PAGE}, got {raw!r}", "bad_request")
    return int(raw)


def streak(results: list[MatchResult], player_id: int) -> int:
    """The current streak, newest result first: +3 for three wins in a row, -2 for two losses.

    (``results`` newest first, as ``Storage.match_results`` gives them.)
    """
    run = 0
    for r in results:
        if r.outcome.ended == "draw":  # a drawn game ends any streak
            break
        won = r.outcome.players[r.outcome.winner] == player_id
        if run and (run > 0) != won:
            break
        run += 1 if won else -1
    return run


class Standings:
    """The read side of online play's results, for one app."""

    def __init__(self, storage: SqlStorage, online: Online, now: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.online = online
        self.now = now

    async def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except StorageError as exc:
            raise OnlineError(str(exc), "storage_failed", 503) from exc

    async def _named(self, name: str) -> Player:
        player: Player | None = await self._call(self.storage.player_by_name_key, name_key(name))
        if player is None:
            raise OnlineError(f"there is no player called {name!r}", "not_found", 404)
        return player

    async def player_page(self, name: str) -> JSON:
        """A player's page: the online page's points and recent entries, rating and statistics."""
        page = await self.online.player_page(name)
        player = await self._named(name)
        rating = await self._call(self.storage.rating, player.id)
        record: dict[str, int] = await self._call(self.storage.match_record, player.id)
        latest: list[MatchResult] = await self._call(self.storage.match_results, player.id, limit=STREAK)
        rated: list[MatchResult] = await self._call(self.storage.match_results, player.id, limit=HISTORY, rated=True,
                                                    variant=STANDARD.name)
        reasons: dict[str, int] = await self._call(self.storage.reasons, player.id)
        games, wins = record["games"], record["wins_white"] + record["wins_black"]
        history = [{"at": r.created, "rating": round(r.after[r.outcome.players.index(player.id)].rating, 2)}
                   for r in reversed(rated)]
        variants = [await self._variant_json(player.id, v) for v in await self._call(self.storage.variants_played,
                                                                                       player.id)]
        return {**page, "rating": round(rating.rating, 2), "experience": rating.experience,
                "games": games, "wins": wins, "losses": games - wins - record["draws"], "draws": record["draws"],
                "gammons": {"won": reasons.get("win:gammon", 0), "lost": reasons.get("loss:gammon", 0)},
                "backgammons": {"won": reasons.get("win:backgammon", 0), "lost": reasons.get("loss:backgammon", 0)},
                "wins_white": record["wins_white"], "wins_black": record["wins_black"],
                "average_length": round(record["points_played"] / games, 2) if games else None,
                "streak": streak(latest, player.id), "rating_history": history, "variants": variants}

    async def _variant_json(self, player_id: int, variant: str) -> JSON:
        """The player's rating, experience and record in one variant (the player page's ``variants``)."""
        rating = await self._call(self.storage.rating, player_id, variant)
        record: dict[str, int] = await self._call(self.storage.match_record, player_id, variant)
        wins = record["wins_white"] + record["wins_black"]
        return {"variant": variant, "rating": round(rating.rating, 2), "experience": rating.experience,
                "games": record["games"], "wins": wins, "losses": record["games"] - wins - record["draws"],
                "draws": record["draws"]}

    async def games(self, name: str, page: int) -> JSON:
        """One page of a player's finished online matches, newest first."""
        player = await self._named(name)
        results: list[MatchResult] = await self._call(self.storage.match_results, player.id, limit=PAGE,
                                                      offset=(page - 1) * PAGE)
        total: int = await self._call(self.storage.count_results, player.id)
        names = await self.online._players({i for r in results for i in r.outcome.players})
        return {"page": page, "pages": max(1, -(-total // PAGE)), "total": total,
                "games": [self._game_json(r, names) for r in results]}

    @staticmethod
    def _game_json(r: MatchResult, names: dict[int, Player]) -> JSON:
        o = r.outcome
        return {"game": o.game_id, "table": o.table_id, "at": r.created, "variant": o.variant, "length": o.length,
                "winner": o.winner,
                "score": list(o.score), "ended": o.ended, "rated": o.rated,
                "players": [{"name": names[p].name if p in names else None, "bot": names[p].is_bot if p in names
                             else False, "rating_before": round(r.before[i].rating, 2),
                             "rating_after": round(r.after[i].rating, 2)} for i, p in enumerate(o.players)]}

    async def leaderboard(self, by: str | None, period: str | None, page: int, variant: str | None = None) -> JSON:
        """``by`` rating (in ``variant``: standard backgammon by default) or points (of every variant), over
        ``period`` week (what was gained in the last 7 days) or all."""
        by, period, variant = by or "rating", period or "all", variant_named(variant or STANDARD.name)
        if by not in ("rating", "points"):
            raise OnlineError(f"by is 'rating' or 'points', got {by!r}", "bad_request")
        if period not in ("week", "all"):
            raise OnlineError(f"period is 'week' or 'all', got {period!r}", "bad_request")
        board: Board = "rating" if by == "rating" else "points"
        since = self.now() - WEEK if period == "week" else None
        rows, total = await self._call(self.storage.board, board, since, limit=PAGE, offset=(page - 1) * PAGE,
                                       variant=variant)
        first = (page - 1) * PAGE
        return {"by": by, "period": period, "variant": variant, "page": page, "pages": max(1, -(-total // PAGE)), "total": total,
                "rows": [{"rank": first + i + 1, "name": p.name,
                          "value": round(v, 2) if board == "rating" else int(v)} for i, (p, v) in enumerate(rows)]}

    async def stats(self) -> JSON:
        """Site-wide: online matches played, won by white (seat 0) and by black (seat 1), unfinished."""
        counts: dict[str, int] = await self._call(self.storage.site_results)
        return {"games": counts["white"] + counts["black"] + counts["unfinished"], **counts}

    async def _finished(self, game_id: str) -> tuple[GameConfig, list[JSON], Match]:
        """A finished online match's settings, log and replayed match (else ``not_found`` / ``not_finished``)."""
        try:
            config_json, _, log = await self._call(self.storage.load, game_id)
        except OnlineError as exc:
            if "there is no game" in str(exc):
                raise OnlineError(f"there is no game {game_id!r}", "not_found", 404) from exc
            raise
        config = GameConfig.from_json(config_json, online=True)
        match = replay_match(config, log) if config.mode == "online" else None
        over = match is not None and (match.is_over or (config.length == 1 and match.phase in
                                                        (Phase.GAME_OVER, Phase.MATCH_OVER)))
        if match is None or not (over or any(e.get("type") == "forfeit" for e in log)):
            raise OnlineError("only a finished online game's record can be read", "not_finished", 409)
        return config, log, match

    async def record(self, game_id: str, kind: str) -> tuple[str, str]:
        """A finished online match's record as ``.mat`` or SGF text, and its download file name."""
        if kind not in ("mat", "sgf"):
            raise OnlineError(f"a record is .mat, .sgf or .json, not .{kind}", "not_found", 404)
        config, _, match = await self._finished(game_id)
        try:
            text = match_to_mat(match) if kind == "mat" else match_to_sgf(match)
        except RecordError as exc:  # a variant GNU Backgammon does not play: the message names the JSON record
            raise OnlineError(str(exc), "no_record", 409) from exc
        names = "-".join(name_key(n) for n in config.names)  # ASCII: a header's file name
        return text, f"table-{names}-{game_id}.{kind}"

    async def log(self, game_id: str) -> JSON:
        """A finished online match's whole log, to replay it move by move, and under ``record`` Table's
        JSON record of it (``Match.from_json`` reads it back: the one record every variant has)."""
        config, log, match = await self._finished(game_id)
        return {"game": game_id, "players": list(config.names), "length": config.length, "cube": config.cube,
                "variant": config.variant, "log": log, "record": match.to_json()}

def replay_match(config: GameConfig, log: list[JSON]) -> Match:
    """The match of a stored online game, with the players' names (a forfeit ends it where it stopped)."""
    single = config.length == 1
    names = tuple(n or f"Player {i + 1}" for i, n in enumerate(config.names))
    m = Match(length=0 if single else config.length, cube=config.cube, jacoby=False if single else None,
              players=(names[0], names[1]), variant=config.variant)
    for entry in log:
        if entry.get("type") != "forfeit":
            m.apply(action_from_json({k: v for k, v in entry.items() if k != "seat"}))
    return m

