"""Issue 14 at the «Революция» table: nobody is asked what they cannot answer, and a fight's new
score is one line.

Over the wire (Анна on telnet in Russian, Boris over SSH in English reading GMCP on a telnet
session of his own, two bots; both people with `autopass off`, so only the rules decide who is
asked): a whole game, in which every fight or counter-revolution question either person gets
offers something besides pass, and some fights leave a person out (their Awaiting is empty while
they have not passed) and close without them.

Offline, the status after a card that changes a fight's score: a seat still asked, whose options
did not change, gets the score line and not its hand and prompt again.
"""
from __future__ import annotations

import asyncio
from typing import Any

from tests.test_revolution_flow import Player, _all_texts, _fake_table
from tests.wire import FINISHED, company, sit_down_and_start

PASS = {"type": "pass"}


class AskedPlayer(Player):
    """The whole-game player of test_revolution_flow, checking each fight question it gets."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.window_questions = 0

    def check(self, view: dict[str, Any], awaiting: dict[str, Any]) -> None:
        super().check(view, awaiting)
        if view["stage"] in ("fight", "counter"):
            assert awaiting["kind"] == "reaction"
            assert [a for a in awaiting["legal"] if a != PASS], (view, awaiting)
            self.window_questions += 1

    def left_out(self) -> int:
        """Fight or counter steps in which this player was asked nothing though they had not
        passed: each GMCP Awaiting with no kind whose latest View shows such a window."""
        count, view = 0, None
        for name, data in self.eyes.gmcp_messages:
            if name == "Korchma.Game.View":
                view = data["view"]
            elif name == "Korchma.Game.Awaiting" and data["kind"] is None and view is not None:
                window = view.get("fight") if view["stage"] == "fight" else view.get("counter")
                if view["stage"] in ("fight", "counter") and view["me"] not in window["passed"]:
                    count += 1
        return count


async def test_a_whole_game_asks_nobody_who_can_only_pass(server):
    loop = asyncio.get_running_loop()
    anna, boris, boris_eyes, guest = await company(server, wide=True)
    anna.send_line("автопас выкл")
    await anna.expect("Автопас выключен")
    boris.send_line("autopass off")
    await boris.expect("Autopass off")
    await sit_down_and_start(anna, boris, guest, "открыть революция turn=20 reaction=10 seats=4", 2)
    await anna.expect("Мастер шепчет: ваши карты — ", timeout=10)
    await boris.expect("The Master whispers: your cards are ", timeout=10)
    players = [AskedPlayer("Анна", "ru", anna, anna, 3), AskedPlayer("Boris", "en", boris, boris_eyes, 4)]
    await anna.gmcp("Korchma.Game.View", timeout=10)
    await boris_eyes.gmcp("Korchma.Game.View", timeout=10)
    await asyncio.gather(*(p.play(loop.time() + 140) for p in players))
    await anna.expect(FINISHED, timeout=15)
    assert sum(p.window_questions for p in players) > 0
    assert sum(p.left_out() for p in players) > 0  # someone had nothing to answer and was not asked
    for client in (anna, boris_eyes, guest):
        await client.close()
    await boris.close()


def _boris_in_annas_fight() -> tuple[Any, Any, Any]:
    """Анна fights the «Городовой» (Boris holds a speech, Ева a «Махорка»): (the engine, the
    state, Boris's status now as Russian text)."""
    from games.revolution import GAME as ENGINE
    from games.revolution.engine import _deck
    from world.presenters import revolution as presenter

    s = ENGINE.new(3, {}, 5)
    deck = _deck(s)
    for seat in range(3):  # known hands: Boris a speech, Ева a «Махорка»
        for cid in s.hands[seat]:
            (s.turn_deck if deck.cards[cid].deck == "turn" else s.loot_deck).insert(0, cid)
        s.hands[seat] = []
    for cid, seat in (("rech_sovety", 1), ("makhorka", 2)):
        s.loot_deck.remove(cid)
        s.hands[seat].append(cid)
    s.turn_deck.remove("gorodovoy")
    s.turn_deck.append("gorodovoy")
    s.active, s.stage = 0, "open"
    ENGINE.apply(s, 0, {"type": "draw"})
    table = _fake_table(["Анна", "Boris", "Ева"])

    def status_of_boris(asked: bool = True) -> str:
        awaited = {a.seat for a in ENGINE.awaiting(s)}
        assert (1 in awaited) == asked
        return "\n".join(_all_texts(presenter.status(table, ENGINE.view(s, 1), 1, 9, awaited), "ru"))

    return ENGINE, s, status_of_boris


def test_a_new_score_is_one_line_not_the_prompt_again():
    """Анна fights the «Городовой»; Boris (still asked: he may offer help or hinder) saw his hand
    and prompt; Ева hinders with a card: Boris gets the new score, not his hand and prompt again.
    When his options change (Анна accepts Ева's help: he may no longer offer), he is asked anew."""
    ENGINE, s, status_of_boris = _boris_in_annas_fight()
    first = status_of_boris()
    assert "Ваша рука (1)" in first and "игроки 1 : 1 противник" in first
    ENGINE.apply(s, 2, {"type": "play", "card": "makhorka", "side": "opponent"})
    second = status_of_boris()
    assert "игроки 1 : 2 противник" in second
    assert "Ваша рука" not in second, second  # the same options: one line, no prompt again
    ENGINE.apply(s, 2, {"type": "offer", "share": 0})
    ENGINE.apply(s, 0, {"type": "accept", "seat": 2})
    third = status_of_boris()
    assert "Ваша рука (1)" in third  # he may no longer offer help: asked anew


def test_asked_again_after_a_pass_with_the_same_choices_is_one_line():
    """Boris passes in Анна's fight; Ева's «Махорка» changes the score and opens the window again:
    Boris reads the new score and «Снова можно ответить» in one line, not his hand and prompt."""
    ENGINE, s, status_of_boris = _boris_in_annas_fight()
    assert "Ваша рука (1)" in status_of_boris()
    ENGINE.apply(s, 1, {"type": "pass"})
    assert status_of_boris(asked=False) == ""  # (the pass is its own event's line)
    ENGINE.apply(s, 2, {"type": "play", "card": "makhorka", "side": "opponent"})
    again = status_of_boris()
    assert again == "[бой: Городовой] игроки 1 : 2 противник. Снова можно ответить (осталось 9 секунд).", again
