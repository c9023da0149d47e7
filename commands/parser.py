"""Text to intent: verb lookup with unique prefixes, suggestions, and the per-context sets."""
from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Any, Iterable

from .base import GAME, HALL, REGISTRY, TABLE, Command

# One-character shortcuts MUD players expect.
SHORTCUTS = {"'": "say", ":": "emote", ";": "emote", '"': "say"}

# Verbs the design card reserves for games: routed to the table's engine when a game runs.
RESERVED_CANONICAL = {
    "claim": "claim", "заявить": "claim", "заявити": "claim",
    "challenge": "challenge", "вызов": "challenge", "сомневаюсь": "challenge", "виклик": "challenge",
    "block": "block", "блок": "block", "блокувати": "block",
    "allow": "allow", "пропустить": "allow", "пропустити": "allow",
    "vote": "vote", "голос": "vote",
    "night": "night", "ночь": "night", "ніч": "night",
    "day": "day", "день": "day",
    "lose": "lose", "сбросить": "lose", "скинути": "lose",
    "keep": "keep", "оставить": "keep", "залишити": "keep",
}
RESERVED_GAME_VERBS = tuple(RESERVED_CANONICAL)


def context_of(session: Any) -> set[str]:
    world = session.world
    account = session.account
    tables = world.tables
    if tables is None or account is None:
        return {HALL}
    table = tables.table_of(account.id)
    if table is None:
        return {HALL}
    if table.running and table.seat_of(account.id) is not None:
        return {TABLE, GAME}
    return {TABLE}


def available(session: Any) -> list[Command]:
    contexts = context_of(session)
    role = session.account.role if session.account else "player"
    game = None
    if GAME in contexts:
        table = session.world.tables.table_of(session.account.id)
        game = table.game_name if table else None
    return _available(frozenset(contexts), role, game, len(REGISTRY))


@lru_cache(maxsize=256)
def _available(contexts: frozenset[str], role: str, game: str | None, _registry_size: int) -> list[Command]:
    """The command set of one (context, role, game): computed once, it is on every line's path."""
    out = []
    for cmd in REGISTRY:
        if not cmd.allowed(role):
            continue
        if cmd.game is not None:
            if cmd.game == game:
                out.append(cmd)
            continue
        if cmd.contexts & contexts:
            out.append(cmd)
    return out


def all_verbs(commands: Iterable[Command]) -> dict[str, Command]:
    key = tuple(id(c) for c in commands)
    cached = _VERBS.get(key)
    if cached is None:
        cached = _VERBS[key] = _all_verbs(commands)
    return cached


_VERBS: dict[tuple[int, ...], dict[str, Command]] = {}


def fold_verb(verb: str) -> str:
    """Case and ё/е ignored: many type «еще» for «ещё»."""
    return verb.casefold().replace("ё", "е")


def _all_verbs(commands: Iterable[Command]) -> dict[str, Command]:
    table: dict[str, Command] = {}
    for cmd in commands:
        for verb in cmd.verbs:
            table.setdefault(fold_verb(verb), cmd)
    return table


def secret_verbs() -> frozenset[str]:
    """The folded verbs of every command whose arguments are secrets (``secret=True``)."""
    from . import load_all  # noqa: F401  (registers every command once)

    if _SECRET_VERBS[0] != len(REGISTRY):
        _SECRET_VERBS[:] = [len(REGISTRY), frozenset(fold_verb(v) for c in REGISTRY if c.secret for v in c.verbs)]
    return _SECRET_VERBS[1]


_SECRET_VERBS: list = [-1, frozenset()]


def is_secret_line(line: str, min_prefix: int = 1) -> bool:
    """Does ``line`` call a secret command: its verb (at least ``min_prefix`` letters) starts one
    of their verbs, as a command's unique start does. Errs on the side of secrecy."""
    verb = fold_verb(split_verb(line)[0]) if line.strip() else ""
    return len(verb) >= min_prefix and any(v.startswith(verb) for v in secret_verbs())


def split_verb(line: str) -> tuple[str, str]:
    line = line.strip()
    if line[:1] in SHORTCUTS:
        return SHORTCUTS[line[0]], line[1:].strip()
    verb, _, rest = line.partition(" ")
    return verb, rest.strip()


def phrase_verb(verb: str, rest: str, commands: list[Command]) -> tuple[str, str]:
    """A verb of two words («не верю»), when the line starts with one of ``commands``' exactly:
    (the phrase, the rest after it); otherwise (``verb``, ``rest``) as they were."""
    if rest:
        second, _, tail = rest.partition(" ")
        phrase = f"{verb} {second}"
        if fold_verb(phrase) in all_verbs(commands):
            return phrase, tail.strip()
    return verb, rest


def resolve(verb: str, commands: list[Command]) -> tuple[Command | None, list[str]]:
    """The command for ``verb`` (exact, then unique prefix); else (None, suggestions). A verb of
    two words is matched only whole (phrase_verb), never as a prefix: «не» is no command."""
    verbs = all_verbs(commands)
    folded = fold_verb(verb)
    if folded in verbs:
        return verbs[folded], []
    matches = {cmd.key: (v, cmd) for v, cmd in verbs.items() if v.startswith(folded) and " " not in v}
    if len(matches) == 1:
        return next(iter(matches.values()))[1], []
    by_key = [cmd for cmd in {id(c): c for _, c in matches.values()}.values()
              if cmd.key.casefold().startswith(folded)]
    if len(by_key) == 1:  # "wh": who (a key) beats whisper (an alias of tell)
        return by_key[0], []
    if matches:
        return None, sorted(v for v, _ in matches.values())[:6]
    close = difflib.get_close_matches(folded, list(verbs), n=4, cutoff=0.6)
    return None, close


def match_name(prefix: str, names: Iterable[str]) -> tuple[str | None, list[str]]:
    """Unique-prefix, case-insensitive match of a player name; (name, []) or (None, candidates).
    When no name starts so, the start of a part after a hyphen counts (bots are «Бот-Имя»), and
    then the same letters in the other script (``latin_fold``): `glaf` finds «Бот-Глафира»."""
    names = list(names)
    folded = prefix.casefold()
    exact = [n for n in names if n.casefold() == folded]
    if exact:
        return exact[0], []
    starts = [n for n in names if n.casefold().startswith(folded)]
    if not starts:  # «евс» for «Бот-Евсей»: the start of a later part of a hyphenated name
        starts = [n for n in names if any(part.startswith(folded) for part in n.casefold().split("-")[1:])]
    if not starts:  # `glaf` for «Бот-Глафира», «борис» for Boris: the same letters in the other script
        latin = latin_fold(prefix)
        if latin:
            folds = [(n, latin_fold(n)) for n in names]
            starts = [n for n, fold in folds if fold.startswith(latin)
                      or any(part.startswith(latin) for part in fold.split("-")[1:])]
    if len(starts) == 1:
        return starts[0], []
    return None, starts


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
