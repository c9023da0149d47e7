"""The shape of a seat's standing at the end of a game (games/standing.py says what it means),
and the two common ways to rank: the winners first, or by score."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatStanding:
    rank: int
    side: str | None = None
    team: str | None = None
    role: str | None = None


def winner_first(players: int, winners: Sequence[int]) -> list[SeatStanding]:
    """The winners first, every other seat tied behind them."""
    won = set(winners)
    return [SeatStanding(0 if seat in won else 1) for seat in range(players)]


def ranked(scores: Sequence[int | float]) -> list[SeatStanding]:
    """Places by score, the highest first; equal scores tie (dense ranks)."""
    order = sorted(set(scores), reverse=True)
    return [SeatStanding(order.index(score)) for score in scores]


__all__ = ["SeatStanding", "winner_first", "ranked"]
