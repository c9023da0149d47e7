"""What a seated player missed at a table while up from it: the table's messages kept in the
inbox undelivered, shown when they sit down again (`join`), not only at the next login."""
from __future__ import annotations

from typing import Any

from .best_effort import best_effort
from .messages import Msg, msg
from .models import InboxItem


async def take_missed(world: Any, account_id: int, table_id: int) -> list[Msg]:
    """The table's undelivered inbox items of the account, in order, now marked delivered."""
    await world.inbox_spool.flush()  # any held while storage was failing come first
    items = await InboxItem.filter(account_id=account_id, table_id=table_id, delivered=False).order_by("id")
    if items:
        # Not stored: they are shown once more at the next login, which beats refusing the seat.
        with best_effort("the missed news of table %s as read", table_id):
            await InboxItem.filter(id__in=[i.id for i in items]).update(delivered=True)
    return [msg(item.key, **item.params) for item in items]
