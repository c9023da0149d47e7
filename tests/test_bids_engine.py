"""Sealed Bids engine: dealing, replay, each rule on a set position, and no leaks over many bot games."""
from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from games.base import MASTER, SPECTATOR, Audience, Outcome, RuleError
from games.bids import GAME
from games.bids.engine import BidsState, highest_unique_bid

FOLD = {"type": "fold"}


def BID(card: int) -> dict:  # noqa: N802 (reads like the constant FOLD)
    return {"type": "bid", "card": card}


# ----------------------------------------------------------------------------------- helpers


def position(hands: list[list[int]], prizes: list[int]) -> BidsState:
    """A game with chosen hands and prize row (first prize face up); rounds = hand size."""
    state = GAME.new(len(hands), {"rounds": len(hands[0])}, seed=0)
    state.hands = [sorted(hand) for hand in hands]
    state.prize, state.prize_row = prizes[0], list(prizes[1:])
    return state


def play_round(state: BidsState, *actions) -> list:
    """Every seat in order makes its move; returns all the events."""
    events = []
    for seat, action in enumerate(actions):
        events += GAME.apply(state, seat, action)
    return events


def public(events) -> list:
    return [e for e in events if e.audience == Audience.everyone()]


def keys(events) -> list[str]:
    return [e.key for e in events]


def raises(key: str, state: BidsState, seat: int, action, **params) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as info:
        GAME.apply(state, seat, action)
    assert info.value.key == key
    assert info.value.params == params
    assert _same_data(state, before)  # a refused action changes nothing


def clone(state: BidsState) -> BidsState:
    """A fast copy for the many-games test: like deepcopy, but shares the PRNG (apply never draws)."""
    return dataclasses.replace(
        state,
        hands=[list(hand) for hand in state.hands],
        prize_row=list(state.prize_row),
        moves=dict(state.moves),
        scores=list(state.scores),
        discards=[list(cards) for cards in state.discards],
        discarded_prizes=list(state.discarded_prizes),
    )


def _same_data(a: BidsState, b: BidsState) -> bool:
    """Field by field; random.Random compares by identity, so its internal state is compared."""
    fields = [f.name for f in dataclasses.fields(BidsState) if f.name != "rng"]
    return a.rng.getstate() == b.rng.getstate() and all(getattr(a, f) == getattr(b, f) for f in fields)


# ----------------------------------------------------------------------------------- setup


def test_dealing_reproduces_from_seed():
    a = GAME.new(4, {"rounds": 6}, seed=1234)
    b = GAME.new(4, {"rounds": 6}, seed=1234)
    assert a.hands == b.hands and a.prize == b.prize and a.prize_row == b.prize_row
    assert _same_data(a, b)
    c = GAME.new(4, {"rounds": 6}, seed=1235)
    assert (c.hands, c.prize_row) != (a.hands, a.prize_row)
    for hand in a.hands:
        assert len(hand) == 6 and len(set(hand)) == 6 and all(1 <= card <= 15 for card in hand)
    assert sorted([a.prize] + a.prize_row) == list(range(1, 13))


def test_start_events():
    state = GAME.new(3, {}, seed=7)
    events = GAME.start_events(state)
    assert keys(events) == ["bids.start", "bids.hand", "bids.hand", "bids.hand", "bids.round"]
    assert events[0].params == {"rounds": 5, "players": 3}
    for seat in range(3):
        hand_event = events[1 + seat]
        assert hand_event.audience == Audience.only(seat)
        assert hand_event.params == {"seat": seat, "cards": state.hands[seat]}
    assert events[-1].params == {"round": 1, "rounds": 5, "prize": state.prize}


def test_options():
    assert GAME.validate_options({}) == {"rounds": 5, "seconds": 30}
    assert GAME.validate_options(None) == {"rounds": 5, "seconds": 30}
    assert GAME.validate_options({"rounds": "7"}) == {"rounds": 7, "seconds": 30}
    assert GAME.validate_options({"rounds": 3}) == {"rounds": 3, "seconds": 30}
    assert GAME.validate_options({"rounds": " 10 ", "seconds": "5"}) == {"rounds": 10, "seconds": 5}
    with pytest.raises(RuleError):
        GAME.validate_options({"seconds": 0})
    for bad in (2, 11, "abc", "", True, 5.0, None, "-4"):
        with pytest.raises(RuleError) as info:
            GAME.validate_options({"rounds": bad})
        assert info.value.key == "bids.error.bad_option"
        assert info.value.params == {"name": "rounds", "value": bad}
    with pytest.raises(RuleError) as info:
        GAME.validate_options({"speed": 1})
    assert info.value.params == {"name": "speed", "value": 1}
    for seats in (1, 7):
        with pytest.raises(RuleError):
            GAME.new(seats, {}, seed=1)
    assert GAME.new(2, {"rounds": "3"}, seed=1).rounds == 3
    state = GAME.new(2, {"seconds": 7}, seed=1)
    assert {a.seconds for a in GAME.awaiting(state)} == {7}  # the window length the runner uses


def test_state_is_deep_copyable():
    state = GAME.new(3, {}, seed=5)
    twin = copy.deepcopy(state)
    GAME.apply(twin, 0, BID(twin.hands[0][0]))
    assert state.moves == {} and twin.moves != {}


# ----------------------------------------------------------------------------------- rules


def test_highest_unique_bid_wins():
    state = position([[3, 9, 12], [5, 10, 11], [1, 2, 15]], [6, 1, 2])
    events = play_round(state, BID(9), BID(5), BID(2))
    assert keys(events)[-5:] == ["bids.reveal_bid", "bids.reveal_bid", "bids.reveal_bid", "bids.round_won", "bids.round"]
    assert events[-2 - 3].params == {"seat": 0, "card": 9}
    assert events[-2].params == {"seat": 0, "card": 9, "prize": 6, "score": 6}
    assert events[-1].params == {"round": 2, "rounds": 3, "prize": 1}
    assert state.scores == [6, 0, 0]
    assert state.hands == [[3, 12], [10, 11], [1, 15]]
    assert state.discards == [[9], [5], [2]]


def test_tied_highest_bids_cancel_and_next_unique_wins():
    state = position([[9, 1, 2], [9, 3, 4], [5, 6, 7]], [4, 1, 2])
    events = play_round(state, BID(9), BID(9), BID(5))
    won = [e for e in events if e.key == "bids.round_won"]
    assert won[0].params == {"seat": 2, "card": 5, "prize": 4, "score": 4}
    assert state.scores == [0, 0, 4]
    assert state.discards == [[9], [9], [5]]  # the tied cards are spent all the same


def test_no_unique_bid_discards_prize():
    state = position([[9, 1, 2], [9, 3, 4], [5, 6, 7], [5, 8, 10]], [4, 1, 2])
    events = play_round(state, BID(9), BID(9), BID(5), BID(5))
    discarded = [e for e in events if e.key == "bids.prize_discarded"]
    assert discarded[0].params == {"prize": 4}
    assert "bids.round_won" not in keys(events)
    assert state.scores == [0, 0, 0, 0] and state.discarded_prizes == [4]
    assert highest_unique_bid({0: 7, 1: 7}) is None
    assert highest_unique_bid({0: None, 1: None}) is None
    assert highest_unique_bid({0: None, 1: 3}) == 1


def test_fold():
    state = position([[9, 1, 2], [9, 3, 4], [5, 6, 7]], [4, 1, 2])
    assert GAME.legal(state, 0) == [BID(1), BID(2), BID(9), FOLD]
    events = GAME.apply(state, 0, FOLD)
    assert keys(events) == ["bids.bid_placed", "bids.fold_confirmed"]
    assert events[0].params == {"seat": 0} and events[0].audience == Audience.everyone()
    assert events[1].params == {"seat": 0} and events[1].audience == Audience.only(0)
    assert GAME.legal(state, 0) == []
    assert GAME.view(state, 0)["my_move"] == FOLD
    events = GAME.apply(state, 1, BID(9)) + GAME.apply(state, 2, BID(5))
    assert [e.params for e in events if e.key == "bids.reveal_fold"] == [{"seat": 0}]
    assert [e.params["seat"] for e in events if e.key == "bids.round_won"] == [1]  # 9 is unique now
    assert state.hands[0] == [1, 2, 9]  # a fold keeps every card
    assert state.discards[0] == []


def test_everyone_folds():
    state = position([[1, 2, 3], [4, 5, 6]], [4, 1, 2])
    events = play_round(state, FOLD, FOLD)
    assert "bids.prize_discarded" in keys(events)
    assert state.discarded_prizes == [4] and state.hands == [[1, 2, 3], [4, 5, 6]]


def test_a_fold_and_a_bid_look_the_same_to_the_table():
    state = position([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [4, 1, 2])
    folded, bid = copy.deepcopy(state), copy.deepcopy(state)
    fold_events = GAME.apply(folded, 0, FOLD)
    bid_events = GAME.apply(bid, 0, BID(3))
    assert public(fold_events) == public(bid_events)
    for viewer in (1, 2, SPECTATOR):
        assert GAME.view(folded, viewer) == GAME.view(bid, viewer)
    assert GAME.view(folded, 0)["hand"] == GAME.view(bid, 0)["hand"] == [1, 2, 3]  # kept until reveal
    assert GAME.view(bid, 0)["my_move"] == BID(3)


def test_bid_is_confirmed_only_to_the_bidder():
    state = position([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [4, 1, 2])
    events = GAME.apply(state, 1, BID(5))
    assert keys(events) == ["bids.bid_placed", "bids.bid_confirmed"]
    assert events[0].params == {"seat": 1}
    assert events[1].audience == Audience.only(1) and events[1].params == {"seat": 1, "card": 5}
    assert GAME.view(state, 0)["moved"] == [1]
    assert "my_move" not in GAME.view(state, SPECTATOR)


def test_awaiting_and_default_action():
    state = position([[3, 9, 12], [5, 10, 11], [1, 2, 15]], [6, 1, 2])
    waits = GAME.awaiting(state)
    assert [w.seat for w in waits] == [0, 1, 2]
    assert all(w.kind == "reaction" and w.seconds == 30 for w in waits)
    assert [w.default for w in waits] == [BID(3), BID(5), BID(1)]  # the lowest card in hand
    GAME.apply(state, 1, BID(11))
    assert [w.seat for w in GAME.awaiting(state)] == [0, 2]
    for wait in GAME.awaiting(state):  # time runs out for everyone else
        GAME.apply(state, wait.seat, wait.default)
    assert state.discards == [[3], [11], [1]] and state.scores == [0, 6, 0]
    state.hands[0] = []  # cannot happen in play, but the default must still be legal
    assert GAME.awaiting(state)[0].default == FOLD


def test_illegal_actions():
    state = position([[3, 9, 12], [5, 10, 11]], [6, 1, 2])
    raises("bids.error.not_your_turn", state, 2, BID(3))
    raises("bids.error.not_your_turn", state, SPECTATOR, BID(3))
    raises("bids.error.not_your_turn", state, MASTER, FOLD)
    raises("bids.error.no_such_card", state, 0, BID(5), card=5)
    raises("bids.error.no_such_card", state, 0, BID(99), card=99)
    raises("bids.error.bad_action", state, 0, {"type": "pass"})
    raises("bids.error.bad_action", state, 0, {"type": "bid"})
    raises("bids.error.bad_action", state, 0, {"type": "bid", "card": "3"})
    raises("bids.error.bad_action", state, 0, {"type": "bid", "card": True})
    raises("bids.error.bad_action", state, 0, {"card": 3})
    raises("bids.error.bad_action", state, 0, "bid 3")
    GAME.apply(state, 0, BID(3))
    raises("bids.error.already_bid", state, 0, BID(9))
    raises("bids.error.already_bid", state, 0, FOLD)
    GAME.apply(state, 1, BID(5))
    raises("bids.error.no_such_card", state, 0, BID(3), card=3)  # spent last round
    play_round(state, BID(9), BID(10))
    play_round(state, BID(12), BID(11))
    assert GAME.outcome(state) is not None
    raises("bids.error.game_over", state, 0, BID(12))
    raises("bids.error.game_over", state, 5, {"type": "nonsense"})


def test_legal():
    state = position([[3, 9, 12], [5, 10, 11]], [6, 1, 2])
    assert GAME.legal(state, 1) == [BID(5), BID(10), BID(11), FOLD]
    assert GAME.legal(state, 2) == [] and GAME.legal(state, SPECTATOR) == [] and GAME.legal(state, MASTER) == []
    GAME.apply(state, 1, FOLD)
    assert GAME.legal(state, 1) == [] and GAME.legal(state, 0) != []


def test_game_end_highest_score_wins():
    state = position([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [5, 2, 6])
    play_round(state, BID(3), BID(4), FOLD)  # seat 1: 5
    assert GAME.outcome(state) is None
    play_round(state, FOLD, FOLD, BID(7))  # seat 2: 2
    events = play_round(state, BID(1), BID(5), BID(8))  # seat 2: 2 + 6 = 8
    assert keys(events)[-4:] == ["bids.final_score", "bids.final_score", "bids.final_score", "bids.game_over"]
    assert [e.params for e in events if e.key == "bids.final_score"] == [
        {"seat": 0, "score": 0},
        {"seat": 1, "score": 5},
        {"seat": 2, "score": 8},
    ]
    assert events[-1].params == {"seats": [2], "score": 8}
    assert GAME.outcome(state) == Outcome((2,), "bids.outcome.score", {"score": 8})
    assert GAME.awaiting(state) == [] and GAME.legal(state, 0) == []
    view = GAME.view(state, SPECTATOR)
    assert view["over"] and view["winners"] == [2] and view["prize"] is None


def test_equal_best_scores_share_the_win():
    state = position([[1, 2, 3], [4, 5, 6], [5, 7, 8]], [5, 2, 3])
    play_round(state, FOLD, BID(4), FOLD)  # seat 1: 5
    play_round(state, BID(1), FOLD, FOLD)  # seat 0: 2
    events = play_round(state, BID(2), BID(5), BID(5))  # 5 and 5 cancel; seat 0: 2 + 3 = 5
    assert events[-1].key == "bids.game_over" and events[-1].params == {"seats": [0, 1], "score": 5}
    assert GAME.outcome(state).winners == (0, 1)


def test_views():
    state = position([[3, 9, 12], [5, 10, 11], [1, 2, 15]], [6, 1, 2])
    GAME.apply(state, 1, BID(10))
    mine = GAME.view(state, 1)
    assert mine["hand"] == [5, 10, 11] and mine["my_move"] == BID(10)
    assert mine["moved"] == [1] and mine["hand_sizes"] == [3, 3, 3] and mine["prize"] == 6
    assert "hands" not in mine and "moves" not in mine and "prize_row" not in mine
    other = GAME.view(state, 0)
    assert other["hand"] == [3, 9, 12] and other["my_move"] is None
    spectator = GAME.view(state, SPECTATOR)
    assert not {"hand", "my_move", "hands", "moves", "prize_row"} & spectator.keys()
    master = GAME.view(state, MASTER)
    assert master["hands"] == [[3, 9, 12], [5, 10, 11], [1, 2, 15]]
    assert master["moves"] == [None, BID(10), None] and master["prize_row"] == [1, 2]
    master["hands"][0].append(99)  # a view is a copy
    assert state.hands[0] == [3, 9, 12]


def test_bot_levels():
    rng = random.Random(3)
    hand = [2, 5, 8, 11, 14]
    legal = [BID(card) for card in hand] + [FOLD]
    view = {"rounds": 5, "prize": 10, "hand": hand}
    assert GAME.bot_action(view, legal, rng, "normal") == BID(14)
    assert GAME.bot_action({**view, "prize": 1}, legal, rng, "normal") == BID(2)
    assert GAME.bot_action({**view, "prize": 5}, legal, rng, "normal") == BID(8)
    picks = {GAME.bot_action(view, legal, rng, "easy")["card"] for _ in range(200)}
    assert picks == set(hand)  # random, but always a card
    assert GAME.bot_action(view, [FOLD], rng, "normal") == FOLD


# ----------------------------------------------------------------------------------- many games


def run_game(seed: int, check=None) -> tuple[BidsState, list, list]:
    """A whole game of bots (with some folds and timeouts) from a seed; returns state, log, events."""
    table = random.Random(seed)
    players, rounds = table.randint(2, 6), table.randint(3, 10)
    levels = [table.choice(["easy", "normal"]) for _ in range(players)]
    state = GAME.new(players, {"rounds": rounds}, seed)
    log, all_events = [], [GAME.start_events(state)]
    while GAME.outcome(state) is None:
        waits = GAME.awaiting(state)
        assert waits
        wait = table.choice(waits)  # the seats answer in a random order
        roll = table.random()
        if roll < 0.1:
            action = wait.default  # timed out
        elif roll < 0.15:
            action = FOLD
        else:
            seat = wait.seat
            action = GAME.bot_action(GAME.view(state, seat), GAME.legal(state, seat), table, levels[seat])
        assert action in GAME.legal(state, wait.seat)
        before = clone(state) if check else None
        events = GAME.apply(state, wait.seat, action)
        log.append((wait.seat, action))
        all_events.append(events)
        if check:
            check(before, wait.seat, action, state, events)
        assert len(log) <= players * rounds
    return state, log, all_events


def test_replay_gives_the_same_game():
    for seed in range(20):
        state, log, events = run_game(seed)
        players, rounds = state.players, state.rounds
        replay = GAME.new(players, {"rounds": rounds}, seed)
        replay_events = [GAME.start_events(replay)]
        for seat, action in log:
            replay_events.append(GAME.apply(replay, seat, action))
        assert replay_events == events
        for viewer in [*range(players), SPECTATOR, MASTER]:
            assert GAME.view(replay, viewer) == GAME.view(state, viewer)
        assert GAME.outcome(replay) == GAME.outcome(state)


def disguise(state: BidsState, keep: int | None, rng: random.Random) -> BidsState:
    """The same public position with every secret not belonging to seat ``keep`` made up afresh."""
    hands, moves = [list(hand) for hand in state.hands], dict(state.moves)
    for seat in range(state.players):
        if seat == keep:
            continue
        hands[seat] = sorted(rng.sample(range(1, 16), len(hands[seat])))
        if seat in moves:
            moves[seat] = rng.choice(hands[seat] + [None])
    prize_row = [rng.randint(1, 99) for _ in state.prize_row]
    return dataclasses.replace(state, hands=hands, moves=moves, prize_row=prize_row)


def check_no_leak(before: BidsState, seat: int, action, after: BidsState, events) -> None:
    rng = random.Random(len(events) * 7919 + seat)
    # 1. Views: no viewer's view changes when secrets it may not know are made up differently.
    for viewer in [*range(after.players), SPECTATOR]:
        keep = viewer if viewer >= 0 else None
        view = GAME.view(after, viewer)
        assert GAME.view(disguise(after, keep, rng), viewer) == view
        json.dumps(view)
        if viewer >= 0:
            assert view["hand"] == after.hands[viewer]
    # 2. Events: whispers go to the mover alone; while the round is open, what the table hears
    #    does not depend on what the mover chose.
    for event in events:
        json.dumps(event.params)
        assert event.audience.kind in ("all", "seats")
        if event.audience.kind == "seats":
            assert event.audience.seats == (seat,) and event.params["seat"] == seat
    if after.moves:  # the round is still open: nothing was revealed
        assert [e.key for e in events if e.audience.kind == "all"] == ["bids.bid_placed"]
        other = FOLD if action != FOLD else BID(before.hands[seat][0])
        alternative = GAME.apply(clone(before), seat, other)
        assert public(alternative) == public(events)


def test_500_bot_games_never_leak_conserve_cards_and_end():
    for seed in range(500):
        dealt: dict[int, list[int]] = {}

        def check(before, seat, action, after, events):
            if not dealt:
                dealt.update({s: list(hand) for s, hand in enumerate(before.hands)})
            check_no_leak(before, seat, action, after, events)
            for s in range(after.players):  # every card is in its hand or face up on its discards
                assert sorted(after.hands[s] + after.discards[s]) == dealt[s]
            prizes = after.prize_row + after.discarded_prizes + ([after.prize] if after.prize else [])
            assert sum(prizes) + sum(after.scores) == sum(range(1, 2 * after.rounds + 1))

        state, log, events = run_game(seed, check)
        for hand_event, seat in zip(events[0][1:-1], range(state.players)):
            assert hand_event.audience == Audience.only(seat)
        outcome = GAME.outcome(state)
        assert isinstance(outcome, Outcome) and outcome.winners
        assert all(state.scores[w] == max(state.scores) for w in outcome.winners)
        assert events[-1][-1].key == "bids.game_over"
        assert state.round == state.rounds and len(state.prize_row) == state.rounds  # half never played
