"""Bots for «Революция» (docs/revolution-protocol.md, "Bots"). A bot sees only its view, its legal
actions and the deck's card data (public), keeps no memory, does no I/O and draws randomness only
from the ``rng`` it is given. Every answer is one element of ``legal``.

* Own turn: place a class/party when it has none, equip an item that raises its attack, play level
  and draw cards, a revolution for its own party, decrees that help it, steal the leader's best
  item, arrest the leader when its party rules, sell surplus loot for levels, then draw / fight a
  weak opponent from hand / draw face down / discard down to the limit / end. In jail: buy out
  when it can, else roll.
* Fights: the fighter plays bonuses and accepts the cheapest offer that wins, calls the fight off
  or escapes with a card when it cannot win. Others (``Policy``, issue 14) offer help when their
  attack tips the fight, only to a fighter who stays below them after the win (never to one who
  would reach level 10), asking all the loot from one who would draw level; and hinder a winning
  fighter who would draw level with them or pass them, when their cards can turn the fight,
  keeping their last fight card unless the fighter leads the table.
* Trades (outside fights): an open offer to the bot is accepted when what it gets is worth, by
  price, at least what it gives, else declined; on its own turn it sometimes offers an item from
  its hand that it will not wear (or other priced loot) for a better item another player wears
  that costs no more.
* Counter window: a counter that brings its own party back, or removes another ruling party.

``easy`` takes a random legal action 30% of the time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import bot_answer
from .deck import EQUIPMENT, load

Action = dict[str, Any]
STRICT = False
EASY_RANDOM = 0.3
GOAL = 10


@dataclass(frozen=True)
class Policy:
    """How a bot takes sides in other players' fights (issue 14: fights were won 96-98% of the
    time because every bystander helped and almost nobody hindered).

    ``help_lead``: a bystander offers help only when the fighter, after the win, would be at most
    this many levels above it (None: anyone who would not reach level 10).
    ``hinder_lead``: a bystander hinders a fighter who is winning when the fighter, after the win,
    would be at least this many levels above it (None: only the leader or one about to win).
    ``hinder_reserve``: a bystander keeps this many fight cards for its own fights (hindering
    spends them; a bot that hinders with its last card fights its own opponents naked).
    ``greedy_share``: a helper asks for all the loot from a fighter who would draw level with it
    or pass it (else half)."""

    help_lead: int | None
    hinder_lead: int | None
    hinder_reserve: int
    greedy_share: bool


BASELINE = Policy(help_lead=None, hinder_lead=None, hinder_reserve=0, greedy_share=False)  # before issue 14
TUNED = Policy(help_lead=-1, hinder_lead=0, hinder_reserve=1, greedy_share=True)
POLICY = TUNED


def bot_action(view: dict[str, Any], legal: list[Action], rng: Any, level: str,
               policy: Policy | None = None) -> Action:
    def choose(v: dict[str, Any], lg: list[Action], r: Any) -> Action:
        return _choose(v, lg, r, policy or POLICY)
    return bot_answer(choose, view, legal, rng, level, EASY_RANDOM, STRICT)


def _first(legal: list[Action], kind: str) -> Action | None:
    for a in legal:
        if a["type"] == kind:
            return a
    return None


def _choose(view: dict[str, Any], legal: list[Action], rng: Any, policy: Policy = TUNED) -> Action:
    deck = load(view["deck"], view.get("deck_rev"))
    stage = view["stage"]
    if stage == "counter":
        return _counter(view, legal)
    if stage == "fight":
        return _fight(view, legal, deck, policy)
    answer = _trade_answer(view, legal, deck)
    if answer is not None:
        return answer
    return _own_turn(view, legal, deck, rng)


def _value(deck, cards: list[str]) -> int:
    return sum(deck.cards[c].price or 0 for c in cards)


def _trade_answer(view: dict[str, Any], legal: list[Action], deck) -> Action | None:
    """An open trade offer to this bot: accept it when what it gets is worth (by price) at least
    what it gives, else decline."""
    for offer in view.get("trades_to_me") or []:
        accept = {"type": "trade_accept", "seat": offer["seat"]}
        if accept in legal and _value(deck, offer["give"]) >= _value(deck, offer["take"]):
            return accept
        decline = {"type": "trade_decline", "seat": offer["seat"]}
        if decline in legal:
            return decline
    return None


def _trade_offer(view: dict[str, Any], legal: list[Action], deck, rng: Any) -> Action | None:
    """Now and then: a priced card in hand (not an item the bot would wear), for an item another
    player wears that would serve the bot better and costs no more (a fair trade by price, which
    a bot accepts)."""
    me = view["me"]
    offers = [a for a in legal if a["type"] == "trade" and len(a["take"]) == 1 and len(a["give"]) == 1
              and a["give"][0] in view.get("hand", [])
              and not (deck.cards[a["give"][0]].category in EQUIPMENT and _better_item(view, deck, a["give"][0], me))
              and _better_item(view, deck, a["take"][0], me)
              and (deck.cards[a["take"][0]].price or 0) <= (deck.cards[a["give"][0]].price or 0)]
    if not offers or rng.random() >= 0.5:
        return None
    return max(offers, key=lambda a: (_item_value(view, deck, a["take"][0], me), -a["target"]))


def _counter(view: dict[str, Any], legal: list[Action]) -> Action:
    plays = [a for a in legal if a["type"] == "play"]
    pas = _first(legal, "pass")
    if plays:
        c = view["counter"]
        mine = view["party_keys"][view["me"]]
        after = c["prev"] if c["level"] % 2 else c["party"]
        ruling = view["ruling"]
        if (mine is not None and after == mine) or (ruling is not None and ruling != mine and after != ruling):
            return plays[0]
    return pas or legal[0]


def _bonus_of(deck, a: Action) -> int:
    """What a fight card or speech adds to its side (the side in the action)."""
    card = deck.cards[a["card"]]
    e = card.effect("fight_bonus") or card.effect("speech")
    return e["n"] if e else 0


def _fight(view: dict[str, Any], legal: list[Action], deck, policy: Policy = TUNED) -> Action:
    me = view["me"]
    f = view["fight"]
    pt, ot = f["players_total"], f["opponent_total"]
    pas = _first(legal, "pass") or legal[0]
    opp = deck.cards[f["card"]].effect("opponent")
    helps = [a for a in legal if a["type"] in ("play", "speech") and deck.cards[a["card"]].category != "revolution"
             and a.get("side", deck.cards[a["card"]].effect("fight_bonus")["side"]
                       if deck.cards[a["card"]].effect("fight_bonus") else None) == "players"
             and _bonus_of(deck, a) > 0]
    helps += [a for a in legal if a["type"] == "play" and deck.cards[a["card"]].effect("fight_bonus")
              and deck.cards[a["card"]].effect("fight_bonus")["side"] == "opponent" and _bonus_of(deck, a) < 0]
    hinders = [a for a in legal if a["type"] in ("play", "speech") and
               (a.get("side") or (deck.cards[a["card"]].effect("fight_bonus") or {}).get("side")) == "opponent"
               and _bonus_of(deck, a) > 0]
    levels = view["levels"]
    if me in (f["fighter"], f["helper"]):
        if pt > ot:
            return pas
        deficit = ot - pt + 1
        if me == f["fighter"]:
            best = None
            for a in legal:
                if a["type"] == "accept":
                    helper = a["seat"]
                    power = view["attack"][helper] + _help_bonus(view, deck, helper)
                    share = f["offers"][str(helper)]
                    if power >= deficit and (best is None or share < best[0]):
                        best = (share, a)
            if best:
                return best[1]
        if helps and sum(abs(_bonus_of(deck, a)) for a in helps) >= deficit:
            return max(helps, key=lambda a: abs(_bonus_of(deck, a)))
        if me == f["fighter"] and f["offers"] and f["helper"] is None and any(a["type"] == "accept" for a in legal):
            return pas  # wait: an offer may still come
        for a in legal:
            if a["type"] == "play":
                card = deck.cards[a["card"]]
                if card.effect("cancel_fight") or card.effect("auto_escape"):
                    return a
        return pas
    fighter = f["fighter"]
    after = levels[fighter] + opp["levels"]  # the fighter's level if it wins
    threat = after >= GOAL or levels[fighter] >= max(lv for i, lv in enumerate(levels) if i != fighter)
    if pt > ot and hinders:
        if policy.hinder_lead is None:
            wants = threat and levels[fighter] >= levels[me] - 1
        else:  # a rival pulling ahead is stopped while the bot keeps a card for its own fights
            lead = after - levels[me] >= policy.hinder_lead
            leader = levels[fighter] > max(lv for i, lv in enumerate(levels) if i != fighter)
            reach = sum(_bonus_of(deck, a) for a in hinders) >= pt - ot  # enough to turn it
            wants = after >= GOAL or (lead and reach and (leader or _fight_cards(view, deck) > policy.hinder_reserve))
        if wants:
            return max(hinders, key=lambda a: _bonus_of(deck, a))
    if pt <= ot and after < GOAL and (policy.help_lead is None or after - levels[me] <= policy.help_lead):
        offers = [a for a in legal if a["type"] == "offer"]
        if offers and view["attack"][me] + _help_bonus(view, deck, me) >= ot - pt + 1:
            want = (opp["loot"] + 1) // 2
            if policy.greedy_share and after >= levels[me]:
                want = opp["loot"]
            return min(offers, key=lambda a: abs(a["share"] - want))
    return pas


def _fight_cards(view: dict[str, Any], deck) -> int:
    """One-shot cards in the bot's hand that change a fight (speeches and fight bonuses)."""
    return sum(1 for c in view.get("hand", []) if deck.cards[c].category == "speech"
               or deck.cards[c].effect("fight_bonus"))


def _help_bonus(view, deck, seat) -> int:
    c = view["classes"][seat]
    return sum(e["n"] for e in deck.cards[c].all("help_bonus")) if c else 0


def _item_value(view, deck, cid: str, me: int) -> int:
    card = deck.cards[cid]
    value = 0
    for e in card.effects:
        if e["effect"] == "attack":
            value += e["n"]
        elif e["effect"] == "attack_if":
            if ("class" in e and view["class_keys"][me] == e["class"]) or \
               ("party" in e and view["party_keys"][me] == e["party"]):
                value += e["n"]
        elif e["effect"] == "escape_bonus":
            value += e["n"] / 2
    return value


def _better_item(view, deck, cid: str, me: int) -> bool:
    card = deck.cards[cid]
    gear = view["gear"][me]
    new = _item_value(view, deck, cid, me)
    if card.category != "weapon":
        old = [g for g in gear if deck.cards[g].category == card.category]
        return not old or new > _item_value(view, deck, old[0], me)
    weapons = [g for g in gear if deck.cards[g].category == "weapon"]
    used = sum(deck.cards[g].effect("hands")["n"] for g in weapons)
    need = card.effect("hands")["n"]
    lost = 0
    for g in weapons:
        if used + need <= 2:
            break
        used -= deck.cards[g].effect("hands")["n"]
        lost += _item_value(view, deck, g, me)
    return new > lost


def _own_turn(view: dict[str, Any], legal: list[Action], deck, rng: Any = None) -> Action:
    me = view["me"]
    levels = view["levels"]
    stage = view["stage"]
    others = [i for i in range(view["players"]) if i != me]
    leader = max(others, key=lambda i: (levels[i], view["attack"][i]))
    for a in legal:
        t = a["type"]
        if t == "place":
            card = deck.cards[a["card"]]
            if card.category == "class" and view["classes"][me] is None:
                return a
            if card.category == "party" and (view["parties"][me] is None or
                                             (card.effect("party")["key"] == view["ruling"] and
                                              view["party_keys"][me] != view["ruling"])):
                return a
        elif t == "equip" and _better_item(view, deck, a["card"], me):
            return a
        elif t == "buyout":
            return a
    for a in legal:
        if a["type"] != "play" or a.get("side"):
            continue
        card = deck.cards[a["card"]]
        name = card.effects[0]["effect"]
        e = card.effects[0]
        if name in ("gain_level", "draw", "release", "draw_all", "amnesty"):
            if name == "amnesty" and not view["jail"][me]:
                continue
            return a
        if name == "revolution":
            party = view["party_keys"][me] if e["party"] == "own" else e["party"]
            if party == view["party_keys"][me] and view["ruling"] != party:
                return a
        if name == "class_level" and (view["class_keys"][me] == e["class"]) == (e["n"] > 0):
            if any(view["class_keys"][i] == e["class"] for i in range(view["players"])):
                return a
        if name == "discard_classes" and view["classes"][me] is None and any(view["classes"]):
            return a
        if name == "steal_item" and a["target"] == leader:
            best = max((x for x in legal if x["type"] == "play" and x["card"] == a["card"] and x["target"] == leader),
                       key=lambda x: deck.cards[x["item"]].price or 0)
            return best
    if stage in ("choose", "end") and view.get("active") == me:
        offer = _trade_offer(view, legal, deck, rng)
        if offer is not None:
            return offer
    arrests = [a for a in legal if a["type"] == "arrest" and a["target"] == leader and a["number"] == 2]
    if arrests and levels[leader] >= levels[me]:
        return min(arrests, key=lambda a: _keep_value(deck, a["card"]))
    sell = _first(legal, "sell")
    if sell and stage != "jail":
        return sell
    if stage == "open":
        return _first(legal, "draw") or legal[0]
    if stage == "jail":
        return _first(legal, "roll") or legal[0]
    if stage == "choose":
        best = None
        for a in legal:
            if a["type"] == "fight":
                card = deck.cards[a["card"]]
                strength = card.effect("opponent")["level"]
                for e in card.all("stronger_vs"):
                    if ("class" in e and view["class_keys"][me] == e["class"]) or \
                       ("party" in e and view["party_keys"][me] == e["party"]):
                        strength += e["n"]
                if view["attack"][me] > strength + 1 and (best is None or strength > best[0]):
                    best = (strength, a)
        if best:
            return best[1]
        return _first(legal, "draw_hidden") or legal[0]
    end = _first(legal, "end")
    if end:
        return end
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        return min(discards, key=lambda a: _keep_value(deck, a["card"]))
    return legal[0]


def _keep_value(deck, cid: str) -> float:
    """How much a bot wants to keep a card (low: discard it first)."""
    card = deck.cards[cid]
    if card.category == "opponent":
        return 0
    if card.category in EQUIPMENT:
        return 1 + (card.price or 0) / 1000
    if card.category in ("class", "party"):
        return 0.5
    return 2 + (card.price or 0) / 1000
