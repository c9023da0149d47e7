"""Mafia bots hunt the Злой Гений (issue 14, "Bots worth playing against"): from the seat's own
view only, a bot of any faction that has evidence against a seat (a Криминалист's search count,
drawn personas) votes for it, shoots it and names it in role guesses, more eagerly as the public
floor of a living Гений's plans nears DDD; the hidden plans never reach a bot."""
from __future__ import annotations

import copy
import random

from games.base import MASTER
from games.mafia import GAME
from games.mafia import bot as B
from games.mafia import genius_hunt as G
from games.mafia import team_play as T
from tests.test_mafia_engine import game, touch

# 11 seats as the deal gives them; the Гений at seat 9 (decision #3: the deal follows the count)
ELEVEN = ["boss", "killer", "officer", "civilian", "maniac", "forensic", "policeman", "agent",
          "vigilante", "genius", "civilian"]
GENIUS_SEAT = 9


def strict_answer(s, seat, rng_seed=7, hunt=None):
    saved, B.STRICT = B.STRICT, True
    try:
        return B.bot_action(GAME.view(s, seat), GAME.legal(s, seat), random.Random(rng_seed), "normal", hunt)
    finally:
        B.STRICT = saved


def tell(s, seat, key, **params):
    """What the engine's night would tell ``seat`` (knowledge is the seat's own memory)."""
    s.knowledge[seat].append({"index": s.index - 1, "key": key, "seat": seat, **params})
    touch(s)


def searched_genius(s, seat=5, target=GENIUS_SEAT):
    tell(s, seat, "mafia.search", ability="search", target_seat=target, personas=["genius", "traitor"], count=2)


def test_public_plan_floor_and_deal():
    """One plan per finished night, one more for a spared vote leader (C); the Гений is dealt from
    ten seats on (public rules), so an 8-seat bot never hunts one."""
    s = game(ELEVEN, index=5)  # day 3: three nights done
    view = GAME.view(s, 3)
    assert G.in_play(view) and G.plans_floor(view) == 3
    s.last_vote = {"seat": 2, "fate": "spared", "day": 2}
    touch(s)
    assert G.plans_floor(GAME.view(s, 3)) == 4
    assert not G.in_play(GAME.view(game(ELEVEN[:8], index=5), 3))


def test_a_civilian_who_searched_the_genius_votes_for_it():
    """A search count of 2 for «genius» and «traitor» fits only the Гений's list: the bot's vote
    goes to that seat (before issue 14 its vote fell at random on anyone)."""
    s = game(ELEVEN, index=3)  # day 2
    searched_genius(s, seat=5)
    assert G.hunted(GAME.view(s, 5), set()) == (GENIUS_SEAT, "genius")
    for rng_seed in range(5):
        assert strict_answer(s, 5, rng_seed) == {"type": "vote", "target": GENIUS_SEAT}
    old = {strict_answer(s, 5, rng_seed, hunt=False)["target"] for rng_seed in range(5)}
    assert old != {GENIUS_SEAT}  # the old bots ignored the evidence


def test_every_faction_hunts_the_genius():
    """The same evidence turns a Mafia killer's shot, a Маньяк's vote and a Вигиланте's Кара."""
    s = game(ELEVEN, index=4)  # night 3
    for seat in (1, 4, 8):
        tell(s, seat, "mafia.personas", ability="mastermind", target_seat=GENIUS_SEAT, personas=["traitor", "genius"])
    shot = strict_answer(s, 1)
    assert shot["type"] == "order" and shot["target"] == GENIUS_SEAT, shot
    kara = strict_answer(s, 8)
    assert kara == {"type": "order", "ability": "punishment", "target": GENIUS_SEAT, "role": "genius"}
    s = game(ELEVEN, index=5)  # day 3
    tell(s, 4, "mafia.personas", ability="stalking", target_seat=GENIUS_SEAT, personas=["traitor"])
    for _ in range(5):  # its day plan (Двойная жизнь) may come first
        action = strict_answer(s, 4)
        if action["type"] == "vote":
            break
        GAME.apply(s, 4, action)
    assert action == {"type": "vote", "target": GENIUS_SEAT}


def test_weak_evidence_waits_for_urgency():
    """One drawn «genius» persona (which most roles' lists also hold) does not single a seat out on
    day 1; with a living Гений possibly two plans from DDD, the seat that leads the odds is hunted."""
    s = game(ELEVEN, index=1)
    tell(s, 3, "mafia.personas", ability="own_hands", target_seat=GENIUS_SEAT, personas=["genius"])
    assert G.hunted(GAME.view(s, 3), set()) is None
    s = game(ELEVEN, index=7)  # day 4: four nights, a Гений has at least 4 of 6 plans
    tell(s, 3, "mafia.personas", ability="own_hands", target_seat=GENIUS_SEAT, personas=["genius"])
    assert G.hunted(GAME.view(s, 3), set()) == (GENIUS_SEAT, "genius")


def test_the_genius_does_not_hunt_itself_and_a_cleared_seat_is_left_alone():
    s = game(ELEVEN, index=7)
    tell(s, GENIUS_SEAT, "mafia.guess", ability="informer", target_seat=2, role="officer", correct=True)
    assert G.hunted(GAME.view(s, GENIUS_SEAT), set()) is None
    tell(s, 3, "mafia.search", ability="search", target_seat=2, personas=["genius", "traitor"], count=1)
    assert G.odds(GAME.view(s, 3), set())[2] < 1 / 10


def test_bots_get_only_the_seats_view_and_hidden_plans_do_not_reach_them():
    """The runner hands a bot ``GAME.view(state, seat)``: the Master's keys (every role, plans, HP,
    personas, propaganda) are not in it, a Гений sees only its own plans, and changing hidden
    state the seat cannot know leaves its view, and so its answer, unchanged."""
    s = game(ELEVEN, index=5)
    searched_genius(s, seat=5)
    hidden = {"roles", "factions", "hp", "personas", "temp", "plans", "propaganda", "extra_votes", "cards"}
    for seat in range(len(ELEVEN)):
        view = GAME.view(s, seat)
        leaked = (hidden - {"plans"} if ELEVEN[seat] == "genius" else hidden) & set(view)
        assert not leaked, (seat, leaked)
        assert view["knowledge"] == s.knowledge[seat]
    assert set(GAME.view(s, MASTER)) >= hidden - {"cards"}
    other = copy.deepcopy(s)
    other.plans[GENIUS_SEAT] = 5  # one plan from DDD: nobody but the Гений may know
    other.propaganda = {5: {2: GENIUS_SEAT}}
    touch(other)
    for seat in (3, 5):
        assert GAME.view(other, seat) == GAME.view(s, seat)
        assert strict_answer(other, seat) == strict_answer(s, seat)


# ---------------------------------------------------------------- the Мафия plays as a team (balance)

MAFIA_SEATS = (0, 1, 7)  # boss, killer, agent in ELEVEN


def night_orders(s, seat, rng_seed=7):
    """Everything ``seat``'s bot orders this night, applied, until it says ready."""
    rng = random.Random(rng_seed)
    saved, B.STRICT = B.STRICT, True
    try:
        for _ in range(12):
            action = B.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "normal")
            if action["type"] == "ready":
                return dict(GAME.view(s, seat)["orders"])
            GAME.apply(s, seat, action)
    finally:
        B.STRICT = saved
    raise AssertionError("the bot never said ready")


def test_the_killer_still_shoots_after_night_one():
    """A Снайпер passed over (no hunted seat) does not count as tonight's weapon: the Киллер still
    orders the Пистолет or the Томми-ган on night 2 and later (it ordered none before the fix)."""
    for index in (2, 4):
        for rng_seed in range(6):
            s = game(ELEVEN, index=index)
            weapons = set(night_orders(s, 1, rng_seed)) & B.ARSENAL
            assert len(weapons) == 1, (index, rng_seed, weapons)


def test_mafia_bots_share_one_mark_from_their_own_view():
    """All three Mafia bots compute the same mark (a living outsider), their shots go there and, at
    a table of 11, so do their three votes; the mark stays put from night to night (a wounded mark
    is finished), and hidden state the Mafia cannot see does not move it."""
    s = game(ELEVEN, index=2)
    marks = {T.mark(GAME.view(s, seat)) for seat in MAFIA_SEATS}
    assert len(marks) == 1
    mark = marks.pop()
    assert mark not in MAFIA_SEATS and s.alive[mark]
    for rng_seed in range(4):
        shot = night_orders(game(ELEVEN, index=2), 1, rng_seed)
        assert [o["target"] for k, o in shot.items() if k in B.ARSENAL] == [mark]
    assert T.mark(GAME.view(game(ELEVEN, index=6), 0)) == mark  # night 4: the same seat
    day = game(ELEVEN, index=3)
    for seat in MAFIA_SEATS:
        assert strict_answer(day, seat) == {"type": "vote", "target": mark}
    other = copy.deepcopy(day)
    other.hp[mark] = 1
    other.plans[GENIUS_SEAT] = 5
    touch(other)
    assert all(strict_answer(other, seat) == strict_answer(day, seat) for seat in MAFIA_SEATS)
    dead = game(ELEVEN, index=3)
    dead.alive[mark] = False
    touch(dead)
    assert T.mark(GAME.view(dead, 0)) not in (mark, *MAFIA_SEATS)
    assert T.mark(GAME.view(day, 3)) is None  # a Law seat has no team and no mark


def test_no_bloc_vote_at_a_small_table():
    """At 8 seats (three Mafia of eight) each Mafia bot votes by its own lights (bench: a bloc took
    the Мафия to 50% there); their shots still share the mark."""
    s = game(ELEVEN[:8], index=1)
    mark = T.mark(GAME.view(s, 0))
    votes = {strict_answer(s, seat, rng_seed)["target"] for seat in MAFIA_SEATS for rng_seed in range(4)}
    assert votes != {mark}
