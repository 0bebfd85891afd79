"""The computer opponent: evaluation networks, search, levels, cube decisions, training.

>>> from table import Position
>>> from table.bot import Bot
>>> bot = Bot(level="medium")
>>> bot.choose_play(Position.initial(), (6, 5)) is not None
True
"""

from table.bot.bot import LEVELS, Bot, BotError, Evaluation
from table.bot.net import Weights, WeightsError

__all__ = ["LEVELS", "Bot", "BotError", "Evaluation", "Weights", "WeightsError"]
