"""Notices and planning: the message of the day an admin sets (`motd`), news (`news`), and the
board of players' notes (`board`), over telnet and SSH (world/motd.py, world/news.py,
world/board.py; commands/motd.py, commands/news.py, commands/board.py)."""
from __future__ import annotations

import re

import pytest

from tests.wire import person
from world.i18n import strip_marks, t

# The guard opened: these people type a whole evening's commands in seconds (the flood guard
# has its own tests in tests/test_moderation.py). The host's own MOTD is the default.
NOTICES = """
[server]
motd = "Добро пожаловать в корчму"
[accounts]
admins = ["Админ"]
[limits]
commands_per_second = 50
command_burst = 50
"""


async def _absent(client, text: str) -> None:
    """``text`` has not arrived since the mark: a command typed now is answered first."""
    client.send_line("who")
    await client.expect(re.compile(r"in the tavern:|В корчме \d|У корчмі \d"))
    assert text not in client.text_since_mark(), client.text_since_mark()


async def test_motd_set_by_an_admin_and_news_flagged_at_login_over_telnet_and_ssh(server_factory):
    srv = server_factory(NOTICES)
    admin = await person(srv, "telnet", "Админ")
    boris = await person(srv, "ssh", "Boris", lang="en")
    olha = await person(srv, "telnet", "Ольга", lang="uk")

    # Before any admin sets one: the config's text, and where it comes from for the admin.
    boris.send_line("motd")
    await boris.expect("Tavern notice: Добро пожаловать в корчму")
    admin.send_line("объявление")
    await admin.expect("Объявление корчмы: Добро пожаловать в корчму")
    await admin.expect("(Из config.toml, [server] motd.")
    boris.send_line("motd set Mine now")
    await boris.expect("Only admins may change the message of the day.")

    admin.send_line("объявление задать Турнир по Перевороту в субботу")
    await admin.expect("Объявление дня сменено")
    admin.send_line("объявление задать " + "я" * 501)
    await admin.expect("Объявление слишком длинное: не больше 500 символов (у вас 501).")

    # News: an admin posts; those online hear of it; the list marks it unread.
    olha.send_line("новини написати Не моя | текст")
    await olha.expect("Публікувати й видаляти новини можуть лише адміністратори.")
    admin.send_line("новости написать Турнир | В субботу в 20:00 турнир по Перевороту, запись у Админа.")
    await admin.expect("Новость #1 «Турнир» опубликована")
    await boris.expect("News #1: Турнир.")
    await olha.expect("Новина #1: Турнир.")
    admin.send_line("новости написать без черты")
    await admin.expect("новости написать ЗАГОЛОВОК | ТЕКСТ")
    boris.send_line("news")
    await boris.expect(re.compile(r"#1 \d\d\.\d\d \d\d:\d\d UTC  Турнир \(unread\)"))
    await boris.close()
    await olha.close()

    # A new login (SSH, English) reads the admin's MOTD and the unread news.
    boris = await person(srv, "ssh", "Boris")
    await boris.expect("Tavern notice: Турнир по Перевороту в субботу")
    await boris.expect("There is 1 unread news item: news.")
    assert "Добро пожаловать в корчму" not in boris.text  # the admin's text wins over the config's
    admin.send_line("новости написать Правила | Мафия теперь по версии C.")
    await admin.expect("Новость #2 «Правила» опубликована")
    boris.send_line("news 1")
    await boris.expect("#1 Турнир")
    await boris.expect("В субботу в 20:00 турнир по Перевороту")
    boris.send_line("news 9")
    await boris.expect("There is no news #9.")

    # Ольга (telnet, Ukrainian) missed both: the plural of two.
    olha = await person(srv, "telnet", "Ольга", create=False)
    await olha.expect("Оголошення корчми: Турнир по Перевороту в субботу")
    await olha.expect("Є 2 непрочитані новини: новини.")
    # An account made after the news is not greeted with it (it is in the list to read).
    guest = await person(srv, "telnet", "Гость")
    await _absent(guest, "непрочитан")
    guest.send_line("новости")
    await guest.expect("всего 2 новости")
    await guest.close()

    await boris.close()
    boris = await person(srv, "ssh", "Boris")
    await boris.expect("There is 1 unread news item: news.")  # #1 was read; #2 is left
    boris.send_line("news 2")
    await boris.expect("Мафия теперь по версии C.")
    for client in (admin, boris, olha):
        await client.close()
    log = srv.log()
    assert log.count("event=motd_set by=Админ text=\"Турнир по Перевороту в субботу\"") == 1, log
    assert "event=news_posted by=Админ number=1 title=Турнир" in log

    # After a restart: the admin's MOTD and every read mark are still there.
    assert srv.terminate() == 0
    srv = server_factory(NOTICES)
    boris = await person(srv, "ssh", "Boris")
    await boris.expect("Tavern notice: Турнир по Перевороту в субботу")
    await _absent(boris, "unread")
    admin = await person(srv, "telnet", "Админ", create=False)
    await admin.expect("Объявление корчмы: Турнир по Перевороту в субботу")
    admin.send_line("объявление")
    await admin.expect(re.compile(r"\(Задано администратором: Админ, \d{4}-\d\d-\d\d \d\d:\d\d UTC\."))
    admin.send_line("объявление убрать")
    await admin.expect("снова показывается объявление из config.toml: Добро пожаловать в корчму")
    admin.send_line("объявление убрать")
    await admin.expect("Администраторы объявления не задавали")
    olha = await person(srv, "telnet", "Ольга", create=False)
    await olha.expect("Оголошення корчми: Добро пожаловать в корчму")
    for client in (admin, boris, olha):
        await client.close()
    assert "event=motd_cleared by=Админ" in srv.log()


@pytest.mark.parametrize(("lang", "lines"), [
    ("ru", {1: "Есть 1 непрочитанная новость", 3: "Есть 3 непрочитанные новости",
            5: "Есть 5 непрочитанных новостей", 21: "Есть 21 непрочитанная новость"}),
    ("uk", {1: "Є 1 непрочитана новина", 2: "Є 2 непрочитані новини", 11: "Є 11 непрочитаних новин"}),
    ("en", {1: "There is 1 unread news item", 2: "There are 2 unread news items"}),
])
def test_unread_news_at_login_agrees_with_its_number(lang, lines):
    for n, start in lines.items():
        assert strip_marks(t(lang, "news.unread_at_login", n=n)).startswith(start)


BOARD = """
[accounts]
admins = ["Админ"]
[limits]
commands_per_second = 50
command_burst = 50
[board]
note_length = 60
page_size = 3
posts_per_window = 5
post_window = 3600
"""


async def test_board_paging_replies_deletes_ignore_and_limits_over_telnet_and_ssh(server_factory):
    srv = server_factory(BOARD)
    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "ssh", "Boris", lang="en")
    mod = await person(srv, "telnet", "Мод", lang="uk")
    admin = await person(srv, "telnet", "Админ")
    admin.send_line("role Мод moderator")
    await admin.expect("модератор")

    anna.send_line("доска")
    await anna.expect("На доске пока пусто.")
    # Seven notes from two doors: three pages of three, newest first.
    for i in range(1, 5):
        anna.send_line(f"доска написать Записка {i} от Анны")
        await anna.expect(f"Записка #{i} на доске.")
    for i in range(5, 8):
        boris.send_line(f"board post Mafia on Friday at 20:00, who's in? ({i})")
        await boris.expect(f"Note #{i} is on the board.")
    boris.send_line("board")
    await boris.expect("Board: page 1 of 3, 7 notes in all.")
    page1 = await boris.expect(re.compile(r"#7 Boris.*#6 Boris.*#5 Boris.*More: board 2\.", re.S))
    assert "#4" not in page1
    anna.send_line("доска 2")
    await anna.expect("Доска: страница 2 из 3, всего 7 записок.")
    page2 = await anna.expect(re.compile(r"#4 Анна.*#3 Анна.*#2 Анна.*Дальше: доска 3\.", re.S))
    assert "#5" not in page2 and "#1 " not in page2
    anna.send_line("доска 3")
    page3 = await anna.expect(re.compile(r"страница 3 из 3.*#1 Анна \(\d\d\.\d\d \d\d:\d\d UTC\): Записка 1 от Анны",
                                         re.S))
    assert "Дальше" not in page3
    anna.send_line("доска 4")
    await anna.expect("Страницы 4 нет (последняя — 3).")

    # Replies: over either door; the author hears of one; a reply to a reply joins the thread.
    anna.send_line("доска ответить 7 Я в деле!")
    await anna.expect("Ваш ответ #8 на записку #7 на доске.")
    await boris.expect("A reply to your note #7 from Анна: Я в деле!")
    mod.send_line("дошка відповісти 8 І я")
    await mod.expect("Ваша відповідь #9 на записку #7 на дошці.")
    boris.send_line("board read 7")
    await boris.expect(re.compile(r"#7 Boris.*\(7\)\s+↳ #8 Анна \([^)]*\): Я в деле!\s+↳ #9 Мод \([^)]*\): І я", re.S))
    boris.send_line("board")
    await boris.expect(re.compile(r"#7 Boris [^\n]*\[2 replies\]"))

    # Limits: an over-long note, one clear line; the flood guard (five posts an hour each).
    long_note = "x" * 61
    boris.send_line(f"board post {long_note}")
    await boris.expect("That note is too long: 60 characters at most (yours has 61).")
    anna.send_line("доска написать седьмая за час")
    await anna.expect("Слишком часто: не больше 5 записей за 1 час. Следующую запись можно через")
    boris.send_line("board post")
    await boris.expect("board post TEXT: a new note")

    # Ignoring Boris hides his notes and replies from Анна, and counts them out of the pages.
    anna.send_line("игнор Boris")
    await anna.expect("Вы больше не слышите")
    boris.send_line("board reply 2 Boris was here")
    await boris.expect("Your reply #10 to note #2 is on the board.")
    anna.send_line("доска")
    hidden = await anna.expect(re.compile(r"страница 1 из 2, всего 4 записки\..*#4 Анна.*#3 Анна.*#2 Анна", re.S))
    assert "Boris" not in hidden
    assert "Boris" not in anna.text_since_mark()
    anna.send_line("доска читать 2")
    await anna.expect("Ответов пока нет.")
    anna.send_line("доска читать 7")
    await anna.expect("Записки #7 на доске нет.")
    anna.send_line("слушать Boris")
    await anna.expect("Вы снова слышите")

    # Away, Boris hears at his next login of the replies that came to his notes meanwhile.
    await boris.close()
    await mod.expect("Boris виходить із корчми.")  # his last visit is recorded by then
    mod.send_line("дошка відповісти 5 Прийду")
    await mod.expect("Ваша відповідь #11 на записку #5 на дошці.")
    boris = await person(srv, "ssh", "Boris")
    await boris.expect("There is 1 new reply to your notes: board.")

    # Deleting: one's own; not another's; a moderator anyone's (audited, the author told).
    anna.send_line("доска удалить 7")
    await anna.expect("Запись #7 — не ваша")
    await anna.expect("удалить её может только автор или модератор.")
    boris.send_line("board delete 6")
    await boris.expect("#6 is deleted.")
    mod.send_line("дошка видалити 7")
    await mod.expect("Записку #7 видалено разом із 2 відповідями.")
    await boris.expect("Your #7 on the board was deleted by a moderator: Мод.")
    boris.send_line("board read 8")  # the replies went with the note
    await boris.expect("There is no note #8 on the board.")
    anna.send_line("доска")
    await anna.expect("всего 5 записок")
    # A subcommand typed wrong gets "did you mean", in the words it was typed with; nonsense the usage.
    anna.send_line("доска удлить 5")
    await anna.expect("Нет такой подкоманды: удлить. Может быть, вы имели в виду: доска удалить?")
    boris.send_line("board delet 5")
    await boris.expect("No such subcommand: delet. Did you mean: board delete?")
    mod.send_line("дошка видалти 5")
    await mod.expect("Немає такої підкоманди: видалти. Можливо, ви мали на увазі: дошка видалити?")
    boris.send_line("board xyzzy")
    await boris.expect("board [PAGE]")
    admin.send_line("новости опубликоват Тест | текст")
    await admin.expect("Может быть, вы имели в виду: новости опубликовать?")

    # A note is cleaned like all player text: no bidi override, no invisible characters.
    mod.send_line("дошка написати Мафія\u202e сьогодні\u200b  о 21:00")
    await mod.expect("Записка #12 на дошці.")
    anna.send_line("доска читать 12")
    await anna.expect(re.compile(r"#12 Мод.*\(\d\d\.\d\d \d\d:\d\d UTC\): Мафія сьогодні о 21:00\r?\n", re.S))
    assert "\u202e" not in anna.text and "\u200b" not in anna.text
    for client in (anna, boris, mod, admin):
        await client.close()
    log = srv.log()
    assert "event=board_delete by=Мод name=Boris number=7" in log
    assert log.count("event=board_delete") == 1  # an own delete is not moderation
