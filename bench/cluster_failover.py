"""How long a game stands still when its node goes (issue 19): `kill -9` of the owning node, and
`korchma drain` of it, beside the game's own pace measured in the same run.

    python bench/cluster_failover.py              (3 rounds of each)
    python bench/cluster_failover.py --rounds 1   (a smoke test)

Two nodes on one PostgreSQL and one Valkey, with the shipped lease (5 s) and heartbeat (1 s) and
the shipped bot delay (1 s). Node b stays up; a watcher on b (telnet) watches each game. Each
round starts a fresh node, where a host opens Coup with three bots, starts it, leaves (a bot plays
the seat) and goes; the watcher on b watches the table (forwarded to its node). Then, after a
few moves, that node is killed with SIGKILL, or drained with `korchma drain`, and b takes the table.

Printed for each way, as the median over the rounds (and the worst):
- the game's pace: the median gap between two lines of the game the watcher sees before the end
  of its node (the baseline: what a player waits anyway);
- to "moved": from the kill (or the drain's request) to the watcher's line that the table moved;
- to the next event: from the kill (or the request) to the first line of the game after that,
  i.e. the game moving again on b.
Everything runs on 127.0.0.1 in a temporary folder and is stopped at the end.
"""
from __future__ import annotations

import argparse
import asyncio
import re
import signal
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import run_all as ra  # noqa: E402  (re-runs this under .venv/bin/python when needed)
from cluster_say import korchma, node_config, services  # noqa: E402

MOVED = re.compile(rb"Table (\d+) has moved")
# What the game says after a step begins a chunk with a line break (the prompt was the last thing
# on the screen); the view the watcher is shown again after the move is not a step.
NOT_A_STEP = re.compile(rb"has moved|did not answer|You watch|^\r\nTable \d+: ")


def is_step(chunk: bytes) -> bool:
    return chunk.startswith(b"\r\n") and not NOT_A_STEP.search(chunk)


class Eyes:
    """The watcher's arrivals: the moment of each chunk, and of the "moved" line."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, bytes]] = []

    def sink(self, chunk: bytes) -> None:
        self.chunks.append((time.perf_counter(), chunk))

    def since(self, t: float) -> list[tuple[float, bytes]]:
        return [(at, c) for at, c in self.chunks if at >= t]


def pace(chunks: list[tuple[float, bytes]]) -> float | None:
    """Median gap between two steps of the game."""
    moments = [at for at, chunk in chunks if is_step(chunk)]
    gaps = [b - a for a, b in zip(moments, moments[1:])]
    return statistics.median(gaps) if gaps else None


async def one_round(tmp: Path, db: str, valkey_url: str, texts, watcher, eyes: Eyes, tag: str, how: str,
                    dump: bool = False) -> dict:
    config = node_config(tmp, tag, db, valkey_url)
    node = korchma(tmp, tag, config)
    port = int((await node.start()).group(1))
    host = await ra.korchma_login(port, texts, f"Host{tag}")
    host.discard = False
    try:
        host.send_line("lang en")
        await host.expect(b"English", timeout=10)
        host.send_line("open coup seats=4")
        await host.expect(re.compile(rb"You open table (\d+)"), timeout=10)
        number = int(host.match.group(1))
        host.send_line("bots 3")
        await host.expect(b"3 bot", timeout=10)
        host.send_line("start")
        await host.expect(b"Coup begins", timeout=10)
        host.send_line("leave")
        await host.expect(b"a bot plays your seat", timeout=10)
    finally:
        host.close()
    watcher.send_line("leave")  # the last round's table, if still there
    await asyncio.sleep(0.5)
    watcher.send_line(f"watch {number}")
    await asyncio.sleep(6.0)  # a few moves at the game's own pace
    before = time.perf_counter()
    watched = eyes.since(before - 5.5)
    if how == "kill -9":
        t0 = time.perf_counter()
        node.proc.send_signal(signal.SIGKILL)
        await node.proc.wait()
    else:
        t0 = time.perf_counter()
        drain = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server", "drain", "--config", "config.toml", "--config", str(config),
            "--data-dir", str(tmp / f"data-{tag}"), cwd=str(ra.ROOT),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await drain.communicate()
        if drain.returncode != 0:
            raise RuntimeError(f"drain failed: {err.decode().strip()}")
    moved_at = event_at = None
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and event_at is None:
        await asyncio.sleep(0.02)
        for at, chunk in eyes.since(t0):
            if moved_at is None and MOVED.search(chunk):
                moved_at = at
            elif moved_at is not None and at > moved_at and is_step(chunk):
                event_at = at
                break
    if dump:
        for at, chunk in eyes.since(before - 5.5):
            print(f"{at - t0:8.3f} {chunk[:150]!r}")
    return {"pace": pace(watched), "moved": None if moved_at is None else moved_at - t0,
            "event": None if event_at is None else event_at - t0, "table": number}


async def run(args) -> dict:
    texts = ra.LoginTexts(ra.ROOT / "config.toml")
    results: dict[str, list[dict]] = {"kill -9": [], "drain": []}
    async with services("korchma-cluster-failover-bench-") as (tmp, pg, valkey):
        db = pg.create_database("shared")
        survivor = korchma(tmp, "b", node_config(tmp, "b", db, valkey.url))
        port = int((await survivor.start()).group(1))
        watcher = await ra.korchma_login(port, texts, "Watcher")
        try:
            watcher.send_line("lang en")
            await asyncio.sleep(0.5)
            eyes = Eyes()
            watcher.sink = eyes.sink
            for r in range(args.rounds):
                for how in ("kill -9", "drain"):
                    tag = f"{'k' if how == 'kill -9' else 'd'}{r}"
                    result = await one_round(tmp, db, valkey.url, texts, watcher, eyes, tag, how, args.dump)
                    ra.log(f"{how}, round {r + 1}: table {result['table']}: moved after {ra.fmt(result['moved'], ' s', 2)}, "
                           f"next event after {ra.fmt(result['event'], ' s', 2)} (pace {ra.fmt(result['pace'], ' s', 2)})")
                    results[how].append(result)
        finally:
            ra.close_all([watcher])
    return results


def report(results: dict) -> None:
    print(f"{'':34} {'kill -9':>10} {'drain':>10}")
    for label, key in (("game pace (gap between lines), s", "pace"), ("to 'table moved', s", "moved"),
                       ("to the next event, s", "event")):
        cells = []
        for how in ("kill -9", "drain"):
            values = [r[key] for r in results[how] if r[key] is not None]
            cells.append(f"{statistics.median(values):.2f}" if values else "n/a")
        print(f"{label:34} {cells[0]:>10} {cells[1]:>10}")
    for how in ("kill -9", "drain"):
        events = [r["event"] for r in results[how] if r["event"] is not None]
        print(f"{how}: next event within {max(events):.2f} s in the worst of {len(results[how])} rounds"
              if events else f"{how}: the game never moved again")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each way (default 3)")
    parser.add_argument("--dump", action="store_true", help="print what the watcher saw around each move")
    args = parser.parse_args()
    results = asyncio.run(asyncio.wait_for(run(args), 900))
    report(results)
    return 0 if all(r["event"] is not None for rs in results.values() for r in rs) else 1


if __name__ == "__main__":
    sys.exit(main())
