"""kill -9 mid-game: the table carries on from the same state, and no accepted action is lost."""
from __future__ import annotations

import re

from tests.telnet_client import log_in

HAND = re.compile(r"ваши карты — ([\d, ]+)\.")
SCORES = re.compile(r"(\S+) +очки (\d+) +карт \d+ +сыграно: ([\d, -]+)")


async def login(srv, name, create=True, **kw):
    return await log_in(srv.telnet_port, name, create=create, **kw)


def hand_of(text: str) -> list[int]:
    return [int(x) for x in HAND.search(text).group(1).replace(" ", "").split(",")]


async def test_kill_9_mid_game_and_carry_on(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory("[games.bids]\nseconds = 40", data_dir=data)
    anna = await login(srv, "Анна")
    boris = await login(srv, "Борис", gmcp=True)
    anna.send_line("открыть торги rounds=3")
    number = int(re.search(r"стол (\d+)", await anna.expect(re.compile(r"открываете стол \d+"))).group(1))
    boris.send_line(f"сесть {number}")
    await boris.expect("Вы садитесь")
    anna.send_line("начать")
    hand_a = hand_of(await anna.expect(HAND, 10))
    hand_b = hand_of(await boris.expect(HAND, 10))
    # Round 1: both bid.
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(f"ставка {hand_a[0]} принята")
    boris.send_line(f"ставка {hand_b[0]}")
    await boris.expect(re.compile(r"Раунд 2 из 3"))
    await anna.expect(re.compile(r"Раунд 2 из 3"))
    anna.send_line("рука")
    scores_before = await anna.expect(re.compile(r"Ваши карты: [\d, ]+"))
    board_before = anna.text[anna.text.rfind("Стол"):]
    # Round 2: Anna's bid is acknowledged, then the server dies before Boris moves.
    anna.send_line(f"ставка {hand_a[1]}")
    await anna.expect(f"ставка {hand_a[1]} принята")
    await boris.settle(0.3)
    awaiting = [d for name, d in boris.gmcp_messages if name == "Korchma.Game.Awaiting" and d.get("kind")]
    deadline_before = awaiting[-1]["deadline"]
    assert deadline_before
    srv.kill9()
    await anna.close()
    await boris.close()

    srv2 = server_factory("[games.bids]\nseconds = 40", data_dir=data)
    anna = await login(srv2, "Анна", create=False)
    await anna.expect(f"Вы снова за столом {number}")
    await anna.expect(f"Ваша тайная ставка: {hand_a[1]}")  # the acknowledged action survived
    board_after = anna.text[anna.text.rfind("Стол", 0, anna.text.find("Ваша тайная ставка")):]
    # Same scores and discards as before the crash.
    assert SCORES.findall(board_before) == SCORES.findall(board_after)
    assert len(SCORES.findall(board_after)) == 2
    boris = await login(srv2, "Борис", create=False, gmcp=True)
    await boris.expect(f"Вы снова за столом {number}")
    awaiting = await boris.gmcp("Korchma.Game.Awaiting")
    assert awaiting["deadline"] == deadline_before  # the clock did not move
    assert {"type": "bid", "card": hand_b[1]} in awaiting["legal"]
    boris.send_line(f"ставка {hand_b[1]}")
    await anna.expect(f"Анна ставит {hand_a[1]}")  # reveals go in seat order
    await anna.expect(f"Борис ставит {hand_b[1]}")
    await anna.expect(re.compile(r"Раунд 3 из 3"))
    anna.send_line(f"ставка {hand_a[2]}")
    boris.send_line(f"ставка {hand_b[2]}")
    await anna.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=10)
    await boris.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=10)
    await anna.close()
    await boris.close()


async def test_sigterm_is_a_clean_shutdown(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(data_dir=data)
    anna = await login(srv, "Анна")
    anna.send_line("открыть торги")
    await anna.expect("Вы открываете стол")
    assert srv.terminate() == 0
    await anna.expect("Сервер останавливается")
    await anna.close()
    srv2 = server_factory(data_dir=data)
    anna = await login(srv2, "Анна", create=False)
    await anna.expect("Вы снова за столом 1")
    await anna.close()
