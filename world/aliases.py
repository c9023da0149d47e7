"""A player's own shortcuts (`alias NAME TEXT`): kept per account in the database (Alias), held
in memory while the account is online, and expanded before a typed line is parsed.

Expansion: the first word of a line, when it names an alias and no built-in verb, is replaced
by the alias's text. The rest of the line is appended to that text, unless the text holds a
placeholder: ``$*`` (the whole rest), ``$1``..``$9`` (one word of it; a missing word is empty),
``$$`` (a dollar sign). The result may itself start with another alias, up to :data:`MAX_DEPTH`
expansions; one typed line always becomes exactly one command line (no ``;`` splitting), so it
costs one token of the flood guard, as typed lines do.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping

from tortoise.exceptions import IntegrityError

from .models import Alias

#: Expansions one typed line may go through (an alias naming another alias naming...). Loops are
#: refused when an alias is defined; this bound holds at run time whatever the stored rows say.
MAX_DEPTH = 5
NAME_LENGTH = 20
# One word of letters, digits and a few marks; never a one-character shortcut (' " : ;) or a $.
_NAME = re.compile(rf"^[\w\-!?.+*/#@&%=~]{{1,{NAME_LENGTH}}}$")
_PLACEHOLDER = re.compile(r"\$(\$|\*|[1-9])")


def fold(name: str) -> str:
    """How names are compared: case and ё/е ignored (as verbs are: commands.parser.fold_verb)."""
    return name.casefold().replace("ё", "е")


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name))


def substitute(text: str, rest: str) -> str:
    """``text`` with the rest of the typed line put in (see the module's docstring)."""
    if not _PLACEHOLDER.search(text):
        return f"{text} {rest}" if rest else text
    words = rest.split()

    def put(m: re.Match[str]) -> str:
        mark = m.group(1)
        if mark == "$":
            return "$"
        if mark == "*":
            return rest
        n = int(mark)
        return words[n - 1] if n <= len(words) else ""

    return " ".join(_PLACEHOLDER.sub(put, text).split())


@dataclass(frozen=True, slots=True)
class Expansion:
    line: str
    names: tuple[str, ...]  # the aliases it went through, in order (folded)
    problem: str | None = None  # "loop" or "too_deep": nothing should run


#: Whether a line's first word (with the rest, for verbs of two words) is a built-in verb: the
#: commands layer knows; built-ins always win over an alias of the same name.
IsBuiltin = Callable[[str, str], bool]


def expand(line: str, book: Mapping[str, str], builtin: IsBuiltin, depth: int = MAX_DEPTH) -> Expansion:
    """``line`` with its aliases expanded (``book``: folded name -> text)."""
    names: list[str] = []
    while True:
        word, _, rest = line.partition(" ")
        key = fold(word)
        if key not in book or builtin(word, rest.strip()):
            return Expansion(line, tuple(names))
        if key in names:
            return Expansion(line, tuple(names), "loop")
        if len(names) >= depth:
            return Expansion(line, tuple(names), "too_deep")
        names.append(key)
        line = substitute(book[key], rest.strip())


class AliasBooks:
    """The aliases of the accounts online: account id -> {folded name: (name as typed, text)}.
    Every session of an account reads the same book, so one defined on telnet works at once on
    SSH too."""

    def __init__(self) -> None:
        self.books: dict[int, dict[str, tuple[str, str]]] = {}
        # The same, folded name -> text, as :func:`expand` reads it on every typed line.
        self._texts: dict[int, dict[str, str]] = {}

    async def load(self, account_id: int) -> None:
        rows = await Alias.filter(account_id=account_id).order_by("name_key")
        self.books[account_id] = {r.name_key: (r.name, r.text) for r in rows}
        self._texts[account_id] = {r.name_key: r.text for r in rows}

    def of(self, account_id: int) -> dict[str, tuple[str, str]]:
        return self.books.get(account_id, {})

    def texts(self, account_id: int) -> dict[str, str]:
        return self._texts.get(account_id, {})

    def forget(self, account_id: int) -> None:
        self.books.pop(account_id, None)
        self._texts.pop(account_id, None)

    async def define(self, account_id: int, name: str, text: str) -> bool:
        """Store (or replace) an alias; True if it replaced one."""
        key = fold(name)
        replaced = await Alias.filter(account_id=account_id, name_key=key).update(name=name, text=text)
        if not replaced:
            try:
                await Alias.create(account_id=account_id, name=name, name_key=key, text=text)
            except IntegrityError:  # the account's other session defined it meanwhile: ours wins
                await Alias.filter(account_id=account_id, name_key=key).update(name=name, text=text)
        self.books.setdefault(account_id, {})[key] = (name, text)
        self._texts.setdefault(account_id, {})[key] = text
        return bool(replaced)

    async def remove(self, account_id: int, name: str) -> str | None:
        """Delete an alias: its name as it was defined, or None if there was none."""
        key = fold(name)
        entry = self.of(account_id).get(key)
        deleted = await Alias.filter(account_id=account_id, name_key=key).delete()
        if entry is None and not deleted:
            return None
        self.books.get(account_id, {}).pop(key, None)
        self._texts.get(account_id, {}).pop(key, None)
        return entry[0] if entry else name
