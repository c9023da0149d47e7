"""`rematch`: the same game again with the same company at a new table; in Coup the previous
winner starts (coup.md #4: "random in game 1, then the previous winner")."""
from __future__ import annotations

import re

from tests.telnet_client import log_in
from tests.wire import open_table

FINISHED_RU = re.compile(r"Игра за столом (\d+) окончена\. Победитель: ([^.\r\n]+)\.")


def first_turn_seat(client, after: int) -> int:
    for name, data in client.gmcp_messages[after:]:
        if name == "Korchma.Game.Event" and data.get("key") == "coup.turn":
            return data["params"]["seat"]
    raise AssertionError("no coup.turn event")


def seats_of(client, number: int) -> list[str]:
    for name, data in reversed(client.gmcp_messages):
        if name == "Korchma.Table":
            for table in data["tables"]:
                if table["number"] == number:
                    return [s["name"] for s in sorted(table["seats"], key=lambda s: s["number"])]
    raise AssertionError(f"table {number} not in Korchma.Table")


async def test_rematch_same_company_and_the_winner_starts(server_factory, tmp_path):
    srv = server_factory(data_dir=tmp_path / "data")
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True, naws=(200, 50))
    boris = await log_in(srv.telnet_port, "Boris", gmcp=True, naws=(200, 50))
    boris.send_line("lang en")
    await boris.expect("Language: English")
    guest = await log_in(srv.telnet_port, "Гость")

    old = await open_table(anna, "открыть coup role=investigator")
    boris.send_line(f"join {old}")
    await boris.expect("You sit down")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")

    # Not yet: the game has not begun, let alone ended.
    anna.send_line("реванш")
    await anna.expect(f"За столом {old} игра ещё не кончилась")
    anna.send_line("начать")
    await anna.expect("Начинается «Переворот»", timeout=10)

    # Both hand their seats to bots and watch the game run out.
    for client in (anna, boris):
        client.send_line("leave")
    await anna.expect("за вас играет бот")
    await boris.expect("a bot plays your seat")
    boris.send_line(f"rematch {old}")
    await boris.expect(f"The game at table {old} is not over yet")
    guest.send_line(f"реванш {old}")
    await guest.expect(f"За столом {old} игра ещё не кончилась")
    guest.send_line(f"наблюдать {old}")
    await guest.expect(f"Вы смотрите за столом {old}")
    anna.send_line(f"watch {old}")
    boris.send_line(f"watch {old}")
    finished = await anna.expect(FINISHED_RU, timeout=60)
    winner = FINISHED_RU.search(finished).group(2)
    await anna.expect("Ещё партию тем же составом? Наберите: реванш.")
    # Watching the table where she still holds a seat (a bot plays it), she hears each thing once.
    wins = [d for n, d in anna.gmcp_messages if n == "Korchma.Game.Event" and d["key"] == "coup.winner"]
    assert len(wins) == 1, wins
    await boris.expect("Type: rematch.", timeout=10)

    # Someone who did not play may not call it.
    guest.send_line(f"реванш {old}")
    await guest.expect(f"Вы не играли за столом {old}")

    # Anna asks first: a new table with the old one's options and bot; Boris is invited and
    # his `rematch` seats him there.
    anna.send_line("реванш")
    opened = await anna.expect(re.compile(r"Реванш: вы открываете стол (\d+) \(«Переворот»\) с параметрами и ботами стола "
                                          + str(old)))
    new = int(re.search(r"стол (\d+)", opened).group(1))
    assert new != old
    await boris.expect(f"Анна offers a rematch: table {new}, the same game and the same bots. "
                       f"To sit down: rematch {old} (or join {new}).")
    await guest.expect(f"Анна предлагает реванш: стол {new}")  # watchers of the old table hear it too
    # After a game, `watch`, `join` and `open` need no `leave` first.
    guest.send_line(f"наблюдать {new}")
    await guest.expect(f"Вы смотрите за столом {new}")
    boris.send_line("rematch")
    await boris.expect(f"You sit down at table {new}")
    await anna.expect(f"Boris садится за стол {new}")

    await anna.wait_for(lambda: len(seats_of(anna, new)) == 3, timeout=5)
    names = seats_of(anna, new)
    assert names[0] == "Анна" and names[2] == "Boris" and names[1].startswith("Бот-"), names
    tables = [d for n, d in anna.gmcp_messages if n == "Korchma.Table"][-1]["tables"]
    options = next(t for t in tables if t["number"] == new)["options"]
    assert options.get("role") == "investigator" and options.get("first") is None, options

    mark = len(anna.gmcp_messages)
    anna.send_line("начать")
    await anna.expect("Начинается «Переворот»", timeout=10)
    await anna.gmcp("Korchma.Game.Event", after=mark)
    await anna.wait_for(lambda: any(n == "Korchma.Game.Event" and d.get("key") == "coup.turn"
                                    for n, d in anna.gmcp_messages[mark:]), timeout=5)
    assert winner in names, (winner, names)
    assert first_turn_seat(anna, mark) == names.index(winner), (winner, names)
    await anna.expect(f"Первым ходит победитель прошлой партии: {winner}.")
    await boris.expect(f"The winner of the last game goes first: {winner}.")
    for client in (anna, boris, guest):
        await client.close()


async def test_rematch_after_a_restart(server_factory, tmp_path):
    """A finished table is read back from the database when it is no longer in memory."""
    data = tmp_path / "data"
    srv = server_factory(data_dir=data)
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True)
    old = await open_table(anna, "открыть coup")
    anna.send_line("боты 2 обычный")
    await anna.expect("За стол садятся 2 бота")
    anna.send_line("начать")
    await anna.expect("Начинается «Переворот»", timeout=10)
    anna.send_line("встать")
    await anna.expect("за вас играет бот")
    anna.send_line(f"наблюдать {old}")
    finished = await anna.expect(FINISHED_RU, timeout=60)
    winner = FINISHED_RU.search(finished).group(2)
    await anna.close()
    assert srv.terminate() == 0

    srv2 = server_factory(data_dir=data)
    anna = await log_in(srv2.telnet_port, "Анна", create=False, gmcp=True)
    anna.send_line("реванш")
    await anna.expect("Реванш какого стола? Наберите: реванш N")
    anna.send_line(f"реванш {old}")
    opened = await anna.expect(re.compile(r"Реванш: вы открываете стол (\d+)"))
    new = int(re.search(r"\d+", opened).group(0))
    await anna.wait_for(lambda: len(seats_of(anna, new)) == 3, timeout=5)
    names = seats_of(anna, new)
    mark = len(anna.gmcp_messages)
    anna.send_line("начать")
    await anna.expect("Начинается «Переворот»", timeout=10)
    await anna.wait_for(lambda: any(n == "Korchma.Game.Event" and d.get("key") == "coup.turn"
                                    for n, d in anna.gmcp_messages[mark:]), timeout=5)
    assert winner in names, (winner, names)  # Anna's seat or a bot of the same name
    assert first_turn_seat(anna, mark) == names.index(winner)
    await anna.expect(f"Первым ходит победитель прошлой партии: {winner}.")
    await anna.close()
