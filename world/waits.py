"""Waits as the people at a table may know them.

:class:`WaitsAsSeen`: whom each viewer may see the game waiting for, without the secret answers.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.base import MASTER


@dataclass
class _Seen:
    view: str  # the viewer's view at the last step
    windows: frozenset[str]  # the engine's windows then: a new set is a new wait
    shown: frozenset[int]  # whom this viewer sees awaited
    done: set[int] = field(default_factory=set)  # left the wait unseen: still shown
    new: set[int] = field(default_factory=set)  # joined the wait unseen: not shown yet


class WaitsAsSeen:
    """Whom each viewer may see the game waiting for ("(думает)", "Ждём: ...").

    ``awaiting()`` is the truth, and part of it can be secret: a Coup challenge queued behind a
    seat with priority (challenge_order=seat) takes its seat out of the wait with no word to the
    others; so does a Mafia `ready`. A seat that leaves the wait at a step that changed nothing
    in a viewer's view did something that viewer may not know of: for that viewer it stays
    awaited until the wait ends (the engine's set of window names changes). A seat that joins
    the wait at such a step is not shown until then either. A viewer always sees itself as it is.
    Viewers are seat numbers and SPECTATOR; the Master sees the truth.
    """

    def __init__(self) -> None:
        self.seen: dict[int, _Seen] = {}

    def update(self, viewer: int, view: str, awaited: frozenset[int], windows: frozenset[str]) -> None:
        """After a step: ``view`` is the viewer's view now (``view_key``)."""
        seen = self.seen.get(viewer)
        if seen is None or seen.windows != windows:
            self.seen[viewer] = _Seen(view, windows, awaited)
            return
        if seen.view == view:  # nothing this viewer could see: who left or came is not its news
            seen.done |= seen.shown - awaited - {viewer}
            seen.new |= awaited - seen.shown - {viewer}
        seen.view = view
        seen.shown = frozenset((awaited | seen.done) - seen.new)

    def awaited(self, viewer: int, awaited: frozenset[int]) -> set[int]:
        seen = self.seen.get(viewer)
        if viewer == MASTER or seen is None:
            return set(awaited)
        shown = set(seen.shown - {viewer})
        if viewer in awaited:
            shown.add(viewer)
        return shown
