"""The one protocol every game engine offers (see ../shared/ARCHITECTURE.md).

A game module (``games/<name>/__init__.py``) exposes a ``GAME`` object implementing
:class:`GameEngine`. State is plain data owned by the engine; the only way it changes is
:meth:`GameEngine.apply`. Randomness comes from a ``random.Random`` seeded in ``new`` and kept
in the state, so the same seed, options and actions replay to the same game.

Actions are JSON-able dicts with a ``"type"`` key, e.g. ``{"type": "bid", "card": 7}``: they are
written to the table's action log as they are.

Events are what the engine tells the world. Each carries an :class:`Audience` and a message key
with parameters; the world renders it in each recipient's language. Parameters that name seats
use the convention ``seat`` / ``seats`` / ``*_seat`` so the renderer can print player names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

Action = dict[str, Any]

# Special viewers for view(): a spectator sees only public information, the master sees all.
SPECTATOR = -1
MASTER = -2


class RuleError(Exception):
    """An illegal action. Carries a message key and parameters, never a bare sentence."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Audience:
    """Who may see an event: everyone at the table, some seats, a team, or only the master."""

    kind: str  # "all" | "seats" | "team" | "master"
    seats: tuple[int, ...] = ()
    team: str = ""

    @staticmethod
    def everyone() -> "Audience":
        return Audience("all")

    @staticmethod
    def only(*seats: int) -> "Audience":
        return Audience("seats", tuple(seats))

    @staticmethod
    def master() -> "Audience":
        return Audience("master")

    def includes(self, seat: int, teams: tuple[str, ...] = ()) -> bool:
        if self.kind == "all":
            return True
        if self.kind == "seats":
            return seat in self.seats
        if self.kind == "team":
            return self.team in teams
        return False


class _EventFields(NamedTuple):
    audience: Audience
    key: str
    params: dict[str, Any]


class Event(_EventFields):
    """Something that happened. ``key`` names a catalog message; ``params`` fill it.

    Immutable like a frozen dataclass, but a tuple: a game makes about one per action, and a
    tuple is made several times faster (an engine in a hurry may call
    ``tuple.__new__(Event, (audience, key, params))``). ``params`` are read-only to everyone."""

    __slots__ = ()

    def __new__(cls, audience: Audience, key: str, params: dict[str, Any] | None = None) -> "Event":
        return tuple.__new__(cls, (audience, key, {} if params is None else params))

    @property
    def is_whisper(self) -> bool:
        """A private message from the Мастер to one or a few seats."""
        return self.audience.kind in ("seats", "team")


class Awaiting(NamedTuple):
    """What the game waits for from one seat.

    ``kind`` is "turn", "reaction", "phase"...; ``seconds`` is the suggested duration (the
    runner may override it from config or table options); ``default`` is the action applied
    when time runs out (None: the wait has no timeout). ``window`` names the wait (e.g.
    "round-3"): while the same window stays open its deadline does not move, even as some
    seats act; an empty window means "a new wait whenever the set of awaited seats grows".
    ``optional``: the seat may answer but owes no decision (a challenge, block, help or hinder
    window, an offer to answer): letting it run out is a plain pass, not a sign that the player
    is away (the runner counts only missed decisions of the seat's own toward a bot taking over).
    Immutable (a tuple, made fast: ``tuple.__new__(Awaiting, (seat, kind, seconds, default,
    window, optional))``, all six given; engines make several per action).
    """

    seat: int
    kind: str
    seconds: float | None
    default: Action | None
    window: str = ""
    optional: bool = False


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    reason: str  # message key
    params: dict[str, Any] = field(default_factory=dict)


class GameEngine(Protocol):
    name: str  # short key used in `open NAME`
    min_players: int
    max_players: int
    default_options: dict[str, Any]

    def new(self, seats: int, options: dict[str, Any], seed: int) -> Any: ...

    def legal(self, state: Any, seat: int) -> list[Action]: ...

    def apply(self, state: Any, seat: int, action: Action) -> list[Event]: ...

    def view(self, state: Any, viewer: int) -> dict[str, Any]: ...

    def awaiting(self, state: Any) -> list[Awaiting]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def final_reveal(self, state: Any) -> dict[str, Any] | None:
        """Everything the game hid, as JSON-able data, for the end-of-game block: ``game``,
        ``winners``, ``reason``, ``params``, ``length`` (the game's own counts, e.g.
        ``{"turns": 12}``) and ``seats`` (one dict per seat); None while the game goes on."""
        ...

    def bot_action(self, view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action: ...


def int_option(value: Any, low: int, high: int, name: str, error_key: str) -> int:
    """A table option as an int in [low, high], from an int or a decimal string (options typed
    at `open` arrive as text); otherwise RuleError(error_key, name=..., value=...)."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isascii() and value.strip().isdecimal():
        number = int(value.strip())
    if number is None or not low <= number <= high:
        raise RuleError(error_key, name=name, value=value)
    return number


def bot_answer(choose: Any, view: dict[str, Any], legal: list[Action], rng: Any, level: str,
               easy_random: float, strict: bool) -> Action:
    """The frame of a bot's answer, around the game's own ``choose(view, legal, rng)``: the only
    legal action at once; an easy bot's random pick ``easy_random`` of the time; and a bot never
    stalls a table: an error in ``choose`` (unless ``strict``, as tests set) or an answer that is
    not legal becomes the first legal action."""
    if not legal:
        raise ValueError("bot asked to move with no legal action")
    if len(legal) == 1:
        return legal[0]
    if level == "easy" and rng.random() < easy_random:
        return legal[rng.randrange(len(legal))]
    if strict:
        return choose(view, legal, rng)
    try:
        action = choose(view, legal, rng)
    except Exception:  # a bot must never stall a table
        return legal[0]
    return action if action in legal else legal[0]
