"""How «Революция» reads: the table (every player's level, attack, class, party, equipment, hand
size and jail term; the ruling party; the decks; the fight with its totals, helper, offers and the
cards played in it; the counter-revolution window; open trade offers; who is awaited and until when), your hand with
the numbers you may type and each card's text, and the card, party and class names inside events.

Card names and texts live in the deck file (games/revolution/decks/<deck>.json), not in the
catalogs, so a card reaches a message as a nested message ``revolution.l10n`` carrying its text in
every language: ``{"$msg": "revolution.l10n", "params": {"ru": ..., "en": ..., "uk": ...}}``; each
catalog's template picks its own language (``uk`` falls back to ``en`` when the deck has no
Ukrainian). It stays JSON-able, since an event may wait in the inbox. Party and class keys become
the names of their cards. Money is ``revolution.money`` ("1 000 рублей", "1,000 roubles").
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..i18n import nested, nested_list
from ..messages import Msg, msg
from . import LastShown, name_or_dash, people_awaited, per_seat, waiting_for_people, waiting_line
from .reprompt import AGAIN, FULL, prompt_due

if TYPE_CHECKING:
    from ..table_data import Table

SIDES = ("players", "opponent")
PURPOSES = ("first", "first_again", "escape", "arrest", "jail")
HOWS = ("roll", "buyout", "card", "term", "amnesty")
PILES = ("turn", "loot")
STAGES = ("jail", "open", "choose", "end", "fight", "counter", "over")
CARD_PARAMS = ("card", "item")
CARD_LIST_PARAMS = ("cards", "gives", "gets", "gave", "got")
PARTY_PARAMS = ("party", "prev")


# -- the deck ----------------------------------------------------------------------------------

def deck_of(name: Any = "default", revision: Any = None) -> Any:
    """The loaded deck (games.revolution.deck.Deck) in the revision the table plays (None: the
    file as it is), or None when it cannot be read."""
    try:
        from games.revolution import deck as D

        return D.load(name if isinstance(name, str) and name else "default", revision)
    except Exception:  # noqa: BLE001 - a presenter never breaks the table; ids show as they are
        return None


def table_deck(table: Any, view: dict[str, Any] | None = None) -> Any:
    options = getattr(table, "options", None) or {}
    name = (view or {}).get("deck") or options.get("deck") or "default"
    return deck_of(name, (view or {}).get("deck_rev") or options.get("deck_rev"))


def l10n(texts: dict[str, str] | None, fallback: str = "") -> Any:
    """A text given in several languages (a deck's ``{"ru": ..., "en": ...}``) as a nested
    message each reader sees in their own language."""
    texts = texts or {}
    en = texts.get("en") or texts.get("ru") or fallback
    ru = texts.get("ru") or en
    return nested("revolution.l10n", ru=ru, en=en, uk=texts.get("uk") or en)


def card_name(deck: Any, cid: Any) -> Any:
    if deck is not None and isinstance(cid, str) and cid in deck.cards:
        return l10n(deck.cards[cid].name, cid)
    return cid if cid is not None else nested("revolution.view.nothing")


def card_text(deck: Any, cid: Any) -> Any:
    if deck is not None and isinstance(cid, str) and cid in deck.cards:
        return l10n(deck.cards[cid].text, "")
    return ""


def card_list(deck: Any, cids: Any) -> Any:
    if not isinstance(cids, (list, tuple)):
        return card_name(deck, cids)
    if not cids:
        return nested("revolution.view.nothing")
    return nested_list([card_name(deck, c) for c in cids])


def numbered(deck: Any, cids: list[str], start: int = 1) -> Any:
    """"1. Наган, 2. Паёк": the cards with the numbers one may type."""
    if not cids:
        return nested("revolution.view.nothing")
    return nested_list([nested("revolution.view.numbered", no=i, name=card_name(deck, c))
                        for i, c in enumerate(cids, start)])


def _key_card(deck: Any, effect: str, key: Any) -> str | None:
    if deck is None or not isinstance(key, str):
        return None
    for card in deck.cards.values():
        e = card.effect(effect) if card.category == effect else None
        if e and e.get("key") == key:
            return card.id
    return None


def party_name(deck: Any, key: Any) -> Any:
    """A party key as the name of its card ("Большевики"); None: nobody."""
    if key is None:
        return nested("revolution.nobody")
    cid = _key_card(deck, "party", key)
    return card_name(deck, cid) if cid else key


def class_name(deck: Any, key: Any) -> Any:
    if key is None:
        return nested("revolution.view.no_class")
    cid = _key_card(deck, "class", key)
    return card_name(deck, cid) if cid else key


def deck_title(deck: Any, name: Any) -> Any:
    if deck is not None and getattr(deck, "name", None) == name:
        return l10n(deck.title, str(name))
    return name


def _group(n: int, sep: str) -> str:
    text = f"{abs(n):,}".replace(",", sep)
    return ("-" if n < 0 else "") + text


def money(n: Any) -> Any:
    """Roubles as a nested message: "1 000 рублей", "1,000 roubles", "1 000 рублів"."""
    if not isinstance(n, int) or isinstance(n, bool):
        return n
    return nested("revolution.money", n=n, ru=_group(n, "\u00a0"), en=_group(n, ","))


def side_name(side: Any) -> Any:
    return nested(f"revolution.side.{side}") if side in SIDES else (side or "")


def opponent_stats(deck: Any, cid: Any) -> dict[str, int]:
    if deck is None or cid not in deck.cards:
        return {"level": 0, "levels": 0, "loot": 0}
    e = deck.cards[cid].effect("opponent") or {}
    return {"level": e.get("level", 0), "levels": e.get("levels", 0), "loot": e.get("loot", 0)}


def counter_card(deck: Any, level: Any) -> str | None:
    if deck is None:
        return None
    for card in deck.cards.values():
        e = card.effect("counter")
        if e and e.get("level") == level:
            return card.id
    return None


# -- event parameters --------------------------------------------------------------------------

def event_params(table: "Table", raw: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The runner's hook (world.presenters.present_params): card ids become card names, party
    keys party names, sides, piles, roll purposes and ways out of jail words, roubles money, all in
    the reader's language. Always sets the optional pieces a template names (``with_helper``,
    ``extra``, ``from``), so every event renders whatever it carries. Stays JSON-able."""
    deck = table_deck(table)
    out = dict(params)
    for key in CARD_PARAMS:
        if isinstance(raw.get(key), str):
            out[key] = card_name(deck, raw[key])
    for key in CARD_LIST_PARAMS:
        if isinstance(raw.get(key), (list, tuple)):
            out[key] = card_list(deck, list(raw[key]))
            out[key + "_n"] = len(raw[key])
    for key in PARTY_PARAMS:
        if key in raw:
            out[key] = party_name(deck, raw.get(key))
    value = raw.get("deck")
    if value in PILES:
        out["deck"] = nested(f"revolution.pile.{value}")
        out["deck_from"] = nested(f"revolution.pile_from.{value}")
    elif isinstance(value, str):
        out["deck"] = deck_title(deck, value)
    if "side" in raw:
        out["side"] = side_name(raw.get("side"))
    if raw.get("purpose") in PURPOSES:
        out["purpose"] = nested(f"revolution.purpose.{raw['purpose']}")
    if raw.get("how") in HOWS:
        out["how"] = nested(f"revolution.how.{raw['how']}")
    if "success" in raw:
        out["result"] = nested("revolution.result.success" if raw["success"] else "revolution.result.fail",
                               target_seat=params.get("target_seat", ""), roll=raw.get("roll", 0))
    for key in ("roubles", "need"):
        if isinstance(raw.get(key), int):
            out[key] = money(raw[key])
            out[key + "_n"] = raw[key]
    n = raw.get("n")
    if isinstance(n, int) and not isinstance(n, bool) and "level" in raw:
        out["gain"] = nested("revolution.delta.up" if n >= 0 else "revolution.delta.down", n=abs(n))
    out["with_helper"] = (nested("revolution.with_helper", name=params["helper_seat"])
                          if raw.get("helper_seat") is not None else "")
    out["from"] = (nested("revolution.from_hand") if raw.get("from_hand")
                   else nested("revolution.from_draw") if raw.get("from_hand") is False else "")
    extra: Any = ""
    if raw.get("target_seat") is not None and raw.get("item") is not None and "success" not in raw:
        extra = nested("revolution.played_steal", target_seat=params.get("target_seat", ""),
                       item=card_name(deck, raw.get("item")))
    elif raw.get("side") in SIDES:
        extra = nested("revolution.played_side", side=side_name(raw["side"]))
    out["extra"] = extra
    return out


def localize_params(params: dict[str, Any], deck: Any) -> dict[str, Any]:
    """Rule-error parameters (a card id, roubles) in the reader's language."""
    out = dict(params)
    if "card" in out:
        card = out["card"]
        out["card"] = card_list(deck, card) if isinstance(card, (list, tuple)) else card_name(deck, card)
        if out["card"] is None or out["card"] == "":
            out["card"] = nested("revolution.view.nothing")
    for key in ("roubles", "need"):
        if isinstance(out.get(key), int):
            out[key] = money(out[key])
    return out


# -- the table ---------------------------------------------------------------------------------

def header(table: "Table", view: dict[str, Any], deck: Any) -> Msg:
    return msg("revolution.view.header", number=getattr(table, "number", 0), turn=view.get("turn", 0),
               ruling=party_name(deck, view.get("ruling")), turn_deck=view.get("turn_deck", 0),
               loot_deck=view.get("loot_deck", 0), turn_discard=len(view.get("turn_discard") or []),
               loot_discard=len(view.get("loot_discard") or []), limit=view.get("hand_limit", 5),
               escape=view.get("escape", 5))


def seat_line(table: "Table", view: dict[str, Any], number: int, awaited: set[int], deck: Any) -> Msg:
    info = table.seats[number] if number < len(table.seats) else None
    bot = msg("revolution.view.bot") if info is not None and getattr(info, "played_by_bot", False) else ""
    active = msg("revolution.view.active") if view.get("active") == number and view.get("stage") != "over" else ""
    thinking = msg("revolution.view.waiting") if number in awaited and view.get("stage") != "over" else ""
    gear = per_seat(view, "gear", number, []) or []
    jail = per_seat(view, "jail", number, 0) or 0
    ruling = view.get("ruling")
    party_key = per_seat(view, "party_keys", number)
    return msg("revolution.view.seat", name=name_or_dash(table, number), level=per_seat(view, "levels", number, 1),
               attack=per_seat(view, "attack", number, 0), cls=class_name(deck, per_seat(view, "class_keys", number)),
               party=(party_name(deck, party_key) if party_key is not None else nested("revolution.view.no_party")),
               ruling=msg("revolution.view.in_power") if ruling is not None and party_key == ruling else "",
               gear=card_list(deck, gear) if gear else nested("revolution.view.nothing"),
               hand=per_seat(view, "hand_sizes", number, 0) or 0,
               jail=msg("revolution.view.jailed", turns=jail) if jail else "",
               active=active, state=thinking, bot=bot)


def fight_lines(table: "Table", view: dict[str, Any], deck: Any) -> list[Msg]:
    fight = view.get("fight")
    if not isinstance(fight, dict):
        return []
    stats = opponent_stats(deck, fight.get("card"))
    helper = fight.get("helper")
    out = [msg("revolution.view.fight", fighter=name_or_dash(table, fight.get("fighter")),
               card=card_name(deck, fight.get("card")), level=stats["level"], levels=stats["levels"],
               loot=fight.get("loot", stats["loot"]),
               helper=(nested("revolution.view.helper", name=name_or_dash(table, helper), share=fight.get("share") or 0)
                       if helper is not None else ""),
               players=fight.get("players_total", 0), opponent=fight.get("opponent_total", 0),
               players_bonus=fight.get("players_bonus", 0), opponent_bonus=fight.get("opponent_bonus", 0))]
    text = card_text(deck, fight.get("card"))
    if text:
        out.append(msg("revolution.view.fight_card", text=text))
    offers = fight.get("offers") or {}
    if offers and helper is None:
        items = [nested("revolution.view.offer_item", name=name_or_dash(table, int(s)), share=share)
                 for s, share in sorted(offers.items(), key=lambda kv: int(kv[0]))]
        out.append(msg("revolution.view.offers", items=nested_list(items)))
    played = fight.get("played") or []
    if played:
        items = []
        for entry in played:
            if isinstance(entry, (list, tuple)) and len(entry) == 3:
                items.append(nested("revolution.view.played_item", name=name_or_dash(table, entry[0]),
                                    card=card_name(deck, entry[1]),
                                    side=side_name(entry[2]) if entry[2] in SIDES else ""))
        out.append(msg("revolution.view.played", items=nested_list(items)))
    return out


def counter_lines(table: "Table", view: dict[str, Any], deck: Any) -> list[Msg]:
    counter = view.get("counter")
    if not isinstance(counter, dict):
        return []
    level = counter.get("level", 1)
    cid = counter_card(deck, level)
    return [msg("revolution.view.counter", card=card_name(deck, counter.get("card")),
                party=party_name(deck, counter.get("party")), prev=party_name(deck, counter.get("prev")),
                level=level, counter=card_name(deck, cid) if cid else "-")]


def trade_lines(table: "Table", view: dict[str, Any], deck: Any) -> list[Msg]:
    """Open trade offers (who to whom, how many cards); the viewer's own offer and the offers to
    them with the cards."""
    trades = view.get("trades") or []
    if not trades:
        return []
    items = [nested("revolution.view.trade_item", name=name_or_dash(table, t.get("seat")), target=name_or_dash(table, t.get("target")),
                    give_n=t.get("give_n", 0), take_n=t.get("take_n", 0)) for t in trades if isinstance(t, dict)]
    out = [msg("revolution.view.trades", items=nested_list(items))]
    mine = view.get("my_trade")
    if isinstance(mine, dict):
        out.append(msg("revolution.view.my_trade", name=name_or_dash(table, mine.get("target")),
                       gives=card_list(deck, list(mine.get("give") or [])),
                       gets=card_list(deck, list(mine.get("take") or []))))
    for offer in view.get("trades_to_me") or []:
        out.append(msg("revolution.view.trade_to_me", name=name_or_dash(table, offer.get("seat")),
                       gets=card_list(deck, list(offer.get("give") or [])),
                       gives=card_list(deck, list(offer.get("take") or []))))
    return out


def stage_msg(table: "Table", view: dict[str, Any], deck: Any) -> Msg | None:
    stage = view.get("stage")
    if stage == "over":
        return msg("revolution.view.stage.over", name=name_or_dash(table, view.get("winner")))
    if stage in STAGES:
        return msg(f"revolution.view.stage.{stage}", name=name_or_dash(table, view.get("active")),
                   limit=view.get("hand_limit", 5))
    return None


def hint(view: dict[str, Any], seat: int | None) -> Msg:
    """What the viewer may type now."""
    stage = view.get("stage")
    jailed = seat is not None and (per_seat(view, "jail", seat, 0) or 0) > 0
    if stage == "fight":
        fight = view.get("fight") or {}
        if seat == fight.get("fighter"):
            return msg("revolution.hint.fighter")
        if seat == fight.get("helper"):
            return msg("revolution.hint.helper")
        if jailed:
            return msg("revolution.hint.jailed_fight")
        return msg("revolution.hint.fight")
    if stage == "counter":
        return msg("revolution.hint.counter")
    if view.get("trades_to_me") and seat != view.get("active"):
        return msg("revolution.hint.trade")
    if seat is not None and seat == view.get("active"):
        if stage == "end" and len(view.get("hand") or []) > view.get("hand_limit", 5):
            return msg("revolution.hint.over_limit", limit=view.get("hand_limit", 5),
                       n=len(view.get("hand") or []))
        if stage in ("jail", "open", "choose", "end"):
            return msg(f"revolution.hint.{stage}")
    return msg("revolution.hint.wait")


def question(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg | None, Msg]:
    """For ``present_question``: the stage in the table's deck's words, and what ``seat`` may type."""
    return stage_msg(table, view, table_deck(table, view)), hint(view, seat)


def describe(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
             awaited: set[int]) -> list[Msg]:
    """The whole table, for `look` and `hand`."""
    deck = table_deck(table, view)
    out = [header(table, view, deck)]
    for number in range(view.get("players", len(table.seats))):
        out.append(seat_line(table, view, number, awaited, deck))
    out.extend(fight_lines(table, view, deck))
    out.extend(counter_lines(table, view, deck))
    out.extend(trade_lines(table, view, deck))
    now = stage_msg(table, view, deck)
    if now is not None:
        out.append(now)
    waiting = waiting_line("revolution", table, view, awaited, seconds, seat)
    if waiting is not None:
        out.append(waiting)
    out.extend(private_lines(table, view, seat, seconds, awaited, deck))
    return out


def private_lines(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
                  awaited: set[int], deck: Any) -> list[Msg]:
    """The viewer's hand, each card with its number and text; equipment numbered on for `sell`;
    and their move if it is theirs."""
    if seat is None or "hand" not in view:
        return []
    hand = list(view.get("hand") or [])
    out: list[Msg] = []
    if hand:
        out.append(msg("revolution.view.hand_header", n=len(hand), limit=view.get("hand_limit", 5)))
        for i, cid in enumerate(hand, 1):
            out.append(msg("revolution.view.hand_item", no=i, name=card_name(deck, cid), text=card_text(deck, cid)))
    else:
        out.append(msg("revolution.view.hand_empty"))
    gear = list(per_seat(view, "gear", seat, []) or [])
    if gear:
        out.append(msg("revolution.view.gear", cards=numbered(deck, gear, len(hand) + 1)))
    if seat in awaited and view.get("stage") != "over":
        out.append(_your_move(view, seat, seconds))
    return out


def _your_move(view: dict[str, Any], seat: int, seconds: int | None) -> Msg:
    """«Ваш ход» on the viewer's own turn and in their own fight; «Можно ответить» in a window
    open to everyone (someone else's fight, the counter-revolution)."""
    stage = view.get("stage")
    reaction = stage == "counter" or (stage == "fight" and view.get("active") != seat)
    move = "may_answer" if reaction else "your_move"
    if seconds is not None:
        return msg(f"revolution.view.{move}_until", seconds=seconds, hint=hint(view, seat))
    return msg(f"revolution.view.{move}", hint=hint(view, seat))


# -- the status after every change -------------------------------------------------------------

_LAST_STATUS = LastShown()


def _signatures(view: dict[str, Any]) -> tuple[tuple, tuple]:
    """(the table: turn, whose, levels, jail terms, power; what is
    going on now: the stage, the viewer's hand, the fight's totals and sides, the counter level)."""
    fight = view.get("fight") or {}
    counter = view.get("counter") or {}
    table = (view.get("turn"), view.get("active"), tuple(view.get("levels") or ()), tuple(view.get("jail") or ()),
             view.get("ruling"))  # what the table line shows: it is said again only when that changed
    now = (view.get("stage"), tuple(view.get("hand") or ()), fight.get("card"), fight.get("helper"),
           fight.get("players_total"), fight.get("opponent_total"), len(fight.get("offers") or {}),
           counter.get("level"), len(view.get("trades") or []))
    return table, now


def _score(now_sig: tuple) -> tuple:
    """What the fight line shows, from the "now" signature: the card and the two totals."""
    return now_sig[2], now_sig[4], now_sig[5]


def _window(view: dict[str, Any]) -> tuple:
    """The window a prompt is said in: the turn, whose, the stage and the fight."""
    fight = view.get("fight") or {}
    return view.get("turn"), view.get("active"), view.get("stage"), fight.get("card"), fight.get("fighter")


def _choices(view: dict[str, Any], seat: int) -> tuple:
    """What the seat's prompt says it may do (its hand, the prompt's words) and the choices those
    words do not name: in a fight, may it still offer help, whose offers may it accept; in a
    counter-revolution, the level a counter card must have."""
    fight = view.get("fight") or {}
    offers: Any = None
    if view.get("stage") == "fight" and fight.get("helper") is None:
        offers = tuple(sorted(fight.get("offers") or {})) if seat == fight.get("fighter") \
            else str(seat) not in (fight.get("offers") or {})
    level = (view.get("counter") or {}).get("level")
    return tuple(view.get("hand") or ()), _your_move(view, seat, None), offers, level


def _again(view: dict[str, Any], seat: int, seconds: int | None) -> tuple[str, dict[str, Any]]:
    """(key, params) of the short «asked again» words: «Ваш ход» or «Можно ответить», as the
    prompt would say (``_your_move``), with the time left."""
    move = _your_move(view, seat, seconds).key.rsplit(".", 1)[-1]
    return f"revolution.status.again.{move}", ({} if seconds is None else {"seconds": seconds})


def status(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
           awaited: set[int]) -> list[Msg]:
    """After every change (world.runner calls it): a compact line of every player's level (and
    jail, and who rules) when any of it changes; the fight's totals when they move; and when the
    viewer is to act, their hand by number and what they may type, with the time left; when
    someone else is, whom the game waits for among people and until when (waiting_for_people)."""
    deck = table_deck(table, view)
    key = (getattr(table, "number", 0), seat)
    table_sig, now_sig = _signatures(view)
    mine = seat is not None and seat in awaited and view.get("stage") != "over"
    people = people_awaited(table, awaited)
    last = _LAST_STATUS.shown.get(key)
    out: list[Msg] = []
    if last is None or last[0] != table_sig:
        out.append(msg("revolution.status.line", turn=view.get("turn", 0), name=name_or_dash(table, view.get("active")),
                       ruling=party_name(deck, view.get("ruling")), seats=_status_items(table, view)))
    now_changed = last is None or last[1] != now_sig
    fight = view.get("fight")
    scored = isinstance(fight, dict) and view.get("stage") == "fight" and (last is None or _score(last[1]) != _score(now_sig))
    if scored:
        out.append(msg("revolution.status.fight", card=card_name(deck, fight.get("card")),
                       players=fight.get("players_total", 0), opponent=fight.get("opponent_total", 0)))
    # The whole prompt again only when what the viewer may do changed (issue 14): a new score is
    # the one line above, and a seat asked again with the same choices reads so in that line.
    due, prompted = prompt_due(None if last is None else last[4], _window(view),
                               _choices(view, seat) if mine else None, mine, last is not None and last[2])
    if due == FULL:
        hand = list(view.get("hand") or [])
        out.append(msg("revolution.status.hand", cards=numbered(deck, hand), n=len(hand)))
        out.append(_your_move(view, seat, seconds))
    elif due == AGAIN:
        again, params = _again(view, seat, seconds)
        if scored:
            out[-1] = msg("revolution.status.fight_again", **out[-1].params, again=nested(again, **params))
        else:
            out.append(msg(again, **params))
    elif not mine:  # until when, for everyone else
        waiting = waiting_for_people("revolution", table, view, people, frozenset() if last is None else last[3],
                                     now_changed, seconds)
        if waiting is not None:
            out.append(waiting)
    _LAST_STATUS.swap(key, (table_sig, now_sig, mine, people, prompted))
    return out


def _status_items(table: "Table", view: dict[str, Any]) -> Any:
    items = []
    for number in range(view.get("players", len(table.seats))):
        jail = per_seat(view, "jail", number, 0) or 0
        items.append(nested("revolution.status.seat", name=name_or_dash(table, number),
                            level=per_seat(view, "levels", number, 1),
                            jail=nested("revolution.status.jailed", turns=jail) if jail else ""))
    return nested_list(items, sep=" | ")


status_line = status


def said_by_others(events: list[Any]) -> list[int]:
    """For ``said_elsewhere``: a card drawn face up that starts a fight or a revolution at once,
    and a revolution played from the hand: the revolution's or the fight's line names the card
    and what it did («Вера вступает в бой: Чехословацкий корпус (открытая карта хода)!»), so the
    draw or the play prints nothing; and a requisition: its play says what it took («Глеб играет
    «Мандат на реквизицию» и забирает «Наган» у игрока Анна»), so the taking prints nothing."""
    out = []
    for index, (played, result) in enumerate(zip(events, events[1:])):
        same = played.params.get("seat") == result.params.get("seat")
        if played.key == "revolution.played" and result.key == "revolution.revolution" and same \
                and played.params.get("card") == result.params.get("card"):
            out.append(index)
        if played.key == "revolution.played" and result.key == "revolution.stolen" and same \
                and played.params.get("item") == result.params.get("card") \
                and played.params.get("target_seat") == result.params.get("target_seat"):
            out.append(index + 1)
    for index, drawn in enumerate(events):
        if drawn.key == "revolution.drawn" and any(
                result.key in ("revolution.fight", "revolution.revolution") and not result.params.get("from_hand")
                and result.params.get("seat") == drawn.params.get("seat")
                and result.params.get("card") == drawn.params.get("card") for result in events[index + 1:]):
            out.append(index)
    return out


# A seat's answer as it reads when the clock gave it (world/presenters/absence.py).
TIMEOUT_FORMS = {"revolution.passed": "revolution.timeout.passed",
                 "revolution.trade_declined": "revolution.timeout.trade_declined"}
