"""Forum Mafia bots: any secret role, played legally with simple sense, from the seat's view only.

A bot gives one order per call: the first ability of its role's plan that it has not ordered yet
in this phase and that ``legal`` offers, with a target and arguments chosen from what the view
knows (teammates, results learned so far); when nothing is left it says ``ready``. The Mafia
never attack a teammate; investigators follow up on what they learned (a suspect's persona is
the role guessed for Снайпер/Кара/Арест/Суд/Информатор, and the suspect is shot and voted
against); everyone votes. Every faction hunts a seat its own evidence marks as the Злой Гений
(more eagerly as the Гений's public plan floor nears DDD) or the Маньяк (genius_hunt.py): that
seat comes first among its suspects; the Mafia's next is the team's common mark (team_play.py).
Pure: the same view, legal and RNG state give the same action.
"""
from __future__ import annotations

from typing import Any

from . import genius_hunt as G
from . import team_play as T
from . import versions as V
from .roles import LAW, MAFIA, NEUTRAL, ROLE_ORDER

STRICT = False  # tests: raise instead of falling back to "ready"
# A bot's letter is one of these stock lines, named, not written: the engine has no language, so
# the text is the marker and the id, and each reader reads the line in their own language
# (world.presenters.mafia_names.letter_text). Typed text can never hold the control character.
LETTER_MARK = "\x1f"
LETTERS = ("beware", "i_know", "city_awake")
HUNT = True  # issue 14: bots hunt the Злой Гений / Маньяк (bench/mafia_balance.py compares with False)
# From this many seats the Mafia (3 of any table) vote their common mark as one bloc and the Киллер
# takes the Томми-ган (a sure kill, but it names him) twice as often: three votes and one kill a
# night weigh less the bigger the table (bench/mafia_balance.py: Мафия 5-12% at 11-15 seats
# without them; at 8 seats a bloc of three in eight took the Мафия to 50%, so not there).
BIG_TABLE = 11
READY = {"type": "ready"}
EVIL_FOR = {MAFIA: {LAW, NEUTRAL}, LAW: {MAFIA, NEUTRAL}, NEUTRAL: {MAFIA, LAW}}

# The abilities a bot of each role tries at night, in order (common ones come after).
NIGHT_PLAN = {
    "boss": ("interrogation", "mastermind", "legacy", "sawnoff", "call"),
    "killer": ("sniper", "tommygun", "pistol", "autopsy"),
    "agent": ("cover", "sabotage", "slander", "disguise"),
    "officer": ("revolver", "militia"),
    "forensic": ("search", "autopsy"),
    "policeman": ("arrest", "interrogation", "ban"),
    "vigilante": ("punishment", "patrol", "informants"),
    "civilian": ("jury", "own_hands"),
    "maniac": ("assault", "stalking", "bloodbath", "double_life"),
    "genius": ("kidnap", "informer", "zombify", "disinformation", "bribe", "propaganda"),
    # version A
    "traitor": ("backstab", "sabotage_investigation", "own_hands"),
    "detective": ("investigation",),
    "joker": ("buy_in", "deal"),
}
DAY_PLAN = {"civilian": ("assist",), "maniac": ("double_life",), "vigilante": ("assist",),
            "detective": ("evidence",)}
COMMON_NIGHT = ("revolver", "paranoia", "healing", "card", "mail")


def bot_action(view: dict[str, Any], legal: list[dict[str, Any]], rng: Any, level: str = "easy",
               hunt: bool | None = None) -> dict[str, Any]:
    """``hunt``: go after a likely Злой Гений / Маньяк (genius_hunt.py) and spread probes over
    seats not looked at yet (default HUNT; False plays as bots did before issue 14, for benches)."""
    try:
        return _choose(view, legal, rng, HUNT if hunt is None else hunt)
    except Exception:
        if STRICT:
            raise
        return dict(READY) if READY in legal else dict(legal[0])


def _choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: Any, hunt_on: bool = True) -> dict[str, Any]:
    options: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        key = action.get("ability") if action["type"] == "order" else action["type"]
        if action["type"] in ("order", "vote", "mail"):
            options.setdefault(key, []).append(action)
    orders = view["orders"]
    team = {t["seat"] for t in view.get("team", ())}
    known = _suspects(view, team)
    hunt = G.hunted(view, team) if hunt_on else None  # issue 14: every faction hunts a likely Злой Гений (or Маньяк) first
    if hunt is not None:
        seat, role = hunt
        known = _Known({seat: role, **{t: r for t, r in known.items() if t != seat}}, first=seat)
    if hunt_on and view["faction"] == MAFIA:  # the team's common mark: one target, one vote bloc
        known = _Known(known, first=getattr(known, "first", None), mark=T.mark(view))
    done = set(orders)
    if "all_in" in options:  # Ва-банк only with every secret role known
        mapping = _mapping(view, team)
        if mapping is not None:
            return {"type": "order", "ability": "all_in", "mapping": mapping}
    if view["phase"] == "day":
        for key in DAY_PLAN.get(view["role"], ()):
            if key == "double_life" and view.get("version", "C") != "C" and rng.random() >= 0.05:
                continue  # A/B: at will, so only now and then
            if key not in done and key in options and rng.random() < 0.5:
                action = _fill(view, options[key], known, team, rng, hunt_on)
                if action is not None:  # (no target it would take: vote instead)
                    return action
        action = _public(view, options, done, known, team, rng)  # public-role day abilities
        if action is not None:
            return action
        if "vote" not in done and "vote" in options:
            return _vote(view, options["vote"], known, team, rng)
    elif view["phase"] == "night":
        action = _public(view, options, done, known, team, rng)  # public-role night abilities
        if action is not None:
            return action
        plan = NIGHT_PLAN[view["role"]] + COMMON_NIGHT
        for key in plan:
            if key in done or key not in options:
                continue
            if key in ARSENAL and ARSENAL & set(orders):  # one weapon a night: another would replace it
                continue  # (only an order given counts: a weapon passed over must not disarm the rest)
            if not _wants(view, key, known, rng):
                done.add(key)
                continue
            if key == "card":
                action = _card(view, options[key], known, team, rng)
            else:
                action = _fill(view, options[key], known, team, rng, hunt_on)
            if action is not None:
                return action
    return dict(READY) if READY in legal else dict(legal[0])


class _Known(dict):
    """Suspects (seat -> a role of the other side it showed), with the one hunted first and, for
    the Mafia, the team's mark next (team_play.py)."""

    def __init__(self, items: dict[int, str], first: int | None = None, mark: int | None = None) -> None:
        super().__init__(items)
        self.first = first
        self.mark = mark


def _ranked(known: dict[int, str], team: set[int]) -> list[int]:
    """Suspects in the order a bot goes after them: the hunted Злой Гений, the Mafia's mark, then by seat."""
    out = [t for t in sorted(known) if t not in team]
    leads = [s for s in (getattr(known, "first", None), getattr(known, "mark", None)) if s is not None]
    for lead in reversed(leads):
        if lead in out:
            out.remove(lead)
        if lead not in team:
            out.insert(0, lead)
    return out


def _suspects(view: dict[str, Any], team: set[int]) -> dict[int, str]:
    """Seats the bot has learned something against: seat -> a role of the other side it showed."""
    mine = view["faction"]
    bad = EVIL_FOR[mine]
    out: dict[int, str] = {}
    alive = view["alive"]
    rs = V.RULESETS[view.get("version", "C")]
    for fact in view["knowledge"]:
        t = fact.get("target_seat")
        if t is None or not alive[t] or t in team or t == view["viewer"]:
            continue
        roles = []
        if fact["key"] == "mafia.personas":
            roles = [p for p in fact["personas"] if p in rs.roles and rs.faction[p] in bad]
        elif fact["key"] == "mafia.guess" and fact["correct"] and rs.faction[fact["role"]] in bad:
            roles = [fact["role"]]
        elif fact["key"] == "mafia.dossier" and rs.faction.get(fact["role"]) in bad:  # Хакер
            roles = [fact["role"]]
        elif fact["key"] == "mafia.investigation" and fact["mafia"] and MAFIA in bad:
            roles = ["boss"]
        if roles:
            out[t] = roles[-1]
    return out


def _wants(view: dict[str, Any], key: str, known: dict[int, str], rng: Any) -> bool:
    """Sense about when an ability is worth using."""
    if key == "paranoia":
        return view["hospital"][view["viewer"]]
    if key == "healing":
        return view["hospital"][view["viewer"]]
    if key == "mail":
        return rng.random() < 0.15
    if key == "sniper":  # a wrong role wastes the night's one weapon: only on a hunted seat
        return getattr(known, "first", None) is not None
    if key in ("punishment", "arrest", "jury", "backstab"):
        return bool(known)
    if key == "call":
        return rng.random() < 0.2
    if key == "double_life" and view.get("version", "C") != "C":  # A/B: at will, rarely
        return rng.random() < 0.05
    if key == "card":
        return view.get("cards", 0) >= 2 or rng.random() < 0.3
    if key in ("tommygun",):
        return rng.random() < (0.3 if view["players"] < BIG_TABLE else 0.6)
    if key in ("sawnoff", "double_life", "bribe", "bloodbath", "disguise", "militia"):
        return rng.random() < 0.3
    return True


def _pick(actions: list[dict[str, Any]], prefer: list[int], avoid: set[int], rng: Any) -> dict[str, Any] | None:
    by_target = {a.get("target"): a for a in actions}
    for t in prefer:
        if t in by_target:
            return by_target[t]
    choices = [a for a in actions if a.get("target") not in avoid]
    return rng.choice(choices) if choices else None


def _fill(view: dict[str, Any], actions: list[dict[str, Any]], known: dict[int, str], team: set[int],
          rng: Any, hunt_on: bool = True) -> dict[str, Any] | None:
    me = view["viewer"]
    key = actions[0].get("ability") or actions[0]["type"]
    friendly = key in ("cover", "patrol", "kidnap", "militia", "assist") and view["faction"] == MAFIA
    suspects = _ranked(known, team)
    if key in ("cover", "patrol"):
        prefer = sorted(team) if view["faction"] == MAFIA else [me]
        action = _pick(actions, prefer, set(suspects), rng)
    elif friendly:
        action = _pick(actions, sorted(team), set(), rng)
    elif key in ("sniper", "punishment", "arrest", "jury", "informer", "backstab") and suspects:
        action = _pick(actions, suspects, team | {me}, rng)
    else:
        action = _pick(actions, suspects if key in ATTACKS else [], team | {me}, rng)
    if action is None:
        return None
    among = action.get("among")  # the seats a list or a name may pick (legal(): their protections)
    action = {k: v for k, v in action.items() if k not in ("need", "among")}
    target = action.get("target")
    rs = V.RULESETS[view.get("version", "C")]
    for arg in actions[0].get("need", ()):
        if arg == "role":
            pool = list(rs.non_law if key == "jury" else rs.roles)
            if rs.grey_mass and view["index"] == 0:  # Серая масса: not on night 1
                pool = [r for r in pool if r not in ("civilian", "vigilante")]
            if key == "informer" and rs.informer_distinct_roles:  # A: never one role twice
                named = {f["role"] for f in view["knowledge"] if f.get("ability") == "informer"}
                pool = [r for r in pool if r not in named] or pool
            guess = known.get(target)
            action["role"] = guess if guess in pool else rng.choice(pool)
        elif arg == "persona":
            if key == "sabotage":
                action["persona"] = known.get(target) or rng.choice(ROLE_ORDER)
            elif key in ("disguise", "double_life"):
                action["persona"] = "civilian"
            else:
                action["persona"] = rng.choice(("maniac", "boss", "killer"))
        elif arg == "personas":
            if key == "search" and hunt_on and G.in_play(view) and view["role"] != G.GENIUS and rng.random() < 0.6:
                action["personas"] = [G.GENIUS, "traitor"]  # only the Гений's list has both
            else:
                action["personas"] = rng.sample(("boss", "killer", "agent", "maniac"), 2)
        elif arg == "public":
            living = [x for x in range(view["players"]) if view["alive"][x] and x != me and x not in team
                      and (among is None or x in among)]
            pick = rng.choice(living) if living else me
            action["public"] = view["public_roles"][pick]["name"]
        elif arg == "seats":  # Раздача: up to three other living seats
            living = [x for x in range(view["players"]) if view["alive"][x] and x != me
                      and (among is None or x in among)]
            action["seats"] = rng.sample(living, min(3, len(living)))
        elif arg == "bans":
            action["bans"] = [["boss", "interrogation"], ["killer", "pistol"], ["maniac", "assault"]]
        elif arg == "text":
            action["text"] = LETTER_MARK + rng.choice(LETTERS)
    return action


ARSENAL = frozenset(("sniper", "tommygun", "pistol"))  # the Киллер's weapons: an order replaces the others
ATTACKS = frozenset(("pistol", "tommygun", "revolver", "legacy", "assault", "sabotage", "interrogation",
                     "zombify", "mastermind", "own_hands", "informants", "stalking", "search"))


def _card(view: dict[str, Any], actions: list[dict[str, Any]], known: dict[int, str], team: set[int],
          rng: Any) -> dict[str, Any] | None:
    """The Ход: a non-Neutral gets rid of a dangerous hand (3 cards kill), passing to a suspect or
    another non-teammate, or folds; the Джокер builds (Даве) and passes; else now and then a play."""
    me, cards = view["viewer"], view.get("cards", 0)
    by_play: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_play.setdefault(a["play"], []).append(a)
    passes = [a for a in by_play.get("pass", ()) if a["target"] not in team]
    suspects = [a for a in passes if a["target"] in known]
    if view["faction"] != NEUTRAL and cards >= 2:
        if passes and rng.random() < 0.8:
            return dict(rng.choice(suspects or passes))
        return dict(by_play["fold"][0]) if "fold" in by_play else None
    if view["role"] == "joker":
        if passes and (cards >= 2 or rng.random() < 0.5):
            return dict(rng.choice(suspects or passes))
        return dict(by_play["dave"][0]) if "dave" in by_play else None
    play = rng.choice(("bank", "bluff", "whist", "misere", "pass"))
    if play == "pass":
        return dict(rng.choice(passes)) if passes else None
    if play not in by_play:
        return None
    action = {k: v for k, v in by_play[play][0].items() if k != "need"}
    if play == "bluff":
        action["persona"] = "civilian"
    return action


def _mapping(view: dict[str, Any], team: set[int]) -> list[str] | None:
    """Every seat's secret role if the view knows all of them (own, team, results), else None."""
    roles: dict[int, str] = {view["viewer"]: view["role"]}
    for t in view.get("team", ()):
        roles[t["seat"]] = t["role"]
    for fact in view["knowledge"]:
        if fact["key"] in ("mafia.autopsy", "mafia.fate", "mafia.dead_role") or (
                fact["key"] == "mafia.guess" and fact["correct"]):
            roles[fact["target_seat"]] = fact["role"]
        elif fact["key"] == "mafia.croupier":
            roles.update((r["seat"], r["role"]) for r in fact["roles"])
    if len(roles) < view["players"]:
        return None
    return [roles[x] for x in range(view["players"])]


def _vote(view: dict[str, Any], actions: list[dict[str, Any]], known: dict[int, str], team: set[int],
          rng: Any) -> dict[str, Any]:
    me = view["viewer"]
    if view["players"] < BIG_TABLE and getattr(known, "mark", None) is not None:
        known = _Known(known, first=known.first)  # small table: no bloc vote (see BIG_TABLE)
    suspects = _ranked(known, team)
    action = _pick(actions, suspects, team | {me}, rng) or actions[0]
    return dict(action)


# ---------------------------------------------------------------------------------- public roles

# Public-role abilities a bot uses now and then: key -> (chance per call, target: "foe" a suspect
# or anyone not on the team, "friend" a teammate or self, "any").
PUBLIC_USE = {
    "indictment": (0.3, "foe"), "detention": (0.3, "foe"), "binge": (0.4, "foe"), "beer": (0.4, "friend"),
    "fake_beer": (0.1, "foe"), "reportage": (0.2, "foe"), "diversion": (0.3, "foe"), "cooking": (0.4, "foe"),
    "accusation": (0.2, "friend"), "raid": (0.3, "foe"), "riot": (0.4, "foe"), "hack": (0.8, "foe"),
    "seance": (0.2, "any"), "aura": (0.2, "any"), "acquittal": (0.15, "any"), "open_vote": (0.5, "any"),
    "compromise": (0.4, "any"), "abuse": (0.3, "any"), "labour_exchange": (0.1, "any"),
    "somersault": (0.15, "any"), "graverobbing": (0.5, "any"), "exhumation": (0.3, "any"),
}


def _public(view: dict[str, Any], options: dict[str, list[dict[str, Any]]], done: set, known: dict[int, str],
            team: set[int], rng: Any) -> dict[str, Any] | None:
    me = view["viewer"]
    for key, (chance, aim) in PUBLIC_USE.items():
        if key in done or key not in options or rng.random() >= chance:
            continue
        actions = options[key]
        suspects = _ranked(known, team)
        if aim == "foe":
            action = _pick(actions, suspects, team | {me}, rng)
        elif aim == "friend":
            action = _pick(actions, [me] + sorted(team), set(suspects), rng)
        else:
            action = rng.choice(actions)
        if action is None:
            continue
        action = {k: v for k, v in action.items() if k != "need"}
        if "public" in actions[0].get("need", ()):  # Биржа труда: a listed role nobody holds
            from .public_roles import PUBLIC_ORDER
            held = {p["key"] for p in view["public_roles"]}
            free = [k for k in PUBLIC_ORDER if k not in held]
            if not free:
                continue
            action["public"] = rng.choice(free)
        return action
    return None
