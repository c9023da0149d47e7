"""Forum Mafia with a Мастер (seed 004, rule version C). Rules and contract: docs/mafia-protocol.md."""
from .engine import GAME, Mafia, MafiaState

__all__ = ["GAME", "Mafia", "MafiaState"]
