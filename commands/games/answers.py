"""The line a player types for each legal answer, in their language: what a button of the web page
types, and what a MUD client may offer (GMCP ``Korchma.Game.Awaiting``'s ``lines``, docs/gmcp.md).

Each game's verbs read these lines back as the same action (tests/test_answer_lines.py plays whole
games by them over the web and telnet doors). A line is

* ``{"line": TEXT}``: complete, typed as it is;
* ``{"line": TEXT, "more": True}``: the start of a command that needs what only the player can
  give (a letter's text, a role to name, a trade's cards): a client puts it in the input line
  for the player to finish, and never sends it alone.

The words are the catalogs' (the verb is the first word of ``help.usage.KEY``, the word the help
shows; roles, cards and abilities by their names there), the arguments what the verbs read in any
language: a player by name, a «Шептуны» card by its rank, a «Революция» card by its name in the
player's language. One line per distinct text: answers that differ only in what the player must
still give collapse into one start.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from world.i18n import catalog, strip_marks, t
from world.presenters.revolution import table_deck

Line = dict[str, Any]


@lru_cache(maxsize=16)
def verbs_in(lang: str) -> dict[str, str]:
    """Each command's verb in ``lang``: the first word of its ``help.usage.KEY``, the one the help shows."""
    book = catalog(lang)
    return {key.rsplit(".", 1)[1]: strip_marks(value).split()[0] for key, value in book.items()
            if key.startswith("help.usage.") and isinstance(value, str) and value.split()}


def _word(lang: str, key: str) -> str:
    return strip_marks(t(lang, key))


class _Answers:
    """One seat's answers at one table, in one language."""

    def __init__(self, table: Any, seat: int, lang: str) -> None:
        self.table, self.seat, self.lang = table, seat, lang
        self.verbs = verbs_in(lang)

    def verb(self, command: str) -> str:
        return self.verbs.get(command, command)

    def name(self, seat: int) -> str:
        seats = self.table.seats
        return seats[seat].name if 0 <= seat < len(seats) else str(seat)

    def line(self, *words: Any) -> Line:
        return {"line": " ".join(str(w) for w in words if w not in (None, ""))}

    def start(self, *words: Any) -> Line:
        return {**self.line(*words), "more": True}


# -- Coup ------------------------------------------------------------------------------------------

COUP_COMMAND = {"foreign_aid": "foreign", "examine_return": "return", "examine_swap": "swap"}


def _coup(a: _Answers, action: dict[str, Any]) -> Line:
    kind = action["type"]
    role = lambda key: _word(a.lang, f"coup.role.{key}").lower()  # noqa: E731
    words: list[Any] = [a.verb(COUP_COMMAND.get(kind, kind))]
    if action.get("role"):
        words.append(role(action["role"]))
    words += [role(r) for r in action.get("roles") or ()]
    if action.get("card") is not None:
        words.append(role(action["card"]))
    if action.get("target") is not None:
        words.append(a.name(action["target"]))
    return a.line(*words)


# -- Sealed Bids -----------------------------------------------------------------------------------

def _bids(a: _Answers, action: dict[str, Any]) -> Line:
    if action["type"] == "bid":
        return a.line(a.verb("bid"), action["card"])
    return a.line(a.verb(action["type"]))


# -- «Шептуны» -------------------------------------------------------------------------------------

def _whispers(a: _Answers, action: dict[str, Any]) -> Line:
    kind = action["type"]
    if kind == "place":  # `place CARD NAME`: the card by its rank, the player by name
        return a.line(a.verb("place"), action["card"], a.name(action["target"]))
    if kind == "pass":
        return a.line(a.verb("pass"), a.name(action["target"]))
    if kind == "swap":  # after a pass: which of one's own cards to drop
        return a.line(a.verb("discard"), action["card"])
    return a.line(a.verb("discard"))  # discard_pass: a defeated citizen drops the dealt card


# -- «Революция» -----------------------------------------------------------------------------------

REVOLUTION_COMMAND = {"draw_hidden": "draw", "pass": "done", "discard": "drop", "place": "enlist",
                      "trade_accept": "accept", "trade_decline": "decline"}
WITHDRAW = {"ru": "отменить", "uk": "скасувати", "en": "off"}
SIDE = {"ru": {"players": "за", "opponent": "против"}, "uk": {"players": "за", "opponent": "проти"},
        "en": {"players": "for", "opponent": "against"}}


def _revolution(a: _Answers, action: dict[str, Any], deck: Any) -> Line:
    kind = action["type"]
    verb = a.verb(REVOLUTION_COMMAND.get(kind, kind))
    of = lambda cid: deck.cards.get(cid) if deck is not None else None  # noqa: E731  (the deck's card, or None)

    def card(cid: str) -> str:
        found = of(cid)
        return (found.name.get(a.lang) or found.name.get("ru") or cid) if found is not None else cid

    if kind == "speech":
        found = of(action["card"])
        text = (found.speech or {}).get(a.lang) if found is not None else None
        return a.line(verb, card(action["card"]), SIDE[a.lang].get(action.get("side") or ""), text or action["text"])
    if kind == "play":
        side = SIDE[a.lang].get(action.get("side") or "")
        item = card(action["item"]) if action.get("item") else None
        target = a.name(action["target"]) if action.get("target") is not None else None
        return a.line(verb, card(action["card"]), side, target, item)
    if kind in ("sell", "buyout"):
        return a.line(verb, *(card(c) for c in action.get("cards") or ()))
    if kind in ("trade", "arrest"):  # which cards, and the secret number: the player's to say
        return a.start(verb, a.name(action["target"]))
    if kind in ("accept", "trade_accept", "trade_decline"):
        return a.line(verb, a.name(action["seat"]))
    if kind == "offer":
        return a.line(verb, action["share"])
    if kind == "trade_withdraw":  # `trade off` / `обмен отменить` / `обмін скасувати`
        return a.line(a.verb("trade"), WITHDRAW[a.lang])
    if action.get("card"):
        return a.line(verb, card(action["card"]))
    return a.line(verb)


# -- Mafia -----------------------------------------------------------------------------------------

CITY = {"ru": "город", "uk": "місто", "en": "city"}


def _mafia(a: _Answers, action: dict[str, Any]) -> Line:
    kind = action["type"]
    target = a.name(action["target"]) if isinstance(action.get("target"), int) else None
    if kind == "ready":
        return a.line(a.verb("ready"))
    if kind == "vote":
        return a.line(a.verb("vote"), target)
    if kind == "cancel":
        return a.line(a.verb("cancel"), _ability(a, action["ability"]))
    if kind == "mail":  # the letter is the player's to write
        city = CITY[a.lang] if action.get("target") == "city" else None
        return a.start(a.verb("mail"), target or city)
    ability = action["ability"]
    verb = a.verb("day" if ability == "assist" else "night")
    if action.get("need"):
        return a.start(verb, _ability(a, ability), target)
    return a.line(verb, _ability(a, ability), target)


def _ability(a: _Answers, key: str) -> str:
    return _word(a.lang, f"mafia.ability.{key}").lower()


GAMES: dict[str, Callable[..., Line]] = {"coup": _coup, "bids": _bids, "whispers": _whispers, "mafia": _mafia}


def answer_lines(table: Any, seat: int, legal: list[dict[str, Any]], lang: str) -> list[Line]:
    """A line for each answer of ``legal`` (in its order; the same text only once)."""
    answers = _Answers(table, seat, lang)
    game = table.game_name
    if game == "revolution":
        deck = table_deck(table)
        make: Callable[[dict[str, Any]], Line] = lambda action: _revolution(answers, action, deck)  # noqa: E731
    elif game in GAMES:
        make = lambda action: GAMES[game](answers, action)  # noqa: E731
    else:
        return []
    out: list[Line] = []
    seen: set[str] = set()
    for action in legal:
        line = make(action)
        if line["line"] not in seen:
            seen.add(line["line"])
            out.append(line)
    return out
