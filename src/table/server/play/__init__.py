"""Playing one game: the room that owns it, the game's rules on the wire, the computer.

``rooms`` (the owner: apply, persist, publish), ``game`` (GameConfig, the views a
client sees), ``computer`` and ``pool`` (the computer's moves, in worker processes),
``clock`` (clock arithmetic), ``turns`` (turn-based rules).
"""
