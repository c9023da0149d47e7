"""Your own shortcuts over the wire: defined on telnet, kept in the database, used on SSH after
logging in again; loops, built-in names, passwords and the limits refused; a loop that stored
rows hold stopped at run time; expanded lines pay the flood guard as typed ones do."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.wire import person, said

# The test types many commands quickly, each waiting for its answer: a high rate keeps the flood
# guard out of the way until the end, where a burst past command_burst is the point.
CONFIG = """
[limits]
commands_per_second = 20
command_burst = 40
aliases_per_account = 8
alias_length = 40
"""


def _store_loop(server, name: str) -> None:
    """Two rows that call each other, as no `alias` command would store them (an older version,
    a hand edit): the run-time guard must hold all the same."""
    db = sqlite3.connect(Path(server.data_dir) / "korchma.sqlite3", timeout=10)
    try:
        (account_id,) = db.execute("SELECT id FROM account WHERE name = ?", (name,)).fetchone()
        for alias, text in (("петля", "кольцо"), ("кольцо", "петля раз")):
            db.execute("INSERT INTO alias (account_id, name, name_key, text, created_at) "
                       "VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)", (account_id, alias, alias, text))
        db.commit()
    finally:
        db.close()


async def test_aliases_defined_on_telnet_work_on_ssh_and_loops_are_refused(server_factory):
    server = server_factory(CONFIG)
    anna = await person(server, "telnet", "Анна")
    anna.send_line("сокращение")
    await anna.expect("У вас нет сокращений")

    anna.send_line("сокращение пр сказать Привет всем")
    await anna.expect(said("Сокращение пр = «сказать Привет всем»"))
    anna.send_line("пр и тебе")  # the rest of the line goes at the end
    await anna.expect(said("Вы говорите: «Привет всем и тебе»"))
    anna.send_line("сокращение бк say $2, потом $1")
    await anna.expect(said("Сокращение бк = «say $2, потом $1»"))
    anna.send_line("БК раз два")  # names are compared as verbs are: case ignored
    await anna.expect(said("Вы говорите: «два, потом раз»"))

    # Loops, directly or through another alias, and chains deeper than the guard: refused.
    anna.send_line("сокращение сам сам")
    await anna.expect(said("Сокращение «сам» вызывало бы само себя"))
    anna.send_line("alias a1 b1")
    await anna.expect(said("Сокращение a1 = «b1»"))
    anna.send_line("alias b1 a1 x")
    await anna.expect(said("Сокращение «b1» вызывало бы само себя"))
    anna.send_line("alias b1 пр z")
    await anna.expect(said("Сокращение b1 = «пр z»"))
    for outer, inner in (("c1", "a1"), ("d1", "c1")):  # d1 c1 a1 b1 пр: 5 deep, the most
        anna.send_line(f"alias {outer} {inner}")
        await anna.expect(said(f"Сокращение {outer} ="))
    anna.send_line("alias e1 d1")
    await anna.expect(said("Сокращение «e1» разворачивается глубже 5 уровней: не сохранено"))
    anna.send_line("d1 ok")
    await anna.expect(said("Вы говорите: «Привет всем z ok»"))

    # Built-ins win; an abbreviation of one may be taken; no passwords; the limits.
    anna.send_line("сокращение кто сказать х")
    await anna.expect(said("«кто» — это команда, а команды главнее сокращений"))
    anna.send_line("alias пароль1 password old new")
    await anna.expect(said("пароли в сокращениях не хранятся"))
    anna.send_line("alias длинное " + "я" * 41)
    await anna.expect(said("Текст сокращения длиннее 40 символов"))
    anna.send_line("сокращение wh сказать кто здесь?")
    await anna.expect(said("Раньше «wh» было началом команды «who»; теперь это ваше сокращение"))
    anna.send_line("wh")
    await anna.expect(said("Вы говорите: «кто здесь?»"))
    anna.send_line("alias ещё1 say more")  # the eighth: the limit
    await anna.expect(said("Сокращение ещё1 = «say more»"))
    anna.send_line("alias ещё2 say more")
    await anna.expect(said("У вас уже 8 сокращений: больше нельзя"))
    anna.send_line("alias пр say Здрав\u200bствуйте")  # replacing one is no new one; cleaned
    await anna.expect(said("Сокращение пр заменено"))
    anna.send_line("alias 'x say")
    await anna.expect(said("Имя сокращения «'x» не подходит"))
    anna.send_line("сокращение бк")  # a name alone: that alias
    await anna.expect(said("бк = say $2, потом $1"))
    anna.send_line("удалить сокращение сам")  # the Russian verb is two words, like «не верю»
    await anna.expect(said("Сокращения «сам» у вас нет"))
    anna.send_line("quit")
    await anna.close()

    _store_loop(server, "Анна")
    anna = await person(server, "ssh", "Анна", lang="en")
    anna.send_line("пр from ssh")
    await anna.expect(said("You say: «Здравствуйте from ssh»"))
    anna.send_line("alias")
    await anna.expect(said("Your aliases (10 aliases of 8):"))
    await anna.expect(said("бк = say $2, потом $1"))
    await anna.expect(said("пр = say Здравствуйте"))  # stored without the zero-width space
    anna.send_line("петля")
    await anna.expect(said("The alias \"петля\" calls itself: the line was not run."))
    anna.send_line("unalias ПР")
    await anna.expect(said("Alias пр removed."))
    anna.send_line("пр again")
    await anna.expect(said("No such command: пр"))

    # Expanded lines pay the flood guard as typed ones do: a burst of them gets the warning.
    anna.send_line("\n".join(["бк a b"] * 60))
    await anna.expect("Slow down")
    await anna.close()
