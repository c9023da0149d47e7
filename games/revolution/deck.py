"""«Революция»: deck files (games/revolution/decks/<name>.json): loading and validation.

A deck is data, not state: a game names its deck by option (``deck=default``), so a replay reads
the same file. A deck file may say its ``revision`` (1 if it does not); the numbers of an earlier
revision live beside it as a small overlay, ``<name>.rev<N>.json``, holding only the fields of the
cards that differ from revision N+1. A table plays the revision it started with (``deck_rev``), so
a deck tuned later does not change a game under way (load(name, revision)). Every card's ``effects`` come from the closed vocabulary below (documented in
docs/revolution-protocol.md); a bad file raises :class:`DeckError` naming the card and the problem.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base import RuleError

DECK_DIR = Path(__file__).resolve().parent / "decks"
NAME_RE = re.compile(r"^[a-z0-9_-]+$")
ID_RE = re.compile(r"^[a-z0-9_]+$")

TURN_CATEGORIES = ("opponent", "mandate", "decree", "revolution", "class", "party")
LOOT_CATEGORIES = ("headgear", "footwear", "clothing", "weapon", "speech", "loot")
CATEGORIES = TURN_CATEGORIES + LOOT_CATEGORIES
EQUIPMENT = ("headgear", "footwear", "clothing", "weapon")
ONE_SHOT = ("mandate", "decree", "revolution", "loot")
LANGS = ("ru", "en", "uk")

# effect name -> {param: spec}; spec: ("int", lo, hi) | ("choice", values) | ("key", "class"|"party")
# | ("ref",) (class or party key: exactly one of the two params) | ("party_or_own",)
_INT = "int"
EFFECTS: dict[str, dict[str, Any]] = {
    # opponents
    "opponent": {"level": (_INT, 1, 20), "levels": (_INT, 1, 2), "loot": (_INT, 1, 4)},
    "stronger_vs": {"ref": True, "n": (_INT, 1, 10)},
    "escape_mod": {"n": (_INT, -3, 3)},
    "penalty_levels": {"n": (_INT, 1, 3)},
    "penalty_item": {"n": (_INT, 1, 3)},
    "penalty_jail": {"turns": (_INT, 1, 6)},
    "penalty_hand": {},
    "penalty_class": {},
    "penalty_party": {},
    # equipment and class abilities
    "attack": {"n": (_INT, 1, 10)},
    "attack_if": {"ref": True, "n": (_INT, 1, 10)},
    "escape_bonus": {"n": (_INT, 1, 3)},
    "hands": {"n": (_INT, 1, 2)},
    "class": {"key": ("ident",)},
    "party": {"key": ("ident",)},
    "help_bonus": {"n": (_INT, 1, 10)},
    "win_loot": {"n": (_INT, 1, 2)},
    "speech_bonus": {"n": (_INT, 1, 3)},
    "sell_bonus": {"n": (_INT, 100, 500)},
    "speech": {"n": (_INT, 1, 5)},
    # one-shot
    "fight_bonus": {"n": (_INT, -10, 10), "side": ("choice", ("any", "players", "opponent"))},
    "cancel_fight": {},
    "auto_escape": {},
    "gain_level": {"n": (_INT, 1, 2)},
    "draw": {"deck": ("choice", ("turn", "loot")), "n": (_INT, 1, 3)},
    "release": {},
    "steal_item": {},
    "class_level": {"class": ("key", "class"), "n": (_INT, -2, 2)},
    "draw_all": {"deck": ("choice", ("turn", "loot")), "n": (_INT, 1, 2)},
    "discard_classes": {},
    "amnesty": {},
    "revolution": {"party": ("party_or_own",)},
    "counter": {"level": (_INT, 1, 3)},
}
PENALTIES = ("penalty_levels", "penalty_item", "penalty_jail", "penalty_hand", "penalty_class", "penalty_party")
FIGHT_ONLY = ("fight_bonus", "cancel_fight", "auto_escape")
ALONE = ("revolution", "counter", "steal_item", "release")
ALLOWED: dict[str, tuple[str, ...]] = {
    "opponent": ("opponent", "stronger_vs", "escape_mod") + PENALTIES,
    "headgear": ("attack", "attack_if", "escape_bonus"),
    "footwear": ("attack", "attack_if", "escape_bonus"),
    "clothing": ("attack", "attack_if", "escape_bonus"),
    "weapon": ("attack", "attack_if", "escape_bonus", "hands"),
    "class": ("class", "attack", "escape_bonus", "help_bonus", "win_loot", "speech_bonus", "sell_bonus"),
    "party": ("party",),
    "speech": ("speech",),
    "mandate": ("fight_bonus", "cancel_fight", "auto_escape", "gain_level", "draw", "release", "steal_item"),
    "decree": ("fight_bonus", "cancel_fight", "gain_level", "draw", "class_level", "draw_all",
               "discard_classes", "amnesty"),
    "revolution": ("revolution", "counter"),
    "loot": ("fight_bonus", "cancel_fight", "auto_escape", "gain_level", "draw", "release", "steal_item"),
}
CARD_FIELDS = {"id", "category", "count", "name", "text", "effects", "price", "speech"}
MIN_DECK = 20


class DeckError(RuleError):
    """A deck file the engine refuses: names the deck, the card (or "") and the problem."""

    def __init__(self, deck: str, card: str, problem: str) -> None:
        super().__init__("revolution.error.bad_deck", deck=deck, card=card, problem=problem)
        self.message = f"deck {deck!r}, card {card!r}: {problem}"

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Card:
    id: str
    category: str
    count: int
    name: dict[str, str]
    text: dict[str, str]
    effects: tuple[dict[str, Any], ...]
    price: int | None = None
    speech: dict[str, str] | None = None

    @property
    def deck(self) -> str:
        return "turn" if self.category in TURN_CATEGORIES else "loot"

    def effect(self, name: str) -> dict[str, Any] | None:
        for e in self.effects:
            if e["effect"] == name:
                return e
        return None

    def all(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.effects if e["effect"] == name]

    @property
    def fight_only(self) -> bool:
        return any(e["effect"] in FIGHT_ONLY for e in self.effects)


@dataclass(frozen=True)
class Deck:
    name: str
    title: dict[str, str]
    cards: dict[str, Card]
    classes: tuple[str, ...]
    parties: tuple[str, ...]
    revision: int = 1

    def ids(self, deck: str) -> list[str]:
        """Every physical card of the turn or loot deck, in file order."""
        return [c.id for c in self.cards.values() if c.deck == deck for _ in range(c.count)]

    def counts(self) -> dict[str, int]:
        """Cards per category."""
        out = {cat: 0 for cat in CATEGORIES}
        for c in self.cards.values():
            out[c.category] += c.count
        return out

    @property
    def total(self) -> int:
        return sum(c.count for c in self.cards.values())


_CACHE: dict[str, Deck] = {}


def cache_key(name: str, revision: int | None = None) -> str:
    """Where load() keeps a deck: its name for the file as it is, ``name@N`` for revision N."""
    return name if revision is None else f"{name}@{revision}"


def load(name: str, revision: int | None = None) -> Deck:
    """The deck ``name`` from games/revolution/decks/<name>.json (cached; DeckError if bad); with
    ``revision``, that revision of it (the file's own, or an earlier one through its overlays)."""
    deck = _CACHE.get(cache_key(name, revision))
    if deck is not None:
        return deck
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise DeckError(str(name), "", "a deck name is lower-case letters, digits, '-' and '_'")
    if revision is not None:
        deck = _revision(load(name), revision)
        _CACHE[cache_key(name, revision)] = deck
        return deck
    path = DECK_DIR / f"{name}.json"
    if not path.is_file():
        raise DeckError(name, "", f"no deck file {path.name}")
    deck = parse(_read(path, name), name)
    _CACHE[name] = deck
    return deck


def _read(path: Path, name: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DeckError(name, "", f"not a readable JSON file: {exc}") from None


def _revision(current: Deck, revision: Any) -> Deck:
    """Revision ``revision`` of the deck ``current`` is: its file with the overlays of each earlier
    revision laid over it in turn, newest first."""
    name = current.name
    if not _int(revision) or not 1 <= revision <= current.revision:
        raise DeckError(name, "", f"no revision {revision!r} (the deck is at revision {current.revision})")
    if revision == current.revision:
        return current
    data = _read(DECK_DIR / f"{name}.json", name)
    cards = {c.get("id"): c for c in data["cards"] if isinstance(c, dict)}
    for older in range(current.revision - 1, revision - 1, -1):
        path = DECK_DIR / f"{name}.rev{older}.json"
        if not path.is_file():
            raise DeckError(name, "", f"no overlay {path.name} for revision {older}")
        overlay = _read(path, name)
        if not isinstance(overlay, dict) or overlay.get("revision") != older or not isinstance(overlay.get("cards"), dict):
            raise DeckError(name, "", f"{path.name} must hold 'revision': {older} and 'cards': {{id: fields}}")
        for cid, fields in overlay["cards"].items():
            if cid not in cards or not isinstance(fields, dict):
                raise DeckError(name, str(cid), f"{path.name} changes a card the deck does not have")
            cards[cid].update(fields)
    data["revision"] = revision
    return parse(data, name)


def _texts(value: Any, deck: str, cid: str, field: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise DeckError(deck, cid, f"'{field}' must be an object with 'ru' and 'en' texts")
    for lang in ("ru", "en"):
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            raise DeckError(deck, cid, f"'{field}' has no {lang} text")
    for lang, text in value.items():
        if lang not in LANGS:
            raise DeckError(deck, cid, f"'{field}' has an unknown language {lang!r}")
        if not isinstance(text, str) or not text.strip():
            raise DeckError(deck, cid, f"'{field}' has an empty {lang} text")
    return dict(value)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _effect(raw: Any, deck: str, cid: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or not isinstance(raw.get("effect"), str):
        raise DeckError(deck, cid, f"an effect must be an object with an 'effect' name, not {raw!r}")
    name = raw["effect"]
    spec = EFFECTS.get(name)
    if spec is None:
        raise DeckError(deck, cid, f"unknown effect {name!r}")
    params = {k: v for k, v in raw.items() if k != "effect"}
    if spec.get("ref"):
        refs = [k for k in ("class", "party") if k in params]
        if len(refs) != 1 or not isinstance(params[refs[0]], str):
            raise DeckError(deck, cid, f"effect {name!r} needs exactly one of 'class' or 'party' (a key)")
        allowed = {refs[0]} | (set(spec) - {"ref"})
    else:
        allowed = set(spec)
    for key in params:
        if key not in allowed:
            raise DeckError(deck, cid, f"effect {name!r} has an unknown parameter {key!r}")
    for key, sp in spec.items():
        if key == "ref":
            continue
        if key not in params:
            raise DeckError(deck, cid, f"effect {name!r} needs the parameter {key!r}")
        value = params[key]
        kind = sp[0]
        if kind == _INT:
            if not _int(value) or not sp[1] <= value <= sp[2] or (value == 0 and sp[1] < 0):
                raise DeckError(deck, cid, f"effect {name!r}: {key} must be an integer {sp[1]}..{sp[2]}"
                                + (" other than 0" if sp[1] < 0 else "") + f", not {value!r}")
        elif kind == "choice":
            if value not in sp[1]:
                raise DeckError(deck, cid, f"effect {name!r}: {key} must be one of {', '.join(sp[1])}, not {value!r}")
        else:  # ident, key, party_or_own: checked against the deck later
            if not isinstance(value, str) or not ID_RE.match(value):
                raise DeckError(deck, cid, f"effect {name!r}: {key} must be a key, not {value!r}")
    return {"effect": name, **params}


def parse(data: Any, name: str = "custom") -> Deck:
    """Validate a deck given as parsed JSON; returns the Deck or raises DeckError."""
    if not isinstance(data, dict):
        raise DeckError(name, "", "the file must hold a JSON object")
    if data.get("format") != 1:
        raise DeckError(name, "", "'format' must be 1")
    revision = data.get("revision", 1)
    if not _int(revision) or revision < 1:
        raise DeckError(name, "", f"'revision' must be a whole number from 1, not {revision!r}")
    title = _texts(data.get("name"), name, "", "name")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise DeckError(name, "", "'cards' must be a non-empty list")
    cards: dict[str, Card] = {}
    for index, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            raise DeckError(name, f"#{index + 1}", "a card must be an object")
        cid = raw.get("id")
        if not isinstance(cid, str) or not ID_RE.match(cid):
            raise DeckError(name, f"#{index + 1}", f"bad card id {cid!r} (lower-case letters, digits, '_')")
        if cid in cards:
            raise DeckError(name, cid, "duplicate card id")
        for key in raw:
            if key not in CARD_FIELDS:
                raise DeckError(name, cid, f"unknown field {key!r}")
        category = raw.get("category")
        if category not in CATEGORIES:
            raise DeckError(name, cid, f"unknown category {category!r}")
        count = raw.get("count")
        if not _int(count) or not 1 <= count <= 20:
            raise DeckError(name, cid, f"count must be an integer 1..20, not {count!r}")
        names = _texts(raw.get("name"), name, cid, "name")
        text = _texts(raw.get("text"), name, cid, "text")
        price = raw.get("price")
        if category in EQUIPMENT and price is None:
            raise DeckError(name, cid, "equipment needs a price")
        if price is not None:
            if category not in EQUIPMENT + ("speech", "loot"):
                raise DeckError(name, cid, f"a {category} card cannot have a price")
            if not _int(price) or not 0 <= price <= 5000 or price % 100:
                raise DeckError(name, cid, f"price must be 0..5000 roubles in hundreds, not {price!r}")
        speech = raw.get("speech")
        if category == "speech":
            speech = _texts(speech, name, cid, "speech")
        elif speech is not None:
            raise DeckError(name, cid, "only speech cards have a speech text")
        effects_raw = raw.get("effects")
        if not isinstance(effects_raw, list) or not effects_raw:
            raise DeckError(name, cid, "'effects' must be a non-empty list (no flavour-only cards)")
        effects = tuple(_effect(e, name, cid) for e in effects_raw)
        _check_category(name, cid, category, effects)
        cards[cid] = Card(cid, category, count, names, text, effects, price, speech)
    classes = tuple(dict.fromkeys(c.effect("class")["key"] for c in cards.values() if c.category == "class"))
    parties = tuple(dict.fromkeys(c.effect("party")["key"] for c in cards.values() if c.category == "party"))
    for c in cards.values():
        for e in c.effects:
            for ref, keys in (("class", classes), ("party", parties)):
                if e["effect"] in ("stronger_vs", "attack_if", "class_level") and ref in e and e[ref] not in keys:
                    raise DeckError(name, c.id, f"effect {e['effect']!r} names the {ref} {e[ref]!r}, which no card defines")
            if e["effect"] == "revolution" and e["party"] != "own" and e["party"] not in parties:
                raise DeckError(name, c.id, f"the revolution names the party {e['party']!r}, which no card defines")
    deck = Deck(name, title, cards, classes, parties, revision)
    for which in ("turn", "loot"):
        if len(deck.ids(which)) < MIN_DECK:
            raise DeckError(name, "", f"the {which} deck needs at least {MIN_DECK} cards")
    if not any(c.category == "opponent" for c in cards.values()):
        raise DeckError(name, "", "the deck has no opponent")
    levels = {c.effect("counter")["level"] for c in cards.values() if c.effect("counter")}
    if levels and levels != set(range(1, max(levels) + 1)):
        raise DeckError(name, "", "counter-revolution levels must run 1, 2, ... without a gap")
    return deck


def _check_category(deck: str, cid: str, category: str, effects: tuple[dict[str, Any], ...]) -> None:
    names = [e["effect"] for e in effects]
    for n in names:
        if n not in ALLOWED[category]:
            raise DeckError(deck, cid, f"effect {n!r} is not allowed on a {category} card")
    once = {"opponent": "opponent", "class": "class", "party": "party", "speech": "speech"}.get(category)
    if once and names.count(once) != 1:
        raise DeckError(deck, cid, f"a {category} card needs exactly one {once!r} effect")
    if category == "opponent" and not any(n in PENALTIES for n in names):
        raise DeckError(deck, cid, "an opponent needs at least one penalty_* effect (what losing costs)")
    if category == "weapon" and names.count("hands") != 1:
        raise DeckError(deck, cid, "a weapon needs exactly one 'hands' effect")
    if category in EQUIPMENT and not any(n in ("attack", "attack_if", "escape_bonus") for n in names):
        raise DeckError(deck, cid, "equipment needs an attack, attack_if or escape_bonus effect")
    if category in ONE_SHOT:
        fight = [n in FIGHT_ONLY for n in names]
        if any(fight) and not all(fight):
            raise DeckError(deck, cid, "a one-shot card mixes fight-only effects with others")
        if any(n in ALONE for n in names) and len(names) != 1:
            raise DeckError(deck, cid, f"effect {[n for n in names if n in ALONE][0]!r} must stand alone")
    if category == "revolution" and len(names) != 1:
        raise DeckError(deck, cid, "a revolution card has exactly one revolution or counter effect")
