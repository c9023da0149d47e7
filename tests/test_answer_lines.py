"""The lines GMCP ``Korchma.Game.Awaiting`` offers for each answer (commands/games/answers.py;
the web page's buttons type them): typed as they are, each is read back as an answer the game
takes, in every game and language.

Two people at each table, each answering only with an offered line chosen at random: Анна over
telnet (Russian, GMCP) and one over the web door (a WebSocket, as the page's buttons: English or
Ukrainian), with bots. «Шептуны» is played to its end, «Революция» to its end or until each has
typed 80 lines (a long game runs to hundreds), Mafia for a few phases;
Coup through the page's buttons is tests/test_web_browser.py. Nothing typed may be refused as
not read (no such card or player, a part missing or too many); in «Шептуны», where one seat moves
at a time, every line typed is taken and no decision falls to the clock. (In «Революция»'s
windows everyone may act at once, and a line is now and then refused because another moved
first, as for any quick typist: most must be taken.)
A line that needs more (a Mafia letter, a «Революция» trade) is offered as a start, never typed.
"""
from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from tests.telnet_client import log_in
from tests.web_client import web_log_in
from tests.wire import FINISHED, WirePlayer, error_signatures, open_table, set_lang
from tests.wire import assert_understood as no_refusal

# The web door on any free port; the guard against a repeated answer within 1.5 s (a slip of the
# hand, tables.answer_guard) off: these players answer faster than any person, the same line twice.
WEB = "[web]\nport = 0\n[tables]\nanswer_guard = 0\n"


class LinePlayer(WirePlayer):
    """Answers each wait with one of the lines its Awaiting offers, at random."""

    def check(self, view: dict[str, Any], awaiting: dict[str, Any]) -> None:
        lines = awaiting.get("lines")
        assert lines, f"{self.name}: a question without lines: {awaiting}"
        assert len({line["line"] for line in lines}) == len(lines), lines
        self.offered = [line for line in lines if not line.get("more")]
        self.starts += sum(1 for line in lines if line.get("more"))
        assert self.offered, f"{self.name}: nothing whole to type: {lines}"

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        line = self.rng.choice(self.offered)["line"]
        self.typed.append(line)
        return {}, line


def player(name: str, lang: str, client: Any, seed: int, winner_key: str) -> LinePlayer:
    p = LinePlayer(name, lang, client, client, seed)
    p.winner_key, p.typed, p.starts, p.offered = winner_key, [], 0, []
    return p


# What the verbs say when a line does not read as an answer: a word that names no card or player,
# or names several, a command missing a part or with one too many. (The others, "you have no such
# card now", "nobody offers you a trade", are the state refusing, not the line: another seat may
# have moved between the question and the answer, as for any fast typist.)
NOT_READ = ("bad_card", "ambiguous_card", "which_card", "no_player", "ambiguous_player", "usage", "need_text",
            "extra_words", "extra", "which_item", "whose_item", "bad_ability", "ambiguous_ability", "bad_role",
            "ambiguous_role", "bad_persona", "ambiguous_persona", "need_target", "need_role", "need_persona",
            "need_play", "bad_play", "place_usage")


def not_read(game: str) -> list[str]:
    return error_signatures(lambda cat: [k for k in cat if k.startswith(f"{game}.cmd.")
                                         and k.rsplit(".", 1)[1].endswith(NOT_READ)])


def actions_by(srv, number: int, seats: list[int], by: str) -> int:
    """How many actions of these seats the log holds made by ``by`` ("player": typed; "timeout")."""
    db = sqlite3.connect(Path(srv.data_dir) / "korchma.sqlite3", timeout=10)
    try:
        marks = ",".join("?" * len(seats))
        return db.execute(f"SELECT COUNT(*) FROM action_log WHERE table_id = ? AND by = ? AND seat IN ({marks})",
                          (number, by, *seats)).fetchone()[0]
    finally:
        db.close()


async def two_at_a_table(srv, opening: str, bots: int, web_name: str, web_lang: str):
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True, naws=(200, 50))
    other = await web_log_in(srv.web_port, web_name)
    await set_lang(other, web_lang)
    number = await open_table(anna, opening)
    other.send_line(f"join {number}")
    await anna.expect(f"{web_name} садится за стол {number}")
    anna.send_line(f"боты {bots}")
    await anna.expect(re.compile(r"За стол сад(ит|ят)ся"))
    anna.send_line("начать")
    await anna.gmcp("Korchma.Game.View", timeout=10)
    await other.gmcp("Korchma.Game.View", timeout=10)
    return anna, other, number


async def play_to_the_end(srv, game: str, opening: str, bots: int, web_name: str, web_lang: str,
                          winner_key: str, strict: bool, enough: int = 10_000) -> list[LinePlayer]:
    anna, other, number = await two_at_a_table(srv, opening, bots, web_name, web_lang)
    players = [player("Анна", "ru", anna, 1, winner_key), player(web_name, web_lang, other, 2, winner_key)]
    loop = asyncio.get_running_loop()
    playing = [loop.create_task(p.play(loop.time() + 150)) for p in players]
    try:  # to the end, or (a long game) until each has typed ``enough`` lines
        while not all(task.done() for task in playing) and not all(len(p.typed) >= enough for p in players):
            await asyncio.sleep(0.2)
    finally:
        for task in playing:
            task.cancel()
        outcomes = await asyncio.gather(*playing, return_exceptions=True)
    for outcome in outcomes:
        if not isinstance(outcome, (type(None), asyncio.CancelledError)):
            raise outcome
    if all(len(p.typed) < enough for p in players):
        await anna.expect(FINISHED, timeout=15, since_mark=False)
    for p in players:
        assert p.typed, f"{p.name} was never asked"
        no_refusal(p.typer.text, p.name, not_read(game))
    typed, taken = sum(len(p.typed) for p in players), actions_by(srv, number, [0, 1], "player")
    if strict:  # one seat moves at a time: every line typed is taken, none left to the clock
        assert taken == typed and actions_by(srv, number, [0, 1], "timeout") == 0, (taken, typed)
    else:  # windows where everyone may act: now and then another moved first
        assert taken >= 0.8 * typed, (taken, typed)
    await anna.close()
    await other.close()
    return players


async def test_whispers_played_to_the_end_by_the_offered_lines(server_factory):
    srv = server_factory(WEB)
    players = await play_to_the_end(srv, "whispers", "открыть шептуны turn=60 seats=4 rounds=40", 2, "Boris",
                                    "en", "whispers.winner", strict=True)
    typed = [line.split()[0] for p in players for line in p.typed]
    assert {"положить", "place"} & set(typed), typed


async def test_revolution_played_to_the_end_by_the_offered_lines(server_factory):
    srv = server_factory(WEB)
    players = await play_to_the_end(srv, "revolution", "открыть революция turn=60 reaction=30 seats=3", 1,
                                    "Віра", "uk", "revolution.winner", strict=False, enough=80)
    assert sum(len(p.typed) for p in players) >= 10
    assert any(p.starts for p in players), "a trade's start was offered (and never typed)"


async def test_mafia_phases_answered_by_the_offered_lines(server_factory):
    srv = server_factory(WEB)
    anna, other, number = await two_at_a_table(srv, "открыть мафия night=10m day=10m seats=7", 5, "Boris", "en")
    players = [player("Анна", "ru", anna, 3, "mafia.win"), player("Boris", "en", other, 4, "mafia.win")]
    rng = random.Random(5)
    # An order (or a vote) from the lines, then `ready` (the line that ends the phase's wait), for
    # each phase the seat is asked in, until each has typed a few.
    loop = asyncio.get_running_loop()
    until = loop.time() + 120
    answered: dict[str, set] = {p.name: set() for p in players}
    while loop.time() < until and not all(len(p.typed) >= 6 for p in players) and not players[0].over():
        for p in players:
            index, awaiting = p.latest("Korchma.Game.Awaiting")
            if awaiting is None or not awaiting.get("legal") or awaiting["since"] in answered[p.name]:
                continue
            p.check({}, awaiting)
            answered[p.name].add(awaiting["since"])
            ready = [x["line"] for x in p.offered if x["line"].split()[0] in ("готов", "ready")]
            others = [x["line"] for x in p.offered if x["line"] not in ready]
            for line in ([rng.choice(others)] if others else []) + ready[:1]:
                p.typed.append(line)
                p.typer.send_line(line)
                await asyncio.sleep(0.4)
        await asyncio.sleep(0.3)
    assert all(len(p.typed) >= 4 for p in players), [p.typed for p in players]
    for p in players:
        no_refusal(p.typer.text, p.name, not_read("mafia"))
    assert any(p.starts for p in players), "a letter's start was offered (and never typed)"
    await anna.close()
    await other.close()
