#!/usr/bin/env python3
"""Say latency while other people log in: does password hashing stall the event loop?

    .venv/bin/python bench/login_storm.py [--listeners 50] [--logins 30] [--says 60]

Starts Korchma (temporary data folder, free ports), logs in a speaker and N listeners, then the
speaker says something every 0.22 s; during the middle third of the says, new accounts log in
over telnet (each costs one argon2 hash) and, if --ssh, over SSH. Prints say latency (send ->
arrival at a listener) before/after the storm and during it. Stops everything it started.
"""
from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_all  # noqa: E402
from procs import raise_nofile  # noqa: E402


async def main(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="korchma-storm-"))
    texts = run_all.LoginTexts(run_all.ROOT / "config.toml")
    srv = run_all.korchma_server(tmp, "storm")
    clients = []
    try:
        m = await srv.start()
        port = int(m.group(1))
        names = run_all.unique_names("Stm", args.listeners + 1)
        clients, errors, secs = await run_all.open_many(
            lambda i: run_all.korchma_login(port, texts, names[i]), args.listeners + 1, 8, "logins")
        print(f"{len(clients)} logged in in {secs:.1f}s ({secs / max(1, len(clients)) * 1000:.0f} ms each)")
        speaker, listeners = clients[0], clients[1:]
        sent: dict[int, float] = {}
        got: dict[int, list[float]] = {}

        def sink(chunk: bytes) -> None:
            t = time.perf_counter()
            for mt in run_all.TOKEN_RE.finditer(chunk):
                got.setdefault(int(mt.group(1)), []).append(t)

        for c in listeners:
            c.sink = sink
        storm_names = run_all.unique_names("New", args.logins)
        storm_window: list[float] = []

        async def storm() -> None:
            await asyncio.sleep(args.says * 0.22 / 3)
            storm_window.append(time.perf_counter())
            jobs = [run_all.korchma_login(port, texts, n) for n in storm_names]
            if args.ssh and run_all.asyncssh is not None:
                jobs += [run_all.ssh_login(int(m.group(2)), n + "s", texts.welcome) for n in storm_names[:args.ssh]]
            sem = asyncio.Semaphore(4)

            async def one(job):
                async with sem:
                    return await job
            done = await asyncio.gather(*(one(j) for j in jobs), return_exceptions=True)
            storm_window.append(time.perf_counter())
            for d in done:
                if not isinstance(d, BaseException):
                    d.close()

        storm_task = asyncio.create_task(storm())
        for seq in range(args.says):
            sent[seq] = time.perf_counter()
            speaker.send_line(f"say ZQ{seq:05d}Q")
            await asyncio.sleep(0.22)
        await storm_task
        await asyncio.sleep(2.0)
        start, end = storm_window
        calm, stormy = [], []
        for seq, t0 in sent.items():
            lat = [(t - t0) * 1000 for t in got.get(seq, [])]
            (stormy if start <= t0 <= end else calm).extend(lat)
        for label, lat in (("calm", calm), ("during logins", stormy)):
            lat.sort()
            print(f"say latency {label:>14}: n={len(lat):6d}  p50 {run_all.fmt(run_all.pct(lat, 50), ' ms', 1)}"
                  f"  p99 {run_all.fmt(run_all.pct(lat, 99), ' ms', 1)}  max {run_all.fmt(lat[-1] if lat else None, ' ms', 1)}")
        print(f"storm: {len(storm_names)} telnet logins in {end - start:.1f}s")
    finally:
        run_all.close_all(clients)
        await asyncio.sleep(0.3)
        await srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listeners", type=int, default=50)
    parser.add_argument("--logins", type=int, default=30)
    parser.add_argument("--says", type=int, default=60)
    parser.add_argument("--ssh", type=int, default=0, help="also this many SSH logins in the storm")
    raise_nofile()
    asyncio.run(asyncio.wait_for(main(parser.parse_args()), 300))
