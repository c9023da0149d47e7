"""A table's options in the reader's language: their names as typed at `open` in any of the three
languages (`открыть переворот ход=30` is `turn=30`), and as shown in table lists (`ход=30`,
`шёпот=нет`: never a Python True/False).

The names are the catalogs' ``option.<key>`` strings; the keys are the game's own (its
``default_options``) and the server's (``seats``, ``master``). A name is read with case and ё
folded and ``-`` or a space taken as ``_`` («явные-роли»). Values are the games' business: each
engine reads its own words (yes/да/так, advisor/советник...).
"""
from __future__ import annotations

import difflib
from typing import Any

from . import i18n
from .i18n import nested, nested_list

# Options the server reads for every game (world/tables.py), beside each game's own.
SERVER_OPTIONS = ("seats", "master")
# Older or other names a game still reads for one of its options.
EXTRA_KEYS = {"mafia": ("ruleset",)}


def option_keys(engine: Any) -> list[str]:
    game = getattr(engine, "name", "")
    return [*getattr(engine, "default_options", {}), *EXTRA_KEYS.get(game, ()), *SERVER_OPTIONS]


def _fold(word: str) -> str:
    return word.strip().casefold().replace("ё", "е").replace("-", "_").replace(" ", "_")


def _names(engine: Any) -> dict[str, str]:
    """Every accepted spelling of the game's option names (folded) -> the option's key."""
    out: dict[str, str] = {}
    for key in option_keys(engine):
        out[_fold(key)] = key
        for lang in i18n.LANGUAGES:
            name = i18n.catalog(lang).get(f"option.{key}")
            if isinstance(name, str):
                out.setdefault(_fold(name), key)
    return out


def resolve(engine: Any, typed: str) -> tuple[str | None, list[str]]:
    """The option key a typed name means, or (None, the keys of the names closest to it in any
    of the three languages) for a name the game does not have (a typo: `ходд` -> ["turn"])."""
    names = _names(engine)
    key = names.get(_fold(typed))
    if key is not None:
        return key, []
    close = difflib.get_close_matches(_fold(typed), list(names), n=3, cutoff=0.6)
    return None, list(dict.fromkeys(names[name] for name in close))


def name_list(keys: list[str]) -> Any:
    """Option keys as their names in the reader's language, joined by commas."""
    return nested_list([nested(f"option.{key}") if i18n.has(f"option.{key}") else key for key in keys])


def game_list(games: Any) -> Any:
    """The games' names in the reader's language, for a line that lists them (`open` alone, a
    game nobody has)."""
    return nested_list([nested(f"game.{name}") for name in sorted(games)])


def _shown_value(value: Any) -> Any:
    if isinstance(value, bool):
        return nested("option.yes" if value else "option.no")
    return value


def shown(options: dict[str, Any], hidden: tuple[str, ...] = ()) -> Any:
    """The options to show in a table's line, each as «name=value» in the reader's language
    (None for none). Lists and maps (a Mafia sign-up) are the game's business, not a setting to
    show; an unset option (None) is not shown either, nor those the game keeps for itself
    (``hidden``: e.g. the data revision a table started with, which nobody chose)."""
    items = [nested("option.pair", name=nested(f"option.{key}") if i18n.has(f"option.{key}") else key,
                    value=_shown_value(value))
             for key, value in sorted(options.items())
             if value is not None and not isinstance(value, (dict, list)) and key not in hidden]
    return nested_list(items, sep=" ") if items else None


__all__ = ["option_keys", "resolve", "name_list", "game_list", "shown"]
