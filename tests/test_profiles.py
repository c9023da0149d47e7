"""Who is who: `finger` / `профиль` and `title` / `титул` (world/profiles.py, commands/profiles.py).

The counting rules run on a real SQLite database in this process; the wire test plays a short
Sealed Bids game between a telnet and an SSH player and reads both profiles over both doors."""
from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import datetime, timedelta, timezone

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.test_game_flow import HAND_EN, HAND_RU, cards, play_to_end
from world import accounts, db, profiles
from world.models import Account, GameTable, Seat


async def _table(game: str, state: str, outcome: dict | None, seats: list[tuple[Account | None, str | None]]) -> None:
    table = await GameTable.create(game=game, host="x", state=state, seats_total=len(seats), outcome=outcome)
    for number, (account, bot) in enumerate(seats):
        await Seat.create(table=table, number=number, account=account, bot_level=bot,
                          name=account.name if account else f"Бот-{number}")


async def test_games_played_and_won_count_finished_tables_sat_in_as_a_person(tmp_path):
    await db.init(f"sqlite://{tmp_path / 'p.sqlite3'}")
    try:
        anna = await Account.create(name="Анна", name_key=accounts.name_key("Анна"))
        boris = await Account.create(name="Boris", name_key=accounts.name_key("Boris"))
        won = {"winners": ["Анна"], "winner_seats": [0], "reason": "", "params": {}}
        shared = {"winners": ["Анна", "Boris"], "winner_seats": [0, 1], "reason": "", "params": {}}
        nobody = {"winners": [], "winner_seats": [], "reason": "stalemate", "params": {}}
        await _table("bids", "finished", won, [(anna, None), (boris, None)])
        await _table("bids", "finished", shared, [(anna, None), (boris, None)])
        await _table("mafia", "finished", nobody, [(anna, None), (boris, None), (None, "easy")])
        await _table("mafia", "broken", {"broken": "engine", "detail": "", "was": "running"},
                     [(anna, None), (boris, None)])  # the server stopped it: no result
        await _table("bids", "closed", None, [(anna, None)])  # closed before it began
        await _table("coup", "running", None, [(anna, None), (boris, None)])  # not over yet
        # Seat 1 won, but it is Boris's as a bot's seat would be: never counted for a person.
        await _table("coup", "finished", {"winners": ["Boris"], "winner_seats": [1]},
                     [(anna, None), (boris, "easy")])
        # An outcome stored before winner_seats existed: the winners' names decide.
        await _table("coup", "finished", {"winners": ["Анна"]}, [(anna, None), (boris, None)])
        assert await profiles.game_records(anna.id) == [
            profiles.GameRecord("bids", 2, 2), profiles.GameRecord("coup", 2, 1), profiles.GameRecord("mafia", 1, 0)]
        assert await profiles.game_records(boris.id) == [
            profiles.GameRecord("bids", 2, 1), profiles.GameRecord("coup", 1, 0), profiles.GameRecord("mafia", 1, 0)]
    finally:
        await db.close()


def test_a_title_keeps_to_the_rules_of_every_title():
    assert profiles.title_refusal("любит торги 🍺") is None
    assert profiles.title_refusal("x" * profiles.TITLE_LIMIT) is None
    assert profiles.title_refusal("x" * (profiles.TITLE_LIMIT + 1)) == ("title.too_long", {"n": profiles.TITLE_LIMIT})
    assert profiles.title_refusal("👨‍👩‍👧‍👦" * 30)[0] == "title.too_long"  # 30 characters, but 210 code points
    assert profiles.title_refusal("Админ")[0] == "title.like_staff"
    assert profiles.title_refusal("Ωmega")[0] == "title.chars"


FINISHED_RU = re.compile(r"Игра за столом \d+ окончена(?:: победителей нет|\. Победител\w: ([^.\n]+))")


async def test_finger_shows_title_times_place_and_games_over_telnet_and_ssh(server_factory):
    # The guard opened: Анна types a whole evening's commands in seconds (tests/test_moderation.py
    # has the flood guard's own tests).
    srv = server_factory('[accounts]\nadmins = ["Boris"]\n[limits]\ncommands_per_second = 50\ncommand_burst = 50\n'
                         '[games.bids]\nseconds = 30\n[tables]\nbot_delay = 0.05')
    anna = await log_in(srv.telnet_port, "Анна")
    boris = await connect(srv.ssh_port, "Boris", password="secret1", width=120)
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")

    # A title typed on telnet, with a bidi override and a zero-width space in it: cleaned, kept.
    anna.send_line("титул")
    await anna.expect("Титула у вас нет. Задать: титул ТЕКСТ (не больше 40 символов).")
    anna.send_line("титул любит\u202e торги\u200b 🍺")
    await anna.expect("Ваш титул: любит торги 🍺.")
    anna.send_line("титул Администратор")
    await anna.expect("похоже на «администратор»")
    anna.send_line("титул " + "я" * 41)
    await anna.expect("не больше 40 символов")
    anna.send_line("титул")
    await anna.expect("Ваш титул: любит торги 🍺. Сменить")

    # Seen over SSH in English, before any game: in the hall, no games.
    boris.send_line("finger Анна")
    await boris.expect("Анна — любит торги 🍺")
    await boris.expect(re.compile(r"Account created \d{4}-\d\d-\d\d \d\d:\d\d UTC\."))
    await boris.expect("Here now: in the hall.")
    await boris.expect("No finished games yet.")
    boris.send_line("title plays for fun")
    await boris.expect("Your title: plays for fun.")
    boris.send_line("finger Nobody")
    await boris.expect("Nobody is called Nobody.")

    # A short Sealed Bids game: both people and a bot.
    anna.send_line("открыть торги rounds=3 seats=3")
    number = int(re.search(r"стол (\d+)", await anna.expect(re.compile(r"открываете стол \d+"))).group(1))
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("боты 1 лёгкий")
    await anna.expect("За стол садится 1 бот")
    anna.mark_here()
    boris.mark_here()
    anna.send_line("начать")
    hand_a = cards(HAND_RU.search(await anna.expect(HAND_RU, 10)).group(1))
    hand_b = cards(HAND_EN.search(await boris.expect(HAND_EN, 10)).group(1))
    await play_to_end({"Анна": anna, "Boris": boris}, {"Анна": hand_a, "Boris": hand_b}, 3, [])
    found = FINISHED_RU.search(await anna.expect(FINISHED_RU, timeout=15))
    winners = [w.strip() for w in (found.group(1) or "").split(",")]

    def wins(name: str, lang: str) -> str:
        won = name in winners
        return ("1 победа" if won else "0 побед") if lang == "ru" else ("1 win" if won else "0 wins")

    # Each sees the other's record over their own door, and their own with a bare `finger`.
    anna.send_line("профиль Boris")
    await anna.expect("Boris — plays for fun")
    await anna.expect(f"Сейчас в корчме: за столом {number} (Торги).")
    await anna.expect(f"Торги: 1 партия, {wins('Boris', 'ru')}")
    boris.send_line("finger")
    await boris.expect("Boris — plays for fun")
    await boris.expect(f"Sealed Bids: 1 game, {wins('Boris', 'en')}")
    boris.send_line("finger Анна")
    await boris.expect(f"Here now: at table {number} (Sealed Bids).")
    await boris.expect(f"Sealed Bids: 1 game, {wins('Анна', 'en')}")

    # A title is public text under moderation: not while muted, and staff may remove one.
    boris.send_line("mute Анна 5")
    await anna.expect("Вы лишены слова на 5 минут")
    anna.send_line("титул болтушка")
    await anna.expect("Вы лишены слова ещё на")
    boris.send_line("unmute Анна")
    await boris.expect("Анна may talk again.")
    boris.send_line("untitle Анна")
    await boris.expect("The title of Анна is removed.")
    await anna.expect("Ваш титул снят модератором: Boris.")
    anna.send_line("снять титул Boris")  # not staff: not her command
    await anna.expect("«снять»")
    anna.send_line("профиль Boris")
    await anna.expect("Boris — plays for fun")
    boris.send_line("untitle Анна")
    await boris.expect("Анна has no title.")
    anna.send_line("профиль")
    await anna.expect(re.compile(r"Анна\s+Учётная запись"))
    assert re.search(r"event=untitle by=Boris name=Анна title=.?любит торги", srv.log()), srv.log()[-2000:]

    # Boris leaves: his last visit, with its zone; the title cleared on SSH is gone on telnet.
    boris.send_line("title -")
    await boris.expect("Title removed.")
    boris.send_line("quit")
    await boris.wait_closed()
    for _ in range(20):  # until the server has seen his session end (and stored when)
        at = len(anna.text)
        anna.send_line("профиль Boris")
        seen = await anna.expect(re.compile(r"Последний визит: [^\n]*|Сейчас в корчме"))
        if seen.startswith("Последний визит"):
            break
        await asyncio.sleep(0.2)
    when = re.fullmatch(r"Последний визит: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC\.\s*", seen)
    assert when, seen
    left = datetime.strptime(when.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc)
    assert abs(datetime.now(timezone.utc) - left) < timedelta(minutes=2)
    await anna.expect(f"Торги: 1 партия, {wins('Boris', 'ru')}")
    assert re.search(r"Boris\s+Учётная запись", anna.text[at:]) and "plays for fun" not in anna.text[at:]
    # In Ukrainian, with its own plural forms.
    anna.send_line("мова uk")
    await anna.expect("Мова: українська")
    anna.send_line("профіль")
    await anna.expect(f"Зараз у корчмі: за столом {number} (Торги).")
    await anna.expect(f"Торги: 1 партія, {'1 перемога' if 'Анна' in winners else '0 перемог'}")
    # Nothing secret: no address (and no hand or bid: tests/test_game_flow.py).
    assert "127.0.0.1" not in anna.text and "127.0.0.1" not in boris.text
    # The visit's end is its own stored moment (not the login's); a stopping server stores it
    # for everyone still online.
    assert srv.terminate() == 0
    await anna.close()
    stored = sqlite3.connect(srv.data_dir / "korchma.sqlite3")
    try:
        rows = dict(stored.execute("SELECT name, last_seen >= last_login FROM account WHERE last_seen IS NOT NULL"))
    finally:
        stored.close()
    assert rows == {"Анна": 1, "Boris": 1}
