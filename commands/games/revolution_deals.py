"""«Революция» verbs: help offers in a fight, trades and arrests read into actions."""
from __future__ import annotations

from typing import Any

from commands.base import CommandError
from world.presenters.revolution import card_list

from .revolution_words import CONNECTORS, SHARE_NOUNS, fold, number_of, tokens
from .revolution_seat import Seat, arg_words
from .revolution_parse import card_run

# -- the fight ---------------------------------------------------------------------------------

def parse_offer(seat: Seat, args: list[str]) -> dict[str, Any]:
    """`offer [NAME] SHARE`: the fighter's name may be given; SHARE is the loot cards wanted."""
    fight = seat.view.get("fight")
    if not isinstance(fight, dict) or seat.view.get("stage") != "fight":
        raise CommandError("revolution.error.no_fight")
    loot = fight.get("loot", 0)
    share = None
    for word in arg_words(args):
        n = number_of(word)
        if n is not None:
            if share is not None:
                raise CommandError("revolution.cmd.offer_usage", loot=loot)
            share = n
            continue
        if fold(word) in CONNECTORS or fold(word) in SHARE_NOUNS:
            continue
        who = seat.player(word, [fight.get("fighter")])
        if who != fight.get("fighter"):
            raise CommandError("revolution.cmd.not_the_fighter", name=seat.table.seats[who].name,
                               fighter=seat.names([fight.get("fighter")]))
    if share is None:
        raise CommandError("revolution.cmd.offer_usage", loot=loot)
    return {"type": "offer", "share": share}


def parse_accept(seat: Seat, args: list[str]) -> dict[str, Any]:
    """`accept [NAME]`: in a fight, the fighter takes a help offer; outside, a trade offered to you."""
    fight = seat.view.get("fight")
    if not isinstance(fight, dict) or seat.view.get("stage") != "fight":
        if seat.view.get("trades_to_me"):
            return parse_trade_answer(seat, args, "trade_accept")
        raise CommandError("revolution.cmd.nothing_to_accept")
    offers = sorted(int(s) for s in (fight.get("offers") or {}))
    words = [w for w in arg_words(args) if fold(w) not in CONNECTORS]
    if not words:
        if len(offers) == 1:
            return {"type": "accept", "seat": offers[0]}
        if not offers:
            raise CommandError("revolution.error.no_such_offer")
        raise CommandError("revolution.cmd.which_offer", names=seat.names(offers))
    return {"type": "accept", "seat": seat.player(words[0], offers)}


# -- trades -------------------------------------------------------------------------------------

WITHDRAW_VERBS = {"withdraw", "отозвать", "забрати"}
WITHDRAW_WORDS = {"off", "cancel", "withdraw", "back", "отмена", "отменить", "отозвать", "скасувати", "забрати"}
GIVE_WORDS = {"give", "gives", "giving", "offer", "даю", "отдаю", "дам", "отдам", "віддаю", "віддам"}
FOR_WORDS = {"for", "за", "на", "взамен", "навзамін"}


def parse_trade(seat: Seat, rest: str) -> dict[str, Any]:
    """`trade NAME [give] CARD... [for CARD...]`: your priced cards (by number in your hand list,
    equipment numbered on, or by name) for the other's priced cards (their equipment, or any card
    by its name: they may hold it in hand), or for nothing (a gift)."""
    toks = tokens((rest or "").replace(",", " "))
    words = [w for w, _ in toks if fold(w) or number_of(w) is not None]
    view = seat.view
    targets = sorted({a["target"] for a in seat.of_type("trade")})
    if len(words) > 1 and fold(words[0]) in CONNECTORS:
        words = words[1:]  # `обмен с Борисом ...`
    if len(words) < 2:
        if not targets and view.get("stage") in ("fight", "counter"):
            raise CommandError("revolution.error.trade_not_now")
        raise CommandError("revolution.cmd.trade_usage", names=seat.names(targets))
    target = seat.player(words[0], targets)
    if target == seat.number:
        raise CommandError("revolution.error.bad_target")
    words = words[1:]
    if words and fold(words[0]) in GIVE_WORDS:
        words = words[1:]
    split = next((i for i, w in enumerate(words) if fold(w) in FOR_WORDS), None)
    give_words = words if split is None else words[:split]
    take_words = [] if split is None else words[split + 1:]
    if not give_words or (split is not None and not take_words):
        raise CommandError("revolution.cmd.trade_usage", names=seat.names(targets))
    listed = seat.hand + seat.gear
    pool = [c for c in listed if seat.deck is not None and seat.deck.cards[c].price is not None]
    give = card_run(seat, give_words, pool, listed)
    take: list[str] = []
    if take_words:
        gear = view.get("gear") or []
        theirs = list(gear[target]) if target < len(gear) else []
        worn = [c for c in theirs if seat.deck.cards[c].price is not None]
        try:
            take = card_run(seat, take_words, worn, theirs)
        except CommandError:
            # any priced card by name: they may hold it in hand (copies may be named twice)
            priced = [c for c, card in seat.deck.cards.items() if card.price is not None]
            take = _card_names(seat, take_words, priced)
    return {"type": "trade", "target": target, "give": give, "take": take}


def _card_names(seat: Seat, words: list[str], pool: list[str]) -> list[str]:
    """Cards by name among ``pool`` (no numbers; a card may be named twice for two copies)."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if fold(words[i]) in CONNECTORS or fold(words[i]) in {"and", "и", "і", "та"}:
            i += 1
            continue
        span = seat.card_span(words, pool, [], start=i)
        if span is None:
            found, _ = seat.find_card([words[i]], pool, [])
            if found:  # a start of several names: none of them is worn by the other player
                raise CommandError("revolution.error.no_item", card=card_list(seat.deck, found))
            raise seat.card_error(words[i], pool, [])
        out.append(span[0])
        i += span[1]
    return out


def parse_trade_answer(seat: Seat, args: list[str], kind: str) -> dict[str, Any]:
    """`accept [NAME]` / `decline [NAME]`: a trade offered to you (the name when several)."""
    offers = [o["seat"] for o in seat.view.get("trades_to_me") or []]
    if not offers:
        raise CommandError("revolution.cmd.no_trade_offer")
    words = [w for w in arg_words(args) if fold(w) not in CONNECTORS]
    if not words:
        if len(offers) == 1:
            return {"type": kind, "seat": offers[0]}
        raise CommandError("revolution.cmd.which_offer", names=seat.names(offers))
    return {"type": kind, "seat": seat.player(words[0], offers)}


def parse_withdraw(seat: Seat, args: list[str]) -> dict[str, Any]:
    if not seat.view.get("my_trade"):
        raise CommandError("revolution.cmd.no_own_trade")
    return {"type": "trade_withdraw"}


# -- power and jail ----------------------------------------------------------------------------

def parse_arrest(seat: Seat, args: list[str]) -> dict[str, Any]:
    """`arrest NAME CARD N` (any order of NAME and CARD; N, the secret term 1-6, comes last)."""
    words = arg_words(args)
    if len(words) > 2 and fold(words[0]) in CONNECTORS:
        words = words[1:]
    if len(words) < 2 or number_of(words[-1]) is None:
        raise CommandError("revolution.cmd.arrest_usage")
    number = number_of(words[-1])
    words = words[:-1]
    targets = sorted({a["target"] for a in seat.of_type("arrest")})
    hand = seat.hand
    if len(words) == 1:  # NAME only: the card is the only one in hand
        target = seat.player(words[0], targets)
        if len(set(hand)) != 1:
            raise CommandError("revolution.cmd.arrest_usage")
        return {"type": "arrest", "target": target, "card": hand[0], "number": number}
    # CARD then NAME
    span = seat.card_span(words, hand, hand, start=0, max_len=len(words) - 1)
    if span is not None and span[1] == len(words) - 1:
        target = seat.quiet_player(words[-1], targets)
        if target is not None:
            return {"type": "arrest", "target": target, "card": span[0], "number": number}
    # NAME then CARD
    target = seat.player(words[0], targets)
    card = seat.one_card(words[1:], hand)
    return {"type": "arrest", "target": target, "card": card, "number": number}
