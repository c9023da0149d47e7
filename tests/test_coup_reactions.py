"""Coup interactions (issue 15): several players reacting to one action, a treasury that runs out,
and a targeted action whose target left the game before it resolved. Each point has its example
on a set position, then a table that runs every case the rules allow (coup.md #3, #9, #31).
Engine only, and cheap: the tables together run in well under a second."""
from __future__ import annotations

import itertools

import pytest

from games.base import MASTER, SPECTATOR, Audience, RuleError
from games.coup import GAME
from games.coup import engine as E
from tests.test_coup_engine import ALLOW, CHALLENGE, CONCEDE, INCOME, PROVE, A, block, keys, lose, params, play, position


def whispered(events, key):
    """(seat, params) of each whisper ``key``, checking it went to that seat alone."""
    out = []
    for e in events:
        if e.key == key:
            assert e.audience == Audience.only(e.params["seat"]), e
            out.append((e.params["seat"], e.params))
    return out


def awaited(s):
    return [w.seat for w in GAME.awaiting(s)]


# ----------------------------------------------------------------------------- several blockers (#31)


def test_the_second_blocker_goes_public_when_the_first_concedes():
    # Issue 15's example: challenge_order=seat; Vera (seat 2, a real Duke) blocks the foreign aid
    # and is told she waits for priority; Boris (seat 1) claims the Duke too, and his block goes
    # public; Анна challenges, Boris concedes. Vera's block goes public with its own challenge
    # window, and the aid is not paid while it stands.
    s = position([["captain", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
                 options={"challenge_order": "seat"})
    events = play(s, (0, A("foreign_aid")), (2, block("duke")))
    assert whispered(events, "coup.queued") == [(2, {"seat": 2, "kind": "block"})]
    events = play(s, (1, block("duke")), (0, CHALLENGE), (1, CONCEDE), (1, lose("assassin")))
    assert params(events, "coup.block") == [{"blocker_seat": 1, "role": "duke", "actor_seat": 0},
                                            {"blocker_seat": 2, "role": "duke", "actor_seat": 0}]
    assert "coup.foreign_aid" not in keys(events)
    assert s.stage == "challenge_block" and s.blocker == 2 and awaited(s) == [0, 1]
    events = play(s, (0, CHALLENGE), (2, PROVE), (0, lose("captain")))  # Vera shows her Duke
    assert params(events, "coup.blocked") == [{"actor_seat": 0, "action": "foreign_aid"}]
    assert s.coins == [2, 2, 2] and s.active == 1 and s.queued_blocks == []


SEATS = 4  # the actor (seat 0) and three seats that may block its foreign aid
OUTCOMES = ("stands", "proven", "conceded")  # what happens to a block that went public


def _blocks_that_get_in(order: str, typed: tuple[int, ...]) -> list[int]:
    """The model of #7/#31 for the blocks typed (before anyone allows), in the order they go
    public. ``first``: the first block typed goes public at once and the window closes.
    ``seat``: a block waits for every seat before it in priority (1, 2, 3) to answer; the
    window closes when seat 1 blocks, so blocks typed after that are refused; the rest queue."""
    if order == "first":
        return [typed[0]]
    got = []
    for seat in typed:
        got.append(seat)
        if seat == 1:
            break
    return sorted(got)


CASES = [(order, typed, outcomes, cards, challenger)
         for order in ("seat", "first")
         for size in (1, 2, 3) for typed in itertools.permutations((1, 2, 3), size)
         for outcomes in itertools.product(OUTCOMES, repeat=3)
         for cards in (1, 2) for challenger in ("actor", "other", "both")]


def test_every_order_of_blockers_and_every_challenge_outcome():
    """#31 for every number and answer order of foreign-aid blockers, each challenge order, each
    outcome of each block that goes public (it stands unchallenged, is challenged and proven, is
    challenged and conceded), blockers with one or two cards, challenged by the actor, by the
    next seat in priority, or by both (the one whose challenge is not used is told so). The blocks go public one by one in priority order until one stands; the
    aid is paid only if every one fell; a queued blocker never used is told so, once, and nobody
    else is; a seat told it was queued is always either made public or told."""
    checked = 0
    for order, typed, outcomes, cards, challenger in CASES:
        public = _blocks_that_get_in(order, typed)
        hands = [["captain", "captain"]] + [["captain", "assassin"] for _ in range(SEATS - 1)]
        for k, seat in enumerate(public):  # a block that is to be proven holds a real Duke
            hands[seat] = (["duke", "contessa"] if outcomes[k] == "proven" else ["contessa", "assassin"])[:cards]
        s = position(hands, options={"challenge_order": order})
        events = play(s, (0, A("foreign_aid")))
        for seat in typed:
            if s.stage == "block" and seat in awaited(s):
                events += GAME.apply(s, seat, block("duke"))
            else:
                with pytest.raises(RuleError) as info:
                    GAME.apply(s, seat, block("duke"))
                assert info.value.key == "coup.error.cannot_block"
        while s.stage == "block":  # the others allow, in priority order
            events += GAME.apply(s, awaited(s)[0], ALLOW)
        stood = None
        dropped_challenges = []  # a challenge that another took the window from is told so
        for k, seat in enumerate(public):
            case = (order, typed, outcomes, cards, challenger, k)
            assert s.stage == "challenge_block" and s.blocker == seat, case
            assert params(events, "coup.block")[-1] == {"blocker_seat": seat, "role": "duke", "actor_seat": 0}, case
            assert "coup.foreign_aid" not in keys(events), case
            outcome = outcomes[k]
            if outcome == "stands":
                while s.stage == "challenge_block":
                    events += GAME.apply(s, awaited(s)[0], ALLOW)
                stood = seat
                break
            window = awaited(s)
            other = window[1] if len(window) > 1 else None
            if challenger == "actor" or other is None:
                who = 0
                events += GAME.apply(s, 0, CHALLENGE)
            elif challenger == "other":
                who = other
                events += GAME.apply(s, other, CHALLENGE)
                if order == "seat":
                    events += GAME.apply(s, 0, ALLOW)  # the actor has priority, then the challenge wins
            else:  # both challenge, the other seat first: by priority (seat) the actor's wins
                events += GAME.apply(s, other, CHALLENGE)
                if order == "seat":
                    who = 0
                    events += GAME.apply(s, 0, CHALLENGE)
                    dropped_challenges.append((other, {"seat": other, "winner_seat": 0}))
                else:  # the first challenge made wins at once; the actor's comes too late
                    who = other
                    with pytest.raises(RuleError):
                        GAME.apply(s, 0, CHALLENGE)
            assert s.stage == "prove" and s.challenger == who, case
            if outcome == "proven":
                events += GAME.apply(s, seat, PROVE)
                if s.stage == "lose":
                    events += GAME.apply(s, who, lose(s.hands[who][0]))
                stood = seat
                break
            events += GAME.apply(s, seat, CONCEDE)
            if s.stage == "lose":
                events += GAME.apply(s, seat, lose(s.hands[seat][0]))
        made_public = [p["blocker_seat"] for p in params(events, "coup.block")]
        dropped = whispered(events, "coup.block_dropped")
        case = (order, typed, outcomes, cards, challenger)
        if stood is not None:
            assert made_public == public[:public.index(stood) + 1], case
            assert params(events, "coup.blocked") == [{"actor_seat": 0, "action": "foreign_aid"}], case
            assert s.coins[0] == 2 and "coup.foreign_aid" not in keys(events), case
            unused = public[public.index(stood) + 1:]
            assert dropped == [(x, {"seat": x, "winner_seat": stood}) for x in unused], case
        else:
            assert made_public == public and "coup.blocked" not in keys(events), case
            assert dropped == [], case
            if s.stage == "over":  # every other seat conceded its last card: the actor wins
                assert cards == 1 and len(public) == SEATS - 1 and s.winner == 0, case
            else:
                assert params(events, "coup.foreign_aid") == [{"seat": 0, "coins": 2, "total": 4}], case
        told_queued = {seat for seat, p in whispered(events, "coup.queued") if p["kind"] == "block"}
        assert told_queued <= set(made_public) | {x for x, _ in dropped}, case
        assert whispered(events, "coup.challenge_dropped") == dropped_challenges, case
        assert s.queued_blocks == [] and s.stage in ("turn", "over"), case
        assert sum(s.coins) + s.treasury == 50, case
        checked += 1
    assert checked == len(CASES) == 2 * 15 * 27 * 2 * 3


@pytest.mark.parametrize("action", ["assassinate", "steal"])
def test_a_targeted_action_has_one_blocker_only(action):
    # #9: "Steal/Assassinate: only the target": there is never a queue; a block typed by anyone
    # else is refused, so the target's block is the only one that can go public.
    role = "contessa" if action == "assassinate" else "captain"
    s = position([["assassin", "captain"], ["contessa", "captain"], ["contessa", "captain"]], coins=[3, 2, 2])
    play(s, (0, A(action, target=1)), (1, ALLOW), (2, ALLOW))
    assert s.stage == "block" and awaited(s) == [1]
    with pytest.raises(RuleError) as info:
        GAME.apply(s, 2, block(role))
    assert info.value.key == "coup.error.cannot_block"
    events = play(s, (1, block(role)))
    assert params(events, "coup.block") == [{"blocker_seat": 1, "role": role, "actor_seat": 0}]
    assert s.queued_blocks == []


# ----------------------------------------------------------------------------- the treasury (#3)


def test_a_tax_from_an_emptying_treasury_gives_what_is_left():
    # Issue 15's example: players sitting at 9 coins leave 2 in the treasury; a tax (3) gives the
    # 2 that are left, and no view ever reads a negative treasury.
    s = position([["duke", "captain"]] * 6, coins=[8, 9, 9, 9, 9, 4])
    assert s.treasury == 2
    events = play(s, (0, A("tax")), *[(seat, ALLOW) for seat in range(1, 6)])
    assert params(events, "coup.treasury_short") == [{"seat": 0, "action": "tax", "coins": 2, "asked": 3, "total": 10}]
    assert "coup.tax" not in keys(events)
    assert s.treasury == 0 and s.coins[0] == 10
    for viewer in [*range(6), SPECTATOR, MASTER]:
        assert GAME.view(s, viewer)["treasury"] == 0


def test_the_box_holds_fifty_coins_or_seventy_five_at_nine_and_ten():
    # #3 (revised): "the treasury holds 50 coins (75 for 9-10 players)"; 2 coins each, the
    # starting player of two 1 coin ([2P]).
    for seats in range(2, 11):
        s = GAME.new(seats, {}, seed=seats)
        box = 75 if seats >= 9 else 50
        assert sum(s.coins) + s.treasury == box == E.box_coins(seats)
        assert s.treasury == box - (3 if seats == 2 else 2 * seats)


# Every payment from the treasury: (name, asked, moves after the declaration for a 3-seat table).
GAINS = {
    "income": (1, []),
    "foreign_aid": (2, [(1, ALLOW), (2, ALLOW)]),
    "tax": (3, [(1, ALLOW), (2, ALLOW)]),
    "tax_proven": (3, [(1, CHALLENGE), (0, PROVE), (1, lose("contessa"))]),  # paid after a lost challenge
}


@pytest.mark.parametrize("level", [0, 1, 2, 3])
@pytest.mark.parametrize("name", sorted(GAINS))
def test_every_payment_at_every_low_treasury(name, level):
    """Each payment from the treasury at treasury levels 0-3: it gives min(asked, level); the line
    says the usual gain, or what was left instead, or that the treasury is empty; the treasury
    never goes below zero and coins are conserved."""
    asked, moves = GAINS[name]
    kind = name.split("_proven")[0]
    s = position([["duke", "captain"], ["contessa", "assassin"], ["captain", "captain"]],
                 coins=[2, 2, 46 - level])
    assert s.treasury == level
    events = play(s, (0, A(kind)), *moves)
    got = min(asked, level)
    expected = {"seat": 0, "coins": got, "total": 2 + got}
    if got == asked:
        assert params(events, f"coup.{kind}") == [expected]
    else:
        key = "coup.treasury_short" if got else "coup.treasury_empty"
        assert params(events, key) == [{**expected, "action": kind, "asked": asked}]
        assert f"coup.{kind}" not in keys(events)
    assert s.coins[0] == 2 + got and s.treasury == level - got >= 0
    assert sum(s.coins) + s.treasury == 50
    assert all(GAME.view(s, v)["treasury"] == s.treasury for v in (0, 1, 2, SPECTATOR))


@pytest.mark.parametrize("level", [0, 1, 2])
def test_payments_into_the_treasury_at_every_low_treasury(level):
    # #12: a failed bluff's 3 coins come back in full (they were just paid in); #18: an
    # eliminated player's coins go to the treasury.
    s = position([["duke", "captain"], ["contessa", "assassin"], ["captain", "captain"]],
                 coins=[3, 2, 45 - level])
    events = play(s, (0, A("assassinate", target=1)))
    assert s.treasury == level + 3
    events = play(s, (1, CHALLENGE), (0, CONCEDE), (0, lose("duke")))
    assert params(events, "coup.refund") == [{"seat": 0, "amount": 3}]
    assert s.coins[0] == 3 and s.treasury == level
    s = position([["duke", "captain"], ["contessa"], ["captain", "captain"]], coins=[7, 3, 40 - level],
                 face_up=[[], ["assassin"], []])
    events = play(s, (0, A("coup", target=1)))
    assert params(events, "coup.eliminated") == [{"seat": 1, "coins": 3}]
    assert s.treasury == level + 7 + 3 and sum(s.coins) + s.treasury == 50


def test_income_from_an_empty_treasury_prints_one_line():
    # The declaration of an income is said by its result line (presenters' said_by_others): so
    # it is when the treasury had nothing to give, too.
    from world.presenters.coup import said_by_others

    s = position([["duke", "captain"], ["contessa", "assassin"], ["captain", "captain"]], coins=[2, 2, 46])
    events = play(s, (0, INCOME))
    assert keys(events) == ["coup.declare", "coup.treasury_empty", "coup.turn"]
    assert said_by_others(events) == [0]


# ------------------------------------------------------------- a target out before resolution


def test_a_steal_from_a_target_out_after_a_false_block_says_nothing():
    # Issue 15's example: the target blocks with its last card, the block is challenged and
    # conceded; the target is out and the steal cannot happen: no «забирает 0 монет» line.
    s = position([["captain", "duke"], ["contessa"], ["duke", "duke"]], coins=[2, 3, 2], face_up=[[], ["assassin"], []])
    events = play(s, (0, A("steal", target=1)), (1, ALLOW), (2, ALLOW), (1, block("captain")),
                  (0, CHALLENGE), (1, CONCEDE))
    assert params(events, "coup.eliminated") == [{"seat": 1, "coins": 3}]
    assert "coup.steal" not in keys(events)
    assert keys(events)[-2:] == ["coup.eliminated", "coup.turn"] and s.active == 2 and s.coins == [2, 0, 2]


# How a target may leave the game before its action resolves: its own challenge of the claim is
# lost with its last card; its block is challenged (by the actor or a third seat) and conceded
# with its last card; or, with two cards, both.
WAYS_OUT = ("lost_challenge", "false_block_actor", "false_block_other", "lost_challenge_then_false_block")
TARGETED = ("assassinate", "steal", "examine")


def _ways(action: str) -> list[str]:
    return [w for w in WAYS_OUT if action in E.BLOCKABLE or w == "lost_challenge"]


def _block_roles(action: str, way: str, fifth: str) -> list[str | None]:
    """Each role that may block ``action`` (#20: a steal by the Captain or the fifth role, in
    either version's deck), or None where the way out has no block."""
    return list(E._blockers(action, fifth)) if "false_block" in way else [None]


@pytest.mark.parametrize("action,way,fifth,block_role",
                         [(a, w, f, r) for a in TARGETED for w in _ways(a)
                          for f in ("ambassador", "inquisitor") if a != "examine" or f == "inquisitor"  # #23: its deck
                          for r in _block_roles(a, w, f)])
def test_every_targeted_action_whose_target_left_before_it_resolved(action, way, fifth, block_role):
    """Nothing is said or done about a target that is out: no steal line, no loss, no
    examination; the turn passes to the next living seat, and no later event names the target."""
    claim = E.CLAIMS[action]
    two = way == "lost_challenge_then_false_block"
    target_hand = ["duke", "duke"] if two else ["duke"]
    s = position([[claim, "duke"], target_hand, ["duke", "duke"]], coins=[3, 4, 2], fifth=fifth,
                 face_up=[[], [] if two else ["captain"], []])
    events = play(s, (0, A(action, target=1)))
    if way.startswith("lost_challenge"):
        events += play(s, (1, CHALLENGE), (0, PROVE))
        if two:
            events += play(s, (1, lose("duke")))
    else:
        events += play(s, (1, ALLOW), (2, ALLOW))
    if "false_block" in way:
        events += play(s, (1, block(block_role)))
        challenger = 0 if way == "false_block_actor" else 2
        if challenger == 2:
            events += play(s, (0, ALLOW))
        events += play(s, (challenger, CHALLENGE), (1, CONCEDE))
    assert not s.alive[1] and s.stage == "turn" and s.active == 2, (action, way, keys(events))
    out_at = keys(events).index("coup.eliminated")
    assert keys(events)[out_at:] == ["coup.eliminated", "coup.turn"], (action, way, keys(events))
    assert not {"coup.steal", "coup.examine_show", "coup.examine_swapped", "coup.examine_returned"} & set(keys(events))
    assert [p["seat"] for p in params(events, "coup.must_lose")].count(1) == (2 if two else 1)
    assert s.coins == [3 - E.COSTS.get(action, 0), 0, 2] and sum(s.coins) + s.treasury == 50


def test_a_table_logged_before_the_revision_replays_as_it_was_played():
    # world/upgrades.py: a table pins the treasury rules it starts with; one stored before the pin
    # is restored with revision 1 (54 coins at 7-8, 60 at 9-10, payments in full), so its log
    # replays the game its players saw. A new table, or a rematch, plays today's rules.
    from world.upgrades import restored_options, start_options

    assert start_options(GAME, {"role": "advisor"}) == {"role": "advisor", "treasury_rev": 2}
    assert start_options(GAME, {"treasury_rev": 1})["treasury_rev"] == 2
    old = restored_options(GAME, {"role": "advisor"})
    assert old["treasury_rev"] == 1 and restored_options(GAME, {"treasury_rev": 2})["treasury_rev"] == 2
    for seats, box in ((3, 50), (7, 54), (8, 54), (9, 60), (10, 60)):
        s = GAME.new(seats, old, seed=1)
        assert sum(s.coins) + s.treasury == box
    s = GAME.new(3, old, seed=1)
    s.coins, s.treasury = [2, 2, 46], 0
    GAME.apply(s, s.active, INCOME)  # revision 1 paid in full, as the logged game did
    assert s.treasury == -1
    for bad in (0, 3, "2", True):
        with pytest.raises(RuleError) as info:
            GAME.validate_options({"treasury_rev": bad})
        assert info.value.key == "coup.error.bad_option"
    assert "treasury_rev" in GAME.internal_options and "treasury_rev" not in GAME.validate_options({})


@pytest.mark.parametrize("lang,header,line", [
    ("ru", "в казне 0 монет", "«Налог»: Анна получает 2 монеты вместо 3 — больше в казне не было (всего 10 монет)."),
    ("en", "treasury: 0 coins", "The treasury runs low: Анна gets 2 coins of tax instead of 3, all that was left (10 coins in all)."),
    ("uk", "у скарбниці 0 монет", "«Податок»: Анна отримує 2 монети замість 3 — більше в скарбниці не було (усього 10 монет)."),
])
def test_the_header_and_the_line_of_a_treasury_run_low(lang, header, line):
    # Issue 15's example as a reader sees it: the header read «в казне -1 монета» after the tax.
    from tests.offline import OfflineTable
    from world.i18n import strip_marks, t
    from world.presenters.coup import describe, event_params

    s = position([["duke", "captain"]] * 6, coins=[8, 9, 9, 9, 9, 4])
    events = play(s, (0, A("tax")), *[(seat, ALLOW) for seat in range(1, 6)])
    names = ["Анна", "Boris", "Вера", "Гоша", "Дина", "Ефим"]
    table = OfflineTable("coup", s, names, GAME.validate_options({}))
    top = describe(table, GAME.view(s, 1), 1, None, set())[0]
    assert header in strip_marks(t(lang, top.key, **top.params)) and "-1" not in t(lang, top.key, **top.params)
    short = next(e for e in events if e.key == "coup.treasury_short")
    shown = event_params(table, short.params, {**short.params, "seat": names[short.params["seat"]]})
    assert strip_marks(t(lang, short.key, **shown)) == line


@pytest.mark.parametrize("action,way,fifth", [(a, w, f) for a in TARGETED for w in ("lost_challenge", "false_block_actor")
                                              for f in ("ambassador", "inquisitor")
                                              if (a != "examine" or f == "inquisitor") and (w in _ways(a))])
def test_a_target_out_before_resolution_in_a_two_player_game_ends_it_without_a_word_more(action, way, fifth):
    # Two players (#26): the target's last card goes, the game is over at once; the action it
    # reacted to says nothing more (no steal line, no loss, no examination).
    claim = E.CLAIMS[action]
    s = position([[claim, "duke"], ["duke"]], coins=[3, 4], fifth=fifth, face_up=[[], ["captain"]])
    events = play(s, (0, A(action, target=1)))
    if way == "lost_challenge":
        events += play(s, (1, CHALLENGE), (0, PROVE))
    else:
        events += play(s, (1, ALLOW), (1, block(E._blockers(action, fifth)[0])), (0, CHALLENGE), (1, CONCEDE))
    assert s.stage == "over" and s.winner == 0
    assert keys(events)[-3:] == ["coup.lost", "coup.eliminated", "coup.winner"], keys(events)
    assert not {"coup.steal", "coup.examine_show", "coup.examine_swapped", "coup.examine_returned", "coup.turn"} & set(keys(events))
