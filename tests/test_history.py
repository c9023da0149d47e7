"""The games that ended (issue 18, History), over the wire: a whole game of «Торги» with a bot is
listed by `history`, `history NAME` and `history GAME` (telnet and SSH, Russian and English);
`game N` shows its seats (the bot marked), its result and times, and every seat's final hidden
cards, and is refused with one line while the game runs; a table closed before it began is no
game; `история чата` and `история зал` are still the chat's recall. (A broken table is listed as
broken: tests/test_broken_tables.py, where a table really breaks.)"""
from __future__ import annotations

import re

from tests.wire import FINISHED, open_table, person, said
from world.i18n import strip_marks, t

FAST = "[games.bids]\nseconds = 1\n[tables]\nafk_timeouts = 1\nbot_delay = 0.05\n"


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


def en(key: str, **params) -> str:
    return strip_marks(t("en", key, **params))


async def test_a_whole_game_in_history_and_its_summary(server_factory):
    srv = server_factory(FAST)
    anna = await person(srv, "telnet", "Анна", "ru")
    boris = await person(srv, "ssh", "Boris", "en")
    anna.send_line("сказать Сыграем?")
    await anna.expect("Сыграем?")
    # A table opened and closed before it began is no game.
    empty = await open_table(anna, "открыть переворот")
    anna.send_line("встать")
    await anna.expect("встаёт")
    number = await open_table(anna, "открыть торги rounds=3 seats=3")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    await anna.expect("ваши карты", timeout=10)
    # Running: nobody learns anything of it from `game N`, in one line.
    boris.mark_here()
    boris.send_line(f"game {number}")
    await boris.expect(en("history.not_ended", number=number))
    anna.send_line(f"партия {number}")
    await anna.expect(ru("history.not_ended", number=number))
    anna.send_line("история")
    await anna.expect(ru("history.empty"))
    # Nobody bids: each wait runs out (1 s), the seats go to bots, three rounds end the game.
    await anna.expect(FINISHED, timeout=40)
    await boris.expect(FINISHED, timeout=10)
    await anna.settle(0.5)

    line = re.compile(rf"№{number} [\d:. ]+«Торги», [^:]+: Анна, Boris, (Бот-\w+) — побед")
    for typed, header in (("история", ru("history.of_all")),
                          ("история Boris", ru("history.of_player", name="Boris")),
                          ("история торги", ru("history.of_game", game="Торги"))):
        anna.mark_here()
        anna.send_line(typed)
        await anna.expect(header)
        await anna.expect(said(ru("history.list_header", page=1, pages=1, n=1)))
        bot = re.search(r"Бот-\w+", await anna.expect(line)).group(0)
        assert f"№{empty} " not in anna.text_since_mark()
    anna.send_line("история переворот")
    await anna.expect(ru("history.empty"))
    for typed in ("history Анна", "history bids", "history"):
        boris.mark_here()
        boris.send_line(typed)
        await boris.expect(re.compile(rf"#{number} [\d:. ]+«Sealed Bids», [^:]+: Анна, Boris, {bot} — won by"))

    # The summary, in English over SSH: the seats, the bot marked, the result, times, the cards.
    boris.mark_here()
    boris.send_line(f"game {number}")
    await boris.expect(re.compile(rf"Game #{number}, «Sealed Bids»: (won by|no winner)"))
    await boris.expect(re.compile(r"Started [\d:. ]+, ended [\d:. ]+, lasted \d+ second"))
    await boris.expect("Seats (3):")
    await boris.expect(re.compile(rf"3\. {bot} \(bot\)"))
    await boris.expect("Cards on the table")
    await boris.settle(0.5)
    text = boris.text_since_mark()
    for name in ("Анна", "Boris", bot):  # every seat's score, unplayed cards and bids
        assert re.search(rf"{re.escape(name)}: \d+ points?; not played", text), (name, text)
    assert "Prizes" in text
    anna.mark_here()
    anna.send_line(f"партия {number}")
    await anna.expect(re.compile(rf"Партия №{number}, «Торги»"))
    await anna.expect(re.compile(rf"\d\. {bot} \(бот\)"))
    await anna.expect("Карты на стол")
    anna.send_line(f"партия {number + 50}")
    await anna.expect(ru("history.no_such", number=number + 50))
    anna.send_line("история Никтотакой")
    await anna.expect(said(ru("history.unknown", word="Никтотакой")))

    # The chat's recall keeps its words.
    anna.send_line("история зал")
    await anna.expect("Зал: последняя реплика")
    await anna.expect("Сыграем?")
    anna.send_line("история чата зал")
    await anna.expect("Зал: последняя реплика")
    await anna.close()
    await boris.close()
