"""Forum Mafia verbs (seed 004, rule versions A, B and C, with the 34 listed public roles).

Orders: `night ABILITY [TARGET] [ARGS]` / `ночь` / `ніч` (also `use` / `применить`), and
`day ABILITY TARGET` / `день` — both verbs take any ability, the engine says when one is out of
its phase ("any time" abilities such as `двойная жизнь` work with either). `vote NAME` / `голос`,
`mail NAME|city TEXT` / `почта ИМЯ|город ТЕКСТ` (alone, or with an inbox request such as `почта стол 3`, `почта` is still the inbox), `orders` /
`заявки`, `cancel ABILITY|vote|mail|all` / `отмена`, `ready` / `готов`. The Mafia's channel:
`team TEXT` / `свои ТЕКСТ`. Before the start, at an open Mafia table: `class NAME` / `класс`
(the public role, «Класс» of the sign-up: commands/games/mafia_signup.py), `roles [A|B|C]` /
`роли` (the listed public roles: free ones at an open table, those in play at a running one).

Arguments after the target, in this order:

* a secret role (Снайперская винтовка, Арест, Кара, Суд присяжных, Информатор):
  `ночь снайпер Вася Босс`;
* a persona (Клевета, Саботаж, Маскировка, Двойная жизнь): `ночь клевета Вася Маньяк`,
  `ночь маскировка Агент` (Маскировка is on oneself: no target);
* two personas (Обыск): `ночь обыск Вася Киллер Агент`;
* Кровавая баня has no target: a public role, then a secret role. A public role of several
  words is written in quotes or followed by `|`: `ночь баня "Старый продавец" агент`,
  `ночь баня Старый продавец | агент`; without either, the last word(s) are the secret role;
* Запрет: three pairs role:ability of different non-Law roles (the role may be left out, each
  bannable ability names its role): `ночь запрет Вася агент:саботаж киллер:пистолет
  маньяк:нападение` or `ночь запрет Вася саботаж пистолет нападение`.
* Биржа труда (Безработный): a listed public role no seat holds, in any language (sent as its
  key): `день биржа труда Горец`, `day job centre Highlander`;
* the Ход (version A): the play, then its target (Пас) or persona (Блеф); the other plays are on
  oneself: `ночь ход пас Вася`, `ночь ход банк`, `ночь ход блеф Маньяк`, `ночь ход фолд`;
* Звонок (Босс, A): the target, then the text as typed: `ночь звонок Вася сдавайся`;
* Раздача (Джокер, A): one to three players: `ночь раздача Вася Петя`;
* Ва-банк (Джокер, A, any time): every seat's secret role, the dead included, as pairs
  `ИМЯ=РОЛЬ` (or `ИМЯ:РОЛЬ`) in any order, or only the roles in seat order:
  `ночь ва-банк Вася=Босс Петя=Злой Гений ...`, `ночь ва-банк Босс Киллер Офицер ...`.

Public roles' day abilities take their target like any other (`день обвинение Вася`,
`день пиво Вася`); those without one take nothing (`день аура`, `день компромат`).

Abilities, roles and personas are understood in Russian, English and Ukrainian, in any case,
by a unique start of the word (several words for names like «В свои руки», «Злой Гений»);
players by a unique start of their name (a Russian name in another case, «Васю», is found by
its stem), or by their public role.
"""
from __future__ import annotations

from typing import Any

from games.collation import name_key
from world.i18n import nested, nested_list
from world.messages import msg
from world.presenters import mafia as P
from world.presenters import mafia_names as N
from world.text import clean_line

from ..base import REGISTRY, CommandError, Ctx, command
from ..inbox import inbox, parse_request
from ..table import ROLE_LISTS, game_action
from .mafia_words import GAME, abilities_vocab, fold, roles_vocab
from .mafia_seat import Seat
from .mafia_parse import (
    parse_bans, parse_bloodbath, parse_cancel, parse_card, parse_listed_public, parse_mail, parse_mapping, parse_seats,
    parse_use, parse_vote,
)


async def act(ctx: Ctx, action: dict[str, Any], table: Any = None) -> None:
    """Send the action; the engine's rule errors come back with names in the reader's language."""
    try:
        await game_action(ctx, action)
    except CommandError as err:
        message = err.message
        if message.key.startswith("mafia."):
            raise CommandError(message.key, **P.localize_params(table, message.params)) from err
        raise


# -- verbs -----------------------------------------------------------------------------------

@command("night", "ночь", "ночью", "ніч", "вночі", "use", "применить", "застосувати", game=GAME,
         completes=("player",))
async def night(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_use(seat, ctx.args, ctx.rest), seat.table)


@command("day", "день", "днём", "днем", "вдень", game=GAME, completes=("player",))
async def day(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_use(seat, ctx.args, ctx.rest), seat.table)


@command("vote", "голос", "голосовать", "голосую", "голосувати", game=GAME, completes=("player",))
async def vote(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_vote(seat, ctx.args), seat.table)


@command("mail", "почта", "пошта", "письмо", "лист", "letter", game=GAME, completes=("player",))
async def mail(ctx: Ctx) -> None:
    if parse_request(ctx.args) is not None:  # `почта`, `почта 2`, `почта стол 3`: the inbox
        await inbox(ctx)
        return
    seat = Seat(ctx)
    await act(ctx, parse_mail(seat, ctx.rest), seat.table)


@command("orders", "заявки", "приказы", "накази", game=GAME)
async def orders(ctx: Ctx) -> None:
    seat = Seat(ctx)
    view = seat.view
    ctx.reply_msg(P.orders_msg(seat.table, view))
    usable = P.usable_now(view)
    if usable:
        ctx.reply_msg(msg("mafia.view.usable", abilities=P.ability_list(usable, with_left={"mail": view.get("mail_left", 0)})))
    elif P.at_seat(view, "alive", seat.number, True):
        ctx.reply_msg(msg("mafia.view.nothing_now"))
    if view.get("ready"):
        ctx.reply_msg(msg("mafia.view.ready"))


@command("cancel", "отмена", "отменить", "отмени", "скасувати", "скасуй", "withdraw", game=GAME)
async def cancel(ctx: Ctx) -> None:
    seat = Seat(ctx)
    for action in parse_cancel(seat, ctx.args):
        await act(ctx, action, seat.table)


@command("ready", "готов", "готова", "готово", "готовий", "done", game=GAME)
async def ready(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, {"type": "ready"}, seat.table)
    # The engine says nothing until the phase ends; the player is told it counted. (When this
    # was the last one the phase is over, and its news is the answer.)
    table = seat.table
    if table.game is not None and table.engine.view(table.game, seat.number).get("ready"):
        ctx.reply_msg(msg("mafia.view.ready"))


@command("team", "свои", "свої", "своим", "своїм", game=GAME)
async def team(ctx: Ctx) -> None:
    """The Mafia's private channel: to the living members of the team, kept for the away ones."""
    from ..hall import check_muted

    seat = Seat(ctx)
    if "team" not in seat.view:
        raise CommandError("mafia.cmd.team_only")
    if not P.at_seat(seat.view, "alive", seat.number, True):
        raise CommandError("mafia.cmd.team_dead")
    text = clean_line(ctx.rest)
    if not text:
        raise CommandError("mafia.cmd.team_what")
    check_muted(ctx)
    table = seat.table
    message = msg("mafia.cmd.team_say", name=ctx.account.name, text=text)
    for member in seat.view["team"]:
        number = member.get("seat")
        if number == seat.number or not P.at_seat(seat.view, "alive", number, True):
            continue
        account_id = table.seats[number].account_id if number < len(table.seats) else None
        if account_id is None or await ctx.world.social.ignores(account_id, ctx.account.id):
            continue
        if not ctx.world.deliver(account_id, message):
            await ctx.world.keep(account_id, message, "game", table.number)
    ctx.reply("mafia.cmd.team_you", text=text)


# -- the public roles of the rules («Явные роли») ----------------------------------------------

# A rule version as typed: Latin or Cyrillic look-alike letters (А, Б/В, С), any case.
RULESET_WORDS = {"a": "A", "а": "A", "b": "B", "б": "B", "в": "B", "c": "C", "с": "C"}


def ruleset_word(word: str) -> str | None:
    word = fold(word)
    for prefix in ("version=", "ruleset=", "версия=", "версія="):
        if word.startswith(prefix):
            word = word[len(prefix):]
    return RULESET_WORDS.get(word)


def public_free(signup: dict[str, Any]) -> list[str]:
    """The listed public roles nobody at the table has chosen, in the rules' order."""
    taken = {P.public_key_of(chosen) for chosen in signup.values() if isinstance(chosen, str)}
    return [key for key in P.PUBLIC_KEYS if key not in taken]


def public_in_play(table: Any, view: dict[str, Any]) -> list[Any]:
    """Lines of the public roles in a game: the listed ones in the rules' order (the tie
    priority), then the custom names alphabetically (4.6 #12) by the engine's own tie key
    (games.collation: «Ёлка» before «Жаба»), each with its player."""
    version = P.ruleset_of(table.options, view)
    listed: list[tuple[int, Any]] = []
    custom: list[tuple[str, Any]] = []
    for info in table.seats:
        key = P.public_key_at(view, info.number)
        if key in P.PUBLIC_KEYS:
            listed.append((P.PUBLIC_KEYS.index(key), N.public_line(key, version, info.name)))
        else:
            name = P.public_name(view, info.number) or info.name
            custom.append(((name_key(name), info.number), nested("mafia.public_list.line_custom", name=name, player=info.name,
                                                   text=nested("mafia.public_desc.other"))))
    by_order = [line for _, line in sorted(listed, key=lambda x: x[0])]
    return by_order + [line for _, line in sorted(custom, key=lambda x: x[0])]


@command("roles", "роли", "ролі")
async def roles(ctx: Ctx) -> None:
    """roles [A|B|C]: the listed public roles with their abilities: at an open Mafia table the
    free ones (with the table's rule version), at a running one those in play, elsewhere all."""
    table = ctx.table
    if table is not None and table.game_name != GAME and not ctx.args:
        # At another game's table «роли» asks for that game's roles, not Mafia's.
        shown = ROLE_LISTS.get(table.game_name)
        if shown is not None:
            shown(ctx, table)
        else:
            ctx.reply(f"rules.{table.game_name}")
        return
    asked = None
    if ctx.args:
        asked = ruleset_word(ctx.args[0])
        if asked is None or len(ctx.args) > 1:
            raise CommandError("mafia.public_list.bad_version", word=ctx.rest)
    if table is not None and table.game_name == GAME and table.state_name == "open":
        version = asked or P.ruleset_of(table.options)
        free = public_free(table.options.get("signup") or {})
        items = nested_list([N.public_line(k, version) for k in free], sep="\n") if free \
            else nested("mafia.public_list.none_free")
        ctx.reply("mafia.public_list.free", number=table.number, version=version, n=len(free), items=items)
        return
    if table is not None and table.game_name == GAME and table.game is not None:
        view = table.engine.view(table.game, -1)
        ctx.reply("mafia.public_list.in_play", number=table.number, version=P.ruleset_of(table.options, view),
                  items=nested_list(public_in_play(table, view), sep="\n"))
        return
    version = asked or "C"
    ctx.reply("mafia.public_list.all", version=version,
              items=nested_list([N.public_line(k, version) for k in P.PUBLIC_KEYS], sep="\n"))


def _mail_before_inbox() -> None:
    """`почта ИМЯ ТЕКСТ` is Почта at a Mafia table: its command must come before the inbox's
    (the first command with a verb wins); `почта` alone still shows the inbox."""
    mine = next(c for c in REGISTRY if c.key == "mail" and c.game == GAME)
    inbox_at = next((i for i, c in enumerate(REGISTRY) if c.key == "inbox"), None)
    if inbox_at is not None and REGISTRY.index(mine) > inbox_at:
        REGISTRY.remove(mine)
        REGISTRY.insert(inbox_at, mine)


_mail_before_inbox()


__all__ = ["parse_use", "parse_vote", "parse_mail", "parse_cancel", "parse_bans", "parse_bloodbath",
           "parse_card", "parse_seats", "parse_mapping", "parse_listed_public",
           "abilities_vocab", "roles_vocab", "Seat", "public_free",
           "ruleset_word"]
