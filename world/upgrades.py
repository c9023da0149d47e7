"""A table started on older code goes on after the server is upgraded.

Two things the code may have changed under a table's stored log (its seed, options and actions):

* **Actions the game no longer asks for.** An older engine may have asked a seat for an answer
  that today's does not ask for at all (e.g. «Революция» once asked every seat in a fight window,
  even one whose only answer was pass). Such a logged action is skipped on replay, as a no-op: the
  engine says which ones (``obsolete(state, seat, action)``; a game without the hook skips
  nothing, so no other game's replay loosens). The action stays in the log and in the step count,
  so step numbers stay those the players saw. One function for every path that replays the log
  (start-up, a rebuild after a failed commit, steps adopted after a storage pause).
* **Data revisions.** A game whose data is tuned (a deck's numbers) pins the revision in the
  table's options when it starts (``start_options``); a table stored without it started before
  pinning and is restored with the revision it played (``restored_options``).
"""
from __future__ import annotations

from typing import Any

from games.base import Event


def apply_logged(engine: Any, game: Any, seat: int, action: Any) -> list[Event] | None:
    """Apply a logged action to ``game``; None (nothing applied) when the game would now not ask
    for it at all. A RuleError from the engine is the caller's (the table cannot be rebuilt)."""
    obsolete = getattr(engine, "obsolete", None)
    if obsolete is not None and obsolete(game, seat, action):
        return None
    return engine.apply(game, seat, action)


def start_options(engine: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The options a table starts with, with the game's data revisions pinned."""
    hook = getattr(engine, "start_options", None)
    return hook(dict(options)) if hook is not None else options


def restored_options(engine: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A stored table's options as it started: the revisions it played, pinned or not."""
    hook = getattr(engine, "restored_options", None)
    return hook(dict(options)) if hook is not None and isinstance(options, dict) else options
