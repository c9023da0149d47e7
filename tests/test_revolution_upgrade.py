"""A «Революция» table survives a server upgrade across issue 14 (real server, telnet + SSH).

tests/data/revolution_old_log.json is the log of a table played on the code before issue 14
(commit 6d82c67, made by tests/data/make_revolution_old_log.py): old windows asked every seat, so
it holds passes from seats whose only answer was pass (some after today's engine has closed the
window), and it stops mid-fight against «Поп-агитатор», an opponent issue 14 made stronger
(level 6 then, 7 now). The log is written into a real table's rows in the SQLite file, the server
starts: the table is not broken, both players find the fight they left with the old numbers, and
one more pass resolves it as the old engine did. Offline tests at the top check the pieces: the
deck's revisions, the options a table starts and is restored with, and which logged actions are
obsolete.
"""
from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from games import registry
from games.base import RuleError
from games.revolution import GAME
from games.revolution import deck as D
from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table
from world.table_options import shown
from world.upgrades import apply_logged, restored_options, start_options

FIXTURE = Path(__file__).resolve().parent / "data" / "revolution_old_log.json"
WIDE = 200
# No smart autopass during the test: Борис's window in Анна's fight stays his to answer.
CONFIG = "[tables]\nautopass_smart_seconds = 3600"
BROKEN = "cannot be rebuilt and is marked broken"
SKIPPED = "is no longer asked for; skipped"


def old_table() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def write_old_log(db_path: Path, number: int, old: dict) -> None:
    """The table's rows as the old server left them: its options (no deck revision), seed and
    action log; no stored deadline (the fixture's came from no clock)."""
    db = sqlite3.connect(db_path)
    try:
        db.execute("UPDATE game_table SET options = ?, seed = ?, deadline_at = NULL, deadline_step = NULL "
                   "WHERE id = ?", (json.dumps(old["options"]), old["seed"], number))
        db.execute("DELETE FROM action_log WHERE table_id = ?", (number,))
        now = datetime.now(timezone.utc).isoformat()
        columns = [row[1] for row in db.execute("PRAGMA table_info(action_log)")]
        for entry in old["log"]:
            row = {"table_id": number, "step": entry["step"], "seat": entry["seat"],
                   "action": json.dumps(entry["action"], ensure_ascii=False), "by": "player",
                   "created_at": now}
            names = [c for c in columns if c in row]
            db.execute(f"INSERT INTO action_log ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                       [row[c] for c in names])
        db.commit()
    finally:
        db.close()


def opponent_level(deck: D.Deck, cid: str) -> int:
    return deck.cards[cid].effect("opponent")["level"]


def test_revision_1_is_the_old_deck_as_a_small_overlay():
    today, old = D.load("default"), D.load("default", 1)
    assert today.revision == 2 and old.revision == 1 and D.load("default", 2) is today
    assert (opponent_level(old, "vosh"), opponent_level(today, "vosh")) == (2, 3)
    assert (opponent_level(old, "pop"), opponent_level(today, "pop")) == (6, 7)
    assert old.cards["pop"].text["ru"].startswith("Противник 6 уровня")
    assert old.cards["patrony"].effect("fight_bonus")["n"] == 3
    changed = [cid for cid in today.cards if today.cards[cid] != old.cards[cid]]
    assert len(changed) == 11 and old.cards.keys() == today.cards.keys()
    overlay = (D.DECK_DIR / "default.rev1.json").read_text(encoding="utf-8")
    assert len(overlay.splitlines()) < 80  # the changed cards only, not a second deck
    with pytest.raises(D.DeckError, match="no revision 3"):
        D.load("default", 3)
    with pytest.raises(RuleError):
        GAME.validate_options({"deck_rev": 0})


def test_a_table_plays_the_revision_it_started_with():
    pinned = start_options(GAME, {"deck": "default", "deck_rev": 1})  # a rematch of an old game
    assert pinned["deck_rev"] == 2  # a new game plays today's numbers
    assert restored_options(GAME, {"deck": "default"})["deck_rev"] == 1  # started before pinning
    assert restored_options(GAME, pinned) == pinned
    game = GAME.new(2, {"deck_rev": 1}, 5)
    assert GAME.view(game, 0)["deck_rev"] == 1
    assert GAME.view(GAME.new(2, {}, 5), 0)["deck_rev"] == 2
    assert shown({"deck": "default", "deck_rev": 1}, GAME.internal_options) is not None
    assert "deck_rev" not in str(shown({"deck_rev": 1}, GAME.internal_options))
    bids = registry.get("bids")  # a game without the hooks keeps its options as they are
    assert start_options(bids, {"rounds": 3}) == restored_options(bids, {"rounds": 3}) == {"rounds": 3}


def test_only_a_pass_the_game_no_longer_asks_for_is_obsolete():
    old = old_table()
    game = GAME.new(old["players"], restored_options(GAME, old["options"]), old["seed"])
    checked = 0
    for entry in old["log"]:
        seat, action = entry["seat"], entry["action"]
        asked = {a.seat for a in GAME.awaiting(game) if a.kind == "reaction"}
        window = game.stage in ("fight", "counter")
        assert GAME.obsolete(game, seat, action) == (action["type"] == "pass" and not (window and seat in asked))
        for other in range(old["players"]):
            assert not GAME.obsolete(game, other, {"type": "draw"})
        checked += apply_logged(GAME, game, seat, action) is None
    assert checked == 4
    # The other games replay as strictly as before: no hook, an illegal action still refused
    # (Mafia has its own hook for orders on a protected seat: tests/test_mafia_targets.py).
    for name in ("bids", "coup", "whispers"):
        assert not hasattr(registry.get(name), "obsolete")
    bids = registry.get("bids")
    with pytest.raises(RuleError):
        apply_logged(bids, bids.new(2, {}, 1), 0, {"type": "pass"})


async def test_a_table_logged_by_the_old_code_resumes_after_the_upgrade(server_factory, tmp_path):
    old = old_table()
    before, after = old["before"], old["after_pass"]
    assert before["fighter"] == 0 and before["other"] == 1 and before["card"] == "pop"
    data = tmp_path / "data"
    srv = server_factory(CONFIG, data_dir=data)
    anna = await log_in(srv.telnet_port, "Анна", naws=(WIDE, 50))
    boris = await connect(srv.ssh_port, "Борис", password="secret1", width=WIDE)
    await boris.expect("Борис", timeout=10)
    number = await open_table(anna, "открыть революция")
    boris.send_line(f"сесть {number}")
    await boris.expect(f"Вы садитесь за стол {number}")
    anna.send_line("начать")
    await anna.expect("Начинается «Революция»", 10)
    await anna.close()
    await boris.close()
    assert srv.terminate() == 0

    db = sqlite3.connect(data / "korchma.sqlite3")
    try:  # a table started today stores the revision it plays
        stored = json.loads(db.execute("SELECT options FROM game_table WHERE id = ?", (number,)).fetchone()[0])
    finally:
        db.close()
    assert stored["deck_rev"] == D.load("default").revision == 2
    write_old_log(data / "korchma.sqlite3", number, old)
    srv = server_factory(CONFIG, data_dir=data)
    assert BROKEN not in srv.log()
    # The old passes today's engine does not ask for: skipped, one warning each, steps kept.
    assert srv.log().count(SKIPPED) == 4

    fight = re.compile(r"Бой: Анна против «Поп-агитатор» \(уровень (\d+);")
    anna = await log_in(srv.telnet_port, "Анна", create=False, naws=(WIDE, 50))
    await anna.expect(f"Вы снова за столом {number}")
    anna.send_line("смотреть")
    level = re.search(fight, await anna.expect(fight)).group(1)
    assert int(level) == before["opponent_level"] == 6  # the numbers the table started with
    await anna.expect("Противник 6 уровня")  # the card's text of that revision too
    boris = await connect(srv.ssh_port, "Борис", password="secret1", width=WIDE)
    await boris.expect(f"Вы снова за столом {number}", timeout=10)
    boris.send_line("смотреть")
    assert int(re.search(fight, await boris.expect(fight)).group(1)) == 6

    # Play on: Борис passes, the fight resolves as the old engine resolved it.
    boris.send_line("пас")
    for player in (anna, boris):
        await player.expect(re.compile(r"Итог боя: игроки 9, противник 9\."))
    assert after["events"][1:] == ["revolution.fight_total", "revolution.lost", "revolution.escaped"]
    await anna.expect("Анна сбегает.")
    await anna.expect(re.compile(r"Ваш ход \(осталось \d+ секунд\): конец"))
    anna.send_line("конец")
    await boris.expect(re.compile(r"Ваш ход \(осталось \d+ секунд"))  # his turn, from jail
    assert BROKEN not in srv.log()
    await anna.close()
    await boris.close()
