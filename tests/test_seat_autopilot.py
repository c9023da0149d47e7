"""A seat the bot plays because its player left the game keeps its bot when the table is rebuilt
from the database (world/seat_autopilot.py): after a `kill -9` and a restart here, as after another
node's takeover or a drain in a cluster (docs/cluster.md). Before, the rebuilt table gave the seat
back to its absent player and waited for them with the clock.

Анна (telnet) plays Coup with Boris (SSH) and a bot, with five-minute turns; Boris leaves (a bot
plays his seat) and goes. The server is killed while the game waits for Анна. After the restart
she moves, and Boris's seat moves at once, by its bot; when Boris logs in again he is back in his
seat, and its row says so.
"""
from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.wire import open_table, person

CONFIG = "[games.coup]\nturn = 300\nreaction = 5\n"


def seat_rows(srv, number: int) -> list[tuple[int, bool]]:
    db = sqlite3.connect(Path(srv.data_dir) / "korchma.sqlite3", timeout=10)
    try:
        return [(n, bool(a)) for n, a in db.execute("SELECT number, autopilot FROM seat WHERE table_id = ? "
                                                    "ORDER BY number", (number,))]
    finally:
        db.close()


def bot_moves_of(srv, number: int, seat: int) -> int:
    db = sqlite3.connect(Path(srv.data_dir) / "korchma.sqlite3", timeout=10)
    try:
        return db.execute("SELECT COUNT(*) FROM action_log WHERE table_id = ? AND seat = ? AND by = 'autopilot'",
                          (number, seat)).fetchone()[0]
    finally:
        db.close()


async def until(check, timeout: float, what: str) -> None:
    for _ in range(int(timeout * 10)):
        if check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


async def test_a_left_seat_keeps_its_bot_through_a_restart(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(CONFIG, data_dir=data)
    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "ssh", "Boris", lang="en")
    number = await open_table(anna, "открыть переворот seats=3 first=1")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    await boris.expect("Coup begins", timeout=10)
    boris.send_line("leave")
    await boris.expect("a bot plays your seat")
    await anna.expect("Boris выходит из игры; пока не вернётся, за него играет бот.")
    await until(lambda: seat_rows(srv, number) == [(0, False), (1, True), (2, False)], 5, "the mark is stored")
    await boris.close()
    anna.send_line("доход")  # her turn first; then Boris's bot, the bot, and her turn again
    await until(lambda: bot_moves_of(srv, number, 1) >= 1, 20, "Boris's bot moves")
    await asyncio.sleep(1.0)
    srv.kill9()
    await anna.close()

    srv = server_factory(CONFIG, data_dir=data)
    anna = await person(srv, "telnet", "Анна")
    await anna.expect(f"Вы снова за столом {number}.", since_mark=False)
    before = bot_moves_of(srv, number, 1)
    for _ in range(30):  # income whenever it is her turn (else one line says it is not)
        anna.send_line("доход")
        await asyncio.sleep(1.0)
        if bot_moves_of(srv, number, 1) > before:
            break
    assert bot_moves_of(srv, number, 1) > before, "Boris's seat waited for him after the restart"

    boris = await person(srv, "ssh", "Boris", lang="en")
    await until(lambda: f"You are back at table {number}." in boris.text, 5, "Boris is told he is back")
    await until(lambda: seat_rows(srv, number)[1] == (1, False), 5, "the seat is Boris's again in its row")
    assert "Traceback" not in srv.log()
