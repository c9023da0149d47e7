"""«Революция» verbs: every action of docs/revolution-protocol.md as a text command.

Cards are named by the number next to them in your hand list (`hand`/`карты`; equipment numbers
go on after the hand, for `sell` and `buyout`), or by name in Russian, English or Ukrainian (or
the card id), in any case, by a unique start of the name or of one of its words; a Russian or
Ukrainian word in another case («агитку») is found by its stem. Players by a unique start of their
name. Side words: for / за / players / игрокам — the players; against / против / opponent /
противнику — the opponent.

  draw | тянуть                         the face-up draw; in the choose step, the 2nd card face down
  fight CARD | бой КАРТА                fight an opponent from your hand
  flee | бежать, pass | пас, done       done for now in a fight or counter window (a lost fight
                                        rolls the escape for you)
  end | конец                           end the turn (done also ends it when nothing else waits)
  drop CARD | сбросить КАРТА            discard a hand card (choose and end steps)
  sell CARD... | продать КАРТА...       sell loot (hand or equipment) for levels
  equip CARD | надеть КАРТА             wear an item
  enlist CARD | вступить КАРТА          put a class or party card on the table
  play CARD [for|against] [NAME ITEM]   any card: one-shot cards, items, class/party, counters
  hinder CARD [TEXT] | помешать         a fight card (or a speech) for the opponent
  speech [CARD] [for|against] TEXT      read a speech in a fight (the card may be found by its text)
  offer [NAME] SHARE | предложить       offer to help the fighter for SHARE loot cards
  accept [NAME] | принять               take a help offer (in a fight) or a trade offered to you
  trade NAME give CARD... [for CARD...] | обмен ИМЯ даю КАРТА... [за КАРТА...]
                                        offer priced cards (hand or equipment) for the other's
                                        priced cards, or as a gift (no `for`); not in a fight
  decline [NAME] | отклонить            refuse a trade offered to you
  withdraw | отозвать, trade off        take back your open trade offer
  revolt [CARD] | революция             play a revolution card
  counter [CARD] | контра               play the counter-revolution of the open window
  arrest NAME CARD N | арест ИМЯ КАРТА N   ruling party: discard CARD, secret number N (1-6)
  roll | бросить                        in jail: the die (5-6: free)
  buyout [CARD...] | откуп              leave jail for loot worth 500 roubles
  unequip | снять                       explains: items come off only when replaced or sold
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from commands.base import CommandError, Ctx, command
from commands.games.seat import GameSeat
from commands.table import game_action
from world.presenters.revolution import card_list, deck_of, localize_params, numbered, table_deck

GAME = "revolution"

SIDE_WORDS = {
    "players": {"for", "players", "player", "us", "pro", "за", "игрокам", "игроков", "игроку", "нам", "себе",
                "своим", "гравцям", "гравців", "+"},
    "opponent": {"against", "opponent", "enemy", "vs", "против", "противнику", "противника", "врагу",
                 "проти", "супротивнику", "ворогу", "-"},
}
WORD_SIDE = {w: side for side, words in SIDE_WORDS.items() for w in words}
# Little words between the parts: `play X on Boris`, `сыграть X у Бориса`, `offer Anna 2 cards`.
CONNECTORS = {"on", "to", "from", "at", "of", "with", "the", "на", "у", "с", "со", "к", "ко", "от", "в",
              "в", "до", "від", "з", "із", "для"}
SHARE_NOUNS = {"card", "cards", "loot", "карта", "карты", "карт", "карту", "карти", "штуки", "шт"}
_TOKEN = re.compile(r'"([^"]*)"|«([^»]*)»|(\S+)')
_NUMBER = re.compile(r"^[#№]?(\d{1,3})[.)]?$")


@lru_cache(maxsize=8192)  # on every word of every typed line, and of every card name it is matched to
def fold(text: str) -> str:
    """Lower case, ё as е, every non-letter/digit a space, spaces collapsed."""
    text = text.casefold().replace("ё", "е").replace("ї", "і")
    text = "".join(ch if ch.isalnum() else " " for ch in text)
    return " ".join(text.split())


def tokens(rest: str) -> list[tuple[str, int]]:
    """(word, the offset where it starts in the typed text) for every argument."""
    out = []
    for m in _TOKEN.finditer(rest or ""):
        word = next(g for g in m.groups() if g is not None)
        out.append((word, m.start()))
    return out


def number_of(word: str) -> int | None:
    m = _NUMBER.match(word.strip())
    return int(m.group(1)) if m else None


class Seat(GameSeat):
    """This player's seat at a running «Революция» table: its view, legal actions and deck."""

    game = GAME
    trim = ",.;:!?"

    def __init__(self, ctx: Ctx) -> None:
        super().__init__(ctx)
        table = self.table
        self.deck = table_deck(table, self.view)

    # -- what is here ------------------------------------------------------------------------

    def can(self, kind: str) -> bool:
        return any(a.get("type") == kind for a in self.legal)

    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand") or [])

    @property
    def gear(self) -> list[str]:
        gear = self.view.get("gear") or []
        return list(gear[self.number]) if self.number < len(gear) else []

    def category(self, cid: str) -> str:
        return self.deck.cards[cid].category if self.deck is not None and cid in self.deck.cards else ""

    def names(self, seats: list[int]) -> str:
        return ", ".join(self.table.seats[s].name for s in seats if s < len(self.table.seats)) or "-"

    # -- cards ---------------------------------------------------------------------------------

    def card_words(self, cid: str) -> list[str]:
        card = self.deck.cards.get(cid) if self.deck is not None else None
        words = [fold(cid), fold(cid.replace("_", " "))]
        if card is not None:
            words += [fold(text) for text in card.name.values()]
        return [w for w in dict.fromkeys(words) if w]

    def _matches(self, phrase: str, pool: list[str]) -> tuple[list[str], list[str]]:
        """(exact matches, prefix matches) of a folded phrase among the distinct ids of ``pool``:
        exact is the whole name; prefix is the start of the name or of one of its words."""
        exact, prefix = [], []
        for cid in dict.fromkeys(pool):
            names = self.card_words(cid)
            if phrase in names:
                exact.append(cid)
                continue
            for name in names:
                words = name.split()
                if any(" ".join(words[i:]).startswith(phrase) for i in range(len(words))):
                    prefix.append(cid)
                    break
        return exact, prefix

    def find_card(self, words: list[str], pool: list[str], numbered_list: list[str]) -> tuple[list[str], bool]:
        """The card ids ``words`` may name in ``pool`` and whether the answer is sure (one id,
        by number, exact name or a unique start; else the candidates)."""
        if len(words) == 1:
            n = number_of(words[0])
            if n is not None:
                if 1 <= n <= len(numbered_list):
                    return [numbered_list[n - 1]], True
                return [], False
        phrase = fold(" ".join(words))
        if not phrase:
            return [], False
        exact, prefix = self._matches(phrase, pool)
        if len(exact) == 1:
            return exact, True
        if exact:
            return exact, False
        if len(prefix) == 1:
            return prefix, True
        if prefix:
            return prefix, False
        # «агитку», «наганом»: the stem of the last word, when nothing else matches.
        last = phrase.split()[-1]
        for cut in (1, 2):
            if len(last) - cut < 3:
                break
            stem = phrase[:-cut]
            exact, prefix = self._matches(stem, pool)
            found = exact or prefix
            if len(found) == 1:
                return found, True
            if found:
                return found, False
        return [], False

    def card_span(self, words: list[str], pool: list[str], numbered_list: list[str], start: int = 0,
                  max_len: int = 6) -> tuple[str, int] | None:
        """The longest run of words from ``start`` that names exactly one card of ``pool``:
        (card id, words used), or None."""
        for size in range(min(max_len, len(words) - start), 0, -1):
            found, sure = self.find_card(words[start:start + size], pool, numbered_list)
            if sure and found[0] in pool:
                # «речь против царя» vs `речь против ТЕКСТ`: a side word that only lengthens
                # the start of the same card's name is left for the side.
                while size > 1 and _side_of(words[start + size - 1]):
                    shorter, sure = self.find_card(words[start:start + size - 1], pool, numbered_list)
                    if not (sure and shorter == found):
                        break
                    size -= 1
                return found[0], size
        return None

    def card_error(self, word: str, pool: list[str], numbered_list: list[str]) -> CommandError:
        found, _ = self.find_card([word], pool, numbered_list)
        if len(found) > 1:
            return CommandError("revolution.cmd.ambiguous_card", word=word, cards=card_list(self.deck, found))
        if found:  # a number or name of a card that is not of the kind asked for
            return CommandError("revolution.cmd.not_that_card", card=card_list(self.deck, found),
                                cards=self.pool_list(pool, numbered_list))
        if self.deck is not None and number_of(word) is None:
            # A card of the deck named exactly that is not yours (any more: sold, traded, stolen).
            # (by its name or a start of it; only where the cards asked for are one's own)
            mine = self.hand + self.gear
            named = self.find_card([word], list(self.deck.cards), [])[0] if all(c in mine for c in pool) else []
            if named and not any(c in mine for c in named):
                return CommandError("revolution.error.no_such_card",
                                    card=card_list(self.deck, named[0] if len(named) == 1 else named))
            held = [c for c in named if c in mine]
            if held:  # yours, but not one this asks for (e.g. worn, when a card in hand is asked for)
                return CommandError("revolution.cmd.not_that_card",
                                    card=card_list(self.deck, held if len(held) > 1 else held[0]),
                                    cards=self.pool_list(pool, numbered_list))
        return CommandError("revolution.cmd.bad_card", word=word, cards=self.pool_list(pool, numbered_list))

    def pool_list(self, pool: list[str], numbered_list: list[str]) -> Any:
        """The pool as "3. Наган, 5. Паёк" (the numbers as in the hand list)."""
        from world.i18n import nested, nested_list

        items = []
        seen: set[str] = set()
        for i, cid in enumerate(numbered_list, 1):
            if cid in pool and cid not in seen:
                seen.add(cid)
                items.append(nested("revolution.view.numbered", no=i, name=card_list(self.deck, cid)))
        for cid in pool:
            if cid not in seen:
                seen.add(cid)
                items.append(card_list(self.deck, cid))
        return nested_list(items) if items else card_list(self.deck, [])

    def one_card(self, words: list[str], pool: list[str], numbered_list: list[str] | None = None,
                 what: str = "card") -> str:
        """Exactly one card of ``pool`` from all of ``words``, or the only card of the pool."""
        numbered_list = self.hand if numbered_list is None else numbered_list
        if not words:
            distinct = list(dict.fromkeys(pool))
            if len(distinct) == 1:
                return distinct[0]
            if not distinct:
                raise CommandError("revolution.cmd.no_cards", what=_what(what))
            raise CommandError("revolution.cmd.which_card", cards=self.pool_list(pool, numbered_list))
        span = self.card_span(words, pool, numbered_list)
        if (span is None or span[1] != len(words)) and len(words) > 1 and fold(words[0]) in CONNECTORS:
            words = words[1:]  # `бой с юнкером`, `fight with the cadet`
            span = self.card_span(words, pool, numbered_list)
        if span is None or span[1] != len(words):
            raise self.card_error(" ".join(words) if span is None else words[span[1]], pool, numbered_list)
        return span[0]

    # -- players -------------------------------------------------------------------------------


def _what(what: str) -> Any:
    from world.i18n import nested

    return nested(f"revolution.cmd.kind.{what}")


async def act(ctx: Ctx, seat: Seat | None, action: dict[str, Any]) -> None:
    """Send the action; the engine's rule errors come back with card names in the reader's language."""
    try:
        await game_action(ctx, action)
    except CommandError as err:
        message = err.message
        if message.key.startswith("revolution."):
            deck = seat.deck if seat is not None else deck_of("default")
            raise CommandError(message.key, **localize_params(message.params, deck)) from err
        raise


def _words(args: list[str]) -> list[str]:
    return [w for w in args if fold(w) or number_of(w) is not None or w in ("+", "-")]


def _side_of(word: str) -> str | None:
    return WORD_SIDE.get(word.casefold().strip(",.;:!?")) or WORD_SIDE.get(fold(word))


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
    return {"type": "fight", "card": seat.one_card(_words(args), pool, what="opponent")}


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
            raise CommandError("revolution.cmd.no_cards", what=_what("card"))
        return _not_now(seat)
    return {"type": "discard", "card": seat.one_card(_words(args), pool)}


def _card_run(seat: Seat, words: list[str], pool: list[str], numbered_list: list[str]) -> list[str]:
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
    words = _words(args)
    if not words:
        suggestion = [a["cards"] for a in seat.of_type("sell")]
        raise CommandError("revolution.cmd.sell_usage", cards=seat.pool_list(pool, listed),
                           example=card_list(seat.deck, suggestion[0]) if suggestion else card_list(seat.deck, []))
    return {"type": "sell", "cards": _card_run(seat, words, pool, listed)}


def parse_buyout(seat: Seat, args: list[str]) -> dict[str, Any]:
    jail = seat.view.get("jail") or []
    if not (seat.number < len(jail) and jail[seat.number]):
        raise CommandError("revolution.error.not_jailed")
    listed = seat.hand + seat.gear
    pool = [c for c in listed if seat.deck is not None and seat.deck.cards[c].price is not None]
    words = _words(args)
    if not words:
        suggestion = seat.of_type("buyout")
        if suggestion:  # no cards named: the engine's pick (the cheapest loot that suffices)
            return {"type": "buyout", "cards": list(suggestion[0]["cards"])}
        raise CommandError("revolution.cmd.buyout_usage", cards=seat.pool_list(pool, listed))
    return {"type": "buyout", "cards": _card_run(seat, words, pool, listed)}


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
    return {"type": "equip", "card": seat.one_card(_words(args), pool, what="equipment")}


def parse_enlist(seat: Seat, args: list[str]) -> dict[str, Any]:
    pool = [c for c in seat.hand if seat.category(c) in ("class", "party")]
    return {"type": "place", "card": seat.one_card(_words(args), pool, what="class_party")}


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
            raise CommandError("revolution.cmd.no_cards", what=_what("revolution" if only else "card"))
        raise CommandError("revolution.cmd.which_card", cards=seat.pool_list(pool, hand))
    side_first = _side_of(words[0]) if len(words) > 1 else None
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
        if only and len(set(pool)) == 1 and not _side_of(words[0]):
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
        if i < len(toks) and _side_of(toks[i][0]) and side is None:
            side = _side_of(toks[i][0])
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
    words = [w for w in more if fold(w) not in CONNECTORS or _side_of(w)]
    side = None
    for word in words:
        if _side_of(word):
            side = _side_of(word)
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
        if said_side is None and j < len(words) and _side_of(words[j]):
            said_side, j = _side_of(words[j]), j + 1
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
        raise CommandError("revolution.cmd.no_cards", what=_what("speech"))
    if not words:
        raise CommandError("revolution.cmd.speech_usage", cards=seat.pool_list(pool, seat.hand))
    i = 0
    side = None
    if _side_of(words[0]) and len(words) > 1:
        side, i = _side_of(words[0]), 1
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
        if side is None and j < len(words) and _side_of(words[j]):
            side, j = _side_of(words[j]), j + 1
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


# -- the fight ---------------------------------------------------------------------------------

def parse_offer(seat: Seat, args: list[str]) -> dict[str, Any]:
    """`offer [NAME] SHARE`: the fighter's name may be given; SHARE is the loot cards wanted."""
    fight = seat.view.get("fight")
    if not isinstance(fight, dict) or seat.view.get("stage") != "fight":
        raise CommandError("revolution.error.no_fight")
    loot = fight.get("loot", 0)
    share = None
    for word in _words(args):
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
    words = [w for w in _words(args) if fold(w) not in CONNECTORS]
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
    give = _card_run(seat, give_words, pool, listed)
    take: list[str] = []
    if take_words:
        gear = view.get("gear") or []
        theirs = list(gear[target]) if target < len(gear) else []
        worn = [c for c in theirs if seat.deck.cards[c].price is not None]
        try:
            take = _card_run(seat, take_words, worn, theirs)
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
    words = [w for w in _words(args) if fold(w) not in CONNECTORS]
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
    words = _words(args)
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


# -- the commands --------------------------------------------------------------------------------

@command("draw", "тянуть", "тяну", "вытянуть", "взять", "беру", "тягнути", "тягну", "витягнути",
         game=GAME)
async def draw(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_draw(seat, ctx.args))


@command("fight", "бой", "биться", "драться", "сразиться", "бій", "битися", game=GAME)
async def fight(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_fight(seat, ctx.args))


@command("done", "pass", "пас", "пасс", "пропуск", "готов", "готова", "готово", "дальше", "далее",
         "ready", "refuse", "отказать", "отказ", "готовий", "далі", "відмовити", game=GAME)
async def done(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_done(seat, ctx.args))


@command("flee", "бежать", "сбежать", "убежать", "бегу", "тікати", "втекти", "run", game=GAME)
async def flee(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_done(seat, ctx.args))


@command("end", "конец", "закончить", "завершить", "кінець", "завершити", "закінчити", game=GAME)
async def end(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_end(seat, ctx.args))


@command("drop", "discard", "сбросить", "сброс", "скинуть", "скинути", "викинути", "выбросить", game=GAME)
async def drop(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_drop(seat, ctx.args))


@command("sell", "продать", "продаю", "продати", game=GAME)
async def sell(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_sell(seat, ctx.args))


@command("equip", "wear", "надеть", "одеть", "надеваю", "вооружиться", "вдягнути", "одягнути", game=GAME)
async def equip(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_equip(seat, ctx.args))


@command("unequip", "снять", "зняти", "remove", game=GAME)
async def unequip(ctx: Ctx) -> None:
    raise CommandError("revolution.cmd.no_unequip")


@command("enlist", "place", "вступить", "стать", "положить", "вступити", "стати", "покласти", game=GAME)
async def enlist(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_enlist(seat, ctx.args))


@command("play", "use", "сыграть", "играть", "играю", "применить", "зіграти", "грати", "застосувати",
         game=GAME, completes=("player",))
async def play(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_play(seat, ctx.rest))


@command("hinder", "помешать", "мешать", "мешаю", "завадити", "заважати", game=GAME)
async def hinder(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_play(seat, ctx.rest, hinder=True))


@command("speech", "речь", "промова", "промову", "speak", game=GAME)
async def speech(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_speech(seat, ctx.rest))


@command("offer", "предложить", "предлагаю", "помочь", "запропонувати", "допомогти", game=GAME,
         completes=("player",))
async def offer(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_offer(seat, ctx.args))


@command("accept", "принять", "принимаю", "прийняти", "приймаю", game=GAME, completes=("player",))
async def accept(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_accept(seat, ctx.args))


@command("trade", "swap", "обмен", "обменять", "обменяться", "обмін", "обміняти", "міняю", "withdraw",
         "отозвать", "забрати", game=GAME, completes=("player",))
async def trade(ctx: Ctx) -> None:
    seat = Seat(ctx)
    if fold(ctx.verb) in WITHDRAW_VERBS or [fold(w) for w in ctx.args] in ([w] for w in WITHDRAW_WORDS):
        await act(ctx, seat, parse_withdraw(seat, ctx.args))
        return
    await act(ctx, seat, parse_trade(seat, ctx.rest))


@command("decline", "reject", "отклонить", "отвергнуть", "відхилити", game=GAME, completes=("player",))
async def decline(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_trade_answer(seat, ctx.args, "trade_decline"))


@command("revolt", "революция", "революція", "восстание", "повстання", game=GAME)
async def revolt(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_play(seat, ctx.rest, only=("revolution",)))


@command("counter", "контра", "контрреволюция", "контрреволюція", game=GAME)
async def counter(ctx: Ctx) -> None:
    seat = Seat(ctx)
    pool = [a["card"] for a in seat.of_type("play")
            if seat.deck is not None and seat.deck.cards[a["card"]].effect("counter")]
    if seat.view.get("stage") != "counter":
        raise CommandError("revolution.cmd.no_counter_window")
    if not pool:
        raise CommandError("revolution.cmd.no_counter_card")
    await act(ctx, seat, {"type": "play", "card": seat.one_card(_words(ctx.args), pool)})


@command("arrest", "арест", "арестовать", "арестую", "арешт", "заарештувати", game=GAME, completes=("player",))
async def arrest(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_arrest(seat, ctx.args))


@command("roll", "бросить", "бросок", "кубик", "кинуть", "кинути", "кидок", game=GAME)
async def roll(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_roll(seat, ctx.args))


@command("buyout", "откуп", "откупиться", "выкуп", "выкупиться", "викуп", "відкупитися", game=GAME)
async def buyout(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_buyout(seat, ctx.args))


__all__ = ["Seat", "parse_draw", "parse_fight", "parse_end", "parse_done", "parse_drop", "parse_sell",
           "parse_buyout", "parse_roll", "parse_equip", "parse_enlist", "parse_play", "parse_speech",
           "parse_offer", "parse_accept", "parse_arrest", "parse_trade", "parse_trade_answer", "parse_withdraw",
           "fold", "tokens"]
