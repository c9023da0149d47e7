"""How a Sealed Bids view reads: the round, the prize, scores, your hand, who still has to bid."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..messages import Msg, msg

if TYPE_CHECKING:
    from ..table_data import Table


def header(table: "Table", view: dict[str, Any]) -> Msg:
    prize = view.get("prize")
    return msg("bids.view.header", number=table.number, round=view.get("round"), rounds=view.get("rounds"),
               prize=prize if prize is not None else "-")


def question(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg, Msg]:
    """For ``present_question``: the round and its prize; a bid or a fold."""
    return header(table, view), msg("waits.hint.bids")


def describe(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
             awaited: set[int]) -> list[Msg]:
    out = [header(table, view)]
    for number, info in enumerate(table.seats):
        state = "bids.view.moved" if number in view["moved"] else (
            "bids.view.waiting" if number in awaited else "bids.view.idle")
        discards = ", ".join(str(c) for c in view["discards"][number]) or "-"
        out.append(msg("bids.view.seat", name=info.name, score=view["scores"][number],
                       cards=view["hand_sizes"][number], discards=discards,
                       state=msg(state),
                       bot=msg("bids.view.bot") if info.played_by_bot else ""))
    if seat is not None and "hand" in view:
        out.append(msg("bids.view.hand", cards=", ".join(str(c) for c in view["hand"]) or "-"))
        move = view.get("my_move")
        if move is not None:
            out.append(msg("bids.view.my_bid", card=move["card"]) if move["type"] == "bid"
                       else msg("bids.view.my_fold"))
        elif seat in awaited:
            if seconds is not None:
                out.append(msg("bids.view.your_move_until", seconds=seconds))
            else:
                out.append(msg("bids.view.your_move"))
    if view.get("over"):
        out.append(msg("bids.view.over"))
    return out

# A seat's answer as it reads when the clock gave it (world/presenters/absence.py).
TIMEOUT_FORMS = {"bids.bid_placed": "bids.timeout.bid_placed"}
