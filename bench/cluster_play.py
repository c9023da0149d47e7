"""A move-like line at a table across nodes (issue 19, part 3), beside the same line typed on the
table's own node, measured in the same run.

    python bench/cluster_play.py             (200 lines each)
    python bench/cluster_play.py --quick     (30 lines each)

Two nodes on one PostgreSQL and one Valkey; a host on node a opens a table (Coup, not started),
one player on node a and one on node b sit down at it. Each in turn says a line at the table
(`say`, which runs the table's command path at the owner: for the player on b it is forwarded
to a, run there in the remote session proxy, and its echo comes back over the bus); the time from
sending to the player's own echo is printed as p50/p99 for both. Everything runs on 127.0.0.1
in a temporary folder and is stopped at the end.
"""
from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import run_all as ra  # noqa: E402  (re-runs this under .venv/bin/python when needed)
from cluster_say import korchma, node_config, services  # noqa: E402
from procs import raise_nofile  # noqa: E402




async def lines(players: list[tuple[str, object]], count: int, spacing: float) -> dict[str, dict]:
    """Each (key, player): ``count`` lines said at the table, alternating; time to one's own echo."""
    sent = {key: [0.0] * count for key, _ in players}
    got: dict[str, list[float | None]] = {key: [None] * count for key, _ in players}
    marks = {key: f"Z{i}P" for i, (key, _) in enumerate(players)}  # each hears the other's lines too
    for key, player in players:
        pattern = re.compile(marks[key].encode() + rb"(\d{5})P")

        def sink(chunk: bytes, key: str = key, pattern: re.Pattern = pattern) -> None:
            t = time.perf_counter()
            for m in pattern.finditer(chunk):
                seq = int(m.group(1))
                if seq < count and got[key][seq] is None:
                    got[key][seq] = t
        player.sink = sink
    for seq in range(count):
        for key, player in players:
            sent[key][seq] = time.perf_counter()
            player.send_line(f"say {marks[key]}{seq:05d}P")
            await asyncio.sleep(spacing / len(players))
    await asyncio.sleep(2.0)
    out = {}
    for key, player in players:
        player.sink = None
        lat = sorted((g - s) * 1000 for g, s in zip(got[key], sent[key]) if g is not None)
        out[key] = {"lines": count, "arrived": len(lat), "p50_ms": ra.pct(lat, 50), "p99_ms": ra.pct(lat, 99)}
    return out


async def run(args) -> dict:
    texts = ra.LoginTexts(ra.ROOT / "config.toml")
    clients: list = []
    async with services("korchma-cluster-play-bench-") as (tmp, pg, valkey):
        try:
            db = pg.create_database("shared")
            nodes = [korchma(tmp, n, node_config(tmp, n, db, valkey.url)) for n in ("a", "b")]
            ports = [int((await srv.start()).group(1)) for srv in nodes]  # one after the other: a migrates
            for port, name in ((ports[0], "Хозяин"), (ports[0], "Ближний"), (ports[1], "Дальний")):
                clients.append(await ra.korchma_login(port, texts, name))
            host, near, far = clients
            host.send_line("open coup seats=4")
            await asyncio.sleep(1.0)
            for player in (near, far):
                player.send_line("join 1")  # a new database: the first table
            await asyncio.sleep(1.5)
            ra.log(f"table lines: {args.lines} each, every {args.spacing}s, interleaved")
            return await lines([("on the owner", near), ("on another node", far)], args.lines, args.spacing)
        finally:
            ra.close_all(clients)


def report(results: dict) -> None:
    near, far = results["on the owner"], results["on another node"]
    print(f"{'':28} {'on the owner':>13} {'another node':>13} {'ratio':>7}")
    for label, key in (("table line p50, ms", "p50_ms"), ("table line p99, ms", "p99_ms")):
        a, b = near.get(key), far.get(key)
        r = ra.ratio(b, a)
        print(f"{label:28} {ra.fmt(a):>13} {ra.fmt(b):>13} {ra.fmt(r, 'x', 2) if r else '-':>7}")
    print(f"echoes arrived: {near['arrived']} and {far['arrived']} of {near['lines']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=200, help="lines timed for each player (default 200)")
    parser.add_argument("--spacing", type=float, default=0.45, help="seconds between rounds (under the flood limit)")
    parser.add_argument("--quick", action="store_true", help="30 lines each")
    args = parser.parse_args()
    if args.quick:
        args.lines = 30
    raise_nofile()
    results = asyncio.run(asyncio.wait_for(run(args), 600))
    report(results)
    return 0 if all(r["arrived"] == r["lines"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
