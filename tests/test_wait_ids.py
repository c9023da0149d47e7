"""An answer applies only to the question it was typed for (issue 13).

Each wait of a seat has an id (GMCP Korchma.Game.Awaiting ``wait``). A typed answer that repeats
the seat's last one right after a new question opened for it is refused with a line saying which
question is open now; a GMCP client may name the wait (``Korchma.Game.Command``), and a stale id
is refused with the same line while the current one is taken at once.

Over the wire, Coup for two (Анна plays first: ``first=1``), Анна assassinates Boris: typing
`allow` twice fast in the challenge window no longer answers his block question; and the same
with wait ids over GMCP. Offline: the guard's rule, case by case.
"""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.wire import coup_for_two

ROLES = "Duke|Assassin|Captain|Ambassador|Contessa"
OTHER_QUESTION = "That is another question now."


async def _two_play_until_the_assassination(server: Any, boris: Any) -> str:
    """Анна (telnet) and Boris (``boris``, English) draft and take income until Анна has 3
    coins, then she assassinates him; returns once he is asked to challenge it. His cards."""
    anna = await coup_for_two(server, boris, ROLES, gmcp=True)
    hand = boris.hand
    # Two turns each of income, typed as soon as asked. A second `income` so soon after the
    # first would be a repeat to a new question (refused for a person at a text screen): Boris
    # says it in Russian the second time.
    for verbs in (("доход", "income"), ("дохід", "доход")):
        await anna.expect(re.compile(r"Ваш ход \(остал"))
        anna.send_line(verbs[0])
        await boris.expect(re.compile(r"Your move \("))
        boris.send_line(verbs[1])
    await anna.expect(re.compile(r"Ваш ход \(остал"))
    anna.send_line("убить Boris")
    await boris.expect("You may answer (")
    await boris.expect("challenge or allow.")
    boris.anna = anna
    return hand


async def _boris(server: Any, door: str, **telnet: Any) -> Any:
    from tests.ssh_client import connect
    from tests.telnet_client import log_in

    if door == "ssh":
        boris = await connect(server.ssh_port, "Boris", password="secret1", width=200)
        await boris.expect("Boris")
    else:
        boris = await log_in(server.telnet_port, "Boris", naws=(200, 50), **telnet)
    boris.send_line("lang en")
    await boris.expect("Language: English")
    return boris


def said(text: str) -> re.Pattern[str]:
    """``text`` as the screen may wrap it (any run of spaces may be a line break)."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


def _a_card(hand: str) -> str:
    return re.search(ROLES, hand.split("are", 1)[1]).group(0)


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_allow_typed_twice_does_not_answer_the_block_question(server, door):
    """Boris (plain telnet, or SSH) types `allow` twice fast when Анна's assassination may be
    challenged. The first lets the claim stand and opens his block question; the second is
    refused with the line naming that question; he still chooses: allows, then picks the card."""
    boris = await _boris(server, door)
    hand = await _two_play_until_the_assassination(server, boris)
    boris.send_line("allow")
    boris.send_line("allow")
    await boris.expect(OTHER_QUESTION)
    await boris.expect(said("“allow” was for the previous one and does not count here."))
    await boris.expect(said("It may be blocked. Answer again: block [ROLE] or allow."))
    assert "turns a card face up" not in boris.text  # nothing was applied for him
    boris.send_line("allow")
    await boris.expect(said("lose CARD: the card to turn face up."))
    card = _a_card(hand)
    boris.send_line(f"lose {card}")
    await boris.expect(f"Boris turns up the {card}.")
    await boris.anna.close()
    await boris.close()


async def test_a_stale_wait_id_is_refused_and_the_current_one_taken_at_once(server):
    """Boris's client reads GMCP but says nothing of Korchma's packages (like a MUD client with
    no script for Korchma), so his typed answers are guarded like anyone's. Over
    ``Korchma.Game.Command`` he answers the challenge question by its id; the block question that
    opens takes the same `allow` at once when it names the new id; then a `lose` naming the
    block question's id (stale) is refused with the line naming the card choice, and the one
    naming the card choice's id is taken."""
    boris = await _boris(server, "telnet", gmcp=True)
    boris.send_gmcp("Core.Supports.Set", ["Core 1", "Char 1"])
    hand = await _two_play_until_the_assassination(server, boris)

    async def asked(stage_words: str, after: int) -> tuple[int, dict[str, Any]]:
        def found() -> Any:
            for i in range(after, len(boris.gmcp_messages)):
                name, data = boris.gmcp_messages[i]
                if name == "Korchma.Game.Awaiting" and data["legal"] and stage_words in repr(data["legal"]):
                    return i, data
            return None
        await boris.wait_for(lambda: found() is not None)
        return found()

    at, challenge = await asked("'challenge'", 0)
    first = challenge["wait"]
    assert isinstance(first, int)
    boris.send_gmcp("Korchma.Game.Command", {"wait": first, "line": "allow"})
    at, block = await asked("'block'", at + 1)
    assert block["wait"] != first
    boris.send_gmcp("Korchma.Game.Command", {"wait": block["wait"], "line": "allow"})  # at once, named
    at, loss = await asked("'lose'", at + 1)
    assert loss["wait"] not in (first, block["wait"])
    card = _a_card(hand)
    boris.mark_here()
    boris.send_gmcp("Korchma.Game.Command", {"wait": block["wait"], "line": f"lose {card}"})
    await boris.expect(OTHER_QUESTION)
    await boris.expect(said("Now: Boris turns a card face up. Answer again: lose CARD: the card to turn face up."))
    assert "turns up the" not in boris.text_since_mark()
    boris.send_gmcp("Korchma.Game.Command", {"wait": loss["wait"], "line": f"lose {card}"})
    await boris.expect(f"Boris turns up the {card}.")
    # A wait id that is not a number, or no line: ignored like any malformed GMCP.
    boris.send_gmcp("Korchma.Game.Command", {"wait": "x", "line": "income"})
    boris.send_gmcp("Korchma.Game.Command", {"wait": loss["wait"]})
    boris.send_line("say still here")
    await boris.expect("still here")
    await boris.anna.close()
    await boris.close()


async def test_a_script_that_reads_korchma_gmcp_repeats_its_answer_at_once(server):
    """A client that says it reads Korchma's GMCP (Core.Supports "Korchma 1": a script, like the
    test drivers) answers each question as it is told it, milliseconds after it opens: its typed
    `allow` to the block question right after the `allow` to the challenge is taken."""
    boris = await _boris(server, "telnet", gmcp=True)  # tests/telnet_client.py says "Korchma 1"
    hand = await _two_play_until_the_assassination(server, boris)
    boris.send_line("allow")
    await boris.expect("block [ROLE] or allow.")
    boris.send_line("allow")
    await boris.expect(said("lose CARD: the card to turn face up."))
    assert OTHER_QUESTION not in boris.text
    card = _a_card(hand)
    boris.send_line(f"lose {card}")
    await boris.expect(f"Boris turns up the {card}.")
    await boris.anna.close()
    await boris.close()


# -- the rule, offline ----------------------------------------------------------------------------

# Cases of the rule: each a list of ("ask", question, window, step, time): the seat's question
# from then on (None: asked nothing); and ("answer", action, verb, time, extra, taken?).
CASES = {
    # The slip: allow to the challenge, its block question opens, allow again at once: refused
    # once; the next allow is taken.
    "typed twice": [("ask", "challenge", "w1", 10, 100.0), ("answer", "allow", "allow", 100.5, {}, True),
                    ("ask", None, "", 11, 100.5), ("ask", "block", "w2", 12, 100.6),
                    ("answer", "allow", "allow", 100.8, {}, False), ("answer", "allow", "allow", 100.9, {}, True)],
    "another verb": [("ask", "challenge", "w1", 10, 100.0), ("answer", "allow", "allow", 100.1, {}, True),
                     ("ask", "block", "w2", 11, 100.2), ("answer", "allow", "pass", 100.3, {}, True)],
    "another action": [("ask", "challenge", "w1", 10, 100.0), ("answer", "allow", "allow", 100.1, {}, True),
                       ("ask", "block", "w2", 11, 100.2), ("answer", "block", "block", 100.3, {}, True)],
    "another card": [("ask", "round", "round-1", 10, 100.0), ("answer", "bid 3", "bid", 100.1, {}, True),
                     ("ask", "round", "round-2", 11, 100.2), ("answer", "bid 5", "bid", 100.3, {}, True)],
    # A new Mafia day: `vote X` again, once the guard's time is over.
    "a new day": [("ask", "vote", "day-1", 10, 100.0), ("answer", "vote", "vote", 100.1, {}, True),
                  ("ask", "vote", "day-2", 20, 102.0), ("answer", "vote", "vote", 102.5, {}, True)],
    # The last answer long ago: a repeat now is meant for the question now.
    "long after": [("ask", "place", "lap-1", 10, 100.0), ("answer", "place", "put", 100.1, {}, True),
                   ("ask", "place", "lap-2", 15, 110.0), ("answer", "place", "put", 110.01, {}, True)],
    # The same window (a Mafia order changed, a Revolution fight round): the same question.
    "same window": [("ask", "phase:a", "night-1", 10, 100.0), ("answer", "order", "night", 100.1, {}, True),
                    ("ask", "phase:b", "night-1", 11, 100.1), ("answer", "order", "night", 100.2, {}, True)],
    # A client that reads Korchma's GMCP: taken at once.
    "a script": [("ask", "challenge", "w1", 10, 100.0), ("answer", "allow", "allow", 100.01, {"scripted": True}, True),
                 ("ask", "block", "w2", 11, 100.02), ("answer", "allow", "allow", 100.03, {"scripted": True}, True)],
    # Wait ids: the current one is taken at once, a stale one refused, also with nothing asked.
    "wait ids": [("ask", "challenge", "w1", 10, 100.0), ("answer", "allow", "allow", 100.01, {"wait": 10}, True),
                 ("ask", "block", "w2", 12, 100.02), ("answer", "allow", "allow", 100.03, {"wait": 10}, False),
                 ("answer", "allow", "allow", 100.03, {"wait": 12}, True), ("ask", None, "", 13, 100.04),
                 ("answer", "lose", "lose", 100.05, {"wait": 12}, False)],
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_guard_rule_case_by_case(case):
    from world.waits import Answer, WaitBook

    book = WaitBook(guard=1.5, base=1000)
    ids: dict[int, int] = {}  # the case's step of a question -> its id
    for kind, *args in CASES[case]:
        if kind == "ask":
            question, window, step, now = args
            key = None if question is None else f"{question}/{window}"  # (the runner's key has the window)
            got = book.note(0, key, window, now)
            assert (got is None) == (question is None) and got not in ids.values(), (case, args, got)
            if got is not None:
                ids[step] = got
            continue
        action, verb, now, extra, taken = args
        if "wait" in extra:  # the case names a question by its step
            extra = {**extra, "wait": ids[extra["wait"]]}
        answer = Answer(action=action, verb=verb, **extra)
        assert book.refusal(0, answer, now) is (not taken), (case, args)
        if taken:
            book.taken(0, answer, now)


def test_the_same_question_keeps_its_id_while_the_clock_moves():
    """More time (a Master's `extend`) is the same question: a new Awaiting (its deadline moved)
    with the same wait id. On the runner's output side, with a Coup table."""
    from datetime import timedelta

    from tests.test_gmcp_views import Harness

    h = Harness("coup", {}, 3, 5)
    h.begin()
    active = h.engine.awaiting(h.table.game)[0].seat
    h.runner.deadline += timedelta(seconds=30)
    h.output.send_awaiting()
    sent = [json.loads(data) for name, data in h.eyes[active][0].got if name == "Korchma.Game.Awaiting"]
    assert len(sent) == 2 and sent[0]["deadline"] != sent[1]["deadline"]
    assert sent[0]["kind"] == "turn" and sent[0]["wait"] == sent[1]["wait"] == sent[0]["since"]
    assert sent[1]["since"] == sent[0]["since"] + 1  # a new wait for the same question
