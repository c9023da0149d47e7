"""A message as it travels between nodes: JSON, with every Msg as its catalog key and parameters
(nested ones too: a `who` line's away marker, a table's options), so that the receiving node
renders it in its own players' languages and terminals (world/messages.py)."""
from __future__ import annotations

import json
from typing import Any

from ..messages import Msg

MSG_TAG = "$msg"  # {"$msg": key, "params": {...}}: no parameter name of ours starts with "$"


def to_plain(value: Any) -> Any:
    if isinstance(value, Msg):
        return {MSG_TAG: value.key, "params": {k: to_plain(v) for k, v in value.params.items()}}
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def from_plain(value: Any) -> Any:
    if isinstance(value, dict):
        if MSG_TAG in value:
            return Msg(str(value[MSG_TAG]), {k: from_plain(v) for k, v in (value.get("params") or {}).items()})
        return {k: from_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_plain(v) for v in value]
    return value


def dumps(value: Any) -> str:
    return json.dumps(to_plain(value), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    return from_plain(json.loads(text))
