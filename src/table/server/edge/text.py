r"""Text a client sends must be text the server can store and show.

JSON lets a client write lone surrogates (``"\ud800"``) and control
characters (``"\u0007"``): neither survives every database (PostgreSQL
refuses both in JSON) nor means anything to a reader, so they are refused
wherever they appear, keys included.  Tab, newline and carriage return are
ordinary whitespace and allowed.

>>> check_strings({"names": ["Ana", "Ion"]})
>>> check_strings({"names": ["A\u0007na", ""]})
Traceback (most recent call last):
...
table.server.edge.text.TextError: the request contains the control character U+0007: only ordinary text is allowed
>>> check_strings(["\ud800"], "the message")
Traceback (most recent call last):
...
table.server.edge.text.TextError: the message contains U+D800, half of a surrogate pair, which is not a character
"""

from __future__ import annotations

import re

from table.errors import TableError

_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class TextError(TableError):
    """A string that cannot be stored or shown."""


def check_text(text: str, where: str = "the request") -> None:
    """Refuse ``text`` if it holds a lone surrogate or a control character other than tab, CR, LF."""
    bad = _SURROGATE.search(text)
    if bad:
        raise TextError(f"{where} contains U+{ord(bad.group()):04X}, half of a surrogate pair, "
                        "which is not a character")
    bad = _CONTROL.search(text)
    if bad:
        raise TextError(f"{where} contains the control character U+{ord(bad.group()):04X}: "
                        "only ordinary text is allowed")


def check_strings(value: object, where: str = "the request") -> None:
    """Check every string (keys too) in a decoded JSON value with ``check_text``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            check_text(item, where)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
