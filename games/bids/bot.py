"""Bots for Sealed Bids. A bot sees exactly what a player in its seat would see: the view and the
list of legal actions. It never touches the state, so it cannot cheat.

Levels:
* ``easy``: a random card from the hand.
* ``normal``: a card that matches the prize. Prizes run from 1 to ``rounds * 2``; a prize near the
  top of that range gets a card near the top of the hand, a small prize a small card. It only folds
  when it has no card to bid.
"""
from __future__ import annotations

from typing import Any

Action = dict[str, Any]


def bot_action(view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
    if not legal:
        raise ValueError("bot asked to move with no legal action")
    cards = sorted(a["card"] for a in legal if a.get("type") == "bid")
    if not cards:
        return legal[0]  # nothing to bid: the only thing left is to fold
    if level == "easy":
        card = rng.choice(cards)
    else:
        card = cards[_matching_index(view.get("prize"), view.get("rounds"), len(cards))]
    return {"type": "bid", "card": card}


def _matching_index(prize: int | None, rounds: int | None, hand_size: int) -> int:
    """Where in a sorted hand of ``hand_size`` cards the prize sits, on the same relative scale."""
    if not prize or not rounds or hand_size == 1:
        return 0
    top = 2 * rounds  # the largest prize in the row
    share = (prize - 1) / (top - 1)  # 0.0 for the smallest prize, 1.0 for the largest
    return round(share * (hand_size - 1))
