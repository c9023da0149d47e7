"""The cluster's switches (issue 19, docs/cluster.md): `[cluster]` keys and the `--redis-url` and
`--node` flags of `korchma serve`, checked at start with one line each (a cluster needs a shared
PostgreSQL, a Redis URL, a lease renewed twice before it runs out); and the test Valkey server
(tests/valkey.py) that the cluster tests start, which redis-py's asyncio client talks to."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from server import config
from server.config_check import ConfigError
from tests.valkey import valkey  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[1]
PG = 'database_url = "postgres://k:k@127.0.0.1:5432/k"'


def test_cluster_keys_are_checked(tmp_path):
    path = tmp_path / "cluster.toml"
    path.write_text(f'[server]\n{PG}\n[cluster]\nredis_url = "redis://127.0.0.1:6379/0"\nnode = "a"\n')
    cfg = config.load(path)
    assert cfg.section("cluster")["node"] == "a" and cfg.section("cluster")["lease_seconds"] == 5.0
    assert config.load([]).section("cluster")["redis_url"] == ""
    for text, why in (
            ('[cluster]\nredis_url = "redis://h/0"', r"server\.database_url \(--database-url\) must then be a "
                                                     r"postgres:// URL, not the SQLite file"),
            (f'[server]\n{PG}\n[cluster]\nredis_url = "http://h"', "must be a redis://"),
            (f'[server]\n{PG}\n[cluster]\nredis_url = "redis://h"\nheartbeat_seconds = 3.0',
             "at most half of cluster.lease_seconds"),
            ('[cluster]\nlease_seconds = 0.5', r"cluster\.lease_seconds must be a number from 1 to 60"),
            ('[cluster]\nnodes = "a"', "did you mean")):
        path.write_text(text + "\n")
        with pytest.raises(ConfigError, match=why):
            config.load(path)


def test_serve_refuses_a_cluster_on_sqlite_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "server", "serve", "--data-dir", str(tmp_path),
                           "--redis-url", "redis://127.0.0.1:1/0", "--node", "n1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("korchma: --redis-url: cluster.redis_url turns several nodes on")
    assert "Traceback" not in done.stderr


async def test_the_test_valkey_answers_redis_py_and_can_be_killed(valkey):
    client = aioredis.from_url(valkey.url)
    try:
        assert await client.ping()
        await client.set("k", "v", px=5000)
        assert await client.get("k") == b"v"
        valkey.kill()
        with pytest.raises(aioredis.ConnectionError):
            await client.get("k")
        valkey.start()
        assert await client.get("k") is None  # no persistence: a killed server comes back empty
    finally:
        await client.aclose()
