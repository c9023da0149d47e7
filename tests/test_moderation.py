"""Moderation, throttles and limits over real telnet connections."""
from __future__ import annotations

import asyncio
import re

from tests.telnet_client import TelnetClient, log_in

ADMIN = '[accounts]\nadmins = ["Админ"]\nlogin_attempts = 3\nlogin_backoff = 2\n[limits]\ncommands_per_second = 2\ncommand_burst = 4\nflood_mute = 2'


async def login(srv, name, password="secret1", create=True) -> TelnetClient:
    return await log_in(srv.telnet_port, name, password, create)


async def test_moderator_tools(server_factory):
    srv = server_factory(ADMIN)
    admin = await login(srv, "Админ")
    troll = await login(srv, "Troll")
    other = await login(srv, "Ольга")
    # A player cannot use moderation commands: they are not even offered.
    troll.send_line("kick Ольга")
    await troll.expect("Нет такой команды")
    admin.send_line("role Ольга moderator")
    await admin.expect("Ольга теперь модератор")
    await other.expect("Теперь вы модератор")
    other.send_line("mute Troll 5m")
    await other.expect("Troll лишён слова на 5 минут")
    await troll.expect("Вы лишены слова на 5 минут")
    troll.send_line("say hello")
    await troll.expect("Вы лишены слова ещё на")
    other.send_line("unmute Troll")
    await other.expect("снова может говорить")
    other.send_line("kick Админ")
    await other.expect("С Админ так нельзя")
    admin.send_line("announce Завтра турнир!")
    for c in (admin, troll, other):
        await c.expect("Админ объявляет: Завтра турнир!")
    admin.send_line("ban Troll 1h")
    await troll.expect("Вход в корчму для вас закрыт")
    await troll.wait_for(lambda: troll.closed.is_set())
    await admin.expect("Вход для Troll закрыт до")
    again = TelnetClient()
    await again.connect("127.0.0.1", srv.telnet_port)
    await again.reach_name_prompt()
    again.send_line("Troll")
    await again.expect("Вход в корчму для вас закрыт")
    admin.send_line("unban Troll")
    await admin.expect("Запрет для Troll снят")
    troll2 = await login(srv, "Troll", create=False)
    admin.send_line("kick Troll")
    await troll2.expect("Админ отключает вас")
    await admin.expect("Troll отключён")
    await asyncio.sleep(1.0)  # (the admin has typed fast: keep clear of the flood guard)
    admin.send_line("unban " + "Troll" * 10)  # longer than any name: no ban, not an internal error
    await admin.expect("запрета нет")
    for c in (admin, other, again, troll2):
        await c.close()
    log = srv.log()  # the audit trail names who did each (server/logs.py, world/audit.py)
    for line in ("event=role by=Админ name=Ольга old=player new=moderator", "event=mute by=Ольга name=Troll until=",
                 "event=unmute by=Ольга name=Troll", "event=ban by=Админ name=Troll until=",
                 "event=unban by=Админ name=Troll", "event=kick by=Админ name=Troll"):
        assert log.count(line) == 1, line
    assert "event=unban by=Админ name=TrollTroll" not in log  # nothing was lifted


async def test_shutdown_with_warning(server_factory):
    srv = server_factory(ADMIN)
    admin = await login(srv, "Админ")
    player = await login(srv, "Игрок")
    admin.send_line("shutdown 0.05")  # three seconds
    await player.expect("Сервер остановится через")
    await player.expect("Сервер останавливается", timeout=10)
    await asyncio.get_running_loop().run_in_executor(None, srv.proc.wait, 10)
    assert srv.proc.returncode == 0
    for c in (admin, player):
        await c.close()


async def test_login_throttle(server_factory):
    srv = server_factory(ADMIN)
    first = await login(srv, "Вася")
    await first.close()
    client = TelnetClient()
    await client.connect("127.0.0.1", srv.telnet_port)
    await client.reach_name_prompt()
    for attempt in range(3):
        if attempt:
            await client.expect("Имя:")
        client.send_line("Вася")
        await client.expect("Пароль для Васи:")
        client.send_line("wrong")
        await client.expect("Неверное имя или пароль")
    await client.expect("Имя:")
    client.send_line("Вася")
    await client.expect(re.compile(r"Подождите \d+ секунд"))
    await asyncio.sleep(2.2)
    client.send_line("Вася")
    await client.expect("Пароль для Васи:")
    client.send_line("secret1")
    await client.expect("Добро пожаловать в корчму")
    await client.close()


async def test_flood_warning_then_mute(server_factory):
    srv = server_factory(ADMIN)
    client = await login(srv, "Болтун")
    listener = await login(srv, "Слушатель")
    for i in range(12):
        client.send_line(f"say {i}")
    await client.expect("Помедленнее")
    await client.expect("ваш ввод не принимается 2 секунды")
    await listener.settle(0.5)
    heard = re.findall(r"Болтун говорит: «(\d+)»", listener.text)
    assert 4 <= len(heard) < 12
    await asyncio.sleep(2.5)
    client.send_line("say снова можно")
    await listener.expect("снова можно")
    for c in (client, listener):
        await c.close()


async def test_long_line_refused(server):
    client = await login(server, "Писатель")
    client.send_line("say " + "я" * 2100)
    await client.expect("Строка слишком длинная")
    client.send_line("say short")
    await client.expect("Вы говорите: «short»")
    await client.close()


async def test_new_accounts_per_address_are_limited(server_factory):
    """Two new accounts per address here: the third new name is refused over telnet and over SSH
    with a clear message; logging in to an existing account still works."""
    import asyncssh
    from tests.ssh_client import connect

    srv = server_factory("[accounts]\nnew_accounts_per_address = 2\nnew_accounts_exempt = []")
    first = await login(srv, "Первый")
    second = await login(srv, "Second")
    third = TelnetClient()
    await third.connect("127.0.0.1", srv.telnet_port)
    await third.reach_name_prompt()
    third.send_line("Третий")
    await third.expect("С вашего адреса создано слишком много учётных записей")
    await third.expect(re.compile(r"попробуйте снова через 60 минут"))
    third.send_line("Первый")  # an existing account is still welcome
    await third.expect("Пароль")
    third.send_line("secret1")
    await third.expect("Добро пожаловать")
    try:
        await connect(srv.ssh_port, "Fourth", password="secret1")
    except asyncssh.PermissionDenied:
        pass
    else:
        raise AssertionError("a fourth account was made over SSH")
    boris = await connect(srv.ssh_port, "Second", password="secret1")
    await boris.expect("Second")
    for client in (first, second, third, boris):
        await client.close()
