"""The observer Master over real telnet: who may take the chair, what the Master sees, and the
clock it holds (pause, resume, extend), which survives a kill -9. Played on a Coup table: the
Master's tools belong to the server, every game has them."""
from __future__ import annotations

import re
import sqlite3

from tests.telnet_client import log_in

ADMIN = '[accounts]\nadmins = ["Смотритель"]'


async def open_coup(host, options: str) -> int:
    host.send_line(f"открыть переворот {options}")
    found = await host.expect(re.compile(r"стол (\d+)", re.I))
    return int(re.search(r"\d+", found).group(0))


def paused_seconds(data_dir, number: int):
    conn = sqlite3.connect(data_dir / "korchma.sqlite3")
    try:
        return conn.execute("SELECT paused_seconds, deadline_at FROM game_table WHERE id = ?", (number,)).fetchone()
    finally:
        conn.close()


async def test_master_chair_clock_and_secrets(server_factory, tmp_path):
    srv = server_factory(ADMIN)
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True)
    number = await open_coup(anna, "turn=1h reaction=10m master=Вика")
    anna.send_line("боты 2")
    await anna.expect("За стол садятся 2 бота")
    # Only an admin or the named Master may take the chair; a seated player may not.
    nobody = await log_in(srv.telnet_port, "Прохожий")
    nobody.send_line(f"мастер {number}")
    await nobody.expect(f"Мастером стола {number} может быть администратор")
    anna.send_line(f"мастер {number}")  # the host is no Master either
    await anna.expect(f"Мастером стола {number} может быть администратор")
    vika = await log_in(srv.telnet_port, "Вика", gmcp=True)
    vika.send_line(f"мастер {number}")
    await vika.expect(f"Вы — Мастер стола {number}")
    await anna.expect("Вика садится в кресло Мастера")
    warden = await log_in(srv.telnet_port, "Смотритель")
    warden.send_line(f"master {number}")
    await warden.expect(f"Мастер стола {number}")

    anna.send_line("начать")
    await anna.expect("Начинается «Переворот»", timeout=10)
    # The Master hears every whisper: the hands of Anna and of both bots.
    for name in ("Анна", "Бот-Афанасий", "Бот-Глафира"):
        await vika.expect(re.compile(rf"\[Мастеру; для: {name}\] Мастер шепчет: ваши карты"), timeout=10)
    assert "шепчет" not in nobody.text
    await vika.settle(0.5)
    views = [d for name, d in vika.gmcp_messages if name == "Korchma.Game.View"]
    assert views and views[-1]["seat"] == "master"

    # The clock: pause, extend while paused, resume.
    vika.send_line("мастер пауза")
    await anna.expect("Мастер остановил часы")
    await warden.expect("Мастер остановил часы")
    assert paused_seconds(srv.data_dir, number)[0] is not None
    vika.send_line("мастер пауза")
    await vika.expect("Часы уже стоят")
    assert srv.log().count(f"event=table_paused by=Вика number={number} game=coup") == 1  # the audit trail
    vika.send_line("мастер продлить 30м")
    # (bots keep moving while the clock stands: a new wait starts paused, at its full length)
    await anna.expect(re.compile(r"Мастер продлил фазу за столом \d+ на 30 минут: осталось \d+ (час|минут)"))
    left_before = paused_seconds(srv.data_dir, number)[0]
    assert left_before > 1800

    # A kill -9 while paused: the clock is still stopped after the restart, with the same time left.
    srv.kill9()
    srv2 = server_factory(ADMIN, data_dir=srv.data_dir)
    anna = await log_in(srv2.telnet_port, "Анна", create=False, gmcp=True)
    await anna.expect(f"Вы снова за столом {number}")
    assert paused_seconds(srv2.data_dir, number)[0] == left_before
    vika = await log_in(srv2.telnet_port, "Вика", create=False)
    vika.send_line(f"мастер {number}")
    await vika.expect(f"Вы — Мастер стола {number}")
    vika.send_line("мастер продолжить")
    await anna.expect(re.compile(r"Часы за столом \d+ снова идут: до конца фазы \d+ (час|минут)"))
    paused, deadline = paused_seconds(srv2.data_dir, number)
    assert paused is None and deadline is not None
    vika.send_line("мастер продолжить")
    await vika.expect("Часы и так идут")
    # The Master may not act in the game: a game verb is not hers (she is told whose it is).
    vika.send_line("доход")
    await vika.expect("«доход» — ход игрока: его набирают те, кто сидит за столом и играет.")
    for client in (anna, vika, warden, nobody):
        await client.close()
