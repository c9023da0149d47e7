"""Storage trouble pauses a table, visibly, and it heals by itself when writes work again.

Real servers, real sockets (telnet and SSH), real databases:
* SQLite on a tmpfs that is filled up mid-game (tests/fsfault.py): writes fail with SQLITE_FULL;
* PostgreSQL in a cluster of the test's own, stopped mid-game and started again;
* SQLite refusing one kind of write (a trigger that aborts it) to reach the writes that come
  after a commit: the inbox of a player who is away, and the finish record of a game.
Each test checks that the pause is told to everyone at the table over both doors, that nothing
moves while it lasts, that the game carries on to its end by itself afterwards, and that the
stored log replays to the stored result (no action lost or written twice).
"""
from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from games import registry
from tests.fsfault import small_disk  # noqa: F401  (fixture)
from tests.pg import own_pg_cluster  # noqa: F401  (fixture)
from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import FINISHED, open_table
from world.i18n import strip_marks, t

HAND = re.compile(r"ваши карты — ([\d, ]+)\.")
SCORES = re.compile(r"(\S+) +очки (\d+) +карт \d+ +сыграно: ([\d, -]+)")
WIDE = 200


def ru(key: str, **params: Any) -> str:
    return strip_marks(t("ru", key, **params))


def hand_of(text: str) -> list[int]:
    return [int(x) for x in HAND.search(text).group(1).replace(" ", "").split(",")]


def last_awaiting(client) -> dict[str, Any]:
    return [d for name, d in client.gmcp_messages if name == "Korchma.Game.Awaiting"][-1]


def game_events(client) -> int:
    return sum(1 for name, _ in client.gmcp_messages if name == "Korchma.Game.Event")


async def telnet(srv, name: str, create: bool = True):
    return await log_in(srv.telnet_port, name, create=create, gmcp=True, naws=(WIDE, 50))


async def ssh(srv, name: str):
    client = await connect(srv.ssh_port, name, password="secret1", width=WIDE)
    await client.expect(ru("login.welcome", name=name), timeout=10)
    return client


def assert_log_replays(table: dict[str, Any], seats: int, entries: list[dict[str, Any]]) -> None:
    """The stored log is steps 1..N, each once, and replaying it from the seed gives the
    stored result: what a restart would rebuild is what the players saw."""
    def load(value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    steps = [e["step"] for e in entries]
    assert steps == list(range(1, len(steps) + 1)), steps
    engine = registry.get(table["game"])
    state = engine.new(seats, load(table["options"]), table["seed"])
    for entry in entries:
        engine.apply(state, entry["seat"], load(entry["action"]))
    outcome = engine.outcome(state)
    stored = load(table["outcome"])
    assert table["state"] == "finished" and outcome is not None
    assert list(outcome.winners) == stored["winner_seats"], (outcome, stored)


def sqlite_log(path: Path, number: int) -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    try:
        table = dict(db.execute("SELECT * FROM game_table WHERE id = ?", (number,)).fetchone())
        seats = db.execute("SELECT COUNT(*) FROM seat WHERE table_id = ?", (number,)).fetchone()[0]
        entries = [dict(r) for r in db.execute("SELECT * FROM action_log WHERE table_id = ? ORDER BY step",
                                               (number,))]
    finally:
        db.close()
    return table, seats, entries


async def test_a_full_disk_pauses_the_table_and_it_carries_on(server_factory, small_disk):
    """Disk full mid-game (SQLite): both doors are told, the clock stands and nothing moves; when
    there is room again the game carries on by itself, a restart finds exactly the accepted
    moves, and the timeouts play it to the end."""
    config = "[games.bids]\nseconds = 8"
    srv = server_factory(config, data_dir=small_disk.path)
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    hand_a = hand_of(await anna.expect(HAND, 10))
    hand_b = hand_of(await boris.expect(HAND, 10))
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(f"ставка {hand_a[0]} принята")
    boris.send_line(f"ставка {hand_b[0]}")
    await anna.expect("Раунд 2 из 3", 10)
    await boris.expect("Раунд 2 из 3", 10)

    small_disk.fill()
    anna.send_line(f"ставка {hand_a[1]}")
    await anna.expect(ru("storage.paused", number=number), 10)
    await anna.expect(ru("storage.refused", number=number))
    await boris.expect(ru("storage.paused", number=number), 10)
    boris.send_line(f"ставка {hand_b[1]}")  # refused in one clear line, not an internal error
    await boris.expect(ru("storage.refused", number=number))
    await anna.wait_for(lambda: last_awaiting(anna)["deadline"] is None)  # GMCP: the clock stands
    anna.mark_here()
    boris.mark_here()
    await asyncio.sleep(9)  # longer than the 8 s bidding window: no timeout may fire
    for client in (anna, boris):
        seen = client.text_since_mark()
        assert "Раунд 3" not in seen and "ставит" not in seen and "принята" not in seen, seen
        assert ru("error.internal") not in client.text

    small_disk.free()
    await anna.expect(ru("storage.resumed", number=number), 40)
    await boris.expect(ru("storage.resumed", number=number), 40)
    await anna.wait_for(lambda: last_awaiting(anna)["deadline"] is not None)  # the clock runs again
    anna.send_line(f"ставка {hand_a[1]}")
    await anna.expect(f"ставка {hand_a[1]} принята")
    boris.send_line(f"ставка {hand_b[1]}")
    await anna.expect("Раунд 3 из 3", 10)
    await boris.expect("Раунд 3 из 3", 10)
    anna.send_line("рука")
    await anna.expect("Ваши карты:")
    await anna.settle(0.3)
    board_before = SCORES.findall(anna.text[anna.text.rfind("Стол"):])
    assert len(board_before) == 3, board_before

    # A restart replays the log: the same board, so no accepted bid was lost or doubled.
    srv.kill9()
    await anna.close()
    await boris.close()
    srv = server_factory(config, data_dir=small_disk.path)
    anna = await telnet(srv, "Анна", create=False)
    await anna.expect(f"Вы снова за столом {number}")
    await anna.settle(0.3)
    assert SCORES.findall(anna.text[anna.text.rfind("Стол"):]) == board_before
    boris = await ssh(srv, "Борис")
    await boris.expect(f"Вы снова за столом {number}")
    # Nobody bids in round 3: the clock does, and the game ends by itself.
    await anna.expect(FINISHED, 30)
    await boris.expect(FINISHED, 30)
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0
    assert_log_replays(*sqlite_log(small_disk.path / "korchma.sqlite3", number))


async def bot_game_watched(srv, game: str) -> tuple[Any, Any, int]:
    """Anna opens a bot game, hands her seat to a bot and watches it (telnet); Boris watches
    over SSH. Returns both clients and the table's number once the game is under way."""
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    number = await open_table(anna, f"открыть {game}")
    anna.send_line("боты 2")
    await anna.expect("За стол садятся 2 бота")
    anna.send_line("начать")
    await anna.wait_for(lambda: game_events(anna) > 0, 10)
    anna.send_line("встать")
    await anna.expect("за вас играет бот")
    anna.send_line(f"наблюдать {number}")
    boris.send_line(f"наблюдать {number}")
    await boris.expect(f"Вы смотрите за столом {number}")
    await anna.wait_for(lambda: game_events(anna) > 3, 20)
    return anna, boris, number


async def assert_paused_then_heals(anna, boris, number: int, heal, resume_timeout: float = 45) -> None:
    await anna.expect(ru("storage.paused", number=number), 15)
    await boris.expect(ru("storage.paused", number=number), 15)
    events = game_events(anna)
    await asyncio.sleep(2)  # ten bot moves' time (bot_delay 0.2): none may happen
    assert game_events(anna) == events
    assert FINISHED.search(anna.text) is None
    await heal()
    await anna.expect(ru("storage.resumed", number=number), resume_timeout)
    await boris.expect(ru("storage.resumed", number=number), resume_timeout)
    await anna.expect(FINISHED, 120)
    await boris.expect(FINISHED, 120)
    assert game_events(anna) > events  # the bots moved again
    for client in (anna, boris):
        assert ru("error.internal") not in client.text


async def test_bots_pause_on_a_full_disk_and_play_on_to_the_end(server_factory, small_disk):
    srv = server_factory("[tables]\nbot_delay = 0.2", data_dir=small_disk.path)
    anna, boris, number = await bot_game_watched(srv, "переворот")
    vera = await telnet(srv, "Вера")
    small_disk.fill()

    async def heal() -> None:
        # Meanwhile a command that writes outside any game gets one clear line too.
        vera.send_line("открыть торги")
        await vera.expect(ru("storage.failed"))
        small_disk.free()

    await assert_paused_then_heals(anna, boris, number, heal)
    vera.send_line("открыть торги")
    await vera.expect("Вы открываете стол")
    for client in (anna, boris, vera):
        await client.close()
    assert srv.terminate() == 0
    assert_log_replays(*sqlite_log(small_disk.path / "korchma.sqlite3", number))


async def test_postgres_stopped_mid_game_pauses_and_heals(server_factory, own_pg_cluster, tmp_path):
    url = own_pg_cluster.create_database("storage")
    srv = server_factory(f'[server]\ndatabase_url = "{url}"\n[tables]\nbot_delay = 0.2', data_dir=tmp_path / "data")
    anna, boris, number = await bot_game_watched(srv, "переворот")
    await asyncio.to_thread(own_pg_cluster.stop_server, "fast")

    async def heal() -> None:
        await asyncio.sleep(3)  # a few failed retries against a server that is not there
        await asyncio.to_thread(own_pg_cluster.start_server)

    await assert_paused_then_heals(anna, boris, number, heal)
    # Ordinary writes work again too (the pool reconnected): from both doors.
    anna.send_line("открыть торги")
    await anna.expect("Вы открываете стол")
    boris.send_line("открыть торги")
    await boris.expect("Вы открываете стол")
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0
    db = await asyncpg.connect(url)
    try:
        table = dict(await db.fetchrow("SELECT * FROM game_table WHERE id = $1", number))
        seats = await db.fetchval("SELECT COUNT(*) FROM seat WHERE table_id = $1", number)
        entries = [dict(r) for r in await db.fetch("SELECT * FROM action_log WHERE table_id = $1 ORDER BY step",
                                                   number)]
    finally:
        await db.close()
    assert_log_replays(table, seats, entries)


def refuse(path: Path, table: str, event: str = "INSERT", when: str = "") -> str:
    """A trigger that makes the database refuse a kind of write (SQLITE_CONSTRAINT), as a
    database that cannot write would; returns its name, for :func:`allow`."""
    name = f"refuse_{table}"
    db = sqlite3.connect(path, timeout=10)
    try:
        db.execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table} {when} "
                   "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        db.commit()
    finally:
        db.close()
    return name


def allow(path: Path, name: str) -> None:
    db = sqlite3.connect(path, timeout=10)
    try:
        db.execute(f"DROP TRIGGER {name}")
        db.commit()
    finally:
        db.close()


async def test_writes_after_the_commit_neither_stall_nor_lose(server_factory, tmp_path):
    """The inbox of a player who is away, and the finish record: when those writes fail, the
    table goes on (the inbox items are held and written later, in order), a finish that cannot
    be stored pauses the table until it can, and the away player reads everything at login."""
    data = tmp_path / "data"
    srv = server_factory("[games.bids]\nseconds = 2", data_dir=data)
    path = data / "korchma.sqlite3"
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    boris.send_line("выход")  # away, keeping his seat: all his news goes to the inbox
    await boris.wait_closed(10)
    inbox = refuse(path, "inbox_item")
    finish = refuse(path, "game_table", "UPDATE OF state", "WHEN NEW.state = 'finished'")
    anna.send_line("начать")
    await anna.expect(HAND, 10)
    # Nobody bids: three rounds run out on the clock (Boris's news cannot be stored meanwhile),
    # then the result cannot be stored: the table pauses.
    for round_number in (2, 3):
        await anna.expect(f"Раунд {round_number} из 3", 15)
    await anna.expect(ru("storage.paused", number=number), 15)
    assert FINISHED.search(anna.text) is None  # not said before it is stored
    allow(path, finish)
    allow(path, inbox)
    await anna.expect(ru("storage.resumed", number=number), 45)
    await anna.expect(FINISHED, 5)
    boris = await ssh(srv, "Борис")
    await boris.expect(HAND, 10)  # his inbox, held while it could not be written, in order
    await boris.expect("Раунд 3 из 3", 10)
    await boris.expect(FINISHED, 10)
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0
    assert_log_replays(*sqlite_log(path, number))
