"""A running game a moderator gives up (issue 18: "games abandoned ... are listed as such, not as
wins"): `abandon N [REASON]` / `прервать` / `перервати` (world/abandon.py, commands/abandon.py).

One server, then a restart on the same data. Ольга, made a moderator by the admin, abandons over
SSH a «Торги» table at which Анна sits (telnet, Russian), Boris sits but is away, a bot plays and
Віра watches (telnet, Ukrainian). Each is told who and why in their language (Boris in his inbox
at his next login) and is in the hall; the table stops (no bot move, no timeout is logged after,
though its 3-second clock was running); `tables` leaves it out, `join`/`watch`/`rematch` say it
was abandoned; it is stored closed with its end, on its seats too; `history` lists it as
abandoned, `game N` gives who and why, `replay N` tells it up to where it stopped, `stats`
counts nothing and no result is written. A second table, whose clock the admin holds as its
Master, is abandoned without a reason: its player and its Master are told. The refusals, each in one line: not a moderator, no
number, not a number, no such table, an open table, a finished one, one already abandoned. After
the restart it is still abandoned and not rebuilt.
"""
from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path

from tests.ssh_client import connect
from tests.test_storage import HAND, hand_of
from tests.wire import FINISHED, open_table, person, said
from world.i18n import strip_marks, t

# 3-second bidding windows, and no seat handed to a bot for missing them: the game runs on its
# clock (Boris is away) until it is abandoned, and would go on for 8 rounds.
CONFIG = '[accounts]\nadmins = ["Админ"]\n[games.bids]\nseconds = 3\n[tables]\nafk_timeouts = 10\n'
REASON = "все ушли, доиграть некому"


def text(lang: str, key: str, **params) -> str:
    return strip_marks(t(lang, key, **params))


def stored(srv, number: int) -> dict:
    db = sqlite3.connect(Path(srv.data_dir) / "korchma.sqlite3", timeout=10)
    try:
        state, outcome, finished = db.execute(
            "SELECT state, outcome, finished_at FROM game_table WHERE id = ?", (number,)).fetchone()
        seats_ended = [r[0] for r in db.execute("SELECT ended_at FROM seat WHERE table_id = ?", (number,))]
        steps = db.execute("SELECT COUNT(*), MAX(step) FROM action_log WHERE table_id = ?", (number,)).fetchone()
        results = db.execute("SELECT COUNT(*) FROM game_result WHERE table_id = ?", (number,)).fetchone()[0]
    finally:
        db.close()
    return {"state": state, "outcome": json.loads(outcome) if outcome else None, "finished_at": finished,
            "seats_ended": seats_ended, "steps": steps, "results": results}


async def finished_bids(admin) -> int:
    """The admin plays «Торги» (3 rounds) against a bot to its end: a finished table."""
    number = await open_table(admin, "открыть торги rounds=3 seats=2 seconds=60")
    admin.send_line("боты 1")
    await admin.expect("За стол садится 1 бот")
    admin.send_line("начать")
    hand = hand_of(await admin.expect(HAND, 10))
    for round_number, card in enumerate(hand, start=1):
        admin.send_line(f"ставка {card}")
        await admin.expect(FINISHED if round_number == len(hand) else f"Раунд {round_number + 1} из 3", 10)
    await admin.expect(text("ru", "table.rematch_hint")[:20])  # the end's last line
    return number


async def test_a_moderator_abandons_a_running_game(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(CONFIG, data_dir=data)
    olga = await person(srv, "ssh", "Ольга")
    admin = await person(srv, "telnet", "Админ")
    admin.send_line("роль Ольга модератор")
    await olga.expect(text("ru", "mod.role_you", role=text("ru", "role.moderator")))
    finished = await finished_bids(admin)
    closed = await open_table(admin, "открыть переворот")
    admin.send_line("встать")  # closed before it began: no game
    await admin.expect("встаёт")
    opened = await open_table(admin, "открыть переворот")

    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "ssh", "Boris", "en")
    vira = await person(srv, "telnet", "Віра", "uk")
    number = await open_table(anna, "открыть торги rounds=8")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    await boris.close()  # away: his seat waits for him
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    hand = hand_of(await anna.expect(HAND, 10))
    vira.send_line(f"спостерігати {number}")
    await vira.expect(f"{number}")
    anna.send_line(f"ставка {hand[0]}")
    await anna.expect("принята")

    # Only staff may; and each refusal is one line.
    anna.send_line(f"прервать {number}")
    await anna.expect("Нет такой команды")
    for typed, key, params in (
            ("прервать", "help.usage.abandon", {}),
            ("прервать стол", "abandon.not_number", {"word": "стол"}),
            (f"прервать {number + 100}", "table.no_such", {"number": number + 100}),
            (f"прервать {opened}", "abandon.open", {"number": opened}),
            (f"прервать {finished}", "abandon.finished", {"number": finished}),
            (f"прервать {closed}", "abandon.closed_unplayed", {"number": closed})):
        olga.send_line(typed)
        await olga.expect(said(text("ru", key, **params)))
    assert stored(srv, number)["state"] == "running"
    for _ in range(100):  # the bot bids a moment after Анна (its delay, under the suite's load)
        if stored(srv, number)["steps"][0] >= 2:
            break
        await asyncio.sleep(0.1)

    olga.send_line(f"прерв №{number} {REASON}")  # five letters: no shorter start ends a game
    await olga.expect(said(text("ru", "abandon.done", number=number, game="Торги")))
    await anna.expect(said(text("ru", "abandon.told", number=number, game="Торги", by="Ольга", reason=REASON)))
    await vira.expect(said(text("uk", "abandon.told", number=number, game="Торги", by="Ольга", reason=REASON)))
    told_at = {anna: len(anna.text), vira: len(vira.text)}  # what either reads after this is after the end
    after = stored(srv, number)
    assert after["state"] == "closed" and after["finished_at"] is not None
    assert all(ended is not None for ended in after["seats_ended"]) and len(after["seats_ended"]) == 3
    outcome = after["outcome"]
    assert outcome == {"abandoned": True, "by": "Ольга", "reason": REASON, "was": "running",
                       "step": after["steps"][1]}, outcome
    assert after["steps"][0] >= 2  # Анна's bid and the bot's at least
    assert re.search(rf"event=table_abandoned by=Ольга number={number} game=bids was=running", srv.log())
    olga.send_line(f"прервать {number}")
    await olga.expect(said(text("ru", "abandon.already", number=number, by="Ольга")))

    # Both in the hall; the table is gone from `tables` and says why to `join`, `watch`, `rematch`.
    for client, lang, look, tables_cmd in ((anna, "ru", "смотреть", "столы"), (vira, "uk", "дивитися", "столи")):
        client.send_line(look)
        await client.expect(text(lang, "hall.look_title"))
        client.send_line(tables_cmd)
        await client.expect(re.compile(rf"№{opened}\b"))
        await client.settle(0.3)
        assert f"№{number} " not in client.text_since_mark()
    unavailable = text("ru", "abandon.unavailable", number=number, by="Ольга", reason=REASON)
    for typed in (f"сесть {number}", f"наблюдать {number}", f"реванш {number}"):
        anna.send_line(typed)
        await anna.expect(said(unavailable))
    vira.send_line(f"сісти {closed}")
    await vira.expect(said(text("uk", "abandon.closed_unplayed", number=closed)))

    # It stands still: nothing is logged or said after it, past its clock's 3 seconds.
    await asyncio.sleep(3.3)  # any clock armed before the end was due by now
    assert stored(srv, number)["steps"] == after["steps"]
    for client, words in ((anna, ("Раунд", "тайную ставку", "забирает приз", "сгорает")),
                          (vira, ("Раунд", "таємну ставку", "забирає приз", "згоряє"))):
        since = client.text[told_at[client]:]
        assert not any(word in since for word in words), since  # no round, bid, prize after it
    assert "Traceback" not in srv.log()

    # A clock a Master holds: abandoned all the same, without a reason; the Master is told too.
    held = await open_table(vira, "відкрити торги")
    vira.send_line("боти 1")
    await vira.expect("бот")
    vira.send_line("почати")
    await vira.expect(re.compile(r"Раунд 1 із \d+"), 10)
    admin.send_line("встать")
    await admin.expect("встаёт")
    admin.send_line(f"мастер {held}")
    await admin.expect(said(text("ru", "master.you_watch", number=held)))
    admin.send_line("мастер пауза")
    await vira.expect(said(text("uk", "master.paused", number=held)))
    olga.send_line(f"abandon {held}")
    await olga.expect(said(text("ru", "abandon.done", number=held, game="Торги")))
    no_reason = {"by": "Ольга", "number": held, "game": "Торги"}
    await vira.expect(said(text("uk", "abandon.told", reason=text("uk", "abandon.no_reason"), **no_reason)))
    await admin.expect(said(text("ru", "abandon.told", reason=text("ru", "abandon.no_reason"), **no_reason)))
    assert stored(srv, held)["outcome"]["was"] == "paused" and stored(srv, held)["outcome"]["reason"] is None
    admin.send_line("смотреть")
    await admin.expect(text("ru", "hall.look_title"))

    # `history` (telnet, Russian): abandoned, never a win; `game N` says who and why.
    anna.send_line("история")
    line = await anna.expect(re.compile(rf"№{number} [^\n]*— [^\n]*"))
    assert line.rstrip().endswith(text("ru", "history.result.abandoned") + "."), line  # never a win
    await anna.expect(re.compile(rf"№{finished} [^\n]*— (победител|без победителя)"))  # (a tie: nobody)
    anna.send_line(f"партия {number}")
    await anna.expect(said(text("ru", "history.game_header", number=number, game="Торги",
                                result=text("ru", "history.result.abandoned"))))
    await anna.expect(said(text("ru", "history.abandoned_by", by="Ольга", step=outcome["step"], reason=REASON)))
    # `replay N`: every logged step, then where and why it stopped.
    anna.send_line(f"повтор {number}")
    await anna.expect(f"Повтор партии за столом {number}")
    await anna.expect(re.compile(rf"Ход {outcome['step']}\b"))
    await anna.expect(said(text("ru", "replay.abandoned", number=number, by="Ольга", step=outcome["step"],
                                reason=REASON)))
    # Rated nowhere: no result written, `stats` counts nothing.
    anna.send_line("статистика")
    await anna.expect(text("ru", "ratings.stats_none").strip())
    assert stored(srv, number)["results"] == 0 and stored(srv, finished)["results"] == 2
    for client in (anna, vira, olga, admin):
        await client.close()
    assert srv.terminate() == 0

    # After a restart: not rebuilt, still abandoned; the away player finds the line at login.
    srv = server_factory(CONFIG, data_dir=data)
    assert f"table {number} rebuilt" not in srv.log()
    boris = await connect(srv.ssh_port, "Boris", password="secret1", width=200)  # his language kept: English
    await boris.expect(said(text("en", "abandon.told", number=number, game="Sealed Bids", by="Ольга",
                                 reason=REASON)))
    boris.send_line(f"game {number}")
    await boris.expect(said(text("en", "history.abandoned_by", by="Ольга", step=outcome["step"], reason=REASON)))
    boris.send_line(f"join {number}")
    await boris.expect(said(text("en", "abandon.unavailable", number=number, by="Ольга", reason=REASON)))
    boris.send_line(f"replay {number}")
    await boris.expect(said(text("en", "replay.abandoned", number=number, by="Ольга", step=outcome["step"],
                                 reason=REASON)))
    anna = await person(srv, "telnet", "Анна", create=False)
    anna.send_line("смотреть")
    await anna.expect(text("ru", "hall.look_title"))
    assert f"столом {number}" not in anna.text  # not back at the table
    again = stored(srv, number)
    assert again["state"] == "closed" and again["outcome"] == outcome and again["results"] == 0
    await anna.close()
    await boris.close()


def test_the_verbs_take_no_start_of_another_and_need_five_letters():
    """No server: `прервать`/`abandon`/`перервати` collide with no verb, and no start shorter than
    five letters finds them (a moderator's slip must not end a game)."""
    import commands.load_all  # noqa: F401
    from commands import parser
    from commands.base import HALL, REGISTRY, TABLE

    commands = parser._available(frozenset({HALL, TABLE}), "moderator", None, len(REGISTRY))
    verbs = [v for c in REGISTRY for v in c.verbs]
    for verb in ("abandon", "прервать", "перервати"):
        assert verbs.count(verb) == 1
        assert parser.resolve(verb[:5], commands)[0].key == "abandon"
        assert getattr(parser.resolve(verb[:4], commands)[0], "key", None) != "abandon"
    player = parser._available(frozenset({HALL, TABLE}), "player", None, len(REGISTRY))
    assert parser.resolve("прервать", player)[0] is None
