"""Stalemate detection (4.6 #13): two full night+day cycles with no death, no HP change, no status
change and no pending timed effect end the game with no winner (or the Spirit's win).

A pending timed effect is one that will change the game by itself later: a jail term running out,
a revolver shot, a ban lifting, a misère night, a public role's timer. Secret extra votes for a
later day (Суд присяжных, Пропаганда, Вист, Прокурор...) are different: they only add to a tally,
and a tally that kills or jails is already a change. Counted as pending (rules revision 1), they
kept a table alive for ever: a Гражданский bot guessing the hospitalised Маньяк every night set
two votes for the next day, the Маньяк's «Скользкий ублюдок» shed them, nobody died, and the
counter went back to 0 each night (a wire game was still at night 149). From revision 2 they
hold the counter until their day has voted (it neither resets nor advances while they wait), so a
guess still gets its day, and a table where nothing can change ends.
"""
from __future__ import annotations

from typing import Any

from . import public_roles as P
from .roles import LIFE

STALEMATE_PHASES = 4  # two full night+day cycles without change (4.6 #13)
RULES_REVISIONS = (1, 2, 3)
RULES_REV = 3  # what a table starting today pins; 1: extra votes counted as a pending effect;
# 2: the Банк's penalty reaches a Горец on nights 1-2 (cards.py; 3 spares him)


def timed_effects_pending(s: Any) -> bool:
    """Something scheduled that will change the game by itself (extra votes aside)."""
    return any(s.alive[x] and s.jail[x] is not None and s.index < s.jail[x] < LIFE for x in range(s.players)) \
        or any(r is not None and r > s.index for r in s.revolver) \
        or any(k > s.index for b in s.banned for k in b) \
        or any(m is not None and m > s.index for m in s.misere) \
        or P.pending(s)


def votes_waiting(s: Any) -> bool:
    """Secret extra votes set for a day still to come."""
    return any(d > s.index for d in s.extra_votes)


def next_quiet(s: Any, changed: bool) -> int:
    """The stalemate counter after this phase."""
    if changed or timed_effects_pending(s):
        return 0
    if votes_waiting(s):
        return 0 if s.rules_rev < 2 else s.quiet
    return s.quiet + 1
