"""Forum Mafia engine (seed 004, version C; docs/mafia-protocol.md; ../shared/rules/mafia.md 4.x):
one test per ability and per resolution rule, each on a set position."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import MASTER, SPECTATOR, Audience, Awaiting, RuleError
from games.mafia import GAME, MafiaState
from games.mafia import resolution as RES
from games.mafia import state as MS
from games.mafia import roles as R

READY = {"type": "ready"}
BASE = ["boss", "killer", "officer", "civilian", "maniac"]


# ----------------------------------------------------------------------------------- helpers


def game(roles=None, index=0, public=None, seed=0, **options) -> MafiaState:
    """A position: these secret roles by seat, at phase ``index`` (0 = night 1, 1 = day 1...)."""
    roles = list(roles or BASE)
    opts = dict(options)
    if public is not None:
        opts["public_roles"] = public
    s = GAME.new(len(roles), opts, seed)
    s.roles = roles
    s.personas = [{name: 1 for name in R.ROLE_PERSONAS[r]} for r in roles]
    s.start_personas = [dict(p) for p in s.personas]
    s.index = index
    s.phase = "night" if index % 2 == 0 else "day"
    touch(s)
    return s


def touch(s: MafiaState) -> None:
    """Forget the per-phase caches after editing a position by hand."""
    s.actors = None
    s.public_cache = None


def order(s, seat, ability, target=None, **args):
    action = {"type": "order", "ability": ability, **args}
    if target is not None:
        action["target"] = target
    return GAME.apply(s, seat, action)


def finish(s) -> list:
    """Everyone awaited says ready: the phase resolves. Returns the events of the last apply."""
    events = []
    while True:
        waits = GAME.awaiting(s)
        if not waits:
            return events
        window = waits[0].window
        for w in waits:
            events = GAME.apply(s, w.seat, READY)
        if not GAME.awaiting(s) or GAME.awaiting(s)[0].window != window:
            return events


def keys(events, key):
    return [e for e in events if e.key == key]


def to(events, seat):
    return [e for e in events if e.audience.kind == "seats" and seat in e.audience.seats]


def err(fn, *args, **kw) -> RuleError:
    with pytest.raises(RuleError) as info:
        fn(*args, **kw)
    return info.value


# ----------------------------------------------------------------------------------- setup


def test_deal_follows_the_player_count_table():  # decision #3
    assert Counter(R.deal(5)) == Counter(BASE)
    assert Counter(R.deal(6)) - Counter(R.deal(5)) == Counter(["forensic"])
    assert Counter(R.deal(7)) - Counter(R.deal(6)) == Counter(["policeman"])
    assert Counter(R.deal(8)) - Counter(R.deal(7)) == Counter(["agent"])
    assert Counter(R.deal(9)) - Counter(R.deal(8)) == Counter(["vigilante"])
    assert Counter(R.deal(10)) - Counter(R.deal(9)) == Counter(["genius"])
    assert Counter(R.deal(14))["civilian"] == 5
    for n in range(5, 31):
        s = GAME.new(n, {}, n)
        assert Counter(s.roles) == Counter(R.deal(n)) and "maniac" in s.roles


def test_options_and_errors():
    assert GAME.validate_options({"night": "60", "day": 90}) == {**GAME.default_options, "night": 60, "day": 90}
    assert err(GAME.validate_options, {"night": 5}).key == "mafia.error.bad_option"
    assert err(GAME.validate_options, {"version": "D"}).key == "mafia.error.bad_option"
    assert err(GAME.validate_options, {"public_roles": ["Ann", "ann"]}).key == "mafia.error.duplicate_public_role"
    assert err(GAME.new, 4, {}, 0).params == {"name": "players", "value": 4}
    assert err(GAME.new, 5, {"public_roles": ["a", "b"]}, 0).key == "mafia.error.bad_option"


def test_start_whispers_role_abilities_personas_and_the_mafia_team():
    s = GAME.new(10, {}, 3)
    events = GAME.start_events(s)
    for seat in range(10):
        mine = [e for e in keys(events, "mafia.role") if e.params["seat"] == seat]
        assert len(mine) == 1 and mine[0].audience == Audience.only(seat)
        assert mine[0].params["role"] == s.roles[seat]
        assert mine[0].params["abilities"] == list(R.ROLE_ABILITIES[s.roles[seat]])
        assert mine[0].params["personas"] == {n: 1 for n in R.ROLE_PERSONAS[s.roles[seat]]}
    mafia = sorted(x for x in range(10) if s.roles[x] in ("boss", "killer", "agent"))
    (team,) = keys(events, "mafia.team")
    assert sorted(team.audience.seats) == mafia == sorted(team.params["seats"])
    assert keys(events, "mafia.phase")[0].params == {"phase": "night", "number": 1, "seconds": 600}
    view = GAME.view(s, mafia[0])
    assert {t["seat"] for t in view["team"]} == set(mafia)
    other = next(x for x in range(10) if x not in mafia)
    assert "team" not in GAME.view(s, other) and "roles" not in GAME.view(s, other)


# ----------------------------------------------------------------------------------- phases and orders


def test_phases_start_at_night_await_everyone_and_resolve_when_all_are_ready():
    s = game()
    waits = GAME.awaiting(s)
    assert [w.seat for w in waits] == [0, 1, 2, 3, 4]
    assert waits[0] == Awaiting(0, "phase", 600, READY, "night-1")
    order(s, 2, "revolver", 4)
    assert 2 in [w.seat for w in GAME.awaiting(s)]  # orders do not end the wait
    GAME.apply(s, 2, READY)
    assert 2 not in [w.seat for w in GAME.awaiting(s)]
    order(s, 2, "revolver", 3)  # an order after ready: awaited again, same window
    assert [w for w in GAME.awaiting(s) if w.seat == 2][0].window == "night-1"
    assert s.orders[2]["revolver"]["target"] == 3  # changed, not added
    events = finish(s)
    assert s.phase == "day" and s.index == 1 and keys(events, "mafia.phase")[0].params["phase"] == "day"
    assert s.hp[3] == 1 and keys(events, "mafia.hospital")[0].params == {"seat": 3}


def test_orders_can_be_cancelled_and_a_weapon_replaces_another():
    s = game(index=2)
    order(s, 1, "pistol", 2)
    order(s, 1, "tommygun", 3)
    assert list(s.orders[1]) == ["tommygun"]
    events = GAME.apply(s, 1, {"type": "cancel", "ability": "tommygun"})
    assert s.orders[1] == {} and events[0].audience == Audience.only(1)
    assert err(GAME.apply, s, 1, {"type": "cancel", "ability": "pistol"}).key == "mafia.error.no_order"


def test_any_time_double_life_resolves_at_once_once_and_cannot_be_cancelled():
    s = game(index=1)
    events = order(s, 4, "double_life", persona="civilian")
    assert s.personas[4]["civilian"] == 10 and keys(events, "mafia.done")
    assert err(GAME.apply, s, 4, {"type": "cancel", "ability": "double_life"}).key == "mafia.error.no_order"
    assert err(order, s, 4, "double_life", persona="boss").key == "mafia.error.used_up"


def test_rule_errors_for_bad_orders():
    s = game()
    assert err(order, s, 1, "sniper", 2, role="boss").key == "mafia.error.not_first_night"
    assert err(order, s, 0, "pistol", 2).key == "mafia.error.no_such_ability"
    assert err(order, s, 2, "revolver", 2).key == "mafia.error.bad_target"
    assert err(GAME.apply, s, 2, {"type": "vote", "target": 1}).key == "mafia.error.wrong_phase"
    assert err(order, s, 3, "jury", 1, role="officer").key == "mafia.error.bad_arg"
    assert err(GAME.apply, s, 9, READY).key == "mafia.error.not_a_player"
    assert err(GAME.apply, s, 0, {"type": "dance"}).key == "mafia.error.no_such_action"


def test_legal_lists_templates_with_need_and_applies_after_filling():
    s = game(index=2)
    legal = GAME.legal(s, 1)
    assert {"type": "order", "ability": "pistol", "target": 2} in legal
    sniper = [a for a in legal if a.get("ability") == "sniper"]
    assert sniper and sniper[0]["need"] == ["role"] and READY in legal
    assert err(GAME.apply, s, 1, sniper[0]).key == "mafia.error.bad_arg"
    assert {"type": "mail", "target": "city", "need": ["text"]} in legal


# ----------------------------------------------------------------------------------- HP, statuses, death


def test_hospital_loses_secret_abilities_without_the_hospital_flag():
    s = game(index=2)
    s.hp[1] = 1
    touch(s)
    assert err(order, s, 1, "tommygun", 2).key == "mafia.error.hospital"
    order(s, 1, "pistol", 2)  # Пистолет (Г)
    assert GAME.view(s, SPECTATOR)["hospital"][1]


def test_death_goes_to_the_morgue_and_the_dead_get_no_messages_for_that_phase():
    s = game(["boss", "killer", "officer", "forensic", "maniac"], index=2)
    order(s, 3, "search", 0, personas=["boss", "killer"])
    order(s, 1, "tommygun", 3)
    events = finish(s)
    assert not s.alive[3] and keys(events, "mafia.died")[0].params == {"seat": 3}
    assert to(events, 3) == [] and not keys(events, "mafia.search")
    assert keys(events, "mafia.tommygun")[0].params == {"seat": 1}
    assert err(GAME.apply, s, 3, {"type": "vote", "target": 0}).key == "mafia.error.dead"
    assert GAME.legal(s, 3) == [] and 3 not in [w.seat for w in GAME.awaiting(s)]


def test_day_one_jail_instead_of_death_for_a_day_and_a_half():  # decision #20
    s = game(index=1)
    for seat in range(5):
        GAME.apply(s, seat, {"type": "vote", "target": 3})
    events = finish(s)
    assert s.alive[3] and keys(events, "mafia.vote_result")[0].params == {"seat": 3, "fate": "jail"}
    assert s.jail[3] == 4 and GAME.view(s, 0)["jail_until"][3] == 4
    assert err(order, s, 3, "jury", 0, role="boss").key == "mafia.error.jailed"
    assert err(GAME.apply, s, 3, {"type": "mail", "target": 0, "text": "x"}).key == "mafia.error.jailed"
    finish(s)  # night 2
    assert s.phase == "day" and err(GAME.apply, s, 3, {"type": "vote", "target": 0}).key == "mafia.error.jailed"
    finish(s)  # day 2 (nobody votes)
    events = finish(s)  # night 3
    assert s.index == 5 and keys(events, "mafia.released")[0].params == {"seat": 3}
    GAME.apply(s, 3, {"type": "vote", "target": 0})


# ----------------------------------------------------------------------------------- blocks


def test_a_blocked_seat_learns_it_not_by_whom_and_its_orders_are_void():
    s = game(index=2)
    order(s, 0, "interrogation", 2)
    order(s, 2, "revolver", 1)
    events = finish(s)
    assert s.hp[1] == 2
    (blocked,) = to(events, 2)
    assert blocked.key == "mafia.blocked" and blocked.params == {"seat": 2}


def test_a_blocked_once_per_game_ability_is_not_used_up():
    roles = ["boss", "killer", "officer", "civilian", "maniac", "forensic", "policeman", "agent",
             "vigilante", "genius"]
    s = game(roles, index=2)
    order(s, 6, "interrogation", 9)  # the Полицейский blocks the Злой Гений
    order(s, 9, "bribe", 2)
    finish(s)
    assert s.jail[2] is None and "bribe" not in s.used[9]
    finish(s)
    order(s, 9, "bribe", 2)
    events = finish(s)
    assert "bribe" in s.used[9] and s.jail[2] == 6 and keys(events, "mafia.jailed")


def test_unblockable_abilities_work_when_blocked():
    s = game(index=2)
    order(s, 0, "interrogation", 4)
    order(s, 4, "assault", 2)  # Нападение (Б)
    GAME.apply(s, 4, {"type": "mail", "target": 2, "text": "boo"})  # Почта (Б)
    events = finish(s)
    assert s.hp[2] == 1 and [e.params["text"] for e in keys(events, "mafia.mail")] == ["boo"]
    # issue 14: not "your orders did not work": the Б ones did, and the whisper names them
    assert not keys(events, "mafia.blocked")
    assert keys(events, "mafia.blocked_some")[0].params == {"seat": 4, "abilities": ["assault", "mail"]}


# ----------------------------------------------------------------------------------- attacks pipeline


def test_cover_against_pistol():
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2)
    order(s, 2, "cover", 3)
    order(s, 1, "pistol", 3)
    finish(s)
    assert s.hp[3] == 2 and s.used_on[2]["cover"] == [3]
    finish(s)
    assert err(order, s, 2, "cover", 3).key == "mafia.error.bad_target"  # never twice on one target


def test_patrol_drops_the_strongest_attack():
    s = game(["boss", "killer", "vigilante", "officer", "maniac", "civilian"], index=2)
    order(s, 2, "patrol", 5)
    order(s, 1, "tommygun", 5)
    order(s, 3, "revolver", 5)
    finish(s)
    assert s.alive[5] and s.hp[5] == 1


def test_patrol_not_on_self_from_the_hospital():
    s = game(["boss", "killer", "vigilante", "officer", "maniac"], index=2)
    s.hp[2] = 1
    touch(s)
    assert err(order, s, 2, "patrol", 2).key == "mafia.error.bad_target"


def test_sawnoff_counterattacks_non_mafia_users_except_mail():
    s = game(["boss", "killer", "agent", "officer", "maniac", "civilian"], index=2)
    order(s, 0, "sawnoff")
    order(s, 3, "revolver", 0)
    order(s, 5, "own_hands", 0)
    order(s, 2, "slander", 0, persona="civilian")  # Mafia: no counterattack
    GAME.apply(s, 4, {"type": "mail", "target": 0, "text": "hi"})  # mail: none
    finish(s)
    assert (s.hp[0], s.hp[3], s.hp[5], s.hp[2], s.hp[4]) == (1, 1, 1, 2, 2)


def test_paranoia_takes_one_from_every_attack():
    s = game(index=2)
    order(s, 3, "paranoia")
    order(s, 1, "pistol", 3)
    order(s, 2, "revolver", 3)
    finish(s)
    assert s.hp[3] == 2 and "paranoia" in s.used[3]


def test_kidnap_saves_at_one_hp_and_gives_a_plan():
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(roles, index=2)
    order(s, 5, "kidnap", 3)
    order(s, 1, "tommygun", 3)
    events = finish(s)
    assert s.alive[3] and s.hp[3] == 1 and s.plans[5] == 2  # +1 kidnap, +1 the night
    assert keys(events, "mafia.plans")[0].params == {"seat": 5, "plans": 2}


def test_bloodbath_is_not_an_attack():
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2, public=["A", "B", "C", "Dee", "E"])
    order(s, 2, "cover", 3)
    order(s, 4, "bloodbath", public="dee", role="officer")
    finish(s)
    assert not s.alive[3]


def test_sniper_hits_only_a_right_guess_and_never_twice():
    s = game(index=2)
    order(s, 1, "sniper", 2, role="officer")
    finish(s)
    assert not s.alive[2]
    s = game(index=2)
    order(s, 1, "sniper", 2, role="civilian")
    finish(s)
    assert s.hp[2] == 2 and s.used_on[1]["sniper"] == [2]
    finish(s)
    assert err(order, s, 1, "sniper", 2, role="officer").key == "mafia.error.bad_target"


def test_legacy_only_while_the_killer_is_dead_or_jailed():
    s = game(index=2)
    assert err(order, s, 0, "legacy", 2).key == "mafia.error.not_now"
    s.jail[1] = 5
    touch(s)
    order(s, 0, "legacy", 2)
    finish(s)
    assert s.hp[2] == 1


def test_militia_gives_a_revolver_for_the_next_night():
    s = game(index=2)
    order(s, 2, "militia", 3)
    events = finish(s)
    assert keys(events, "mafia.armed")[0].audience == Audience.only(3)
    finish(s)
    assert GAME.view(s, 3)["revolver"]
    order(s, 3, "revolver", 0)
    finish(s)
    assert s.hp[0] == 1
    s = game(index=2)
    assert err(order, s, 1, "militia", 0).key == "mafia.error.bad_target"  # not the Boss


def test_sabotage_needs_eight_of_the_named_persona():
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2)
    s.personas[3]["officer"] = 5
    order(s, 2, "sabotage", 3, persona="officer")
    finish(s)
    assert s.hp[3] == 2
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2)
    s.personas[3]["officer"] = 5
    order(s, 2, "slander", 3, persona="officer")  # Клевета counts tonight too: 6 + 3 = 9
    order(s, 2, "sabotage", 3, persona="officer")
    finish(s)
    assert s.hp[3] == 1


def test_slander_and_disguise_personas():
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2)
    order(s, 2, "slander", 3, persona="maniac")
    order(s, 2, "disguise", persona="civilian")
    assert s.temp[2] == {}  # nothing before the resolution
    finish(s)
    assert s.personas[3]["maniac"] == 4 and s.temp[2] == {}  # +3 stays, +20 was tonight only
    assert err(order, s, 2, "disguise", persona="civilian").key == "mafia.error.wrong_phase"


def test_disguise_counts_tonight():
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2)
    order(s, 2, "disguise", persona="maniac")
    order(s, 4, "stalking", 2)
    events = finish(s)
    # 20 maniac out of 25 drawable (civilian excluded): the draw is seeded; check the weight is there
    assert keys(events, "mafia.personas")[0].params["personas"][0] in R.PERSONAS
    assert s.temp[2] == {}


def test_punishment_hits_a_right_guess_or_any_law_target():
    s = game(["boss", "killer", "vigilante", "officer", "maniac"], index=2)
    order(s, 2, "punishment", 3, role="boss")  # wrong, but Law
    finish(s)
    assert not s.alive[3]
    s = game(["boss", "killer", "vigilante", "officer", "maniac"], index=2)
    order(s, 2, "punishment", 0, role="killer")
    finish(s)
    assert s.hp[0] == 2
    assert err(order, game(["boss", "killer", "vigilante", "officer", "maniac"]), 2, "punishment", 0,
               role="boss").key == "mafia.error.not_first_night"


def test_assault_not_on_the_first_night():
    s = game()
    assert err(order, s, 4, "assault", 0).key == "mafia.error.not_first_night"


# ----------------------------------------------------------------------------------- jail abilities


def test_arrest_jails_for_life_on_a_right_guess_with_eight_personas():
    roles = ["boss", "killer", "policeman", "officer", "maniac"]
    s = game(roles, index=2)
    order(s, 2, "arrest", 0, role="boss")  # 5 corresponding personas: not enough
    finish(s)
    assert s.jail[0] is None
    s = game(roles, index=2)
    s.personas[0]["boss"] = 4
    order(s, 2, "arrest", 0, role="boss")
    events = finish(s)
    assert s.jail[0] == R.LIFE and keys(events, "mafia.jailed")[0].params == {"seat": 0, "until": "life"}
    assert GAME.view(s, 3)["jail_until"][0] == "life"


def test_ban_forbids_the_named_ability_next_night():
    roles = ["boss", "killer", "policeman", "officer", "maniac"]
    s = game(roles, index=2)
    order(s, 2, "ban", 1, bans=[["killer", "pistol"], ["boss", "sawnoff"], ["maniac", "assault"]])
    assert err(order, s, 2, "arrest", 1, role="killer").key == "mafia.error.bad_target"  # not with ban
    events = finish(s)
    assert keys(events, "mafia.banned")[0].params == {"seat": 1, "ability": "pistol"}
    finish(s)
    assert err(order, s, 1, "pistol", 3).key == "mafia.error.banned"
    order(s, 1, "tommygun", 3)
    assert err(order, s, 2, "ban", 1, bans=[["killer", "pistol"], ["boss", "sawnoff"], ["maniac", "assault"]]
               ).key == "mafia.error.bad_target"  # never twice on one target
    assert err(order, s, 2, "ban", 0, bans=[["killer", "arsenal"], ["boss", "sawnoff"], ["maniac", "assault"]]
               ).key == "mafia.error.bad_arg"


def test_policeman_interrogation_never_twice_on_one_target():
    s = game(["boss", "killer", "policeman", "officer", "maniac"], index=2)
    order(s, 2, "interrogation", 1)
    finish(s)
    finish(s)
    assert err(order, s, 2, "interrogation", 1).key == "mafia.error.bad_target"


# ----------------------------------------------------------------------------------- information


def test_mastermind_draws_two_and_not_on_the_interrogated():
    s = game(index=2)
    order(s, 0, "interrogation", 2)
    assert err(order, s, 0, "mastermind", 2).key == "mafia.error.bad_target"
    order(s, 0, "mastermind", 3)
    events = finish(s)
    (result,) = keys(events, "mafia.personas")
    assert result.audience == Audience.only(0) and len(result.params["personas"]) == 2
    assert set(result.params["personas"]) <= set(R.ROLE_PERSONAS["civilian"])
    assert GAME.view(s, 0)["knowledge"][-1]["key"] == "mafia.personas"


def test_search_counts_the_named_personas():
    s = game(["boss", "killer", "forensic", "officer", "maniac"], index=2)
    order(s, 2, "search", 0, personas=["boss", "killer"])
    events = finish(s)
    assert keys(events, "mafia.search")[0].params["count"] == 1


def test_autopsy_learns_the_exact_role_of_the_dead():
    s = game(["boss", "killer", "forensic", "officer", "maniac"], index=2)
    s.alive[3] = False
    touch(s)
    assert err(order, s, 2, "autopsy", 0).key == "mafia.error.bad_target"
    order(s, 2, "autopsy", 3)
    events = finish(s)
    assert keys(events, "mafia.autopsy")[0].params["role"] == "officer"


def test_informants_own_hands_and_stalking():
    s = game(["boss", "killer", "vigilante", "civilian", "maniac"], index=2)
    order(s, 2, "informants", 0)
    order(s, 3, "own_hands", 0)
    s.personas[3] = {"civilian": 50}
    order(s, 4, "stalking", 3)
    events = finish(s)
    got = {e.params["ability"]: e.params["personas"] for e in keys(events, "mafia.personas")}
    assert len(got["informants"]) == 1 and len(got["own_hands"]) == 2 and got["stalking"] == []


def test_jury_adds_two_secret_votes_next_day():
    s = game(index=2)
    order(s, 3, "jury", 4, role="maniac")
    events = finish(s)
    assert keys(events, "mafia.guess")[0].params["correct"]
    GAME.apply(s, 0, {"type": "vote", "target": 2})  # Mafia 1 against 2 secret votes (−2 dead: none)
    assert RES.tally(s) == {2: 1, 4: 2}
    events = finish(s)
    assert not s.alive[4] and keys(events, "mafia.vote_result")[0].params == {"seat": 4, "fate": "death"}


def test_assist_adds_three_corresponding_personas_by_day():
    s = game(index=3)
    order(s, 3, "assist", 0)
    finish(s)
    assert MS.corresponding(s, 0) == 5 + 3 + 1  # start, assist, end-of-day growth


# ----------------------------------------------------------------------------------- genius


def test_propaganda_votes_and_spares():
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(roles, index=2)
    order(s, 5, "propaganda", 1)
    assert err(order, s, 5, "kidnap", 2).key == "mafia.error.exclusive"
    finish(s)
    GAME.apply(s, 2, {"type": "vote", "target": 0})  # 2 against the Boss, 2 propaganda on the Killer
    events = finish(s)  # a tie: seat order among custom names #1.. (Босс '#1' first)
    assert keys(events, "mafia.vote_result")[0].params == {"seat": 0, "fate": "death"}
    s = game(roles, index=2)
    order(s, 5, "propaganda", 1)
    finish(s)
    events = finish(s)
    assert keys(events, "mafia.vote_result")[0].params == {"seat": 1, "fate": "spared"} and s.alive[1]
    assert s.plans[5] == 2


def test_informer_disinformation_and_zombify():
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(roles, index=2)
    order(s, 5, "informer", 0, role="boss")
    order(s, 5, "disinformation", 3)
    order(s, 5, "zombify", 2)
    order(s, 0, "mastermind", 3)
    order(s, 2, "revolver", 0)
    events = finish(s)
    assert s.plans[5] == 3 and s.hp[0] == 2  # informer, disinformation (2 drawn), night
    assert keys(events, "mafia.blocked")[0].params == {"seat": 2}
    assert err(order, s, 5, "informer", 0, role="boss").key == "mafia.error.wrong_phase"


def test_genius_wins_with_six_plans_at_the_end_of_a_day_before_anyone_else():  # #14
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(roles, index=3)
    s.plans[5] = 6
    for x in (0, 1, 3, 4):
        s.alive[x] = False
    touch(s)
    finish(s)
    assert GAME.outcome(s).winners == (5,) and GAME.outcome(s).reason == "mafia.outcome.ddd"


# ----------------------------------------------------------------------------------- votes


def test_votes_are_weighted_by_faction_and_only_the_outcome_is_published():  # #4, #5
    s = game(index=3)
    GAME.apply(s, 0, {"type": "vote", "target": 3})  # Mafia: 1
    GAME.apply(s, 1, {"type": "vote", "target": 3})  # Mafia: 1
    GAME.apply(s, 2, {"type": "vote", "target": 0})  # Law: 2
    GAME.apply(s, 4, {"type": "vote", "target": 2})  # Neutral: 3
    assert RES.tally(s) == {3: 2, 0: 2, 2: 3}
    events = finish(s)
    public = [e for e in events if e.audience.kind == "all"]
    assert keys(events, "mafia.vote_result")[0].params == {"seat": 2, "fate": "death"}
    assert not any("votes" in e.params or "total" in e.params for e in public)


def test_a_tie_goes_to_the_earlier_listed_public_role_then_alphabetically():  # #12
    s = game(index=3, public=["Zed", "amy", "Bob", "Carl", "Dora"])
    GAME.apply(s, 0, {"type": "vote", "target": 2})  # 1 on Bob
    GAME.apply(s, 1, {"type": "vote", "target": 0})  # 1 on Zed
    events = finish(s)
    assert keys(events, "mafia.vote_result")[0].params["seat"] == 2  # Bob before Zed
    assert RES.tie_key(s, 1) < RES.tie_key(s, 2)  # "amy" before "Bob", case-folded


def test_maniac_sheds_one_vote_per_dead_and_nobody_dies_below_one():
    s = game(index=3)
    s.alive[3] = False
    touch(s)
    GAME.apply(s, 0, {"type": "vote", "target": 4})
    assert RES.tally(s) == {4: 0}
    events = finish(s)
    assert keys(events, "mafia.no_execution") and s.alive[4]


# ----------------------------------------------------------------------------------- mail


def test_spam_rule_more_than_three_messages():  # #15
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(roles, index=2)
    for seat in (0, 1, 2, 3):
        GAME.apply(s, seat, {"type": "mail", "target": 5, "text": f"m{seat}"})
    GAME.apply(s, 4, {"type": "mail", "target": "city", "text": "c4"})
    events = finish(s)
    assert [e.params for e in keys(events, "mafia.spammed")] == [{"seat": 5}] and not keys(events, "mafia.mail")
    assert [e.params["text"] for e in keys(events, "mafia.city_mail")] == ["c4"]
    s = game(roles, index=2)
    for seat in (0, 1, 2):
        GAME.apply(s, seat, {"type": "mail", "target": 5, "text": f"m{seat}"})
    events = finish(s)
    assert sorted(e.params["text"] for e in keys(events, "mafia.mail")) == ["m0", "m1", "m2"]
    assert all(e.audience == Audience.only(5) and "sender" not in str(e.params) for e in keys(events, "mafia.mail"))


def test_city_spam_and_mail_limits_by_faction():
    roles = ["boss", "killer", "officer", "civilian", "maniac", "genius"]
    s = game(roles, index=2)
    for seat in range(5):
        GAME.apply(s, seat, {"type": "mail", "target": "city", "text": "x"})
    events = finish(s)
    assert keys(events, "mafia.city_spammed") and not keys(events, "mafia.city_mail")
    finish(s)  # day 2
    GAME.apply(s, 2, {"type": "mail", "target": 0, "text": "y"})
    finish(s)  # night 3
    finish(s)  # day 3
    assert s.mail_used[2] == 2 and GAME.view(s, 2)["mail_left"] == 0
    assert err(GAME.apply, s, 2, {"type": "mail", "target": 0, "text": "z"}).key == "mafia.error.used_up"
    GAME.apply(s, 0, {"type": "mail", "target": 2, "text": "z"})  # Mafia: a third one


# ----------------------------------------------------------------------------------- healing, personas


def test_healing_threshold_eight_and_ten_for_law():
    s = game(index=2)
    s.hp[0] = s.hp[2] = 1
    s.personas[0] = {"boss": 8}
    s.personas[2] = {"officer": 9}
    touch(s)
    order(s, 0, "healing")
    order(s, 2, "healing")
    events = finish(s)
    assert s.hp[0] == 2 and s.hp[2] == 1 and keys(events, "mafia.recovered")[0].params == {"seat": 0}


def test_persona_draws_are_weighted_and_reproduce_from_the_seed():
    s = game(seed=7)
    s.personas[2] = {"killer": 3, "officer": 1}
    draws = Counter(MS.draw_persona(s, 2) for _ in range(4000))
    assert 0.7 < draws["killer"] / 4000 < 0.8 and set(draws) == {"killer", "officer"}
    assert _draws(7, 50) == _draws(7, 50) != _draws(8, 50)
    one, two = GAME.new(12, {}, 99), GAME.new(12, {}, 99)
    finish(one)
    finish(two)
    assert one.personas == two.personas and one.roles == two.roles


def _fresh(seed):
    s = game(seed=seed)
    s.personas[2] = {"killer": 3, "officer": 1}
    return s


def _draws(seed, n):
    s = _fresh(seed)
    return [MS.draw_persona(s, 2) for _ in range(n)]


def test_growth_per_phase_list_and_own_readings():  # #1
    s = game()
    finish(s)
    assert all(sum(p.values()) == len(R.ROLE_PERSONAS[r]) + 1 for p, r in zip(s.personas, s.roles))
    assert all(MS.corresponding(s, x) == len(R.ROLE_PERSONAS[s.roles[x]]) + 1 for x in range(5))
    s = game(personas="own")
    finish(s)
    assert s.personas[0]["boss"] == 2 and MS.corresponding(s, 0) == 2


# ----------------------------------------------------------------------------------- wins, stalemate


def test_law_wins_when_mafia_and_maniac_are_dead():
    s = game(index=2)
    s.alive[0] = False
    s.alive[4] = False
    touch(s)
    order(s, 2, "revolver", 1)
    order(s, 3, "own_hands", 1)
    s.hp[1] = 1
    finish(s)
    out = GAME.outcome(s)
    assert out.reason == "mafia.outcome.law" and out.winners == (2, 3) and GAME.awaiting(s) == []


def test_mafia_wins_and_dead_members_do_not():
    s = game(["boss", "killer", "officer", "civilian", "maniac", "agent"], index=2)
    s.alive[2] = s.alive[4] = s.alive[5] = False
    s.hp[3] = 1
    touch(s)
    order(s, 1, "pistol", 3)
    finish(s)
    assert GAME.outcome(s).reason == "mafia.outcome.mafia" and GAME.outcome(s).winners == (0, 1)


def test_maniac_legend():
    s = game(index=2)
    for x in (0, 1, 2):
        s.alive[x] = False
    s.hp[3] = 1
    touch(s)
    order(s, 4, "assault", 3)
    events = finish(s)
    assert GAME.outcome(s).winners == (4,) and GAME.outcome(s).reason == "mafia.outcome.legend"
    assert keys(events, "mafia.dead_role")[0].params == {"seat": 4, "target_seat": 3, "role": "civilian"}
    assert keys(events, "mafia.win")[0].params == {"reason": "legend", "seats": [4]}


def test_stalemate_after_two_quiet_cycles():  # #13
    s = game(index=2)
    for x in range(5):
        s.jail[x] = R.LIFE
        s.used[x].add("paranoia")
    s.used[4].add("double_life")
    touch(s)
    assert [w.seat for w in GAME.awaiting(s)] == [4]  # only the Маньяк can act from jail
    finish(s)  # night 2, then day 2 resolves at once: nobody can act in it
    assert GAME.outcome(s) is None and s.quiet == 2 and s.index == 4
    events = finish(s)
    assert GAME.outcome(s).reason == "mafia.outcome.stalemate" and GAME.outcome(s).winners == ()
    assert keys(events, "mafia.stalemate")


# ----------------------------------------------------------------------------------- views, hooks, replay


def test_views_hide_roles_hp_and_orders_but_the_master_sees_all():
    s = game(index=2)
    order(s, 1, "pistol", 2)
    GAME.apply(s, 3, {"type": "mail", "target": 0, "text": "hello"})
    seat = GAME.view(s, 2)
    assert seat["role"] == "officer" and "hp" not in seat and "roles" not in seat
    assert seat["orders"] == {} and GAME.view(s, 1)["orders"]["pistol"]["target"] == 2
    master = GAME.view(s, MASTER)
    assert master["roles"] == BASE and master["orders"][1]["pistol"]["target"] == 2
    assert master["orders"][3]["mail"]["text"] == "hello" and master["hp"] == [2] * 5
    spectator = GAME.view(s, SPECTATOR)
    assert "role" not in spectator and "orders" not in spectator


def test_public_role_hook_points(monkeypatch):
    def tank_damage(state, seat, attacks):
        for a in attacks:
            a[1] = 0

    tank = R.PublicRole("test_tank", 1, hp_bonus=1, vote_bonus=lambda st, seat: 2,
                        votes_against=lambda st, seat: -1, damage=tank_damage)
    monkeypatch.setitem(R.PUBLIC_ROLES, "test_tank", tank)
    s = GAME.new(5, {"public_roles": ["test_tank", "a", "b", "c", "d"]}, 0)
    s.roles = list(BASE)
    touch(s)
    assert s.public[0] == "test_tank" and s.hp[0] == 3
    assert RES.tie_key(s, 0) < RES.tie_key(s, 1)  # a listed role before custom names
    s.index, s.phase = 3, "day"
    touch(s)
    GAME.apply(s, 0, {"type": "vote", "target": 2})
    assert RES.tally(s) == {2: 3, 0: -1}
    finish(s)
    order(s, 1, "tommygun", 0)
    finish(s)
    assert s.hp[0] == 3


def test_replay_from_the_action_log_is_exact():
    from games.mafia import bot

    def play(seed, log=None):
        s = GAME.new(12, {}, seed)
        rng = random.Random(seed)
        events = [GAME.start_events(s)]
        made = []
        if log is None:
            while GAME.outcome(s) is None:
                waits = GAME.awaiting(s)
                w = waits[rng.randrange(len(waits))]
                action = GAME.bot_action(GAME.view(s, w.seat), GAME.legal(s, w.seat), rng, "easy")
                made.append((w.seat, action))
                events.append(GAME.apply(s, w.seat, action))
        else:
            for seat, action in log:
                events.append(GAME.apply(s, seat, action))
        return s, made, events

    s1, log, ev1 = play(11)
    s2, _, ev2 = play(11, log)
    assert ev1 == ev2 and s1.data() == s2.data() and GAME.outcome(s1) is not None
    assert s1.copy().data() == s1.data()
