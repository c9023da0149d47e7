"""How each seat ended a finished game, for statistics and ratings (world/ratings.py): its side
or team, its role, and its place. Pure: read from the engine's final state, never from text.

Each game says it in its own ``games/<game>/standing.py`` (``standing(state)``); this module
holds the shape and finds the function for a game's name.

* ``side``: what the statistics count by (a Mafia faction, a «Шептуны» side); None in a
  free-for-all.
* ``team``: the seats rated together (a win moves every member). Seats of one side usually; a
  side of lone players (Mafia's neutrals: the Маньяк and the Гений each play for themselves)
  gives each its own team. None in a free-for-all: every seat rates alone.
* ``role``: a finer label for the statistics (a Mafia role), or None.
* ``rank``: the place, 0 the best; equal ranks tie.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .seat_standing import SeatStanding


def _functions() -> dict[str, Callable[[Any, Sequence[int]], list[SeatStanding]]]:
    from .bids import standing as bids
    from .coup import standing as coup
    from .mafia import standing as mafia
    from .revolution import standing as revolution
    from .whispers import standing as whispers
    return {"bids": bids.standing, "coup": coup.standing, "mafia": mafia.standing,
            "revolution": revolution.standing, "whispers": whispers.standing}


def standing_of(game: str, state: Any, winners: Sequence[int]) -> list[SeatStanding] | None:
    """Each seat's standing in a finished ``game`` won by the seats ``winners`` (the engine's
    outcome); None for a game that does not say."""
    function = _functions().get(game)
    return None if function is None else function(state, winners)


__all__ = ["SeatStanding", "standing_of"]
