"""«Шептуны»'s standing at the end (games/standing.py): two sides, «район» and «Капитолий»; the
winning side's seats first, the other side behind. A game nobody won ("none") ties everyone."""
from __future__ import annotations

from collections.abc import Sequence

from ..seat_standing import SeatStanding


def standing(state, winners: Sequence[int]) -> list[SeatStanding]:
    won = set(winners)
    return [SeatStanding(0 if seat in won else 1, side=side, team=side) for seat, side in enumerate(state.sides)]
