"""Playing people online: tables, seats, the lobby, players and what their games leave.

``service`` (``Online``, the facade the app calls), ``players`` (guests), ``ledger``
(points), ``results``, ``ratings`` and ``standings`` (match results, FIBS ratings,
player pages, leaderboard), ``push`` (Web Push notices).
"""
