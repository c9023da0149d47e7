"""A rolling upgrade's step (issue 19, docs/cluster.md "Rolling upgrade"): `korchma drain` makes a
node hand its tables to the other nodes, ask its sessions to reconnect, and exit; no game ends.

Two real nodes on one PostgreSQL and one Valkey. On node A: Анна (telnet, Russian, GMCP) plays Coup
with Boris, whose sessions are on node B (SSH, English; GMCP on a telnet session of his), and a
bot; Віра (telnet, Ukrainian) waits at an open table of her own. `korchma drain` on A's data:
it prints which node took each table and exits 0, and so does A. Анна and Віра are told
(each in her language) that the table moves and that they should reconnect, then their
connections close; Boris is told once, on B, that the table moved and to play on (not to
reconnect). Анна comes back to B over SSH (her other door) and finds her seat, Віра finds her
open table; the game is played to the end on B, and its log is whole, with every step stored
before the drain kept as it was. A drain of B alone, then, is refused in one line (nobody could
take its table) and B runs on; so is a drain of a node outside any cluster.
"""
from __future__ import annotations

import asyncio
import re
import signal
import sys

from tests.conftest import ROOT
from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.test_cluster_failover import NODE, assert_whole_log, log_rows, table_row, until
from tests.test_coup_flow import Player
from tests.valkey import valkey  # noqa: F401  (fixture)
from tests.wire import FINISHED, open_table, person

# Turns long enough that nobody's clock runs out while the table moves and Анна reconnects.
SLOW = "[games.coup]\nturn = 60\nreaction = 20\n"


async def drain(node) -> tuple[int, str, str]:
    """`korchma drain` as a host types it, on ``node``'s configuration and data folder."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "drain", "--config", str(ROOT / "config.toml"), "--config",
        str(node.config), "--data-dir", str(node.data_dir), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 90)
    return proc.returncode, out.decode(), err.decode()


async def play_for_a_while(players, enough) -> None:
    """The players answer what the game asks until ``enough()`` holds; then they stop typing."""
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(p.play(loop.time() + 120)) for p in players]
    try:
        await until(enough, 60, "the game moves on")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_drain_hands_the_tables_over_and_no_game_ends(server_factory, tmp_path, pg_database, valkey):
    db = pg_database
    a, b = (server_factory(NODE.format(db=db, redis=valkey.url, name=n, bot_delay=0.05) + SLOW, data_dir=tmp_path / n)
            for n in ("a", "b"))
    anna = await person(a, "telnet", "Анна", gmcp=True)
    boris = await person(b, "ssh", "Boris", lang="en", width=120)
    boris_eyes = await person(b, "telnet", "Boris", lang="en", gmcp=True, create=False)
    vera = await person(a, "telnet", "Віра", lang="uk")

    number = await open_table(anna, "открыть переворот seats=3")
    boris.send_line(f"join {number}")  # a table of node A, typed on node B
    await boris.expect(f"You sit down at table {number}")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    waiting = await open_table(vera, "відкрити переворот seats=4")
    anna.send_line("начать")
    await boris.expect("Coup begins", timeout=10)
    assert f"table {number}: taken by node a" in a.log() and f"table {waiting}: taken by node a" in a.log()

    players = [Player("Анна", "ru", anna, anna, 1), Player("Boris", "en", boris, boris_eyes, 2)]
    await play_for_a_while(players, lambda: _steps_at_least(db, number, 4))
    await asyncio.sleep(1.0)  # the bot's move, if it was its turn: the table waits for a person now
    before = await log_rows(db, number)
    boris_mark, boris_seen = len(boris.text), len(boris_eyes.gmcp_messages)

    code, out, err = await drain(a)
    assert code == 0, (out, err)
    assert f"table {number} -> node b" in out and f"table {waiting} -> node b" in out, out
    assert "2 session(s) asked to reconnect" in out and "node a stopped" in out, out
    assert a.proc.wait(10) == 0  # a clean exit: the upgrade may go on
    for client, lines in ((anna, (f"Стол {number} переезжает на другой сервер корчмы",
                                  "Этот сервер корчмы уходит на обновление")),
                          (vera, (f"Стіл {waiting} переїжджає на інший сервер корчми",
                                  "Цей сервер корчми іде на оновлення"))):
        for line in lines:
            await client.expect(line, timeout=10)
        await asyncio.wait_for(client.closed.wait(), 10)  # the node closed the connection
    # Boris, on B, was never asked to reconnect: his node follows the table to its new owner.
    await boris.expect(f"Table {number} has moved to another server of the tavern", timeout=10)
    assert "Reconnect" not in boris.text[boris_mark:] and "going down" not in boris.text[boris_mark:]
    assert f"table {number}: taken by node b" in b.log() and f"table {waiting}: taken by node b" in b.log()
    assert "drain: 2 sessions asked to reconnect; node a stops" in a.log()

    # Back through the other door, on the node that runs the tables now.
    anna = await person(b, "ssh", "Анна")
    await anna.expect(f"Вы снова за столом {number}.")
    anna_eyes = await person(b, "telnet", "Анна", gmcp=True, create=False)
    vera = await person(b, "telnet", "Віра", lang="uk", create=False)
    await vera.expect(f"Ви знову за столом {waiting}.", since_mark=False)  # (said at login, before `мова`)
    # The game goes on at B to its end; everyone's moves are typed again from here on.
    loop = asyncio.get_running_loop()
    players = [Player("Анна", "ru", anna, anna_eyes, 3), Player("Boris", "en", boris, boris_eyes, 4)]
    players[1].from_message = boris_seen  # what B sent him once it ran the table (the view, the wait)
    await asyncio.gather(*(p.play(loop.time() + 150) for p in players))
    await boris.expect(FINISHED, timeout=15)
    assert (await table_row(db, number))["state"] == "finished"
    after = await log_rows(db, number)
    assert_whole_log(after)
    assert after[:len(before)] == before and len(after) > len(before)
    assert sum(p.awaitings for p in players) > 0  # moves typed after the drain were taken at B

    # B alone: nobody could take its tables; it says so and runs on.
    code, out, err = await drain(b)
    assert code == 1 and not out and "drain refused: no other node is up to take this node's tables" in err, err
    b.proc.send_signal(signal.SIGUSR1)  # the signal: the same refusal, in the log
    await until(lambda: "drain (SIGUSR1) refused: no other node is up" in b.log(), 10, "the refusal is logged")
    boris.send_line("who")
    await boris.expect("Віра")
    assert b.proc.poll() is None
    assert "Traceback" not in a.log() + b.log()


async def _steps_at_least(db: str, number: int, count: int) -> bool:
    return len(await log_rows(db, number)) >= count


async def test_drain_outside_a_cluster_is_refused_in_one_line(server_factory, tmp_path):
    alone = server_factory()
    code, out, err = await drain(alone)
    assert code == 1 and not out and "Traceback" not in err
    assert err.strip() == ("korchma: drain refused: this server is not one of several nodes ([cluster] redis_url "
                           "is not set): no other node can take its tables; stop it instead (SIGTERM, or "
                           "`shutdown` in the game), and its games go on at its next start"), err
    client = await person(alone, "telnet", "Анна")  # still serving
    alone.terminate()
    (tmp_path / "nobody").mkdir()
    nobody = type(alone)(data_dir=tmp_path / "nobody", config=alone.config)
    code, out, err = await drain(nobody)
    assert code == 1 and re.search(r"korchma: no server answers on data folder .*nobody", err), err
    await client.close()
