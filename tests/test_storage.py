"""Storage trouble pauses a table, visibly, and it heals by itself when writes work again.

Real servers, real sockets (telnet and SSH), real databases:
* SQLite on a tmpfs that is filled up mid-game (tests/fsfault.py): writes fail with SQLITE_FULL;
* PostgreSQL in a cluster of the test's own, stopped mid-game and started again;
* PostgreSQL failing one kind of write with "disk full" (a trigger, tests/refusals.py) to reach
  the writes that come after a commit: the inbox of a player who is away, the finish record.
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
from tests.pg import own_pg_cluster, pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.refusals import pg_allow, pg_refuse
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


async def bids_for_two(srv, bot: bool = False) -> tuple[Any, Any, int, list[int], list[int]]:
    """Анна (telnet) opens «Торги» for three rounds, Борис (SSH) sits down (and a bot, with
    ``bot``) and she starts: both clients, the table's number and their hands."""
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    if bot:
        anna.send_line("боты 1")
        await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    return anna, boris, number, hand_of(await anna.expect(HAND, 10)), hand_of(await boris.expect(HAND, 10))


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


async def pg_log(url: str, number: int) -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
    db = await asyncpg.connect(url)
    try:
        table = dict(await db.fetchrow("SELECT * FROM game_table WHERE id = $1", number))
        seats = await db.fetchval("SELECT COUNT(*) FROM seat WHERE table_id = $1", number)
        entries = [dict(r) for r in await db.fetch("SELECT * FROM action_log WHERE table_id = $1 ORDER BY step",
                                                   number)]
    finally:
        await db.close()
    return table, seats, entries


async def test_a_full_disk_pauses_the_table_and_it_carries_on(server_factory, small_disk):
    """Disk full mid-game (SQLite): both doors are told, the clock stands and nothing moves; when
    there is room again the game carries on by itself, a restart finds exactly the accepted
    moves, and the timeouts play it to the end."""
    config = "[games.bids]\nseconds = 8"
    srv = server_factory(config, data_dir=small_disk.path)
    anna, boris, number, hand_a, hand_b = await bids_for_two(srv, bot=True)
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
    assert_log_replays(*await pg_log(url, number))


async def test_writes_after_the_commit_neither_stall_nor_lose(server_factory, pg_database, tmp_path):
    """The inbox of a player who is away, and the finish record: when those writes fail for
    storage trouble (PostgreSQL says its disk is full, for those writes only), the table goes on
    (the inbox items are held and written later, in order), a finish that cannot be stored pauses
    the table until it can, and the away player reads everything at login."""
    url = pg_database
    # login_lines: his whole inbox is printed at login (not summed up), to read it in order.
    srv = server_factory(f'[server]\ndatabase_url = "{url}"\n[games.bids]\nseconds = 2\n[inbox]\nlogin_lines = 1000',
                         data_dir=tmp_path / "data")
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    boris.send_line("выход")  # away, keeping his seat: all his news goes to the inbox
    await boris.wait_closed(10)
    inbox = await pg_refuse(url, "inbox_item")
    finish = await pg_refuse(url, "game_table", "UPDATE OF state", "WHEN (NEW.state = 'finished')")
    anna.send_line("начать")
    await anna.expect(HAND, 10)
    # Nobody bids: three rounds run out on the clock (Boris's news cannot be stored meanwhile),
    # then the result cannot be stored: the table pauses.
    for round_number in (2, 3):
        await anna.expect(f"Раунд {round_number} из 3", 15)
    await anna.expect(ru("storage.paused", number=number), 15)
    assert FINISHED.search(anna.text) is None  # not said before it is stored
    await pg_allow(url, "game_table", finish)
    await pg_allow(url, "inbox_item", inbox)
    await anna.expect(ru("storage.resumed", number=number), 45)
    await anna.expect(FINISHED, 5)
    boris = await ssh(srv, "Борис")
    await boris.expect(HAND, 10)  # his inbox, held while it could not be written, in order
    await boris.expect("Раунд 3 из 3", 10)
    await boris.expect(FINISHED, 10)
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0
    assert_log_replays(*await pg_log(url, number))


def until_colon(key: str, **params: Any) -> str:
    """The fixed start of a line whose tail (after its colon) is a reason: long lines wrap."""
    return ru(key, **params, reason="").split(":")[0]


async def blocked_by(holder: asyncpg.Connection) -> int:
    """The server's backend that waits for a lock ``holder`` holds: its pid."""
    for _ in range(400):
        pid = await holder.fetchval("SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))")
        if pid is not None:
            return pid
        await asyncio.sleep(0.05)
    raise AssertionError("nothing waits for the lock")


async def test_a_start_counts_only_once_it_is_stored(server_factory, pg_database, tmp_path):
    """`start` while another transaction holds the table's row (PostgreSQL): until the start is
    stored, `look` shows the table open and no game, and nobody can sit down or get up; when the
    write then fails (the statement is cancelled) the table is open as it was, and the next
    `start` deals anew."""
    url = pg_database
    srv = server_factory(f'[server]\ndatabase_url = "{url}"', data_dir=tmp_path / "data")
    anna = await telnet(srv, "Анна")
    boris = await ssh(srv, "Борис")
    vera = await telnet(srv, "Вера")
    number = await open_table(anna, "открыть торги rounds=3")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    header = re.compile(rf"Стол {number}: «Торги», ([^.]+)\.")
    holder = await asyncpg.connect(url)
    try:
        hold = holder.transaction()
        await hold.start()
        await holder.execute("SELECT 1 FROM game_table WHERE id = $1 FOR UPDATE", number)
        anna.send_line("начать")
        writer = await blocked_by(holder)
        boris.mark_here()
        boris.send_line("смотреть")
        assert header.search(await boris.expect(header)).group(1) == ru("table.state.open")
        await boris.settle(0.5)
        assert "ваши карты" not in boris.text_since_mark()  # no game to see: none is stored
        vera.send_line(f"сесть {number}")
        await vera.expect(ru("table.starting", number=number))
        boris.send_line("встать")
        await boris.expect(ru("table.starting", number=number))
        await holder.execute("SELECT pg_cancel_backend($1)", writer)
        await anna.expect(ru("storage.failed"), 10)
        await hold.rollback()
    finally:
        await holder.close()
    boris.send_line("смотреть")
    assert header.search(await boris.expect(header)).group(1) == ru("table.state.open")
    assert HAND.search(anna.text) is None and HAND.search(boris.text) is None
    anna.send_line("начать")
    await anna.expect(HAND, 10)
    await boris.expect(HAND, 10)
    for client in (anna, boris, vera):
        assert ru("error.internal") not in client.text
        await client.close()
    assert srv.terminate() == 0


async def test_a_logged_step_the_rules_refuse_breaks_a_paused_table(server_factory, pg_database, tmp_path):
    """A paused table catches up with the log before it resumes. When the log holds a step the
    rules refuse (here written behind the server's back), retrying would fail the same way for
    ever: the table is marked broken and its players told why, on both doors, instead of staying
    paused without a word."""
    url = pg_database
    srv = server_factory(f'[server]\ndatabase_url = "{url}"', data_dir=tmp_path / "data")
    anna, boris, number, hand, _ = await bids_for_two(srv)
    log_writes = await pg_refuse(url, "action_log")
    clock_writes = await pg_refuse(url, "game_table", "UPDATE")
    anna.send_line(f"ставка {hand[0]}")
    for client in (anna, boris):
        await client.expect(ru("storage.paused", number=number), 10)
    await pg_allow(url, "action_log", log_writes)
    db = await asyncpg.connect(url)
    try:
        step = await db.fetchval("SELECT COALESCE(MAX(step), 0) + 1 FROM action_log WHERE table_id = $1", number)
        await db.execute("INSERT INTO action_log (table_id, step, seat, action, by, created_at) "
                         "VALUES ($1, $2, 0, '{\"type\": \"no such move\"}', 'player', now())", number, step)
    finally:
        await db.close()
    await pg_allow(url, "game_table", clock_writes)
    for client in (anna, boris):
        await client.expect(until_colon("broken.stopped_player", number=number, game="Торги"), 45)
        await client.expect(ru("broken.reason.replay", step=step))
        assert ru("storage.resumed", number=number) not in client.text
        assert "no such move" not in client.text and "ReplayRefused" not in client.text
    boris.send_line(f"сесть {number}")  # he is free, and the table says why it cannot go on
    await boris.expect(until_colon("broken.unavailable", number=number))
    await open_table(anna, "открыть торги")
    for client in (anna, boris):
        await client.close()
    assert srv.terminate() == 0
    assert srv.log().count("cannot go on and is marked broken") == 1
    table, _, _ = await pg_log(url, number)
    assert table["state"] == "broken"
