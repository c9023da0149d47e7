"""Silence is not absence (issue 14): only a missed decision of the seat's own counts toward a bot
taking the seat over, the player is warned first, a timed-out answer reads as a timeout, and any
game command takes the seat back from the bot.

Coup tables here seat three people with ``first=1`` (seat 0 moves first): Vera (telnet, Russian,
the host, seat 0), Boris (seat 1, English, over the door Анна does not use) and Анна (seat 2, over
``door``: Russian on telnet, Ukrainian over SSH), who stays silent.
"""
from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from games.base import Awaiting
from games.coup import GAME as COUP
from games.revolution import GAME as REVOLUTION
from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table, person

# What Анна reads, in her language (ru over telnet, uk over SSH).
ANNA = {
    "telnet": {"turn_hint": "доход, иностранная, налог", "warned": "Вы не ответили вовремя",
               "warn_last": "Пропустите и следующее своё решение — за вас будет играть бот.",
               "took_over": "Вы не ответили вовремя (2 раза подряд):", "bot": "играет бот",
               "held": "За вас играет бот:", "back": "С возвращением", "your_move": "Ваш ход",
               "income": "доход", "hand": "карты"},
    "ssh": {"turn_hint": "дохід, іноземна, податок", "warned": "Ви не відповіли вчасно",
            "warn_last": "Пропустіть і наступне своє рішення — за вас гратиме бот.",
            "took_over": "Ви не відповіли вчасно (2 рази поспіль):", "bot": "грає бот",
            "held": "За вас грає бот:", "back": "З поверненням", "your_move": "Ваш хід",
            "income": "дохід", "hand": "карти"},
}


async def three_at_coup(server: Any, door: str, options: str) -> tuple[Any, Any, Any]:
    """(vera, boris, anna), seated in that order, the game started: Vera to move."""
    other = "ssh" if door == "telnet" else "telnet"
    vera = await person(server, "telnet", "Vera", "ru")
    number = await open_table(vera, f"открыть переворот seats=3 first=1 {options}")
    boris = await person(server, other, "Boris", "en")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna = await person(server, door, "Анна", "ru" if door == "telnet" else "uk")
    anna.send_line(f"join {number}")
    await anna.expect(re.compile("Вы садитесь|Ви сідаєте"))
    anna.mark_here()
    vera.send_line("начать")
    await vera.expect("Ваш ход", timeout=10)
    return vera, boris, anna


def test_engines_mark_the_windows_a_seat_owes_nothing_in():
    """Coup: a challenge window is optional, a turn and a card to lose are not. «Революция»: in a
    fight the fighter's wait is the fighter's own; everyone else's (help, hinder) is optional."""
    state = COUP.new(3, {"first": 1}, 7)
    (turn,) = COUP.awaiting(state)
    assert turn.kind == "turn" and not turn.optional
    COUP.apply(state, 0, {"type": "tax"})
    window = COUP.awaiting(state)
    assert {a.seat for a in window} == {1, 2} and all(a.optional for a in window)
    assert Awaiting(0, "turn", 10, None).optional is False
    for seed in range(200):  # a fight: the drawn card is an opponent
        s = REVOLUTION.new(3, {}, seed)
        while s.stage not in ("fight", "over") and REVOLUTION.awaiting(s):
            wait = REVOLUTION.awaiting(s)[0]
            REVOLUTION.apply(s, wait.seat, wait.default)
        if s.stage == "fight":
            break
    else:
        pytest.fail("no fight in 200 games")
    waits = REVOLUTION.awaiting(s)
    fighter = s.fight["fighter"]
    assert [a.optional for a in waits if a.seat == fighter] == [False]
    assert all(a.optional for a in waits if a.seat != fighter)


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_silent_challenge_windows_are_plain_passes(server_factory, door):
    """Анна lets two «можно оспорить» windows run out, then her own turn comes: no bot takes it,
    nobody warns her, and she plays it herself. Everyone reads her silence as a timeout
    («Анна: нет ответа — пропуск.»), never as her words («Анна: пропускаю.»)."""
    srv = server_factory("[tables]\nafk_timeouts = 2\nbot_delay = 0.05")
    vera, boris, anna = await three_at_coup(srv, door, "turn=60 reaction=5")
    says = ANNA[door]
    start = len(anna.text)
    vera.send_line("налог")
    await vera.expect("Ждём: Boris, Анна")  # her own claim: she waits for the others
    await boris.expect("You may answer")
    boris.send_line("allow")
    await vera.expect("Анна: нет ответа — пропуск.", timeout=15)
    await boris.expect("Анна did not answer: pass.")
    await boris.expect("Your move", timeout=10)
    boris.mark_here()
    boris.send_line("tax")
    await vera.expect("Можно ответить")
    vera.send_line("пропустить")
    await boris.expect("Анна did not answer: pass.", timeout=15)
    # Her own turn now: it waits for her (a bot would have moved within its 0.05 s).
    await anna.expect(says["turn_hint"], timeout=10)
    await anna.settle(1.0)
    anna.send_line(says["income"])
    await vera.expect("Анна получает доход", timeout=10)
    await boris.expect("Анна takes 1 coin of income")
    text = anna.text[start:]
    for line in (says["warned"], says["bot"], says["back"]):
        assert line not in text, text
    assert vera.text.count("Анна: нет ответа — пропуск.") == 2, vera.text
    assert "Анна: пропускаю." not in vera.text and "Анна lets it pass" not in boris.text
    for client in (vera, boris, anna):
        await client.close()


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_missed_own_turns_warn_then_a_bot_plays_until_any_game_command(server_factory, door):
    """Анна misses her own turn: a timeout form tells the table, and she is warned that a bot will
    play for her if she misses the next. She misses it: a bot takes her seat, and at her next
    turn her lines say so instead of «Ваш ход». She types `доход` while the bot still thinks:
    her income applies, as hers, and the seat is hers again."""
    srv = server_factory("[tables]\nafk_timeouts = 2\nbot_delay = 4")
    vera, boris, anna = await three_at_coup(srv, door, "turn=10 reaction=5")
    says = ANNA[door]
    start = len(anna.text)
    for round_no in (1, 2):
        vera.send_line("доход")
        await boris.expect("Your move", timeout=10)
        boris.send_line("income")
        await vera.expect("Анна: нет ответа — берёт доход", timeout=20)
        await boris.expect("Анна did not answer: Анна takes income")
        if round_no == 1:
            await anna.expect(says["warn_last"], timeout=10)
            assert says["bot"] not in anna.text[start:], anna.text[start:]
        else:
            await anna.expect(says["took_over"], timeout=10)
        await vera.expect("Ваш ход", timeout=10)
    assert anna.text[start:].count(says["warned"]) == 2, anna.text[start:]  # the warning, the takeover
    # Her third turn, held by the bot: her lines say so, not «your move»; she takes it back.
    held_from, vera_from = len(anna.text), len(vera.text)
    vera.send_line("доход")
    await boris.expect("Your move", timeout=10)
    boris.send_line("income")
    await anna.expect(says["held"], timeout=10)
    assert says["your_move"] not in anna.text[held_from:], anna.text[held_from:]
    anna.send_line(says["hand"])  # looking does not take the seat back; the table says who plays
    await anna.expect(says["held"], timeout=5)
    assert says["back"] not in anna.text[held_from:]
    anna.send_line(says["income"])
    await anna.expect(says["back"], timeout=5)
    await vera.expect("Анна получает доход", timeout=10)
    await vera.expect("Ваш ход", timeout=10)  # her move was the only one: the turn goes on
    assert vera.text[vera_from:].count("Анна получает доход") == 1, vera.text[vera_from:]
    assert "нет ответа" not in vera.text[vera_from:], vera.text[vera_from:]
    for client in (vera, boris, anna):
        await client.close()


async def test_revolution_refused_command_still_takes_the_seat_back(server_factory):
    """«Революция»: a bot holds Анна's seat (one missed turn, afk_timeouts = 1) and is about to
    move for her. She types a command this step refuses (`конец`): the refusal says why, and the
    seat is hers anyway; the bot's pending move is dropped (nothing moves for her for longer than
    it would have thought), and her next command applies."""
    srv = server_factory("[tables]\nafk_timeouts = 1\nbot_delay = 2")
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True, naws=(200, 50))
    await open_table(anna, "открыть революция turn=15 reaction=10")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    await anna.expect("Анна: нет ответа — ход по умолчанию.", timeout=120)
    await anna.expect("Вы не ответили вовремя: пока вы снова не сделаете ход, за вас играет бот.", timeout=10)

    def her_awaiting() -> dict[str, Any]:
        return [data for name, data in anna.gmcp_messages if name == "Korchma.Game.Awaiting"][-1]

    # Wait for a step only she can answer (her own turn, before its end: the face-up draw or the
    # second card), where `конец` is refused: in a reaction window the other bot's answer may
    # resolve a fight that names her seat, which is not a move for her. A turn in jail has
    # neither, so this may take a round or two of two bots thinking 2 s a move.
    await anna.wait_for(lambda: her_awaiting()["kind"] == "turn"
                        and {"draw", "draw_hidden"} & {a["type"] for a in her_awaiting()["legal"]}, 90)
    count = len(anna.gmcp_messages)
    anna.send_line("конец")  # the end of a turn: not at this step
    await anna.expect("С возвращением")
    await anna.expect("Не на этом шаге хода.")
    await asyncio.sleep(3.0)  # longer than the bot's 2 s: it does not move for her

    def her_moves() -> list[Any]:
        return [data for name, data in anna.gmcp_messages[count:]
                if name == "Korchma.Game.Event" and data["params"].get("seat") == 0]

    assert not her_moves(), her_moves()
    legal = [a["type"] for a in her_awaiting()["legal"]]
    verb = {"draw": "тянуть", "draw_hidden": "тянуть", "pass": "пас"}
    choice = next(t for t in legal if t in verb)
    typed_from = len(anna.text)
    anna.send_line(verb[choice])
    await anna.wait_for(lambda: bool(her_moves()), 10)
    assert ".timeout." not in her_moves()[0]["key"], her_moves()
    assert "За вас играет бот:" not in anna.text[typed_from:]
    await anna.close()


async def test_bids_warning_counts_down_and_timeouts_read_as_timeouts(server_factory):
    """Sealed bids, afk_timeouts = 3, over SSH: after each missed bid the player hears how many
    more until a bot plays for them (plural forms from the catalog), then the bot takes over; the
    table reads each as «нет ответа», not as a bid the player made."""
    srv = server_factory("[games.bids]\nseconds = 1\n[tables]\nafk_timeouts = 3\nbot_delay = 0.05")
    anna = await connect(srv.ssh_port, "Анна", password="secret1", width=200)
    await anna.expect("Анна")
    await open_table(anna, "открыть торги rounds=5")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("начать")
    await anna.expect("Ещё 2 пропуска подряд — и за вас будет играть бот.", timeout=10)
    await anna.expect("Пропустите и следующее своё решение — за вас будет играть бот.", timeout=10)
    await anna.expect("Вы не ответили вовремя (3 раза подряд):", timeout=10)
    assert anna.text.count("Анна: нет ответа — тайная ставка делается по умолчанию.") == 3, anna.text
    assert "Анна делает тайную ставку" not in anna.text
    await anna.close()


async def test_whispers_timed_out_move_reads_as_a_timeout(server_factory):
    """«Шептуны» over SSH, in English: Анна lets her turn run out; the table reads the move the
    clock made as a timeout, and only the bot that then plays for her makes moves in her name."""
    srv = server_factory("[tables]\nafk_timeouts = 1\nbot_delay = 0.05")
    anna = await person(srv, "ssh", "Анна", "en")
    await open_table(anna, "open whispers turn=10 seats=3")
    anna.send_line("bots 2")
    await anna.expect("sit down: 2 bots")
    anna.send_line("start")
    timed_out = re.compile(r"Анна did not answer: (a card is put in front of|the passed card is taken|"
                           r"their own card is discarded)")
    await anna.expect(timed_out, timeout=60)
    await anna.expect("You did not answer in time:", timeout=10)
    echo = re.search(r"Анна (puts a card in front|takes the passed card|discards their card)", anna.text)
    assert echo is None or echo.start() > timed_out.search(anna.text).start(), anna.text
    await anna.close()


def test_mafia_says_nothing_of_a_phase_that_runs_out_and_others_lead_with_a_line():
    """Mafia's timed-out `ready` stays unannounced; a timed-out step with no echo of the answer
    gets the one lead line; an echo becomes its timeout form (only for the seat that timed out)."""
    from types import SimpleNamespace

    from games.base import Audience, Event
    from world.presenters.absence import TIMEOUT_LEAD, timeout_events

    news = [Event(Audience.everyone(), "mafia.phase", {"phase": "day"})]
    assert timeout_events(SimpleNamespace(game_name="mafia"), 0, news) == news
    drawn = [Event(Audience.everyone(), "revolution.drawn", {"seat": 1, "card": "x"})]
    lead, same = timeout_events(SimpleNamespace(game_name="revolution"), 1, drawn)
    assert lead.key == TIMEOUT_LEAD and lead.params == {"seat": 1} and same == drawn[0]
    allowed = [Event(Audience.everyone(), "coup.allowed", {"seat": 2})]
    assert [e.key for e in timeout_events(SimpleNamespace(game_name="coup"), 2, allowed)] == ["coup.timeout.allowed"]
    assert timeout_events(SimpleNamespace(game_name="coup"), 1, allowed)[0].key == TIMEOUT_LEAD
