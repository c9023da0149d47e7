"""The inbox in folders (world/inbox.py, commands/inbox.py), over telnet and SSH, after a real
game of bots the two readers were away from: their personal tells outlast the game's news and
come first; the login sums the game up instead of printing it; `inbox table N` and `inbox news`
page through it; `inbox clear`; items past `[inbox] retention_days` are gone at the next login.

The game is Coup for three (the three people's seats, each played by a bot once they get up):
the cheapest real game that leaves far more than a page (20) of news in an away reader's
inbox, in a few seconds."""
from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.wire import FINISHED, open_table, person
from world.i18n import strip_marks, t

STAMP = r"\[\d\d\.\d\d \d\d:\d\d UTC\]"


def say(lang: str, key: str, **params: Any) -> str:
    return strip_marks(t(lang, key, **params))


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def database(server: Any) -> sqlite3.Connection:
    return sqlite3.connect(Path(server.data_dir) / "korchma.sqlite3", timeout=10)


def counts(server: Any, name: str) -> dict[str, int]:
    """The account's items as the database holds them: tells, news, unread news."""
    db = database(server)
    try:
        (account_id,) = db.execute("SELECT id FROM account WHERE name = ?", (name,)).fetchone()
        one = lambda where: db.execute(f"SELECT count(*) FROM inbox_item WHERE account_id = ? AND {where}",  # noqa: E731
                                       (account_id,)).fetchone()[0]
        return {"tells": one("kind = 'tell'"), "news": one("kind != 'tell'"),
                "unread": one("kind != 'tell' AND delivered = 0")}
    finally:
        db.close()


async def settled(server: Any, name: str) -> dict[str, int]:
    """The counts once no more items arrive (the end of a game is followed by its reveal)."""
    last = counts(server, name)
    while True:
        await asyncio.sleep(0.5)
        now = counts(server, name)
        if now == last:
            return now
        last = now


def age_one_tell(server: Any, name: str, days: int) -> None:
    """Make the account's oldest tell ``days`` old, as time would."""
    db = database(server)
    try:
        when = (datetime.now(UTC) - timedelta(days=days)).isoformat(sep=" ")
        db.execute("UPDATE inbox_item SET created_at = ? WHERE id = (SELECT min(i.id) FROM inbox_item i "
                   "JOIN account a ON a.id = i.account_id WHERE a.name = ? AND i.kind = 'tell')", (when, name))
        db.commit()
    finally:
        db.close()


async def read_page(client: Any, header: str, lang: str) -> str:
    """The lines of one page: from its header to its page line (a folder longer than a page)."""
    await client.expect(header, timeout=10)
    start = client.mark
    await client.expect(re.compile(re.escape(say(lang, "inbox.page", number=0, pages=0, more="").split(" ")[0])
                                   + r" \d+ \S+ \d+; [^\n]*\n"), timeout=10)
    return client.text[start:client.mark]


async def test_tells_outlast_a_long_game_and_its_news_pages_over_telnet_and_ssh(server_factory):
    srv = server_factory("[inbox]\nretention_days = 90\nlogin_lines = 20")
    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "telnet", "Boris", lang="en")
    vera = await person(srv, "ssh", "Віра", lang="uk")
    number = await open_table(anna, "открыть переворот seats=3 turn=10 reaction=5")
    for client, word in ((boris, "join"), (vera, "сісти")):
        client.send_line(f"{word} {number}")
        await client.expect(str(number))
    # Two personal tells to each before the game (read live: still theirs to keep).
    for target, client in (("Boris", boris), ("Віра", vera)):
        for text in ("первое письмо", "второе письмо"):
            anna.send_line(f"шепнуть {target} {text} для {target}")
            await client.expect(f"{text} для {target}")
    anna.send_line("начать")
    await anna.expect("Мастер шепчет: ваши карты", timeout=10)
    # Everyone gets up (a bot plays each seat at once) and the two readers go away.
    for client, (leave, bye) in ((boris, ("leave", "quit")), (vera, ("піти", "вихід"))):
        client.send_line(leave)
        client.send_line(bye)
        await asyncio.wait_for(client.closed.wait(), 10)
    anna.send_line("встать")
    anna.send_line(f"наблюдать {number}")
    await anna.expect(FINISHED, timeout=60)

    boris_box, vera_box = await settled(srv, "Boris"), await settled(srv, "Віра")
    for box in (boris_box, vera_box):
        assert box["tells"] == 2 and box["news"] > 40 and box["unread"] == box["news"], box

    # The login sums the game up in one line and does not print it.
    boris = await person(srv, "telnet", "Boris", lang="en", create=False)
    vera = await person(srv, "ssh", "Віра", lang="uk")
    for client, lang, box in ((boris, "en", boris_box), (vera, "uk", vera_box)):
        game = say(lang, "game.coup")
        line = say(lang, "inbox.folder_unread", number=number, game=game, n=box["news"], unread=box["news"])
        client.mark = 0
        await client.expect(say(lang, "inbox.waiting_header"), timeout=10)
        await client.expect(line.strip())
        await client.settle(0.3)
        assert say(lang, "inbox.missed_header", n=1).split(",")[0] not in client.text, client.text[-3000:]

    # `inbox`: the two tells first, then the news by table, nothing read yet.
    boris.mark_here()
    boris.send_line("inbox")
    await boris.expect(say("en", "inbox.tells_header", n=2, unread=0))
    start = boris.mark
    await boris.expect(say("en", "inbox.news_header"))
    tells_part = boris.text[start:boris.mark]
    assert tells_part.find("второе письмо для Boris") < tells_part.find("первое письмо для Boris"), tells_part
    await boris.expect(say("en", "inbox.folder_unread", number=number, game="Coup", n=boris_box["news"],
                           unread=boris_box["news"]).strip())

    # `inbox table N`, then its page 2: the newest page first, each page in time order, new ones marked.
    boris.send_line(f"inbox table {number}")
    page = await read_page(boris, say("en", "inbox.table_header", number=number, n=boris_box["news"]), "en")
    assert len(re.findall(STAMP + " new ", page)) == 20, page
    assert f"earlier: inbox table {number} 2" in flat(page)
    assert re.search(r"wins!", flat(page)), page  # the newest page ends with the game's end
    boris.send_line(f"inbox table {number} 2")
    page = await read_page(boris, say("en", "inbox.table_header", number=number, n=boris_box["news"]), "en")
    assert len(re.findall(STAMP + " new ", page)) == min(20, boris_box["news"] - 20), page
    assert "Page 2 of" in page
    assert counts(srv, "Boris")["unread"] == boris_box["news"] - 20 - min(20, boris_box["news"] - 20)
    boris.send_line("inbox 9")
    await boris.expect(say("en", "inbox.no_such_page", number=9, pages=1))

    # Vera (SSH, Ukrainian): `пошта новини` and its page 2 list every table's news with its number.
    vera.mark_here()
    vera.send_line("пошта новини")
    page = await read_page(vera, say("uk", "inbox.news_list_header", n=vera_box["news"]), "uk")
    assert len(re.findall(STAMP + rf" нове Стіл {number}: ", page)) == 20, page
    assert "раніші: пошта новини 2" in flat(page)
    vera.send_line("пошта новини 2")
    await read_page(vera, say("uk", "inbox.news_list_header", n=vera_box["news"]), "uk")
    assert counts(srv, "Віра")["unread"] == vera_box["news"] - 40
    assert counts(srv, "Boris")["unread"] == boris_box["news"] - 40  # hers are hers: his did not change

    # `inbox clear`: all his news and his read tells go; hers stay.
    boris.send_line("inbox clear")
    await boris.expect(say("en", "inbox.cleared", news=boris_box["news"], tells=2))
    boris.send_line("inbox")
    await boris.expect(say("en", "inbox.empty"))
    assert counts(srv, "Віра") == {**vera_box, "unread": vera_box["news"] - 40}
    # `пошта очистити стіл N`: only that table's news; her tells stay.
    vera.send_line(f"пошта очистити стіл {number}")
    await vera.expect(say("uk", "inbox.cleared_table", number=number, news=vera_box["news"]))
    vera.send_line("пошта")
    await vera.expect(say("uk", "inbox.tells_header", n=2, unread=0))
    await vera.settle(0.3)
    assert say("uk", "inbox.news_header") not in vera.text[vera.mark:]

    # Retention: her first tell made 91 days old is gone at her next login; the other stays.
    age_one_tell(srv, "Віра", 91)
    vera.send_line("вихід")
    await vera.wait_closed(10)
    vera = await person(srv, "ssh", "Віра", lang="uk")
    vera.send_line("пошта")
    await vera.expect(say("uk", "inbox.tells_header", n=1, unread=0))
    await vera.expect("второе письмо для Віра")
    assert "первое письмо" not in vera.text
    for client in (anna, boris, vera):
        await client.close()
