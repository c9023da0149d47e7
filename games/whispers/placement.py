"""«Шептуны»: the placement and its three rules (seed 002; ../shared/rules/whispers.md §1.5).

1. Never on yourself, and a player *must* place while another player can take the card.
2. Never on a player who already has two cards in front of them.
3. A player who finds no legal target returns the card(s) in hand and the cards placed on them
   (all, or the last placed with ``return_rule=one``); those cards do not count this round.

Rule 3 comes in two revisions (the table pins one in its options as ``rules_rev``, so a game
logged before the revision replays as it was played):

* revision 1 (issue 13): nobody may place on a player who has returned, so whoever still held a
  card after them found no target either and returned too, their own placed cards with it;
* revision 2 (whispers.md, Decision of 2026-12-01): rule 3 is about the one player who is stuck.
  A player who returned still receives cards from those who place after them (rule 1 obliges
  them), and those cards count at the reveal like any other; only the cards that lay in front of
  them when they returned do not.

This module holds the rules only: it changes the state and appends events; the engine decides
what the game awaits next and runs the reveal.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base import Audience, Event, RuleError

if TYPE_CHECKING:
    from .engine import WhispersState

RULES_REVISIONS = (1, 2)
RULES_REV = 2  # the revision a new table plays

EVERYONE = Audience.everyone()
_ONLY = [Audience.only(seat) for seat in range(12)]


def clockwise(s: "WhispersState", seat: int) -> list[int]:
    """Every other seat, clockwise from ``seat``'s left."""
    n = s.players
    return [x % n for x in range(seat + 1, seat + n)]


def targets(s: "WhispersState", seat: int) -> list[int]:
    """Where ``seat`` may place a card: another active player with fewer than 2 cards in front
    (revision 1: and who has not returned)."""
    defeated, placed = s.defeated, s.placed
    closed = s.returned if s.rules_rev < 2 else [False] * s.players
    return [t for t in clockwise(s, seat) if not defeated[t] and not closed[t] and len(placed[t]) < 2]


def check_target(s: "WhispersState", seat: int, target: Any) -> int:
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < s.players:
        raise RuleError("whispers.error.bad_target")
    if target == seat:
        raise RuleError("whispers.error.self_target")  # rule 1
    if s.defeated[target]:
        raise RuleError("whispers.error.target_defeated")
    if s.returned[target] and s.rules_rev < 2:
        raise RuleError("whispers.error.target_returned")  # rule 3, revision 1
    if len(s.placed[target]) >= 2:
        raise RuleError("whispers.error.target_full")  # rule 2
    return target


def place(s: "WhispersState", seat: int, card: int, target: int, events: list[Event]) -> None:
    s.hands[seat].remove(card)
    s.placed[target].append([seat, card])
    s.placements.append([seat, target, card])
    events.append(Event(EVERYONE, "whispers.placed", {"seat": seat, "target_seat": target}))
    events.append(Event(_ONLY[seat], "whispers.you_placed", {"card": card, "target_seat": target}))
    s.step += 1


def next_placer(s: "WhispersState", events: list[Event]) -> int | None:
    """The seat to place next (two laps from the dealer over active players with cards), after
    the automatic returns of rule 3 on the way; None once every card is placed or returned."""
    order = s.order
    n = len(order)
    while s.step < 2 * n:
        seat = order[s.step % n]
        if s.hands[seat] and not s.returned[seat]:
            if targets(s, seat):
                s.lap = s.step // n + 1
                return seat
            return_cards(s, seat, events)
        s.step += 1
    return None


def return_cards(s: "WhispersState", seat: int, events: list[Event]) -> None:
    """Rule 3: the card(s) in hand go back to the centre, and the cards placed on this player
    (all, or the last placed with return_rule=one). With ``return_rule=one`` the card left lies
    on, counts for rule 2 and goes to the centre face down at the reveal (``voided``)."""
    s.discard.extend(s.hands[seat])
    s.hands[seat] = []
    placed = s.placed[seat]
    back = placed[-1:] if s.return_one else list(placed)
    del placed[len(placed) - len(back):]
    s.discard.extend(rank for _, rank in back)
    s.returned[seat] = True
    s.voided[seat] = len(placed)
    # Revision 2: whoever still holds a card must now place it here (the only seat with room,
    # since this player was stuck), and it counts; the players are told so.
    later = s.rules_rev >= 2 and any(s.hands[t] for t in s.order if t != seat)
    key = "whispers.returned_open" if later else "whispers.returned"
    events.append(Event(EVERYONE, key, {"seat": seat, "n": len(back)}))


def counted_cards(s: "WhispersState", seat: int) -> list[list[int]]:
    """At the reveal, the cards in front of ``seat`` that count: for a player who returned, the
    cards that lay there at the return go to the centre face down (nobody learns the rank of a
    card whose placer is known), and only those placed after it count (revision 2; none in
    revision 1, where nobody may place after a return)."""
    placed = s.placed[seat]
    if s.returned[seat]:
        void = s.voided[seat]
        s.discard.extend(rank for _, rank in placed[:void])
        del placed[:void]
        s.voided[seat] = 0
    return placed
