"""Bots for Coup («Переворот»). A bot sees exactly what a player in its seat would see: its view
and the list of its legal actions (docs/coup-protocol.md). It never touches the state, keeps no
memory between calls, does no I/O and draws randomness only from the ``rng`` it is given, so a
seeded game replays exactly. Every answer is one element of ``legal``.

Levels:

* ``easy``: mostly honest, random-ish and cheap (a few microseconds a call, for the benchmark's
  1,000 games a second). On its turn it draws among income (twice), foreign aid (once) and the
  action of each card it holds (three times each), with a 5% bluff; coups 90% of the time from 7
  coins (always from 10); picks targets at random (a steal: someone with coins). It blocks with
  what it holds (a 5% bluff otherwise), challenges rarely (2%; half the time when every copy of
  the claimed role is visible to it), always proves a claim it can, keeps and loses cards by a
  fixed table of their worth.
* ``normal`` (also any unknown level): plays the sense of the game from its view alone.
  - Turn: coups from 7 coins, the strongest opponent (most face-down cards, then most coins).
    Otherwise it scores its options by what they gain and how likely they are to be blocked (the
    odds that the target, or for foreign aid anyone, holds a blocking card): assassinate the
    strongest, tax, steal from the richest, exchange when its hand is weak, examine, foreign aid,
    income (each gain for what the treasury can still pay); a small random term keeps it from
    being predictable. On 30% of its turns (10% with its last card) it also weighs bluffs,
    worth less the more copies of the role are visible, and never a role whose every copy it
    can see (face up plus its own hand). Late in a long game income gains weight, so bots that
    keep blocking each other still head for a coup.
  - Challenges: always when the claim is impossible (every copy visible to it). Otherwise it
    estimates the odds of a bluff (a hypergeometric draw of the claimant's face-down cards from
    the cards it cannot see, against how often players bluff; in a 2-player game, the 7 cards in
    play with the draft's bias toward the Duke) and challenges around a threshold set by what is
    at stake for it: low when its own assassination is blocked or it is being assassinated with
    one card left, high for other people's quarrels, higher still with its last card. A seat the
    claim is aimed at keeps a 3% chance, so a run of unanswered claims ends.
  - Blocks with the card it holds; otherwise sometimes bluffs a block with the least visible
    role (nearly always a Contessa when an assassination would take its last card).
  - Keeps the best cards on an exchange, loses its least useful card, shows its least valuable
    card when examined, swaps an examined card worth more than an average draw; drafts the role
    that best completes its hand.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

Action = dict[str, Any]

# Set by tests: let an exception in a bot escape instead of falling back to a safe action.
STRICT = False

# What a card is worth in hand, before the position is taken into account.
BASE_VALUE = {"duke": 5.0, "assassin": 4.0, "captain": 4.2, "contessa": 3.6, "ambassador": 2.6,
              "inquisitor": 3.2}
# The card a seat would rather give up first (least valuable first), for the cheap level.
_BY_VALUE = sorted(BASE_VALUE, key=BASE_VALUE.__getitem__)
_RANK = {role: i for i, role in enumerate(_BY_VALUE)}

# The role an action claims; "exchange" claims the fifth role of the game (ambassador/inquisitor).
CLAIM = {"tax": "duke", "assassinate": "assassin", "steal": "captain", "examine": "inquisitor"}
# How often a player who does not hold a role claims it anyway (used to weigh a claim's odds).
BLUFF_PRIOR = 0.18
# How often a normal bot considers a bluff on its turn (with two cards, with its last card).
BLUFF_TURN, BLUFF_TURN_LAST = 0.30, 0.10

# 2 players: how often a role is the one drafted (for the odds of a claim).
_DRAFT_SHARE = {"duke": 0.45, "captain": 0.2, "assassin": 0.15, "contessa": 0.12}


# ------------------------------------------------------------------------------------ entry


def bot_action(view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
    """One element of ``legal`` for the seat whose ``view`` this is."""
    if len(legal) <= 1:
        if not legal:
            raise ValueError("bot asked to move with no legal action")
        return legal[0]
    handler = (_EASY if level == "easy" else _NORMAL).get(view.get("stage"))
    if handler is None:
        return _safe(legal)
    if STRICT:
        return handler(view, legal, rng)
    try:
        return handler(view, legal, rng)
    except Exception:  # a bot must never stall a table: fall back to the most harmless move
        return _safe(legal)


def _safe(legal: list[Action]) -> Action:
    """The move a timeout would most likely make: allow, prove, income; else the first."""
    for kind in ("allow", "prove", "income", "examine_return"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def _first(legal: list[Action], kind: str) -> Action | None:
    for action in legal:
        if action["type"] == kind:
            return action
    return None


def _copies(view: dict[str, Any]) -> int:
    players = view["players"]
    return 5 if players >= 9 else 4 if players >= 7 else 3  # engine.copies_for (bots see no engine)


def _visible(view: dict[str, Any], role: str) -> int:
    """Copies of ``role`` this seat can see: face up anywhere plus in its own hand."""
    seen = view.get("hand", ()).count(role)
    for cards in view["face_up"]:
        if cards:
            seen += cards.count(role)
    return seen


def _impossible(view: dict[str, Any], role: str) -> bool:
    """Every copy of ``role`` is visible to this seat (``_visible`` >= ``_copies`` in one loop:
    the easy bots ask this for every other claim)."""
    seen = view.get("hand", ()).count(role)
    face_up = view["face_up"]
    if any(face_up):  # (nobody has lost a card for much of a game: no loop then)
        for cards in face_up:
            if cards:
                seen += cards.count(role)
    return seen >= _copies(view)


# ------------------------------------------------------------------------------------ easy


# The turn actions a held card lets a seat take honestly.
_KINDS_OF = {"duke": ("tax",), "assassin": ("assassinate",), "captain": ("steal",),
             "ambassador": ("exchange",), "inquisitor": ("exchange", "examine"), "contessa": ()}
_BLUFFABLE = ("tax", "assassinate", "steal", "exchange", "examine")


@lru_cache(maxsize=256)  # a pure function of the hand: no memory of any game
def _turn_kinds(hand: tuple[str, ...]) -> tuple[str, ...]:
    """Income twice, foreign aid once, the action of each card in ``hand`` three times."""
    kinds = ["income", "income", "foreign_aid"]
    for role in hand:
        for kind in _KINDS_OF.get(role, ()):
            kinds += (kind, kind, kind)
    return tuple(kinds)


# Turn actions without a target: a menu holds one of each, so the first found is the one.
_UNTARGETED = frozenset(("income", "foreign_aid", "tax", "exchange"))


def _pick(items: list, rng) -> Any:
    """A seeded uniform pick (``int(random() * n)``: what ``rng.choice`` does, at a third of the cost)."""
    return items[int(rng.random() * len(items))] if len(items) > 1 else items[0]


def _easy_turn(view, legal, rng):
    me = view["viewer"]
    coins = view["coins"][me]
    if coins >= 7 and (coins >= 10 or rng.random() < 0.9):
        coups = [a for a in legal if a["type"] == "coup"]
        if coups:
            return _pick(coups, rng)
    kinds = _turn_kinds(tuple(view.get("hand", ())))
    if rng.random() < 0.05:  # a rare bluff, never of a role whose every copy it can see
        kind = _BLUFFABLE[int(rng.random() * 5)]
        role = view["fifth"] if kind == "exchange" else CLAIM[kind]
        if not _impossible(view, role):
            kinds = (kind,)
    kind = _pick(kinds, rng)
    if kind in _UNTARGETED:
        for action in legal:
            if action["type"] == kind:
                return action
        choices = []
    else:
        choices = [a for a in legal if a["type"] == kind]
        if kind == "steal":  # from someone who has coins, if anyone has
            coins_of = view["coins"]
            choices = [a for a in choices if coins_of[a["target"]]] or choices
    if not choices:  # e.g. assassinate without 3 coins, examine in an Ambassador game
        choices = [a for a in legal if a["type"] == "income"] or legal
    return _pick(choices, rng)


def _easy_challenge(view, legal, rng):
    roll = rng.random()
    if roll < 0.5:
        pending = view["pending"]
        role = pending["block_role"] if view["stage"] == "challenge_block" else pending["claim"]
        if roll < 0.02 or (role and _impossible(view, role)):
            for action in legal:
                if action["type"] == "challenge":
                    return action
    last = legal[-1]  # the most common answer of all; legal() lists it last, but any place will do
    if last["type"] == "allow":
        return last
    return _first(legal, "allow") or legal[0]


def _easy_block(view, legal, rng):
    hand = view.get("hand", ())
    blocks = [a for a in legal if a["type"] == "block"]
    for action in blocks:
        if action["role"] in hand:
            return action
    if blocks and rng.random() < 0.05:
        action = _pick(blocks, rng)
        if not _impossible(view, action["role"]):
            return action
    return _first(legal, "allow") or legal[0]


def _prove(view, legal, rng):
    return _first(legal, "prove") or legal[0]


def _easy_lose(view, legal, rng):
    return min(legal, key=lambda a: _RANK.get(a.get("role"), 0))


def _easy_keep(view, legal, rng):
    return max(legal, key=lambda a: _static_hand_score(a.get("roles", ())))


def _easy_show(view, legal, rng):
    return min(legal, key=lambda a: _RANK.get(a.get("role"), 0))


def _easy_decide(view, legal, rng):
    return _decide_examined(view, legal, BASE_VALUE)


def _easy_draft(view, legal, rng):
    if rng.random() < 0.5:
        return _pick(legal, rng)
    return _normal_draft(view, legal, rng)


def _static_hand_score(roles) -> float:
    score, seen = 0.0, []
    for role in roles:
        value = BASE_VALUE.get(role, 0.0)
        score += value * 0.35 if role in seen else value
        seen.append(role)
    return score


# ------------------------------------------------------------------------------------ normal


def _values(view: dict[str, Any]) -> dict[str, float]:
    """What each card is worth to this seat now."""
    me = view["viewer"]
    coins = view["coins"]
    alive = view["alive"]
    richest = max((coins[s] for s in range(len(coins)) if s != me and alive[s]), default=0)
    values = dict(BASE_VALUE)
    mine = coins[me]
    if richest >= 3:
        values["contessa"] += 1.0  # an assassination can come at any time
    if mine >= 7:
        values["duke"] -= 1.0  # coins are no longer the problem
    elif mine >= 3:
        values["assassin"] += 0.6
    if richest >= 2:
        values["captain"] += 0.4
    if view.get("cards", [0])[me] <= 1 and richest >= 3:
        values["contessa"] += 0.8
    return values


def _hand_score(roles, values: dict[str, float]) -> float:
    score, seen = 0.0, []
    for role in roles:
        value = values.get(role, 0.0)
        score += value * 0.35 if role in seen else value  # a second copy adds little
        seen.append(role)
    return score


def _unseen(view: dict[str, Any], roles) -> tuple[float, int]:
    """(copies of ``roles`` this seat cannot see, cards it cannot see): other hands and the Court."""
    copies = _copies(view)
    face_up = sum(len(cards) for cards in view["face_up"])
    two = view["players"] == 2
    unseen = 0.0
    for role in roles:
        visible = _visible(view, role)
        if visible >= copies:
            continue
        if two:
            # 7 cards in play: one of each role plus the two drafted ones (8 are out of the game);
            # drafts favour the strong roles, so a Duke is likelier in play than a Contessa.
            unseen += max(0.1, 1.0 + 2.0 * _DRAFT_SHARE.get(role, 0.08) - visible)
        else:
            unseen += copies - visible
    return unseen, (7 if two else copies * 5) - face_up - len(view.get("hand", ()))


def _draw_odds(unseen: float, unknown: int, held: int) -> float:
    """The chance that ``held`` cards drawn from ``unknown`` include one of ``unseen`` copies."""
    if unseen <= 0:
        return 0.0
    none = 1.0
    for i in range(held):
        if unknown - i <= 0:
            break
        none *= max(0.0, unknown - unseen - i) / (unknown - i)
    return 1.0 - none


def _p_any(view: dict[str, Any], seat: int, roles) -> float:
    """How likely ``seat`` holds at least one of ``roles`` (a draw from the cards this seat cannot see)."""
    unseen, unknown = _unseen(view, roles)
    return _draw_odds(unseen, unknown, view["cards"][seat])


def _p_holds(view: dict[str, Any], seat: int, role: str) -> float:
    """How likely ``seat`` holds ``role``, given that it claims it, from what this seat can see."""
    prior = _p_any(view, seat, (role,))
    return prior / (prior + (1.0 - prior) * BLUFF_PRIOR) if prior > 0 else 0.0


def _strength(view: dict[str, Any], seat: int) -> float:
    return view["cards"][seat] * 4 + view["coins"][seat]


def _strongest(view, actions: list[Action], rng) -> Action:
    best, best_score = actions[0], -1.0
    for action in actions:
        score = _strength(view, action["target"]) + rng.random() * 0.5
        if score > best_score:
            best, best_score = action, score
    return best


def _paid(treasury: int, asked: int) -> float:
    """The share of a gain the treasury can pay: one run low gives what is left (#3 revised)."""
    return 1.0 if asked <= treasury else max(0, treasury) / asked


def _normal_turn(view, legal, rng):
    me = view["viewer"]
    coins = view["coins"]
    mine = coins[me]
    coups = [a for a in legal if a["type"] == "coup"]
    if coups and (mine >= 7 or len(coups) == len(legal)):
        return _strongest(view, coups, rng)
    hand = view.get("hand", ())
    my_cards = len(hand) or view["cards"][me]
    fifth = view["fifth"]
    values = _values(view)
    # Bluffing is decided once per turn: more with two cards, less with one.
    bluffing = rng.random() < (BLUFF_TURN if my_cards >= 2 else BLUFF_TURN_LAST)
    alive = view["alive"]

    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action["type"], []).append(action)

    options: list[tuple[float, Action]] = []
    treasury = view.get("treasury", 50)

    def consider(role: str | None, score: float, action: Action) -> None:
        if role is None or role in hand:
            options.append((score + rng.random() * 0.8, action))
            return
        if not bluffing:
            return
        copies = _copies(view)
        visible = _visible(view, role)
        if visible >= copies:
            return  # every copy is visible: a bluff that anyone can call
        options.append((score * (copies - visible) / copies * 0.8 + rng.random() * 0.8, action))

    if "income" in by_kind:
        # A long game (e.g. two Captains blocking each other's steals) turns to sure coins, so
        # it always heads for a coup: from 15 turns a seat, income gains 0.1 a turn.
        late = max(0.0, (view["turn"] - 15 * len(alive)) * 0.1)
        options.append(((1.0 + late) * _paid(treasury, 1) + rng.random() * 0.3, by_kind["income"][0]))
    if "foreign_aid" in by_kind:
        # Any opponent may block it with a Duke (held, or claimed anyway now and then).
        free = 1.0
        unseen, unknown = _unseen(view, ("duke",))
        cards = view["cards"]
        for seat in range(len(alive)):
            if alive[seat] and seat != me:
                free *= 1.0 - min(1.0, _draw_odds(unseen, unknown, cards[seat]) + 0.05)
        consider(None, (2.0 * free + 0.2) * _paid(treasury, 2), by_kind["foreign_aid"][0])
    if "tax" in by_kind:
        consider("duke", 3.2 * _paid(treasury, 3), by_kind["tax"][0])
    if "assassinate" in by_kind:
        target = _strongest(view, by_kind["assassinate"], rng)
        blocked = min(1.0, _p_any(view, target["target"], ("contessa",)) + 0.15)
        score = (5.0 + (1.5 if view["cards"][target["target"]] == 1 else 0.0)) * (1.0 - blocked) + 0.5
        consider("assassin", score, target)
    if "steal" in by_kind:
        richest = max(by_kind["steal"], key=lambda a: (coins[a["target"]], _strength(view, a["target"])))
        taken = min(2, coins[richest["target"]])
        if taken:
            blocked = min(1.0, _p_any(view, richest["target"], ("captain", fifth)) + 0.15)
            consider("captain", 1.6 * taken * (1.0 - blocked), richest)
    if "exchange" in by_kind:
        weak = _hand_score(hand, values) / max(1, len(hand))
        consider(fifth, 3.6 - weak * 0.6 + (0.8 if fifth in hand else 0.0), by_kind["exchange"][0])
    if "examine" in by_kind:
        consider("inquisitor", 1.4, _strongest(view, by_kind["examine"], rng))
    if not options:
        return _safe(legal)
    return max(options, key=lambda option: option[0])[1]


def _normal_challenge(view, legal, rng):
    challenge = _first(legal, "challenge")
    allow = _first(legal, "allow") or legal[0]
    if challenge is None:
        return allow
    me = view["viewer"]
    pending = view["pending"]
    blocking = view["stage"] == "challenge_block"
    if blocking:
        role, claimant = pending["block_role"], pending["blocker"]
    else:
        role, claimant = pending["claim"], pending["actor"]
    if not role or claimant is None:
        return allow
    if _impossible(view, role):
        return challenge
    false = 1.0 - _p_holds(view, claimant, role)
    hand = view.get("hand", ())
    my_cards = len(hand) or view["cards"][me]
    action = pending["action"]
    # The odds of a bluff above which a challenge pays, for what is at stake for this seat.
    if blocking:
        if pending["actor"] == me:  # its own action is blocked
            threshold = {"assassinate": 0.35, "steal": 0.5, "foreign_aid": 0.55}.get(action, 0.6)
        else:
            threshold = 0.8  # someone else's quarrel: let them pay for the challenge
    elif pending["target"] == me and action == "assassinate":
        if "contessa" in hand:
            return allow  # it will block instead
        # With one card: dead anyway unless this or a bluffed block works; with two, a wrong
        # challenge costs both.
        threshold = 0.4 if my_cards <= 1 else 0.6
    elif pending["target"] == me and action == "steal":
        if "captain" in hand or view["fifth"] in hand or view["coins"][me] == 0:
            return allow  # it will block instead, or has nothing to lose
        threshold = 0.5
    elif pending["target"] == me:  # examine
        threshold = 0.55
    elif action == "tax":  # bystanders: only a likely bluff, sooner when it brings a coup
        gain = 3 if view.get("treasury", 3) >= 3 else view["treasury"]  # what is left (#3)
        threshold = 0.6 if view["coins"][claimant] + gain >= 7 else 0.7
    else:
        threshold = 0.75
    if my_cards <= 1 and not (pending["target"] == me and action == "assassinate"):
        threshold += 0.15  # a wrong challenge would eliminate it
    # Around the threshold, a challenge becomes likelier the likelier a bluff: never predictable;
    # a seat the claim is aimed at keeps a small chance, so a run of unanswered claims ends.
    chance = 0.5 + (false - threshold) * 3.0
    if pending["target"] == me or (blocking and pending["actor"] == me):
        chance = max(chance, 0.03)
    if rng.random() < chance:
        return challenge
    return allow


def _normal_block(view, legal, rng):
    blocks = [a for a in legal if a["type"] == "block"]
    allow = _first(legal, "allow") or legal[0]
    if not blocks:
        return allow
    hand = view.get("hand", ())
    for action in blocks:
        if action["role"] in hand:
            return action
    me = view["viewer"]
    my_cards = len(hand) or view["cards"][me]
    pending = view["pending"]
    action_type = pending["action"]
    copies = _copies(view)
    # The least visible role is the most believable bluff.
    best = min(blocks, key=lambda a: _visible(view, a["role"]))
    visible = _visible(view, best["role"])
    if visible >= copies:
        return allow
    believable = (copies - visible) / copies
    if action_type == "assassinate":
        chance = 0.9 if my_cards <= 1 else 0.3
    elif action_type == "steal":
        if view["coins"][me] == 0:
            return allow
        chance = 0.3 if my_cards >= 2 else 0.08
    else:  # foreign aid: anyone may block, so each seat bluffs rarely
        actor_coins = view["coins"][pending["actor"]]
        crowd = max(1, sum(view["alive"]) - 1)
        chance = (0.25 if actor_coins + 2 >= 7 else 0.1) * (1.0 if my_cards >= 2 else 0.3) / crowd
    if rng.random() < chance * believable:
        return best
    return allow


def _normal_lose(view, legal, rng):
    values = _values(view)
    hand = list(view.get("hand", ()))
    best, best_score = legal[0], -1.0
    for action in legal:
        rest = list(hand)
        if action.get("role") in rest:
            rest.remove(action["role"])
        score = _hand_score(rest, values)
        if score > best_score:
            best, best_score = action, score
    return best


def _normal_keep(view, legal, rng):
    values = _values(view)
    return max(legal, key=lambda a: _hand_score(a.get("roles", ()), values))


def _normal_show(view, legal, rng):
    values = _values(view)
    return min(legal, key=lambda a: values.get(a.get("role"), 0.0))


def _normal_decide(view, legal, rng):
    return _decide_examined(view, legal, _values(view))


def _decide_examined(view, legal, values):
    """Swap the shown card when it is worth more to its owner than an average draw."""
    shown = view.get("shown")
    swap = _first(legal, "examine_swap")
    keep = _first(legal, "examine_return") or legal[0]
    if swap is None or shown is None:
        return keep
    roles = ("duke", "assassin", "captain", "contessa", view["fifth"])
    average = sum(values[r] for r in roles) / len(roles)
    return swap if values.get(shown, 0.0) >= average else keep


def _normal_draft(view, legal, rng):
    values = dict(BASE_VALUE)
    hand = list(view.get("hand", ()))
    return max(legal, key=lambda a: _hand_score(hand + [a.get("role")], values) + rng.random() * 0.3)


_EASY = {
    "draft": _easy_draft,
    "turn": _easy_turn,
    "challenge_action": _easy_challenge,
    "challenge_block": _easy_challenge,
    "block": _easy_block,
    "prove": _prove,
    "lose": _easy_lose,
    "exchange": _easy_keep,
    "examine_show": _easy_show,
    "examine_decide": _easy_decide,
}

_NORMAL = {
    "draft": _normal_draft,
    "turn": _normal_turn,
    "challenge_action": _normal_challenge,
    "challenge_block": _normal_challenge,
    "block": _normal_block,
    "prove": _prove,
    "lose": _normal_lose,
    "exchange": _normal_keep,
    "examine_show": _normal_show,
    "examine_decide": _normal_decide,
}
