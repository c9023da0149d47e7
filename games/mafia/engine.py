"""Forum Mafia with a Мастер: the rules engine's contract (rule version C of seed 004; A and B
in versions.py and cards.py).

The contract with the verbs, presenters, the server and the bots is docs/mafia-protocol.md; the
rules come from ../shared/rules/mafia.md (section numbers "4.6 #7" refer to it).

``Mafia`` holds no data: it validates options, deals (``new``), says whom the phase awaits and
what each seat may do (``awaiting``, ``legal``), applies an order (``apply``) and shows each seat
its filtered view. A phase (night N / day N) collects orders from every living seat that can
act; "any time" abilities resolve at once; ``ready`` ends a seat's wait; when every awaited seat
is ready the phase resolves at once and the next one starts. The parts, lowest first:

* state.py: ``MafiaState`` (plain data plus the game's ``random.Random``) and the personas;
* public_roles.py: the 34 public roles and how they bend the core's questions;
* abilities.py: which abilities a seat has, whether and on whom it may use one;
* night.py: what one resolution collects, and the registries of handlers and hooks;
* handlers.py, public_handlers.py, cards.py: one small handler per ability key (registered at
  import), and the public roles' and version A/B's hooks;
* resolution.py: the night pipeline (4.6 #7), the day vote, stalemate (stalemate.py), wins.
"""
from __future__ import annotations

import random
from typing import Any

from ..base import Action, Audience, Awaiting, Event, MASTER, Outcome, RuleError, int_option
from . import bot as _bots
from . import cards as _cards  # noqa: F401  (registers version A/B cards' handlers and hooks)
from . import handlers as _handlers  # noqa: F401  (registers the secret roles' and common abilities' handlers)
from . import public_handlers as _public_handlers  # noqa: F401  (registers the 34 public roles' handlers)
from . import public_roles as P
from . import roles as R
from . import stalemate as Q
from . import targets as T
from . import versions as V
from .abilities import (
    abilities, _can_act, _check_args, _is_seat, _json_scalar, _other_not_with, target_refusal,
    _targets, _why_not,
)
from .resolution import _any_time, _resolve_and_advance
from .state import (
    DAY_LIMITS, _err, EVERYONE, MafiaState, MASTER_ONLY, NAME_LIMIT, NIGHT_LIMITS, _phase_event,
    READY, TEXT_LIMIT,
)
from .roles import Ability, LIFE, MAFIA


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
        if kind == "order" and action.get("ability") == "mail":
            kind = "mail"  # Почта as an order still needs its text (without, the night broke on it)
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


def _new_awaiting(seat: int, seconds: float, window: str) -> Awaiting:
    """``Awaiting(seat, "phase", seconds, READY, window)``, made as the tuple it is, at once (a
    seat's phase orders are its own decision: not optional)."""
    return tuple.__new__(Awaiting, (seat, "phase", seconds, READY, window, False))


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


GAME = Mafia()
