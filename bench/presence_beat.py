"""What a cluster node's heartbeat costs in CPU (world/cluster/presence.py), beside a rebuild of
every entry (what each heartbeat would cost without the change tracking), measured in the same run.

    python bench/presence_beat.py [--online 10000] [--typed 500]

A World with ``--online`` accounts in the hall (one telnet session each, no server, no Redis: the
commands go to a pipeline that only counts them), ``--typed`` of whom typed since the last beat.
"""
from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server import config  # noqa: E402
from world.cluster.presence import Presence, presence_entry  # noqa: E402
from world.hub import World  # noqa: E402


class CountingPipe:
    def __init__(self) -> None:
        self.fields = 0

    def hset(self, key, mapping):
        self.fields += len(mapping)

    def hdel(self, key, *fields):
        self.fields += len(fields)

    def delete(self, *keys):
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--online", type=int, default=10_000)
    parser.add_argument("--typed", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    world = World(config.load([]))
    for i in range(args.online):
        account = types.SimpleNamespace(id=i, name=f"Player{i:05d}", role="player")
        world.by_account[i].append(types.SimpleNamespace(kind="telnet", address="127.0.0.1",
                                                         last_input=time.monotonic(), account=account))
        world.accounts[i] = account
        world.location[i] = "hall"
    presence = Presence(world, None, "bench", None, 5, 1)
    pushed = {a: presence_entry(world, a) for a in world.accounts}
    step = max(1, args.online // max(1, args.typed))
    best_tracked = best_full = float("inf")
    for round_ in range(args.rounds):
        typed = set(range(round_ % step, args.online, step))
        for account_id in typed:  # they typed: their last input moved on
            world.by_account[account_id][0].last_input = time.monotonic() - round_ - 1
        pipe = CountingPipe()
        t0 = time.perf_counter()
        entries = presence._updated(pushed, typed | (world.accounts.keys() - pushed.keys()))
        Presence._write(pipe, "k", entries, pushed)
        t1 = time.perf_counter()
        full = {a: presence_entry(world, a) for a in list(world.accounts)}
        Presence._write(CountingPipe(), "k", full, pushed)
        t2 = time.perf_counter()
        best_tracked, best_full = min(best_tracked, t1 - t0), min(best_full, t2 - t1)
        pushed = entries
    print(f"online {args.online}, typed since the last beat {len(typed)}; best of {args.rounds}:")
    print(f"  heartbeat (tracked changes):   {best_tracked * 1000:7.1f} ms, {pipe.fields} fields written")
    print(f"  every entry built and compared: {best_full * 1000:7.1f} ms (done every 30 beats)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
