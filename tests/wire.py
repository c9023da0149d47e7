"""What the games' wire tests share: the end-of-game line, the fixed text of "not understood"
messages, opening a table, and a person at a table who reads GMCP and types each answer.

A game's test subclasses :class:`WirePlayer` with its winner event, its way of choosing an
action and of typing it (``answer``), and any check of what GMCP showed (``check``).
"""
from __future__ import annotations

import asyncio
import random
import re
import string
from collections.abc import Callable, Iterable
from typing import Any

LANGS = ("en", "ru", "uk")
FINISHED = re.compile(r"Игра за столом \d+ окончена|Game over at table \d+|Гру за столом \d+ закінчено")


def said(text: str) -> re.Pattern[str]:
    """``text`` as the screen may wrap it (any run of spaces may be a line break)."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


def unique_prefix(name: str, names: list[str]) -> str:
    """The shortest start of ``name`` (3 letters at least) no other name begins with."""
    others = [n.casefold() for n in names if n != name]
    for size in range(3, len(name) + 1):
        prefix = name[:size]
        if not any(o.startswith(prefix.casefold()) for o in others):
            return prefix
    return name


def accusative(name: str) -> str:
    """A Russian accusative the way a player types it after «на»: Бориса, Анну, Бот-Афанасия
    (from the morphology dictionary, as the server reads it back: world/morph.py)."""
    from world import morph

    return morph.inflect("ru", name, "acc")


def literal_pieces(template: str) -> list[str]:
    """The fixed parts of a catalog template, markup and edge punctuation removed."""
    pieces = [lit for lit, *_ in string.Formatter().parse(template)]
    return [re.sub(r"</?[bygrcmd]?>", "", p).strip(" .,:;?!—-\n") for p in pieces]


def signatures(templates: Iterable[str]) -> set[str]:
    """The longest fixed part (8 characters or more) of each template: text that shows the
    message was sent, whatever filled it."""
    out = set()
    for template in templates:
        pieces = sorted(literal_pieces(template), key=len)
        if pieces and len(pieces[-1]) >= 8:
            out.add(pieces[-1])
    return out


def error_signatures(keys_of: Callable[[dict[str, Any]], Iterable[str]]) -> list[str]:
    """Signatures of the messages that mean "that command was not understood": the keys
    ``keys_of(catalog)`` names in each language, and the parser's unknown command."""
    from world.i18n import catalog

    out: set[str] = set()
    for lang in LANGS:
        cat = catalog(lang)
        keys = list(keys_of(cat)) + ["cmd.unknown", "cmd.unknown_suggest"]
        out |= signatures(cat[key] for key in keys)
    return sorted(out)


def assert_understood(text: str, who: str, signatures: Iterable[str]) -> None:
    for signature in signatures:
        at = text.find(signature)
        assert at < 0, (f"{who}: a command was not understood ({signature!r}); around it:\n"
                        f"{text[max(0, at - 2500):at + 500]}")


# The host's own line (tables.opened): not any later line that names a table (a late line of the
# host's last table once matched and gave its number).
OPENED = re.compile(r"(?:Вы открываете стол|You open table|Ви відкриваєте стіл) (\d+)")


async def open_table(host: Any, command: str) -> int:
    host.send_line(command)
    found = await host.expect(OPENED)
    return int(re.search(r"\d+", found).group(0))


async def company(server: Any, wide: bool = False) -> tuple[Any, Any, Any, Any]:
    """The people of a whole-game test: Анна (telnet, Russian, GMCP); Boris, who types over SSH in
    English and reads GMCP on a telnet session of his own; a Ukrainian guest (telnet, GMCP).
    ``wide``: 250-column terminals. Returns (anna, boris, boris_eyes, guest)."""
    from tests.ssh_client import connect
    from tests.telnet_client import log_in

    screen = {"naws": (250, 50)} if wide else {}
    anna = await log_in(server.telnet_port, "Анна", gmcp=True, **screen)
    boris = await connect(server.ssh_port, "Boris", password="secret1", width=250 if wide else 100)
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")
    boris_eyes = await log_in(server.telnet_port, "Boris", create=False, gmcp=True, **screen)
    guest = await log_in(server.telnet_port, "Гость", gmcp=True, **screen)
    guest.send_line("мова uk")
    await guest.expect("Мова: українська")
    return anna, boris, boris_eyes, guest


async def sit_down_and_start(anna: Any, boris: Any, guest: Any, command: str, bots: int) -> int:
    """Анна opens the table with ``command``, Boris joins, Анна seats 2-4 bots, the guest watches,
    and Анна starts. Returns the table's number."""
    number = await open_table(anna, command)
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line(f"боты {bots}")
    await anna.expect(f"За стол садятся {bots} бота")
    guest.send_line(f"watch {number}")
    await guest.expect(f"{number}")
    anna.send_line("начать")
    return number


def seat_names(gmcp_messages: list[tuple[str, Any]], number: int) -> list[str]:
    """Table ``number``'s seats by name, from the latest Korchma.Table that lists it."""
    for name, data in reversed(gmcp_messages):
        if name == "Korchma.Table":
            for table in data["tables"]:
                if table["number"] == number:
                    return [s["name"] for s in sorted(table["seats"], key=lambda s: s["number"])]
    raise AssertionError(f"no Korchma.Table lists table {number}")


class WirePlayer:
    """A person at the table: ``typer`` types (telnet or SSH), ``eyes`` reads GMCP (telnet)."""

    winner_key = ""  # the game's winner event, e.g. "coup.winner"

    def __init__(self, name: str, lang: str, typer: Any, eyes: Any, seed: int) -> None:
        self.name, self.lang, self.typer, self.eyes = name, lang, typer, eyes
        self.rng = random.Random(seed)
        self.sent: list[tuple[dict[str, Any], str]] = []
        self.awaitings = 0
        self.last_sent = 0.0  # (loop time) for before_sending's pace
        self.from_message = 0  # the GMCP messages before this one are not answered (an earlier game's)

    def over(self) -> bool:
        return any(name == "Korchma.Game.Event" and data.get("key") == self.winner_key
                   for name, data in self.eyes.gmcp_messages) or bool(FINISHED.search(self.eyes.text))

    def latest(self, package: str, before: int | None = None) -> tuple[int, Any] | tuple[None, None]:
        msgs = self.eyes.gmcp_messages
        end = len(msgs) if before is None else before
        for i in range(end - 1, -1, -1):
            if msgs[i][0] == package:
                return i, msgs[i][1]
        return None, None

    def table_number(self) -> int:
        _, view = self.latest("Korchma.Game.View")
        return view["table"]

    def names(self) -> list[str]:
        """The seats' names from the latest Korchma.Table that lists the table: one sent after the
        game's end may no longer list it, and in a cluster a node lists its own tables only
        (docs/cluster.md, limits), so after a failover the player's node may send one without it."""
        return seat_names(self.eyes.gmcp_messages, self.table_number())

    async def next_change(self, count: int, timeout: float) -> None:
        try:
            await self.eyes.wait_for(lambda: len(self.eyes.gmcp_messages) > count or self.over(), timeout)
        except AssertionError:
            pass

    # -- what a game's test fills in -------------------------------------------------------------

    def check(self, view: dict[str, Any], awaiting: dict[str, Any]) -> None:
        """Assertions on what GMCP showed before an answer."""

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        """The action chosen and the text typed for it."""
        raise NotImplementedError

    async def before_sending(self) -> None:
        """Just before typing an answer: at most 4 commands a second, as the server allows 5 (its
        flood guard mutes for 10 s past that). Bots answer within 0.05 s in the tests, so waits
        for this player can follow each other faster than anyone types."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, self.last_sent + 0.25 - loop.time()))
        self.last_sent = loop.time()

    async def sent_one(self, seat: int, count: int, typed: int) -> None:
        """After typing: by default, wait for the next GMCP message (at most 3 s)."""
        await self.next_change(count, 3.0)

    # -- the loop --------------------------------------------------------------------------------

    async def play(self, until: float) -> None:
        """Answer every wait until the game ends; each answer typed as text."""
        loop = asyncio.get_running_loop()
        seen = self.from_message
        answered: set[tuple[int, int]] = set()
        while not self.over():
            assert loop.time() < until, f"{self.name}: the game did not end in time"
            index, awaiting = self.latest("Korchma.Game.Awaiting")
            if index is None or index < seen:
                await self.next_change(len(self.eyes.gmcp_messages), 2.0)
                continue
            seen = index + 1
            # The server sends an Awaiting only when it changed, and ``since`` names the wait:
            # a script answers each wait once.
            wait = (awaiting["seat"], awaiting["since"])
            assert wait not in answered, f"{self.name}: the same wait was sent twice: {awaiting}"
            answered.add(wait)
            legal = awaiting["legal"]
            if not legal:
                assert awaiting["kind"] is None
                continue
            _, view_msg = self.latest("Korchma.Game.View", before=index)
            view = view_msg["view"]
            self.check(view, awaiting)
            self.awaitings += 1
            action, text = self.answer(view, legal)
            self.sent.append((action, text))
            await self.before_sending()
            count, typed = len(self.eyes.gmcp_messages), len(self.typer.text)
            self.typer.send_line(text)
            await self.sent_one(awaiting["seat"], count, typed)


async def coup_for_two(server: Any, boris: Any, roles: str, gmcp: bool = False) -> Any:
    """Анна (telnet, Russian) opens Coup for two, Boris (English, any door) joins; she plays
    first (``first=1``), with 300-second turns and windows; both draft (she the Governor, he the
    Contessa). Returns Анна once Boris has seen his cards (``roles``: a regex of role names)."""
    from tests.telnet_client import log_in

    anna = await log_in(server.telnet_port, "Анна", gmcp=gmcp, naws=(200, 50))
    number = await open_table(anna, "открыть переворот seats=2 first=1 turn=300 reaction=300")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("начать")
    await anna.expect("Игра вдвоём", timeout=10)
    anna.send_line("выбрать губ")
    boris.send_line("draft contessa")
    boris.hand = await boris.expect(re.compile(rf"your cards are ({roles}), ({roles})"), timeout=10)
    return anna


async def person(server: Any, door: str, name: str, lang: str = "ru", gmcp: bool = False,
                 width: int = 200, height: int = 50, create: bool = True) -> Any:
    """``name`` logged in over ``door`` ("telnet" or "ssh"; an SSH login creates the account if
    it is new), in ``lang``, on a ``width`` x ``height`` screen, past the welcome."""
    from tests.ssh_client import connect
    from tests.telnet_client import log_in

    if door == "telnet":
        client = await log_in(server.telnet_port, name, naws=(width, height), gmcp=gmcp, create=create)
    else:
        client = await connect(server.ssh_port, name, password="secret1", width=width, height=height)
        await client.expect(name)
    await set_lang(client, lang)
    return client


async def set_lang(client: Any, lang: str) -> None:
    """Switch a logged-in client to English or Ukrainian (Russian is the default)."""
    if lang == "en":
        client.send_line("lang en")
        await client.expect("Language: English")
    elif lang == "uk":
        client.send_line("мова uk")
        await client.expect("Мова: українська")
