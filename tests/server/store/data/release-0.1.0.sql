-- A games database as Table 0.1.0 wrote it: its storage.py's two CREATE TABLE
-- statements, then two matches (vs the computer, two players on one device)
-- with their action logs, as that release logged them.
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, created REAL NOT NULL, config TEXT NOT NULL, seats TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS actions (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, seq));
INSERT INTO games VALUES ('K16FVoFYHKAG', 1796120296.9562643, '{"mode": "computer", "length": 3, "cube": true, "level": "easy", "seat": 0, "names": ["Ana", ""]}', '{"hashes": ["3d62e51375e315c80256df808cbeb4215208c5f7ffeda57f5f6ec94fc6912be6", null]}');
INSERT INTO games VALUES ('FAQpmed_Hf1Q', 1796120314.343546, '{"mode": "local", "length": 1, "cube": false, "level": "medium", "seat": 0, "names": ["Ion", "Maria"]}', '{"hashes": ["590664bc78f8f6cfa1f0ff0e9210176dce9e2f8d7ff69b80bdd384c774571811", "590664bc78f8f6cfa1f0ff0e9210176dce9e2f8d7ff69b80bdd384c774571811"]}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 0, '{"seat": null, "type": "opening_roll", "dice": [4, 5]}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 1, '{"seat": 1, "type": "move", "play": "24/20 13/8"}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 2, '{"seat": 0, "type": "roll", "dice": [4, 4]}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 3, '{"seat": 0, "type": "move", "play": "13/5*(2)"}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 4, '{"seat": 1, "type": "roll", "dice": [5, 5]}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 5, '{"seat": null, "type": "move", "play": ""}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 6, '{"seat": 0, "type": "double"}');
INSERT INTO actions VALUES ('K16FVoFYHKAG', 7, '{"seat": 1, "type": "drop"}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 0, '{"seat": null, "type": "opening_roll", "dice": [5, 4]}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 1, '{"seat": 0, "type": "move", "play": "13/9 13/8"}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 2, '{"seat": 1, "type": "roll", "dice": [6, 5]}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 3, '{"seat": 1, "type": "move", "play": "24/13"}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 4, '{"seat": 0, "type": "roll", "dice": [2, 1]}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 5, '{"seat": 0, "type": "move", "play": "9/7 8/7"}');
INSERT INTO actions VALUES ('FAQpmed_Hf1Q', 6, '{"seat": 1, "type": "roll", "dice": [4, 3]}');
