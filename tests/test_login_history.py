"""The login history behind `where NAME` stays bounded (world/login_history.py): one row per
(account, door, address) counting its logins, an account's 20 latest pairs, none older than 90
days. A real SQLite database in this process; the wire side is tests/test_admin_tools.py."""
from __future__ import annotations

from datetime import timedelta

from world import accounts, db, login_history
from world.models import Account, LoginRecord


async def test_the_history_counts_pairs_and_keeps_the_latest_twenty(tmp_path):
    await db.init(f"sqlite://{tmp_path / 'h.sqlite3'}")
    try:
        anna = await Account.create(name="Анна", name_key=accounts.name_key("Анна"))
        boris = await Account.create(name="Boris", name_key=accounts.name_key("Boris"))
        stale = accounts.now() - timedelta(days=login_history.KEEP_DAYS + 1)
        await LoginRecord.create(account=anna, door="ssh", address="10.0.0.99", last_seen=stale)
        await login_history.record(boris, "ssh", "192.0.2.1")
        for i in range(25):
            await login_history.record(anna, "telnet", f"10.0.0.{i}")
        await login_history.record(anna, "telnet", "10.0.0.24")
        await login_history.record(anna, "ssh", "10.0.0.24")
        rows = await login_history.recent(anna.id)
        assert len(rows) == login_history.KEEP_PER_ACCOUNT
        assert [(r.door, r.address, r.count) for r in rows[:2]] == [("ssh", "10.0.0.24", 1), ("telnet", "10.0.0.24", 2)]
        kept = {r.address for r in rows}
        assert "10.0.0.99" not in kept  # older than 90 days
        assert {"10.0.0.0", "10.0.0.5"}.isdisjoint(kept) and "10.0.0.6" in kept  # the oldest went
        assert [(r.door, r.address) for r in await login_history.recent(boris.id)] == [("ssh", "192.0.2.1")]
    finally:
        await db.close()
