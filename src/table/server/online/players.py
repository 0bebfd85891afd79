"""Guest players: nickname rules and device tokens.

A guest picks a nickname and gets a long random device token; only the
token's sha256 is stored, so a leaked database seats nobody.  A nickname is
2 to 20 letters (Latin, with the Romanian ă â î ș ț), digits, ``_`` or ``-``;
it is unique regardless of case and diacritics (``Ștefan`` and ``stefan``
are one name), and it belongs to the device that took it first.  Nobody may
pass for the computer opponent or the site ("Calculatorul", "Computer",
"Table" and close variants).

>>> check_name("Ştefan")            # a cedilla ş becomes the correct comma-below ș
'Ștefan'
>>> name_key("Ștefan") == name_key("STEFAN")
True
>>> check_name("C0mputer")
Traceback (most recent call last):
...
table.server.online.players.NicknameError: the name 'C0mputer' is kept for the computer opponent and the site
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata

from table.errors import TableError
from table.server.store import ConflictError, Player, SqlStorage

MIN_LENGTH = 2
MAX_LENGTH = 20
RESERVED = frozenset({"calculatorul", "calculator", "computerul", "computer", "table"})
"""Folded names nobody may take: the computer opponent's and the site's."""

_ALLOWED = re.compile(r"[A-Za-z0-9_\-ăâîșțĂÂÎȘȚ]+")
_CEDILLA = str.maketrans("şţŞŢ", "șțȘȚ")
_LOOKALIKE = str.maketrans("013457", "oleast")


class NicknameError(TableError):
    """A nickname that is refused; ``code`` says why (for the message catalogues)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def normalize_name(name: str) -> str:
    """``name`` as it is kept: composed (NFC), trimmed, cedilla ş ţ as comma-below ș ț."""
    return unicodedata.normalize("NFC", name).strip().translate(_CEDILLA)


def name_key(name: str) -> str:
    """The form names are compared in: no case, no diacritics.

    >>> name_key(" Țuică-Mare_2")
    'tuica-mare_2'
    """
    decomposed = unicodedata.normalize("NFD", normalize_name(name).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _impersonates(key: str) -> bool:
    squashed = key.replace("_", "").replace("-", "")
    candidates = {squashed, squashed.rstrip("0123456789")}
    return any(c in RESERVED or c.translate(_LOOKALIKE) in RESERVED for c in candidates)


def check_name(name: object) -> str:
    """The nickname as it will be kept, or ``NicknameError`` saying what is wrong with it."""
    if not isinstance(name, str):
        raise NicknameError("a nickname is text", "characters")
    clean = normalize_name(name)
    if not MIN_LENGTH <= len(clean) <= MAX_LENGTH:
        raise NicknameError(f"a nickname has {MIN_LENGTH} to {MAX_LENGTH} characters, {clean!r} has {len(clean)}",
                            "length")
    if not _ALLOWED.fullmatch(clean):
        raise NicknameError(f"a nickname has only letters, digits, _ and - (no spaces), not {clean!r}", "characters")
    if not clean.strip("_-"):
        raise NicknameError("a nickname needs at least one letter or digit", "characters")
    if _impersonates(name_key(clean)):
        raise NicknameError(f"the name {clean!r} is kept for the computer opponent and the site", "reserved")
    return clean


def new_token() -> str:
    """A fresh device token (256 random bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored for a device token: its sha256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_guest(storage: SqlStorage, name: object, *, bot: bool = False,
                 now: float | None = None) -> tuple[Player, str]:
    """A new guest called ``name`` (``bot``: a program playing through the protocol, shown as a bot);
    returns the player and their device token (shown once, never stored)."""
    clean = check_name(name)
    key = name_key(clean)
    taken = NicknameError(f"the name {clean!r} is taken: choose another", "taken")
    if storage.player_by_name_key(key) is not None:
        raise taken
    token = new_token()
    try:
        player = storage.create_player(clean, key, token_hash(token), is_bot=bot, now=now)
    except ConflictError as exc:  # taken between the look-up and the insert
        raise taken from exc
    return player, token


def player_for_token(storage: SqlStorage, token: object) -> Player | None:
    """The player holding this device token, or None (for any token that is not one of ours)."""
    if not isinstance(token, str) or not 0 < len(token) <= 256:
        return None
    return storage.player_by_token_hash(token_hash(token))


def bot_player(storage: SqlStorage, name: str = "Calculatorul", *, now: float | None = None) -> Player:
    """The player row for the computer opponent called ``name`` (made on first use).

    A bot has no device: its token hash is random and thrown away.  The reserved
    names are allowed here, and only here.
    """
    key = name_key(name)
    found = storage.player_by_name_key(key)
    if found is not None:
        if not found.is_bot:
            raise NicknameError(f"the name {name!r} belongs to a person", "taken")
        return found
    try:
        return storage.create_player(normalize_name(name), key, token_hash(new_token()), is_bot=True, now=now)
    except ConflictError:  # made by another thread meanwhile
        return bot_player(storage, name, now=now)
