#!/usr/bin/env python3
"""Forum Mafia engine benchmark: the time to resolve one night of a 30-player bot game.

    python bench/mafia_bench.py            (a few seconds)
    python bench/mafia_bench.py --runs 500

A 30-player game (every secret role of version C dealt; 21 Гражданские) is played by bots up to
night 2 (night 1 forbids Снайпер, Кара and Нападение). Then every living seat gives its bots'
orders for the night, and, for the seats whose bot chose not to, each secret role gets one
order of each of its night abilities it can still give, so every role acts. The night is
resolved (``resolve_night``: blocks, personas, attacks, deaths, regeneration, jail, information,
mail, growth) on fresh copies of that position; the figure is CPU time per resolution
(``time.process_time``). Target: at most 5 ms. Prints numbers, asserts nothing.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.mafia import GAME  # noqa: E402
from games.mafia import abilities as AB  # noqa: E402
from games.mafia import resolution as RES  # noqa: E402

TARGET_MS = 5.0
FILL = {"role": "boss", "persona": "maniac", "personas": ["boss", "killer"], "public": "#1",
        "bans": [["boss", "interrogation"], ["killer", "pistol"], ["maniac", "assault"]], "text": "hi"}


def position(seed: int):
    rng = random.Random(seed)
    s = GAME.new(30, {}, seed)
    while s.index < 2:  # night 1 and day 1 by bots
        waits = GAME.awaiting(s)
        seat = waits[rng.randrange(len(waits))].seat
        GAME.apply(s, seat, GAME.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "easy"))
    if GAME.outcome(s) is not None:
        return None
    for seat in s.living():  # every living seat gives its bot's orders
        for _ in range(12):
            action = GAME.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "easy")
            if action["type"] == "ready":
                break
            GAME.apply(s, seat, action)
    for seat in s.living():  # and each role uses whatever night ability its bot left out
        for action in GAME.legal(s, seat):
            if action["type"] != "order" or action["ability"] in s.orders[seat]:
                continue
            if AB.abilities(s, seat)[action["ability"]].phase != "night":
                continue
            filled = {k: v for k, v in action.items() if k != "need"}
            for arg in action.get("need", ()):
                filled[arg] = FILL[arg]
            try:
                GAME.apply(s, seat, filled)
            except Exception:
                pass
    return s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seed = args.seed
    s = position(seed)
    while s is None:
        seed += 1
        s = position(seed)
    roles = sorted({s.roles[x] for x in s.living() if s.orders[x]})
    orders = sum(len(o) for o in s.orders)
    copies = [s.copy() for _ in range(args.runs)]
    times = []
    for c in copies:
        start = time.process_time()
        RES.resolve_night(c)
        times.append((time.process_time() - start) * 1000)
    print(f"mafia night resolution, 30 players, seed {seed}: {len(s.living())} living, {orders} orders, "
          f"roles acting: {', '.join(roles)}")
    print(f"  runs {len(times)}  median {statistics.median(times):.3f} ms  mean {statistics.mean(times):.3f} ms  "
          f"max {max(times):.3f} ms  (target <= {TARGET_MS} ms)")
    # the whole phase change as the server sees it: the last ready, resolution and the next phase start
    total = []
    for c in [s.copy() for _ in range(50)]:
        last = [w.seat for w in GAME.awaiting(c)]
        t0 = time.process_time()
        for seat in last:
            GAME.apply(c, seat, {"type": "ready"})
        total.append((time.process_time() - t0) * 1000)
    print(f"  all {len(GAME.awaiting(s))} seats say ready, resolve and start the day: "
          f"median {statistics.median(total):.3f} ms")


if __name__ == "__main__":
    main()
