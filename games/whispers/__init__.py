"""«Шептуны» (The Hunger Games: Jabberjay card game). Rules and contract: docs/whispers-protocol.md."""
from .engine import GAME, Whispers, WhispersState

__all__ = ["GAME", "Whispers", "WhispersState"]
