"""Coup («Переворот»): the bluffing game of influence. Rules and contract: docs/coup-protocol.md."""
from .engine import GAME, Coup, CoupState

__all__ = ["GAME", "Coup", "CoupState"]
