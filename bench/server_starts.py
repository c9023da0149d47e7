#!/usr/bin/env python3
"""CPU a test server start costs: forked from tests/forkserver.py against a plain exec (baseline).

    .venv/bin/python bench/server_starts.py [N]     (default 20 starts per way)

Each way runs in a process of its own that starts and stops N servers the way tests/conftest.py
does (READY, then SIGTERM and wait); the figure is the user+sys CPU of every process it made
(servers, and the forkserver with its one-time imports), per start. CPU, not wall time, so the
figures mean something on a shared machine.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(n: int) -> None:
    sys.path.insert(0, str(ROOT))
    from tests import conftest
    from tests.conftest import TEST_CONFIG, ServerProcess, merge_toml

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="korchma-starts-") as tmp:
        for i in range(n):
            data = Path(tmp) / f"data-{i}"
            data.mkdir()
            config = Path(tmp) / f"config-{i}.toml"
            config.write_text(merge_toml(TEST_CONFIG, ""))
            ServerProcess(data_dir=data, config=config).start().terminate()
    if conftest._FORK is not None:
        conftest._FORK.close()  # reaps the forkserver, whose rusage holds its servers'
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{(usage.ru_utime + usage.ru_stime) / n:.3f} {(time.monotonic() - started) / n:.3f}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--measure":
        measure(int(sys.argv[2]))
        return
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{n} test server starts each way (CPU of every process made, per start; wall is noise on a shared machine)")
    results = {}
    for name, fork in (("exec (baseline)", "0"), ("forkserver", "1")):
        out = subprocess.run([sys.executable, __file__, "--measure", str(n)], cwd=ROOT, check=True,
                             capture_output=True, text=True, env={**os.environ, "KORCHMA_TEST_FORK": fork})
        cpu, wall = map(float, out.stdout.split())
        results[name] = cpu
        print(f"  {name:16s} {cpu:.3f} s CPU per start   ({wall:.2f} s wall)")
    base, new = results["exec (baseline)"], results["forkserver"]
    print(f"  saved {base - new:.3f} s CPU per start ({(base - new) / base:.0%})")


if __name__ == "__main__":
    main()
