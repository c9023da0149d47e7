"""How absence reads: an answer the clock gave for a seat, and a seat a bot holds for its player.

A timed-out answer is not the player's words: each game's presenter names, in ``TIMEOUT_FORMS``,
the event that echoes a seat's answer (Coup's «Виола: пропускаю.») and the form it takes when the
clock answered («Виола: нет ответа — пропуск.»). A timed-out step with no such event gets one lead
line before its events instead, unless the game's presenter says ``TIMEOUT_LEAD = False`` (Mafia:
a phase that runs out is how a phase ends, and the orders given stand).
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from games.base import Audience, Event

from ..messages import Msg, msg

if TYPE_CHECKING:
    from ..table_data import Table

TIMEOUT_LEAD = "absence.timeout.default"


def _presenter(table: "Table") -> Any:
    return import_module(f"world.presenters.{table.game_name}")


def _seat_of(event: Event) -> Any:
    params = event.params
    return params.get("seat", params.get("actor_seat"))


def timeout_events(table: "Table", seat: int, events: list[Event]) -> list[Event]:
    """The events of a step the clock took for ``seat``, as they read when nobody answered."""
    presenter = _presenter(table)
    forms: dict[str, str] = getattr(presenter, "TIMEOUT_FORMS", {})
    for index, event in enumerate(events):
        form = forms.get(event.key)
        if form is not None and _seat_of(event) == seat:
            return [*events[:index], Event(event.audience, form, event.params), *events[index + 1:]]
    if not getattr(presenter, "TIMEOUT_LEAD", True):
        return events
    return [Event(Audience.everyone(), TIMEOUT_LEAD, {"seat": seat}), *events]


# Whether each (table, seat) was told at its last status that a bot holds it: said once per
# stretch of the bot's moves. Bounded like presenters.LastShown: past the limit it starts afresh.
_TOLD: dict[tuple[int, int], bool] = {}
_TOLD_LIMIT = 20000


def held_by_bot(table: "Table", seat: int | None, awaited: set[int]) -> bool:
    """A person's seat that a bot plays for now (its player missed their decisions), awaited."""
    if seat is None or seat not in awaited or not 0 <= seat < len(table.seats):
        return False
    info = table.seats[seat]
    return bool(getattr(info, "autopilot", False)) and not getattr(info, "is_bot", False)


def note_told(table: "Table", seat: int) -> None:
    """The player was just told in other words that a bot plays for them (the takeover's own
    line): the status of this step says nothing more."""
    _TOLD[(table.number, seat)] = True


def held_status(table: "Table", seat: int | None, awaited: set[int]) -> tuple[set[int], list[Msg]]:
    """For the status after a change: (whom the player is shown awaited, the line to say first).
    While a bot holds the player's seat, the game's lines do not say «Ваш ход» (the bot answers);
    one line says who plays, the first time the seat is awaited in a stretch of the bot's moves."""
    held = held_by_bot(table, seat, awaited)
    if seat is None:
        return awaited, []
    if len(_TOLD) > _TOLD_LIMIT:
        _TOLD.clear()
    told = _TOLD.get((table.number, seat), False)
    _TOLD[(table.number, seat)] = held
    if not held:
        return awaited, []
    return set(awaited) - {seat}, ([] if told else [msg("absence.bot_holds")])


def held_view(table: "Table", seat: int | None, awaited: set[int]) -> tuple[set[int], list[Msg]]:
    """For `look` and `hand`: the same, said every time."""
    if not held_by_bot(table, seat, awaited):
        return awaited, []
    return set(awaited) - {seat}, [msg("absence.bot_holds")]
