"""One table that cannot be rebuilt never stops the server (real server processes, telnet + SSH).

A «Революция» table whose deck file turned invalid, and a table whose stored action was
corrupted in the SQLite file: after a restart the server starts, the other tables carry on, the
table is marked broken, its players (both doors) and the admins are told why at login, and the
players are free to open another table.
"""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from games.revolution.deck import DECK_DIR
from tests.ssh_client import connect
from tests.telnet_client import log_in
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

    vera = await telnet(srv, "Вера", create=False)
    await vera.expect(f"Вы снова за столом {other}")  # the other table carries on
    vera.send_line("рука")
    hand = await vera.expect(re.compile(r"Ваши карты: [\d, ]+"))
    vera.send_line(f"ставка {first_card(hand)}")
    await vera.expect("принята")

    anna = await telnet(srv, "Анна", create=False)
    await anna.expect(told_player(broken, "Революция"))
    await anna.expect(f"«{deck_name}»")  # why: the deck, named
    anna.send_line(f"сесть {broken}")
    await anna.expect(ru("broken.unavailable", number=broken, reason="").split(":")[0])
    mine = await open_table(anna, "открыть торги")  # not stuck: she plays elsewhere
    assert mine not in (broken, other)
    boris = await ssh(srv, "Борис")
    await boris.expect(told_player(broken, "Революция"))
    boris.send_line("смотреть")  # he is not held at the broken table: he is in the hall
    await boris.expect(ru("hall.look_title"))
    boris.send_line(f"сесть {mine}")
    await boris.expect(f"Вы садитесь за стол {mine}")

    admin = await telnet(srv, "Админ", create=False)
    await admin.expect(ru("broken.told_admin", number=broken, game="Революция", reason="").split(":")[0])
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
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    anna.send_line("начать")
    hand = await anna.expect(re.compile(r"ваши карты — [\d, ]+"))
    anna.send_line(f"ставка {first_card(hand)}")
    await anna.expect("принята")
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0

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
    await anna.expect(ru("broken.reason.replay", step=1, why="").split("(")[0])
    await open_table(anna, "открыть торги")
    boris = await ssh(srv, "Борис")
    await boris.expect(told_player(number, "Торги"))
    boris.send_line(f"наблюдать {number}")
    await boris.expect(ru("broken.unavailable", number=number, reason="").split(":")[0])
    await anna.close()
    await boris.close()
