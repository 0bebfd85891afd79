"""The bot at the table: its next action in a ``Match``.

A thin adapter between the match state machine and the bot's plain-parameter
decisions (``Bot.choose_play``, ``Bot.cube_decision``, ``Bot.accepts_resignation``,
and Acey-Deucey's ``Bot.choose_double`` after a 1-2).
The bot sees only the match state: position, dice already rolled, cube and score.

>>> from table.match import Match, OpeningRoll
>>> from table.bot import Bot
>>> m = Match(length=3, cube=True, seed=4)
>>> _ = m.apply(OpeningRoll())
>>> action = next_action(Bot("medium"), m)
>>> action.kind
'move'
"""

from __future__ import annotations

from table.bot.bot import Bot
from table.match import (
    AcceptResignation,
    Action,
    Double,
    Drop,
    Match,
    Move,
    NameDouble,
    Phase,
    RejectResignation,
    Roll,
    Take,
)


def _view(match: Match, player: int) -> tuple[str, tuple[int, int]]:
    owner = match.cube_owner
    side = "centre" if owner is None else ("player" if owner == player else "opponent")
    s = match.score
    return side, (s[player], s[1 - player])


def next_action(bot: Bot, match: Match) -> Action | None:
    """The bot's action when it is a player's turn to act, else ``None``.

    The bot plays for whichever player must act (``match.turn``).
    """
    player = match.turn
    if player is None:
        return None
    phase = match.phase
    owner, score = _view(match, player)
    if phase == Phase.ROLL:
        if match.may_double():
            d = bot.cube_decision(match.position, match.cube_value, owner, match.length, score,
                                  match.crawford, match.jacoby)
            if d.double:
                return Double()
        return Roll()
    if phase == Phase.MOVE:
        dice = match.dice
        assert dice is not None
        play = bot.choose_play(match.position, dice)
        return Move(str(play) if play is not None else "")
    if phase == Phase.NAME_DOUBLE:
        # Acey-Deucey after a 1-2 played in full: the same player names the double to play.
        number, _ = bot.choose_double(match.position)
        return NameDouble(number)
    if phase == Phase.TAKE:
        # The position is the doubler's; decide from the doubler's side and answer.
        doubler = match.on_roll
        d_owner, d_score = _view(match, doubler)
        d = bot.cube_decision(match.position, match.cube_value, d_owner, match.length, d_score,
                              match.crawford, match.jacoby)
        return Take() if d.take else Drop()
    if phase == Phase.RESIGN:
        ok = bot.accepts_resignation(
            match.position, match.resignation, match.cube_value, owner, match.length, score,
            match.crawford, bot_on_roll=(match.on_roll == player),
        )
        return AcceptResignation() if ok else RejectResignation()
    return None
