"""Nothing is computed for viewers nobody can read, and one who comes back learns no secret
(issue 13, "Queued challenges stay secret over GMCP").

The table's output side makes views, questions and their JSON only for viewers with a session
(seated players online, watchers, Masters). A player who comes back, or a watcher who arrives,
must still learn nothing of what was answered in secret meanwhile: from `look`/`hand` (whom the
game waits for), from its first GMCP View, or from the numbers in its Awaiting.

Offline, over seeded games of every engine: two tables play the same moves; at one everyone is
there all along (what was computed for everyone before), at the other viewers leave and come
back at random. A viewer who is back sees the same as at the first table once it has been back
since the current wait began; before that it may see less, never more: every seat the first
table keeps secret (a seat shown "thinking" that answered, or one not shown that is asked) it
keeps secret too, and the numbers of its waits count only its own (never the table's steps).

Over the wire: Coup with challenge_order=seat. Boris has priority in Анна's challenge window; he
is away when she claims the Duke and while Vera's challenge queues behind him; when he comes
back (telnet with GMCP, and SSH), `hand` still shows Vera thinking, and his first View and
Awaiting are what they would have been had he stayed; the numbers of his waits count his own.
"""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from games.base import MASTER, SPECTATOR
from tests.test_gmcp_views import (ENGINES, EVERY_ENGINE, MAX_STEPS, WATCHER, Harness, assert_waits_numbered_in_turn,
                                   choose, distinct, over_seeds)

SEEDS = 6


def account_of(viewer: int) -> int:
    return WATCHER if viewer == SPECTATOR else viewer + 1


def leave(h: Harness, viewer: int) -> None:
    for eyes in h.eyes[viewer]:
        h.world.disconnected(eyes)


def come_back(h: Harness, viewer: int) -> Any:
    """As the server does at a login: the table's view, then a look at the waits (``poke``)."""
    eyes = h.log_in(viewer, account_of(viewer))
    h.output.show_view(account_of(viewer))
    h.output.send_awaiting()
    return eyes


def last_awaiting(eyes: Any) -> dict[str, Any] | None:
    sent = [json.loads(data) for name, data in eyes.got if name == "Korchma.Game.Awaiting"]
    return sent[-1] if sent else None


def play(game: str, options: dict[str, Any], seed: int) -> dict[str, int]:
    rng = random.Random(f"away:{game}:{seed}:{sorted(options.items())}")
    low, high = next(span for g, o, span in ENGINES if g == game)
    players = rng.randint(low, high)
    there, h = Harness(game, options, players, seed), Harness(game, options, players, seed)
    counts = {"steps": 0, "returns": 0, "kept": 0}
    viewers = [v for v in h.viewers() if v != MASTER]
    back_at: dict[int, int | None] = {v: 0 for v in viewers}  # viewer -> the step it came back at (None: away)
    for viewer in [v for v in viewers if rng.random() < 0.2]:  # away from the start
        leave(h, viewer)
        back_at[viewer] = None
    there.begin()
    h.begin()
    windows, opened = None, 0
    views: dict[int, list[str]] = {}  # viewer -> its views since it came back (the View it is owed)
    for _ in range(MAX_STEPS):
        state = there.table.game
        waits = there.engine.awaiting(state)
        if there.engine.outcome(state) is not None or not waits:
            break
        wait = rng.choice(waits)
        if not there.engine.legal(state, wait.seat):
            continue
        action = choose(there.engine, state, wait.seat, wait.default, rng)
        there.step(wait.seat, json.loads(json.dumps(action)))
        h.step(wait.seat, json.loads(json.dumps(action)))
        counts["steps"] += 1
        now = there.engine.awaiting(there.table.game)
        if frozenset(a.window for a in now) != windows:
            windows, opened = frozenset(a.window for a in now), there.table.step
        for viewer in [v for v in viewers if rng.random() < 0.06]:
            if back_at[viewer] is None:
                come_back(h, viewer)
                back_at[viewer], views[viewer] = there.table.step, []
                counts["returns"] += 1
            else:
                leave(h, viewer)
                back_at[viewer] = None
        truth = frozenset(a.seat for a in now)
        for viewer in viewers:
            if back_at[viewer] is None:
                continue
            view = there.client_view(viewer)
            if viewer in views:
                views[viewer].append(view)
            shown, exact = h.awaited_as_seen(viewer), there.awaited_as_seen(viewer)
            where = (game, options, seed, viewer, there.table.step)
            if back_at[viewer] <= opened:  # back since the wait began: the same as if it had stayed
                assert shown == exact, where
            secrets = {x for x in range(players) if (x in exact) != (x in truth)}
            assert {x for x in secrets if (x in shown) != (x in exact)} == set(), (where, shown, exact, truth)
            counts["kept"] += len(secrets)
            if viewer == SPECTATOR:
                continue
            mine, theirs = last_awaiting(h.eyes[viewer][-1]), last_awaiting(there.eyes[viewer][0])
            assert (mine["kind"], mine["legal"]) == (theirs["kind"], theirs["legal"]), where
            assert (mine["wait"] is None) == (theirs["wait"] is None), where
    for viewer, sessions in h.eyes.items():  # the numbers of waits tell nothing of what was missed
        for eyes in sessions:
            if viewer not in (SPECTATOR, MASTER):
                assert_waits_numbered_in_turn(eyes, (game, options, seed, viewer))
    for viewer, seen in views.items():  # a session that came back: the current View, then each change
        if back_at[viewer] is not None:
            assert h.eyes[viewer][-1].views() == distinct(seen), (game, options, seed, viewer)
    return counts


@EVERY_ENGINE
def test_a_viewer_who_comes_back_learns_no_secret(game, options):
    totals = over_seeds(play, game, options, SEEDS)
    assert totals["steps"] > SEEDS * 10 and totals["returns"] > SEEDS, totals
    if game == "mafia" or options.get("challenge_order") == "seat":
        assert totals["kept"] > 10, totals  # secret answers were kept from viewers who were back


def test_nothing_is_computed_for_viewers_nobody_can_read():
    """A table whose players are all away and which nobody watches makes no view and asks the
    engine for no legal actions, step after step; a player who comes back gets its own (and
    only that) made."""
    h = Harness("coup", {"challenge_order": "seat"}, 4, 3)
    for viewer in h.viewers():
        leave(h, viewer)
    made: list[int] = []
    asked: list[int] = []
    view, legal = h.engine.view, h.engine.legal
    h.engine = h.runner.table.engine = _Counting(h.engine, made, asked)
    h.begin()
    rng = random.Random(3)
    for _ in range(30):
        waits = h.engine.awaiting(h.table.game)
        if not waits:
            break
        wait = rng.choice(waits)
        state = h.table.game
        action = h.engine.bot_action(view(state, wait.seat), legal(state, wait.seat), random.Random(1), "easy")
        h.step(wait.seat, action)
    assert h.table.step >= 10 and made == [] and asked == []
    come_back(h, 1)
    assert made and set(made) <= {1} and set(asked) <= {1}


class _Counting:
    """The engine, counting the views and legal actions the output side asks for."""

    def __init__(self, engine: Any, made: list[int], asked: list[int]) -> None:
        self._engine, self._made, self._asked = engine, made, asked

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def view(self, state: Any, viewer: int) -> Any:
        self._made.append(viewer)
        return self._engine.view(state, viewer)

    def legal(self, state: Any, seat: int) -> Any:
        self._asked.append(seat)
        return self._engine.legal(state, seat)


# -- over the wire ---------------------------------------------------------------------------------

WAITING = {"telnet": "Ждём: Boris, Vera", "ssh": "Waiting for: Boris, Vera"}
# Boris's own table: he is left out of «Ждём» (his own prompt says he may answer), Vera is not.
WAITING_BORIS = {"telnet": "Ждём: Vera", "ssh": "Waiting for: Vera"}


async def _gone(guest: Any, people: int) -> None:
    """Until the server has seen a connection end: `кто` lists ``people``."""
    for _ in range(50):
        guest.send_line("кто")
        count = await guest.expect(re.compile(r"В корчме (\d+) человек"))
        if int(re.search(r"\d+", count).group(0)) == people:
            return
        await guest.settle(0.25)  # (within the flood guard's 5 lines a second)
    raise AssertionError(f"still not {people} in the tavern")


async def _back(server: Any, door: str) -> Any:
    from tests.ssh_client import connect
    from tests.telnet_client import log_in

    if door == "telnet":
        return await log_in(server.telnet_port, "Boris", create=False, gmcp=True, naws=(200, 50))
    return await connect(server.ssh_port, "Boris", password="secret1", width=200)


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_a_seat_away_while_a_challenge_queues_behind_it_learns_nothing_when_back(server, door):
    """Coup, challenge_order=seat, three people; Анна plays first (``first=1``). Boris (over
    ``door``) leaves during her turn; she claims the Duke, which opens a challenge window where
    Boris, seat 1, has priority; Vera, seat 2, challenges, and her challenge waits for Boris. Boris
    comes back: the table he is shown, and `hand`, wait for both of them, as they did for the
    watcher all along; over telnet his first View is the claim's and his Awaiting's ``wait`` and
    ``since`` are the number of his next wait (not moved by the challenge he cannot see). Then he
    allows, and the challenge takes effect."""
    from tests.test_gmcp_views import SAYS, three_at_coup

    other = "ssh" if door == "telnet" else "telnet"
    anna, boris, vera, guest = await three_at_coup(server, door)
    if door == "telnet":
        # Анна's "your move" may reach her before Boris's Awaiting reaches him.
        await boris.wait_for(lambda: any(name == "Korchma.Game.Awaiting" for name, _ in boris.gmcp_messages))
        before = [data for name, data in boris.gmcp_messages if name == "Korchma.Game.Awaiting"][-1]["since"]
    await boris.close()
    await _gone(guest, 3)

    count = len(anna.gmcp_messages)
    anna.send_line("налог")
    await vera.expect(SAYS[other]["asked"])
    await anna.wait_for(lambda: any(name == "Korchma.Game.Awaiting" and data["kind"] is None
                                    for name, data in anna.gmcp_messages[count:]))
    vera.send_line("challenge" if other == "ssh" else "вызов")
    await vera.expect(re.compile(r"It takes effect unless|Сработает, если никто"))
    guest.mark_here()
    guest.send_line("смотреть")
    await guest.expect(WAITING["telnet"])

    boris = await _back(server, door)
    await boris.expect(WAITING_BORIS[door])  # the table shown at the login
    boris.send_line(SAYS[door]["hand"])
    await boris.expect(SAYS[door]["end"])
    assert boris.text.count(WAITING_BORIS[door]) == 2, boris.text  # at the login, and `hand`
    if door == "telnet":
        views = [data for name, data in boris.gmcp_messages if name == "Korchma.Game.View"]
        assert len(views) == 1 and views[0]["view"]["stage"] == "challenge_action", views
        awaiting = [data for name, data in boris.gmcp_messages if name == "Korchma.Game.Awaiting"]
        assert len(awaiting) == 1, awaiting
        # His next wait, whatever the others did meanwhile (a table's step would count Vera's
        # challenge too): one new question since the last wait he was shown.
        assert awaiting[0]["kind"] is not None and awaiting[0]["wait"] == awaiting[0]["since"] == before + 1, \
            (awaiting, before)

    boris.send_line("allow" if door == "ssh" else "пропустить")
    await anna.expect("Вызов!")
    await boris.expect(re.compile(r"Challenge!|Вызов!"))
    for client in (anna, boris, vera, guest):
        await client.close()
