"""Admin tools over telnet and SSH (issue 16): `bans`, `who` with doors and addresses, `where NAME`
from the login history, reasons of kick, mute and ban told at that moment, `rename` and `delete`
with finished games keeping the old name. Two servers, each hosting several checks."""
from __future__ import annotations

import re

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table

# The flood guard is widened: the admin types many commands back to back, each waited on.
ADMIN = '[accounts]\nadmins = ["Админ"]\n[limits]\ncommands_per_second = 20\ncommand_burst = 40'
WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d UTC"


async def test_bans_who_where_and_reasons(server_factory):
    srv = server_factory(ADMIN)
    admin = await log_in(srv.telnet_port, "Админ", naws=(200, 50))  # lines unwrapped
    admin.send_line("bans")
    await admin.expect("Действующих запретов нет.")
    admin.send_line("банны")  # a near miss: the parser suggests the new verbs as any other
    await admin.expect(re.compile(r"Нет такой команды: банны\. Может быть, вы имели в виду: [^\n]*\bбаны\b"))
    admin.send_line("помощь де")  # help in every language's verb
    await admin.expect("с каких адресов входили под этим именем")
    await admin.expect("где ИМЯ")

    troll = await connect(srv.ssh_port, "Troll", password="secret1")
    await troll.expect("Troll")
    olga = await log_in(srv.telnet_port, "Ольга")

    # The admin's `who` names each session's door and address; a player's does not.
    admin.mark_here()
    admin.send_line("кто")
    await admin.expect("В корчме 3 человека:")
    await admin.settle(0.2)
    listed = admin.text_since_mark()
    assert re.search(r"Troll[^\n]*\n\s+ssh 127\.0\.0\.1\r?\n", listed), listed
    assert re.search(r"Ольга[^\n]*\n\s+telnet 127\.0\.0\.1\r?\n", listed), listed
    olga.mark_here()
    olga.send_line("who")
    await olga.expect(re.compile(r"Troll.*\n.*Ольга", re.S))
    await olga.settle(0.2)
    assert "127.0.0.1" not in olga.text_since_mark()
    olga.send_line("где Troll")  # not offered to players
    await olga.expect("Нет такой команды")

    # `where`: the login history, kept in the database, one line per door and address.
    troll_eyes = await log_in(srv.telnet_port, "Troll", create=False)
    admin.send_line("где Troll")
    await admin.expect("Адреса Troll, последние сначала:")
    await admin.expect(re.compile(rf"telnet\s+127\.0\.0\.1 — последний вход {WHEN}, всего 1 раз\b"))
    await admin.expect(re.compile(rf"ssh\s+127\.0\.0\.1 — последний вход {WHEN}, всего 1 раз\b"))
    await troll_eyes.close()

    # kick and mute tell why (and for how long) at that moment; in the player's language.
    troll.send_line("lang en")
    await troll.expect("Language: English")
    admin.send_line("kick Troll спамит в зале")
    await troll.expect("You have been disconnected by Админ. Reason: спамит в зале")
    await troll.wait_closed()
    await admin.expect("Troll отключён")
    admin.send_line("заглушить Ольга 5м «флуд в зале»")
    await olga.expect("Вы лишены слова на 5 минут. Причина: флуд в зале")
    admin.send_line("заглушить Ольга 5мм")  # a mistyped term is refused, never taken for a reason
    await admin.expect("Это не срок: 5мм")

    # A ban with a reason: an online player hears it and the expiry before the door closes.
    troll = await connect(srv.ssh_port, "Troll", password="secret1")
    await troll.expect("Troll")
    admin.send_line("ban Troll 1h оскорбления")
    await troll.expect(re.compile(rf"until {WHEN}\. Reason: оскорбления"))
    await troll.wait_closed()
    await admin.expect(re.compile(rf"Вход для Troll закрыт до {WHEN}"))
    admin.send_line("бан 10.9.9.9 навсегда прокси")
    await admin.expect("Вход с адреса 10.9.9.9 закрыт навсегда.")
    admin.send_line("баны")
    await admin.expect("Действуют 2 запрета:")
    await admin.expect(re.compile(rf"Troll — до {WHEN}; выдан {WHEN} \(Админ\); причина: оскорбления"))
    await admin.expect(re.compile(rf"адрес 10\.9\.9\.9 — навсегда; выдан {WHEN} \(Админ\); причина: прокси"))
    admin.send_line("unban Troll")
    await admin.expect("Запрет для Troll снят")
    admin.send_line("bans")
    await admin.expect("Действует 1 запрет:")
    for client in (admin, olga):
        await client.close()
    assert_audited(srv.log(), "kick", "mute", "ban")


async def test_rename_and_delete(server_factory):
    srv = server_factory(ADMIN + "\n[games.bids]\nseconds = 1")
    admin = await log_in(srv.telnet_port, "Админ", naws=(200, 50))  # lines unwrapped
    olga = await connect(srv.ssh_port, "Ольга", password="secret1")
    await olga.expect("Ольга")
    other = await log_in(srv.telnet_port, "Boris")

    # The rules of new names; a name taken; an unfinished table.
    for typed, said in (("Ольга admin", "Это имя зарезервировано."),
                        ("Ольга boris", "Имя boris уже занято"),
                        ("Ольга Оля!", "Имя начинается с буквы"),
                        ("Ольга", "переименовать ИМЯ НОВОЕ_ИМЯ")):
        admin.send_line(f"переименовать {typed}")
        await admin.expect(said)
    number = await open_table(olga, "открыть торги rounds=3")
    admin.send_line("rename Ольга Оля")
    await admin.expect(f"Ольга сидит за столом {number}: переименовать можно")

    olga.send_line("боты 1")
    await olga.expect("За стол садится 1 бот")
    admin.send_line(f"watch {number}")
    await admin.expect("Вы смотрите")
    olga.send_line("начать")
    await olga.expect(re.compile(r"Раунд 1 "), timeout=10)
    olga.send_line("встать")  # a bot plays her seat to the end
    await admin.expect(re.compile(rf"Игра за столом {number} окончена"), timeout=20)
    mastered = await open_table(other, "открыть торги master=Ольга")
    admin.send_line("rename Ольга Оля")
    await admin.expect("Ольга теперь зовётся Оля.")
    await olga.expect("Админ переименовывает вас: теперь ваше имя Оля.")
    admin.send_line("look")  # the finished table keeps the name its game was played under
    await admin.expect(re.compile(r"Ольга, Бот-\w+"))
    admin.send_line("who")
    await admin.expect(re.compile(r"Оля\s"))
    await olga.close()
    olga = await log_in(srv.telnet_port, "Оля", create=False)
    assert "Добро пожаловать" in olga.text
    olga.send_line(f"мастер {mastered}")  # the table that named her its Master still does
    await olga.expect(f"Вы — Мастер стола {mastered}")
    other.send_line("встать")
    await other.expect("встаёте из-за стола")

    # Delete, confirmed by typing the command again (in English here): a seat at an open table
    # is given up, the login history goes.
    spare = await log_in(srv.telnet_port, "Лишний")
    await open_table(spare, "open bids")
    admin.send_line("lang en")
    await admin.expect("Language: English")
    admin.send_line("delete Лишний")
    await admin.expect("Type «delete Лишний» again or «yes» within 30 seconds.")
    admin.send_line("delete Лишний")
    await spare.expect("Админ удаляет вашу учётную запись")
    await admin.expect("The account Лишний is deleted.")
    admin.send_line("где Лишний")
    await admin.expect("Nobody is called Лишний.")
    admin.send_line("язык ru")
    await admin.expect("Язык: русский")

    # `да` confirms. A player at a running table: a bot takes the seat for good, across a restart.
    victim = await connect(srv.ssh_port, "Жертва", password="secret1")
    await victim.expect("Жертва")
    number = await open_table(victim, "открыть торги rounds=3 seconds=600")
    other.send_line(f"сесть {number}")
    await other.expect("Вы садитесь")
    victim.send_line("начать")
    await other.expect(re.compile(r"Раунд 1 "), timeout=10)
    admin.send_line("yes")
    await admin.expect("Подтверждать нечего")
    admin.send_line("удалить Жертва")
    await admin.expect("Удалить учётную запись Жертвы навсегда? Наберите «удалить Жертва» ещё раз или «да» за 30 секунд.")
    admin.send_line("да")
    await victim.expect("Админ удаляет вашу учётную запись.")
    await victim.wait_closed()
    await admin.expect("Учётная запись Жертвы удалена.")
    await other.expect("Учётной записи Жертвы больше нет: это место до конца игры занимает бот.")
    await other.expect("Жертва делает тайную ставку")  # the bot plays; the game waits for Boris
    for client in (admin, olga, other, spare):
        await client.close()
    assert srv.terminate() == 0
    assert_audited(srv.log(), "rename", "delete")

    srv = server_factory(ADMIN + "\n[games.bids]\nseconds = 1", data_dir=srv.data_dir)
    admin = await log_in(srv.telnet_port, "Админ", create=False)
    admin.send_line(f"watch {number}")
    await admin.expect("Вы смотрите")
    await admin.expect("Жертва (бот)")
    other = await log_in(srv.telnet_port, "Boris", create=False)
    other.send_line("встать")  # a bot for him too: the restored game plays to its end
    await admin.expect(re.compile(rf"Игра за столом {number} окончена"), timeout=20)
    again = await log_in(srv.telnet_port, "Жертва")  # the name is free: a new account takes it
    assert "Имя Жертва свободно: заведём вам учётную запись." in again.text
    for client in (admin, other, again):
        await client.close()


def assert_audited(log: str, *events: str) -> None:
    """Each event has an audit record (world/audit.py; how a record is written is the log
    formatter's: a line of the audit logger that names the event)."""
    lines = [line for line in log.splitlines() if "audit" in line]
    for event in events:
        assert any(re.search(rf"\b{event}\b", line) for line in lines), (event, lines[-20:])
