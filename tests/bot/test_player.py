"""The bot plays whole matches through the match state machine, legally."""

from __future__ import annotations

import pytest

from table.bot import Bot
from table.bot.player import next_action
from table.match import Match, Phase, Resign


@pytest.mark.parametrize("length", [0, 3])
def test_bot_plays_a_whole_match(length: int) -> None:
    m = Match(length=length, cube=True, seed=21)
    bots = (Bot("medium"), Bot("easy", seed=2))
    for _ in range(3000):
        if m.is_over or (length == 0 and len(m.results) >= 2):
            break
        action = next_action(bots[m.turn], m) if m.turn is not None else m.legal_actions()[0]
        assert action is not None
        m.apply(action)  # raises IllegalActionError if the bot proposed something illegal
    assert m.is_over or length == 0
    assert len(m.results) >= (1 if length else 2)


def test_bot_answers_a_resignation() -> None:
    m = Match(length=0, cube=True, seed=3)
    m.apply(m.legal_actions()[0])  # opening roll
    bot = Bot("medium")
    m.apply(next_action(bot, m))  # the first move
    m.apply(Resign(3))  # the next player resigns a backgammon at once
    assert m.phase == Phase.RESIGN
    action = next_action(bot, m)
    assert action is not None and action.kind == "accept_resignation"
