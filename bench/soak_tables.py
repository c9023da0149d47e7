#!/usr/bin/env python3
"""Soak: 1,000 finished bot games on one server process; its RSS must stay flat.

    python bench/soak_tables.py                  (or: make bench; about 2-4 minutes)
    python bench/soak_tables.py --games 300      (shorter)
    python bench/soak_tables.py --no-baseline    (only this tree)

A real server (temporary data folder, on /dev/shm when there is one, free ports, 127.0.0.1) and
``--players`` raw-socket telnet clients. Each client plays Sealed Bids games one after another:
`open bids rounds=3`, `bots 2`, `start`, then `fold` in each of the three rounds (the bots bid at
once: tables.bot_delay = 0; the flood guard is opened for these scripted players), and when the game is over it opens the next table, which takes it
from the finished one. The server's VmRSS (/proc/PID/status) is read after 100, 250, 500 and
1,000 finished games.

The baseline is the same run against the commit before finished tables let go of their runner
(``--baseline``, default below), checked out into a temporary git worktree and run with the same
Python; every finished table stayed in memory there. Printed: RSS at each mark for both, and
the growth per game from the first mark to the last (about 0 when memory is flat).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from procs import ServerProcess, raise_nofile  # noqa: E402
from run_all import LoginTexts, korchma_login, log, unique_names  # noqa: E402

BASELINE = "9e0ba0b"  # the last commit where every finished table kept its TableRunner in memory
MARKS = (100, 250, 500, 1000)
# A machine plays here: bots at once, no flood guard, and no guard against a typed answer that
# repeats the last one (each round's "fold" would be refused as meant for the round before).
EXTRA_CONFIG = """
[server]
negotiation_wait = 0.3
[tables]
bot_delay = 0
answer_guard = 0
[limits]
commands_per_second = 1000
command_burst = 1000
"""
OPENED = re.compile(rb"You open table (\d+) ")
OVER = re.compile(rb"Game over at table (\d+)")


class Soak:
    def __init__(self, srv: ServerProcess, games: int, marks: tuple[int, ...]) -> None:
        self.srv = srv
        self.games = games
        self.marks = [m for m in marks if m <= games]
        self.started = 0
        self.finished = 0
        self.rss: dict[int, int] = {}

    def claim(self) -> bool:
        """A worker may open one more table (so that no more than ``games`` are played)."""
        if self.started >= self.games:
            return False
        self.started += 1
        return True

    def done_one(self) -> None:
        self.finished += 1
        if self.finished in self.marks:
            self.rss[self.finished] = self.srv.rss_kib()
            log(f"  {self.srv.name}: {self.finished} games, RSS {self.rss[self.finished] / 1024:.1f} MiB")


async def play_games(port: int, texts: LoginTexts, name: str, soak: Soak) -> None:
    client = await korchma_login(port, texts, name)
    client.discard = False
    client.send_line("lang en")
    await client.expect(b"Language: English")
    try:
        while soak.claim():
            client.send_line("open bids rounds=3")
            await client.expect(OPENED)
            number = int(client.match.group(1))
            client.send_line("bots 2")
            await client.expect(b"2 bots.")
            client.send_line("start")
            await client.expect(b"Sealed Bids begins")
            for _ in range(3):
                await client.expect(b"Round ")
                client.send_line("fold")
            await client.expect(OVER)
            assert int(client.match.group(1)) == number, (number, client.match.group(0))
            soak.done_one()
    finally:
        client.close()


async def soak_server(tag: str, tree: Path, tmp: Path, games: int, players: int,
                      marks: tuple[int, ...]) -> dict[int, int]:
    data = Path(tempfile.mkdtemp(prefix=f"korchma-soak-{tag}-", dir="/dev/shm" if Path("/dev/shm").is_dir() else tmp))
    extra = tmp / f"soak-{tag}.toml"
    extra.write_text(EXTRA_CONFIG)
    argv = [sys.executable, "-m", "server", "serve", "--config", "config.toml", "--config", str(extra),
            "--telnet-port", "0", "--ssh-port", "0", "--data-dir", str(data)]
    srv = ServerProcess(f"korchma-{tag}", argv, r"KORCHMA READY telnet=(\d+) ssh=(\d+)", tmp / f"soak-{tag}.log",
                        tree)
    match = await srv.start()
    port = int(match.group(1))
    try:
        texts = LoginTexts(tree / "config.toml")
        soak = Soak(srv, games, marks)
        began = time.monotonic()
        await asyncio.gather(*(play_games(port, texts, name, soak)
                               for name in unique_names("Soak", players)))
        log(f"  {tag}: {soak.finished} games in {time.monotonic() - began:.0f} s")
        return soak.rss
    finally:
        await srv.stop()
        subprocess.run(["rm", "-rf", str(data)], check=False)


def checkout(ref: str, where: Path) -> Path | None:
    done = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), ref],
                          capture_output=True, text=True)
    if done.returncode != 0:
        log(f"baseline {ref} skipped: {done.stderr.strip()}")
        return None
    return where


def remove_checkout(where: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], capture_output=True)


def growth(rss: dict[int, int], first: int, last: int) -> float:
    return (rss[last] - rss[first]) / (last - first)


def report(results: dict[str, dict[int, int]]) -> None:
    marks = sorted({m for rss in results.values() for m in rss})
    names = list(results)
    width = max(18, *(len(name) + 2 for name in names))
    print()
    print("Soak: finished Sealed Bids games with bots, server VmRSS in MiB")
    print(f"{'games':>10}" + "".join(f"{name:>{width}}" for name in names))
    for mark in marks:
        row = "".join(f"{results[name][mark] / 1024:>{width}.1f}" if mark in results[name] else f"{'-':>{width}}"
                      for name in names)
        print(f"{mark:>10}{row}")
    if len(marks) >= 2:
        spans = [(marks[0], marks[-1])] + ([(marks[-2], marks[-1])] if len(marks) > 2 else [])
        for first, last in spans:
            cells = "".join(f"{growth(results[name], first, last):>{width}.2f}"
                            if first in results[name] and last in results[name] else f"{'-':>{width}}"
                            for name in names)
            print(f"{'KiB/game':>10}{cells}   (growth from {first} to {last} games)")
    print("Target: flat (growth per game about 0, far below the baseline's). The first 2-3 MiB are mostly"
          " SQLite's page cache filling as the database grows (bench/README.md).")


async def main_async(args: argparse.Namespace) -> int:
    raise_nofile()
    with tempfile.TemporaryDirectory(prefix="korchma-soak-") as tmpdir:
        tmp = Path(tmpdir)
        results: dict[str, dict[int, int]] = {}
        log(f"this tree: {args.games} games, {args.players} players")
        results["this tree"] = await soak_server("now", ROOT, tmp, args.games, args.players, args.marks)
        if args.baseline:
            tree = checkout(args.baseline, tmp / "baseline")
            if tree is not None:
                try:
                    log(f"baseline {args.baseline}: {args.games} games")
                    results[f"baseline {args.baseline}"] = await soak_server("base", tree, tmp, args.games,
                                                                             args.players, args.marks)
                finally:
                    remove_checkout(tree)
        report(results)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=8, help="clients playing at once")
    parser.add_argument("--marks", type=lambda text: tuple(int(x) for x in text.split(",")), default=MARKS,
                        help="after how many finished games to read the RSS (default 100,250,500,1000)")
    parser.add_argument("--baseline", default=BASELINE, help="git ref to compare with")
    parser.add_argument("--no-baseline", dest="baseline", action="store_const", const="")
    args = parser.parse_args()
    os.chdir(ROOT)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
