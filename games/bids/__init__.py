"""Sealed Bids («Торги»): the demo game. Rules and layout are described in engine.py."""
from .engine import GAME, BidsState, SealedBids

__all__ = ["GAME", "BidsState", "SealedBids"]
