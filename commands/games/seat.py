"""The seat a game verb acts for: the player's seat at a running table, with its view and legal
actions as they are now, and the lookup of other players by what was typed. Each game's verbs
subclass it with their own lookups."""
from __future__ import annotations

from typing import Any

from world.absence import take_seat_back

from ..base import CommandError, Ctx
from ..names import exact_name, loose_match


class GameSeat:
    game = ""  # the game's key: its player errors are <game>.cmd.no_player and .ambiguous_player
    trim = ""  # punctuation stripped around a typed name

    def __init__(self, ctx: Ctx) -> None:
        table = ctx.world.tables.table_of(ctx.account.id)
        if table is None or table.runner is None or table.game is None or not table.running:
            raise CommandError("table.no_game")
        seat = table.seat_of(ctx.account.id)
        if seat is None:
            raise CommandError("table.not_seated")
        # Any game command from the seat's player takes the seat back from a bot, before it is
        # read: the bot's pending move is dropped, so the command meets the state the player saw.
        if take_seat_back(table, seat):
            ctx.reply("table.autopilot_off")
        self.table = table
        self.number = seat
        self.view: dict[str, Any] = table.engine.view(table.game, seat)
        self.legal: list[dict[str, Any]] = table.engine.legal(table.game, seat)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [a for a in self.legal if a.get("type") == kind]

    # -- players by what was typed -----------------------------------------------------------

    def find_player(self, word: str, preferred: list[int]) -> int | None:
        """A seat by a unique start of a player's name (first among ``preferred``, then the
        other pools of ``_pools``); a Russian or Ukrainian name in another case («на Бориса»,
        «Анну») as the morphology dictionary reads it (commands/names.py). None: nobody;
        ambiguous: raises."""
        word = word.lstrip("@").strip(self.trim)
        if not word:
            return None
        return self._match(word, preferred)

    def _pools(self, preferred: list[int]) -> tuple[list[int], ...]:
        everyone = [s.number for s in self.table.seats]
        return preferred, [s for s in everyone if s != self.number], everyone

    def _match(self, word: str, preferred: list[int]) -> int | None:
        seats = self.table.seats
        exact = exact_name(word, [s.name for s in seats])
        if exact is not None:
            return next(s.number for s in seats if s.name == exact)
        for pool in self._pools(preferred):  # no exact name among all: the looser ways, pool by pool
            name, candidates = loose_match(word, [seats[s].name for s in pool])
            if name is not None:
                return next(s for s in pool if seats[s].name == name)
            if candidates:
                raise CommandError(f"{self.game}.cmd.ambiguous_player", name=word, names=", ".join(candidates))
        return None

    def quiet_player(self, word: str, preferred: list[int]) -> int | None:
        try:
            return self.find_player(word, preferred)
        except CommandError:
            return None

    def player(self, word: str, preferred: list[int]) -> int:
        found = self.find_player(word, preferred)
        if found is None:
            raise CommandError(f"{self.game}.cmd.no_player", name=word.lstrip("@"))
        return found
