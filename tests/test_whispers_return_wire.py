"""«Шептуны», issue 15, as the players see it: rule 3 binds only the player who is stuck
(whispers.md §1.5 rule 3, Decision of 2026-12-01). When a person's card leaves another player with
nowhere to put theirs, that player returns, everyone reads that whoever still holds a card now
puts it in front of them and that it counts (``whispers.returned_open``), the next card holder
does so, and the card is revealed.

A set position cannot be typed over the wire, and the server draws each table's seed itself, so
the test reaches one through the stored table: Anna (telnet, Russian) and Boris (SSH, English)
start a cooperative table, the server stops, the table's seed and log are replaced by a game
played offline up to a placement of Anna's or Boris's that makes a return, and on the next start
the server rebuilds the table from them (as after any restart) and the person types it.
"""
from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from games.whispers import GAME
from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.test_whispers_flow import command_for, start_coop
from tests.test_whispers_interactions import clone, reachable_rounds
from tests.wire import company

PEOPLE = 2  # Анна (seat 0) and Boris (seat 1); the server seats three Peacekeepers after them


def stored_table(data: Path, number: int) -> tuple[dict[str, Any], list[str]]:
    db = sqlite3.connect(data / "korchma.sqlite3")
    try:
        options, = db.execute("SELECT options FROM game_table WHERE id = ?", (number,)).fetchone()
        names = [name for name, in db.execute("SELECT name FROM seat WHERE table_id = ? ORDER BY number",
                                              (number,))]
    finally:
        db.close()
    return json.loads(options), names


def a_return_by_a_person(options: dict[str, Any], seats: int):
    """A seed, and the first round played from it offline (every placement order: the audit's
    ``reachable_rounds``), in which a person's placement leaves the next player nowhere to put
    theirs while someone after them still holds a card (not a Fled one, so that its reveal reads
    «reveals»). Only a round dealt by seat 3 or 4 can have one (the person must place third in
    the order, after eight cards are down). Returns (the seed, the actions before that placement,
    the game then, the placement, the stuck seat, the game after it)."""
    for seed in range(100):
        s = GAME.new(seats, options, seed)
        if s.dealer not in (3, 4):
            continue
        found: list = []

        def check(before: Any, action: dict[str, Any], events: list, path: tuple) -> None:
            opened = [e.params["seat"] for e in events if e.key == "whispers.returned_open"]
            if found or before.turn >= PEOPLE or not opened:
                return
            after = clone(before)
            GAME.apply(after, after.turn, action)
            if after.round == before.round and after.hands[after.turn] != [5]:
                found.append((before, action, opened[0], after, path))

        reachable_rounds(s, check, set())
        if found:
            before, action, stuck, after, path = found[0]
            return seed, list(path), before, action, stuck, after
    raise AssertionError("no seed lets a person's placement make a return")


def replace_log(data: Path, number: int, seed: int, actions: list[tuple[int, dict[str, Any]]]) -> None:
    db = sqlite3.connect(data / "korchma.sqlite3")
    try:
        db.execute("DELETE FROM action_log WHERE table_id = ?", (number,))
        db.executemany(
            "INSERT INTO action_log (table_id, step, seat, action, by, created_at) "
            "VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
            [(number, step, seat, json.dumps(action), "player" if seat < PEOPLE else "bot")
             for step, (seat, action) in enumerate(actions, 1)])
        db.execute("UPDATE game_table SET seed = ?, deadline_at = NULL, deadline_step = NULL WHERE id = ?",
                   (seed, number))
        db.commit()
    finally:
        db.close()


async def test_the_card_after_a_return_goes_to_the_player_who_returned_telnet_and_ssh(server_factory, tmp_path):
    data = tmp_path / "data"
    server = server_factory(data_dir=data)
    anna, boris, boris_eyes, guest = await company(server, wide=True)
    await guest.close()
    number = await start_coop(anna, boris, "открыть шептуны turn=600")
    for client in (anna, boris_eyes, boris):
        await client.close()
    assert server.terminate() == 0

    options, names = stored_table(data, number)
    assert options["rules_rev"] == 2 and len(names) == PEOPLE + 3
    seed, before, game, action, stuck, after = a_return_by_a_person(options, len(names))
    replace_log(data, number, seed, before)

    server = server_factory(data_dir=data)
    anna = await log_in(server.telnet_port, "Анна", create=False, gmcp=True, naws=(250, 50))
    await anna.expect(f"Вы снова за столом {number}.")
    boris = await connect(server.ssh_port, "Boris", password="secret1", width=250)
    await boris.expect(f"You are back at table {number}.")
    client, lang = {0: (anna, "ru"), 1: (boris, "en")}[game.turn]
    client.send_line(command_for(action, lang, names, GAME.legal(game, game.turn), game.hands[game.turn],
                                 random.Random(number)))
    who = names[stuck]
    await anna.expect(f"{who}: положить карту некому — она возвращается")
    await anna.expect(f"Кто ещё держит карту, кладёт её перед игроком {who}, и она засчитывается.")
    await boris.expect(f"{who} has nowhere to put their card: it goes back")
    await boris.expect(f"Whoever still holds a card now puts it in front of {who}, and it counts.")
    # The next card holder, a Peacekeeper, may put it only there (rule 1 obliges them) and does.
    holder, card = after.turn, after.hands[after.turn][0]
    assert holder >= PEOPLE and GAME.legal(after, holder) == [{"type": "place", "card": card, "target": stuck}]

    def reveal() -> Any:
        return next((data for name, data in anna.gmcp_messages if name == "Korchma.Game.Event"
                     and data["key"].startswith("whispers.reveal.") and data["params"]["seat"] == stuck), None)

    await anna.wait_for(lambda: reveal() is not None, timeout=10)
    assert reveal()["key"] == "whispers.reveal.higher" and reveal()["params"]["cards"] == [card], reveal()
    await anna.expect(f"{who} раскрывает:")
    await boris.expect(f"{who} reveals")
    assert f"{who}: перед игроком не осталось карт" not in anna.text
    await anna.close()
    await boris.close()
