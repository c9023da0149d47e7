"""Mafia stalemate (4.6 #13, games/mafia/stalemate.py): a table where nothing can change ends.

Idle people (they only say `ready`) beside bots used to leave some tables running for ever: a
Гражданский bot's correct Суд присяжных guess set secret extra votes every night, which counted
as a pending timed effect and reset the counter, while nobody could die. Rules revision 2 lets
such votes hold the counter until their day has voted; revision 1 stays for tables that started
with it, so their logs replay as they were played."""
from __future__ import annotations

import random

from games.base import RuleError
from games.mafia import GAME
from games.mafia import stalemate as Q

READY = {"type": "ready"}
MAX_PHASES = 120  # far more than any of these tables needs; the old rule never ended some at all


def play(seed: int, players: int, idle: tuple[int, ...], ruleset: str, rules_rev: int | None,
         cap: int = 4000):
    options = {"ruleset": ruleset} if rules_rev is None else {"ruleset": ruleset, "rules_rev": rules_rev}
    s = GAME.new(players, options, seed)
    rng = random.Random(seed)
    for _ in range(cap):
        if GAME.outcome(s) is not None:
            return s
        waits = GAME.awaiting(s)
        seat = waits[rng.randrange(len(waits))].seat
        legal = GAME.legal(s, seat)
        if seat in idle:
            action = dict(READY) if READY in legal else legal[0]
        else:
            action = GAME.bot_action(GAME.view(s, seat), legal, rng, "easy")
        GAME.apply(s, seat, action)
    return s


def tables(count: int):
    for seed in range(count):
        r = random.Random(seed * 7 + 1)
        players = r.randint(5, 9)
        idle = tuple(r.sample(range(players), r.randint(0, players - 1)))
        yield seed, players, idle, "ABC"[seed % 3]


def test_tables_with_idle_people_end_within_a_bounded_number_of_phases():
    for seed, players, idle, ruleset in tables(300):
        s = play(seed, players, idle, ruleset, None)
        assert GAME.outcome(s) is not None, (seed, players, idle, ruleset, s.index)
        assert s.index <= MAX_PHASES, (seed, s.index)


def test_a_guessing_civilian_and_a_hospitalised_maniac_reach_a_stalemate():
    """Seed 114 of the sweep (6 seats, A): the old rule never ends it, today's ends it with no
    winner once two full cycles passed with only secret extra votes waiting."""
    old = play(114, 6, (3, 5, 0, 2, 4), "A", 1, cap=3000)
    assert GAME.outcome(old) is None and old.index > MAX_PHASES, old.index
    new = play(114, 6, (3, 5, 0, 2, 4), "A", None)
    out = GAME.outcome(new)
    assert out is not None and new.reason == "stalemate", (new.reason, new.index)


def test_the_revision_is_pinned_at_the_start_and_restored_tables_keep_revision_1():
    assert GAME.start_options({"version": "C"})["rules_rev"] == Q.RULES_REV == 3
    assert GAME.restored_options({"version": "C"})["rules_rev"] == 1
    assert GAME.restored_options({"version": "C", "rules_rev": 2})["rules_rev"] == 2
    assert GAME.new(6, {"rules_rev": 1}, 3).rules_rev == 1
    assert GAME.new(6, {}, 3).rules_rev == 3
    for bad in (4, True, "2"):
        try:
            GAME.validate_options({"rules_rev": bad})
        except RuleError:
            continue
        raise AssertionError(f"rules_rev={bad!r} accepted")
