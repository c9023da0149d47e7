"""The bids demo's standing at the end (games/standing.py): a free-for-all ranked by score."""
from __future__ import annotations

from collections.abc import Sequence

from ..seat_standing import SeatStanding, ranked


def standing(state, winners: Sequence[int]) -> list[SeatStanding]:
    return ranked(state.scores)
