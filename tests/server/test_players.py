"""Guest players: nickname rules, impersonation, uniqueness and device tokens."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.server.online.players import (NicknameError, bot_player, check_name, create_guest, name_key, new_token,
                                  player_for_token, token_hash)
from table.server.store import open_storage

from tests.server.storage_fixtures import storage, where  # noqa: F401 - fixtures


@pytest.mark.parametrize(("name", "kept"), [
    ("Ana", "Ana"), ("Ion_2", "Ion_2"), ("ab", "ab"), ("x" * 20, "x" * 20), ("  Maria  ", "Maria"),
    ("Ștefănescu", "Ștefănescu"), ("ȚĂRANU-Îna", "ȚĂRANU-Îna"), ("Ştefan", "Ștefan"), ("ŢARA", "ȚARA"),
    ("a\u0306la", "ăla"),  # a + combining breve is the letter ă
    ("007", "007"), ("Tablet", "Tablet"), ("Calculatoare", "Calculatoare"),
])
def test_accepted_names(name, kept):
    assert check_name(name) == kept


@pytest.mark.parametrize(("name", "code"), [
    ("a", "length"), ("", "length"), ("x" * 21, "length"), ("   ", "length"), (42, "characters"),
    ("Ana Maria", "characters"), ("ana!", "characters"), ("Zoë", "characters"), ("Иван", "characters"),
    ("ana.b", "characters"), ("__", "characters"), ("-_-", "characters"),
    ("Calculatorul", "reserved"), ("calculatorul", "reserved"), ("CALCULATOR", "reserved"),
    ("Computer", "reserved"), ("computerul", "reserved"), ("Table", "reserved"), ("TABLE", "reserved"),
    ("Calculatorul2", "reserved"), ("C0mputer", "reserved"), ("calculatoru1", "reserved"),
    ("Calcu_lator", "reserved"), ("Compu-ter", "reserved"), ("Tăble", "reserved"), ("T4ble_1", "reserved"),
])
def test_refused_names(name, code):
    with pytest.raises(NicknameError) as refused:
        check_name(name)
    assert refused.value.code == code and str(refused.value)


def test_names_are_compared_without_case_or_diacritics():
    assert name_key("Ștefan") == name_key("STEFAN") == name_key("Ştefan") == "stefan"
    assert name_key("Ăîâ-Ț_") == "aia-t_"
    assert name_key("ana-b") != name_key("ana_b")


@given(st.text(max_size=30))
def test_check_name_accepts_only_what_it_keeps(text):
    try:
        kept = check_name(text)
    except NicknameError:
        return
    assert check_name(kept) == kept and 2 <= len(kept) <= 20 and name_key(kept) == name_key(text)


def test_tokens_are_long_random_and_only_their_hash_is_kept(storage):
    a, b = new_token(), new_token()
    assert a != b and len(a) >= 40
    assert token_hash(a) == hashlib.sha256(a.encode()).hexdigest()
    player, token = create_guest(storage, "Ana", now=7.0)
    assert (player.name, player.is_bot, player.created) == ("Ana", False, 7.0)
    assert player_for_token(storage, token) == player
    assert storage.player_by_token_hash(token) is None  # the token itself is not in the database
    assert player_for_token(storage, new_token()) is None
    assert player_for_token(storage, None) is None and player_for_token(storage, "x" * 1000) is None


def test_a_name_belongs_to_the_first_device(storage):
    first, _ = create_guest(storage, "Ştefan")
    assert first.name == "Ștefan"
    for again in ("stefan", "ȘTEFAN", "Stefan"):
        with pytest.raises(NicknameError, match="taken") as refused:
            create_guest(storage, again)
        assert refused.value.code == "taken"
    second, _ = create_guest(storage, "Stefan2")
    assert second.id != first.id


def test_the_computer_has_its_reserved_name(storage):
    bot = bot_player(storage)
    assert (bot.name, bot.is_bot) == ("Calculatorul", True)
    assert bot_player(storage) == bot  # made once
    person, _ = create_guest(storage, "Mihai")
    with pytest.raises(NicknameError, match="belongs to a person"):
        bot_player(storage, "Mihai")


def test_guests_from_many_threads_get_distinct_names(tmp_path):
    """Two threads racing for one name: one gets it, the other is told it is taken."""
    import threading

    s = open_storage(tmp_path / "g.sqlite3")
    results: list[object] = []

    def take() -> None:
        try:
            results.append(create_guest(s, "Radu")[0].id)
        except NicknameError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    s.close()
    assert sorted(results, key=str).count("taken") == 3 and len(results) == 4
