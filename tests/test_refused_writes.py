"""A write the database refuses for a reason that is not storage trouble never pauses anything.

A unique key taken, a foreign key, a trigger's refusal: the same write is refused again at every
try, so treating it as storage trouble paused a table for ever (pause, the clock write works,
the bot replays its move, pause again) and held every later inbox message behind the one that
can never be written. Real servers, real sockets (telnet and SSH), SQLite refusing one kind of
write with a trigger (tests/refusals.py):

* a bot's move: the table is marked broken, everyone at it and the admins are told, once;
* a player's move, or `open`: the internal-error line (never a storage line, never a traceback)
  and the game goes on;
* an inbox item: logged and dropped; the messages after it reach the player.
"""
from __future__ import annotations

import asyncio
import re
import sqlite3

from tests.refusals import sqlite_allow, sqlite_refuse
from tests.test_storage import HAND, bot_game_watched, hand_of, ru, ssh, telnet, until_colon
from tests.wire import open_table


async def test_a_refused_bot_move_breaks_the_table_instead_of_pausing_for_ever(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory('[accounts]\nadmins = ["Админ"]\n[tables]\nbot_delay = 0.2', data_dir=data)
    admin = await telnet(srv, "Админ")
    anna, boris, number = await bot_game_watched(srv, "переворот")
    sqlite_refuse(data / "korchma.sqlite3", "action_log", when="WHEN NEW.by = 'bot'")
    for client in (anna, boris):
        await client.expect(until_colon("broken.stopped_player", number=number, game="Переворот"), 15)
        await client.expect(ru("broken.reason.write_refused"))
    await admin.expect(until_colon("broken.stopped_admin", number=number, game="Переворот"), 15)
    await admin.expect("IntegrityError")  # the cause, for admins only
    await asyncio.sleep(2)  # ten bot moves' time: nothing more happens at that table
    for client in (anna, boris):
        assert ru("storage.paused", number=number) not in client.text
        assert ru("error.internal") not in client.text and "IntegrityError" not in client.text
        assert client.text.count(until_colon("broken.stopped_player", number=number, game="Переворот")) == 1
    anna.send_line("смотреть")  # she is in the hall, free to play elsewhere
    await anna.expect(ru("hall.look_title"))
    await open_table(anna, "открыть торги")
    admin.send_line("столы")
    await admin.expect(ru("broken.list_header"))
    await admin.expect(re.compile(rf"№{number} +Переворот +— IntegrityError"))
    for client in (anna, boris, admin):
        await client.close()
    assert srv.terminate() == 0
    log = srv.log()
    assert log.count("cannot go on and is marked broken") == 1 and "Traceback" in log
    assert "is paused and retries" not in log
    db = sqlite3.connect(data / "korchma.sqlite3")
    try:
        assert db.execute("SELECT state FROM game_table WHERE id = ?", (number,)).fetchone() == ("broken",)
    finally:
        db.close()


async def test_a_refused_player_move_is_an_internal_error_and_the_game_goes_on(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory("[games.bids]\nseconds = 3", data_dir=data)
    path = data / "korchma.sqlite3"
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    opening = sqlite_refuse(path, "game_table")
    for client in (anna, boris):
        client.send_line("открыть торги")
        await client.expect(ru("error.internal"))
    sqlite_allow(path, opening)
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    anna.send_line("начать")
    hand_a = hand_of(await anna.expect(HAND, 10))
    hand_b = hand_of(await boris.expect(HAND, 10))
    moves = sqlite_refuse(path, "action_log", when="WHEN NEW.by = 'player'")
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(ru("error.internal"))
    boris.send_line(f"ставка {hand_b[0]}")
    await boris.expect(ru("error.internal"))
    for client in (anna, boris):  # the clock goes on, and plays the round (its moves are taken)
        await client.expect("Раунд 2 из 3", 15)
    sqlite_allow(path, moves)
    anna.send_line(f"ставка {hand_a[1]}")
    await anna.expect(f"ставка {hand_a[1]} принята")
    for client in (anna, boris):
        for storage_line in (ru("storage.failed"), ru("storage.paused", number=number),
                             ru("storage.refused", number=number)):
            assert storage_line not in client.text
        assert "Traceback" not in client.text and "IntegrityError" not in client.text
        await client.close()
    assert srv.terminate() == 0
    assert srv.log().count("command failed") == 4  # each refused command, logged once


async def test_an_inbox_item_the_database_refuses_is_dropped_not_holding_the_rest(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(data_dir=data)
    for client in (await ssh(srv, "Борис"), await telnet(srv, "Вера")):
        await client.close()
    anna = await telnet(srv, "Анна")
    sqlite_refuse(data / "korchma.sqlite3", "inbox_item", when="WHEN NEW.params LIKE '%POISON-42%'")
    for name in ("Борис", "Вера"):
        anna.send_line(f"шепнуть {name} POISON-42 первое")
        await anna.expect(ru("tell.kept", name=name))
        anna.send_line(f"шепнуть {name} второе-письмо")
        await anna.expect(ru("tell.kept", name=name))
    boris = await ssh(srv, "Борис")
    vera = await telnet(srv, "Вера", create=False)
    for client in (boris, vera):
        await client.expect("второе-письмо", 10)  # not held behind the one that cannot be written
        assert "POISON-42" not in client.text
        await client.close()
    await anna.close()
    assert srv.terminate() == 0
    log = srv.log()
    assert log.count("the database refused message") == 2
    assert "POISON-42" not in log  # the message's text stays out of the log
