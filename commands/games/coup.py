"""Coup («Переворот») verbs.

Turn actions: `income`/`доход`, `foreign`/`иностранная`, `coup NAME`/`переворот`, `tax`/`налог`,
`assassinate NAME`/`убить`, `steal NAME`/`украсть`, `exchange`/`обмен`, `examine NAME`/`допрос`;
or the general `claim ROLE [NAME]`/`заявить` (`claim duke` is tax, `claim captain Вася` steals).
Reactions: `challenge`/`вызов` (also «не верю», two words), `block [ROLE]`/`блок`, `allow`/`пропустить`; when challenged
`prove`/`доказать` (or `show`) and `concede`/`сдаться`; `lose CARD`/`сбросить`, `keep CARD [CARD]`/
`оставить` after an exchange, `show CARD`/`показать` when examined, `return`/`вернуть` or
`swap`/`заменить` after an examination, `draft ROLE`/`выбрать` in a two-player game.

Roles are understood in English, Russian and Ukrainian (and the names of other editions), in any
case, by a unique start of the word; players by a unique start of their name.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.coup.engine import BLOCKABLE, TURN_ACTIONS, copies_for
from world.presenters.coup import ROLES, action_name, fifth_role, localize_params, role_list, role_name

from ..base import CommandError, Ctx, command
from ..table import ROLE_LISTS, game_action
from .seat import GameSeat

GAME = "coup"

# Every word that names a role: official English, the Russian edition of seed 000, the Ukrainian
# text of seed 001, the other Russian edition, their accusative and instrumental forms, the
# option names, and a few transliterations.
ROLE_FORMS: dict[str, tuple[str, ...]] = {
    "duke": ("duke", "губернатор", "губернатора", "губернатором", "герцог", "герцога", "герцогом",
             "герцогиня", "герцогиню", "герцогинею", "герцогиней", "gubernator", "gertsoginya",
             "gertsog"),
    "assassin": ("assassin", "убийца", "убийцу", "убийцей", "ассасин", "ассасина", "ассасином",
                 "вбивця", "вбивцю", "вбивцею", "ubiytsa", "ubiytsu", "vbyvtsia", "vbyvtsya"),
    "captain": ("captain", "полицейский", "полицейского", "полицейским", "капитан", "капитана",
                "капитаном", "капітан", "капітана", "капітаном", "politseyskiy", "policeyskiy", "kapitan"),
    "ambassador": ("ambassador", "advisor", "adviser", "советник", "советника", "советником", "посол",
                   "посла", "послом", "sovetnik", "posol"),
    "inquisitor": ("inquisitor", "investigator", "следователь", "следователя", "следователем",
                   "инквизитор", "инквизитора", "инквизитором", "інквізитор", "інквізитора",
                   "інквізитором", "sledovatel", "inkvizitor"),
    "contessa": ("contessa", "countess", "княжна", "княжну", "княжной", "графиня", "графиню",
                 "графиней", "графинею", "knyazhna", "grafinya", "grafinia", "grafynia"),
}
WORD_TO_ROLE = {word: role for role, words in ROLE_FORMS.items() for word in words}
ACTION_OF_ROLE = {"duke": "tax", "assassin": "assassinate", "captain": "steal", "ambassador": "exchange"}
TARGETED = {"coup", "assassinate", "steal", "examine"}


def _fold(word: str) -> str:
    return word.casefold().replace("ё", "е").strip(".,;:!?«»\"'")


def parse_role(word: str) -> str:
    """The role a word names: exact, then a unique start of any name in any language."""
    folded = _fold(word)
    if not folded:
        raise CommandError("coup.cmd.bad_role", word=word, roles=_all_roles())
    if folded in WORD_TO_ROLE:
        return WORD_TO_ROLE[folded]
    found = {role for w, role in WORD_TO_ROLE.items() if w.startswith(folded)}
    if len(found) == 1:
        return found.pop()
    if found:
        raise CommandError("coup.cmd.ambiguous_role", word=word,
                           roles=role_list([r for r in ROLES if r in found]))
    raise CommandError("coup.cmd.bad_role", word=word, roles=_all_roles())


def _all_roles() -> Any:
    return role_list(list(ROLES))


def parse_roles(words: list[str]) -> list[str]:
    out: list[str] = []
    for chunk in words:
        out.extend(parse_role(w) for w in chunk.replace(",", " ").split() if w)
    return out


# Little words before a target: «украсть у Бориса», «переворот против Анны», `steal from Boris`.
# Names have at least two letters and one of these only counts with a name after it.
TARGET_CONNECTORS = {"у", "в", "против", "игрока", "проти", "гравця", "from", "on", "at", "against", "player"}


class Seat(GameSeat):
    """This player's seat at a running Coup table: its view and legal actions right now."""

    @property
    def fifth(self) -> str:
        fifth = self.view.get("fifth")
        if fifth in ROLES:
            return fifth
        option = str(self.table.options.get("role", "")).lower()
        return "inquisitor" if option in ("investigator", "inquisitor") else "ambassador"

    game = GAME
    trim = ",.;:!?"

    def target(self, words: list[str]) -> int:
        """A seat by a unique start of a player's name, living opponents first, in another case
        too («убить Бориса», «украсть у Бот-Евсея», `steal from Boris`); with no name, the only
        living opponent. Naming oneself or a player who is out is the engine's bad target."""
        alive = self.view.get("alive") or [True] * len(self.table.seats)
        living = [s.number for s in self.table.seats
                  if s.number != self.number and s.number < len(alive) and alive[s.number]]
        while len(words) > 1 and words[0].casefold() in TARGET_CONNECTORS:
            words = words[1:]
        if not words:
            if len(living) == 1:
                return living[0]
            names = ", ".join(self.table.seats[s].name for s in living)
            raise CommandError("coup.cmd.need_target", names=names or "-")
        return self.player(words[0], living)


async def act(ctx: Ctx, action: dict[str, Any]) -> None:
    """Send the action; the engine's rule errors come back with role names in the reader's language."""
    try:
        await game_action(ctx, action)
    except CommandError as err:
        message = err.message
        if message.key.startswith("coup."):
            raise CommandError(message.key, **localize_params(message.params)) from err
        raise


def _not_in_deck(role: str) -> CommandError:
    return CommandError("coup.error.not_in_deck", **localize_params({"role": role}))


async def turn_action(ctx: Ctx, kind: str, words: list[str]) -> None:
    seat = Seat(ctx)
    action: dict[str, Any] = {"type": kind}
    if kind in TARGETED:
        action["target"] = seat.target(words)
    await act(ctx, action)


# -- turn actions ------------------------------------------------------------------------------

@command("income", "доход", "дохід", game=GAME)
async def income(ctx: Ctx) -> None:
    await turn_action(ctx, "income", ctx.args)


@command("foreign", "aid", "foreign_aid", "иностранная", "подмога", "іноземна", game=GAME)
async def foreign(ctx: Ctx) -> None:
    await turn_action(ctx, "foreign_aid", ctx.args)


@command("coup", "переворот", game=GAME, completes=("player",))
async def coup(ctx: Ctx) -> None:
    await turn_action(ctx, "coup", ctx.args)


@command("tax", "налог", "налоги", "податок", "податки", game=GAME)
async def tax(ctx: Ctx) -> None:
    await turn_action(ctx, "tax", ctx.args)


@command("assassinate", "kill", "убить", "убийство", "вбити", game=GAME, completes=("player",))
async def assassinate(ctx: Ctx) -> None:
    await turn_action(ctx, "assassinate", ctx.args)


@command("steal", "украсть", "воровство", "вкрасти", game=GAME, completes=("player",))
async def steal(ctx: Ctx) -> None:
    await turn_action(ctx, "steal", ctx.args)


@command("exchange", "обмен", "обмін", game=GAME)
async def exchange(ctx: Ctx) -> None:
    await turn_action(ctx, "exchange", ctx.args)


@command("examine", "допрос", "допросить", "допит", game=GAME, completes=("player",))
async def examine(ctx: Ctx) -> None:
    await turn_action(ctx, "examine", ctx.args)


@command("claim", "заявить", "заявляю", "заявити", game=GAME)
async def claim(ctx: Ctx) -> None:
    """claim ROLE [NAME]: the role's action on your turn, or a block with that role."""
    if not ctx.args:
        raise CommandError("help.usage.claim")
    role = parse_role(ctx.args[0])
    seat = Seat(ctx)
    if any(a.get("role") == role for a in seat.of_type("block")):
        await act(ctx, {"type": "block", "role": role})
        return
    if role in ("ambassador", "inquisitor") and role != seat.fifth:
        raise _not_in_deck(role)
    if role == "contessa":
        raise CommandError("coup.cmd.contessa_blocks")
    if role == "inquisitor":
        kind = "examine" if ctx.args[1:] else "exchange"
    else:
        kind = ACTION_OF_ROLE[role]
    await turn_action(ctx, kind, ctx.args[1:])


# -- reactions ---------------------------------------------------------------------------------

# «Не верю!» is what Russian players say; seed 000 calls a challenge «проверка легальности»; the
# status line says «Можно оспорить» / «Можна оскаржити».
@command("challenge", "вызов", "сомневаюсь", "doubt", "не верю", "проверка", "проверить", "оспорить",
         "виклик", "сумніваюсь", "не вірю", "оскаржити", game=GAME)
async def challenge(ctx: Ctx) -> None:
    await act(ctx, {"type": "challenge"})


@command("block", "блок", "блокировать", "блокувати", game=GAME)
async def block(ctx: Ctx) -> None:
    """block [ROLE]: the role may be left out when only one fits."""
    if ctx.args:
        await act(ctx, {"type": "block", "role": parse_role(ctx.args[0])})
        return
    seat = Seat(ctx)
    blocks = seat.of_type("block")
    if not blocks:
        action = (seat.view.get("pending") or {}).get("action")
        if action in TURN_ACTIONS and action not in BLOCKABLE:  # an examination, say: never blockable
            raise CommandError("coup.error.unblockable", action=action_name(action))
        raise CommandError("coup.error.cannot_block")
    roles = [a["role"] for a in blocks]
    if len(set(roles)) > 1:
        raise CommandError("coup.cmd.which_block", roles=role_list(roles))
    await act(ctx, blocks[0])


@command("allow", "pass", "пропустить", "пас", "пропустити", game=GAME)
async def allow(ctx: Ctx) -> None:
    await act(ctx, {"type": "allow"})


@command("prove", "доказать", "довести", game=GAME)
async def prove(ctx: Ctx) -> None:
    await act(ctx, {"type": "prove"})


@command("concede", "сдаться", "признать", "здатися", game=GAME)
async def concede(ctx: Ctx) -> None:
    await act(ctx, {"type": "concede"})


def _one_card(seat: Seat, words: list[str], kind: str) -> str | None:
    """The card named, or the only card this seat may choose now (None: not its choice now,
    and the engine will say why)."""
    if words:
        return parse_role(words[0])
    options = [a["role"] for a in seat.of_type(kind)]
    if len(options) == 1:
        return options[0]
    if options:
        raise CommandError("coup.cmd.which_card", roles=role_list(options))
    return None


@command("lose", "сбросить", "потерять", "скинути", "втратити", game=GAME)
async def lose(ctx: Ctx) -> None:
    seat = Seat(ctx)
    role = _one_card(seat, ctx.args, "lose")
    await act(ctx, {"type": "lose", "role": role})


@command("keep", "оставить", "залишити", game=GAME)
async def keep(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.keep")
    roles = parse_roles(ctx.args)
    seat = Seat(ctx)
    wanted = Counter(roles)
    for action in seat.of_type("keep"):
        if Counter(action.get("roles") or []) == wanted:
            await act(ctx, action)
            return
    await act(ctx, {"type": "keep", "roles": roles})


@command("show", "показать", "показати", game=GAME)
async def show(ctx: Ctx) -> None:
    """show CARD when examined; when challenged, show the claimed card (= prove)."""
    seat = Seat(ctx)
    if not seat.of_type("show") and seat.of_type("prove"):
        await act(ctx, {"type": "prove"})
        return
    role = _one_card(seat, ctx.args, "show")
    await act(ctx, {"type": "show", "role": role})


@command("return", "вернуть", "повернути", game=GAME)
async def return_(ctx: Ctx) -> None:
    await act(ctx, {"type": "examine_return"})


@command("swap", "заменить", "замінити", game=GAME)
async def swap(ctx: Ctx) -> None:
    await act(ctx, {"type": "examine_swap"})


@command("draft", "выбрать", "вибрати", game=GAME)
async def draft(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.draft")
    role = parse_role(ctx.args[0])
    seat = Seat(ctx)
    if role in ("ambassador", "inquisitor") and role != seat.fifth:
        raise _not_in_deck(role)
    await act(ctx, {"type": "draft", "role": role})


__all__ = ["parse_role", "parse_roles", "ROLE_FORMS"]


def show_roles(ctx: Ctx, table: Any) -> None:
    """`roles` at a Coup table: the five roles in play (the fifth as the table chose), what each
    does and blocks, and how many copies the deck holds."""
    if table.game is not None:  # dealt: the copies of this game
        ctx.reply("coup.roles.header", number=table.number, n=copies_for(len(table.seats)))
    else:
        ctx.reply("coup.roles.header_open", number=table.number)
    for role in ("duke", "assassin", "captain", fifth_role(table), "contessa"):
        ctx.reply(f"coup.roles.{role}", role=role_name(role))
    ctx.reply("coup.roles.general")
    ctx.reply("coup.roles.footer")


ROLE_LISTS[GAME] = show_roles
