"""The database schema: tortoise-orm's own migrations (world/migrations/), applied at start.

``migrate()`` brings the open database ("default" connection) to the newest migration and says
which it applied. A database made before migrations existed (Korchma's generate_schemas and its
list of added columns) is adopted on the way: its tables are there but tortoise's
``tortoise_migrations`` table is not, so the initial migration (the tables as they were first
released) is recorded as applied without running it, and 0002 adds whichever of the later
columns that database still lacks (it looks before it adds). Nothing is dropped or rewritten.

A developer makes the next migration after changing world/models.py with ``make migration
NAME=what_changed`` (tortoise's makemigrations, configured by TORTOISE_ORM below through
pyproject.toml's [tool.tortoise]); see docs/migrations.md.
"""
from __future__ import annotations

import logging
from typing import Any

from tortoise import Tortoise
from tortoise.migrations.executor import MigrationExecutor, MigrationTarget
from tortoise.migrations import operations as ops
from tortoise.migrations.operations import AddField

from .audit import audit

log = logging.getLogger("korchma.db")

MODELS = ["world.models"]
APP = "models"  # the app label the models' relations use ("models.Account")
APPS: dict[str, dict[str, Any]] = {APP: {"models": MODELS, "migrations": "world.migrations",
                                         "default_connection": "default"}}
# For tortoise's own CLI (makemigrations needs no real database: it compares the models with the
# migration files).
TORTOISE_ORM: dict[str, Any] = {"connections": {"default": "sqlite://:memory:"}, "apps": APPS}

INITIAL = "0001_initial"
# Operations whose whole effect on a new database is the models' final shape, which
# generate_schemas makes as well (data or SQL operations, RunPython and RunSQL, are not).
MODEL_OPERATIONS = (ops.CreateModel, ops.DeleteModel, ops.RenameModel, ops.AlterModelOptions, ops.AddField,
                    ops.RemoveField, ops.AlterField, ops.RenameField, ops.AddIndex, ops.RemoveIndex,
                    ops.RenameIndex, ops.AddConstraint, ops.RemoveConstraint, ops.RenameConstraint)
# A table every database made by any earlier version has (all tables date from the first release).
LEGACY_MARKER_TABLE = "account"


async def migrate() -> list[str]:
    """Apply the pending migrations to the default connection; return their names in order
    (empty when none were pending). An earlier version's database is adopted first."""
    conn = Tortoise.get_connection("default")
    executor = MigrationExecutor(conn, APPS)
    plan = await executor.plan()
    unknown = sorted(key.name for key in executor.loader.applied_migrations - set(executor.loader.graph.nodes))
    if unknown:  # a newer Korchma migrated this database; this older one runs on, and says so
        log.warning("the database has migrations this version does not know (%s): it was upgraded by "
                    "a newer Korchma", ", ".join(unknown))
    if not plan:
        return []
    names = [step.migration.name for step in plan]
    has_tables = await _table_exists(conn, LEGACY_MARKER_TABLE)
    if len(plan) == len(executor.loader.graph.nodes) and not has_tables and all(
            isinstance(op, MODEL_OPERATIONS) for step in plan for op in step.migration.operations):
        # A new database: the tables are made from the models in one go, which the migrations
        # are checked to equal (tests/test_migrate.py), and every migration is recorded. Running
        # each operation builds the models anew, many times: 0.1 s of CPU per start.
        await Tortoise.generate_schemas(safe=False)
        await executor.migrate(fake=True)
        return names
    if names[0] == INITIAL and has_tables:
        # Tables made by generate_schemas before migrations: the initial migration is what
        # they already are, so it is recorded, not run.
        await executor.migrate([MigrationTarget(APP, INITIAL)], fake=True)
        names[0] = f"{INITIAL} (recorded: the tables of an earlier version were there)"
    await MigrationExecutor(conn, APPS).migrate()
    return names


def summary(applied: list[str]) -> str:
    """What a migration run did, in one line."""
    if applied:
        return f"database schema migrated: applied {', '.join(applied)}"
    return "database schema is current: no migrations pending"


def report(applied: list[str]) -> None:
    """Log what a migration run did; an applied migration is an audit event too."""
    log.info("%s", summary(applied))
    if applied:
        audit("schema.migrated", applied=",".join(applied))


class AddFieldIfMissing(AddField):
    """AddField for a column that earlier versions may have added already (their ADDED_COLUMNS):
    the column is added only where the table lacks it. Its state is AddField's, so
    makemigrations sees the same model either way."""

    async def database_forward(self, app_label: str, old_state: Any, new_state: Any,
                               state_editor: Any = None) -> None:
        if not state_editor:
            return
        model = new_state.apps.get_model(f"{app_label}.{self.model_name}")
        column = model._meta.fields_db_projection[self.name]
        if column in await column_names(state_editor.client, model._meta.db_table):
            return
        await super().database_forward(app_label, old_state, new_state, state_editor)


class AddIndexThenUpdate(ops.AddIndex):
    """AddIndex, then ``UPDATE``: the rows a database already has get the values the new index
    is for. A new database is made from the models and has no rows: there it is recorded, not
    run, like any AddIndex (it is one: world/schema.py MODEL_OPERATIONS)."""

    UPDATE = ""

    async def database_forward(self, app_label: str, old_state: Any, new_state: Any,
                               state_editor: Any = None) -> None:
        await super().database_forward(app_label, old_state, new_state, state_editor)
        if state_editor:
            await state_editor.client.execute_script(self.UPDATE)


class AddIndexDatingBroken(AddIndexThenUpdate):
    """The tables broken before broken tables had an end time (world/broken_tables.py sets it
    now) get one: `history` lists a game by its end (world/history.py), and a broken one ended
    at the latest known moment before it broke (its start, else its opening)."""

    UPDATE = ("UPDATE game_table SET finished_at = COALESCE(started_at, created_at) "
              "WHERE state = 'broken' AND finished_at IS NULL")


class AddIndexDatingSeats(AddIndexThenUpdate):
    """The seats of the games that ended before seats kept the end time get their table's
    (world/history.py ``store_end``)."""

    UPDATE = ("UPDATE seat SET ended_at = (SELECT finished_at FROM game_table WHERE game_table.id = seat.table_id) "
              "WHERE ended_at IS NULL")


async def column_names(conn: Any, table: str) -> set[str]:
    if conn.capabilities.dialect == "sqlite":
        _, rows = await conn.execute_query(f'PRAGMA table_info("{table}")')
        return {row["name"] for row in rows}
    _, rows = await conn.execute_query(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1", [table])
    return {row["column_name"] for row in rows}


async def _table_exists(conn: Any, table: str) -> bool:
    if conn.capabilities.dialect == "sqlite":
        _, rows = await conn.execute_query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", [table])
    else:
        _, rows = await conn.execute_query(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name = $1", [table])
    return bool(rows)
