"""Game presentation: from engine events and views to catalog messages, per game.

The engine speaks in seat numbers and plain values; here seats become names and lists become
text, and a view becomes the lines `look` and `hand` print. Each game has a module here.
"""
from __future__ import annotations

from datetime import datetime, timezone
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..messages import Msg, msg
from .absence import held_status, held_view

if TYPE_CHECKING:
    from ..table_data import Table


def seat_name(table: "Table", seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(table.seats):
        return table.seats[seat].name
    return str(seat)


class LastShown:
    """What a presenter last showed each viewer, per (table, seat), so that its status after a
    change says only what changed. Bounded: past ``limit`` viewers it starts afresh (each then
    sees a whole status once more)."""

    def __init__(self, limit: int = 20000) -> None:
        self.shown: dict[tuple[int, int | None], Any] = {}
        self.limit = limit

    def swap(self, key: tuple[int, int | None], now: Any) -> Any:
        """Remember ``now`` for ``key``; return what was shown before (None: nothing yet)."""
        last = self.shown.get(key)
        if len(self.shown) > self.limit:
            self.clear()
        self.shown[key] = now
        return last

    def clear(self) -> None:
        """Forget everything: each viewer sees a whole status next."""
        self.shown.clear()


def name_or_dash(table: "Table", seat: Any) -> str:
    """A seat's name, or "-" where a view has no seat (None)."""
    return seat_name(table, seat) if isinstance(seat, int) else "-"


def per_seat(view: dict[str, Any], field: str, seat: int, default: Any = None) -> Any:
    """``view[field][seat]`` for a per-seat list in a view, or ``default``."""
    values = view.get(field) or []
    return values[seat] if isinstance(values, list) and seat < len(values) else default


def waiting_line(game: str, table: "Table", view: dict[str, Any], awaited: set[int],
                 seconds: int | None, viewer: int | None = None) -> Msg | None:
    """Whom the game waits for (and how long), in the game's words: ``GAME.view.waiting_for``
    and ``GAME.view.waiting_for_until``; None when nobody is awaited or the game is over. The
    ``viewer`` is left out (their own prompt says it is their move: not «Ждём: Анна» to Анна)."""
    awaited = set(awaited) - {viewer}
    if not awaited or view.get("stage") == "over":
        return None
    names = ", ".join(seat_name(table, s) for s in sorted(awaited))
    if seconds is not None:
        return msg(f"{game}.view.waiting_for_until", names=names, seconds=seconds)
    return msg(f"{game}.view.waiting_for", names=names)


def present_params(table: "Table", params: dict[str, Any]) -> dict[str, Any]:
    """Seat numbers become names (``seat``, ``*_seat``, ``seats``); lists become text."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "seat" or key.endswith("_seat"):
            out[key] = seat_name(table, value)
            out[key + "_no"] = value
        elif key == "seats" or key.endswith("_seats"):
            out[key] = ", ".join(seat_name(table, s) for s in value)
            out[key + "_n"] = len(value)
        elif isinstance(value, (list, tuple)):
            out[key] = ", ".join(str(v) for v in value)
            out[key + "_n"] = len(value)
        else:
            out[key] = value
    # A game may say more about its own parameters (e.g. Coup's role keys become role names in
    # each reader's language): ``event_params(table, raw_params, params) -> params`` in its
    # presenter module. What it returns must stay JSON-able (it may wait in the inbox), so
    # nested messages are i18n.nested(...) dicts, not Msg objects.
    hook = getattr(_game_module(table), "event_params", None)
    if hook is not None:
        out = hook(table, params, out)
    return out


def said_elsewhere(table: "Table", events: list[Any]) -> frozenset[int]:
    """The indexes of a step's ``events`` whose line another event of the same step says in full
    (the game presenter's ``said_by_others(events)``, e.g. Coup's declared income and its
    result): they go to client scripts (GMCP) but print no line of their own."""
    hook = getattr(_game_module(table), "said_by_others", None)
    return frozenset(hook(events)) if hook is not None else frozenset()


def gmcp_readable(table: "Table") -> Any:
    """The game presenter's ``gmcp_text(value, lang) -> value``, or None: what a GMCP payload
    (an event's params, a View) holds that a client could not show as it is (a Mafia bot's stock
    letter is a key, not text) becomes text in the reader's language. Only a game that needs it has
    one, so other games' payloads go out untouched."""
    return getattr(_game_module(table), "gmcp_text", None)


def _game_module(table: "Table") -> Any:
    name = f"{__name__}.{table.game_name}"
    try:
        return import_module(name)
    except ModuleNotFoundError as err:  # a game without a presenter; errors inside one still show
        if err.name != name:
            raise
        return None


def seconds_left(deadline: datetime | None) -> int | None:
    if deadline is None:
        return None
    return max(0, int((deadline - datetime.now(timezone.utc)).total_seconds()))


def present_view(table: "Table", view: dict[str, Any], seat: int | None, deadline: datetime | None,
                 awaited: set[int]) -> list[Msg]:
    """What `look` and `hand` print. ``awaited``: the seats this viewer may see the game wait
    for (world/table_output.py keeps secret answers out of it)."""
    module = import_module(f"{__name__}.{table.game_name}")
    awaited, held = held_view(table, seat, awaited)  # a bot plays the seat: not «your move»
    return [*module.describe(table, view, seat, seconds_left(deadline), awaited), *held]


def present_status(table: "Table", view: dict[str, Any], seat: int | None, deadline: datetime | None,
                   awaited: set[int]) -> list[Msg]:
    """A short status after every change, for games whose presenter has ``status`` (the design
    card's "show the table at every change"); [] for the others."""
    module = import_module(f"{__name__}.{table.game_name}")
    status = getattr(module, "status", None)
    awaited, held = held_status(table, seat, awaited)  # a bot plays the seat: not «your move»
    if status is None:
        return held
    return [*held, *status(table, view, seat, seconds_left(deadline), awaited)]


def present_question(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg | str, Msg]:
    """(what is going on now, what ``seat`` may type), from ``seat``'s own view, for the line that
    refuses an answer typed for an earlier question (world/waits.py): the game presenter's
    ``question``; a game without one sends the player to `hand`."""
    question = getattr(import_module(f"{__name__}.{table.game_name}"), "question", None)
    now, hint = question(table, view, seat) if question is not None else (None, None)
    return (now if now is not None else ""), (hint if hint is not None else msg("waits.hint.hand"))


__all__ = ["present_params", "present_view", "present_status", "present_question", "seat_name", "msg"]


def people_awaited(table: "Table", awaited: set[int]) -> frozenset[int]:
    """The awaited seats that people play (a bot, or a bot on autopilot, answers at once)."""
    seats = table.seats
    return frozenset(s for s in awaited if s < len(seats) and not getattr(seats[s], "played_by_bot", False))


def waiting_for_people(game: str, table: "Table", view: dict[str, Any], people: frozenset[int],
                       earlier: frozenset[int], new_wait: bool, seconds: int | None) -> Msg | None:
    """For a viewer who is not to act: whom of the people the game waits for, and until when
    (``waiting_line``), when the wait is new or someone new is awaited: not again as the others
    answer, and never for a wait on bots alone (a table of bots would print it every move)."""
    if seconds is None or not people or not (new_wait or people - earlier):
        return None
    return waiting_line(game, table, view, set(people), seconds)

