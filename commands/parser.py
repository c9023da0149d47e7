"""Text to intent: verb lookup with unique prefixes, suggestions, and the per-context sets."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from world.text import clean_typed

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
    cmd, suggestions, _ = _lookup(verb, commands)
    return cmd, suggestions


def _lookup(verb: str, commands: list[Command]) -> tuple[Command | None, list[str], list[Command]]:
    """:func:`resolve`, and when no command is found the commands ``verb`` may have meant (those
    it starts, or else those it is a near miss of)."""
    verbs = all_verbs(commands)
    folded = fold_verb(verb)
    if folded in verbs:
        return verbs[folded], [], []
    matches = {cmd.key: (v, cmd) for v, cmd in verbs.items()
               if v.startswith(folded) and " " not in v and len(folded) >= cmd.min_prefix}
    if len(matches) == 1:
        return next(iter(matches.values()))[1], [], []
    by_key = [cmd for cmd in {id(c): c for _, c in matches.values()}.values()
              if cmd.key.casefold().startswith(folded)]
    if len(by_key) == 1:  # "wh": who (a key) beats whisper (an alias of tell)
        return by_key[0], [], []
    if matches:
        return None, sorted(v for v, _ in matches.values())[:6], [cmd for _, cmd in matches.values()]
    close = difflib.get_close_matches(folded, list(verbs), n=4, cutoff=0.6)
    return None, close, [verbs[v] for v in close]


def elsewhere(verb: str, role: str) -> Command | None:
    """A command ``verb`` names exactly that is not among this place's: a table's (`leave` in
    the hall) or another game's (`draw` at a Coup table). Only for a verb no command here took,
    so a linear look is fine."""
    folded = fold_verb(verb)
    for cmd in REGISTRY:
        if cmd.allowed(role) and any(fold_verb(v) == folded for v in cmd.verbs):
            return cmd
    return None


@dataclass(frozen=True, slots=True)
class Parsed:
    """One typed line as :func:`commands.dispatch` runs it, read once."""

    verb: str
    rest: str  # the arguments: cleaned for others to read, or as typed for a secret command
    command: Command | None
    suggestions: list[str]
    #: It runs a command whose arguments are secrets (``password OLD NEW``), or its verb might
    #: have meant one (a start of several commands, or a near miss: nothing runs then, and the
    #: line is kept as secret all the same). The session keeps it out of the log, the SSH line
    #: editor masks it and keeps it out of history.
    secret: bool


NOTHING = Parsed("", "", None, [], False)


def parse_line(line: str, commands: list[Command]) -> Parsed:
    """``line`` (its controls already removed: world.text.clean_controls) as dispatch reads it
    among ``commands``: the verb looked up once (phrases, prefixes, shortcuts), the arguments
    cleaned (world.text.clean: no invisible characters, no Zalgo, single spaces) unless they are
    secrets, which are compared as typed."""
    cleaned = clean_typed(line).strip()
    if not cleaned:
        return NOTHING
    verb, rest = phrase_verb(*split_verb(cleaned), commands)
    cmd, suggestions, meant = _lookup(verb, commands)
    if cmd is not None:
        secret = cmd.secret
    else:  # a reserved game verb goes to the table's engine, never to a secret command
        secret = verb.casefold() not in RESERVED_GAME_VERBS and any(c.secret for c in meant)
    if secret:
        words = line.split(None, 1)  # the verb's word as typed, and everything after it
        rest = words[1].strip() if len(words) == 2 else ""
    return Parsed(verb, rest, cmd, suggestions, secret)
