"""Forum Mafia, rule version A: the Ход card mechanic, the Джокер, the Предатель, the Сыщик and the
Звонок; and the A/B Похищение (no damage at all). Handlers and hooks of the pipeline
(night.py's registries), registered at import (engine.py imports this module). Rules: ../shared/rules/mafia.md 4.3
(Ход), 4.5, 4.6 #7, #14, #17; the contract: docs/mafia-protocol.md, "Rulesets A, B, C".
"""
from __future__ import annotations

from typing import Any

from ..base import Audience, Event
from . import public_roles as P
from . import roles as R
from . import versions as V
from .abilities import ARG_CHECKS, _can_act, _is_seat, _json_scalar
from .night import AFTER_STEP, ANY_TIME, DAMAGE_HOOKS, handler, _Night
from .resolution import _end, _resolve_and_advance
from .state import _add, _err, MafiaState, TEXT_LIMIT
from .roles import Ability, NEUTRAL
from .versions import PLAYS


EVERYONE = Audience.everyone()


# ------------------------------------------------------------------------------------ arguments


def _check_play(s: MafiaState, seat: int, ab: Ability, action: dict) -> dict[str, Any]:
    play = action.get("play")
    if play not in PLAYS:
        raise _err("bad_arg", name="play", value=play if isinstance(play, str) else None)
    target = action.get("target")
    if (play == "pass") == (target == seat):  # Пас: another living seat; every other play: the user
        raise _err("bad_target", ability=ab.key, target=target if _json_scalar(target) else None,
                   why="self" if play == "pass" else "not_self")
    out: dict[str, Any] = {"play": play}
    if play == "bluff":  # Блеф: +5 personas of one kind, tonight only
        persona = action.get("persona")
        if persona not in R.PERSONAS:
            raise _err("bad_arg", name="persona", value=persona if isinstance(persona, str) else None)
        out["persona"] = persona
    return out


def _check_text(s: MafiaState, seat: int, ab: Ability, action: dict) -> dict[str, Any]:
    text = action.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > TEXT_LIMIT:
        raise _err("bad_arg", name="text", value=None)
    return {"text": text}


def _check_mapping(s: MafiaState, seat: int, ab: Ability, action: dict) -> dict[str, Any]:
    mapping = action.get("mapping")
    roles = V.rules(s).roles
    if (not isinstance(mapping, (list, tuple)) or len(mapping) != s.players
            or any(r not in roles for r in mapping)):
        raise _err("bad_arg", name="mapping", value=None)
    return {"mapping": list(mapping)}


def _check_seats(s: MafiaState, seat: int, ab: Ability, action: dict) -> dict[str, Any]:
    seats = action.get("seats")  # (each seat's own refusals: targets.order_refusal, after the arguments)
    ok = isinstance(seats, (list, tuple)) and 1 <= len(seats) <= 3 and all(
        _is_seat(s, t) for t in seats) and len(set(seats)) == len(seats)
    if not ok:
        raise _err("bad_arg", name="seats", value=None)
    return {"seats": list(seats)}


ARG_CHECKS.update({V.ARG_PLAY: _check_play, V.ARG_TEXT: _check_text, V.ARG_MAPPING: _check_mapping,
                     V.ARG_SEATS: _check_seats})


# ------------------------------------------------------------------------------------ the Ход and the Джокер


class _Deck:
    """Tonight's card moves, settled at once after the "cards" step (simultaneous resolution)."""

    def __init__(self) -> None:
        self.spent: dict[int, int] = {}
        self.incoming: dict[int, int] = {}
        self.folded: set[int] = set()
        self.passes: list[tuple[int, int]] = []  # (passer, target)
        self.buy_in: set[int] = set()


def _deck(n: _Night) -> _Deck:
    deck = getattr(n, "deck", None)
    if deck is None:
        deck = n.deck = _Deck()
    return deck


def _more(bag: dict[int, int], seat: int, count: int) -> None:
    bag[seat] = bag.get(seat, 0) + count


@handler("card")
def _card(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, play, deck = n.s, o["play"], _deck(n)
    _more(deck.spent, seat, 1)  # every play costs one card (4.6 #17)
    s.plays[seat] = play
    if play == "pass":  # Пас: the card goes to the target
        _more(deck.incoming, o["target"], 1)
        deck.passes.append((seat, o["target"]))
    elif play == "bank":
        n.banked.add(seat)
    elif play == "bluff":  # +5 of one persona, tonight only (the A Маньяк gains no personas)
        if not V.no_gain(s, seat):
            _add(s.temp[seat], o["persona"], 5)
    elif play == "whist":  # 2 votes secretly taken off the user tomorrow
        votes = s.extra_votes.setdefault(s.index + 1, {})
        votes[seat] = votes.get(seat, 0) - 2
    elif play == "misere":  # next night: every own ability works from Hospital and Jail, unblockable
        s.misere[seat] = s.index + 2
    elif play == "dave":
        _more(deck.incoming, seat, 2)
    elif play == "fold":
        deck.folded.add(seat)


@handler("deal")
def _deal(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    for t in o["seats"]:  # Раздача: +1 card each
        _more(_deck(n).incoming, t, 1)


@handler("buy_in")
def _buy_in(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    _deck(n).buy_in.add(o["target"])  # Прикуп: exactly 2 cards at the end of the night


def _settle(n: _Night) -> None:
    """Card counts after tonight's plays (Фолд empties the hand before tonight's incoming cards,
    Прикуп sets exactly 2 last and refunds its target's passers), then Рука судьбы."""
    s = n.s
    if not V.rules(s).cards:
        return
    deck = getattr(n, "deck", None)
    before = list(s.cards)
    if deck is not None:
        for seat in range(s.players):
            hand = 0 if seat in deck.folded else max(0, s.cards[seat] - deck.spent.get(seat, 0))
            s.cards[seat] = hand + deck.incoming.get(seat, 0)
        for t in deck.buy_in:
            s.cards[t] = 2
        for passer, t in deck.passes:
            if t in deck.buy_in:
                s.cards[passer] += 1
    for seat in range(s.players):
        if s.alive[seat] and s.cards[seat] != before[seat]:
            n.tell(seat, "mafia.cards", {"seat": seat, "cards": s.cards[seat]}, learn=False)
    jokers = [x for x in s.living() if s.roles[x] == "joker"]
    if not jokers:
        return
    for seat in s.living():  # Рука судьбы: a non-Neutral with >= 3 cards dies; the Джокер learns its role
        if s.cards[seat] >= 3 and s.faction(seat) != NEUTRAL:
            n.fate.add(seat)
            for joker in jokers:
                n.tell(joker, "mafia.fate", {"seat": joker, "target_seat": seat, "role": s.roles[seat]})


def _croupier(n: _Night) -> None:
    """Крупье (every morning) and the record of last night's wounds (Улики)."""
    s = n.s
    s.wounds = {t: list(w) for t, w in n.wounds.items()}
    if not V.rules(s).cards:
        return
    for joker in [x for x in s.living() if s.roles[x] == "joker"]:
        personas = []
        for t in range(s.players):
            if t != joker and ((not s.alive[t] and s.cards[t] >= 1) or (s.alive[t] and s.cards[t] >= 2)):
                found = n.draw(joker, t)  # the Джокер's own Крупье (under Срыв on him: Аноним)
                if found is not None:
                    personas.append({"seat": t, "persona": found})
        roles = [{"seat": t, "role": s.roles[t]} for t, play in sorted(s.plays.items()) if play != "pass"]
        n.tell(joker, "mafia.croupier", {"seat": joker, "cards": list(s.cards), "personas": personas,
                                         "roles": roles})
    s.plays = {}


def _all_in(s: MafiaState, seat: int, order: dict, events: list) -> None:
    """Ва-банк: the public↔secret mapping, posted publicly; right: the Джокер wins at once (#14);
    wrong: he leaves the game for good and the Ход is disabled for everyone (#17)."""
    correct = list(order["mapping"]) == list(s.roles)
    events.append(Event(EVERYONE, "mafia.all_in", {"seat": seat, "mapping": list(order["mapping"]),
                                                   "correct": correct}))
    s.public_cache = None
    if correct:
        _end(s, (V.ALL_IN, (seat,)), events)
        return
    s.alive[seat] = False
    s.dead_at[seat] = s.index
    s.cards_off = True
    s.orders[seat] = {}
    s.ready[seat] = False
    s.actors = None
    living = s.living()
    if living and all(s.ready[x] or not _can_act(s, x) for x in living):
        _resolve_and_advance(s, events)


ANY_TIME[V.ALL_IN] = _all_in


# ------------------------------------------------------------------------------------ Предатель, Сыщик


@handler("backstab")
def _backstab(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if n.s.roles[o["target"]] == o["role"]:  # Нож в спину: attack 1 on a right guess
        n.attack(seat, o["target"], 1, ab.key)


@handler("sabotage_investigation")
def _sabotage_investigation(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.disrupted.add(o["target"])  # the target's abilities see only Аноним(1) tonight


@handler("investigation")
def _investigation(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    """Расследование: is the target's most numerous persona (ties: random) a Mafia role?"""
    s, t = n.s, o["target"]
    seen = {k: v for k, v in n.seen(seat, t).items() if v > 0}
    top = max(seen.values()) if seen else 0
    names = sorted(k for k, v in seen.items() if v == top)
    picked = s.rng.choice(names) if names else None
    if picked is not None and V.no_gain(s, t) and seat not in n.disrupted:
        n.tell(t, "mafia.probed", {"seat": t, "persona": picked})
    n.tell(seat, "mafia.investigation", {"seat": seat, "ability": ab.key, "target_seat": t,
                                         "mafia": picked in V.MAFIA_PERSONAS})


@handler("evidence")
def _evidence(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]  # Улики (day): the abilities that damaged or killed the target last night
    n.tell(seat, "mafia.evidence", {"seat": seat, "ability": ab.key, "target_seat": t,
                                    "abilities": list(n.s.wounds.get(t, []))})


# ------------------------------------------------------------------------------------ damage


def _damage_hook(n: _Night, target: int, attacks: list, total: Any) -> Any:
    s = n.s
    if target in n.fate:  # Рука судьбы: death, not an attack (only Банк and Похищение stop it)
        total = max(total, s.hp[target])
    if target in n.banked:  # Банк: all damage blocked; none: 1 damage in the morning
        # (rules revision 3: not to a Горец on nights 1-2, who «не получает урона» of any kind)
        total = 0 if total > 0 or (s.rules_rev >= 3 and P.immortal(s, target)) else 1
    saviours = n.kidnap.get(target)
    if total > 0 and saviours and V.rules(s).kidnap_damage:  # A/B: Похищение: no damage at all
        total = 0
        for genius in saviours:
            s.plans[genius] += 1
    if total > 0:
        wounds = [a[2] for a in attacks if a[1] > 0]
        if n.harm.get(target):
            wounds.append("bloodbath")
        if target in n.fate:
            wounds.append("hand_of_fate")
        if target in n.banked:
            wounds.append("bank")
        n.wounds[target] = list(dict.fromkeys(wounds))
    return total


DAMAGE_HOOKS.append(_damage_hook)
AFTER_STEP.setdefault("cards", []).append(_settle)
AFTER_STEP.setdefault("info", []).append(_croupier)
