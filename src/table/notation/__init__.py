"""Ways of writing positions and games down: Match IDs, XGIDs, records, diagrams.

``matchid`` reads and writes GNU Backgammon Match IDs and the combined
``PositionID:MatchID``; ``xgid`` reads and writes eXtreme Gammon XGIDs.
"""
