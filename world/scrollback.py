"""Scrollback: the last public lines of the hall, of each table and of each channel.

Only the commands that speak in public add to it: `say` and `emote` (in the hall, or at a table
for the people at it) and a channel's lines (world/channels.py). Tells, whispers, a game's team
channels and the game's own news never come here, so no scrollback can show them.

The lines live in memory, a ring per place: ``chat.scrollback_lines`` each (config), for at most
:data:`PLACES_KEPT` places (the hall and channels are never dropped; the table that spoke least
recently is), so a server with thousands of tables keeps a bounded amount. A restart starts every
ring empty: the scrollback is for catching up with a conversation, not a log (the log and each
table's action log are the record).
"""
from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterable

from .messages import Msg
from .rooms import HALL

# At most this many places keep a ring (the hall, the channels and the most recently heard tables).
PLACES_KEPT = 1000


def channel_place(channel: str) -> str:
    return f"channel:{channel}"


@dataclass(frozen=True, slots=True)
class Line:
    when: datetime  # UTC
    sender_id: int
    message: Msg  # as the others heard it ("Анна говорит: «…»")


class Scrollback:
    def __init__(self, lines_kept: int) -> None:
        self.lines_kept = max(0, int(lines_kept))
        self._rings: OrderedDict[str, deque[Line]] = OrderedDict()

    def add(self, place: str, sender_id: int, message: Msg) -> None:
        if not self.lines_kept:
            return
        ring = self._rings.get(place)
        if ring is None:
            ring = self._rings[place] = deque(maxlen=self.lines_kept)
        ring.append(Line(datetime.now(timezone.utc), sender_id, message))
        self._rings.move_to_end(place)
        while len(self._rings) > PLACES_KEPT:
            oldest = next(p for p in self._rings if p != HALL and not p.startswith("channel:"))
            del self._rings[oldest]

    def last(self, place: str, count: int, skip_senders: Iterable[int] = ()) -> list[Line]:
        """The newest ``count`` lines of ``place``, oldest first, leaving out ``skip_senders``'
        lines (those the reader ignores: the count is of the lines they see)."""
        skip = set(skip_senders)
        seen = [line for line in self._rings.get(place, ()) if line.sender_id not in skip]
        return seen[-count:] if count > 0 else []
