"""An admin renames or deletes an account: the rows, the tables it sits at, the live objects.

History stays as it was written. A seat keeps the name it was taken under as text (Seat.name),
and a table's host, Master and outcome are text too, so a finished table's outcome and replay
read as before; a deleted account's seats only lose their link (account_id becomes NULL).

- Rename is refused while the account sits at an open or running table: the game's seats and
  host carry the name it started with, and a game's text must not change mid-way. Its name bans
  move to the new name (a rename is no way out of a ban), and so does an unfinished table's
  appointment of it as the observer Master (`open ... master=NAME`).
- Delete: at an open table the player gets up (as `leave`); at a running one a bot of the
  server's level takes the seat for good under the same name (as when a player leaves, except
  that nobody can come back to it), so the game goes on and restarts restore it as a bot seat.
  Its name bans stay: the name remains closed to whoever registers it next.
"""
from __future__ import annotations

from typing import Any

from tortoise.exceptions import IntegrityError

from . import accounts
from .db import transaction
from .messages import msg
from .models import Account, Ban, GameTable, InboxItem, LoginRecord, Seat, SshKey

UNFINISHED = ("open", "running")


class Refusal(Exception):
    """Why the act cannot be done: a message key with its parameters."""

    def __init__(self, key: str, params: dict[str, Any]) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def _tables(world: Any) -> list[Any]:
    return list(world.tables.tables.values()) if world.tables is not None else []


def unfinished_seat(world: Any, account_id: int) -> Any | None:
    """An open or running table where the account has a seat (away or not)."""
    for table in _tables(world):
        if table.state_name in UNFINISHED and table.seat_of(account_id) is not None:
            return table
    return None


async def new_name_problem(account: Account, new: str) -> Refusal | None:
    """The rules of a new account's name (world/accounts.py), and not somebody else's name."""
    problem = accounts.name_problem(new)
    if problem is not None:
        return Refusal(problem, {"name": new})
    holder = await accounts.find(new)
    if holder is not None and holder.id != account.id:
        return Refusal("rename.taken", {"name": new})
    return None


async def rename(world: Any, account: Account, new: str) -> str:
    """Give ``account`` the name ``new``; returns the old name. Raises :class:`Refusal`."""
    problem = await new_name_problem(account, new)
    if problem is not None:
        raise problem
    table = unfinished_seat(world, account.id)
    if table is not None:
        raise Refusal("rename.at_table", {"name": account.name, "number": table.number})
    old, old_key, new_key = account.name, account.name_key, accounts.name_key(new)
    # A table yet to be played that named them its Master (`open ... master=NAME`) keeps them.
    mastered = [t for t in _tables(world) if t.state_name in UNFINISHED and t.master_name
                and accounts.name_key(t.master_name) == old_key]
    try:
        async with transaction():
            await Account.filter(id=account.id).update(name=new, name_key=new_key)
            if new_key != old_key:
                await Ban.filter(name_key=old_key).update(name_key=new_key)
            if mastered:
                await GameTable.filter(id__in=[t.number for t in mastered]).update(master=new)
    except IntegrityError:  # taken meanwhile by a new account
        raise Refusal("rename.taken", {"name": new}) from None
    for table in mastered:
        table.master_name = new
    for live in {id(a): a for a in (account, world.accounts.get(account.id)) if a is not None}.values():
        live.name, live.name_key = new, new_key
    return old


async def delete(world: Any, account: Account) -> list[int]:
    """Delete ``account`` (its sessions must be closed first); returns the numbers of the
    running tables where a bot took its seat."""
    taken_over: list[int] = []
    manager = world.tables
    level = str(world.config.section("tables")["bot_level"])
    for table in _tables(world):
        number = table.seat_of(account.id)
        if manager.table_of(account.id) is table and not (table.running and number is not None):
            # As `leave`: a watcher goes, a seat at an open table is given up, and from a
            # finished (or broken) table one just gets up, the seat staying its history.
            await manager.leave(account)
            number = table.seat_of(account.id)
        if number is None:
            continue
        seat = table.seats[number]
        if table.running:
            await Seat.filter(table_id=table.number, number=number).update(account_id=None, bot_level=level, autopilot=False)
            seat.bot_level, seat.autopilot = level, False
            world.broadcast(table.room, msg("account_admin.bot_takes_seat", name=seat.name))
            taken_over.append(table.number)
            if table.runner is not None:
                table.runner.poke()
        seat.account_id = None  # the seat keeps its name; only the link to the account goes
        if manager.at_table.get(account.id) == table.number:
            manager.at_table.pop(account.id, None)
    if manager is not None:
        manager.announce_tables()  # GMCP clients see the seat's new bot
    async with transaction():
        await Seat.filter(account_id=account.id).update(account_id=None)
        for model in (LoginRecord, SshKey, InboxItem):
            await model.filter(account_id=account.id).delete()
        await Account.filter(id=account.id).delete()
    return taken_over
