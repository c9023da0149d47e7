"""What a seat is asked now, in its game's words: (what is going on, what it may type).

For the line that refuses an answer typed for an earlier question (world/waits.py): «Это уже
другой вопрос: ... Сейчас: Бот-Афанасий хочет убить игрока Анна. Можно заблокировать. Ответьте
ещё раз: блок [РОЛЬ] или пропустить.» Each game's part comes from its own presenter.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..messages import Msg, msg

if TYPE_CHECKING:
    from ..tables import Table


def _coup(table: "Table", view: dict[str, Any], seat: int) -> tuple[Any, Any]:
    from .coup import hint, pending_msg

    return pending_msg(table, view), hint(view, seat)


def _whispers(table: "Table", view: dict[str, Any], seat: int) -> tuple[Any, Any]:
    from .whispers import hint, stage_msg

    return stage_msg(table, view), hint(table, view, seat)


def _revolution(table: "Table", view: dict[str, Any], seat: int) -> tuple[Any, Any]:
    from .revolution import hint, stage_msg, table_deck

    return stage_msg(table, view, table_deck(table, view)), hint(view, seat)


def _mafia(table: "Table", view: dict[str, Any], seat: int) -> tuple[Any, Any]:
    from .mafia import header

    phase = view.get("phase")
    return header(table, view, None), msg(f"mafia.hint.{phase}" if phase in ("night", "day") else "mafia.hint.over")


def _bids(table: "Table", view: dict[str, Any], seat: int) -> tuple[Any, Any]:
    prize = view.get("prize")
    return (msg("bids.view.header", number=table.number, round=view.get("round"), rounds=view.get("rounds"),
                prize=prize if prize is not None else "-"), msg("waits.hint.bids"))


QUESTIONS = {"coup": _coup, "whispers": _whispers, "revolution": _revolution, "mafia": _mafia, "bids": _bids}


def question_now(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg | str, Msg]:
    """(what is going on now, what ``seat`` may type), from ``seat``'s own view; a game without
    its words here sends the player to `hand`."""
    words = QUESTIONS.get(table.game_name)
    now, hint = words(table, view, seat) if words is not None else (None, None)
    return (now if now is not None else ""), (hint if hint is not None else msg("waits.hint.hand"))
