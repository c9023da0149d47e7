"""A finished table lets go of its runner at once, and leaves memory when nobody is at it.

Real server, telnet and SSH. What the server holds is read from the admins' `tables` (the count of
tables in memory by state, and of games running), which is there for hosts, not for tests.
"""
from __future__ import annotations

import re

from typing import Any

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import FINISHED, open_table
from world.i18n import strip_marks, t

WIDE = 200


def ru(key: str, **params: Any) -> str:
    return strip_marks(t("ru", key, **params))


def memory(tables: int, open_: int = 0, running: int = 0, finished: int = 0, runners: int = 0) -> str:
    return ru("tables.memory", tables=tables, open=open_, running=running, finished=finished, broken=0,
              runners=runners)


async def test_a_finished_table_releases_its_runner_and_then_itself(server_factory, tmp_path):
    # Anna types a dozen commands in a few seconds while a bot game runs at full speed: not what
    # the flood guard is for, so it is opened wide here.
    srv = server_factory('[accounts]\nadmins = ["Анна", "Борис"]\n[limits]\ncommands_per_second = 50\n'
                         'command_burst = 50', data_dir=tmp_path / "data")
    anna = await log_in(srv.telnet_port, "Анна", naws=(WIDE, 50))
    boris = await connect(srv.ssh_port, "Борис", password="secret1", width=WIDE)
    await boris.expect(ru("login.welcome", name="Борис"), timeout=10)
    number = await open_table(anna, "открыть торги rounds=3")
    anna.send_line("боты 2")
    await anna.expect("За стол садятся 2 бота")
    anna.send_line("столы")
    await anna.expect(memory(1, open_=1))
    anna.send_line("начать")
    await anna.expect("Начинаются «Торги»", 10)
    anna.send_line("встать")  # a bot plays her seat; both watch the game to its end
    await anna.expect("за вас играет бот")
    anna.send_line(f"наблюдать {number}")
    boris.send_line(f"наблюдать {number}")
    await boris.expect(f"Вы смотрите за столом {number}")
    await anna.expect(FINISHED, 60)
    await boris.expect(FINISHED, 60)
    # The rematch hint is the end's last line: the runner lets go in the same step.
    await anna.expect(ru("table.rematch_hint"), 30)

    # Over: the runner and the game's state are gone, the table stays while people are at it.
    anna.send_line("столы")
    await anna.expect(memory(1, finished=1))
    anna.send_line("смотреть")  # `look` still tells the result
    await anna.expect(FINISHED)
    # Anna gets up from it to a new table (read from the reply itself: `look` above also
    # reprinted the end-of-game block, which names table 1).
    anna.send_line("открыть торги")
    again = int((await anna.expect(re.compile(r"открываете стол (\d+)"))).split()[-1])
    anna.send_line("столы")
    await anna.expect(memory(2, open_=1, finished=1))
    boris.send_line("встать")  # the last one at it goes: only the database keeps it
    await boris.expect(ru("table.you_left", number=number))
    boris.send_line("столы")
    await boris.expect(memory(1, open_=1))

    boris.send_line(f"наблюдать {number}")
    await boris.expect(ru("table.over", number=number))
    anna.send_line("встать")  # her new table closes (nobody else at it)
    await anna.expect(ru("table.you_left", number=again))
    anna.send_line(f"реванш {number}")  # the finished table is found in the database
    await anna.expect("Реванш: вы открываете стол")
    anna.send_line("столы")
    await anna.expect(memory(1, open_=1))
    await anna.close()
    await boris.close()
