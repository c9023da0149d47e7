"""Which games exist. Adding a game: make games/<name>/, then add it here."""
from __future__ import annotations

from .base import GameEngine


def all_games() -> dict[str, GameEngine]:
    from .bids import GAME as bids
    from .coup import GAME as coup
    from .mafia import GAME as mafia
    from .revolution import GAME as revolution
    from .whispers import GAME as whispers

    return {g.name: g for g in (bids, coup, whispers, mafia, revolution)}


def get(name: str) -> GameEngine | None:
    return all_games().get(name)
