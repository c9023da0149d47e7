"""Forum Mafia: orders that name seats against protections and reactive effects (issue 15; seed 004,
../shared/rules/mafia.md 4.4-4.6; docs/mafia-protocol.md, Decisions, "Orders that name seats").

Two set positions (Раздача reaching the Социопат on night 1; the Обрез под столом missing a
Раздача that named the Босс), then tables generated from the engine's own ability tables (every
ruleset's roles, the common abilities with each play of the Ход, every public role), so a new card
or ability is covered without a new line here:

- every ability that picks seats x every protection of a target (Социопат on night 1, Миллионер by
  day, the Алкаш's pal), through ``legal`` and through ``apply``;
- every ability that picks seats x the Обрез под столом (an order on the Босс, in any form);
- every harm that comes from an order that names seats indirectly (Обрез, Рука судьбы after a
  Раздача, Кровавая баня) x every protection ability of the tables and the protective passives.
"""
from __future__ import annotations

import pytest

from games.base import RuleError
from games.mafia import GAME
from games.mafia import abilities as AB
from games.mafia import resolution as RES
from games.mafia import roles as R
from games.mafia import targets as T
from games.mafia import versions as V
from games.mafia.public_roles import PUBLIC_ORDER, ROLES
from tests.test_mafia_engine import err, finish, order, touch
from tests.test_mafia_versions import game

ABC = ("A", "B", "C")
USER, PROTECTED, CONTROL = 0, 1, 2  # the seat that acts, the seat protected, an unprotected seat


def names(given: dict[int, str], n: int) -> list[str]:
    return [given.get(x, f"p{x}") for x in range(n)]


# ----------------------------------------------------------------------------------- the two examples


def test_deal_cannot_reach_the_sociopath_on_night_one():
    """Социопат: «Затворник --- не может быть целью способностей других персонажей в первую ночь.»
    Раздача (A): «ночью может выбрать до трех разных целей. Каждая получает +1 карту.» Each seat of
    the list is a target: on night 1 the Социопат is none of them (the Пас already kept off him)."""
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    s = game("A", roles, index=0, public=names({1: "Социопат"}, 7))
    problem = err(order, s, 5, "deal", seats=[2, 1])
    assert problem.key == "mafia.error.bad_target" and problem.params == {"ability": "deal", "target": 1,
                                                                          "why": "protected"}
    assert err(order, s, 5, "deal", seats=[2, 5]).params == {"ability": "deal", "target": 5, "why": "self"}
    s.alive[6] = False
    assert err(order, s, 5, "deal", seats=[6]).params == {"ability": "deal", "target": 6, "why": "dead"}
    s.alive[6] = True
    (template,) = [a for a in GAME.legal(s, 5) if a.get("ability") == "deal"]
    assert template["among"] == [0, 2, 3, 4, 6]  # the seats the list may hold
    s.cards[0] = 1
    touch(s)
    assert not [a for a in GAME.legal(s, 0) if a.get("ability") == "card" and a.get("target") == 1]
    order(s, 5, "deal", seats=[2, 3])
    finish(s)
    assert s.cards[1] == 0 and s.cards[2] == 1
    s.index, s.phase = 2, "night"  # night 2: the list may hold him
    touch(s)
    order(s, 5, "deal", seats=[1])


def test_a_letter_to_the_sociopath_on_night_one_is_refused_as_protected():
    """Почта is an ability like any other for Затворник («не может быть целью способностей других
    персонажей в первую ночь»): the refusal says he is protected. It said "again" (a letter sent to
    him already), for anyone's Почта and for the Бард's second letter of the night, because the
    reason was guessed from the ability, not taken from the rule that refused the seat."""
    s = game("C", ["civilian", "boss", "officer", "killer", "maniac"], index=0,
             public=names({0: "Бард", 2: "Социопат"}, 5))
    for seat in (3, 0):
        problem = err(GAME.apply, s, seat, {"type": "mail", "target": 2, "text": "x"})
        assert problem.params == {"ability": "mail", "target": 2, "why": "protected"}, seat
    GAME.apply(s, 0, {"type": "mail", "target": 1, "text": "x"})  # the Бард's first letter
    problem = err(GAME.apply, s, 0, {"type": "mail", "target": 2, "text": "y"})
    assert problem.params == {"ability": "mail", "target": 2, "why": "protected"}
    s.used_on[0]["mail"] = [3]  # a target the Бард wrote to on an earlier night: that is "again"
    problem = err(GAME.apply, s, 0, {"type": "mail", "target": 3, "text": "y"})
    assert problem.params == {"ability": "mail", "target": 3, "why": "again"}


def test_sawnoff_sees_a_deal_that_names_the_boss():
    """Обрез под столом: «каждый, кроме Мафии, кто применял на него способность, кроме Почты, в эту
    ночь, получает атаку на 1 урона». A Раздача with the Босс in its list is such an ability."""
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    s = game("A", roles, index=2)
    order(s, 5, "deal", seats=[3, 0])
    order(s, 0, "sawnoff")
    finish(s)
    assert s.hp[5] == 1 and s.cards[0] == 1 and s.hp[3] == 2


# ----------------------------------------------------------------------------------- generated tables


def seat_pickers(version: str) -> list[tuple[str | None, str | None, R.Ability, str | None]]:
    """(secret role or None, public role or None, ability, Ход play or None) for every ability of the
    ruleset's tables whose order may name a seat: a seat target, a list of seats, a public name that
    picks a character, a mapping of the seats; the Ход once per play that names another seat."""
    rs = V.RULESETS[version]
    out: list = []
    for role in rs.roles:
        out += [(role, None, ab, None) for ab in rs.abilities[role].values()]
    for ab in rs.common.values():
        if ab.key == "card":
            out += [(None, None, ab, play) for play in V.PLAYS]
        else:
            out.append((None, None, ab, None))
    for key in PUBLIC_ORDER:
        out += [(None, key, ab, None) for ab in R.PUBLIC_ROLES[key].abilities.values()]

    def picks(ab: R.Ability, play: str | None) -> bool:
        if ab.key == "card":
            return play == "pass"  # (every other play is on the user)
        return (ab.target in ("other", "living") or V.ARG_SEATS in ab.args or ab.key in T.NAMES_BY_PUBLIC
                or V.ARG_MAPPING in ab.args)
    return [x for x in out if picks(x[2], x[3])]


def position(version: str, role: str | None, public: str | None, index: int, protected_public: str | None,
             roles: list[str] | None = None):
    """Seat 0 holds the ability (its secret role, or a Гражданский; its public role if the ability is
    one), seat 1 is the protected seat, seat 2 a control; a jailed Киллер (for Наследие)."""
    roles = list(roles or [role or "civilian", "civilian", "officer", "boss", "killer", "maniac", "genius"])
    if role is not None:
        roles[USER] = role
    given = {}
    if public is not None:
        given[USER] = ROLES[public].title
    if protected_public is not None:
        given[PROTECTED] = protected_public
    s = game(version, roles, index=index, public=names(given, len(roles)))
    s.jail[4] = R.LIFE  # Наследие: «если Киллер мёртв, в Тюрьме или Дух»
    s.cards[USER] = 1  # the Ход needs a card
    touch(s)
    return s


def naming(s, ab: R.Ability, play: str | None, seat: int) -> dict:
    """The action of seat 0 with this ability that names ``seat`` (valid arguments otherwise)."""
    if ab.key == "vote":
        return {"type": "vote", "target": seat}
    if ab.key == "mail":
        return {"type": "mail", "target": seat, "text": "x"}
    action: dict = {"type": "order", "ability": ab.key}
    if ab.target in ("other", "living"):
        action["target"] = seat
    rs = V.rules(s)
    for arg in ab.args:
        if arg in (R.ARG_ROLE, R.ARG_ROLE_NONLAW):
            action["role"] = "boss"
        elif arg == R.ARG_PERSONA:
            action["persona"] = "boss"
        elif arg == R.ARG_PERSONAS2:
            action["personas"] = ["boss", "killer"]
        elif arg == R.ARG_PUBLIC:
            action["public"] = s.names[seat]
        elif arg == R.ARG_BANS:
            action["bans"] = [[r, rs.bannable[r][0]] for r in list(rs.bannable)[:3]]
        elif arg == V.ARG_PLAY:
            action["play"] = play
        elif arg == V.ARG_TEXT:
            action["text"] = "x"
        elif arg == V.ARG_SEATS:
            action["seats"] = [seat]
        elif arg == V.ARG_MAPPING:
            action["mapping"] = ["civilian"] * s.players  # (wrong: the game goes on)
        else:  # pragma: no cover - a new kind of argument: teach this table to fill it
            raise AssertionError(f"no filler for argument {arg!r} of {ab.key}")
    return action


def in_legal(s, ab: R.Ability, play: str | None, seat: int) -> bool:
    """Does legal() offer this ability on ``seat`` (as a target or among the seats a list may hold)?"""
    for a in GAME.legal(s, USER):
        if a.get("ability", a["type"]) != ab.key or (play is not None and a.get("play") != play):
            continue
        if a.get("target") == seat or seat in a.get("among", ()):
            return True
    return False


def attempt(s, action: dict) -> RuleError | None:
    trial = s.copy()
    try:
        GAME.apply(trial, USER, action)
    except RuleError as problem:
        return problem
    return None


# Protections of a target: (public role of the protected seat, phase index, the pal of an Алкаш?),
# and which abilities they refuse. Quotes are seed 004 (version C lines; A and B say the same).
PROTECTIONS = {
    # «Затворник --- не может быть целью способностей других персонажей в первую ночь.»
    "sociopath": ("Социопат", 0),
    # «VIP (Т) --- не может быть целью активных дневных способностей, кроме Голосования.»
    "millionaire": ("Миллионер", 7),  # (day 4: the Хакер's Взлом досье is usable)
    # Попойка: «На следующие сутки тот не может атаковать алкаша и голосовать в него.»
    "drunkard_night": ("Алкаш", 2),
    "drunkard_day": ("Алкаш", 7),
}


def refuses(protection: str, ab: R.Ability) -> bool:
    """The expected outcome of each pair."""
    if ab.key == "all_in":
        # Ва-банк's mapping is a claim about the whole table, made "at any time": it names no one as
        # a target (docs/mafia-protocol.md, Decisions, "Orders that name seats").
        return False
    if protection == "sociopath":
        return True  # every ability of another seat, the Почта, the Пас, a Раздача's list included
    if protection == "millionaire":
        return ab.phase == "day" and ab.key != "vote"  # «кроме Голосования»
    # the Алкаш: attacks and the vote only; Кровавая баня «Не считается атакой», a Раздача neither
    return ab.attack or ab.key == "vote"


# Why an ability may not be usable in a protection's position at all (the pair the rules do not allow).
UNUSABLE = {"not_first_night", "wrong_phase"}


@pytest.mark.parametrize("protection", sorted(PROTECTIONS))
@pytest.mark.parametrize("version", ABC)
def test_every_seat_picking_ability_against_every_target_protection(version, protection):
    public_name, index = PROTECTIONS[protection]
    failures: list[str] = []
    checked = 0
    for role, public, ab, play in seat_pickers(version):
        if public is not None and ROLES[public].title == public_name:
            continue  # («Каждой явной роли может быть только один представитель»)
        s = position(version, role, public, index, public_name)
        if protection.startswith("drunkard"):
            s.pub["pals"] = [[PROTECTED, USER, index, index]]  # seat 0 is the Алкаш's pal now
        why = AB._why_not(s, USER, ab)
        if why is not None:
            assert why in UNUSABLE, (version, role, public, ab.key, why)
            continue
        checked += 1
        label = f"{version} {role or public or 'common'} {ab.key}{'/' + play if play else ''}"
        control = attempt(s, naming(s, ab, play, CONTROL))
        if control is not None:  # the position must let the ability name an unprotected seat
            failures.append(f"{label}: refused on the control seat: {control.key} {control.params}")
            continue
        problem = attempt(s, naming(s, ab, play, PROTECTED))
        offered = in_legal(s, ab, play, PROTECTED)
        if refuses(protection, ab):
            if problem is None or problem.key != "mafia.error.bad_target" or problem.params.get("target") != PROTECTED:
                failures.append(f"{label}: not refused on the protected seat ({problem and problem.params})")
            elif problem.params.get("why") != "protected":  # the refusal names the protection, no other rule
                failures.append(f"{label}: refused for {problem.params.get('why')!r}, not as protected")
            if offered:
                failures.append(f"{label}: legal() offers the protected seat")
        else:
            if problem is not None:
                failures.append(f"{label}: refused ({problem.key} {problem.params}) although allowed")
            names_seats = ab.target in ("other", "living") or V.ARG_SEATS in ab.args or ab.key in T.NAMES_BY_PUBLIC
            if names_seats and not offered:
                failures.append(f"{label}: legal() does not offer the seat although allowed")
    assert not failures, "\n".join(failures)
    assert checked >= 3, checked  # (the table is not empty)


# -- Серая масса (A/B): the night-1 protection of a secret role, against every order that names roles

ROLE_ARGS = (R.ARG_ROLE, R.ARG_ROLE_NONLAW, R.ARG_BANS, V.ARG_MAPPING)


def role_namers(version: str) -> list[tuple[str | None, str | None, R.Ability, str | None]]:
    """Every ability of the ruleset's tables whose order names secret roles (one, three, one per seat)."""
    return [x for x in seat_pickers(version) if any(arg in x[2].args for arg in ROLE_ARGS)]


def naming_role(s, ab: R.Ability, play: str | None, role: str) -> dict:
    """Seat 0's order with this ability on the control seat, naming ``role`` wherever it names one."""
    action = naming(s, ab, play, CONTROL)
    if "role" in action:
        action["role"] = role
    if "mapping" in action:
        action["mapping"] = [role] + ["boss"] * (s.players - 1)
    return action


@pytest.mark.parametrize("version", ABC)
def test_grey_mass_against_every_order_that_names_a_secret_role(version):
    """Серая масса (A, B): «в первую ночь, если чужая способность требует угадать Тайную роль цели,
    нельзя называть Гражданского или Вигиланте.» Every guess of a target's secret role on night 1
    (a target's, or the character a Кровавая баня names by public role) may not name them; from
    night 2, and in C (no Серая масса), it may. Запрет names only non-Law roles anyway. A Ва-банк's
    mapping guesses the whole table and names no target (docs/mafia-protocol.md, Decisions): a
    night-1 Ва-банк may list them, or it could never be played on night 1."""
    rs = V.RULESETS[version]
    assert not {"civilian", "vigilante"} & set(rs.bannable)  # (Запрет: «не относящиеся к Закону»)
    failures: list[str] = []
    checked = 0
    for role, public, ab, play in role_namers(version):
        if ab.key == "ban":
            continue
        for index in (0, 2):
            s = position(version, role, public, index, None)
            why = AB._why_not(s, USER, ab)
            if why is not None:
                assert why in UNUSABLE, (version, role, ab.key, why)
                continue
            for named in ("civilian", "vigilante"):
                label = f"{version} night {index // 2 + 1} {role or public or 'common'} {ab.key} naming {named}"
                problem = attempt(s, naming_role(s, ab, play, named))
                if R.ARG_ROLE_NONLAW in ab.args:
                    want = "mafia.error.bad_arg"  # (C's Суд присяжных: a non-Law role only)
                elif rs.grey_mass and index == 0 and V.ARG_MAPPING not in ab.args:
                    want = "mafia.error.grey_mass"
                else:
                    want = None
                checked += 1
                if (problem and problem.key) != want:
                    failures.append(f"{label}: {problem and (problem.key, problem.params)}, expected {want}")
    assert not failures, "\n".join(failures)
    assert checked >= 8, checked


# -- the Обрез под столом against every order that names the Босс


BOSS = 1


def hit_by_sawnoff(version: str, role: str | None, public: str | None, ab: R.Ability, play: str | None) -> int:
    """Seat 0's order names the Босс (seat 1), who uses the Обрез: the damage seat 0 takes from it
    (the same night without the Обрез, minus with it)."""
    hp = []
    for sawnoff in (False, True):
        s = position(version, role, public, 2, None,
                     roles=[role or "civilian", "boss", "officer", "civilian", "killer", "maniac", "genius"])
        s.hp[BOSS] = 5  # (the Босс lives through any order on him: his Обрез is what is watched)
        GAME.apply(s, USER, naming(s, ab, play, BOSS))
        if sawnoff:
            order(s, BOSS, "sawnoff")
        RES.resolve_night(s)
        hp.append(s.hp[USER])
    return hp[0] - hp[1]


def sawnoff_expected(version: str, role: str | None, ab: R.Ability) -> int:
    if role is not None and V.RULESETS[version].faction[role] == R.MAFIA:
        return 0  # «каждый, кроме Мафии»
    if ab.key == "mail":
        return 0  # «кто применял на него способность, кроме Почты»
    if ab.key in ("interrogation", "zombify"):
        # a blocked Босс «считается, что ... не объявлял никаких действий»: no Обрез tonight
        return 0
    return 1


@pytest.mark.parametrize("version", ABC)
def test_sawnoff_sees_every_order_that_names_the_boss(version):
    failures: list[str] = []
    checked = 0
    for role, public, ab, play in seat_pickers(version):
        if ab.phase != "night" or role == "boss":  # (the Обрез reacts to tonight's orders of others)
            continue
        if ab.key in ("legacy", "autopsy", "graverobbing") or ab.target == "dead":
            continue  # (a dead target, or the Босс's own Наследие: never on the Босс)
        if role == "killer" and ab.key == "militia":
            continue  # «кроме себя, Босса и Киллера»: never on the Босс
        got = hit_by_sawnoff(version, role, public, ab, play)
        want = sawnoff_expected(version, role, ab)
        checked += 1
        if got != want:
            failures.append(f"{version} {role or public or 'common'} {ab.key}{'/' + play if play else ''}: "
                            f"{got} damage from the Обрез, expected {want}")
    assert not failures, "\n".join(failures)
    assert checked >= 10, checked


# -- harm that reaches a seat through an order naming seats indirectly, against every protection

VICTIM = 0


def protections(version: str) -> list[str]:
    """Every protection ability of the ruleset's tables (the protect and kidnap steps: roles, common,
    public roles), the public roles' lasting protections (Горец; the Алкаш against his pal's attacks;
    Пиво) and, with cards, the Банк."""
    rs = V.RULESETS[version]
    found = {ab.key for role in rs.roles for ab in rs.abilities[role].values() if ab.step in ("protect", "kidnap")}
    found |= {ab.key for ab in rs.common.values() if ab.step in ("protect", "kidnap")}
    found |= {ab.key for key in PUBLIC_ORDER for ab in R.PUBLIC_ROLES[key].abilities.values()
              if ab.step in ("protect", "kidnap")}
    return sorted(found | {"highlander", "drunkard_pal", "beer"} | ({"bank"} if rs.cards else set()))


def harms(version: str) -> list[str]:
    return ["sawnoff", "bloodbath"] + (["hand_of_fate", "bank_penalty"] if V.RULESETS[version].cards else [])


PROTECTION_PUBLIC = {"somersault": "Акробат", "highlander": "Горец", "drunkard_pal": "Алкаш"}
HARM_SOURCE = {"sawnoff": 1, "bloodbath": 5, "hand_of_fate": 6, "bank_penalty": VICTIM}  # whose order harms seat 0


def harmed(version: str, harm: str, protection: str | None) -> tuple[bool, int]:
    """Night 2; seat 0 (a Гражданский, 2 HP) is harmed (and protected): (alive, HP) after the night."""
    sixth = "joker" if V.RULESETS[version].cards else "officer"
    roles = ["civilian", "boss", "agent", "vigilante", "genius", "maniac", sixth, "killer"]
    public = names({VICTIM: PROTECTION_PUBLIC[protection]} if protection in PROTECTION_PUBLIC else {}, len(roles))
    s = game(version, roles, index=2, public=public)
    s.cards[VICTIM] = 3 if (harm, protection) == ("hand_of_fate", "bank") else 2 if harm == "hand_of_fate" else 1
    touch(s)
    if harm == "sawnoff":  # the Гражданский's order on the Босс; the Обрез answers it
        order(s, VICTIM, "own_hands", 1)
        order(s, 1, "sawnoff")
    elif harm == "bloodbath":  # the Маньяк names the Гражданский's public role and secret role
        order(s, 5, "bloodbath", public=s.names[VICTIM], role="civilian")
    elif harm == "hand_of_fate":  # a Раздача brings him to 3 cards: Рука судьбы
        order(s, 6, "deal", seats=[VICTIM])
    else:  # his own Банк on a night without damage: «наутро получает 1 урона»
        order(s, VICTIM, "card", VICTIM, play="bank")
    recipe = {
        None: lambda: None,
        "cover": lambda: order(s, 2, "cover", VICTIM),
        "patrol": lambda: order(s, 3, "patrol", VICTIM),
        "kidnap": lambda: order(s, 4, "kidnap", VICTIM),
        "paranoia": lambda: order(s, VICTIM, "paranoia"),
        "somersault": lambda: order(s, VICTIM, "somersault"),
        "highlander": lambda: None,  # «Бессмертие(Т) --- в первые две ночи не получает урона»
        "bank": lambda: order(s, VICTIM, "card", VICTIM, play="bank"),
        # Попойка yesterday: the harm's source is the Алкаш's pal tonight
        "drunkard_pal": lambda: s.pub.setdefault("pals", []).append([VICTIM, HARM_SOURCE[harm], 1, 2]),
        "beer": lambda: s.pub.setdefault("beer", {}).setdefault(2, []).append(VICTIM),  # Пиво yesterday
    }
    assert protection in recipe, f"a new protection {protection!r}: give it a recipe and expected outcomes"
    recipe[protection]()
    RES.resolve_night(s)
    return s.alive[VICTIM], s.hp[VICTIM]


FULL, NONE, SAVED = "full", "none", "saved"  # as unprotected; no damage at all; alive at 1 HP

# The expected outcome of each (harm, protection), with the rule that decides it.
HARM_TABLE = {
    # The Обрез's counterattack is an attack («получает атаку на 1 урона»): every protection works.
    ("sawnoff", "cover"): NONE,  # Прикрытие: «Цель не получит урона от атак»
    ("sawnoff", "patrol"): NONE,  # Дозор: «не получит урона от самой сильной атаки по ней»
    ("sawnoff", "paranoia"): NONE,  # Паранойя: «на 1 урона от всех атак меньше»
    ("sawnoff", "somersault"): NONE,  # Кульбит: «не получает урона от атак этой ночью»
    ("sawnoff", "highlander"): NONE,
    ("sawnoff", "bank"): NONE,  # Банк: «блокирует весь урон, полученный этой ночью»
    # Похищение C: «Если цель должна умереть ..., она выживает с 1 хп»: 1 damage of 2 HP kills nobody
    ("sawnoff", "kidnap", "C"): FULL,
    ("sawnoff", "kidnap"): NONE,  # A/B: «должна умереть по результатам ночи или получить урон»
    # Кровавая баня: «Не считается атакой»: only what stops any damage works.
    ("bloodbath", "cover"): FULL,
    ("bloodbath", "patrol"): FULL,
    ("bloodbath", "paranoia"): FULL,
    ("bloodbath", "somersault"): FULL,
    ("bloodbath", "highlander"): NONE,
    ("bloodbath", "bank"): NONE,
    ("bloodbath", "kidnap", "C"): SAVED,  # 2 damage of 2 HP: she would die
    ("bloodbath", "kidnap"): NONE,
    # Рука судьбы after a Раздача: «умирает» (4.6 #7: not an attack; only Банк and Похищение stop it,
    # and the Горец takes no damage on nights 1-2)
    ("hand_of_fate", "cover"): FULL,
    ("hand_of_fate", "patrol"): FULL,
    ("hand_of_fate", "somersault"): FULL,
    ("hand_of_fate", "highlander"): NONE,
    ("hand_of_fate", "bank"): NONE,
    ("hand_of_fate", "kidnap"): NONE,  # (A: no damage at all)
    # Попойка: «На следующие сутки тот не может атаковать алкаша»: the Обрез's counterattack is the
    # Босс's attack, so the Алкаш who acted on his pal the Босс is not hit; what is no attack still is.
    ("sawnoff", "drunkard_pal"): NONE,
    ("bloodbath", "drunkard_pal"): FULL,
    ("hand_of_fate", "drunkard_pal"): FULL,
    # The Банк's penalty «наутро получает 1 урона» is no attack: the Горец («в первые две ночи не
    # получает урона», rules revision 3) and Похищение A (no damage at all) stop it, nothing else.
    ("bank_penalty", "cover"): FULL,
    ("bank_penalty", "patrol"): FULL,
    ("bank_penalty", "somersault"): FULL,
    ("bank_penalty", "highlander"): NONE,
    ("bank_penalty", "bank"): FULL,  # (the same card)
    ("bank_penalty", "kidnap"): NONE,
    ("bank_penalty", "drunkard_pal"): FULL,
    ("bank_penalty", "beer"): FULL,
    # Пиво: «получает на 1 урона от Пистолета и Наганов меньше»: nothing else.
    ("sawnoff", "beer"): FULL,
    ("bloodbath", "beer"): FULL,
    ("hand_of_fate", "beer"): FULL,
}


@pytest.mark.parametrize("version", ABC)
def test_harm_through_orders_that_name_seats_against_every_protection(version):
    failures: list[str] = []
    for harm in harms(version):
        base = harmed(version, harm, None)
        assert base != (True, 2), (harm, base)  # the harm lands when nothing protects
        for protection in protections(version):
            want = HARM_TABLE.get((harm, protection, version), HARM_TABLE.get((harm, protection)))
            assert want is not None, f"state the outcome of {harm} x {protection}"
            got = harmed(version, harm, protection)
            expected = {FULL: base, NONE: (True, 2), SAVED: (True, 1)}[want]
            if got != expected:
                failures.append(f"{version} {harm} x {protection}: {got}, expected {want} {expected}")
    assert not failures, "\n".join(failures)


def test_sawnoff_answers_tonight_s_orders_not_passives_nor_yesterday_s_day_orders():
    """Обрез: «каждый ... кто применял на него способность ... в эту ночь». The Джокер's Крупье
    («каждое утро узнает ... Личину каждого живого персонажа, имеющего хотя бы две карты») touches
    every seat at once but is a passive nobody applies; the Журналист's Расследование was applied by
    day («днем ... может публично выбрать цель»), only its result comes after the night. Neither is
    hit; the same Джокер's Раздача and the same Журналист's night order on the Босс are."""
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    s = game("A", roles, index=2)
    s.cards[0] = 2  # the Крупье will draw one of the Босс's personas this morning
    touch(s)
    order(s, 0, "sawnoff")
    events = RES.resolve_night(s)
    assert any(e[1] == "mafia.croupier" and {"seat": 0} in [{"seat": p["seat"]} for p in e[2]["personas"]]
               for e in events)
    assert s.hp[5] == 2
    s = game("A", roles, index=2)
    order(s, 5, "deal", seats=[0])
    order(s, 0, "sawnoff")
    RES.resolve_night(s)
    assert s.hp[5] == 1

    roles = ["civilian", "boss", "officer", "killer", "maniac"]
    s = game("C", roles, index=1, public=names({0: "Журналист"}, 5))
    order(s, 0, "reportage", 1)
    RES.resolve_day(s)
    s.index, s.phase = 2, "night"
    touch(s)
    order(s, 1, "sawnoff")
    events = RES.resolve_night(s)
    assert any(e[1] == "mafia.personas" and e[2].get("ability") == "reportage" for e in events)
    assert s.hp[0] == 2
    s = game("C", roles, index=2, public=names({0: "Журналист"}, 5))
    order(s, 0, "own_hands", 1)
    order(s, 1, "sawnoff")
    RES.resolve_night(s)
    assert s.hp[0] == 1


def test_the_bank_s_penalty_spares_the_highlander_on_nights_one_and_two():
    """Банк (a card): «Если урона не было, наутро получает 1 урона»; Горец: «в первые две ночи не
    получает урона». His night-1 or night-2 Банк with no damage costs him nothing (it cost him 1 HP,
    the Hospital); from night 3 it does. A table started before (rules revision 2) keeps the old way,
    so its log replays as played."""
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    for index, rev, hp in ((0, None, 2), (2, None, 2), (4, None, 1), (0, 2, 1)):
        s = game("A", roles, index=index, public=names({3: "Горец"}, 7),
                 **({} if rev is None else {"rules_rev": rev}))
        s.cards[3] = 1
        touch(s)
        order(s, 3, "card", 3, play="bank")
        RES.resolve_night(s)
        assert s.hp[3] == hp, (index, rev, s.hp[3])
    s = game("A", roles, index=0, public=names({3: "Горец"}, 7))  # (a Банк still blocks his damage)
    s.cards[3] = 1
    s.hp[3] = 1
    touch(s)
    order(s, 3, "card", 3, play="bank")
    RES.resolve_night(s)
    assert s.hp[3] == 1 and s.alive[3]


def test_sawnoff_reaches_a_sociopath_who_acted_on_the_boss_on_night_one():
    """Затворник keeps others from choosing him; the Обрез chooses nobody: «каждый, кроме Мафии, кто
    применял на него способность» (docs/mafia-protocol.md, Decisions, "Orders that name seats")."""
    s = game("C", ["civilian", "boss", "officer", "killer", "maniac"], index=0, public=names({0: "Социопат"}, 5))
    order(s, 0, "own_hands", 1)
    order(s, 1, "sawnoff")
    RES.resolve_night(s)
    assert s.hp[0] == 1


def test_a_logged_order_on_a_protected_seat_is_obsolete():
    """Older code took a night-1 Раздача or Кровавая баня on the Социопат: a table's log with one
    replays with it skipped (world/upgrades.py), other orders are not touched."""
    roles = ["boss", "killer", "officer", "civilian", "maniac", "joker", "genius"]
    s = game("A", roles, index=0, public=names({1: "Социопат"}, 7))
    deal = {"type": "order", "ability": "deal", "seats": [2, 1]}
    bath = {"type": "order", "ability": "bloodbath", "public": "Социопат", "role": "boss"}
    assert GAME.obsolete(s, 5, deal) and GAME.obsolete(s, 4, bath)
    assert not GAME.obsolete(s, 5, {**deal, "seats": [2, 3]})
    assert not GAME.obsolete(s, 4, {**bath, "public": "p2"})
    assert not GAME.obsolete(s, 1, {"type": "order", "ability": "pistol", "target": 2})
    assert not GAME.obsolete(s, 5, {"type": "ready"})
    s.index = 2
    touch(s)
    assert not GAME.obsolete(s, 5, deal)


@pytest.mark.parametrize("version", ABC)
def test_respect_jails_only_attackers_whatever_names_the_pensioner(version):
    """Пенсионер: «иммунен к Диверсии и Обрезу. Уважение(Т) --- атаковавший пенсионера попадает в
    Тюрьму до конца игры». Кровавая баня «Не считается атакой», Рука судьбы after a Раздача is no
    attack either: their users stay free; the Обрез does not touch him; a Пистолет jails."""
    sixth = "joker" if V.RULESETS[version].cards else "officer"
    roles = ["civilian", "boss", "agent", "vigilante", "genius", "maniac", sixth, "killer"]
    cases = [("sawnoff", 1, True), ("bloodbath", 5, False), ("pistol", 7, False)]
    if V.RULESETS[version].cards:
        cases.append(("deal", 6, False))
    for harm, source, survives in cases:
        s = game(version, roles, index=2, public=names({VICTIM: "Пенсионер"}, len(roles)))
        s.cards[VICTIM] = 2
        touch(s)
        if harm == "sawnoff":
            order(s, VICTIM, "own_hands", 1)
            order(s, 1, "sawnoff")
        elif harm == "bloodbath":
            order(s, 5, "bloodbath", public="Пенсионер", role="civilian")
        elif harm == "pistol":
            order(s, 7, "pistol", VICTIM)
        else:
            order(s, 6, "deal", seats=[VICTIM])
        RES.resolve_night(s)
        assert s.alive[VICTIM] == survives, (harm, s.hp[VICTIM])
        assert (s.jail[source] == R.LIFE) == (harm == "pistol"), (harm, s.jail[source])


# -- effects that react to personas learned of a seat (Дезинформация; the A/B Маньяк's Двойная жизнь)
#    against every night order that learns them and the Крупье, which draws for many seats at once

# personas of its target each information order draws (a new one must say how many: KeyError)
LEARNS = {"mastermind": 2, "own_hands": 2, "informants": 1, "stalking": 1, "search": 0, "informer": 0,
          "jury": 0, "mail": 0, "call": 0, "investigation": 0}
PROBED_WITHOUT_DRAW = {"investigation"}  # Расследование reads the top persona (the Маньяк is told it)
LEARNER, MANIAC, GENIUS = 0, 1, 6


def learned_of_the_maniac(version: str, role: str | None, ab: R.Ability | None, cards: int) -> tuple[int, int]:
    """Night 2; seat 0 uses ``ab`` on the Маньяк (seat 1; None: the Журналист's Расследование ordered
    on him yesterday), seat 6 (a Злой Гений) uses Дезинформация on him, he holds ``cards`` (A: a
    Джокер's Крупье draws for every seat with two). (plans the Гений got beyond the night's one, the
    Маньяк's `probed` notices)."""
    sixth = "joker" if V.RULESETS[version].cards else "officer"
    roles = [role or "civilian", "maniac", sixth, "boss", "killer", "civilian", "genius"]
    s = game(version, roles, index=1 if ab is None else 2,
             public=names({LEARNER: "Журналист"} if ab is None else {}, len(roles)))
    s.cards[MANIAC] = cards
    s.cards[LEARNER] = 1
    touch(s)
    if ab is None:
        order(s, LEARNER, "reportage", MANIAC)
        RES.resolve_day(s)
        s.index, s.phase = 2, "night"
        touch(s)
    else:
        GAME.apply(s, LEARNER, naming(s, ab, None, MANIAC))
    order(s, GENIUS, "disinformation", MANIAC)
    before = s.plans[GENIUS]
    events = RES.resolve_night(s)
    probed = sum(1 for e in events if e[1] == "mafia.probed" and e[2]["seat"] == MANIAC)
    return s.plans[GENIUS] - before - 1, probed


@pytest.mark.parametrize("version", ABC)
def test_persona_reactions_see_every_order_and_the_croupier(version):
    """Дезинформация: «Если в эту ночь узнали хотя бы 2 Личины цели, получает 1 "план"»; A/B Маньяк:
    «Всякий раз, как чужая способность требует знать его Личину, Маньяк узнает выпавшую Личину».
    Each sees every draw of the target's persona tonight: any seat's information order, the
    Журналист's result after the night, and the Крупье's draw among all the seats he reads."""
    rs = V.RULESETS[version]
    told = rs.double_life == "replace"
    learners = [(role, ab) for role, public, ab, play in seat_pickers(version)
                if ab.phase == "night" and ab.step == "info"] + [(None, None)]
    failures: list[str] = []
    for role, ab in learners:
        draws = 1 if ab is None else 1 if (role, ab.key) == ("traitor", "own_hands") else LEARNS[ab.key]
        for cards in ((0, 2) if rs.cards else (0,)):
            total = draws + (1 if cards >= 2 else 0)  # (the Крупье's draw of him)
            want = (1 if total >= 2 else 0, total + (1 if ab and ab.key in PROBED_WITHOUT_DRAW else 0) if told else 0)
            got = learned_of_the_maniac(version, role, ab, cards)
            if got != want:
                failures.append(f"{version} {role} {ab.key if ab else 'reportage'} cards={cards}: {got}, expected {want}")
    assert not failures, "\n".join(failures)
