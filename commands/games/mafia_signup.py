"""Forum Mafia's sign-up: the public role («Класс») a player takes at an open Mafia table.

`class NAME` / `класс НАЗВАНИЕ` takes a listed public role (typed in any language, stored under
the seed's Russian name) or a custom «(Другой)» name; `class` alone lists the table's choices;
`class -` clears one's choice. A custom name is a player-chosen title (world.titles): cleaned
like all player text, at most ``TITLE_LIMIT`` characters, and refused when it looks like a role
of the game (listed, «(Другой)», secret, a faction, a classic Mafia role), the Master, a bot or
a seated player's name, in any of the three languages and with look-alike letters.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from world.i18n import LANGUAGES, catalog, nested, nested_list
from world.messages import msg
from world.presenters import mafia as P
from world.presenters import mafia_names as N
from world.text import clean_line
from world.titles import index, title_key, title_problem

from ..base import TABLE, CommandError, Ctx, command
from ..table import START_CHECKS, run_table_op
from .mafia import GAME

NONE_WORDS = {"-", "нет", "none", "ні", "сброс", "reset", "clear"}
# Catalog families whose names a custom public role may not look like (besides the listed roles):
# «(Другой)» itself, the secret roles, the factions, and roles of other Mafia rules that players
# know («Доктор», «Мирный житель»), which would read as a claim of a role this game does not have.
LABEL_FAMILIES = ("mafia.public.other", "mafia.role_name.", "mafia.faction.", "mafia.classic_role.")


@lru_cache(maxsize=1)
def label_roles() -> dict[str, Any]:
    """Every name of a role of the game in ru/en/uk (world.titles.index), each shown as the
    role's catalog name in the reader's language."""
    pairs: list[tuple[str, Any]] = []
    for key in P.PUBLIC_KEYS:
        names = {key, N.PUBLIC_SEED_NAMES[key], *N.PUBLIC_EXTRA.get(key, ())}
        names.update(str(catalog(lang).get(f"mafia.public.{key}", key)) for lang in LANGUAGES)
        pairs.extend((name, nested(f"mafia.public.{key}")) for name in sorted(names))
    for lang in LANGUAGES:
        for key, value in catalog(lang).items():
            if isinstance(value, str) and key.startswith(LABEL_FAMILIES):
                pairs.append((value, nested(key)))
    return index(pairs)


def normalize_public(name: str) -> str:
    return " ".join(clean_line(name).strip().strip("\"«»").split())


def signup_problem(name: str, signup: dict[str, str], seat: int, seat_names: list[str]) -> tuple[str, dict] | None:
    """Why this seat may not take ``name`` as its public role (a catalog key and parameters),
    or None. A custom name is a title (world.titles.title_problem: length, letters, and no look
    of a role, the Master or another seated player); a listed role may not be another player's
    name either. Choices are unique per table, compared by their title key (case, look-alike
    letters, spaces); a player with no choice plays under their own name."""
    if not name:
        return ("mafia.cmd.class_empty", {})
    if any(ch in name for ch in "|\"«»"):
        return ("mafia.cmd.class_bad_chars", {})
    listed = P.public_key_of(name)
    key = title_key(name)
    others = [player for number, player in enumerate(seat_names) if number != seat]
    if listed is None:
        problem = title_problem(name, roles=label_roles(), players=others)
        if problem is not None:
            return problem
    else:
        player = index((p, p) for p in others).get(key)
        if player is not None:
            return ("title.like_player", {"title": name, "name": player})
    me = seat_names[seat] if 0 <= seat < len(seat_names) else None
    for player, chosen in signup.items():  # keyed by player name: seats renumber when one leaves
        if player != me and isinstance(chosen, str) and (
                title_key(chosen) == key or (listed is not None and P.public_key_of(chosen) == listed)):
            return ("mafia.cmd.class_taken", {"name": chosen, "player": player})
    return None


def check_signup_at_start(table: Any) -> None:
    """A choice made before another player sat down may look like that player's name: the
    table does not start until its owner chooses again (CommandError naming both)."""
    names = [s.name for s in table.seats]
    for owner, chosen in (table.options.get("signup") or {}).items():
        if owner not in names or not isinstance(chosen, str):
            continue
        problem = signup_problem(chosen, {}, names.index(owner), names)
        if problem is not None and problem[0] == "title.like_player":
            raise CommandError("title.clash_at_start", title=chosen, owner=owner, name=problem[1]["name"])


START_CHECKS[GAME] = check_signup_at_start


def signup_items(table: Any) -> list[Any]:
    signup = table.options.get("signup") or {}
    items = []
    for info in table.seats:
        chosen = signup.get(info.name)
        public = nested("mafia.view.quoted", text=P.public_title(None, chosen)) if chosen \
            else nested("mafia.cmd.class_own")
        items.append(nested("mafia.cmd.class_item", name=info.name, public=public))
    return items


@command("class", "класс", "клас", "явная", "явна", contexts={TABLE})
async def class_(ctx: Ctx) -> None:
    """class NAME: your public role at an open Mafia table; class alone: everyone's choice."""
    table = ctx.world.tables.table_of(ctx.account.id)
    if table is None:
        raise CommandError("table.not_at_table")
    if table.game_name != GAME:
        raise CommandError("mafia.cmd.class_not_mafia")
    if table.state_name != "open":
        if table.game is not None:
            view = table.engine.view(table.game, -1)
            items = [nested("mafia.cmd.class_item", name=info.name,
                            public=nested("mafia.view.quoted", text=P.public_shown(view, info.number)))
                     for info in table.seats]
            ctx.reply("mafia.cmd.class_running", items=nested_list(items))
            return
        raise CommandError("table.not_open", number=table.number)
    if not ctx.args:
        ctx.reply("mafia.cmd.class_list", number=table.number, items=nested_list(signup_items(table)) if table.seats
                  else nested("mafia.view.nothing"))
        return
    seat = table.seat_of(ctx.account.id)
    if seat is None:
        raise CommandError("table.not_seated")
    signup = {k: v for k, v in (table.options.get("signup") or {}).items()}
    name = normalize_public(ctx.rest)
    listed = P.public_key_of(name)
    if listed is not None:  # «горец», «Highlander», «Анонимус»: the seed's name, for the engine
        name = N.seed_name(listed)
    if name.casefold() in NONE_WORDS:
        signup.pop(table.seats[seat].name, None)
        await run_table_op(ctx, ctx.world.tables.update_options(table, signup=signup))
        ctx.reply("mafia.cmd.class_cleared")
        return
    problem = signup_problem(name, signup, seat, [s.name for s in table.seats])
    if problem is not None:
        raise CommandError(problem[0], **problem[1])
    signup[table.seats[seat].name] = name
    await run_table_op(ctx, ctx.world.tables.update_options(table, signup=signup))
    if listed is not None:
        ctx.reply_msg(msg("mafia.public_list.chosen", line=N.public_line(listed, P.ruleset_of(table.options))))
    ctx.reply("mafia.cmd.class_set", name=P.public_title(listed, name) if listed is not None else name)
    ctx.world.broadcast(table.room, msg("mafia.cmd.class_other", player=ctx.account.name,
                                        name=P.public_title(listed, name)), exclude=[ctx.account.id])


__all__ = ["normalize_public", "signup_problem", "check_signup_at_start", "signup_items", "label_roles", "class_", "NONE_WORDS"]
