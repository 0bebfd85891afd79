"""Where the server keeps everything: one :func:`open_storage`, its queries grouped by tables.

``storage`` (the ``SqlStorage`` that holds every group, and ``open_storage``),
``games``, ``players``, ``tables``, ``social``, ``results`` (each group of
queries), ``values`` (the records and errors they hand out), ``base`` (the
transaction), ``schema`` and ``migrations`` (the tables and their history).
Code outside this package imports from here.
"""

from table.server.store.storage import SqlStorage, default_path, open_storage
from table.server.store.values import (
    CHANNELS,
    CHAT_MAX,
    JSON,
    TABLE_STATUSES,
    Board,
    Channel,
    ChatMessage,
    ConflictError,
    LedgerLine,
    MatchResult,
    OnlineTable,
    OnlineWrite,
    Player,
    PushSubscription,
    Storage,
    StorageError,
    TableRoom,
    TableStatus,
    public_id,
)

__all__ = [
    "CHANNELS", "CHAT_MAX", "JSON", "TABLE_STATUSES", "Board", "Channel", "ChatMessage", "ConflictError",
    "LedgerLine", "MatchResult", "OnlineTable", "OnlineWrite", "Player", "PushSubscription", "SqlStorage",
    "Storage", "StorageError", "TableRoom", "TableStatus", "default_path", "open_storage", "public_id",
]
