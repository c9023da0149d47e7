"""Ratings and results of finished games (issue 18, world/ratings.py), against a real SQLite
database with the real migrations and real engines played to their end by their bots: a win in
a free-for-all (Coup) and a team game («Шептуны») moves every rating the right way, a table is
never rated twice, and a finish left unrated by a stop is rated at the next start from its log."""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from games.registry import get
from world import db, ratings
from world.clock import utcnow
from world.models import Account, ActionLogEntry, GameResult, GameTable, Rating, Seat
from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)


@pytest.fixture
async def database(tmp_path):
    await db.init(f"sqlite://{tmp_path / 'r.sqlite3'}")
    yield
    await db.close()


def play(name: str, seats: int, seed: int) -> tuple[Any, list[tuple[int, Any]]]:
    """A seeded bots' game to its end: the final state and every action, in order."""
    engine = get(name)
    state = engine.new(seats, {}, seed)
    rng = random.Random(seed)
    actions = []
    for _ in range(200000):
        if engine.outcome(state) is not None:
            return state, actions
        wait = engine.awaiting(state)[0]
        legal = engine.legal(state, wait.seat)
        action = engine.bot_action(engine.view(state, wait.seat), legal, rng, "normal") if legal else wait.default
        engine.apply(state, wait.seat, action)
        actions.append((wait.seat, action))
    raise AssertionError("the game did not end")


async def finished_table(game: str, people: list[Account], seed: int, bots: int = 0,
                         actions: list[tuple[int, Any]] = ()) -> GameTable:
    start = utcnow() - timedelta(minutes=10)
    row = await GameTable.create(game=game, seed=seed, host=people[0].name, state="finished",
                                 seats_total=len(people) + bots, started_at=start, finished_at=start + timedelta(minutes=6),
                                 outcome={})
    for number, person in enumerate(people):
        await Seat.create(table=row, number=number, account=person, name=person.name)
    for number in range(len(people), len(people) + bots):
        await Seat.create(table=row, number=number, bot_level="normal", name=f"Бот-{number}")
    for step, (seat, action) in enumerate(actions):
        await ActionLogEntry.create(table=row, step=step, seat=seat, action=action)
    return row


async def accounts(n: int) -> list[Account]:
    return [await Account.create(name=f"P{i}", name_key=f"p{i}") for i in range(n)]


async def rating(person: Account, game: str, pool: str = "all") -> Rating:
    return await Rating.get(account_id=person.id, game=game, pool=pool, season=1)


async def test_free_for_all_moves_the_winner_up_and_the_others_down(database):
    people = await accounts(3)
    state, _ = play("coup", 3, seed=11)
    winner = state.winner
    row = await finished_table("coup", people, 11)
    assert await ratings.rate_table(row.id, state)
    after = [await rating(p, "coup") for p in people]
    fresh = ratings.MODEL.rating()
    for seat, r in enumerate(after):
        assert r.games == 1 and r.wins == (1 if seat == winner else 0)
        if seat == winner:
            assert r.mu > fresh.mu
        else:
            assert r.mu < fresh.mu
    # Its shown rating rises above a newcomer's 1000 only for the winner... and humans-only counts it.
    assert ratings.shown(after[winner].ordinal) > max(ratings.shown(r.ordinal) for s, r in enumerate(after) if s != winner)
    assert (await rating(people[winner], "coup", "humans")).mu == after[winner].mu
    # Rated once: a second call (a restart racing the finish) writes nothing more.
    assert not await ratings.rate_table(row.id, state)
    assert await GameResult.filter(table_id=row.id).count() == 3
    assert (await rating(people[0], "coup")).games == 1


async def test_team_game_moves_every_member_of_a_side(database):
    people = await accounts(5)
    state, _ = play("whispers", 5, seed=3)
    winners = set(get("whispers").outcome(state).winners)
    assert winners and len(winners) < 5, "the seed should give a side that won and one that lost"
    row = await finished_table("whispers", people, 3)
    assert await ratings.rate_table(row.id, state)
    fresh = ratings.MODEL.rating()
    for seat, person in enumerate(people):
        r = await rating(person, "whispers")
        assert (r.mu > fresh.mu) == (seat in winners), (seat, r.mu)
    stats = (await ratings.stats_of(people[0].id, "whispers"))[0]
    assert stats.played == 1 and stats.won == (1 if 0 in winners else 0)
    assert [s.label for s in stats.sides] == [state.sides[0]]
    assert stats.seconds == pytest.approx(360)


async def test_games_with_bots_count_but_not_in_the_humans_pool(database):
    people = await accounts(1)
    state, _ = play("coup", 3, seed=5)
    row = await finished_table("coup", people, 5, bots=2)
    assert await ratings.rate_table(row.id, state)
    assert await Rating.filter(pool="humans").count() == 0
    bot = await Rating.get(player="b:normal", pool="all")
    assert bot.games == 1  # two bot seats of one level rate as one player
    assert (await GameResult.get(table_id=row.id, seat=0)).with_bots


async def test_a_finish_left_unrated_is_rated_at_the_next_start(database):
    people = await accounts(3)
    state, actions = play("coup", 3, seed=21)
    row = await finished_table("coup", people, 21, actions=actions)
    assert await ratings.rate_unrated() == 1
    winner = await GameResult.get(table_id=row.id, won=True)
    assert winner.seat == state.winner
    assert await ratings.rate_unrated() == 0  # and never twice


async def test_a_new_season_starts_afresh_and_keeps_the_old(database):
    people = await accounts(3)
    state, _ = play("coup", 3, seed=11)
    await ratings.rate_table((await finished_table("coup", people, 11)).id, state)
    assert await ratings.new_season("Admin") == 2
    assert await ratings.current_season() == 2
    assert (await ratings.leaderboard("coup", 2, False, 1, 10))[1] == 0
    rows, total = await ratings.leaderboard("coup", 1, False, 1, 10)
    assert total == 3 and rows[0].account_id == people[state.winner].id


async def test_mafia_faction_wins_together_and_a_neutral_plays_alone(database):
    """Seed 1 of seven: the Закон wins with three of its four alive; the dead one moves up with
    them (a faction's win is every member's), the Мафия and the lone neutral move down."""
    people = await accounts(7)
    state, _ = play("mafia", 7, seed=1)
    winners = set(get("mafia").outcome(state).winners)
    law = [seat for seat in range(7) if state.faction(seat) == "law"]
    assert winners < set(law), "the seed should leave a member of the winning faction out of the winners"
    row = await finished_table("mafia", people, 1)
    assert await ratings.rate_table(row.id, state)
    fresh = ratings.MODEL.rating()
    for seat, person in enumerate(people):
        r = await rating(person, "mafia")
        assert (r.mu > fresh.mu) == (seat in law), (seat, state.faction(seat), r.mu)
        assert r.wins == (1 if seat in winners else 0)  # `stats` and `finger` count the outcome's seats
    stats = (await ratings.stats_of(people[law[0]].id, "mafia"))[0]
    assert [s.label for s in stats.sides] == ["law"] and [s.label for s in stats.roles] == [state.roles[law[0]]]


async def test_the_start_up_sweep_reads_only_what_finished_since_the_last(database):
    people = await accounts(3)
    assert await ratings.rate_unrated() == 0  # the first start: nothing yet
    # A table that finished before that sweep and was never rated (no log: it cannot be) is not
    # read again; one that finished after it is.
    old = await finished_table("coup", people, 1)
    await GameTable.filter(id=old.id).update(finished_at=utcnow() - timedelta(days=1))
    state, actions = play("coup", 3, seed=21)
    new = await finished_table("coup", people, 21, actions=actions)
    await GameTable.filter(id=new.id).update(finished_at=utcnow() + timedelta(seconds=1))
    assert await ratings.rate_unrated() == 1
    assert not await GameResult.filter(table_id=old.id).exists()
    assert await GameResult.filter(table_id=new.id).count() == 3


async def several_games(people: list[Account]) -> None:
    """Mafia and «Шептуны» tables of several seeds, one with bots and one with no start time,
    rated: results with sides, roles, wins and losses for `stats` to group."""
    for game, seeds in (("mafia", range(1, 6)), ("whispers", range(1, 4))):
        for seed in seeds:
            seats = 7 if game == "mafia" else 5
            state, _ = play(game, seats, seed=seed)
            bots = 1 if seed == 2 else 0
            row = await finished_table(game, people[:seats - bots], seed, bots=bots)
            if seed == 3:
                await GameTable.filter(id=row.id).update(started_at=None)
            assert await ratings.rate_table(row.id, state)


async def stats_by_hand(account_id: int) -> list[ratings.GameStats]:
    """What `stats` should say, counted here from every result row."""
    rows = await GameResult.filter(account_id=account_id).order_by("id")
    out = []
    for game in sorted({r.game for r in rows}):
        mine = [r for r in rows if r.game == game]
        timed = [r.seconds for r in mine if r.seconds is not None]

        def split(attr: str) -> list[ratings.Split]:
            labels = sorted({getattr(r, attr) for r in mine} - {None})
            found = [ratings.Split(label, sum(getattr(r, attr) == label for r in mine),
                                   sum(getattr(r, attr) == label and r.won for r in mine),
                                   next(r.side for r in mine if getattr(r, attr) == label)) for label in labels]
            return sorted(found, key=lambda s: (-s.played, s.label))
        out.append(ratings.GameStats(game, len(mine), sum(r.won for r in mine), sum(r.with_bots for r in mine),
                                     sum(timed) / len(timed) if timed else None, split("side"), split("role")))
    return sorted(out, key=lambda s: (-s.played, s.game))


async def test_stats_are_counted_in_the_database_as_by_hand(database):
    people = await accounts(7)
    await several_games(people)
    for person in people:
        assert await ratings.stats_of(person.id) == await stats_by_hand(person.id)
    found = await ratings.stats_of(people[0].id)
    assert [s.game for s in found] == ["mafia", "whispers"] and found[0].played == 5
    assert found[0].with_bots == 1 and found[0].roles and found[0].sides
    assert sum(s.played for s in found[0].roles) == 5
    assert [s.game for s in await ratings.stats_of(people[0].id, "whispers")] == ["whispers"]


async def test_the_start_up_sweep_runs_beside_the_open_doors(server_factory, tmp_path):
    """Finished tables a stop left unrated (two Coup games in the database before the server
    starts) are rated after the doors open, not before: a first start on years of old games
    would otherwise keep everyone out for most of an hour (bench/ratings_backfill.py). Their
    ratings then show in `top`, over telnet and SSH."""
    from tests.wire import person
    from world.upgrades import start_options

    data = tmp_path / "data"
    data.mkdir()
    await db.init(f"sqlite://{data / 'korchma.sqlite3'}")
    try:
        people = await accounts(3)
        for seed in (5, 6):
            _, actions = play("coup", 3, seed=seed)
            row = await finished_table("coup", people, seed, actions=actions)
            await GameTable.filter(id=row.id).update(options=start_options(get("coup"), {}))
    finally:
        await db.close()
    srv = server_factory("", data_dir=data)
    said = "rated 2 finished tables not rated before"
    for _ in range(200):
        if said in srv.log():
            break
        await asyncio.sleep(0.05)
    text = srv.log()
    assert said in text and text.index("ssh listening on") < text.index(said), text[-3000:]
    anna = await person(srv, "telnet", "Анна", "ru")
    boris = await person(srv, "ssh", "Boris", "en")
    anna.send_line("лучшие переворот")
    await anna.expect("3 игрока, страница 1 из 1")
    boris.send_line("top coup")
    await boris.expect("3 players, page 1 of 1")
    for client in (anna, boris):
        await client.close()


def test_revolution_ranks_the_others_by_level_and_bids_by_score():
    """The free-for-all standings the engines give (games/*/standing.py): pure, no database."""
    from games.standing import standing_of
    state, _ = play("revolution", 4, seed=2)
    winners = get("revolution").outcome(state).winners
    places = standing_of("revolution", state, winners)
    assert [s for s, p in enumerate(places) if p.rank == 0] == list(winners)
    others = sorted((s for s in range(4) if s not in winners), key=lambda s: -state.levels[s])
    assert [places[s].rank for s in others] == sorted(places[s].rank for s in others)
    assert all(p.side is None and p.team is None for p in places)
    state, _ = play("bids", 3, seed=4)
    places = standing_of("bids", state, get("bids").outcome(state).winners)
    best = max(state.scores)
    assert all((p.rank == 0) == (score == best) for p, score in zip(places, state.scores))


def test_the_same_on_postgresql(pg_database):
    """The sweep's query (a NOT IN subquery, the setting it stores), a team game and the
    leaderboard and stats reads, on PostgreSQL. In a process of its own: tortoise keeps the first
    database's SQL dialect for the process, and the tests above were SQLite."""
    done = subprocess.run([sys.executable, "-m", "tests.test_ratings", pg_database], cwd=Path(__file__).parents[1],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stdout[-2000:] + done.stderr[-3000:]


async def _postgresql_check(url: str) -> None:
    await db.init(url)
    try:
        people = await accounts(5)
        state, actions = play("whispers", 5, seed=3)
        await finished_table("whispers", people, 3, actions=actions)
        assert await ratings.rate_unrated() == 1
        assert await ratings.rate_unrated() == 0
        winners = set(get("whispers").outcome(state).winners)
        rows, total = await ratings.leaderboard("whispers", 1, True, 1, 10)
        assert total == 5 and {r.account_id for r in rows[:len(winners)]} == {people[s].id for s in winners}
        assert (await ratings.stats_of(people[0].id))[0].played == 1
        await several_games(people + [await Account.create(name=f"Q{i}", name_key=f"q{i}") for i in range(2)])
        for person in people:
            assert await ratings.stats_of(person.id) == await stats_by_hand(person.id)
    finally:
        await db.close()
    print("ok")


if __name__ == "__main__":
    asyncio.run(_postgresql_check(sys.argv[1]))
