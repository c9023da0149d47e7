"""Bots against the Злой Гений (issue 14): which seat a bot suspects of being the Гений, from its
own seat's view only.

The Гений's plans are secret, but how they grow is in the rules everyone knows: one plan at the
end of every night, more for a Пропаганда that saved the day's leader (public: the vote result
says «spared»), and DDD wins at ``ddd`` plans. So every bot can bound the plans of a living Гений
from below and knows how urgent the hunt is. Who the Гений is comes from what the seat itself
learned: personas its probes drew (the Гений's list has the «traitor» persona only the Криминалист
shares, and «genius», which Мафия's killer and the Маньяк lack), a Криминалист's search counts,
role guesses and dossiers. Each fact weighs the Гений against the other roles the table's size
deals (public: versions.deal) by how likely that fact is for each (a Bayes factor); seats start
equal. Nothing here reads state the seat could not know: the input is ``view`` alone.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import versions as V

GENIUS = "genius"
SOLO = (GENIUS, "maniac")  # neutral roles that win alone, hunted by everyone else
SLACK = 0.05  # a persona a role's list lacks may still show (Маскировка, Дезинформация, Двойная жизнь)
# Hunt a seat whose odds are EVIDENCE times an even share; once a living Гений may be URGENT plans
# or fewer from DDD, the seat that leads the odds by URGENT_EVIDENCE will do (bench/mafia_balance.py:
# these values took the Гений from 70% to about a third of fifteen-seat games).
EVIDENCE = 2.5
URGENT_EVIDENCE = 1.1
URGENT = 4


@lru_cache(maxsize=None)
def _dealt(version: str, players: int) -> tuple[str, ...]:
    return tuple(V.deal(version, players))


def in_play(view: dict[str, Any], role: str = GENIUS) -> bool:
    """Does this table's size deal ``role`` (public: the deal follows the player count)?"""
    return role in _dealt(view.get("version", "C"), view["players"])


def plans_floor(view: dict[str, Any]) -> int:
    """The fewest plans a living Гений can have now: one per finished night (Хитрый план), plus a
    Пропаганда that spared the last vote's leader."""
    rs = V.RULESETS[view.get("version", "C")]
    nights = (view["index"] + 1) // 2  # index 0 is night 1, 1 is day 1, ...
    last = view.get("last_vote") or {}
    return nights + (rs.propaganda_plans if last.get("fate") == "spared" else 0)


def _others(version: str, players: int, role: str) -> list[str]:
    """The roles this table deals besides ``role``, once per copy."""
    roles = list(_dealt(version, players))
    roles.remove(role)
    return roles


def _share(rs: V.Ruleset, role: str, persona: str) -> float:
    names = rs.personas[role]
    return max(SLACK, names.count(persona) / len(names)) if names else SLACK


@lru_cache(maxsize=None)
def _persona_factor(version: str, players: int, role: str, persona: str) -> float:
    """A drawn ``persona``: how much likelier from ``role`` than from the deal's other roles."""
    rs = V.RULESETS[version]
    others = _others(version, players, role)
    return _share(rs, role, persona) / (sum(_share(rs, r, persona) for r in others) / len(others))


@lru_cache(maxsize=None)
def _search_factor(version: str, players: int, role: str, names: tuple[str, ...], counted: bool,
                   result: int) -> float:
    """A search for ``names`` that counted ``result`` of them (or found some: result 1, none: 0)."""
    rs = V.RULESETS[version]

    def fits(r: str) -> float:
        n = sum(1 for name in names if name in rs.personas[r])
        return 1.0 if (n if counted else int(n > 0)) == result else SLACK
    others = _others(version, players, role)
    return fits(role) / (sum(fits(r) for r in others) / len(others))


def _factor(view: dict[str, Any], fact: dict[str, Any], role: str) -> float | None:
    """How much likelier ``fact`` is if its target holds ``role`` than if it holds another role of
    the deal; 0, or None (no bearing)."""
    version, players = view.get("version", "C"), view["players"]
    key = fact["key"]
    if key == "mafia.personas":
        factor = 1.0
        for p in fact["personas"]:
            factor *= _persona_factor(version, players, role, p)
        return factor
    if key == "mafia.search":
        counted = "count" in fact
        result = fact["count"] if counted else int(bool(fact["found"]))
        return _search_factor(version, players, role, tuple(fact["personas"]), counted, result)
    if key in ("mafia.guess", "mafia.dossier") and "role" in fact:
        correct = fact.get("correct", True)
        if fact["role"] == role:
            return float("inf") if correct else 0.0
        return 0.0 if correct else None
    return None


RESULTS = frozenset(("mafia.personas", "mafia.search", "mafia.guess", "mafia.dossier"))  # facts weighed


def _facts(view: dict[str, Any], team: set[int]) -> tuple[list[int], list[dict[str, Any]]]:
    """The candidates (living seats other than the bot and its known team) and the results
    learned about them."""
    me = view["viewer"]
    alive = view["alive"]
    candidates = [x for x in range(view["players"]) if alive[x] and x != me and x not in team]
    facts = [f for f in view["knowledge"] if f["key"] in RESULTS and f.get("target_seat") is not None
             and alive[f["target_seat"]] and f["target_seat"] != me and f["target_seat"] not in team]
    return candidates, facts


def _weights(view: dict[str, Any], facts: list[dict[str, Any]], role: str) -> dict[int, float]:
    """The weight of each candidate a fact bears on (the others weigh 1)."""
    weight: dict[int, float] = {}
    for fact in facts:
        f = _factor(view, fact, role)
        if f is not None:
            t = fact["target_seat"]
            weight[t] = 1e9 if f == float("inf") else weight.get(t, 1.0) * f
    return weight


def odds(view: dict[str, Any], team: set[int], role: str = GENIUS) -> dict[int, float]:
    """Per living seat other than the bot and its known team: the chance (as this seat can
    judge) that it holds ``role`` (the table deals one), the chances adding up to 1."""
    candidates, facts = _facts(view, team)
    weight = _weights(view, facts, role)
    total = sum(weight.get(x, 1.0) for x in candidates)
    return {x: weight.get(x, 1.0) / total for x in candidates} if total > 0 else {}


def hunted(view: dict[str, Any], team: set[int]) -> tuple[int, str] | None:
    """The seat this bot hunts first (votes, shots, arrests) and the role it suspects, or None:
    the Злой Гений, when the table deals one, the bot is not it, and its evidence picks one seat
    out clearly enough for how close DDD may be; else the Маньяк (who wins as the last one
    standing) on clear evidence. A bot never hunts its own role."""
    candidates, facts = _facts(view, team)
    if not facts or len(candidates) < 2:
        return None  # nothing learned: every seat is as likely as the next
    rs = V.RULESETS[view.get("version", "C")]
    best: tuple[float, int, str] | None = None
    for role in SOLO:
        if view.get("role") == role or not in_play(view, role):
            continue
        weight = _weights(view, facts, role)
        total = sum(weight.values()) + len(candidates) - len(weight)
        top = max(weight.get(x, 1.0) for x in candidates)
        if total <= 0 or top <= 0:
            continue
        seat = next(x for x in candidates if weight.get(x, 1.0) == top)  # the lowest seat of the best
        ratio = top * len(candidates) / total  # against an even share
        urgent = role == GENIUS and plans_floor(view) >= rs.ddd - URGENT
        if ratio >= (URGENT_EVIDENCE if urgent else EVIDENCE) and (best is None or ratio > best[0]):
            best = (ratio, seat, role)
    return (best[1], best[2]) if best else None
