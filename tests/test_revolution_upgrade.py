"""A «Революция» table survives a server upgrade across issue 14 (real server, telnet + SSH).

tests/data/revolution_old_log.json is the log of a table played on the code before issue 14
(commit 6d82c67, made by tests/data/make_revolution_old_log.py): old windows asked every seat, so
it holds passes from seats whose only answer was pass (some after today's engine has closed the
window), and it stops mid-fight against «Поп-агитатор», an opponent issue 14 made stronger
(level 6 then, 7 now). The log is written into a real table's rows in the SQLite file, the server
starts: the table is not broken, both players find the fight they left with the old numbers, and
one more pass resolves it as the old engine did.
"""
from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table

FIXTURE = Path(__file__).resolve().parent / "data" / "revolution_old_log.json"
WIDE = 200
# No smart autopass during the test: Борис's window in Анна's fight stays his to answer.
CONFIG = "[tables]\nautopass_smart_seconds = 3600"
BROKEN = "cannot be rebuilt and is marked broken"
SKIPPED = "is no longer asked for; skipped"


def old_table() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def write_old_log(db_path: Path, number: int, old: dict) -> None:
    """The table's rows as the old server left them: its options (no deck revision), seed and
    action log; no stored deadline (the fixture's came from no clock)."""
    db = sqlite3.connect(db_path)
    try:
        db.execute("UPDATE game_table SET options = ?, seed = ?, deadline_at = NULL, deadline_step = NULL "
                   "WHERE id = ?", (json.dumps(old["options"]), old["seed"], number))
        db.execute("DELETE FROM action_log WHERE table_id = ?", (number,))
        now = datetime.now(timezone.utc).isoformat()
        columns = [row[1] for row in db.execute("PRAGMA table_info(action_log)")]
        for entry in old["log"]:
            row = {"table_id": number, "step": entry["step"], "seat": entry["seat"],
                   "action": json.dumps(entry["action"], ensure_ascii=False), "by": "player",
                   "created_at": now}
            names = [c for c in columns if c in row]
            db.execute(f"INSERT INTO action_log ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                       [row[c] for c in names])
        db.commit()
    finally:
        db.close()


async def test_a_table_logged_by_the_old_code_resumes_after_the_upgrade(server_factory, tmp_path):
    old = old_table()
    before, after = old["before"], old["after_pass"]
    assert before["fighter"] == 0 and before["other"] == 1 and before["card"] == "pop"
    data = tmp_path / "data"
    srv = server_factory(CONFIG, data_dir=data)
    anna = await log_in(srv.telnet_port, "Анна", naws=(WIDE, 50))
    boris = await connect(srv.ssh_port, "Борис", password="secret1", width=WIDE)
    await boris.expect("Борис", timeout=10)
    number = await open_table(anna, "открыть революция")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    anna.send_line("начать")
    await anna.expect("Начинается «Революция»", 10)
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0

    write_old_log(data / "korchma.sqlite3", number, old)
    srv = server_factory(CONFIG, data_dir=data)
    assert BROKEN not in srv.log()
    # The old passes today's engine does not ask for: skipped, one warning each, steps kept.
    assert srv.log().count(SKIPPED) == 4

    fight = re.compile(r"Бой: Анна против «Поп-агитатор» \(уровень (\d+);")
    anna = await log_in(srv.telnet_port, "Анна", create=False, naws=(WIDE, 50))
    await anna.expect(f"Вы снова за столом {number}")
    anna.send_line("смотреть")
    level = re.search(fight, await anna.expect(fight)).group(1)
    assert int(level) == before["opponent_level"] == 6  # the numbers the table started with
    await anna.expect("Противник 6 уровня")  # the card's text of that revision too
    boris = await connect(srv.ssh_port, "Борис", password="secret1", width=WIDE)
    await boris.expect(f"Вы снова за столом {number}", timeout=10)
    boris.send_line("смотреть")
    assert int(re.search(fight, await boris.expect(fight)).group(1)) == 6

    # Play on: Борис passes, the fight resolves as the old engine resolved it.
    boris.send_line("пас")
    for player in (anna, boris):
        await player.expect(re.compile(r"Итог боя: игроки 9, противник 9\."))
    assert after["events"][1:] == ["revolution.fight_total", "revolution.lost", "revolution.escaped"]
    await anna.expect("Анна сбегает.")
    await anna.expect(re.compile(r"Ваш ход \(осталось \d+ секунд\): конец"))
    anna.send_line("конец")
    await boris.expect(re.compile(r"Ваш ход \(осталось \d+ секунд"))  # his turn, from jail
    assert BROKEN not in srv.log()
    await anna.close()
    await boris.close()
