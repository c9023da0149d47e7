"""Coup's standing at the end (games/standing.py): a free-for-all, the last one standing first
and everyone else tied behind (the state keeps no order in which the others fell)."""
from __future__ import annotations

from collections.abc import Sequence

from ..seat_standing import SeatStanding, winner_first


def standing(state, winners: Sequence[int]) -> list[SeatStanding]:
    return winner_first(state.players, winners)
