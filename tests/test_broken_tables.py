"""One table that cannot be rebuilt never stops the server (real server processes, telnet + SSH).

A «Революция» table whose deck file turned invalid, and a table whose stored action was
corrupted in the SQLite file: after a restart the server starts, the other tables carry on, the
table is marked broken, its players (both doors) and the admins are told why at login, and the
players are free to open another table.
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from games.revolution.deck import DECK_DIR
from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.test_startup import one_line_failure, serve
from tests.test_storage import bids_for_two
from tests.wire import open_table
from world.i18n import strip_marks, t

WIDE = 200
ADMINS = '[accounts]\nadmins = ["Админ"]\n[games.bids]\nseconds = 60'
LOGGED = "cannot be rebuilt and is marked broken"


def first_card(text: str) -> str:
    return re.findall(r"\d+", text)[0]


def ru(key: str, **params: Any) -> str:
    return strip_marks(t("ru", key, **params))


def told_player(number: int, game: str) -> str:
    """The fixed start of the line a broken table's player finds in the inbox."""
    return ru("broken.told_player", number=number, game=game, reason="").split(":")[0]


async def telnet(srv, name: str, create: bool = True):
    return await log_in(srv.telnet_port, name, create=create, naws=(WIDE, 50))


async def ssh(srv, name: str):
    client = await connect(srv.ssh_port, name, password="secret1", width=WIDE)
    await client.expect(ru("login.welcome", name=name), timeout=10)
    return client


async def bids_begun(srv) -> int:
    """Анна (telnet) and Борис (SSH) begin «Торги» and she bids; then the server stops. Returns
    the table's number."""
    anna, boris, number, hand, _ = await bids_for_two(srv)
    anna.send_line(f"ставка {hand[0]}")
    await anna.expect("принята")
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0
    return number


@pytest.fixture
def deck_name():
    """A deck file of this test's own (a copy of the default deck), removed at the end."""
    name = f"testbroken{os.getpid()}"
    path = DECK_DIR / f"{name}.json"
    shutil.copyfile(DECK_DIR / "default.json", path)
    try:
        yield name
    finally:
        path.unlink(missing_ok=True)


async def test_an_invalid_deck_breaks_its_table_only(server_factory, tmp_path, deck_name):
    data = tmp_path / "data"
    srv = server_factory(ADMINS, data_dir=data)
    admin = await telnet(srv, "Админ")
    await admin.close()
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    vera = await telnet(srv, "Вера")
    broken = await open_table(anna, f"открыть революция deck={deck_name}")
    boris.send_line(f"сесть {broken}")
    await boris.expect(f"Вы садитесь за стол {broken}")
    anna.send_line("начать")
    await anna.expect("Начинается «Революция»", 10)
    other = await open_table(vera, "открыть торги rounds=3")
    vera.send_line("боты 1")
    await vera.expect("За стол садится 1 бот")
    vera.send_line("начать")
    await vera.expect("Раунд 1 из 3", 10)
    for client in (anna, boris, vera):
        await client.close()
    assert srv.terminate() == 0

    (DECK_DIR / f"{deck_name}.json").write_text("{ this is not a deck", encoding="utf-8")
    srv = server_factory(ADMINS, data_dir=data)  # it starts (it used to crash on DeckError)
    assert srv.log().count(LOGGED) == 1
    assert "DeckError" in srv.log()  # the cause, with its traceback, for the host
    assert re.search(r"event=table_broken by=server number=\d+ game=\w+ was=\w+ cause=DeckError", srv.log())

    vera = await telnet(srv, "Вера", create=False)
    await vera.expect(f"Вы снова за столом {other}")  # the other table carries on
    vera.send_line("рука")
    hand = await vera.expect(re.compile(r"Ваши карты: [\d, ]+"))
    vera.send_line(f"ставка {first_card(hand)}")
    await vera.expect("принята")

    anna = await telnet(srv, "Анна", create=False)
    await anna.expect(told_player(broken, "Революция"))
    await anna.expect(ru("broken.reason.deck", deck=deck_name))  # why: the deck, named, in plain words
    anna.send_line(f"сесть {broken}")
    await anna.expect(ru("broken.unavailable", number=broken, reason="").split(":")[0])
    mine = await open_table(anna, "открыть торги")  # not stuck: she plays elsewhere
    assert mine not in (broken, other)
    boris = await ssh(srv, "Борис")
    await boris.expect(told_player(broken, "Революция"))
    await boris.expect(ru("broken.reason.deck", deck=deck_name))
    for player in (anna, boris):  # the parser's complaint is for the host, not the players
        assert "JSON" not in player.text and "Expecting" not in player.text and "DeckError" not in player.text
    boris.send_line("смотреть")  # he is not held at the broken table: he is in the hall
    await boris.expect(ru("hall.look_title"))
    boris.send_line(f"сесть {mine}")
    await boris.expect(f"Вы садитесь за стол {mine}")

    admin = await telnet(srv, "Админ", create=False)
    await admin.expect(ru("broken.told_admin", number=broken, game="Революция", reason="").split(":")[0])
    await admin.expect("not a readable JSON file")  # admins get the cause
    admin.send_line("столы")
    await admin.expect(ru("broken.list_header"))
    await admin.expect(re.compile(rf"№{broken} +Революция +— Колоду «{deck_name}»"))
    await admin.expect("сломано: 1")
    for client in (anna, boris, vera, admin):
        await client.close()
    assert srv.terminate() == 0

    # The next start does not try it again, and nobody is told twice.
    srv = server_factory(ADMINS, data_dir=data)
    assert LOGGED not in srv.log()
    anna = await telnet(srv, "Анна", create=False)
    anna.send_line("столы")
    await anna.expect(f"№{mine}")
    assert told_player(broken, "Революция") not in anna.text
    assert ru("broken.list_header") not in anna.text  # for admins only
    await anna.close()


async def test_a_corrupted_log_entry_breaks_its_table_only(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(ADMINS, data_dir=data)
    number = await bids_begun(srv)

    db = sqlite3.connect(Path(data) / "korchma.sqlite3")
    try:
        db.execute("UPDATE action_log SET action = ? WHERE table_id = ? AND step = 1",
                   ('{"type": "bid", "card": 99}', number))
        db.commit()
    finally:
        db.close()
    srv = server_factory(ADMINS, data_dir=data)
    assert srv.log().count(LOGGED) == 1
    anna = await telnet(srv, "Анна", create=False)
    await anna.expect(told_player(number, "Торги"))
    await anna.expect(ru("broken.reason.replay", step=1))
    # `history` lists it as broken, never as a win (issue 18).
    anna.send_line("история")
    await anna.expect(re.compile(rf"№{number} [\d:. ]+«Торги», [^—]+ — {ru('history.result.broken')}\."))
    anna.send_line(f"партия {number}")
    await anna.expect(f"«Торги»: {ru('history.result.broken')}.")
    await open_table(anna, "открыть торги")
    boris = await ssh(srv, "Борис")
    await boris.expect(told_player(number, "Торги"))
    boris.send_line(f"наблюдать {number}")
    await boris.expect(ru("broken.unavailable", number=number, reason="").split(":")[0])
    await anna.close()
    await boris.close()


async def test_players_read_a_plain_reason_and_admins_the_cause(server_factory, tmp_path):
    """A table that fails to rebuild for an unforeseen reason (its stored options are no longer
    a mapping: the engine fails with an AttributeError): its players, on both doors, read that
    the server had an internal error, in their language, never the exception; the admins read
    the exception's type and text, in their inbox and in `tables`."""
    data = tmp_path / "data"
    srv = server_factory(ADMINS, data_dir=data)
    admin = await telnet(srv, "Админ")
    await admin.close()
    number = await bids_begun(srv)

    db = sqlite3.connect(Path(data) / "korchma.sqlite3")
    try:
        db.execute("UPDATE game_table SET options = ? WHERE id = ?", ("[3]", number))
        db.commit()
    finally:
        db.close()
    srv = server_factory(ADMINS, data_dir=data)
    assert srv.log().count(LOGGED) == 1 and "AttributeError" in srv.log()
    anna = await telnet(srv, "Анна", create=False)
    boris = await ssh(srv, "Борис")
    for player in (anna, boris):
        await player.expect(told_player(number, "Торги"))
        await player.expect(ru("broken.reason.error"))
        player.send_line(f"сесть {number}")
        await player.expect(ru("broken.unavailable", number=number, reason=ru("broken.reason.error")))
        assert "AttributeError" not in player.text and "object has no attribute" not in player.text
    admin = await telnet(srv, "Админ", create=False)
    await admin.expect(ru("broken.told_admin", number=number, game="Торги", reason="").split(":")[0])
    await admin.expect("AttributeError: 'list' object has no attribute 'items'")
    admin.send_line("столы")
    await admin.expect(re.compile(rf"№{number} +Торги +— AttributeError"))
    for client in (anna, boris, admin):
        await client.close()


async def test_storage_trouble_while_restoring_stops_the_start_and_breaks_nothing(server_factory, pg_database,
                                                                                 tmp_path):
    """The database fails while a table's seats are read at start-up (PostgreSQL ends the statement
    as in a shutdown): that is no fault of the table's. The start-up ends at once with one line
    naming the cause and the key to change, nothing is marked broken, and the next start, with
    the database well again, rebuilds the table; its players (both doors) are back at it."""
    url = pg_database
    config = f'[server]\ndatabase_url = "{url}"'
    data = tmp_path / "data"
    srv = server_factory(config, data_dir=data)
    number = await bids_begun(srv)

    db = await asyncpg.connect(url)
    try:
        await db.execute(
            "ALTER TABLE seat RENAME TO seat_kept; "
            "CREATE FUNCTION korchma_test_gone() RETURNS boolean AS $$ BEGIN RAISE EXCEPTION "
            "'terminating connection due to administrator command' USING ERRCODE = 'admin_shutdown'; "
            "END $$ LANGUAGE plpgsql; "
            "CREATE VIEW seat AS SELECT * FROM seat_kept WHERE korchma_test_gone()")
        run = await asyncio.to_thread(serve, tmp_path, config=config, data_dir=data)
        one_line_failure(run, "tables could not be restored", f"table {number}", "AdminShutdownError",
                         "nothing was marked broken", "server.database_url")
        assert await db.fetchval("SELECT state FROM game_table WHERE id = $1", number) == "running"
        await db.execute("DROP VIEW seat; DROP FUNCTION korchma_test_gone(); ALTER TABLE seat_kept RENAME TO seat")
    finally:
        await db.close()
    srv = server_factory(config, data_dir=data)
    assert LOGGED not in srv.log()
    anna = await telnet(srv, "Анна", create=False)
    await anna.expect(f"Вы снова за столом {number}")
    boris = await ssh(srv, "Борис")
    await boris.expect(f"Вы снова за столом {number}")
    boris.send_line("рука")
    await boris.expect(re.compile(r"Ваши карты: [\d, ]+"))
    for player in (anna, boris):
        assert told_player(number, "Торги") not in player.text
        await player.close()
