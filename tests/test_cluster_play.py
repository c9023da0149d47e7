"""Playing at a table another node runs (issue 19, part 3; docs/cluster.md "Playing across
nodes"): three real server processes on one PostgreSQL and one Valkey. Анна on node A (telnet,
Russian) opens Coup with bots; Boris on node B (SSH, English; his GMCP on a telnet session of his
own on B) joins it; Віра on node C (telnet, Ukrainian) watches it. They play, typing real moves,
to the end; each whisper reaches its own player's sessions only, on their node only (texts and
GMCP compared). Then a second game, and A is killed (SIGKILL) mid-game: B or C takes the table,
Boris and Віра are told once and play on to the end, the log is whole, and Анна, back on
the node that did not take the table, finds her seat there (attached to the new owner)."""
from __future__ import annotations

import asyncio
import re

from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.test_cluster_failover import NODE, assert_whole_log, log_authors, log_rows, until
from tests.test_coup_flow import Player
from tests.valkey import valkey  # noqa: F401  (fixture)
from tests.wire import FINISHED, open_table, person

MOVED = {"en": "Table {n} has moved to another server of the tavern", "uk": "Стіл {n} переїхав на інший сервер таверни"}
WHISPER = re.compile(r"whispers|шепчет|шепоче")


async def company(a, b, c):
    anna = await person(a, "telnet", "Анна", gmcp=True)
    boris = await person(b, "ssh", "Boris", lang="en", width=120)
    boris_eyes = await person(b, "telnet", "Boris", lang="en", gmcp=True, create=False)
    vera = await person(c, "telnet", "Віра", lang="uk", gmcp=True)
    return anna, boris, boris_eyes, vera


async def seat_and_start(anna, boris, vera) -> int:
    number = await open_table(anna, "открыть переворот seats=3")
    boris.send_line(f"join {number}")  # a table of node A, typed on node B
    await boris.expect(f"You sit down at table {number}")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    vera.send_line(f"спостерігати {number}")  # on node C
    await vera.expect(f"Ви спостерігаєте за столом {number}")
    anna.send_line("начать")
    await boris.expect("Coup begins", timeout=10)
    await vera.expect("Починається «Переворот»", timeout=10)
    return number


def whispers_only_to_their_seat(client, seat: int) -> None:
    for name, data in client.gmcp_messages:
        if name == "Korchma.Game.Event" and data.get("whisper"):
            assert data["params"].get("seat") in (seat, None), data
        if name == "Korchma.Game.View" and seat is None:
            assert "hand" not in data["view"]


async def test_players_on_three_nodes_play_at_one_table_and_survive_its_owner(
        server_factory, tmp_path, pg_database, valkey):
    a, b, c = (server_factory(NODE.format(db=pg_database, redis=valkey.url, name=n, bot_delay=0.05), data_dir=tmp_path / n)
               for n in ("a", "b", "c"))
    anna, boris, boris_eyes, vera = await company(a, b, c)

    # Game 1: everyone plays to the end at A's table.
    number = await seat_and_start(anna, boris, vera)
    assert f"table {number}: taken by node a" in a.log()
    boris.hand = await boris.expect(re.compile(r"The Master whispers: your cards are \w+, \w+"), timeout=10)
    loop = asyncio.get_running_loop()
    players = [Player("Анна", "ru", anna, anna, 1), Player("Boris", "en", boris, boris_eyes, 2)]
    await asyncio.gather(*(p.play(loop.time() + 120) for p in players))
    for client in (anna, boris, vera):
        await client.expect(FINISHED, timeout=15)
    assert players[1].awaitings > 0  # Boris typed real moves on B, answered at A
    assert "Мастер шепчет: ваши карты" in anna.text and "шепче" not in vera.text
    assert len(re.findall(r"your cards are", boris.text)) >= 1 and "шепчет" not in boris.text
    assert WHISPER.search(vera.text) is None  # a watcher hears no whisper
    seat_of = {name: i for i, name in enumerate(players[0].names())}
    whispers_only_to_their_seat(anna, seat_of["Анна"])
    whispers_only_to_their_seat(boris_eyes, seat_of["Boris"])
    whispers_only_to_their_seat(vera, None)
    assert not any(name == "Korchma.Game.Event" and data.get("whisper") for name, data in vera.gmcp_messages)
    # The game's end is not the end of their evening: out of the table, back in their own halls.
    for client, word in ((boris, "leave"), (vera, "піти"), (anna, "встать")):
        client.send_line(word)
    for client, said in ((boris, "You stand up from table {n}."), (vera, "Ви встаєте з-за столу {n}."),
                         (anna, "Вы встаёте из-за стола {n}.")):
        await client.expect(said.format(n=number))
    boris.send_line("look")
    await boris.expect("The tavern hall")  # B's hall, run on B: not forwarded any more

    # Game 2: A dies mid-game.
    marks = {id(client): len(client.text) for client in (boris, vera)}
    number = await seat_and_start(anna, boris, vera)
    boris_player = Later("Boris", "en", boris, boris_eyes, 3)
    boris_play = asyncio.ensure_future(boris_player.play(loop.time() + 60))
    await until(lambda: _steps_at_least(pg_database, number, 4), 30, "four steps on A")
    before = await log_rows(pg_database, number)  # every step A acknowledged (it speaks after committing)
    a.kill9()
    await anna.close()
    vera.send_line("look")  # to A, dead: no answer, and she is told her line was not taken
    taker = await until(lambda: next((n for n in (b, c) if f"table {number}: its owner's lease had lapsed"
                                      in n.log()), None), 10, "B or C takes the table")
    boris_player.enough = boris_player.awaitings + 2  # two more moves of his, at the new owner
    other = c if taker is b else b  # Анна comes back on the node that did not take it: a remote seat
    anna = await person(other, "telnet", "Анна", gmcp=True, create=False)
    await anna.expect(f"Вы снова за столом {number}.", since_mark=False)
    await boris_play
    await vera.expect(f"Стіл {number} не відповів", since_mark=False, timeout=10)
    seat = boris_player.names().index("Boris")
    await until(lambda: _played_after(pg_database, number, len(before), seat), 10, "a move of Boris's at the new owner")
    for client, word in ((boris, "leave"), (anna, "встать")):  # the bots finish the game
        client.send_line(word)
    await vera.expect(FINISHED, timeout=30)  # the watcher sees the end (the others left: bots finished)
    for client, lang in ((boris, "en"), (vera, "uk")):  # told once, on the node they are on
        assert client.text[marks[id(client)]:].count(MOVED[lang].format(n=number)) == 1, client.text[marks[id(client)]:]
    after = await log_rows(pg_database, number)
    assert_whole_log(after)
    assert after[:len(before)] == before and len(after) > len(before)
    assert "Traceback" not in b.log() + c.log()
    for client in (anna, boris, boris_eyes, vera):
        await client.close()


class Later(Player):
    """A player of a second game on the same clients: over when that game is over."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.from_text, self.from_gmcp = len(self.eyes.text), len(self.eyes.gmcp_messages)
        self.enough: int | None = None  # stop after so many answers

    def over(self) -> bool:
        if self.enough is not None and self.awaitings >= self.enough:
            return True
        return any(name == "Korchma.Game.Event" and data.get("key") == self.winner_key
                   for name, data in self.eyes.gmcp_messages[self.from_gmcp:]) or bool(
            FINISHED.search(self.eyes.text[self.from_text:]))


async def _steps_at_least(db: str, number: int, count: int) -> bool:
    return len(await log_rows(db, number)) >= count


async def _played_after(db: str, number: int, start: int, seat: int) -> bool:
    rows, authors = await log_rows(db, number), await log_authors(db, number)
    return any(row[1] == seat and by == "player" for row, by in list(zip(rows, authors))[start:])
