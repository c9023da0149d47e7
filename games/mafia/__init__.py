"""Forum Mafia with a Мастер (seed 004; rulesets A, B, C). Rules and contract: docs/mafia-protocol.md."""
from .engine import GAME, Mafia, MafiaState

__all__ = ["GAME", "Mafia", "MafiaState"]
