"""Bots for «Шептуны» (docs/whispers-protocol.md, "Bots"). A bot sees exactly what a player in
its seat would see: its view and the list of its legal actions. It never touches the state, keeps
no memory between calls, does no I/O and draws randomness only from the ``rng`` it is given, so a
seeded game replays exactly. Every answer is one element of ``legal``.

Each other seat is, from the bot's view, a *friend*, an *enemy* or *unknown*:

* a District citizen knows its team (``team``): teammates are friends, everyone else an enemy;
* a Capitol citizen knows only revealed role cards: revealed Capitol are friends, revealed
  District enemies, the rest unknown, and it treats them as suspects (a little less than enemies);
* a Peacekeeper (the cooperative variant) knows the people (seats before ``peacekeepers_from``)
  are District and its fellow Peacekeepers Capitol.

Placement scores each legal (card, target): a Fled card on a vulnerable enemy (a sure defeat) is
the best move there is, on a vulnerable friend the worst; Accused and Exposed go to enemies
(making the safe ones vulnerable), low cards to friends (most of all to vulnerable ones), but a
District bot puts its low card on someone else a quarter of the time, so that its pattern gives
its team away less. Peacekeepers follow the variant's fixed policy: the highest card on the human
with the most vulnerable status, otherwise a human at random (with a card that can hurt: Accused
or Exposed before Ignored or Hidden, never a wasted Fled when anything else is in hand); never on
a Peacekeeper unless forced.

A defeated Capitol bot passes a high card (Accused and up) to a friend who can place it, a low
card to an enemy (who must swap one of their cards for it), and otherwise discards. A bot that
must swap discards the card it values least: the lowest, except that a District bot keeps one
low card while a teammate is vulnerable.

Levels: ``normal`` (and any unknown level) as above; ``easy`` takes a random legal action 35% of
the time. A Peacekeeper has no level: its policy is the variant's rules (whispers.md §1.6), so
it plays the same at every bot level, in every stage.
"""
from __future__ import annotations

from typing import Any

from ..base import bot_answer

Action = dict[str, Any]

# Set by tests: let an exception in a bot escape instead of falling back to a safe action.
STRICT = False

EASY_RANDOM = 0.35
DISGUISE = 0.25  # how often a District bot puts a low card on a non-teammate
SUSPECT = 0.8  # how much a Capitol bot trusts that an unknown seat is an enemy
RULES_LEVEL = "normal"  # the level that plays the policy itself, with no random moves

FLED = 5


def bot_action(view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
    """One element of ``legal`` for the seat whose ``view`` this is."""
    if _peacekeeper(view):
        level = RULES_LEVEL  # §1.6: the variant's fixed policy, whatever the server's bot level
    return bot_answer(_choose, view, legal, rng, level, EASY_RANDOM, STRICT)


def _choose(view: dict[str, Any], legal: list[Action], rng: Any) -> Action:
    handler = _HANDLERS.get(view.get("stage"))
    return legal[0] if handler is None else handler(view, legal, rng)


# ------------------------------------------------------------------------------------ who is who


def _peacekeeper(view: dict[str, Any]) -> bool:
    first = view.get("peacekeepers_from")
    return bool(view.get("coop")) and first is not None and view.get("me", -1) >= first


def _relations(view: dict[str, Any]) -> list[str]:
    """Per seat: "self", "friend", "enemy" or "unknown", from what this seat may know."""
    me = view.get("me")
    n = view["players"]
    side = view.get("side")
    revealed = view["revealed"]
    out = []
    team = set(view.get("team") or ())
    first = view.get("peacekeepers_from")
    coop = bool(view.get("coop")) and first is not None
    for seat in range(n):
        if seat == me:
            out.append("self")
        elif side == "district":
            out.append("friend" if seat in team else "enemy")
        elif coop:
            out.append("enemy" if seat < first else "friend")
        elif revealed[seat] == "capitol":
            out.append("friend")
        elif revealed[seat] == "district":
            out.append("enemy")
        else:
            out.append("unknown")
    return out


def _vulnerable(view: dict[str, Any], seat: int) -> bool:
    return view["status"][seat] in (3, 4)


# ------------------------------------------------------------------------------------ placement


def _score(card: int, relation: str, status: int, disguise: bool) -> float:
    vulnerable = status in (3, 4)
    if relation == "enemy":
        if card == FLED:
            return 10.0 if vulnerable else 0.2
        if card >= 3:
            return 4.0 + (1.0 if not vulnerable else 0.5) + (0.5 if card == 4 and status == 4 else 0.0)
        return 3.0 if disguise else 0.5
    if relation == "friend":
        if card == FLED:
            return -10.0 if vulnerable else 0.4
        if card >= 3:
            return -6.0 if card == 4 and status == 4 else -4.0
        return (1.0 if disguise else 3.0) + (2.0 if vulnerable else 0.0)
    # unknown: a suspect, weighed a little less than an enemy
    return SUSPECT * _score(card, "enemy", status, False) + (1 - SUSPECT) * _score(card, "friend", status, False)


def _place(view: dict[str, Any], legal: list[Action], rng: Any) -> Action:
    if _peacekeeper(view):
        return _peacekeeper_place(view, legal, rng)
    relations = _relations(view)
    status = view["status"]
    disguise = view.get("side") == "district" and rng.random() < DISGUISE
    best, best_score = legal[0], float("-inf")
    for action in legal:
        target = action["target"]
        score = _score(action["card"], relations[target], status[target], disguise) + rng.random() * 1.5
        if score > best_score:
            best, best_score = action, score
    return best


def _peacekeeper_place(view: dict[str, Any], legal: list[Action], rng: Any) -> Action:
    first = view["peacekeepers_from"]
    status = view["status"]
    human = [a for a in legal if a["target"] < first]
    if not human:  # forced onto a fellow Peacekeeper: the least harmful card
        low = min(a["card"] for a in legal)
        choices = [a for a in legal if a["card"] == low]
        return choices[rng.randrange(len(choices))]
    worst = max(status[a["target"]] for a in human)
    if worst >= 3:  # the highest card on the most vulnerable human
        top = max(a["card"] for a in human)
        choices = [a for a in human if a["card"] == top and status[a["target"]] == worst]
        if choices:
            return choices[rng.randrange(len(choices))]
    # A random human, with a card that can hurt: Accused/Exposed, then low cards, Fled last.
    cards = {a["card"] for a in human}
    order = [c for c in (4, 3, 2, 1, FLED) if c in cards]
    card = order[0]
    choices = [a for a in human if a["card"] == card]
    return choices[rng.randrange(len(choices))]


# ------------------------------------------------------------------------------------ pass and swap


def _pass(view: dict[str, Any], legal: list[Action], rng: Any) -> Action:
    hand = view.get("hand") or []
    discard = next((a for a in legal if a["type"] == "discard_pass"), legal[0])
    if not hand:
        return discard
    card = hand[0]
    relations = _relations(view)
    passes = [a for a in legal if a["type"] == "pass"]
    want = "friend" if card >= 3 else "enemy"
    choices = [a for a in passes if relations[a["target"]] == want]
    if not choices:
        return discard
    return choices[rng.randrange(len(choices))]


def _swap(view: dict[str, Any], legal: list[Action], rng: Any) -> Action:
    value = {a["card"]: float(a["card"]) for a in legal}
    if view.get("side") == "district":
        me = view.get("me")
        defeated = view["defeated"]
        guard = any(_vulnerable(view, t) and not defeated[t] for t in view.get("team") or () if t != me)
        passed = view.get("passed_card")
        if guard and not (isinstance(passed, int) and passed <= 2):
            lows = [c for c in value if c <= 2]
            if lows:
                value[min(lows)] = 9.0  # keep one low card for the teammate
    card = min(value, key=lambda c: (value[c], c))
    return {"type": "swap", "card": card}


_HANDLERS = {"place": _place, "pass": _pass, "swap": _swap}
