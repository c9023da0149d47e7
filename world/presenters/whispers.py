"""How «Шептуны» (The Hunger Games: Jabberjay) reads: the table (round, who holds the Justice
card, every seat's status, how many cards lie in front of each, the face-up cards of the round,
who is defeated or revealed and on which side, who is awaited and until when), your hand, side
and District teammates, and what you placed this round.

The engine speaks in ranks (ints 1-5) and side keys (``district``, ``capitol``). Event
parameters pass through :func:`event_params`, which turns them into nested messages
(``i18n.nested("whispers.card.3")``) so each reader sees the names in their own language; they
stay JSON-able, since an event may wait in the inbox. In the cooperative variant (the table
options carry ``peacekeepers_from``) the Capitol side is called the Peacekeepers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..i18n import nested, nested_list
from ..messages import Msg, msg
from . import LastShown, name_or_dash, people_awaited, per_seat, seat_name, waiting_for_people, waiting_line

if TYPE_CHECKING:
    from ..table_data import Table

RANKS = (1, 2, 3, 4, 5)
SIDES = ("district", "capitol")
# Event parameters that hold one rank, and those that hold a list of ranks.
CARD_PARAMS = ("card", "status", "prev", "passed_card")
CARD_LIST_PARAMS = ("cards", "hand")
REASONS = ("all_district_revealed", "capitol_defeated", "round_limit", "stalemate")


# -- names -----------------------------------------------------------------------------------

def _is_rank(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in RANKS


def card_name(rank: Any) -> Any:
    """A rank as a nested message: its status name ("Обвиняемый"); other values as they are."""
    if _is_rank(rank):
        return nested(f"whispers.card.{rank}")
    return rank


def card_with_rank(rank: Any) -> Any:
    """A rank as "Обвиняемый (3)": the name and the number one may type."""
    if _is_rank(rank):
        return nested("whispers.card_rank", name=card_name(rank), rank=rank)
    return rank


def card_list(ranks: Any, with_rank: bool = False) -> Any:
    if not isinstance(ranks, (list, tuple)):
        return card_with_rank(ranks) if with_rank else card_name(ranks)
    if not ranks:
        return nested("whispers.view.nothing")
    return nested_list([card_with_rank(r) if with_rank else card_name(r) for r in ranks])


def is_coop(table: "Table", view: dict[str, Any] | None = None) -> bool:
    if view is not None and view.get("coop"):
        return True
    options = getattr(table, "options", None) or {}
    return options.get("peacekeepers_from") not in (None, "", "-")


def side_name(side: Any, coop: bool = False, plural: bool = False) -> Any:
    """A side as a nested message: "Гражданин Дистриктов" (or the plural "Граждане
    Дистриктов"); the Capitol of the cooperative variant is "Миротворец" / "Миротворцы"."""
    if side not in SIDES and not (plural and side == "none"):
        return side if side is not None else nested("whispers.view.unknown")
    if coop and side == "capitol":
        side = "peacekeeper"
    return nested(f"whispers.{'roles' if plural else 'role'}.{side}")


def _seat_items(table: "Table", pairs: Any) -> Any:
    """[[seat, rank], ...] (the face-up deal) as "Анна — Обвиняемый, Борис — Сбежавший"."""
    items = []
    for pair in pairs:
        if isinstance(pair, (list, tuple)) and len(pair) == 2:
            items.append(nested("whispers.seat_card", name=seat_name(table, pair[0]), card=card_name(pair[1])))
        else:
            items.append(str(pair))
    if not items:
        return nested("whispers.view.nothing")
    return nested_list(items)


def reason_msg(reason: Any, raw: dict[str, Any]) -> Any:
    if isinstance(reason, str) and reason.startswith("whispers.outcome."):
        reason = reason.rsplit(".", 1)[-1]
    if reason not in REASONS:
        return reason if reason is not None else ""
    return nested(f"whispers.reason.{reason}", capitol_defeated=raw.get("capitol_defeated", 0),
                  district_defeated=raw.get("district_defeated", 0))


def event_params(table: "Table", raw: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The runner's hook (world.presenters.present_params): ranks become status names, sides
    become side names in the reader's language. Stays JSON-able: it may wait in an inbox."""
    out = dict(params)
    coop = is_coop(table)
    for key in CARD_PARAMS:
        if _is_rank(raw.get(key)):
            out[key] = card_name(raw[key])
            out[key + "_rank"] = raw[key]
    for key in CARD_LIST_PARAMS:
        value = raw.get(key)
        if not isinstance(value, (list, tuple)):
            continue
        if all(isinstance(v, (list, tuple)) for v in value) and value:
            out[key] = _seat_items(table, value)
        else:
            out[key] = card_list(list(value))
        out[key + "_n"] = len(value)
    side = raw.get("side")
    if isinstance(side, str):
        out["side"] = side_name(side, coop) if side in SIDES else side_name(side, coop, plural=True)
        out["side_pl"] = side_name(side, coop, plural=True)
    if "reason" in raw:
        out["reason"] = reason_msg(raw.get("reason"), raw)
        winners = params.get("seats", "") if isinstance(raw.get("seats"), (list, tuple)) else ""
        result = side if side in SIDES else "none"
        if coop and result == "capitol":
            result = "peacekeeper"
        out["result"] = nested(f"whispers.result.{result}", seats=winners or "-")
    return out


def localize_params(params: dict[str, Any]) -> dict[str, Any]:
    """Rule-error parameters (a rank, a list of ranks) as names in the reader's language."""
    out = dict(params)
    for key in CARD_PARAMS:
        if _is_rank(out.get(key)):
            out[key] = card_name(out[key])
    for key in CARD_LIST_PARAMS:
        if isinstance(out.get(key), (list, tuple)):
            out[key] = card_list(out[key], with_rank=True)
    return out


# -- the table -------------------------------------------------------------------------------

def targets_of(view: dict[str, Any], seat: int | None) -> list[int]:
    """Seats the viewer may place a card on now (from the view: not itself, not defeated, fewer
    than 2 cards placed; under rule 3's first revision, not returned this round)."""
    out = []
    n = view.get("players", 0)
    if seat is None or not n:
        return out
    closed = view.get("rules_rev", 1) < 2  # games/whispers/placement.py
    for step in range(1, n):
        s = (seat + step) % n
        if per_seat(view, "defeated", s) or (closed and per_seat(view, "returned", s)) \
                or (per_seat(view, "placed", s) or 0) >= 2:
            continue
        out.append(s)
    return out


def stage_msg(table: "Table", view: dict[str, Any]) -> Msg | None:
    """One line: what the game is doing now."""
    stage = view.get("stage")
    coop = is_coop(table, view)
    if stage == "over":
        winner = view.get("winner")
        if winner in SIDES:
            return msg("whispers.view.stage.over", side=side_name(winner, coop, plural=True))
        return msg("whispers.view.stage.over_none")
    if stage == "pass":
        return msg("whispers.view.stage.pass", name=name_or_dash(table, view.get("passer", view.get("turn"))))
    if stage == "swap":
        return msg("whispers.view.stage.swap", name=name_or_dash(table, view.get("turn")),
                   passer=name_or_dash(table, view.get("passer")))
    if stage == "place":
        return msg("whispers.view.stage.place", name=name_or_dash(table, view.get("turn")), lap=view.get("lap", 1))
    return None


def hint(table: "Table", view: dict[str, Any], seat: int | None) -> Msg:
    """What the viewer may type now."""
    stage = view.get("stage")
    if stage == "place":
        names = ", ".join(name_or_dash(table, s) for s in targets_of(view, seat)) or "-"
        hand = view.get("hand") or []
        if len(set(hand)) == 1:
            return msg("whispers.hint.place_one", names=names, card=card_with_rank(hand[0]))
        return msg("whispers.hint.place", names=names)
    if stage == "pass":
        names = ", ".join(name_or_dash(table, s) for s in range(view.get("players", 0))
                          if s != seat and not per_seat(view, "defeated", s) and (per_seat(view, "hand_sizes", s) or 0) > 0)
        return msg("whispers.hint.pass", names=names or "-")
    if stage == "swap":
        return msg("whispers.hint.swap")
    return msg("whispers.hint.wait")


def question(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg | None, Msg]:
    """For ``present_question``: the stage, and what ``seat`` may type in it."""
    return stage_msg(table, view), hint(table, view, seat)


def _seat_state(table: "Table", view: dict[str, Any], number: int, awaited: set[int]) -> Any:
    if view.get("stage") == "over":
        return ""
    if number in awaited:
        return msg("whispers.view.waiting")
    return ""


def seat_line(table: "Table", view: dict[str, Any], number: int, awaited: set[int]) -> Msg:
    info = table.seats[number] if number < len(table.seats) else None
    name = info.name if info else str(number)
    coop = is_coop(table, view)
    bot = msg("whispers.view.bot") if info is not None and getattr(info, "played_by_bot", False) else ""
    dealer = msg("whispers.view.dealer") if view.get("dealer") == number else ""
    side = per_seat(view, "revealed", number)
    if per_seat(view, "defeated", number):
        return msg("whispers.view.seat_defeated", name=name, side=side_name(side, coop), dealer=dealer, bot=bot)
    face_up = per_seat(view, "face_up", number)
    up = msg("whispers.view.face_up", card=card_with_rank(face_up)) if _is_rank(face_up) else ""
    revealed = msg("whispers.view.revealed", side=side_name(side, coop)) if side in SIDES else ""
    returned = msg("whispers.view.returned") if per_seat(view, "returned", number) else ""
    return msg("whispers.view.seat", name=name, status=card_with_rank(per_seat(view, "status", number, 1)),
               placed=per_seat(view, "placed", number, 0) or 0, hand=per_seat(view, "hand_sizes", number, 0) or 0,
               up=up, revealed=revealed, returned=returned, dealer=dealer,
               state=_seat_state(table, view, number, awaited), bot=bot)


def header(table: "Table", view: dict[str, Any]) -> Msg:
    key = "whispers.view.header_coop" if is_coop(table, view) else "whispers.view.header"
    return msg(key, number=table.number, round=view.get("round", 0), dealer=name_or_dash(table, view.get("dealer")),
               deck=view.get("deck", 0), discard=view.get("discard", 0),
               district=view.get("district_total", 0), capitol=view.get("capitol_total", 0))


def describe(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
             awaited: set[int]) -> list[Msg]:
    """The whole table, for `look` and `hand`."""
    out = [header(table, view)]
    for number in range(view.get("players", len(table.seats))):
        out.append(seat_line(table, view, number, awaited))
    now = stage_msg(table, view)
    if now is not None:
        out.append(now)
    waiting = waiting_line("whispers", table, view, awaited, seconds, seat)
    if waiting is not None:
        out.append(waiting)
    out.extend(private_lines(table, view, seat, seconds, awaited))
    return out


def private_lines(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
                  awaited: set[int]) -> list[Msg]:
    """The viewer's side, teammates, hand and placements, and their move if it is theirs."""
    if seat is None or "hand" not in view:
        return []
    coop = is_coop(table, view)
    out: list[Msg] = []
    side = view.get("side")
    if side in SIDES:
        out.append(msg("whispers.view.side", side=side_name(side, coop)))
    team = [s for s in (view.get("team") or []) if s != seat]
    if team:
        out.append(msg("whispers.view.team", names=", ".join(name_or_dash(table, s) for s in team)))
    if per_seat(view, "defeated", seat):
        out.append(msg("whispers.view.you_defeated"))
    placements = view.get("my_placements") or []
    if placements:
        items = [nested("whispers.seat_card", name=name_or_dash(table, pair[0]), card=card_name(pair[1]))
                 for pair in placements if isinstance(pair, (list, tuple)) and len(pair) == 2]
        out.append(msg("whispers.view.my_placements", items=nested_list(items)))
    if seat in awaited and view.get("stage") != "over":
        out.extend(_your_move(table, view, seat, seconds))
    else:
        out.append(_hand_msg(view))
    return out


def _hand_msg(view: dict[str, Any]) -> Msg:
    hand = view.get("hand") or []
    if not hand:
        return msg("whispers.view.hand_empty")
    return msg("whispers.view.hand", cards=card_list(hand, with_rank=True), n=len(hand))


def _your_move(table: "Table", view: dict[str, Any], seat: int, seconds: int | None) -> list[Msg]:
    out = [_hand_msg(view)]
    if _is_rank(view.get("passed_card")):
        out.append(msg("whispers.view.passed_card", card=card_with_rank(view["passed_card"]),
                       name=name_or_dash(table, view.get("passer"))))
    if seconds is not None:
        out.append(msg("whispers.view.your_move_until", seconds=seconds, hint=hint(table, view, seat)))
    else:
        out.append(msg("whispers.view.your_move", hint=hint(table, view, seat)))
    return out


# -- the status after every change -------------------------------------------------------------

# What each viewer was last shown, per (table, seat): the status repeats only what changed.
_LAST_STATUS = LastShown()


def _signatures(view: dict[str, Any]) -> tuple[tuple, tuple]:
    """(the table: round, dealer, statuses, who is defeated or revealed; what is going on now:
    the stage, whose turn, the lap and the viewer's hand)."""
    table = (view.get("round"), view.get("dealer"), tuple(view.get("status") or ()),
             tuple(view.get("defeated") or ()), tuple(view.get("revealed") or ()), view.get("winner"))
    now = (view.get("stage"), view.get("turn"), view.get("lap"), view.get("passer"),
           tuple(view.get("hand") or ()), view.get("passed_card"))
    return table, now


def status(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
           awaited: set[int]) -> list[Msg]:
    """After every change (world.runner calls it): a compact line of everyone's status when a
    round begins or statuses change; the pass and swap steps as they come; and when the viewer
    is to act, their cards and what they may type (with the time left); when a person is to act,
    whom the game waits for and until when (waiting_for_people). Nothing is repeated: a
    placement by someone else prints nothing here (its event says it)."""
    key = (table.number, seat)
    table_sig, now_sig = _signatures(view)
    mine = seat is not None and seat in awaited and view.get("stage") != "over"
    people = people_awaited(table, awaited)
    last = _LAST_STATUS.swap(key, (table_sig, now_sig, mine, people))
    out: list[Msg] = []
    if last is None or last[0] != table_sig:
        out.append(msg("whispers.status.line", round=view.get("round", 0),
                       dealer=name_or_dash(table, view.get("dealer")), seats=_join(_status_items(table, view))))
    now_changed = last is None or last[1] != now_sig
    if now_changed and view.get("stage") in ("pass", "swap") and not mine:
        now = stage_msg(table, view)
        if now is not None:
            out.append(now)
    if mine and (now_changed or not last[2]):
        out.extend(_your_move(table, view, seat, seconds))
    elif not mine:  # until when, for everyone else
        waiting = waiting_for_people("whispers", table, view, people, frozenset() if last is None else last[3],
                                     now_changed, seconds)
        if waiting is not None:
            out.append(waiting)
    return out


def _status_items(table: "Table", view: dict[str, Any]) -> list[Msg]:
    coop = is_coop(table, view)
    items = []
    for number in range(view.get("players", len(table.seats))):
        name = seat_name(table, number)
        side = per_seat(view, "revealed", number)
        if per_seat(view, "defeated", number):
            items.append(msg("whispers.status.defeated", name=name, side=side_name(side, coop)))
            continue
        revealed = msg("whispers.status.revealed", side=side_name(side, coop)) if side in SIDES else ""
        items.append(msg("whispers.status.seat", name=name, status=card_name(per_seat(view, "status", number, 1)),
                         revealed=revealed))
    return items


def _join(items: list[Msg]) -> Any:
    return nested_list([{"$msg": m.key, "params": m.params} for m in items], sep=" | ")


# The functions the runner may look for, by name.
status_line = status

# A seat's answer as it reads when the clock gave it (world/presenters/absence.py).
TIMEOUT_FORMS = {"whispers.pass_discarded": "whispers.timeout.pass_discarded",
                 "whispers.swapped": "whispers.timeout.swapped", "whispers.placed": "whispers.timeout.placed"}
