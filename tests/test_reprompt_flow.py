"""Issue 14: a player is prompted again only when their options changed, over telnet and SSH.

Each test plays a few steps of a real game with one or two people and bots and counts how often
the game's options prompt («Ваш ход …», «Можно ответить …», «Ваши заявки …», «Ставьте карту …»)
and its table line reach a person: once per window that is new for them, never again for
another seat's move, a chat or a countdown.

- «Революция»: a person passes in a fight; a bot's card changes the score and the window opens
  again for them with the same choices: they get one line (the new score, «Снова можно
  ответить»), not their hand and prompt again.
- «Шептуны»: other seats' placements print their own events only; the prompt comes once per own
  turn, the table line once per round.
- Mafia: other seats' orders and readiness, and a chat, print no prompt; «Ваши заявки» comes once
  per phase, with the phase's table line.
- Sealed Bids: the round's line is the prompt, once per round, whoever bids meanwhile.

On an SSH door the person types and reads on SSH; a telnet session of the same account reads
GMCP for the test's driver (as tests/wire.py ``company`` does).
"""
from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.test_revolution_flow import Player as RevolutionPlayer
from tests.wire import open_table, set_lang

WIDE = {"naws": (250, 50)}
DOORS = ["telnet", "ssh"]
NAMES = {"telnet": ("Анна", "ru"), "ssh": ("Boris", "en")}
# How each test's table opens, by the person's language.
TABLES = {
    "revolution": {"en": "open revolution turn=20 reaction=10 seats=4",
                   "ru": "открыть революция turn=20 reaction=10 seats=4"},
    "whispers": {"en": "open jabberjay turn=30 seats=5", "ru": "открыть шептуны turn=30 seats=5"},
    "mafia": {"en": "open mafia night=10 day=10 seats=5", "ru": "открыть мафия night=10 day=10 seats=5"},
    "bids": {"en": "open bids rounds=3 seconds=30 seats=3", "ru": "открыть торги rounds=3 seconds=30 seats=3"},
}


async def person(server: Any, door: str, name: str, lang: str) -> tuple[Any, Any]:
    """(the typer, the GMCP eyes): one telnet session, or SSH plus a telnet session for GMCP."""
    if door == "telnet":
        client = await log_in(server.telnet_port, name, gmcp=True, **WIDE)
        await set_lang(client, lang)
        return client, client
    typer = await connect(server.ssh_port, name, password="secret1", width=250, height=50)
    await typer.expect(name)
    await set_lang(typer, lang)
    eyes = await log_in(server.telnet_port, name, create=False, gmcp=True, **WIDE)
    return typer, eyes


async def close(*clients: Any) -> None:
    for client in {id(c): c for c in clients}.values():
        await client.close()


async def until(predicate: Any, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, f"not seen in {timeout} s: {what}"
        await asyncio.sleep(0.05)


async def stop(task: "asyncio.Task[Any]") -> None:
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


def count(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text))


async def seated(server: Any, door: str, command: dict[str, str], bots: int,
                 autopass_off: bool = False) -> tuple[str, str, Any, Any]:
    """The door's person opens a table with ``command`` (in their language), seats ``bots`` bots and
    starts: (name, language, typer, eyes), once the first View came."""
    name, lang = NAMES[door]
    typer, eyes = await person(server, door, name, lang)
    if autopass_off:  # asked in every fight: only the rules decide
        typer.send_line("autopass off" if lang == "en" else "автопас выкл")
        await typer.expect("Autopass off" if lang == "en" else "Автопас выключен")
    await open_table(typer, command[lang])
    typer.send_line(f"bots {bots}" if lang == "en" else f"боты {bots}")
    typer.send_line("start" if lang == "en" else "начать")
    await eyes.gmcp("Korchma.Game.View", timeout=15)
    return name, lang, typer, eyes


# -- «Революция»: a fight that changes the score is one line -------------------------------------

REV_HAND = r"Ваша рука \(\d+\)|Your hand \(\d+\)"
REV_PROMPT = r"Можно ответить \(|Ваш ход \(|You may answer \(|Your move \("
REV_AGAIN = r"Снова можно ответить|You may answer again"


class PassingPlayer(RevolutionPlayer):
    """Plays its own turns as test_revolution_flow's player does, and passes in others' fights.
    Notes the first time a fight it passed in asks it again with the same choices and a new
    score: ``reasked`` is (where its text stood when it typed that pass, where it stands now)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.passed_on: tuple | None = None  # (the fight's card, the legal actions, text position, score)
        self.reasked: tuple[int, int] | None = None

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        fight = view.get("fight") or {}
        if view["stage"] != "fight" or fight.get("fighter") == view["me"] or {"type": "pass"} not in legal:
            self.passed_on = None
            return super().answer(view, legal)
        # The same fight: its turn, fighter and card (another fight may be against the same card).
        now = ((view.get("turn"), fight.get("fighter"), fight.get("card")), sorted(map(str, legal)))
        score = (fight.get("players_total"), fight.get("opponent_total"))
        if self.passed_on is not None and self.passed_on[:2] == now and self.passed_on[3] != score \
                and self.reasked is None:
            self.reasked = (self.passed_on[2], len(self.typer.text))
        self.passed_on = (*now, len(self.typer.text), score)
        return {"type": "pass"}, "pass" if self.lang == "en" else "пас"


@pytest.mark.parametrize("door", DOORS)
async def test_revolution_a_new_score_is_one_line_not_the_prompt_again(server_factory, door):
    # Bots think a little longer than the person, so that she passes first and a bot's card
    # then opens the window again (with the tests' 0.05 s they answer before anyone types).
    server = server_factory("[tables]\nbot_delay = 0.15\n")
    name, lang, typer, eyes = await seated(server, door, TABLES["revolution"], 3, autopass_off=True)
    player = PassingPlayer(name, lang, typer, eyes, 7)
    game = asyncio.create_task(player.play(asyncio.get_running_loop().time() + 120))
    try:
        await until(lambda: player.reasked is not None or game.done(), 110, "a fight that asks again")
        if game.done():
            game.result()  # its assertion, if any
        assert player.reasked is not None, "the game ended before any fight asked again"
        passed_at, _ = player.reasked
        # From the line that says she passed (the SSH text may come later than GMCP showed the
        # question) to the first line that asks her anything after it.
        passed = re.compile(rf"{re.escape(name)}: (pass|пас)\.")
        asked = re.compile(f"{REV_AGAIN}|{REV_PROMPT}")

        def after_the_pass() -> str:
            found = passed.search(typer.text, passed_at)
            return typer.text[found.end():] if found else ""

        await until(lambda: asked.search(after_the_pass()), 5, f"a question after the pass:\n{after_the_pass()}")
    finally:
        await stop(game)
    segment = after_the_pass()
    segment = segment[:asked.search(segment).end()]
    # Asked again with the same choices: one line, and not the hand and the prompt again.
    assert count(REV_HAND, segment) == 0 and count(REV_PROMPT, segment) == 0, segment
    assert count(REV_AGAIN, segment) == 1, segment
    assert re.search(rf"\[(бой|fight): [^\]]+\] .*\d+ .*\d+ \S+\. ({REV_AGAIN})", segment), segment  # the score's line
    await close(typer, eyes)


# -- a person who stops answering once they have seen enough ---------------------------------------

def asks(eyes: Any) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(the Awaiting, the latest View before it) for each question with something to answer."""
    out, view = [], {}
    for name, data in eyes.gmcp_messages:
        if name == "Korchma.Game.View":
            view = data["view"]
        elif name == "Korchma.Game.Awaiting" and data["legal"]:
            out.append((data, view))
    return out


def questions(eyes: Any) -> int:
    """How many questions the seat was asked (GMCP ``wait``: one id per question)."""
    return len({data["wait"] for data, _ in asks(eyes)})


def events(eyes: Any, key: str) -> int:
    return sum(1 for name, data in eyes.gmcp_messages if name == "Korchma.Game.Event" and data["key"] == key)


async def play_until(player: Any, enough: Any, timeout: float = 60, may_end: bool = False) -> None:
    """Let ``player`` answer each question until ``enough()`` holds when a new one comes: that one
    stays unanswered (the table waits for it), so what the person read can be counted at rest.
    ``may_end``: the game may end first (a Mafia player may die on the first night)."""
    held = asyncio.Event()
    pace = player.before_sending

    async def before_sending() -> None:
        if enough():
            held.set()
            await asyncio.Event().wait()
        await pace()

    player.before_sending = before_sending
    game = asyncio.create_task(player.play(asyncio.get_running_loop().time() + timeout))
    try:
        await until(lambda: held.is_set() or game.done(), timeout, "enough of the game")
        if game.done():
            game.result()  # its assertion, if any
        assert held.is_set() or may_end, "the game ended too soon"
    finally:
        await stop(game)
    await player.typer.settle(0.5)
    await player.eyes.settle(0.3)


def scripted(name: str, lang: str, typer: Any, eyes: Any, winner_key: str, answer: Any) -> Any:
    """A WirePlayer (tests/wire.py) whose answer is ``answer(view, legal) -> (action, text)``."""
    from tests.wire import WirePlayer

    player = WirePlayer(name, lang, typer, eyes, 1)
    player.winner_key, player.answer = winner_key, answer
    return player


# -- «Шептуны»: others' placements print no prompt --------------------------------------------------

WHISPERS_PROMPT = r"Ваш ход \(|Your move \("
WHISPERS_LINE = r"\[раунд \d+, Правосудие|\[round \d+, Justice"


@pytest.mark.parametrize("door", DOORS)
async def test_whispers_prompt_once_per_own_turn_and_the_table_line_once_per_round(server, door):
    from tests.test_whispers_flow import Player

    name, lang, typer, eyes = await seated(server, door, TABLES["whispers"], 4)
    player = Player(name, lang, typer, eyes, 5)
    await play_until(player, lambda: events(eyes, "whispers.round") >= 2 and questions(eyes) >= 4)
    text = typer.text
    # Four bots placed between the person's turns: each turn one prompt, no more.
    assert count(WHISPERS_PROMPT, text) == questions(eyes), text[-3000:]
    # The table line once a round (the statuses change when a round ends), not after each placement.
    assert count(WHISPERS_LINE, text) == events(eyes, "whispers.round"), text[-3000:]
    await close(typer, eyes)


# -- Mafia: others' orders, readiness and a chat print no prompt ------------------------------------

MAFIA_PROMPT = r"Ваши заявки \(|Your orders \("
MAFIA_LINE = r"\[(ночь|день|Night|Day) \d+\] (Живы|Alive)"


def mafia_person(name: str, lang: str, typer: Any, eyes: Any) -> Any:
    """Says something and, by day, votes for a bot, then types `ready`, in each phase it is asked."""
    en = lang == "en"

    def answer(view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        typer.send_line("say a quiet night" if en else "сказать тихая ночь")
        if view.get("phase") == "day":
            bots = [n for n in player.names() if n != name]
            typer.send_line(f"{'vote' if en else 'голос'} {bots[0]}")
        return {"type": "ready"}, "ready" if en else "готов"

    player = scripted(name, lang, typer, eyes, "mafia.winner", answer)
    return player


@pytest.mark.parametrize("door", DOORS)
async def test_mafia_orders_once_per_phase_whatever_others_do(server, door):
    name, lang, typer, eyes = await seated(server, door, TABLES["mafia"], 4)
    player = mafia_person(name, lang, typer, eyes)

    def windows() -> int:
        return len({view.get("window") for _, view in asks(eyes)})

    def alive_windows() -> int:  # the phases the person saw alive (a dead seat gets no status)
        return len({data["view"].get("window") for name, data in eyes.gmcp_messages if name == "Korchma.Game.View"
                    and data["view"].get("window") and data["view"]["alive"][data["seat"]]})

    await play_until(player, lambda: windows() >= 2, may_end=True)
    text = typer.text
    # Bots ordered and got ready, the person chatted, voted and got ready: each phase one prompt.
    assert windows() >= 1 and events(eyes, "mafia.phase") >= windows()
    assert count(MAFIA_PROMPT, text) == windows(), text[-3000:]
    assert count(MAFIA_LINE, text) == alive_windows(), text[-3000:]
    await close(typer, eyes)


# -- Sealed Bids: the round's line is the prompt ---------------------------------------------------

BIDS_ROUND = r"Ставьте карту|Bid a card"
BIDS_MOVE = r"Ваш ход|Your move"


@pytest.mark.parametrize("door", DOORS)
async def test_bids_the_round_line_once_whoever_bids(server, door):
    name, lang, typer, eyes = await seated(server, door, TABLES["bids"], 2)
    player = scripted(name, lang, typer, eyes, "bids.game_over",
                      lambda view, legal: ({"type": "fold"}, "fold" if lang == "en" else "пас"))

    async def after_the_bots() -> None:  # both bots have bid (their lines came) before she folds
        await asyncio.sleep(0.5)

    player.before_sending = after_the_bots
    await play_until(player, lambda: events(eyes, "bids.round") >= 3)
    text = typer.text
    assert events(eyes, "bids.bid_placed") >= 4  # the bots' bids in the first two rounds
    assert count(BIDS_ROUND, text) == questions(eyes) == 3, text[-3000:]
    assert count(BIDS_MOVE, text) == 0, text[-3000:]
    await close(typer, eyes)
