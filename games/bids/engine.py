"""Sealed Bids («Торги»): the demo game, and the example to copy when writing a new engine.

Rules in short
--------------
* 2-6 players; option ``rounds`` (default 5, allowed 3..10).
* Every player has a private suit of cards 1..15 and is dealt ``rounds`` of them face down: that is
  their hand. (Each player draws from their own suit, so two players can hold the same number; this
  is what makes ties possible, and a single shared deck of 15 could not serve 6 players anyway.)
* A face-down prize row holds the values 1..rounds*2, shuffled. Each round its top prize is turned
  face up; the other half of the row is never played.
* Each round is one sealed-bid window. Every player either bids one card from their hand
  (``{"type": "bid", "card": 7}``) or folds (``{"type": "fold"}``). A move is final once made.
  Everybody learns *who* has moved, never *what* they did: even a fold stays sealed, and the bid
  card stays in the hand until the reveal, so hand sizes give nothing away either.
* When everyone has moved, all moves are revealed. The highest *unique* bid wins the prize (its value
  is added to the bidder's score). Equal bids cancel each other: with bids 9, 9, 5 the 5 wins. If no
  bid is unique, the prize is discarded. Bid cards are discarded face up.
* After the last round the highest score wins; equal best scores share the win.

How this file is laid out (the same shape suits any engine)
-----------------------------------------------------------
``BidsState`` is plain data. ``SealedBids`` holds no data of its own: every method takes the state.
``apply`` is the only method that changes a state; it either raises ``RuleError`` *before* touching
anything, or changes the state and returns the events that describe the change. No text lives here,
only message keys (``bids.*``) and parameters; the catalogs in world/locale turn them into words.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..base import MASTER, Action, Audience, Awaiting, Event, Outcome, RuleError, int_option
from . import bot

CARD_MIN, CARD_MAX = 1, 15  # every player's suit
ROUNDS_MIN, ROUNDS_MAX = 3, 10
BID_SECONDS = 30  # default length of a bidding window (option "seconds")
SECONDS_MIN, SECONDS_MAX = 1, 3600

FOLD: Action = {"type": "fold"}


def bid(card: int) -> Action:
    return {"type": "bid", "card": card}


@dataclass
class BidsState:
    """Everything about one game. Plain data, so ``copy.deepcopy`` makes an independent game."""

    players: int
    rounds: int
    seconds: int  # length of each bidding window (a suggestion to the runner)
    rng: random.Random  # the game's only source of chance (used while dealing, kept for the rule)
    hands: list[list[int]]  # per seat, sorted; secret
    prize_row: list[int]  # face-down prizes still to come, next one first; secret
    prize: int | None = None  # the face-up prize of the current round (None once the game is over)
    round: int = 1  # 1-based number of the current round
    moves: dict[int, int | None] = field(default_factory=dict)  # this round: seat -> card, None = fold
    scores: list[int] = field(default_factory=list)
    discards: list[list[int]] = field(default_factory=list)  # per seat, cards bid so far (face up)
    discarded_prizes: list[int] = field(default_factory=list)  # prizes nobody won
    over: bool = False


class SealedBids:
    name = "bids"
    min_players = 2
    max_players = 6
    default_options: dict[str, Any] = {"rounds": 5, "seconds": BID_SECONDS}

    # ----------------------------------------------------------------------------- setting up

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, numbers parsed from text ("7" -> 7); anything else is refused."""
        result = dict(self.default_options)
        limits = {"rounds": (ROUNDS_MIN, ROUNDS_MAX), "seconds": (SECONDS_MIN, SECONDS_MAX)}
        for name, value in (options or {}).items():
            if name not in limits:
                raise RuleError("bids.error.bad_option", name=name, value=value)
            result[name] = int_option(value, *limits[name], name, "bids.error.bad_option")
        return result

    def new(self, seats: int, options: dict[str, Any], seed: int) -> BidsState:
        if not self.min_players <= seats <= self.max_players:
            raise RuleError("bids.error.bad_option", name="players", value=seats)
        options = self.validate_options(options)
        rounds = options["rounds"]
        rng = random.Random(seed)
        # Deal in a fixed order (seat 0 first, then the prize row) so a seed always gives one game.
        hands = [sorted(rng.sample(range(CARD_MIN, CARD_MAX + 1), rounds)) for _ in range(seats)]
        prize_row = list(range(1, 2 * rounds + 1))
        rng.shuffle(prize_row)
        state = BidsState(
            players=seats,
            rounds=rounds,
            seconds=options["seconds"],
            rng=rng,
            hands=hands,
            prize_row=prize_row,
            scores=[0] * seats,
            discards=[[] for _ in range(seats)],
        )
        state.prize = state.prize_row.pop(0)  # round 1's prize is face up from the start
        return state

    def start_events(self, state: BidsState) -> list[Event]:
        """What to announce when the game begins (``new`` only builds the state).

        Not part of the base protocol: a runner calls it once, right after ``new``. It reads the
        state without changing it, so replaying a log never needs it.
        """
        events = [Event(Audience.everyone(), "bids.start", {"rounds": state.rounds, "players": state.players})]
        for seat, hand in enumerate(state.hands):
            events.append(Event(Audience.only(seat), "bids.hand", {"seat": seat, "cards": list(hand)}))
        events.append(self._round_event(state))
        return events

    # ----------------------------------------------------------------------------- questions

    def awaiting(self, state: BidsState) -> list[Awaiting]:
        """Every seat that has not moved yet; they all bid at once, so each is a "reaction"."""
        if state.over:
            return []
        return [
            Awaiting(seat, "reaction", state.seconds, self._default_action(state, seat),
                     window=f"round-{state.round}")
            for seat in range(state.players)
            if seat not in state.moves
        ]

    def legal(self, state: BidsState, seat: int) -> list[Action]:
        if state.over or not 0 <= seat < state.players or seat in state.moves:
            return []
        return [bid(card) for card in state.hands[seat]] + [dict(FOLD)]

    def outcome(self, state: BidsState) -> Outcome | None:
        if not state.over:
            return None
        best = max(state.scores)
        winners = tuple(seat for seat, score in enumerate(state.scores) if score == best)
        return Outcome(winners, "bids.outcome.score", {"score": best})

    def view(self, state: BidsState, viewer: int) -> dict[str, Any]:
        """What ``viewer`` may know. Every list is a fresh copy, so callers cannot reach the state."""
        view: dict[str, Any] = {
            "game": self.name,
            "viewer": viewer,
            "players": state.players,
            "rounds": state.rounds,
            "round": state.round,
            "prize": state.prize,
            "scores": list(state.scores),
            "discards": [list(cards) for cards in state.discards],
            "discarded_prizes": list(state.discarded_prizes),
            "moved": sorted(state.moves),  # who has bid (or folded) this round, not what
            "hand_sizes": [len(hand) for hand in state.hands],
            "over": state.over,
        }
        outcome = self.outcome(state)
        if outcome is not None:
            view["winners"] = list(outcome.winners)
        if 0 <= viewer < state.players:
            # A seat sees its own hand and its own sealed move, nobody else's.
            view["hand"] = list(state.hands[viewer])
            view["my_move"] = _move_action(state.moves[viewer]) if viewer in state.moves else None
        elif viewer == MASTER:
            view["hands"] = [list(hand) for hand in state.hands]
            view["moves"] = [_move_action(state.moves[s]) if s in state.moves else None for s in range(state.players)]
            view["prize_row"] = list(state.prize_row)
        # Anything else (SPECTATOR) gets the public part only.
        return view

    def final_reveal(self, state: BidsState) -> dict[str, Any] | None:
        """Everything the game hid, for the end-of-game block: None while the game goes on (a
        secret stays one). Each seat's unplayed cards and the prizes never turned up."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        return {"game": self.name, "winners": list(outcome.winners), "reason": outcome.reason,
                "params": dict(outcome.params), "length": {"rounds": state.rounds},
                "seats": [{"seat": seat, "hand": list(state.hands[seat]), "bids": list(state.discards[seat]),
                           "score": state.scores[seat]} for seat in range(state.players)],
                "prizes_unplayed": list(state.prize_row)}

    # ----------------------------------------------------------------------------- the one change

    def apply(self, state: BidsState, seat: int, action: Action) -> list[Event]:
        card = self._check(state, seat, action)  # raises RuleError; nothing changed yet
        state.moves[seat] = card
        if card is None:
            private = Event(Audience.only(seat), "bids.fold_confirmed", {"seat": seat})
        else:
            private = Event(Audience.only(seat), "bids.bid_confirmed", {"seat": seat, "card": card})
        # The table hears only that this seat has moved: a bid and a fold look the same.
        events = [Event(Audience.everyone(), "bids.bid_placed", {"seat": seat}), private]
        if len(state.moves) == state.players:
            events += self._close_round(state)
        return events

    def bot_action(self, view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
        return bot.bot_action(view, legal, rng, level)

    # ----------------------------------------------------------------------------- helpers

    def _check(self, state: BidsState, seat: int, action: Action) -> int | None:
        """Validate a move; return the card bid, or None for a fold."""
        if state.over:
            raise RuleError("bids.error.game_over")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise RuleError("bids.error.not_your_turn")
        if seat in state.moves:
            raise RuleError("bids.error.already_bid")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "fold":
            return None
        if kind != "bid":
            raise RuleError("bids.error.bad_action")
        card = action.get("card")
        if not isinstance(card, int) or isinstance(card, bool):
            raise RuleError("bids.error.bad_action")
        if card not in state.hands[seat]:
            raise RuleError("bids.error.no_such_card", card=card)
        return card

    def _default_action(self, state: BidsState, seat: int) -> Action:
        """On timeout a seat bids its lowest card (hands are sorted), or folds with an empty hand."""
        hand = state.hands[seat]
        return bid(hand[0]) if hand else dict(FOLD)

    def _close_round(self, state: BidsState) -> list[Event]:
        """Everyone has moved: reveal, award the prize, then start the next round or end the game."""
        events: list[Event] = []
        for seat in range(state.players):
            card = state.moves[seat]
            if card is None:
                events.append(Event(Audience.everyone(), "bids.reveal_fold", {"seat": seat}))
            else:
                events.append(Event(Audience.everyone(), "bids.reveal_bid", {"seat": seat, "card": card}))
                state.hands[seat].remove(card)
                state.discards[seat].append(card)

        winner = highest_unique_bid(state.moves)
        if winner is None:
            state.discarded_prizes.append(state.prize)
            events.append(Event(Audience.everyone(), "bids.prize_discarded", {"prize": state.prize}))
        else:
            state.scores[winner] += state.prize
            params = {"seat": winner, "card": state.moves[winner], "prize": state.prize, "score": state.scores[winner]}
            events.append(Event(Audience.everyone(), "bids.round_won", params))
        state.moves = {}

        if state.round < state.rounds:
            state.round += 1
            state.prize = state.prize_row.pop(0)
            events.append(self._round_event(state))
            return events

        state.over = True
        state.prize = None
        for seat, score in enumerate(state.scores):
            events.append(Event(Audience.everyone(), "bids.final_score", {"seat": seat, "score": score}))
        outcome = self.outcome(state)
        events.append(Event(Audience.everyone(), "bids.game_over", {"seats": list(outcome.winners), "score": outcome.params["score"]}))
        return events

    def _round_event(self, state: BidsState) -> Event:
        params = {"round": state.round, "rounds": state.rounds, "prize": state.prize}
        return Event(Audience.everyone(), "bids.round", params)


def highest_unique_bid(moves: dict[int, int | None]) -> int | None:
    """The seat whose card is the highest one nobody else bid, or None (folds bid nothing)."""
    counts = Counter(card for card in moves.values() if card is not None)
    unique = [card for card, n in counts.items() if n == 1]
    if not unique:
        return None
    best = max(unique)
    return next(seat for seat, card in moves.items() if card == best)


def _move_action(card: int | None) -> Action:
    """A recorded move (card or None) as the action that made it."""
    return dict(FOLD) if card is None else bid(card)


GAME = SealedBids()
