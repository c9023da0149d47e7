"""Players named by what was typed: accounts (tell, kick, ban, mute, role, master=...) and seats
at a table (a game's targets).

One rule for both: **an exact name wins**. Exact means equal once case and look-alike letters
are folded, as at account creation (``world.accounts.name_key``: `Вoris` with a Cyrillic В is
Boris). Only when no name is exact do looser matches count: a unique start of the name, the
start of a part after a hyphen («евс» for «Бот-Евсей»), the same letters in the other script
(`glaf` for «Бот-Глафира», «борис» for Boris), the name in another case («фёдору», «на Бориса»,
«даше»: world/morph.py reads the typed word back to its dictionary forms).

- An account: the exact name is looked up among all accounts, online or not (a `tell` to an
  exact name that is offline waits in that player's inbox). Looser matches count among the
  players online only, all kinds at once: when more than one account matches in any of the
  looser ways, nobody is chosen and the player is asked which one. A private word must never
  land on a neighbour whose name merely resembles the one typed.
- A seat: the few players at one table, whose names are on everybody's screen. The looser ways
  are tried in order (a name that starts so, then a later part, then the other script), and the
  first way that matches decides; more than one match in it is ambiguous (``match_name``).
"""
from __future__ import annotations

from typing import Iterable

from world import accounts, morph
from world.models import Account

from .base import CommandError, Ctx


def exact_name(typed: str, names: list[str]) -> str | None:
    """The name ``typed`` is, as typed (case aside), else once look-alike letters are folded."""
    folded = typed.casefold()
    for name in names:
        if name.casefold() == folded:
            return name
    key = accounts.name_key(typed)
    for name in names:
        if accounts.name_key(name) == key:
            return name
    return None


def _starts(typed: str, names: list[str]) -> list[str]:
    folded = typed.casefold()
    return [n for n in names if n.casefold().startswith(folded)]


def _later_part_starts(typed: str, names: list[str]) -> list[str]:
    """«евс» for «Бот-Евсей»: the start of a later part of a hyphenated name."""
    folded = typed.casefold()
    return [n for n in names if any(part.startswith(folded) for part in n.casefold().split("-")[1:])]


def _other_script(typed: str, names: list[str]) -> list[str]:
    """`glaf` for «Бот-Глафира», «борис» for Boris: the same letters in the other script."""
    latin = latin_fold(typed)
    if not latin:
        return []
    out = []
    for name in names:
        fold = latin_fold(name)
        if fold.startswith(latin) or any(part.startswith(latin) for part in fold.split("-")[1:]):
            out.append(name)
    return out


def _case_form(typed: str, names: list[str]) -> list[str]:
    """«фёдору», «Бориса», «даше»: a name in another case, read back by the morphology dictionary
    (world/morph.py); «глафиру» for «Бот-Глафира» (a part after a hyphen), «бот-глафиру» too."""
    typed_parts = typed.casefold().replace("ё", "е").split("-")
    forms = [morph.lemmas(part) | {part} for part in typed_parts]
    if not any(morph.lemmas(part) for part in typed_parts):
        return []
    out = []
    for name in names:
        parts = name.casefold().replace("ё", "е").split("-")
        whole = len(parts) == len(forms) and all(p in f for p, f in zip(parts, forms))
        later = len(forms) == 1 and any(p in forms[0] for p in parts[1:])
        if whole or later:
            out.append(name)
    return out


def _starts_or_case_form(typed: str, names: list[str]) -> list[str]:
    """A name that starts so, or that is the typed word in another case: one way, so that «ани»
    at a table of Аня and Аника asks which one instead of taking Аника."""
    hits = set(_starts(typed, names)) | set(_case_form(typed, names))
    return [n for n in names if n in hits]


LOOSER_WAYS = (_starts_or_case_form, _later_part_starts, _other_script)


def match_name(prefix: str, names: Iterable[str]) -> tuple[str | None, list[str]]:
    """A seat's name by what was typed: (name, []) or (None, candidates). The exact name first,
    then the first looser way that matches anyone (see the module's text)."""
    names = list(names)
    exact = exact_name(prefix, names)
    if exact is not None:
        return exact, []
    return loose_match(prefix, names)


def loose_match(prefix: str, names: list[str]) -> tuple[str | None, list[str]]:
    """:func:`match_name` without the exact name (for a caller that looked for it already)."""
    for way in LOOSER_WAYS:
        found = way(prefix, names)
        if found:
            return (found[0], []) if len(found) == 1 else (None, found)
    return None, []


def loose_matches(typed: str, names: Iterable[str]) -> list[str]:
    """Every name that ``typed`` matches in any looser way, in the order of ``names``."""
    names = list(names)
    hits = {n for way in LOOSER_WAYS for n in way(typed, names)}
    return [n for n in names if n in hits]


async def find_account(ctx: Ctx, typed: str) -> Account:
    """The account ``typed`` names: the exact name among all accounts, online or not; else the
    one player online whom it loosely matches. Several: CommandError asking which one."""
    word = typed.strip().lstrip("@")
    if not word:
        raise CommandError("name.unknown", name=typed)
    account = await accounts.find(word)
    if account is not None:
        # The live object when the player is online: moderation changes it in place.
        live = ctx.world.accounts.get(account.id)
        if live is not None:
            return live
        accounts.apply_config_admins(account, ctx.world.config.section("accounts")["admins"])
        return account
    online = {a.name: a for a in ctx.world.online_accounts()}
    found = loose_matches(word, online)
    if len(found) == 1:
        return online[found[0]]
    if found:
        raise CommandError("name.ambiguous", name=word, names=", ".join(found))
    raise CommandError("name.unknown", name=word)


async def account_name(ctx: Ctx, typed: str, unknown_ok: bool = False) -> str:
    """The stored spelling of the account ``typed`` names (``find_account``'s rule); with
    ``unknown_ok``, a name nobody has yet comes back as typed (still never a near neighbour's)."""
    try:
        return (await find_account(ctx, typed)).name
    except CommandError as err:
        if unknown_ok and err.message.key == "name.unknown":
            return typed.strip().lstrip("@")
        raise


# Russian and Ukrainian letters as Latin, for matching names only (never for display). Both what
# was typed and the names are folded, and the Latin spellings of a sound are then made one, so
# the usual transliterations meet: Yevsey, Evsei and Евсей are all "evsei"; Afanasiy, Afanasy
# and Афанасий "afanasi"; Ustinya and Устинья "ustina"; Fyokla, Fekla and Фёкла "fekla".
_CYRILLIC_TO_LATIN = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "ґ": "g", "д": "d", "е": "e", "ё": "e", "є": "e", "ж": "zh",
    "з": "z", "и": "i", "і": "i", "ї": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "ch", "ш": "sh",
    "щ": "sh", "ъ": "", "ы": "i", "ь": "", "э": "e", "ю": "u", "я": "a", "'": "", "’": "",
})
_LATIN_SPELLINGS = (("shch", "sh"), ("sch", "sh"), ("kh", "h"), ("x", "ks"), ("ts", "c"), ("tz", "c"),
                    ("w", "v"), ("ph", "f"), ("j", "y"), ("yo", "e"), ("ye", "e"), ("ya", "a"),
                    ("yu", "u"), ("y", "i"), ("ii", "i"))


def latin_fold(text: str) -> str:
    """``text`` in Latin letters with one spelling per sound (see above), for matching names."""
    out = text.casefold().translate(_CYRILLIC_TO_LATIN)
    for spelling, one in _LATIN_SPELLINGS:
        out = out.replace(spelling, one)
    return out


__all__ = ["exact_name", "match_name", "loose_matches", "find_account", "account_name", "latin_fold"]
