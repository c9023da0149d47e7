"""Tables and seats: open, join, leave, watch, start, bots; rebuilt from the database at start-up."""
from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from games import registry
from games.base import RuleError

from . import table_options
from .abandon import closed_refusal
from .accounts import name_key
from .audit import audit
from .bot_names import bot_name
from .db import transaction
from .rooms import HALL
from .messages import Msg, msg
from .models import Account, GameTable, Seat
from .runner import TableRunner
from .seat_autopilot import hand_back, store_autopilot
from .seating import SeatingLock
from .table_data import SeatInfo, Table, TableError, table_of_row
from .table_restore import restore_tables
from .cluster.ownership import ClusterUnavailable, NodeDraining

if TYPE_CHECKING:
    from .hub import World

log = logging.getLogger("korchma.tables")


class TableManager:
    def __init__(self, world: "World") -> None:
        self.world = world
        self.tables: dict[int, Table] = {}
        self.at_table: dict[int, int] = {}  # account id -> table number (seated or watching)
        self.seating = SeatingLock()  # one seating change at a time per table (world/seating.py)
        self.owner: Any = None  # a cluster's node: its tables' leases (world/cluster/ownership.py)

    @property
    def config(self) -> Any:
        return self.world.config

    # -- queries --------------------------------------------------------------------------

    def table_of(self, account_id: int) -> Table | None:
        number = self.at_table.get(account_id)
        return self.tables.get(number) if number is not None else None

    def _unless_finished(self, account_id: int, going_to: Table | None = None) -> Table | None:
        """The table this account is at; if its game is over (and it is not ``going_to``), they
        get up from it first (so that `open`, `join` and `watch` after a game need no `leave`)
        and this is None."""
        table = self.table_of(account_id)
        if table is not None and table is not going_to and table.state_name in ("finished", "broken"):
            table.watchers.discard(account_id)
            table.masters.discard(account_id)
            self._exit(account_id)
            return None
        return table

    def get(self, number: int) -> Table:
        table = self.tables.get(number)
        if table is None or table.state_name == "closed":
            raise TableError("table.no_such", number=number)
        return table

    async def find(self, number: int) -> Table:
        """A table to join or watch: in memory (open, running, or finished with people still at
        it). A finished table nobody is at any more lives only in the database: it is over."""
        table = self.tables.get(number)
        if table is None or table.state_name == "closed":
            row = await GameTable.get_or_none(id=number)
            if row is not None and row.state == "finished":
                raise TableError("table.over", number=number)
            raise (closed_refusal(row) if row is not None else None) or TableError("table.no_such", number=number)
        if table.state_name == "broken":
            raise TableError("broken.unavailable", number=number, reason=table.broken_reason)
        return table

    def broken(self) -> list[Table]:
        return sorted((t for t in self.tables.values() if t.state_name == "broken"), key=lambda t: t.number)

    def in_memory(self) -> dict[str, int]:
        """What the server holds in memory, for admins (`tables`): tables by state, and runners."""
        counts: dict[str, int] = {}
        for table in self.tables.values():
            counts[table.state_name] = counts.get(table.state_name, 0) + 1
        counts["runners"] = sum(1 for t in self.tables.values() if t.runner is not None)
        return counts

    def listing(self) -> list[Table]:
        return sorted((t for t in self.tables.values() if t.state_name in ("open", "running")),
                      key=lambda t: t.number)

    def gmcp_payload(self) -> dict[str, Any]:
        return {"tables": [
            {"number": t.number, "game": t.game_name, "options": t.options, "state": t.state_name,
             "seats": [{"number": s.number, "name": s.name, "bot": s.is_bot} for s in t.seats],
             "seats_total": t.seats_total, "host": t.host}
            for t in self.listing()]}

    def announce_tables(self) -> None:
        if self.world.cluster is not None:  # other nodes' `tables` (world/cluster/presence.py)
            self.world.cluster.presence_changed()
        payload = self.gmcp_payload()
        for session in list(self.world.sessions):
            if session.account is not None:
                session.gmcp("Korchma.Table", payload)
        if self.world.cluster is not None:  # and players of other nodes at tables here (world/cluster/play.py)
            self.world.cluster.play.gmcp_proxies("Korchma.Table", payload)

    # -- opening, joining, leaving ---------------------------------------------------------

    async def open(self, account: Account, game_name: str, raw_options: dict[str, str]) -> Table:
        engine = registry.get(game_name)
        if engine is None:
            raise TableError("table.no_such_game", game=game_name,
                             games=table_options.game_list(registry.all_games()))
        if self._unless_finished(account.id) is not None:
            raise TableError("table.already_at_table")
        # config [games.<name>] holds this server's defaults for the game's options.
        defaults = {k: v for k, v in self.config.game(engine.name).items() if k in engine.default_options}
        raw_options = {**defaults, **raw_options}
        seats_opt = raw_options.pop("seats", None)
        master_name = str(raw_options.pop("master", "")).strip()[:32]  # the server's, not the game's
        try:
            options = engine.validate_options(raw_options)
        except RuleError as err:
            raise TableError(err.key, **err.params) from err
        seats_total = getattr(engine, "default_seats", engine.max_players)  # Coup: 8 of 10
        if seats_opt is not None:
            if not str(seats_opt).isdigit() or not engine.min_players <= int(seats_opt) <= engine.max_players:
                raise TableError("table.bad_seats", low=engine.min_players, high=engine.max_players)
            seats_total = int(seats_opt)
        row = await self._new_row(game=engine.name, options=options, host=account.name,
                                  seats_total=seats_total, state="open", master=master_name or None)
        table = Table(number=row.id, game_name=engine.name, engine=engine, options=options,
                      host=account.name, seats_total=seats_total, master_name=master_name,
                      lease_epoch=row.lease_epoch)
        self.tables[table.number] = table
        await self._sit(table, account)
        audit("table_opened", by=account.name, number=table.number, game=table.game_name)
        self.announce_tables()
        return table

    async def _new_row(self, **fields: Any) -> GameTable:
        """A new table's row; in a cluster, taken by this node with it (world/cluster/ownership.py)."""
        if self.owner is None:
            return await GameTable.create(**fields)
        try:
            return await self.owner.create_table(**fields)
        except ClusterUnavailable as err:
            log.warning("a table could not be opened: %s", err)
            raise TableError("cluster.unavailable") from err
        except NodeDraining as err:
            raise TableError("drain.no_new_tables") from err

    def drop(self, table: Table, told: Msg | None = None) -> None:
        """Another node owns the table now (docs/cluster.md): the people here at it are told
        where it went (``told``, else that it moved) and go to the hall, and this node forgets it."""
        if self.tables.get(table.number) is not table:
            return
        told = told or msg("cluster.moved", number=table.number)
        for account_id in sorted(table.everyone()):
            self.world.deliver(account_id, told)
        self.empty(table)
        for account_id, number in list(self.at_table.items()):
            if number == table.number:
                del self.at_table[account_id]
        del self.tables[table.number]
        table.runner = None  # (its game stays: a step in hand may still finish, or fail at the fence)

    def _let_lease_go(self, table: Table) -> None:
        if self.owner is not None:
            self.owner.forget(table.number)

    async def _sit(self, table: Table, account: Account) -> SeatInfo:
        number = len(table.seats)
        seat = SeatInfo(number=number, name=account.name, account_id=account.id)
        await Seat.create(table_id=table.number, number=number, account_id=account.id, name=account.name)
        table.seats.append(seat)
        self._enter(table, account.id)
        return seat

    def _enter(self, table: Table, account_id: int) -> None:
        self.at_table[account_id] = table.number
        if self.world.is_online(account_id):
            self.world.move(account_id, table.room)

    def _exit(self, account_id: int) -> None:
        number = self.at_table.pop(account_id, None)
        if self.world.is_online(account_id):
            self.world.move(account_id, HALL)
        if number is not None and number in self.tables:
            self._forget_if_left(self.tables[number])

    def _forget_if_left(self, table: Table) -> None:
        """A finished (or broken) table stays in memory while somebody is at it, to talk the game
        over; when the last one goes, only the database keeps it (rematch finds it there)."""
        if table.state_name != "finished":
            return  # a broken table stays: admins see it, and `join` says why it cannot go on
        if any(self.at_table.get(a) == table.number for a in table.everyone()):
            return
        if self.tables.get(table.number) is table:
            del self.tables[table.number]

    def game_over(self, table: Table) -> None:
        """The runner has said the result: let go of the runner and the game's state, and of the
        table itself once nobody is at it. Seated players who are away are not at it any more
        (the result waits in their inbox)."""
        audit("table_finished", number=table.number, game=table.game_name,
              winners=",".join((table.outcome or {}).get("winners") or []))
        table.runner = None
        table.game = None
        self._let_lease_go(table)
        for seat in table.seats:
            if (seat.account_id is not None and not self.world.is_online(seat.account_id)
                    and self.at_table.get(seat.account_id) == table.number):
                del self.at_table[seat.account_id]
        self._forget_if_left(table)
        self.announce_tables()

    async def join(self, account: Account, number: int) -> Table:
        table = await self.find(number)
        async with self.seating.of(table.number):
            return await self._join(account, table, number)

    async def _join(self, account: Account, table: Table, number: int) -> Table:
        current = self._unless_finished(account.id, going_to=table)
        if table.running and table.seat_of(account.id) is not None:
            # Back to one's own seat in a running game: the bot hands it back.
            if current is not None and current is not table:
                raise TableError("table.already_at_table")
            hand_back(table, table.seat_of(account.id))
            table.watchers.discard(account.id)
            self._enter(table, account.id)
            return table
        if current is not None:
            raise TableError("table.already_at_table")
        if table.state_name != "open":
            raise TableError("table.not_open", number=number)
        self._hold_still(table)
        if len(table.seats) >= table.seats_total:
            raise TableError("table.full", number=number)
        await self._sit(table, account)
        self.world.broadcast(table.room, msg("table.joined", name=account.name, number=number),
                             exclude=[account.id])
        self.announce_tables()
        return table

    async def watch(self, account: Account, number: int) -> Table:
        table = await self.find(number)
        if self._unless_finished(account.id) is not None:
            raise TableError("table.already_at_table")
        if table.seat_of(account.id) is None:
            table.watchers.add(account.id)
        # else one's own seat (a bot plays it since `leave`): watched as its player, so that
        # nothing comes twice, once to the seat and once to the watcher
        self._enter(table, account.id)
        self.world.broadcast(table.room, msg("table.watcher_joined", name=account.name),
                             exclude=[account.id])
        return table

    async def watch_as_master(self, account: Account, number: int) -> Table:
        """The observer Master: an admin, or the account named at `open ... master=NAME`. Sees
        every role, order and whisper; may pause or extend the clock; never acts in the game."""
        table = await self.find(number)
        named = table.master_name
        if account.role != "admin" and not (named and name_key(named) == name_key(account.name)):
            raise TableError("master.not_allowed", number=number)
        if table.seat_of(account.id) is not None:
            raise TableError("master.seated")
        current = self._unless_finished(account.id, going_to=table)
        if current is not None and current is not table:
            raise TableError("table.already_at_table")
        table.watchers.add(account.id)
        table.masters.add(account.id)
        self._enter(table, account.id)
        self.world.broadcast(table.room, msg("master.joined", name=account.name), exclude=[account.id])
        if table.runner is not None:
            table.runner.show_view(account.id)
        return table

    async def leave(self, account: Account) -> Table:
        table = self.table_of(account.id)
        if table is None:
            raise TableError("table.not_at_table")
        async with self.seating.of(table.number):
            if self.table_of(account.id) is not table:  # left (or moved) while this waited
                raise TableError("table.not_at_table")
            return await self._leave(account, table)

    async def _leave(self, account: Account, table: Table) -> Table:
        number = table.seat_of(account.id)
        if account.id in table.watchers:
            table.watchers.discard(account.id)
            table.masters.discard(account.id)
        elif table.running and number is not None:
            # The seat stays the player's; a bot plays it until they `join` again (a forum-pace
            # game, whose players come and go, keeps the seat waiting for them instead).
            table.seats[number].autopilot = bool(getattr(table.engine, "autopilot", True))
            said = "table.left_game" if table.seats[number].autopilot else "table.left_seat_kept"
            self.world.broadcast(table.room, msg(said, name=account.name), exclude=[account.id])
            self._exit(account.id)
            await store_autopilot(table, number)  # (a table rebuilt elsewhere keeps the bot at it)
            if table.runner:
                table.runner.poke()
            return table
        elif number is not None and table.state_name == "open":
            self._hold_still(table)
            await self._unseat(table, number)
        # (a finished game's seats are its history: rematch reads them; one just gets up)
        self._exit(account.id)
        self.world.broadcast(table.room, msg("table.left", name=account.name))
        if table.state_name == "open" and not table.human_ids():
            await self._close(table)
        self.announce_tables()
        return table

    async def _unseat(self, table: Table, number: int) -> None:
        # Stored first: a failed write leaves the seats as they were, in memory and on disk.
        async with transaction():
            await Seat.filter(table_id=table.number, number=number).delete()
            for seat in table.seats[number + 1:]:
                await Seat.filter(table_id=table.number, number=seat.number).update(number=seat.number - 1)
        table.seats.pop(number)
        for seat in table.seats[number:]:
            seat.number -= 1
        if table.seats and table.host not in [s.name for s in table.seats if not s.is_bot]:
            humans = [s for s in table.seats if not s.is_bot]
            if humans:
                table.host = humans[0].name
                await GameTable.filter(id=table.number).update(host=table.host)

    async def _close(self, table: Table) -> None:
        await GameTable.filter(id=table.number).update(state="closed")
        table.state_name = "closed"
        self._let_lease_go(table)
        for account_id in list(table.everyone()):
            if self.at_table.get(account_id) == table.number:
                self._exit(account_id)
        self.tables.pop(table.number, None)

    def _hosted_open_table(self, account: Account) -> Table:
        """The open table this account hosts (only the host adds bots and starts)."""
        table = self.table_of(account.id)
        if table is None or table.seat_of(account.id) is None:
            raise TableError("table.not_seated")
        if table.state_name != "open":
            raise TableError("table.not_open", number=table.number)
        if table.host != account.name:
            raise TableError("table.host_only", host=table.host)
        self._hold_still(table)
        return table

    @staticmethod
    def _hold_still(table: Table) -> None:
        """While `start` deals and stores the game (the table is still open until the start is
        stored) its seats and options may not change: what is dealt is what is stored."""
        if table.starting:
            raise TableError("table.starting", number=table.number)

    def empty(self, table: Table) -> None:
        """Everyone at the table gets up and goes to the hall (a table that cannot go on)."""
        self._let_lease_go(table)
        for account_id in sorted(table.everyone()):
            table.watchers.discard(account_id)
            table.masters.discard(account_id)
            if self.at_table.get(account_id) == table.number:
                self._exit(account_id)
        self.announce_tables()

    async def add_bots(self, account: Account, count: int, level: str) -> Table:
        async with self.seating.of(self._hosted_open_table(account).number):
            table = self._hosted_open_table(account)  # (as it is now: the wait may have changed it)
            return await self._add_bots(account, table, count, level)

    async def _add_bots(self, account: Account, table: Table, count: int, level: str) -> Table:
        free = table.seats_total - len(table.seats)
        if count <= 0 or free <= 0:
            raise TableError("table.full", number=table.number)
        await self._seat_bots(table, min(count, free), level, account.lang)
        self.announce_tables()
        return table

    async def _seat_bots(self, table: Table, count: int, level: str, lang: str) -> None:
        added = []
        for _ in range(count):
            number = len(table.seats)
            name = bot_name({s.name for s in table.seats}, number, lang)
            await Seat.create(table_id=table.number, number=number, name=name, bot_level=level)
            table.seats.append(SeatInfo(number=number, name=name, bot_level=level))
            added.append(name)
        self.world.broadcast(table.room, msg("table.bots_added", n=len(added), names=", ".join(added)))

    async def start(self, account: Account) -> Table:
        async with self.seating.of(self._hosted_open_table(account).number):  # seats being taken first
            table = self._hosted_open_table(account)
            self._hold_still(table)  # (a second `start` while the first is being stored)
            if len(table.seats) < table.engine.min_players:
                raise TableError("table.too_few", need=table.engine.min_players, have=len(table.seats))
            table.starting = True
        try:
            await self._apply_start_plan(table, account.lang)
            winner = await self._winner_starts(table)
            table.seed = secrets.randbits(62)
            await TableRunner(self, table).begin()  # the table's runner once the start is stored
        except RuleError as err:  # options the game refuses (sign-up choices), or the start could
            raise TableError(err.key, **err.params) from err  # not be stored: the table stays open
        finally:
            table.starting = False
        audit("table_started", by=account.name, number=table.number, game=table.game_name,
              seats=",".join(seat.name for seat in table.seats))
        if winner is not None:
            self.world.broadcast(table.room, msg("table.winner_starts", name=winner))
        self.announce_tables()
        return table

    async def _winner_starts(self, table: Table) -> str | None:
        """coup.md #4: a rematch of a game whose engine says so (``winner_starts``) is begun by the
        previous game's winner, when exactly one won and sits at this table; else the game draws
        the first player as usual. Stored with the options, so a replay deals the same. Returns
        the winner's name when they start."""
        if not getattr(table.engine, "winner_starts", False) or table.previous is None:
            return None
        previous = await self._finished(table.previous)
        winners = list((previous.outcome or {}).get("winners") or []) if previous else []
        names = [s.name for s in table.seats]
        first = names.index(winners[0]) + 1 if len(winners) == 1 and winners[0] in names else None
        if table.options.get("first") != first:
            table.options = {**table.options, "first": first}
            await GameTable.filter(id=table.number).update(options=table.options)
        return winners[0] if first is not None else None

    # -- a rematch ----------------------------------------------------------------------------

    async def _finished(self, number: int) -> Table | None:
        """A finished table: in memory since it ended, or (after a restart) from the database."""
        table = self.tables.get(number)
        if table is not None:
            return table if table.state_name == "finished" else None
        row = await GameTable.get_or_none(id=number)
        if row is None or row.state != "finished" or registry.get(row.game) is None:
            return None
        return await table_of_row(row)

    async def rematch(self, account: Account, number: int | None = None) -> tuple[Table, bool]:
        """The same game again with the same company: a new table with the old one's game,
        options and bots, hosted by whoever asks first; the others who played are invited, and
        their `rematch` seats them at that new table. Returns the table and whether it is new."""
        current = self.table_of(account.id)
        if number is None:
            if current is None:
                raise TableError("table.rematch_which")
            number = current.number
        async with self.seating.of(("rematch", number)):  # two at once: one new table, not two
            return await self._rematch(account, number)

    async def _rematch(self, account: Account, number: int) -> tuple[Table, bool]:
        current = self.table_of(account.id)
        old = await self._finished(number)
        if old is None:
            if number in self.tables and self.tables[number].state_name in ("open", "running"):
                raise TableError("table.rematch_not_over", number=number)
            if number in self.tables and self.tables[number].state_name == "broken":
                raise TableError("broken.unavailable", number=number, reason=self.tables[number].broken_reason)
            row = await GameTable.get_or_none(id=number)  # abandoned, or closed before it began
            raise (closed_refusal(row) if row is not None else None) or TableError("table.no_such", number=number)
        if old.seat_of(account.id) is None:
            raise TableError("table.rematch_not_player", number=number)
        if current is not None and current is not old:
            raise TableError("table.already_at_table")
        again = next((t for t in self.tables.values() if t.previous == old.number and t.state_name == "open"), None)
        if again is not None:
            if current is old:
                self._exit(account.id)
            return await self.join(account, again.number), False
        hook = getattr(old.engine, "rematch_plan", None)
        options, kept = hook(dict(old.options), len(old.seats)) if hook else (dict(old.options), len(old.seats))
        if current is old:
            self._exit(account.id)
        row = await self._new_row(game=old.engine.name, options=options, host=account.name,
                                  seats_total=old.seats_total, state="open", master=old.master_name or None,
                                  previous=old.number)
        table = Table(number=row.id, game_name=old.engine.name, engine=old.engine, options=options,
                      host=account.name, seats_total=old.seats_total, master_name=old.master_name,
                      previous=old.number, lease_epoch=row.lease_epoch)
        async with self.seating.of(table.number):  # a `join` by its number waits for its bots
            self.tables[table.number] = table
            await self._sit(table, account)
            for seat in old.seats[:kept]:
                if seat.is_bot:  # the same bots, by name and level
                    seat_number = len(table.seats)
                    await Seat.create(table_id=table.number, number=seat_number, name=seat.name,
                                      bot_level=seat.bot_level)
                    table.seats.append(SeatInfo(number=seat_number, name=seat.name, bot_level=seat.bot_level))
        audit("table_opened", by=account.name, number=table.number, game=table.game_name, rematch_of=old.number)
        invite = msg("table.rematch_offered", name=account.name, number=table.number, old=old.number)
        self.world.broadcast(old.room, invite, exclude=[account.id])  # those still at the old table
        for seat in old.seats:  # and the players who went elsewhere, or are away (their inbox)
            player = seat.account_id
            if player in (None, account.id) or self.at_table.get(player) == old.number:
                continue
            await self.world.deliver_or_keep(player, invite, "game", table.number)
        self.announce_tables()
        return table, True

    async def update_options(self, table: Table, **updates: Any) -> None:
        """Change options of a table that has not started (sign-up choices such as a Mafia
        player's public role), and store them."""
        if table.state_name != "open":
            raise TableError("table.not_open", number=table.number)
        self._hold_still(table)
        table.options = {**table.options, **updates}
        await GameTable.filter(id=table.number).update(options=table.options)

    async def _apply_start_plan(self, table: Table, lang: str) -> None:
        """A game may seat bots of its own at the start (the «Шептуны» cooperative variant adds
        its Peacekeepers to a small table) and add options that say so. Both are stored before
        the game is dealt, so a replay after a restart sees the same seats and options."""
        plan = getattr(table.engine, "start_plan", None)
        if plan is None:
            return
        extra, updates = plan(dict(table.options), len(table.seats), names=[s.name for s in table.seats])
        if not extra and not updates:
            return
        if extra:
            await self._seat_bots(table, extra, str(self.config.section("tables")["bot_level"]), lang)
        table.options = {**table.options, **updates}
        table.seats_total = max(table.seats_total, len(table.seats))
        await GameTable.filter(id=table.number).update(options=table.options, seats_total=table.seats_total)

    # -- sessions coming and going ----------------------------------------------------------

    async def on_login(self, account: Account, session: Any) -> None:
        for table in self.tables.values():
            number = table.seat_of(account.id)
            if number is None or table.state_name not in ("open", "running"):
                continue
            hand_back(table, number)
            self._enter(table, account.id)
            session.send("table.back_in_seat", number=table.number, game=table.game_name)
            if table.runner is not None:
                table.runner.show_view(account.id)
                table.runner.poke()
            break
        session.gmcp("Korchma.Table", self.gmcp_payload())

    def on_logout(self, account: Account) -> None:
        table = self.table_of(account.id)
        if table is None:
            return
        if account.id in table.watchers:
            table.watchers.discard(account.id)
            table.masters.discard(account.id)
            self.at_table.pop(account.id, None)
        elif table.state_name in ("finished", "broken"):
            self.at_table.pop(account.id, None)  # nothing to come back to
        # A seated player keeps the seat of a game that goes on (and stays "at" it) while away.
        self._forget_if_left(table)

    # -- start-up and shutdown --------------------------------------------------------------

    async def restore(self) -> None:
        """Rebuild every unfinished table at start-up (world/table_restore.py); in a cluster only
        those this node takes (world/cluster/ownership.py). (The finished ones a stop left unrated
        are rated once the doors are open: server/app.py, world/ratings.py ``sweep_after_start``.)"""
        if self.owner is not None:
            self.owner.start()  # renewing from the first lease taken (a long restore keeps them)
        await restore_tables(self, self.owner.claim if self.owner is not None else None)
        if self.owner is not None:
            self.owner.settle()

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            if table.runner is not None:
                await table.runner.stop()
        if self.owner is not None:
            await self.owner.stop()  # the leases go back: the next node takes the tables at once
