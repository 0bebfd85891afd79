"""Storage of online play: players, tables and seats, clocks, the ledger and chat, on both databases."""

from __future__ import annotations

import pytest

from table.server.online.ledger import Entry
from table.server.store import CHAT_MAX, ConflictError, OnlineWrite, StorageError

from tests.server.storage_fixtures import storage, where  # noqa: F401 - fixtures


@pytest.fixture
def ana(storage):
    return storage.create_player("Ana", "ana", "hash-a", now=1000.0)


@pytest.fixture
def ion(storage):
    return storage.create_player("Ion", "ion", "hash-i", now=1001.0)


def test_players_are_found_by_id_token_hash_and_name_key(storage, ana):
    assert (ana.name, ana.is_bot, ana.created, ana.last_seen) == ("Ana", False, 1000.0, 1000.0)
    assert storage.player(ana.id) == ana
    assert storage.player_by_token_hash("hash-a") == ana
    assert storage.player_by_name_key("ana") == ana
    assert storage.player_by_token_hash("hash-x") is None and storage.player_by_name_key("x") is None
    assert storage.player(ana.id + 1000) is None
    storage.touch_player(ana.id, now=2000.0)
    assert storage.player(ana.id).last_seen == 2000.0
    bot = storage.create_player("Calculatorul", "calculatorul", "bot-hash", is_bot=True)
    assert storage.player(bot.id).is_bot and bot.id != ana.id


def test_a_name_and_a_device_belong_to_one_player(storage, ana):
    with pytest.raises(ConflictError, match="name 'ANA' is taken"):
        storage.create_player("ANA", "ana", "hash-b")
    with pytest.raises(ConflictError, match="device already has a player"):
        storage.create_player("Bob", "bob", "hash-a")
    assert storage.player_by_name_key("bob") is None


def test_a_public_table_fills_up_and_starts(storage, ana, ion):
    table = storage.create_table(ana.id, {"length": 3, "private": False}, now=10.0)
    assert (table.status, table.seats, table.invite, table.creator) == ("open", (ana.id, None), None, ana.id)
    assert storage.table(table.id) == table
    joined = storage.join_table(table.id, ion.id, now=11.0)
    assert joined.seats == (ana.id, ion.id) and joined.updated == 11.0
    storage.create(gid := "match-1", {}, {})
    playing = storage.set_table_status(table.id, "playing", game_id=gid, now=12.0)
    assert (playing.status, playing.game_id, playing.settings) == ("playing", gid, {"length": 3, "private": False})
    assert storage.table(table.id) == playing


def test_joining_refusals(storage, ana, ion):
    table = storage.create_table(ana.id, {}, seat=1)
    assert table.seats == (None, ana.id)
    with pytest.raises(ConflictError, match="already sit"):
        storage.join_table(table.id, ana.id)
    with pytest.raises(ConflictError, match="seat is taken"):
        storage.join_table(table.id, ion.id, seat=1)
    with pytest.raises(StorageError, match="0 or 1"):
        storage.join_table(table.id, ion.id, seat=2)
    with pytest.raises(StorageError, match="no table"):
        storage.join_table("nope", ion.id)
    third = storage.create_player("Eva", "eva", "hash-e")
    storage.join_table(table.id, ion.id)
    with pytest.raises(ConflictError, match="table is full"):
        storage.join_table(table.id, third.id)
    storage.set_table_status(table.id, "abandoned")
    with pytest.raises(StorageError, match="abandoned, not open"):
        storage.join_table(table.id, third.id)
    with pytest.raises(StorageError, match="freed only before the game"):
        storage.leave_table(table.id, ion.id)
    with pytest.raises(StorageError, match="status is one of"):
        storage.set_table_status(table.id, "closed")
    with pytest.raises(StorageError, match="no player"):
        storage.create_table(ana.id + ion.id + third.id, {})


def test_leaving_an_open_table_frees_the_seat(storage, ana, ion):
    table = storage.create_table(ana.id, {})
    storage.join_table(table.id, ion.id)
    assert storage.leave_table(table.id, ion.id).seats == (ana.id, None)
    with pytest.raises(StorageError, match="do not sit"):
        storage.leave_table(table.id, ion.id)
    assert storage.join_table(table.id, ion.id, seat=1).seats == (ana.id, ion.id)


def test_the_lobby_lists_public_tables_newest_first(storage, ana, ion):
    old = storage.create_table(ana.id, {}, now=1.0)
    new = storage.create_table(ion.id, {}, now=2.0)
    secret = storage.create_table(ana.id, {"private": True}, now=3.0)
    assert secret.invite and len(secret.invite) >= 8
    assert [t.id for t in storage.list_tables()] == [new.id, old.id]
    assert [t.id for t in storage.list_tables(private=True)] == [secret.id, new.id, old.id]
    assert [t.id for t in storage.list_tables(limit=1)] == [new.id]
    storage.set_table_status(old.id, "finished")
    assert [t.id for t in storage.list_tables(["finished"])] == [old.id]
    assert [t.id for t in storage.list_tables(["open"])] == [new.id]
    assert storage.table_by_invite(secret.invite) == storage.table(secret.id)
    assert storage.table_by_invite("wrong") is None


def test_clocks_are_kept_and_found_when_they_run_out(storage):
    for gid in ("a", "b", "c"):
        storage.create(gid, {}, {})
    storage.save_clock("a", {"reserve": [20.0, 20.0]}, 100.0)
    storage.save_clock("b", {"reserve": [5.0, 5.0]}, 50.0)
    storage.save_clock("c", {"stopped": True}, None)
    assert storage.load_clock("a") == ({"reserve": [20.0, 20.0]}, 100.0)
    assert storage.load_clock("c") == ({"stopped": True}, None)
    assert storage.load_clock("none") is None
    assert storage.expired_clocks(now=49.9) == []
    assert storage.expired_clocks(now=100.0) == ["b", "a"]
    storage.save_clock("b", {"reserve": [4.0, 5.0]}, 150.0)  # the same row, replaced
    assert storage.load_clock("b") == ({"reserve": [4.0, 5.0]}, 150.0)
    assert storage.expired_clocks(now=120.0) == ["a"]
    with pytest.raises(StorageError, match="no game"):
        storage.save_clock("missing", {}, 1.0)


def test_points_are_the_sum_of_the_ledger(storage, ana, ion):
    storage.create("g", {}, {})
    storage.add_ledger([Entry(ana.id, 40, "win:gammon", "g"), Entry(ion.id, -20, "loss:gammon", "g")], now=5.0)
    storage.add_ledger([Entry(ana.id, -100, "left", "g"), Entry(ion.id, 0, "opponent-left", "g")], now=6.0)
    storage.add_ledger([])
    assert storage.points(ana.id) == -60 and storage.points(ion.id) == -20
    assert storage.points_of([ana.id, ion.id, 999]) == {ana.id: -60, ion.id: -20, 999: 0}
    lines = storage.ledger(player_id=ana.id)
    assert [(x.amount, x.reason, x.game_id, x.created) for x in lines] == [(-100, "left", "g", 6.0),
                                                                          (40, "win:gammon", "g", 5.0)]
    assert len(storage.ledger(game_id="g")) == 4 and len(storage.ledger(limit=3)) == 3


def test_the_leaderboard_sums_points_and_leaves_bots_out(storage, ana, ion):
    eva = storage.create_player("Eva", "eva", "hash-e")
    bot = storage.create_player("Calculatorul", "calculatorul", "hash-bot", is_bot=True)
    storage.add_ledger([Entry(ana.id, 20, "win:single"), Entry(ion.id, -10, "loss:single"),
                        Entry(ion.id, 60, "win:backgammon"), Entry(bot.id, 500, "win:gammon"),
                        Entry(eva.id, 20, "win:single"), Entry(eva.id, 30, "win:single")])
    board = [(p.name, points) for p, points in storage.leaderboard()]
    assert board == [("Eva", 50), ("Ion", 50), ("Ana", 20)]  # ties by name
    assert [p.name for p, _ in storage.leaderboard(limit=1)] == ["Eva"]


def test_ledger_entries_are_posted_all_or_none(storage, ana):
    with pytest.raises(StorageError, match="does not exist"):
        storage.add_ledger([Entry(ana.id, 20, "win:single"), Entry(ana.id + 999, -10, "loss:single")])
    assert storage.ledger(player_id=ana.id) == [] and storage.points(ana.id) == 0


def test_chat_keeps_the_two_channels_apart(storage, ana, ion):
    table = storage.create_table(ana.id, {})
    first = storage.add_chat(table.id, "players", ana.id, "Salut!", now=1.0)
    storage.add_chat(table.id, "spectators", ion.id, "Hai Ana", now=2.0)
    third = storage.add_chat(table.id, "players", ion.id, "Noroc", now=3.0)
    said = storage.chat_messages(table.id, "players")
    assert [(m.player_id, m.text, m.created) for m in said] == [(ana.id, "Salut!", 1.0), (ion.id, "Noroc", 3.0)]
    assert [m.text for m in storage.chat_messages(table.id, "spectators")] == ["Hai Ana"]
    assert storage.chat_messages(table.id, "players", after=first.id) == [third]
    assert storage.chat_messages(table.id, "players", limit=1) == [third]  # the latest ones


@pytest.mark.parametrize(("channel", "text", "why"), [
    ("everyone", "hi", "channel"), ("players", "   ", "1 to"), ("players", "x" * (CHAT_MAX + 1), "1 to")])
def test_chat_refusals(storage, ana, channel, text, why):
    table = storage.create_table(ana.id, {})
    with pytest.raises(StorageError, match=why):
        storage.add_chat(table.id, channel, ana.id, text)
    assert storage.chat_messages(table.id, "players") == []


def test_a_table_starts_with_its_game_and_clock_in_one_step(storage, ana, ion):
    table = storage.create_table(ana.id, {"length": 3})
    started = storage.start_table(table.id, ion.id, "g1", {"mode": "online"}, {"hashes": ["a", "i"]},
                                  clock=({"c": 1}, 1500.0), now=1200.0)
    assert (started.status, started.game_id, started.seats) == ("playing", "g1", (ana.id, ion.id))
    assert storage.load("g1") == ({"mode": "online"}, {"hashes": ["a", "i"]}, [])
    assert storage.load_clock("g1") == ({"c": 1}, 1500.0)
    with pytest.raises(StorageError, match="playing, not open"):
        storage.start_table(table.id, ion.id, "g2", {}, {})
    with pytest.raises(StorageError):
        storage.load("g2")  # the refused start made no game


def test_an_entry_is_stored_with_its_clock_points_and_table_status_or_not_at_all(storage, ana, ion):
    table = storage.create_table(ana.id, {"length": 1})
    storage.start_table(table.id, ion.id, "g1", {}, {})
    storage.append_online("g1", 0, {"type": "move"}, clock=({"c": 2}, None),
                          ledger=[Entry(ana.id, 20, "win:single", "g1"), Entry(ion.id, -10, "loss:single", "g1")],
                          table=(table.id, "finished"), now=1300.0)
    assert storage.load("g1")[2] == [{"type": "move"}]
    assert storage.load_clock("g1") == ({"c": 2}, None)
    assert storage.points_of([ana.id, ion.id]) == {ana.id: 20, ion.id: -10}
    assert storage.table(table.id).status == "finished"
    assert storage.idle_games(before=10**10) == []  # the game is finished
    with pytest.raises(ConflictError):  # the same log place again: nothing else is kept either
        storage.append_online("g1", 0, {"type": "x"}, clock=({"c": 3}, 9.0), ledger=[Entry(ana.id, 20, "win:single", "g1")])
    assert storage.load_clock("g1") == ({"c": 2}, None) and storage.points(ana.id) == 20


def test_many_entries_in_one_transaction_each_kept_or_refused_on_its_own(storage, ana, ion):
    first = storage.create_table(ana.id, {"length": 1})
    storage.start_table(first.id, ion.id, "g1", {}, {})
    second = storage.create_table(ion.id, {"length": 1})
    storage.start_table(second.id, ana.id, "g2", {}, {})
    storage.append_online("g1", 0, {"type": "roll"})
    results = storage.append_online_many([
        OnlineWrite("g1", 1, {"type": "move"}, clock=({"c": 5}, 99.0)),
        OnlineWrite("g1", 1, {"type": "again"}, clock=({"c": 6}, 1.0), ledger=[Entry(ana.id, 20, "win:single", "g1")]),
        OnlineWrite("nowhere", 0, {"type": "roll"}),
        OnlineWrite("g2", 0, {"type": "roll"}, ledger=[Entry(ion.id, 10, "win:single", "g2")]),
    ])
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], ConflictError) and "g1" in str(results[1])
    assert isinstance(results[2], StorageError) and "nowhere" in str(results[2])
    # The refused entry left nothing behind: not its clock, not its points.
    assert storage.load("g1")[2] == [{"type": "roll"}, {"type": "move"}]
    assert storage.load_clock("g1") == ({"c": 5}, 99.0)
    assert storage.load("g2")[2] == [{"type": "roll"}]
    assert storage.points_of([ana.id, ion.id]) == {ana.id: 0, ion.id: 10}


def test_token_hashes_tables_and_reasons_of_a_player(storage, ana, ion):
    assert storage.token_hash(ana.id) == "hash-a" and storage.token_hash(ana.id + 99) is None
    open_one = storage.create_table(ana.id, {"private": True}, now=1.0)
    other = storage.create_table(ion.id, {}, now=2.0)
    storage.join_table(other.id, ana.id)
    assert [x.id for x in storage.player_tables(ana.id)] == [other.id, open_one.id]
    assert [x.id for x in storage.player_tables(ion.id)] == [other.id]
    assert storage.player_tables(ion.id, ("finished",)) == []
    storage.add_ledger([Entry(ana.id, 20, "win:single"), Entry(ana.id, 40, "win:single"), Entry(ana.id, -100, "left")])
    assert storage.reasons(ana.id) == {"win:single": 2, "left": 1} and storage.reasons(ion.id) == {}


def test_a_loading_room_reads_its_table_players_points_clock_and_ledger_in_one_call(storage, ana, ion):
    table = storage.create_table(ana.id, {"length": 3}, now=10.0)
    storage.join_table(table.id, ion.id, now=11.0)
    storage.create("match-r", {}, {})
    storage.create("other", {}, {})
    playing = storage.set_table_status(table.id, "playing", game_id="match-r", now=12.0)
    storage.add_ledger([Entry(ana.id, 2, "win:single", "match-r"), Entry(ion.id, -2, "loss:single", "match-r"),
                        Entry(ana.id, 5, "win:gammon", "other")])
    storage.save_clock("match-r", {"reserve": [60, 55]}, 99.5)
    loaded = storage.table_room(table.id, "match-r")
    assert loaded.table == playing
    assert loaded.players == {ana.id: ana, ion.id: ion}
    assert loaded.points == {ana.id: 7, ion.id: -2}  # every game's points, not only this one's
    assert loaded.clock == ({"reserve": [60, 55]}, 99.5)
    assert [(line.player_id, line.amount) for line in loaded.ledger] == [(ion.id, -2), (ana.id, 2)]  # newest first
    assert storage.table_room(table.id, "other").clock is None
    assert storage.table_room("no-such-table", "match-r") is None
