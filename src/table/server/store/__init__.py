"""Where the server keeps everything: one :func:`open_storage`.

``storage`` (``SqlStorage`` and ``open_storage``), ``schema`` and
``migrations`` (the tables and their history).  Code outside this package
imports from here.
"""

from table.server.store.storage import (
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
    SqlStorage,
    Storage,
    StorageError,
    TableStatus,
    default_path,
    open_storage,
    public_id,
)

__all__ = [
    "CHANNELS", "CHAT_MAX", "JSON", "TABLE_STATUSES", "Board", "Channel", "ChatMessage", "ConflictError",
    "LedgerLine", "MatchResult", "OnlineTable", "OnlineWrite", "Player", "PushSubscription", "SqlStorage",
    "Storage", "StorageError", "TableStatus", "default_path", "open_storage", "public_id",
]
