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


# -- «Революция»: a fight that changes the score is one line -------------------------------------

REV_HAND = r"Ваша рука \(\d+\)|Your hand \(\d+\)"
REV_PROMPT = r"Можно ответить \(|Ваш ход \(|You may answer \(|Your move \("
REV_AGAIN = r"Снова можно ответить|You may answer again"


class PassingPlayer(RevolutionPlayer):
    """Plays its own turns as test_revolution_flow's player does, and passes in others' fights.
    Notes the first time a fight it passed in asks it again with the same choices: ``reasked``
    is (where its text stood when it typed that pass, where it stands now)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.passed_on: tuple | None = None  # (the fight's card, the legal actions, text position)
        self.reasked: tuple[int, int] | None = None

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        fight = view.get("fight") or {}
        if view["stage"] != "fight" or fight.get("fighter") == view["me"] or {"type": "pass"} not in legal:
            self.passed_on = None
            return super().answer(view, legal)
        now = (fight.get("card"), sorted(map(str, legal)))
        if self.passed_on is not None and self.passed_on[:2] == now and self.reasked is None:
            self.reasked = (self.passed_on[2], len(self.typer.text))
        self.passed_on = (*now, len(self.typer.text))
        return {"type": "pass"}, "pass" if self.lang == "en" else "пас"


@pytest.mark.parametrize("door", DOORS)
async def test_revolution_a_new_score_is_one_line_not_the_prompt_again(server, door):
    name, lang = NAMES[door]
    typer, eyes = await person(server, door, name, lang)
    typer.send_line("autopass off" if lang == "en" else "автопас выкл")
    await typer.expect("Autopass off" if lang == "en" else "Автопас выключен")
    await open_table(typer, "open revolution turn=20 reaction=10 seats=4" if lang == "en"
                     else "открыть революция turn=20 reaction=10 seats=4")
    typer.send_line("bots 3" if lang == "en" else "боты 3")
    typer.send_line("start" if lang == "en" else "начать")
    await eyes.gmcp("Korchma.Game.View", timeout=10)
    player = PassingPlayer(name, lang, typer, eyes, 7)
    game = asyncio.create_task(player.play(asyncio.get_running_loop().time() + 120))
    try:
        await until(lambda: player.reasked is not None or game.done(), 110, "a fight that asks again")
        assert player.reasked is not None, "the game ended before any fight asked again"
        passed_at, asked_at = player.reasked
        asked = f"{REV_AGAIN}|{REV_PROMPT}"  # (the SSH text may come after the GMCP eyes saw the question)
        await until(lambda: re.search(asked, typer.text[passed_at:]), 3, f"a question after the pass:\n"
                    f"{typer.text[passed_at:]}")
    finally:
        await stop(game)
    segment = typer.text[passed_at:]
    segment = segment[:re.search(asked, segment).end()]
    # Asked again with the same choices: one line, and not the hand and the prompt again.
    assert count(REV_HAND, segment) == 0 and count(REV_PROMPT, segment) == 0, segment
    assert count(REV_AGAIN, segment) == 1, segment
    await close(typer, eyes)
