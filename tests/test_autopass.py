"""`autopass` (`автопас`) over the wire: the setting, and windows that pass by themselves (issue 14).

Boris types over plain telnet or SSH (each test runs for both doors); Анна over telnet in Russian.
The setting is his account's: it survives a new login. In a Coup game for two (Анна first:
``first=1``; long windows, ``reaction=300``) Анна claims the Duke's tax: with `autopass on` the
challenge window passes for Boris at once, logged as his answer ``by = "autopass"`` (read from the
database); with `smart` it passes after ``tables.autopass_smart_seconds`` (1 s here) unless he
types something at the table first, and a window aimed at him (an assassination) never passes
by itself. What Анна sees of an automatic pass is the ordinary pass line.
"""
from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.wire import coup_for_two

ROLES = "Duke|Assassin|Captain|Ambassador|Contessa"
SMART = """
[tables]
autopass_smart_seconds = 1
"""


def said(text: str) -> re.Pattern[str]:
    """``text`` as the screen may wrap it (any run of spaces may be a line break)."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


async def _boris(server: Any, door: str, create: bool = True) -> Any:
    from tests.ssh_client import connect
    from tests.telnet_client import log_in

    if door == "ssh":
        boris = await connect(server.ssh_port, "Boris", password="secret1", width=200)
        await boris.expect("Boris")
    else:
        boris = await log_in(server.telnet_port, "Boris", naws=(200, 50), create=create)
    boris.send_line("lang en")
    await boris.expect("Language: English")
    return boris


async def _coup_for_two(server: Any, boris: Any) -> Any:
    """Coup for two, Анна first; returns her once she is asked for her turn."""
    anna = await coup_for_two(server, boris, ROLES)
    await anna.expect(re.compile(r"Ваш ход \(осталось"))
    return anna


def _log(server: Any) -> list[tuple[int, dict[str, Any], str]]:
    db = sqlite3.connect(Path(server.data_dir) / "korchma.sqlite3", timeout=10)
    try:
        rows = db.execute("SELECT seat, action, by FROM action_log ORDER BY table_id, step").fetchall()
    finally:
        db.close()
    return [(seat, json.loads(action), by) for seat, action, by in rows]


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_the_setting_is_shown_set_remembered_and_a_typo_gets_a_suggestion(server, door):
    boris = await _boris(server, door)
    boris.send_line("autopass")
    await boris.expect(said("Autopass: as usual for the game (Coup: off, Revolution: smart)."))
    boris.send_line("autopass smrat")
    await boris.expect(said("No such autopass setting: “smrat”. Did you mean “smart”?"))
    boris.send_line("autopass xyzzy-plugh")
    await boris.expect(said("No such autopass setting: “xyzzy-plugh”. Choices: off, smart, on, default."))
    boris.send_line("autopass on")
    await boris.expect(said("Autopass on: every optional window passes for you at once."))
    boris.send_line("автопас")  # the Russian verb works in any language
    await boris.expect(said("Autopass: on."))
    await boris.close()
    boris = await _boris(server, door, create=False)
    boris.send_line("autopass")
    await boris.expect(said("Autopass: on."))  # remembered with the account
    boris.send_line("lang ru")
    await boris.expect("Язык: русский")
    boris.send_line("автопас умный")
    await boris.expect(said("Автопас умный: окно, которое вас не касается, закроется за вас через 4 секунды"))
    boris.send_line("lang uk")
    await boris.expect("Мова: українська")
    boris.send_line("автопас звичайний")
    await boris.expect(said("Автопас: як заведено в грі (Переворот: вимкнено, Революція: розумний)."))
    boris.send_line("autopass")
    await boris.expect(said("Автопас: як заведено в грі"))
    await boris.close()


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_on_passes_a_challenge_window_at_once_through_the_log(server, door):
    boris = await _boris(server, door)
    boris.send_line("autopass on")
    await boris.expect("Autopass on")
    anna = await _coup_for_two(server, boris)
    anna.mark_here()
    anna.send_line("налог")
    # The window would stay open 300 s: it closes at once for Boris, and his turn comes.
    await anna.expect("Boris: пропускаю.", timeout=5)
    await boris.expect(said("Autopass answered for you: pass. To answer yourself: autopass off."), timeout=5)
    await boris.expect(re.compile(r"Your move \("), timeout=5)
    log = _log(server)
    assert (1, {"type": "allow"}, "autopass") in log, log
    assert "Autopass" not in anna.text and "Автопас" not in anna.text  # nothing told to the others
    await anna.close()
    await boris.close()


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_smart_passes_others_windows_unless_typed_and_never_ones_aimed_at_you(server_factory, door):
    server = server_factory(SMART)
    boris = await _boris(server, door)
    boris.send_line("autopass smart")
    await boris.expect("Autopass smart")
    anna = await _coup_for_two(server, boris)
    loop = asyncio.get_running_loop()
    anna.send_line("налог")
    await boris.expect("You may answer")
    opened = loop.time()
    await anna.expect("Boris: пропускаю.", timeout=5)  # after about a second, by itself
    assert loop.time() - opened >= 0.5
    assert [by for _, action, by in _log(server) if action == {"type": "allow"}] == ["autopass"]
    await boris.expect(re.compile(r"Your move \("), timeout=5)
    boris.send_line("income")
    await anna.expect(re.compile(r"Ваш ход \(осталось"))
    # Her tax again; this time Boris types something at the table: the window waits for him.
    # (Typed at a person's pace: the same answer within tables.answer_guard of the last one is
    # taken as meant for the last question and refused.)
    await asyncio.sleep(1.6)
    anna.mark_here()
    boris.mark_here()
    anna.send_line("налог")
    await boris.expect("You may answer")
    boris.send_line("look")
    await asyncio.sleep(2.5)
    assert "Boris: пропускаю." not in anna.text_since_mark()
    boris.send_line("allow")
    await anna.expect("Boris: пропускаю.")
    assert [by for _, action, by in _log(server) if action == {"type": "allow"}] == ["autopass", "player"]
    await boris.expect(re.compile(r"Your move \("), timeout=5)
    boris.send_line("income")
    await anna.expect(re.compile(r"Ваш ход \(осталось"))
    # An action aimed at Boris (Анна steals from him) is his business: smart leaves it to him.
    anna.mark_here()
    anna.send_line("украсть Boris")
    await boris.expect("You may answer")
    await asyncio.sleep(2.5)
    assert "Boris: пропускаю." not in anna.text_since_mark()
    assert [by for _, action, by in _log(server) if action == {"type": "allow"}] == ["autopass", "player"]
    await anna.close()
    await boris.close()
