"""Coup («Переворот»): the bluffing game of influence. Rules and contract: docs/coup-protocol.md."""
from ..compiled import prefer_current

# setup.py compiles these two (bench/coup_bench.py's target needs it); run their sources when the
# compiled copies are missing or older than the sources. The bots first: the engine imports them.
prefer_current(__name__, ["bot", "engine"])

from .engine import GAME, Coup, CoupState  # noqa: E402

__all__ = ["GAME", "Coup", "CoupState"]
