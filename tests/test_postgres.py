"""The server on PostgreSQL: a game survives kill -9, and name uniqueness holds.

A throwaway cluster is started by tests/pg.py (initdb + pg_ctl; as an unprivileged user when the
tests run as root); each test gets a fresh database in it. The URL reaches the server through the
extra TOML ([server] database_url), which server_factory lays over config.toml.
"""
from __future__ import annotations

import re

import asyncpg
import pytest

from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.telnet_client import ENCODING_MENU, NAME_PROMPT, TelnetClient

HAND = re.compile(r"ваши карты — ([\d, ]+)\.")
OVER = "Игра за столом {number} окончена"


def pg_config(url: str) -> str:
    # bid_seconds is long so no bid times out while the server is down or restarting.
    return f'[server]\ndatabase_url = "{url}"\n[games.bids]\nseconds = 40'


async def telnet(srv, name: str, password: str = "secret1", create: bool = True) -> TelnetClient:
    client = TelnetClient()
    await client.connect("127.0.0.1", srv.telnet_port)
    await client.login(name, password, create=create)
    return client


def hand_of(text: str) -> list[int]:
    return [int(x) for x in HAND.search(text).group(1).replace(" ", "").split(",")]


async def test_game_on_postgres_survives_kill_9(server_factory, pg_database, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(pg_config(pg_database), data_dir=data)
    anna = await telnet(srv, "Анна")
    boris = await telnet(srv, "Борис")
    await anna.expect("Борис заходит в корчму")  # Boris is in the hall now

    # Chat in the hall.
    anna.send_line("say привет, Борис")
    await anna.expect("Вы говорите: «привет, Борис»")
    await boris.expect("Анна говорит: «привет, Борис»")

    # A Sealed Bids table: Anna opens, Boris sits, one bot, start.
    anna.send_line("open bids rounds=3")
    opened = await anna.expect(re.compile(r"открываете стол \d+"))
    number = int(re.search(r"\d+", opened).group(0))
    boris.send_line(f"join {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    anna.send_line("bots 1")
    await anna.expect(re.compile("За стол сад(ит|ят)ся"))
    anna.send_line("start")
    hand_a = hand_of(await anna.expect(HAND, 10))
    hand_b = hand_of(await boris.expect(HAND, 10))
    assert len(hand_a) == len(hand_b) == 3

    # Round 1 is played in full.
    anna.send_line(f"bid {hand_a[0]}")
    await anna.expect(f"ставка {hand_a[0]} принята")
    boris.send_line(f"bid {hand_b[0]}")
    await boris.expect(f"ставка {hand_b[0]} принята")
    await anna.expect("Раунд 2 из 3", 10)
    await boris.expect("Раунд 2 из 3", 10)
    # Round 2: Anna's bid is acknowledged (so committed to PostgreSQL), then the server dies.
    anna.send_line(f"bid {hand_a[1]}")
    await anna.expect(f"ставка {hand_a[1]} принята")
    srv.kill9()
    await anna.close()
    await boris.close()

    # Same database URL, same data dir.
    srv2 = server_factory(pg_config(pg_database), data_dir=data)
    anna = await telnet(srv2, "Анна", create=False)
    await anna.expect(f"Вы снова за столом {number}", 10)
    await anna.expect(f"Ваша тайная ставка: {hand_a[1]}")  # the acknowledged bid survived
    boris = await telnet(srv2, "Борис", create=False)
    await boris.expect(f"Вы снова за столом {number}", 10)
    boris.send_line(f"bid {hand_b[1]}")
    await boris.expect(f"ставка {hand_b[1]} принята")
    await anna.expect("Раунд 3 из 3", 10)
    await boris.expect("Раунд 3 из 3", 10)
    anna.send_line(f"bid {hand_a[2]}")
    boris.send_line(f"bid {hand_b[2]}")
    await anna.expect(OVER.format(number=number), 10)
    await boris.expect(OVER.format(number=number), 10)
    await anna.close()
    await boris.close()

    # And it really was PostgreSQL: the log of the table is there, with every action.
    conn = await asyncpg.connect(pg_database)
    try:
        state = await conn.fetchval("SELECT state FROM game_table WHERE id = (SELECT max(id) FROM game_table)")
        actions = await conn.fetchval("SELECT count(*) FROM action_log")
    finally:
        await conn.close()
    assert state == "finished"
    assert actions >= 9  # 3 rounds x 3 seats
    assert not (data / "korchma.sqlite3").exists()
    srv2.terminate()


async def test_name_uniqueness_on_postgres(server_factory, pg_database):
    srv = server_factory(pg_config(pg_database))
    anna = await telnet(srv, "Anna")
    await anna.close()

    # "аnna" with a Cyrillic а folds to Anna's name key: the server asks for Anna's password
    # instead of offering a new account, and a different password does not get in.
    cyr = TelnetClient()
    await cyr.connect("127.0.0.1", srv.telnet_port)
    if ENCODING_MENU.search(await cyr.expect(re.compile(f"{ENCODING_MENU.pattern}|{NAME_PROMPT.pattern}",
                                                         re.M | re.I), 10)):
        cyr.send_line("1")
        await cyr.expect(NAME_PROMPT)
    cyr.send_line("\u0430nna")
    await cyr.expect("Пароль для Anna:")
    assert "свободно" not in cyr.text
    cyr.send_line("other-password")
    await cyr.expect("Неверное имя или пароль.")
    await cyr.close()

    # With Anna's password, "аnna" logs in as Anna (no second account).
    again = TelnetClient()
    await again.connect("127.0.0.1", srv.telnet_port)
    seen = await again.login("\u0430nna", "secret1", create=False)
    assert "Пароль для Anna:" in seen
    await again.expect("в корчму, Anna!")
    await again.close()

    conn = await asyncpg.connect(pg_database)
    try:
        rows = await conn.fetch("SELECT name, name_key FROM account")
        assert [(r["name"], r["name_key"]) for r in rows] == [("Anna", "anna")]
        # The unique index on name_key is in the PostgreSQL schema itself.
        with pytest.raises(asyncpg.UniqueViolationError):
            await conn.execute("INSERT INTO account (name, name_key, role, lang, created_at) "
                               "VALUES ('\u0430nna', 'anna', 'player', 'ru', now())")
    finally:
        await conn.close()
    srv.terminate()
