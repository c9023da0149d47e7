"""«Шептуны»: the state of one game, plain data (games/whispers/engine.py changes it; placement.py
and status.py read it), and the revisions of rule 3 a table may play."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

RULES_REVISIONS = (1, 2)
RULES_REV = 2  # the revision a new table plays (placement.py)


@dataclass
class WhispersState:
    """Everything about one game. Plain data, so ``copy.deepcopy`` makes an independent game.

    Cards are ranks (ints 1-5). Where every card of the deck is at any moment: ``deck``,
    ``discard``, ``hands``, ``placed`` (cards lying face down in front of a player), ``markers``
    (the status card on a role card; None while the status is the starting Ignored or after a
    defeat) and ``passed_card`` (a card on its way from a defeated Capitol citizen to a swap).
    """

    players: int
    deck_counts: list[int]  # cards of each rank, I..F
    total: int  # the whole deck
    return_one: bool  # return_rule=one
    turn_seconds: int
    max_rounds: int
    rng: random.Random
    sides: list[str]  # per seat: "district" | "capitol" (secret)
    coop: bool = False
    peacekeepers_from: int | None = None
    district_total: int = 0
    capitol_total: int = 0
    # the table
    status: list[int] = field(default_factory=list)  # per seat, public
    markers: list[int | None] = field(default_factory=list)  # per seat, the card under the status
    revealed: list[bool] = field(default_factory=list)  # role card face up (defeated or exposed twice)
    defeated: list[bool] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # draws pop from the end (secret)
    discard: list[int] = field(default_factory=list)  # face down (secret)
    hands: list[list[int]] = field(default_factory=list)  # per seat (secret)
    face_up: list[int | None] = field(default_factory=list)  # dealt face up this round (public)
    placed: list[list[list[int]]] = field(default_factory=list)  # per target: [[placer, rank], ...] (secret)
    returned: list[bool] = field(default_factory=list)  # could not place this round
    voided: list[int] = field(default_factory=list)  # per seat: placed cards that lay there at its return
    rules_rev: int = RULES_REV  # the revision of rule 3 the table plays (placement.py)
    placements: list[list[int]] = field(default_factory=list)  # this round: [placer, target, rank] (secret)
    # the round
    round: int = 1
    dealer: int = 0
    stage: str = "place"  # pass | swap | place | over
    turn: int | None = None  # the awaited seat
    lap: int = 1
    order: list[int] = field(default_factory=list)  # placement order (active seats from the dealer)
    step: int = 0  # placement turns taken or skipped: lap = step // len(order) + 1
    pass_queue: list[int] = field(default_factory=list)  # defeated Capitol seats still to pass
    passer: int | None = None
    passed_card: int | None = None
    last_reveal: list[dict[str, Any]] = field(default_factory=list)
    # the end
    winner: str | None = None  # "district" | "capitol" | "none"
    reason: str | None = None
    win_params: dict[str, Any] = field(default_factory=dict)
    # waits, for unique window names
    wait_no: int = 0
    window: str = ""

    def count_cards(self) -> int:
        """Every card of the game wherever it lies (the conservation check of the contract)."""
        return (len(self.deck) + len(self.discard) + sum(map(len, self.hands))
                + sum(map(len, self.placed)) + sum(m is not None for m in self.markers)
                + (self.passed_card is not None))
