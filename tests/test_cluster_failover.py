"""A table's owner is a lease (issue 19, docs/cluster.md "The lease and the fence"): real server
processes on one PostgreSQL database and one Valkey, a Coup game of bots with a person at it.

* kill -9 of the owning node mid-game: another node takes the table within 10 s, rebuilds it
  from its log and finishes the game; the log holds steps 1..N, no gap, no duplicate, and
  every step stored before the kill is in it, unchanged; the person reconnects (SSH) to the
  new owner and finds the seat.
* a partition of the owner from Valkey (tests/tcp_cut.py): it pauses its table (one line to the
  person, and one for a move), the other node takes it, the owner's commit in flight with its
  old epoch is refused by PostgreSQL (the fence), and when the link heals the owner drops the
  table and tells the person where it went.
"""
from __future__ import annotations

import asyncio
import re
import time

import asyncpg
import redis.asyncio as aioredis

from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.tcp_cut import TcpCut
from tests.valkey import valkey  # noqa: F401  (fixture)
from tests.wire import person

# Cheap: a lease of 2 s renewed every 0.5 s; bots a little slower than in other tests on the
# first owner, so that a kill lands mid-game (quick on the others, which finish the game).
NODE = """
[server]
database_url = "{db}"
[cluster]
redis_url = "{redis}"
node = "{name}"
lease_seconds = 2.0
heartbeat_seconds = 0.5
[tables]
bot_delay = {bot_delay}
[games.coup]
turn = 10
reaction = 5
"""


def start_node(server_factory, tmp_path, name: str, db: str, redis: str, bot_delay: float = 0.12):
    return server_factory(NODE.format(db=db, redis=redis, name=name, bot_delay=bot_delay), data_dir=tmp_path / name)


async def log_rows(db: str, number: int) -> list[tuple[int, int, str]]:
    conn = await asyncpg.connect(db)
    try:
        rows = await conn.fetch("SELECT step, seat, action::text AS action FROM action_log "
                                "WHERE table_id = $1 ORDER BY step, id", number)
        return [(r["step"], r["seat"], r["action"]) for r in rows]
    finally:
        await conn.close()


async def log_authors(db: str, number: int) -> list[str]:
    conn = await asyncpg.connect(db)
    try:
        return [r["by"] for r in await conn.fetch("SELECT by FROM action_log WHERE table_id = $1 ORDER BY step",
                                                  number)]
    finally:
        await conn.close()


async def table_row(db: str, number: int) -> dict:
    conn = await asyncpg.connect(db)
    try:
        return dict(await conn.fetchrow("SELECT state, lease_epoch FROM game_table WHERE id = $1", number))
    finally:
        await conn.close()


async def until(check, timeout: float, what: str, every: float = 0.1):
    """Wait for ``check()`` (sync or async) to give something true; that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(every)


async def coup_with_bots(host, opening: str, bots: int) -> int:
    """``host`` (English) opens Coup with ``opening``, seats ``bots`` bots and starts; the number."""
    host.send_line(opening)
    number = int(re.search(r"table (\d+)", await host.expect(re.compile(r"You open table \d+"))).group(1))
    host.send_line(f"bots {bots}")
    await host.expect(f"{bots} bot")
    host.send_line("start")
    await host.expect("Coup begins")
    return number


async def bot_table_with_anna(node) -> tuple[object, int]:
    """Anna (telnet, English) opens Coup on ``node`` with three bots, starts it, lets the bots
    play her seat (`leave`) and watches it. Returns her client and the table's number."""
    anna = await person(node, "telnet", "Anna", lang="en")
    number = await coup_with_bots(anna, "open coup", 3)
    anna.send_line("leave")
    await anna.expect("a bot plays your seat")
    anna.send_line(f"watch {number}")
    await anna.expect(f"table {number}")
    return anna, number


def assert_whole_log(rows: list[tuple[int, int, str]]) -> None:
    steps = [step for step, _seat, _action in rows]
    assert steps == list(range(1, len(steps) + 1)), steps  # no gap, no duplicate


async def test_kill_9_of_the_owner_another_node_takes_the_table_and_finishes_it(
        server_factory, tmp_path, pg_database, valkey):
    db = pg_database
    a = start_node(server_factory, tmp_path, "a", db, valkey.url)
    b = start_node(server_factory, tmp_path, "b", db, valkey.url, bot_delay=0.03)
    anna, number = await bot_table_with_anna(a)
    assert f"table {number}: taken by node a" in a.log()  # a new table is its node's at once
    c = start_node(server_factory, tmp_path, "c", db, valkey.url, bot_delay=0.03)  # it starts without A's running table
    assert f"table {number} rebuilt" not in c.log() and f"table {number}: taken" not in c.log()
    await until(lambda: _count_at_least(db, number, 6), 30, "six steps on A")
    before = await log_rows(db, number)  # every step A acknowledged so far (it speaks after committing)
    a.kill9()
    killed = time.monotonic()
    await anna.close()
    taker = await until(lambda: next((n for n in (b, c) if f"table {number}: its owner's lease had lapsed"
                                      in n.log()), None), 10, "another node takes the table")
    took = time.monotonic() - killed
    assert took < 10, took
    assert f"table {number}: taken by node {'b' if taker is b else 'c'}" in taker.log()
    other = c if taker is b else b
    # Anna comes back over SSH to the node that runs the table now, and finds her seat.
    anna = await person(taker, "ssh", "Anna", lang="en")
    assert f"You are back at table {number}." in anna.text  # said at login
    anna.send_line("leave")  # the bots play it again
    await anna.expect("a bot plays your seat")
    anna.send_line(f"watch {number}")
    await anna.expect(re.compile(rf"Game over at table {number}"), timeout=90)
    await anna.close()
    assert (await table_row(db, number))["state"] == "finished"
    after = await log_rows(db, number)
    assert_whole_log(after)
    assert after[:len(before)] == before  # every acknowledged step is there, as it was
    assert len(after) > len(before)  # and the game went on at the new owner
    assert f"table {number} rebuilt from" in taker.log()
    assert f"table {number}: taken by" not in other.log()  # one owner, not two
    assert "Traceback" not in taker.log() + other.log()


async def _count_at_least(db: str, number: int, count: int) -> bool:
    return len(await log_rows(db, number)) >= count


async def hold_between_steps(proxy: TcpCut, db: str) -> None:
    """Hold the node's link to PostgreSQL at a moment when none of its connections is inside a
    transaction (else its row lock would hold the other node back too), nor just past a COMMIT
    (the pool's reset of that connection would be what waits, after a step already stored): its
    next step's transaction then waits at the proxy, unseen by PostgreSQL."""
    conn = await asyncpg.connect(db)
    try:
        for _ in range(200):
            proxy.hold()
            await asyncio.sleep(0.05)
            states = await conn.fetch("SELECT state, query FROM pg_stat_activity WHERE client_port = ANY($1::int[])",
                                      proxy.upstream_ports())
            if all(r["state"] == "idle" and not r["query"].strip().upper().startswith(("COMMIT", "ROLLBACK"))
                   for r in states):
                return
            proxy.restore()
            await asyncio.sleep(0.03)
        raise AssertionError("the node was never between two transactions")
    finally:
        await conn.close()


async def test_a_partitioned_owner_pauses_is_fenced_off_and_drops_the_table(
        server_factory, tmp_path, pg_database, valkey):
    db = pg_database
    port = int(db.rsplit(":", 1)[1].split("/")[0])
    to_valkey, to_postgres = TcpCut(valkey.port), TcpCut(port)
    try:
        a = start_node(server_factory, tmp_path, "a", db.replace(f":{port}/", f":{to_postgres.port}/"),
                       f"redis://127.0.0.1:{to_valkey.port}/0")
        b = start_node(server_factory, tmp_path, "b", db, valkey.url)
        anna, number = await bot_table_with_anna(a)
        await until(lambda: _count_at_least(db, number, 4), 30, "four steps on A")
        # A second table on A, quiet: Boris (SSH) goes first and thinks (a 60-second turn).
        boris = await person(a, "ssh", "Boris", lang="en")
        quiet = await coup_with_bots(boris, "open coup first=1 turn=60", 1)
        epoch_a = (await table_row(db, number))["lease_epoch"]
        # A's next step of table 1 waits at the proxy, in flight; then A loses Valkey.
        await hold_between_steps(to_postgres, db)
        held_at = len(await log_rows(db, number))
        to_valkey.cut()
        await anna.expect(f"Table {number} is paused: this server has lost touch", timeout=5)
        await boris.expect(f"Table {quiet} is paused: this server has lost touch", timeout=5)
        boris.send_line("income")  # a move while it stands: one line
        await boris.expect(f"Table {quiet} is paused (this server has lost touch with the others): "
                           f"your move was not taken.")
        # B takes the table once A's lease ran out, and plays on.
        await until(lambda: f"table {number}: its owner's lease had lapsed" in b.log()
                    and f"table {quiet}: its owner's lease had lapsed" in b.log(), 10, "B takes the tables")
        row = await table_row(db, number)
        assert row["lease_epoch"] > epoch_a and row["state"] == "running"
        await until(lambda: _count_at_least(db, number, held_at + 1), 30, "B commits a step")
        # The link heals: A finds the lease is B's and drops the table, telling Anna where it went.
        to_valkey.restore()
        await anna.expect(f"The game at table {number} has moved to another server", timeout=5)
        await boris.expect(f"The game at table {quiet} has moved to another server", timeout=5)
        await until(lambda: f"table {number}: its lease is another node's now" in a.log(), 5, "A drops it")
        # A's step in flight reaches PostgreSQL with A's old epoch: refused by the fence.
        to_postgres.restore()
        refused = await until(lambda: re.search(rf"table {number}: PostgreSQL refused step (\d+): table {number}: "
                                                rf"lease epoch {epoch_a} is no longer the table's", a.log()),
                              10, "A's old-epoch commit is refused")
        assert int(refused.group(1)) == held_at + 1
        assert f"table {number}: taken by node a" not in a.log().split("its lease is another node's now")[1]
        await asyncio.sleep(1)  # A would have written by now, if it still could
        rows = await log_rows(db, number)
        assert_whole_log(rows)
        assert (await table_row(db, number))["lease_epoch"] == row["lease_epoch"]  # B's, still
        assert "player" not in await log_authors(db, quiet)  # Boris's refused move is nowhere (B may time him out)
        # A clean stop of B gives its leases back at once (A may take the tables again right away).
        assert b.terminate() == 0
        redis = aioredis.from_url(valkey.url)
        try:
            for table in (number, quiet):
                held = await redis.get(f"korchma:lease:{table}")
                assert held is None or not held.startswith(b"b:"), held
        finally:
            await redis.aclose()
        assert "Traceback" not in a.log() + b.log()
        await anna.close()
        await boris.close()
    finally:
        to_valkey.close()
        to_postgres.close()


async def test_an_owner_that_gets_valkey_back_before_anyone_took_its_table_resumes_it(
        server_factory, tmp_path, pg_database, valkey):
    """Alone in the cluster, the owner loses Valkey for longer than its lease: its table pauses;
    nobody takes it meanwhile, so when Valkey answers again the lease is still its own epoch and
    the game carries on there (one line to the person), with nothing lost and nothing twice."""
    db = pg_database
    to_valkey = TcpCut(valkey.port)
    try:
        a = start_node(server_factory, tmp_path, "a", db, f"redis://127.0.0.1:{to_valkey.port}/0")
        anna, number = await bot_table_with_anna(a)
        await until(lambda: _count_at_least(db, number, 3), 30, "three steps")
        epoch = (await table_row(db, number))["lease_epoch"]
        to_valkey.cut()
        await anna.expect(f"Table {number} is paused: this server has lost touch", timeout=5)
        await asyncio.sleep(0.5)  # the step in hand, if any, is done: nothing moves now
        stood = len(await log_rows(db, number))
        await asyncio.sleep(2.0)  # past the lease: the key has run out in Valkey
        assert len(await log_rows(db, number)) == stood
        to_valkey.restore()
        await anna.expect(f"Table {number}: back in touch; the game carries on.", timeout=5)
        await until(lambda: _count_at_least(db, number, stood + 1), 15, "a step after the pause")
        assert_whole_log(await log_rows(db, number))
        assert (await table_row(db, number))["lease_epoch"] == epoch  # never taken, never moved
        assert f"table {number}: the lease is still this node's (epoch {epoch})" in a.log()
        await anna.close()
    finally:
        to_valkey.close()
