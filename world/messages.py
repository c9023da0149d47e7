"""What the world says: a catalog key with parameters, rendered per recipient."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Msg:
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:  # params may hold lists; identity is enough for caching
        return id(self)


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)
