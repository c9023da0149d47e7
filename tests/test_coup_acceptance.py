"""Coup points found by the acceptance runs (issue 14): a challenge or block queued behind priority
is told when it is dropped (rules #7, #31), and an action that can never be blocked says so."""
from __future__ import annotations

import pytest

from games.base import Audience, RuleError
from games.coup import GAME
from tests.test_coup_engine import ALLOW, CHALLENGE, CONCEDE, PROVE, A, block, keys, params, play, position


def whispers(events, key):
    return [(e.audience, e.params) for e in events if e.key == key]


def test_a_queued_challenge_overtaken_by_priority_is_told():
    # #7: several challengers: seat order from the claimant's left wins; the others are dropped.
    s = position([["duke", "captain"]] * 5, active=3)
    play(s, (3, A("tax")), (1, CHALLENGE), (2, CHALLENGE))  # both wait for seats 4 and 0
    events = GAME.apply(s, 4, CHALLENGE)  # the first in priority: it wins at once
    assert params(events, "coup.challenge")[0]["challenger_seat"] == 4
    assert whispers(events, "coup.challenge_dropped") == [
        (Audience.only(1), {"seat": 1, "winner_seat": 4}), (Audience.only(2), {"seat": 2, "winner_seat": 4})]
    # Seats 4 and 0 allow, seat 1's queued challenge wins: seat 2's is dropped, seat 1 is not told.
    s = position([["duke", "captain"]] * 5, active=3)
    play(s, (3, A("tax")), (2, CHALLENGE), (1, CHALLENGE), (4, ALLOW))
    events = GAME.apply(s, 0, ALLOW)
    assert params(events, "coup.challenge")[0]["challenger_seat"] == 1
    assert whispers(events, "coup.challenge_dropped") == [(Audience.only(2), {"seat": 2, "winner_seat": 1})]
    # A lone challenge that wins drops nobody.
    s = position([["duke", "captain"]] * 3)
    events = play(s, (0, A("tax")), (1, CHALLENGE))
    assert "coup.challenge_dropped" not in keys(events)


def test_queued_blocks_go_public_when_the_first_falls_and_the_rest_are_told():
    # #31: blocks queue in challenge order; when the public one falls to a challenge the next goes
    # public with its own challenge window; a block never used is told so.
    hands = [["captain", "captain"], ["contessa", "assassin"], ["duke", "captain"], ["duke", "captain"]]
    s = position(hands)
    play(s, (0, A("foreign_aid")), (2, block("duke")), (3, block("duke")))
    events = GAME.apply(s, 1, block("duke"))  # seat 1 (no Duke) has priority: its block goes public
    assert params(events, "coup.block") == [{"blocker_seat": 1, "role": "duke", "actor_seat": 0}]
    assert "coup.block_dropped" not in keys(events) and s.queued_blocks == [(2, "duke"), (3, "duke")]
    events = play(s, (0, CHALLENGE), (1, CONCEDE), (1, A("lose", role="assassin")))
    assert params(events, "coup.block") == [{"blocker_seat": 2, "role": "duke", "actor_seat": 0}]
    assert s.stage == "challenge_block" and "coup.foreign_aid" not in keys(events)
    events = play(s, (0, ALLOW), (1, ALLOW), (3, ALLOW))  # seat 2's block stands
    assert params(events, "coup.blocked") == [{"actor_seat": 0, "action": "foreign_aid"}]
    assert whispers(events, "coup.block_dropped") == [(Audience.only(3), {"seat": 3, "winner_seat": 2})]
    assert s.queued_blocks == [] and s.coins[0] == 2
    # Every block falls: the aid goes ahead and nobody is left queued.
    s = position([["captain", "captain"], ["contessa", "assassin"], ["contessa", "captain"]])
    play(s, (0, A("foreign_aid")), (2, block("duke")), (1, block("duke")))
    events = play(s, (0, CHALLENGE), (1, CONCEDE), (1, A("lose", role="assassin")))
    assert params(events, "coup.block")[0]["blocker_seat"] == 2
    events = play(s, (0, CHALLENGE), (2, CONCEDE), (2, A("lose", role="captain")))
    assert params(events, "coup.foreign_aid")[0]["coins"] == 2 and "coup.block_dropped" not in keys(events)
    # The block is proven: it stands and the queued one is told.
    s = position([["captain", "captain"], ["duke", "assassin"], ["duke", "captain"]])
    play(s, (0, A("foreign_aid")), (2, block("duke")), (1, block("duke")))
    events = play(s, (0, CHALLENGE), (1, PROVE), (0, A("lose", role="captain")))
    assert "coup.blocked" in keys(events)
    assert whispers(events, "coup.block_dropped") == [(Audience.only(2), {"seat": 2, "winner_seat": 1})]


@pytest.mark.parametrize("action", [A("examine", target=1), A("exchange"), A("tax")])
def test_an_action_nobody_may_block_says_so(action):
    # #24: "Not blockable, only challengeable" (the examination), as exchange and tax (#9).
    s = position([["inquisitor", "duke"], ["contessa", "captain"], ["duke", "captain"]], fifth="inquisitor")
    GAME.apply(s, 0, action)
    before = s.data()
    with pytest.raises(RuleError) as info:
        GAME.apply(s, 1, block("captain"))
    assert (info.value.key, info.value.params) == ("coup.error.unblockable", {"action": action["type"]})
    assert s.data() == before
    # Steal may be blocked, only not yet (the challenge window first): "not now".
    s = position([["inquisitor", "duke"], ["contessa", "captain"], ["duke", "captain"]], fifth="inquisitor")
    GAME.apply(s, 0, A("steal", target=1))
    with pytest.raises(RuleError) as info:
        GAME.apply(s, 1, block("captain"))
    assert info.value.key == "coup.error.cannot_block"
