"""The end reveals all: the block every reader of a finished game gets, from the engine's
``final_reveal`` data (what each seat hid, the winners and why, the game's length).

One message (``reveal.block``) whose lines are nested messages, so it stays JSON-able (it waits
in the inbox of a seated player who is away) and reads in each reader's language. Each game has
its part here: ``_seat_lines_<game>``, built with the names of its own presenter module.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..i18n import nested, nested_list
from ..messages import Msg, msg
from . import coup as coup_names
from . import mafia_names
from . import revolution as revolution_names
from . import whispers as whispers_names
from . import present_params, seat_name

if TYPE_CHECKING:
    from ..table_data import Table

LENGTH_UNITS = ("nights", "days", "rounds", "turns")  # the order they read in


def _cards(items: list[Any], name: Callable[[Any], Any], none: str = "reveal.nothing") -> Any:
    return nested_list([name(x) for x in items]) if items else nested(none)


def _seat_lines_bids(table: "Table", data: dict[str, Any]) -> list[Any]:
    lines: list[Any] = [nested("reveal.bids.seat", name=seat_name(table, e["seat"]), score=e["score"],
                               hand=_cards(e["hand"], str), bids=_cards(e["bids"], str))
                        for e in data["seats"]]
    lines.append(nested("reveal.bids.prizes", prizes=_cards(data.get("prizes_unplayed") or [], str)))
    return lines


def _seat_lines_coup(table: "Table", data: dict[str, Any]) -> list[Any]:
    return [nested("reveal.coup.seat", name=seat_name(table, e["seat"]), coins=e["coins"],
                   hidden=_cards(e["hidden"], coup_names.role_name),
                   revealed=_cards(e["revealed"], coup_names.role_name))
            for e in data["seats"]]


def _seat_lines_whispers(table: "Table", data: dict[str, Any]) -> list[Any]:
    coop = bool(data.get("coop"))
    return [nested("reveal.whispers.seat_defeated" if e["defeated"] else "reveal.whispers.seat",
                   name=seat_name(table, e["seat"]), side=whispers_names.side_name(e["side"], coop),
                   status=whispers_names.card_name(e["status"]),
                   hand=_cards(e["hand"], whispers_names.card_name))
            for e in data["seats"]]


def _seat_lines_revolution(table: "Table", data: dict[str, Any]) -> list[Any]:
    deck = revolution_names.deck_of(data.get("deck") or "default")

    def card(cid: Any) -> Any:
        return revolution_names.card_name(deck, cid)

    return [nested("reveal.revolution.seat", name=seat_name(table, e["seat"]), level=e["level"],
                   hand=_cards(e["hand"], card), gear=_cards(e["gear"], card),
                   cls=card(e["class"]) if e.get("class") else nested("reveal.nothing"),
                   party=card(e["party"]) if e.get("party") else nested("reveal.nothing"))
            for e in data["seats"]]


def _seat_lines_mafia(table: "Table", data: dict[str, Any]) -> list[Any]:
    return [nested("reveal.mafia.seat" if e["alive"] else "reveal.mafia.seat_dead",
                   name=seat_name(table, e["seat"]),
                   public=mafia_names.public_title(e["public"], e.get("public_name")),
                   role=mafia_names.role_name(e["role"]), faction=mafia_names.faction_name(e["faction"]),
                   personas=mafia_names.persona_counts(e["personas"]),
                   start=mafia_names.persona_counts(e["personas_start"]))
            for e in data["seats"]]


SEAT_LINES: dict[str, Callable[["Table", dict[str, Any]], list[Any]]] = {
    "bids": _seat_lines_bids, "coup": _seat_lines_coup, "whispers": _seat_lines_whispers,
    "revolution": _seat_lines_revolution, "mafia": _seat_lines_mafia,
}


def _result_line(table: "Table", data: dict[str, Any]) -> Any:
    """The winners and why: Mafia's outcome is a sentence of its own; the other games' reasons
    are clauses after the winners' names."""
    winners = data.get("winners") or []
    if data.get("game") == "mafia":
        return mafia_names.outcome_msg(table, data.get("reason"), winners)
    why = nested(data["reason"], **present_params(table, data.get("params") or {})) if data.get("reason") else ""
    return nested("reveal.result", n=len(winners), why=why,
                  winners=", ".join(seat_name(table, s) for s in winners))


def _length_line(data: dict[str, Any], seconds: float | None) -> Any:
    length = data.get("length") or {}
    counts = nested_list([nested(f"reveal.count.{unit}", n=length[unit]) for unit in LENGTH_UNITS
                          if unit in length])
    if seconds is None:
        return nested("reveal.length_counts", counts=counts)
    return nested("reveal.length", seconds=int(seconds), counts=counts)


def reveal_message(table: "Table", data: dict[str, Any], seconds: float | None) -> Msg:
    """The end-of-game block for ``table`` from its engine's ``final_reveal`` data."""
    part = SEAT_LINES.get(table.game_name)
    seats = part(table, data) if part is not None else []
    lines = [_result_line(table, data), _length_line(data, seconds), *seats]
    return msg("reveal.block", number=table.number, game=nested(f"game.{table.game_name}"),
               lines=nested_list(lines, sep="\n"))


def reveal_payload(table: "Table", data: dict[str, Any], seconds: float | None) -> dict[str, Any]:
    """GMCP ``Korchma.Game.End``: the engine's data as it is, with the seats' names."""
    return {"table": table.number, "game": table.game_name, "winners": list(data.get("winners") or []),
            "winner_names": [seat_name(table, s) for s in data.get("winners") or []],
            "reason": data.get("reason"), "params": data.get("params") or {},
            "seconds": None if seconds is None else int(seconds), "length": data.get("length") or {},
            "reveal": {**data, "seats": [{**e, "name": seat_name(table, e["seat"])} for e in data["seats"]]}}
