"""One hall across three nodes (issue 19, part 1; docs/cluster.md): three real server processes
sharing one PostgreSQL database and one Valkey server, players over telnet and SSH on different
nodes. `who` lists everyone everywhere (an admin sees the node), `say`/`emote`/`chat` reach every
node and the listener's node applies their ignore, tells and replies cross (the away notice comes
back), `announce` reaches every node, `finger` says online, `tables` lists every node's tables.
A node killed with SIGKILL leaves `who` once its heartbeat key expires, and a tell to its player
then waits in the inbox; Redis killed and started again: each node logs the outage once,
reconnects, and chat crosses nodes again."""
from __future__ import annotations

import asyncio
import re
import time

import redis.asyncio as aioredis

from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.valkey import valkey  # noqa: F401  (fixture)
from tests.wire import person

LEASE, HEARTBEAT = 2.0, 0.5


def node_config(database_url: str, redis_url: str, node: str) -> str:
    return (f'[server]\ndatabase_url = "{database_url}"\n[accounts]\nadmins = ["Вера"]\n'
            f'[cluster]\nredis_url = "{redis_url}"\nnode = "{node}"\n'
            f'lease_seconds = {LEASE}\nheartbeat_seconds = {HEARTBEAT}')


async def until_shown(client, command: str, pattern, timeout: float = 5.0) -> str:
    """Type ``command`` until its answer shows ``pattern`` (what another node wrote to Redis may
    take a moment to arrive); returns the text of the answer that did."""
    deadline = time.monotonic() + timeout
    while True:
        client.mark_here()
        client.send_line(command)
        await client.settle(0.2)
        seen = client.text_since_mark()
        if (pattern.search(seen) if isinstance(pattern, re.Pattern) else pattern in seen):
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"{pattern!r} not shown by {command!r} in {timeout}s:\n{seen}")


async def test_one_hall_across_three_nodes(server_factory, pg_database, valkey, tmp_path):
    a, b, c = (server_factory(node_config(pg_database, valkey.url, name), data_dir=tmp_path / name)
               for name in ("a", "b", "c"))  # one after the other: the first one migrates the database
    anna = await person(a, "telnet", "Анна")
    boris = await person(b, "ssh", "Boris", lang="en")
    vera = await person(c, "telnet", "Вера", lang="uk")  # an admin
    await anna.expect("Boris заходит в корчму.")  # an arrival on B, heard in A's hall
    await anna.expect("Вера заходит в корчму.")

    # who: everyone on every node; the admin also sees each player's node and doors.
    seen = await until_shown(anna, "кто", "В корчме 3 человека:")
    assert re.search(r"Анна .*в зале", seen) and re.search(r"Boris .*в зале", seen) and "Вера" in seen
    assert "узел" not in seen and "telnet" not in seen
    boris.send_line("who")  # over SSH on B: A's and C's players too, and no node for a player
    await boris.expect("3 people in the tavern:")
    await boris.expect(re.compile(r"Вера +in the hall +idle \d+s +admin"))
    boris.send_line("finger Анна")
    await boris.expect("Here now: in the hall.")
    assert "node" not in boris.text
    seen = await until_shown(anna, "осмотреться", "Здесь: Boris, Вера.")  # the one hall's people
    seen = await until_shown(vera, "хто", "вузол b: ssh 127.0.0.1")
    assert "вузол a: telnet 127.0.0.1" in seen and "вузол c: telnet 127.0.0.1" in seen

    # say and emote in the hall, heard on the other nodes in each reader's language.
    anna.send_line("сказать всем привет")
    await boris.expect("Анна says: «всем привет»")
    await vera.expect("Анна каже: «всем привет»")
    boris.send_line("emote waves")
    await anna.expect("* Boris waves")
    await vera.expect("* Boris waves")
    vera.send_line("chat вітаю")
    await anna.expect("Вера: вітаю")
    await boris.expect("Вера: вітаю")

    # Vera ignores Boris: her node leaves his hall lines, his chat and his tells out; Анна hears all.
    vera.send_line("ігнор Boris")
    await vera.expect("Boris")
    vera.mark_here()
    boris.send_line("say one")
    boris.send_line("chat two")
    boris.send_line("tell Вера three")
    await boris.expect("You tell Вера: «three»")  # reads as delivered, as on one node
    await anna.expect("Boris говорит: «one»")
    await anna.expect("Boris: two")
    anna.send_line("сказать отметка")  # after Boris's lines, on the same bus: Vera hears this
    await vera.expect("Анна каже: «отметка»")
    heard = vera.text_since_mark()
    for line in ("one", "two", "three"):
        assert line not in heard, heard

    # tell and reply across nodes; the away notice comes back from the target's node.
    anna.send_line("шепнуть Boris как дела?")
    await anna.expect("Вы шепчете Boris: «как дела?»")
    await boris.expect("Анна tells you: «как дела?»")
    boris.send_line("reply fine")
    await anna.expect("Boris шепчет вам: «fine»")
    boris.send_line("afk lunch")
    await boris.expect("lunch")
    seen = await until_shown(anna, "кто", "Boris (нет на месте: lunch)")
    anna.send_line("шепнуть Boris ты тут?")
    await anna.expect("Boris сейчас нет на месте: «lunch».")
    await boris.expect("Анна tells you: «ты тут?»")

    # announce from C reaches A and B; finger says online; tables lists B's table on A.
    vera.send_line("оголосити сервер на трьох вузлах")
    await anna.expect("*** Вера объявляет: сервер на трьох вузлах")
    await boris.expect("*** Вера announces: сервер на трьох вузлах")
    anna.send_line("профиль Boris")
    await anna.expect("Сейчас в корчме: в зале.")
    boris.send_line("open bids")
    number = int(re.search(r"\d+", await boris.expect(re.compile(r"table (\d+)"))).group(0))
    seen = await until_shown(anna, "столы", re.compile(rf"№{number}  Торги  \[.*\]  1/\d+"))
    assert "1 стол:" in seen
    anna.send_line("осмотреться")
    await anna.expect("Здесь: Вера.")  # Boris sits at his table now
    await anna.expect("Открыт 1 стол")
    seen = await until_shown(anna, "кто", re.compile(rf"Boris +за столом {number} "))  # back, and seated
    assert "нет на месте" not in seen

    # C is killed: its heartbeat key has at most a lease to live, and the moment it is gone Vera
    # is out of A's `who`; a tell to her then waits in the inbox.
    client = aioredis.from_url(valkey.url)
    try:
        c.kill9()
        assert 0 < await client.pttl("korchma:node:c") <= LEASE * 1000
        deadline = time.monotonic() + LEASE + 1
        while await client.exists("korchma:node:c"):
            assert time.monotonic() < deadline, "C's heartbeat key outlived its lease"
            await asyncio.sleep(0.05)
        anna.send_line("кто")
        await anna.expect("В корчме 2 человека:")
        anna.send_line("шепнуть Вера ты где?")
        await anna.expect("Веры сейчас нет; сообщение ждёт во входящих.")
        assert not await client.exists("korchma:presence:c")  # A's reading dropped the dead node's hash

        # C starts again over a hash a previous run of it left (written here by hand): it clears it.
        await client.hset("korchma:presence:c", "999", '{"name": "Призрак", "role": "player", "input": 0}')
        c.start()
        await until_shown(anna, "кто", "В корчме 2 человека:")
        assert await client.exists("korchma:node:c") and not await client.hexists("korchma:presence:c", "999")
    finally:
        await client.aclose()
    assert "Призрак" not in anna.text

    # Redis goes and comes back: each node says so once, then lines cross again.
    valkey.kill()
    for node in (a, b, c):
        await wait_for_log(node, "cluster: lost Redis")
    anna.send_line("болтать пока никто не слышит")  # heard on A only; never a traceback
    await anna.expect("пока никто не слышит")
    anna.send_line("кто")  # this node's part, and one line saying why it is only that
    await anna.expect("В корчме 1 человек:")
    await anna.expect("(Другие узлы корчмы сейчас не отвечают: показано только то, что есть на этом узле.)")
    valkey.start()
    for node in (a, b, c):
        await wait_for_log(node, "Redis answers again", timeout=10)
    anna.send_line("болтать снова вместе")
    await boris.expect("Анна: снова вместе")
    for node in (a, b, c):
        log = node.log()
        assert log.count("cluster: lost Redis") == 1, log
        assert log.count("Redis answers again") == 1, log
        assert "Traceback" not in log, log
    assert "пока никто не слышит" not in boris.text
    await until_shown(anna, "кто", "В корчме 2 человека:")  # presence written again to the empty Redis
    await boris.close()
    await anna.expect("Boris уходит из корчмы.")  # a departure on B, heard in A's hall
    await anna.close()
    await vera.close()


async def wait_for_log(node, text: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in node.log():
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} not in the log in {timeout}s:\n{node.log()[-3000:]}")
        await asyncio.sleep(0.05)
