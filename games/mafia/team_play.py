"""Mafia bots play as a team (issue 14, balance): from the seat's own view, every Mafia bot
computes the same mark, so their attacks land on one seat (two pistol shots kill a 2-HP
character; scattered they only wound) and their votes make one bloc instead of three stray ones.

Real Mafia players agree on a target at night; bots cannot talk, so they share a convention: a
fixed order of the seats, scrambled by something every teammate knows and outsiders do not (the
team's own seats, in ``view["team"]``), and the mark is the first living outsider in it. The
order stays the same all game, so a wounded mark stays the mark until it dies. Nothing here reads
what the seat could not know: the input is ``view`` alone.
"""
from __future__ import annotations

from typing import Any


def mark(view: dict[str, Any]) -> int | None:
    """The seat every Mafia bot of this table goes after now, or None (not Mafia, nobody left)."""
    team = sorted(t["seat"] for t in view.get("team", ()))
    if not team:
        return None
    n = view["players"]
    salt = sum((s + 1) * 97 for s in team) + n
    order = sorted(range(n), key=lambda x: ((x + 1) * 7919 + salt * 31) % 1009)
    alive, jailed = view["alive"], view["jailed"]
    free = [x for x in order if alive[x] and x not in team and not jailed[x]]
    held = [x for x in order if alive[x] and x not in team and jailed[x]]
    return (free or held or [None])[0]
