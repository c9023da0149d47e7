"""«Революция»: the pure rules engine (seed 003 as ../shared/rules/revolution.md decides).

The contract with verbs, presenters and bots is docs/revolution-protocol.md. ``RevolutionState``
is plain data plus the game's ``random.Random``; ``Revolution`` holds no data. ``apply`` checks an
action completely before it changes anything. Cards are card ids of the deck (games/revolution/
decks/<deck>.json, loaded by deck.py); copies are interchangeable. Every die is
``rng.randint(1, 6)`` and is announced (``revolution.roll``).
"""
from __future__ import annotations

import copy
import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..base import MASTER, Action, Audience, Awaiting, Event, Outcome, RuleError, int_option
from . import bot as _bots
from . import deck as D

EVERYONE = Audience.everyone()
_ONLY = [Audience.only(seat) for seat in range(8)]
PASS: Action = {"type": "pass"}
GOAL = 10
RULING_BONUS = 2
BUYOUT = 500
LEVEL_PRICE = 1000
OWN_STAGES = ("open", "choose", "end")
TRADE_STAGES = ("jail", "open", "choose", "end")
TRADE_MAX = 10  # cards on either side of one trade offer


def err(key: str, **params: Any) -> RuleError:
    return RuleError(f"revolution.error.{key}", **params)


# ------------------------------------------------------------------------------------ state


@dataclass
class RevolutionState:
    """Every card of the game is in exactly one of: ``turn_deck``, ``loot_deck`` (draws pop from
    the end), ``turn_discard``, ``loot_discard``, ``hands``, ``gear`` (equipped), ``cls`` /
    ``pty`` (class and party cards on the table) or ``in_play`` (the fight's opponent and the
    one-shot cards played in it)."""

    players: int
    deck_name: str
    hand_limit: int
    escape_target: int
    turn_seconds: int
    reaction_seconds: int
    rng: random.Random
    levels: list[int] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    gear: list[list[str]] = field(default_factory=list)
    cls: list[str | None] = field(default_factory=list)
    pty: list[str | None] = field(default_factory=list)
    jail: list[int] = field(default_factory=list)
    turn_deck: list[str] = field(default_factory=list)
    loot_deck: list[str] = field(default_factory=list)
    turn_discard: list[str] = field(default_factory=list)
    loot_discard: list[str] = field(default_factory=list)
    in_play: list[str] = field(default_factory=list)
    ruling: str | None = None
    active: int = 0
    turn_no: int = 0
    stage: str = "open"
    arrested: bool = False
    fight: dict[str, Any] | None = None
    counter: dict[str, Any] | None = None
    passed: list[int] = field(default_factory=list)
    first_rolls: list[list[list[int]]] = field(default_factory=list)
    winner: int | None = None
    win_turn_fight: bool = False
    wait_no: int = 0
    window: str = ""
    trades: dict[int, dict[str, Any]] = field(default_factory=dict)  # offerer -> {target, give, take}
    offered: list[int] = field(default_factory=list)  # seats that offered a trade this turn
    # The deck's revision the table plays (option ``deck_rev``, else the file's; deck.py) and where
    # deck.py keeps that revision loaded (the key every card lookup reads; new() sets both).
    deck_rev: int | None = None
    deck_key: str = ""
    # A cache, not game data: the seats the open window asks, for the wait it was worked out in
    # ((stage, turn, wait number, passes so far), seats). Every change a window can see moves one
    # of those: a pass adds to ``passed``, anything else opens a new wait (apply()).
    asked: tuple | None = field(default=None, compare=False, repr=False)

    def copy(self) -> "RevolutionState":
        return copy.deepcopy(self)

    def all_cards(self) -> list[str]:
        """Every card wherever it lies (for the conservation check)."""
        out = self.turn_deck + self.loot_deck + self.turn_discard + self.loot_discard + self.in_play
        for h in self.hands:
            out += h
        for g in self.gear:
            out += g
        out += [c for c in self.cls if c] + [c for c in self.pty if c]
        return out

    def count_cards(self) -> int:
        return len(self.all_cards())


# ------------------------------------------------------------------------------------ engine


class Revolution:
    name = "revolution"
    min_players = 2
    max_players = 6
    default_options: dict[str, Any] = {"deck": "default", "hand": 5, "escape": 5, "turn": 120, "reaction": 20}
    internal_options = ("deck_rev",)  # kept by the table (start_options), never typed or shown

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        result = dict(self.default_options)
        for name, value in (options or {}).items():
            if name == "deck":
                word = value.strip().lower() if isinstance(value, str) else value
                if not isinstance(word, str) or not D.NAME_RE.match(word):
                    raise err("bad_option", name=name, value=value)
                D.load(word)  # a bad file: DeckError (revolution.error.bad_deck)
                result[name] = word
            elif name == "hand":
                result[name] = int_option(value, 3, 10, name, "revolution.error.bad_option")
            elif name == "escape":
                result[name] = int_option(value, 2, 6, name, "revolution.error.bad_option")
            elif name == "turn":
                result[name] = int_option(value, 10, 3600, name, "revolution.error.bad_option")
            elif name == "reaction":
                result[name] = int_option(value, 5, 600, name, "revolution.error.bad_option")
            elif name == "deck_rev":  # set at the start (start_options), not typed at `open`
                if not _is_int(value):
                    raise err("bad_option", name=name, value=value)
                result[name] = value
            else:
                raise err("bad_option", name=name, value=value)
        if "deck_rev" in result:
            D.load(result["deck"], result["deck_rev"])  # no such revision: DeckError
        return result

    def start_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a table starts with: the deck's revision of today is pinned, so that a deck
        tuned later does not change this game (a rematch of an older game plays today's)."""
        deck = D.load(self.validate_options(options)["deck"])
        return {**options, "deck_rev": deck.revision}

    def restored_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options of a table restored from storage: one started before revisions were pinned
        played revision 1 of its deck (the numbers before issue 14's tuning)."""
        return options if "deck_rev" in options else {**options, "deck_rev": 1}

    def obsolete(self, state: "RevolutionState", seat: int, action: Action) -> bool:
        """A logged action the game would now not ask for at all, skipped on replay: a pass from a
        seat the open window does not wait for (older code asked every seat in a fight or counter
        window, even one whose only answer was pass; such a pass may come after the window has
        closed here). A pass is only ever an answer to a window, so outside one it is obsolete too."""
        if not isinstance(action, dict) or action.get("type") != "pass":
            return False
        return state.stage not in ("fight", "counter") or seat not in _answering(self, state)

    def deck_of(self, name: str = "default") -> D.Deck:
        return D.load(name)

    def new(self, seats: int, options: dict[str, Any] | None, seed: int) -> RevolutionState:
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_players <= seats <= self.max_players:
            raise err("bad_option", name="players", value=seats)
        opts = self.validate_options(options)
        revision = opts.get("deck_rev")
        deck = D.load(opts["deck"], revision)
        rng = random.Random(seed)
        s = RevolutionState(players=seats, deck_name=opts["deck"], hand_limit=opts["hand"],
                            escape_target=opts["escape"], turn_seconds=opts["turn"],
                            reaction_seconds=opts["reaction"], rng=rng, deck_rev=deck.revision,
                            deck_key=D.cache_key(opts["deck"], revision))
        s.levels = [1] * seats
        s.hands = [[] for _ in range(seats)]
        s.gear = [[] for _ in range(seats)]
        s.cls = [None] * seats
        s.pty = [None] * seats
        s.jail = [0] * seats
        s.turn_deck = deck.ids("turn")
        s.loot_deck = deck.ids("loot")
        rng.shuffle(s.turn_deck)
        rng.shuffle(s.loot_deck)
        for seat in range(seats):  # [SEED] 2 cards from each deck
            s.hands[seat] += [s.turn_deck.pop(), s.turn_deck.pop(), s.loot_deck.pop(), s.loot_deck.pop()]
        # [SEED] a die roll picks the first player: the highest; ties roll again among the tied
        tied = list(range(seats))
        while True:
            rolls = [[seat, rng.randint(1, 6)] for seat in tied]
            s.first_rolls.append(rolls)
            best = max(r for _, r in rolls)
            tied = [seat for seat, r in rolls if r == best]
            if len(tied) == 1:
                break
        s.active = tied[0]
        _start_turn(s, [])
        return s

    def start_events(self, state: RevolutionState) -> list[Event]:
        s = state
        events = [Event(EVERYONE, "revolution.start", {"players": s.players, "deck": s.deck_name})]
        for round_no, rolls in enumerate(s.first_rolls):
            purpose = "first" if round_no == 0 else "first_again"  # the tied roll again: not the same line twice
            for seat, roll in rolls:
                events.append(Event(EVERYONE, "revolution.roll", {"seat": seat, "roll": roll, "purpose": purpose}))
        events.append(Event(EVERYONE, "revolution.first", {"seat": s.active}))
        for seat in range(s.players):
            events.append(Event(_ONLY[seat], "revolution.dealt", {"seat": seat, "cards": list(s.hands[seat])}))
        events.append(Event(EVERYONE, "revolution.turn", {"seat": s.active, "turn": s.turn_no}))
        return events

    # ----------------------------------------------------------------------------- questions

    def awaiting(self, state: RevolutionState) -> list[Awaiting]:
        s = state
        if s.stage == "over":
            return []
        if s.stage in ("fight", "counter"):
            # Only seats with an answer besides pass: a window nobody can use closes (apply).
            # Helping, hindering and countering are optional; the fighter's own fight is part of
            # the fighter's turn (a decision owed).
            fighter = s.fight["fighter"] if s.stage == "fight" and s.fight else None
            return [Awaiting(seat, "reaction", s.reaction_seconds, PASS, s.window, seat != fighter)
                    for seat in _answering(self, s)]
        out = [Awaiting(s.active, "turn", s.turn_seconds, _default(s), s.window)]
        targets: list[int] = []
        for offerer, t in s.trades.items():  # the target of an open trade offer answers it
            if t["target"] != s.active and t["target"] not in targets:
                targets.append(t["target"])
                out.append(Awaiting(t["target"], "reaction", s.reaction_seconds,  # optional: silence declines
                                    {"type": "trade_decline", "seat": offerer}, s.window, True))
        return out

    def outcome(self, state: RevolutionState) -> Outcome | None:
        if state.stage != "over" or state.winner is None:
            return None
        return Outcome((state.winner,), "revolution.outcome.winner", {"seat": state.winner})

    def view(self, state: RevolutionState, viewer: int) -> dict[str, Any]:
        s = state
        deck = _deck(s)
        v: dict[str, Any] = {
            "game": "revolution", "deck": s.deck_name, "deck_rev": s.deck_rev,
            "players": s.players, "levels": list(s.levels),
            "classes": list(s.cls), "parties": list(s.pty),
            "class_keys": [_class_key(s, x) for x in range(s.players)],
            "party_keys": [_party_key(s, x) for x in range(s.players)],
            "gear": [list(g) for g in s.gear], "jail": list(s.jail), "hand_sizes": [len(h) for h in s.hands],
            "ruling": s.ruling, "active": s.active, "turn": s.turn_no, "stage": s.stage,
            "hand_limit": s.hand_limit, "escape": s.escape_target,
            "turn_deck": len(s.turn_deck), "loot_deck": len(s.loot_deck),
            "turn_discard": list(s.turn_discard), "loot_discard": list(s.loot_discard),
            "arrested": s.arrested, "attack": [_attack(s, x) for x in range(s.players)],
            "fight": None, "counter": None, "winner": s.winner,
            "trades": [{"seat": o, "target": t["target"], "give_n": len(t["give"]), "take_n": len(t["take"])}
                       for o, t in s.trades.items()],
            "offered": list(s.offered),
        }
        f = s.fight
        if f is not None:
            pt, ot = _totals(s)
            v["fight"] = {"card": f["card"], "fighter": f["fighter"], "helper": f["helper"], "share": f["share"],
                          "offers": {str(k): val for k, val in f["offers"].items()},
                          "played": [list(p) for p in f["played"]], "players_bonus": f["pb"],
                          "opponent_bonus": f["ob"], "players_total": pt, "opponent_total": ot,
                          "auto_escape": list(f["auto"]), "passed": list(s.passed) if s.stage == "fight" else [],
                          "from_hand": f["from_hand"], "loot": deck.cards[f["card"]].effect("opponent")["loot"]}
        c = s.counter
        if c is not None:
            v["counter"] = {"level": c["level"], "card": c["card"], "prev": c["prev"], "party": c["party"],
                            "passed": list(s.passed), "resume": c["resume"]}
        if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s.players:
            v["me"] = viewer
            v["hand"] = list(s.hands[viewer])
            mine = s.trades.get(viewer)
            v["my_trade"] = ({"target": mine["target"], "give": list(mine["give"]), "take": list(mine["take"])}
                             if mine else None)
            v["trades_to_me"] = [{"seat": o, "give": list(t["give"]), "take": list(t["take"])}
                                 for o, t in s.trades.items() if t["target"] == viewer]
        elif viewer == MASTER:
            v["hands"] = [list(h) for h in s.hands]
            v["turn_cards"] = list(s.turn_deck)
            v["loot_cards"] = list(s.loot_deck)
            v["trade_cards"] = [{"seat": o, "target": t["target"], "give": list(t["give"]), "take": list(t["take"])}
                                for o, t in s.trades.items()]
        return v

    def bot_action(self, view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
        return _bots.bot_action(view, legal, rng, level)

    def final_reveal(self, state: RevolutionState) -> dict[str, Any] | None:
        """Everything the game hid, for the end-of-game block: None while the game goes on (a
        secret stays one). Each seat's hand and level (with its gear, class and party), and the
        turns played."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        s = state
        return {"game": "revolution", "winners": list(outcome.winners), "reason": outcome.reason,
                "params": dict(outcome.params), "length": {"turns": s.turn_no}, "deck": s.deck_name,
                "seats": [{"seat": seat, "level": s.levels[seat], "hand": list(s.hands[seat]),
                           "gear": list(s.gear[seat]), "class": s.cls[seat], "party": s.pty[seat]}
                          for seat in range(s.players)]}

    # ----------------------------------------------------------------------------- legal

    def legal(self, state: RevolutionState, seat: int) -> list[Action]:
        s = state
        if s.stage == "over" or not _is_int(seat) or not 0 <= seat < s.players:
            return []
        deck = _deck(s)
        hand = s.hands[seat]
        distinct = list(dict.fromkeys(hand))
        out: list[Action] = []
        if s.stage == "counter":
            if seat not in s.passed:
                out.append(dict(PASS))
            for cid in distinct:
                e = deck.cards[cid].effect("counter")
                if e and e["level"] == s.counter["level"]:
                    out.append({"type": "play", "card": cid})
            return out
        f = s.fight
        in_fight = s.stage == "fight"
        fighting = in_fight and seat in (f["fighter"], f["helper"])
        jailed = s.jail[seat] > 0
        if in_fight:
            if seat not in s.passed:
                out.append(dict(PASS))
            loot = deck.cards[f["card"]].effect("opponent")["loot"]
            if seat != f["fighter"] and not jailed and f["helper"] is None and seat not in f["offers"]:
                out += [{"type": "offer", "share": k} for k in range(loot + 1)]
            if seat == f["fighter"] and f["helper"] is None:
                out += [{"type": "accept", "seat": k} for k in f["offers"]]
        active = seat == s.active
        st = s.stage
        if active:
            if st == "open":
                out.append({"type": "draw"})
            elif st == "choose":
                out.append({"type": "draw_hidden"})
                out += [{"type": "fight", "card": c} for c in distinct if deck.cards[c].category == "opponent"]
            elif st == "end":
                if len(hand) <= s.hand_limit:
                    out.append({"type": "end"})
            elif st == "jail":
                out.append({"type": "roll"})
            if st in ("choose", "end"):
                out += [{"type": "discard", "card": c} for c in distinct]
            if st in OWN_STAGES:
                sale = _sale_set(s, seat)
                if sale:
                    out.append({"type": "sell", "cards": sale})
            if st in OWN_STAGES + ("jail",) and not s.arrested and _is_ruling(s, seat) and hand:
                for t in range(s.players):
                    if t != seat and not s.jail[t]:
                        for c in distinct:
                            out += [{"type": "arrest", "target": t, "card": c, "number": n} for n in range(1, 7)]
        if st in TRADE_STAGES:
            out += _legal_trades(s, seat)
        if jailed:
            buy = _buyout_set(s, seat)
            if buy:
                out.append({"type": "buyout", "cards": buy})
        for cid in distinct:
            card = deck.cards[cid]
            cat = card.category
            if cat in D.EQUIPMENT or cat in ("class", "party"):
                if not fighting:
                    out.append({"type": "equip" if cat in D.EQUIPMENT else "place", "card": cid})
            elif cat == "speech":
                if in_fight:
                    for side in (("opponent",) if jailed else ("players", "opponent")):
                        out.append({"type": "speech", "card": cid, "text": card.speech["ru"], "side": side})
            elif cat in D.ONE_SHOT:
                out += _legal_play(s, seat, card)
        return out

    # ----------------------------------------------------------------------------- apply

    def apply(self, state: RevolutionState, seat: int, action: Action) -> list[Event]:
        s = state
        if s.stage == "over":
            raise err("game_over")
        if not _is_int(seat) or not 0 <= seat < s.players:
            raise err("not_your_turn")
        kind = action.get("type") if isinstance(action, dict) else None
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise err("bad_action")
        if s.stage == "counter" and kind not in ("pass", "play"):
            raise err("not_now")
        fight = s.fight
        events: list[Event] = []
        handler(s, seat, action, events)
        if kind != "pass" and s.stage == "fight" and s.fight is fight:
            s.passed = []  # anything that may change the fight: everyone may answer again
            _wait(s)
        # A window closes once every seat that could answer otherwise has passed (a seat whose
        # only answer is pass is never asked); the window it reopens may close at once too.
        while s.stage in ("fight", "counter") and not _answering(self, s):
            if s.stage == "fight":
                _resolve_fight(s, events)
            else:
                _close_counter(s)
        return events

    def window_pass(self, state: RevolutionState, seat: int) -> tuple[Action, bool] | None:
        """The answer that passes ``seat``'s open optional window, and whether the window is about
        that seat (its own fight, or one it helps in; a counter-revolution window for a member of
        the party that lost or won power); None: no such window for it (a turn, a trade offer to
        it: those are questions, not windows). For autopass (world/autopass.py)."""
        s = state
        if s.stage not in ("fight", "counter") or seat in s.passed or not _is_int(seat):
            return None
        if s.stage == "fight":
            concerns = seat in (s.fight["fighter"], s.fight["helper"])
        else:  # a counter-revolution is the business of the parties it takes power from or gives it to
            concerns = _party_key(s, seat) in (s.counter["prev"], s.counter["party"])
        return dict(PASS), concerns


# ------------------------------------------------------------------------------------ helpers


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _other_seat(s: RevolutionState, seat: int, target: Any) -> int:
    """``target`` as another player's seat (arrest, steal an item, trade); else bad_target."""
    if not _is_int(target) or not 0 <= target < s.players or target == seat:
        raise err("bad_target")
    return target


def _deck(s: RevolutionState) -> D.Deck:
    deck = D._CACHE.get(s.deck_key)
    return deck if deck is not None else D.load(s.deck_name, s.deck_rev)


def _card(s: RevolutionState, cid: str) -> D.Card:
    deck = D._CACHE.get(s.deck_key)
    return (deck if deck is not None else D.load(s.deck_name, s.deck_rev)).cards[cid]


_GEAR_STATS: dict[str, dict[str, tuple[int, tuple[tuple[str, str, int], ...]]]] = {}


def _gear_stats(s: RevolutionState) -> dict[str, tuple[int, tuple[tuple[str, str, int], ...]]]:
    """Per card id: (its plain attack, its conditional attacks as (class|party, key, n))."""
    stats = _GEAR_STATS.get(s.deck_key)
    if stats is None:
        stats = {}
        for cid, card in _deck(s).cards.items():
            plain = sum(e["n"] for e in card.all("attack"))
            cond = tuple(("class", e["class"], e["n"]) if "class" in e else ("party", e["party"], e["n"])
                         for e in card.all("attack_if"))
            stats[cid] = (plain, cond)
        _GEAR_STATS[s.deck_key] = stats
    return stats


_KEYS: dict[str, dict[str, str]] = {}


def _keys(s: RevolutionState) -> dict[str, str]:
    """Per class/party card id: its class or party key."""
    keys = _KEYS.get(s.deck_key)
    if keys is None:
        keys = {cid: (card.effect("class") or card.effect("party"))["key"]
                for cid, card in _deck(s).cards.items() if card.category in ("class", "party")}
        _KEYS[s.deck_key] = keys
    return keys


def _class_key(s: RevolutionState, seat: int) -> str | None:
    c = s.cls[seat]
    return _keys(s)[c] if c else None


def _party_key(s: RevolutionState, seat: int) -> str | None:
    c = s.pty[seat]
    return _keys(s)[c] if c else None


def _is_ruling(s: RevolutionState, seat: int) -> bool:
    return s.ruling is not None and _party_key(s, seat) == s.ruling


def _ability(s: RevolutionState, seat: int, name: str) -> int:
    c = s.cls[seat]
    return sum(e["n"] for e in _card(s, c).all(name)) if c else 0


def _matches(s: RevolutionState, seat: int, e: dict[str, Any]) -> bool:
    if "class" in e:
        return _class_key(s, seat) == e["class"]
    return _party_key(s, seat) == e["party"]


def _attack(s: RevolutionState, seat: int) -> int:
    """Level + equipment + class + the ruling party's bonus (not one-shot cards)."""
    stats = _gear_stats(s)
    total = s.levels[seat] + (stats[s.cls[seat]][0] if s.cls[seat] else 0)
    for cid in s.gear[seat]:
        plain, cond = stats[cid]
        total += plain
        for kind, key, n in cond:
            if (_class_key(s, seat) if kind == "class" else _party_key(s, seat)) == key:
                total += n
    if s.ruling is not None and _party_key(s, seat) == s.ruling:
        keys = _keys(s)
        total += RULING_BONUS * sum(1 for x in range(s.players)
                                    if x != seat and not s.jail[x] and s.pty[x] and keys[s.pty[x]] == s.ruling)
    return total


def _escape_bonus(s: RevolutionState, seat: int) -> int:
    deck = _deck(s)
    return _ability(s, seat, "escape_bonus") + sum(
        e["n"] for cid in s.gear[seat] for e in deck.cards[cid].all("escape_bonus"))


def _totals(s: RevolutionState) -> tuple[int, int]:
    f = s.fight
    card = _card(s, f["card"])
    pt = _attack(s, f["fighter"]) + f["pb"]
    fighters = [f["fighter"]]
    if f["helper"] is not None:
        pt += _attack(s, f["helper"]) + _ability(s, f["helper"], "help_bonus")
        fighters.append(f["helper"])
    ot = card.effect("opponent")["level"] + f["ob"]
    for e in card.all("stronger_vs"):
        if any(_matches(s, x, e) for x in fighters):
            ot += e["n"]
    return pt, max(1, ot)


def _price(s: RevolutionState, cid: str) -> int | None:
    return _card(s, cid).price


def _wait(s: RevolutionState) -> None:
    s.wait_no += 1
    s.window = f"t{s.turn_no}.{s.wait_no}-{s.stage}"


def _roll(s: RevolutionState, seat: int, purpose: str, events: list[Event]) -> int:
    roll = s.rng.randint(1, 6)
    events.append(Event(EVERYONE, "revolution.roll", {"seat": seat, "roll": roll, "purpose": purpose}))
    return roll


def _discard(s: RevolutionState, cid: str) -> None:
    (s.turn_discard if _card(s, cid).deck == "turn" else s.loot_discard).append(cid)


def _draw(s: RevolutionState, which: str, n: int, events: list[Event]) -> list[str]:
    pile = s.turn_deck if which == "turn" else s.loot_deck
    discard = s.turn_discard if which == "turn" else s.loot_discard
    out = []
    for _ in range(n):
        if not pile:
            if not discard:
                events.append(Event(EVERYONE, "revolution.deck_empty", {"deck": which}))
                break
            pile.extend(discard)
            discard.clear()
            s.rng.shuffle(pile)
            events.append(Event(EVERYONE, "revolution.reshuffled", {"deck": which}))
        out.append(pile.pop())
    return out


def _draw_hidden(s: RevolutionState, seat: int, which: str, n: int, events: list[Event]) -> None:
    got = _draw(s, which, n, events)
    s.hands[seat] += got
    events.append(Event(EVERYONE, "revolution.drew_hidden", {"seat": seat, "deck": which, "n": len(got)}))
    if got:
        events.append(Event(_ONLY[seat], "revolution.got", {"seat": seat, "cards": got}))


def _take(lst: list[str], cid: Any) -> None:
    if not isinstance(cid, str) or cid not in lst:
        raise err("no_such_card", card=cid)


def _change_level(s: RevolutionState, seat: int, n: int, events: list[Event]) -> None:
    """A card's level change: never below 1, never into level 10."""
    old = s.levels[seat]
    if n < 0:
        new = max(1, old + n)
    else:
        new = old if old >= GOAL - 1 else min(GOAL - 1, old + n)
    if new != old:
        s.levels[seat] = new
        events.append(Event(EVERYONE, "revolution.level", {"seat": seat, "level": new, "n": new - old}))


def _cards_from(s: RevolutionState, seat: int, cards: Any) -> list[tuple[str, str]]:
    """[(card, "hand"|"gear")] for a list of ids held in hand or equipped (hand first)."""
    if not isinstance(cards, list) or not cards:
        raise err("no_such_card", card=cards)
    hand = list(s.hands[seat])
    gear = list(s.gear[seat])
    out = []
    for cid in cards:
        if isinstance(cid, str) and cid in hand:
            hand.remove(cid)
            out.append((cid, "hand"))
        elif isinstance(cid, str) and cid in gear:
            gear.remove(cid)
            out.append((cid, "gear"))
        else:
            raise err("no_such_card", card=cid)
    return out


def _remove_from(s: RevolutionState, seat: int, taken: list[tuple[str, str]]) -> None:
    for cid, where in taken:
        (s.hands[seat] if where == "hand" else s.gear[seat]).remove(cid)
        _discard(s, cid)


def _sell_value(s: RevolutionState, seat: int, cids: list[str]) -> int:
    bonus = _ability(s, seat, "sell_bonus")
    return sum(_price(s, c) + bonus for c in cids)


def _sale_set(s: RevolutionState, seat: int) -> list[str] | None:
    """A representative sale for legal(): hand cards (most expensive first) up to the first
    1000 roubles reached, if that is worth at least a level and stays below level 10."""
    priced = sorted((c for c in s.hands[seat] if _price(s, c)), key=lambda c: -_price(s, c))
    bonus = _ability(s, seat, "sell_bonus")
    total, out = 0, []
    for c in priced:
        out.append(c)
        total += _price(s, c) + bonus
        if total >= LEVEL_PRICE:
            break
    levels = total // LEVEL_PRICE
    if levels and s.levels[seat] + levels < GOAL:
        return out
    return None


def _buyout_set(s: RevolutionState, seat: int) -> list[str] | None:
    """The loot a buyout with no cards named hands over: the cheapest set worth at least BUYOUT."""
    held = [(c, "hand") for c in s.hands[seat]] + [(c, "gear") for c in s.gear[seat]]
    priced = [(c, where, _price(s, c)) for c, where in held if _price(s, c)]
    return cheapest_covering(priced, BUYOUT)


def cheapest_covering(items: list[tuple[str, str, int]], need: int) -> list[str] | None:
    """Card ids of the subset of ``items`` (card, "hand"|"gear", price) whose total is the smallest
    one >= ``need``; among equal totals the fewest cards, then the fewest equipped ones (a player
    would rather pay from the hand than strip), then the earliest held. None when all falls short.

    An exact subset sum by totals: a set already worth ``need`` is never extended (more only costs
    more), so the table holds at most one entry per reachable total."""
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}
    for i, (_, where, price) in enumerate(items):
        for total, (count, gear, picked) in list(best.items()):
            if total >= need:
                continue
            grown = (count + 1, gear + (where == "gear"), picked + (i,))
            known = best.get(total + price)
            if known is None or grown < known:
                best[total + price] = grown
    enough = [total for total in best if total >= need]
    if not enough:
        return None
    return [items[i][0] for i in best[min(enough)][2]]


def _default(s: RevolutionState) -> Action:
    st = s.stage
    if st == "open":
        return {"type": "draw"}
    if st == "choose":
        return {"type": "draw_hidden"}
    if st == "jail":
        return {"type": "roll"}
    hand = s.hands[s.active]
    if len(hand) > s.hand_limit:
        cheapest = min(hand, key=lambda c: _price(s, c) or 0)
        return {"type": "discard", "card": cheapest}
    return {"type": "end"}


def _legal_play(s: RevolutionState, seat: int, card: D.Card) -> list[Action]:
    names = [e["effect"] for e in card.effects]
    in_fight = s.stage == "fight"
    jailed = s.jail[seat] > 0
    if card.fight_only:
        if not in_fight:
            return []
        f = s.fight
        if "auto_escape" in names:
            return [{"type": "play", "card": card.id}] if seat in (f["fighter"], f["helper"]) and seat not in f["auto"] else []
        if "cancel_fight" in names:
            return [] if jailed else [{"type": "play", "card": card.id}]
        e = card.effect("fight_bonus")
        sides = ("players", "opponent") if e["side"] == "any" else (e["side"],)
        out = []
        for side in sides:
            if jailed and not _hinders(e["n"], side):
                continue
            out.append({"type": "play", "card": card.id, "side": side} if e["side"] == "any"
                       else {"type": "play", "card": card.id})
        return out
    first = names[0]
    if first == "counter":
        return []
    if first == "revolution":
        if card.effects[0]["party"] == "own" and _party_key(s, seat) is None:
            return []
        return [{"type": "play", "card": card.id}]
    if first == "release":
        return [{"type": "play", "card": card.id}] if jailed else []
    if first == "steal_item":
        if seat != s.active or s.stage not in OWN_STAGES:
            return []
        return [{"type": "play", "card": card.id, "target": t, "item": i}
                for t in range(s.players) if t != seat for i in dict.fromkeys(s.gear[t])]
    if first == "gain_level" and s.levels[seat] >= GOAL - 1:
        return []
    return [{"type": "play", "card": card.id}]


def _holds(s: RevolutionState, seat: int, cards: list[str]) -> bool:
    """Whether the seat holds all these cards (hand or equipment, copies counted)."""
    have = s.hands[seat] + s.gear[seat]
    return all(have.count(c) >= n for c, n in _counts(cards).items())


def _counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def _can_offer(s: RevolutionState, seat: int) -> bool:
    return (s.stage in TRADE_STAGES and not s.jail[seat] and seat not in s.trades and seat not in s.offered)


def _acceptable(s: RevolutionState, offerer: int, t: dict[str, Any]) -> bool:
    target = t["target"]
    return (s.stage in TRADE_STAGES and not s.jail[offerer] and not s.jail[target]
            and _holds(s, offerer, t["give"]) and _holds(s, target, t["take"]))


def _legal_trades(s: RevolutionState, seat: int) -> list[Action]:
    """Representative offers (any valid offer is accepted by apply): to each other seat not in
    jail, a gift of one's cheapest priced card, and for each priced item that seat wears, one's
    cheapest priced card worth at least as much (else the most expensive); hand cards are used
    before worn ones. Then the answers to open offers."""
    out: list[Action] = []
    if _can_offer(s, seat):
        mine = [c for c in dict.fromkeys(s.hands[seat]) if _price(s, c) is not None] or \
               [c for c in dict.fromkeys(s.gear[seat]) if _price(s, c) is not None]
        if mine:
            by_price = sorted(mine, key=lambda c: _price(s, c))
            for target in range(s.players):
                if target == seat or s.jail[target]:
                    continue
                out.append({"type": "trade", "target": target, "give": [by_price[0]], "take": []})
                for g in dict.fromkeys(s.gear[target]):
                    price = _price(s, g)
                    if price is None:
                        continue
                    give = next((c for c in by_price if _price(s, c) >= price), by_price[-1])
                    out.append({"type": "trade", "target": target, "give": [give], "take": [g]})
    if seat in s.trades:
        out.append({"type": "trade_withdraw"})
    for offerer, t in s.trades.items():
        if t["target"] == seat:
            if _acceptable(s, offerer, t):
                out.append({"type": "trade_accept", "seat": offerer})
            out.append({"type": "trade_decline", "seat": offerer})
    return out


def _close_trades(s: RevolutionState, events: list[Event]) -> None:
    """Every open offer ends (the turn changed, a fight or a counter window began)."""
    for offerer, t in list(s.trades.items()):
        events.append(Event(EVERYONE, "revolution.trade_closed", {"seat": offerer, "target_seat": t["target"]}))
    s.trades.clear()


def _hinders(n: int, side: str) -> bool:
    return (n > 0) == (side == "opponent")


# ------------------------------------------------------------------------------------ flow


def _start_turn(s: RevolutionState, events: list[Event]) -> None:
    _close_trades(s, events)
    s.offered = []
    s.turn_no += 1
    s.arrested = False
    s.fight = None
    s.passed = []
    s.stage = "jail" if s.jail[s.active] else "open"
    if s.turn_no > 1:
        events.append(Event(EVERYONE, "revolution.turn", {"seat": s.active, "turn": s.turn_no}))
    _wait(s)


def _next_turn(s: RevolutionState, events: list[Event]) -> None:
    s.active = (s.active + 1) % s.players
    _start_turn(s, events)


def _set_stage(s: RevolutionState, stage: str) -> None:
    s.stage = stage
    _wait(s)


def _own_turn(s: RevolutionState, seat: int, stages: tuple[str, ...]) -> None:
    if seat != s.active:
        raise err("not_your_turn")
    if s.stage not in stages:
        raise err("bad_stage")


def _not_fighting(s: RevolutionState, seat: int) -> None:
    if s.stage == "fight" and seat in (s.fight["fighter"], s.fight["helper"]):
        raise err("not_now")


# ------------------------------------------------------------------------------------ handlers


def _h_draw(s, seat, action, events):
    _own_turn(s, seat, ("open",))
    got = _draw(s, "turn", 1, events)
    if not got:
        _set_stage(s, "choose")
        return
    cid = got[0]
    card = _card(s, cid)
    events.append(Event(EVERYONE, "revolution.drawn", {"seat": seat, "card": cid}))
    if card.category == "opponent":
        _start_fight(s, seat, cid, False, events)
        return
    s.stage = "choose"
    if card.category == "decree":
        _one_shot(s, seat, card, {}, events)
        _discard(s, cid)
        _wait(s)
    elif card.category == "revolution" and card.effect("revolution"):
        if card.effects[0]["party"] == "own" and _party_key(s, seat) is None:
            _discard(s, cid)
            events.append(Event(EVERYONE, "revolution.no_effect", {"seat": seat, "card": cid}))
            _wait(s)
        else:
            _discard(s, cid)
            _revolution(s, seat, card, events)
    else:
        s.hands[seat].append(cid)
        _wait(s)


def _h_draw_hidden(s, seat, action, events):
    _own_turn(s, seat, ("choose",))
    _draw_hidden(s, seat, "turn", 1, events)
    _set_stage(s, "end")


def _h_fight(s, seat, action, events):
    _own_turn(s, seat, ("choose",))
    cid = action.get("card")
    _take(s.hands[seat], cid)
    if _card(s, cid).category != "opponent":
        raise err("bad_action")
    s.hands[seat].remove(cid)
    _start_fight(s, seat, cid, True, events)


def _h_end(s, seat, action, events):
    _own_turn(s, seat, ("end",))
    if len(s.hands[seat]) > s.hand_limit:
        raise err("hand_limit", limit=s.hand_limit)
    _next_turn(s, events)


def _h_discard(s, seat, action, events):
    _own_turn(s, seat, ("choose", "end"))
    cid = action.get("card")
    _take(s.hands[seat], cid)
    s.hands[seat].remove(cid)
    _discard(s, cid)
    events.append(Event(EVERYONE, "revolution.discarded", {"seat": seat, "cards": [cid]}))


def _h_sell(s, seat, action, events):
    _own_turn(s, seat, OWN_STAGES)
    taken = _cards_from(s, seat, action.get("cards"))
    for cid, _ in taken:
        if _price(s, cid) is None:
            raise err("no_price", card=cid)
    cids = [c for c, _ in taken]
    roubles = _sell_value(s, seat, cids)
    levels = roubles // LEVEL_PRICE
    if not levels:
        raise err("too_cheap", roubles=roubles, need=LEVEL_PRICE)
    if s.levels[seat] + levels >= GOAL:
        raise err("no_tenth_level")
    _remove_from(s, seat, taken)
    s.levels[seat] += levels
    events.append(Event(EVERYONE, "revolution.sold", {"seat": seat, "cards": cids, "roubles": roubles,
                                                      "levels": levels, "level": s.levels[seat]}))


def _h_arrest(s, seat, action, events):
    _own_turn(s, seat, OWN_STAGES + ("jail",))
    if not _is_ruling(s, seat):
        raise err("not_ruling")
    if s.arrested:
        raise err("already_arrested")
    target = _other_seat(s, seat, action.get("target"))
    if s.jail[target]:
        raise err("target_jailed")
    cid = action.get("card")
    _take(s.hands[seat], cid)
    number = action.get("number")
    if not _is_int(number) or not 1 <= number <= 6:
        raise err("bad_number")
    s.arrested = True
    s.hands[seat].remove(cid)
    _discard(s, cid)
    events.append(Event(_ONLY[seat], "revolution.arrest_number", {"seat": seat, "number": number}))
    roll = _roll(s, seat, "arrest", events)
    success = roll > number
    events.append(Event(EVERYONE, "revolution.arrest", {"seat": seat, "target_seat": target, "card": cid,
                                                        "roll": roll, "success": success}))
    if success:
        s.jail[target] = number
        events.append(Event(EVERYONE, "revolution.jailed", {"seat": target, "turns": number}))
    elif not s.jail[seat]:
        s.jail[seat] = roll
        events.append(Event(EVERYONE, "revolution.jailed", {"seat": seat, "turns": roll}))
        _next_turn(s, events)  # jailed on its own turn: the turn ends at once


def _h_roll(s, seat, action, events):
    _own_turn(s, seat, ("jail",))
    roll = _roll(s, seat, "jail", events)
    if roll >= 5:
        s.jail[seat] = 0
        events.append(Event(EVERYONE, "revolution.released", {"seat": seat, "how": "roll"}))
        _set_stage(s, "open")
        return
    s.jail[seat] -= 1
    events.append(Event(EVERYONE, "revolution.served", {"seat": seat, "turns": s.jail[seat]}))
    if not s.jail[seat]:
        events.append(Event(EVERYONE, "revolution.released", {"seat": seat, "how": "term"}))
    _next_turn(s, events)


def _release(s: RevolutionState, seat: int, how: str, events: list[Event]) -> None:
    s.jail[seat] = 0
    events.append(Event(EVERYONE, "revolution.released", {"seat": seat, "how": how}))
    if seat == s.active and s.stage == "jail":
        _set_stage(s, "open")


def _h_buyout(s, seat, action, events):
    if not s.jail[seat]:
        raise err("not_jailed")
    taken = _cards_from(s, seat, action.get("cards"))
    for cid, _ in taken:
        if _price(s, cid) is None:
            raise err("no_price", card=cid)
    roubles = sum(_price(s, c) for c, _ in taken)
    if roubles < BUYOUT:
        raise err("too_cheap", roubles=roubles, need=BUYOUT)
    _remove_from(s, seat, taken)
    events.append(Event(EVERYONE, "revolution.buyout", {"seat": seat, "cards": [c for c, _ in taken],
                                                        "roubles": roubles}))
    _release(s, seat, "buyout", events)


def _h_equip(s, seat, action, events):
    cid = action.get("card")
    _take(s.hands[seat], cid)
    card = _card(s, cid)
    if card.category not in D.EQUIPMENT:
        raise err("bad_action")
    _not_fighting(s, seat)
    gear = s.gear[seat]
    back: list[str] = []
    if card.category == "weapon":
        need = card.effect("hands")["n"]
        used = sum(_card(s, g).effect("hands")["n"] for g in gear if _card(s, g).category == "weapon")
        for g in list(gear):
            if used + need <= 2:
                break
            if _card(s, g).category == "weapon":
                gear.remove(g)
                back.append(g)
                used -= _card(s, g).effect("hands")["n"]
    else:
        for g in list(gear):
            if _card(s, g).category == card.category:
                gear.remove(g)
                back.append(g)
    s.hands[seat].remove(cid)
    s.hands[seat] += back
    gear.append(cid)
    if back:
        events.append(Event(EVERYONE, "revolution.unequipped", {"seat": seat, "cards": back}))
    events.append(Event(EVERYONE, "revolution.equipped", {"seat": seat, "card": cid}))


def _h_place(s, seat, action, events):
    cid = action.get("card")
    _take(s.hands[seat], cid)
    card = _card(s, cid)
    if card.category not in ("class", "party"):
        raise err("bad_action")
    _not_fighting(s, seat)
    slot = s.cls if card.category == "class" else s.pty
    s.hands[seat].remove(cid)
    old = slot[seat]
    if old:
        _discard(s, old)
        events.append(Event(EVERYONE, "revolution.replaced", {"seat": seat, "card": old}))
    slot[seat] = cid
    events.append(Event(EVERYONE, "revolution.placed", {"seat": seat, "card": cid}))


def _h_play(s, seat, action, events):
    cid = action.get("card")
    _take(s.hands[seat], cid)
    card = _card(s, cid)
    if card.category not in D.ONE_SHOT:
        raise err("bad_action")
    names = [e["effect"] for e in card.effects]
    jailed = s.jail[seat] > 0
    if names[0] == "counter":
        if s.stage != "counter" or s.counter["level"] != card.effects[0]["level"]:
            raise err("not_now")
        s.hands[seat].remove(cid)
        _discard(s, cid)
        _counter(s, seat, card, events)
        return
    if s.stage == "counter":
        raise err("not_now")
    params: dict[str, Any] = {}
    if card.fight_only:
        if s.stage != "fight":
            raise err("no_fight")
        f = s.fight
        if "auto_escape" in names:
            if seat not in (f["fighter"], f["helper"]):
                raise err("not_fighter")
        elif "cancel_fight" in names:
            if jailed:
                raise err("jailed")
        for e in card.all("fight_bonus"):
            side = e["side"]
            if side == "any":
                side = action.get("side")
                if side not in ("players", "opponent"):
                    raise err("bad_side")
            if jailed and not _hinders(e["n"], side):
                raise err("jailed")
            params["side"] = side
    elif names[0] == "revolution":
        if card.effects[0]["party"] == "own" and _party_key(s, seat) is None:
            raise err("no_party")
    elif names[0] == "release":
        if not jailed:
            raise err("not_jailed")
    elif names[0] == "steal_item":
        _own_turn(s, seat, OWN_STAGES)
        target = _other_seat(s, seat, action.get("target"))
        item = action.get("item")
        if not isinstance(item, str) or item not in s.gear[target]:
            raise err("no_item", card=item)
        params.update(target=target, item=item)
    elif names[0] == "gain_level" and s.levels[seat] >= GOAL - 1:
        raise err("no_tenth_level")
    s.hands[seat].remove(cid)
    ev = {"seat": seat, "card": cid}
    if "side" in params:
        ev["side"] = params["side"]
    if "target" in params:
        ev.update(target_seat=params["target"], item=params["item"])
    events.append(Event(EVERYONE, "revolution.played", ev))
    if card.fight_only:
        s.in_play.append(cid)
        s.fight["played"].append([seat, cid, params.get("side")])
        _one_shot(s, seat, card, params, events)
    elif names[0] == "revolution":
        _discard(s, cid)
        _revolution(s, seat, card, events)
    else:
        _discard(s, cid)
        _one_shot(s, seat, card, params, events)


def _h_speech(s, seat, action, events):
    cid = action.get("card")
    _take(s.hands[seat], cid)
    card = _card(s, cid)
    if card.category != "speech":
        raise err("bad_action")
    if s.stage != "fight":
        raise err("no_fight")
    side = action.get("side")
    if side not in ("players", "opponent"):
        raise err("bad_side")
    if s.jail[seat] and side != "opponent":
        raise err("jailed")
    if not speech_matches(card, action.get("text")):
        raise err("speech_mismatch", card=cid)
    bonus = card.effect("speech")["n"] + _ability(s, seat, "speech_bonus")
    s.hands[seat].remove(cid)
    s.in_play.append(cid)
    f = s.fight
    f["played"].append([seat, cid, side])
    f["pb" if side == "players" else "ob"] += bonus
    events.append(Event(EVERYONE, "revolution.speech", {"seat": seat, "card": cid, "side": side, "bonus": bonus}))


def _h_offer(s, seat, action, events):
    if s.stage != "fight":
        raise err("no_fight")
    f = s.fight
    if seat == f["fighter"]:
        raise err("bad_action")
    if s.jail[seat]:
        raise err("jailed")
    if f["helper"] is not None:
        raise err("no_helper_slot")
    if seat in f["offers"]:
        raise err("already_offered")
    share = action.get("share")
    loot = _card(s, f["card"]).effect("opponent")["loot"]
    if not _is_int(share) or not 0 <= share <= loot:
        raise err("bad_share")
    f["offers"][seat] = share
    events.append(Event(EVERYONE, "revolution.offer", {"seat": seat, "share": share}))


def _h_accept(s, seat, action, events):
    if s.stage != "fight":
        raise err("no_fight")
    f = s.fight
    if seat != f["fighter"]:
        raise err("not_fighter")
    if f["helper"] is not None:
        raise err("no_helper_slot")
    helper = action.get("seat")
    if not _is_int(helper) or helper not in f["offers"]:
        raise err("no_such_offer")
    if s.jail[helper]:
        raise err("jailed")
    f["helper"] = helper
    f["share"] = f["offers"][helper]
    events.append(Event(EVERYONE, "revolution.accepted", {"seat": seat, "helper_seat": helper, "share": f["share"]}))


def _h_pass(s, seat, action, events):
    if s.stage not in ("fight", "counter"):
        raise err("bad_stage")
    if seat in s.passed:
        raise err("bad_action")
    s.passed.append(seat)
    events.append(Event(EVERYONE, "revolution.passed", {"seat": seat}))  # apply() closes the window


def _answering(engine: Revolution, s: RevolutionState) -> list[int]:
    """The seats the open fight or counter window waits for: not passed yet, and with a legal
    answer besides pass (a card to play, help to offer or accept, an item to wear)."""
    key = (s.stage, s.turn_no, s.wait_no, len(s.passed))
    if s.asked is None or s.asked[0] != key:
        s.asked = (key, [seat for seat in range(s.players) if seat not in s.passed and _can_answer(s, seat)])
    return list(s.asked[1])


def _can_answer(s: RevolutionState, seat: int) -> bool:
    """Whether legal() offers ``seat`` anything but pass in the open fight or counter window
    (the same conditions, without listing every action: awaiting() asks this of every seat)."""
    deck = _deck(s)
    hand = s.hands[seat]
    if s.stage == "counter":
        level = s.counter["level"]
        return any((e := deck.cards[c].effect("counter")) and e["level"] == level for c in hand)
    f = s.fight
    jailed = s.jail[seat] > 0
    if seat != f["fighter"] and not jailed and f["helper"] is None and seat not in f["offers"]:
        return True  # may offer to help
    if seat == f["fighter"] and f["helper"] is None and f["offers"]:
        return True  # may accept an offer
    if jailed and _buyout_set(s, seat):
        return True
    fighting = seat in (f["fighter"], f["helper"])
    for cid in dict.fromkeys(hand):
        card = deck.cards[cid]
        cat = card.category
        if cat in D.EQUIPMENT or cat in ("class", "party"):
            if not fighting:
                return True
        elif cat == "speech" or (cat in D.ONE_SHOT and _legal_play(s, seat, card)):
            return True
    return False


def _trade_cards(s: RevolutionState, cards: Any, owner: int | None) -> list[str]:
    """A list of priced card ids (held by ``owner`` when given)."""
    if not isinstance(cards, list) or len(cards) > TRADE_MAX:
        raise err("bad_action")
    deck = _deck(s)
    for cid in cards:
        if not isinstance(cid, str) or cid not in deck.cards:
            raise err("no_such_card", card=cid)
        if deck.cards[cid].price is None:
            raise err("no_price", card=cid)
    if owner is not None and not _holds(s, owner, cards):
        missing = next(c for c, n in _counts(cards).items() if (s.hands[owner] + s.gear[owner]).count(c) < n)
        raise err("no_such_card", card=missing)
    return list(cards)


def _h_trade(s, seat, action, events):
    if s.stage not in TRADE_STAGES:
        raise err("trade_not_now")
    if s.jail[seat]:
        raise err("trade_jailed")
    target = _other_seat(s, seat, action.get("target"))
    if s.jail[target]:
        raise err("trade_jailed")
    if seat in s.trades:
        raise err("trade_open")
    if seat in s.offered:
        raise err("trade_once")
    give = _trade_cards(s, action.get("give"), seat)
    if not give:
        raise err("bad_action")
    take = _trade_cards(s, action.get("take", []), None)
    s.trades[seat] = {"target": target, "give": give, "take": take}
    s.offered.append(seat)
    events.append(Event(EVERYONE, "revolution.trade_offer", {"seat": seat, "target_seat": target,
                                                             "give_n": len(give), "take_n": len(take)}))
    events.append(Event(_ONLY[seat], "revolution.trade_terms", {"seat": seat, "other_seat": target,
                                                                "gives": list(give), "gets": list(take)}))
    events.append(Event(_ONLY[target], "revolution.trade_asked", {"seat": target, "other_seat": seat,
                                                                  "gives": list(take), "gets": list(give)}))
    _wait(s)  # the target's answer is awaited from now


def _offer_to(s: RevolutionState, seat: int, action: Action) -> tuple[int, dict[str, Any]]:
    offerer = action.get("seat")
    t = s.trades.get(offerer) if _is_int(offerer) else None
    if t is None or t["target"] != seat:
        raise err("no_such_offer")
    return offerer, t


def _hand_first(s: RevolutionState, seat: int, cards: list[str]) -> None:
    for cid in cards:
        (s.hands[seat] if cid in s.hands[seat] else s.gear[seat]).remove(cid)


def _h_trade_accept(s, seat, action, events):
    offerer, t = _offer_to(s, seat, action)
    if s.stage not in TRADE_STAGES:
        raise err("trade_not_now")
    if s.jail[seat]:
        raise err("trade_jailed")
    if s.jail[offerer]:
        raise err("trade_jailed")
    _trade_cards(s, t["give"], offerer)
    _trade_cards(s, t["take"], seat)
    give, take = t["give"], t["take"]
    del s.trades[offerer]
    _hand_first(s, offerer, give)
    _hand_first(s, seat, take)
    s.hands[seat] += give
    s.hands[offerer] += take
    events.append(Event(EVERYONE, "revolution.traded", {"seat": seat, "offerer_seat": offerer,
                                                        "gave_n": len(take), "got_n": len(give)}))
    events.append(Event(_ONLY[offerer], "revolution.trade_done", {"seat": offerer, "other_seat": seat,
                                                                  "gave": list(give), "got": list(take)}))
    events.append(Event(_ONLY[seat], "revolution.trade_done", {"seat": seat, "other_seat": offerer,
                                                               "gave": list(take), "got": list(give)}))


def _h_trade_decline(s, seat, action, events):
    offerer, t = _offer_to(s, seat, action)
    del s.trades[offerer]
    events.append(Event(EVERYONE, "revolution.trade_declined", {"seat": seat, "offerer_seat": offerer}))


def _h_trade_withdraw(s, seat, action, events):
    t = s.trades.pop(seat, None)
    if t is None:
        raise err("no_such_offer")
    events.append(Event(EVERYONE, "revolution.trade_withdrawn", {"seat": seat, "target_seat": t["target"]}))


_HANDLERS = {"draw": _h_draw, "draw_hidden": _h_draw_hidden, "fight": _h_fight, "end": _h_end,
             "discard": _h_discard, "sell": _h_sell, "arrest": _h_arrest, "roll": _h_roll,
             "buyout": _h_buyout, "equip": _h_equip, "place": _h_place, "play": _h_play,
             "speech": _h_speech, "offer": _h_offer, "accept": _h_accept, "pass": _h_pass,
             "trade": _h_trade, "trade_accept": _h_trade_accept, "trade_decline": _h_trade_decline,
             "trade_withdraw": _h_trade_withdraw}


# ------------------------------------------------------------------------------------ effects


_SPACE = re.compile(r"\s+")


def normalize_speech(text: str) -> str:
    """Lower case, ё -> е, every non-letter/digit a space, spaces collapsed and trimmed."""
    text = unicodedata.normalize("NFC", text).lower().replace("ё", "е")
    text = "".join(ch if ch.isalnum() else " " for ch in text)
    return _SPACE.sub(" ", text).strip()


def speech_matches(card: D.Card, text: Any) -> bool:
    if not isinstance(text, str) or not card.speech:
        return False
    said = normalize_speech(text)
    return bool(said) and any(said == normalize_speech(t) for t in card.speech.values())


def _one_shot(s: RevolutionState, seat: int, card: D.Card, params: dict[str, Any], events: list[Event]) -> None:
    for e in card.effects:
        name = e["effect"]
        if name in D.FIGHT_ONLY and s.stage != "fight":
            events.append(Event(EVERYONE, "revolution.no_effect", {"seat": seat, "card": card.id}))
            continue
        if name == "fight_bonus":
            side = params.get("side") or e["side"]
            s.fight["pb" if side == "players" else "ob"] += e["n"]
        elif name == "auto_escape":
            s.fight["auto"].append(seat)
        elif name == "cancel_fight":
            f = s.fight
            events.append(Event(EVERYONE, "revolution.cancelled", {"seat": seat, "card": f["card"]}))
            _end_fight(s, events)
            return
        elif name == "gain_level":
            _change_level(s, seat, e["n"], events)
        elif name == "draw":
            _draw_hidden(s, seat, e["deck"], e["n"], events)
        elif name == "release":
            _release(s, seat, "card", events)
        elif name == "steal_item":
            target, item = params["target"], params["item"]
            s.gear[target].remove(item)
            s.hands[seat].append(item)
            events.append(Event(EVERYONE, "revolution.stolen", {"seat": seat, "target_seat": target, "card": item}))
        elif name == "class_level":
            for x in range(s.players):
                if _class_key(s, x) == e["class"]:
                    _change_level(s, x, e["n"], events)
        elif name == "draw_all":
            for k in range(s.players):
                _draw_hidden(s, (seat + k) % s.players, e["deck"], e["n"], events)
        elif name == "discard_classes":
            for x in range(s.players):
                if s.cls[x]:
                    events.append(Event(EVERYONE, "revolution.class_gone", {"seat": x, "card": s.cls[x]}))
                    _discard(s, s.cls[x])
                    s.cls[x] = None
        elif name == "amnesty":
            for x in range(s.players):
                if s.jail[x]:
                    _release(s, x, "amnesty", events)


def _revolution(s: RevolutionState, seat: int, card: D.Card, events: list[Event]) -> None:
    party = card.effects[0]["party"]
    if party == "own":
        party = _party_key(s, seat)
    prev = s.ruling
    s.ruling = party
    events.append(Event(EVERYONE, "revolution.revolution", {"seat": seat, "card": card.id, "party": party, "prev": prev}))
    events.append(Event(EVERYONE, "revolution.power", {"party": party}))
    _close_trades(s, events)
    s.counter = {"level": 1, "card": card.id, "prev": prev, "party": party, "resume": s.stage}
    s.passed = []
    _set_stage(s, "counter")


def _counter(s: RevolutionState, seat: int, card: D.Card, events: list[Event]) -> None:
    c = s.counter
    level = c["level"]
    s.ruling = c["prev"] if level % 2 else c["party"]
    events.append(Event(EVERYONE, "revolution.counter", {"seat": seat, "card": card.id, "level": level, "party": s.ruling}))
    events.append(Event(EVERYONE, "revolution.power", {"party": s.ruling}))
    deck = _deck(s)
    more = any((e := x.effect("counter")) and e["level"] == level + 1 for x in deck.cards.values())
    if not more:
        _close_counter(s)
        return
    c["level"] = level + 1
    s.passed = []
    _wait(s)


def _close_counter(s: RevolutionState) -> None:
    resume = s.counter["resume"]
    s.counter = None
    s.passed = []
    _set_stage(s, resume)


# ------------------------------------------------------------------------------------ fights


def _start_fight(s: RevolutionState, seat: int, cid: str, from_hand: bool, events: list[Event]) -> None:
    _close_trades(s, events)
    s.in_play.append(cid)
    s.fight = {"card": cid, "fighter": seat, "helper": None, "share": None, "offers": {}, "played": [],
               "pb": 0, "ob": 0, "auto": [], "from_hand": from_hand}
    s.passed = []
    events.append(Event(EVERYONE, "revolution.fight", {"seat": seat, "card": cid, "from_hand": from_hand}))
    _set_stage(s, "fight")


def _end_fight(s: RevolutionState, events: list[Event]) -> None:
    """The opponent and the fight's one-shot cards to the discards; the turn goes on (or ends)."""
    for cid in s.in_play:
        _discard(s, cid)
    s.in_play = []
    fighter = s.fight["fighter"]
    s.fight = None
    s.passed = []
    if s.stage == "over":
        return
    if s.jail[fighter]:
        _next_turn(s, events)
    else:
        _set_stage(s, "end")


def _resolve_fight(s: RevolutionState, events: list[Event]) -> None:
    f = s.fight
    card = _card(s, f["card"])
    opp = card.effect("opponent")
    pt, ot = _totals(s)
    events.append(Event(EVERYONE, "revolution.fight_total", {"players_total": pt, "opponent_total": ot}))
    fighter, helper = f["fighter"], f["helper"]
    if pt > ot:
        s.levels[fighter] = min(GOAL, s.levels[fighter] + opp["levels"])
        ev = {"seat": fighter, "card": card.id, "levels": opp["levels"], "level": s.levels[fighter]}
        if helper is not None:
            ev["helper_seat"] = helper
        events.append(Event(EVERYONE, "revolution.won", ev))
        if s.levels[fighter] >= GOAL:
            s.winner = fighter
            s.win_turn_fight = True
            s.stage = "over"
            events.append(Event(EVERYONE, "revolution.winner", {"seat": fighter}))
            _end_fight(s, events)
            return
        n = opp["loot"] + _ability(s, fighter, "win_loot")
        if helper is None:
            _draw_hidden(s, fighter, "loot", n, events)
        else:
            got = _draw(s, "loot", n, events)
            share = min(f["share"], len(got))
            for who, cards in ((helper, got[:share]), (fighter, got[share:])):
                s.hands[who] += cards
                events.append(Event(EVERYONE, "revolution.loot_open", {"seat": who, "cards": cards}))
    else:
        events.append(Event(EVERYONE, "revolution.lost", {"seat": fighter, "card": card.id}))
        mod = sum(e["n"] for e in card.all("escape_mod"))
        for who in (fighter, helper):
            if who is None:
                continue
            if who in f["auto"]:
                events.append(Event(EVERYONE, "revolution.escaped", {"seat": who}))
                continue
            roll = _roll(s, who, "escape", events)
            if roll + _escape_bonus(s, who) + mod >= s.escape_target:
                events.append(Event(EVERYONE, "revolution.escaped", {"seat": who}))
                continue
            events.append(Event(EVERYONE, "revolution.caught", {"seat": who}))
            _penalties(s, who, card, events)
    _end_fight(s, events)


def _penalties(s: RevolutionState, seat: int, card: D.Card, events: list[Event]) -> None:
    for e in card.effects:
        name = e["effect"]
        if name == "penalty_levels":
            old = s.levels[seat]
            s.levels[seat] = max(1, old - e["n"])
            events.append(Event(EVERYONE, "revolution.penalty_levels",
                                {"seat": seat, "n": old - s.levels[seat], "level": s.levels[seat]}))
        elif name == "penalty_item":
            gear = s.gear[seat]
            order = sorted(range(len(gear)), key=lambda i: (-(_price(s, gear[i]) or 0), i))[:e["n"]]
            lost = [gear[i] for i in sorted(order)]
            for cid in lost:
                gear.remove(cid)
                _discard(s, cid)
            if lost:
                events.append(Event(EVERYONE, "revolution.penalty_item", {"seat": seat, "cards": lost}))
        elif name == "penalty_jail":
            if not s.jail[seat]:
                s.jail[seat] = e["turns"]
                events.append(Event(EVERYONE, "revolution.jailed", {"seat": seat, "turns": e["turns"]}))
        elif name == "penalty_hand":
            lost = s.hands[seat]
            s.hands[seat] = []
            for cid in lost:
                _discard(s, cid)
            if lost:
                events.append(Event(EVERYONE, "revolution.penalty_hand", {"seat": seat, "cards": lost}))
        elif name in ("penalty_class", "penalty_party"):
            slot = s.cls if name == "penalty_class" else s.pty
            if slot[seat]:
                events.append(Event(EVERYONE, f"revolution.{name}", {"seat": seat, "card": slot[seat]}))
                _discard(s, slot[seat])
                slot[seat] = None


# Every effect of deck.EFFECTS and where it is implemented (the deck test checks the two agree).
IMPLEMENTED = frozenset((
    "opponent", "stronger_vs", "escape_mod",  # _totals, _resolve_fight
    "penalty_levels", "penalty_item", "penalty_jail", "penalty_hand", "penalty_class", "penalty_party",  # _penalties
    "attack", "attack_if", "hands", "escape_bonus",  # _attack, _h_equip, _escape_bonus
    "class", "party", "help_bonus", "win_loot", "speech_bonus", "sell_bonus",  # keys, _totals, _resolve, _h_speech, _h_sell
    "speech",  # _h_speech
    "fight_bonus", "cancel_fight", "auto_escape", "gain_level", "draw", "release", "steal_item",
    "class_level", "draw_all", "discard_classes", "amnesty",  # _one_shot
    "revolution", "counter",  # _revolution, _counter
))

GAME = Revolution()
