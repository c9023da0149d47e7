"""Forum Mafia rulesets A, B and C (seed 004; ../shared/rules/mafia.md 4.2, 4.3, 4.5, 4.6;
docs/mafia-protocol.md "Rulesets A, B, C"): each row of the version-differences table run on the
same position under the versions it distinguishes; each version-A ability on a set position; bot
games to the end under every ruleset."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import MASTER, RuleError
from games.mafia import GAME, MafiaState, bot
from games.mafia import abilities as AB
from games.mafia import resolution as RES
from games.mafia import state as MS
from games.mafia import roles as R
from games.mafia import versions as V
from tests.test_mafia_engine import err, keys, order, touch

READY = {"type": "ready"}
BASE = ["boss", "killer", "officer", "civilian", "maniac"]
ABC = ("A", "B", "C")


def game(version="C", roles=None, index=0, public=None, seed=0, **options) -> MafiaState:
    """A position under a ruleset: these secret roles by seat, at phase ``index``."""
    roles = list(roles or BASE)
    opts = {"ruleset": version, **options}
    if public is not None:
        opts["public_roles"] = public
    s = GAME.new(len(roles), opts, seed)
    s.roles = roles
    s.personas = [{name: 1 for name in V.RULESETS[version].personas[r]} for r in roles]
    s.start_personas = [dict(p) for p in s.personas]
    V.init_state(s)
    s.index = index
    s.phase = "night" if index % 2 == 0 else "day"
    touch(s)
    return s


def card(s, seat, play, target=None, **args):
    return order(s, seat, "card", seat if target is None else target, play=play, **args)


def vote(s, seat, target):
    return GAME.apply(s, seat, {"type": "vote", "target": target})


def finish(s) -> list:
    """Everyone awaited says ready until the phase resolves; every event of it."""
    events: list = []
    while True:
        waits = GAME.awaiting(s)
        if not waits:
            return events
        window = waits[0].window
        for w in waits:
            events += GAME.apply(s, w.seat, READY)
        if not GAME.awaiting(s) or GAME.awaiting(s)[0].window != window:
            return events


def by_version(version, a, b, c):
    return {"A": a, "B": b, "C": c}[version]


# ----------------------------------------------------------------------------------- options


def test_ruleset_option_and_version_alias():
    assert GAME.validate_options({})["version"] == "C"
    assert GAME.validate_options({"ruleset": "a"})["version"] == "A"
    assert GAME.validate_options({"version": "B"})["version"] == "B"
    assert err(GAME.validate_options, {"ruleset": "D"}).params == {"name": "ruleset", "value": "D"}
    for version, reading in (("A", "own"), ("B", "list"), ("C", "list")):
        s = GAME.new(5, {"ruleset": version}, 1)
        assert s.version == version and s.reading == reading and GAME.view(s, 0)["version"] == version
        assert keys(GAME.start_events(s), "mafia.start")[0].params["version"] == version
    assert GAME.new(5, {"ruleset": "A", "personas": "list"}, 1).reading == "list"


# ----------------------------------------------------------------------------------- 4.2, row by row


@pytest.mark.parametrize("version", ABC)
def test_row_vote_is_public_only_in_a(version):
    s = game(version, index=3)
    events = vote(s, 0, 3)
    voted = keys(events, "mafia.voted")
    assert (voted[0].params == {"seat": 0, "target_seat": 3} and voted[0].audience.kind == "all") if version == "A" \
        else not voted
    assert ("votes" in GAME.view(s, 2)) == (version == "A")
    vote(s, 1, 3)
    events = finish(s)
    tally = keys(events, "mafia.tally")
    if version == "A":
        assert tally[0].audience.kind == "all"
        assert tally[0].params["votes"] == [{"seat": 0, "target_seat": 3, "weight": 1},
                                            {"seat": 1, "target_seat": 3, "weight": 1}]
        assert tally[0].params["totals"] == [{"seat": 3, "votes": 2}]
    else:
        assert not tally
    assert keys(events, "mafia.vote_result")[0].params == {"seat": 3, "fate": "death"}


def test_row_vote_publicity_is_overridable_per_seat(monkeypatch):
    s = game("A", index=3)
    monkeypatch.setattr(V, "vote_public", lambda state, seat: seat != 0)  # e.g. the Серый кардинал
    assert not keys(vote(s, 0, 3), "mafia.voted") and keys(vote(s, 1, 3), "mafia.voted")
    tally = keys(finish(s), "mafia.tally")[0].params
    assert [v["seat"] for v in tally["votes"]] == [1]


@pytest.mark.parametrize("version", ABC)
def test_row_base_vote_weight(version):
    s = game(version, index=3)
    vote(s, 0, 3)  # Mafia
    vote(s, 2, 0)  # Law
    vote(s, 4, 2)  # Neutral (the Маньяк)
    totals = {t: v for t, v in RES.tally(s).items() if t != 4}  # (the Маньяк's own shedding: below)
    assert totals == by_version(version, {3: 1, 0: 1, 2: 1}, {3: 1, 0: 2, 2: 3}, {3: 1, 0: 2, 2: 3})
    weights = [RES.vote_weight(s, x) for x in (0, 2, 4)]
    assert weights == by_version(version, [1, 1, 1], [1, 2, 3], [1, 2, 3])


@pytest.mark.parametrize("version", ABC)
def test_row_cards_and_the_joker_only_in_a(version):
    s = game(version, ["boss", "killer", "officer", "civilian", "maniac", "joker"] if version == "A" else BASE)
    mine = AB.abilities(s, 0)
    assert ("card" in mine) == (version == "A") and ("paranoia" in mine) == (version != "A")  # Паранойя: B, C
    assert ("joker" in V.deal(version, 15)) == (version == "A")
    if version == "A":
        assert s.cards == [0, 0, 0, 0, 0, 1] and GAME.view(s, 5)["cards"] == 1  # the Джокер starts with 1
        assert "card" in {a.get("ability") for a in GAME.legal(s, 5)}
        assert "card" not in {a.get("ability") for a in GAME.legal(s, 0)}  # no card, no Ход
        assert err(card, s, 0, "bank").key == "mafia.error.no_cards"
    else:
        assert "cards" not in GAME.view(s, 0)


@pytest.mark.parametrize("version", ABC)
def test_row_paranoia_b_and_c(version):
    s = game(version, index=2)
    if version == "A":
        assert err(order, s, 3, "paranoia").key == "mafia.error.no_such_ability"
        return
    order(s, 3, "paranoia")
    order(s, 1, "pistol", 3)
    finish(s)
    assert s.hp[3] == 2


@pytest.mark.parametrize("version", ABC)
@pytest.mark.parametrize("faction_seat", [0, 3, 4])  # Mafia, Law, Маньяк
def test_row_healing_threshold(version, faction_seat):
    threshold = {("A", 0): 10, ("A", 3): 12, ("A", 4): 10, ("B", 0): 10, ("B", 3): 12, ("B", 4): 0,
                 ("C", 0): 8, ("C", 3): 10, ("C", 4): 8}[(version, faction_seat)]
    for count, heals in ((threshold - 1, False), (threshold, True)):
        s = game(version, index=2)
        role = s.roles[faction_seat]
        s.personas[faction_seat] = {role: count} if count > 0 else {}
        s.hp[faction_seat] = 1
        touch(s)
        order(s, faction_seat, "healing")
        finish(s)
        assert (s.hp[faction_seat] == 2) == (heals or threshold == 0), (count, heals)


@pytest.mark.parametrize("version", ABC)
def test_row_sabotage_and_arrest_thresholds(version):
    need = by_version(version, 10, 10, 8)
    for count in (need - 1, need):
        s = game(version, ["boss", "killer", "agent", "officer", "maniac", "policeman"], index=2)
        s.personas[3] = {"officer": count}
        s.personas[1] = {"killer": count}
        touch(s)
        order(s, 2, "sabotage", 3, persona="officer")
        order(s, 5, "arrest", 1, role="killer")
        finish(s)
        assert (s.hp[3] == 1) == (count >= need) and (s.jail[1] == R.LIFE) == (count >= need)


@pytest.mark.parametrize("version", ABC)
def test_row_growth_own_name_in_a_list_in_b_and_c(version):
    s = game(version, index=2, seed=3)
    finish(s)
    finish(s)
    finish(s)  # three phases
    boss = s.personas[0]
    if version == "A":
        assert boss["boss"] == 4 and sum(boss.values()) == 8
        assert MS.corresponding(s, 0) == 4
    else:
        assert sum(boss.values()) == 8 and set(boss) <= set(R.ROLE_PERSONAS["boss"])
        assert MS.corresponding(s, 0) == 8
    assert s.personas[4] == by_version(version, {"maniac": 1}, {"maniac": 1}, {"maniac": 4})  # A/B: no growth


@pytest.mark.parametrize("version", ABC)
def test_row_secret_roles_and_the_deal(version):
    deal = V.deal(version, 15)
    if version == "A":
        assert Counter(deal) == Counter(["boss", "killer", "agent", "traitor", "officer", "forensic", "detective",
                                         "policeman", "vigilante", "vigilante", "civilian", "civilian",
                                         "maniac", "genius", "joker"])
        assert V.deal(version, 13)[10:] == ["traitor", "detective", "joker"]  # added in this order (#3)
        assert V.RULESETS["A"].personas["civilian"] == V.A_ROLES  # one of each of the 13 roles
    else:
        assert Counter(deal) == Counter(R.deal(15)) and Counter(deal)["civilian"] == 6
    for n in (5, 11, 15, 30):
        s = GAME.new(n, {"ruleset": version}, n)
        assert Counter(s.roles) == Counter(V.deal(version, n)) and "maniac" in s.roles
        assert all(s.personas[x] == {p: 1 for p in V.rules(s).personas[s.roles[x]]} for x in range(n))


@pytest.mark.parametrize("version", ABC)
def test_row_boss_call_and_persona_list(version):
    assert ("detective" in V.RULESETS[version].personas["boss"]) == (version == "A")
    assert ("forensic" in V.RULESETS[version].personas["boss"]) == (version != "A")
    s = game(version, index=2)
    if version != "A":
        assert err(order, s, 0, "call", 3, text="x").key == "mafia.error.no_such_ability"
        return
    order(s, 0, "call", 3, text="Ты следующий.")
    events = finish(s)
    (call,) = keys(events, "mafia.call")
    assert call.params == {"seat": 3, "text": "Ты следующий."} and call.audience.seats == (3,)


def test_call_counts_for_the_spam_rule():  # 4.6 #15
    s = game("A", ["boss", "killer", "officer", "civilian", "maniac", "agent"], index=2)
    order(s, 0, "call", 3, text="1")
    for seat in (1, 2, 5):
        GAME.apply(s, seat, {"type": "mail", "target": 3, "text": "x"})
    events = finish(s)
    assert keys(events, "mafia.spammed") and not keys(events, "mafia.call")


@pytest.mark.parametrize("version", ABC)
def test_row_killer(version):
    rs = V.RULESETS[version]
    assert ("joker" in rs.personas["killer"]) == (version == "A") and ("maniac" in rs.personas["killer"]) == (
        version != "A")
    s = game(version, index=0)
    assert ("autopsy" in AB.abilities(s, 1)) == (version != "A")
    if version == "A":  # the sniper works on night 1
        order(s, 1, "sniper", 2, role="officer")
        finish(s)
        assert not s.alive[2]
    else:
        assert err(order, s, 1, "sniper", 2, role="officer").key == "mafia.error.not_first_night"


@pytest.mark.parametrize("version", ABC)
def test_row_agent_cover_repeatable_in_a(version):
    s = game(version, ["boss", "killer", "agent", "officer", "maniac"], index=2)
    order(s, 2, "cover", 3)
    finish(s)
    finish(s)
    if version == "A":
        order(s, 2, "cover", 3)
    else:
        assert err(order, s, 2, "cover", 3).key == "mafia.error.bad_target"


@pytest.mark.parametrize("version", ABC)
def test_row_forensic_search(version):
    s = game(version, ["boss", "killer", "forensic", "officer", "maniac"], index=2)
    s.personas[0] = {"boss": 2, "civilian": 1}
    touch(s)
    if version == "A":
        assert err(order, s, 2, "search", 0, personas=["boss", "agent"]).key == "mafia.error.bad_arg"
        order(s, 2, "search", 0, persona="boss")
    else:
        order(s, 2, "search", 0, personas=["boss", "agent"])
    (found,) = keys(finish(s), "mafia.search")
    expect = by_version(version, {"personas": ["boss"], "found": True}, {"personas": ["boss", "agent"], "found": True},
                        {"personas": ["boss", "agent"], "count": 1})
    assert found.params == {"seat": 2, "ability": "search", "target_seat": 0, **expect}


@pytest.mark.parametrize("version", ABC)
def test_row_vigilante(version):
    s = game(version, ["boss", "killer", "vigilante", "officer", "maniac"], index=2)
    assert ("assist" in AB.abilities(s, 2)) == (version != "C")
    assert ("informants" in AB.abilities(s, 2)) == (version != "A")
    if version != "A":
        order(s, 2, "patrol", 0)
        if version == "B":  # no restriction
            order(s, 2, "informants", 0)
        else:
            assert err(order, s, 2, "informants", 0).key == "mafia.error.bad_target"
    s2 = game(version, ["boss", "killer", "vigilante", "civilian", "maniac"], index=1)
    assert ("assist" in AB.abilities(s2, 3)) == (version == "C")


@pytest.mark.parametrize("version", ABC)
def test_row_civilian_jury(version):
    s = game(version, index=2)
    if version == "C":
        assert err(order, s, 3, "jury", 2, role="officer").key == "mafia.error.bad_arg"  # non-Law only
    else:
        order(s, 3, "jury", 2, role="officer")  # any role
        order(s, 3, "jury", 1, role="killer")
    if version == "C":
        order(s, 3, "jury", 1, role="killer")
    events = finish(s)
    assert s.extra_votes[3] == {1: by_version(version, 1, 2, 2)}
    guess = keys(events, "mafia.guess")
    assert bool(guess) == (version != "A")


@pytest.mark.parametrize("version", ABC)
def test_row_grey_mass(version):
    s = game(version, ["boss", "killer", "officer", "civilian", "maniac", "genius"], index=0)
    if version == "C":
        order(s, 5, "informer", 3, role="civilian")
    else:
        assert err(order, s, 5, "informer", 3, role="civilian").key == "mafia.error.grey_mass"
        assert err(order, s, 5, "informer", 3, role="vigilante").params == {"ability": "informer",
                                                                            "role": "vigilante"}
        order(s, 5, "informer", 3, role="officer")
    finish(s)
    finish(s)
    order(s, 5, "informer", 2, role="civilian")  # night 2: allowed everywhere


@pytest.mark.parametrize("version", ABC)
def test_row_maniac_double_life(version):
    s = game(version, ["boss", "killer", "officer", "civilian", "maniac"], index=2)
    order(s, 4, "double_life", persona="civilian")
    if version == "C":
        assert s.personas[4] == {"maniac": 1, "civilian": 10}
        assert err(order, s, 4, "double_life", persona="boss").key == "mafia.error.used_up"
        return
    assert s.personas[4] == {"civilian": 1}
    order(s, 4, "double_life", persona="officer")  # again, at will
    assert s.personas[4] == {"officer": 1}
    order(s, 3, "own_hands", 4)  # a probe: the Маньяк learns the drawn persona
    events = finish(s)
    probed = keys(events, "mafia.probed")
    assert [p.params for p in probed] == [{"seat": 4, "persona": "officer"}] * 2
    assert s.personas[4] == {"officer": 1}  # no growth


@pytest.mark.parametrize("version", ABC)
def test_row_maniac_gains_personas_in_no_other_way_in_a_and_b(version):
    s = game(version, ["boss", "killer", "agent", "civilian", "maniac", "genius"], index=2)
    order(s, 2, "slander", 4, persona="boss")
    order(s, 5, "disinformation", 4)
    finish(s)
    assert s.personas[4] == by_version(version, {"maniac": 1}, {"maniac": 1}, {"maniac": 2, "boss": 3})


@pytest.mark.parametrize("version", ABC)
def test_row_slippery_bastard(version):
    s = game(version, ["boss", "killer", "officer", "civilian", "maniac", "agent", "forensic"], index=3)
    s.alive[5] = s.alive[6] = False
    touch(s)
    for seat in (0, 1, 2, 3):
        vote(s, seat, 4)
    weight = sum(RES.vote_weight(s, x) for x in (0, 1, 2, 3))
    assert RES.tally(s) == {4: weight - by_version(version, 3, 5, 2)}


@pytest.mark.parametrize("version", ABC)
def test_row_kidnap(version):
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(version, roles, index=2)
    order(s, 5, "kidnap", 3)
    order(s, 1, "pistol", 3)
    finish(s)
    assert s.hp[3] == by_version(version, 2, 2, 1) and s.plans[5] == by_version(version, 2, 2, 1)
    s = game(version, roles, index=2)
    order(s, 5, "kidnap", 3)
    order(s, 1, "tommygun", 3)
    finish(s)
    assert s.alive[3] and s.hp[3] == by_version(version, 2, 2, 1) and s.plans[5] == 2


@pytest.mark.parametrize("version", ABC)
def test_row_propaganda(version):
    s = game(version, ["boss", "killer", "officer", "civilian", "maniac", "genius"], index=2)
    order(s, 5, "propaganda", 2)
    finish(s)
    assert s.extra_votes[3] == {2: by_version(version, 2, 3, 2)}
    plans = s.plans[5]
    finish(s)
    assert s.alive[2] and s.last_vote["fate"] == "spared"
    assert s.plans[5] - plans == by_version(version, 2, 2, 1)


@pytest.mark.parametrize("version", ABC)
def test_row_informer_same_role_twice(version):
    s = game(version, ["boss", "killer", "officer", "civilian", "maniac", "genius"], index=2)
    order(s, 5, "informer", 2, role="officer")
    finish(s)
    finish(s)
    if version == "A":
        assert err(order, s, 5, "informer", 3, role="officer").key == "mafia.error.already_named"
    else:
        order(s, 5, "informer", 3, role="officer")


@pytest.mark.parametrize("version", ABC)
def test_row_ddd_plans(version):
    need = by_version(version, 8, 8, 6)
    for plans, wins in ((need - 1, False), (need, True)):
        s = game(version, ["boss", "killer", "officer", "civilian", "maniac", "genius"], index=3)
        s.plans[5] = plans
        finish(s)
        out = GAME.outcome(s)
        assert (out is not None and out.reason == "mafia.outcome.ddd") == wins


@pytest.mark.parametrize("version", ABC)
def test_row_leftover_personas(version):
    rs = V.RULESETS[version]
    assert ("traitor" in rs.personas["forensic"]) and ("traitor" in rs.personas["genius"])
    assert ("joker" in rs.personas["forensic"]) == (version == "A")
    assert ("maniac" in rs.personas["forensic"]) == (version != "A")


# ----------------------------------------------------------------------------------- version A: Предатель

TRAITOR = ["boss", "killer", "traitor", "officer", "maniac", "forensic"]


def test_traitor_is_mafia_but_not_in_the_team():
    s = game("A", TRAITOR)
    team = keys(GAME.start_events(s), "mafia.team")[0]
    assert team.params["seats"] == [0, 1] and s.faction(2) == R.MAFIA and "team" not in GAME.view(s, 2)


def test_traitor_backstab():
    s = game("A", TRAITOR, index=2)
    order(s, 2, "backstab", 3, role="officer")
    order(s, 2, "own_hands", 5)
    assert err(order, s, 2, "sabotage_investigation", 3).key == "mafia.error.bad_target"  # not on the Нож target
    finish(s)
    assert s.hp[3] == 1
    s = game("A", TRAITOR, index=2)
    order(s, 2, "backstab", 3, role="forensic")
    finish(s)
    assert s.hp[3] == 2


def test_traitor_sabotage_investigation_and_own_hands():
    s = game("A", TRAITOR, index=2)
    order(s, 2, "sabotage_investigation", 5)
    order(s, 2, "own_hands", 0)
    order(s, 5, "search", 0, persona="boss")
    events = finish(s)
    (search,) = keys(events, "mafia.search")
    assert search.params["found"] is False  # the Криминалист saw only Аноним(1)
    (hands,) = keys(events, "mafia.personas")
    assert len(hands.params["personas"]) == 1 and hands.params["ability"] == "own_hands"  # one draw
    finish(s)
    assert err(order, s, 2, "sabotage_investigation", 5).key == "mafia.error.bad_target"  # never twice
    s = game("A", ["boss", "killer", "traitor", "officer", "maniac", "civilian"], index=2)
    order(s, 2, "sabotage_investigation", 5)
    order(s, 5, "own_hands", 0)
    assert keys(finish(s), "mafia.personas")[-1].params["personas"] == [V.ANONYMOUS, V.ANONYMOUS]


# ----------------------------------------------------------------------------------- version A: Сыщик

DETECTIVE = ["boss", "killer", "detective", "officer", "maniac", "civilian"]


@pytest.mark.parametrize("target,mafia", [(0, True), (3, False)])
def test_detective_investigation(target, mafia):
    s = game("A", DETECTIVE, index=2)
    s.personas[target] = {s.roles[target]: 5, "civilian": 2}
    touch(s)
    order(s, 2, "investigation", target)
    (found,) = keys(finish(s), "mafia.investigation")
    assert found.params == {"seat": 2, "ability": "investigation", "target_seat": target, "mafia": mafia}


def test_detective_evidence_by_day():
    s = game("A", DETECTIVE, index=2)
    order(s, 1, "pistol", 5)
    order(s, 3, "revolver", 5)
    finish(s)
    assert not s.alive[5] and s.phase == "day"
    assert {"type": "order", "ability": "evidence", "target": 5} in GAME.legal(s, 2)
    order(s, 2, "evidence", 5)
    (found,) = keys(finish(s), "mafia.evidence")
    assert found.params == {"seat": 2, "ability": "evidence", "target_seat": 5, "abilities": ["pistol", "revolver"]}
    finish(s)  # night 3
    assert err(order, s, 2, "evidence", 5).key == "mafia.error.bad_target"  # not died last night


# ----------------------------------------------------------------------------------- version A: the Ход

JOKER = ["boss", "killer", "officer", "civilian", "maniac", "joker", "agent"]


def cards_game(cards=None, index=2):
    s = game("A", JOKER, index=index)
    s.cards = list(cards or [1, 1, 1, 1, 1, 1, 1])
    touch(s)
    return s


def test_card_pass():
    s = cards_game()
    assert err(card, s, 0, "pass").key == "mafia.error.bad_target"  # not on self
    assert err(card, s, 0, "bank", 3).key == "mafia.error.bad_target"  # other plays: self
    assert err(card, s, 0, "nope").key == "mafia.error.bad_arg"
    card(s, 0, "pass", 3)
    events = finish(s)
    assert s.cards[0] == 0 and s.cards[3] == 2
    assert {"seat": 3, "cards": 2} in [e.params for e in keys(events, "mafia.cards")]


def test_card_bank_blocks_damage_or_hurts_in_the_morning():
    s = cards_game()
    card(s, 3, "bank")
    order(s, 1, "tommygun", 3)
    card(s, 2, "bank")  # nobody attacks the Officer: 1 damage in the morning
    finish(s)
    assert s.hp[3] == 2 and s.hp[2] == 1 and s.cards[3] == 0


def test_card_bluff_counts_tonight_only():
    s = cards_game()
    s.personas[3] = {"officer": 6}
    touch(s)
    card(s, 3, "bluff", persona="officer")
    order(s, 6, "sabotage", 3, persona="officer")  # 6 + 5 >= 10
    finish(s)
    assert s.hp[3] == 1 and s.temp[3] == {}


def test_card_whist_takes_two_votes_next_day():
    s = cards_game()
    card(s, 3, "whist")
    finish(s)
    assert s.extra_votes[3] == {3: -2}
    vote(s, 0, 3)
    vote(s, 1, 3)
    assert RES.tally(s)[3] == 0


def test_card_misere_next_night_from_jail_hospital_and_unblockable():
    s = cards_game()
    card(s, 2, "misere")
    finish(s)
    finish(s)
    s.jail[2] = 10
    s.hp[2] = 1
    touch(s)
    assert s.misere[2] == s.index == 4
    order(s, 2, "revolver", 1)  # from jail and hospital
    order(s, 0, "interrogation", 2)  # the block is ignored
    finish(s)
    assert s.hp[1] == 1
    finish(s)
    assert err(order, s, 2, "revolver", 1).key == "mafia.error.jailed"  # the night after: lost again


def test_card_dave_and_fold():
    s = cards_game([1, 1, 1, 2, 1, 1, 1])
    card(s, 0, "dave")
    card(s, 3, "fold")
    card(s, 1, "pass", 3)  # Фолд empties the hand before tonight's incoming cards
    finish(s)
    assert s.cards[0] == 2 and s.cards[3] == 1 and s.cards[1] == 0


def test_one_card_per_night_and_the_jail_and_hospital_flags():
    s = cards_game([2, 1, 1, 1, 1, 1, 1])
    s.jail[0], s.hp[0] = 10, 1
    touch(s)
    card(s, 0, "pass", 3)
    card(s, 0, "dave")  # replaces the Пас
    assert list(s.orders[0]) == ["card"] and s.orders[0]["card"]["play"] == "dave"


def test_joker_deal_buy_in_and_hand_of_fate():
    s = cards_game([0, 2, 0, 0, 0, 1, 0])
    order(s, 5, "deal", seats=[1, 2, 3])
    assert err(order, s, 5, "buy_in", 4).key == "mafia.error.exclusive"  # not with Раздача
    events = finish(s)
    assert s.cards == [0, 3, 1, 1, 0, 1, 0]
    assert not s.alive[1]  # the Киллер held 3 cards: Рука судьбы
    (fate,) = keys(events, "mafia.fate")
    assert fate.params == {"seat": 5, "target_seat": 1, "role": "killer"} and fate.audience.seats == (5,)
    s = cards_game([1, 0, 0, 3, 0, 1, 0])
    order(s, 5, "buy_in", 3)
    card(s, 0, "pass", 3)
    finish(s)
    assert s.cards[3] == 2 and s.alive[3] and s.cards[0] == 1  # exactly 2; the passer gets its card back


def test_hand_of_fate_spares_neutrals_and_is_stopped_by_bank_and_kidnap():
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    s = game("A", roles, index=2)
    s.cards = [0, 0, 3, 4, 3, 3, 0]
    touch(s)
    card(s, 2, "bank")  # 2 cards left: no fate
    card(s, 3, "bank")  # 3 cards left: struck, banked
    order(s, 6, "kidnap", 0)
    finish(s)
    assert s.alive[2] and s.alive[3] and s.alive[4] and s.alive[5]
    s = game("A", roles, index=2)
    s.cards = [3, 0, 0, 0, 0, 1, 0]
    touch(s)
    order(s, 6, "kidnap", 0)
    finish(s)
    assert s.alive[0] and s.hp[0] == 2 and s.plans[6] == 2


def test_croupier_in_the_morning():
    s = cards_game([0, 2, 1, 0, 0, 1, 0])
    card(s, 1, "bank")
    card(s, 2, "pass", 3)
    events = finish(s)
    (crou,) = keys(events, "mafia.croupier")
    p = crou.params
    assert p["seat"] == 5 and p["cards"] == [0, 1, 0, 1, 0, 1, 0]
    assert p["roles"] == [{"seat": 1, "role": "killer"}] and p["personas"] == []


def test_all_in_right_wins_at_once():
    s = cards_game()
    events = order(s, 5, "all_in", mapping=list(JOKER))
    (post,) = keys(events, "mafia.all_in")
    assert post.audience.kind == "all" and post.params == {"seat": 5, "mapping": JOKER, "correct": True}
    out = GAME.outcome(s)
    assert out.reason == "mafia.outcome.all_in" and out.winners == (5,) and s.phase == "over"


def test_all_in_wrong_leaves_and_disables_the_hod():
    s = cards_game()
    wrong = list(JOKER)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    assert err(order, s, 5, "all_in", mapping=["boss"]).key == "mafia.error.bad_arg"
    events = order(s, 5, "all_in", mapping=wrong)
    assert keys(events, "mafia.all_in")[0].params["correct"] is False
    assert not s.alive[5] and s.cards_off and GAME.outcome(s) is None
    assert "card" not in {a.get("ability") for a in GAME.legal(s, 0)}
    assert err(card, s, 0, "bank").key == "mafia.error.cards_off"
    assert GAME.view(s, 0)["alive"][5] is False


def test_all_in_wrong_as_the_last_awaited_seat_resolves_the_phase():
    s = cards_game()
    for seat in range(7):
        if seat != 5:
            GAME.apply(s, seat, READY)
    order(s, 5, "all_in", mapping=["civilian"] * 7)
    assert s.phase == "day" and s.index == 3


def test_master_view_has_cards():
    s = cards_game()
    assert GAME.view(s, MASTER)["cards"] == [1] * 7


# ----------------------------------------------------------------------------------- bots


@pytest.mark.parametrize("version", ABC)
def test_bot_games_end_under_every_ruleset(version):
    bot.STRICT = True
    reasons = Counter()
    try:
        for seed in range(8):
            players = (5, 9, 13, 15, 18, 11, 7, 20)[seed]
            s = GAME.new(players, {"ruleset": version}, seed)
            rng = random.Random(seed)
            steps = 0
            while GAME.outcome(s) is None:
                waits = GAME.awaiting(s)
                seat = waits[rng.randrange(len(waits))].seat
                legal = GAME.legal(s, seat)
                action = GAME.bot_action(GAME.view(s, seat), legal, rng, "easy")
                shape = {k: v for k, v in action.items()
                         if k not in ("role", "persona", "personas", "public", "bans", "text", "seats", "mapping")}
                assert shape in [{k: v for k, v in a.items() if k not in ("need", "among")} for a in legal], action
                GAME.apply(s, seat, action)
                steps += 1
                assert steps < 20_000
            out = GAME.outcome(s)
            reason = out.reason.removeprefix("mafia.outcome.")
            assert reason in ("ddd", "legend", "mafia", "law", "stalemate", "all_in")
            assert all(s.alive[x] for x in out.winners)
            reasons[reason] += 1
    finally:
        bot.STRICT = False
    assert sum(reasons.values()) == 8


def test_a_bots_play_cards_and_the_joker_acts():
    bot.STRICT = True
    seen: Counter = Counter()
    try:
        for seed in range(6):
            s = GAME.new(15, {"ruleset": "A"}, seed)
            rng = random.Random(seed)
            while GAME.outcome(s) is None:
                waits = GAME.awaiting(s)
                seat = waits[rng.randrange(len(waits))].seat
                action = GAME.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "easy")
                seen[action.get("play") or action.get("ability") or action["type"]] += 1
                GAME.apply(s, seat, action)
    finally:
        bot.STRICT = False
    assert {"pass", "deal", "backstab", "investigation", "call"} <= set(seen), seen


def test_highlander_stops_hand_of_fate_on_nights_one_and_two():
    """4.6 #7: «Кровавая баня and Рука судьбы are not attacks: only Горец, Банк and Похищение stop
    them» — a Горец with 3 cards lives through nights 1-2, not night 3."""
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    public = ["Горец", "b", "c", "d", "e", "f", "g"]
    for index, lives in ((2, True), (4, False)):
        s = game("A", roles, index=index, public=public)
        s.cards = [3, 0, 0, 0, 0, 1, 0]
        touch(s)
        finish(s)
        assert s.alive[0] is lives, index


def test_misere_shows_in_the_players_own_view_on_its_night():
    """4.3 Ход, Мизер: «next night all own abilities work from Hospital and Jail and ignore
    blocks» — the player's view says so on that night, so the menu can offer them."""
    s = cards_game([0, 2, 0, 0, 0, 1, 0])
    card(s, 1, "misere")
    assert GAME.view(s, 1)["misere"] is False
    finish(s)  # day
    goto_night = s.index + 1
    s.index, s.phase = goto_night, "night"
    touch(s)
    assert GAME.view(s, 1)["misere"] is True
    assert "misere" not in GAME.view(s, 2) or GAME.view(s, 2)["misere"] is False
