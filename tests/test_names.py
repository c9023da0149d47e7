"""Naming an account in a command: the exact name wins, online or not; a looser match that could
be two people asks which one. Over real telnet and SSH connections."""
from __future__ import annotations

import re

from tests import ssh_client
from tests.telnet_client import log_in

ADMIN = '[accounts]\nadmins = ["Админ"]'


async def quiet_about(client, word: str) -> None:
    """Nobody whispered ``word`` to ``client`` (after the server had time to send)."""
    await client.settle(0.5)
    assert f"шепчет вам: «{word}" not in client.text, client.text[-1500:]


async def test_an_exact_name_beats_a_transliteration_online_or_not(server_factory):
    srv = server_factory(ADMIN)
    boris = await log_in(srv.telnet_port, "Boris")  # Latin; goes offline below
    await boris.close()
    борис = await ssh_client.connect(srv.ssh_port, "Борис", "secret1")  # Cyrillic, online
    await борис.expect("Добро пожаловать")
    анна = await log_in(srv.telnet_port, "Анна")

    # On main this printed «Вы шепчете Борис» and landed on Борис's screen.
    анна.send_line("шепнуть Boris привет-латинскому")
    await анна.expect("Boris сейчас нет; сообщение ждёт во входящих.")
    await quiet_about(борис, "привет-латинскому")

    # From Борис's own session the Latin name is somebody else, not "talking to yourself".
    борис.send_line("tell Boris от-кириллического")
    await борис.expect("Boris сейчас нет; сообщение ждёт во входящих.")
    assert "Разговариваете сами с собой" not in борис.text

    # A look-alike spelling is the same name (Cyrillic В, as at account creation).
    анна.send_line("tell Вoris похожее-имя")
    await анна.expect("Boris сейчас нет")

    boris = await log_in(srv.telnet_port, "Boris", create=False)
    await boris.expect("привет-латинскому")
    await boris.expect("от-кириллического")
    await boris.expect("похожее-имя")

    # Both online now: the exact names still go to the right screens...
    анна.send_line("tell boris латинскому-онлайн")
    await boris.expect("Анна шепчет вам: «латинскому-онлайн»")
    анна.send_line("tell борис кириллическому-онлайн")
    await борис.expect("Анна шепчет вам: «кириллическому-онлайн»")
    await quiet_about(boris, "кириллическому-онлайн")
    await quiet_about(борис, "латинскому-онлайн")
    # ...and a start of a name that fits both (one by its letters, one in the other script) asks.
    анна.send_line("tell bor кому-то")
    await анна.expect("bor — это может быть: Boris, Борис. Кого вы имеете в виду?")
    борис.send_line("шепнуть бор тоже-кому-то")
    await борис.expect("бор — это может быть: Boris, Борис.")
    await quiet_about(boris, "кому-то")
    await quiet_about(борис, "кому-то")
    for c in (boris, анна):
        await c.close()
    await борис.close()


async def test_moderation_and_the_master_name_the_exact_account(server_factory):
    srv = server_factory(ADMIN)
    boris = await log_in(srv.telnet_port, "Boris")
    await boris.close()
    борис = await ssh_client.connect(srv.ssh_port, "Борис", "secret1")
    await борис.expect("Добро пожаловать")
    admin = await ssh_client.connect(srv.ssh_port, "Админ", "secret1")
    await admin.expect("Добро пожаловать")

    admin.send_line("mute Boris 5m")  # offline Boris, not Борис who is online
    await admin.expect("Boris лишён слова на 5 минут")
    await борис.settle(0.5)
    assert "Вы лишены слова" not in борис.text
    борис.send_line("say всё ещё говорю")
    await борис.expect("всё ещё говорю")
    assert "Вы лишены слова" not in борис.text
    boris = await log_in(srv.telnet_port, "Boris", create=False)
    boris.send_line("say можно?")
    await boris.expect("Вы лишены слова ещё на")

    # The Master's chair named at `open` goes to the exact account, stored as it is spelled;
    # the look-alike of a name online gets no chair.
    boris.send_line("open mafia master=boris")
    number = int(re.search(r"\d+", await boris.expect(re.compile(r"открываете стол \d+"))).group())
    борис.send_line(f"master {number}")
    await борис.expect(f"Мастером стола {number} может быть администратор или тот, кто назван")
    boris.send_line("leave")
    await boris.expect("Вы встаёте из-за стола")
    boris.send_line("open mafia master=бор")  # a start that fits two people: asked, no table
    await boris.expect("бор — это может быть: Boris, Борис.")
    await boris.close()
    await борис.close()
    await admin.close()
