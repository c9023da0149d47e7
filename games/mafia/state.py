"""Forum Mafia: the game's data (``MafiaState``), its constants and the personas (4.3).

Plain data plus the game's ``random.Random``; nothing here resolves a phase. Public roles change
what the state answers (the Hospital) through public_roles.py, which sits below this module.
"""
from __future__ import annotations

import copy as _copy
import random
from typing import Any

from ..base import Action, Audience, Event, RuleError
from . import public_roles as P
from . import roles as R
from . import stalemate as Q
from . import versions as V


NIGHT_LIMITS = (10, 7 * 24 * 3600)


DAY_LIMITS = (10, 7 * 24 * 3600)


TEXT_LIMIT = 4000  # characters of one mail


NAME_LIMIT = 64  # characters of a custom public-role name


EVERYONE = Audience.everyone()


MASTER_ONLY = Audience.master()


READY: Action = {"type": "ready"}


def _err(key: str, /, **params: Any) -> RuleError:
    return RuleError("mafia.error." + key, **params)


class MafiaState:
    """Everything about one game (plain data and the RNG). ``copy()`` forks a game."""

    def __init__(self) -> None:
        self.players = 0
        self.version = "C"
        self.reading = "list"  # personas "corresponding" to a role: its list (B/C) or its own name (A)
        self.night_seconds = 600
        self.day_seconds = 1200
        self.rng = random.Random()
        # seats
        self.public: list[str] = []  # public-role key per seat ("other" for a custom name)
        self.names: list[str] = []  # the public-role name as written at sign-up
        self.roles: list[str] = []  # secret role per seat
        self.hp: list[int] = []
        self.alive: list[bool] = []
        self.dead_at: list[int | None] = []  # phase index of death
        self.jail: list[int | None] = []  # last jailed phase index (LIFE: for the rest of the game)
        self.personas: list[dict[str, int]] = []
        self.temp: list[dict[str, int]] = []  # personas for tonight only
        self.start_personas: list[dict[str, int]] = []
        self.plans: list[int] = []
        # the phase
        self.index = 0  # 0 = night 1, 1 = day 1, 2 = night 2, ...
        self.phase = "night"  # night | day | over
        self.orders: list[dict[str, dict[str, Any]]] = []  # per seat: ability key -> order
        self.ready: list[bool] = []
        # limits and lasting effects
        self.used: list[set[str]] = []  # once-per-game abilities used
        self.used_on: list[dict[str, list[int]]] = []  # never-twice abilities: targets so far
        self.mail_used: list[int] = []
        self.revolver: list[int | None] = []  # night index at which a militia Наган works
        self.banned: list[dict[int, set[str]]] = []  # night index -> abilities banned
        self.extra_votes: dict[int, dict[int, int]] = {}  # day index -> target -> secret extra votes
        self.propaganda: dict[int, dict[int, int]] = {}  # day index -> target -> genius seat
        self.knowledge: list[list[dict[str, Any]]] = []  # results told to each seat, in order
        self.last_vote: dict[str, Any] | None = None
        self.quiet = 0  # phases in a row without change (stalemate)
        self.rules_rev = Q.RULES_REV  # the rules revision pinned at the start (stalemate.py)
        self.actors: tuple[int, list[bool]] | None = None  # cache of _can_act for one phase
        self.public_cache: tuple[Any, dict[str, Any]] | None = None  # the public part of views
        self.winners: tuple[int, ...] | None = None
        self.reason = ""
        self.pub: dict[str, Any] = {}  # public roles' lasting effects (public_roles.py)

    def copy(self) -> "MafiaState":
        return _copy.deepcopy(self)

    def data(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("rng", "actors", "public_cache")}
        out["rng"] = self.rng.getstate()
        return out

    # convenient questions
    def night(self) -> bool:
        return self.phase == "night"

    def number(self) -> int:
        return self.index // 2 + 1

    def faction(self, seat: int) -> str:
        return R.ROLE_FACTION[self.roles[seat]]

    def jailed(self, seat: int) -> bool:
        term = self.jail[seat]
        return term is not None and term >= self.index

    def hospital(self, seat: int) -> bool:
        return P.in_hospital(self, seat)  # 1 HP; public roles: Пенсионер, Spirit, Повар

    def living(self) -> list[int]:
        return [seat for seat in range(self.players) if self.alive[seat]]


def personas_seen(s: MafiaState, seat: int) -> dict[str, int]:
    """The seat's personas as probes see them tonight (permanent + tonight's, public-role hooks)."""
    merged = dict(s.personas[seat])
    for name, count in s.temp[seat].items():
        merged[name] = merged.get(name, 0) + count
    hook = R.PUBLIC_ROLES[s.public[seat]].personas
    return hook(s, seat, merged) if hook else merged


def draw_persona(s: MafiaState, seat: int, exclude: str | None = None) -> str | None:
    """One persona drawn at random, weighted by count (4.3); None if there is none to draw."""
    pool = [(name, n) for name, n in personas_seen(s, seat).items() if n > 0 and name != exclude]
    total = sum(n for _, n in pool)
    if total <= 0:
        return None
    pick = s.rng.randrange(total)
    for name, n in pool:
        if pick < n:
            return name
        pick -= n
    return None  # pragma: no cover


def corresponding(s: MafiaState, seat: int) -> int:
    """Personas "corresponding to the secret role" (4.6 #1): in its list (B/C) or its own name (A)."""
    seen = personas_seen(s, seat)
    role = s.roles[seat]
    if s.reading == "own":
        return seen.get(role, 0)
    names = V.rules(s).personas[role]
    return sum(n for name, n in seen.items() if name in names)


def _grow(s: MafiaState, seat: int, count: int) -> None:
    role = s.roles[seat]
    rs = V.rules(s)
    if role == "maniac" and rs.double_life == "replace":  # A/B: gains personas only by Двойная жизнь
        return
    names = rs.personas[role]
    mine = s.personas[seat]
    for _ in range(count):
        name = role if s.reading == "own" else s.rng.choice(names)
        mine[name] = mine.get(name, 0) + 1


def _add(bag: dict[str, int], name: str, count: int) -> None:
    bag[name] = bag.get(name, 0) + count


def _phase_event(s: MafiaState) -> Event:
    return Event(EVERYONE, "mafia.phase", {"phase": s.phase, "number": s.number(),
                                           "seconds": s.night_seconds if s.night() else s.day_seconds})
