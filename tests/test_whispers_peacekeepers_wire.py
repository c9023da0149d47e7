"""«Шептуны», issue 15, as the players see it: on a server whose bots are ``easy``, the Peacekeepers
of a cooperative table still follow the variant's policy (whispers.md §1.6): while a person has a
free slot, every card a Peacekeeper puts down goes in front of a person.

Anna plays on telnet in Russian, Boris on SSH in English (his GMCP read on a telnet session of
his own), three Peacekeepers seated by the server; the game runs to its end (10 rounds at most).
Every placement is checked from the public events the players get, with the slots counted as they
fill (a return empties a player's slots). A set position is not available over the wire, so this
is the policy over a whole real game; tests/test_whispers_interactions.py checks every position.
"""
from __future__ import annotations

import re

from tests.test_whispers_flow import Player, play_to_the_end, seated_names, start_coop
from tests.wire import company

EASY_BOTS = '[tables]\nbot_level = "easy"'
PEOPLE = 2


def peacekeeper_placements(player: Player) -> list[tuple[int, int, list[int]]]:
    """(Peacekeeper seat, target, the people with a free slot then) for each Peacekeeper placement
    in the public events this player got, in order."""
    out = []
    placed = [0] * 8
    defeated: set[int] = set()
    for name, data in player.eyes.gmcp_messages:
        if name != "Korchma.Game.Event" or data.get("whisper"):
            continue
        key, params = data["key"], data["params"]
        if key == "whispers.round":
            placed = [0] * 8
        elif key == "whispers.placed":
            seat, target = params["seat"], params["target_seat"]
            if seat >= PEOPLE:
                free = [p for p in range(PEOPLE) if placed[p] < 2 and p not in defeated]
                out.append((seat, target, free))
            placed[target] += 1
        elif key in ("whispers.returned", "whispers.returned_open"):
            placed[params["seat"]] = 0  # return_rule=all: every card in front of them went back
        elif key == "whispers.reveal.defeated":
            defeated.add(params["seat"])
    return out


async def test_easy_peacekeepers_place_on_people_telnet_and_ssh(server_factory):
    server = server_factory(EASY_BOTS)
    anna, boris, boris_eyes, guest = await company(server, wide=True)
    await guest.close()
    number = await start_coop(anna, boris, "открыть шептуны turn=10 rounds=10")
    people = [Player("Анна", "ru", anna, anna, 15), Player("Boris", "en", boris, boris_eyes, 16)]
    names = await seated_names(people[0], number, PEOPLE + 3)
    await play_to_the_end(people, 120)
    for player in people:
        placements = peacekeeper_placements(player)
        with_room = [(seat, target) for seat, target, free in placements if free]
        assert len(with_room) >= 2, placements  # a few rounds were played
        assert all(target < PEOPLE for _, target in with_room), [
            (names[seat], names[target]) for seat, target in with_room if target >= PEOPLE]
    # The same placements as text: a Peacekeeper puts a card in front of a person.
    keeper = re.escape(names[PEOPLE])
    assert re.search(rf"{keeper} кладёт карту перед игроком (Анна|Boris)\.", anna.text)
    assert re.search(rf"{keeper} puts a card in front of (Анна|Boris)\.", boris.text)
    for client in (anna, boris_eyes):
        await client.close()
    await boris.close()
