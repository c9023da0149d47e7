"""«Революция» (a Munchkin-like race to level 10 in 1918). Rules and contract: docs/revolution-protocol.md."""
from .engine import GAME, Revolution, RevolutionState

__all__ = ["GAME", "Revolution", "RevolutionState"]
