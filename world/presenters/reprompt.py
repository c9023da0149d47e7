"""When a seat's prompt (its hand and what it may type) is said again after a change (issue 14:
re-prompt a player only when their options changed).

A game's status keeps, per viewer, the prompt it last said in full and the window it was said in
(``Prompted``). The prompt is said in full again only when it would say something new: the
window is another one, or what the seat may do in it changed. A seat asked again in the same
window with the same choices (a «Революция» fight reopened by a card someone played after the
seat had passed) gets one short line, not its hand and prompt again; a seat still asked gets
nothing more (the event said what happened). The clock is no part of either: a countdown is not
a change of options.
"""
from __future__ import annotations

from typing import Any

FULL = "full"  # the hand and the prompt
AGAIN = "again"  # one short line: asked again, the same choices

# (the window, the prompt's choices) as last said in full; None: not said in this window
Prompted = tuple[Any, Any] | None


def prompt_due(prompted: Prompted, window: Any, choices: Any, mine: bool,
               was_mine: bool) -> tuple[str | None, Prompted]:
    """(FULL, AGAIN or None: what to say now, what to remember as said). ``mine``: the seat is
    asked now; ``was_mine``: it was asked at its last status."""
    if not mine:  # kept while the window lasts: a seat asked again in it has seen its choices
        return None, prompted if prompted is not None and prompted[0] == window else None
    if prompted != (window, choices):
        return FULL, (window, choices)
    return (None if was_mine else AGAIN), prompted
