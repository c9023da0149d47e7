"""The game words a page needs to draw buttons and cards in the player's language: sent once per
game and language as a ``{"words": ...}`` frame (docs/web.md), read from the same catalogs as
every text line, so the page holds no word of its own.

(What a button types comes with each question: GMCP Awaiting's ``lines``,
commands/games/answers.py.)

* ``role``, ``card``, ``action``: the game's names of its roles, cards and actions
  (``GAME.role.KEY``...), for the labels of the hand and of the buttons.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from world.i18n import catalog, strip_marks

KINDS = ("role", "card", "action")


@lru_cache(maxsize=64)
def game_words(game: str, lang: str) -> dict[str, Any]:
    book = catalog(lang)
    out: dict[str, Any] = {"game": game}
    for kind in KINDS:
        prefix = f"{game}.{kind}."
        out[kind] = {key[len(prefix):]: strip_marks(value) for key, value in book.items()
                     if key.startswith(prefix) and isinstance(value, str) and "." not in key[len(prefix):]}
    return out
