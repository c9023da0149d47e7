"""Issue 14, "Nobody waits on a window they cannot use": straight on the engines, no server.

A wait never includes a seat whose only legal answer is to pass (or allow, or say ready), and a
window closes as soon as every seat that could answer otherwise has passed. «Революция» asks only
the seats with a card to play, help to offer or accept, or an item to wear; Coup's windows stay
open to every seat in them (a block or a challenge is always a legal claim: a bluff); Mafia asks
only seats with an order they could give; «Шептуны» and the bids ask for turns and bids only.
The engines' ``window_pass`` (what autopass sends) is checked here too.
"""
from __future__ import annotations

import random

import pytest

from games.coup import GAME as COUP
from games.registry import all_games
from games.revolution import GAME as REV
from games.revolution import deck as D
from games.revolution import engine as E

DECK = D.load("default")
PASSES = ({"type": "pass"}, {"type": "allow"}, {"type": "ready"}, {"type": "fold"})


def fresh(players=3, seed=1):
    """A «Революция» game at turn 1, seat 0 to draw face up, every hand empty."""
    s = REV.new(players, {}, seed)
    for seat in range(players):
        for cid in s.hands[seat]:
            (s.turn_deck if DECK.cards[cid].deck == "turn" else s.loot_deck).insert(0, cid)
        s.hands[seat] = []
    s.active, s.stage = 0, "open"
    return s


def give(s, cid, seat):
    for pile in (s.turn_deck, s.loot_deck):
        if cid in pile:
            pile.remove(cid)
            s.hands[seat].append(cid)
            return
    raise AssertionError(cid)


def fight_with(s, cid, seat=0):
    for pile in (s.turn_deck, s.turn_discard):
        if cid in pile:
            pile.remove(cid)
    s.turn_deck.append(cid)
    s.active, s.stage = seat, "open"
    return REV.apply(s, seat, {"type": "draw"})


def asked(s):
    return {a.seat for a in REV.awaiting(s)}


def keys(events):
    return [e.key for e in events]


# -- «Революция» ----------------------------------------------------------------------------------


def test_a_jailed_seat_without_a_hindering_card_is_not_asked():
    """The issue's example: in jail one may only hinder; «Паёк» (+2 to the players' side) cannot."""
    s = fresh()
    s.levels[0] = 4
    s.jail[2] = 2
    give(s, "paek", 2)
    fight_with(s, "gorodovoy")
    assert asked(s) == {1}  # seat 1 may offer help; the fighter has no card; seat 2 cannot hinder
    assert not [a for a in REV.legal(s, 2) if a not in PASSES]
    give(s, "makhorka", 2)  # +1 to either side: to the opponent's, that hinders
    s.wait_no += 1  # (a card handed in by the test: the engine would have opened a new wait)
    assert asked(s) == {1, 2}


def test_the_window_closes_when_the_last_seat_that_could_act_passes():
    s = fresh()
    s.levels[0] = 4
    s.jail[2] = 2  # jailed, no card: never asked, never needs to pass
    fight_with(s, "gorodovoy")
    assert asked(s) == {1}
    events = REV.apply(s, 1, {"type": "pass"})
    assert "revolution.won" in keys(events) and s.stage == "end" and s.fight is None
    assert keys(events).count("revolution.passed") == 1  # no pass said for the seats not asked


def test_a_fight_nobody_can_answer_resolves_with_the_draw():
    """Two players, the other in jail with an empty hand, the fighter with none: nothing to wait for."""
    s = fresh(players=2)
    s.levels[0] = 4
    s.jail[1] = 2
    events = fight_with(s, "gorodovoy")
    assert keys(events)[:2] == ["revolution.drawn", "revolution.fight"]
    assert "revolution.won" in keys(events) and s.stage == "end"
    assert REV.awaiting(s)[0].kind == "turn"  # the turn goes on at once


def test_an_offer_brings_the_fighter_back_and_accepting_closes_what_nobody_can_use():
    s = fresh()
    s.levels[1] = 6
    fight_with(s, "banda")
    assert asked(s) == {1, 2}  # the fighter, with no card, waits for offers without being asked
    REV.apply(s, 1, {"type": "offer", "share": 1})
    assert 0 in asked(s)  # now the fighter may accept
    REV.apply(s, 2, {"type": "pass"})
    assert asked(s) == {0}
    events = REV.apply(s, 0, {"type": "accept", "seat": 1})
    assert "revolution.won" in keys(events)  # nobody holds a card: it is fought at once


def test_a_card_played_asks_again_everyone_who_could_answer():
    s = fresh()
    s.levels[0] = 4
    s.jail[2] = 2  # may only hinder, and only with its card
    give(s, "makhorka", 1)
    give(s, "listovka", 2)
    fight_with(s, "gorodovoy")
    assert asked(s) == {1, 2}
    REV.apply(s, 1, {"type": "pass"})
    assert asked(s) == {2}
    REV.apply(s, 2, {"type": "play", "card": "listovka", "side": "opponent"})
    assert asked(s) == {1}  # seat 2 has nothing left; seat 1 may answer the new total
    events = REV.apply(s, 1, {"type": "pass"})
    assert "revolution.won" in keys(events) or "revolution.lost" in keys(events)


def test_a_counter_window_asks_only_who_holds_the_counter_of_its_level():
    s = fresh()
    give(s, "oktyabrskaya", 0)
    s.stage = "choose"
    events = REV.apply(s, 0, {"type": "play", "card": "oktyabrskaya"})
    assert s.stage == "choose" and s.counter is None  # nobody holds a counter: closed at once
    assert s.ruling == "bolsheviks" and "revolution.revolution" in keys(events)
    give(s, "kontrrevolyuciya", 2)
    give(s, "fevralskaya", 1)
    s.pty[1] = "party_anarchists"
    s.turn_deck.remove("party_anarchists") if "party_anarchists" in s.turn_deck else None
    REV.apply(s, 1, {"type": "play", "card": "fevralskaya"})
    assert s.stage == "counter" and asked(s) == {2}
    assert REV.window_pass(s, 2) == ({"type": "pass"}, False)  # seat 2 has no party at stake
    s.pty[2] = "party_bolsheviks"  # (the party that loses power)
    assert REV.window_pass(s, 2) == ({"type": "pass"}, True)
    REV.apply(s, 2, {"type": "pass"})
    assert s.stage == "choose"


def test_window_pass_says_which_windows_concern_the_seat():
    s = fresh()
    s.levels[0] = 4
    give(s, "makhorka", 0)
    give(s, "listovka", 2)
    fight_with(s, "gorodovoy")
    assert REV.window_pass(s, 0) == ({"type": "pass"}, True)  # the fighter's own fight
    assert REV.window_pass(s, 2) == ({"type": "pass"}, False)
    REV.apply(s, 2, {"type": "pass"})
    assert REV.window_pass(s, 2) is None  # answered
    assert REV.window_pass(fresh(), 0) is None  # a turn is not a window


# -- Coup -------------------------------------------------------------------------------------------


def test_coup_windows_keep_every_seat_and_say_whom_they_concern():
    s = COUP.new(4, {}, 3)
    seat = s.active
    target = (seat + 1) % 4
    COUP.apply(s, seat, {"type": "steal", "target": target})
    waits = COUP.awaiting(s)
    assert {a.seat for a in waits} == {x for x in range(4) if x != seat}  # a challenge: anyone may bluff
    for a in waits:
        assert {"type": "challenge"} in COUP.legal(s, a.seat)
        assert COUP.window_pass(s, a.seat) == ({"type": "allow"}, a.seat == target)
    assert COUP.window_pass(s, seat) is None
    for a in waits:
        COUP.apply(s, a.seat, {"type": "allow"})
    assert s.stage == "block" and [a.seat for a in COUP.awaiting(s)] == [target]
    assert COUP.window_pass(s, target) == ({"type": "allow"}, True)
    assert [x for x in COUP.legal(s, target) if x["type"] == "block"]  # a block is always a legal claim


# -- every game: nobody awaited with nothing but a pass --------------------------------------------


@pytest.mark.parametrize("name", sorted(all_games()))
def test_no_game_awaits_a_seat_that_can_only_pass(name):
    """Seeded bot games of each game (timeouts now and then): at every step, every awaited seat
    has a legal answer besides passing, and a game never waits on nobody before it is over."""
    engine = all_games()[name]
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        low = 5 if name == "whispers" else max(engine.min_players, 2)  # «Шептуны» below 5: an option
        players = rng.randint(low, min(engine.max_players, 6))
        s = engine.new(players, {}, seed)
        for _ in range(3000):
            if engine.outcome(s) is not None:
                break
            waits = engine.awaiting(s)
            assert waits, (name, seed)
            for wait in waits:
                legal = engine.legal(s, wait.seat)
                assert [a for a in legal if a not in PASSES], (name, seed, wait)
                checked += 1
            wait = waits[rng.randrange(len(waits))]
            legal = engine.legal(s, wait.seat)
            if rng.random() < 0.1 and wait.default is not None:
                action = wait.default
            else:
                action = engine.bot_action(engine.view(s, wait.seat), legal, rng, "normal")
            engine.apply(s, wait.seat, action)
    assert checked > 200
