"""How an online match ended, as it is kept in ``match_results`` (and rated).

>>> from table.server.play.game import Game, GameConfig
>>> game = Game(GameConfig("online", 3, names=("Ana", "Bogdan")))
>>> entry = game.forfeit_match(1, "away")
>>> o = outcome(game, "g1", "t1", (7, 9), rated=True)
>>> o.winner, o.ended, o.rated, o.length, o.variant
(0, 'left', True, 3, 'standard')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from table.server.play.game import SERVED, Game

PLAYED_ONLINE: tuple[str, ...] = tuple(dict.fromkeys(SERVED))
"""The variants online tables offer, rate and keep results of, in the catalogue's order: every game
the server plays (``table.server.play.game.SERVED``: ``VARIANTS``, then the Greek games and the Tavli
match, each once, ``tavli`` rated as one kind of match), so moving a variant into ``VARIANTS`` changes
nothing online.

>>> {"standard", "hypergammon", "race", "dutch", "acey-deucey", "plakoto", "tavli"} <= set(PLAYED_ONLINE)
True
>>> len(set(PLAYED_ONLINE)) == len(PLAYED_ONLINE)
True
"""

Ended = Literal["normal", "resign", "left", "timeout", "draw"]
ENDINGS: tuple[Ended, ...] = ("normal", "resign", "left", "timeout", "draw")
"""How a match ended; ``draw``: a single game drawn (Plakoto: both mothers pinned), won by nobody
(its ``winner`` is the seat that made the last move, never counted as a win)."""


@dataclass(frozen=True)
class Outcome:
    """A finished match: the player ids in seats 0 and 1, the winning seat, the final score, how it ended,
    whether it is rated and the variant played (its rating is that variant's)."""

    game_id: str
    table_id: str | None
    players: tuple[int, int]
    length: int
    winner: int
    score: tuple[int, int]
    ended: Ended
    rated: bool
    variant: str = "standard"


def outcome(game: Game, game_id: str, table_id: str | None, players: tuple[int, int], *, rated: bool) -> Outcome:
    """The outcome of ``game``'s finished match (``rated``: whether it counts for the ratings).

    A match forfeited by leaving, being away or running out of time is lost
    by the player who forfeited it.
    """
    if not game.is_over:
        raise ValueError("the match is not over")
    m = game.match
    ended: Ended
    if game.forfeit is not None:
        winner = 1 - game.forfeit["seat"]
        ended = "timeout" if game.forfeit["why"] == "timeout" else "left"
    else:
        result = m.game_result
        assert result is not None
        winner = result.winner if game.single or m.winner is None else m.winner
        ended = "resign" if result.how == "resign" else "draw" if game.single and result.is_draw else "normal"
    score = (m.score[0], m.score[1])
    if game.single and game.forfeit is None and m.game_result is not None and score == (0, 0):
        score = (m.game_result.points, 0) if winner == 0 else (0, m.game_result.points)
    # A drawn single game is kept unrated (the ratings know no draw).  A Tavli match is rated as one
    # kind of match, not by its last game.
    return Outcome(game_id, table_id, players, game.config.length, winner, score, ended,
                   rated and ended != "draw", m.kind)
