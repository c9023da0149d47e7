"""Every line once: each event reaches each reader once, whatever roles the reader has at the
table (issue 14, "Every line once, short, and right").

1. The observer Master of a Mafia table (telnet, and a second Master over SSH) reads each public
   event once, not once as a watcher and once as the Master: the same public events as a plain
   watcher, in the same order.
2. A Coup income is one line, over telnet and SSH: the declaration is taken at once and its
   result says it («Анна получает доход…»), so the declaration prints nothing (client scripts
   still get its GMCP event); the table line comes once for the new turn.
3. Seeded bot games of all five engines, read per reader the way the server sends them.
"""
from __future__ import annotations

import asyncio
import re

import pytest

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table

ADMIN = '[accounts]\nadmins = ["Смотритель"]'
START_RU = "Начинается «Мафия»"


def public_events(client) -> list[tuple[str, str]]:
    return [(d["key"], repr(sorted(d["params"].items()))) for n, d in client.gmcp_messages
            if n == "Korchma.Game.Event" and not d["whisper"] and "to_seats" not in d]


def flat(text: str) -> str:
    """Text as one line: each reader's lines wrap at their own width."""
    return re.sub(r"\s+", " ", text).strip()


async def poll(predicate, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while not predicate():
        assert loop.time() < until, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


async def test_mafia_observer_master_reads_each_public_event_once(server_factory):
    srv = server_factory(ADMIN)
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True)
    number = await open_table(anna, "открыть мафия night=10m day=10m master=Вика")
    anna.send_line("боты 4")
    await anna.expect("За стол садятся 4 бота")
    vika = await log_in(srv.telnet_port, "Вика", gmcp=True)
    vika.send_line(f"мастер {number}")
    await vika.expect(f"Вы — Мастер стола {number}")
    warden = await connect(srv.ssh_port, "Смотритель", password="secret1", width=200)
    await warden.expect("Смотритель")
    warden.send_line(f"мастер {number}")
    await warden.expect(f"Мастер стола {number}")
    guest = await log_in(srv.telnet_port, "Гость", gmcp=True)
    guest.send_line(f"watch {number}")
    await guest.expect(f"{number}")
    anna.send_line("начать")
    await anna.expect(START_RU, timeout=15)
    # Night 1 ends when Анна is ready too (the bots are at once): the day's news are public.
    await poll(lambda: any(n == "Korchma.Game.Awaiting" and d.get("kind") for n, d in anna.gmcp_messages),
               15, "Анна's first wait")
    anna.send_line("готов")
    await poll(lambda: any(key == "mafia.news" for key, _ in public_events(guest)), 20, "the news of the first night")
    await guest.settle(1.0)
    await vika.settle(0.5)
    await warden.settle(0.5)
    watched = public_events(guest)
    # The same public events as the watcher, each once (the Master also gets the order log).
    # (start, night, its news, day: always there; deaths and the like depend on the bots' night)
    assert len(watched) >= 4 and [e for e in public_events(vika) if e[0] != "mafia.order_log"] == watched
    # Every public line the watcher read since the start, each Master read as often (not twice).
    started = guest.text.index("Мастер начинает игру")
    lines = [flat(line) for line in guest.text[started:].replace("\r", "").split("\n")]
    news = [line for line in lines if len(line) > 20]
    assert len(news) >= 5, news
    for reader in (vika, warden):
        text = flat(reader.text)
        for line in news:
            assert text.count(line) == 1, (line, text[-3000:])
    # Seated in the running game, `почта` with an inbox request is still the inbox, not a letter
    # (world/inbox.py; `почта ИМЯ ТЕКСТ` is the Mafia's letter).
    anna.send_line(f"почта стол {number}")
    await anna.expect(re.compile(rf"Стол {number}, новости для вас \(\d+ сообщени"))
    anna.send_line("почта 2")
    await anna.expect("Страницы 2 нет: их 1.")
    for client in (anna, vika, guest):
        await client.close()
    await warden.close()


async def test_coup_income_is_one_line_for_every_reader(server):
    anna = await log_in(server.telnet_port, "Анна", gmcp=True, naws=(200, 50))
    number = await open_table(anna, "открыть переворот seats=3 first=1 turn=300 reaction=300")
    boris = await connect(server.ssh_port, "Boris", password="secret1", width=200)
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    guest = await log_in(server.telnet_port, "Гость", gmcp=True, naws=(200, 50))
    guest.send_line(f"watch {number}")
    await guest.expect(f"{number}")
    anna.send_line("начать")
    await anna.expect("Ваш ход", timeout=10)
    anna.send_line("доход")
    result = {anna: "Анна получает доход: 1 монету (всего 3 монеты).",
              boris: "Анна takes 1 coin of income (3 coins in all).",
              guest: "Анна получает доход: 1 монету (всего 3 монеты)."}
    for reader, line in result.items():
        await reader.expect(line, timeout=10)
    await boris.expect("Boris's turn")
    for reader in (anna, guest):
        await reader.settle(0.5)
    for reader, line in result.items():
        text = flat(reader.text)
        assert text.count(line) == 1, text[-2000:]
        for declared in ("берёт доход", "takes income"):  # the declaration's words
            assert declared not in text, text[-2000:]
    # The table line once for the new turn; the time left in the one wording, the verb agreeing.
    assert flat(anna.text).count("[ход 2]") == 1 and flat(boris.text).count("[turn 2]") == 1
    assert re.search(r"Ждём: Boris \(осталось \d+ секунд\w*\)\.", flat(anna.text))
    assert re.search(r"Your move \(\d+ seconds left\): income", flat(boris.text))
    # The scripts' contract is unchanged: the declaration's GMCP event still comes, once.
    declares = [d for n, d in guest.gmcp_messages if n == "Korchma.Game.Event" and d["key"] == "coup.declare"]
    assert [d["params"] for d in declares] == [{"actor_seat": 0, "action": "income"}]
    for client in (anna, guest):
        await client.close()
    await boris.close()


# -- 3. the property: over seeded bot games of every engine ------------------------------------

NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар", "Ирина", "Кирилл",
         "Лада", "Марк")
PLAYERS = {"coup": (2, 3, 4, 6), "whispers": (5, 6, 8), "revolution": (3, 4, 5), "mafia": (5, 7, 9),
           "bids": (2, 3, 4)}
GAMES_PER_ENGINE = 20
MAX_STEPS = 1500


def _render(message) -> str:
    from world.i18n import strip_marks, t

    return flat(strip_marks(t("ru", message.key, **message.params)))


def _bot_game(name: str, seed: int, checks) -> int:
    """One seeded game of bots, with every reader (each seat and a watcher) reading each step as
    the server would send it: the events they may see (less those another event of the step
    says: ``said_elsewhere``), then their status (``present_status``). ``checks(reader, lines,
    statuses)`` gets each reader's lines of each step ((key, text, written by a player) for the
    events, (key, text) for the status); returns the number of steps."""
    import random
    from datetime import datetime, timedelta, timezone

    from games import registry
    from games.base import SPECTATOR
    from world.messages import Msg
    from world.presenters import present_params, present_status, said_elsewhere
    from world.table_data import SeatInfo, Table

    engine = registry.get(name)
    rng = random.Random(seed)
    players = rng.choice(PLAYERS[name])
    table = Table(number=10_000 + seed, game_name=name, engine=engine, options={}, host="Анна",
                  seats_total=players, seed=seed,
                  seats=[SeatInfo(number=i, name=NAMES[i], account_id=i + 1) for i in range(players)])
    table.game = state = engine.new(players, {}, seed)
    start = getattr(engine, "start_events", None)
    events = list(start(state)) if start else []
    readers = list(range(players)) + [SPECTATOR]
    steps = 0
    while True:
        awaited = {a.seat for a in engine.awaiting(state)}
        deadline = datetime.now(timezone.utc) + timedelta(seconds=30.5)
        quiet = said_elsewhere(table, events)
        for reader in readers:
            seat = None if reader == SPECTATOR else reader
            lines = [(e.key, _render(Msg(e.key, present_params(table, e.params))), "text" in e.params)
                     for i, e in enumerate(events)
                     if i not in quiet and (e.audience.kind == "all" if seat is None else e.audience.includes(seat))]
            statuses = present_status(table, engine.view(state, reader), seat, deadline, awaited)
            checks(reader, lines, [(m.key, _render(m)) for m in statuses])
        if engine.outcome(state) is not None or steps >= MAX_STEPS:
            return steps
        wait = rng.choice(engine.awaiting(state))
        legal = engine.legal(state, wait.seat)
        action = engine.bot_action(engine.view(state, wait.seat), legal, rng, "normal")
        events = list(engine.apply(state, wait.seat, action))
        table.step = steps = steps + 1


def _pairs_said_twice(lines: list[tuple[str, str, bool]], names: tuple[str, ...]) -> list[tuple[str, str]]:
    """Two lines of two kinds of event in one step about the same player that share the words
    of what they did: an action and its result said twice («Анна берёт доход…» then «Анна
    получает доход…»): at least two words, and half of the shorter line's. (Two events of one
    kind are two deeds: two cards lost at once.)"""
    def words(line: str) -> set[str]:
        return {w for w in re.findall(r"[а-яёa-z]{4,}", line.lower()) if w not in lowered}

    lowered = {n.lower() for n in names}
    out = []
    for i, (first_key, first, _) in enumerate(lines):
        for second_key, second, _ in lines[i + 1:]:
            if first_key == second_key:
                continue
            who = next((n for n in names if first.startswith(n + " ") and second.startswith(n + " ")), None)
            shared = words(first) & words(second)
            if who is not None and len(shared) >= 2 and 2 * len(shared) >= min(len(words(first)), len(words(second))):
                out.append((first, second))
    return out


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_no_reader_reads_an_event_twice_in_seeded_bot_games(name):
    """For every reader of every step: no line twice; no status line repeating an event line of
    the same step («Сейчас: …» after the declaration it restates); no action and its result as
    two lines about the same player; and the table's status line only when it changed."""
    problems: list[str] = []
    last_line: dict[int, str] = {}
    said = {"lines": 0, "status": 0}

    def checks(reader, lines, statuses):
        # (Letters are players' words: two of them may say the same.)
        texts = [text for _, text, written in lines if not written] + [text for _, text in statuses]
        said["lines"] += len(lines)
        said["status"] += len(statuses)
        repeated = [text for text in set(texts) if texts.count(text) > 1]
        if repeated:
            problems.append(f"{name} reader {reader}: twice in one step: {repeated}")
        for _, line, _ in lines:
            body = line.rstrip(".!")
            for key, text in statuses:
                if len(body) >= 20 and body in text:
                    problems.append(f"{name} reader {reader}: the status says the event again: {line!r} / {text!r}")
        for pair in _pairs_said_twice(lines, NAMES):
            problems.append(f"{name} reader {reader}: an action and its result: {pair}")
        for key, text in statuses:
            if key.endswith(".status.line"):
                if last_line.get(reader) == text:
                    problems.append(f"{name} reader {reader}: the same table line again: {text!r}")
                last_line[reader] = text

    for seed in range(GAMES_PER_ENGINE):
        last_line.clear()
        _bot_game(name, seed, checks)
    assert said["lines"] > 0 and said["status"] >= 0  # (the games were read)
    assert not problems, "\n".join(problems[:15]) + f"\n... {len(problems)} in all"
