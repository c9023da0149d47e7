"""What the notice commands (`motd`, `news`, `board`) share: a first word read as a subcommand,
a number typed as ``5``, ``#5`` or ``№5``, the admin check, and a page of a list."""
from __future__ import annotations

import difflib
from collections.abc import Iterable

from world.messages import Msg
from world.paging import Page

from .base import ROLE_RANK, CommandError, Ctx

POST_WORDS = frozenset({"post", "add", "написать", "опубликовать", "добавить", "опублікувати", "додати", "написати"})
DELETE_WORDS = frozenset({"delete", "del", "remove", "удалить", "стереть", "видалити", "стерти"})


def subcommand(ctx: Ctx) -> tuple[str, str, str]:
    """The first word of the arguments as typed, casefolded, and the rest (stripped)."""
    word, _, rest = ctx.rest.partition(" ")
    return word, word.casefold(), rest.strip()


def unknown_word(ctx: Ctx, word: str, words: Iterable[str], usage: str) -> CommandError:
    """The refusal of a first word that is no subcommand: "did you mean" with the nearest one
    (``удлить`` -> ``доска удалить``), in the words the player typed the command with; else
    ``usage``."""
    close = difflib.get_close_matches(word.casefold(), sorted(set(words)), n=1, cutoff=0.7)
    if close:
        return CommandError("subcommand.unknown_suggest", word=word, suggestion=f"{ctx.verb} {close[0]}")
    return CommandError(usage)


def number_of(word: str) -> int | None:
    """``5``, ``#5`` or ``№5`` as a number; None if it is none."""
    word = word.lstrip("#№")
    return int(word) if word.isdigit() and len(word) < 10 else None


def is_admin(ctx: Ctx) -> bool:
    return ROLE_RANK.get(ctx.account.role, 0) >= ROLE_RANK["admin"]


def require_admin(ctx: Ctx, refusal: str) -> None:
    if not is_admin(ctx):
        raise CommandError(refusal)


def show_page(ctx: Ctx, prefix: str, page: Page, lines: Iterable[Msg]) -> None:
    """``<prefix>.list_header``, the lines, ``<prefix>.list_more`` if a page follows, and
    ``<prefix>.list_footer``; ``<prefix>.empty`` for an empty list, ``<prefix>.no_page`` past its end."""
    if page.total == 0:
        ctx.reply(f"{prefix}.empty")
        return
    if page.number > page.pages:
        raise CommandError(f"{prefix}.no_page", number=page.number, pages=page.pages)
    ctx.reply(f"{prefix}.list_header", n=page.total, page=page.number, pages=page.pages)
    for line in lines:
        ctx.reply_msg(line)
    if page.number < page.pages:
        ctx.reply(f"{prefix}.list_more", next=page.number + 1)
    ctx.reply(f"{prefix}.list_footer")


__all__ = ["POST_WORDS", "DELETE_WORDS", "subcommand", "unknown_word", "number_of", "is_admin", "require_admin", "show_page"]
