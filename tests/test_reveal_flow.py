"""The end reveals all (issue 14), over the wire: at the end of each of the five games one block
reaches every seated player (at the table, stood up but online, or away: in the inbox) and every
watcher, once, in their language, with what each seat hid; GMCP ``Korchma.Game.End`` carries the
same data, and nothing of it is sent before the game is over.

Games end fast: the people stand up (a bot plays their seats), let their waits run out (one
timeout hands the seat to a bot), or, in Mafia (no bots for people), type `ready` every phase."""
from __future__ import annotations

import asyncio
import re
from collections import Counter
from typing import Any

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table, set_lang
from world.i18n import strip_marks, t

HEADER = re.compile(r"Карты на стол|Cards on the table|Карти на стіл")
WIDE = {"naws": (250, 50)}
FAST = "[tables]\nafk_timeouts = 1\nbot_delay = 0.05\n"


async def telnet(server: Any, name: str, lang: str) -> Any:
    client = await log_in(server.telnet_port, name, gmcp=True, **WIDE)
    await set_lang(client, lang)
    return client


async def ssh(server: Any, name: str, lang: str) -> Any:
    client = await connect(server.ssh_port, name, password="secret1", width=250, height=50)
    await client.expect(name)
    await set_lang(client, lang)
    return client


async def sit_down_and_start(anna: Any, boris: Any, watchers: list[Any], command: str, bots: int,
                             master: Any = None) -> None:
    """Анна opens the table, Boris joins, Анна seats the bots, the watchers watch (``master``
    takes the Master's chair), Анна starts."""
    number = await open_table(anna, command)
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line(f"боты {bots}")
    await anna.expect(re.compile(rf"За стол сад\w+ {bots} бот"))
    for watcher in watchers:
        watcher.send_line(f"watch {number}")
        await watcher.expect(f"{number}")
    if master is not None:
        master.send_line(f"мастер {number}")
        await master.expect(f"Вы — Мастер стола {number}")
    anna.send_line("начать")


def ends(client: Any) -> list[dict[str, Any]]:
    return [data for name, data in getattr(client, "gmcp_messages", []) if name == "Korchma.Game.End"]


async def block_of(client: Any, timeout: float) -> str:
    """The reveal block as the client read it (waits for it; it must come exactly once)."""
    await client.expect(HEADER, timeout=timeout)
    await client.settle(0.5)
    text = client.text
    assert len(HEADER.findall(text)) == 1, f"the block came {len(HEADER.findall(text))} times"
    return text[HEADER.search(text).start():]


def seat_line(block: str, name: str) -> str:
    for line in block.splitlines():
        if re.match(rf"\s*{re.escape(name)}( \(«[^»]*»\))?:", strip_marks(line)):
            return line
    raise AssertionError(f"no line for {name} in the block:\n{block[:2000]}")


def check_gmcp_order(client: Any, winner_key: str | None) -> dict[str, Any]:
    """GMCP: one End, after the game's last event (``winner_key``; None for a reader who stood
    up and no longer hears the table's events), and no View ever showed a hidden hand to this
    reader before it. Returns the End's payload."""
    msgs = client.gmcp_messages
    (payload,) = ends(client)
    at = next(i for i, (name, _) in enumerate(msgs) if name == "Korchma.Game.End")
    keys = [d.get("key") for name, d in msgs[:at] if name == "Korchma.Game.Event"]
    assert winner_key is None or winner_key in keys, (winner_key, keys[-5:])
    for name, data in msgs[:at]:
        if name == "Korchma.Game.View":
            assert "hands" not in data["view"] and "roles" not in data["view"] and "sides" not in data["view"]
    return payload


def last_view(client: Any) -> dict[str, Any]:
    views = [d["view"] for name, d in client.gmcp_messages if name == "Korchma.Game.View"]
    return views[-1]


def cards_named(line: str, names: list[str]) -> None:
    for name in names:
        assert name in line, (name, line)


# -- Sealed Bids: one player at the table times out, one is away and finds it in the inbox -----------

async def test_bids_reveal_to_the_table_the_watcher_and_the_inbox(server_factory):
    # Boris reads his whole absence at login (33 lines; more than [inbox] login_lines would be
    # one line pointing at `inbox table 1`, tests/test_inbox_folders.py).
    srv = server_factory("[games.bids]\nseconds = 1\n[inbox]\nlogin_lines = 100\n" + FAST)
    anna = await telnet(srv, "Анна", "ru")
    boris = await ssh(srv, "Boris", "en")
    guest = await telnet(srv, "Гость", "uk")
    await sit_down_and_start(anna, boris, [guest], "открыть торги rounds=3 seats=3", 1)
    dealt = re.search(r"ваши карты — ([\d, ]+)\.", await anna.expect(re.compile(r"ваши карты — [\d, ]+\."), 10))
    await boris.expect("your hand is", timeout=10)
    boris.send_line("quit")
    await boris.close()
    anna_block = await block_of(anna, 30)
    guest_block = await block_of(guest, 10)
    payload = check_gmcp_order(anna, "bids.game_over")
    assert check_gmcp_order(guest, "bids.game_over") == payload
    assert payload["game"] == "bids" and payload["length"] == {"rounds": 3}
    assert isinstance(payload["seconds"], int) and payload["seconds"] >= 0
    seats = payload["reveal"]["seats"]
    assert [s["name"] for s in seats][:2] == ["Анна", "Boris"]
    # Anna's cards as dealt to her are the ones the block shows her bidding or keeping.
    assert sorted(seats[0]["hand"] + seats[0]["bids"]) == sorted(int(c) for c in dealt.group(1).split(", "))
    assert len(payload["reveal"]["prizes_unplayed"]) == 3
    for block, words in ((anna_block, ("очк", "Призы")), (guest_block, ("оч", "Призи"))):
        for s in seats:
            line = seat_line(block, s["name"])
            assert words[0] in line and str(s["score"]) in line
            cards_named(line, [str(c) for c in s["bids"]])
        assert words[1] in block
        assert ", ".join(map(str, payload["reveal"]["prizes_unplayed"])) in block
    # `look` at the finished table shows it again.
    anna.mark_here()
    anna.send_line("смотреть")
    await anna.expect(HEADER)
    # Boris was away: the block waits in his inbox, in English.
    boris = await connect(srv.ssh_port, "Boris", password="secret1", width=250, height=50)
    await boris.expect("Cards on the table", timeout=10)
    await boris.settle(0.5)
    assert len(HEADER.findall(boris.text)) == 1
    block = boris.text[HEADER.search(boris.text).start():]
    assert "Winner" in block and "Prizes never turned up" in block
    for c in (anna, boris, guest):
        await c.close()


# -- Coup: one player stays and lets a turn run out, one stands up and stays online ---------------

COUP_ROLES = ("duke", "assassin", "captain", "ambassador", "inquisitor", "contessa")


async def test_coup_reveal_shows_the_winners_cards_to_all(server_factory):
    srv = server_factory(FAST)
    anna = await ssh(srv, "Анна", "ru")
    boris = await telnet(srv, "Boris", "en")
    guest = await ssh(srv, "Гость", "uk")
    eyes = await telnet(srv, "Глаз", "ru")  # a second watcher, with GMCP
    await sit_down_and_start(anna, boris, [guest, eyes], "открыть переворот reaction=5 turn=10 seats=4", 2)
    await boris.expect("Coup begins", timeout=10)
    boris.send_line("leave")
    await boris.expect("You leave table")
    left_at = len(eyes.gmcp_messages)
    blocks = {"Анна": await block_of(anna, 90), "Boris": await block_of(boris, 10),
              "Гость": await block_of(guest, 10), "Глаз": await block_of(eyes, 10)}
    payload = check_gmcp_order(eyes, "coup.winner")
    assert check_gmcp_order(boris, None) == payload  # he stood up, and hears only the end
    seats = payload["reveal"]["seats"]
    (winner,) = payload["winners"]
    assert seats[winner]["hidden"] and all(not s["hidden"] for s in seats if s["seat"] != winner)
    assert payload["length"]["turns"] >= 1
    # Boris's own cards, as his last view had them, are among what the block shows for him, unless
    # the bot that took his seat changed them after he left (an exchange, a proven claim, a swap).
    changed = [d for name, d in eyes.gmcp_messages[left_at:] if name == "Korchma.Game.Event"
               and ((d["key"] in ("coup.exchanged", "coup.proven") and d["params"].get("seat") == 1)
                    or (d["key"] == "coup.examine_swapped" and d["params"].get("target_seat") == 1))]
    if not changed:
        mine = Counter(last_view(boris)["hand"])
        assert not mine - Counter(seats[1]["hidden"] + seats[1]["revealed"])
    langs = {"Анна": "ru", "Boris": "en", "Гость": "uk", "Глаз": "ru"}
    for reader, block in blocks.items():
        lang = langs[reader]
        for s in seats:
            line = seat_line(block, s["name"])
            cards_named(line, [strip_marks(t(lang, f"coup.role.{r}")) for r in s["hidden"] + s["revealed"]])
        assert seats[winner]["name"] in block.splitlines()[1]
    for c in (anna, boris, guest, eyes):
        await c.close()


# -- «Шептуны»: both stand up; every role card to both and to a watcher -------------------------------

async def test_whispers_reveal_every_role_card(server_factory):
    srv = server_factory("[games.whispers]\nturn = 10\n" + FAST)
    anna = await telnet(srv, "Анна", "ru")
    boris = await ssh(srv, "Boris", "en")
    guest = await ssh(srv, "Гость", "uk")
    await sit_down_and_start(anna, boris, [guest], "открыть шептуны seats=5", 3)
    await boris.expect(re.compile("begins|Jabberjay"), timeout=10)
    anna.send_line("встать")
    await anna.expect("Вы выходите из-за стола")
    boris.send_line("leave")
    await boris.expect("You leave table")
    blocks = {"ru": await block_of(anna, 120), "en": await block_of(boris, 10), "uk": await block_of(guest, 10)}
    payload = check_gmcp_order(anna, payload_key(anna, "whispers."))
    seats = payload["reveal"]["seats"]
    assert seats[0]["side"] == last_view(anna)["side"]  # her role card, as she knew it
    assert sorted(s["side"] for s in seats) == ["capitol"] * 3 + ["district"] * 2
    for lang, block in blocks.items():
        for s in seats:
            line = seat_line(block, s["name"])
            cards_named(line, [strip_marks(t(lang, f"whispers.role.{s['side']}"))])
    for c in (anna, boris, guest):
        await c.close()


def payload_key(client: Any, prefix: str) -> str:
    """The key of the last game event before the End (the game's own last word)."""
    msgs = client.gmcp_messages
    at = next(i for i, (name, _) in enumerate(msgs) if name == "Korchma.Game.End")
    return [d["key"] for name, d in msgs[:at] if name == "Korchma.Game.Event" and d["key"].startswith(prefix)][-1]


# -- «Революция»: one stands up, one stays and lets turns run out; every hand and level ---------------

async def test_revolution_reveal_every_hand_and_level(server_factory):
    srv = server_factory(FAST)
    anna = await ssh(srv, "Анна", "ru")
    boris = await telnet(srv, "Boris", "en")
    guest = await telnet(srv, "Гость", "uk")
    await sit_down_and_start(anna, boris, [guest], "открыть революция seats=3 turn=10 reaction=5", 1)
    await boris.expect(re.compile("begins"), timeout=10)
    anna.send_line("встать")
    await anna.expect("Вы выходите из-за стола")
    blocks = {"ru": await block_of(anna, 150), "en": await block_of(boris, 10), "uk": await block_of(guest, 10)}
    payload = check_gmcp_order(boris, payload_key(boris, "revolution."))
    assert check_gmcp_order(guest, payload_key(guest, "revolution.")) == payload
    seats = payload["reveal"]["seats"]
    (winner,) = payload["winners"]
    assert seats[winner]["level"] >= 10
    from games.revolution import deck as D

    deck = D.load(payload["reveal"]["deck"])
    for lang, block in blocks.items():
        for s in seats:
            line = seat_line(block, s["name"])
            assert re.search(rf"\b{s['level']}\b", line), line
            cards_named(line, [deck.cards[c].name.get(lang) or deck.cards[c].name["en"] for c in s["hand"]])
    for c in (anna, boris, guest):
        await c.close()


# -- Mafia: two people type `ready` each phase; every role, team and persona ---------------------------

async def ready_each_phase(client: Any, word: str, done: asyncio.Event) -> None:
    """Type ``word`` whenever this seat is awaited with `ready` among its moves (GMCP eyes)."""
    seen = 0
    while not done.is_set():
        msgs = client.gmcp_messages
        for name, data in msgs[seen:]:
            if name == "Korchma.Game.End":
                return
            if name == "Korchma.Game.Awaiting" and {"type": "ready"} in (data.get("legal") or []):
                await asyncio.sleep(0.3)
                client.send_line(word)
        seen = len(msgs)
        await asyncio.sleep(0.2)


async def test_mafia_reveal_every_role_and_persona(server_factory):
    srv = server_factory("[tables]\nbot_delay = 0.05\nanswer_guard = 0\n")
    anna = await telnet(srv, "Анна", "ru")
    boris = await telnet(srv, "Boris", "en")
    boris_ssh = await ssh(srv, "Boris", "en")  # Boris reads on SSH too: each session gets it once
    guest = await ssh(srv, "Гость", "uk")
    vika = await telnet(srv, "Вика", "ru")  # the observer Master
    await sit_down_and_start(anna, boris, [guest], "открыть мафия night=10 day=10 seats=6 master=Вика", 4,
                             master=vika)
    await anna.expect("Начинается «Мафия»", timeout=15)
    done = asyncio.Event()
    typers = [asyncio.create_task(ready_each_phase(anna, "готов", done)),
              asyncio.create_task(ready_each_phase(boris, "ready", done))]
    try:
        blocks = {"ru": await block_of(anna, 150), "en": await block_of(boris, 10),
                  "en-ssh": await block_of(boris_ssh, 10), "uk": await block_of(guest, 10),
                  "ru-master": await block_of(vika, 10)}
    finally:
        done.set()
        await asyncio.gather(*typers)
    payload = check_gmcp_order(anna, payload_key(anna, "mafia."))
    assert check_gmcp_order(boris, payload_key(boris, "mafia.")) == payload
    assert ends(vika) == [payload]  # the Master: once, not as watcher and as Master
    seats = payload["reveal"]["seats"]
    assert seats[0]["role"] == last_view(anna)["role"] and seats[1]["role"] == last_view(boris)["role"]
    assert set(payload["length"]) == {"nights", "days"}
    for lang, block in blocks.items():
        lang = lang[:2]
        for s in seats:
            line = seat_line(block, s["name"])
            cards_named(line, [strip_marks(t(lang, f"mafia.role_name.{s['role']}")),
                               strip_marks(t(lang, f"mafia.faction.{s['faction']}"))])
            for persona in s["personas"]:
                assert strip_marks(t(lang, f"mafia.role_name.{persona}")) in line
    for c in (anna, boris, boris_ssh, guest, vika):
        await c.close()


# -- after a restart: the game rebuilt from its log ends with the same block, timed from its start ----

async def test_reveal_after_a_restart_counts_the_whole_game(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory("[games.bids]\nseconds = 40\n" + FAST, data_dir=data)
    anna = await telnet(srv, "Анна", "ru")
    boris = await ssh(srv, "Boris", "en")
    loop = asyncio.get_running_loop()
    await sit_down_and_start(anna, boris, [], "открыть торги rounds=3 seats=3", 1)
    started = loop.time()
    hand_a = [int(c) for c in re.search(r"ваши карты — ([\d, ]+)\.", await anna.expect(
        re.compile(r"ваши карты — [\d, ]+\."), 10)).group(1).split(", ")]
    hand_b = [int(c) for c in re.search(r"your hand is ([\d, ]+)\.", await boris.expect(
        re.compile(r"your hand is [\d, ]+\."), 10)).group(1).split(", ")]
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(f"ставка {hand_a[0]} принята")
    boris.send_line(f"bid {hand_b[0]}")
    await anna.expect("Раунд 2 из 3", timeout=10)
    await asyncio.sleep(2)  # the game has lasted a while when the server dies
    srv.kill9()
    await anna.close()
    await boris.close()
    assert not HEADER.search(anna.text) and not HEADER.search(boris.text)  # not before the end

    srv2 = server_factory("[games.bids]\nseconds = 40\n" + FAST, data_dir=data)
    anna = await telnet(srv2, "Анна", "ru")
    await anna.expect("Вы снова за столом")
    boris = await ssh(srv2, "Boris", "en")
    assert "back at table" in boris.text
    for hand_no in (1, 2):
        anna.send_line(f"ставка {hand_a[hand_no]}")
        await anna.expect(f"ставка {hand_a[hand_no]} принята")
        boris.send_line(f"bid {hand_b[hand_no]}")
        await boris.expect(f"bid of {hand_b[hand_no]} is sealed")
    block = await block_of(anna, 15)
    await block_of(boris, 10)
    (payload,) = ends(anna)
    assert payload["length"] == {"rounds": 3}
    assert payload["seconds"] >= 2 and payload["seconds"] <= loop.time() - started + 1
    assert payload["reveal"]["seats"][0]["bids"] == hand_a and payload["reveal"]["seats"][1]["bids"] == hand_b
    assert ", ".join(map(str, hand_a)) in seat_line(block, "Анна")
    await anna.close()
    await boris.close()
