#!/usr/bin/env python3
"""What a table's output side costs per step (issue 13: views, "thinking", GMCP View/Awaiting).

    .venv/bin/python bench/table_output_bench.py             (about 30 s)
    .venv/bin/python bench/table_output_bench.py --steps 100  (quicker, noisier)

No server, no database: the runner's ``TableOutput`` (world/table_output.py) after every step of
seeded bot games, as the runner calls it (``send_status``, then ``send_awaiting``), with a real
``World`` whose sessions only count what they are sent. Each row is one kind of table:

* bots alone, nobody watching (what most tables on a busy server are);
* people's seats whose players are all away (a forum-pace Mafia: its players come and go);
* the same seats with everyone there, each with a session, and a watcher: the baseline, measured
  in the same run. It is the work done for every viewer; before the output side skipped
  viewers nobody can read, a table of absent players cost 40-80 % of it (see bench/README.md).

Printed per row: the engine's step (``apply`` and the bot's choice) and the output's work, in
µs of CPU per step (``time.process_time``, the best of three rounds of ``--steps`` steps per
game), and the output's work as a share of the baseline's.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from server.config import load  # noqa: E402
from world.hub import World  # noqa: E402
from world.runner import TableRunner  # noqa: E402
from world.tables import SeatInfo, Table  # noqa: E402

GAMES = [("coup", {"challenge_order": "seat"}, 6), ("revolution", {}, 5), ("mafia", {"version": "C"}, 12)]
WATCHER = 900


class Screen:
    """A session as the World sees one: it counts what it is sent."""

    kind, address, last_input = "bench", "127.0.0.1", 0.0

    def __init__(self, account: Any) -> None:
        self.account = account
        self.sent = 0

    def render_key(self) -> tuple:
        return ("en", 80, False, "utf-8", "\n")

    def render(self, message: Any) -> Any:
        return message

    def write(self, rendered: Any) -> None:
        self.sent += 1

    def gmcp(self, package: str, data: Any) -> None:
        self.sent += 1

    async def close(self, message: Any = None) -> None:
        return None


def table_of(game: str, options: dict[str, Any], players: int, seed: int, kind: str) -> TableRunner:
    engine = registry.get(game)
    world = World(load(ROOT / "config.toml"))
    people = kind != "bots"
    seats = [SeatInfo(number=n, name=f"P{n}", account_id=n + 1 if people else None,
                      bot_level=None if people else "normal") for n in range(players)]
    table = Table(number=7, game_name=game, engine=engine, options=engine.validate_options(options), host="P0",
                  seats_total=players, seed=seed, state_name="running", seats=seats,
                  watchers={WATCHER} if kind == "here" else set())
    runner = TableRunner(SimpleNamespace(world=world, at_table={}), table)
    if kind == "here":
        for account_id in [n + 1 for n in range(players)] + [WATCHER]:
            account = SimpleNamespace(id=account_id, name=f"A{account_id}")
            world.logged_in(Screen(account), account)
            runner.manager.at_table[account_id] = table.number
    table.game = engine.new(players, table.options, seed)
    return runner


def run(game: str, options: dict[str, Any], players: int, kind: str, steps: int) -> tuple[float, float, int]:
    """(engine µs per step, output µs per step, steps): seeded games until ``steps`` steps."""
    engine_time = output_time = 0.0
    done = seed = 0
    while done < steps:
        runner = table_of(game, options, players, seed, kind)
        table, engine, output = runner.table, runner.engine, runner.output
        rng = random.Random(seed)
        seed += 1
        runner._arm_window()
        output.send_status()
        output.send_awaiting()
        while done < steps:
            start = time.process_time()
            waits = engine.awaiting(table.game)
            if not waits or engine.outcome(table.game) is not None:
                break
            seat = rng.choice(waits).seat
            legal = engine.legal(table.game, seat)
            action = engine.bot_action(engine.view(table.game, seat), legal, random.Random(rng.random()), "normal")
            engine.apply(table.game, seat, action)
            table.step += 1
            middle = time.process_time()
            output.acted(seat, table.step)
            runner._arm_window()
            output.send_status()
            output.send_awaiting()
            end = time.process_time()
            engine_time += middle - start
            output_time += end - middle
            done += 1
    return engine_time / done * 1e6, output_time / done * 1e6, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1500, help="steps per row and round")
    args = parser.parse_args()
    print(f"{'table':<40}{'engine µs/step':>16}{'output µs/step':>16}{'of baseline':>13}")
    for game, options, players in GAMES:
        rows = {}
        for kind, label in (("here", "everyone here (baseline)"), ("away", "people, all away"),
                            ("bots", "bots, nobody watching")):
            rounds = [run(game, options, players, kind, args.steps) for _ in range(3)]
            rows[kind] = (min(r[0] for r in rounds), min(r[1] for r in rounds))
            share = rows[kind][1] / rows["here"][1] * 100
            print(f"{f'{game} x{players}: {label}':<40}{rows[kind][0]:>16.0f}{rows[kind][1]:>16.0f}{share:>12.0f}%")


if __name__ == "__main__":
    main()
