"""The exceptions Table raises for bad input.

Every one is a ``ValueError``, so callers that only care that the input was
wrong can catch that; the subclasses say which kind of input it was.
"""

from __future__ import annotations


class TableError(ValueError):
    """Base class of every error about input Table was given."""


class PositionError(TableError):
    """A board that is not a backgammon position (too many checkers, ...)."""


class VariantError(TableError):
    """A variant name Table does not know, or a variant the rules engine cannot play yet."""


class PositionIdError(TableError):
    """A malformed GNU Backgammon Position ID."""


class MatchIdError(TableError):
    """A malformed GNU Backgammon Match ID."""


class XgidError(TableError):
    """A malformed eXtreme Gammon XGID."""


class DiceError(TableError):
    """Dice that are not two numbers from 1 to 6."""


class NotationError(TableError):
    """Move text that cannot be read."""


class IllegalPlayError(TableError):
    """Move text that reads fine but is not a legal play for the roll."""


class IllegalActionError(TableError):
    """A match action that is not allowed at this moment (rolling twice, doubling in the Crawford game, ...)."""


class MatchSettingsError(TableError):
    """Match settings that make no sense (a length of 40, Jacoby in match play, ...)."""


class RecordError(TableError):
    """A match record (.mat, SGF or saved JSON) that cannot be read; the message names the line."""


class RecordWarning(UserWarning):
    """A match record read although part of it breaks the rules (the message names the line)."""
