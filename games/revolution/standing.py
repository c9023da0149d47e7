"""«Революция»'s standing at the end (games/standing.py): a free-for-all. The winner first; the
others by the level they reached (a higher level came nearer to winning), equal levels tied."""
from __future__ import annotations

from collections.abc import Sequence

from ..seat_standing import SeatStanding, ranked


def standing(state, winners: Sequence[int]) -> list[SeatStanding]:
    top = max(state.levels) + 1
    return ranked([top if seat in winners else level for seat, level in enumerate(state.levels)])
