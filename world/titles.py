"""Titles players choose for themselves (Mafia's «(Другой)» public role; any later title): folded
like account names, so that no title can pass for a role of the game, a player or the Master.

A title is compared by its *key*: the cleaned text (world.text.clean) in compatibility form
(fullwidth and mathematical letters become plain ones), without accents (й = и, ё = е), folded
like an account name (world.accounts.name_key: case and look-alike letters, 0 = o, 1 = l = i),
with a few more look-alikes a title may use (3 = з, 6 = б, г = r, п = n...), and with everything
but letters and digits left out, so «Д0ктор», «д о к т о р» and «ДОКТОР!» are one key.

A title *looks like* a name when its whole key is that name's key, or when some run of its words
is («Горец 2», «Настоящий Горец», «Бот Вася»). Titles use the scripts of the players' names
(Latin, Cyrillic) with digits, punctuation, symbols and emoji: a Greek or Cherokee letter that
looks like a Latin one is refused instead of being folded.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

import regex

from .accounts import name_key
from .text import clean

# At most this many user-perceived characters: a title shows in every status, vote and list
# line, where account names take at most 20.
TITLE_LIMIT = 32

# Names nobody may take as a title, whichever game: the server's own voice, its staff, its bots.
IMPERSONATED = ("Мастер", "Master", "Майстер", "admin", "админ", "адмін", "administrator",
                "администратор", "адміністратор", "moderator", "модератор", "system", "система",
                "server", "сервер", "bot", "бот")

_MORE_LOOKALIKES = str.maketrans({
    "3": "з", "4": "ч", "6": "б", "8": "b", "5": "s", "$": "s", "@": "a",
    "г": "r", "п": "n", "и": "u", "ь": "b", "ш": "w", "ӏ": "i",
})
_ALLOWED = regex.compile(r"[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]*",
                         regex.V1)
_WORD = regex.compile(r"[\p{L}\p{N}]+", regex.V1)
_GRAPHEME = regex.compile(r"\X", regex.V1)


def _folded(text: str) -> str:
    text = unicodedata.normalize("NFKD", clean(text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return name_key(text).translate(_MORE_LOOKALIKES)


def title_key(text: str) -> str:
    """What ``text`` looks like, for comparing titles and names: see the module's docstring."""
    return "".join(_WORD.findall(_folded(text)))


def _word_runs(text: str) -> set[str]:
    """The keys of every run of consecutive words of ``text``, and of the whole of it."""
    words = _WORD.findall(_folded(text))
    runs = {"".join(words)}
    for i in range(len(words)):
        for j in range(i + 1, len(words) + 1):
            runs.add("".join(words[i:j]))
    runs.discard("")
    return runs


def index(names: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """``{key: shown}`` for (name, shown) pairs, the first pair of a key winning; ``shown`` is what
    a refusal names (the name itself, or a nested message that reads it in the reader's language)."""
    out: dict[str, Any] = {}
    for name, shown in names:
        key = title_key(name)
        if key:
            out.setdefault(key, shown)
    return out


_IMPERSONATED = index((name, name) for name in IMPERSONATED)


def looks_like(title: str, keys: dict[str, Any]) -> Any:
    """What in ``keys`` (an :func:`index`) ``title`` looks like, whole or by a run of its words;
    None if nothing."""
    for run in sorted(_word_runs(title), key=len, reverse=True):
        if run in keys:
            return keys[run]
    return None


def title_problem(title: str, *, roles: dict[str, Any] | None = None, players: Iterable[str] = (),
                  limit: int = TITLE_LIMIT) -> tuple[str, dict[str, Any]] | None:
    """Why ``title`` (already cleaned) may not be taken, as a catalog key and its parameters, or
    None. ``roles``: an :func:`index` of the names of the game's roles; ``players``: the names of
    the other players it may not look like."""
    if len(_GRAPHEME.findall(title)) > limit:
        return ("title.too_long", {"n": limit})
    if not _ALLOWED.fullmatch(title):
        return ("title.chars", {})
    if not title_key(title):
        return ("title.no_letters", {})
    staff = looks_like(title, _IMPERSONATED)
    if staff is not None:
        return ("title.like_staff", {"title": title, "name": staff})
    role = looks_like(title, roles or {})
    if role is not None:
        return ("title.like_role", {"title": title, "role": role})
    player = looks_like(title, index((p, p) for p in players))
    if player is not None:
        return ("title.like_player", {"title": title, "name": player})
    return None


__all__ = ["TITLE_LIMIT", "IMPERSONATED", "title_key", "index", "looks_like", "title_problem"]
