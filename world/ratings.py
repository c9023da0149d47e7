"""Results and ratings of finished games: what `stats`, `top` and `finger` show.

At the finish (world/runner.py ``_announce_finish``) every seat's result is written, in one
transaction with the ratings it moves: :class:`~world.models.GameResult` rows (side, role, place,
won, length, season, with bots or not) and :class:`~world.models.Rating` rows. A table with result
rows is rated; the (table, seat) pair is unique, so no result is written twice. A finish the server
did not live to rate (stopped between storing the outcome and this write, or a write that failed)
is rated at the next start (:func:`rate_unrated`): the final state is rebuilt from the seed and
the log, as a replay does, and rated in the order the tables finished.

Ratings are openskill's Plackett-Luce model (its default), per game and season:

* sides and teams come from the game (games/standing.py): Mafia's factions and «Шептуны»'s
  sides play as teams (a team's win moves every member, the dead too); the winning team plays
  against all the others as one team (a lone Маньяк tied with a losing Мафия would otherwise
  gain), and a game nobody won moves no rating; Coup and «Революция» are free-for-all (the
  winner first; in «Революция» the others by their level);
* bots are rated too, one rating per bot level ("b:normal");
* two pools: ``all`` games, and ``humans`` (only games without a bot), so `top GAME humans`
  leaves the practice games out;
* what is shown is the conservative rating: ``mu - 3 sigma`` (openskill's ``ordinal``), which
  starts at 0 and rises as the system grows sure, scaled to ``BASE + SCALE * (mu - 3 sigma)``
  (so a newcomer shows 1000);
* a rating from fewer than ``[ratings] provisional_games`` games is marked provisional.

A new season (`season new`, an admin's) starts every rating afresh; results and ratings of old
seasons stay and are read with ``season N``.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from tortoise.expressions import Q, Subquery
from tortoise.functions import Count, Sum

from games import registry
from games.seat_standing import SeatStanding
from games.standing import standing_of

from .clock import as_utc, utcnow
from .db import is_storage_failure, transaction
from .models import ActionLogEntry, GameResult, GameTable, Rating, Season, Seat, ServerSetting
from .upgrades import apply_logged, restored_options

log = logging.getLogger("korchma.ratings")

MODEL = PlackettLuce()
BASE, SCALE = 1000, 40
POOLS_WITH_BOTS = ("all",)
POOLS_HUMANS = ("all", "humans")
SWEPT_KEY = "ratings_swept"  # when the last start-up sweep began (rate_unrated)
# Rating writes read and rewrite rows: one table at a time, so two finishing together both count.
_LOCK = asyncio.Lock()


def shown(ordinal: float) -> int:
    """The rating a player sees: the conservative mu - 3 sigma, scaled."""
    return round(BASE + SCALE * ordinal)


async def current_season() -> int:
    last = await Season.all().order_by("-id").first()
    return last.id if last is not None else 1


async def season_started(number: int) -> Any:
    row = await Season.get_or_none(id=number)
    return row.started_at if row is not None else None


async def new_season(by: str) -> int:
    """Start the next season; its number."""
    async with _LOCK:
        number = await current_season() + 1
        await Season.create(id=number, by=by)
        return number


def _player(account_id: int | None, bot_level: str | None) -> str | None:
    if bot_level is not None:
        return f"b:{bot_level}"
    return None if account_id is None else f"a:{account_id}"


async def rate_table(number: int, state: Any) -> bool:
    """Write the results and move the ratings of the finished table ``number`` whose final
    state is ``state``. False when there was nothing to do (already rated, not finished, or a
    game that gives no standing)."""
    async with _LOCK:
        if await GameResult.filter(table_id=number).exists():
            return False
        row = await GameTable.get_or_none(id=number)
        if row is None or row.state != "finished":
            return False
        engine = registry.get(row.game)
        outcome = engine.outcome(state) if engine is not None else None
        if outcome is None:
            return False
        standing = standing_of(row.game, state, list(outcome.winners))
        if standing is None:
            return False
        seats = sorted(await Seat.filter(table_id=number), key=lambda s: s.number)
        await _write(row, seats, standing, set(outcome.winners))
        return True


async def _write(row: GameTable, seats: list[Seat], standing: list[SeatStanding], winners: set[int]) -> None:
    season = await current_season()
    finished = row.finished_at or utcnow()
    seconds = None
    if row.started_at is not None:
        seconds = max(0.0, (as_utc(finished) - as_utc(row.started_at)).total_seconds())
    with_bots = any(seat.bot_level is not None for seat in seats)
    async with transaction():
        for seat in seats:
            place = standing[seat.number] if seat.number < len(standing) else SeatStanding(1)
            await GameResult.create(table_id=row.id, seat=seat.number, game=row.game, season=season,
                                    account_id=None if seat.bot_level else seat.account_id,
                                    bot_level=seat.bot_level, side=place.side, role=place.role,
                                    rank=place.rank, won=seat.number in winners, seconds=seconds,
                                    with_bots=with_bots, finished_at=finished)
        for pool in (POOLS_WITH_BOTS if with_bots else POOLS_HUMANS):
            await _rate(row.game, season, pool, seats, standing, winners)


async def _rate(game: str, season: int, pool: str, seats: list[Seat], standing: list[SeatStanding],
                winners: set[int]) -> None:
    """One openskill update of ``pool``: the teams (or every seat alone) with their places."""
    players: dict[int, str | None] = {s.number: _player(None if s.bot_level else s.account_id, s.bot_level)
                                      for s in seats}
    keys = {key for key in players.values() if key is not None}
    stored = {r.player: r for r in await Rating.filter(season=season, game=game, pool=pool, player__in=keys)}
    groups: dict[str, list[int]] = {}
    team_game = any(place.team is not None for place in standing)
    best: dict[str | None, int] = {}  # a team's place: its best member's (a dead winner still won)
    for place in standing:
        best[place.team] = min(best.get(place.team, place.rank), place.rank)
    for seat in seats:
        place = standing[seat.number] if seat.number < len(standing) else SeatStanding(1)
        if team_game:
            # The winning team(s) against everyone else as one: in openskill a team's strength is
            # the sum of its members', so a lone loser tied with a bigger losing team would gain.
            key = place.team if best[place.team] == 0 and place.team is not None else "~behind"
        else:
            key = f"seat:{seat.number}"
        groups.setdefault(key, []).append(seat.number)
    names = list(groups)
    # Two bot seats of one level in a game are one player to the ratings: it rates once, in the
    # first team it sits in (a rating cannot stand twice in one match).
    seen: set[str] = set()
    teams, ranks, members = [], [], []
    for name in names:
        team, who = [], []
        for number in groups[name]:
            key = players[number]
            if key is not None and key in seen:
                continue
            if key is not None:
                seen.add(key)
            old = stored.get(key) if key is not None else None
            team.append(MODEL.rating() if old is None else MODEL.rating(mu=old.mu, sigma=old.sigma))
            who.append(number)
        if team:
            teams.append(team)
            ranks.append(0 if team_game and name != "~behind" else
                         min(standing[n].rank if n < len(standing) else 1 for n in groups[name]))
            members.append(who)
    if len(teams) < 2:
        return
    rated = MODEL.rate(teams, ranks=ranks)
    by_seat = {s.number: s for s in seats}
    for team, who in zip(rated, members):
        for new, number in zip(team, who):
            key = players[number]
            if key is None:
                continue  # an account since deleted: nobody to keep a rating for
            seat = by_seat[number]
            won = 1 if number in winners else 0
            old = stored.get(key)
            if old is None:
                await Rating.create(season=season, game=game, pool=pool, player=key,
                                    account_id=None if seat.bot_level else seat.account_id,
                                    bot_level=seat.bot_level, mu=new.mu, sigma=new.sigma,
                                    ordinal=new.ordinal(), games=1, wins=won)
            else:
                old.mu, old.sigma, old.ordinal = new.mu, new.sigma, new.ordinal()
                old.games += 1
                old.wins += won
                await old.save(update_fields=["mu", "sigma", "ordinal", "games", "wins"])


async def rate_unrated() -> int:
    """At start-up: rate every finished table that has no results yet (its final state rebuilt
    from the seed and the log), in the order they finished. How many were rated. A table whose
    log no longer replays to its end is logged and left.

    The first start with ratings reads every finished table (the games played before count);
    later starts only those finished since the last sweep began (ServerSetting ``ratings_swept``),
    so a table that cannot be rated is not read again at every start. Storage trouble stops
    the sweep with a warning, never the start: the next start sweeps again."""
    try:
        return await _sweep()
    except Exception as err:
        if not is_storage_failure(err):
            raise
        log.warning("the finished tables not rated yet were not rated now (%s)", err)
        return 0


async def sweep_after_start(only_one: Any = None) -> None:
    """The start-up sweep, run beside the open doors: a first start on a database of games
    played before ratings rates every one of them (bench/ratings_backfill.py: about 30 ms a game,
    so most of an hour for 100,000), and nobody should wait for that to log in. Games finishing
    meanwhile are rated at once, so they may be rated before older ones the sweep has not reached
    (docs/decisions.md). A stop in the middle loses nothing: the next start sweeps what is left.
    ``only_one``: in a cluster, a context manager saying whether this node is the one that sweeps
    (world/cluster/once.py)."""
    try:
        if only_one is None:
            await rate_unrated()
            return
        async with only_one() as ours:
            if not ours:
                log.info("another node of the cluster rates the finished tables left unrated")
                return
            await rate_unrated()
    except asyncio.CancelledError:
        raise
    except Exception:  # noqa: BLE001 - the server goes on; the next start sweeps again
        log.exception("the start-up sweep of unrated finished tables stopped")


async def _sweep() -> int:
    began = utcnow()
    mark = await ServerSetting.get_or_none(key=SWEPT_KEY)
    rated = GameResult.all().values("table_id")
    query = GameTable.filter(state="finished").exclude(id__in=Subquery(rated))
    if mark is not None:
        query = query.filter(finished_at__gte=datetime.fromisoformat(mark.value))
    rows = await query.order_by("finished_at", "id")
    if len(rows) > 1:
        log.info("rating %d finished tables not rated before, beside the open doors", len(rows))
    count = 0
    for row in rows:
        try:
            state = await _final_state(row)
            if state is not None and await rate_table(row.id, state):
                count += 1
        except Exception as err:  # noqa: BLE001 - one table's trouble is not the others'
            if is_storage_failure(err):
                raise
            log.exception("table %d: its result could not be rated", row.id)
    await ServerSetting.update_or_create(key=SWEPT_KEY, defaults={"value": began.isoformat(), "by": ""})
    if count:
        log.info("rated %d finished tables not rated before", count)
    return count


async def _final_state(row: GameTable) -> Any:
    engine = registry.get(row.game)
    if engine is None:
        return None
    seats = await Seat.filter(table_id=row.id).count()
    state = engine.new(seats, restored_options(engine, row.options or {}), row.seed)
    for entry in await ActionLogEntry.filter(table_id=row.id).order_by("step"):
        apply_logged(engine, state, entry.seat, entry.action)
    return state


# -- reading: `stats`, `top`, `finger` -------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """Games played and won by one side or role (``side``: the side a role played on)."""
    label: str
    played: int
    won: int
    side: str | None = None


@dataclass(frozen=True)
class GameStats:
    game: str
    played: int
    won: int
    with_bots: int
    seconds: float | None  # the average length; None: no start known
    sides: list[Split]
    roles: list[Split]


# `stats` reads its counts grouped in the database, one row per (game, side, role): a busy
# player's thousands of results never travel to Python (at 4,000 games, reading them as rows cost
# most of the command's time).
_GAME, _SIDE, _ROLE, _PLAYED, _WON, _WITH_BOTS, _SECONDS, _TIMED = range(8)


def _splits(groups: list[tuple], column: int) -> list[Split]:
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    side: dict[str, str | None] = {}
    for g in groups:
        label = g[column]
        if label is None:
            continue
        played[label] = played.get(label, 0) + g[_PLAYED]
        won[label] = won.get(label, 0) + g[_WON]
        side[label] = g[_SIDE]
    return [Split(k, n, won[k], side[k]) for k, n in sorted(played.items(), key=lambda kv: (-kv[1], kv[0]))]


async def stats_of(account_id: int, game: str | None = None, season: int | None = None) -> list[GameStats]:
    """The account's results per game (most played first); one game or season if given."""
    query = GameResult.filter(account_id=account_id)
    if game is not None:
        query = query.filter(game=game)
    if season is not None:
        query = query.filter(season=season)
    grouped = query.annotate(
        played=Count("id"), won_n=Count("id", _filter=Q(won=True)),
        bots_n=Count("id", _filter=Q(with_bots=True)),
        seconds_sum=Sum("seconds"), timed=Count("seconds"),
    ).group_by("game", "side", "role")
    by_game: dict[str, list[tuple]] = {}
    for g in await grouped.values_list("game", "side", "role", "played", "won_n", "bots_n", "seconds_sum", "timed"):
        by_game.setdefault(g[_GAME], []).append(g)
    out = []
    for name, groups in by_game.items():
        timed = sum(g[_TIMED] for g in groups)
        out.append(GameStats(name, sum(g[_PLAYED] for g in groups), sum(g[_WON] for g in groups),
                             sum(g[_WITH_BOTS] for g in groups),
                             sum(g[_SECONDS] or 0.0 for g in groups) / timed if timed else None,
                             _splits(groups, _SIDE), _splits(groups, _ROLE)))
    return sorted(out, key=lambda s: (-s.played, s.game))


async def leaderboard(game: str, season: int, humans: bool, page: int, size: int) -> tuple[list[Rating], int]:
    """One page of ``game``'s ratings in ``season`` (best first) and how many there are."""
    query = Rating.filter(season=season, game=game, pool="humans" if humans else "all")
    total = await query.count()
    rows = await query.order_by("-ordinal", "-games", "id").offset((page - 1) * size).limit(size) \
        .select_related("account")
    return list(rows), total


async def ratings_of(account_id: int, season: int) -> list[Rating]:
    """The account's ratings (all games pool) in ``season``, the most played first."""
    rows = await Rating.filter(account_id=account_id, season=season, pool="all")
    return sorted(rows, key=lambda r: (-r.games, r.game))


__all__ = ["BASE", "SCALE", "shown", "current_season", "season_started", "new_season", "rate_table",
           "rate_unrated", "sweep_after_start", "GameStats", "Split", "stats_of", "leaderboard", "ratings_of"]


async def rate_finished(number: int, state: Any) -> None:
    """The runner's call at the finish: a failure here is logged and never stops the table (the
    next start rates what was left)."""
    try:
        await rate_table(number, state)
    except Exception:  # noqa: BLE001
        log.exception("table %d: the ratings were not written now (the next start rates it)", number)
