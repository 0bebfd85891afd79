"""Chat at an online table: the players' channel and the spectators'."""

from __future__ import annotations

from table.server.online.base import OnlineError
from table.server.online.guests import Guests
from table.server.online.state import TableState
from table.server.play.rooms import Room
from table.server.protocol import Chat as ChatMsg
from table.server.protocol import ChatHistory, ChatLine

CHAT_LENGTH = 200
"""The longest chat message, in characters."""
CHAT_HISTORY = 50
"""Chat messages sent with ``hello``."""


class Chat(Guests):
    """Chat messages kept with their table and delivered to their channel's readers."""

    async def chat(self, room: Room, seats: frozenset[int], player_id: int | None, msg: ChatMsg) -> None:
        """Keep and deliver a chat message from a watcher of ``room``."""
        state = room.online
        if not isinstance(state, TableState):
            raise OnlineError("chat is for online tables", "not_online")
        channel, text = msg.channel, msg.text
        mine = "players" if seats else "spectators"
        if channel != mine:
            raise OnlineError(f"you write to the {mine!r} channel, not {channel!r}", "bad_request")
        if player_id is None:
            raise OnlineError("only guests chat: say hello with your device token", "no_token")
        if not isinstance(text, str) or not text.strip() or len(text) > CHAT_LENGTH:
            raise OnlineError(f"a chat message has 1 to {CHAT_LENGTH} characters", "bad_request")
        saved = await self._call(self.storage.add_chat, state.table.id, channel, player_id, text, now=self.now())
        name = (await self._players({player_id}))[player_id].name
        room.broadcast(ChatLine(mine, saved.id, name, text, saved.created),
                       lambda w: bool(w.seats) == (channel == "players"))

    async def chat_history(self, room: Room, seats: frozenset[int]) -> ChatHistory | None:
        """The last messages of the channel the holder of ``seats`` reads (None for a game that is not online)."""
        state = room.online
        if not isinstance(state, TableState):
            return None
        channel = "players" if seats else "spectators"
        lines = await self._call(self.storage.chat_messages, state.table.id, channel, limit=CHAT_HISTORY)
        names = await self._players({m.player_id for m in lines})
        return ChatHistory(channel, [ChatLine(channel, m.id, names[m.player_id].name if m.player_id in names else None,
                                              m.text, m.created) for m in lines])
