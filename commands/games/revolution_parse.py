"""«Революция» verbs: a typed turn, card play or speech read into an action."""
from __future__ import annotations

from typing import Any

from commands.base import CommandError
from world.presenters.revolution import card_list, numbered

from .revolution_words import CONNECTORS, fold, number_of, tokens
from .revolution_seat import Seat, side_of, kind_name, arg_words

# -- the turn ----------------------------------------------------------------------------------

def parse_draw(seat: Seat, args: list[str]) -> dict[str, Any]:
    if seat.can("draw"):
        return {"type": "draw"}
    if seat.can("draw_hidden"):
        return {"type": "draw_hidden"}
    return _not_now(seat)


def _not_now(seat: Seat) -> dict[str, Any]:
    """No such move now: the engine says why (not your turn, wrong step, game over)."""
    if seat.view.get("stage") == "over":
        raise CommandError("revolution.error.game_over")
    if seat.view.get("active") != seat.number and seat.view.get("stage") not in ("fight", "counter"):
        raise CommandError("revolution.error.not_your_turn")
    raise CommandError("revolution.error.bad_stage")


def parse_fight(seat: Seat, args: list[str]) -> dict[str, Any]:
    if not seat.can("fight"):
        if seat.view.get("stage") == "fight":
            raise CommandError("revolution.cmd.in_fight")
        return _not_now(seat)
    pool = [a["card"] for a in seat.of_type("fight")]
    return {"type": "fight", "card": seat.one_card(arg_words(args), pool, what="opponent")}


def parse_end(seat: Seat, args: list[str]) -> dict[str, Any]:
    if seat.can("end"):
        return {"type": "end"}
    view = seat.view
    if view.get("active") == seat.number and view.get("stage") == "end":
        raise CommandError("revolution.error.hand_limit", limit=view.get("hand_limit", 5))
    return _not_now(seat)


def parse_done(seat: Seat, args: list[str]) -> dict[str, Any]:
    """`pass`, `flee`, `ready`, `refuse`: done for now in a fight or counter window; at the end
    of one's own turn, the end of the turn."""
    if seat.can("pass"):
        return {"type": "pass"}
    if seat.can("end"):
        return {"type": "end"}
    if seat.view.get("stage") in ("fight", "counter"):
        raise CommandError("revolution.cmd.already_passed")
    return _not_now(seat)


def parse_drop(seat: Seat, args: list[str]) -> dict[str, Any]:
    pool = [a["card"] for a in seat.of_type("discard")]
    if not pool:
        if seat.view.get("active") == seat.number and seat.view.get("stage") in ("choose", "end"):
            raise CommandError("revolution.cmd.no_cards", what=kind_name("card"))
        return _not_now(seat)
    return {"type": "discard", "card": seat.one_card(arg_words(args), pool)}


def card_run(seat: Seat, words: list[str], pool: list[str], numbered_list: list[str]) -> list[str]:
    """Several cards in a row (`sell наган 3 паёк`): each by name or number; a number names one
    copy, so `sell 2 2` is refused while `sell наган наган` sells two copies."""
    out: list[str] = []
    left = list(pool)
    used_numbers: set[int] = set()
    i = 0
    while i < len(words):
        word = words[i]
        if fold(word) in CONNECTORS or fold(word) in {"and", "и", "і", "та"}:
            i += 1
            continue
        n = number_of(word)
        if n is not None and 1 <= n <= len(numbered_list):
            cid = numbered_list[n - 1]
            if n in used_numbers or cid not in left:
                raise CommandError("revolution.cmd.twice", word=word)
            used_numbers.add(n)
            left.remove(cid)
            out.append(cid)
            i += 1
            continue
        span = seat.card_span(words, list(dict.fromkeys(pool)), numbered_list, start=i)
        if span is None:
            raise seat.card_error(word, pool, numbered_list)
        cid, size = span
        if cid not in left:
            raise CommandError("revolution.cmd.twice", word=" ".join(words[i:i + size]))
        left.remove(cid)
        out.append(cid)
        i += size
    return out


def parse_sell(seat: Seat, args: list[str]) -> dict[str, Any]:
    if not (seat.view.get("active") == seat.number and seat.view.get("stage") in ("open", "choose", "end")):
        return _not_now(seat)
    listed = seat.hand + seat.gear
    pool = [c for c in listed if seat.deck is not None and seat.deck.cards[c].price is not None]
    words = arg_words(args)
    if not words:
        suggestion = [a["cards"] for a in seat.of_type("sell")]
        raise CommandError("revolution.cmd.sell_usage", cards=seat.pool_list(pool, listed),
                           example=card_list(seat.deck, suggestion[0]) if suggestion else card_list(seat.deck, []))
    return {"type": "sell", "cards": card_run(seat, words, pool, listed)}


def parse_buyout(seat: Seat, args: list[str]) -> dict[str, Any]:
    jail = seat.view.get("jail") or []
    if not (seat.number < len(jail) and jail[seat.number]):
        raise CommandError("revolution.error.not_jailed")
    listed = seat.hand + seat.gear
    pool = [c for c in listed if seat.deck is not None and seat.deck.cards[c].price is not None]
    words = arg_words(args)
    if not words:
        suggestion = seat.of_type("buyout")
        if suggestion:  # no cards named: the engine's pick (the cheapest loot that suffices)
            return {"type": "buyout", "cards": list(suggestion[0]["cards"])}
        raise CommandError("revolution.cmd.buyout_usage", cards=seat.pool_list(pool, listed))
    return {"type": "buyout", "cards": card_run(seat, words, pool, listed)}


def parse_roll(seat: Seat, args: list[str]) -> dict[str, Any]:
    if seat.can("roll"):
        return {"type": "roll"}
    jail = seat.view.get("jail") or []
    if not (seat.number < len(jail) and jail[seat.number]):
        raise CommandError("revolution.error.not_jailed")
    return _not_now(seat)


# -- cards on the table ------------------------------------------------------------------------

def parse_equip(seat: Seat, args: list[str]) -> dict[str, Any]:
    pool = [c for c in seat.hand if seat.category(c) in ("headgear", "footwear", "clothing", "weapon")]
    return {"type": "equip", "card": seat.one_card(arg_words(args), pool, what="equipment")}


def parse_enlist(seat: Seat, args: list[str]) -> dict[str, Any]:
    pool = [c for c in seat.hand if seat.category(c) in ("class", "party")]
    return {"type": "place", "card": seat.one_card(arg_words(args), pool, what="class_party")}


def _rest_text(rest: str, toks: list[tuple[str, int]], index: int) -> str:
    """The typed text from the ``index``-th argument to the end, as typed."""
    if index >= len(toks):
        return ""
    return rest[toks[index][1]:].strip()


def _legal_sides(seat: Seat, kind: str, cid: str) -> list[str]:
    return [a["side"] for a in seat.legal if a.get("type") == kind and a.get("card") == cid and "side" in a]


def _bonus_side(seat: Seat, cid: str) -> str | None:
    """The side of a card's fight bonus: "any" (the player names it), a fixed side, or None."""
    card = seat.deck.cards.get(cid) if seat.deck is not None else None
    e = card.effect("fight_bonus") if card is not None else None
    return e["side"] if e else None


def _default_side(seat: Seat, kind: str, cid: str, hinder: bool) -> str:
    sides = _legal_sides(seat, kind, cid)
    if hinder:
        return "opponent"
    if "players" in sides or not sides:
        return "players"
    return sides[0]


def parse_play(seat: Seat, rest: str, hinder: bool = False, only: tuple[str, ...] = ()) -> dict[str, Any]:
    """`play CARD [for|against] [NAME ITEM]`: one-shot cards; items and class/party cards go on
    the table, speeches are read (the rest of the line is the text). ``hinder``: the card works
    for the opponent. ``only``: the categories this verb takes (revolt, counter)."""
    toks = tokens(rest)
    words = [w for w, _ in toks]
    hand = seat.hand
    pool = [c for c in hand if not only or seat.category(c) in only]
    if not words:
        if only and len(set(pool)) == 1:
            return _play_card(seat, pool[0], [], hinder, rest, toks, 0)
        if not pool:
            raise CommandError("revolution.cmd.no_cards", what=kind_name("revolution" if only else "card"))
        raise CommandError("revolution.cmd.which_card", cards=seat.pool_list(pool, hand))
    side_first = side_of(words[0]) if len(words) > 1 else None
    start = 1 if side_first else 0
    if seat.deck is not None and not only:
        speech = _speech_by_text(seat, _rest_text(rest, toks, start))
        if speech is not None and seat.category(speech) == "speech":
            side = side_first or _default_side(seat, "speech", speech, hinder)
            return {"type": "speech", "card": speech, "text": _rest_text(rest, toks, start), "side": side}
    if seat.deck is not None and not only:
        split = _speech_split(seat, rest, toks, start, side_first)
        if split is not None:
            cid, side, text = split
            return {"type": "speech", "card": cid, "text": text,
                    "side": side or _default_side(seat, "speech", cid, hinder)}
    span = seat.card_span(words, pool, hand, start=start)
    if span is None:
        if only and len(set(pool)) == 1 and not side_of(words[0]):
            return _play_card(seat, pool[0], words, hinder, rest, toks, 0)
        raise seat.card_error(words[start] if start < len(words) else words[0], pool, hand)
    cid, size = span
    after = start + size
    more = words[after:]
    if side_first:
        more = [words[0]] + more
    return _play_card(seat, cid, more, hinder, rest, toks, after, side_first)


def _play_card(seat: Seat, cid: str, more: list[str], hinder: bool, rest: str,
               toks: list[tuple[str, int]], after: int, side_first: str | None = None) -> dict[str, Any]:
    category = seat.category(cid)
    if category in ("headgear", "footwear", "clothing", "weapon"):
        return {"type": "equip", "card": cid}
    if category in ("class", "party"):
        return {"type": "place", "card": cid}
    if category == "opponent":
        if seat.can("fight"):
            return {"type": "fight", "card": cid}
        raise CommandError("revolution.cmd.opponent_card", card=card_list(seat.deck, cid))
    if category == "speech":
        i = after
        side = side_first
        if i < len(toks) and side_of(toks[i][0]) and side is None:
            side = side_of(toks[i][0])
            i += 1
        text = _rest_text(rest, toks, i)
        if not text:
            card = seat.deck.cards[cid]
            raise CommandError("revolution.cmd.need_text", card=card_list(seat.deck, cid),
                               text=_l10n_speech(card.speech))
        return {"type": "speech", "card": cid, "text": text,
                "side": side or _default_side(seat, "speech", cid, hinder)}
    action: dict[str, Any] = {"type": "play", "card": cid}
    card = seat.deck.cards[cid] if seat.deck is not None else None
    if card is not None and card.effect("steal_item"):
        try:
            target, item = _steal_target(seat, list(more))
        except CommandError:
            if _strip_connectors(more) == list(more):
                raise
            target, item = _steal_target(seat, _strip_connectors(more))
        action.update(target=target, item=item)
        return action
    words = [w for w in more if fold(w) not in CONNECTORS or side_of(w)]
    side = None
    for word in words:
        if side_of(word):
            side = side_of(word)
        else:
            raise CommandError("revolution.cmd.extra_words", words=" ".join(words))
    bonus = card.effect("fight_bonus") if card is not None else None
    if hinder:
        # Hindering: the bonus must work against the players (for the opponent, or a minus to
        # the players).
        if bonus is None:
            raise CommandError("revolution.cmd.not_hinder", card=card_list(seat.deck, cid))
        if bonus["side"] == "any":
            side = "opponent" if bonus["n"] > 0 else "players"
        elif (bonus["n"] > 0) != (bonus["side"] == "opponent"):
            raise CommandError("revolution.cmd.not_hinder", card=card_list(seat.deck, cid))
    if bonus is not None and bonus["side"] == "any":
        action["side"] = side or _default_side(seat, "play", cid, hinder)
    return action


def _l10n_speech(texts: Any) -> Any:
    from world.presenters.revolution import l10n

    return l10n(texts if isinstance(texts, dict) else {})


def _speech_split(seat: Seat, rest: str, toks: list[tuple[str, int]], start: int,
                  side: str | None) -> tuple[str, str | None, str] | None:
    """CARD [side] TEXT where TEXT is exactly the card's speech: (card, side, text). Tried for
    every length of the card's words, so a start of the name that runs into the text («речь к»
    + «Пролетарии всех стран...») still reads right."""
    from games.revolution.engine import normalize_speech

    words = [w for w, _ in toks]
    pool = [c for c in seat.hand if seat.category(c) == "speech"]
    for size in range(1, min(6, len(words) - start) + 1):
        found, sure = seat.find_card(words[start:start + size], pool, seat.hand)
        if not sure or found[0] not in pool:
            continue
        cid = found[0]
        j = start + size
        said_side = side
        if said_side is None and j < len(words) and side_of(words[j]):
            said_side, j = side_of(words[j]), j + 1
        text = _rest_text(rest, toks, j)
        card = seat.deck.cards[cid]
        if text and any(normalize_speech(text) == normalize_speech(t) for t in (card.speech or {}).values()):
            return cid, said_side, text
    return None


def _speech_by_text(seat: Seat, text: str) -> str | None:
    """The speech card in hand whose speech (in any language) is exactly this text."""
    from games.revolution.engine import normalize_speech

    said = normalize_speech(text) if text else ""
    if not said:
        return None
    for cid in dict.fromkeys(seat.hand):
        card = seat.deck.cards.get(cid)
        if card is not None and card.speech and any(said == normalize_speech(t) for t in card.speech.values()):
            return cid
    return None


def _strip_connectors(words: list[str]) -> list[str]:
    """`у Бориса наган`, `наган у Бориса`, `nagant from Boris`: the little word before a name
    goes; words inside a card name («Пальто с каракулем») stay."""
    words = list(words)
    if len(words) > 1 and fold(words[0]) in CONNECTORS:
        words = words[1:]
    if len(words) > 2 and fold(words[-2]) in CONNECTORS:
        words = words[:-2] + words[-1:]
    return words


def _steal_target(seat: Seat, words: list[str]) -> tuple[int, str]:
    """`NAME ITEM` or `ITEM NAME` (or just ITEM when one player wears it, or NAME when they wear
    one item)."""
    gear = seat.view.get("gear") or []
    others = [s for s in range(len(gear)) if s != seat.number and gear[s]]
    if not words:
        raise CommandError("revolution.cmd.steal_usage", names=seat.names(others))
    # NAME first
    target = seat.quiet_player(words[0], others)
    if target is not None and target != seat.number:
        their = list(gear[target]) if target < len(gear) else []
        if len(words) == 1:
            if len(set(their)) == 1:
                return target, their[0]
            worn_all = [c for s in others for c in gear[s]]
            if seat.card_span(words, worn_all, [], start=0) is None:  # not an item's name either
                raise CommandError("revolution.cmd.which_item", name=seat.table.seats[target].name,
                                   cards=numbered(seat.deck, their))
        else:
            item = seat.card_span(words, their, their, start=1)
            if item is not None and item[1] == len(words) - 1:
                return target, item[0]
    # ITEM first, NAME last
    worn = [c for s in others for c in gear[s]]
    span = seat.card_span(words, worn, [], start=0)
    if span is not None:
        cid, size = span
        owners = [s for s in others if cid in gear[s]]
        if size == len(words):
            if len(owners) == 1:
                return owners[0], cid
            raise CommandError("revolution.cmd.whose_item", card=card_list(seat.deck, cid), names=seat.names(owners))
        owner = seat.player(words[-1], owners)
        if cid in gear[owner]:
            return owner, cid
        raise CommandError("revolution.error.no_item", card=card_list(seat.deck, cid))
    if target is not None:
        raise seat.card_error(words[1], list(gear[target]), list(gear[target]))
    seat.player(words[0], others)  # says why the name is wrong
    raise CommandError("revolution.cmd.steal_usage", names=seat.names(others))


def parse_speech(seat: Seat, rest: str, hinder: bool = False) -> dict[str, Any]:
    """`speech [CARD] [for|against] TEXT`: the card may be left out when the text names it (or
    when one speech card is in hand)."""
    toks = tokens(rest)
    words = [w for w, _ in toks]
    pool = [c for c in seat.hand if seat.category(c) == "speech"]
    if not pool:
        raise CommandError("revolution.cmd.no_cards", what=kind_name("speech"))
    if not words:
        raise CommandError("revolution.cmd.speech_usage", cards=seat.pool_list(pool, seat.hand))
    i = 0
    side = None
    if side_of(words[0]) and len(words) > 1:
        side, i = side_of(words[0]), 1
    found = _speech_by_text(seat, _rest_text(rest, toks, i))
    if found is not None:
        return {"type": "speech", "card": found, "text": _rest_text(rest, toks, i),
                "side": side or _default_side(seat, "speech", found, hinder)}
    split = _speech_split(seat, rest, toks, i, side)
    if split is not None:
        cid, said_side, text = split
        return {"type": "speech", "card": cid, "text": text,
                "side": said_side or _default_side(seat, "speech", cid, hinder)}
    span = seat.card_span(words, pool, seat.hand, start=i)
    if span is not None:
        cid, size = span
        j = i + size
        if side is None and j < len(words) and side_of(words[j]):
            side, j = side_of(words[j]), j + 1
        text = _rest_text(rest, toks, j)
        if not text:
            raise CommandError("revolution.cmd.need_text", card=card_list(seat.deck, cid),
                               text=_l10n_speech(seat.deck.cards[cid].speech))
        return {"type": "speech", "card": cid, "text": text,
                "side": side or _default_side(seat, "speech", cid, hinder)}
    if len(set(pool)) == 1:  # the only speech in hand, the text (maybe misspelt) as typed
        cid = pool[0]
        return {"type": "speech", "card": cid, "text": _rest_text(rest, toks, i),
                "side": side or _default_side(seat, "speech", cid, hinder)}
    raise CommandError("revolution.cmd.speech_usage", cards=seat.pool_list(pool, seat.hand))
