"""«Шептуны»: how the cards revealed in front of a player resolve their status (seed 002,
«Статус игрока»; ../shared/rules/whispers.md §1.3 and §1.5.5; docs/whispers-protocol.md, the
reveal). Ranks are plain ints, so that another rank could be added later (§1.2).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base import Audience, Event
from .placement import counted_cards

if TYPE_CHECKING:
    from .engine import WhispersState

IGNORED, HIDDEN, ACCUSED, EXPOSED, FLED = 1, 2, 3, 4, 5
RANKS = (IGNORED, HIDDEN, ACCUSED, EXPOSED, FLED)
REVEAL_KEYS = ("none", "equal", "higher", "fled_ignored", "unchanged", "defeated")

EVERYONE = Audience.everyone()


def reveal_one(s: "WhispersState", seat: int, events: list[Event]) -> None:
    placed = counted_cards(s, seat)
    prev = s.status[seat]
    if s.returned[seat] and not placed:  # rule 3: nothing counts, the status does not change
        reveal_event(s, seat, "none", [], prev, prev, events)
        return
    if not placed:
        return
    cards = sorted(rank for _, rank in placed)
    s.placed[seat] = []
    discard = s.discard
    kept = cards
    change = ""
    if prev <= HIDDEN and FLED in cards:  # safe: a Fled card does not count
        kept = [c for c in cards if c != FLED]
        discard.extend(c for c in cards if c == FLED)
        if not kept:
            reveal_event(s, seat, "unchanged", cards, prev, prev, events)
            return
        change = "fled_ignored"
    elif FLED in cards:  # vulnerable: defeated
        discard.extend(cards)
        if s.markers[seat] is not None:
            discard.append(s.markers[seat])
        discard.extend(s.hands[seat])
        s.hands[seat] = []
        s.markers[seat] = None
        s.status[seat] = FLED
        s.defeated[seat] = True
        s.revealed[seat] = True
        reveal_event(s, seat, "defeated", cards, FLED, prev, events, side=s.sides[seat])
        return
    new = kept[-1]
    if not change:
        change = "equal" if len(kept) == 2 and kept[0] == kept[1] else "higher"
    discard.extend(kept[:-1])
    if s.markers[seat] is not None:
        discard.append(s.markers[seat])
    s.markers[seat] = new
    s.status[seat] = new
    reveal_event(s, seat, change, cards, new, prev, events)
    if prev == EXPOSED and new == EXPOSED and not s.revealed[seat]:  # Exposed twice in a row
        s.revealed[seat] = True
        events.append(Event(EVERYONE, "whispers.exposed_twice", {"seat": seat, "side": s.sides[seat]}))


def reveal_event(s: "WhispersState", seat: int, change: str, cards: list[int], status: int, prev: int,
                  events: list[Event], side: str | None = None) -> None:
    params: dict[str, Any] = {"seat": seat, "cards": list(cards), "status": status, "prev": prev}
    if side is not None:
        params["side"] = side
    events.append(Event(EVERYONE, "whispers.reveal." + change, params))
    s.last_reveal.append({"seat": seat, "cards": list(cards), "status": status, "change": change})
