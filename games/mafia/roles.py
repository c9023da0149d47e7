"""Forum Mafia: the table of roles and abilities (rule version C of seed 004).

Roles are data here; what an ability *does* lives in the handler registered for its key in
``night.HANDLERS`` (one small function per ability, called by the night/day pipeline
at the step named in ``Ability.step``). A public role (next issue) plugs in the
same way: a :class:`PublicRole` with its own abilities and hooks, added to ``PUBLIC_ROLES``.

Keys are language-free. Flags follow the seed's letters: Г=``hospital`` (works from Hospital),
Т=``jail`` (works from Jail), М=``morgue``, Б=``unblockable``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

MAFIA, LAW, NEUTRAL = "mafia", "law", "neutral"
FACTION_WEIGHT = {MAFIA: 1, LAW: 2, NEUTRAL: 3}  # votes (decision #4 / version B, C)
MAIL_LIMIT = {MAFIA: 3, LAW: 2, NEUTRAL: 3}
HEAL_THRESHOLD = {MAFIA: 8, LAW: 10, NEUTRAL: 8}
SABOTAGE_THRESHOLD = 8
ARREST_THRESHOLD = 8
DDD_PLANS = 6
SPAM_LIMIT = 3  # more than 3 messages to one target in a night: "spammed" (decision #15)
LIFE = 10 ** 9  # a jail term "for the rest of the game" (last jailed phase index)

# Personas that name no role of version C but stand in the lists as decoys (decision #2).
DECOYS = ("traitor", "detective", "joker")

# Argument kinds an order may need (see docs/mafia-protocol.md, "Orders").
ARG_ROLE = "role"  # a secret-role key
ARG_ROLE_NONLAW = "role_nonlaw"  # a non-Law secret-role key (given as "role")
ARG_PERSONA = "persona"  # one persona name
ARG_PERSONAS2 = "personas2"  # two different persona names (given as "personas")
ARG_PUBLIC = "public"  # a public-role name as written at sign-up (given as "public")
ARG_BANS = "bans"  # three [role, ability] pairs, non-Law roles, different roles


@dataclass(frozen=True)
class Ability:
    key: str
    phase: str  # "night" | "day" | "any"
    step: str  # where it resolves: persona|block|attack|protect|kidnap|regen|jail|info|grant|day|vote|any
    target: str = "other"  # none|self|living|other (living, not self)|dead
    args: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()  # hospital, jail, morgue, unblockable
    secret: bool = True  # a secret-role ("night") ability: lost in Hospital unless flagged
    once: bool = False  # once per game (a blocked use is not used up)
    distinct: bool = False  # never twice on the same target (a blocked use does not count)
    not_first: bool = False  # not on night 1
    not_with_target: tuple[str, ...] = ()  # not on a target of these own abilities this phase
    not_with: tuple[str, ...] = ()  # not in a phase where these own abilities are ordered
    group: str = ""  # one ability of a group per phase (the Киллер's Арсенал)
    attack: bool = False


def _f(*letters: str) -> frozenset[str]:
    names = {"Г": "hospital", "Т": "jail", "М": "morgue", "Б": "unblockable"}
    return frozenset(names[letter] for letter in letters)


A = Ability

# Abilities everyone has (section «Следующие способности имеются у всех»).
COMMON: dict[str, Ability] = {
    "vote": A("vote", "day", "vote", "living", secret=False),
    "mail": A("mail", "night", "info", "living", flags=_f("Г", "Б")),  # target may also be "city"
    "healing": A("healing", "night", "regen", "none", flags=_f("Г")),
    "paranoia": A("paranoia", "night", "protect", "none", flags=_f("Г", "Т"), once=True),
}

ROLE_ABILITIES: dict[str, dict[str, Ability]] = {
    "boss": {
        "interrogation": A("interrogation", "night", "block", flags=_f("Б")),
        "mastermind": A("mastermind", "night", "info", flags=_f("Г"), not_with_target=("interrogation",)),
        "sawnoff": A("sawnoff", "night", "attack", "none", attack=True),
        "legacy": A("legacy", "night", "attack", flags=_f("Г"), attack=True),
    },
    "killer": {
        "pistol": A("pistol", "night", "attack", flags=_f("Г"), group="arsenal", attack=True),
        "sniper": A("sniper", "night", "attack", args=(ARG_ROLE,), distinct=True, not_first=True,
                    group="arsenal", attack=True),
        "tommygun": A("tommygun", "night", "attack", group="arsenal", attack=True),
        "militia": A("militia", "night", "grant", flags=_f("Г")),
        "autopsy": A("autopsy", "night", "info", "dead", not_with_target=("militia",)),
    },
    "agent": {
        "slander": A("slander", "night", "persona", "living", args=(ARG_PERSONA,), flags=_f("Г")),
        "sabotage": A("sabotage", "night", "attack", args=(ARG_PERSONA,), attack=True),
        "cover": A("cover", "night", "protect", "living", distinct=True, not_with_target=("sabotage",)),
        "disguise": A("disguise", "night", "persona", "self", args=(ARG_PERSONA,), flags=_f("Г"),
                      not_with_target=("sabotage", "cover")),
    },
    "officer": {
        "revolver": A("revolver", "night", "attack", attack=True),
        "militia": A("militia", "night", "grant", flags=_f("Г")),
    },
    "forensic": {
        "search": A("search", "night", "info", args=(ARG_PERSONAS2,), flags=_f("Г")),
        "autopsy": A("autopsy", "night", "info", "dead", not_with_target=("search",)),
    },
    "policeman": {
        "arrest": A("arrest", "night", "jail", args=(ARG_ROLE,), not_with_target=("ban", "interrogation")),
        "ban": A("ban", "night", "grant", args=(ARG_BANS,), distinct=True, not_with_target=("interrogation",)),
        "interrogation": A("interrogation", "night", "block", flags=_f("Б"), distinct=True),
    },
    "vigilante": {
        "punishment": A("punishment", "night", "attack", args=(ARG_ROLE,), not_first=True, attack=True),
        "patrol": A("patrol", "night", "protect", "living", flags=_f("Г"), distinct=True,
                    not_with_target=("punishment",)),
        "informants": A("informants", "night", "info", not_with_target=("punishment", "patrol")),
    },
    "civilian": {
        "own_hands": A("own_hands", "night", "info", not_with_target=("jury",)),
        "jury": A("jury", "night", "info", args=(ARG_ROLE_NONLAW,)),
        "assist": A("assist", "day", "day", "living", flags=_f("Г")),
    },
    "maniac": {
        "double_life": A("double_life", "any", "any", "none", args=(ARG_PERSONA,), flags=_f("Г", "Т"), once=True),
        "stalking": A("stalking", "night", "info", flags=_f("Г")),
        "assault": A("assault", "night", "attack", flags=_f("Г", "Т", "Б"), not_first=True, attack=True),
        "bloodbath": A("bloodbath", "night", "attack", "none", args=(ARG_PUBLIC, ARG_ROLE), flags=_f("Г", "Т", "Б")),
    },
    "genius": {
        "kidnap": A("kidnap", "night", "kidnap", "living", flags=_f("Г", "Б"), distinct=True),
        "propaganda": A("propaganda", "night", "grant", "living", flags=_f("Г"), distinct=True, not_with=("kidnap",)),
        "informer": A("informer", "night", "info", args=(ARG_ROLE,), flags=_f("Г", "Т"), distinct=True),
        "disinformation": A("disinformation", "night", "persona", "living", flags=_f("Г"),
                            not_with_target=("informer",)),
        "zombify": A("zombify", "night", "block", flags=_f("Г", "Б"), distinct=True),
        "bribe": A("bribe", "night", "jail", once=True, not_with=("zombify",)),
    },
}

# "not_with_target"/"not_with" are symmetric: ordering either one refuses the other (checked both ways).
ROLE_FACTION = {"boss": MAFIA, "killer": MAFIA, "agent": MAFIA,
                "officer": LAW, "forensic": LAW, "policeman": LAW, "vigilante": LAW, "civilian": LAW,
                "maniac": NEUTRAL, "genius": NEUTRAL,
                "traitor": MAFIA, "detective": LAW, "joker": NEUTRAL}  # the last three: version A only
ROLE_ORDER = ("boss", "killer", "agent", "officer", "forensic", "policeman", "vigilante", "civilian",
              "maniac", "genius")
NON_LAW = tuple(r for r in ROLE_ORDER if ROLE_FACTION[r] != LAW)

# Starting personas (version C); the Гражданский has one of each role of the version (decision #2).
ROLE_PERSONAS: dict[str, tuple[str, ...]] = {
    "boss": ("boss", "forensic", "policeman", "genius", "civilian"),
    "killer": ("killer", "officer", "vigilante", "maniac", "civilian"),
    "agent": ("agent", "forensic", "maniac", "genius", "civilian"),
    "officer": ("officer", "killer", "vigilante", "maniac", "genius", "civilian"),
    "forensic": ("forensic", "boss", "traitor", "policeman", "maniac", "civilian"),
    "policeman": ("policeman", "boss", "agent", "officer", "genius", "civilian"),
    "vigilante": ("vigilante", "killer", "forensic", "maniac", "genius", "civilian"),
    "civilian": ROLE_ORDER,
    "maniac": ("maniac",),
    "genius": ("genius", "boss", "traitor", "forensic", "policeman", "vigilante", "civilian"),
}
PERSONAS = ROLE_ORDER + DECOYS  # every persona name an order may give

# Abilities a Запрет may name, per non-Law role: the role's night abilities, with the weapons
# instead of the Арсенал as a whole (decision: "any time"/day abilities cannot be banned).
BANNABLE: dict[str, tuple[str, ...]] = {
    role: tuple(k for k, a in ROLE_ABILITIES[role].items() if a.phase == "night") for role in NON_LAW
}

# Secret roles by player count (decision #3): 5 base roles, then one more per seat, then Гражданские.
DEAL_ORDER = ("boss", "killer", "officer", "civilian", "maniac", "forensic", "policeman", "agent",
              "vigilante", "genius")


def deal(players: int) -> list[str]:
    roles = list(DEAL_ORDER[:min(players, len(DEAL_ORDER))])
    roles += ["civilian"] * (players - len(roles))
    return roles


# ---------------------------------------------------------------------------- public roles


@dataclass(frozen=True)
class PublicRole:
    """A public («явная») role. Every hook is optional; see docs/mafia-protocol.md, "Hook points".

    ``order`` is the role's place in the rules' list (tie priority: lower goes first); custom
    roles («(Другой)») come after every listed role, alphabetically.
    """

    key: str
    order: int
    abilities: dict[str, Ability] = field(default_factory=dict)
    hp_bonus: int = 0  # added to the starting 2 HP (Здоровяк +1, Пенсионер -1)
    unblockable: bool = False  # Берсерк
    never_jailed: bool = False  # Воин, Тюремщик
    vote_from_jail: bool = False  # Серый кардинал, Берсерк
    vote_bonus: Callable[[Any, int], int] | None = None  # (state, seat) -> extra weight of the seat's vote
    votes_against: Callable[[Any, int], int] | None = None  # (state, seat) -> votes added on the seat
    damage: Callable[[Any, int, list], None] | None = None  # (state, seat, attacks) edits attacks in place
    regen: Callable[[Any, int], None] | None = None  # (state, seat) after deaths, before Лечение
    personas: Callable[[Any, int, dict], dict] | None = None  # (state, seat, personas) -> what probes see


OTHER = "other"  # «(Другой)»: a custom name, no abilities
PUBLIC_ROLES: dict[str, PublicRole] = {OTHER: PublicRole(OTHER, 10 ** 6)}


def ability_of(role: str, public: str, key: str) -> Ability | None:
    """The ability ``key`` as the holder of these roles has it (secret role first), or None."""
    found = ROLE_ABILITIES.get(role, {}).get(key) or COMMON.get(key)
    if found is None:
        pub = PUBLIC_ROLES.get(public)
        if pub is not None:
            found = pub.abilities.get(key)
    return found
