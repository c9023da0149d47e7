"""A viewer hears of a step only when its own view changed (issue 13, "Queued challenges stay
secret over GMCP").

Offline, over seeded games of every engine: the table's output side (world/table_output.py, the
runner's own ``TableOutput``) is fed by the real engines, step by step as the runner feeds it,
and every viewer (each seat, with two sessions for one of them; a watcher; the Master) keeps what
the real ``World`` hands its sessions. Each session's GMCP View sequence is the sequence of its
viewer's distinct consecutive views; and at a step that told a viewer nothing (no event for it,
its view unchanged, not its own move) it receives nothing at all: no View, no Awaiting, no text.

Over the wire: Coup with challenge_order=seat, three people; when the seat behind the one with
priority challenges, the priority seat hears nothing: no GMCP over telnet, no text over SSH, and
`look` shows the same table before and after.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from games import registry
from games.base import MASTER, SPECTATOR
from tests.wire import open_table

ROOT = Path(__file__).resolve().parents[1]

# (game, options, fewest and most players): every engine, and both Coup challenge orders (the
# queued challenge exists only with challenge_order=seat), every Mafia ruleset.
ENGINES = [
    ("bids", {}, (2, 6)),
    ("coup", {"challenge_order": "seat"}, (3, 7)),
    ("coup", {"challenge_order": "first", "role": "investigator"}, (2, 6)),
    ("whispers", {}, (5, 9)),
    ("revolution", {}, (2, 6)),
    ("mafia", {"version": "A"}, (5, 12)),
    ("mafia", {"version": "B"}, (5, 12)),
    ("mafia", {"version": "C"}, (5, 12)),
]
SEEDS = 10
MAX_STEPS = 300
WATCHER, MASTER_ID = 900, 901  # account ids; seat n is account n + 1


class Eyes:
    """A session as the World sees one (world/hub.py SessionLike): it keeps what it is sent,
    GMCP as the JSON a client would parse, text as the message key and its parameters."""

    kind, address, last_input, lang = "test", "127.0.0.1", 0.0, "en"

    def __init__(self, account: Any) -> None:
        self.account = account
        self.got: list[tuple[str, Any]] = []

    def render_key(self) -> tuple:
        return ("en", 80, False, "utf-8", "\n")

    def render(self, message: Any) -> Any:
        return message

    def write(self, rendered: Any) -> None:
        self.got.append(("text", canon([rendered.key, rendered.params])))

    def gmcp(self, package: str, data: Any) -> None:
        # As the client would read it; a View also as its view alone, to compare with view().
        self.got.append((package, canon(data)))
        if package == "Korchma.Game.View":
            self.got.append(("view", canon(data["view"])))

    async def close(self, message: Any = None) -> None:
        return None

    def views(self) -> list[str]:
        return [data for package, data in self.got if package == "view"]


def canon(view: Any) -> str:
    return json.dumps(view, sort_keys=True, default=str)


def distinct(views: list[str]) -> list[str]:
    """Consecutive repeats left out."""
    return [view for i, view in enumerate(views) if i == 0 or views[i - 1] != view]


class Harness:
    """One table: the real Table, TableRunner (its clock armed as it arms it) and World; the
    engine's steps applied here in the order the runner applies them, then its output side."""

    def __init__(self, game: str, options: dict[str, Any], players: int, seed: int) -> None:
        from server.config import load
        from world.hub import World
        from world.runner import TableRunner
        from world.tables import SeatInfo, Table

        self.engine = registry.get(game)
        self.world = World(load(ROOT / "config.toml"))
        seats = [SeatInfo(number=n, name=f"P{n}", account_id=n + 1) for n in range(players)]
        self.table = Table(number=7, game_name=game, engine=self.engine, options=self.engine.validate_options(options),
                           host="P0", seats_total=players, seed=seed, state_name="running", seats=seats,
                           watchers={WATCHER, MASTER_ID}, masters={MASTER_ID})
        manager = SimpleNamespace(world=self.world, at_table={})
        self.runner = TableRunner(manager, self.table)
        self.output = self.runner.output
        self.eyes: dict[int, list[Eyes]] = {}  # viewer -> its sessions
        for n in range(players):
            self.log_in(n, n + 1)
        self.log_in(0, 1)  # a second session of seat 0's account
        self.log_in(SPECTATOR, WATCHER)
        self.log_in(MASTER, MASTER_ID)
        self.table.game = self.engine.new(players, self.table.options, seed)

    def log_in(self, viewer: int, account_id: int) -> Eyes:
        account = SimpleNamespace(id=account_id, name=f"A{account_id}")
        eyes = Eyes(account)
        self.world.logged_in(eyes, account)
        self.runner.manager.at_table[account.id] = self.table.number
        self.eyes.setdefault(viewer, []).append(eyes)
        return eyes

    def viewers(self) -> list[int]:
        return list(self.eyes)

    def views(self) -> dict[int, str]:
        return {v: self.client_view(v) for v in self.viewers()}

    def client_view(self, viewer: int) -> str:
        """The viewer's view as its client reads it (in the sessions' language, English: a Mafia
        bot's letter is its text there, world/presenters gmcp_readable)."""
        from world.presenters import gmcp_readable

        view = self.engine.view(self.table.game, viewer)
        readable = gmcp_readable(self.table)
        return canon(readable(view, Eyes.lang) if readable is not None else view)

    def begin(self) -> None:
        self.runner._arm_window()
        self.output.send_status()
        self.output.send_awaiting()

    def step(self, seat: int, action: dict[str, Any]) -> list[Any]:
        events = self.engine.apply(self.table.game, seat, action)
        self.table.step += 1
        self.output.acted(seat, self.table.step)
        self.runner._arm_window()
        self.output.send_status()
        self.output.send_awaiting()
        return events

    def told(self, events: list[Any]) -> set[int]:
        """The viewers an event of this step reached (the Master hears them all)."""
        out = {MASTER} if events else set()
        for event in events:
            seats, watchers = self.output.recipients(event)
            out |= set(seats)
            if watchers:
                out.add(SPECTATOR)
        return out

    def awaited_as_seen(self, viewer: int) -> set[int]:
        """Whom `look` and the status lines show ``viewer`` the game waits for: with its view, all
        that `look` prints depends on (besides the clock)."""
        awaited = frozenset(a.seat for a in self.engine.awaiting(self.table.game))
        return self.output.seen.awaited(viewer, awaited)


def choose(engine: Any, state: Any, seat: int, default: Any, rng: random.Random) -> dict[str, Any]:
    """A bot's move, now and then a timeout's default or any simple legal action (a person)."""
    legal = engine.legal(state, seat)
    roll = rng.random()
    if default is not None and roll < 0.05:
        return default
    if roll < 0.12:
        simple = [a for a in legal if "need" not in a]
        if simple:
            return dict(rng.choice(simple))
    return engine.bot_action(engine.view(state, seat), legal, random.Random(rng.random()), rng.choice(["easy", "normal"]))


def play(game: str, options: dict[str, Any], seed: int) -> dict[str, int]:
    rng = random.Random(f"{game}:{seed}:{sorted(options.items())}")
    low, high = next(span for g, o, span in ENGINES if g == game)
    h = Harness(game, options, rng.randint(low, high), seed)
    h.begin()
    counts = {"steps": 0, "quiet": 0, "late_sessions": 0}
    before = h.views()
    seen = {v: [before[v]] for v in h.viewers()}  # each viewer's view after every step
    came = {id(e): 0 for sessions in h.eyes.values() for e in sessions}  # a session: from which step
    for _ in range(MAX_STEPS):
        state = h.table.game
        waits = h.engine.awaiting(state)
        if h.engine.outcome(state) is not None or not waits:
            break
        wait = rng.choice(waits)
        if not h.engine.legal(state, wait.seat):
            continue
        shown = {v: h.awaited_as_seen(v) for v in h.viewers()}
        marks = {id(e): len(e.got) for sessions in h.eyes.values() for e in sessions}
        events = h.step(wait.seat, choose(h.engine, state, wait.seat, wait.default, rng))
        counts["steps"] += 1
        after = h.views()
        told = h.told(events)
        for viewer in h.viewers():
            seen[viewer].append(after[viewer])
            if viewer == wait.seat or viewer in told or after[viewer] != before[viewer]:
                continue
            # Nothing this viewer may know of happened: it receives nothing, and `look` reads the same
            # (the same view, the same seats shown awaited).
            counts["quiet"] += 1
            for eyes in h.eyes[viewer]:
                got = eyes.got[marks[id(eyes)]:]
                assert not got, (game, options, seed, viewer, "was sent", got)
            if viewer != MASTER:
                assert h.awaited_as_seen(viewer) == shown[viewer], (game, options, seed, viewer, "`look` changed")
        before = after
        if rng.random() < 0.02:  # someone logs in again: the new session gets the view once
            viewer = rng.choice([v for v in h.viewers() if v != MASTER])
            account_id = WATCHER if viewer == SPECTATOR else viewer + 1
            marks = {id(e): len(e.got) for e in h.eyes[viewer]}
            eyes = h.log_in(viewer, account_id)
            h.output.show_view(account_id)
            h.output.send_awaiting()
            assert eyes.views() == [after[viewer]]
            for old in h.eyes[viewer][:-1]:  # the sessions that had it get nothing again
                assert not [g for g in old.got[marks[id(old)]:] if g[0] == "view"]
            came[id(eyes)] = len(seen[viewer]) - 1
            counts["late_sessions"] += 1
    # Each session's Views: its viewer's distinct consecutive views, from when it came in.
    for viewer, sessions in h.eyes.items():
        for eyes in sessions:
            assert eyes.views() == distinct(seen[viewer][came[id(eyes)]:]), (game, options, seed, viewer)
            assert_waits_numbered_in_turn(eyes, (game, options, seed, viewer))
    return counts


def assert_waits_numbered_in_turn(eyes: Eyes, where: Any) -> None:
    """A seat's waits are numbered one after another (Awaiting ``since``), and a question's id
    (``wait``) is the number of the wait it opened with: the numbers count the seat's own waits,
    never the table's steps, which would tell of actions the player cannot see."""
    sent = [json.loads(data) for package, data in eyes.got if package == "Korchma.Game.Awaiting"]
    numbers: list[int] = []
    for awaiting in sent:
        if not numbers or awaiting["since"] != numbers[-1]:
            assert not numbers or awaiting["since"] == numbers[-1] + 1, (where, numbers, awaiting)
            numbers.append(awaiting["since"])
        assert awaiting["wait"] is None or awaiting["wait"] in numbers, (where, numbers, awaiting)


def over_seeds(play: Any, game: str, options: dict[str, Any], seeds: int = SEEDS) -> dict[str, int]:
    """``play``'s counts, summed over seeded games."""
    totals: dict[str, int] = {}
    for seed in range(seeds):
        for key, value in play(game, options, seed).items():
            totals[key] = totals.get(key, 0) + value
    return totals


EVERY_ENGINE = pytest.mark.parametrize(
    "game,options", [(g, o) for g, o, _ in ENGINES],
    ids=[f"{g}-{'-'.join(map(str, o.values())) or 'default'}" for g, o, _ in ENGINES])


@EVERY_ENGINE
def test_each_viewer_gets_a_view_only_when_it_changed(game, options):
    totals = over_seeds(play, game, options)
    assert totals["steps"] > SEEDS * 10, totals
    if game == "mafia" or options.get("challenge_order") == "seat":
        # The games with secret answers (a `ready`, a challenge queued behind priority) had them.
        assert totals["quiet"] > 20, totals


# -- over the wire ---------------------------------------------------------------------------------

DIGITS = re.compile(r"\d+")


def hand_text(text: str, header: str, end: str) -> str:
    """The last `hand` printed in ``text`` (from the table's header to the end of its last line),
    numbers and line breaks evened out: the clock counts down between two of them."""
    start = text.rindex(header)
    stop = text.index(end, start) + len(end)
    return " ".join(DIGITS.sub("#", text[start:stop]).split())


async def _person(server: Any, door: str, name: str) -> Any:
    from tests.ssh_client import connect
    from tests.telnet_client import log_in

    if door == "telnet":
        return await log_in(server.telnet_port, name, gmcp=True, naws=(200, 50))
    client = await connect(server.ssh_port, name, password="secret1", width=200)
    await client.expect(name)
    client.send_line("lang en")
    await client.expect("Language: English")
    return client


async def three_at_coup(server: Any, door: str) -> tuple[Any, Any, Any, Any]:
    """Coup with challenge_order=seat for Анна (telnet, GMCP; she plays first: ``first=1``),
    Boris (seat 1, over ``door``) and Vera (seat 2, over the other door), watched by Гость
    (telnet, GMCP); started, Анна to move. (anna, boris, vera, guest)."""
    from tests.telnet_client import log_in

    other = "ssh" if door == "telnet" else "telnet"
    anna = await log_in(server.telnet_port, "Анна", gmcp=True, naws=(200, 50))
    number = await open_table(anna, "открыть переворот seats=3 first=1 turn=300 reaction=300")
    boris = await _person(server, door, "Boris")
    boris.send_line(f"join {number}")
    await boris.expect(SAYS[door]["sit"])
    vera = await _person(server, other, "Vera")
    vera.send_line(f"join {number}")
    await vera.expect(SAYS[other]["sit"])
    guest = await log_in(server.telnet_port, "Гость", gmcp=True, naws=(200, 50))
    guest.send_line(f"watch {number}")
    await guest.expect(str(number))
    anna.send_line("начать")
    await anna.expect("Ваш ход", timeout=10)
    return anna, boris, vera, guest


SAYS = {"telnet": {"sit": "Вы садитесь", "header": "Стол", "asked": "Можно ответить",
                   "hand": "карты", "end": "вызов (не верю) или пропустить."},
        "ssh": {"sit": "You sit down", "header": "Table", "asked": "You may answer",
                "hand": "hand", "end": "challenge or allow."}}


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_a_challenge_queued_behind_priority_tells_the_priority_seat_nothing(server, door):
    """Coup, challenge_order=seat, three people (seat 0 plays first: `first=1`). Анна claims the
    Duke; seat 1 has priority in the window, seat 2 challenges first: that challenge waits for
    seat 1 and nobody else may learn of it. Seat 1 (over ``door``) receives nothing at all: no
    GMCP View or Awaiting over telnet, no line over SSH; a watcher with GMCP receives no View; and
    seat 1's `hand` reads as before (seat 2 still "thinking"). Then seat 1 allows and the
    challenge takes effect."""
    from tests.telnet_client import log_in

    other = "ssh" if door == "telnet" else "telnet"
    anna, first, second, guest = await three_at_coup(server, door)
    anna.send_line("налог")
    await first.expect(SAYS[door]["asked"])
    await second.expect(SAYS[other]["asked"])
    first.send_line(SAYS[door]["hand"])
    await first.expect(SAYS[door]["end"])
    before = hand_text(first.text, SAYS[door]["header"], SAYS[door]["end"])
    assert "Vera" in before
    # The watcher has the View of the claim (the last change before the challenge).
    await guest.wait_for(lambda: any(name == "Korchma.Game.View" and data["view"].get("stage") == "challenge_action"
                                     for name, data in guest.gmcp_messages))
    marks = (len(first.text), len(getattr(first, "gmcp_messages", [])), len(guest.gmcp_messages))

    second.send_line("challenge" if other == "ssh" else "вызов")
    await second.expect(re.compile(r"It takes effect unless|Сработает, если никто"))
    # The step is over (its lines went out together); what seat 1 types now is answered after
    # anything that step sent it.
    first.send_line(SAYS[door]["hand"])
    await first.expect(SAYS[door]["end"])
    if door == "telnet":
        assert first.gmcp_messages[marks[1]:] == []
    assert [m for m in guest.gmcp_messages[marks[2]:] if m[0] == "Korchma.Game.View"] == []
    got = first.text[marks[0]:]
    at = got.index(SAYS[door]["header"])
    assert not got[:at].replace(SAYS[door]["hand"], "").replace(">", "").strip(), got[:at]
    assert hand_text(first.text, SAYS[door]["header"], SAYS[door]["end"]) == before

    first.send_line("allow" if door == "ssh" else "пропустить")
    await anna.expect("Вызов!")
    await first.expect(re.compile(r"Challenge!|Вызов!"))
    # Anna logs in a second time: that session gets the current view once (and again none for
    # `карты`, which it has); her first session gets no View for it.
    await anna.wait_for(lambda: any(name == "Korchma.Game.View" and data["view"]["stage"] == "prove"
                                    for name, data in anna.gmcp_messages))
    count = len(anna.gmcp_messages)
    again = await log_in(server.telnet_port, "Анна", create=False, gmcp=True, naws=(200, 50))
    again.send_line("карты")
    await again.expect("Ваши карты")
    await again.expect(">")
    views = [data for name, data in again.gmcp_messages if name == "Korchma.Game.View"]
    assert len(views) == 1 and views[0]["view"]["stage"] == "prove", views
    assert not [m for m in anna.gmcp_messages[count:] if m[0] == "Korchma.Game.View"]
    for client in (anna, again, first, second, guest):
        await client.close()
