"""«Революция» verbs: the seat a verb acts for, with its cards and players found by what was typed."""
from __future__ import annotations

from typing import Any

from commands.base import CommandError, Ctx
from commands.games.seat import GameSeat
from world.presenters.revolution import card_list, table_deck

from .revolution_words import CONNECTORS, GAME, WORD_SIDE, fold, number_of

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
                while size > 1 and side_of(words[start + size - 1]):
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
                raise CommandError("revolution.cmd.no_cards", what=kind_name(what))
            raise CommandError("revolution.cmd.which_card", cards=self.pool_list(pool, numbered_list))
        span = self.card_span(words, pool, numbered_list)
        if (span is None or span[1] != len(words)) and len(words) > 1 and fold(words[0]) in CONNECTORS:
            words = words[1:]  # `бой с юнкером`, `fight with the cadet`
            span = self.card_span(words, pool, numbered_list)
        if span is None or span[1] != len(words):
            raise self.card_error(" ".join(words) if span is None else words[span[1]], pool, numbered_list)
        return span[0]

    # -- players -------------------------------------------------------------------------------


def kind_name(what: str) -> Any:
    from world.i18n import nested

    return nested(f"revolution.cmd.kind.{what}")


def arg_words(args: list[str]) -> list[str]:
    return [w for w in args if fold(w) or number_of(w) is not None or w in ("+", "-")]


def side_of(word: str) -> str | None:
    return WORD_SIDE.get(word.casefold().strip(",.;:!?")) or WORD_SIDE.get(fold(word))
