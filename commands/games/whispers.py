"""«Шептуны» (Jabberjay) verbs.

`place CARD on NAME` / `положить КАРТА на ИМЯ` / `покласти` (the word `on`/`на` may be left out,
and the order may be `place NAME CARD`; CARD may be left out when the hand holds one rank, NAME
when only one player may take the card); `pass NAME` / `передать` / `передати` (a defeated
Capitol citizen passes the card dealt to them); `discard [CARD]` / `сбросить` / `скинути` (a
defeated Capitol citizen drops their card; after a pass, the player names which of their own
cards to drop).

Cards are understood by rank (1-5) or by status name in English, Russian or Ukrainian, in any
case and grammatical form, by a unique start of the word; players by a unique start of their
name.
"""
from __future__ import annotations

from typing import Any

from world.presenters.whispers import RANKS, card_list, localize_params

from ..base import CommandError, Ctx, command
from ..table import game_action
from .seat import GameSeat

GAME = "whispers"

# Every word that names a status card: the names of seed 002 and of the English and Ukrainian
# catalogs, their other forms (genitive/accusative, feminine for «карта», instrumental), a few
# synonyms and transliterations. Folded: lower case, ё as е.
CARD_FORMS: dict[int, tuple[str, ...]] = {
    1: ("ignored", "ignore", "игнорируемый", "игнорируемого", "игнорируемому", "игнорируемым",
        "игнорируемая", "игнорируемую", "игнорируемой", "игнорируемые", "игнор",
        "ігнорований", "ігнорованого", "ігнорованому", "ігнорованим", "ігнорована", "ігноровану",
        "ігнорованої", "ignoriruemyy", "ignoriruemyi", "ihnorovanyi"),
    2: ("hidden", "hide", "скрывшийся", "скрывшегося", "скрывшемуся", "скрывшимся", "скрывшаяся",
        "скрывшуюся", "скрывшейся", "скрывшиеся", "скрытый", "скрытого", "скрытая", "скрытую",
        "прихований", "прихованого", "прихованому", "прихованим", "прихована", "приховану",
        "прихованої", "skryvshiysya", "skryvshiisia", "prykhovanyi"),
    3: ("accused", "accuse", "обвиняемый", "обвиняемого", "обвиняемому", "обвиняемым",
        "обвиняемая", "обвиняемую", "обвиняемой", "обвиняемые", "обвинувачений", "обвинуваченого",
        "обвинуваченому", "обвинуваченим", "обвинувачена", "обвинувачену", "обвинуваченої",
        "obvinyaemyy", "obviniaemyi", "obvynuvachenyi"),
    4: ("exposed", "expose", "unprotected", "незащищенный", "незащищенного", "незащищенному",
        "незащищенным", "незащищенная", "незащищенную", "незащищенной", "незащищенные",
        "незахищений", "незахищеного", "незахищеному", "незахищеним", "незахищена", "незахищену",
        "незахищеної", "nezashchishchennyy", "nezashchishchennyi", "nezakhyshchenyi"),
    5: ("fled", "flee", "fleeing", "runaway", "fugitive", "сбежавший", "сбежавшего", "сбежавшему",
        "сбежавшим", "сбежавшая", "сбежавшую", "сбежавшей", "сбежавшие", "беглец", "беглеца",
        "беглецу", "беглецом", "беглянка", "беглянку", "втікач", "втікача", "втікачеві", "втікачу",
        "втікачем", "втекла", "втеклу", "sbezhavshiy", "sbezhavshii", "beglets", "vtikach"),
}
WORD_TO_RANK = {word: rank for rank, words in CARD_FORMS.items() for word in words}
WORD_TO_RANK.update({str(rank): rank for rank in RANKS})
# The little words between the card and the name: `place 3 on Boris`, `положить 3 на Бориса`,
# `положить 3 перед Борисом`, `покласти 3 на Бориса`.
CONNECTORS = {"on", "to", "onto", "before", "for", "at", "на", "перед", "для", "к", "ко", "до"}


def _fold(word: str) -> str:
    return word.casefold().replace("ё", "е").strip(".,;:!?«»\"'()#№")


def _card_error(word: str, found: set[int] | None = None) -> CommandError:
    if found:
        return CommandError("whispers.cmd.ambiguous_card", word=word, cards=card_list(sorted(found), with_rank=True))
    return CommandError("whispers.cmd.bad_card", word=word, cards=card_list(list(RANKS), with_rank=True))


def card_matches(word: str) -> set[int]:
    """The ranks a word may name: exactly, else by a unique start of any name in any language."""
    folded = _fold(word)
    if not folded:
        return set()
    if folded in WORD_TO_RANK:
        return {WORD_TO_RANK[folded]}
    if folded.isdigit():
        return set()
    return {rank for w, rank in WORD_TO_RANK.items() if not w.isdigit() and w.startswith(folded)}


def parse_card(word: str) -> int:
    """The rank a word names (1-5, or a status name in any language, by prefix)."""
    found = card_matches(word)
    if len(found) == 1:
        return next(iter(found))
    raise _card_error(word, found)


def is_card_word(word: str) -> bool:
    return len(card_matches(word)) == 1


def is_exact_card_word(word: str) -> bool:
    return _fold(word) in WORD_TO_RANK


class Seat(GameSeat):
    """This player's seat at a running «Шептуны» table: its view and legal actions right now."""

    game = GAME

    def names(self, seats: list[int]) -> str:
        return ", ".join(self.table.seats[s].name for s in seats if s < len(self.table.seats)) or "-"

    @property
    def hand(self) -> list[int]:
        return list(self.view.get("hand") or [])


async def act(ctx: Ctx, action: dict[str, Any]) -> None:
    """Send the action; the engine's rule errors come back with card names in the reader's language."""
    try:
        await game_action(ctx, action)
    except CommandError as err:
        message = err.message
        if message.key.startswith("whispers."):
            raise CommandError(message.key, **localize_params(message.params)) from err
        raise


# -- place ---------------------------------------------------------------------------------------

def _place_targets(seat: Seat, card: int | None = None) -> list[int]:
    """Who may take a card now (of this rank, if given), in the engine's order."""
    out: list[int] = []
    for action in seat.of_type("place"):
        if card is not None and action.get("card") != card:
            continue
        if action.get("target") not in out:
            out.append(action["target"])
    return out


def _only_rank(seat: Seat) -> int | None:
    ranks = sorted(set(seat.hand)) or sorted({a["card"] for a in seat.of_type("place")})
    return ranks[0] if len(ranks) == 1 else None


def _need_card(seat: Seat) -> CommandError:
    hand = sorted(set(seat.hand))
    if hand:
        return CommandError("whispers.cmd.which_card", cards=card_list(hand, with_rank=True))
    return CommandError("whispers.cmd.which_card", cards=card_list(list(RANKS), with_rank=True))


def _need_target(seat: Seat, card: int | None) -> CommandError:
    return CommandError("whispers.cmd.need_target", names=seat.names(_place_targets(seat, card)))


def parse_place(seat: Seat, args: list[str]) -> dict[str, Any]:
    """`place CARD [on] NAME`, `place NAME CARD`, `place NAME` (one rank in hand), `place CARD`
    (one player may take it), or `place` (only one move is possible)."""
    words = [w for w in args if _fold(w) and _fold(w) not in CONNECTORS]
    if not words:
        card = _only_rank(seat)
        targets = _place_targets(seat, card)
        if card is not None and len(targets) == 1:
            return {"type": "place", "card": card, "target": targets[0]}
        if card is None:
            raise CommandError("whispers.cmd.place_usage",
                               cards=card_list(sorted(set(seat.hand)), with_rank=True),
                               names=seat.names(_place_targets(seat)))
        raise _need_target(seat, card)
    if len(words) == 1:
        return _place_one_word(seat, words[0])
    first, second = words[0], words[1]
    # CARD NAME is the usual order; NAME CARD is understood too.
    if is_card_word(first):
        card = parse_card(first)
        target = seat.find_player(second, _place_targets(seat, card))
        if target is not None:
            return {"type": "place", "card": card, "target": target}
    if is_card_word(second):
        card = parse_card(second)
        target = seat.quiet_player(first, _place_targets(seat, card))
        if target is not None:
            return {"type": "place", "card": card, "target": target}
    if is_card_word(first):
        raise CommandError("whispers.cmd.no_player", name=second.lstrip("@"))
    if seat.quiet_player(first, _place_targets(seat)) is not None:
        raise _card_error(second, card_matches(second))  # NAME, then a word that is no card
    if is_card_word(second):
        seat.player(first, _place_targets(seat))  # says why the name is wrong
    raise _card_error(first, card_matches(first))


def _place_one_word(seat: Seat, word: str) -> dict[str, Any]:
    """One word: a card (the target is then the only possible one) or a player (the card is
    then the only rank in hand). An exact card word wins over a player's name prefix."""
    player = seat.quiet_player(word, _place_targets(seat))
    if is_exact_card_word(word) or (is_card_word(word) and player is None):
        card = parse_card(word)
        targets = _place_targets(seat, card)
        if len(targets) == 1:
            return {"type": "place", "card": card, "target": targets[0]}
        raise _need_target(seat, card)
    if player is None:
        if card_matches(word):
            raise _card_error(word, card_matches(word))
        seat.player(word, _place_targets(seat))  # ambiguous or unknown: say so
    card = _only_rank(seat)
    if card is None:
        raise _need_card(seat)
    return {"type": "place", "card": card, "target": player}


@command("place", "put", "play", "положить", "положи", "кладу", "класть", "выложить", "покласти",
         "поклади", game=GAME, completes=("player",))
async def place(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_place(seat, ctx.args))


# -- pass, discard -------------------------------------------------------------------------------

def parse_pass(seat: Seat, args: list[str]) -> dict[str, Any]:
    words = [w for w in args if _fold(w) not in CONNECTORS and _fold(w)]
    targets = [a["target"] for a in seat.of_type("pass")]
    if not words:
        if len(targets) == 1:
            return {"type": "pass", "target": targets[0]}
        raise CommandError("whispers.cmd.need_target", names=seat.names(targets))
    return {"type": "pass", "target": seat.player(words[0], targets)}


def parse_discard(seat: Seat, args: list[str]) -> dict[str, Any]:
    """Stage pass: drop the dealt card. Stage swap: name which of one's own cards to drop."""
    swaps = sorted({a["card"] for a in seat.of_type("swap")})
    words = [w for w in args if _fold(w)]
    if swaps or seat.view.get("stage") == "swap":
        if words:
            return {"type": "swap", "card": parse_card(words[0])}
        if len(swaps) == 1:
            return {"type": "swap", "card": swaps[0]}
        raise CommandError("whispers.cmd.which_card", cards=card_list(swaps or sorted(set(seat.hand)),
                                                                       with_rank=True))
    return {"type": "discard_pass"}


@command("pass", "give", "передать", "отдать", "передаю", "передати", "віддати", game=GAME,
         completes=("player",))
async def pass_(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_pass(seat, ctx.args))


@command("discard", "drop", "сбросить", "сброс", "скинуть", "скинути", "скинь", game=GAME)
async def discard(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_discard(seat, ctx.args))


__all__ = ["parse_card", "card_matches", "parse_place", "parse_pass", "parse_discard", "CARD_FORMS"]
