"""Mafia's standing at the end (games/standing.py): the factions are the teams. The Мафия and
the Закон each win or lose together; a neutral (the Маньяк, the Гений) plays for itself, so each
is a team of one. Winners (the outcome's seats) first, everyone else tied behind."""
from __future__ import annotations

from collections.abc import Sequence

from ..seat_standing import SeatStanding
from .roles import NEUTRAL


def standing(state, winners: Sequence[int]) -> list[SeatStanding]:
    won = set(winners)
    out = []
    for seat in range(state.players):
        faction = state.faction(seat)
        team = f"{faction}:{seat}" if faction == NEUTRAL else faction
        out.append(SeatStanding(0 if seat in won else 1, side=faction, team=team, role=state.roles[seat]))
    return out
