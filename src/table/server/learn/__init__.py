"""Learning from games: ``routes`` (move list, hints, export, review, replay) and
``botapi`` (the wildbg-format bot API).
"""
