"""What a test does when this machine lacks a service it needs (PostgreSQL, a tmpfs mount)."""
from __future__ import annotations

import os

import pytest


def missing(why: str) -> None:
    """Skip the test, saying why; where the project's CI set KORCHMA_REQUIRE_SERVICES (.ci/run
    installs every service first), fail instead: a skipped test there would prove nothing."""
    if os.environ.get("KORCHMA_REQUIRE_SERVICES"):
        pytest.fail(f"required by KORCHMA_REQUIRE_SERVICES: {why}")
    pytest.skip(why)
