"""Grammar through the catalogs (issue 14), over real telnet and SSH connections.

- Names in the case a line needs, from the morphology dictionary: «Вы шепчете Фёдору», «Ви
  шепочете Анні»; typed names read back in any case («шепнуть фёдору», «почта павлу»), an exact
  name still first, a case form that fits two players asks.
- Options and games in the reader's language: `открыть переворот ход=30` is `turn=30`, table
  lists show «ход=30», «шёпот=нет» (never True/False), a typo gets "did you mean".
- Mafia: `готов` answers; a refused target says its one reason.
"""
from __future__ import annotations

import re

from tests import ssh_client
from tests.telnet_client import log_in
from tests.wire import open_table


def words(text: str) -> re.Pattern[str]:
    """``text`` as a pattern that allows the server's line wrapping between its words."""
    return re.compile(r"\s+".join(re.escape(w) for w in text.split()))


async def test_whispers_name_the_addressee_in_the_dative_and_read_any_case(server):
    анна = await log_in(server.telnet_port, "Анна")
    фёдор = await ssh_client.connect(server.ssh_port, "Фёдор", "secret1")
    await фёдор.expect("Добро пожаловать")
    даша = await log_in(server.telnet_port, "Даша")
    оксана = await log_in(server.telnet_port, "Оксана")
    оксана.send_line("мова uk")
    await оксана.expect("Мова: українська")

    # On main: «Никого не зовут фёдору.» (the dative was no name), and «Вы шепчете Фёдор».
    анна.send_line("шепнуть фёдору привет")
    await анна.expect("Вы шепчете Фёдору: «привет»")
    await фёдор.expect("Анна шепчет вам: «привет»")
    фёдор.send_line("шепнуть даше как дела")  # over SSH, a feminine name in the dative
    await фёдор.expect("Вы шепчете Даше: «как дела»")
    await даша.expect("Фёдор шепчет вам: «как дела»")
    оксана.send_line("шепнути анні вітаю")  # a Ukrainian dative, read by the Ukrainian dictionary
    await оксана.expect("Ви шепочете Анні: «вітаю»")
    await анна.expect("Оксана шепчет вам: «вітаю»")

    # Федора comes online: «федору» is the dative of both, so nobody is chosen and Анна is asked.
    федора = await log_in(server.telnet_port, "Федора")
    анна.send_line("шепнуть федору кому-то")
    await анна.expect(re.compile(r"федору — это может быть: (Фёдор, Федора|Федора, Фёдор)\. Кого вы имеете в виду"))
    # An exact name beats a case form: «Федора» is her, though it is also Фёдор's genitive.
    анна.send_line("шепнуть Федора точно-ей")
    await анна.expect("Вы шепчете Федоре: «точно-ей»")
    await федора.expect("Анна шепчет вам: «точно-ей»")
    await фёдор.settle(0.5)
    assert "кому-то" not in фёдор.text and "точно-ей" not in фёдор.text
    for client in (анна, даша, оксана, федора):
        await client.close()
    await фёдор.close()


async def test_options_and_games_read_and_shown_in_the_readers_language(server):
    анна = await log_in(server.telnet_port, "Анна")
    boris = await ssh_client.connect(server.ssh_port, "Boris", "secret1")
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")

    анна.send_line("открыть")  # the games by their names in the reader's language
    await анна.expect(words("Игры: Торги, Переворот, Мафия, Революция, Шептуны."))
    анна.send_line("открыть переворот ходд=30")  # a typo
    await анна.expect(words("У игры «Переворот» нет параметра ходд. Может быть, вы имели в виду: ход?"))
    анна.send_line("открыть переворот ход=5")  # a bad value: the option by its Russian name
    await анна.expect(words("Неверный параметр ход=5. Параметры: роль=advisor|investigator, "
                            "порядок_вызовов=seat|first, допрос=choose|always_swap, ход=10..3600, реакция=5..600."))
    boris.send_line("open coup turnn=30")
    await boris.expect(words("Coup has no option turnn. Did you mean: turn?"))
    # Russian option names are the game's options (on main: «Неверный параметр ход=30»).
    coup = await open_table(анна, "открыть переворот ход=30 реакция=10 места=3")
    анна.send_line("столы")
    await анна.expect(re.compile(rf"№{coup}\s+Переворот\s+\[[^\]]*реакция=10[^\]]*ход=30[^\]]*\]\s+1/3"))
    # Mafia's `tell` is a yes/no option: shown as a word in each language, never False.
    mafia = await open_table(boris, "open mafia шёпот=да night=10m")
    boris.send_line("tables")
    await boris.expect(re.compile(rf"#{coup}\s+Coup\s+\[[^\]]*reaction=10[^\]]*turn=30[^\]]*\]"))
    await boris.expect(re.compile(rf"#{mafia}\s+Mafia\s+\[[^\]]*tell=yes[^\]]*\]"))
    анна.send_line("столы")
    await анна.expect(re.compile(rf"№{mafia}\s+Мафия\s+\[[^\]]*ночь=600[^\]]*шёпот=да[^\]]*\]"))
    for text in (анна.text, boris.text):
        assert not re.search(r"\b(True|False|None)\b", text), text[-2000:]
    await анна.close()
    await boris.close()


async def test_mafia_ready_answers_and_a_refused_target_says_why(server):
    анна = await log_in(server.telnet_port, "Анна")
    павел = await ssh_client.connect(server.ssh_port, "Павел", "secret1")
    await павел.expect("Добро пожаловать")
    boris = await ssh_client.connect(server.ssh_port, "Boris", "secret1")
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")
    number = await open_table(анна, "открыть мафия ночь=10m день=10m")
    for client in (павел, boris):
        client.send_line(f"сесть {number}")
        await client.expect(re.compile(rf"(Вы садитесь за стол|You sit down at table) {number}"))
    анна.send_line("боты 2")
    await анна.expect("За стол садятся 2 бота")
    анна.send_line("начать")
    await анна.expect("Начинается «Мафия»", timeout=15)
    await павел.expect("Наступает ночь", timeout=15)

    # A name in the dative finds the seat (on main the cut stem «павл» named nobody).
    анна.send_line("почта павлу встретимся у мельницы")
    await анна.expect("Заявка принята: Почта → Павел.")
    # `готов` says it counted (on main it said nothing until the phase ended).
    анна.send_line("готов")
    await анна.expect(words("Вы готовы. Новая заявка или отмена снимет готовность."))
    # A refused target: the one reason, not every rule there is.
    павел.send_line("почта Павел себе самому")
    await павел.expect(words("Почта: цель Павел выбрать нельзя — на себя нельзя."))
    boris.send_line("mail Boris to myself")
    await boris.expect(words("Mail: you cannot choose Boris — not on yourself."))
    boris.send_line("ready")  # Павел is not ready yet: the night goes on
    await boris.expect(words("You are ready. A new order or a cancel makes you not ready."))
    await анна.close()
    await павел.close()
    await boris.close()
