"""Forum Mafia: 1,000 seeded bot games (5-30 players) straight on the engine, checked at every step.

Each game draws its player count from its seed; the seat that acts next is drawn among the
awaited ones; now and then a seat times out (its ``Awaiting.default``, ``ready``, is applied) or
takes a random fully-given legal action, as a person might. At every step:

* every event key is one of the contract's (docs/mafia-protocol.md, "Events"), with the audience
  the contract gives it (public, whisper, master);
* no whisper reaches a dead seat (nor one that died in the phase it reports);
* no player receives a private result meant for someone else: a result goes only to the seat
  that gave the order (checked against the Master's view of the orders before the resolution),
  a block notice only to a blocked seat, mail only to its addressee, plans only to the genius,
  the dead's roles only to the Маньяк, the team only to the Mafia;
* a seat's view never holds another seat's role, HP, orders or personas;

and every game ends with a winner (living winners) or a stalemate. The games are split across the
rulesets A, B and C (``VERSIONS[seed % 3]``). The games run in two worker
processes when the machine has two cores (``MAFIA_PROCESSES=1``: in this process). To replay a
failing seed: ``run_game(seed)``.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import traceback

from games.base import MASTER, SPECTATOR
from games.mafia import GAME, bot
import pytest

# Thousands of games: minutes of CPU, longer while other test files share the two cores; the
# suite's 180 s limit is for hangs, and these would trip it only by sharing the machine.
pytestmark = pytest.mark.timeout(600)

GAMES = 1_000
VERSIONS = ("C", "A", "B")  # the ruleset of seed n: VERSIONS[n % 3]
MAX_STEPS = 40_000
TIMEOUT_RATE = 0.05
WHIM_RATE = 0.03

PUBLIC = frozenset(("mafia.start", "mafia.news", "mafia.phase", "mafia.died", "mafia.hospital", "mafia.recovered",
                    "mafia.jailed", "mafia.released", "mafia.tommygun", "mafia.city_mail", "mafia.city_spammed",
                    "mafia.vote_result", "mafia.no_execution", "mafia.win", "mafia.stalemate",
                    "mafia.voted", "mafia.tally", "mafia.all_in"))
WHISPERS = frozenset(("mafia.role", "mafia.team", "mafia.ordered", "mafia.cancelled", "mafia.done",
                      "mafia.blocked", "mafia.blocked_some", "mafia.blocked_idle", "mafia.blocked_day",
                      "mafia.personas", "mafia.search", "mafia.autopsy", "mafia.guess",
                      "mafia.armed", "mafia.banned", "mafia.mail", "mafia.spammed", "mafia.plans",
                      "mafia.dead_role", "mafia.investigation", "mafia.evidence", "mafia.cards", "mafia.fate",
                      "mafia.croupier", "mafia.call", "mafia.probed"))
MASTER_KEYS = frozenset(("mafia.order_log",))
RESULTS = frozenset(("mafia.personas", "mafia.search", "mafia.autopsy", "mafia.guess", "mafia.investigation",
                     "mafia.evidence"))
SECRET_VIEW_KEYS = frozenset(("roles", "hp", "personas", "temp", "factions", "extra_votes", "propaganda"))
REASONS = frozenset(("ddd", "legend", "mafia", "law", "stalemate", "all_in"))


class Leak(AssertionError):
    pass


def whim(legal: list, rng: random.Random) -> dict:
    simple = [a for a in legal if "need" not in a]
    return dict(rng.choice(simple))


def check_events(events, before_master: dict, s, acting: int) -> None:
    orders = before_master["orders"] if before_master else None
    roles = s.roles
    for e in events:
        key, aud, p = e.key, e.audience, e.params
        if key in PUBLIC:
            if aud.kind != "all":
                raise Leak(f"{key} not public")
            continue
        if key in MASTER_KEYS:
            if aud.kind != "master":
                raise Leak(f"{key} not to the master")
            continue
        if key not in WHISPERS:
            raise Leak(f"unknown event {key}")
        if aud.kind != "seats" or not aud.seats:
            raise Leak(f"{key} is not a whisper: {aud}")
        for seat in aud.seats:
            if not s.alive[seat]:
                raise Leak(f"{key} to dead seat {seat}")
        if key == "mafia.team":
            mafia = tuple(sorted(x for x in range(s.players) if roles[x] in ("boss", "killer", "agent")))
            if tuple(sorted(aud.seats)) != mafia:
                raise Leak("team to non-mafia")
            continue
        if aud.seats != (p["seat"],):
            raise Leak(f"{key} to {aud.seats}, params seat {p.get('seat')}")
        seat = p["seat"]
        if key in ("mafia.ordered", "mafia.cancelled", "mafia.done"):
            if seat != acting:
                raise Leak(f"{key} to a seat that did not act")
        elif key in RESULTS:
            order = orders[seat].get(p["ability"])
            if order is None or order.get("target") != p["target_seat"]:
                raise Leak(f"{key} to seat {seat} without its order {p}")
        elif key in ("mafia.blocked", "mafia.blocked_some", "mafia.blocked_idle", "mafia.blocked_day"):
            if not any(o.get("target") == seat for mine in orders for k, o in mine.items()
                       if k in ("interrogation", "zombify")):
                raise Leak("blocked without a block")
        elif key in ("mafia.mail", "mafia.spammed", "mafia.call"):
            if not any(k in mine and mine[k]["target"] == seat for mine in orders for k in ("mail", "call")):
                raise Leak("mail without a sender")
        elif key in ("mafia.fate", "mafia.croupier"):
            if roles[seat] != "joker":
                raise Leak(f"{key} to a non-joker")
        elif key == "mafia.probed":
            if roles[seat] != "maniac":
                raise Leak("probed to a non-maniac")
        elif key == "mafia.armed":
            if not any("militia" in mine and mine["militia"]["target"] == seat for mine in orders):
                raise Leak("armed without militia")
        elif key == "mafia.banned":
            if not any("ban" in mine and mine["ban"]["target"] == seat for mine in orders):
                raise Leak("banned without ban")
        elif key == "mafia.plans":
            if roles[seat] != "genius":
                raise Leak("plans to a non-genius")
        elif key == "mafia.dead_role":
            if roles[seat] != "maniac" or s.alive[p["target_seat"]]:
                raise Leak("dead role to a non-maniac or of the living")
        elif key == "mafia.role":
            raise Leak("role whisper during play")


def check_view(view: dict, s, seat: int) -> None:
    if SECRET_VIEW_KEYS & set(view):
        raise Leak(f"seat {seat} sees {SECRET_VIEW_KEYS & set(view)}")
    if view["role"] != s.roles[seat]:
        raise Leak("wrong own role")
    for t in view.get("team", ()):
        if s.roles[seat] not in ("boss", "killer", "agent"):
            raise Leak("team to non-mafia")
    if "dead_roles" in view and s.roles[seat] != "maniac":
        raise Leak("dead roles to a non-maniac")
    if "plans" in view and s.roles[seat] != "genius":
        raise Leak("plans to a non-genius")


def run_game(seed: int):
    table = random.Random(seed * 7919 + 1)
    players = 5 + seed % 26
    s = GAME.new(players, {"ruleset": VERSIONS[seed % 3]}, seed)
    start = GAME.start_events(s)
    check_events([e for e in start if e.key != "mafia.role"], {"orders": [{}] * players}, s, -1)
    for e in start:
        if e.key == "mafia.role" and e.audience.seats != (e.params["seat"],):
            raise Leak("role to another seat")
    steps = 0
    while GAME.outcome(s) is None:
        waits = GAME.awaiting(s)
        assert waits, f"seed {seed}: nobody awaited in {s.phase} {s.index}"
        wait = waits[table.randrange(len(waits))]
        seat = wait.seat
        legal = GAME.legal(s, seat)
        assert wait.default in legal
        view = GAME.view(s, seat)
        check_view(view, s, seat)
        if steps % 97 == 0:  # the Master sees every role and every order
            master = GAME.view(s, MASTER)
            assert master["roles"] == s.roles and master["orders"] == s.orders
        roll = table.random()
        if roll < TIMEOUT_RATE:
            action = wait.default
        elif roll < TIMEOUT_RATE + WHIM_RATE:
            action = whim(legal, table)
        else:
            action = GAME.bot_action(view, legal, table, "easy")
        # the orders as the Master sees them before a resolution (a copy of the state's, for speed)
        before = {"orders": [{k: dict(v) for k, v in o.items()} for o in s.orders]} if action["type"] == "ready" else None
        events = GAME.apply(s, seat, action)
        check_events(events, before, s, seat)
        steps += 1
        assert steps < MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} actions"
    out = GAME.outcome(s)
    reason = out.reason.removeprefix("mafia.outcome.")
    assert reason in REASONS
    if reason == "stalemate":
        assert out.winners == ()
    else:
        assert out.winners and all(s.alive[x] for x in out.winners)
    assert GAME.awaiting(s) == [] and GAME.legal(s, 0) == []
    assert GAME.view(s, SPECTATOR)["winners"] == list(out.winners)
    return reason, players, steps


def run_seeds(seeds: range) -> tuple[list[str], list[tuple]]:
    bot.STRICT = True
    failures, results = [], []
    for seed in seeds:
        try:
            results.append(run_game(seed))
        except Exception:
            failures.append(f"seed {seed}: {traceback.format_exc(limit=-4)}")
            if len(failures) >= 5:
                break
    return failures, results


def test_1000_bot_games_end_never_leak_and_never_talk_to_the_dead():
    processes = int(os.environ.get("MAFIA_PROCESSES", min(2, os.cpu_count() or 1)))
    chunks = [range(start, min(start + 50, GAMES)) for start in range(0, GAMES, 50)]
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.map(run_seeds, chunks, chunksize=1)
    else:
        parts = [run_seeds(chunk) for chunk in chunks]
    failures = [f for part in parts for f in part[0]]
    assert not failures, f"{len(failures)} failing games; replay with run_game(seed):\n\n" + "\n".join(failures[:3])
    results = [r for part in parts for r in part[1]]
    assert len(results) == GAMES
    reasons = {r[0] for r in results}
    assert {"law", "mafia", "ddd", "legend"} <= reasons, reasons
    assert {r[1] for r in results} == set(range(5, 31))


def test_bots_answer_from_legal_and_are_pure():
    s = GAME.new(12, {}, 5)
    for _ in range(300):
        if GAME.outcome(s) is not None:
            break
        seat = GAME.awaiting(s)[0].seat
        view, legal = GAME.view(s, seat), GAME.legal(s, seat)
        a = GAME.bot_action(view, legal, random.Random(1), "easy")
        b = GAME.bot_action(view, legal, random.Random(1), "easy")
        assert a == b
        shape = {k: v for k, v in a.items() if k not in ("role", "persona", "personas", "public", "bans", "text")}
        assert shape in [{k: v for k, v in x.items() if k not in ("need", "among")} for x in legal], a
        GAME.apply(s, seat, a)


def test_mafia_bots_never_shoot_a_teammate():
    for seed in range(40):
        s = GAME.new(10, {}, seed)
        rng = random.Random(seed)
        while GAME.outcome(s) is None:
            seat = GAME.awaiting(s)[rng.randrange(len(GAME.awaiting(s)))].seat
            action = GAME.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "easy")
            if s.roles[seat] in ("boss", "killer", "agent") and action.get("ability") in (
                    "pistol", "sniper", "tommygun", "legacy", "sabotage", "interrogation"):
                assert s.roles[action["target"]] not in ("boss", "killer", "agent")
            if action["type"] == "vote" and s.roles[seat] in ("boss", "killer", "agent"):
                assert s.roles[action["target"]] not in ("boss", "killer", "agent") or all(
                    s.roles[x] in ("boss", "killer", "agent") for x in s.living() if x != seat)
            GAME.apply(s, seat, action)
