"""Forum Mafia with a Мастер: the pure rules engine (rule version C of seed 004).

The contract with the verbs, presenters, the server and the bots is docs/mafia-protocol.md; the
rules come from ../shared/rules/mafia.md (section numbers "4.6 #7" below refer to it).

Layout: ``MafiaState`` is plain data plus the game's ``random.Random``; ``Mafia`` holds no data.
A phase (night N / day N) collects orders from every living seat that can act; "any time"
abilities resolve at once; ``ready`` ends a seat's wait; when every awaited seat is ready the
phase resolves at once (``resolve_night`` / ``resolve_day``, the pipeline of 4.6 #7) and the next
phase starts. What each ability does is one small handler in ``HANDLERS`` (below), keyed by the
ability key and called at its pipeline step (``Ability.step`` in roles.py); public roles plug in
through the hooks of ``roles.PublicRole``.
"""
from __future__ import annotations

import copy as _copy
import random
from typing import Any, Callable

from ..base import MASTER, Action, Audience, Awaiting, Event, Outcome, RuleError, int_option
from ..collation import name_key
from . import bot as _bots
from . import roles as R
from . import targets as T
from . import stalemate as Q
from . import versions as V
from .roles import LAW, LIFE, MAFIA, NEUTRAL, Ability

NIGHT_LIMITS = (10, 7 * 24 * 3600)
DAY_LIMITS = (10, 7 * 24 * 3600)
TEXT_LIMIT = 4000  # characters of one mail
NAME_LIMIT = 64  # characters of a custom public-role name

EVERYONE = Audience.everyone()
MASTER_ONLY = Audience.master()
READY: Action = {"type": "ready"}


def _err(key: str, /, **params: Any) -> RuleError:
    return RuleError("mafia.error." + key, **params)


# ------------------------------------------------------------------------------------ state


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
        self.rules_rev = Q.RULES_REV  # the stalemate rule's revision (stalemate.py)
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


# ------------------------------------------------------------------------------------ personas


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


# ------------------------------------------------------------------------------------ abilities of a seat


def abilities(s: MafiaState, seat: int) -> dict[str, Ability]:
    """Every ability the seat has now (secret role, common, public role, granted Наган).
    The dict is shared (cached): do not change it."""
    public = R.PUBLIC_ROLES[s.public[seat]]
    armed = s.revolver[seat] == s.index
    looted = P.looted(s, seat)  # Мародер: public-role abilities taken from the dead
    key = (s.version, s.roles[seat], id(public), armed, looted)
    found = _ABILITIES.get(key)
    if found is None:
        rs = V.RULESETS[s.version]
        found = dict(rs.common)
        for extra in looted:
            found.update(R.PUBLIC_ROLES[extra].abilities)
        found.update(public.abilities)
        found.update(rs.abilities[s.roles[seat]])
        if armed and "revolver" not in found:
            found["revolver"] = R.ROLE_ABILITIES["officer"]["revolver"]
        _ABILITIES[key] = found
    return found


_ABILITIES: dict[tuple, dict[str, Ability]] = {}


def _why_not(s: MafiaState, seat: int, ab: Ability) -> str | None:
    """Why the seat cannot use the ability in this phase at all (an error name), or None."""
    if ab.phase != "any" and ab.phase != s.phase:
        return "wrong_phase"
    if s.jailed(seat) and s.misere[seat] != s.index and "jail" not in ab.flags and not (ab.key == "vote" and R.PUBLIC_ROLES[s.public[seat]].vote_from_jail) \
            and not P.jail_ok(s, seat, ab):
        return "jailed"
    if s.hospital(seat) and s.misere[seat] != s.index and ab.secret and "hospital" not in ab.flags \
            and not P.hospital_ok(s, seat):
        return "hospital"  # (A: a Мизер played last night lifts Hospital and Jail tonight)
    if ab.once and ab.key in s.used[seat]:
        return "used_up"
    if ab.key == "mail" and s.mail_used[seat] >= R.MAIL_LIMIT[s.faction(seat)] and not P.unlimited_mail(s, seat):
        return "used_up"
    if ab.not_first and s.index == 0:
        return "not_first_night"
    if s.night() and ab.key in s.banned[seat].get(s.index, ()):
        return "banned"
    if ab.key == "legacy" and not any(s.roles[x] == "killer" and (not s.alive[x] or s.jailed(x) or P.spirit(s, x))
                                      for x in range(s.players)):
        return "not_now"
    if ab.key == "card" and (s.cards_off or s.cards[seat] < 1):  # A: the Ход needs a card
        return "cards_off" if s.cards_off else "no_cards"
    for other in ab.not_with:
        if other in s.orders[seat]:
            return "exclusive"
    return P.why_not(s, seat, ab)  # public roles (Spirit, Хакер's day 4, ...)


def _target_ok(s: MafiaState, seat: int, ab: Ability, target: Any) -> bool:
    return target_refusal(s, seat, ab, target) is None


def target_refusal(s: MafiaState, seat: int, ab: Ability, target: Any) -> str | None:
    """Why ``target`` may not be given ``ab`` now (the ``why`` of ``mafia.error.bad_target``),
    None when it may: the one reason that applies, so a refusal names it instead of every rule."""
    kind = ab.target
    if kind == "none":
        return None if target is None else "no_target"
    if kind == "self":
        return None if target == seat else "not_self"
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < s.players:
        return "not_a_player"
    if kind == "dead":  # (Улики: only a character who died last night)
        if s.alive[target]:
            return "alive"
        return None if ab.key != "evidence" or s.dead_at[target] == s.index - 1 else "died_before"
    return T.seat_refusal(s, seat, ab, target, P.refused(s, seat, ab), abilities(s, seat))  # (targets.py)


def _targets(s: MafiaState, seat: int, ab: Ability, living: list[int], refused: set) -> list[Any]:
    """Every target ``_target_ok`` accepts, computed at once (for legal())."""
    kind = ab.target
    if kind == "none":
        return [None]
    if kind == "self":
        return [seat] if _target_ok(s, seat, ab, seat) else []
    if kind == "dead":
        return [t for t in range(s.players) if not s.alive[t]
                and (ab.key != "evidence" or s.dead_at[t] == s.index - 1)]
    return T.allowed_seats(s, seat, ab, living, refused, abilities(s, seat))  # target_refusal's rules


def _other_not_with(s: MafiaState, seat: int, ab: Ability) -> bool:
    """An ordered ability that excludes this one in the whole phase (``not_with``, the other way)."""
    mine = abilities(s, seat)
    return any(ab.key in mine[k].not_with for k in s.orders[seat] if k in mine)


def _check_args(s: MafiaState, ab: Ability, action: Action, seat: int = -1) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for arg in ab.args:
        if arg == R.ARG_ROLE or arg == R.ARG_ROLE_NONLAW:
            role = action.get("role")
            rs = V.rules(s)
            allowed = rs.non_law if arg == R.ARG_ROLE_NONLAW else rs.roles
            if role not in allowed:
                raise _err("bad_arg", name="role", value=role)
            if rs.grey_mass and s.index == 0 and role in ("civilian", "vigilante"):  # A/B: Серая масса
                raise _err("grey_mass", ability=ab.key, role=role)
            if ab.key == "informer" and rs.informer_distinct_roles and role in s.named[seat]:
                raise _err("already_named", ability=ab.key, role=role)  # A: never one role twice
            out["role"] = role
        elif arg == R.ARG_PERSONA:
            persona = action.get("persona")
            if persona not in R.PERSONAS:
                raise _err("bad_arg", name="persona", value=persona)
            out["persona"] = persona
        elif arg == R.ARG_PERSONAS2:
            names = action.get("personas")
            if (not isinstance(names, (list, tuple)) or len(names) != 2 or names[0] == names[1]
                    or any(n not in R.PERSONAS for n in names)):
                raise _err("bad_arg", name="personas", value=names)
            out["personas"] = list(names)
        elif arg == R.ARG_PUBLIC:
            name = action.get("public")
            if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT:
                raise _err("bad_arg", name="public", value=name)
            out["public"] = name
        elif arg == R.ARG_BANS:
            bans = action.get("bans")
            ok = isinstance(bans, (list, tuple)) and len(bans) == 3
            pairs: list[list[str]] = []
            if ok:
                for pair in bans:
                    if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or pair[0] not in V.rules(s).bannable
                            or pair[1] not in V.rules(s).bannable[pair[0]]):
                        ok = False
                        break
                    pairs.append([pair[0], pair[1]])
                ok = ok and len({p[0] for p in pairs}) == 3
            if not ok:
                raise _err("bad_arg", name="bans", value=bans)
            out["bans"] = pairs
        elif arg in ARG_CHECKS:  # the version-A arguments (cards.py)
            out.update(ARG_CHECKS[arg](s, seat, ab, action))
    return out


# ------------------------------------------------------------------------------------ engine


class Mafia:
    name = "mafia"
    min_players = 5
    max_players = 30
    # Server traits of a forum-pace game: every message is kept in the inbox for rereading, and
    # a player who lets a phase run out is not replaced by a bot (their orders stand).
    keep_messages = True
    autopilot = False
    default_options: dict[str, Any] = {"version": "C", "night": 600, "day": 1200, "personas": None,
                                       "public_roles": None, "tell": False, "signup": {}}
    internal_options = ("rules_rev",)  # kept by the table (start_options), never typed or shown

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        result = dict(self.default_options)
        for name, value in (options or {}).items():
            if name in ("ruleset", "version"):  # `version`: the older name of `ruleset`
                word = str(value).strip().upper()
                if word not in V.RULESETS:
                    raise _err("bad_option", name=name, value=value)
                result["version"] = word
            elif name == "night":
                result[name] = int_option(value, *NIGHT_LIMITS, name, "mafia.error.bad_option")
            elif name == "day":
                result[name] = int_option(value, *DAY_LIMITS, name, "mafia.error.bad_option")
            elif name == "personas" and value is None:  # the ruleset's own reading
                result[name] = None
            elif name == "personas":
                word = str(value).strip().lower()
                if word not in ("list", "own"):
                    raise _err("bad_option", name=name, value=value)
                result[name] = word
            elif name == "public_roles":
                result[name] = None if value is None else _check_public_roles(value)
            elif name == "tell":  # seated players may `tell` each other during the game (server side)
                result[name] = _yes_no(name, value)
            elif name == "signup":  # player name -> public role name chosen before the start
                if not isinstance(value, dict):
                    raise _err("bad_option", name=name, value=None)
                _check_public_roles(list(value.values()))
                result[name] = {str(k): v for k, v in value.items()}
            elif name == "rules_rev":  # set at the start (start_options), not typed at `open`
                if value not in Q.RULES_REVISIONS or isinstance(value, bool):
                    raise _err("bad_option", name=name, value=value)
                result[name] = value
            else:
                raise _err("bad_option", name=name, value=value)
        return result

    def start_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a table starts with: today's stalemate rule is pinned (stalemate.py)."""
        return {**options, "rules_rev": Q.RULES_REV}

    def restored_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A stored table started before the pin played revision 1 of the stalemate rule."""
        return options if "rules_rev" in options else {**options, "rules_rev": 1}

    def silenced(self, state: MafiaState, seat: int) -> bool:
        """The dead cannot speak at the table (seed: Морг)."""
        return not state.alive[seat]

    def start_plan(self, options: dict[str, Any] | None, seats: int,
                   names: list[str] | None = None) -> tuple[int, dict[str, Any]]:
        """At the start, the sign-up becomes one public role per seat: the name each player chose
        with `class`, else their own name as a custom «(Другой)» role (made unique)."""
        opts = self.validate_options(options)
        names = list(names or [])[:seats] + [f"#{x + 1}" for x in range(len(names or []), seats)]
        chosen = {player: opts["signup"][player] for player in names if player in opts["signup"]}
        taken = {v.strip().casefold() for v in chosen.values()}
        public: list[str] = []
        for seat in range(seats):
            name = chosen.get(names[seat])
            if name is None:
                base = names[seat][:NAME_LIMIT]
                name, extra = base, 2
                while name.casefold() in taken or P.public_key(name) != R.OTHER:  # (a custom role)
                    name, extra = f"{base} ({extra})", extra + 1
                taken.add(name.casefold())
            public.append(name)
        return 0, {"public_roles": public}

    def rematch_plan(self, options: dict[str, Any], seats: int) -> tuple[dict[str, Any], int]:
        """A rematch keeps the options and the sign-up (each player's chosen public role); the
        public roles are dealt again by the start plan."""
        return {k: v for k, v in options.items() if k != "public_roles"}, seats

    def new(self, seats: int, options: dict[str, Any] | None, seed: int) -> MafiaState:
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_players <= seats <= self.max_players:
            raise _err("bad_option", name="players", value=seats)
        opts = self.validate_options(options)
        s = MafiaState()
        s.players = seats
        s.version = opts["version"]
        s.reading = opts["personas"] or V.RULESETS[s.version].reading  # A: own name, B/C: list (4.6 #1)
        s.night_seconds, s.day_seconds = opts["night"], opts["day"]
        s.rules_rev = opts.get("rules_rev", Q.RULES_REV)
        s.rng = rng = random.Random(seed)
        public = opts["public_roles"]
        if public is not None and len(public) != seats:
            raise _err("bad_option", name="public_roles", value=len(public))
        for seat in range(seats):
            name = public[seat] if public is not None else f"#{seat + 1}"
            key = P.public_key(name)  # a listed role by any of its names, else «(Другой)»
            if key != R.OTHER and key in s.public:
                raise _err("duplicate_public_role", name=name)
            s.public.append(key)
            s.names.append(name)
        deck = V.deal(s.version, seats)
        rng.shuffle(deck)
        s.roles = deck
        s.hp = [2 + R.PUBLIC_ROLES[s.public[x]].hp_bonus for x in range(seats)]
        s.alive = [True] * seats
        s.dead_at = [None] * seats
        s.jail = [None] * seats
        s.personas = [{name: 1 for name in V.RULESETS[s.version].personas[role]} for role in deck]
        s.start_personas = [dict(p) for p in s.personas]
        s.temp = [{} for _ in range(seats)]
        s.plans = [0] * seats
        s.orders = [{} for _ in range(seats)]
        s.ready = [False] * seats
        s.used = [set() for _ in range(seats)]
        s.used_on = [{} for _ in range(seats)]
        s.mail_used = [0] * seats
        s.revolver = [None] * seats
        s.banned = [{} for _ in range(seats)]
        s.knowledge = [[] for _ in range(seats)]
        s.index, s.phase = 0, "night"
        V.init_state(s)
        return s

    def start_events(self, state: MafiaState) -> list[Event]:
        """What to announce when the game begins (the state does not change)."""
        s = state
        events = [Event(EVERYONE, "mafia.start", {"players": s.players, "version": s.version})]
        for seat in range(s.players):
            role = s.roles[seat]
            events.append(Event(Audience.only(seat), "mafia.role", {
                "seat": seat, "role": role, "faction": s.faction(seat),
                "abilities": list(V.rules(s).abilities[role]), "personas": dict(s.start_personas[seat])}))
        mafia = [x for x in range(s.players) if s.faction(x) == MAFIA and s.roles[x] in ("boss", "killer", "agent")]
        if mafia:
            events.append(Event(Audience.only(*mafia), "mafia.team",
                                {"seats": mafia, "roles": [s.roles[x] for x in mafia]}))
        events.append(_phase_event(s))
        return events

    # ----------------------------------------------------------------------------- questions

    def awaiting(self, state: MafiaState) -> list[Awaiting]:
        s = state
        if s.phase == "over":
            return []
        seconds = s.night_seconds if s.night() else s.day_seconds
        window = f"{s.phase}-{s.number()}"
        return [_new_awaiting(seat, seconds, window) for seat in range(s.players)
                if s.alive[seat] and not s.ready[seat] and _can_act(s, seat)]

    def outcome(self, state: MafiaState) -> Outcome | None:
        s = state
        if s.winners is None:
            return None
        return Outcome(s.winners, "mafia.outcome." + s.reason, {"seats": list(s.winners)})

    def legal(self, state: MafiaState, seat: int) -> list[Action]:
        s = state
        if s.phase == "over" or not _is_seat(s, seat) or not s.alive[seat]:
            return []
        out: list[Action] = []
        living = s.living()
        orders = s.orders[seat]
        for key, ab in abilities(s, seat).items():
            if _why_not(s, seat, ab) is not None or _other_not_with(s, seat, ab):
                continue
            need = _need(s, ab)
            # the public roles' refusals (Социопат, Миллионер, Алкаш, ...), for orders that pick seats
            refused = P.refused(s, seat, ab) if ab.target in ("other", "living") or need else set()
            if key == "vote":
                out.extend({"type": "vote", "target": t} for t in _targets(s, seat, ab, living, refused))
                continue
            if key == "mail":
                out.extend({"type": "mail", "target": t, "need": ["text"]}
                           for t in _targets(s, seat, ab, living, refused) if t != seat)
                if "city" not in refused:
                    out.append({"type": "mail", "target": "city", "need": ["text"]})
                continue
            if key == "card":  # A: the Ход, one entry per play (Пас: one per target)
                out.extend(V.card_actions(s, seat, _targets(s, seat, ab, living, refused)))  # (Пас: protections)
                continue
            targets = _targets(s, seat, ab, living, refused)
            for t in targets:
                action: Action = {"type": "order", "ability": key}
                if t is not None:
                    action["target"] = t
                if need:
                    action["need"] = list(need)
                    among = T.nameable(s, seat, ab, living, refused, abilities(s, seat))  # seats it may pick
                    if among is not None:
                        action["among"] = among
                out.append(action)
        for key in orders:
            out.append({"type": "cancel", "ability": key})
        if not s.ready[seat] and _can_act(s, seat):
            out.append(dict(READY))
        return out

    def view(self, state: MafiaState, viewer: int) -> dict[str, Any]:
        s = state
        n = s.players
        stamp = (s.index, s.phase)
        cache = s.public_cache
        if cache is None or cache[0] != stamp:  # the public part changes only when a phase resolves
            cache = s.public_cache = (stamp, _public_view(s))
        public = cache[1]
        view: dict[str, Any] = {
            "game": "mafia", "viewer": viewer, "players": n, "version": s.version, "phase": s.phase,
            "number": s.number(), "index": s.index, "window": public["window"],
            "public_roles": [dict(p) for p in public["public_roles"]],
            "alive": public["alive"].copy(), "hospital": public["hospital"].copy(),
            "jailed": public["jailed"].copy(), "jail_until": public["jail_until"].copy(),
            "last_vote": dict(s.last_vote) if s.last_vote else None,
            "winners": list(s.winners) if s.winners is not None else None,
            "reason": s.reason or None,
        }
        if V.rules(s).public_vote and s.phase == "day":  # A: the open votes of this day
            view["votes"] = [[x, o["vote"]["target"]] for x, o in enumerate(s.orders)
                             if "vote" in o and V.vote_public(s, x)]
        if _is_seat(s, viewer):
            seat = viewer
            role = s.roles[seat]
            view["role"] = role
            view["faction"] = s.faction(seat)
            view["abilities"] = sorted(abilities(s, seat))
            view["personas_start"] = dict(s.start_personas[seat])
            view["orders"] = {k: dict(v) for k, v in s.orders[seat].items()}
            view["ready"] = s.ready[seat]
            view["used"] = sorted(s.used[seat])
            view["used_on"] = {k: list(v) for k, v in s.used_on[seat].items()}
            view["mail_left"] = R.MAIL_LIMIT[s.faction(seat)] - s.mail_used[seat]
            view["knowledge"] = [dict(k) for k in s.knowledge[seat]]
            view["revolver"] = s.revolver[seat] == s.index and s.night()
            view["banned"] = sorted(s.banned[seat].get(s.index, ())) if s.night() else []
            if V.rules(s).cards:  # A: each character knows its own card count
                view["cards"] = s.cards[seat]
                view["misere"] = s.misere[seat] == s.index  # tonight own abilities ignore Hospital, Jail, blocks
            if role in ("boss", "killer", "agent"):
                view["team"] = [{"seat": x, "role": s.roles[x]} for x in range(n)
                                if s.roles[x] in ("boss", "killer", "agent")]
            if role == "maniac":  # Шизофрения
                view["dead_roles"] = [{"seat": x, "role": s.roles[x]} for x in range(n) if not s.alive[x]]
            if role == "genius":  # Хитрый план
                view["plans"] = s.plans[seat]
        elif viewer == MASTER:
            view["roles"] = list(s.roles)
            view["factions"] = [s.faction(x) for x in range(n)]
            view["hp"] = list(s.hp)
            view["personas"] = [dict(p) for p in s.personas]
            view["temp"] = [dict(p) for p in s.temp]
            view["orders"] = [{k: dict(v) for k, v in o.items()} for o in s.orders]
            view["ready"] = list(s.ready)
            view["used"] = [sorted(u) for u in s.used]
            view["used_on"] = [{k: list(v) for k, v in u.items()} for u in s.used_on]
            view["mail_used"] = list(s.mail_used)
            view["plans"] = list(s.plans)
            view["revolver"] = list(s.revolver)
            view["banned"] = [{str(k): sorted(v) for k, v in b.items()} for b in s.banned]
            view["extra_votes"] = {str(d): {str(t): v for t, v in m.items()} for d, m in s.extra_votes.items()}
            view["propaganda"] = {str(d): {str(t): v for t, v in m.items()} for d, m in s.propaganda.items()}
            view["knowledge"] = [[dict(k) for k in ks] for ks in s.knowledge]
            view["quiet"] = s.quiet
            view["cards"] = list(s.cards)
        P.extend_view(s, viewer, view)  # public roles: spirits, own HP (Здоровяк), bank (Сплетник)...
        return view

    def bot_action(self, view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
        return _bots.bot_action(view, legal, rng, level)

    def obsolete(self, state: MafiaState, seat: int, action: Action) -> bool:
        """A logged order now refused for a protection of a seat it lists or names (targets.py)."""
        s = state
        if not _is_seat(s, seat) or not s.alive[seat] or s.phase == "over":
            return False
        return T.obsolete(s, seat, action, abilities(s, seat), lambda ab: P.refused(s, seat, ab))

    def final_reveal(self, state: MafiaState) -> dict[str, Any] | None:
        """Everything the game hid, for the end-of-game block: None while the game goes on (a
        secret stays one). Each seat's public role, secret role, team and personas (as dealt and
        as they ended), alive or not; and the nights and days played."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        s = state
        nights, days = s.index // 2 + 1, (s.index + 1) // 2
        return {"game": "mafia", "winners": list(outcome.winners), "reason": outcome.reason,
                "params": dict(outcome.params), "length": {"nights": nights, "days": days},
                "version": s.version,
                "seats": [{"seat": seat, "public": s.public[seat], "public_name": s.names[seat],
                           "role": s.roles[seat], "faction": s.faction(seat), "alive": s.alive[seat],
                           "personas": dict(s.personas[seat]), "personas_start": dict(s.start_personas[seat])}
                          for seat in range(s.players)]}

    # ----------------------------------------------------------------------------- the one change

    def apply(self, state: MafiaState, seat: int, action: Action) -> list[Event]:
        s = state
        if s.phase == "over":
            raise _err("game_over")
        if not _is_seat(s, seat):
            raise _err("not_a_player")
        if not s.alive[seat]:
            raise _err("dead")
        kind = action.get("type") if isinstance(action, dict) else None
        events: list[Event] = []
        if kind == "ready":
            if s.ready[seat]:
                raise _err("already_ready")
            if not _can_act(s, seat):
                raise _err("nothing_to_do")
            s.ready[seat] = True
            if all(s.ready[x] or not _can_act(s, x) for x in range(s.players) if s.alive[x]):
                _resolve_and_advance(s, events)
            return events
        if kind == "cancel":
            key = action.get("ability")
            if not isinstance(key, str) or key not in s.orders[seat]:
                raise _err("no_order", ability=key)
            del s.orders[seat][key]
            s.ready[seat] = False
            events.append(Event(Audience.only(seat), "mafia.cancelled", {"seat": seat, "ability": key}))
            if key == "vote" and V.vote_public(s, seat):  # A: a public vote withdrawn
                events.append(Event(EVERYONE, "mafia.voted", {"seat": seat, "target_seat": None}))
            return events
        if kind == "vote":
            key, target, extra = "vote", action.get("target"), {}
        elif kind == "mail":
            key, target = "mail", action.get("target")
            text = action.get("text")
            if not isinstance(text, str) or not text.strip() or len(text) > TEXT_LIMIT:
                raise _err("bad_arg", name="text", value=None)
            extra = {"text": text}
        elif kind == "order":
            key, target, extra = action.get("ability"), action.get("target"), None
        else:
            raise _err("no_such_action")
        ab = abilities(s, seat).get(key) if isinstance(key, str) else None
        if ab is None:
            raise _err("no_such_ability", ability=key)
        why = _why_not(s, seat, ab)
        if why is None and _other_not_with(s, seat, ab):
            why = "exclusive"
        if why is not None:
            raise _err(why, ability=key)
        if ab.target == "self" and target is None:
            target = seat
        old = s.orders[seat].pop(key, None)  # a changed order replaces the old one (kept if refused)
        try:
            why_not = None if key == "mail" and target == "city" and "city" not in P.refused(s, seat, ab) \
                else target_refusal(s, seat, ab, target)
            if why_not is not None:
                raise _err("bad_target", ability=key, target=target if _json_scalar(target) else None, why=why_not)
            if key == "mail" and target == seat:
                raise _err("bad_target", ability=key, target=target, why="self")
            if extra is None:
                extra = _check_args(s, ab, action, seat)
                P.check_order(s, seat, ab, extra)
                refusal = T.order_refusal(s, seat, ab, {"ability": key, **extra}, P.refused(s, seat, ab),
                                          abilities(s, seat))  # the seats it names besides its target
                if refusal is not None:
                    raise _err("bad_target", ability=key, target=refusal[0], why=refusal[1])
        except RuleError:
            if old is not None:
                s.orders[seat][key] = old
            raise
        order: dict[str, Any] = {"ability": key, "target": target, **extra}
        if key == "mail":
            order = P.more_mail(s, seat, old, order)  # Бард: several messages a night
        if ab.group:  # one weapon of the Арсенал: a new one replaces the old
            for other, o in list(s.orders[seat].items()):
                if other != key and abilities(s, seat).get(other, ab).group == ab.group:
                    del s.orders[seat][other]
        if ab.phase != "any":  # "any time" orders resolve at once and are not kept
            s.orders[seat][key] = order
            s.ready[seat] = False
        params = {"seat": seat, "ability": key}
        if isinstance(target, int):
            params["target_seat"] = target
        events.append(Event(Audience.only(seat), "mafia.ordered", params))
        events.append(Event(MASTER_ONLY, "mafia.order_log", {"seat": seat, **_public_order(order)}))
        if key == "vote" and V.vote_public(s, seat):  # A: votes are public (4.6 #4)
            events.append(Event(EVERYONE, "mafia.voted", {"seat": seat, "target_seat": target}))
        if ab.phase == "any":
            _any_time(s, seat, ab, order, events)
            # It may have been that seat's last possible order: the phase waits for nobody then.
            if s.phase != "over" and all(s.ready[x] or not _can_act(s, x) for x in range(s.players) if s.alive[x]):
                _resolve_and_advance(s, events)
        return events


# ------------------------------------------------------------------------------------ helpers


def _new_awaiting(seat: int, seconds: float, window: str) -> Awaiting:
    """``Awaiting(seat, "phase", seconds, READY, window)``, made as the tuple it is, at once (a
    seat's phase orders are its own decision: not optional)."""
    return tuple.__new__(Awaiting, (seat, "phase", seconds, READY, window, False))


def _is_seat(s: MafiaState, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s.players


def _json_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (int, str))


def _public_order(order: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in order.items() if k != "target"}
    if isinstance(order.get("target"), int):
        out["target_seat"] = order["target"]
    elif order.get("target") is not None:
        out["target"] = order["target"]
    return out


def _public_view(s: MafiaState) -> dict[str, Any]:
    n = s.players
    return {"window": "" if s.phase == "over" else f"{s.phase}-{s.number()}",
            "public_roles": [{"key": s.public[x], "name": s.names[x]} for x in range(n)],
            "alive": list(s.alive), "hospital": [s.hospital(x) for x in range(n)],
            "jailed": [s.alive[x] and s.jailed(x) for x in range(n)],
            "jail_until": [_term(s, x) for x in range(n)]}


def _term(s: MafiaState, seat: int) -> int | str | None:
    if not s.alive[seat] or not s.jailed(seat):
        return None
    return "life" if s.jail[seat] >= LIFE else s.jail[seat]


def _need(s: MafiaState, ab: Ability) -> list[str]:
    names = []
    for arg in ab.args:
        names.append({R.ARG_ROLE_NONLAW: "role", R.ARG_PERSONAS2: "personas"}.get(arg, arg))
    return names


def _can_act(s: MafiaState, seat: int) -> bool:
    """A living seat with at least one order it could give in this phase (the phase awaits it).
    Cached per phase: within a phase only an "any time" ability changes it (_any_time clears it)."""
    cache = s.actors
    if cache is None or cache[0] != s.index:
        cache = s.actors = (s.index, [_can_act_now(s, x) for x in range(s.players)])
    return cache[1][seat] or bool(s.orders[seat])


def _can_act_now(s: MafiaState, seat: int) -> bool:
    if not s.alive[seat] or s.phase == "over":
        return False
    for key, ab in abilities(s, seat).items():
        if _why_not(s, seat, ab) is None:
            return True
    return False


def _yes_no(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().casefold()
    if word in ("yes", "on", "true", "1", "да", "так", "вкл"):
        return True
    if word in ("no", "off", "false", "0", "нет", "ні", "выкл"):
        return False
    raise _err("bad_option", name=name, value=value)


def _check_public_roles(value: Any) -> list[str]:
    if not isinstance(value, (list, tuple)):
        raise _err("bad_option", name="public_roles", value=None)
    names: list[str] = []
    seen: set[str] = set()
    for name in value:
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT:
            raise _err("bad_option", name="public_roles", value=name if isinstance(name, str) else None)
        fold = name.strip().casefold()
        if fold in seen:
            raise _err("duplicate_public_role", name=name)
        seen.add(fold)
        names.append(name)
    return names


def _phase_event(s: MafiaState) -> Event:
    return Event(EVERYONE, "mafia.phase", {"phase": s.phase, "number": s.number(),
                                           "seconds": s.night_seconds if s.night() else s.day_seconds})


class _Night:
    """What one resolution collects: private messages (sent only to seats alive at its end)."""

    def __init__(self, s: MafiaState) -> None:
        self.s = s
        self.tells: list[tuple[tuple[int, ...], str, dict[str, Any]]] = []
        self.public: list[Event] = []
        self.lead: list[Event] = []  # public news told before the deaths (the day's vote result)
        self.attacks: dict[int, list[list[Any]]] = {}  # target -> [[source, damage, ability], ...]
        self.harm: dict[int, int] = {}  # target -> damage that is not an attack (Кровавая баня)
        self.covered: set[int] = set()
        self.patrolled: dict[int, int] = {}  # target -> how many Дозоры
        self.paranoid: set[int] = set()
        self.kidnap: dict[int, list[int]] = {}  # target -> genius seats
        self.learned: dict[int, int] = {}  # target -> personas learned of it tonight
        self.disinfo: list[tuple[int, int]] = []  # (genius, target)
        self.effective: list[tuple[int, Ability, dict[str, Any]]] = []
        self.disrupted: set[int] = set()  # A: seats whose abilities see only Аноним(1) tonight
        self.fate: set[int] = set()  # A: struck by Рука судьбы (not an attack)
        self.banked: set[int] = set()  # A: Банк (all damage blocked tonight)
        self.wounds: dict[int, list[str]] = {}  # target -> abilities that damaged it (Улики)

    def tell(self, seat: int, key: str, params: dict[str, Any], learn: bool = True) -> None:
        self.tells.append(((seat,), key, params))
        if learn:
            self.s.knowledge[seat].append({"index": self.s.index, "key": key, **params})

    def attack(self, source: int, target: int, damage: int, ability: str) -> None:
        self.attacks.setdefault(target, []).append([source, damage, ability])

    def draw(self, by: int | None, target: int, exclude: str | None = None) -> str | None:
        """A random persona of ``target`` drawn for seat ``by``'s night ability (None: a day
        ability's result, which Срыв never touches). Always the seat the result belongs to,
        never whichever order resolved last (issue 15)."""
        self.learned[target] = self.learned.get(target, 0) + 1
        if by in self.disrupted:  # A: Срыв расследования, the target shows only Аноним(1)
            return V.ANONYMOUS
        found = draw_persona(self.s, target, exclude)
        if found is not None and self.s.roles[target] == "maniac" and V.rules(self.s).double_life == "replace":
            self.tell(target, "mafia.probed", {"seat": target, "persona": found})  # A/B: Двойная жизнь
        return found

    def seen(self, by: int, target: int) -> dict[str, int]:
        """The target's personas as seat ``by``'s night ability sees them (A: Аноним(1) under Срыв)."""
        return {V.ANONYMOUS: 1} if by in self.disrupted else personas_seen(self.s, target)

    def run(self, seat: int, ab: Ability, order: dict[str, Any]) -> None:
        HANDLERS[ab.key](self, seat, ab, order)


# ------------------------------------------------------------------------------------ handlers

Handler = Callable[[_Night, int, Ability, dict[str, Any]], None]
HANDLERS: dict[str, Handler] = {}


def handler(*keys: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for key in keys:
            HANDLERS[key] = fn
        return fn
    return register


# -- persona step


@handler("slander")
def _slander(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if not V.no_gain(n.s, o["target"]):  # (A/B: not on the Маньяк, see Двойная жизнь)
        _add(n.s.personas[o["target"]], o["persona"], 3)  # Клевета: +3, tonight too


@handler("disguise")
def _disguise(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    _add(n.s.temp[seat], o["persona"], 20)  # Маскировка: +20 tonight only


@handler("disinformation")
def _disinformation(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if not V.no_gain(n.s, o["target"]):
        _add(n.s.temp[o["target"]], "genius", 2 * n.s.number())
    n.disinfo.append((seat, o["target"]))


# -- attack step


@handler("pistol", "revolver", "legacy", "assault")
def _one(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.attack(seat, o["target"], 1, ab.key)


@handler("tommygun")
def _tommygun(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.attack(seat, o["target"], 2, ab.key)
    n.public.append(Event(EVERYONE, "mafia.tommygun", {"seat": seat}))


@handler("sniper")
def _sniper(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if n.s.roles[o["target"]] == o["role"]:
        n.attack(seat, o["target"], 2, ab.key)


@handler("punishment")
def _punishment(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    if n.s.roles[t] == o["role"] or n.s.faction(t) == LAW:
        n.attack(seat, t, 2, ab.key)


@handler("sabotage")
def _sabotage(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    if n.seen(seat, t).get(o["persona"], 0) >= V.rules(n.s).sabotage:
        n.attack(seat, t, 1, ab.key)


@handler("sawnoff")
def _sawnoff(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    hit: list[int] = []
    for user, uab, order in n.effective:
        if (uab.key != "mail" and user != seat and user not in hit and s.faction(user) != MAFIA
                and seat in T.named_seats(s, order)):  # a list of seats or a public name counts too
            hit.append(user)
    for user in hit:
        n.attack(seat, user, 1, ab.key)


@handler("bloodbath")
def _bloodbath(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    name = o["public"].strip().casefold()
    assault = next((order["target"] for u, a, order in n.effective if u == seat and a.key == "assault"), None)
    for t in range(s.players):
        if s.alive[t] and s.names[t].strip().casefold() == name and s.roles[t] == o["role"] and t != assault:
            n.harm[t] = n.harm.get(t, 0) + 2  # not an attack (4.6 #7)


# -- protect / kidnap step


@handler("cover")
def _cover(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.covered.add(o["target"])


@handler("patrol")
def _patrol(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.patrolled[o["target"]] = n.patrolled.get(o["target"], 0) + 1


@handler("paranoia")
def _paranoia(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.paranoid.add(seat)


@handler("kidnap")
def _kidnap(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.kidnap.setdefault(o["target"], []).append(seat)


# -- grants (effects on later phases)


@handler("militia")
def _militia(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    n.s.revolver[t] = n.s.index + 2
    n.tell(t, "mafia.armed", {"seat": t})


@handler("ban")
def _ban(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    for role, ability in o["bans"]:
        if s.roles[t] == role:
            s.banned[t].setdefault(s.index + 2, set()).add(ability)
            n.tell(t, "mafia.banned", {"seat": t, "ability": ability})


@handler("propaganda")
def _propaganda(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t, day = n.s, o["target"], n.s.index + 1
    votes = s.extra_votes.setdefault(day, {})
    votes[t] = votes.get(t, 0) + V.rules(s).propaganda_votes
    s.propaganda.setdefault(day, {})[t] = seat


# -- jail step


@handler("arrest")
def _arrest(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    if (s.alive[t] and s.roles[t] == o["role"] and seat not in n.disrupted
            and corresponding(s, t) >= V.rules(s).arrest):
        _jail(s, t, LIFE, n.public)


@handler("bribe")
def _bribe(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    if s.alive[t]:
        _jail(s, t, s.index + 2, n.public)  # the next day and night


# -- regeneration


@handler("healing")
def _healing(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    rs = V.rules(s)
    if s.alive[seat] and s.hp[seat] == 1 and (s.roles[seat] in rs.heal_exempt
                                               or corresponding(s, seat) >= rs.heal[s.faction(seat)]):
        s.hp[seat] += 1


# -- information


@handler("mastermind", "own_hands")
def _two_personas(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    found = [n.draw(seat, t) for _ in range(1 if n.s.roles[seat] == "traitor" else 2)]  # A: the Предатель's, 1
    n.tell(seat, "mafia.personas", {"seat": seat, "ability": ab.key, "target_seat": t,
                                    "personas": [p for p in found if p is not None]})


@handler("informants", "stalking")
def _one_persona(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    found = n.draw(seat, t, exclude="civilian" if ab.key == "stalking" else None)
    n.tell(seat, "mafia.personas", {"seat": seat, "ability": ab.key, "target_seat": t,
                                    "personas": [found] if found is not None else []})


@handler("search")
def _search(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    seen = n.seen(seat, t)
    names = o["personas"] if "personas" in o else [o["persona"]]  # A: one name
    count = sum(1 for name in names if seen.get(name, 0) > 0)
    result = {"count": count} if V.rules(n.s).search == "count" else {"found": count > 0}  # A/B: yes/no
    n.tell(seat, "mafia.search", {"seat": seat, "ability": ab.key, "target_seat": t,
                                  "personas": list(names), **result})


@handler("autopsy")
def _autopsy(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    n.tell(seat, "mafia.autopsy", {"seat": seat, "ability": ab.key, "target_seat": t, "role": n.s.roles[t]})


@handler("informer")
def _informer(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    correct = s.roles[t] == o["role"]
    if V.rules(s).informer_distinct_roles:
        s.named[seat].append(o["role"])
    if correct:
        s.plans[seat] += 1
    n.tell(seat, "mafia.guess", {"seat": seat, "ability": ab.key, "target_seat": t, "role": o["role"],
                                 "correct": correct})


@handler("jury")
def _jury(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    correct = s.roles[t] == o["role"]
    if correct:
        votes = s.extra_votes.setdefault(s.index + 1, {})
        votes[t] = votes.get(t, 0) + V.rules(s).jury_votes
    if V.rules(s).jury_learns:  # (A: the Гражданский is not told)
        n.tell(seat, "mafia.guess", {"seat": seat, "ability": ab.key, "target_seat": t, "role": o["role"],
                                     "correct": correct})


# -- effects with no handler of their own: blocks (interrogation, zombify) are read by the
#    pipeline itself; mail is delivered by it; vote and assist are day steps.

PIPELINE = ("persona", "grant", "cards", "attack", "protect", "kidnap")  # before damage; then regen, jail, info
# Version machinery (cards.py fills these): hooks run after a pipeline step (and after "info"),
# on each target's damage total, for extra order arguments, and for "any time" abilities.
AFTER_STEP: dict[str, list[Callable[[_Night], None]]] = {}
DAMAGE_HOOKS: list[Callable[[_Night, int, list, Any], Any]] = []
ARG_CHECKS: dict[str, Callable[..., dict[str, Any]]] = {}
ANY_TIME: dict[str, Callable[..., None]] = {}


# ------------------------------------------------------------------------------------ resolution


def _jail(s: MafiaState, seat: int, until: int, public: list[Event]) -> bool:
    """Jail ``seat`` until phase ``until``; False if it can never be jailed (Воин, Тюремщик)."""
    if R.PUBLIC_ROLES[s.public[seat]].never_jailed:
        return False
    if s.jail[seat] is not None and s.jail[seat] >= until:
        return True  # jailed for as long already
    s.jail[seat] = until
    public.append(Event(EVERYONE, "mafia.jailed", {"seat": seat, "until": "life" if until >= LIFE else until}))
    return True


def _effective(s: MafiaState, n: _Night) -> set[int]:
    """Collect this phase's orders; drop what blocked seats declared (except Б); return the blocked."""
    blocked: set[int] = set()
    failed: dict[int, list[str]] = {}  # a blocked seat's voided orders
    for seat in s.living():
        for key, order in s.orders[seat].items():
            if key in ("interrogation", "zombify"):
                blocked.add(order["target"])
    for seat in s.living():
        mine = abilities(s, seat)
        unblockable = R.PUBLIC_ROLES[s.public[seat]].unblockable or s.misere[seat] == s.index  # (A: Мизер)
        if unblockable:
            blocked.discard(seat)  # Ярость, Мизер: a block does not touch it (nor is it told of one)
        for key, order in s.orders[seat].items():
            ab = mine.get(key)
            if ab is None or ab.phase == "any":
                continue
            if seat in blocked and "unblockable" not in ab.flags:
                failed.setdefault(seat, []).append(key)
                continue
            n.effective.append((seat, ab, order))
    for seat in sorted(blocked):
        if s.alive[seat]:
            tell_blocked(n, seat, [ab.key for x, ab, _ in n.effective if x == seat], failed.get(seat, []))
    return blocked


def tell_blocked(n: _Night, seat: int, worked: list[str], failed: list[str], day: bool = False) -> None:
    """A blocked seat learns it was blocked (not by whom), and only what is true of its orders:
    its Б orders worked all the same; none worked (by day: `mafia.blocked_day`); or it had
    ordered nothing the block could void ("your orders did not work" would be untrue)."""
    if worked:
        n.tell(seat, "mafia.blocked_some", {"seat": seat, "abilities": sorted(set(worked))})
    elif failed:
        n.tell(seat, "mafia.blocked_day" if day else "mafia.blocked", {"seat": seat})
    else:
        n.tell(seat, "mafia.blocked_idle", {"seat": seat})


def _use_up(s: MafiaState, n: _Night) -> None:
    """Limits are spent only by orders that took effect (a blocked once-per-game is not used up)."""
    for seat, ab, order in n.effective:
        if ab.once:
            s.used[seat].add(ab.key)
        if ab.distinct and isinstance(order.get("target"), int):
            s.used_on[seat].setdefault(ab.key, []).append(order["target"])
        if ab.key == "mail":
            s.mail_used[seat] += 1


def resolve_night(s: MafiaState) -> list[Event]:
    """The night pipeline (4.6 #7). Returns the morning's events."""
    n = _Night(s)
    _effective(s, n)
    _use_up(s, n)
    by_step: dict[str, list[tuple[int, Ability, dict]]] = {}
    for item in n.effective:
        by_step.setdefault(item[1].step, []).append(item)
    for step in PIPELINE:  # 1 persona modifiers; later-phase grants; 4 attacks and protections
        for seat, ab, order in by_step.get(step, ()):
            if ab.key in HANDLERS:
                n.run(seat, ab, order)
        for hook in AFTER_STEP.get(step, ()):
            hook(n)
    before_hp = list(s.hp)
    before_status = _statuses(s)
    _damage(s, n)  # 4 damage, 5 Похищение and deaths
    for seat in s.living():  # 6 regeneration: public-role hooks, then Лечение
        hook = R.PUBLIC_ROLES[s.public[seat]].regen
        if hook:
            hook(s, seat)
    for seat, ab, order in by_step.get("regen", ()):
        n.run(seat, ab, order)
    for seat, ab, order in by_step.get("jail", ()):  # 7 jail starts
        n.run(seat, ab, order)
    for seat, ab, order in by_step.get("info", ()):  # 8 information (tonight's personas) and mail
        if ab.key in HANDLERS:  # (mail and Звонок are delivered by _mail)
            n.run(seat, ab, order)
    _mail(s, n, by_step.get("info", ()))
    for hook in AFTER_STEP.get("info", ()):  # (A: Крупье)
        hook(n)
    for genius, target in n.disinfo:  # Дезинформация: >= 2 personas of the target learned tonight
        if n.learned.get(target, 0) >= 2:
            s.plans[genius] += 1
    for seat in s.living():  # Хитрый план: +1 at the end of every night
        if s.roles[seat] == "genius":
            s.plans[seat] += 1
            n.tell(seat, "mafia.plans", {"seat": seat, "plans": s.plans[seat]})
    return _finish_phase(s, n, before_hp, before_status)


def _damage(s: MafiaState, n: _Night) -> None:
    for target in sorted(set(n.attacks) | set(n.harm) | n.fate | n.banked):
        if not s.alive[target]:
            continue
        attacks = n.attacks.get(target, [])
        hook = R.PUBLIC_ROLES[s.public[target]].damage
        if hook:
            hook(s, target, attacks)  # Горец, Кульбит...
        if target in n.covered:  # Прикрытие: no damage from attacks
            for a in attacks:
                a[1] = 0
        for _ in range(n.patrolled.get(target, 0)):  # Дозор: the strongest attack is dropped
            live = [a for a in attacks if a[1] > 0]
            if live:
                attacks.remove(max(live, key=lambda a: a[1]))
        if target in n.paranoid:  # Паранойя: -1 from every attack
            for a in attacks:
                a[1] = max(0, a[1] - 1)
        total = sum(a[1] for a in attacks) + n.harm.get(target, 0)
        for hook in DAMAGE_HOOKS:  # A: Рука судьбы, Банк; A/B: Похищение stops damage; Улики
            total = hook(n, target, attacks, total)
        s.hp[target] -= total
    for target in range(s.players):
        if s.alive[target] and s.hp[target] <= 0:
            saviours = n.kidnap.get(target)
            if saviours:  # Похищение: survives with 1 HP, the genius gets a plan
                s.hp[target] = 1
                for genius in saviours:
                    s.plans[genius] += 1
            else:
                _die(s, target)


def _die(s: MafiaState, seat: int) -> None:
    if P.escape_death(s, seat):  # Мститель: a Spirit instead (once per game)
        return
    s.alive[seat] = False
    s.dead_at[seat] = s.index


def _mail(s: MafiaState, n: _Night, infos: Any) -> None:
    """Почта: anonymous; more than 3 to one target (the city counts as one) → "spammed" (4.6 #15)."""
    box: dict[Any, list[str]] = {}
    for seat, ab, order in infos:
        if ab.key in ("mail", "call"):  # (A: Звонок, signed "от Босса", counts for the spam rule)
            box.setdefault(order["target"], []).append((ab.key, order["text"]))
            for target, text in order.get("more", ()):  # Бард: several messages a night
                box.setdefault(target, []).append((ab.key, text))
    for target, texts in box.items():
        spam = len(texts) > R.SPAM_LIMIT
        if target == "city":
            if spam:
                n.public.append(Event(EVERYONE, "mafia.city_spammed", {}))
            else:
                for _key, text in texts:
                    n.public.append(Event(EVERYONE, "mafia.city_mail", {"text": text}))
        elif spam:
            n.tell(target, "mafia.spammed", {"seat": target}, learn=False)
        else:
            for key, text in texts:
                n.tell(target, "mafia." + key, {"seat": target, "text": text}, learn=False)


def _statuses(s: MafiaState) -> list[tuple[bool, bool, bool]]:
    return [(s.alive[x], s.hospital(x), s.jailed(x)) for x in range(s.players)]


def _finish_phase(s: MafiaState, n: _Night, before_hp: list[int], before_status: list) -> list[Event]:
    """Status news, persona growth, messages to the living only, stalemate counter."""
    events: list[Event] = []
    died = [x for x in range(s.players) if before_status[x][0] and not s.alive[x]]
    events.extend(n.lead)  # the vote's result comes before the deaths it caused
    for x in died:
        events.append(Event(EVERYONE, "mafia.died", {"seat": x}))
    events.extend(n.public)
    for x in range(s.players):
        if s.alive[x] and before_status[x][0]:
            if s.hospital(x) and not before_status[x][1]:
                events.append(Event(EVERYONE, "mafia.hospital", {"seat": x}))
            elif before_status[x][1] and not s.hospital(x):
                events.append(Event(EVERYONE, "mafia.recovered", {"seat": x}))
    # +1 persona at the end of every phase (4.3, 4.6 #1); tonight's personas are gone
    for x in range(s.players):
        s.temp[x] = {}
        if s.alive[x]:
            _grow(s, x, 1)
    # Шизофрения: the Маньяк knows the secret roles of the dead
    for m in s.living():
        if s.roles[m] == "maniac":
            for x in died:
                n.tell(m, "mafia.dead_role", {"seat": m, "target_seat": x, "role": s.roles[x]})
    # the dead, including those who died in this phase, get no messages (4.3)
    for seats, key, params in n.tells:
        living = tuple(x for x in seats if s.alive[x])
        if living:
            events.append(Event(Audience.only(*living), key, params))
    for x in died:
        s.knowledge[x] = [k for k in s.knowledge[x] if k["index"] != s.index]
    changed = bool(died) or before_hp != s.hp or before_status != _statuses(s) or any(
        s.alive[x] and s.roles[x] == "genius" for x in range(s.players))
    s.quiet = Q.next_quiet(s, changed, LIFE, P.pending(s))
    for x in range(s.players):
        s.orders[x] = {}
        s.ready[x] = False
    return events


def resolve_day(s: MafiaState) -> list[Event]:
    """The day: Помощь следствию, then the secret weighted vote; only the outcome is published."""
    n = _Night(s)
    P.day_start(n)  # Задержание blocks; votes from Jail only under Злоупотребление
    for seat in s.living():
        mine = abilities(s, seat)
        for key, order in s.orders[seat].items():
            ab = mine.get(key)
            if ab is not None and ab.phase == "day":
                n.effective.append((seat, ab, order))
    _use_up(s, n)
    before_hp, before_status = list(s.hp), _statuses(s)
    for seat, ab, order in n.effective:
        if ab.key == "assist":  # +3 personas corresponding to the target's secret role
            _grow(s, order["target"], 3)
        elif ab.step == "day" and ab.key in HANDLERS:
            HANDLERS[ab.key](n, seat, ab, order)
    totals = tally(s)
    if V.rules(s).public_vote:  # A: the votes and their totals are public (4.6 #4)
        n.public.append(_tally_event(s))
    leader = None
    if totals:
        top = max(totals.values())
        if top > 0:
            leader = min((t for t, v in totals.items() if v == top), key=lambda t: tie_key(s, t))
    if leader is None:
        s.last_vote = None
        n.public.append(Event(EVERYONE, "mafia.no_execution", {}))
    else:
        genius = s.propaganda.get(s.index, {}).get(leader)
        if genius is not None:
            s.plans[genius] += V.rules(s).propaganda_plans
            if s.alive[genius]:
                n.tell(genius, "mafia.plans", {"seat": genius, "plans": s.plans[genius]})
        if s.index == 1:  # day 1: jail for night 2, day 2 and night 3 instead of death (4.6 #20)
            fate = "jail" if _jail(s, leader, 4, n.public) else "free"  # Воин, Тюремщик: never jailed
        elif genius is not None:
            fate = "spared"  # Пропаганда: does not die
        else:
            fate = P.execute(s, n, leader)  # death; public roles: acquitted (Адвокат), jail (Политик)
        s.last_vote = {"seat": leader, "fate": fate, "day": s.number()}
        n.lead.append(Event(EVERYONE, "mafia.vote_result", {"seat": leader, "fate": fate}))
    P.day_end(n)  # Судья, Сплетник, Миллионер, Безработный, Spirits
    s.extra_votes.pop(s.index, None)
    s.propaganda.pop(s.index, None)
    return _finish_phase(s, n, before_hp, before_status)


def vote_weight(s: MafiaState, seat: int) -> int:
    hook = R.PUBLIC_ROLES[s.public[seat]].vote_bonus
    return V.rules(s).weight[s.faction(seat)] + (hook(s, seat) if hook else 0)


def _tally_event(s: MafiaState) -> Event:
    """A: every open vote (seat, target, weight) and the open totals per target; secret additions
    (Суд присяжных, Вист, Скользкий ублюдок, a secret voter) are not shown."""
    votes: list[dict[str, Any]] = []
    totals: dict[int, Any] = {}
    for seat in s.living():
        order = s.orders[seat].get("vote")
        if order is not None and s.alive[order["target"]] and V.vote_public(s, seat):
            weight = vote_weight(s, seat)
            votes.append({"seat": seat, "target_seat": order["target"], "weight": weight})
            totals[order["target"]] = totals.get(order["target"], 0) + weight
    return Event(EVERYONE, "mafia.tally", {"votes": votes, "totals": [{"seat": t, "votes": v}
                                                                      for t, v in sorted(totals.items())]})


def tally(s: MafiaState) -> dict[int, int]:
    """Secret totals per living target (4.6 #4, #5): faction weights, secret extra votes, hooks."""
    totals: dict[int, int] = {}
    for seat in s.living():
        order = s.orders[seat].get("vote")
        if order is not None and s.alive[order["target"]]:
            totals[order["target"]] = totals.get(order["target"], 0) + vote_weight(s, seat)
    for t, extra in s.extra_votes.get(s.index, {}).items():
        if s.alive[t]:
            totals[t] = totals.get(t, 0) + extra
    dead = s.players - len(s.living())
    for t in s.living():
        hook = R.PUBLIC_ROLES[s.public[t]].votes_against
        delta = hook(s, t) if hook else 0
        if s.roles[t] == "maniac":  # Скользкий ублюдок (A: 2 + 0.5 per dead; B: 3 + 1 per dead; C: 1 per dead)
            base, per = V.rules(s).slippery
            shed = base + per * dead
            delta -= int(shed) if shed == int(shed) else shed  # (A: halves)
        if delta:
            totals[t] = totals.get(t, 0) + delta
    return totals


def tie_key(s: MafiaState, seat: int) -> tuple:
    """Tie priority: listed public roles in rule order, then custom names alphabetically (4.6 #12),
    as a Russian reader sorts them («Ёлка» before «Жаба»: games.collation)."""
    return (R.PUBLIC_ROLES[s.public[seat]].order, name_key(s.names[seat]), seat)


def check_win(s: MafiaState, end_of_day: bool) -> tuple[str, tuple[int, ...]] | None:
    """The first win that holds, by the priority of 4.6 #14; a stalemate ends with no winner."""
    living = [x for x in s.living() if not P.spirit(s, x)]  # a Spirit counts as dead (Мститель)
    if not living:
        return P.spirit_win(s) or ("stalemate", ())
    if end_of_day:
        ddd = tuple(x for x in living if s.roles[x] == "genius" and s.plans[x] >= V.rules(s).ddd)
        if ddd:
            return ("ddd", ddd)
    if len(living) == 1 and s.roles[living[0]] == "maniac":
        return ("legend", (living[0],))
    mafia = tuple(x for x in living if s.faction(x) == MAFIA)
    law = tuple(x for x in living if s.faction(x) == LAW)
    maniac = any(s.roles[x] == "maniac" for x in living)
    if not maniac and mafia and not law:
        return ("mafia", mafia)
    if not maniac and law and not mafia:
        return ("law", law)
    if s.quiet >= Q.STALEMATE_PHASES:
        return P.spirit_win(s) or ("stalemate", ())
    return None


def _end(s: MafiaState, won: tuple[str, tuple[int, ...]], events: list[Event]) -> None:
    s.reason, s.winners = won[0], tuple(sorted(won[1]))
    s.phase = "over"
    s.actors = None
    for x in range(s.players):
        s.orders[x] = {}
        s.ready[x] = False
    if s.reason == "stalemate":
        events.append(Event(EVERYONE, "mafia.stalemate", {}))
    else:
        events.append(Event(EVERYONE, "mafia.win", {"reason": s.reason, "seats": list(s.winners)}))


def _resolve_and_advance(s: MafiaState, events: list[Event]) -> None:
    """Resolve the phase, check wins, start the next phase (and resolve at once a phase nobody can act in)."""
    while True:
        night = s.night()
        # The Мастер's news post opens what the phase brought: morning news after a night,
        # evening news after a day (the seat's results follow it, then the next phase).
        events.append(Event(EVERYONE, "mafia.news", {"phase": s.phase, "number": s.number()}))
        events.extend(resolve_night(s) if night else resolve_day(s))
        won = check_win(s, end_of_day=not night)
        if won:
            _end(s, won, events)
            return
        s.index += 1
        s.phase = "night" if s.index % 2 == 0 else "day"
        for x in range(s.players):  # jail terms that ended
            if s.alive[x] and s.jail[x] is not None and s.jail[x] == s.index - 1:
                events.append(Event(EVERYONE, "mafia.released", {"seat": x}))
        events.append(_phase_event(s))
        won = check_win(s, end_of_day=False)  # and at the start of each phase
        if won:
            _end(s, won, events)
            return
        if any(_can_act(s, x) for x in s.living()):
            return


def _any_time(s: MafiaState, seat: int, ab: Ability, order: dict[str, Any], events: list[Event]) -> None:
    """An "any time" ability: resolves at once, cannot be cancelled (4.3)."""
    if ab.once:
        s.used[seat].add(ab.key)
    s.actors = None
    if ab.key == "double_life":  # Двойная жизнь: C +10 of one kind; A/B: every own persona becomes that kind
        if V.rules(s).double_life == "replace":
            s.personas[seat] = {order["persona"]: max(1, sum(s.personas[seat].values()))}
        else:
            _add(s.personas[seat], order["persona"], 10)
        events.append(Event(Audience.only(seat), "mafia.done", {"seat": seat, "ability": ab.key}))
    elif ab.key in ANY_TIME:  # (A: Ва-банк)
        ANY_TIME[ab.key](s, seat, order, events)


GAME = Mafia()

from . import cards as _cards  # noqa: E402,F401  (version A/B handlers and hooks register themselves)
from . import public_roles as P  # noqa: E402  (the 34 public roles: PUBLIC_ROLES, handlers, hooks)
