"""Forum Mafia: the rule versions A, B and C of seed 004 as data (../shared/rules/mafia.md 4.2).

One :class:`Ruleset` per version: thresholds, vote weights, the reading of "corresponding
personas" (4.6 #1), the persona lists, the role deal (4.6 #3), each role's ability table and the
switches of the rows of 4.2 that change what an ability does (read by the handlers in handlers.py,
resolution.py and cards.py). Version C is the table of roles.py as it is; A and B are built from it by the
differences of 4.2. Pure data and small pure functions: nothing here imports the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from . import roles as R
from .roles import LAW, MAFIA, NEUTRAL, Ability, _f

A = Ability

# Argument kinds of the version-A abilities (see docs/mafia-protocol.md, "Rulesets A, B, C").
ARG_PLAY = "play"  # a card play of the Ход: pass|bank|bluff|whist|misere|dave|fold
ARG_TEXT = "text"  # a message (Звонок)
ARG_MAPPING = "mapping"  # one secret-role key per seat (Ва-банк)
ARG_SEATS = "seats"  # 1..3 different living seats other than the user (Раздача)

PLAYS = ("pass", "bank", "bluff", "whist", "misere", "dave", "fold")
ANONYMOUS = "anonymous"  # the persona an investigation sees under Срыв расследования (Аноним(1))
MAFIA_PERSONAS = ("boss", "killer", "agent", "traitor")  # Mafia roles, for Расследование
ALL_IN = "all_in"


@dataclass(frozen=True)
class Ruleset:
    key: str
    roles: tuple[str, ...]  # the secret roles of the version, in rule order
    abilities: dict[str, dict[str, Ability]]  # role -> its abilities
    common: dict[str, Ability]  # abilities everyone has
    personas: dict[str, tuple[str, ...]]  # starting persona list per role
    deal_order: tuple[str, ...]  # roles by player count (4.6 #3); further seats: civilian
    reading: str  # "own" (A) | "list" (B, C): default of the `personas` option (4.6 #1)
    weight: dict[str, float]  # base vote weight per faction
    heal: dict[str, int]  # Лечение threshold per faction
    heal_exempt: frozenset[str]  # roles that heal without the threshold (B: Маньяк)
    sabotage: int  # Саботаж threshold (the named persona)
    arrest: int  # Арест threshold (corresponding personas)
    ddd: int  # DDD plans
    public_vote: bool  # A: votes and totals are public (4.6 #4)
    cards: bool  # A: the Ход card mechanic and the Джокер
    grey_mass: bool  # A/B: night 1 role guesses may not name civilian or vigilante
    search: str  # "one" (A: 1 name, yes/no) | "any" (B: 2 names, yes/no) | "count" (C: 2 names, count)
    jury_votes: int
    jury_learns: bool
    double_life: str  # "replace" (A/B: any time, at will, no other persona gains) | "once" (C: +10)
    slippery: tuple[float, float]  # Скользкий ублюдок: votes off each day, + per dead character
    kidnap_damage: bool  # A/B: Похищение saves from any damage; C: from death only, at 1 HP
    propaganda_votes: int
    propaganda_plans: int
    informer_distinct_roles: bool  # A: the Информатор never names one role twice
    faction: dict[str, str]

    @property
    def non_law(self) -> tuple[str, ...]:
        return tuple(r for r in self.roles if self.faction[r] != LAW)

    @property
    def bannable(self) -> dict[str, tuple[str, ...]]:
        return _BANNABLE[self.key]


FACTION = R.ROLE_FACTION  # (with the version-A roles traitor, detective, joker)

# ---------------------------------------------------------------------------- version C (roles.py)

C_ROLES = R.ROLE_ORDER
C = Ruleset(
    key="C", roles=C_ROLES, abilities=R.ROLE_ABILITIES, common=R.COMMON, personas=R.ROLE_PERSONAS,
    deal_order=R.DEAL_ORDER, reading="list", weight=dict(R.FACTION_WEIGHT), heal=dict(R.HEAL_THRESHOLD),
    heal_exempt=frozenset(), sabotage=R.SABOTAGE_THRESHOLD, arrest=R.ARREST_THRESHOLD, ddd=R.DDD_PLANS,
    public_vote=False, cards=False, grey_mass=False, search="count", jury_votes=2, jury_learns=True,
    double_life="once", slippery=(0, 1), kidnap_damage=False, propaganda_votes=2, propaganda_plans=1,
    informer_distinct_roles=False, faction=FACTION)

# ---------------------------------------------------------------------------- version B

_C = R.ROLE_ABILITIES
_double_life_any = replace(_C["maniac"]["double_life"], once=False)  # A/B: at will, any time
_assist_vigilante = _C["civilian"]["assist"]  # A/B: Помощь следствию is the Вигиланте's (day, Г)
_jury_any = replace(_C["civilian"]["jury"], args=(R.ARG_ROLE,))  # A/B: any role may be named

B_ABILITIES: dict[str, dict[str, Ability]] = {
    **_C,
    "vigilante": {
        "punishment": _C["vigilante"]["punishment"],
        "patrol": _C["vigilante"]["patrol"],
        "informants": replace(_C["vigilante"]["informants"], not_with_target=()),  # B: no restriction
        "assist": _assist_vigilante,
    },
    "civilian": {"own_hands": _C["civilian"]["own_hands"], "jury": _jury_any},
    "maniac": {**_C["maniac"], "double_life": _double_life_any},
}

B = replace(
    C, key="B", abilities=B_ABILITIES, heal={MAFIA: 10, LAW: 12, NEUTRAL: 10}, heal_exempt=frozenset(("maniac",)),
    sabotage=10, arrest=10, ddd=8, grey_mass=True, search="any", jury_votes=2, jury_learns=True,
    double_life="replace", slippery=(3, 1), kidnap_damage=True, propaganda_votes=3, propaganda_plans=2)

# ---------------------------------------------------------------------------- version A

A_ROLES = ("boss", "killer", "agent", "traitor", "officer", "forensic", "detective", "policeman", "vigilante",
           "civilian", "maniac", "genius", "joker")

A_ABILITIES: dict[str, dict[str, Ability]] = {
    "boss": {**_C["boss"],
             "call": A("call", "night", "info", args=(ARG_TEXT,), flags=_f("Г"))},  # Звонок: "от Босса"
    "killer": {  # no Аутопсия; the Снайперская винтовка works on night 1 too
        "pistol": _C["killer"]["pistol"],
        "sniper": replace(_C["killer"]["sniper"], not_first=False),
        "tommygun": _C["killer"]["tommygun"],
        "militia": _C["killer"]["militia"],
    },
    "agent": {**_C["agent"], "cover": replace(_C["agent"]["cover"], distinct=False)},  # Прикрытие repeatable
    "traitor": {
        "backstab": A("backstab", "night", "attack", args=(R.ARG_ROLE,), attack=True),
        "sabotage_investigation": A("sabotage_investigation", "night", "persona", flags=_f("Г"), distinct=True,
                                    not_with_target=("backstab",)),
        "own_hands": A("own_hands", "night", "info", not_with_target=("backstab", "sabotage_investigation")),
    },
    "officer": _C["officer"],
    "forensic": {"search": replace(_C["forensic"]["search"], args=(R.ARG_PERSONA,)),
                 "autopsy": _C["forensic"]["autopsy"]},
    "detective": {
        "investigation": A("investigation", "night", "info"),
        "evidence": A("evidence", "day", "day", "dead"),  # a character who died last night
    },
    "policeman": _C["policeman"],
    "vigilante": {"punishment": _C["vigilante"]["punishment"], "patrol": _C["vigilante"]["patrol"],
                  "assist": _assist_vigilante},
    "civilian": {"own_hands": _C["civilian"]["own_hands"], "jury": _jury_any},
    "maniac": {**_C["maniac"], "double_life": _double_life_any},
    "genius": _C["genius"],
    "joker": {
        "deal": A("deal", "night", "cards", "none", args=(ARG_SEATS,), flags=_f("Г")),
        "buy_in": A("buy_in", "night", "cards", flags=_f("Б", "Т"), not_with=("deal",)),
        "all_in": A("all_in", "any", "any", "none", args=(ARG_MAPPING,), flags=_f("Г")),
    },
}

A_COMMON: dict[str, Ability] = {
    "vote": R.COMMON["vote"],
    "mail": R.COMMON["mail"],
    "healing": R.COMMON["healing"],
    # Ход: one card per night; the target is the user except for Пас (another living seat)
    "card": A("card", "night", "cards", "living", args=(ARG_PLAY,), flags=_f("Г", "Т", "Б")),
}

A_PERSONAS: dict[str, tuple[str, ...]] = {
    "boss": ("boss", "detective", "policeman", "genius", "civilian"),
    "killer": ("killer", "officer", "vigilante", "joker", "civilian"),
    "agent": ("agent", "forensic", "maniac", "genius", "joker", "civilian"),
    "traitor": ("traitor", "agent", "detective", "joker", "civilian"),
    "officer": ("officer", "killer", "vigilante", "maniac", "genius", "civilian"),
    "forensic": ("forensic", "boss", "traitor", "policeman", "joker", "civilian"),
    "detective": ("detective", "agent", "forensic", "maniac", "genius", "civilian"),
    "policeman": ("policeman", "boss", "agent", "officer", "genius", "civilian"),
    "vigilante": ("vigilante", "killer", "detective", "maniac", "joker", "civilian"),
    "civilian": A_ROLES,
    "maniac": ("maniac",),
    "genius": ("genius", "boss", "traitor", "forensic", "policeman", "vigilante", "civilian"),
    "joker": ("joker", "killer", "agent", "officer", "detective", "policeman", "civilian"),
}

A_RULES = replace(
    B, key="A", roles=A_ROLES, abilities=A_ABILITIES, common=A_COMMON, personas=A_PERSONAS,
    deal_order=R.DEAL_ORDER + ("traitor", "detective", "joker", "vigilante", "civilian"), reading="own",
    weight={MAFIA: 1, LAW: 1, NEUTRAL: 1}, heal_exempt=frozenset(), public_vote=True, cards=True,
    search="one", jury_votes=1, jury_learns=False, slippery=(2, 0.5), propaganda_votes=2, propaganda_plans=2,
    informer_distinct_roles=True)

RULESETS: dict[str, Ruleset] = {"A": A_RULES, "B": B, "C": C}
_BANNABLE = {key: {role: tuple(k for k, a in rs.abilities[role].items() if a.phase == "night")
                   for role in rs.roles if rs.faction[role] != LAW}
             for key, rs in RULESETS.items()}
_BANNABLE["C"] = R.BANNABLE


def rules(state: Any) -> Ruleset:
    """The ruleset of a game (``state.version``)."""
    return RULESETS[state.version]


def deal(version: str, players: int) -> list[str]:
    """Secret roles by player count (4.6 #3; A adds Предатель, Сыщик, Джокер, Вигиланте, Гражданский)."""
    order = RULESETS[version].deal_order
    roles = list(order[:min(players, len(order))])
    roles += ["civilian"] * (players - len(roles))
    return roles


def vote_public(state: Any, seat: int) -> bool:
    """Is this seat's vote public? A: yes unless its public role says otherwise (PublicRole.vote_public,
    e.g. the Серый кардинал votes secretly in A); B/C: secret."""
    hook = getattr(R.PUBLIC_ROLES[state.public[seat]], "vote_public", None)
    if hook is not None:
        answer = hook(state, seat)
        if answer is not None:
            return bool(answer)
    return rules(state).public_vote


def init_state(state: Any) -> None:
    """The per-game fields of the version mechanics (all versions carry them, unused in B/C)."""
    n = state.players
    rs = rules(state)
    state.cards = [1 if rs.cards and state.roles[x] == "joker" else 0 for x in range(n)]  # Рука судьбы
    state.cards_off = False  # a failed Ва-банк disables the Ход for everyone (4.6 #17)
    state.misere = [None] * n  # night index at which a Мизер works
    state.named = [[] for _ in range(n)]  # A: roles the Информатор has named
    state.wounds = {}  # last night: seat -> abilities that damaged it (Улики)
    state.plays = {}  # last night: seat -> card play (Крупье)


def card_actions(state: Any, seat: int, living: list[int]) -> list[dict[str, Any]]:
    """legal() entries of the Ход: Пас on each other seat of ``living`` (the seats the Пас may
    reach: targets.allowed_seats); the other plays on the user (Блеф needs a persona)."""
    out: list[dict[str, Any]] = [{"type": "order", "ability": "card", "target": t, "play": "pass"}
                                 for t in living if t != seat]
    for play in PLAYS[1:]:
        action: dict[str, Any] = {"type": "order", "ability": "card", "target": seat, "play": play}
        if play == "bluff":
            action["need"] = ["persona"]
        out.append(action)
    return out


def no_gain(state: Any, seat: int) -> bool:
    """A/B Двойная жизнь: the Маньяк gains personas in no other way (growth, Помощь следствию,
    Клевета, Дезинформация, Блеф do nothing to him)."""
    return state.roles[seat] == "maniac" and rules(state).double_life == "replace"
