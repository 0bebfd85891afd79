"""The server's edge: what every request and socket passes through before a game sees it.

``http`` (uvicorn's bounds), ``middleware`` (security headers, connection caps, the
client's key), ``limits`` (rate limits, bounded bodies), ``outbox`` (each socket's send
queue), ``text`` (text that can be stored), ``memory`` (the collector frozen at start),
``wallclock`` (a wall clock that never goes back).
"""
