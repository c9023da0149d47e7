"""Who is who: an account's public profile (`finger`), its title, and its games.

What a profile holds is public only: the name, the title the player chose, when the account was
made and last seen, and the results of finished games. Never a game's hidden role, an address or
a door (admins have `where` for those).

Games played and won are counted from the tables themselves (GameTable.outcome, Seat), not kept
in a counter of their own, so they can never drift from the record:

* only tables in the state ``finished`` count: an open table closed before it began
  (``closed``) was never played, and a table the server had to stop (``broken``) has no result
  anyone earned, so it counts neither as played nor as won;
* only seats the account took as a person (``bot_level`` unset). A person who walked away and was
  played for by the autopilot still played that game (the seat stays theirs); a seat a bot took
  over when the account was deleted is no longer linked to it at all;
* a game is won when the seat is among the outcome's ``winner_seats`` (a shared win is a win);
  a game with no winner (a stalemate) is played, not won.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .accounts import now
from .models import Account, Seat
from .titles import title_problem

# At most this many user-perceived characters in a profile title: a phrase, not a biography.
TITLE_LIMIT = 40
# The column holds this many code points (an emoji of many joined code points is one character).
TITLE_COLUMN = 160
# `title -` clears the title (as `класс -` clears a Mafia public role).
CLEAR_WORDS = frozenset({"-", "—"})


@dataclass(frozen=True)
class GameRecord:
    game: str
    played: int
    won: int


def title_refusal(title: str) -> tuple[str, dict[str, Any]] | None:
    """Why ``title`` (already cleaned: world.text.clean) may not be a profile title, as a catalog
    key and its parameters, or None. The rules of every title on this server
    (world/titles.py: scripts, no passing for staff or a bot), with the profile's length."""
    if len(title) > TITLE_COLUMN:
        return ("title.too_long", {"n": TITLE_LIMIT})
    return title_problem(title, limit=TITLE_LIMIT)


async def set_title(account: Account, title: str | None) -> None:
    account.title = title
    await account.save(update_fields=["title"])


async def record_left(account: Account) -> None:
    """The account's last session ended: when it was last seen."""
    account.last_seen = now()
    await Account.filter(id=account.id).update(last_seen=account.last_seen)


async def record_left_all(online: list[Account]) -> None:
    """The server stops: everyone online was last seen now."""
    moment = now()
    for account in online:
        account.last_seen = moment
    if online:
        await Account.filter(id__in=[a.id for a in online]).update(last_seen=moment)


async def game_records(account_id: int) -> list[GameRecord]:
    """Finished games the account sat in as a person, per game: most played first."""
    seats = await Seat.filter(account_id=account_id, bot_level=None, table__state="finished") \
        .select_related("table")
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for seat in seats:
        game = seat.table.game
        played[game] = played.get(game, 0) + 1
        if _won(seat):
            won[game] = won.get(game, 0) + 1
    return [GameRecord(game, n, won.get(game, 0))
            for game, n in sorted(played.items(), key=lambda item: (-item[1], item[0]))]


def _won(seat: Seat) -> bool:
    outcome = seat.table.outcome or {}
    if "winner_seats" in outcome:
        return seat.number in (outcome["winner_seats"] or [])
    return seat.name in (outcome.get("winners") or [])  # an outcome stored before winner_seats


__all__ = ["TITLE_LIMIT", "CLEAR_WORDS", "GameRecord", "title_refusal", "set_title", "record_left", "record_left_all",
           "game_records"]
