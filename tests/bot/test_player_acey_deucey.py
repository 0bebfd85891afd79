"""The bot at an Acey-Deucey table: after its 1-2 it names a double (``Bot.choose_double``) through
``next_action``, so whatever drives a match through it (bots online, ``table play``) goes on."""

from __future__ import annotations

import pytest

from table.bot import Bot
from table.bot.player import next_action
from table.match import Match, Phase
from table.match.actions import NameDouble
from table.rules.dice import SeededDice


class Loaded:
    """Dice that come up as listed, then as a seeded source rolls them."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.rest = SeededDice(3)

    def roll_die(self) -> int:
        return self.faces.pop(0) if self.faces else self.rest.roll_die()


def test_after_its_one_two_the_bot_names_the_double_it_judges_best():
    m = Match(length=0, cube=False, variant="acey-deucey", dice=Loaded(2, 1))  # the first player opens 2-1
    m.apply(m.legal_actions()[0])  # the opening roll
    bot = Bot("medium")
    m.apply(next_action(bot, m))  # the 1 and the 2
    assert m.phase == Phase.NAME_DOUBLE and m.turn == 0
    action = next_action(bot, m)
    assert action == NameDouble(bot.choose_double(m.position)[0])
    m.apply(action)  # legal: the named double is now to be played
    assert m.phase == Phase.MOVE and m.dice == (action.number, action.number)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_bot_plays_whole_acey_deucey_games_through_next_action(seed):
    m = Match(length=3, cube=False, variant="acey-deucey", seed=seed)
    bots = (Bot("easy", seed=1), Bot("easy", seed=2))
    named = 0
    for _ in range(5000):
        if m.is_over:
            break
        named += m.phase == Phase.NAME_DOUBLE
        action = next_action(bots[m.turn], m) if m.turn is not None else m.legal_actions()[0]
        assert action is not None  # never stalls
        m.apply(action)
    assert m.is_over and named > 0
