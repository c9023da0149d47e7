"""Forum Mafia bots: any secret role, played legally with simple sense, from the seat's view only.

A bot gives one order per call: the first ability of its role's plan that it has not ordered yet
in this phase and that ``legal`` offers, with a target and arguments chosen from what the view
knows (teammates, results learned so far); when nothing is left it says ``ready``. The Mafia
never attack a teammate; investigators follow up on what they learned (a suspect's persona is
the role guessed for Снайпер/Кара/Арест/Суд/Информатор, and the suspect is shot and voted
against); everyone votes. Pure: the same view, legal and RNG state give the same action.
"""
from __future__ import annotations

from typing import Any

from .roles import LAW, MAFIA, NEUTRAL, NON_LAW, ROLE_FACTION, ROLE_ORDER

STRICT = False  # tests: raise instead of falling back to "ready"
READY = {"type": "ready"}
EVIL_FOR = {MAFIA: {LAW, NEUTRAL}, LAW: {MAFIA, NEUTRAL}, NEUTRAL: {MAFIA, LAW}}

# The abilities a bot of each role tries at night, in order (common ones come after).
NIGHT_PLAN = {
    "boss": ("interrogation", "mastermind", "legacy", "sawnoff"),
    "killer": ("sniper", "tommygun", "pistol", "autopsy"),
    "agent": ("cover", "sabotage", "slander", "disguise"),
    "officer": ("revolver", "militia"),
    "forensic": ("search", "autopsy"),
    "policeman": ("arrest", "interrogation", "ban"),
    "vigilante": ("punishment", "patrol", "informants"),
    "civilian": ("jury", "own_hands"),
    "maniac": ("assault", "stalking", "bloodbath", "double_life"),
    "genius": ("kidnap", "informer", "zombify", "disinformation", "bribe", "propaganda"),
}
DAY_PLAN = {"civilian": ("assist",), "maniac": ("double_life",)}
COMMON_NIGHT = ("revolver", "paranoia", "healing", "mail")


def bot_action(view: dict[str, Any], legal: list[dict[str, Any]], rng: Any, level: str = "easy") -> dict[str, Any]:
    try:
        return _choose(view, legal, rng)
    except Exception:
        if STRICT:
            raise
        return dict(READY) if READY in legal else dict(legal[0])


def _choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
    me = view["viewer"]
    options: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        key = action.get("ability") if action["type"] == "order" else action["type"]
        if action["type"] in ("order", "vote", "mail"):
            options.setdefault(key, []).append(action)
    orders = view["orders"]
    team = {t["seat"] for t in view.get("team", ())}
    known = _suspects(view, team)
    done = set(orders)
    if view["phase"] == "day":
        for key in DAY_PLAN.get(view["role"], ()):
            if key not in done and key in options and rng.random() < 0.5:
                return _fill(view, options[key], known, team, rng)
        if "vote" not in done and "vote" in options:
            return _vote(view, options["vote"], known, team, rng)
    elif view["phase"] == "night":
        plan = NIGHT_PLAN[view["role"]] + COMMON_NIGHT
        for key in plan:
            if key in done or key not in options:
                continue
            if not _wants(view, key, known, rng):
                done.add(key)
                continue
            action = _fill(view, options[key], known, team, rng)
            if action is not None:
                return action
    return dict(READY) if READY in legal else dict(legal[0])


def _suspects(view: dict[str, Any], team: set[int]) -> dict[int, str]:
    """Seats the bot has learned something against: seat -> a role of the other side it showed."""
    mine = view["faction"]
    bad = EVIL_FOR[mine]
    out: dict[int, str] = {}
    alive = view["alive"]
    for fact in view["knowledge"]:
        t = fact.get("target_seat")
        if t is None or not alive[t] or t in team or t == view["viewer"]:
            continue
        roles = []
        if fact["key"] == "mafia.personas":
            roles = [p for p in fact["personas"] if p in ROLE_FACTION and ROLE_FACTION[p] in bad]
        elif fact["key"] == "mafia.guess" and fact["correct"] and ROLE_FACTION[fact["role"]] in bad:
            roles = [fact["role"]]
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
    if key in ("sniper", "punishment", "arrest", "jury"):
        return bool(known)
    if key in ("tommygun",):
        return rng.random() < 0.3
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
          rng: Any) -> dict[str, Any] | None:
    me = view["viewer"]
    key = actions[0].get("ability") or actions[0]["type"]
    friendly = key in ("cover", "patrol", "kidnap", "militia", "assist") and view["faction"] == MAFIA
    suspects = [t for t in sorted(known) if t not in team]
    if key in ("cover", "patrol"):
        prefer = sorted(team) if view["faction"] == MAFIA else [me]
        action = _pick(actions, prefer, set(suspects), rng)
    elif friendly:
        action = _pick(actions, sorted(team), set(), rng)
    elif key in ("sniper", "punishment", "arrest", "jury", "informer") and suspects:
        action = _pick(actions, suspects, team | {me}, rng)
    else:
        action = _pick(actions, suspects if key in ATTACKS else [], team | {me}, rng)
    if action is None:
        return None
    action = {k: v for k, v in action.items() if k != "need"}
    target = action.get("target")
    for arg in actions[0].get("need", ()):
        if arg == "role":
            guess = known.get(target)
            if key == "jury":
                action["role"] = guess if guess in NON_LAW else rng.choice(NON_LAW)
            else:
                action["role"] = guess or rng.choice(ROLE_ORDER)
        elif arg == "persona":
            if key == "sabotage":
                action["persona"] = known.get(target) or rng.choice(ROLE_ORDER)
            elif key in ("disguise", "double_life"):
                action["persona"] = "civilian"
            else:
                action["persona"] = rng.choice(("maniac", "boss", "killer"))
        elif arg == "personas":
            action["personas"] = rng.sample(("boss", "killer", "agent", "maniac"), 2)
        elif arg == "public":
            living = [x for x in range(view["players"]) if view["alive"][x] and x != me and x not in team]
            pick = rng.choice(living) if living else me
            action["public"] = view["public_roles"][pick]["name"]
        elif arg == "bans":
            action["bans"] = [["boss", "interrogation"], ["killer", "pistol"], ["maniac", "assault"]]
        elif arg == "text":
            action["text"] = rng.choice(("Берегись.", "Я знаю, кто ты.", "Город не спит."))
    return action


ATTACKS = frozenset(("pistol", "tommygun", "revolver", "legacy", "assault", "sabotage", "interrogation",
                     "zombify", "mastermind", "own_hands", "informants", "stalking", "search"))


def _vote(view: dict[str, Any], actions: list[dict[str, Any]], known: dict[int, str], team: set[int],
          rng: Any) -> dict[str, Any]:
    me = view["viewer"]
    suspects = [t for t in sorted(known) if t not in team]
    action = _pick(actions, suspects, team | {me}, rng) or actions[0]
    return dict(action)
