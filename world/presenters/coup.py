"""How Coup («Переворот») reads: the table (coins, cards, who is out, whose turn, what is pending
and until when), your own hand, and the role and action names inside event messages.

The engine speaks in role keys (``duke``...) and action types (``steal``...). Event parameters
pass through :func:`event_params`, which turns them into nested messages
(``i18n.nested("coup.role.duke")``) so each reader sees the names in their own language; the
Russian and Ukrainian catalogs also get the accusative (``role_acc``) and instrumental
(``role_ins``) forms, so sentences agree without guessing at declension.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..i18n import nested, nested_list
from ..messages import Msg, msg
from . import LastShown, name_or_dash, people_awaited, seat_name, waiting_for_people, waiting_line

if TYPE_CHECKING:
    from ..table_data import Table

ROLES = ("duke", "assassin", "captain", "ambassador", "inquisitor", "contessa")
ACTIONS = ("income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine")
CLAIM_OF = {"tax": "duke", "assassinate": "assassin", "steal": "captain", "examine": "inquisitor"}
CASES = ("", "_acc", "_ins")
# Event parameters that hold one role key, and those that hold a list of them.
ROLE_PARAMS = ("role", "claim", "block_role", "fifth", "challenged_role")
ROLE_LIST_PARAMS = ("roles", "drawn", "hand")


# -- names -----------------------------------------------------------------------------------

def role_name(role: Any, case: str = "") -> Any:
    """A role key as a nested message (``case``: "", "_acc" or "_ins"); other values as they are."""
    if isinstance(role, str) and role in ROLES:
        return nested(f"coup.role{case}.{role}")
    return role


def role_list(roles: Any, case: str = "") -> Any:
    if not isinstance(roles, (list, tuple)):
        return role_name(roles, case)
    if not roles:
        return nested("coup.view.none")
    return nested_list([role_name(r, case) for r in roles])


def action_name(action: Any) -> Any:
    if isinstance(action, str) and action in ACTIONS:
        return nested(f"coup.action.{action}")
    return action


def fifth_role(table: "Table", view: dict[str, Any] | None = None) -> str:
    if view and view.get("fifth") in ROLES:
        return view["fifth"]
    option = str((table.options or {}).get("role", "")).lower()
    return "inquisitor" if option in ("investigator", "inquisitor") else "ambassador"


def claim_of(table: "Table", action: str, view: dict[str, Any] | None = None) -> str | None:
    if action == "exchange":
        return fifth_role(table, view)
    return CLAIM_OF.get(action)


def _role_forms(prefix: str, role: Any) -> dict[str, Any]:
    return {prefix + case: role_name(role, case) for case in CASES}


def deed(table: "Table", action: str, target: Any = None, claim: Any = None,
         view: dict[str, Any] | None = None) -> Any:
    """What a declared action reads like after a name: "claims the Captain and steals from Boris"."""
    if action not in ACTIONS:
        return action
    if claim is None:
        claim = claim_of(table, action, view)
    params: dict[str, Any] = {"target_seat": seat_name(table, target) if target is not None else ""}
    params.update(_role_forms("claim", claim))
    return nested(f"coup.deed.{action}", **params)


def event_params(table: "Table", raw: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The runner's hook (world.presenters.present_params): role keys and action types become
    nested messages in the reader's language. Stays JSON-able: it may wait in an inbox."""
    out = dict(params)
    for key in ROLE_PARAMS:
        if isinstance(raw.get(key), str) and raw[key] in ROLES:
            out.update(_role_forms(key, raw[key]))
    for key in ROLE_LIST_PARAMS:
        value = raw.get(key)
        if isinstance(value, (list, tuple)) and all(isinstance(r, str) and r in ROLES for r in value):
            for case in CASES:
                out[key + case] = role_list(value, case)
            out[key + "_n"] = len(value)
    action = raw.get("action")
    if isinstance(action, str) and action in ACTIONS:
        out["action"] = action_name(action)
        out["deed"] = deed(table, action, raw.get("target_seat"), raw.get("claim"))
    return out


def localize_params(params: dict[str, Any]) -> dict[str, Any]:
    """Rule-error parameters (``role``, ``roles``, ``action``) as names in the reader's language."""
    out = dict(params)
    for key in ROLE_PARAMS:
        if isinstance(out.get(key), str) and out[key] in ROLES:
            for case in CASES:
                out[key + case] = role_name(params[key], case)
    for key in ROLE_LIST_PARAMS:
        if isinstance(out.get(key), (list, tuple)):
            out[key] = role_list(params[key])
    if isinstance(out.get("action"), str):
        out["action"] = action_name(out["action"])
    return out


# -- the table -------------------------------------------------------------------------------

def pending_msg(table: "Table", view: dict[str, Any]) -> Msg | None:
    """One line: what the game is doing now."""
    stage = view.get("stage")
    pending = view.get("pending") or {}
    active = view.get("active")
    if stage == "over":
        return msg("coup.view.stage.over", winner=name_or_dash(table, view.get("winner")))
    if stage == "draft":
        return msg("coup.view.stage.draft")
    if stage == "turn" or not pending:
        return msg("coup.view.stage.turn", actor=name_or_dash(table, active))
    actor = pending.get("actor", active)
    action = pending.get("action")
    doing = deed(table, action, pending.get("target"), pending.get("claim"), view) if action else ""
    common = {"actor": name_or_dash(table, actor), "deed": doing, "target": name_or_dash(table, pending.get("target")),
              "blocker": name_or_dash(table, pending.get("blocker")),
              "challenger": name_or_dash(table, pending.get("challenger")),
              "challenged": name_or_dash(table, pending.get("challenged")),
              "losing": name_or_dash(table, pending.get("losing"))}
    common.update(_role_forms("block_role", pending.get("block_role") or "-"))
    common.update(_role_forms("challenged_role", pending.get("challenged_role") or "-"))
    if stage in ("challenge_action", "block", "challenge_block", "prove", "lose", "exchange",
                 "examine_show", "examine_decide"):
        keys = _STAGE_PARAMS[stage]
        return msg(f"coup.view.stage.{stage}", **{k: common[k] for k in keys})
    return msg("coup.view.stage.turn", actor=name_or_dash(table, active))


_STAGE_PARAMS = {
    "challenge_action": ("actor", "deed"),
    "block": ("actor", "deed"),
    "challenge_block": ("actor", "blocker", "block_role", "block_role_ins"),
    "prove": ("challenger", "challenged", "challenged_role", "challenged_role_acc"),
    "lose": ("losing",),
    "exchange": ("actor",),
    "examine_show": ("actor", "target"),
    "examine_decide": ("actor", "target"),
}


def hint(view: dict[str, Any], seat: int | None) -> Msg:
    """What the viewer may type now (the verbs of their stage)."""
    stage = view.get("stage")
    if stage == "turn":
        coins = view["coins"][seat] if seat is not None else 0
        if coins >= 10:
            return msg("coup.hint.must_coup")
        return msg("coup.hint.turn_inquisitor" if view.get("fifth") == "inquisitor" else "coup.hint.turn")
    if stage == "block":
        return msg("coup.hint.block")
    if stage in ("challenge_action", "challenge_block"):
        return msg("coup.hint.challenge")
    if stage == "exchange":
        return msg("coup.hint.exchange", n=view["cards"][seat] if seat is not None else 1)
    if stage in ("prove", "lose", "examine_show", "examine_decide", "draft"):
        return msg(f"coup.hint.{stage}")
    return msg("coup.hint.wait")


def question(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg | None, Msg]:
    """For ``present_question``: what is pending, and the verbs of the stage."""
    return pending_msg(table, view), hint(view, seat)


def seat_line(table: "Table", view: dict[str, Any], number: int, awaited: set[int]) -> Msg:
    info = table.seats[number] if number < len(table.seats) else None
    name = info.name if info else str(number)
    face_up = view["face_up"][number]
    up = msg("coup.view.face_up", roles=role_list(list(face_up))) if face_up else ""
    bot = msg("coup.view.bot") if info is not None and info.played_by_bot else ""
    if not view["alive"][number]:
        return msg("coup.view.seat_out", name=name, up=up, bot=bot)
    if view.get("stage") == "over" and view.get("winner") == number:
        state = msg("coup.view.winner")
    elif number in awaited:
        state = msg("coup.view.waiting")
    elif number == view.get("active") and view.get("stage") != "over":
        state = msg("coup.view.active")
    else:
        state = ""
    return msg("coup.view.seat", name=name, coins=view["coins"][number], cards=view["cards"][number],
               up=up, state=state, bot=bot)


def describe(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
             awaited: set[int]) -> list[Msg]:
    """The whole table, for `look` and `hand`."""
    fifth = fifth_role(table, view)
    out = [msg("coup.view.header", number=table.number, turn=view.get("turn", 0),
               court=view.get("court", 0), treasury=view.get("treasury", 0), fifth=role_name(fifth))]
    for number in range(view.get("players", len(table.seats))):
        out.append(seat_line(table, view, number, awaited))
    now = pending_msg(table, view)
    if now is not None:
        out.append(now)
    waiting = waiting_line("coup", table, view, awaited, seconds, seat)
    if waiting is not None:
        out.append(waiting)
    out.extend(private_lines(table, view, seat, seconds, awaited))
    return out


def private_lines(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
                  awaited: set[int]) -> list[Msg]:
    """The viewer's own cards (and drawn or shown ones), and their move if it is theirs."""
    if seat is None or "hand" not in view:
        return []
    if seat in awaited and view.get("stage") != "over":
        return _your_move(table, view, seat, seconds)
    out: list[Msg] = []
    if view["hand"]:
        out.append(msg("coup.view.hand", roles=role_list(view["hand"])))
    return out


# -- the status after every change -------------------------------------------------------------

# What each viewer was last shown, per (table, seat): the status repeats only what changed.
_LAST_STATUS = LastShown()


# Stages whose status needs no "now" line: the event that opened them said it just before
# (a declaration, a block, a challenge, a lost influence).
_SAID_BY_EVENT = frozenset(("challenge_action", "challenge_block", "prove", "lose"))
# Reaction windows: open to others than the one whose turn it is.
REACTIONS = frozenset(("challenge_action", "block", "challenge_block"))


def _signatures(view: dict[str, Any]) -> tuple[tuple, tuple]:
    """(the table: coins, cards, face-up cards; what is pending, without who allowed)."""
    pending = dict(view.get("pending") or {})
    pending.pop("answered", None)
    table = (tuple(view.get("coins", ())), tuple(view.get("cards", ())),
             tuple(tuple(f) for f in view.get("face_up", ())), tuple(view.get("alive", ())))
    now = (view.get("stage"), tuple(sorted(pending.items())), tuple(view.get("hand") or ()),
           tuple(view.get("drawn") or ()), view.get("shown"))
    return table, now


def status(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
           awaited: set[int]) -> list[Msg]:
    """After every change (world.runner calls it): a compact line of everyone's coins and cards
    when a turn begins and they changed since this viewer last saw it; what is pending when that
    changes and no event just said it; and when the viewer is to act, what they may type (with
    the time left; their cards on their own turn or when they changed); when someone else is to
    act, whom the game waits for and how long. Nothing is repeated: an "allow" that changes
    nothing else prints nothing."""
    key = (table.number, seat)
    table_sig, now_sig = _signatures(view)
    stage = view.get("stage")
    mine = seat is not None and seat in awaited and stage != "over"
    people = people_awaited(table, awaited)
    last = _LAST_STATUS.shown.get(key)
    out: list[Msg] = []
    shown_table = None if last is None else last[0]
    if shown_table != table_sig and (last is None or stage in ("turn", "over")):
        out.append(msg("coup.status.line", turn=view.get("turn", 0), seats=_join(_seat_items(table, view))))
        shown_table = table_sig
    now_changed = last is None or last[1] != now_sig
    was = None if last is None else last[1][0]
    if now_changed and stage not in ("turn", "over") and stage not in _SAID_BY_EVENT \
            and not (stage == "block" and was == "turn"):
        now = pending_msg(table, view)
        if now is not None:
            out.append(now)
    hand = tuple(view.get("hand") or ())
    shown_hand = None if last is None else last[4]
    if mine and (now_changed or last is None or not last[2]):
        out.extend(_your_move(table, view, seat, seconds, hand=stage == "turn" or hand != shown_hand))
        shown_hand = hand
    elif not mine:  # until when, for everyone else
        waiting = waiting_for_people("coup", table, view, people, frozenset() if last is None else last[3],
                                     now_changed, seconds)
        if waiting is not None:
            out.append(waiting)
    _LAST_STATUS.swap(key, (shown_table, now_sig, mine, people, shown_hand))
    return out


def _seat_items(table: "Table", view: dict[str, Any]) -> list[Msg]:
    items = []
    for number in range(view.get("players", len(table.seats))):
        name = seat_name(table, number)
        if not view["alive"][number]:
            items.append(msg("coup.status.out", name=name))
            continue
        face_up = view["face_up"][number]
        items.append(msg("coup.status.seat", name=name, coins=view["coins"][number],
                         cards=view["cards"][number],
                         up=msg("coup.status.face_up", roles=role_list(list(face_up))) if face_up else ""))
    return items


def _your_move(table: "Table", view: dict[str, Any], seat: int, seconds: int | None,
               hand: bool = True) -> list[Msg]:
    """The viewer's cards (unless ``hand`` is False), what was drawn or shown to them, and what
    they may type: «Ваш ход» on their own turn and obligations, «Можно ответить» in a window."""
    out = []
    if hand and view.get("hand"):
        out.append(msg("coup.view.hand", roles=role_list(view["hand"])))
    if view.get("drawn"):
        out.append(msg("coup.view.drawn", roles=role_list(view["drawn"]), n=view["cards"][seat]))
    if view.get("shown"):
        pending = view.get("pending") or {}
        out.append(msg("coup.view.shown", target=name_or_dash(table, pending.get("target")),
                       **_role_forms("role", view["shown"])))
    move = "may_answer" if view.get("stage") in REACTIONS else "your_move"
    if seconds is not None:
        out.append(msg(f"coup.view.{move}_until", seconds=seconds, hint=hint(view, seat)))
    else:
        out.append(msg(f"coup.view.{move}", hint=hint(view, seat)))
    return out


def _join(items: list[Msg]) -> Any:
    return nested_list([{"$msg": m.key, "params": m.params} for m in items], sep=" | ")


# The functions the runner may look for, by name.
status_line = status


def said_by_others(events: list[Any]) -> list[int]:
    """For ``said_elsewhere``: a declared income is taken at once, and its result line says it
    («Анна получает доход: 1 монету (всего 3 монеты)»), so the declaration prints nothing."""
    out = []
    for index, (declared, result) in enumerate(zip(events, events[1:])):
        if (declared.key == "coup.declare" and declared.params.get("action") == "income"
                and result.key == "coup.income" and result.params.get("seat") == declared.params.get("actor_seat")):
            out.append(index)
    return out


# A seat's answer as it reads when the clock gave it (world/presenters/absence.py).
TIMEOUT_FORMS = {"coup.allowed": "coup.timeout.allowed", "coup.declare": "coup.timeout.declare",
                 "coup.lost": "coup.timeout.lost"}
