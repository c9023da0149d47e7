"""What `who`, `finger` and `tables` show of the other nodes of a cluster (world/cluster/): a
player or a table there, from the entry its node keeps in Redis (world/cluster/presence.py)."""
from __future__ import annotations

import time
from typing import Any

from world.cluster.codec import from_plain
from world.messages import Msg, msg
from world.social import away_marked

from .base import Ctx


def where(entry: dict[str, Any], with_game: bool = False) -> Msg:
    """The hall, or the table the player sits at or watches (``with_game``: as `finger` says it)."""
    number = entry.get("table")
    if number is None:
        return msg("where.hall")
    if with_game:
        game = msg(f"game.{entry.get('game')}")
        return msg("profile.watching" if entry.get("watching") else "profile.at_table", number=number, game=game)
    return msg("where.watching" if entry.get("watching") else "where.table", number=number)


def idle_seconds(entry: dict[str, Any]) -> float:
    return max(0.0, time.time() - float(entry.get("input") or time.time()))


def who_name(entry: dict[str, Any]) -> str | Msg:
    return away_marked(str(entry["name"]), entry.get("away"))


def doors(ctx: Ctx, node: str, pairs: list[Any]) -> Msg | None:
    """An admin's line under a player: the node, then each session's door and address."""
    if ctx.account.role != "admin":
        return None
    return msg("cluster.who_node", node=node, doors=", ".join(f"{kind} {address}" for kind, address in pairs) or "-")


async def others_online(ctx: Ctx) -> list[tuple[str, dict[str, Any]]] | None:
    """(node, entry) for each account online on another node and not here; None if Redis cannot
    be read now (the caller says so in one line under this node's own list)."""
    cluster = ctx.world.cluster
    if cluster is None:
        return []
    found = await cluster.others_online()
    if found is None:
        return None
    seen: set[int] = set()
    out = []
    for node, entry in found:
        if entry["id"] in seen or ctx.world.is_online(entry["id"]):
            continue  # an account with sessions on two nodes is listed once
        seen.add(entry["id"])
        out.append((node, entry))
    return out


async def others_tables(ctx: Ctx, here: set[int]) -> list[dict[str, Any]] | None:
    """The summaries of the other nodes' tables (not those this node also lists); None if Redis
    cannot be read now."""
    cluster = ctx.world.cluster
    if cluster is None:
        return []
    found = await cluster.others_tables()
    if found is None:
        return None
    out: dict[int, dict[str, Any]] = {}
    for _, summary in found:
        if summary["number"] not in here:
            out.setdefault(int(summary["number"]), summary)
    return [out[n] for n in sorted(out)]


def table_line(summary: dict[str, Any]) -> dict[str, Any]:
    """The parameters of a `tables.line` for another node's table."""
    return {"number": summary["number"], "game": msg(f"game.{summary['game']}"),
            "options": from_plain(summary.get("options")) or "-", "taken": summary["taken"],
            "total": summary["total"], "state": msg(f"table.state.{summary['state']}")}
