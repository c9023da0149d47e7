"""The end reveals all (issue 14), engine side: every engine's ``final_reveal`` is None while
the game goes on, and at the end it says exactly what the engine hid (each seat's own view and
the Master's agree with it), in plain JSON-able data."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.base import MASTER
from games.registry import get


def play_to_end(name: str, seats: int, options: dict[str, Any], seed: int, check=None) -> tuple[Any, Any]:
    """A seeded game of bots to its end; ``check(state)`` after every step while it goes on."""
    engine = get(name)
    state = engine.new(seats, options, seed)
    rng = random.Random(seed)
    for _ in range(200000):
        if engine.outcome(state) is not None:
            return engine, state
        if check is not None:
            check(engine, state)
        waits = engine.awaiting(state)
        assert waits, f"{name}: nobody awaited and no outcome"
        wait = waits[rng.randrange(len(waits))]
        legal = engine.legal(state, wait.seat)
        action = engine.bot_action(engine.view(state, wait.seat), legal, rng, "normal") if legal else wait.default
        engine.apply(state, wait.seat, action)
    raise AssertionError(f"{name}: the game did not end")


def no_reveal_yet(engine: Any, state: Any) -> None:
    assert engine.final_reveal(state) is None


def common(engine: Any, state: Any, seats: int) -> dict[str, Any]:
    reveal = engine.final_reveal(state)
    assert reveal is not None
    json.dumps(reveal)  # it goes to GMCP and the inbox as it is
    outcome = engine.outcome(state)
    assert reveal["game"] == engine.name
    assert reveal["winners"] == list(outcome.winners) and reveal["reason"] == outcome.reason
    assert [s["seat"] for s in reveal["seats"]] == list(range(seats))
    assert all(isinstance(n, int) and n > 0 for n in reveal["length"].values()), reveal["length"]
    # The reveal is a copy: changing it leaves the game as it was.
    reveal["seats"].clear()
    assert engine.final_reveal(state)["seats"]
    return engine.final_reveal(state)


@pytest.mark.parametrize("seed", [3, 17])
def test_bids_reveal_is_the_unplayed_hands_and_prizes(seed):
    engine, state = play_to_end("bids", 4, {"rounds": 5}, seed, no_reveal_yet)
    reveal = common(engine, state, 4)
    dealt = engine.new(4, {"rounds": 5}, seed)
    for entry in reveal["seats"]:
        seat = entry["seat"]
        assert entry["hand"] == engine.view(state, seat)["hand"] == state.hands[seat]
        # What was dealt is what is left plus what was bid.
        assert sorted(entry["hand"] + entry["bids"]) == dealt.hands[seat]
        assert entry["score"] == state.scores[seat]
    assert reveal["prizes_unplayed"] == engine.view(state, MASTER)["prize_row"] and len(reveal["prizes_unplayed"]) == 5
    assert reveal["length"] == {"rounds": 5}


@pytest.mark.parametrize("seed", [5, 23])
def test_coup_reveal_is_the_winners_hidden_cards_and_every_lost_one(seed):
    engine, state = play_to_end("coup", 4, {}, seed, no_reveal_yet)
    reveal = common(engine, state, 4)
    master = engine.view(state, MASTER)
    (winner,) = reveal["winners"]
    for entry in reveal["seats"]:
        seat = entry["seat"]
        assert entry["hidden"] == master["hands"][seat] == engine.view(state, seat)["hand"]
        assert entry["revealed"] == master["face_up"][seat]
        assert entry["coins"] == state.coins[seat]
        if seat == winner:
            assert entry["alive"] and entry["hidden"] and len(entry["hidden"]) + len(entry["revealed"]) == 2
        else:
            assert not entry["alive"] and entry["hidden"] == [] and len(entry["revealed"]) == 2
    assert reveal["length"] == {"turns": state.turn}


@pytest.mark.parametrize("seed", [2, 9])
def test_whispers_reveal_is_every_role_card(seed):
    engine, state = play_to_end("whispers", 6, {}, seed, no_reveal_yet)
    reveal = common(engine, state, 6)
    master = engine.view(state, MASTER)
    assert [e["side"] for e in reveal["seats"]] == master["sides"]
    assert sorted(e["side"] for e in reveal["seats"]) == ["capitol"] * 4 + ["district"] * 2
    for entry in reveal["seats"]:
        seat = entry["seat"]
        own = engine.view(state, seat)
        assert entry["side"] == own["side"] and entry["hand"] == own["hand"]
        assert entry["status"] == own["status"][seat] and entry["defeated"] == own["defeated"][seat]
        assert entry["placed"] == sorted(rank for _, rank in master["placed_cards"][seat])
    winners = {e["seat"] for e in reveal["seats"] if e["side"] == state.winner}
    assert set(reveal["winners"]) == winners
    assert reveal["length"] == {"rounds": state.round}


@pytest.mark.parametrize("seed", [4, 11])
def test_revolution_reveal_is_every_hand_and_level(seed):
    engine, state = play_to_end("revolution", 4, {}, seed, no_reveal_yet)
    reveal = common(engine, state, 4)
    master = engine.view(state, MASTER)
    for entry in reveal["seats"]:
        seat = entry["seat"]
        own = engine.view(state, seat)
        assert entry["hand"] == own["hand"] == master["hands"][seat]
        assert entry["level"] == master["levels"][seat]
        assert entry["gear"] == master["gear"][seat]
        assert entry["class"] == master["classes"][seat] and entry["party"] == master["parties"][seat]
    (winner,) = reveal["winners"]
    assert reveal["seats"][winner]["level"] >= 10
    assert reveal["length"] == {"turns": state.turn_no}


@pytest.mark.parametrize("seed", [1, 8])
def test_mafia_reveal_is_every_role_team_and_persona(seed):
    engine, state = play_to_end("mafia", 9, {}, seed, no_reveal_yet)
    reveal = common(engine, state, 9)
    master = engine.view(state, MASTER)
    assert [e["role"] for e in reveal["seats"]] == master["roles"]
    assert [e["faction"] for e in reveal["seats"]] == master["factions"]
    for entry in reveal["seats"]:
        seat = entry["seat"]
        own = engine.view(state, seat)
        assert entry["role"] == own["role"] and entry["faction"] == own["faction"]
        assert entry["personas_start"] == own["personas_start"]
        assert entry["personas"] == master["personas"][seat]
        assert entry["alive"] == master["alive"][seat]
        assert entry["public"] == master["public_roles"][seat]["key"]
    nights, days = state.index // 2 + 1, (state.index + 1) // 2
    assert reveal["length"] == {"nights": nights, "days": days}
