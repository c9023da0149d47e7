"""`replay N [from STEP]` over both doors, and `korchma export` / `korchma replay` of the same game.

One server: Анна (telnet, an admin) plays Sealed Bids to its end against two bots, letting the
clock answer her first round; then the replay she reads over telnet is checked step by step
against the engine applying the logged actions to ``new(seed)`` here (every event, every whisper
with its recipient, the bot's and the clock's moves marked); Boris reads it from a step over SSH,
through the pager; a running and an open table are refused to the admin; the game is exported,
and played back offline to the stored outcome.
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import sqlite3
from pathlib import Path

from games import registry
from server.cli import main
from tests.conftest import ROOT
from tests.wire import person
from world import morph
from world.i18n import strip_marks, t

HAND = re.compile(r"ваши карты — ([\d, ]+)\.")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A step's first line: «Раздача · 0:00» or «Ход 3 · 0:04 — Анна (время вышло)».
STEP_RU = re.compile(r"^(?:Раздача|Ход (\d+))(?: · \d+:\d\d)?(?: — (.*))?$")
STEP_EN = re.compile(r"^(?:The deal|Step (\d+))(?: · \d+:\d\d)?(?: — (.*))?$")
CONFIG = """
[accounts]
admins = ["Анна"]
[tables]
afk_timeouts = 3
"""


def _db(srv) -> sqlite3.Connection:
    return sqlite3.connect(Path(srv.data_dir) / "korchma.sqlite3", timeout=10)


def stored_game(srv, number: int) -> dict:
    """The table's row, seats and log, read from the server's database."""
    db = _db(srv)
    try:
        seed, options, outcome, state = db.execute(
            "SELECT seed, options, outcome, state FROM game_table WHERE id = ?", (number,)).fetchone()
        seats = [r[0] for r in db.execute("SELECT name FROM seat WHERE table_id = ? ORDER BY number", (number,))]
        log = [(step, seat, json.loads(action), by) for step, seat, action, by in db.execute(
            "SELECT step, seat, action, by FROM action_log WHERE table_id = ? ORDER BY step", (number,))]
    finally:
        db.close()
    return {"seed": seed, "options": json.loads(options), "outcome": json.loads(outcome) if outcome else None,
            "state": state, "seats": seats, "log": log}


def copy_as_broken(srv, number: int, bad_step: int) -> int:
    """A copy of finished table ``number`` stored as broken at ``bad_step`` (its logged card made one
    nobody holds), as world/broken_tables.py marks a table whose log the rules refuse."""
    outcome = json.dumps({"broken": {"$msg": "broken.reason.replay", "params": {"step": bad_step}},
                          "detail": "test", "was": "running"})
    db = _db(srv)
    try:
        with db:
            new = db.execute("INSERT INTO game_table (game, options, seed, host, state, seats_total, outcome, "
                             "created_at, started_at) SELECT game, options, seed, host, 'broken', seats_total, ?, "
                             "created_at, started_at FROM game_table WHERE id = ?", (outcome, number)).lastrowid
            db.execute("INSERT INTO seat (table_id, number, account_id, bot_level, name) "
                       "SELECT ?, number, account_id, bot_level, name FROM seat WHERE table_id = ?", (new, number))
            db.execute("INSERT INTO action_log (table_id, step, seat, action, by, created_at) SELECT ?, step, seat, "
                       "CASE WHEN step = ? THEN '{\"type\": \"bid\", \"card\": 99}' ELSE action END, by, created_at "
                       "FROM action_log WHERE table_id = ?", (new, bad_step, number))
    finally:
        db.close()
    return new


def bids_line(lang: str, event, names: list[str]) -> str:
    """One event of Sealed Bids as its catalog line, seats named (the game has no presenter hooks)."""
    params = {}
    for key, value in event.params.items():
        if key == "seat":
            params[key] = names[value]
        elif key == "seats":
            params[key], params["seats_n"] = ", ".join(names[s] for s in value), len(value)
        elif isinstance(value, list):
            params[key], params[f"{key}_n"] = ", ".join(str(v) for v in value), len(value)
        else:
            params[key] = value
    return strip_marks(t(lang, event.key, **params))


def expected_steps(game: dict, lang: str, dative: bool) -> dict[int, list[str]]:
    """Step -> its lines (after the header), from the engine applying the log to new(seed) here:
    public events as the table reads them, each whisper as «→ NAME: …» for its one seat."""
    engine = registry.get("bids")
    names = game["seats"]
    state = engine.new(len(names), game["options"], game["seed"])
    steps = {0: engine.start_events(state)}
    for step, seat, action, by in game["log"]:
        events = engine.apply(state, seat, action)
        if by == "timeout":  # the clock's answer reads as such (world/presenters/absence.py)
            events = [e._replace(key="bids.timeout.bid_placed") if e.key == "bids.bid_placed" else e for e in events]
        steps[step] = events
    assert engine.outcome(state) is not None
    out = {}
    for step, events in steps.items():
        lines = []
        for event in events:
            text = bids_line(lang, event, names)
            if event.audience.kind == "all":
                lines.append(f"  {text}")
            else:
                (seat,) = event.audience.seats
                name = morph.inflect(lang, names[seat], "dat") if dative else names[seat]
                lines.append(f"  → {name}: {text}")
        out[step] = lines
    return out


def transcript_steps(text: str, header: re.Pattern[str]) -> dict[int, tuple[str, list[str]]]:
    """Step -> (who acted, as the header says; its lines), from a replay as a client read it."""
    steps: dict[int, tuple[str, list[str]]] = {}
    current = None
    for line in ANSI.sub("", text).replace("\r", "").split("\n"):
        found = header.match(line)
        if found:
            current = int(found.group(1) or 0)
            steps[current] = (found.group(2) or "", [])
        elif current is not None:
            if not line.startswith("  "):  # the steps are over: the end-of-game block
                current = None
                continue
            steps[current][1].append(line)
    return steps


async def cli(*argv: str) -> tuple[int, str, str]:
    """The CLI's own entry point, in a thread (as tests/test_metrics.py runs `status`)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = await asyncio.to_thread(main, list(argv))
    return code, out.getvalue(), err.getvalue()


async def test_replay_of_a_game_over_both_doors_and_export_then_offline_replay(server_factory, tmp_path):
    srv = server_factory(CONFIG)
    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "ssh", "Boris", lang="en")

    # The game: three rounds of four seconds; Анна lets the first run out, then bids.
    anna.send_line("открыть торги rounds=3 seconds=4")
    number = int(re.search(r"стол (\d+)", await anna.expect(re.compile(r"открываете стол \d+"))).group(1))
    anna.send_line("боты 2")
    await anna.expect("За стол садятся 2 бота")
    boris.send_line(f"replay {number}")  # open, not begun: nothing to tell
    await boris.expect(strip_marks(t("en", "replay.open", number=number)))
    anna.send_line("начать")
    hand = [int(c) for c in HAND.search(await anna.expect(HAND, timeout=10)).group(1).split(", ")]
    boris.send_line(f"replay {number}")  # running: refused
    await boris.expect(strip_marks(t("en", "replay.running", number=number)))
    await anna.expect("Раунд 2 из 3", timeout=15)  # her lowest card went in when the clock ran out
    anna.send_line(f"ставка {hand[1]}")
    await anna.expect("Раунд 3 из 3", timeout=10)
    anna.send_line(f"ставка {hand[2]}")
    await anna.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=10)
    anna.send_line("встать")
    await anna.expect(f"Вы встаёте из-за стола {number}")

    game = stored_game(srv, number)
    assert game["state"] == "finished"
    assert [by for _, seat, _, by in game["log"] if seat == 0] == ["timeout", "player", "player"]
    assert {by for _, seat, _, by in game["log"] if seat != 0} == {"bot"}

    # Boris's game goes on while Анна, an admin, asks for its replay: refused all the same.
    boris.send_line("open bids rounds=3 seconds=600")
    running = int(re.search(r"table (\d+)", await boris.expect(re.compile(r"You open table \d+"))).group(1))
    boris.send_line("bots 1")
    await boris.expect("1 bot")
    boris.send_line("start")
    await boris.expect("your hand is", timeout=10)
    anna.send_line(f"повтор {running}")
    await anna.expect(strip_marks(t("ru", "replay.running", number=running)))
    anna.send_line("повтор 999")
    await anna.expect(strip_marks(t("ru", "replay.no_table", number=999)))

    # Анна's replay (telnet, Russian), step by step against the engine's own replay of the log.
    anna.send_line(f"повтор {number}")
    await anna.expect("Призы, которые так и не открылись", timeout=10)
    await anna.expect("\n")
    text = ANSI.sub("", anna.text[anna.text.rfind("Повтор партии за столом"):])
    seen = transcript_steps(text, STEP_RU)
    want = expected_steps(game, "ru", dative=True)
    assert sorted(seen) == sorted(want) == list(range(len(game["log"]) + 1))
    marks = {"player": "", "bot": " (бот)", "timeout": " (время вышло)"}
    for step, seat, _, by in game["log"]:
        assert seen[step][0] == game["seats"][seat] + marks[by], (step, seen[step][0])
    for step in want:
        assert seen[step][1] == want[step], f"step {step}:\n{seen[step][1]}\n!=\n{want[step]}"
    assert "→ Анне: Мастер шепчет: ваши карты" in text and "→ Бот-Афанасию" in text
    winners = ", ".join(game["outcome"]["winners"])
    assert re.search(rf"Победител[ьи]: {re.escape(winners)}", text), text[-800:]

    last = len(game["log"])
    anna.send_line(f"повтор №{number} с {last}")
    await anna.expect(strip_marks(t("ru", "replay.from", step=last)))
    await anna.expect("Призы, которые так и не открылись", timeout=10)
    await anna.expect("\n")
    tail = transcript_steps(ANSI.sub("", anna.text[anna.text.rfind("Повтор партии за столом"):]), STEP_RU)
    assert list(tail) == [last] and tail[last][1] == want[last]
    anna.send_line(f"повтор {number} с")
    await anna.expect(strip_marks(t("ru", "replay.usage")))

    # A broken table is told up to the step its log breaks at, and says so.
    broken = copy_as_broken(srv, number, 5)
    anna.send_line(f"повтор {broken}")
    refused = strip_marks(t("ru", "replay.refused", step=5, why={"$msg": "bids.error.no_such_card",
                                                                 "params": {"card": 99}}))
    await anna.expect(refused, timeout=10)
    await anna.expect(strip_marks(t("ru", "replay.broken", number=broken,
                                    why={"$msg": "broken.reason.replay", "params": {"step": 5}})))
    told = transcript_steps(ANSI.sub("", anna.text[anna.text.rfind(f"Повтор партии за столом {broken}"):]), STEP_RU)
    assert sorted(told) == [0, 1, 2, 3, 4] and all(told[k][1] == want[k] for k in told)

    # Boris reads it over SSH from step 4, in English, a page at a time.
    boris.send_line("pagelength 12")
    await boris.expect("Page length")
    boris.send_line(f"replay {number} from 4")
    await boris.expect(strip_marks(t("en", "pager.more")), timeout=10)
    for _ in range(12):
        if "Prizes never turned up" in boris.text_since_mark():
            break
        boris.send("\r")
        await asyncio.sleep(0.2)
    await boris.expect("Prizes never turned up", timeout=10)
    english = boris.text[boris.text.rfind("Replay of the game at table"):]
    more = strip_marks(t("en", "pager.more"))
    assert english.count(more) >= 2  # paged: 12 lines a page
    english = transcript_steps(english.replace(more, ""), STEP_EN)
    assert min(english) == 4 and max(english) == len(game["log"])
    want_en = expected_steps(game, "en", dative=False)
    marks_en = {"player": "", "bot": " (bot)", "timeout": " (time ran out)"}
    for step, seat, _, by in game["log"][3:]:
        assert english[step][0] == game["seats"][seat] + marks_en[by], (step, english[step][0])
        assert english[step][1] == want_en[step], f"step {step}:\n{english[step][1]}\n!=\n{want_en[step]}"
    boris.send_line(f"replay {number} from {len(game['log']) + 1}")
    await boris.expect(strip_marks(t("en", "replay.no_step", number=number, step=len(game["log"]) + 1,
                                     last=len(game["log"]))))

    # Export, then play the file back offline.
    flags = ("--config", str(ROOT / "config.toml"), "--config", str(srv.config), "--data-dir", str(srv.data_dir))
    export = tmp_path / "game.json"
    code, out, err = await cli("export", str(number), str(export), *flags)
    assert code == 0, err
    assert f"wrote {export}" in out
    data = json.loads(export.read_text())
    assert (data["seed"], data["outcome"], [s["name"] for s in data["seats"]]) == (
        game["seed"], game["outcome"], game["seats"])
    assert [(e["step"], e["seat"], e["action"], e["by"]) for e in data["log"]] == game["log"]
    assert data["engine"]["game"] == "bids" and len(data["engine"]["source_sha256"]) == 64
    transcript = (tmp_path / "game.txt").read_text()
    assert transcript.startswith(f"Повтор партии за столом {number}") and "→ Анне:" in transcript
    code, out, err = await cli("export", str(running), str(tmp_path / "running.json"), *flags)
    assert code == 1 and "still being played" in err and not (tmp_path / "running.json").exists()

    code, out, err = await cli("replay", str(export), "--lang", "ru", *flags)
    assert code == 0, err
    assert out.startswith(transcript)  # the same transcript, then the outcomes
    assert f"replayed: winners {winners};" in out and f"stored: winners {winners};" in out
    assert out.rstrip().endswith("outcome matches the stored one")
    data["seed"] += 1  # another deal: the logged bids are not what it dealt
    export.write_text(json.dumps(data))
    code, out, err = await cli("replay", str(export), *flags)
    assert code == 1 and "outcome matches" not in out
    for bad, why in ((tmp_path / "none.json", "cannot read"), (tmp_path / "game.txt", "is not a game file")):
        code, out, err = await cli("replay", str(bad), *flags)
        assert code == 1 and why in err and len(err.strip().splitlines()) == 1, err

    for client in (anna, boris):
        await client.close()
